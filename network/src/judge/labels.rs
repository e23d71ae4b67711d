//! Human labels for calibrating a judge: JSON lines, one labelled case per line (the format is
//! on [`labels`]).

use std::path::Path;

use serde::Deserialize;

use super::calibrate::Labelled;
use agent_test_core::check::{Check, JudgeCheck, judge};
use agent_test_core::model::{Reply, Scope, Transcript, Turn};
use agent_test_core::util::input::{LoadError, LoadErrorKind, load_value, read_text};

/// A human's verdict.
#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum Label {
    Pass,
    Fail,
}

/// One line as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    criteria: Option<String>,
    #[serde(default)]
    threshold: Option<f64>,
    #[serde(default)]
    check: Option<Check>,
    #[serde(default)]
    input: Option<String>,
    #[serde(default)]
    reply: Option<String>,
    #[serde(default)]
    transcript: Option<Transcript>,
    #[serde(default)]
    scope: Option<Scope>,
    label: Label,
    #[serde(default)]
    score: Option<f64>,
}

/// The labelled cases of a JSON-lines file: one case per line.
///
/// ```json
/// {"id": "polite-1", "criteria": "apologises", "reply": "Sorry about that.", "label": "pass"}
/// {"criteria": "apologises", "threshold": 0.7, "input": "Where is my order?", "reply": "Not my problem.", "label": "fail", "score": 0.1}
/// {"check": {"type": "judge", "criteria": "grounded", "kind": "hallucination"}, "transcript": {"turns": []}, "label": "pass"}
/// ```
///
/// A case names its check by `criteria` (with an optional `threshold`, 0.8 by default) or as a
/// whole judge `check` as scenario files write it; and what it grades by `reply` (with the
/// user's `input`, if the judge should see it) or a whole `transcript` (as reports and
/// recordings hold it), with the check's `scope` there (`{"turn": 1}`, 0-based, or
/// `"conversation"`, the default: the final reply). `label` is `pass` or `fail`; `score`, from
/// 0 to 1, is optional. Unknown fields, a key given twice, both or neither of a pair are errors
/// naming the line.
///
/// ```
/// let err = agent_test::judge::calibrate::labels("no-labels.jsonl").unwrap_err();
/// assert_eq!(err.kind, agent_test::load::LoadErrorKind::NotFound);
/// ```
pub fn labels(path: impl AsRef<Path>) -> Result<Vec<Labelled>, LoadError> {
    let path = path.as_ref();
    labels_from_text(&read_text(path)?, path)
}

/// [`labels`] of a text; `file` names it in errors. Blank lines are skipped.
///
/// ```
/// let text = r#"{"criteria": "apologises", "reply": "Sorry.", "label": "pass"}
/// {"criteria": "apologises", "reply": "No.", "label": "maybe"}"#;
/// let err = agent_test::judge::calibrate::labels_from_text(text, "labels.jsonl").unwrap_err();
/// assert_eq!(err.to_string(), "labels.jsonl: at line 2, label: unknown variant `maybe`, expected `pass` or `fail`");
/// ```
pub fn labels_from_text(text: &str, file: impl AsRef<Path>) -> Result<Vec<Labelled>, LoadError> {
    let file = file.as_ref();
    let mut cases = Vec::new();
    for (i, line) in agent_test_core::util::json::strip_bom(text)
        .lines()
        .enumerate()
    {
        if line.trim().is_empty() {
            continue;
        }
        let at = |e: LoadError| LoadError {
            path: match e.path.as_str() {
                "" | "." => format!("line {}", i + 1),
                inner => format!("line {}, {inner}", i + 1),
            },
            ..e
        };
        let value = agent_test_core::util::input::parse_json(line, file).map_err(|e| {
            // The syntax error's own place is a column of this line.
            let column = e.path.rsplit_once("column ").map(|(_, c)| c.to_owned());
            LoadError {
                path: column.map_or_else(
                    || format!("line {}", i + 1),
                    |c| format!("line {}, column {c}", i + 1),
                ),
                ..e
            }
        })?;
        let read: Line = load_value(file, value).map_err(at)?;
        cases.push(case(read, i + 1).map_err(|message| LoadError {
            kind: LoadErrorKind::Invalid,
            file: file.to_owned(),
            path: format!("line {}", i + 1),
            message,
        })?);
    }
    Ok(cases)
}

/// A line's case, or what is wrong with it.
fn case(line: Line, number: usize) -> Result<Labelled, String> {
    let check: JudgeCheck = match (line.criteria, line.check, line.threshold) {
        (Some(_), Some(_), _) => return Err("give `criteria` or `check`, not both".to_owned()),
        (None, None, _) => {
            return Err(
                "no `criteria` or `check`: which judge check is this label for?".to_owned(),
            );
        }
        (None, Some(_), Some(_)) => {
            return Err("`threshold` goes with `criteria`; a `check` has its own".to_owned());
        }
        (Some(c), None, _) if c.trim().is_empty() => return Err("`criteria` is empty".to_owned()),
        (Some(c), None, Some(t)) => judge(c).threshold(t),
        (Some(c), None, None) => judge(c),
        (None, Some(Check::Judge(c)), None) => c,
        (None, Some(other), None) => {
            return Err(format!(
                "`check` is a `{}` check: only judge checks are calibrated",
                other.kind()
            ));
        }
    };
    // An impossible threshold is refused as a scenario file refuses it.
    if let Some(why) = Check::Judge(check.clone()).problem() {
        return Err(format!("impossible constraint: {why}"));
    }
    if let Some(s) = line.score
        && !(0.0..=1.0).contains(&s)
    {
        return Err(format!("`score` {s} is not in [0, 1]"));
    }
    let (check, transcript) = match (line.reply, line.transcript, line.input) {
        (Some(_), Some(_), _) => return Err("give `reply` or `transcript`, not both".to_owned()),
        (None, None, _) => {
            return Err("no `reply` or `transcript`: what does the judge grade?".to_owned());
        }
        (None, Some(_), Some(_)) => {
            return Err("`input` goes with `reply`; a `transcript` has its own".to_owned());
        }
        (None, Some(t), None) => (check, t),
        (Some(reply), None, input) => {
            // Without the user's message the judge is shown none (rather than an empty one).
            let check = if input.is_some() {
                check
            } else {
                check.without_prompt()
            };
            let turn = Turn::recorded(0, input.unwrap_or_default(), Reply::text(reply));
            (check, Transcript::new(vec![turn]))
        }
    };
    let scope = line.scope.unwrap_or_default();
    if let Scope::Turn(i) | Scope::UpTo(i) = scope
        && i >= transcript.turns.len()
    {
        return Err(format!(
            "`scope` names turn {i} (0-based), and the transcript has {} turn{}",
            transcript.turns.len(),
            if transcript.turns.len() == 1 { "" } else { "s" }
        ));
    }
    Ok(Labelled {
        id: line.id.unwrap_or_else(|| format!("line {number}")),
        check,
        scope,
        transcript,
        label: matches!(line.label, Label::Pass),
        score: line.score,
    })
}

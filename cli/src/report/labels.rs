//! Labelling the judge from the HTML report: each graded judge verdict gets a "judge right /
//! judge wrong" pair of buttons, and "Export labels" writes what a reader marked as the JSON
//! lines `agent-test judge calibrate` reads — the check, its scope, the transcript, and the
//! human's label (the judge's verdict when marked right, the other one when marked wrong).

use agent_test_runtime::Verdict;
use agent_test_runtime::check::{Expectation, Scope, Status};
use serde_json::{Value, json};

use super::Entry;

/// The page's judge verdicts a reader can mark, and the transcripts they graded (each once).
#[derive(Default)]
pub(super) struct Labels {
    transcripts: Vec<Value>,
    candidates: Vec<Value>,
    /// The entry whose transcript was added last, and its index.
    last: Option<(String, usize)>,
}

impl Labels {
    /// The number of `v`'s candidate when it is a judge verdict that passed or failed (one
    /// that was graded), registering it; `None` for any other verdict.
    pub(super) fn candidate(&mut self, e: &Entry, v: &Verdict) -> Option<usize> {
        let judge = match v.status {
            Status::Pass => "pass",
            Status::Fail => "fail",
            _ => return None,
        };
        // Only the judge checks are read back (a report's other checks are most of them).
        let check = e.report.checks.iter().find_map(|c| {
            if c.pointer("/check/type").and_then(Value::as_str) != Some("judge") {
                return None;
            }
            let read: Expectation = serde_json::from_value(c.clone()).ok()?;
            let same = read.display_label() == v.label && read.scope == v.scope;
            same.then(|| c.get("check").cloned()).flatten()
        })?;
        let whose = format!("{}\u{0}{}", e.source, e.key());
        let transcript = match &self.last {
            Some((key, i)) if *key == whose => *i,
            _ => {
                self.transcripts
                    .push(serde_json::to_value(&e.report.transcript).ok()?);
                let i = self.transcripts.len() - 1;
                self.last = Some((whose, i));
                i
            }
        };
        self.candidates.push(json!({
            "id": format!("{}: {}", e.key(), v.label),
            "check": check,
            "scope": scope(v.scope),
            "transcript": transcript,
            "judge": judge,
        }));
        Some(self.candidates.len() - 1)
    }

    /// Whether any verdict can be marked.
    pub(super) fn any(&self) -> bool {
        !self.candidates.is_empty()
    }

    /// The data the page's script exports from, in a JSON script element (`<` escaped, so no
    /// text in it can close the element); empty when there is nothing to mark.
    pub(super) fn script(&self) -> String {
        if !self.any() {
            return String::new();
        }
        let data = json!({"transcripts": self.transcripts, "candidates": self.candidates});
        format!(
            "<script type=\"application/json\" id=\"labels-data\">{}</script>",
            data.to_string().replace('<', "\\u003c")
        )
    }
}

/// A scope as a report's checks write it.
fn scope(s: Scope) -> Value {
    serde_json::to_value(s).unwrap_or(Value::Null)
}

/// The buttons of candidate `i`.
pub(super) fn buttons(i: usize) -> String {
    format!(
        "<span class=\"labelling\" data-candidate=\"{i}\">judge <button data-mark=\"right\" \
         title=\"the judge's verdict is right\">right</button><button data-mark=\"wrong\" \
         title=\"the judge's verdict is wrong\">wrong</button></span>"
    )
}

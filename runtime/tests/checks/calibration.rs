//! Calibrating a judge against human labels: a scripted judge whose errors are known, on 45
//! labelled cases, gives the agreement, κ, rates, intervals and best threshold computed here
//! independently from the confusion counts.

use agent_test_runtime::agent::BoxFuture;
use agent_test_runtime::check::Scope;
use agent_test_runtime::judge::calibrate::{Calibration, Labelled};
use agent_test_runtime::judge::{
    Completion, Judge, JudgeMode, JudgeModel, JudgePrompt, ModelError,
};
use agent_test_runtime::prelude::*;

/// Grades each case by the score written in its reply (`case 7 0.85`); a reply saying
/// `garbled` gets an answer that is not JSON.
struct Scripted;

impl JudgeModel for Scripted {
    fn id(&self) -> String {
        "scripted".into()
    }

    fn complete<'a>(&'a self, p: &'a JudgePrompt) -> BoxFuture<'a, Result<Completion, ModelError>> {
        Box::pin(async move {
            let asked: serde_json::Value = serde_json::from_str(&p.user).expect("JSON prompt");
            let results: Vec<serde_json::Value> = asked["checks"]
                .as_array()
                .expect("checks")
                .iter()
                .map(|c| {
                    let text = c["material"]["text"].as_str().expect("text");
                    let score: f64 = text.rsplit(' ').next().unwrap().parse().unwrap_or(0.0);
                    json!({"id": c["id"], "score": score, "pass": score >= 0.5, "reasoning": format!("scored {score}")})
                })
                .collect();
            let text = asked["checks"][0]["material"]["text"]
                .as_str()
                .unwrap_or_default();
            let answer = if text.contains("garbled") {
                "not JSON at all".to_owned()
            } else {
                json!({ "results": results }).to_string()
            };
            Ok(Completion {
                text: answer,
                usage: None,
            })
        })
    }
}

/// (human label, judge score) of each case: 24 humans passed, 20 failed.
fn cases() -> Vec<(bool, f64)> {
    let mut c = Vec::new();
    c.extend(std::iter::repeat_n((true, 0.9), 18)); // agreed
    c.extend(std::iter::repeat_n((true, 0.75), 3)); // judge fails: under 0.8
    c.extend(std::iter::repeat_n((true, 0.3), 3)); // judge fails
    c.extend(std::iter::repeat_n((false, 0.1), 14)); // agreed
    c.extend(std::iter::repeat_n((false, 0.85), 3)); // judge passes
    c.extend(std::iter::repeat_n((false, 0.78), 3)); // agreed, near the threshold
    c
}

/// κ from the four counts, written out from its definition.
fn kappa(tp: f64, fneg: f64, fpos: f64, tn: f64) -> f64 {
    let n = tp + fneg + fpos + tn;
    let po = (tp + tn) / n;
    let yes = (tp + fneg) / n * ((tp + fpos) / n);
    let no = (fpos + tn) / n * ((fneg + tn) / n);
    (po - (yes + no)) / (1.0 - (yes + no))
}

/// The Wilson interval at 95 %, from its formula.
fn wilson(k: f64, n: f64) -> (f64, f64) {
    let z: f64 = 1.959_963_984_540_054;
    let p = k / n;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

async fn calibrated() -> Calibration {
    let check = judge("answers the question");
    let mut labelled: Vec<Labelled> = cases()
        .into_iter()
        .enumerate()
        .map(|(i, (label, score))| {
            Labelled::reply(
                format!("c{i}"),
                check.clone(),
                &format!("case {i} {score}"),
                label,
            )
        })
        .collect();
    labelled.push(Labelled::reply("broken", check, "garbled 0.9", true));
    Judge::new(Scripted)
        .mode(JudgeMode::Off)
        .retries(0)
        .calibrate(&labelled, 4)
        .await
}

#[tokio::test]
async fn a_scripted_judge_with_known_errors_gives_the_exact_agreement() {
    let c = calibrated().await;
    assert_eq!(c.checks.len(), 1);
    let a = &c.checks[0];
    assert_eq!(a.check, "judge \"answers the question\" (score ≥ 0.8)");
    // At 0.8: 18 true positives, 6 false negatives, 3 false positives, 17 true negatives.
    let counts = &a.confusion;
    assert_eq!(
        (
            counts.true_positives,
            counts.false_negatives,
            counts.false_positives,
            counts.true_negatives
        ),
        (18, 6, 3, 17)
    );
    assert_eq!(a.cases, 44);
    assert!((a.agreement - 35.0 / 44.0).abs() < 1e-12);
    let expected = kappa(18.0, 6.0, 3.0, 17.0);
    assert!(
        (a.kappa.unwrap() - expected).abs() < 1e-12,
        "{:?} vs {expected}",
        a.kappa
    );
    let tpr = a.true_positive_rate.unwrap();
    let (low, high) = wilson(18.0, 24.0);
    assert_eq!((tpr.hits, tpr.cases), (18, 24));
    assert!((tpr.rate - 0.75).abs() < 1e-12);
    assert!(
        (tpr.low - low).abs() < 1e-9 && (tpr.high - high).abs() < 1e-9,
        "{tpr:?}"
    );
    let tnr = a.true_negative_rate.unwrap();
    let (low, high) = wilson(17.0, 20.0);
    assert_eq!((tnr.hits, tnr.cases), (17, 20));
    assert!(
        (tnr.low - low).abs() < 1e-9 && (tnr.high - high).abs() < 1e-9,
        "{tnr:?}"
    );
    // The best threshold, found here by trying every score: 0.9 (no false positive left).
    let best = [0.1, 0.3, 0.75, 0.78, 0.85, 0.9]
        .into_iter()
        .map(|t| {
            let mut n = [0.0; 4];
            for (human, score) in cases() {
                n[usize::from(!human) * 2 + usize::from(score < t)] += 1.0;
            }
            (t, kappa(n[0], n[1], n[2], n[3]))
        })
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap();
    let found = a.best_threshold.unwrap();
    assert_eq!(found.threshold, best.0);
    assert!((found.kappa - best.1).abs() < 1e-12);
    assert_eq!(a.disagreements.len(), 9);
    let d = a.disagreements.iter().find(|d| d.id == "c24").map(|_| ());
    assert!(d.is_none(), "an agreed case is not listed");
    let fp = a.disagreements.iter().find(|d| d.id == "c38").unwrap();
    assert_eq!((fp.label, fp.pass, fp.score), (false, true, 0.85));
    assert_eq!(fp.reasoning, "scored 0.85");
    // The case the judge could not grade is counted nowhere, and says why.
    assert_eq!(c.ungraded.len(), 1);
    assert_eq!(c.ungraded[0].id, "broken");
    assert!(
        c.ungraded[0]
            .reason
            .starts_with("the judge's answer is not JSON"),
        "{}",
        c.ungraded[0].reason
    );
}

#[tokio::test]
async fn kappa_is_undefined_when_every_label_and_verdict_is_the_same() {
    let check = judge("answers the question");
    let labelled: Vec<Labelled> = (0..5)
        .map(|i| Labelled::reply(format!("c{i}"), check.clone(), "case 0.9", true))
        .collect();
    let c = Judge::new(Scripted)
        .mode(JudgeMode::Off)
        .calibrate(&labelled, 2)
        .await;
    let a = &c.checks[0];
    assert_eq!(a.kappa, None);
    assert_eq!(a.agreement, 1.0);
    assert!(a.true_negative_rate.is_none());
    assert!(a.best_threshold.is_none());
}

#[test]
fn labels_load_strictly() {
    use agent_test_runtime::judge::calibrate::labels_from_text;
    let ok = r#"{"criteria": "apologises", "reply": "Sorry.", "label": "pass", "score": 0.9}
{"id": "t", "check": {"type": "judge", "criteria": "grounded", "threshold": 0.6}, "transcript": {"turns": [{"index": 0, "input": "hi", "reply": {"text": "Hello"}}]}, "scope": {"turn": 0}, "label": "fail"}
"#;
    let cases = labels_from_text(ok, "l.jsonl").unwrap();
    assert_eq!(cases.len(), 2);
    assert_eq!(cases[0].id, "line 1");
    assert_eq!(cases[0].score, Some(0.9));
    assert_eq!(
        cases[1].check.describe(),
        "judge \"grounded\" (score ≥ 0.6)"
    );
    assert!(!cases[1].label);
    assert_eq!(cases[1].scope, Scope::Turn(0));
    let err = |text: &str| labels_from_text(text, "l.jsonl").unwrap_err().to_string();
    assert_eq!(
        err(
            r#"{"criteria": "a", "transcript": {"turns": []}, "scope": {"turn": 2}, "label": "pass"}"#
        ),
        "l.jsonl: at line 1: `scope` names turn 2 (0-based), and the transcript has 0 turns"
    );
    assert_eq!(
        err(r#"{"criteria": "a", "reply": "b", "label": "pass", "lable": "x"}"#),
        "l.jsonl: at line 1, lable: unknown field `lable`, expected one of `id`, `criteria`, `threshold`, `check`, `input`, `reply`, `transcript`, `scope`, `label`, `score`"
    );
    assert_eq!(
        err("\n{\"criteria\": \"a\", \"criteria\": \"b\", \"reply\": \"b\", \"label\": \"pass\"}"),
        "l.jsonl: at line 2: duplicate key `criteria`: first at line 1, column 2, again at line 1, column 19; a key may appear only once in an object"
    );
    assert_eq!(
        err(r#"{"criteria": "a", "label": "pass"}"#),
        "l.jsonl: at line 1: no `reply` or `transcript`: what does the judge grade?"
    );
    assert_eq!(
        err(r#"{"criteria": "a", "threshold": 1.5, "reply": "b", "label": "pass"}"#),
        "l.jsonl: at line 1: impossible constraint: threshold 1.5 is outside 0..=1: a judge score goes from 0 (not at all) to 1 (fully)"
    );
    assert_eq!(
        err(r#"{"check": {"type": "no_tools"}, "reply": "b", "label": "pass"}"#),
        "l.jsonl: at line 1: `check` is a `no_tools` check: only judge checks are calibrated"
    );
    assert_eq!(
        err(r#"{"criteria": "a", "reply": "b", "label": "pass", "score": 2}"#),
        "l.jsonl: at line 1: `score` 2 is not in [0, 1]"
    );
    assert_eq!(
        err(r#"{"criteria": "a", "reply": "b", "label": "pass""#),
        "l.jsonl: at line 1, column 47: not valid JSON: EOF while parsing an object"
    );
}

//! `agent-test judge calibrate`: a judge on 127.0.0.1 graded against labels, its report and
//! its gate.

use std::sync::atomic::Ordering;

use serde_json::{Value, json};

use crate::support::command::{assert_exit, bin, scripted_judge, stderr, stdout, temp};

/// Eight labelled cases: humans pass four (the judge scores 0.9, 0.9, 0.9, 0.5) and fail four
/// (0.1, 0.1, 0.85, 0.1). At the threshold 0.8 the judge is wrong on two.
fn labels() -> String {
    let cases = [
        ("pass", 0.9),
        ("pass", 0.9),
        ("pass", 0.9),
        ("pass", 0.5),
        ("fail", 0.1),
        ("fail", 0.1),
        ("fail", 0.85),
        ("fail", 0.1),
    ];
    cases
        .iter()
        .enumerate()
        .map(|(i, (label, score))| {
            json!({"id": format!("case-{i}"), "criteria": "answers the question",
                   "reply": format!("answer {i} {score}"), "label": label})
            .to_string()
                + "\n"
        })
        .collect()
}

/// `agent-test judge calibrate` with the scripted judge, in `dir`.
async fn calibrate(dir: &std::path::Path, url: &str, args: &[&str]) -> std::process::Output {
    let (dir, url) = (dir.to_owned(), url.to_owned());
    let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
    tokio::task::spawn_blocking(move || {
        bin()
            .args(["judge", "calibrate"])
            .args(&args)
            .env("AGENT_TEST_JUDGE_MODEL", "judge-model")
            .env("AGENT_TEST_JUDGE_BASE_URL", &url)
            .env("AGENT_TEST_JUDGE_API_KEY", "test-key")
            .env("AGENT_TEST_JUDGE_CACHE", dir.join("judge-cache"))
            .env("AGENT_TEST_JUDGE_RETRIES", "0")
            .env_remove("AGENT_TEST_JUDGE_MODE")
            .current_dir(&dir)
            .output()
            .expect("runs")
    })
    .await
    .expect("joined")
}

#[tokio::test]
async fn calibrate_reports_agreement_and_gates_on_kappa() {
    let dir = temp("calibrate");
    std::fs::write(dir.join("labels.jsonl"), labels()).expect("write");
    let (url, count) = scripted_judge().await;
    let out = calibrate(&dir, &url, &["labels.jsonl"]).await;
    assert_exit(&out, 0);
    // κ = (6/8 − 1/2) / (1 − 1/2); Wilson 3/4 at 95 %: 30.1 %–95.4 %; the best threshold ties
    // 0.5 and 0.9 at κ 0.75 and takes the nearer to 0.8.
    assert_eq!(
        stdout(&out),
        "judge \"answers the question\" (score ≥ 0.8): 8 cases\n  \
         agreement 75.0%, kappa 0.500\n  \
         true positives 3/4 = 75.0% (30.1%–95.4%); true negatives 3/4 = 75.0% (30.1%–95.4%)\n  \
         best threshold 0.9 (kappa 0.750; the check's is 0.8)\n  \
         disagrees on case-3: human pass, judge fail at 0.5: graded 0.5\n  \
         disagrees on case-6: human fail, judge pass at 0.85: graded 0.85\n"
    );
    assert_eq!(count.load(Ordering::SeqCst), 8, "one request per case");
    // Graded again from the cache: nothing asked.
    let out = calibrate(&dir, &url, &["labels.jsonl", "--min-kappa", "0.5"]).await;
    assert_exit(&out, 0);
    assert_eq!(count.load(Ordering::SeqCst), 8);
    let out = calibrate(&dir, &url, &["labels.jsonl", "--min-kappa", "0.6"]).await;
    assert_exit(&out, 1);
    assert!(
        stderr(&out).contains(
            "judge \"answers the question\" (score ≥ 0.8): kappa 0.500 is under --min-kappa 0.6"
        ),
        "{}",
        stderr(&out)
    );
    let out = calibrate(&dir, &url, &["labels.jsonl", "--format", "json"]).await;
    assert_exit(&out, 0);
    let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let check = &doc["checks"][0];
    assert_eq!(check["confusion"]["false_positives"], 1);
    assert_eq!(check["kappa"], 0.5);
    assert_eq!(check["best_threshold"]["threshold"], 0.9);
    assert_eq!(check["disagreements"][1]["id"], "case-6");
}

#[tokio::test]
async fn calibrate_refuses_what_it_cannot_measure() {
    let dir = temp("calibrate-refusals");
    let (url, _) = scripted_judge().await;
    // A case the judge cannot grade: listed, counted nowhere, and exit 2.
    let garbled = json!({"id": "g", "criteria": "answers", "reply": "garbled", "label": "pass"});
    std::fs::write(dir.join("g.jsonl"), format!("{}\n{garbled}\n", labels())).expect("write");
    let out = calibrate(&dir, &url, &["g.jsonl"]).await;
    assert_exit(&out, 2);
    assert!(
        stdout(&out).contains(
            "not graded: g (judge \"answers\" (score ≥ 0.8)): the judge's answer is not JSON"
        ),
        "{}",
        stdout(&out)
    );
    assert!(
        stderr(&out).contains("1 case could not be graded"),
        "{}",
        stderr(&out)
    );
    // Every label and every verdict the same: κ is undefined, and the gate cannot read it.
    let same = json!({"criteria": "answers", "reply": "a 0.9", "label": "pass"}).to_string();
    std::fs::write(dir.join("same.jsonl"), format!("{same}\n{same}\n")).expect("write");
    let out = calibrate(&dir, &url, &["same.jsonl", "--min-kappa", "0.4"]).await;
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("kappa is undefined"),
        "{}",
        stderr(&out)
    );
    // A label file with a mistake names its line.
    std::fs::write(
        dir.join("bad.jsonl"),
        "{\"criteria\": \"a\", \"reply\": \"b\", \"label\": \"yes\"}\n",
    )
    .expect("write");
    let out = calibrate(&dir, &url, &["bad.jsonl"]).await;
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains(
            "bad.jsonl: at line 1, label: unknown variant `yes`, expected `pass` or `fail`"
        ),
        "{}",
        stderr(&out)
    );
    // No judge named: nothing to calibrate.
    std::fs::write(dir.join("labels.jsonl"), labels()).expect("write");
    let out = bin()
        .args(["judge", "calibrate", "labels.jsonl"])
        .env_remove("AGENT_TEST_JUDGE_MODEL")
        .env_remove("AGENT_TEST_JUDGE_PROVIDER")
        .env_remove("AGENT_TEST_JUDGE_BASE_URL")
        .current_dir(&dir)
        .output()
        .expect("runs");
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("no judge configured"),
        "{}",
        stderr(&out)
    );
}

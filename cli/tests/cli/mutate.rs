//! `agent-test mutate`: the reports of a passing run, their mutants, the score and its gate.

use serde_json::{Value, json};

use crate::support::command::{assert_exit, bin, serve, stderr, stdout, temp, write};

/// An HTTP agent that looks the order up and refunds it.
async fn refund_agent() -> String {
    use axum::routing::post;
    let router = axum::Router::new().route(
        "/agent",
        post(|| async {
            axum::Json(
                json!({"reply": "Refund sent for ORD-9921. It takes 5 days.", "tool_calls": [
                    {"name": "lookup_order", "arguments": {"order_id": "ORD-9921"}},
                    {"name": "process_refund", "arguments": {"order_id": "ORD-9921", "amount": 42}}
                ]}),
            )
        }),
    );
    format!("http://{}/agent", serve(router).await)
}

/// `agent-test run` on `scenario`, its JSON output in `dir/run-NAME.json`.
async fn run_once(dir: &std::path::Path, name: &str, scenario: Value) -> std::path::PathBuf {
    let url = refund_agent().await;
    write(&dir.join(format!("{name}.scenario.json")), &scenario);
    let out_file = dir.join(format!("run-{name}.json"));
    let out = tokio::task::spawn_blocking({
        let (dir, name) = (dir.to_owned(), name.to_owned());
        move || {
            bin()
                .args([
                    "run",
                    "--format",
                    "json",
                    "--calls-at",
                    "tool_calls",
                    "--scenarios",
                ])
                .arg(dir.join(format!("{name}.scenario.json")))
                .args(["--http", &url])
                .output()
                .expect("runs")
        }
    })
    .await
    .expect("joined");
    assert_exit(&out, 0);
    std::fs::write(&out_file, &out.stdout).expect("write the run");
    out_file
}

fn tool_check(name: &str, count: u64) -> Value {
    json!({"check": {"type": "tool", "name": name, "count": {"exactly": count}}})
}

#[tokio::test]
async fn mutate_scores_a_suite_and_gates_on_it() {
    let dir = temp("mutate");
    let reply_only = json!({"name": "reply only", "steps": [
        {"step": "user", "text": "refund ORD-9921", "expect": [
            {"check": {"type": "text", "source": "reply", "op": "contains", "value": "Refund"}}
        ]}
    ]});
    let weak = run_once(&dir, "weak", reply_only).await;
    let out = bin().arg("mutate").arg(&weak).output().expect("runs");
    assert_exit(&out, 0);
    let text = stdout(&out);
    // Cutting the reply's last sentence survives the reply check; a dropped call survives,
    // read by no check.
    assert!(
        text.contains("survived: dropped the last sentence of reply 1 (unnoticed by reply contains \"Refund\")"),
        "{text}"
    );
    assert!(
        text.contains("survived: dropped the call of turn 1, `lookup_order` (no check reads it)"),
        "{text}"
    );

    let counted = json!({"name": "counted", "steps": [
        {"step": "user", "text": "refund ORD-9921", "expect": [
            {"check": {"type": "text", "source": "reply", "op": "contains", "value": "Refund"}},
            tool_check("lookup_order", 1),
            tool_check("process_refund", 1)
        ]}
    ]});
    let strong = run_once(&dir, "strong", counted).await;
    let out = bin()
        .args(["mutate", "--format", "json"])
        .arg(&strong)
        .output()
        .expect("runs");
    assert_exit(&out, 0);
    let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let mutants = doc["scenarios"][0]["mutants"]
        .as_array()
        .expect("mutants")
        .clone();
    for change in [
        "dropped the call of turn 1, `lookup_order`",
        "called turn 1, `process_refund` twice",
    ] {
        let m = mutants
            .iter()
            .find(|m| m["change"] == change)
            .unwrap_or_else(|| panic!("{change} in {mutants:#?}"));
        assert_eq!(m["fate"], "killed", "{m}");
    }
    let (weak_score, strong_score) = {
        let score = |path: &std::path::Path| -> f64 {
            let out = bin()
                .args(["mutate", "--format", "json"])
                .arg(path)
                .output()
                .expect("runs");
            let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON");
            doc["score"].as_f64().expect("a score")
        };
        (score(&weak), score(&strong))
    };
    assert!(strong_score > weak_score, "{strong_score} > {weak_score}");

    // The gate: under the score, 1; at it, 0.
    let out = bin()
        .arg("mutate")
        .arg(&weak)
        .args(["--min-score", "1"])
        .output()
        .expect("runs");
    assert_exit(&out, 1);
    assert!(
        stderr(&out).contains("is under --min-score 100.0%"),
        "{}",
        stderr(&out)
    );
    let out = bin()
        .arg("mutate")
        .arg(&weak)
        .args(["--min-score", &weak_score.to_string()])
        .output()
        .expect("runs");
    assert_exit(&out, 0);
    let out = bin()
        .args(["mutate", "--min-score", "1.5"])
        .arg(&weak)
        .output()
        .expect("runs");
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("`1.5` is not a score"),
        "{}",
        stderr(&out)
    );

    // A report without checks measures nothing: said, and exit 2.
    let mut bare: Value = serde_json::from_slice(&std::fs::read(&weak).unwrap()).unwrap();
    bare["runs"][0]["report"]
        .as_object_mut()
        .unwrap()
        .remove("checks");
    write(&dir.join("bare.json"), &bare);
    let out = bin()
        .arg("mutate")
        .arg(dir.join("bare.json"))
        .output()
        .expect("runs");
    assert_exit(&out, 2);
    assert!(
        stdout(&out).contains("not mutated: the report holds no checks"),
        "{}",
        stdout(&out)
    );
    assert!(
        stderr(&out).contains("nothing was measured"),
        "{}",
        stderr(&out)
    );
}

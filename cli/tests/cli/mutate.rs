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
    run_with(dir, name, scenario, Vec::new()).await
}

/// [`run_once`] with more environment variables.
async fn run_with(
    dir: &std::path::Path,
    name: &str,
    scenario: Value,
    env: Vec<(&'static str, String)>,
) -> std::path::PathBuf {
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
                .envs(env)
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

// Several threads: the judge on 127.0.0.1 answers while the test waits for the command.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn judge_checks_are_graded_from_the_cache_unless_asked() {
    use std::sync::atomic::Ordering;
    let dir = temp("mutate-judge");
    let (judge_url, asked) = crate::support::command::scripted_judge().await;
    let cache = dir.join("judge-cache").display().to_string();
    let judged = json!({"name": "judged", "steps": [
        {"step": "user", "text": "refund ORD-9921", "expect": [
            {"check": {"type": "judge", "criteria": "confirms the refund"}},
            tool_check("lookup_order", 1)
        ]}
    ]});
    let env = vec![
        ("AGENT_TEST_JUDGE_MODEL", "judge-model".to_owned()),
        ("AGENT_TEST_JUDGE_BASE_URL", judge_url.clone()),
        ("AGENT_TEST_JUDGE_CACHE", cache.clone()),
    ];
    let report = run_with(&dir, "judged", judged, env).await;
    let after_run = asked.load(Ordering::SeqCst);
    assert_eq!(after_run, 1);
    let fates = |out: &std::process::Output| -> Vec<(String, String)> {
        let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        doc["scenarios"][0]["mutants"]
            .as_array()
            .expect("mutants")
            .iter()
            .map(|m| {
                (
                    m["change"].as_str().unwrap().to_owned(),
                    m["fate"].as_str().unwrap().to_owned(),
                )
            })
            .collect()
    };
    let fate = |all: &[(String, String)], change: &str| {
        all.iter()
            .find(|(c, _)| c == change)
            .map(|(_, f)| f.clone())
            .unwrap_or_else(|| panic!("{change} in {all:?}"))
    };
    // From the cache, under the model the report names (no judge in the environment): the
    // unchanged reply's verdict is reused; an emptied reply needs the judge; nothing is asked.
    let out = bin()
        .args(["mutate", "--format", "json"])
        .arg(&report)
        .env_remove("AGENT_TEST_JUDGE_MODEL")
        .env_remove("AGENT_TEST_JUDGE_BASE_URL")
        .env("AGENT_TEST_JUDGE_CACHE", &cache)
        .output()
        .expect("runs");
    assert_exit(&out, 0);
    let cached = fates(&out);
    assert_eq!(
        fate(&cached, "dropped the call of turn 1, `lookup_order`"),
        "killed"
    );
    assert_eq!(
        fate(&cached, "dropped the call of turn 1, `process_refund`"),
        "survived"
    );
    assert_eq!(fate(&cached, "emptied reply 1"), "needs_judge");
    assert_eq!(asked.load(Ordering::SeqCst), after_run, "no request");
    let text = bin()
        .arg("mutate")
        .arg(&report)
        .env("AGENT_TEST_JUDGE_CACHE", &cache)
        .output()
        .expect("runs");
    assert!(
        stdout(&text).contains(" need the judge)"),
        "{}",
        stdout(&text)
    );
    // Asked: the mutants the judge has not seen are graded live.
    let out = bin()
        .args(["mutate", "--format", "json", "--judge-live"])
        .arg(&report)
        .env("AGENT_TEST_JUDGE_MODEL", "judge-model")
        .env("AGENT_TEST_JUDGE_BASE_URL", &judge_url)
        .env("AGENT_TEST_JUDGE_CACHE", &cache)
        .output()
        .expect("runs");
    assert_exit(&out, 0);
    let live = fates(&out);
    assert_eq!(fate(&live, "emptied reply 1"), "killed");
    assert!(live.iter().all(|(_, f)| f != "needs_judge"), "{live:?}");
    assert!(asked.load(Ordering::SeqCst) > after_run);
    // --judge-live without a judge is refused.
    let out = bin()
        .args(["mutate", "--judge-live"])
        .arg(&report)
        .env_remove("AGENT_TEST_JUDGE_MODEL")
        .env_remove("AGENT_TEST_JUDGE_PROVIDER")
        .env_remove("AGENT_TEST_JUDGE_BASE_URL")
        .output()
        .expect("runs");
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("--judge-live needs a judge"),
        "{}",
        stderr(&out)
    );
}

#[tokio::test]
async fn two_mutation_runs_are_compared_and_the_page_lists_the_survivors() {
    let dir = temp("mutate-diff");
    let scenario = |expect: Vec<Value>| json!({"name": "refund", "steps": [{"step": "user", "text": "refund ORD-9921", "expect": expect}]});
    let reply_check =
        json!({"check": {"type": "text", "source": "reply", "op": "contains", "value": "Refund"}});
    let strong = run_once(
        &dir,
        "strong",
        scenario(vec![reply_check.clone(), tool_check("lookup_order", 1)]),
    )
    .await;
    let weak = run_once(&dir, "weak", scenario(vec![reply_check])).await;
    let mutation = |report: &std::path::Path, out: &str| {
        let run = bin()
            .args(["mutate", "--format", "json", "--html"])
            .arg(dir.join(format!("{out}.html")))
            .arg(report)
            .output()
            .expect("runs");
        assert_exit(&run, 0);
        std::fs::write(dir.join(format!("{out}.json")), &run.stdout).expect("write");
        dir.join(format!("{out}.json"))
    };
    let (before, after) = (mutation(&strong, "before"), mutation(&weak, "after"));
    // A check removed: the mutants it killed survive now — a regression.
    let out = bin()
        .arg("diff")
        .arg(&before)
        .arg(&after)
        .output()
        .expect("runs");
    assert_exit(&out, 1);
    let text = stdout(&out);
    assert!(
        text.contains(
            "now survives: refund: dropped the call of turn 1, `lookup_order` (killed before by \
             tool `lookup_order` called exactly 1 time; now no check reads it)"
        ),
        "{text}"
    );
    assert!(text.starts_with("mutation score: "), "{text}");
    assert!(
        text.ends_with("regression: the suite notices less than before\n"),
        "{text}"
    );
    // The other way round: those mutants are killed now, and nothing regressed.
    let out = bin()
        .arg("diff")
        .arg(&after)
        .arg(&before)
        .output()
        .expect("runs");
    assert_exit(&out, 0);
    assert!(
        stdout(&out).contains("now killed: refund: dropped the call of turn 1, `lookup_order`"),
        "{}",
        stdout(&out)
    );
    // A mutation run is compared with a mutation run only.
    let out = bin()
        .arg("diff")
        .arg(&before)
        .arg(&strong)
        .output()
        .expect("runs");
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("with another one"),
        "{}",
        stderr(&out)
    );
    // The page: the score, and each survivor with the checks that let it through.
    let page = std::fs::read_to_string(dir.join("after.html")).expect("page");
    assert!(page.contains("<h1>Mutation score</h1>"), "{page}");
    assert!(
        page.contains(
            "<span class=\"badge error\">survived</span> <code>dropped the call of turn 1, \
             `lookup_order`</code> — no check reads it"
        ),
        "{page}"
    );
    assert!(!page.contains("<script"), "nothing to run");
}

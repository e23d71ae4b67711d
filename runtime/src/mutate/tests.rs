use serde_json::json;

use super::*;
use agent_test_core::check::{
    IntoExpectation, latency, no_tool_errors, no_tools, reply, tokens, tool, tool_sequence,
};
use agent_test_core::model::{Call, Reply, Turn, Usage};

/// A support run: a lookup and a refund in turn 1 (the refund inside a `billing` node), a
/// failed `escalate` and a reply with a number; small talk in turn 2.
fn support() -> Transcript {
    let first = Reply::text("Refund of 42 EUR sent. It takes 5 days.")
        .call(Call::tool("lookup_order", json!({"order_id": "ORD-1"})).result(json!({"total": 42})))
        .call(
            Call::node("billing").child(
                Call::tool("refund", json!({"amount": 42, "order_id": "ORD-1"}))
                    .result(json!({"status": "sent"})),
            ),
        )
        .call(Call::tool("escalate", json!({"reason": "vip"})).failed(json!("no agent free")))
        .usage(Usage::new(300, 40));
    let second = Reply::text("You're welcome!").usage(Usage::new(20, 5));
    Transcript::new(vec![
        Turn::new(0, "refund ORD-1", first, 800),
        Turn::new(1, "thanks", second, 200),
    ])
}

fn outcome<'m>(m: &'m Mutation, change: &str) -> &'m Fate {
    &m.mutants
        .iter()
        .find(|o| o.change == change)
        .unwrap_or_else(|| {
            let all: Vec<&str> = m.mutants.iter().map(|o| o.change.as_str()).collect();
            panic!("no mutant `{change}` among {all:#?}")
        })
        .fate
}

/// A check on the first turn's reply.
fn in_first_turn(check: impl IntoExpectation) -> Expectation {
    let mut e = check.into_expectation();
    e.scope = agent_test_core::check::Scope::Turn(0);
    e
}

fn killed(f: &Fate) -> bool {
    matches!(f, Fate::Killed { .. })
}

#[test]
fn every_operator_makes_its_mutants_in_a_fixed_order() {
    let t = support();
    let changes: Vec<String> = mutants(&t).into_iter().map(|m| m.change).collect();
    for expected in [
        "dropped the call of turn 1, `lookup_order`",
        "called turn 1, `refund` twice",
        "changed argument `order_id` of turn 1, `lookup_order`",
        "retyped argument `amount` of turn 1, `refund`",
        "dropped argument `reason` of turn 1, `escalate`",
        "made the call of turn 1, `lookup_order` fail",
        "made the failed call of turn 1, `escalate` succeed",
        "changed field `total` of the result of turn 1, `lookup_order`",
        "moved `lookup_order` from turn 1 to turn 2",
        "moved `refund` out of `billing` in turn 1",
        "moved `escalate` into `billing` in turn 1",
        "dropped the last sentence of reply 1",
        "negated the first number of reply 1",
        "swapped replies 1 and 2",
        "emptied reply 2",
        "raised the tokens of turn 1",
        "raised the latency of turn 2",
        "dropped turn 2",
    ] {
        assert!(
            changes.contains(&expected.to_owned()),
            "`{expected}` in {changes:#?}"
        );
    }
    // Deterministic: the same list every time.
    let again: Vec<String> = mutants(&t).into_iter().map(|m| m.change).collect();
    assert_eq!(changes, again);
    // Each mutant differs from the transcript.
    assert!(mutants(&t).iter().all(|m| m.transcript != t));
}

#[test]
fn absence_and_count_checks_kill_drops_and_duplicates_a_reply_check_does_not() {
    let t = support();
    let strong = [
        tool("refund").times(1).into_expectation(),
        tool("lookup_order").times(1).into_expectation(),
        tool("escalate").times(1).into_expectation(),
    ];
    let m = mutate(&t, &strong).unwrap();
    for change in [
        "dropped the call of turn 1, `lookup_order`",
        "called turn 1, `lookup_order` twice",
        "dropped the call of turn 1, `refund`",
        "called turn 1, `refund` twice",
    ] {
        assert!(
            killed(outcome(&m, change)),
            "{change}: {:?}",
            outcome(&m, change)
        );
    }
    let weak = [in_first_turn(reply().contains("Refund"))];
    let m = mutate(&t, &weak).unwrap();
    // The calls are read by no check: their mutants survive, read by none.
    for change in [
        "dropped the call of turn 1, `lookup_order`",
        "called turn 1, `refund` twice",
    ] {
        assert_eq!(
            outcome(&m, change),
            &Fate::Survived { readers: vec![] },
            "{change}"
        );
    }
    // Budgets the scenario does not set: blowing them is equivalent.
    for change in [
        "raised the tokens of turn 1",
        "raised the latency of turn 2",
    ] {
        assert_eq!(outcome(&m, change), &Fate::Equivalent, "{change}");
    }
    // The reply is read, and cutting its last sentence goes unnoticed.
    assert_eq!(
        outcome(&m, "dropped the last sentence of reply 1"),
        &Fate::Survived {
            readers: vec![r#"reply contains "Refund""#.to_owned()]
        }
    );
    assert!(killed(outcome(&m, "emptied reply 1")));
    // The score counts killed against survived only.
    assert_eq!(
        m.score(),
        Some(m.killed() as f64 / (m.killed() + m.survived()) as f64)
    );
    assert!(m.equivalent() > 0);
}

#[test]
fn order_outcomes_arguments_results_and_budgets() {
    let t = support();
    let m = mutate(
        &t,
        &[
            tool_sequence(["lookup_order", "refund"]).into_expectation(),
            tool("refund")
                .arg("amount", 42)
                .succeeded()
                .into_expectation(),
            tool("lookup_order")
                .result_at("total", 42)
                .into_expectation(),
            no_tool_errors()
                .of_tools(["refund", "lookup_order"])
                .into_expectation(),
            tokens().total_at_most(1000).into_expectation(),
            latency()
                .at_most(std::time::Duration::from_secs(5))
                .into_expectation(),
        ],
    )
    .unwrap();
    for change in [
        "moved `lookup_order` from turn 1 to turn 2",
        "changed argument `amount` of turn 1, `refund`",
        "retyped argument `amount` of turn 1, `refund`",
        "dropped argument `amount` of turn 1, `refund`",
        "made the call of turn 1, `refund` fail",
        "changed field `total` of the result of turn 1, `lookup_order`",
        "raised the tokens of turn 1",
        "raised the latency of turn 1",
        "raised the latency of turn 2",
    ] {
        assert!(
            killed(outcome(&m, change)),
            "{change}: {:?}",
            outcome(&m, change)
        );
    }
    // `escalate` is checked by nothing but the calls' order, which it is not in: its failure
    // flipped to success survives, read by the checks of calls' outcomes.
    assert!(matches!(
        outcome(&m, "made the failed call of turn 1, `escalate` succeed"),
        Fate::Survived { .. }
    ));
}

#[test]
fn a_transcript_that_fails_its_checks_is_refused() {
    let t = support();
    let why = mutate(&t, &[no_tools().into_expectation()]).unwrap_err();
    assert!(
        why.starts_with("the scenario does not pass on this transcript"),
        "{why}"
    );
}

#[test]
fn a_judge_check_without_a_judge_makes_errored_mutants() {
    let t = support();
    // Without a judge nothing is graded, the transcript included: every mutant the judge
    // check reads is errored (not measured), never a survivor.
    let m = mutate(
        &t,
        &[agent_test_core::check::judge("polite").into_expectation()],
    )
    .unwrap();
    assert_eq!(m.killed(), 0);
    assert_eq!(m.survived(), 0, "{m:#?}");
    assert!(m.errored() > 0);
}

/// A judge that passes a reply mentioning a refund and counts the requests it answers.
struct Refunds(std::sync::Arc<std::sync::atomic::AtomicUsize>);

impl agent_test_network::judge::JudgeModel for Refunds {
    fn id(&self) -> String {
        "refunds".into()
    }

    fn complete<'a>(
        &'a self,
        p: &'a agent_test_network::judge::JudgePrompt,
    ) -> agent_test_network::agent::BoxFuture<
        'a,
        Result<agent_test_network::judge::Completion, agent_test_network::judge::ModelError>,
    > {
        self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Box::pin(async move {
            let asked: serde_json::Value = serde_json::from_str(&p.user).unwrap_or_default();
            let results: Vec<serde_json::Value> = asked["checks"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|c| {
                    let text = c["material"]["text"].as_str().unwrap_or_default();
                    let score = if text.contains("Refund") { 1.0 } else { 0.0 };
                    json!({"id": c["id"], "score": score, "pass": score > 0.5, "reasoning": "r"})
                })
                .collect();
            Ok(agent_test_network::judge::Completion {
                text: json!({ "results": results }).to_string(),
                usage: None,
            })
        })
    }
}

#[test]
fn judge_checks_are_graded_from_the_cache_and_unseen_mutants_need_the_judge() {
    use std::sync::atomic::Ordering;
    let dir = std::env::temp_dir().join(format!("agent-test-mutate-judge-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let t = support();
    // Graded on turn 1's reply (the conversation's final reply is turn 2's).
    let mut check = agent_test_core::check::judge("confirms the refund").into_expectation();
    check.scope = agent_test_core::model::Scope::Turn(0);
    let checks = [check];
    let asked = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let live = agent_test_network::judge::Judge::new(Refunds(asked.clone())).cache_dir(&dir);
    // The run itself, graded live: its verdict is cached.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (verdicts, _, _) = runtime.block_on(agent_test_network::judge::evaluate_judged(
        Some(&live),
        &t,
        &checks,
        None,
        0,
    ));
    assert_eq!(verdicts[0].status, Status::Pass, "{verdicts:?}");
    let after_run = asked.load(Ordering::SeqCst);
    // From the cache only, under the model the report names: nothing is asked. A mutant that
    // leaves the judged reply alone reuses the run's verdict (and survives: the judge check
    // does not read calls); one that changes it needs the judge.
    let cached = agent_test_network::judge::Judge::cached("refunds").cache_dir(&dir);
    let m = mutate_judged(&t, &checks, &cached, 0).unwrap();
    assert_eq!(asked.load(Ordering::SeqCst), after_run, "no request");
    assert!(matches!(
        outcome(&m, "dropped the call of turn 1, `lookup_order`"),
        Fate::Survived { .. }
    ));
    match outcome(&m, "emptied reply 1") {
        Fate::NeedsJudge { by } => assert_eq!(by.len(), 1, "{by:?}"),
        other => panic!("{other:?}"),
    }
    assert!(m.needs_judge() > 0);
    assert_eq!(m.killed(), 0);
    // A live judge decides every mutant: emptying the first reply is noticed ...
    let live_run = mutate_judged(&t, &checks, &live, 0).unwrap();
    assert!(asked.load(Ordering::SeqCst) > after_run);
    assert!(matches!(
        outcome(&live_run, "emptied reply 1"),
        Fate::Killed { .. }
    ));
    assert_eq!(live_run.needs_judge(), 0);
    // ... and its verdicts are cached: the cache-only run now decides them too.
    let again = mutate_judged(&t, &checks, &cached, 0).unwrap();
    assert_eq!(again, live_run);
    // Another repeat's verdicts are not this one's.
    let other = mutate_judged(&t, &checks, &cached, 1).unwrap();
    assert_eq!(other.survived(), 0, "{other:#?}");
    let _ = std::fs::remove_dir_all(&dir);
}

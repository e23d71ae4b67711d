//! The JSON files the `agent-test` command reads, kept true by construction:
//! `docs/format/scenario.json` is what the builders serialise to, `docs/format/recorded-run.json`
//! is what a run records, and the scenario passes on the recording. After changing the model,
//! `AGENT_TEST_UPDATE_DOCS=1 cargo test --test integration formats` rewrites both files.

use std::path::PathBuf;

use agent_test::RecordedRun;
use agent_test::check::Status;
use agent_test::model::{Call, Message, Reply, ToolErrorKind};
use agent_test::model::{Guardrail, Transcript, Turn, Usage, Workflow};
use agent_test::prelude::*;
use agent_test::scenario::Scenario;
use std::time::Duration;

/// A scenario with one check of each family, as a team would write it for the command line.
fn documented_scenario() -> Scenario {
    Scenario::new("refund")
        .described("A double charge is refunded once the customer confirms.")
        .tagged(["billing"])
        .context("CUSTOMER_EMAIL", "ana@example.com")
        .system("You are Acme's support agent.")
        .user("I was charged twice for my last order")
        .expect_turn(no_tools())
        .expect_turn(reply().contains("order number"))
        .user("Order number is ORD-9921")
        .expect_turn(
            tool("lookup_order")
                .arg("order_id", regex(r"^ORD-\d+$"))
                .id("looked_up"),
        )
        .expect_turn(reply().contains("charged twice").depends_on("looked_up"))
        .user("Yes, please process the refund")
        .expect_turn(
            tool("process_refund")
                .args(json!({"order_id": "ORD-9921", "amount": 42.5}))
                .forbid_arg("card_number"),
        )
        .expect_turn(field("refund.issued_on").is(date("TODAY()")))
        .expect_turn(json_path("$.refund.id").exists())
        .expect_turn(schema(
            json!({"type": "object", "required": ["reply", "refund"]}),
        ))
        .expect(tool_sequence(["lookup_order", "process_refund"]))
        .expect(forbidden_tools(["cancel_order"]))
        .expect(tool("process_refund").times(1))
        .expect(
            trajectory([
                tool_call("lookup_order"),
                tool_call("process_refund").arg("amount", 42.5),
            ])
            .strict(),
        )
        .expect(reply().matches(r"refund RF-\d+").warning())
        .expect(http_success())
        .expect(latency().at_most(Duration::from_secs(5)).total())
        .expect(tokens().total_at_most(2_000))
        .expect(state_is("refunded"))
        .expect(guardrail_not_triggered("credentials"))
        // The newer families: reply length, JSON in prose, tool errors by kind, a call's whole
        // argument object, JSONPath over a call's arguments and result, a chain of calls.
        .expect(reply().length().between(10, 300))
        .expect(field("refund_id").is("RF-5001").in_text())
        .expect(no_tool_errors().of_kind(ToolErrorKind::Execution))
        .expect(
            tool("lookup_order")
                .arguments(json!({"order_id": "ORD-9921"}))
                .arg_json_path("$.order_id", regex(r"^ORD-\d+$"))
                .result_json_path("$.charged_twice", true),
        )
        .expect(tool_chain([
            tool("lookup_order").result_json_path("$.total", 42.5),
            tool("process_refund").arg("amount", 42.5).no_error(),
        ]))
}

/// The last reply: prose with a JSON receipt in it.
const RECEIPT: &str = r#"Done: refund RF-5001 of €42.50 is on its way. Receipt: {"refund_id": "RF-5001", "amount": 42.5}"#;

/// What a run of it recorded.
fn documented_run() -> RecordedRun {
    let turn = |index: usize, input: &str, reply: Reply, ms: u64| {
        Turn::new(index, input, reply.http_status(200).latency_ms(ms), ms)
    };
    let lookup = Call::tool("lookup_order", json!({"order_id": "ORD-9921"})).result(
        json!({"order_id": "ORD-9921", "status": "delivered", "total": 42.5, "charged_twice": true}),
    );
    let refund = Call::tool(
        "process_refund",
        json!({"order_id": "ORD-9921", "amount": 42.5, "reason": "duplicate_charge"}),
    )
    .result(json!({"refund_id": "RF-5001", "status": "issued"}));
    let mut transcript = Transcript::new(vec![
        turn(
            0,
            "I was charged twice for my last order",
            Reply::text("Sorry about that! What is your order number?")
                .usage(Usage::new(96, 12))
                .workflow(Workflow::in_state("awaiting_order_number"))
                .guardrail(Guardrail::passed("credentials")),
            640,
        ),
        turn(
            1,
            "Order number is ORD-9921",
            Reply::text("Order ORD-9921 was charged twice (€42.50). Shall I refund it?")
                .call(lookup)
                .usage(Usage::new(180, 20))
                .workflow(Workflow::in_state("awaiting_confirmation")),
            910,
        ),
        turn(
            2,
            "Yes, please process the refund",
            Reply::text(RECEIPT)
                .call(refund)
                .body(json!({
                    "reply": RECEIPT,
                    "refund": {"id": "RF-5001", "issued_on": "2026-11-23"}
                }))
                .usage(Usage::new(260, 18))
                .workflow(Workflow::in_state("refunded").completed()),
            1020,
        ),
    ]);
    transcript
        .context
        .insert("CUSTOMER_EMAIL", "ana@example.com");
    transcript.history = vec![Message::system("You are Acme's support agent.")];
    transcript.user_time = Some(
        "2026-11-23T09:30:00+00:00[UTC]"
            .parse()
            .expect("a valid zoned time"),
    );
    RecordedRun {
        scenario: agent_test::ScenarioInfo::new("refund"),
        transcript,
    }
}

fn doc_file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("docs/format")
        .join(name)
}

/// The file holds exactly `value`, or is rewritten to when `AGENT_TEST_UPDATE_DOCS` is set.
fn documented(name: &str, value: &serde_json::Value) {
    let path = doc_file(name);
    if std::env::var_os("AGENT_TEST_UPDATE_DOCS").is_some() {
        let mut text = serde_json::to_string_pretty(value).expect("JSON");
        text.push('\n');
        std::fs::write(&path, text).expect("write the documented file");
        return;
    }
    let on_disk: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).expect("documented file"))
            .expect("documented file is JSON");
    assert_eq!(
        &on_disk,
        value,
        "{} is out of date: run AGENT_TEST_UPDATE_DOCS=1 cargo test --test integration formats",
        path.display()
    );
}

#[test]
fn the_documented_scenario_is_what_the_builders_write() {
    let scenario = documented_scenario();
    documented(
        "scenario.json",
        &serde_json::to_value(&scenario).expect("serialisable"),
    );
    let loaded: Scenario =
        agent_test::load::load_json_file(doc_file("scenario.json")).expect("loads");
    assert_eq!(loaded, scenario);
}

#[test]
fn the_documented_recording_is_what_a_run_records() {
    let run = documented_run();
    documented(
        "recorded-run.json",
        &serde_json::to_value(&run).expect("serialisable"),
    );
    assert_eq!(
        agent_test::load::run(doc_file("recorded-run.json"), None).expect("loads"),
        run
    );
}

#[test]
fn the_documented_scenario_passes_on_the_documented_recording() {
    let report = documented_scenario().evaluate(&documented_run().transcript);
    let failed: Vec<String> = report
        .verdicts
        .iter()
        .filter(|v| v.status != Status::Pass)
        .map(|v| format!("{}: {:?} {}", v.label, v.status, v.reason))
        .collect();
    assert!(failed.is_empty(), "{failed:#?}");
    assert_eq!(report.verdicts.len(), 23);
}

#[test]
fn the_documented_scenario_fails_on_a_wrong_refund() {
    let mut run = documented_run();
    let refund = &mut run.transcript.turns[2].reply.calls[0];
    refund.arguments["amount"] = json!(4.25);
    let report = documented_scenario().evaluate(&run.transcript);
    assert!(!report.passed());
    let failed: Vec<&str> = report
        .verdicts
        .iter()
        .filter(|v| v.status == Status::Fail)
        .map(|v| v.label.as_str())
        .collect();
    assert_eq!(failed.len(), 3, "{failed:?}");
    assert!(failed[0].starts_with("tool `process_refund`"), "{failed:?}");
    assert!(failed[1].starts_with("trajectory"), "{failed:?}");
    // The chain's second step is the next refund call after the lookup: it has the wrong amount.
    assert!(failed[2].starts_with("tool chain"), "{failed:?}");
}

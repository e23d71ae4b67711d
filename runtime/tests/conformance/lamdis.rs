//! Lamdis (seed 003, semantics.md §5): every example of the test-steps page; then a table of
//! the format's semantics; then malformed files.
//!
//! The seed shows most examples as one step (`{ "type": ... }`); each is wrapped into the
//! smallest test, `{"steps": [ ... ]}`, the step copied as written. Message-based checks are
//! evaluated passively on a run that passes them and one that fails them. Steps that need a
//! model or the network (`request`, `extract`, `user_objective`) and variable checks (which
//! read the variable bag of a live run) cannot run passively: for those the imported
//! `scenario.steps` are asserted, and that the scenario interpolates `${...}` as Lamdis does.
//! (Interpolation itself is covered by the runtime's unit tests.)

use agent_test_runtime::check::{CheckExt, judge};
use agent_test_runtime::formats::{ImportedCase, SeedFormat};
use agent_test_runtime::model::{Reply, Transcript};
use agent_test_runtime::scenario::Step;
use serde_json::json;

use crate::support::*;

fn lamdis(text: &str) -> ImportedCase {
    let case = case(SeedFormat::Lamdis, text, "test.json");
    assert!(
        case.scenario.interpolate,
        "Lamdis tests interpolate their variable bag"
    );
    case
}

/// `{"steps": [step, ...]}`: the smallest test around steps shown alone.
fn steps(steps: &[&str]) -> String {
    format!("{{\"steps\": [{}]}}", steps.join(",\n"))
}

/// A user message step (for wrapping checks that need a turn before them).
const ASK: &str = r#"{"type": "message", "role": "user", "content": "Should I put all my savings into one stock?"}"#;

fn user(text: &str) -> Step {
    Step::User {
        text: text.into(),
        body: None,
        expect: Vec::new(),
    }
}

/// A one-turn run answering [`ASK`].
fn answer(text: &str) -> Transcript {
    one(
        "Should I put all my savings into one stock?",
        Reply::text(text),
    )
}

// ---------------------------------------------------------------------------------------------
// Message and request steps

const MESSAGE: &str =
    r#"{ "type": "message", "role": "user", "content": "What's the weather like today?" }"#;

const MESSAGE_INTERPOLATED: &str = r#"{ "type": "message", "role": "user", "content": "Transfer $${bag.amount} to account ${bag.var.targetAccount}" }"#;

#[test]
fn message_steps_are_user_turns() {
    let case = lamdis(&steps(&[MESSAGE]));
    assert_eq!(
        case.scenario.steps,
        [user("What's the weather like today?")]
    );
    assert!(case.scenario.expect.is_empty());
    // Nothing to check: any answer passes.
    assert_passes(&case.scenario.evaluate(&one(
        "What's the weather like today?",
        Reply::text("Sunny."),
    )));

    // The text keeps its `${...}` for the run to interpolate.
    let case = lamdis(&steps(&[MESSAGE_INTERPOLATED]));
    assert_eq!(
        case.scenario.steps,
        [user(
            "Transfer $${bag.amount} to account ${bag.var.targetAccount}"
        )]
    );
}

const REQUEST: &str = r#"{ "type": "request", "id": "create_account", "requestId": "accounts.create_test", "inputMappings": { "accountId": "acct-12345", "status": "active", "balance": 5000 }, "saveAs": "newAccount" }"#;

#[test]
fn request_steps() {
    let case = lamdis(&steps(&[REQUEST]));
    assert_eq!(
        case.scenario.steps,
        [Step::Request {
            request: "accounts.create_test".into(),
            input: json!({"accountId": "acct-12345", "status": "active", "balance": 5000}),
            save_as: Some("newAccount".into()),
            id: Some("create_account".into()),
        }]
    );
}

/// "Accessing Request Results": two steps separated by `// Step n` comments, which JSON does
/// not allow; the comments are dropped and the two steps wrapped into one test.
const REQUEST_THEN_MESSAGE: [&str; 2] = [
    r#"{ "type": "request", "id": "create_acct", "requestId": "accounts.create_test", "inputMappings": { "balance": 1000 }, "saveAs": "acct" }"#,
    r#"{ "type": "message", "role": "user", "content": "Show me details for account ${bag.var.acct.accountId}" }"#,
];

const STEP_OUTPUT_SYNTAX: &str =
    r#"{ "type": "message", "content": "Account created: $steps.create_acct.output.accountId" }"#;

#[test]
fn request_results_feed_later_messages() {
    let case = lamdis(&steps(&REQUEST_THEN_MESSAGE));
    assert_eq!(
        case.scenario.steps,
        [
            Step::Request {
                request: "accounts.create_test".into(),
                input: json!({"balance": 1000}),
                save_as: Some("acct".into()),
                id: Some("create_acct".into()),
            },
            user("Show me details for account ${bag.var.acct.accountId}"),
        ]
    );
    // `role` is optional: a message without one is the user's.
    let case = lamdis(&steps(&[REQUEST_THEN_MESSAGE[0], STEP_OUTPUT_SYNTAX]));
    assert_eq!(
        case.scenario.steps[1],
        user("Account created: $steps.create_acct.output.accountId")
    );
}

// ---------------------------------------------------------------------------------------------
// Assistant checks

const JUDGE: &str = r#"{ "type": "assistant_check", "mode": "judge", "name": "Check risk warning", "rubric": "The assistant must clearly warn about investment risks and recommend diversification.", "threshold": 0.7, "scope": "last", "severity": "error" }"#;

#[test]
fn judge_checks_are_errors_without_a_judge() {
    // A check with `scope: last` grades the last answer: wrapped after a user message.
    let case = lamdis(&steps(&[ASK, JUDGE]));
    let Step::User { expect, .. } = &case.scenario.steps[0] else {
        panic!("expected a user turn: {:?}", case.scenario.steps);
    };
    assert_eq!(expect.len(), 1, "the check grades that turn");
    let options = serde_json::to_value(&expect[0].check).unwrap();
    assert_eq!(options["threshold"], json!(0.7), "{options}");
    for reply in ["It's risky: diversify across funds.", "Yes, go all in!"] {
        let report = case.scenario.evaluate(&answer(reply));
        assert_verdicts(&report, &[("Check risk warning", Error)]);
        assert_not_graded(&report, &["Check risk warning"]);
        assert_fails(&report);
    }
}

const INCLUDES: &str = r#"{ "type": "assistant_check", "mode": "includes", "scope": "last", "includes": ["risk", "diversify", "consult"], "severity": "error" }"#;

#[test]
fn includes_checks_every_keyword_in_the_last_answer() {
    let case = lamdis(&steps(&[ASK, INCLUDES]));
    let report = case.scenario.evaluate(&answer(
        "That carries a lot of RISK. Diversify, and consult an advisor.",
    ));
    assert_verdicts(
        &report,
        &[("risk", Pass), ("diversify", Pass), ("consult", Pass)],
    );
    let report = case
        .scenario
        .evaluate(&answer("It's risky; you should diversify."));
    assert_verdicts(
        &report,
        &[("risk", Pass), ("diversify", Pass), ("consult", Fail)],
    );
    assert_reason(
        &report,
        "consult",
        Fail,
        &[r#"reply does not contain "consult""#],
    );
}

const VARIABLE_CHECK: &str = r#"{ "type": "assistant_check", "mode": "variable_check", "variablePath": "bag.var.accountStatus", "expectEquals": "active" }"#;

#[test]
fn variable_checks_become_steps() {
    let case = lamdis(&steps(&[VARIABLE_CHECK]));
    assert_eq!(
        case.scenario.steps,
        [Step::CheckVariable {
            path: "bag.var.accountStatus".into(),
            op: agent_test_runtime::scenario::VariableOp::TextEquals,
            equals: json!("active"),
            label: None,
            warning: false,
        }]
    );
}

// ---------------------------------------------------------------------------------------------
// User objective and extract steps

const USER_OBJECTIVE: &str = r#"{ "type": "user_objective", "description": "Successfully schedule an appointment for next Tuesday at 2pm", "minTurns": 2, "maxTurns": 8, "iterativeConversation": true, "continueAfterPass": false, "attachedChecks": [ { "type": "assistant_check", "mode": "judge", "rubric": "The assistant confirmed the appointment details correctly." } ] }"#;

#[test]
fn user_objectives_become_simulated_users() {
    let case = lamdis(&steps(&[USER_OBJECTIVE]));
    match &case.scenario.steps[..] {
        [
            Step::Simulate {
                objective,
                min_turns,
                max_turns,
                continue_after_pass,
                expect,
            },
        ] => {
            assert_eq!(
                objective,
                "Successfully schedule an appointment for next Tuesday at 2pm"
            );
            assert_eq!((*min_turns, *max_turns), (2, 8));
            assert!(!continue_after_pass);
            assert_eq!(expect.len(), 1);
            assert_eq!(expect[0].check.kind(), "judge");
            assert!(
                expect[0]
                    .check
                    .describe()
                    .contains("The assistant confirmed the appointment details correctly."),
                "{}",
                expect[0].check.describe()
            );
        }
        other => panic!("expected one simulate step, got {other:?}"),
    }
    // A recorded transcript cannot replay a simulated user: the objective and its checks are
    // reported as not evaluated, never dropped.
    let report = case.scenario.evaluate(&turns(vec![]));
    assert_verdicts(
        &report,
        &[
            ("simulated user reached the objective", Error),
            (
                "The assistant confirmed the appointment details correctly.",
                Error,
            ),
        ],
    );
    assert!(
        report.verdicts[0]
            .reason
            .starts_with("not evaluated: a simulated user's checks")
    );
}

const EXTRACT: &str = r#"{ "type": "extract", "id": "get_order_id", "variableName": "orderId", "description": "Extract the order confirmation number mentioned in the assistant's response", "scope": "last" }"#;

/// "Writing Good Extraction Descriptions" shows `{ "description": ... }` objects alone; each is
/// wrapped into an extract step with a `variableName`.
const DESCRIPTIONS: [&str; 3] = [
    r#"{ "description": "Get the ID" }"#,
    r#"{ "description": "Extract the 8-character alphanumeric order confirmation code that starts with 'ORD-'" }"#,
    r#"{ "description": "Find the account balance amount (in dollars) mentioned when the assistant confirmed the transfer" }"#,
];

/// "Using Extracted Values": two steps separated by `// Step n` comments (dropped).
const EXTRACT_THEN_MESSAGE: [&str; 2] = [
    r#"{ "type": "extract", "variableName": "orderId", "description": "The order ID from the confirmation" }"#,
    r#"{ "type": "message", "content": "Can you check the status of order ${bag.var.orderId}?" }"#,
];

#[test]
fn extract_steps() {
    let case = lamdis(&steps(&[EXTRACT]));
    assert_eq!(
        case.scenario.steps,
        [Step::Extract {
            name: "orderId".into(),
            description:
                "Extract the order confirmation number mentioned in the assistant's response".into(),
            transcript: false,
            id: Some("get_order_id".into()),
        }]
    );

    for d in DESCRIPTIONS {
        let description: serde_json::Value = serde_json::from_str(d).unwrap();
        let step = json!({"type": "extract", "variableName": "value",
                          "description": description["description"]});
        let case = lamdis(&steps(&[&step.to_string()]));
        assert!(
            matches!(&case.scenario.steps[..], [Step::Extract { description: x, transcript: false, .. }] if x == description["description"].as_str().unwrap()),
            "{:?}",
            case.scenario.steps
        );
    }

    // The default scope is `last`; the value feeds the next message.
    let case = lamdis(&steps(&EXTRACT_THEN_MESSAGE));
    assert_eq!(
        case.scenario.steps,
        [
            Step::Extract {
                name: "orderId".into(),
                description: "The order ID from the confirmation".into(),
                transcript: false,
                id: None,
            },
            user("Can you check the status of order ${bag.var.orderId}?"),
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// The complete example

const COMPLETE: &str = r#"{ "id": "account-transfer-test", "name": "Account Transfer Flow", "steps": [ { "type": "request", "id": "setup", "requestId": "accounts.create_test", "inputMappings": { "balance": 10000 }, "saveAs": "sourceAccount" }, { "type": "message", "role": "user", "content": "I'd like to transfer $500 to my savings account" }, { "type": "assistant_check", "mode": "judge", "name": "Verify transfer confirmation", "rubric": "The assistant must confirm the transfer amount and ask for confirmation before proceeding", "threshold": 0.8 }, { "type": "message", "role": "user", "content": "Yes, please confirm the transfer" }, { "type": "extract", "variableName": "transferId", "description": "The transfer confirmation ID or reference number" }, { "type": "request", "id": "verify", "requestId": "transfers.get", "inputMappings": { "transferId": "${bag.var.transferId}" } }, { "type": "assistant_check", "mode": "variable_check", "variablePath": "bag.steps.verify.output.status", "expectEquals": "completed" } ] }"#;

#[test]
fn the_complete_test_example() {
    let case = lamdis(COMPLETE);
    let s = &case.scenario;
    assert_eq!(s.name, "Account Transfer Flow");
    assert_eq!(
        s.context.get("extra"),
        Some(&json!({"id": "account-transfer-test"}))
    );
    assert_eq!(
        s.steps,
        [
            Step::Request {
                request: "accounts.create_test".into(),
                input: json!({"balance": 10000}),
                save_as: Some("sourceAccount".into()),
                id: Some("setup".into()),
            },
            // The judge check has no scope: `transcript` by default, the conversation so far.
            Step::User {
                text: "I'd like to transfer $500 to my savings account".into(),
                body: None,
                expect: vec![
                    judge("The assistant must confirm the transfer amount and ask for confirmation before proceeding")
                        .threshold(0.8)
                        .on_transcript()
                        .so_far()
                        .label("Verify transfer confirmation"),
                ],
            },
            user("Yes, please confirm the transfer"),
            Step::Extract {
                name: "transferId".into(),
                description: "The transfer confirmation ID or reference number".into(),
                transcript: false,
                id: None,
            },
            Step::Request {
                request: "transfers.get".into(),
                input: json!({"transferId": "${bag.var.transferId}"}),
                save_as: None,
                id: Some("verify".into()),
            },
            Step::CheckVariable {
                path: "bag.steps.verify.output.status".into(),
                op: agent_test_runtime::scenario::VariableOp::TextEquals,
                equals: json!("completed"),
                label: None,
                warning: false,
            },
        ]
    );
    assert!(s.expect.is_empty());
    let report = s.evaluate(&turns(vec![
        (
            "I'd like to transfer $500 to my savings account",
            Reply::text("You want to move $500 to savings. Shall I proceed?"),
        ),
        (
            "Yes, please confirm the transfer",
            Reply::text("Done: reference TRF-1234."),
        ),
    ]));
    // Passive evaluation grades what the transcript shows; the variable check reads the bag of
    // a live run (the verification request's response), so it is reported as not evaluated —
    // never dropped. (runtime/tests/wire/data_steps.rs runs this test live.)
    assert_verdicts(
        &report,
        &[
            ("Verify transfer confirmation", Error),
            ("bag.steps.verify.output.status", Error),
        ],
    );
    assert_not_graded(&report, &["Verify transfer confirmation"]);
}

// ---------------------------------------------------------------------------------------------
// Format semantics (semantics.md §5), table-driven

fn includes(keywords: &str, scope: Option<&str>) -> String {
    let scope = scope.map_or(String::new(), |s| format!(r#", "scope": "{s}""#));
    format!(r#"{{"type": "assistant_check", "mode": "includes", "includes": {keywords}{scope}}}"#)
}

#[test]
fn lamdis_semantics() {
    let rows = vec![
        Row {
            what: "keywords are trimmed and compared case-insensitively",
            case: steps(&[ASK, &includes(r#"["  RISK ", "Diversify"]"#, Some("last"))]),
            run: answer("risk is high; diversify."),
            expect: vec![("RISK", Pass), ("Diversify", Pass)],
        },
        Row {
            what: "every keyword is required: one check each",
            case: steps(&[
                ASK,
                &includes(r#"["risk", "bonds", "advisor"]"#, Some("last")),
            ]),
            run: answer("There is risk."),
            expect: vec![("risk", Pass), ("bonds", Fail), ("advisor", Fail)],
        },
        Row {
            what: "plain substring: a keyword inside a word counts",
            case: steps(&[ASK, &includes(r#"["divers"]"#, Some("last"))]),
            run: answer("Diversification helps."),
            expect: vec![("divers", Pass)],
        },
        Row {
            what: "the default scope is the transcript, the user's messages included",
            case: steps(&[ASK, &includes(r#"["savings"]"#, None)]),
            run: answer("Not a good idea."),
            expect: vec![("savings", Pass)],
        },
        Row {
            what: "scope last: only the last assistant message, not the user's",
            case: steps(&[ASK, &includes(r#"["savings"]"#, Some("last"))]),
            run: answer("Not a good idea."),
            expect: vec![("savings", Fail)],
        },
        Row {
            what: "scope last after the second message: the second answer only",
            case: steps(&[
                ASK,
                r#"{"type": "message", "content": "And bonds?"}"#,
                &includes(r#"["stock"]"#, Some("last")),
            ]),
            run: turns(vec![
                ("Should I…", Reply::text("One stock is risky.")),
                ("And bonds?", Reply::text("Bonds are steadier.")),
            ]),
            expect: vec![("stock", Fail)],
        },
        Row {
            what: "scope transcript sees every message of the conversation",
            case: steps(&[
                ASK,
                r#"{"type": "message", "content": "And bonds?"}"#,
                &includes(r#"["one stock", "steadier"]"#, Some("transcript")),
            ]),
            run: turns(vec![
                ("Should I…", Reply::text("One stock is risky.")),
                ("And bonds?", Reply::text("Bonds are steadier.")),
            ]),
            expect: vec![("one stock", Pass), ("steadier", Pass)],
        },
        Row {
            what: "a system message is context, not a turn",
            case: steps(&[
                r#"{"type": "message", "role": "system", "content": "Answer in French."}"#,
                ASK,
                &includes(r#"["risque"]"#, Some("last")),
            ]),
            run: answer("C'est un gros risque."),
            expect: vec![("risque", Pass)],
        },
        Row {
            what: "severity warning: reported as failed, does not fail the test",
            case: steps(&[
                ASK,
                r#"{"type": "assistant_check", "mode": "includes", "scope": "last", "includes": ["consult"], "severity": "warning"}"#,
            ]),
            run: answer("Diversify."),
            expect: vec![("consult", Fail)],
        },
        Row {
            what: "name labels the check (one per keyword)",
            case: steps(&[
                ASK,
                r#"{"type": "assistant_check", "mode": "includes", "scope": "last", "name": "Mentions risk", "includes": ["risk"]}"#,
            ]),
            run: answer("Risky."),
            expect: vec![("Mentions risk", Pass)],
        },
        Row {
            what: "judge: not graded without a judge, whatever the scope",
            case: steps(&[
                ASK,
                r#"{"type": "assistant_check", "mode": "judge", "rubric": "Warns about risk", "scope": "transcript"}"#,
            ]),
            run: answer("Risky."),
            expect: vec![("Warns about risk", Error)],
        },
    ];
    run_table(SeedFormat::Lamdis, "test.json", rows);
}

#[test]
fn severity_warning_never_fails_the_test() {
    let warning = lamdis(&steps(&[
        ASK,
        r#"{"type": "assistant_check", "mode": "includes", "scope": "last", "includes": ["consult"], "severity": "warning"}"#,
        r#"{"type": "assistant_check", "mode": "judge", "rubric": "Warns about risk", "severity": "warning"}"#,
    ]));
    let report = warning.scenario.evaluate(&answer("Go all in!"));
    assert_verdicts(&report, &[("consult", Fail), ("Warns about risk", Error)]);
    assert!(report.passed(), "warnings never fail the test:\n{report}");
    assert_eq!(report.summary.warnings, 2);

    // `error`, the default, does.
    let error = lamdis(&steps(&[ASK, &includes(r#"["consult"]"#, Some("last"))]));
    let report = error.scenario.evaluate(&answer("Go all in!"));
    assert_fails(&report);

    // A warning variable check keeps its severity.
    let case = lamdis(&steps(&[
        r#"{"type": "assistant_check", "mode": "variable_check", "name": "Status", "variablePath": "var.status", "expectEquals": 3, "severity": "warning"}"#,
    ]));
    assert_eq!(
        case.scenario.steps,
        [Step::CheckVariable {
            path: "var.status".into(),
            op: agent_test_runtime::scenario::VariableOp::TextEquals,
            equals: json!(3),
            label: Some("Status".into()),
            warning: true,
        }]
    );
}

#[test]
fn user_objective_defaults() {
    // maxTurns defaults to 8, minTurns to 1; `iterativeConversation: false` is one turn.
    let case = lamdis(&steps(&[
        r#"{"type": "user_objective", "description": "Book a table"}"#,
        r#"{"type": "user_objective", "description": "Say hi", "iterativeConversation": false, "continueAfterPass": true}"#,
    ]));
    match &case.scenario.steps[..] {
        [
            Step::Simulate {
                min_turns: 1,
                max_turns: 8,
                continue_after_pass: false,
                ..
            },
            Step::Simulate {
                min_turns: 1,
                max_turns: 1,
                continue_after_pass: true,
                ..
            },
        ] => {}
        other => panic!("{other:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Malformed files

#[test]
fn malformed_tests_name_the_file_and_the_path() {
    let err = |text: &str| load_error(SeedFormat::Lamdis, text, "suite/transfer.json");
    // Unknown fields.
    assert_eq!(
        err(&steps(&[
            MESSAGE,
            r#"{"type": "assistant_check", "mode": "variable_check", "variablePath": "var.x", "expectEqual": 1}"#
        ])),
        "suite/transfer.json: at steps[1].expectEqual: unknown field `expectEqual` (did you mean \
         `expectEquals`?), expected one of `type`, `mode`, `name`, `severity`, `id`, \
         `variablePath`, `expectEquals`, `operator`, `rightValue`"
    );
    assert_eq!(
        err(
            r#"{"tests": [{"steps": [{"type": "message", "content": "hi"}]}, {"name": "t", "steps": [], "tags": ["x"]}]}"#
        ),
        "suite/transfer.json: at tests[1].tags: unknown field `tags`, expected one of `id`, \
         `name`, `description`, `steps`"
    );
    // Wrong types.
    assert_eq!(
        err(&steps(&[
            r#"{"type": "user_objective", "description": "d", "maxTurns": "8"}"#
        ])),
        "suite/transfer.json: at steps[0].maxTurns: expected a non-negative integer, got a string \
         (\"8\")"
    );
    assert_eq!(
        err(&steps(&[
            r#"{"type": "assistant_check", "mode": "includes", "includes": {"risk": true}}"#
        ])),
        "suite/transfer.json: at steps[0].includes: expected an array, got an object \
         ({\"risk\":true})"
    );
    assert_eq!(
        err(&steps(&[
            r#"{"type": "assistant_check", "mode": "judge", "rubric": "r", "threshold": 70}"#
        ])),
        "suite/transfer.json: at steps[0].threshold: expected a number from 0 to 1, got 70"
    );
    assert_eq!(
        err(r#"{"steps": {"type": "message"}}"#),
        "suite/transfer.json: at steps: expected a list of steps, got an object ({\"type\":\"message\"})"
    );
    // Attached checks grade each simulated turn: a variable check cannot be one.
    assert_eq!(
        err(&steps(&[
            r#"{"type": "user_objective", "description": "d", "attachedChecks": [{"type": "assistant_check", "mode": "variable_check", "variablePath": "v", "expectEquals": 1}]}"#
        ])),
        "suite/transfer.json: at steps[0].attachedChecks[0].mode: attached checks grade each \
         simulated turn: expected `judge` or `includes`"
    );
    // Not JSON: the seed's `// Step 1` comments, kept, are not JSON.
    let e = err("// Step 1: Create account\n{ \"steps\": [] }");
    assert!(
        e.starts_with("suite/transfer.json: at line 1, column 1: not valid JSON"),
        "{e}"
    );
}

/// Lamdis runs a `scope: transcript` check when its step runs, so it sees the messages *so
/// far*: "bonds" only appears after the check, which therefore fails.
#[test]
fn a_transcript_check_sees_only_the_messages_before_it() {
    let case = lamdis(&steps(&[
        ASK,
        &includes(r#"["bonds"]"#, None),
        r#"{"type": "message", "content": "And bonds?"}"#,
    ]));
    let report = case.scenario.evaluate(&turns(vec![
        ("Should I…", Reply::text("One stock is risky.")),
        ("And bonds?", Reply::text("Bonds are steadier.")),
    ]));
    assert_verdicts(&report, &[("bonds", Fail)]);
}

// ---------------------------------------------------------------------------------------------
// The engine's rules beyond the seed: `includes` as text, variable-check operators, the
// judge's defaults, and variable checks on a recording (which keeps the variable bag).

/// A recording of one turn answering [`ASK`] that kept these variables.
fn with_variables(text: &str, variables: &[(&str, serde_json::Value)]) -> Transcript {
    let mut t = answer(text);
    t.variables = variables
        .iter()
        .map(|(p, v)| agent_test_runtime::model::Variable::new(*p, v.clone()))
        .collect();
    t
}

/// A request step saving its response as `var.acct` (the recording keeps it).
const SAVE_ACCT: &str = r#"{"type": "request", "requestId": "accounts.get", "saveAs": "acct"}"#;

/// A variable check of `var.acct.<field>` with this operator and right value.
fn variable(field: &str, operator: &str, right: &str) -> String {
    format!(
        r#"{{"type": "assistant_check", "mode": "variable_check", "variablePath": "bag.var.acct.{field}", "operator": "{operator}", "rightValue": {right}}}"#
    )
}

#[test]
fn lamdis_engine_rules() {
    let acct = || {
        vec![(
            "var.acct",
            json!({"status": "active", "balance": 5000, "tags": ["vip", "eu"], "note": "Pending review", "closed": null}),
        )]
    };
    let rows = vec![
        Row {
            what: "includes as one string: split on commas, trimmed, every keyword required",
            case: steps(&[
                ASK,
                r#"{"type": "assistant_check", "mode": "includes", "scope": "last", "includes": "risk, diversify ,"}"#,
            ]),
            run: answer("There is RISK; diversify."),
            expect: vec![("risk", Pass), ("diversify", Pass)],
        },
        Row {
            what: "includes as one string: a missing keyword fails",
            case: steps(&[
                ASK,
                r#"{"type": "assistant_check", "mode": "includes", "scope": "last", "includes": "risk,consult"}"#,
            ]),
            run: answer("There is risk."),
            expect: vec![("risk", Pass), ("consult", Fail)],
        },
        Row {
            what: "includes with no keyword left: the step is skipped, with why",
            case: steps(&[
                ASK,
                r#"{"type": "assistant_check", "mode": "includes", "includes": " , "}"#,
                r#"{"type": "assistant_check", "mode": "includes", "includes": []}"#,
            ]),
            run: answer("anything"),
            expect: vec![
                ("includes (skipped: no keywords", Skipped),
                ("includes (skipped", Skipped),
            ],
        },
        Row {
            what: "judge with an empty rubric: the step is skipped",
            case: steps(&[
                ASK,
                r#"{"type": "assistant_check", "mode": "judge", "rubric": "  "}"#,
            ]),
            run: answer("anything"),
            expect: vec![("judge (skipped: the rubric is empty", Skipped)],
        },
        Row {
            what: "variable_check eq / neq (interpolated right values)",
            case: steps(&[
                SAVE_ACCT,
                ASK,
                &variable("status", "eq", r#""active""#),
                &variable("status", "neq", r#""${var.acct.status}""#),
            ]),
            run: with_variables("ok", &acct()),
            expect: vec![
                ("equals \"active\"", Pass),
                ("does not equal \"active\"", Fail),
            ],
        },
        Row {
            what: "variable_check numeric comparisons (numeric text compares as a number)",
            case: steps(&[
                SAVE_ACCT,
                ASK,
                &variable("balance", "gt", "4999"),
                &variable("balance", "gte", r#""5000""#),
                &variable("balance", "lt", "5000"),
                &variable("balance", "lte", "100"),
                &variable("status", "gt", "1"),
            ]),
            run: with_variables("ok", &acct()),
            expect: vec![
                ("is greater than 4999", Pass),
                ("is at least \"5000\"", Pass),
                ("is less than 5000", Fail),
                ("is at most 100", Fail),
                ("status is greater than 1", Fail),
            ],
        },
        Row {
            what: "variable_check contains / not_contains: text or list",
            case: steps(&[
                SAVE_ACCT,
                ASK,
                &variable("note", "contains", r#""review""#),
                &variable("note", "contains", r#""REVIEW""#),
                &variable("tags", "contains", r#""vip""#),
                &variable("tags", "not_contains", r#""us""#),
            ]),
            run: with_variables("ok", &acct()),
            expect: vec![
                ("contains \"review\"", Pass),
                ("contains \"REVIEW\"", Fail),
                ("tags contains \"vip\"", Pass),
                ("does not contain \"us\"", Pass),
            ],
        },
        Row {
            what: "variable_check regex, exists, not_exists",
            case: steps(&[
                SAVE_ACCT,
                ASK,
                &variable("note", "regex", r#""^Pending\\s""#),
                &variable("status", "exists", "null"),
                &variable("closed", "exists", "null"),
                &variable("closed", "not_exists", "null"),
                &variable("missing", "not_exists", "null"),
            ]),
            run: with_variables("ok", &acct()),
            expect: vec![
                ("matches", Pass),
                ("status exists", Pass),
                ("closed exists", Fail),
                ("closed does not exist", Pass),
                ("missing does not exist", Pass),
            ],
        },
        Row {
            what: "variable_check: a leading `$.` in the path is stripped",
            case: steps(&[
                SAVE_ACCT,
                ASK,
                r#"{"type": "assistant_check", "mode": "variable_check", "variablePath": "$.var.acct.status", "expectEquals": "active"}"#,
            ]),
            run: with_variables("ok", &acct()),
            expect: vec![("$.var.acct.status", Pass)],
        },
        Row {
            what: "variable_check on a recording without variables: not measured",
            case: steps(&[SAVE_ACCT, ASK, &variable("status", "eq", r#""active""#)]),
            run: answer("ok"),
            expect: vec![("equals", Error)],
        },
    ];
    run_table(SeedFormat::Lamdis, "test.json", rows);
}

/// Lamdis's judge passes at 0.75 unless told otherwise (agent-test's own default is 0.8).
#[test]
fn the_judge_threshold_defaults_to_lamdis_s() {
    let case = lamdis(&steps(&[
        ASK,
        r#"{"type": "assistant_check", "mode": "judge", "rubric": "warns about risk"}"#,
        r#"{"type": "assistant_check", "mode": "judge", "rubric": "warns about risk", "threshold": 0.9}"#,
    ]));
    let Step::User { expect, .. } = &case.scenario.steps[0] else {
        panic!("{:?}", case.scenario.steps)
    };
    assert_eq!(
        expect[0].check,
        judge("warns about risk")
            .threshold(0.75)
            .on_transcript()
            .so_far()
            .check
    );
    assert_eq!(
        expect[1].check,
        judge("warns about risk")
            .threshold(0.9)
            .on_transcript()
            .so_far()
            .check
    );
}

/// A variable check's reason says what the value was.
#[test]
fn variable_check_reasons() {
    let case = lamdis(&steps(&[SAVE_ACCT, ASK, &variable("balance", "lt", "100")]));
    let report = case.scenario.evaluate(&with_variables(
        "ok",
        &[(
            "var.acct",
            json!({"balance": 5000, "note": "x", "status": "a"}),
        )],
    ));
    assert_reason(
        &report,
        "is less than 100",
        Fail,
        &["bag.var.acct.balance: expected a value that is less than 100, got 5000"],
    );
    // Lamdis compares `eq` as text: a number equals its text.
    let case = lamdis(&steps(&[
        SAVE_ACCT,
        ASK,
        &variable("balance", "eq", r#""5000""#),
    ]));
    let report = case.scenario.evaluate(&with_variables(
        "ok",
        &[("var.acct", json!({"balance": 5000}))],
    ));
    assert_passes(&report);
    // As text: `true` equals "true"; an object equals the JSON its text writes, in any key
    // order and spacing; `null` compares as nothing.
    let case = lamdis(&steps(&[
        SAVE_ACCT,
        ASK,
        &variable("open", "eq", r#""true""#),
        &variable("owner", "eq", r#""{ \"b\": 2, \"a\": 1 }""#),
        &variable("owner", "neq", r#"{"a": 1, "b": 2}"#),
        &variable("closed", "eq", r#""null""#),
    ]));
    let report = case.scenario.evaluate(&with_variables(
        "ok",
        &[(
            "var.acct",
            json!({"open": true, "owner": {"a": 1, "b": 2}, "closed": null}),
        )],
    ));
    let got: Vec<_> = report
        .verdicts
        .iter()
        .map(|v| (v.status, v.reason.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (Pass, ""),
            (Pass, ""),
            (
                Fail,
                r#"bag.var.acct.owner: expected a value that does not equal {"a":1,"b":2}, got {"a":1,"b":2}"#
            ),
            (Fail, "bag.var.acct.closed: the value is null"),
        ]
    );
    // Broken literals are refused where the file is read: an invalid regex, and an unknown
    // operator (which Lamdis's engine would compare as text equality: a misspelt
    // `not_equal` would pass on equal values).
    let err = load_error(
        SeedFormat::Lamdis,
        &steps(&[SAVE_ACCT, ASK, &variable("note", "regex", r#""(unclosed""#)]),
        "t.json",
    );
    assert!(err.contains("invalid regex"), "{err}");
    assert_eq!(
        load_error(
            SeedFormat::Lamdis,
            &steps(&[SAVE_ACCT, ASK, &variable("status", "approximately", "1")]),
            "t.json",
        ),
        "t.json: at steps[2].operator: unknown operator `approximately`, expected one of `eq`, \
         `neq`, `gt`, `gte`, `lt`, `lte`, `contains`, `not_contains`, `regex`, `exists`, \
         `not_exists`"
    );
}

//! No input is reinterpreted: the native JSON forms (scenarios, recordings) are read strictly.
//! A key given twice, an unknown field, an impossible constraint or a matcher written in
//! another syntax is an error naming the file, the path and what was expected; a leading byte
//! order mark is skipped.

use agent_test_runtime::scenario::Scenario;

fn scenario_error(text: &str) -> String {
    match agent_test_runtime::load::load_json::<Scenario>("s.json", text) {
        Ok(s) => panic!("loads: {s:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_repeated_key_in_a_scenario_is_an_error() {
    let text = r#"{"name": "s", "steps": [{"step": "user", "text": "hi", "expect": [
        {"check": {"type": "tool", "name": "refund", "count": {"exactly": 1}, "count": {"exactly": 0}}}]}]}"#;
    assert_eq!(
        scenario_error(text),
        "s.json: at steps[0].expect[0].check.count: duplicate key `count`: first at line 2, \
         column 54, again at line 2, column 79; a key may appear only once in an object"
    );
}

#[test]
fn a_repeated_key_in_a_recording_is_an_error() {
    let text = r#"{"scenario": {"name": "x"}, "transcript": {"turns": [
  {"index": 0, "input": "hi", "reply": {"text": "ok", "calls": [
    {"name": "refund", "arguments": {"amount": 10, "amount": 1000}}]}}]}}"#;
    let err = agent_test_runtime::load::run_from_text(text, "run.json", None).unwrap_err();
    assert_eq!(
        err.to_string(),
        "run.json: at transcript.turns[0].reply.calls[0].arguments.amount: duplicate key \
         `amount`: first at line 3, column 38, again at line 3, column 52; a key may appear \
         only once in an object"
    );
}

#[test]
fn a_byte_order_mark_is_skipped() {
    let dir = std::env::temp_dir().join(format!("agent-test-bom-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let scenario = dir.join("s.json");
    std::fs::write(
        &scenario,
        "\u{feff}{\"name\": \"s\", \"steps\": [{\"step\": \"user\", \"text\": \"hi\"}]}",
    )
    .unwrap();
    let s: Scenario =
        agent_test_runtime::load::load_json_file(&scenario).expect("a BOM is skipped");
    assert_eq!(s.name, "s");
    let run = dir.join("run.json");
    std::fs::write(
        &run,
        "\u{feff}{\"scenario\": {\"name\": \"x\"}, \"transcript\": {\"turns\": []}}",
    )
    .unwrap();
    assert_eq!(
        agent_test_runtime::load::run(&run, None)
            .expect("a BOM is skipped")
            .scenario
            .name,
        "x"
    );
    // Only one: a second mark is text, and not JSON.
    let err = agent_test_runtime::load::load_json::<Scenario>("s.json", "\u{feff}\u{feff}{}")
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("s.json: at line 1, column 1: not valid JSON: expected value"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A misspelt option is an error at its place, in every check family (the text, tool set,
/// sequence and no-tools checks used to ignore it, silently changing the verdict).
#[test]
fn a_misspelt_option_is_an_error_at_its_place() {
    let cases = [
        (
            r#"{"type": "text", "source": "reply", "op": "contains", "value": "Refund", "case_sensitve": true}"#,
            "unknown field `case_sensitve`, expected one of `source`, `op`, `value`, `case_sensitive`, `trim`",
        ),
        (
            r#"{"type": "tool_set", "mode": "required", "tools": ["a"], "succeded": true}"#,
            "unknown field `succeded`, expected one of `mode`, `tools`, `succeeded`",
        ),
        (
            r#"{"type": "tool_sequence", "tools": ["a"], "succeded": true}"#,
            "unknown field `succeded`, expected `tools` or `succeeded`",
        ),
        (
            r#"{"type": "no_tools", "succeded": true}"#,
            "unknown field `succeded`, expected `succeeded`",
        ),
        (
            r#"{"type": "tool", "name": "a", "count": {"exactly": 1, "at_mots": 2}}"#,
            "unknown field `at_mots`, expected one of `exactly`, `at_least`, `at_most`, `between`",
        ),
        (
            r#"{"type": "field", "path": "a", "matcher": {"matcher": "any", "optinal": true}}"#,
            "unknown field `optinal`, there are no fields",
        ),
    ];
    for (check, message) in cases {
        let text = format!(
            r#"{{"name": "s", "steps": [{{"step": "user", "text": "hi", "expect": [{{"check": {check}}}]}}]}}"#
        );
        let field = message.split('`').nth(1).unwrap();
        let place = match field {
            "at_mots" => "count.at_mots".to_owned(),
            "optinal" => "matcher.optinal".to_owned(),
            f => f.to_owned(),
        };
        assert_eq!(
            scenario_error(&text),
            format!("s.json: at steps[0].expect[0].check.{place}: {message}")
        );
    }
}

/// A scenario of one user turn with this check (JSON).
fn with_check(check: &str) -> String {
    format!(
        r#"{{"name": "s", "steps": [{{"step": "user", "text": "hi", "expect": [{{"check": {check}}}]}}]}}"#
    )
}

/// A constraint that can never pass (or never fail) is a load error at its place, never
/// silently changed or accepted.
#[test]
fn impossible_constraints_in_a_scenario_file_are_errors() {
    let rows = [
        (
            with_check(r#"{"type": "tool", "name": "search", "count": {"between": [5, 1]}}"#),
            "s.json: at steps[0].expect[0].check: impossible constraint: between(5, 1) can \
             never pass: the minimum is greater than the maximum",
        ),
        (
            with_check(
                r#"{"type": "tool", "name": "Agent", "target": "node", "tools": [{"name": "t", "count": {"between": [2, 0]}}]}"#,
            ),
            "s.json: at steps[0].expect[0].check: impossible constraint: between(2, 0) can \
             never pass: the minimum is greater than the maximum",
        ),
        (
            with_check(r#"{"type": "http_status", "min": 500, "max": 200}"#),
            "s.json: at steps[0].expect[0].check: impossible constraint: status range 500–200 \
             can never pass: the minimum is greater than the maximum",
        ),
        (
            with_check(r#"{"type": "http_status", "min": 1000, "max": 1000}"#),
            "s.json: at steps[0].expect[0].check: impossible constraint: http_status(1000) can \
             never pass: an HTTP status is from 100 to 599",
        ),
        (
            with_check(r#"{"type": "judge", "criteria": "polite", "threshold": 1.5}"#),
            "s.json: at steps[0].expect[0].check: impossible constraint: threshold 1.5 is \
             outside 0..=1: a judge score goes from 0 (not at all) to 1 (fully)",
        ),
        (
            r#"{"name": "s", "steps": [{"step": "simulate", "objective": "o", "min_turns": 5, "max_turns": 2}]}"#.to_owned(),
            "s.json: at steps[0]: impossible constraint: at least 5 and at most 2 turns can \
             never be met: the minimum is greater than the maximum",
        ),
        (
            r#"{"name": "s", "steps": [{"step": "user", "text": "hi"}, {"step": "simulate", "objective": "o", "max_turns": 0}]}"#.to_owned(),
            "s.json: at steps[1]: impossible constraint: at most 0 turns simulates nothing: \
             the maximum must be at least 1",
        ),
        (
            r#"{"name": "s", "steps": []}"#.to_owned(),
            "s.json: empty scenario: it has no steps and no checks, so it would test nothing",
        ),
    ];
    for (text, expected) in rows {
        assert_eq!(scenario_error(&text), expected, "{text}");
    }
    // Tags are words, each listed once.
    for (tags, expected) in [
        (
            r#"["billing", "slow tests"]"#,
            "s.json: tags[1]: `slow tests` is not a tag: a tag is one word, without whitespace or commas",
        ),
        (
            r#"["a,b"]"#,
            "s.json: tags[0]: `a,b` is not a tag: a tag is one word, without whitespace or commas",
        ),
        (
            r#"[""]"#,
            "s.json: tags[0]: `` is not a tag: a tag is one word, without whitespace or commas",
        ),
        (
            r#"["billing", "slow", "billing"]"#,
            "s.json: tags[2]: `billing` is listed twice (first at tags[0])",
        ),
    ] {
        let text = format!(
            r#"{{"name": "s", "tags": {tags}, "steps": [{{"step": "user", "text": "hi"}}]}}"#
        );
        assert_eq!(scenario_error(&text), expected, "{text}");
    }
    // In a list, the scenario is named by its place.
    let err = agent_test_runtime::load::load_json::<Vec<Scenario>>(
        "s.json",
        r#"[{"name": "a", "steps": [{"step": "user", "text": "hi"}]}, {"name": "b"}]"#,
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "s.json: at [1]: empty scenario: it has no steps and no checks, so it would test nothing"
    );
}

mod builder {
    //! In the builder API, values known only at run time: an impossible constraint is an
    //! error verdict saying so, never a silent change.

    use agent_test_runtime::agent::agent_fn;
    use agent_test_runtime::check::IntoExpectation;
    use agent_test_runtime::check::Status;
    use agent_test_runtime::model::Transcript;
    use agent_test_runtime::prelude::*;
    use agent_test_runtime::{ScenarioRun, Suite, evaluate};

    fn reason(check: impl IntoExpectation) -> (Status, String) {
        let v = evaluate(&Transcript::default(), &[check.into_expectation()]);
        (v[0].status, v[0].reason.clone())
    }

    #[test]
    fn impossible_checks_are_error_verdicts() {
        let (min, max) = (5, 1);
        assert_eq!(
            reason(tool("search").between(min, max)),
            (
                Status::Error,
                "impossible constraint: between(5, 1) can never pass: the minimum is greater \
                 than the maximum"
                    .to_owned()
            )
        );
        assert_eq!(
            reason(node("Agent").tool(tool("t").between(3, 2))).1,
            "impossible constraint: between(3, 2) can never pass: the minimum is greater than \
             the maximum"
        );
        assert_eq!(
            reason(agent_invoked(["a"]).min_calls(0)),
            (
                Status::Error,
                "impossible constraint: agent_invoked(..).min_calls(0) can never fail: to \
                 require that an agent is not invoked, use agent_not_invoked(..)"
                    .to_owned()
            )
        );
        assert_eq!(
            reason(agent_not_invoked(["a"]).min_calls(2)).1,
            "impossible constraint: agent_not_invoked(..).min_calls(2) says two things: use \
             agent_invoked(..).min_calls(2) or agent_not_invoked(..) alone"
        );
        assert_eq!(
            reason(http_status(1000)).1,
            "impossible constraint: http_status(1000) can never pass: an HTTP status is from \
             100 to 599"
        );
        // Refused checks have no data form: writing one is an error, not another meaning.
        let refused = agent_invoked(["a"]).min_calls(0).into_expectation();
        let err = serde_json::to_string(&refused).unwrap_err().to_string();
        assert!(
            err.starts_with("impossible constraint: agent_invoked(..).min_calls(0)"),
            "{err}"
        );
    }

    async fn run_report(suite: Suite, steps: bool) -> agent_test_runtime::report::Report {
        let mut run = ScenarioRun::new(suite, "s");
        if steps {
            run.user("hi").await;
            run.expect(reply().contains("hello"));
        }
        run.report().await
    }

    fn setup_reasons(report: &agent_test_runtime::report::Report) -> Vec<String> {
        report
            .verdicts
            .iter()
            .filter(|v| v.status == Status::Error)
            .map(|v| v.reason.clone())
            .collect()
    }

    #[tokio::test]
    async fn impossible_repeats_and_empty_scenarios_are_error_verdicts() {
        let agent = || agent_fn(|_r| async { "hello" });
        let dir = std::env::temp_dir().join("agent-test-inputs-reports");
        let suite = || Suite::new().agent(agent()).report_dir(&dir);
        let cases = [
            (
                suite().repeat(0),
                "impossible constraint: repeat = 0 runs the scenario no time: it must be at least \
                 1; the scenario was not run",
            ),
            (
                suite().repeat(5).min_passes(6),
                "impossible constraint: min_passes = 6 can never be reached with repeat = 5; the \
                 scenario was not run",
            ),
            (
                suite().min_passes(0),
                "impossible constraint: min_passes = 0 passes without a single passing run: it \
                 must be at least 1 (make the checks `.warning()` to only report them); the \
                 scenario was not run",
            ),
        ];
        for (suite, expected) in cases {
            let report = run_report(suite, true).await;
            assert!(!report.passed(), "{report}");
            assert_eq!(setup_reasons(&report), [expected]);
        }
        // A tag that is not a word, in the suite or the scenario.
        let report = run_report(suite().tags(["billing", "needs review"]), true).await;
        assert_eq!(
            setup_reasons(&report),
            [
                "suite tags[1]: `needs review` is not a tag: a tag is one word, without whitespace or commas"
            ]
        );
        let mut run = ScenarioRun::new(suite().tags(["billing"]), "s");
        run.tags(["slow", "slow"]);
        run.user("hi").await;
        run.expect(reply().contains("hello"));
        let report = run.report().await;
        assert_eq!(
            setup_reasons(&report),
            ["scenario tags[1]: `slow` is listed twice (first at tags[0])"]
        );
        assert_eq!(report.scenario.tags, ["billing"]);
        let report = run_report(suite(), false).await;
        assert!(!report.passed());
        assert_eq!(
            setup_reasons(&report),
            ["empty scenario: it has no steps and no checks, so it would test nothing"]
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A large value the run holds more than once — a reply's text that is also its body's content
/// and its call's result, and what a failed check saw — is written once in the JSON report
/// (`{"agent_test_same_as": pointer}` for each repeat) and read back whole, by `eval` as by
/// `RecordedRun::load`.
#[test]
fn a_large_value_is_written_once_and_read_back_whole() {
    use agent_test_runtime::Suite;
    use agent_test_runtime::agent::agent_fn;
    use agent_test_runtime::model::{Call, Reply};
    use agent_test_runtime::prelude::*;
    let big = "line of a large file\n".repeat(100_000);
    let dir = std::env::temp_dir().join(format!("agent-test-shared-{}", std::process::id()));
    let answer = Reply::text(big.clone())
        .body(json!({"content": [{"type": "text", "text": big.clone()}]}))
        .call(Call::tool("read_file", json!({"path": "big.txt"})).result(json!(big.clone())));
    let scenario = Scenario::new("big")
        .user("read it")
        .expect(reply().contains("not there"));
    let report = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(
            scenario.run(
                Suite::new()
                    .agent(agent_fn(move |_| {
                        let answer = answer.clone();
                        async move { answer }
                    }))
                    .report_dir(&dir),
            ),
        );
    assert!(!report.passed());
    let path = report.json_path.clone().expect("written");
    let written = std::fs::metadata(&path).unwrap().len() as usize;
    assert!(
        written < big.len() * 3 / 2,
        "{written} bytes for a {} byte value",
        big.len()
    );
    let back = agent_test_runtime::load::run(&path, None).unwrap();
    assert_eq!(back.transcript, report.transcript);
    let again = scenario.evaluate(&back.transcript);
    assert_eq!(again.verdicts[0].reason, report.verdicts[0].reason);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_load_error_says_its_kind() {
    use agent_test_runtime::load::{LoadErrorKind, load_json, read_text};
    let kind = |text: &str| load_json::<Scenario>("s.json", text).unwrap_err().kind;
    assert_eq!(
        read_text("no/such/scenarios.json").unwrap_err().kind,
        LoadErrorKind::NotFound
    );
    // A directory exists but is not a file to read.
    assert_eq!(
        read_text(std::env::temp_dir()).unwrap_err().kind,
        LoadErrorKind::Unreadable
    );
    assert_eq!(kind(r#"{"name": "s", "steps": ["#), LoadErrorKind::Syntax);
    assert_eq!(
        kind(r#"{"name": "s", "stesp": []}"#),
        LoadErrorKind::Invalid
    );
    assert_eq!(
        kind(r#"{"name": "s", "name": "t"}"#),
        LoadErrorKind::Invalid
    );
    assert_eq!(
        kind(&with_check(
            r#"{"type": "tool", "name": "search", "count": {"between": [5, 1]}}"#
        )),
        LoadErrorKind::Impossible
    );
    let run = agent_test_runtime::load::run_from_text("[[[", "run.json", None).unwrap_err();
    assert_eq!(run.kind, LoadErrorKind::Syntax);
}

/// A scenario file's repeat plan: read in every form a gate is written in, and refused at its
/// place when it can never be met or is not one.
#[test]
fn a_scenario_file_s_repeat_plan_is_read_or_refused_at_its_place() {
    let plan = |fields: &str| {
        format!(r#"{{"name": "s", "steps": [{{"step": "user", "text": "hi"}}], {fields}}}"#)
    };
    let load = |fields: &str| {
        agent_test_runtime::load::load_json::<Scenario>("s.json", &plan(fields)).map(|s| {
            (
                s.repeat.map(|r| r.to_string()),
                s.min_passes,
                s.min_pass_rate.map(|g| (g.rate, g.confidence)),
            )
        })
    };
    assert_eq!(
        load(r#""repeat": 40, "min_pass_rate": 0.9"#).unwrap(),
        (Some("40".to_owned()), None, Some((0.9, 0.95)))
    );
    assert_eq!(
        load(r#""repeat": 40, "min_pass_rate": [0.8, 0.9], "min_passes": 30"#).unwrap(),
        (Some("40".to_owned()), Some(30), Some((0.8, 0.9)))
    );
    assert_eq!(
        load(r#""repeat": 40, "min_pass_rate": {"rate": 0.8}"#).unwrap(),
        (Some("40".to_owned()), None, Some((0.8, 0.95)))
    );
    assert_eq!(
        load(r#""repeat": {"up_to": 200}, "min_pass_rate": 0.9"#).unwrap(),
        (Some("up_to(200)".to_owned()), None, Some((0.9, 0.95)))
    );
    let refused = [
        (
            r#""repeat": 10, "min_pass_rate": [0.9, 0.95]"#,
            "s.json: at min_pass_rate: impossible constraint: min_pass_rate = (0.9, 0.95) can \
             never be reached with repeat = 10: even 10 passes of 10 give a 95% lower bound of \
             0.72; it needs repeat = 35 or more",
        ),
        (
            r#""repeat": 5, "min_passes": 6"#,
            "s.json: at min_passes: impossible constraint: min_passes = 6 can never be reached \
             with repeat = 5",
        ),
        (
            r#""repeat": 0"#,
            "s.json: at repeat: impossible constraint: repeat = 0 runs the scenario no time: it \
             must be at least 1",
        ),
        (
            r#""repeat": 40, "min_pass_rate": {"rate": 0.9, "conf": 0.95}"#,
            "s.json: at min_pass_rate.conf: unknown field `conf`, expected `rate` or `confidence`",
        ),
        (
            r#""repeat": -3"#,
            "s.json: at repeat: -3 runs: a number of runs is at least 1",
        ),
        (
            r#""repeat": {"up_to": 20}"#,
            "s.json: at repeat: impossible constraint: repeat = up_to(20) runs until a gate is \
             decided: add min_pass_rate (or min_passes)",
        ),
        (
            r#""repeat": {"upto": 20}"#,
            "s.json: at repeat.upto: unknown field `upto`, expected `up_to`",
        ),
        (
            r#""repeat": 40, "min_pass_rate": [0.9]"#,
            "s.json: at min_pass_rate: invalid length 1, expected a pass rate (0.9), [rate, confidence] ([0.9, 0.95]) or {\"rate\": 0.9, \"confidence\": 0.95}",
        ),
    ];
    for (fields, expected) in refused {
        assert_eq!(load(fields).unwrap_err().to_string(), expected, "{fields}");
    }
}

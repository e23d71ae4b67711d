//! `agent-test report` (HTML, JUnit, Markdown) and `agent-test diff`, run as a process on
//! reports written as `cargo test` writes them.

use crate::support::command::{assert_exit, bin, temp, text};
use crate::support::{repeated, report_of, write_all, write_reports};

#[test]
fn report_writes_html_junit_and_markdown() {
    let dir = temp("all");
    write_reports(&dir);
    // The judge's cache beside the reports is passed over.
    std::fs::create_dir_all(dir.join("judge-cache/ab")).expect("dir");
    std::fs::write(dir.join("judge-cache/ab/x.json"), "{\"score\": 1}").expect("write");
    let out = bin()
        .arg("report")
        .arg(&dir)
        .arg("--junit")
        .arg(dir.join("out/junit.xml"))
        .args(["--markdown", "-", "--title", "Nightly <suite>"])
        .output()
        .expect("runs");
    assert_exit(&out, 0);
    assert!(
        text(&out.stderr).contains("report.html (3 scenarios: 2 passed, 1 failed)"),
        "{}",
        text(&out.stderr)
    );
    let md = text(&out.stdout);
    assert!(md.starts_with("## ❌ Nightly <suite>\n"), "{md}");
    assert!(md.contains("| scenarios | 2 passed of 3 |"), "{md}");
    assert!(md.contains("| flaky checks | 1 |"), "{md}");
    assert!(
        md.contains("- **cancel_is_refused** (tests/support.rs)"),
        "{md}"
    );
    assert!(
        md.contains("`tool 'cancel_order' not called`: tool `cancel_order` was called 1 time (expected no call)"),
        "{md}"
    );
    let html = std::fs::read_to_string(dir.join("report.html")).expect("html");
    assert!(html.contains("<title>Nightly &lt;suite&gt;</title>"));
    assert!(
        html.contains("Your refund &lt;b&gt;RF-1&lt;/b&gt; is on its way."),
        "escaped"
    );
    assert!(html.contains("data-flaky=\"1\""));
    // Tags: shown on the scenario, and a filter listing each once.
    assert!(html.contains("data-tags=\"billing smoke\""), "tags");
    assert!(html.contains(
        "<select id=\"tag\" aria-label=\"tag\"><option value=\"\">All tags</option>\
         <option value=\"billing\">billing</option><option value=\"smoke\">smoke</option></select>"
    ));
    let junit = std::fs::read_to_string(dir.join("out/junit.xml")).expect("junit");
    assert!(
        junit.contains(
            r#"<testsuite name="agent-test" tests="3" skipped="0" errors="0" failures="1""#
        ),
        "{junit}"
    );
    assert!(
        junit.contains(r#"<testcase name="cancel_is_refused" classname="support""#),
        "{junit}"
    );
}

#[test]
fn report_names_what_it_cannot_read() {
    let dir = temp("reports-bad");
    write_reports(&dir);
    std::fs::write(dir.join("broken.json"), "{\"verdicts\": [").expect("write");
    std::fs::write(dir.join("other.json"), "{\"hello\": 1}").expect("write");
    let out = bin().arg("report").arg(&dir).output().expect("runs");
    // The page is still written, with what could be read; the exit status says something
    // was not.
    assert_exit(&out, 2);
    let err = text(&out.stderr);
    assert!(
        err.contains("not read: broken.json: not JSON: EOF while parsing a list"),
        "{err}"
    );
    assert!(
        err.contains("not read: other.json: not an agent-test report (no `verdicts`)"),
        "{err}"
    );
    assert!(dir.join("report.html").exists());

    let empty = temp("reports-empty");
    let out = bin().arg("report").arg(&empty).output().expect("runs");
    assert_exit(&out, 2);
    assert!(
        text(&out.stderr).contains("no agent-test reports found in"),
        "{}",
        text(&out.stderr)
    );
    let out = bin()
        .args(["report", "/no/such/dir"])
        .output()
        .expect("runs");
    assert_exit(&out, 2);
    assert!(text(&out.stderr).contains("/no/such/dir: no such file or directory"));
}

#[test]
fn report_reads_the_output_of_eval() {
    let dir = temp("reports-eval");
    let scenario = r#"{"name": "greets", "steps": [{"step": "user", "text": "hi", "expect": [
        {"check": {"type": "text", "source": "reply", "op": "contains", "value": "hello"}}]}]}"#;
    std::fs::write(dir.join("s.json"), scenario).expect("write");
    std::fs::create_dir_all(dir.join("runs")).expect("dir");
    for (name, reply) in [("good", "Hello!"), ("bad", "Go away.")] {
        let run = format!(
            r#"{{"scenario": {{"name": "greets"}}, "transcript": {{"turns": [{{"index": 0, "input": "hi", "reply": {{"text": "{reply}"}}}}]}}}}"#
        );
        std::fs::write(dir.join("runs").join(format!("{name}.json")), run).expect("write");
    }
    let out = bin()
        .args(["eval", "--format", "json", "--output"])
        .arg(dir.join("out.json"))
        .arg("--scenarios")
        .arg(dir.join("s.json"))
        .arg("--runs")
        .arg(dir.join("runs"))
        .output()
        .expect("runs");
    assert_exit(&out, 1);
    let out = bin()
        .arg("report")
        .arg(dir.join("out.json"))
        .args(["--markdown", "-"])
        .output()
        .expect("runs");
    assert_exit(&out, 0);
    let md = text(&out.stdout);
    assert!(md.contains("| scenarios | 1 passed of 2 |"), "{md}");
    assert!(md.contains("reply does not contain \"hello\""), "{md}");
}

#[test]
fn diff_finds_regressions_and_improvements() {
    let dir = temp("diff");
    let (base, new) = (dir.join("base"), dir.join("new"));
    write_all(
        &base,
        &[
            report_of("refund", "tests/a.rs", &[true, true], 100, 20),
            report_of("greeting", "tests/a.rs", &[false], 50, 10),
            report_of("gone", "tests/a.rs", &[true], 10, 1),
            repeated(report_of("flaky", "tests/b.rs", &[true], 10, 1), 5, 5),
        ],
    );
    write_all(
        &new,
        &[
            report_of("refund", "tests/a.rs", &[true, false], 150, 30),
            report_of("greeting", "tests/a.rs", &[true], 40, 10),
            report_of("added", "tests/a.rs", &[true], 10, 1),
            repeated(report_of("flaky", "tests/b.rs", &[true], 10, 1), 5, 3),
        ],
    );
    let out = bin()
        .arg("diff")
        .arg(&base)
        .arg(&new)
        .arg("--html")
        .arg(dir.join("diff.html"))
        .output()
        .expect("runs");
    assert_exit(&out, 1);
    let t = text(&out.stdout);
    for part in [
        "scenarios: 1 newly failing, 1 passes less often, 1 newly passing, 1 new, 1 missing from the new run",
        "✗ suite::refund: newly failing\n    ✗ reply contains \"c1\" [conversation]: passed → failed",
        "↓ suite::flaky: passes less often\n    pass rate 1.00 (95% CI 0.57–1.00) → 0.60 (0.23–0.88); pass^3 1.00 → 0.10\n    ↓ reply contains \"c0\" [conversation]: passed → 60%",
        "✓ suite::greeting: newly passing",
        "+ suite::added: new",
        "− suite::gone: missing from the new run",
        "agent tokens: 432 → 442 (+2.3%)",
        "regression: something that passed no longer does, or did not run",
    ] {
        assert!(t.contains(part), "{part:?} missing from:\n{t}");
    }
    let html = std::fs::read_to_string(dir.join("diff.html")).expect("html");
    assert!(html.contains("<span class=\"delta worse\">regression</span>"));

    // The same run twice: nothing changed, exit 0.
    let out = bin()
        .arg("diff")
        .arg(&base)
        .arg(&base)
        .output()
        .expect("runs");
    assert_exit(&out, 0);
    assert!(
        text(&out.stdout).contains("scenarios: 1 still failing, 3 unchanged"),
        "{}",
        text(&out.stdout)
    );
    assert!(text(&out.stdout).ends_with("no regression\n"));
}

#[test]
fn diff_compares_the_agent_s_cost_and_says_when_it_is_unknown() {
    use agent_test_runtime::report::prices::Cost;
    let dir = temp("diff-cost");
    let priced = |name: &str, cost: Cost| {
        let mut r = report_of(name, "tests/a.rs", &[true], 10, 1);
        r.transcript.turns[0].cost = Some(cost);
        r
    };
    let (base, new, unknown) = (dir.join("base"), dir.join("new"), dir.join("unknown"));
    write_all(
        &base,
        &[priced("a", Cost::Usd(0.01)), priced("b", Cost::Usd(0.03))],
    );
    write_all(
        &new,
        &[priced("a", Cost::Usd(0.02)), priced("b", Cost::Usd(0.03))],
    );
    write_all(
        &unknown,
        &[
            priced("a", Cost::Usd(0.02)),
            priced(
                "b",
                Cost::Unknown("the turn reported no token usage".into()),
            ),
        ],
    );
    let diff = |b: &std::path::Path, n: &std::path::Path| {
        let out = bin().arg("diff").arg(b).arg(n).output().expect("runs");
        text(&out.stdout)
    };
    let t = diff(&base, &new);
    assert!(t.contains("agent cost: $0.04 → $0.05 (+25.0%)\n"), "{t}");
    // A total that left a scenario out is not compared as if it were whole.
    let t = diff(&base, &unknown);
    assert!(
        t.contains("agent cost: $0.04 → $0.02 (1 scenario of unknown cost left out)\n"),
        "{t}"
    );
}

#[test]
fn diff_counts_every_report_of_a_scenario_and_a_missing_one() {
    let dir = temp("diff-many");
    // Two reports of `refund` on each side (runs of `eval` sharing a scenario): one failing
    // run of the new two is a regression, whichever file is read last.
    let (base, new) = (dir.join("base"), dir.join("new"));
    for (side, passes) in [(&base, [true, true]), (&new, [true, false])] {
        for (i, pass) in passes.iter().enumerate() {
            write_all(
                &side.join(format!("run{i}")),
                &[report_of("refund", "tests/a.rs", &[*pass], 10, 1)],
            );
        }
    }
    let out = bin()
        .arg("diff")
        .arg(&base)
        .arg(&new)
        .output()
        .expect("runs");
    assert_exit(&out, 1);
    let t = text(&out.stdout);
    assert!(
        t.contains("✗ suite::refund: newly failing\n    ↓ reply contains \"c0\" [conversation]: passed → 50%"),
        "{t}"
    );

    // A scenario that passed and did not run in the new run was not measured: a regression.
    let (base, new) = (dir.join("base2"), dir.join("new2"));
    write_all(
        &base,
        &[
            report_of("refund", "tests/a.rs", &[true], 10, 1),
            report_of("greeting", "tests/a.rs", &[true], 10, 1),
        ],
    );
    write_all(&new, &[report_of("refund", "tests/a.rs", &[true], 10, 1)]);
    let out = bin()
        .arg("diff")
        .arg(&base)
        .arg(&new)
        .output()
        .expect("runs");
    assert_exit(&out, 1);
    assert!(
        text(&out.stdout).contains("− suite::greeting: missing from the new run"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn diff_names_what_it_cannot_read_on_both_sides() {
    let dir = temp("diff-bad");
    let out = bin()
        .arg("diff")
        .arg(dir.join("nope-base"))
        .arg(dir.join("nope-new"))
        .output()
        .expect("runs");
    assert_exit(&out, 2);
    let err = text(&out.stderr);
    assert!(
        err.contains("nope-base") && err.contains("nope-new"),
        "{err}"
    );

    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).expect("dir");
    let out = bin()
        .arg("diff")
        .arg(&empty)
        .arg(&empty)
        .output()
        .expect("runs");
    assert_exit(&out, 2);
    assert!(
        text(&out.stderr).contains("no agent-test reports found in"),
        "{}",
        text(&out.stderr)
    );

    let (base, new) = (dir.join("base"), dir.join("new"));
    for side in [&base, &new] {
        write_all(side, &[report_of("refund", "tests/a.rs", &[true], 10, 1)]);
    }
    std::fs::write(base.join("broken.json"), "{\"verdicts\": [").expect("write");
    std::fs::write(new.join("garbled.json"), "{\"verdicts\": 1").expect("write");
    let out = bin()
        .arg("diff")
        .arg(&base)
        .arg(&new)
        .output()
        .expect("runs");
    assert_exit(&out, 2);
    let err = text(&out.stderr);
    assert!(err.contains("not read: broken.json"), "{err}");
    assert!(err.contains("not read: garbled.json"), "{err}");
}

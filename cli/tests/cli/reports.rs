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

/// A repository: `.git`, a macro suite's source and a data file under `examples/`, and the
/// reports of their scenarios — a failing check and a warning of the macro suite's scenario at
/// its line, a failing case of the data file (whose report names it relative to its crate),
/// and a flaky check.
fn repository_with_failures(name: &str) -> std::path::PathBuf {
    let root = temp(name);
    std::fs::create_dir_all(root.join(".git")).expect("dir");
    std::fs::create_dir_all(root.join("examples/tests/cases")).expect("dir");
    std::fs::write(root.join("examples/tests/support.rs"), "// the suite\n").expect("write");
    std::fs::write(root.join("examples/tests/cases/refund.json"), "{}\n").expect("write");
    let mut macro_suite = report_of("refund", "examples/tests/support.rs", &[true, false], 10, 5);
    macro_suite.scenario.line = Some(12);
    macro_suite.verdicts[1].reason = "expected it, line 1\nline 2: 100%, a,b".to_owned();
    let mut warning = report_of("tone", "examples/tests/support.rs", &[false], 10, 5);
    warning.scenario.line = Some(30);
    warning.verdicts[0].severity = agent_test_runtime::check::Severity::Warning;
    let mut data_file = report_of("refund case", "tests/cases/refund.json", &[false], 10, 5);
    data_file.scenario.line = None;
    let flaky = repeated(
        report_of("greets", "examples/tests/support.rs", &[true], 10, 5),
        5,
        4,
    );
    write_all(
        &root.join("target/agent-test"),
        &[macro_suite, warning, data_file, flaky],
    );
    root
}

#[test]
fn failing_checks_are_annotated_at_their_lines_for_github_and_gitlab() {
    let root = repository_with_failures("annotations");
    let out = bin()
        .args([
            "report",
            "target/agent-test",
            "--github",
            "--gitlab",
            "quality.json",
        ])
        .env_remove("GITHUB_ACTIONS")
        .current_dir(&root)
        .output()
        .expect("runs");
    assert_exit(&out, 0);
    // The data file's path is found under the repository; a message's line ends, `%`, `:` and
    // `,` in properties are escaped as GitHub's workflow commands require.
    assert_eq!(
        text(&out.stdout),
        "::error file=examples/tests/support.rs,line=12,title=suite%3A%3Arefund::reply contains \"c1\": expected it, line 1%0Aline 2: 100%25, a,b\n\
         ::error file=examples/tests/cases/refund.json,title=suite%3A%3Arefund case::reply contains \"c0\": reply does not contain \"c0\"\n\
         ::warning file=examples/tests/support.rs,line=1,title=suite%3A%3Agreets::flaky: reply contains \"c0\" passed 4 of 5 runs\n\
         ::warning file=examples/tests/support.rs,line=30,title=suite%3A%3Atone::reply contains \"c0\": reply does not contain \"c0\"\n"
    );
    let quality: serde_json::Value =
        serde_json::from_slice(&std::fs::read(root.join("quality.json")).expect("written"))
            .expect("JSON");
    let issues = quality.as_array().expect("an array");
    assert_eq!(issues.len(), 4);
    assert_eq!(
        issues[1]["location"]["path"],
        "examples/tests/cases/refund.json"
    );
    assert_eq!(issues[0]["location"]["lines"]["begin"], 12);
    assert_eq!(issues[0]["severity"], "major");
    assert_eq!(issues[3]["severity"], "minor");
    assert_eq!(issues[0]["fingerprint"].as_str().expect("text").len(), 64);
    // On GitHub Actions the annotations come by themselves.
    let out = bin()
        .args(["report", "target/agent-test"])
        .env("GITHUB_ACTIONS", "true")
        .current_dir(&root)
        .output()
        .expect("runs");
    assert!(
        text(&out.stdout).starts_with("::error file="),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn a_thousand_failures_make_ten_annotations() {
    let root = temp("annotations-many");
    std::fs::create_dir_all(root.join(".git")).expect("dir");
    let reports: Vec<_> = (0..1000)
        .map(|i| report_of(&format!("s{i:04}"), "tests/a.rs", &[false], 10, 5))
        .collect();
    write_all(&root.join("reports"), &reports);
    let out = bin()
        .args(["report", "reports", "--github"])
        .current_dir(&root)
        .output()
        .expect("runs");
    assert_exit(&out, 0);
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 10, "{stdout}");
    assert!(lines.iter().all(|l| l.starts_with("::error ")), "{stdout}");
    assert_eq!(
        lines[9],
        "::error title=agent-test::991 more errors not shown here (GitHub keeps 10 per step): see the job summary or the HTML report"
    );
}

#[test]
fn diff_writes_one_pull_request_comment_regressions_first() {
    let dir = temp("comment");
    write_all(
        &dir.join("base"),
        &[
            report_of("refund", "tests/a.rs", &[true, true], 100, 50),
            report_of("greeting", "tests/a.rs", &[false], 100, 50),
        ],
    );
    write_all(
        &dir.join("new"),
        &[
            report_of("refund", "tests/a.rs", &[true, false], 120, 60),
            report_of("greeting", "tests/a.rs", &[true], 100, 50),
        ],
    );
    let out = bin()
        .arg("diff")
        .arg(dir.join("base"))
        .arg(dir.join("new"))
        .args(["--comment", "-", "--report-url", "https://ci.example/run/7"])
        .output()
        .expect("runs");
    assert_exit(&out, 1);
    let comment = text(&out.stdout);
    assert!(
        comment.starts_with("<!-- agent-test:diff -->\n## agent-test: ❌ regression\n"),
        "{comment}"
    );
    let regressed = comment.find("### Regressed (1)").expect("regressions");
    let improved = comment.find("### Improved (1)").expect("improvements");
    assert!(regressed < improved, "{comment}");
    assert!(
        comment.contains("- ✗ `suite::refund`: newly failing\n  - ✗ `reply contains \"c1\" [conversation]`: passed → failed\n"),
        "{comment}"
    );
    assert!(
        comment.contains("- ✓ `suite::greeting`: newly passing\n"),
        "{comment}"
    );
    assert!(
        comment.contains("| checks passed | 66.7% | 66.7% |"),
        "{comment}"
    );
    assert!(
        comment.contains("\n- turn latency p50: 100 ms → 100 ms"),
        "{comment}"
    );
    assert!(
        comment.ends_with("[The full report](https://ci.example/run/7)\n"),
        "{comment}"
    );
}

#[test]
fn the_comment_fits_github_for_ten_thousand_scenarios() {
    let dir = temp("comment-large");
    let long = "x".repeat(200);
    let many = |passes: bool| -> Vec<_> {
        (0..10_000)
            .map(|i| {
                report_of(
                    &format!("scenario_{i:05}_{long}"),
                    "tests/a.rs",
                    &[passes],
                    10,
                    5,
                )
            })
            .collect()
    };
    write_all(&dir.join("base"), &many(true));
    write_all(&dir.join("new"), &many(false));
    let out = bin()
        .arg("diff")
        .arg(dir.join("base"))
        .arg(dir.join("new"))
        .arg("--comment")
        .arg(dir.join("comment.md"))
        .output()
        .expect("runs");
    assert_exit(&out, 1);
    let comment = std::fs::read_to_string(dir.join("comment.md")).expect("written");
    assert!(
        comment.chars().count() <= 65_536,
        "{} characters",
        comment.chars().count()
    );
    assert!(comment.starts_with("<!-- agent-test:diff -->"));
    assert!(comment.contains("### Regressed (10000)"), "counted whole");
    let shown = comment.matches("\n- ✗ ").count();
    assert!(shown > 50, "{shown} shown");
    assert!(
        comment.contains(&format!("…and {} more scenarios not shown", 10_000 - shown)),
        "{}",
        &comment[comment.len() - 300..]
    );
}

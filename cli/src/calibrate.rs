//! `agent-test judge calibrate`: how far the judge agrees with human labels (see
//! `agent_test_runtime::judge::calibrate`).

use std::fmt::Write as _;
use std::process::ExitCode;

use agent_test_runtime::judge::calibrate::{Agreement, Calibration, Rate};

use crate::args::CalibrateArgs;
use crate::mutate::{percent, shown};

pub(crate) fn run(args: &CalibrateArgs) -> ExitCode {
    let mut cases = Vec::new();
    for file in &args.labels {
        match agent_test_runtime::judge::calibrate::labels(file) {
            Ok(c) => cases.extend(c),
            Err(e) => {
                eprintln!("agent-test: {e}");
                return ExitCode::from(2);
            }
        }
    }
    if cases.is_empty() {
        eprintln!("agent-test: no labelled case in {}", shown(&args.labels));
        return ExitCode::from(2);
    }
    let Some(judge) = crate::judge(&args.judge) else {
        eprintln!(
            "agent-test: no judge configured: name one with AGENT_TEST_JUDGE_MODEL (and \
             AGENT_TEST_JUDGE_PROVIDER, AGENT_TEST_JUDGE_BASE_URL as needed)"
        );
        return ExitCode::from(2);
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("agent-test: cannot start the async runtime: {e}");
            return ExitCode::from(2);
        }
    };
    let calibration = runtime.block_on(judge.calibrate(&cases, usize::from(args.jobs)));
    if !args.format.print(&calibration, as_text) {
        return ExitCode::from(2);
    }
    verdict(&calibration, args.min_kappa)
}

/// The exit status: 2 when part of the labels was not measured (an ungraded case, a kappa
/// the gate cannot read), 1 when a kappa is under the gate.
fn verdict(calibration: &Calibration, min_kappa: Option<f64>) -> ExitCode {
    if !calibration.ungraded.is_empty() {
        let n = calibration.ungraded.len();
        eprintln!(
            "agent-test: {n} case{} could not be graded: the agreement covers part of the labels",
            if n == 1 { "" } else { "s" }
        );
        return ExitCode::from(2);
    }
    let Some(min) = min_kappa else {
        return ExitCode::SUCCESS;
    };
    let mut code = ExitCode::SUCCESS;
    for a in &calibration.checks {
        match a.kappa {
            None => {
                eprintln!(
                    "agent-test: {}: kappa is undefined (every label and every verdict is the \
                     same): label cases of both kinds",
                    a.check
                );
                return ExitCode::from(2);
            }
            Some(k) if k < min => {
                eprintln!(
                    "agent-test: {}: kappa {k:.3} is under --min-kappa {min}",
                    a.check
                );
                code = ExitCode::from(1);
            }
            Some(_) => {}
        }
    }
    code
}

fn rate(name: &str, r: Option<&Rate>) -> String {
    match r {
        Some(r) => format!(
            "{name} {}/{} = {} ({}–{})",
            r.hits,
            r.cases,
            percent(r.rate),
            percent(r.low),
            percent(r.high)
        ),
        None => format!("{name}: no such case labelled"),
    }
}

fn agreement(out: &mut String, a: &Agreement) {
    let _ = writeln!(out, "{}: {} cases", a.check, a.cases);
    let kappa = a
        .kappa
        .map_or_else(|| "undefined".to_owned(), |k| format!("{k:.3}"));
    let _ = writeln!(out, "  agreement {}, kappa {kappa}", percent(a.agreement));
    let _ = writeln!(
        out,
        "  {}; {}",
        rate("true positives", a.true_positive_rate.as_ref()),
        rate("true negatives", a.true_negative_rate.as_ref())
    );
    if let Some(b) = a.best_threshold {
        let _ = writeln!(
            out,
            "  best threshold {} (kappa {:.3}; the check's is {})",
            b.threshold, b.kappa, a.threshold
        );
    }
    if let Some(d) = a.mean_score_difference {
        let _ = writeln!(out, "  mean score difference {d:.3}");
    }
    for d in &a.disagreements {
        let _ = writeln!(
            out,
            "  disagrees on {}: human {}, judge {} at {}: {}",
            d.id,
            if d.label { "pass" } else { "fail" },
            if d.pass { "pass" } else { "fail" },
            d.score,
            d.reasoning
        );
    }
}

fn as_text(c: &Calibration) -> String {
    let mut out = String::new();
    for a in &c.checks {
        agreement(&mut out, a);
    }
    for u in &c.ungraded {
        let _ = writeln!(out, "not graded: {} ({}): {}", u.id, u.check, u.reason);
    }
    out
}

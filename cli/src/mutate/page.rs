//! The mutation run as a self-contained HTML page (the report's styles, nothing fetched): the
//! suite's score, then per scenario its score and counts, the surviving mutants with the checks
//! that let them through, and what killed the others.

use std::fmt::Write as _;

use agent_test_runtime::mutate::Fate;

use super::{Document, Scenario, percent, unnoticed};
use crate::report::html::{esc, head, plural};

/// The page of a mutation run; `sources` names the reports it was made from.
pub(super) fn page(d: &Document, sources: &str) -> String {
    let mut h = String::with_capacity(16 * 1024);
    head(&mut h, "agent-test mutate");
    let total = |f: fn(&Scenario) -> usize| d.scenarios.iter().map(f).sum::<usize>();
    let _ = write!(
        h,
        "<header><h1>Mutation score</h1><p class=\"sub\">{} scenario{} from {}</p></header>\
         <section class=\"summary\">\
         <div class=\"card\"><h2>Score</h2><div class=\"big\">{}</div></div>\
         <div class=\"card\"><h2>Killed</h2><div class=\"big\">{}</div></div>\
         <div class=\"card\"><h2>Survived</h2><div class=\"big\">{}</div></div>\
         <div class=\"card\"><h2>Not counted</h2><div class=\"small\">{} equivalent, {} errored, \
         {} need the judge</div></div></section><main>",
        d.scenarios.len(),
        plural(d.scenarios.len()),
        esc(sources),
        d.score.map_or_else(|| "—".to_owned(), percent),
        total(|s| s.killed),
        total(|s| s.survived),
        total(|s| s.equivalent),
        total(|s| s.errored),
        total(|s| s.needs_judge),
    );
    for s in &d.scenarios {
        scenario(&mut h, s);
    }
    let _ = writeln!(
        h,
        "</main><footer>agent-test {} — a self-contained page: styles inline, nothing \
         fetched.</footer></body></html>",
        env!("CARGO_PKG_VERSION")
    );
    h
}

fn scenario(h: &mut String, s: &Scenario) {
    let class = if s.error.is_some() || s.survived > 0 {
        "failed"
    } else {
        ""
    };
    let _ = write!(
        h,
        "<details class=\"scenario {class}\"{}><summary><span class=\"name\">{}</span> ",
        if s.survived > 0 { " open" } else { "" },
        esc(&s.scenario)
    );
    if let Some(why) = &s.error {
        let _ = write!(
            h,
            "<span class=\"counts\">not mutated</span></summary><div class=\"body\"><p \
             class=\"reason\">{}</p></div></details>",
            esc(why)
        );
        return;
    }
    let _ = write!(
        h,
        "<span class=\"counts\">{} — {} killed, {} survived, {} equivalent, {} errored, {} need the \
         judge</span></summary><div class=\"body\"><p class=\"desc\">{}</p><ul>",
        s.score.map_or_else(|| "no score".to_owned(), percent),
        s.killed,
        s.survived,
        s.equivalent,
        s.errored,
        s.needs_judge,
        esc(&s.source)
    );
    // Survivors first: they are what a reader came for.
    let survivors = s
        .mutants
        .iter()
        .filter(|m| matches!(m.fate, Fate::Survived { .. }));
    let others = s
        .mutants
        .iter()
        .filter(|m| !matches!(m.fate, Fate::Survived { .. }));
    for m in survivors.chain(others) {
        let (badge, class, what) = match &m.fate {
            Fate::Survived { readers } => ("survived", "error", unnoticed(readers)),
            Fate::Killed { by } => ("killed", "pass", format!("by {}", by.join("; "))),
            Fate::Equivalent => (
                "equivalent",
                "warning",
                "it only blows a budget no check sets".to_owned(),
            ),
            Fate::Errored { by } => ("errored", "warning", by.join("; ")),
            Fate::NeedsJudge { by } => ("needs the judge", "warning", by.join("; ")),
        };
        let _ = write!(
            h,
            "<li><span class=\"badge {class}\">{badge}</span> <code>{}</code> — {}</li>",
            esc(&m.change),
            esc(&what)
        );
    }
    h.push_str("</ul></div></details>");
}

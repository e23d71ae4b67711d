//! The HTML report: one self-contained file (styles and script inline, nothing fetched) with
//! the suite's figures, filters, and per scenario its checks (reasons, expected and actual,
//! diffs) and its transcript as a conversation with the nested call tree.

use std::collections::BTreeSet;
use std::fmt::Write;

use agent_test_runtime::check::{Details, Severity, Status};
use agent_test_runtime::model::{Call, CallKind, Turn};
use agent_test_runtime::report::{RepeatSummary, Report};
use agent_test_runtime::{Verdict, model::Transcript};
use serde_json::Value;

use super::labels::{Labels, buttons};
use super::stats::Stats;
use super::{Collection, Entry};

const CSS: &str = include_str!("assets/page.css");
const JS: &str = include_str!("assets/page.js");

/// The page for a collection of reports; `sources` names where they were read.
pub(crate) fn page(c: &Collection, sources: &str, title: &str) -> String {
    let stats = Stats::of(&c.entries);
    let mut h = String::with_capacity(64 * 1024 + c.entries.len() * 4096);
    head(&mut h, title);
    let _ = write!(
        h,
        "<header><h1>{}</h1><p class=\"sub\">{} scenario{} from {}</p></header>",
        esc(title),
        stats.scenarios,
        plural(stats.scenarios),
        esc(sources)
    );
    summary(&mut h, &stats);
    if !c.problems.is_empty() {
        h.push_str("<div class=\"problems\"><strong>Not read:</strong><ul>");
        for p in &c.problems {
            let _ = write!(h, "<li>{}</li>", esc(p));
        }
        h.push_str("</ul></div>");
    }
    filters(&mut h, c, &stats);
    h.push_str("<main id=\"scenarios\">");
    let mut labels = Labels::default();
    for e in &c.entries {
        scenario(&mut h, e, &mut labels);
    }
    h.push_str("</main>");
    h.push_str(&labels.script());
    let _ = writeln!(
        h,
        "<footer>agent-test {} — a self-contained page: styles and script inline, nothing \
         fetched.</footer><script>{JS}</script></body></html>",
        env!("CARGO_PKG_VERSION")
    );
    h
}

pub(crate) fn head(h: &mut String, title: &str) {
    let _ = write!(
        h,
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{}</title><style>{CSS}</style></head><body>",
        esc(title)
    );
}

fn summary(h: &mut String, s: &Stats) {
    let c = &s.checks;
    let failed = s.scenarios - s.passed;
    h.push_str("<section class=\"summary\">");
    let _ = write!(
        h,
        "<div class=\"card\"><h2>Scenarios</h2><div class=\"big\">{} / {}</div>\
         <div class=\"small\">passed{}</div>{}</div>",
        s.passed,
        s.scenarios,
        if failed > 0 {
            format!(", <span class=\"badge fail\">{failed} failed</span>")
        } else {
            String::new()
        },
        bar(s.passed, failed, 0)
    );
    let _ = write!(
        h,
        "<div class=\"card\"><h2>Checks</h2><div class=\"big\">{}</div>\
         <div class=\"small\">{} passed, {} failed, {} could not be evaluated, {} skipped, {} \
         warning{}</div>{}</div>",
        s.pass_rate()
            .map_or("—".to_owned(), |r| format!("{r:.1}% passed")),
        c.passed,
        c.failed,
        c.errors,
        c.skipped,
        c.warnings,
        plural(c.warnings),
        bar(c.passed, c.failed, c.errors)
    );
    let _ = write!(
        h,
        "<div class=\"card\"><h2>Flaky checks</h2><div class=\"big\">{}</div>\
         <div class=\"small\">passed in some repeats, not in others</div></div>",
        s.flaky
    );
    let cost = s
        .judge_cost_usd
        .map_or(String::new(), |c| format!(", ${c:.4}"));
    let _ = write!(
        h,
        "<div class=\"card\"><h2>Judge</h2><div class=\"big\">{} request{}</div>\
         <div class=\"small\">{} from the cache, {} tokens{cost}</div></div>",
        s.judge_requests,
        plural(s.judge_requests as usize),
        s.judge_cached,
        s.judge_tokens
    );
    let latency = match (s.latency(0.5), s.latency(0.95), s.latency(1.0)) {
        (Some(p50), Some(p95), Some(max)) => {
            format!("latency p50 {p50} ms, p95 {p95} ms, max {max} ms")
        }
        _ => "latency not measured".to_owned(),
    };
    let _ = write!(
        h,
        "<div class=\"card\"><h2>Agent</h2><div class=\"big\">{} tokens</div>\
         <div class=\"small\">{} in, {} out{}; {latency}</div></div>",
        s.agent_input_tokens.saturating_add(s.agent_output_tokens),
        s.agent_input_tokens,
        s.agent_output_tokens,
        s.agent_cost
            .shown()
            .map_or(String::new(), |c| format!("; cost {}", esc(&c)))
    );
    h.push_str("</section>");
}

/// A bar of passed, failed and errored shares.
fn bar(passed: usize, failed: usize, errors: usize) -> String {
    let total = passed.saturating_add(failed).saturating_add(errors).max(1) as f64;
    let w = |n: usize| 100.0 * n as f64 / total;
    format!(
        "<div class=\"bar\"><span class=\"p\" style=\"width:{:.2}%\"></span>\
         <span class=\"f\" style=\"width:{:.2}%\"></span><span class=\"e\" style=\"width:{:.2}%\">\
         </span></div>",
        w(passed),
        w(failed),
        w(errors)
    )
}

fn filters(h: &mut String, c: &Collection, s: &Stats) {
    let flaky = c.entries.iter().filter(|e| is_flaky(&e.report)).count();
    let failed = s.scenarios - s.passed;
    let _ = write!(
        h,
        "<section class=\"filters\"><button data-filter=\"all\" class=\"active\">All {}</button>\
         <button data-filter=\"failed\">Failed {failed}</button>\
         <button data-filter=\"flaky\">Flaky {flaky}</button>\
         <button data-filter=\"passed\">Passed {}</button>",
        s.scenarios, s.passed
    );
    let groups: BTreeSet<String> = c.entries.iter().map(Entry::group).collect();
    h.push_str("<select id=\"group\" aria-label=\"file\"><option value=\"\">All files</option>");
    for g in &groups {
        let _ = write!(h, "<option value=\"{0}\">{0}</option>", esc(g));
    }
    h.push_str("</select>");
    // Tags: a filter only when some scenario has one.
    let tags: BTreeSet<&str> = c
        .entries
        .iter()
        .flat_map(|e| e.report.scenario.tags.iter().map(String::as_str))
        .collect();
    if !tags.is_empty() {
        h.push_str("<select id=\"tag\" aria-label=\"tag\"><option value=\"\">All tags</option>");
        for t in &tags {
            let _ = write!(h, "<option value=\"{0}\">{0}</option>", esc(t));
        }
        h.push_str("</select>");
    }
    h.push_str(
        "<input id=\"search\" type=\"search\" placeholder=\"Filter by name, check or \
         text\" aria-label=\"filter\"><button id=\"expand\">Expand</button>\
         <button id=\"collapse\">Collapse</button><button id=\"export-labels\" hidden \
         title=\"the judge verdicts marked right or wrong, as labels for agent-test judge \
         calibrate\">Export labels (<span id=\"marked\">0</span>)</button></section>\
         <textarea id=\"labels-out\" hidden readonly aria-label=\"labels\"></textarea>\
         <p id=\"shown\"></p>",
    );
}

fn is_flaky(r: &Report) -> bool {
    r.repeats
        .as_ref()
        .is_some_and(|rep| rep.checks.iter().any(|t| t.flaky()))
}

fn scenario(h: &mut String, e: &Entry, labels: &mut Labels) {
    let r = &e.report;
    let status = if r.passed() { "passed" } else { "failed" };
    let flaky = is_flaky(r);
    let class = match (r.passed(), flaky) {
        (false, _) => "scenario failed",
        (true, true) => "scenario flaky",
        (true, false) => "scenario",
    };
    let _ = write!(
        h,
        "<details class=\"{class}\" data-status=\"{status}\" data-flaky=\"{}\" \
         data-group=\"{}\" data-tags=\"{}\"{}><summary><span class=\"badge {}\">{}</span>\
         <span class=\"name\">{}</span>{}<span class=\"group\">{}</span>\
         <span class=\"counts\">{}</span><span class=\"dur\">{} ms</span></summary><div class=\"body\">",
        u8::from(flaky),
        esc(&e.group()),
        esc(&r.scenario.tags.join(" ")),
        if r.passed() { "" } else { " open" },
        if r.passed() { "pass" } else { "fail" },
        if r.passed() { "✓" } else { "✗" },
        esc(&r.scenario.name),
        r.scenario
            .tags
            .iter()
            .map(|t| format!("<span class=\"tag\">{}</span>", esc(t)))
            .collect::<String>(),
        esc(&e.group()),
        esc(&counts(r)),
        r.duration_ms
    );
    if let Some(d) = &r.scenario.description {
        let _ = write!(h, "<p class=\"desc\">{}</p>", esc(d));
    }
    let _ = write!(h, "<div class=\"meta\">{}</div>", esc(&e.source));
    h.push_str("<h3>Checks</h3><table class=\"checks\"><tr><th></th><th>check</th><th>scope</th><th>result</th></tr>");
    for v in &r.verdicts {
        verdict(h, v, labels.candidate(e, v));
    }
    h.push_str("</table>");
    if let Some(rep) = &r.repeats {
        repeats(h, rep);
    }
    if let Some(j) = &r.judge {
        let _ = write!(h, "<div class=\"meta\">{}</div>", esc(&j.to_string()));
    }
    if !r.notes.is_empty() {
        h.push_str("<h3>Notes</h3><ul class=\"notes\">");
        for n in &r.notes {
            let _ = write!(h, "<li>{}</li>", esc(n));
        }
        h.push_str("</ul>");
    }
    transcript(h, &r.transcript);
    h.push_str("</div></details>");
}

/// A repeated scenario: its runs, reliability (pass rate with its interval, pass^k, pass@k),
/// why the runs failed, and each check's pass count and rate.
fn repeats(h: &mut String, rep: &RepeatSummary) {
    let _ = write!(h, "<h3>Repeats: {}</h3>", esc(&rep.headline()));
    if let Some(rel) = &rep.reliability {
        let by_k = |m: &std::collections::BTreeMap<u32, f64>| {
            m.values()
                .map(|p| format!("<td>{p:.2}</td>"))
                .collect::<String>()
        };
        let _ = write!(
            h,
            "<div class=\"meta\">{}</div><table><tr><th>k</th>{}</tr>\
             <tr><th>pass^k (all of k runs pass)</th>{}</tr>\
             <tr><th>pass@k (at least one of k runs passes)</th>{}</tr></table>",
            esc(&rel.to_string()),
            rel.pass_hat_k
                .keys()
                .map(|k| format!("<th>{k}</th>"))
                .collect::<String>(),
            by_k(&rel.pass_hat_k),
            by_k(&rel.pass_at_k)
        );
    }
    for failure in rep.failures() {
        let _ = write!(h, "<div class=\"meta fail\">✗ {}</div>", esc(&failure));
    }
    h.push_str(
        "<table><tr><th>check</th><th>scope</th><th>passed</th><th>not passed</th>\
         <th>pass rate</th></tr>",
    );
    for t in &rep.checks {
        let rate = t.reliability.as_ref().map_or("—".to_owned(), |rel| {
            format!(
                "{:.2} ({:.2}–{:.2})",
                rel.pass_rate, rel.interval[0], rel.interval[1]
            )
        });
        let _ = write!(
            h,
            "<tr class=\"{}\"><td class=\"label\">{}</td><td class=\"scope\">{}</td>\
             <td>{}</td><td>{}</td><td>{rate}</td></tr>",
            if t.flaky() { "error" } else { "" },
            esc(&t.label),
            t.scope,
            t.passed,
            t.not_passed
        );
    }
    h.push_str("</table>");
}

fn counts(r: &Report) -> String {
    let s = &r.summary;
    let mut parts = vec![format!("{} passed", s.passed)];
    for (n, what) in [
        (s.failed, "failed"),
        (s.errors, "errors"),
        (s.skipped, "skipped"),
        (s.warnings, "warnings"),
    ] {
        if n > 0 {
            parts.push(format!("{n} {what}"));
        }
    }
    parts.join(", ")
}

/// A verdict's row; `candidate` numbers a judge verdict a reader can mark right or wrong.
fn verdict(h: &mut String, v: &Verdict, candidate: Option<usize>) {
    let (class, mark) = match (v.status, v.severity) {
        (Status::Pass, _) => ("pass", "✓"),
        (Status::Skipped, _) => ("skipped", "–"),
        (_, Severity::Warning) => ("warning", "!"),
        (Status::Fail, _) => ("fail", "✗"),
        (Status::Error, _) => ("error", "?"),
    };
    let _ = write!(
        h,
        "<tr class=\"{class}\"><td><span class=\"badge\">{mark}</span></td>\
         <td class=\"label\">{}</td><td class=\"scope\">{}</td><td>",
        esc(&v.label),
        v.scope
    );
    if !v.reason.is_empty() {
        let _ = write!(h, "<p class=\"reason\">{}</p>", esc(&v.reason));
    }
    details(h, &v.details);
    if let Some(i) = candidate {
        h.push_str(&buttons(i));
    }
    h.push_str("</td></tr>");
}

fn details(h: &mut String, d: &Details) {
    if let Some(e) = &d.expected {
        let _ = write!(
            h,
            "<div class=\"kv\"><span>expected</span><pre>{}</pre>",
            esc(&pretty(e))
        );
        if let Some(a) = &d.actual {
            let _ = write!(h, "<span>actual</span><pre>{}</pre>", esc(&pretty(a)));
        }
        h.push_str("</div>");
    } else if let Some(a) = &d.actual {
        let _ = write!(
            h,
            "<div class=\"kv\"><span>actual</span><pre>{}</pre></div>",
            esc(&pretty(a))
        );
    }
    if !d.violations.is_empty() {
        h.push_str("<ul>");
        for v in &d.violations {
            let _ = write!(
                h,
                "<li><strong>{}</strong>: {}</li>",
                esc(&v.kind),
                esc(&v.message)
            );
        }
        h.push_str("</ul>");
    }
    if let Some(diff) = &d.diff {
        h.push_str("<pre class=\"diff\">");
        for line in diff.lines() {
            match line.chars().next() {
                Some('+') => {
                    let _ = writeln!(h, "<span class=\"add\">{}</span>", esc(line));
                }
                Some('-') => {
                    let _ = writeln!(h, "<span class=\"del\">{}</span>", esc(line));
                }
                _ => {
                    inline_diff(h, line);
                    h.push('\n');
                }
            }
        }
        h.push_str("</pre>");
    }
}

/// A line of an inline text diff: `[-removed-]` and `{+added+}` marked up, the rest as is.
fn inline_diff(h: &mut String, line: &str) {
    let mut rest = line;
    loop {
        let next = [("[-", "-]", "del cut"), ("{+", "+}", "add put")]
            .into_iter()
            .filter_map(|(open, close, class)| Some((rest.find(open)?, open, close, class)))
            .min_by_key(|(at, ..)| *at);
        let Some((at, open, close, class)) = next else {
            h.push_str(&esc(rest));
            return;
        };
        let inner = &rest[at + open.len()..];
        let Some(end) = inner.find(close) else {
            h.push_str(&esc(rest));
            return;
        };
        h.push_str(&esc(&rest[..at]));
        let _ = write!(h, "<span class=\"{class}\">{}</span>", esc(&inner[..end]));
        rest = &inner[end + close.len()..];
    }
}

/// A value as JSON, pretty; a string as itself.
fn pretty(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => serde_json::to_string_pretty(other).unwrap_or_default(),
    }
}

fn transcript(h: &mut String, t: &Transcript) {
    if t.turns.is_empty() {
        return;
    }
    h.push_str("<h3>Transcript</h3>");
    for m in &t.history {
        let _ = write!(
            h,
            "<div class=\"who\">{} (history)</div><div class=\"msg system\">{}</div>",
            esc(&format!("{:?}", m.role).to_lowercase()),
            esc(&m.content)
        );
    }
    for turn in &t.turns {
        self::turn(h, turn);
    }
}

fn turn(h: &mut String, t: &Turn) {
    h.push_str("<div class=\"turn\">");
    for m in &t.before {
        let _ = write!(h, "<div class=\"msg system\">{}</div>", esc(&m.content));
    }
    let _ = write!(
        h,
        "<div class=\"who right\">user · turn {}</div><div class=\"msg user\">{}</div>",
        t.index.saturating_add(1),
        esc(&t.input)
    );
    if !t.reply.calls.is_empty() {
        h.push_str("<ul class=\"calls\">");
        for c in &t.reply.calls {
            call(h, c);
        }
        h.push_str("</ul>");
    }
    h.push_str("<div class=\"who\">agent</div>");
    if let Some(e) = &t.error {
        let _ = write!(
            h,
            "<div class=\"msg agent turnerror\">the agent failed: {}</div>",
            esc(e)
        );
    } else {
        let _ = write!(h, "<div class=\"msg agent\">{}</div>", esc(&t.reply.text));
    }
    let mut meta = Vec::new();
    if let Some(ms) = t.latency_ms {
        meta.push(format!("{ms} ms"));
    }
    if let Some(u) = &t.reply.usage {
        meta.push(format!(
            "{} in / {} out tokens",
            u.input_tokens.map_or("?".into(), |n| n.to_string()),
            u.output_tokens.map_or("?".into(), |n| n.to_string())
        ));
    }
    if let Some(c) = &t.cost {
        meta.push(c.to_string());
    }
    if let Some(s) = t.reply.http_status {
        meta.push(format!("HTTP {s}"));
    }
    if let Some(w) = &t.reply.workflow
        && let Some(state) = &w.state
    {
        meta.push(format!("state {state}"));
    }
    if !meta.is_empty() {
        let _ = write!(h, "<div class=\"meta\">{}</div>", esc(&meta.join(" · ")));
    }
    h.push_str("</div>");
}

fn call(h: &mut String, c: &Call) {
    let kind = match c.kind {
        CallKind::Tool => "tool",
        CallKind::Node => "node",
        _ => "call",
    };
    let _ = write!(
        h,
        "<li><div class=\"call{}\"><span class=\"kind\">{kind}</span> <strong>{}</strong>({})",
        if c.error { " err" } else { "" },
        esc(&c.name),
        esc(&compact(&c.arguments))
    );
    if let Some(r) = &c.result {
        let _ = write!(h, " → {}", esc(&clip(&compact(r), 600)));
    }
    if c.error {
        h.push_str(" <em>(failed)</em>");
    }
    if let Some(ms) = c.latency_ms {
        let _ = write!(h, " <span class=\"kind\">{ms} ms</span>");
    }
    h.push_str("</div>");
    if !c.children.is_empty() {
        h.push_str("<ul class=\"calls\">");
        for child in &c.children {
            call(h, child);
        }
        h.push_str("</ul>");
    }
    h.push_str("</li>");
}

fn compact(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::Object(o) if o.is_empty() => String::new(),
        other => other.to_string(),
    }
}

/// At most `max` characters, with an ellipsis.
fn clip(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_owned(),
    }
}

pub(crate) fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Text escaped for HTML content and attribute values.
pub(crate) fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(
            esc(r#"<script>alert("x & 'y'")</script>"#),
            "&lt;script&gt;alert(&quot;x &amp; &#39;y&#39;&quot;)&lt;/script&gt;"
        );
    }

    #[test]
    fn inline_diffs_are_marked_up() {
        let mut h = String::new();
        inline_diff(&mut h, "[-Your-]{+Done:+} refund <b> {+x");
        assert_eq!(
            h,
            "<span class=\"del cut\">Your</span><span class=\"add put\">Done:</span> refund &lt;b&gt; {+x"
        );
    }

    #[test]
    fn clips_on_characters() {
        assert_eq!(clip("héllo", 2), "hé…");
        assert_eq!(clip("hé", 2), "hé");
    }
}

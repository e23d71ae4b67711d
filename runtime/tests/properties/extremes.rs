//! Extreme numbers in every numeric field of every input: each is accepted, or refused with an
//! error naming its place — never a panic, at load, at evaluation or in a run.
//!
//! Every number (and every string that reads as one) of a valid document is replaced, one at a
//! time, by each of [`extremes`]: as a JSON (or YAML) number — `0`, `-0.0`, `-1`, `0.5`,
//! `1e300`, `-1e300`, `1.7976931348623157e308`, `5e-324`, `9007199254740993` (2^53+1),
//! `4294967295`, `4294967296`, `65535`, `65536`, `18446744073709551615` (u64::MAX),
//! `18446744073709551616`, `-9223372036854775808` (i64::MIN), `9223372036854775807`, `1e400`
//! (out of JSON's range); in YAML also `.nan`, `.inf`, `-.inf` — and as text: `"NaN"`, `"inf"`,
//! `"-inf"`, `"1e300"`, `"-1"`, `"-0.0"`, `"18446744073709551616"`, `""`, and a megabyte of
//! digits where the field holds text. The document is loaded through the entries the command
//! line uses ([`load::cases_from_text`], [`load::run_from_text`]); what loads is evaluated (a
//! scenario on the documented and an extreme transcript, with a judge, and run against an
//! agent when it has steps other than user turns; a recording or trace under the documented
//! scenario and a scenario of every numeric check) and reported. Panics are caught — with the
//! panic hook's message and place, on a thread with a worker's 2 MiB stack — and **one** test
//! per input reports every panicking (input, field, value) at once. A refusal must name the
//! field: its key or path, the object it belongs to, a sibling it conflicts with, or a line
//! and column ([`refusals_name_the_field`] shows a sample in full).
//!
//! Builder methods taking numbers or durations get the extremes of their types (NaN, ±inf,
//! -1, -0.0, 0, f64::MAX, f64::MIN_POSITIVE, u16/u32/u64/usize::MAX, Duration::ZERO, 1 ns,
//! `Duration::from_secs(u64::MAX)`, Duration::MAX) and are evaluated, or run against agents
//! and local servers; the command-line options, the judge's environment variables, and the
//! reports `agent-test report` and `diff` read are in `cli/tests/cli/extremes.rs`.
//!
//! # Inventory
//!
//! The numeric fields of every input. Each is tried in every template that holds it — the seed
//! examples, the documented scenario and recording, a JSON report, the trace fixtures (with
//! the OTLP/JSON of the GenAI, OpenLLMetry, OpenInference and Vercel AI conventions), and
//! [`templates`] for the fields none of them holds — together with every other number the
//! templates hold (arguments, results, context values: 259 fields in all), a field held by
//! several templates once. The tests check that every field below was tried.
//!
//! | input | fields | numeric fields, and what is refused |
//! |---|---|---|
//! | Mibo | 12 | `expected_status` (100..=599), `max_ms` (`response_time`, a u64), `max_total_tokens`, `max_output_tokens`, `max_input_tokens`, `expected_count`, `expected_index` (non-negative integers), `tolerance_minutes` (≤ u32::MAX), `threshold` (0..=1), `expected_value` (`json_match`), matcher `value`s and `one_of` schema keywords, `context` values |
//! | MCPLab | 2 | `equals` (`jsonpath`, tool input assertions), a literal check's `value` (a number read as its text) |
//! | PromptKit | 15 | `min`/`min_characters`/`min_chars`, `max`/`max_characters`/`max_chars`, `max_tokens`, `min`/`max` (`tool_call_count`, `json_path`'s range), `min_results`, `max_results`, `min_calls`, `max_calls` (non-negative integers; min above max refused at the assertion), `occurrence`, `max_ms` (`latency_budget`: finite, ≥ 0, at most what a `Duration` holds), `expected`, `expected_args` values |
//! | Lamdis | 6 | `minTurns` (≥ 1), `maxTurns` (≤ 50), `threshold` (0..=1), `rightValue`, `expectEquals`, `inputMappings` values |
//! | MorganaBench | 4 | `value` (`equality`), `default.value` (`optional`), `outputs.trace[].params` values, `outputs.trace[].id` |
//! | native scenario | 21 | `count.exactly` / `at_least` / `at_most` / `between`, `position` (usize), length `min`/`max`, `http_status` `min`/`max` (u16), `latency` `max_ms`, `tokens` `max_total`/`max_input`/`max_output` (u64), judge `threshold` (0..=1), `min_calls`, `tolerance_minutes` (u32), `min_turns`/`max_turns` (simulate; min above max, or max 0, refused), `check_variable` `equals`, matcher `value`s, schema keywords (`minimum`, `multipleOf`, …) |
//! | recording (`RecordedRun`, JSON report) | 14 | `turns[].index`, `turns[].latency_ms`, `reply.latency_ms`, `reply.http_status` (u16), `usage.input_tokens`/`output_tokens`/`total_tokens`, `calls[].position`/`step`/`latency_ms`, `variables[].value`, a report's `duration_ms`, `summary` counts, `judge` usage |
//! | traces (10 formats) | 30 | OpenAI chat `usage.prompt_tokens`/`completion_tokens`/`total_tokens`, `created`, `choices[].index`; Responses `usage.*`, `created_at`; Anthropic `usage.*`; Gemini `usageMetadata.*`; LangChain `usage_metadata.*`; Mibo `metadata.http_status` (u16), `metadata.duration_ms` (≥ 0), node `usage.*`; n8n `startTime`, `executionTime`; OTLP `startTimeUnixNano`, `endTimeUnixNano` (numbers or strings), `kind`, `flags`, `status.code`, attribute `intValue`s (numbers or strings of an i64) |
//! | judge answers | 2 | `results[].score` (0..=1, else an error verdict), the usage's token counts |
//! | dates | 3 | a fixed clock (RFC 3339, within jiff's range), `user_time` of recordings, `DATE_ADD`/`DATE_SUB` offsets (within the years -9999..=9999) |
//! | builder methods | 50 | below |
//!
//! Builder methods, and what they do with extremes: `tool(..)`/`any_call(..)` `.times`,
//! `.at_least`, `.at_most`, `.between` (min above max: an impossible constraint, an error
//! verdict), `.at_position`; `reply()`/`replies()` `.length()` `.at_least`, `.at_most`,
//! `.between`; `latency().at_most(Duration)` (saturates at u64::MAX ms), `.total()`;
//! `tokens()` `.total_at_most`, `.input_at_most`, `.output_at_most`; `http_status(u16)`
//! (outside 100..=599: an error verdict); `judge(..).threshold(f64)` (outside 0..=1, or NaN:
//! an error verdict); `agent_invoked(..)`/`agent_not_invoked(..)` `.min_calls`;
//! `date(..).tolerance_minutes(u32)`; numeric matcher values (`.arg`, `field(..).is`,
//! `json_path(..).equals`); `Suite::timeout`, `.repeat`, `.min_passes` (`repeat(0)`,
//! `min_passes(0)`, more passes than runs: an error verdict, and a report that does not pass);
//! `ScenarioRun::timeout`, `.repeat`, `.min_passes`; `simulated_user(..).turns` (an empty
//! range: an error verdict); `Suite::clock`, `.timezone`; `Judge` `.retries`, `.backoff`,
//! `.timeout`, `.price_per_million_tokens`; `HttpAgent` `.timeout`, `.max_body_bytes`,
//! `.trace_wait`; `ChatAgent` `.max_steps`, `.temperature`, `.timeout`; `McpServer` `.timeout`,
//! `.max_message_bytes`, `.shutdown_grace`; `request::get(..).timeout`; the model's
//! `Turn::new`, `Usage::new`, `Call::took_ms`, `Call::in_step`, `Reply::latency_ms`,
//! `Reply::http_status` (the extreme transcript every scenario is evaluated on).
//!
//! Not covered: values that are accepted and mean "wait" or "go on" for that long —
//! `repeat(u32::MAX)`, `simulated_user(..).turns(usize::MAX..=usize::MAX)` (a native
//! `min_turns` of 18446744073709551615 loads), `Duration::MAX` for a turn's timeout together
//! with `trace_wait(Duration::MAX)` — run as long as they say; they are tried only where
//! something else ends the run.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::Once;
use std::time::{Duration, Instant};

use agent_test_runtime::LoadError;
use agent_test_runtime::agent::{BoxFuture, agent_fn};
use agent_test_runtime::check::Status;
use agent_test_runtime::judge::{
    Completion, Judge, JudgeMode, JudgeModel, JudgePrompt, ModelError,
};
use agent_test_runtime::load;
use agent_test_runtime::model::{Call, Reply, Transcript, Turn, Usage, Variable};
use agent_test_runtime::prelude::*;
use agent_test_runtime::report::Report;
use agent_test_runtime::scenario::Scenario;
use agent_test_runtime::trace::TraceFormat;
use agent_test_runtime::{RecordedRun, ScenarioRun};
use agent_test_runtime::{Suite, simulated_user};
use serde_json::{Value, json};

use crate::{Seed, doc_file, seed_files, trace_files};

// ---------------------------------------------------------------------------------------------
// Catching panics: every panic on the probing thread is recorded with its message and place.

thread_local! {
    static CAPTURING: Cell<bool> = const { Cell::new(false) };
    static CAUGHT: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// A panic hook that records the panics of a probing thread (and leaves the others to the
/// previous hook).
fn install_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if CAPTURING.with(Cell::get) {
                let payload = info.payload();
                let message = payload
                    .downcast_ref::<&str>()
                    .copied()
                    .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
                    .unwrap_or("(no message)");
                let at = info
                    .location()
                    .map_or_else(String::new, |l| format!("{}:{}", l.file(), l.line()));
                CAUGHT.with(|c| c.borrow_mut().push(format!("{message} — at {at}")));
            } else {
                previous(info);
            }
        }));
    });
}

/// Runs `f` on a thread with the stack of a test (and CLI worker) thread: 2 MiB.
fn on_worker_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap_or_else(|_| panic!("the worker thread panicked outside a probe"))
}

/// What loading answered.
enum Answer {
    /// Loaded (and evaluated).
    Accepted,
    /// Refused: the error's place and its text.
    Refused { path: String, text: String },
}

impl Answer {
    fn of(e: &LoadError) -> Answer {
        Answer::Refused {
            path: e.path.clone(),
            text: e.to_string(),
        }
    }
}

/// Everything the probes found.
#[derive(Default)]
struct Findings {
    /// Combinations tried.
    tried: usize,
    /// Per input: (accepted, refused).
    answers: BTreeMap<String, (usize, usize)>,
    /// Each panic (message and place), with the combinations that caused it.
    panics: BTreeMap<String, Vec<String>>,
    /// Refusals that do not name the field.
    unplaced: Vec<String>,
    /// The fields tried, per input.
    fields: BTreeMap<String, std::collections::BTreeSet<String>>,
}

impl Findings {
    /// Runs `f`, recording any panic under `what`.
    fn probe<T>(&mut self, what: &str, f: impl FnOnce() -> T) -> Option<T> {
        self.tried += 1;
        CAPTURING.with(|c| c.set(true));
        let result = catch_unwind(AssertUnwindSafe(f));
        CAPTURING.with(|c| c.set(false));
        let mut caught = CAUGHT.with(|c| std::mem::take(&mut *c.borrow_mut()));
        if result.is_err() && caught.is_empty() {
            caught.push("a panic the hook did not see".to_owned());
        }
        for p in caught {
            self.panics.entry(p).or_default().push(what.to_owned());
        }
        result.ok()
    }

    /// Notes a panic found another way (a report saying something panicked).
    fn panicked(&mut self, message: String, what: &str) {
        self.panics
            .entry(message)
            .or_default()
            .push(what.to_owned());
    }

    /// Tallies a load's answer, and checks that a refusal names the field at `slot`.
    fn answer(&mut self, input: &str, slot: &Slot, value: &str, answer: Option<Answer>) {
        self.fields
            .entry(input.to_owned())
            .or_default()
            .insert(slot.field.clone());
        let tally = self.answers.entry(input.to_owned()).or_default();
        match answer {
            None => {}
            Some(Answer::Accepted) => tally.0 += 1,
            Some(Answer::Refused { path, text }) => {
                tally.1 += 1;
                if !names_the_place(&path, &text, slot) {
                    self.unplaced
                        .push(format!("{input} {} = {value}: {text}", slot.path));
                }
            }
        }
    }

    /// The failure message: every panic with the combinations that caused it.
    fn panic_report(&self) -> String {
        let mut out = String::new();
        for (panic, combos) in &self.panics {
            out.push_str(&format!(
                "\n\n{} combination(s) panicked: {panic}\n",
                combos.len()
            ));
            for c in combos.iter().take(12) {
                out.push_str(&format!("    {c}\n"));
            }
            if combos.len() > 12 {
                out.push_str(&format!("    … and {} more\n", combos.len() - 12));
            }
        }
        out
    }

    fn summary(&self, title: &str, started: Instant) -> String {
        let answers: Vec<String> = self
            .answers
            .iter()
            .map(|(input, (a, r))| {
                let fields = self.fields.get(input).map_or(0, |f| f.len());
                format!("{input}: {fields} fields, {a} accepted, {r} refused")
            })
            .collect();
        format!(
            "{title}: {} combinations in {:.1} s\n  {}",
            self.tried,
            started.elapsed().as_secs_f64(),
            answers.join("\n  ")
        )
    }
}

/// Whether a refusal names the place of the field: its key (`` `key` ``) or path in the
/// message, a place on the way to it (the object it belongs to, not the document's root) or
/// beside it (a sibling it conflicts with), a line and column (text that is not JSON or YAML
/// at all: `1e400`, `NaN`), or — for a literal found broken once the scenario is read (a JSON
/// Schema keyword, a regex) — the scenario and check, with the key in the message.
fn names_the_place(path: &str, text: &str, slot: &Slot) -> bool {
    if path.starts_with("scenario `") {
        return text.contains(&format!("/{}", slot.key))
            || text.contains(&format!("{}: ", slot.key));
    }
    let path = path.trim_start_matches('$').trim_start_matches('.');
    let parent = slot.path.rfind(['.', '[']).map_or("", |i| &slot.path[..i]);
    text.contains(&format!("`{}`", slot.key))
        || text.contains(&slot.path)
        || (!path.is_empty() && slot.path.starts_with(path))
        || (!parent.is_empty() && path.starts_with(parent))
        || path.starts_with("line ")
        || text.contains("at line ")
}

// ---------------------------------------------------------------------------------------------
// The extreme values.

/// One extreme value, as written in a document.
#[derive(Clone, Debug)]
enum Extreme {
    /// A number as written in JSON (and YAML).
    Number(&'static str),
    /// A number only YAML can write.
    YamlNumber(&'static str),
    /// Text.
    Text(String),
}

impl Extreme {
    /// How it reads in a report.
    fn label(&self) -> String {
        match self {
            Extreme::Number(n) | Extreme::YamlNumber(n) => (*n).to_owned(),
            Extreme::Text(s) if s.len() > 40 => format!("\"<{} digits>\"", s.len()),
            Extreme::Text(s) => format!("{s:?}"),
        }
    }

    /// As written in a JSON (or YAML flow) document.
    fn written(&self) -> String {
        match self {
            Extreme::Number(n) | Extreme::YamlNumber(n) => (*n).to_owned(),
            Extreme::Text(s) => Value::String(s.clone()).to_string(),
        }
    }
}

/// Numbers as JSON writes them.
const JSON_NUMBERS: &[&str] = &[
    "0",
    "-0.0",
    "-1",
    "0.5",
    "1e300",
    "-1e300",
    "1.7976931348623157e308",
    "5e-324",
    "9007199254740993",
    "4294967295",
    "4294967296",
    "65535",
    "65536",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775808",
    "9223372036854775807",
    "1e400",
];

/// Numbers only YAML writes.
const YAML_NUMBERS: &[&str] = &[".nan", ".inf", "-.inf"];

/// Numbers as text.
const NUMBER_TEXTS: &[&str] = &[
    "NaN",
    "inf",
    "-inf",
    "1e300",
    "-1",
    "-0.0",
    "18446744073709551616",
    "",
];

/// A megabyte of digits.
fn megabyte_of_digits() -> String {
    "9".repeat(1 << 20)
}

/// Every extreme, for a JSON or a YAML document; a megabyte of digits where the field holds
/// text (a number written as a string: OTLP's `intValue` and timestamps, a Lamdis
/// `rightValue`, a MorganaBench id; elsewhere text is refused by its type, as the short texts
/// show).
fn extremes(yaml: bool, text: bool) -> Vec<Extreme> {
    let mut all: Vec<Extreme> = JSON_NUMBERS.iter().map(|n| Extreme::Number(n)).collect();
    if yaml {
        all.extend(YAML_NUMBERS.iter().map(|n| Extreme::YamlNumber(n)));
    }
    all.extend(NUMBER_TEXTS.iter().map(|s| Extreme::Text((*s).to_owned())));
    if text {
        all.push(Extreme::Text(megabyte_of_digits()));
    }
    all
}

// ---------------------------------------------------------------------------------------------
// Numeric slots of a document, and substitution.

/// A numeric leaf of a document.
#[derive(Clone, Debug)]
struct Slot {
    /// Its JSON pointer.
    pointer: String,
    /// Its path as the loaders write it (`a.b[0].c`).
    path: String,
    /// Its key (the last object key on the way).
    key: String,
    /// The field it is: the path with indices as `[]` (an OTLP attribute as `[its key]`).
    field: String,
    /// The field with items named by `name` (spans, calls) as `[]`: attributes apart, every
    /// span's field is one.
    coarse: String,
    /// Whether it holds text (a number written as a string).
    text: bool,
}

/// Whether a string reads as a number.
fn numeric_text(s: &str) -> bool {
    let t = s.trim();
    !t.is_empty() && t.len() < 40 && (t.parse::<f64>().is_ok() || t.parse::<i128>().is_ok())
}

/// Every number of `doc`, and every string that reads as one.
fn numeric_slots(doc: &Value) -> Vec<Slot> {
    fn walk(v: &Value, slot: &Slot, out: &mut Vec<Slot>) {
        match v {
            Value::Object(o) => {
                for (k, x) in o {
                    let escaped = k.replace('~', "~0").replace('/', "~1");
                    let here = Slot {
                        pointer: format!("{}/{escaped}", slot.pointer),
                        path: if slot.path.is_empty() {
                            k.clone()
                        } else {
                            format!("{}.{k}", slot.path)
                        },
                        key: k.clone(),
                        field: if slot.field.is_empty() {
                            k.clone()
                        } else {
                            format!("{}.{k}", slot.field)
                        },
                        coarse: format!("{}.{k}", slot.coarse),
                        text: false,
                    };
                    walk(x, &here, out);
                }
            }
            Value::Array(items) => {
                for (i, x) in items.iter().enumerate() {
                    // An item is told apart by its key or name (an OTLP attribute, a span,
                    // a call), not by its place.
                    let named = ["key", "name"]
                        .iter()
                        .find_map(|k| x.get(k).and_then(Value::as_str))
                        .unwrap_or("");
                    let keyed = x.get("key").and_then(Value::as_str).unwrap_or("");
                    let here = Slot {
                        pointer: format!("{}/{i}", slot.pointer),
                        path: format!("{}[{i}]", slot.path),
                        key: slot.key.clone(),
                        field: format!("{}[{named}]", slot.field),
                        coarse: format!("{}[{keyed}]", slot.coarse),
                        text: false,
                    };
                    walk(x, &here, out);
                }
            }
            Value::Number(_) => out.push(slot.clone()),
            Value::String(s) if numeric_text(s) => out.push(Slot {
                text: true,
                ..slot.clone()
            }),
            _ => {}
        }
    }
    let mut out = Vec::new();
    let root = Slot {
        pointer: String::new(),
        path: String::new(),
        key: String::new(),
        field: String::new(),
        coarse: String::new(),
        text: false,
    };
    walk(doc, &root, &mut out);
    out
}

const PLACEHOLDER: &str = "\u{1}extreme\u{1}";

/// `doc` as JSON text with the value at `slot` written as `value`.
fn substitute(doc: &Value, slot: &Slot, value: &Extreme) -> String {
    let mut doc = doc.clone();
    *doc.pointer_mut(&slot.pointer).expect("the slot's pointer") =
        Value::String(PLACEHOLDER.to_owned());
    let quoted = Value::String(PLACEHOLDER.to_owned()).to_string();
    doc.to_string().replacen(&quoted, &value.written(), 1)
}

// ---------------------------------------------------------------------------------------------
// What loaded documents are evaluated on, and with.

/// The documented recording.
fn documented_run() -> RecordedRun {
    agent_test_runtime::load::run_from_text(
        &doc_file("recorded-run.json").text,
        "recorded-run.json",
        None,
    )
    .unwrap()
}

/// The documented scenario.
fn documented_scenario() -> Scenario {
    load::load_json("scenario.json", &doc_file("scenario.json").text).unwrap()
}

/// A transcript at the edges of every numeric field of the model.
fn extreme_transcript() -> Transcript {
    let call = Call::tool(
        "search",
        json!({"n": 1e300, "m": u64::MAX, "i": i64::MIN, "f": -0.0, "date": "9999-12-31"}),
    )
    .result(json!({"total": -1, "sku": "A", "items": [{"qty": u64::MAX, "sku": "A"}]}))
    .took_ms(u64::MAX)
    .in_step(usize::MAX);
    let node = Call::node("agent")
        .child(Call::tool("book", json!({"hotel_id": 1.7976931348623157e308})).took_ms(0))
        .result(json!({"usage": {"prompt_tokens": u64::MAX, "completion_tokens": u64::MAX}}));
    let reply = Reply::text("{\"total\": 1e300, \"items\": [1, 2]}")
        .call(call)
        .call(node)
        .usage(Usage::new(u64::MAX, u64::MAX))
        .http_status(u16::MAX)
        .latency_ms(u64::MAX)
        .body(json!({"usage": {"total_tokens": u64::MAX}, "n": -1e300, "total": 5e-324}));
    let mut t = Transcript::new(vec![
        Turn::new(usize::MAX, "hi", reply, u64::MAX),
        Turn::new(
            0,
            "again",
            Reply::text("").usage(Usage::new(u64::MAX, 1)).latency_ms(0),
            0,
        ),
    ]);
    t.variables = vec![
        Variable::new(
            "var.acct",
            json!({"balance": 1e300, "status": "active", "id": u64::MAX, "tags": [1e300]}),
        ),
        Variable::new(
            "steps.fetch.output",
            json!({"id": i64::MIN, "previous": -0.0}),
        ),
    ];
    t
}

/// A judge that grades every check with `score` (and says a simulated user's objective is
/// met), reporting `tokens` of usage.
struct Scores {
    score: Value,
    tokens: u64,
}

impl JudgeModel for Scores {
    fn id(&self) -> String {
        format!("scores:{}:{}", self.score, self.tokens)
    }

    fn complete<'a>(
        &'a self,
        prompt: &'a JudgePrompt,
    ) -> BoxFuture<'a, Result<Completion, ModelError>> {
        Box::pin(async move {
            let asked: Value = serde_json::from_str(&prompt.user).unwrap_or_default();
            let text = match asked.get("checks").and_then(Value::as_array) {
                Some(checks) => {
                    let results: Vec<Value> = checks
                        .iter()
                        .map(|c| json!({"id": c["id"], "score": self.score, "pass": true, "reasoning": "ok"}))
                        .collect();
                    json!({ "results": results }).to_string()
                }
                None => json!({"objective_met": true, "message": "thanks", "value": self.score, "found": true}).to_string(),
            };
            Ok(Completion {
                text,
                usage: Some(Usage::new(self.tokens, self.tokens)),
            })
        })
    }
}

/// A judge model that cannot be reached: simulated users and extractions fail at once.
struct Offline;

impl JudgeModel for Offline {
    fn id(&self) -> String {
        "offline".into()
    }

    fn complete<'a>(&'a self, _: &'a JudgePrompt) -> BoxFuture<'a, Result<Completion, ModelError>> {
        Box::pin(async { Err(ModelError::fatal("offline")) })
    }
}

/// A judge that grades every check `score`, reporting `tokens` of usage.
fn judge_of(score: Value, tokens: u64) -> Judge {
    Judge::new(Scores { score, tokens })
        .mode(JudgeMode::Off)
        .retries(0)
        .backoff(Duration::ZERO)
}

/// A current-thread runtime for the probes that await.
fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// Renders a report every way a user sees it; a report that says something panicked is a
/// finding too.
fn render(report: &Report) -> Option<String> {
    for v in &report.verdicts {
        if v.status != Status::Pass {
            assert!(
                !v.reason.trim().is_empty(),
                "a {:?} verdict without a reason: {}",
                v.status,
                v.label
            );
        }
    }
    let text = report.to_string();
    let _ = report.headline();
    let json = serde_json::to_string(report).expect("a report serialises");
    (text.contains("panicked") || json.contains("panicked"))
        .then(|| format!("a report says: {}", panicked_line(&text)))
}

fn panicked_line(text: &str) -> String {
    text.lines()
        .find(|l| l.contains("panicked"))
        .unwrap_or_default()
        .chars()
        .take(300)
        .collect()
}

/// Evaluates `scenario` on each transcript, with a judge, and renders the reports. Returns
/// what the reports say panicked.
fn evaluate_all(
    rt: &tokio::runtime::Runtime,
    scenario: &Scenario,
    transcripts: &[&Transcript],
) -> Vec<String> {
    let judge = judge_of(json!(0.9), 10);
    let mut said = Vec::new();
    for t in transcripts {
        let judged = rt.block_on(
            scenario
                .evaluator()
                .evaluate_judged((*t).clone(), Some(&judge)),
        );
        said.extend(render(&judged));
    }
    // What loaded saves again.
    let _ = serde_json::to_string(scenario).expect("a scenario serialises");
    said
}

/// Everything loaded documents are evaluated on and with.
struct Bench {
    rt: tokio::runtime::Runtime,
    /// Where live runs write their reports.
    dir: std::path::PathBuf,
    documented: Transcript,
    extreme: Transcript,
    scenarios: Vec<Scenario>,
}

impl Bench {
    fn new() -> Self {
        Bench {
            rt: runtime(),
            dir: std::env::temp_dir().join(format!(
                "agent-test-extremes-{}-bench-{:?}",
                std::process::id(),
                std::thread::current().id()
            )),
            documented: documented_run().transcript,
            extreme: extreme_transcript(),
            scenarios: vec![documented_scenario(), numeric_scenario()],
        }
    }

    /// Loads scenario text as the command line does, and evaluates what loads.
    fn scenarios(&self, text: &str, file: &str) -> (Answer, Vec<String>) {
        match load::cases_from_text(text, Path::new(file), None) {
            Err(e) => (Answer::of(&e), Vec::new()),
            Ok(cases) => {
                let mut said = Vec::new();
                for case in &cases {
                    said.extend(evaluate_all(
                        &self.rt,
                        &case.scenario,
                        &[&self.documented, &self.extreme],
                    ));
                    match &case.recording {
                        Some(run) => {
                            said.extend(evaluate_all(&self.rt, &case.scenario, &[&run.transcript]));
                        }
                        // Steps other than user turns (a simulated user, a request, a
                        // variable check) are run against an agent: their numbers are read
                        // when the scenario runs. The judge's model is offline, so a
                        // simulated user of `usize::MAX` turns ends at its first.
                        None if case.scenario.steps.iter().any(|s| {
                            !matches!(s, agent_test_runtime::scenario::Step::User { .. })
                        }) =>
                        {
                            let suite = Suite::new()
                                .agent(agent_fn(|_r| async { "hi" }))
                                .judge(Judge::new(Offline).mode(JudgeMode::Off).retries(0))
                                .timeout(Duration::from_secs(5))
                                .report_dir(&self.dir);
                            let report = self
                                .rt
                                .block_on(agent_test_runtime::run_file_case(suite, case));
                            said.extend(render(&report));
                        }
                        None => {}
                    }
                }
                (Answer::Accepted, said)
            }
        }
    }

    /// Loads a run (recording, report or trace) as the command line does, and evaluates it.
    fn run(&self, text: &str, format: Option<TraceFormat>) -> (Answer, Vec<String>) {
        match load::run_from_text(text, Path::new("run.json"), format) {
            Err(e) => (Answer::of(&e), Vec::new()),
            Ok(run) => {
                let mut said = Vec::new();
                for scenario in &self.scenarios {
                    said.extend(evaluate_all(&self.rt, scenario, &[&run.transcript]));
                }
                // What a run saves reloads.
                let saved = serde_json::to_string(&run).expect("a run serialises");
                if let Err(e) = agent_test_runtime::load::run_from_text(&saved, "saved.json", None)
                {
                    said.push(format!("a loaded run does not reload: {e}"));
                }
                (Answer::Accepted, said)
            }
        }
    }
}

impl Drop for Bench {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A scenario with every numeric check, at ordinary values.
fn numeric_scenario() -> Scenario {
    Scenario::new("numbers")
        .user("hi")
        .expect_turn(tool("search").between(1, 3).at_position(0))
        .expect(tool("search").at_least(1))
        .expect(tool("book").at_most(5))
        .expect(any_call("agent").times(1))
        .expect(reply().length().between(1, 100))
        .expect(replies().length().at_least(1).in_bytes())
        .expect(latency().at_most(Duration::from_secs(5)))
        .expect(latency().at_most(Duration::from_millis(1)).total())
        .expect(
            tokens()
                .total_at_most(100)
                .input_at_most(50)
                .output_at_most(50),
        )
        .expect(http_status(200))
        .expect(http_success())
        .expect(judge("is polite").threshold(0.5))
        .expect(agent_invoked(["agent"]).min_calls(2))
        .expect(tool("search").arg("date", date("TODAY()").tolerance_minutes(5)))
        .expect(tool("search").arg("n", 1.5))
        .expect(tool("search").arg("m", u64::MAX))
        .expect(field("total").is(42))
        .expect(field("n").is(matches_schema(
            json!({"type": "number", "minimum": 1, "maximum": 1e300, "multipleOf": 0.5}),
        )))
        .expect(jmespath("items[?qty > `1`].sku").is(json!(["A"])))
        .expect(json_path("$.items[0].qty").equals(1e300))
}

// ---------------------------------------------------------------------------------------------
// The templates.

/// A document a field is tried in: its input, file name (the extension says YAML or JSON
/// lines) and content.
struct Template {
    input: &'static str,
    file: String,
    doc: Value,
}

fn input_of(seed: &str) -> &'static str {
    ["mibo", "mcplab", "promptkit", "lamdis", "morganabench"]
        .into_iter()
        .find(|f| seed.starts_with(f))
        .unwrap_or("native")
}

/// Documents for the numeric fields no seed example holds.
fn templates() -> Vec<Template> {
    let yaml = |input: &'static str, doc: Value| Template {
        input,
        file: "case.yaml".to_owned(),
        doc,
    };
    let json_doc = |input: &'static str, doc: Value| Template {
        input,
        file: "case.json".to_owned(),
        doc,
    };
    let promptkit = |turn: Value, conversation: Value| {
        json!({"apiVersion": "promptkit.altairalabs.ai/v1alpha1", "kind": "Scenario",
            "metadata": {"name": "numbers"},
            "spec": {"turns": [{"role": "user", "content": "hi", "assertions": turn}],
                "conversation_assertions": conversation}})
    };
    let mibo = |procedural: Value| {
        json!({"scenario": "numbers", "input_utterance": "hi", "context": {"N": 5, "S": "7"},
            "assertions": {"procedural": procedural, "semantic": [{"criteria": "polite", "threshold": 0.5}]}})
    };
    vec![
        yaml(
            "promptkit",
            promptkit(
                json!([
                    {"type": "min_length", "params": {"min_characters": 5}},
                    {"type": "min_length", "params": {"min_chars": 5}},
                    {"type": "max_length", "params": {"max_characters": 100, "max_tokens": 30}},
                    {"type": "max_length", "params": {"max_chars": 100}},
                    {"type": "tools_called", "params": {"tools": ["search"], "min_calls": 1, "max_calls": 3}},
                    {"type": "tool_call_count", "params": {"tool": "search", "min": 1, "max": 2}},
                    {"type": "tool_result_includes", "params": {"tool": "search", "patterns": ["A"], "occurrence": 2}},
                    {"type": "tool_result_matches", "params": {"tool": "search", "pattern": "A", "occurrence": 1}},
                    {"type": "latency_budget", "params": {"max_ms": 5000}},
                    {"type": "agent_invoked", "params": {"agents": ["agent"], "min_calls": 2}},
                    {"type": "json_path", "params": {"expression": "total", "expected": 42, "min": 1, "max": 1e3}},
                    {"type": "json_path", "params": {"expression": "items", "contains": [1], "min_results": 1, "max_results": 3}},
                    {"type": "tool_args", "params": {"tool_name": "search", "expected_args": {"n": 1e300}}},
                    {"type": "tool_calls_with_args", "params": {"tool_name": "search", "expected_args": {"m": 5}}}
                ]),
                json!([
                    {"type": "tools_called_session", "params": {"tools": ["search"], "min_calls": 2}},
                    {"type": "tool_args_excluded_session", "params": {"tool_name": "book", "excluded_args": {"hotel_id": [7, 8]}}}
                ]),
            ),
        ),
        json_doc(
            "mibo",
            mibo(json!([
                {"target": "http_status", "expected_status": 200},
                {"target": "response_time", "max_ms": 5000},
                {"target": "token_limit", "max_total_tokens": 10, "max_output_tokens": 5, "max_input_tokens": 5},
                {"target": "node_call", "condition": "CALL_COUNT", "expected_name": "agent", "expected_count": 1,
                    "expected_tool_calls": [{"condition": "MUST_CALL", "expected_name": "search", "expected_index": 0,
                        "expected_arguments": {"n": 1e300, "m": {"matcher": "exact", "value": 7},
                            "i": {"matcher": "contains", "value": 1},
                            "f": {"matcher": "one_of", "variants": [{"type": "number", "minimum": 0, "maximum": 10}, 3]},
                            "date": {"matcher": "date", "expression": "DATE_SUB(TODAY(), 5, 'day')", "tolerance_minutes": 60}}}]},
                {"target": "json_match", "field": "total", "expected_value": 42},
                {"target": "json_schema", "schema": {"type": "object", "properties": {"total": {"type": "number", "minimum": 0, "maximum": 100, "multipleOf": 2}, "items": {"type": "array", "maxItems": 3, "minItems": 1}}}}
            ])),
        ),
        json_doc(
            "lamdis",
            json!({"id": "numbers", "name": "numbers", "steps": [
                {"type": "request", "id": "fetch", "requestId": "accounts.get", "inputMappings": {"amount": 5}, "saveAs": "acct"},
                {"type": "message", "role": "user", "content": "hi"},
                {"type": "assistant_check", "mode": "variable_check", "variablePath": "bag.var.acct.balance", "operator": "gt", "rightValue": 100},
                {"type": "assistant_check", "mode": "variable_check", "variablePath": "bag.var.acct.balance", "expectEquals": 100},
                {"type": "assistant_check", "mode": "judge", "rubric": "polite", "threshold": 0.5},
                {"type": "user_objective", "description": "book", "minTurns": 1, "maxTurns": 3}
            ]}),
        ),
        yaml(
            "mcplab",
            json!({"name": "numbers", "prompt": "hi", "eval": {
            "response_assertions": [
                {"type": "contains", "value": 42},
                {"type": "equals", "value": 1.5},
                {"type": "jsonpath", "path": "$.total", "equals": 42}
            ],
            "tool_input_assertions": [
                {"type": "contains", "tool": "search", "value": 7},
                {"type": "jsonpath", "tool": "search", "path": "$.n", "equals": 1e300}
            ]}}),
        ),
        json_doc(
            "morganabench",
            json!({"inputs": {"messages": [{"role": "user", "content": "hi"}]},
            "expectations": {"assertions": [
            {"assert_that": "tool_called", "tool": "search", "parameters": [
                {"param": "n", "matcher": {"match_as": "equality", "value": 1e300}},
                {"param": "m", "matcher": {"match_as": "optional", "default": {"match_as": "equality", "value": 7}}}
            ]}]},
            "outputs": {"response": "done", "trace": [
                {"event": "tool_call", "id": "1", "tool": "search", "params": {"n": 1e300, "m": 7}},
                {"event": "tool_result", "id": "1", "result": {"total": 3}}
            ]}}),
        ),
        json_doc("native", native_template()),
    ]
}

/// The native form of a scenario with every numeric check and step.
fn native_template() -> Value {
    let mut doc = serde_json::to_value(numeric_scenario()).unwrap();
    let steps = doc["steps"].as_array_mut().unwrap();
    steps.push(json!({"step": "simulate", "objective": "book", "min_turns": 1, "max_turns": 3}));
    steps.push(json!({"step": "check_variable", "path": "var.acct.balance", "op": "greater_than", "equals": 100}));
    steps.push(json!({"step": "request", "request": "accounts.get", "input": {"amount": 5}}));
    doc["context"] = json!({"N": 5, "requests": {"accounts.get": "http://127.0.0.1:9/"}});
    doc
}

/// Every scenario document: the seed examples, the documented scenario, and [`templates`].
fn scenario_templates() -> Vec<Template> {
    let mut all: Vec<Template> = seed_files()
        .iter()
        .filter_map(|seed: &Seed| {
            let doc = if seed.name.ends_with(".jsonl") {
                serde_json::from_str(seed.text.lines().find(|l| !l.trim().is_empty())?).ok()?
            } else {
                seed.value()?
            };
            Some(Template {
                input: input_of(&seed.name),
                file: seed.name.clone(),
                doc,
            })
        })
        .collect();
    all.push(Template {
        input: "native",
        file: "scenario.json".to_owned(),
        doc: serde_json::from_str(&doc_file("scenario.json").text).unwrap(),
    });
    all.extend(templates());
    all
}

/// Every run document: the documented recording, a recording of the extreme transcript, a
/// JSON report, and every trace fixture with its format.
fn run_templates() -> Vec<(String, Option<TraceFormat>, Value)> {
    let documented: Value = serde_json::from_str(&doc_file("recorded-run.json").text).unwrap();
    let extreme = RecordedRun {
        scenario: agent_test_runtime::ScenarioInfo::new("extreme"),
        transcript: {
            // Ordinary numbers: the extremes are what gets substituted.
            let mut t = extreme_transcript();
            t.turns[0].index = 0;
            t.turns[1].index = 1;
            t
        },
    };
    let report = {
        let run = documented_run();
        let rt = runtime();
        let report = rt.block_on(
            numeric_scenario()
                .evaluator()
                .evaluate_judged(run.transcript, Some(&judge_of(json!(0.9), 10))),
        );
        serde_json::to_value(&report).unwrap()
    };
    let mut all = vec![
        ("recorded-run.json".to_owned(), None, documented),
        (
            "extreme recording".to_owned(),
            None,
            serde_json::to_value(&extreme).unwrap(),
        ),
        ("report".to_owned(), None, report),
    ];
    let fixtures = trace_files()
        .iter()
        .map(|s| (s.name.clone(), s.text.clone()));
    // OTLP/JSON by the GenAI conventions, OpenLLMetry's, OpenInference's and the Vercel AI
    // SDK's.
    let otel = [
        "otel/genai.json",
        "otel/openinference.json",
        "otel/openllmetry.json",
        "frameworks/vercel-ai/trace.json",
    ]
    .into_iter()
    .map(|name| {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(name);
        (name.to_owned(), std::fs::read_to_string(path).unwrap())
    });
    for (name, text) in fixtures.chain(otel) {
        let doc: Value = serde_json::from_str(&text).unwrap();
        let format = agent_test_runtime::trace::detect(&doc);
        assert!(format.is_some(), "{name}: no format detected");
        all.push((name, format, doc));
    }
    all
}

// ---------------------------------------------------------------------------------------------
// The properties.

/// Fails with every panic found, and every refusal that does not name its place.
fn assert_clean(findings: &Findings, title: &str, started: Instant) {
    let summary = findings.summary(title, started);
    eprintln!("{summary}");
    assert!(
        findings.panics.is_empty(),
        "{summary}\n{} panic(s):{}",
        findings.panics.len(),
        findings.panic_report()
    );
    assert!(
        findings.unplaced.is_empty(),
        "{summary}\n{} refusal(s) do not name the field:\n  {}",
        findings.unplaced.len(),
        findings.unplaced.join("\n  ")
    );
}

/// Every numeric field of every scenario input (the five seed formats and the native form),
/// with every extreme: loaded as the command line loads it, evaluated if it loads.
#[test]
fn extreme_numbers_in_scenario_files_never_panic() {
    install_hook();
    let findings = on_worker_stack(|| {
        let started = Instant::now();
        let bench = Bench::new();
        let mut findings = Findings::default();
        // A field held by many seed examples (Mibo's `threshold`) is tried in the first.
        let mut seen = std::collections::HashSet::new();
        for template in scenario_templates() {
            let yaml = template.file.ends_with(".yaml");
            let file = if template.file.ends_with(".jsonl") {
                "case.jsonl"
            } else if yaml {
                "case.yaml"
            } else {
                "case.json"
            };
            for slot in numeric_slots(&template.doc) {
                if !seen.insert((template.input, slot.field.clone())) {
                    continue;
                }
                for value in extremes(yaml, slot.text) {
                    let text = substitute(&template.doc, &slot, &value);
                    let what = format!(
                        "{} ({}) {} = {}",
                        template.input,
                        template.file,
                        slot.path,
                        value.label()
                    );
                    let answer = findings.probe(&what, || bench.scenarios(&text, file));
                    let answer = answer.map(|(answer, said)| {
                        for s in said {
                            findings.panicked(s, &what);
                        }
                        answer
                    });
                    findings.answer(template.input, &slot, &value.label(), answer);
                }
            }
        }
        (findings, started)
    });
    let (findings, started) = findings;
    assert_clean(&findings, "scenario files", started);
    assert_inventory(&findings, SCENARIO_FIELDS);
}

/// Every numeric field of the run documents — recordings and reports, or traces — with every
/// extreme, as `eval` reads them (a trace both as its format and detected).
fn runs_with_extremes(traces: bool) -> (Findings, Instant) {
    install_hook();
    on_worker_stack(move || {
        let started = Instant::now();
        let bench = Bench::new();
        let mut findings = Findings::default();
        let mut seen = std::collections::HashSet::new();
        for (name, format, doc) in run_templates() {
            if format.is_some() != traces {
                continue;
            }
            let input = match format {
                Some(f) => format!("trace {f}"),
                None => "recording".to_owned(),
            };
            // A framework's trace of many spans: each field of a span once.
            let coarse = name.starts_with("frameworks/");
            for slot in numeric_slots(&doc) {
                let field = if coarse { &slot.coarse } else { &slot.field };
                if !seen.insert((input.clone(), field.clone())) {
                    continue;
                }
                for value in extremes(false, slot.text) {
                    let text = substitute(&doc, &slot, &value);
                    let formats: &[Option<TraceFormat>] = match format {
                        Some(_) => &[format, None],
                        None => &[None],
                    };
                    for f in formats {
                        let what = format!(
                            "{input} ({name}{}) {} = {}",
                            if f.is_some() { "" } else { ", detected" },
                            slot.path,
                            value.label()
                        );
                        let answer = findings.probe(&what, || bench.run(&text, *f));
                        let answer = answer.map(|(answer, said)| {
                            for s in said {
                                findings.panicked(s, &what);
                            }
                            answer
                        });
                        findings.answer(&input, &slot, &value.label(), answer);
                    }
                }
            }
        }
        (findings, started)
    })
}

/// Every numeric field of recordings and JSON reports, with every extreme.
#[test]
fn extreme_numbers_in_recordings_never_panic() {
    let (findings, started) = runs_with_extremes(false);
    assert_clean(&findings, "recordings", started);
    assert_inventory(&findings, &RUN_FIELDS[..1]);
}

/// Every numeric field of every trace format, with every extreme.
#[test]
fn extreme_numbers_in_traces_never_panic() {
    let (findings, started) = runs_with_extremes(true);
    assert_clean(&findings, "traces", started);
    assert_inventory(&findings, &RUN_FIELDS[1..]);
}

/// The fields of the inventory, per input: each must have been tried (a field's path ends
/// with the name given).
const SCENARIO_FIELDS: &[(&str, &[&str])] = &[
    (
        "mibo",
        &[
            "expected_status",
            "max_ms",
            "max_total_tokens",
            "max_output_tokens",
            "max_input_tokens",
            "expected_count",
            "expected_index",
            "tolerance_minutes",
            "threshold",
            "expected_value",
            "value",
            "context.USER_ID",
        ],
    ),
    ("mcplab", &["equals", "value"]),
    (
        "promptkit",
        &[
            "params.min",
            "params.min_characters",
            "params.min_chars",
            "params.max",
            "params.max_characters",
            "params.max_chars",
            "params.max_tokens",
            "params.min_results",
            "params.max_results",
            "params.min_calls",
            "params.max_calls",
            "params.occurrence",
            "params.max_ms",
            "params.expected",
            "expected_args.n",
        ],
    ),
    (
        "lamdis",
        &[
            "minTurns",
            "maxTurns",
            "threshold",
            "rightValue",
            "expectEquals",
            "inputMappings.amount",
        ],
    ),
    (
        "morganabench",
        &["matcher.value", "default.value", "params.n", "trace[].id"],
    ),
    (
        "native",
        &[
            "count.exactly",
            "count.at_least",
            "count.at_most",
            "count.between[]",
            "position",
            "check.min",
            "check.max",
            "max_ms",
            "max_total",
            "max_input",
            "max_output",
            "threshold",
            "min_calls",
            "tolerance_minutes",
            "min_turns",
            "max_turns",
            "equals",
            "value",
            "multipleOf",
        ],
    ),
];

const RUN_FIELDS: &[(&str, &[&str])] = &[
    (
        "recording",
        &[
            "turns[].index",
            "turns[].latency_ms",
            "reply.latency_ms",
            "reply.http_status",
            "usage.input_tokens",
            "usage.output_tokens",
            "calls[].position",
            "calls[].step",
            "calls[].latency_ms",
            "variables[].value.balance",
            "duration_ms",
            "summary.passed",
            "judge.input_tokens",
        ],
    ),
    (
        "trace openai-chat",
        &[
            "usage.prompt_tokens",
            "usage.completion_tokens",
            "usage.total_tokens",
            "created",
            "choices[].index",
        ],
    ),
    (
        "trace openai-responses",
        &["usage.input_tokens", "created_at"],
    ),
    (
        "trace anthropic",
        &["usage.input_tokens", "usage.output_tokens"],
    ),
    (
        "trace gemini",
        &[
            "usageMetadata.promptTokenCount",
            "usageMetadata.candidatesTokenCount",
            "usageMetadata.totalTokenCount",
        ],
    ),
    ("trace langchain", &["usage_metadata.input_tokens"]),
    (
        "trace mibo",
        &[
            "metadata.http_status",
            "metadata.duration_ms",
            "usage.total_tokens",
        ],
    ),
    ("trace n8n", &["startTime", "executionTime"]),
    (
        "trace otel",
        &[
            "startTimeUnixNano",
            "endTimeUnixNano",
            "kind",
            "flags",
            "[gen_ai.usage.input_tokens].value.intValue",
        ],
    ),
    (
        "trace openinference",
        &[
            "startTimeUnixNano",
            "endTimeUnixNano",
            "status.code",
            "[llm.token_count.prompt].value.intValue",
        ],
    ),
];

/// A field with its items' names dropped: `calls[book].position` is `calls[].position`.
fn unnamed_items(field: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for c in field.chars() {
        match c {
            '[' => {
                inside = true;
                out.push(c);
            }
            ']' => {
                inside = false;
                out.push(c);
            }
            _ if inside => {}
            _ => out.push(c),
        }
    }
    out
}

/// Every field of the inventory was tried.
fn assert_inventory(findings: &Findings, inventory: &[(&str, &[&str])]) {
    let mut missing = Vec::new();
    for (input, fields) in inventory {
        let tried = findings.fields.get(*input);
        for f in *fields {
            let hit = tried.is_some_and(|t| {
                t.iter()
                    .any(|x| x.ends_with(f) || unnamed_items(x).ends_with(f))
            });
            if !hit {
                missing.push(format!("{input}: {f}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "fields of the inventory no template holds: {missing:?}\ntried: {:#?}",
        findings.fields
    );
}

// ---------------------------------------------------------------------------------------------
// Builder methods.

const USIZES: [usize; 4] = [0, 1, usize::MAX - 1, usize::MAX];
const U64S: [u64; 3] = [0, 1, u64::MAX];
const U32S: [u32; 3] = [0, 1, u32::MAX];
const U16S: [u16; 5] = [0, 99, 200, 600, u16::MAX];
const F64S: [f64; 10] = [
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    -1.0,
    -0.0,
    0.0,
    0.5,
    1.0,
    f64::MAX,
    f64::MIN_POSITIVE,
];

fn durations() -> [Duration; 5] {
    [
        Duration::ZERO,
        Duration::from_nanos(1),
        Duration::from_millis(50),
        Duration::from_secs(u64::MAX),
        Duration::MAX,
    ]
}

/// Every numeric check builder with every extreme of its argument's type.
fn extreme_checks() -> Vec<(String, agent_test_runtime::check::Expectation)> {
    let mut all: Vec<(String, agent_test_runtime::check::Expectation)> = Vec::new();
    let mut add = |label: String, e: agent_test_runtime::check::Expectation| all.push((label, e));
    for n in USIZES {
        add(
            format!("tool(..).times({n})"),
            tool("search").times(n).into_expectation(),
        );
        add(
            format!("tool(..).at_least({n})"),
            tool("search").at_least(n).into_expectation(),
        );
        add(
            format!("tool(..).at_most({n})"),
            tool("search").at_most(n).into_expectation(),
        );
        add(
            format!("tool(..).between({n}, 1)"),
            tool("search").between(n, 1).into_expectation(),
        );
        add(
            format!("tool(..).between(1, {n})"),
            tool("search").between(1, n).into_expectation(),
        );
        add(
            format!("tool(..).between({n}, {n})"),
            tool("search").between(n, n).into_expectation(),
        );
        add(
            format!("tool(..).at_position({n})"),
            tool("search").at_position(n).into_expectation(),
        );
        add(
            format!("any_call(..).at_position({n}).times({n})"),
            any_call("agent").at_position(n).times(n).into_expectation(),
        );
        add(
            format!("reply().length().at_least({n})"),
            reply().length().at_least(n).into_expectation(),
        );
        add(
            format!("reply().length().at_most({n})"),
            reply().length().at_most(n).into_expectation(),
        );
        add(
            format!("reply().length().between({n}, 1)"),
            reply().length().between(n, 1).into_expectation(),
        );
        add(
            format!("replies().length().between(0, {n})"),
            replies()
                .length()
                .between(0, n)
                .in_bytes()
                .into_expectation(),
        );
        add(
            format!("reply().length().at_least({n}).at_most({n})"),
            reply().length().at_least(n).at_most(n).into_expectation(),
        );
        add(
            format!("agent_invoked(..).min_calls({n})"),
            agent_invoked(["agent"]).min_calls(n).into_expectation(),
        );
        add(
            format!("agent_not_invoked(..).min_calls({n})"),
            agent_test_runtime::check::agent_not_invoked(["agent"])
                .min_calls(n)
                .into_expectation(),
        );
    }
    for n in U64S {
        add(
            format!("tokens().total_at_most({n})"),
            tokens().total_at_most(n).into_expectation(),
        );
        add(
            format!("tokens().input_at_most({n})"),
            tokens().input_at_most(n).into_expectation(),
        );
        add(
            format!("tokens().output_at_most({n})"),
            tokens().output_at_most(n).into_expectation(),
        );
        add(
            format!("tool(..).arg(n, {n})"),
            tool("search").arg("m", n).into_expectation(),
        );
    }
    for n in U32S {
        add(
            format!("date(..).tolerance_minutes({n})"),
            tool("search")
                .arg("date", date("TODAY()").tolerance_minutes(n))
                .into_expectation(),
        );
        add(
            format!("date(9999-12-31).tolerance_minutes({n})"),
            tool("search")
                .arg("date", date("'9999-12-31'").tolerance_minutes(n))
                .into_expectation(),
        );
    }
    for s in U16S {
        add(
            format!("http_status({s})"),
            http_status(s).into_expectation(),
        );
    }
    for f in F64S {
        add(
            format!("judge(..).threshold({f})"),
            judge("is polite").threshold(f).into_expectation(),
        );
        add(
            format!("tool(..).arg(n, {f})"),
            tool("search").arg("n", f).into_expectation(),
        );
        add(
            format!("field(n).is({f})"),
            field("n").is(f).into_expectation(),
        );
        add(
            format!("json_path(..).equals({f})"),
            json_path("$.n").equals(f).into_expectation(),
        );
    }
    for d in durations() {
        add(
            format!("latency().at_most({d:?})"),
            latency().at_most(d).into_expectation(),
        );
        add(
            format!("latency().at_most({d:?}).total()"),
            latency().at_most(d).total().into_expectation(),
        );
    }
    all
}

/// What a builder probe is run with: a runtime, a report directory, the transcripts.
struct Live {
    rt: tokio::runtime::Runtime,
    dir: std::path::PathBuf,
    documented: Transcript,
    extreme: Transcript,
}

impl Live {
    fn new(name: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("agent-test-extremes-{}-{name}", std::process::id()));
        Live {
            rt: runtime(),
            dir,
            documented: documented_run().transcript,
            extreme: extreme_transcript(),
        }
    }

    /// A suite with an agent that answers "hi", writing its reports in a temporary directory.
    fn suite(&self) -> Suite {
        Suite::new()
            .agent(agent_fn(|_r| async { "hi" }))
            .report_dir(&self.dir)
    }

    /// Runs one `tools/list` request on `suite` (an MCP server under test), and renders the
    /// report.
    fn run_mcp(&self, suite: Suite) -> Option<String> {
        self.rt.block_on(async {
            let mut run = ScenarioRun::new(suite, "mcp");
            run.user(agent_test_runtime::agent::mcp::list_tools()).await;
            run.expect(latency().at_most(Duration::MAX));
            render(&run.report().await)
        })
    }

    /// Runs a one-turn scenario on `suite`, and renders its report.
    fn run(&self, suite: Suite) -> Option<String> {
        let scenario = Scenario::new("extreme")
            .user("hi")
            .expect_turn(reply().contains("hi"))
            .expect(latency().at_most(Duration::MAX));
        render(&self.rt.block_on(scenario.run(suite)))
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Every numeric check builder with the extremes of its argument: evaluated on the documented
/// and the extreme transcript, with and without a judge, and reported — a verdict with a
/// reason, never a panic. (An impossible constraint — `between(5, 1)`, a threshold outside
/// 0..=1 or NaN, `http_status(600)`, `min_calls(0)` — is an error verdict saying so.)
#[test]
fn extreme_numbers_in_check_builders_never_panic() {
    install_hook();
    let (findings, started) = on_worker_stack(|| {
        let started = Instant::now();
        let live = Live::new("checks");
        let judge = judge_of(json!(0.9), 10);
        let mut findings = Findings::default();
        for (label, e) in extreme_checks() {
            let said = findings.probe(&label, || {
                let mut said = Vec::new();
                for t in [&live.documented, &live.extreme] {
                    let verdicts = agent_test_runtime::evaluate(t, std::slice::from_ref(&e));
                    assert_eq!(verdicts.len(), 1);
                    let scenario = Scenario::new("builder").expect(e.clone());
                    said.extend(render(&scenario.evaluate(t)));
                    said.extend(render(
                        &live.rt.block_on(
                            scenario
                                .evaluator()
                                .evaluate_judged(t.clone(), Some(&judge)),
                        ),
                    ));
                }
                said
            });
            for s in said.into_iter().flatten() {
                findings.panicked(s, &label);
            }
        }
        (findings, started)
    });
    assert_clean(&findings, "check builders", started);
}

/// The judge's answers and settings: a score of every extreme (outside 0..=1, not a number: an
/// error verdict), usage of u64::MAX tokens, prices of every extreme, and the judge's
/// `retries`, `backoff` and `timeout` at their extremes (with a judge that answers: a retry
/// that waits `Duration::MAX` would wait that long — the wait is capped at a minute, which
/// this test does not sit through).
#[test]
fn extreme_judge_answers_and_settings_never_panic() {
    install_hook();
    let (findings, started) = on_worker_stack(|| {
        let started = Instant::now();
        let live = Live::new("judge");
        let scenario = numeric_scenario();
        let mut findings = Findings::default();
        let scores = [
            Value::Null,
            json!(0),
            json!(-0.0),
            json!(1),
            json!(-1),
            json!(0.5),
            json!(1e300),
            json!(-1e300),
            json!(5e-324),
            json!(f64::MAX),
            json!(u64::MAX),
            json!(i64::MIN),
            json!("0.5"),
            json!("NaN"),
            json!(megabyte_of_digits()),
        ];
        // Every score with every token count; every price with the most tokens.
        let answers = scores
            .iter()
            .flat_map(|score| U64S.map(|tokens| (score.clone(), tokens, 1.0)))
            .chain(F64S.map(|price| (json!(0.9), u64::MAX, price)));
        for (score, tokens, price) in answers {
            let what = format!(
                "judge answer score {} tokens {tokens} price {price}",
                clip(&score.to_string())
            );
            let said = findings.probe(&what, || {
                let judge = judge_of(score.clone(), tokens).price_per_million_tokens(price, price);
                let mut said = Vec::new();
                for t in [&live.documented, &live.extreme] {
                    said.extend(render(
                        &live.rt.block_on(
                            scenario
                                .evaluator()
                                .evaluate_judged(t.clone(), Some(&judge)),
                        ),
                    ));
                }
                said
            });
            for s in said.into_iter().flatten() {
                findings.panicked(s, &what);
            }
        }
        for retries in U32S {
            for backoff in durations() {
                for timeout in durations() {
                    let what =
                        format!("Judge retries {retries} backoff {backoff:?} timeout {timeout:?}");
                    let said = findings.probe(&what, || {
                        let judge = judge_of(json!(0.9), 1)
                            .retries(retries)
                            .backoff(backoff)
                            .timeout(timeout);
                        render(
                            &live.rt.block_on(
                                scenario
                                    .evaluator()
                                    .evaluate_judged(live.documented.clone(), Some(&judge)),
                            ),
                        )
                    });
                    for s in said.into_iter().flatten() {
                        findings.panicked(s, &what);
                    }
                }
            }
        }
        (findings, started)
    });
    assert_clean(&findings, "judge answers and settings", started);
}

fn clip(s: &str) -> String {
    if s.len() > 40 {
        format!("<{} characters>", s.len())
    } else {
        s.to_owned()
    }
}

/// The run's settings — `Suite::timeout`, `repeat`, `min_passes`, and `ScenarioRun`'s — and a
/// simulated user's turns, at their extremes, against an agent: a report with verdicts, never
/// a panic (`repeat(0)`, `min_passes(0)` and more passes than runs are error verdicts; a
/// timeout of zero fails the turn, one of `Duration::MAX` waits for the agent).
#[test]
fn extreme_run_settings_never_panic() {
    install_hook();
    let (findings, started) = on_worker_stack(|| {
        let started = Instant::now();
        let live = Live::new("run");
        let mut findings = Findings::default();
        let probe = |findings: &mut Findings, what: String, f: &dyn Fn() -> Option<String>| {
            if let Some(Some(s)) = findings.probe(&what, f) {
                findings.panicked(s, &what);
            }
        };
        for d in durations() {
            probe(&mut findings, format!("Suite::timeout({d:?})"), &|| {
                live.run(live.suite().timeout(d))
            });
            probe(
                &mut findings,
                format!("ScenarioRun::timeout({d:?})"),
                &|| {
                    live.rt.block_on(async {
                        let mut run = ScenarioRun::new(live.suite(), "timeout");
                        run.timeout(d);
                        run.user("hi").await;
                        run.expect(reply().contains("hi"));
                        render(&run.report().await)
                    })
                },
            );
        }
        let passes = [None, Some(0), Some(1), Some(3), Some(u32::MAX)];
        for times in [0, 1, 2, u32::MAX] {
            for min in passes {
                let what = format!("Suite::repeat({times}).min_passes({min:?})");
                probe(&mut findings, what, &|| {
                    live.rt.block_on(async {
                        let mut repeats = agent_test_runtime::Repeats::new();
                        // At most three runs: `repeat(u32::MAX)` waits for more.
                        for _ in 0..3 {
                            let mut suite = live.suite().repeat(times);
                            if let Some(m) = min {
                                suite = suite.min_passes(m);
                            }
                            let info = agent_test_runtime::ScenarioInfo::new("repeated")
                                .repeated(repeats.index());
                            let mut run = ScenarioRun::with_info(suite, info);
                            run.user("hi").await;
                            run.expect(reply().contains("hi"));
                            if let Some(report) = repeats.record(run).await {
                                // An impossible plan never passes.
                                let impossible =
                                    times == 0 || min == Some(0) || min.is_some_and(|m| m > times);
                                assert!(
                                    !(impossible && report.passed()),
                                    "an impossible plan passed: {}",
                                    report.headline()
                                );
                                return render(&report);
                            }
                        }
                        None
                    })
                });
                let what = format!("ScenarioRun::repeat({times}).min_passes({min:?})");
                probe(&mut findings, what, &|| {
                    live.rt.block_on(async {
                        let mut run = ScenarioRun::new(live.suite(), "repeated");
                        run.repeat(times);
                        if let Some(m) = min {
                            run.min_passes(m);
                        }
                        run.user("hi").await;
                        run.expect(reply().contains("hi"));
                        render(&run.report().await)
                    })
                });
            }
        }
        // A judge whose model says the objective is met: the run ends at the minimum.
        // (`usize::MAX..=usize::MAX` would talk that many turns.)
        let ranges = [
            0..=0,
            0..=1,
            1..=1,
            1..=usize::MAX,
            2..=usize::MAX,
            // Empty on purpose: an impossible constraint.
            std::ops::RangeInclusive::new(usize::MAX, 1),
            std::ops::RangeInclusive::new(usize::MAX, 0),
        ];
        for turns in ranges {
            let what = format!("simulated_user(..).turns({turns:?})");
            probe(&mut findings, what, &|| {
                live.rt.block_on(async {
                    let suite = live.suite().judge(judge_of(json!(0.9), 1));
                    let mut run = ScenarioRun::new(suite, "simulated");
                    run.simulate(simulated_user("say hi").turns(turns.clone()), |run| {
                        run.expect_turn(reply().contains("hi"));
                    })
                    .await;
                    render(&run.report().await)
                })
            });
        }
        (findings, started)
    });
    assert_clean(&findings, "run settings", started);
}

/// Serves `router` on a free port of 127.0.0.1 (on the runtime `rt`).
fn serve(rt: &tokio::runtime::Runtime, router: axum::Router) -> std::net::SocketAddr {
    rt.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            let _ = axum::serve(listener, router).await;
        });
        addr
    })
}

/// The agents' settings at their extremes — `HttpAgent` `timeout`, `max_body_bytes`,
/// `trace_wait`; `ChatAgent` `max_steps`, `temperature`, `timeout`; `McpServer` `timeout`,
/// `max_message_bytes`, `shutdown_grace`; `request::get(..).timeout` — against local servers:
/// a reply or an agent error, never a panic.
#[test]
fn extreme_agent_settings_never_panic() {
    use agent_test_runtime::agent::{ChatAgent, HttpAgent, McpAgent, McpServer};
    use axum::routing::{get, post};
    install_hook();
    let (findings, started) = on_worker_stack(|| {
        let started = Instant::now();
        let live = Live::new("agents");
        let router = axum::Router::new()
            .route("/agent", post(|| async { axum::Json(json!({"reply": "hi"})) }))
            .route("/v1/chat/completions", post(|| async {
                axum::Json(json!({"choices": [{"message": {"role": "assistant", "content": "hi"}}],
                    "usage": {"prompt_tokens": u64::MAX, "completion_tokens": u64::MAX}}))
            }))
            .route("/loop/v1/chat/completions", post(|| async {
                // Always another tool call: the agent stops at `max_steps` (or its turn's
                // timeout), its usage summed over the steps.
                axum::Json(json!({"choices": [{"message": {"role": "assistant", "content": null,
                    "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}]}}],
                    "usage": {"prompt_tokens": u64::MAX, "completion_tokens": u64::MAX, "total_tokens": u64::MAX}}))
            }))
            .route("/status", get(|| async { axum::Json(json!({"ok": 1e300})) }));
        let addr = serve(&live.rt, router);
        let receiver = agent_test_runtime::trace::OtlpReceiver::start().unwrap();
        let mut findings = Findings::default();
        let probe = |findings: &mut Findings, what: String, f: &dyn Fn() -> Option<String>| {
            if let Some(Some(s)) = findings.probe(&what, f) {
                findings.panicked(s, &what);
            }
        };
        let http = || HttpAgent::post(format!("http://{addr}/agent")).reply_at("reply");
        // A turn's own limit, so that a wait without end (`trace_wait(Duration::MAX)` for
        // spans that never come) ends.
        let bounded = Duration::from_millis(300);
        for d in durations() {
            probe(&mut findings, format!("HttpAgent::timeout({d:?})"), &|| {
                live.run(live.suite().agent(http().timeout(d)).timeout(bounded))
            });
            probe(
                &mut findings,
                format!("HttpAgent::trace_wait({d:?})"),
                &|| {
                    let agent = http().traces_from(&receiver).trace_wait(d);
                    live.run(live.suite().agent(agent).timeout(bounded))
                },
            );
            probe(&mut findings, format!("ChatAgent::timeout({d:?})"), &|| {
                let agent = ChatAgent::new("m")
                    .base_url(format!("http://{addr}/v1"))
                    .api_key("k")
                    .timeout(d);
                live.run(live.suite().agent(agent).timeout(bounded))
            });
            probe(
                &mut findings,
                format!("request::get(..).timeout({d:?})"),
                &|| {
                    let url = format!("http://{addr}/status");
                    let sent = live
                        .rt
                        .block_on(agent_test_runtime::request::get(url).timeout(d).send());
                    sent.err()
                        .map(|e| e.to_string())
                        .filter(|e| e.contains("panicked"))
                },
            );
            for grace in [Duration::ZERO, Duration::MAX] {
                let what = format!("McpServer::timeout({d:?}).shutdown_grace({grace:?})");
                probe(&mut findings, what, &|| {
                    // A server that never answers and exits after a second.
                    let server = McpServer::stdio("sleep")
                        .arg("1")
                        .timeout(d.min(bounded))
                        .shutdown_grace(grace);
                    let suite = live.suite().agent(McpAgent::new(server)).timeout(bounded);
                    live.run_mcp(suite)
                });
            }
            probe(
                &mut findings,
                format!("McpServer::http(..).timeout({d:?})"),
                &|| {
                    let server = McpServer::http(format!("http://{addr}/mcp")).timeout(d);
                    live.run_mcp(live.suite().agent(McpAgent::new(server)).timeout(bounded))
                },
            );
        }
        for n in USIZES {
            probe(
                &mut findings,
                format!("HttpAgent::max_body_bytes({n})"),
                &|| live.run(live.suite().agent(http().max_body_bytes(n))),
            );
            probe(&mut findings, format!("ChatAgent::max_steps({n})"), &|| {
                let agent = ChatAgent::new("m")
                    .base_url(format!("http://{addr}/loop/v1"))
                    .mock("lookup", json!({"found": 1e300}))
                    .api_key("k")
                    .max_steps(n);
                live.run(live.suite().agent(agent).timeout(bounded))
            });
        }
        for t in F64S {
            probe(
                &mut findings,
                format!("ChatAgent::temperature({t})"),
                &|| {
                    let agent = ChatAgent::new("m")
                        .base_url(format!("http://{addr}/v1"))
                        .api_key("k")
                        .temperature(Some(t));
                    live.run(live.suite().agent(agent).timeout(bounded))
                },
            );
        }
        for n in U64S {
            probe(
                &mut findings,
                format!("McpServer::max_message_bytes({n})"),
                &|| {
                    // A server that sends one message of 80 bytes, then exits.
                    let server = McpServer::stdio("printf")
                    .arg("%s\\n")
                    .arg(r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info"}}"#)
                    .max_message_bytes(n);
                    live.run_mcp(live.suite().agent(McpAgent::new(server)).timeout(bounded))
                },
            );
        }
        (findings, started)
    });
    assert_clean(&findings, "agent settings", started);
}

/// Time at its extremes: a fixed clock at the ends of the calendar, in far time zones; date
/// matchers with a tolerance of `u32::MAX` minutes and offsets of `i64::MIN` days; recordings
/// whose `user_time` is at the ends of the calendar — dates are numbers too. A verdict, never
/// a panic.
#[test]
fn extreme_dates_never_panic() {
    install_hook();
    let (findings, started) = on_worker_stack(|| {
        let started = Instant::now();
        let live = Live::new("dates");
        let mut findings = Findings::default();
        let instants = [
            "9999-12-31T23:59:59.999999999Z",
            "-009999-01-01T00:00:00Z",
            "0000-01-01T00:00:00Z",
            "1970-01-01T00:00:00Z",
            "2026-11-23T09:30:00+23:59",
        ];
        let zones = [
            "UTC",
            "Pacific/Kiritimati",
            "Etc/GMT+12",
            "America/St_Johns",
        ];
        let dates: Vec<agent_test_runtime::check::Expectation> = [
            "TODAY()",
            "NOW()",
            "DATE_ADD(TODAY(), 9223372036854775807, 'day')",
            "DATE_SUB(TODAY(), -9223372036854775808, 'day')",
            "DATE_ADD(NOW(), 18446744073709551616, 'minute')",
            "DATE_SUB(TODAY(), 1e300, 'year')",
            "DATE_ADD(TODAY(), 2147483647, 'month')",
            "'9999-12-31'",
            "'-009999-01-01'",
        ]
        .iter()
        .flat_map(|e| {
            U32S.map(|m| {
                tool("search")
                    .arg("date", date(*e).tolerance_minutes(m))
                    .into_expectation()
            })
        })
        .collect();
        for at in instants {
            for tz in zones {
                let what = format!("Suite::clock({at}).timezone({tz})");
                let said = findings.probe(&what, || {
                    let agent = agent_fn(|_r| async {
                        Reply::text("booked").call(Call::tool(
                            "search",
                            json!({"date": "9999-12-31T23:59:59Z"}),
                        ))
                    });
                    let mut scenario = Scenario::new("dates").user("book");
                    for e in &dates {
                        scenario = scenario.expect(e.clone());
                    }
                    let suite = live
                        .suite()
                        .agent(agent)
                        .clock(agent_test_runtime::Clock::fixed(at))
                        .timezone(tz);
                    render(&live.rt.block_on(scenario.run(suite)))
                });
                if let Some(Some(s)) = said {
                    findings.panicked(s, &what);
                }
            }
            // A recording of that time, re-evaluated.
            let what = format!("recording user_time {at}");
            let said = findings.probe(&what, || {
                let mut doc: Value =
                    serde_json::from_str(&doc_file("recorded-run.json").text).unwrap();
                doc["transcript"]["user_time"] = json!(format!("{at}[UTC]"));
                match agent_test_runtime::load::run_from_text(&doc.to_string(), "run.json", None) {
                    Ok(run) => {
                        let mut scenario = Scenario::new("dates");
                        for e in &dates {
                            scenario = scenario.expect(e.clone());
                        }
                        render(&scenario.evaluate(&run.transcript))
                    }
                    Err(e) => {
                        assert!(e.to_string().contains("user_time"), "{e}");
                        None
                    }
                }
            });
            if let Some(Some(s)) = said {
                findings.panicked(s, &what);
            }
        }
        (findings, started)
    });
    assert_clean(&findings, "dates", started);
}

/// The probes see panics: one thrown in the probe, and one an agent throws, which the run
/// turns into an error verdict ("the agent panicked").
#[test]
fn the_probes_see_panics() {
    install_hook();
    let findings = on_worker_stack(|| {
        let live = Live::new("probes");
        let mut findings = Findings::default();
        findings.probe("thrown", || panic!("thrown on purpose"));
        let said = findings.probe("agent", || {
            live.run(
                Suite::new()
                    .agent(agent_fn(|_r| async {
                        if true {
                            panic!("the agent's own");
                        }
                        "hi"
                    }))
                    .report_dir(&live.dir),
            )
        });
        if let Some(Some(s)) = said {
            findings.panicked(s, "agent");
        }
        findings
    });
    let report = findings.panic_report();
    assert!(report.contains("thrown on purpose"), "{report}");
    assert!(report.contains("the agent's own"), "{report}");
    assert!(report.contains("extremes.rs"), "{report}");
}

/// A sample of the refusals, in full: each names the file, the field's place and what was
/// expected.
#[test]
fn refusals_name_the_field() {
    let promptkit = |assertion: &str| {
        format!(
            "kind: Scenario\nmetadata: {{name: x}}\nspec:\n  turns:\n    - role: user\n      content: hi\n      assertions:\n        - {assertion}\n"
        )
    };
    let mibo = |procedural: &str| {
        format!(r#"{{"input_utterance": "hi", "assertions": {{"procedural": [{procedural}]}}}}"#)
    };
    let lamdis = |step: &str| {
        format!(
            r#"{{"id": "t", "steps": [{{"type": "message", "role": "user", "content": "hi"}}, {step}]}}"#
        )
    };
    let native = |check: &str| format!(r#"{{"name": "x", "expect": [{{"check": {check}}}]}}"#);
    let scenarios: Vec<(String, &str, &str)> = vec![
        (
            promptkit("{type: latency_budget, params: {max_ms: 1e300}}"),
            "case.yaml",
            "case.yaml: at spec.turns[0].assertions[0].params.max_ms: 1e+300 milliseconds is longer than any run can take",
        ),
        (
            promptkit("{type: latency_budget, params: {max_ms: -1}}"),
            "case.yaml",
            "case.yaml: at spec.turns[0].assertions[0].params.max_ms: expected a non-negative number of milliseconds, got -1",
        ),
        (
            promptkit("{type: latency_budget, params: {max_ms: .nan}}"),
            "case.yaml",
            "case.yaml: at line 8, column 51: not valid YAML: non-finite float `.nan` rejected by the configured policy",
        ),
        (
            promptkit("{type: tools_called, params: {tools: [t], min_calls: 5, max_calls: 1}}"),
            "case.yaml",
            "case.yaml: at spec.turns[0].assertions[0]: impossible constraint: between(5, 1) can never pass: the minimum is greater than the maximum",
        ),
        (
            promptkit("{type: max_length, params: {max: -1}}"),
            "case.yaml",
            "case.yaml: at spec.turns[0].assertions[0].params.max: expected a non-negative integer, got a number (-1)",
        ),
        (
            mibo(r#"{"target": "http_status", "expected_status": 65536}"#),
            "case.json",
            "case.json: at assertions.procedural[0].expected_status: expected an HTTP status from 100 to 599, got 65536",
        ),
        (
            mibo(r#"{"target": "response_time", "max_ms": 1e300}"#),
            "case.json",
            "case.json: at assertions.procedural[0].max_ms: expected a non-negative integer, got a number (1e+300)",
        ),
        (
            mibo(r#"{"target": "token_limit", "max_total_tokens": 18446744073709551616}"#),
            "case.json",
            "case.json: at assertions.procedural[0].max_total_tokens: expected a non-negative integer, got a number (1.8446744073709552e+19)",
        ),
        (
            lamdis(
                r#"{"type": "user_objective", "description": "d", "maxTurns": 18446744073709551615}"#,
            ),
            "case.json",
            "case.json: at steps[1].maxTurns: at most 50 turns (each is a model call), got 18446744073709551615",
        ),
        (
            lamdis(
                r#"{"type": "assistant_check", "mode": "judge", "rubric": "r", "threshold": 1e300}"#,
            ),
            "case.json",
            "case.json: at steps[1].threshold: expected a number from 0 to 1, got 1e+300",
        ),
        (
            native(r#"{"type": "latency", "max_ms": -1}"#),
            "case.json",
            "case.json: at expect[0].check.max_ms: invalid value: integer `-1`, expected u64",
        ),
        (
            native(r#"{"type": "tool", "name": "t", "count": {"exactly": 18446744073709551616}}"#),
            "case.json",
            "case.json: at expect[0].check.count.exactly: invalid type: floating point `1.8446744073709552e+19`, expected usize",
        ),
        (
            native(r#"{"type": "http_status", "min": 200, "max": 65536}"#),
            "case.json",
            "case.json: at expect[0].check.max: invalid value: integer `65536`, expected u16",
        ),
        (
            native(r#"{"type": "latency", "max_ms": "NaN"}"#),
            "case.json",
            "case.json: at expect[0].check.max_ms: invalid type: string \"NaN\", expected u64",
        ),
        (
            native(r#"{"type": "judge", "criteria": "c", "threshold": 1e300}"#),
            "case.json",
            "case.json: at expect[0].check: impossible constraint: threshold 1e+300 is outside 0..=1: a judge score goes from 0 (not at all) to 1 (fully)",
        ),
        (
            native(
                r#"{"type": "field", "path": "n", "matcher": {"matcher": "schema", "schema": {"minimum": "NaN"}}}"#,
            ),
            "case.json",
            "case.json: at scenario `x`, expect[0]: invalid JSON Schema at /minimum: \"NaN\" is not of type \"number\" (in `n of the response is valid against {\"minimum\":\"NaN\"}`)",
        ),
        (
            native(r#"{"type": "latency", "max_ms": 1e400}"#),
            "case.json",
            "case.json: at line 1, column 70: not valid JSON: number out of range",
        ),
    ];
    for (text, file, expected) in &scenarios {
        let err = load::cases_from_text(text, Path::new(file), None)
            .map(|_| ())
            .unwrap_err();
        assert_eq!(err.to_string(), *expected, "{text}");
    }
    let runs = [
        (
            r#"{"scenario": {"name": "x"}, "transcript": {"turns": [{"index": 0, "input": "hi", "latency_ms": -1, "reply": {"text": "ok"}}]}}"#,
            "run.json: at transcript.turns[0].latency_ms: invalid value: integer `-1`, expected u64",
        ),
        (
            r#"{"scenario": {"name": "x"}, "transcript": {"turns": [{"index": 0, "input": "hi", "reply": {"text": "ok", "http_status": 65536}}]}}"#,
            "run.json: at transcript.turns[0].reply.http_status: invalid value: integer `65536`, expected u16",
        ),
        (
            r#"{"data": {"output": "ok"}, "metadata": {"http_status": 65536, "duration_ms": 1}}"#,
            "run.json: at metadata.http_status: mibo trace: expected an HTTP status code",
        ),
        (
            r#"{"data": {"output": "ok"}, "metadata": {"http_status": 200, "duration_ms": -1}}"#,
            "run.json: at metadata.duration_ms: mibo trace: expected a duration in milliseconds",
        ),
        (
            r#"{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "01", "spanId": "01", "name": "invoke_agent a", "startTimeUnixNano": "1e300", "endTimeUnixNano": "1"}]}]}]}"#,
            "run.json: at resourceSpans[0].scopeSpans[0].spans[0].startTimeUnixNano: otel trace: expected nanoseconds since the epoch (a number, or a string of one)",
        ),
    ];
    for (text, expected) in runs {
        let err = load::run_from_text(text, Path::new("run.json"), None)
            .map(|_| ())
            .unwrap_err();
        assert_eq!(err.to_string(), expected, "{text}");
    }
}

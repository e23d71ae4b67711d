//! Property tests: no input makes a parser, a loader or the evaluator panic, and what is
//! saved reloads equal.
//!
//! Every parser and loader of the runtime — expressions, traces (every [`TraceFormat`]), recorded
//! runs, the five seed formats, native scenario JSON — is fed random text, random JSON, and
//! *structure-aware mutations* of valid documents (the examples of `docs/format`, the trace
//! fixtures, the seed examples in `seeds/`): nodes deleted, duplicated, given another type,
//! nested deeper, strings with odd Unicode, numbers at the edges of every integer type. The
//! property is the same everywhere: `Ok`, or an error with a message — never a panic, never a
//! stack overflow. Loaded (or mutated) scenarios are also evaluated on loaded (or mutated)
//! recordings and their reports rendered.
//!
//! Case counts are bounded so the suite stays fast in a debug build; search longer with
//! `PROPTEST_CASES=5000 cargo test -p agent-test-runtime --test properties`. A failure prints
//! the shrunk input: turn it into a named regression test next to the fix.
//!
//! [`TraceFormat`]: agent_test_runtime::trace::TraceFormat

mod deep;
mod evaluation;
mod expressions;
mod extremes;
mod formats;
mod mutate;
mod recordings;
mod scenarios;
mod traces;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use proptest::prelude::*;
use proptest::test_runner::Config;
use serde_json::{Map, Number, Value};

/// The configuration of every property: `cases` cases unless `PROPTEST_CASES` says otherwise,
/// and no failure files (a failure becomes a named regression test instead).
pub fn config(cases: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(cases);
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

/// A document the properties start from: its file name (the extension tells the loaders
/// YAML from JSON) and its text.
#[derive(Clone, Debug)]
pub struct Seed {
    /// The file name.
    pub name: String,
    /// Its text.
    pub text: String,
}

impl Seed {
    /// The document as JSON (YAML seeds through the YAML reader), when it parses.
    pub fn value(&self) -> Option<Value> {
        if self.is_yaml() {
            serde_saphyr::from_str(&self.text).ok()
        } else if self.name.ends_with(".jsonl") {
            None
        } else {
            serde_json::from_str(&self.text).ok()
        }
    }

    /// Whether it is YAML (by its extension).
    pub fn is_yaml(&self) -> bool {
        self.name.ends_with(".yaml")
    }
}

fn read_dir(dir: &Path) -> Vec<Seed> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| Seed {
            name: p.file_name().unwrap().to_string_lossy().into_owned(),
            text: std::fs::read_to_string(&p).unwrap(),
        })
        .collect()
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Valid seed-format documents (the seed examples of the conformance tests).
pub fn seed_files() -> &'static [Seed] {
    static SEEDS: OnceLock<Vec<Seed>> = OnceLock::new();
    SEEDS.get_or_init(|| read_dir(&root().join("tests/properties/seeds")))
}

/// The trace fixtures, one or more per format.
pub fn trace_files() -> &'static [Seed] {
    static SEEDS: OnceLock<Vec<Seed>> = OnceLock::new();
    SEEDS.get_or_init(|| read_dir(&root().join("tests/fixtures/traces")))
}

/// `docs/format/<name>`: the documented example of the native scenario or recorded run.
pub fn doc_file(name: &str) -> Seed {
    let path = root().join("../docs/format").join(name);
    Seed {
        name: name.to_owned(),
        text: std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
    }
}

/// Keys whose string values name a kind: an assertion or check type, a Lamdis mode or
/// operator, a matcher. Their values join the vocabulary, so that a mutation can turn one
/// assertion type, operator or matcher into another.
pub const KIND_KEYS: &[&str] = &[
    "type",
    "mode",
    "operator",
    "match_as",
    "assert_that",
    "target",
    "condition",
    "event",
    "scope",
    "op",
    "matcher",
    "step",
];

/// Every object key of the seeds, the fixtures and the documented examples, and the kinds named
/// under [`KIND_KEYS`]: random objects built from them reach real code paths instead of failing
/// at the first unknown field or type.
pub fn vocabulary() -> &'static [String] {
    static WORDS: OnceLock<Vec<String>> = OnceLock::new();
    WORDS.get_or_init(|| {
        fn keys(v: &Value, out: &mut std::collections::BTreeSet<String>) {
            match v {
                Value::Object(o) => {
                    for (k, v) in o {
                        out.insert(k.clone());
                        if let Value::String(kind) = v
                            && KIND_KEYS.contains(&k.as_str())
                        {
                            out.insert(kind.clone());
                        }
                        keys(v, out);
                    }
                }
                Value::Array(items) => items.iter().for_each(|v| keys(v, out)),
                _ => {}
            }
        }
        let mut out = std::collections::BTreeSet::new();
        let docs = [doc_file("scenario.json"), doc_file("recorded-run.json")];
        for seed in seed_files().iter().chain(trace_files()).chain(&docs) {
            if let Some(v) = seed.value() {
                keys(&v, &mut out);
            }
        }
        out.into_iter().collect()
    })
}

/// Text that breaks assumptions: control characters, a BOM, right-to-left overrides,
/// combining marks, characters outside the BMP, placeholders and expressions, numbers at the
/// edges.
pub const ODD_TEXT: &[&str] = &[
    "",
    " ",
    "\u{0}",
    "\u{FEFF}",
    "\u{202E}gnp.exe",
    "e\u{301}\u{301}\u{301}",
    "𝕏𝕐ℤ",
    "\u{10FFFF}",
    "İı",
    "ß",
    "\r\n",
    "\\",
    "\"",
    "'",
    "{input}",
    "${bag.var.x}",
    "${",
    "{{",
    "TODAY()",
    "DATE_SUB(TODAY(), -9223372036854775808, 'day')",
    "%Y-%m-%d %Q %",
    "(?i)(a+)+$",
    "[",
    "$..*",
    "$[?@.a == 1]",
    "-9223372036854775808",
    "18446744073709551616",
    "1e999",
    "NaN",
    "2026-11-23T09:30:00Z",
    "9999-12-31",
    "-009999-01-01",
    "25:61",
    "a2a__agent__tool",
    "ORD-9921",
];

/// A string: arbitrary Unicode, or one of [`ODD_TEXT`], or a word of the vocabulary.
pub fn odd_string() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => any::<String>(),
        2 => proptest::sample::select(ODD_TEXT).prop_map(str::to_owned),
        2 => proptest::sample::select(vocabulary()),
        1 => "[a-z_]{1,12}",
    ]
}

/// A tool, node or agent name: mostly one of a few, so that generated checks and generated
/// transcripts meet; sometimes anything.
pub fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => proptest::sample::select(vec!["search", "book", "a2a__visa_agent__book", "visa_agent", "AI Agent", ""])
            .prop_map(str::to_owned),
        1 => odd_string(),
    ]
}

/// JSONPath-like text: the query language's tokens in any order and nesting, so that the
/// parser's deep and backtracking paths are reached.
pub fn json_path_soup() -> impl Strategy<Value = String> {
    let token = proptest::sample::select(vec![
        "$",
        "[",
        "]",
        "[?",
        "@",
        ".",
        "*",
        "..",
        "(",
        ")",
        " == ",
        " < ",
        " && ",
        " || ",
        "!",
        "'a'",
        "\"b\"",
        "a",
        "0",
        "-1",
        ":",
        ",",
        "length(",
        "match(@.a, '[a-z]+')",
        "count(",
        "value(",
        "[?@",
        "[?(@",
        "[*]",
        "['a']",
    ]);
    proptest::collection::vec(token, 0..40).prop_map(|t| t.concat())
}

/// Numbers at the edges of every integer type and of floats.
pub fn odd_number() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| Number::from_f64(f).map_or(Value::Null, Value::Number)),
        proptest::sample::select(vec![
            Value::from(i64::MIN),
            Value::from(i64::MAX),
            Value::from(u64::MAX),
            Value::from(u32::MAX),
            Value::from(u32::MAX as u64 + 1),
            Value::from(usize::MAX),
            Value::from(-1),
            Value::from(0),
            Value::from(1),
            Value::from(1e308),
            Value::from(-1e308),
            Value::from(5e-324),
            Value::from(-0.0),
            Value::from(0.5),
            Value::from(18446744073709551616.0),
        ]),
    ]
}

/// A `usize` that is often small, often at the top of the range, sometimes anything.
pub fn edgy_usize() -> impl Strategy<Value = usize> {
    prop_oneof![
        3 => 0usize..8,
        1 => proptest::sample::select(vec![usize::MAX, usize::MAX - 1, u32::MAX as usize, i64::MAX as usize]),
        1 => any::<usize>(),
    ]
}

/// A `u64` that is often small, often at the top of the range, sometimes anything.
pub fn edgy_u64() -> impl Strategy<Value = u64> {
    prop_oneof![
        3 => 0u64..10_000,
        1 => proptest::sample::select(vec![u64::MAX, u64::MAX - 1, u64::MAX / 2 + 1, u32::MAX as u64]),
        1 => any::<u64>(),
    ]
}

/// Any JSON value, a few levels deep, with keys mostly from the vocabulary.
pub fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        odd_number(),
        odd_string().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        let key = prop_oneof![
            4 => proptest::sample::select(vocabulary()),
            1 => odd_string(),
        ];
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::vec((key, inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// An error message must say something.
#[track_caller]
pub fn assert_message(message: &str, what: &dyn std::fmt::Display) {
    assert!(
        !message.trim().is_empty(),
        "an empty error message for {what}"
    );
}

//! The macro's vocabulary against the runtime it names: every function or method the macro
//! reads by name is a public function of the runtime, every setting a method of `Suite`, and
//! every matcher of the prelude a matcher word (so that a `json!` literal made of it is caught).
//! A check renamed or added in the runtime fails here, not silently in users' builds.

use std::collections::BTreeSet;
use std::path::Path;

use agent_test_expr::matcher_words::MATCHER_NAMES;

use crate::keywords::{SCENARIO_SETTINGS, SETTINGS};
use crate::vocabulary::*;

fn runtime_src() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../runtime/src")
}

fn read_tree(dir: &Path, out: &mut Vec<(String, String)>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            read_tree(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            out.push((path.display().to_string(), text));
        }
    }
}

/// The names of `pub fn`s in `text`.
fn pub_fns(text: &str) -> BTreeSet<String> {
    text.split("pub fn ")
        .skip(1)
        .filter_map(|rest| {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            (!name.is_empty()).then_some(name)
        })
        .collect()
}

/// The names of the methods of `pub trait`s in `text` (public without `pub`).
fn trait_fns(text: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for (start, _) in text.match_indices("pub trait ") {
        let Some(body) = text
            .get(start..)
            .and_then(|t| t.split_once('{'))
            .map(|(_, b)| b)
        else {
            continue;
        };
        let mut depth = 1usize;
        let end = body
            .char_indices()
            .find(|(_, c)| {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
                depth == 0
            })
            .map_or(body.len(), |(i, _)| i);
        names.extend(
            body.get(..end)
                .unwrap_or_default()
                .split("fn ")
                .skip(1)
                .filter_map(|rest| {
                    let name: String = rest
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    (!name.is_empty()).then_some(name)
                }),
        );
    }
    names
}

fn runtime_pub_fns() -> BTreeSet<String> {
    let mut files = Vec::new();
    read_tree(&runtime_src(), &mut files);
    files
        .iter()
        .flat_map(|(_, text)| pub_fns(text).into_iter().chain(trait_fns(text)))
        .collect()
}

#[test]
fn every_name_the_macro_reads_is_a_runtime_function() {
    let known = runtime_pub_fns();
    let lists: &[(&str, &[&str])] = &[
        ("TEXT_TAKERS", TEXT_TAKERS),
        ("CHECK_OPTIONS", CHECK_OPTIONS),
        ("REGEX_TAKERS", REGEX_TAKERS),
        ("EXPR_TAKERS", EXPR_TAKERS),
        ("JSONPATH_TAKERS", JSONPATH_TAKERS),
        ("JMESPATH_TAKERS", JMESPATH_TAKERS),
        ("SCHEMA_TAKERS", SCHEMA_TAKERS),
        ("CLOSURE_TAKERS", CLOSURE_TAKERS),
        ("VALUE_TAKERS", VALUE_TAKERS),
        ("TOOL_TAKERS", TOOL_TAKERS),
        ("TOOL_LIST_TAKERS", TOOL_LIST_TAKERS),
        ("TOOL_OPTION_TAKERS", TOOL_OPTION_TAKERS),
    ];
    let missing: Vec<String> = lists
        .iter()
        .flat_map(|(list, names)| {
            names
                .iter()
                .filter(|n| !known.contains(**n))
                .map(move |n| format!("{list}: `{n}`"))
        })
        .collect();
    assert!(missing.is_empty(), "not a runtime function: {missing:?}");
}

#[test]
fn every_setting_is_a_method_of_the_suite() {
    let suite = std::fs::read_to_string(runtime_src().join("run/suite.rs")).expect("suite.rs");
    let methods = pub_fns(&suite);
    // `runtime` is read by the test before any suite exists (see expand.rs `RUNTIME`).
    for s in SETTINGS
        .iter()
        .chain(SCENARIO_SETTINGS)
        .filter(|s| **s != crate::expand::RUNTIME)
    {
        assert!(methods.contains(*s), "`{s}` is no method of Suite");
    }
}

/// The matchers the prelude exports, from `pub use crate::matcher::{..}` in the runtime's lib.rs.
fn prelude_matchers() -> Vec<String> {
    let lib = std::fs::read_to_string(runtime_src().join("lib.rs")).expect("lib.rs");
    let start = lib
        .find("pub use crate::matcher::{")
        .expect("the prelude exports matchers");
    let list = lib
        .get(start..)
        .and_then(|rest| rest.split_once('{'))
        .and_then(|(_, rest)| rest.split_once('}'))
        .map(|(inside, _)| inside)
        .expect("a brace list");
    list.split(',')
        .map(|s| s.trim().to_owned())
        .filter(|s| s.chars().next().is_some_and(|c| c.is_ascii_lowercase()))
        .collect()
}

#[test]
fn every_prelude_matcher_is_a_matcher_word() {
    // Not words of any data syntax: a closure, a schema (a SCHEMA_TAKER), and `email`, which
    // data writes as MorganaBench's `{"match_as": "email"}`.
    let not_words = ["predicate", "matches_schema", "email"];
    let matchers = prelude_matchers();
    assert!(matchers.len() > 10, "{matchers:?}");
    for m in &matchers {
        assert!(
            MATCHER_NAMES.contains(&m.as_str()) || not_words.contains(&m.as_str()),
            "the prelude's matcher `{m}` is not in agent_test_expr::matcher_words::MATCHER_NAMES"
        );
    }
    // And every word names a prelude matcher, or is a data syntax's own.
    let data_only = ["equality", "match_as"];
    for w in MATCHER_NAMES {
        assert!(
            matchers.iter().any(|m| m == w) || data_only.contains(w),
            "`{w}` names no prelude matcher"
        );
    }
}

/// The runtime's public functions and methods whose first argument (after `self`) has one of
/// `params` as its name, with the file they are in.
fn takers_of(params: &[&str]) -> BTreeSet<(String, String)> {
    let mut files = Vec::new();
    read_tree(&runtime_src(), &mut files);
    let mut out = BTreeSet::new();
    for (file, text) in &files {
        for rest in text.split("pub fn ").skip(1) {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let Some(args) = rest.split_once('(').map(|(_, a)| a) else {
                continue;
            };
            let args = args
                .trim_start()
                .strip_prefix("mut self,")
                .or_else(|| args.trim_start().strip_prefix("self,"))
                .or_else(|| args.trim_start().strip_prefix("&self,"))
                .unwrap_or(args);
            let param: String = args
                .trim_start()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            // A string parameter only (`impl Into<String>`, `&str`): a `pattern: Regex` is
            // compiled already.
            let typed = args.trim_start().get(param.len()..).unwrap_or_default();
            let text_typed =
                typed.starts_with(": impl Into<String>") || typed.starts_with(": &str");
            if params.contains(&param.as_str()) && text_typed {
                out.insert((name, file.clone()));
            }
        }
    }
    out
}

/// The other direction: a function of the runtime taking a regex, an expression or a query as
/// text is read by the macro, which checks its literal at compile time.
#[test]
fn every_runtime_function_taking_a_regex_an_expression_or_a_query_is_checked() {
    let lists: [(&[&str], Vec<&str>, &str); 3] = [
        (&["regex", "pattern"], REGEX_TAKERS.to_vec(), "REGEX_TAKERS"),
        (
            &["expression"],
            EXPR_TAKERS.iter().chain(JMESPATH_TAKERS).copied().collect(),
            "EXPR_TAKERS or JMESPATH_TAKERS",
        ),
        (&["query"], JSONPATH_TAKERS.to_vec(), "JSONPATH_TAKERS"),
    ];
    let mut unchecked = Vec::new();
    for (params, list, name) in lists {
        let found = takers_of(params);
        assert!(
            !found.is_empty(),
            "no runtime function takes {params:?}: the scan is broken"
        );
        for (f, file) in found {
            if !list.contains(&f.as_str()) {
                unchecked.push(format!("`{f}` ({file}) is in no list: add it to {name}"));
            }
        }
    }
    assert!(unchecked.is_empty(), "{unchecked:#?}");
}

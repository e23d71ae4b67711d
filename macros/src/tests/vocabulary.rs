//! The macro's words against the runtime it names: every setting a method of `Suite`, every
//! matcher of the prelude a matcher word (so that a `json!` literal made of it is caught), and a
//! check kind added to the vocabulary validated at compile time. The check words themselves are
//! derived from the runtime's declarations and held against its code by the runtime's
//! `check::vocabulary` tests.

use std::collections::BTreeSet;
use std::path::Path;

use agent_test_expr::matcher_words::MATCHER_NAMES;

use crate::keywords::{SCENARIO_SETTINGS, SETTINGS};

fn runtime_src() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../runtime/src")
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

/// A check kind added with a regex argument is checked at compile time as soon as its word is
/// in the vocabulary (which the runtime derives from the kind's declaration, see the runtime's
/// `check::vocabulary` tests): here a fixture vocabulary with the new word.
#[test]
fn a_kind_added_with_a_regex_word_is_validated_at_compile_time() {
    use agent_test_vocabulary::{Arg, Vocabulary, WORDS, Word};
    let src = r#"agent = my_agent(); scenario s { user "hi"; expect reply().mentions_pattern("(unclosed"); }"#;
    let errors = |words: &Vocabulary<'_>| {
        let mut diag = crate::diag::Diagnostics::new();
        let suite = crate::syntax::parse_suite(super::ts(src), &mut diag);
        crate::validate::validate_with(&suite, words, &mut diag);
        diag.into_messages()
    };
    // Today no such word: nothing to check (rustc will say the method does not exist).
    assert_eq!(errors(&Vocabulary::STANDARD), Vec::<String>::new());
    let added: Vec<Word> = WORDS
        .iter()
        .copied()
        .chain([Word::new("mentions_pattern", Arg::Regex)])
        .collect();
    let with_kind = Vocabulary {
        words: &added,
        options: Vocabulary::STANDARD.options,
    };
    let found = errors(&with_kind);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("invalid regex:"), "{found:?}");
}

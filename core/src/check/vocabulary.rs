//! What is derived from each check kind's declaration ([`CheckRules`](super::CheckRules)),
//! held against it: the macro's vocabulary (`agent_test_vocabulary::WORDS`, generated), the
//! reference's table of kinds (generated into reference.md), and the declarations against the
//! code in both directions — every declared word is a public
//! function of the runtime, and every public function taking a regex, an expression or a query
//! as text is declared so (the macro checks its literal at compile time).
//!
//! `AGENT_TEST_UPDATE_VOCABULARY=1 cargo test -p agent-test-core --lib vocabulary` rewrites
//! the two generated texts after a declaration changed.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use agent_test_vocabulary::{Arg, Kind, Word};

use super::{Check, OPTION_WORDS, OPTIONS};

const UPDATE: &str = "AGENT_TEST_UPDATE_VOCABULARY";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// Every word the runtime declares: the kinds', the matchers', the options'; sorted, once each.
fn declared_words(kinds: &[Kind]) -> BTreeSet<Word> {
    kinds
        .iter()
        .flat_map(|k| k.words.iter())
        .chain(crate::matcher::WORDS)
        .chain(OPTION_WORDS)
        .copied()
        .collect()
}

/// The text of `vocabulary/src/words.rs` the declarations make.
fn render_words(kinds: &[Kind]) -> String {
    let mut out = String::from(
        "//! Generated from the runtime's declarations (each check kind's `CheckRules::KIND`, the\n\
         //! matchers' and the options' words) by `AGENT_TEST_UPDATE_VOCABULARY=1 cargo test -p\n\
         //! agent-test-core --lib vocabulary`: do not edit. The runtime's test fails when this\n\
         //! differs from the declarations.\n\n\
         use crate::{Arg, Word};\n\n\
         /// Every function and method whose first argument the macro checks, by name.\n\
         pub const WORDS: &[Word] = &[\n",
    );
    for w in declared_words(kinds) {
        out.push_str(&format!("    Word::new({:?}, Arg::{:?}),\n", w.name, w.arg));
    }
    // As rustfmt writes it: on one line (the list is short).
    let options: Vec<String> = OPTIONS.iter().map(|o| format!("{o:?}")).collect();
    out.push_str(&format!(
        "];\n\n/// The options every check takes (`CheckExt`'s methods).\n\
         pub const OPTIONS: &[&str] = &[{}];\n",
        options.join(", ")
    ));
    out
}

/// How the reference names what a word's argument is checked as.
fn checked_as(arg: Arg) -> Option<&'static str> {
    match arg {
        Arg::Regex => Some("regex"),
        Arg::Expression => Some("expression"),
        Arg::JsonPath => Some("JSONPath"),
        Arg::JmesPath => Some("JMESPath"),
        Arg::Schema => Some("JSON Schema"),
        Arg::Tool | Arg::ToolList | Arg::ToolOption => Some("declared tool"),
        Arg::Text | Arg::Value | Arg::Closure => None,
    }
}

const TABLE_START: &str = "<!-- kinds: generated from each kind's declaration (CheckRules::KIND) by \
     AGENT_TEST_UPDATE_VOCABULARY=1 cargo test -p agent-test-core --lib vocabulary -->";
const TABLE_END: &str = "<!-- /kinds -->";

/// The reference's table of kinds.
fn render_table(kinds: &[Kind]) -> String {
    let mut out = format!(
        "{TABLE_START}\n| `type` | built with | literals checked at compile time | checks |\n|---|---|---|---|\n"
    );
    for k in kinds {
        let builders: Vec<String> = k.builders.iter().map(|b| format!("`{b}`")).collect();
        // A kind built by a method of another (`reply().length()`) says so in its summary.
        let builders = if builders.is_empty() {
            "—".to_owned()
        } else {
            builders.join(", ")
        };
        let checked: Vec<String> = k
            .words
            .iter()
            .filter_map(|w| checked_as(w.arg).map(|what| format!("`{}`: {what}", w.name)))
            .collect();
        let checked = if checked.is_empty() {
            "—".to_owned()
        } else {
            checked.join(", ")
        };
        out.push_str(&format!(
            "| `{}` | {builders} | {checked} | {} |\n",
            k.tag, k.summary
        ));
    }
    out.push_str(TABLE_END);
    out
}

/// Compares `expected` with the file's text (or the part of it `region` finds), rewriting it
/// when asked.
fn held(path: &Path, expected: &str, region: Option<(&str, &str)>) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (before, current, after) = match region {
        None => ("", text.as_str(), ""),
        Some((start, end)) => {
            let a = text
                .find(start)
                .unwrap_or_else(|| panic!("{}: no `{start}`", path.display()));
            let b = text[a..]
                .find(end)
                .map(|b| a + b + end.len())
                .expect("the region's end");
            (&text[..a], &text[a..b], &text[b..])
        }
    };
    if current == expected {
        return;
    }
    if std::env::var_os(UPDATE).is_some() {
        std::fs::write(path, format!("{before}{expected}{after}")).expect("writes");
        return;
    }
    panic!(
        "{} differs from the check kinds' declarations: run `{UPDATE}=1 cargo test -p \
         agent-test-core --lib vocabulary`\n--- expected\n{expected}\n--- found\n{current}",
        path.display()
    );
}

#[test]
fn the_macros_vocabulary_is_the_declarations() {
    held(
        &root().join("../vocabulary/src/words.rs"),
        &render_words(Check::DECLARED),
        None,
    );
    // And what the macro reads is exactly that table.
    assert_eq!(
        agent_test_vocabulary::WORDS
            .iter()
            .copied()
            .collect::<BTreeSet<_>>(),
        declared_words(Check::DECLARED)
    );
    assert_eq!(agent_test_vocabulary::OPTIONS, OPTIONS);
}

#[test]
fn the_references_table_of_kinds_is_the_declarations() {
    held(
        &root().join("src/check/reference.md"),
        &render_table(Check::DECLARED),
        Some((TABLE_START, TABLE_END)),
    );
}

#[test]
fn a_kind_added_with_a_regex_word_reaches_the_macros_vocabulary() {
    const ADDED: Kind = Kind::new("mentions", "a reply mentions a pattern")
        .words(&[Word::new("mentions_pattern", Arg::Regex)])
        .built_by(&["mentions"]);
    let kinds: Vec<Kind> = Check::DECLARED.iter().copied().chain([ADDED]).collect();
    let words = render_words(&kinds);
    assert!(
        words.contains("    Word::new(\"mentions_pattern\", Arg::Regex),\n"),
        "{words}"
    );
    assert_ne!(words, render_words(Check::DECLARED));
    assert!(
        render_table(&kinds).contains("| `mentions` | `mentions` | `mentions_pattern`: regex |")
    );
}

#[test]
fn every_kind_is_declared_once_with_samples_of_its_own() {
    let tags: BTreeSet<&str> = Check::KINDS.iter().copied().collect();
    assert_eq!(tags.len(), Check::KINDS.len(), "a tag declared twice");
    let sampled: BTreeSet<&str> = Check::samples().iter().map(|e| e.check.kind()).collect();
    assert_eq!(sampled, tags, "a kind without samples");
    // Every kind says what it checks; a kind built by a method (`reply().length()`,
    // `.snapshot()`) has no builder function of its own.
    for k in Check::DECLARED {
        assert!(!k.summary.is_empty(), "{}", k.tag);
    }
}

// ---------------------------------------------------------------------------------------------
// The declarations against the code, in both directions (a text scan of the runtime's sources).

/// This file: its fixtures are not the runtime's functions.
const FIXTURES: &str = "check/vocabulary.rs";

fn sources() -> Vec<(String, String)> {
    fn walk(dir: &Path, out: &mut Vec<(String, String)>) {
        let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for path in entries.flatten().map(|e| e.path()) {
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|x| x == "rs") && !path.ends_with(FIXTURES) {
                let text = std::fs::read_to_string(&path).expect("reads");
                out.push((path.display().to_string(), text));
            }
        }
    }
    let mut out = Vec::new();
    walk(&root().join("src"), &mut out);
    out
}

/// The name at the start of `rest`.
fn ident(rest: &str) -> &str {
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    &rest[..end]
}

/// The bodies of the public traits of `text` (their methods are public without `pub`).
fn trait_bodies(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for (start, _) in text.match_indices("pub trait ") {
        let Some(body) = text[start..].split_once('{').map(|(_, b)| b) else {
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
        out.push(&body[..end]);
    }
    out
}

/// The function after each `marker` in `text`, with the name and type of its first parameter
/// after `self` (empty when none).
fn signatures(text: &str, marker: &str, out: &mut Vec<(String, String, String)>) {
    for rest in text.split(marker).skip(1) {
        let name = ident(rest).to_owned();
        let Some(args) = rest.split_once('(').map(|(_, a)| a.trim_start()) else {
            continue;
        };
        let args = ["mut self,", "self,", "&self,", "&mut self,"]
            .iter()
            .find_map(|s| args.strip_prefix(s))
            .unwrap_or(args)
            .trim_start();
        let param = ident(args).to_owned();
        let typed = args[param.len()..].trim_start_matches(':').trim_start();
        let ty = typed.split([',', ')']).next().unwrap_or_default().trim();
        out.push((name, param, ty.to_owned()));
    }
}

/// The public functions and public traits' methods of `text`, with their first parameter;
/// not those hidden from the documentation (`#[doc(hidden)]`: shared with the runtime's
/// crates, not a word of the DSL).
fn functions(text: &str) -> Vec<(String, String, String)> {
    static HIDDEN: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"#\[doc\(hidden\)\]\s*pub fn ").expect("a valid regex")
    });
    let text = HIDDEN.replace_all(text, "fn ");
    let mut out = Vec::new();
    signatures(&text, "pub fn ", &mut out);
    for body in trait_bodies(&text) {
        signatures(body, "fn ", &mut out);
    }
    out
}

/// Declared words and builders that are no function of the sources, and functions of the
/// sources taking a regex, an expression or a query as text that no declaration names so.
fn disagreements(sources: &[(String, String)], kinds: &[Kind]) -> Vec<String> {
    let fns: Vec<(String, String, String, &str)> = sources
        .iter()
        .flat_map(|(file, text)| {
            functions(text)
                .into_iter()
                .map(move |(n, p, t)| (n, p, t, file.as_str()))
        })
        .collect();
    let names: BTreeSet<&str> = fns.iter().map(|f| f.0.as_str()).collect();
    let words = declared_words(kinds);
    let mut out = Vec::new();
    for w in &words {
        if !names.contains(w.name) {
            out.push(format!(
                "`{}` is declared ({:?}) but no runtime function",
                w.name, w.arg
            ));
        }
    }
    for k in kinds {
        for b in k.builders {
            if !names.contains(b) {
                out.push(format!(
                    "`{b}` builds `{}` but is no runtime function",
                    k.tag
                ));
            }
        }
    }
    let by_param: [(&[&str], &[Arg]); 3] = [
        (&["regex", "pattern"], &[Arg::Regex]),
        (&["expression"], &[Arg::Expression, Arg::JmesPath]),
        (&["query"], &[Arg::JsonPath]),
    ];
    for (name, param, ty, file) in &fns {
        let text = ty.starts_with("impl Into<String>") || ty.starts_with("&str");
        let Some((_, args)) = by_param.iter().find(|(p, _)| p.contains(&param.as_str())) else {
            continue;
        };
        if text
            && !words
                .iter()
                .any(|w| w.name == name && args.contains(&w.arg))
        {
            out.push(format!(
                "`{name}` ({file}) takes `{param}` as text but no declaration says it is {args:?}: \
                 add it to its kind's words"
            ));
        }
    }
    out
}

#[test]
fn the_declarations_and_the_code_agree() {
    let sources = sources();
    assert!(sources.len() > 50, "the scan found no sources");
    let found = disagreements(&sources, Check::DECLARED);
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn a_regex_function_nobody_declared_is_found() {
    let mut sources = sources();
    sources.push((
        "check/mentions.rs".into(),
        "impl TextCheck {\n    pub fn mentions(self, pattern: impl Into<String>) -> Self { self }\n}".into(),
    ));
    assert_eq!(
        disagreements(&sources, Check::DECLARED),
        [
            "`mentions` (check/mentions.rs) takes `pattern` as text but no declaration says it is \
          [Regex]: add it to its kind's words"
        ]
    );
}

#[test]
fn a_declared_word_that_is_no_function_is_found() {
    const GONE: Kind = Kind::new("gone", "s")
        .words(&[Word::new("renamed_away", Arg::Regex)])
        .built_by(&["was_renamed"]);
    let kinds: Vec<Kind> = Check::DECLARED.iter().copied().chain([GONE]).collect();
    assert_eq!(
        disagreements(&sources(), &kinds),
        [
            "`renamed_away` is declared (Regex) but no runtime function",
            "`was_renamed` builds `gone` but is no runtime function"
        ]
    );
}

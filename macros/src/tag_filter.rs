//! `AGENT_TEST_TAGS=smoke cargo test`: a tag filter under `cargo test` and `cargo nextest`.
//!
//! libtest cannot skip a test once it runs, so the filter is applied when the tests are
//! compiled: a scenario none of whose tags is asked for gets `#[ignore = "not tagged smoke
//! (AGENT_TEST_TAGS)"]`, and both runners list it as ignored, never as passed. The expansion
//! names the variable with `option_env!`, which rustc records in the crate's dependency info:
//! cargo rebuilds the tests when the variable changes (and only the tests), so the filter in
//! effect is always the one of the command that runs them. Tags are known at compile time when
//! written as literals (`tags = ["smoke"];`, a data file's `"tags"`); a scenario whose tags are
//! computed runs whatever the filter (it is never ignored on a guess).

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use quote::quote;

use crate::syntax::{ScenarioAst, Stmt, SuiteAst};

/// The variable naming the tags to run, separated by commas: any of them.
pub(crate) const ENV: &str = "AGENT_TEST_TAGS";

/// The tags asked for when the macro expands (none: no filter).
pub(crate) fn wanted() -> Vec<String> {
    parse(&std::env::var(ENV).unwrap_or_default())
}

/// The tags of a comma-separated list, blanks dropped.
fn parse(value: &str) -> Vec<String> {
    value
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The tags of a `tags = [..];` value written as string literals; `None` when computed.
pub(crate) fn literal_tags(value: &TokenStream) -> Option<Vec<String>> {
    let tokens: Vec<TokenTree> = value.clone().into_iter().collect();
    let [TokenTree::Group(g)] = tokens.as_slice() else {
        return None;
    };
    if g.delimiter() != Delimiter::Bracket {
        return None;
    }
    let mut tags = Vec::new();
    for item in g.stream() {
        match item {
            TokenTree::Punct(p) if p.as_char() == ',' => {}
            TokenTree::Literal(l) => {
                tags.push(
                    syn::parse2::<syn::LitStr>(TokenTree::Literal(l).into())
                        .ok()?
                        .value(),
                );
            }
            _ => return None,
        }
    }
    Some(tags)
}

/// The attribute of a scenario with `tags` (`None`: computed) under the filter `wanted`: an
/// `#[ignore]` saying why when none of its tags is asked for, else nothing.
pub(crate) fn ignore(tags: Option<&[String]>, wanted: &[String]) -> TokenStream {
    match tags {
        Some(tags) if !wanted.is_empty() && !tags.iter().any(|t| wanted.contains(t)) => {
            let reason = format!("not tagged {} ({ENV})", wanted.join(" or "));
            quote! { #[ignore = #reason] }
        }
        _ => TokenStream::new(),
    }
}

/// What makes cargo rebuild the tests when the filter changes.
pub(crate) fn tracked() -> TokenStream {
    quote! {
        const _: ::core::option::Option<&str> = ::core::option_env!("AGENT_TEST_TAGS");
    }
}

/// `AGENT_TEST_TAGS` as it applies to this suite: the tags asked for, and the suite's own
/// tags (`None` when computed), which come before every scenario's.
pub(crate) struct Filter {
    wanted: Vec<String>,
    suite_tags: Option<Vec<String>>,
}

impl Filter {
    pub(crate) fn of(suite: &SuiteAst) -> Self {
        let mut suite_tags = Some(Vec::new());
        for s in suite.settings.iter().filter(|s| s.name == "tags") {
            suite_tags = suite_tags
                .zip(literal_tags(&s.value.tokens))
                .map(|(mut all, more)| {
                    all.extend(more);
                    all
                });
        }
        Filter {
            wanted: wanted(),
            suite_tags,
        }
    }

    /// The `#[ignore]` of a scenario with its own `tags` (`None`: computed), if filtered out.
    pub(crate) fn ignore(&self, own: Option<&[String]>) -> TokenStream {
        let all = self
            .suite_tags
            .as_ref()
            .zip(own)
            .map(|(suite, own)| suite.iter().chain(own).cloned().collect::<Vec<String>>());
        ignore(all.as_deref(), &self.wanted)
    }
}

/// A scenario's own tags written as literals (none written: none); `None` when computed.
pub(crate) fn scenario_tags(s: &ScenarioAst) -> Option<Vec<String>> {
    let mut tags = Vec::new();
    for stmt in &s.body {
        if let Stmt::Setting { name, value } = stmt
            && name == "tags"
        {
            tags.extend(literal_tags(&value.tokens)?);
        }
    }
    Some(tags)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tags(list: &[&str]) -> Vec<String> {
        list.iter().map(|t| (*t).to_owned()).collect()
    }

    #[test]
    fn only_scenarios_without_a_wanted_tag_are_ignored() {
        let wanted = parse(" smoke, ,billing ");
        assert_eq!(wanted, tags(&["smoke", "billing"]));
        let ignored = ignore(Some(&tags(&["slow"])), &wanted).to_string();
        assert!(
            ignored.contains("\"not tagged smoke or billing (AGENT_TEST_TAGS)\""),
            "{ignored}"
        );
        assert!(
            ignore(Some(&tags(&[])), &wanted)
                .to_string()
                .contains("ignore")
        );
        assert!(ignore(Some(&tags(&["billing"])), &wanted).is_empty());
        // No filter, or tags only known at run time: never ignored.
        assert!(ignore(Some(&tags(&["slow"])), &[]).is_empty());
        assert!(ignore(None, &wanted).is_empty());
    }

    #[test]
    fn literal_tags_are_read_and_computed_ones_are_not() {
        let read = |s: &str| literal_tags(&s.parse().unwrap());
        assert_eq!(
            read(r#"["smoke", "billing"]"#),
            Some(tags(&["smoke", "billing"]))
        );
        assert_eq!(read("[]"), Some(vec![]));
        assert_eq!(read("my_tags()"), None);
        assert_eq!(read(r#"["smoke", TAG]"#), None);
    }
}

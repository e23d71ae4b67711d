//! `files "<glob>";`: every test file the pattern matches (relative to the crate's directory),
//! in agent-test's own scenario form or a seed format, is read at compile time with the
//! runtime's one loader; each case becomes a `#[test]` named after the file and the case, and
//! a malformed file is a compile error
//! naming the file, the path inside it and what was expected. The expansion `include_str!`s
//! each file, so editing one recompiles the tests.

#[cfg(feature = "files")]
use std::collections::HashSet;
#[cfg(feature = "files")]
use std::path::{Path, PathBuf};

use proc_macro2::{Ident, TokenStream};
#[cfg(feature = "files")]
use proc_macro2::{Literal, Span};
#[cfg(feature = "files")]
use quote::{quote, quote_spanned};

use crate::diag::Diagnostics;
#[cfg(feature = "files")]
use crate::syntax::FilesAst;
use crate::syntax::SuiteAst;

#[cfg(not(feature = "files"))]
pub(crate) fn expand(
    suite: &SuiteAst,
    _suite_fn: &Ident,
    _runtime_fn: &Ident,
    _filter: &crate::tag_filter::Filter,
    diag: &mut Diagnostics,
) -> TokenStream {
    for f in &suite.files {
        diag.error(
            f.span,
            "`files` reads test files at compile time: enable agent-test's `files` feature \
             (`agent-test = { version = \"0.1\", features = [\"files\"] }`)",
        );
    }
    TokenStream::new()
}

#[cfg(feature = "files")]
pub(crate) fn expand(
    suite: &SuiteAst,
    suite_fn: &Ident,
    runtime_fn: &Ident,
    filter: &crate::tag_filter::Filter,
    diag: &mut Diagnostics,
) -> TokenStream {
    if suite.files.is_empty() {
        return TokenStream::new();
    }
    let Some(root) = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from) else {
        for f in &suite.files {
            diag.error(f.span, "`files` needs CARGO_MANIFEST_DIR: build with cargo");
        }
        return TokenStream::new();
    };
    let mut tests = FileTests {
        suite_fn,
        runtime_fn,
        filter,
        root: &root,
        has_agent: suite.settings.iter().any(|s| s.name == "agent"),
        taken: suite.scenarios.iter().map(|s| s.name.to_string()).collect(),
        out: TokenStream::new(),
    };
    let mut seen: HashSet<PathBuf> = HashSet::new();
    for (file_no, entry) in suite.files.iter().enumerate() {
        let Some(mut paths) = matched_paths(entry, &root, diag) else {
            continue;
        };
        // A file matched by two patterns gets its tests once.
        paths.retain(|p| seen.insert(p.clone()));
        for (path_no, path) in paths.into_iter().enumerate() {
            tests.file(entry, file_no, path_no, &path, diag);
        }
    }
    tests.out
}

/// The files a `files` pattern matches, sorted; `None` (after an error on the pattern) when the
/// pattern is invalid or matches nothing.
#[cfg(feature = "files")]
fn matched_paths(entry: &FilesAst, root: &Path, diag: &mut Diagnostics) -> Option<Vec<PathBuf>> {
    // Checked on its own, so an error's position is in the pattern the user wrote.
    if let Err(e) = glob::Pattern::new(&entry.pattern) {
        diag.error(entry.span, format!("invalid glob pattern: {e}"));
        return None;
    }
    // The crate's path may hold glob characters (`[`): only the user's pattern is a glob.
    let pattern =
        PathBuf::from(glob::Pattern::escape(&root.to_string_lossy())).join(&entry.pattern);
    let paths = match glob::glob(&pattern.to_string_lossy()) {
        Ok(paths) => paths,
        Err(e) => {
            diag.error(entry.span, format!("invalid glob pattern: {e}"));
            return None;
        }
    };
    let mut paths: Vec<PathBuf> = paths
        .filter_map(Result::ok)
        .filter(|p| p.is_file())
        .collect();
    paths.sort();
    if paths.is_empty() {
        diag.error(
            entry.span,
            format!("no file matches `{}` in {}", entry.pattern, root.display()),
        );
        return None;
    }
    Some(paths)
}

/// What the expansion of every matched file shares: the names already taken, so tests from
/// different files (and the scenarios) never collide, and the tokens emitted so far.
#[cfg(feature = "files")]
struct FileTests<'a> {
    suite_fn: &'a Ident,
    runtime_fn: &'a Ident,
    /// `AGENT_TEST_TAGS`: a case none of whose tags is asked for is ignored.
    filter: &'a crate::tag_filter::Filter,
    root: &'a Path,
    has_agent: bool,
    taken: HashSet<String>,
    out: TokenStream,
}

#[cfg(feature = "files")]
impl FileTests<'_> {
    /// One matched file: its cases' static, then a `#[test]` per case.
    fn file(
        &mut self,
        entry: &FilesAst,
        file_no: usize,
        path_no: usize,
        path: &Path,
        diag: &mut Diagnostics,
    ) {
        let rel = path.strip_prefix(self.root).unwrap_or(path);
        let rel_str = rel.to_string_lossy().replace('\\', "/");
        let mut abs = Literal::string(&path.to_string_lossy());
        abs.set_span(entry.span);
        let file = Literal::string(&rel_str);
        // The file's text, read into cases once for all its tests. `include_str!` also
        // makes an edit of the file recompile them, even while the file is malformed.
        let cases_static = quote::format_ident!("{}_file_{}_{}", self.suite_fn, file_no, path_no);
        self.out.extend(quote! {
            #[doc(hidden)]
            #[allow(non_upper_case_globals)]
            static #cases_static: ::agent_test::__private::FileCases =
                ::agent_test::__private::FileCases::new(::core::include_str!(#abs), #file);
        });
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                diag.error(entry.span, format!("{rel_str}: cannot read the file: {e}"));
                return;
            }
        };
        let cases =
            match agent_test_readers::load::cases_from_text(&text, Path::new(&rel_str), None) {
                Ok(c) => c,
                Err(e) => {
                    diag.error(entry.span, e.to_string());
                    return;
                }
            };
        let stem = ident_text(
            &rel.file_stem()
                .map_or_else(String::new, |s| s.to_string_lossy().into_owned()),
        );
        if !self.has_agent && cases.iter().any(|c| c.recording.is_none()) {
            diag.error(
                entry.span,
                format!(
                    "{rel_str}: its cases carry no recorded run, so they need the agent under test: add `agent = my_agent();`"
                ),
            );
        }
        let many = cases.len() > 1;
        for (i, case) in cases.iter().enumerate() {
            let case_part = ident_text(&case.scenario.name);
            let base = if !many && (case_part == stem || case_part.is_empty()) {
                stem.clone()
            } else {
                format!("{stem}__{case_part}")
            };
            let name = self.unique_name(&base);
            let doc = format!(
                " `{}` in `{rel_str}`{}",
                case.scenario.name,
                case.scenario
                    .description
                    .as_deref()
                    .map_or_else(String::new, |d| format!(": {d}"))
            );
            let ignore = self.filter.ignore(Some(&case.scenario.tags));
            self.case_test(entry, &cases_static, i, &name, &doc, &ignore);
        }
    }

    /// `base`, or `base_2`, `base_3`, ... when a test of that name already exists.
    fn unique_name(&mut self, base: &str) -> Ident {
        let mut name = base.to_owned();
        let mut n = 2;
        while !self.taken.insert(name.clone()) {
            name = format!("{base}_{n}");
            n += 1;
        }
        Ident::new(&name, Span::call_site())
    }

    /// The `#[test]` running case `index` of the file read into `cases_static`.
    fn case_test(
        &mut self,
        entry: &FilesAst,
        cases_static: &Ident,
        index: usize,
        name: &Ident,
        doc: &str,
        ignore: &TokenStream,
    ) {
        let suite_fn = self.suite_fn;
        let runtime_fn = self.runtime_fn;
        let index = Literal::usize_unsuffixed(index);
        // The call carries the pattern's span: a failing case's panic points at it.
        let call = quote_spanned! {entry.span=>
            ::agent_test::__private::test_file_case(
                #suite_fn,
                #runtime_fn(),
                &#cases_static,
                #index,
                ::core::module_path!(),
            )
        };
        self.out.extend(quote! {
            #[doc = #doc]
            #[test]
            #ignore
            fn #name() {
                #call;
            }
        });
    }
}

/// A name as a Rust identifier: lowercase words joined by `_`, never starting with a digit.
#[cfg(feature = "files")]
fn ident_text(name: &str) -> String {
    let mut out = String::new();
    for ch in name.chars() {
        if ch.is_ascii_alphanumeric() {
            out.push(ch.to_ascii_lowercase());
        } else if !out.ends_with('_') && !out.is_empty() {
            out.push('_');
        }
    }
    let out = out.trim_end_matches('_').to_owned();
    match out.chars().next() {
        None => "case".to_owned(),
        Some(c) if c.is_ascii_digit() => format!("_{out}"),
        Some(_) if is_keyword(&out) => format!("{out}_"),
        Some(_) => out,
    }
}

#[cfg(feature = "files")]
fn is_keyword(s: &str) -> bool {
    syn::parse_str::<Ident>(s).is_err()
}

#[cfg(all(test, feature = "files"))]
mod tests {
    use super::ident_text;

    #[test]
    fn names_become_identifiers() {
        assert_eq!(
            ident_text("Tool returns tags in any order"),
            "tool_returns_tags_in_any_order"
        );
        assert_eq!(ident_text("account-transfer-test"), "account_transfer_test");
        assert_eq!(ident_text("3 widgets!"), "_3_widgets");
        assert_eq!(ident_text("¿?"), "case");
        assert_eq!(ident_text("match"), "match_");
    }
}

//! Expansion snapshots: each `tests/expand/<case>.rs` holds one `agent_test! { ... }` (or
//! `agent_test_files!(..)`) invocation; its expansion, pretty-printed with prettyplease, must
//! equal `tests/expand/<case>.expanded.rs`.
//!
//! After an intended change of the expansion, rewrite the expected files and review the diff:
//!
//! ```text
//! UPDATE_EXPAND=1 cargo test -p agent-test-macros --features files snapshots
//! ```
//!
//! A missing expected file is written (and the test fails, so that it gets reviewed). An input
//! whose first line is `// needs feature: <name>` is skipped when the crate is built without
//! that feature. An expansion that is not valid Rust (from incomplete input, as while the user
//! types) cannot be parsed for prettyplease: it is printed token by token, a statement a line.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use proc_macro2::{Delimiter, TokenStream, TokenTree};

const UPDATE_VAR: &str = "UPDATE_EXPAND";

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expand")
}

#[test]
fn expansions_match_their_snapshots() {
    let dir = cases_dir();
    let update = std::env::var_os(UPDATE_VAR).is_some_and(|v| !v.is_empty() && v != "0");
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|x| x == "rs")
                && !p.to_string_lossy().ends_with(".expanded.rs")
        })
        .collect();
    inputs.sort();
    assert!(
        inputs.len() >= 6,
        "expansion cases missing in {}",
        dir.display()
    );
    let mut problems = Vec::new();
    for input in &inputs {
        let src = std::fs::read_to_string(input).unwrap_or_else(|e| panic!("{e}"));
        if let Some(feature) = needed_feature(&src)
            && !enabled(feature)
        {
            eprintln!("skipped {} (needs feature `{feature}`)", input.display());
            continue;
        }
        let actual = pretty(&expand_invocation(&src, input));
        let expected_path = input.with_extension("expanded.rs");
        let expected = std::fs::read_to_string(&expected_path).ok();
        if expected.as_deref() == Some(actual.as_str()) {
            continue;
        }
        if update || expected.is_none() {
            std::fs::write(&expected_path, &actual).unwrap_or_else(|e| panic!("{e}"));
        }
        problems.push(match (expected, update) {
            (None, _) => format!(
                "{}: no snapshot yet; wrote it: review it and run again",
                expected_path.display()
            ),
            (Some(_), true) => {
                eprintln!("updated {}", expected_path.display());
                continue;
            }
            (Some(expected), false) => format!(
                "{} differs from the expansion of {}:\n{}",
                expected_path.display(),
                input.display(),
                line_diff(&expected, &actual)
            ),
        });
    }
    assert!(
        problems.is_empty(),
        "{}\n\nIf the new expansion is right, rewrite the snapshots with \
         `{UPDATE_VAR}=1 cargo test -p agent-test-macros --features files snapshots` and review the diff.",
        problems.join("\n\n")
    );
}

/// `// needs feature: files` on the input's first line.
fn needed_feature(src: &str) -> Option<&str> {
    src.lines()
        .next()?
        .strip_prefix("// needs feature:")
        .map(str::trim)
}

fn enabled(feature: &str) -> bool {
    match feature {
        "files" => cfg!(feature = "files"),
        "schema" => cfg!(feature = "schema"),
        "jsonpath" => cfg!(feature = "jsonpath"),
        other => panic!("unknown feature `{other}` in an expansion case"),
    }
}

/// The expansion of the file's one macro invocation, absolute paths of the crate replaced by
/// `$CARGO_MANIFEST_DIR` (what `files` puts in `include_str!`).
fn expand_invocation(src: &str, path: &Path) -> TokenStream {
    let tokens = TokenStream::from_str(src)
        .unwrap_or_else(|e| panic!("{}: does not lex: {e}", path.display()));
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let out = match tokens.as_slice() {
        [
            TokenTree::Ident(name),
            TokenTree::Punct(bang),
            TokenTree::Group(body),
            ..,
        ] if bang.as_char() == '!' => match name.to_string().as_str() {
            "agent_test" => crate::expand_suite(body.stream()),
            "agent_test_files" => crate::expand_suite(crate::files_shorthand(body.stream())),
            other => panic!("{}: `{other}!` is not agent-test's macro", path.display()),
        },
        _ => panic!(
            "{}: expected one `agent_test! {{ ... }}` invocation",
            path.display()
        ),
    };
    let root = env!("CARGO_MANIFEST_DIR");
    let text = out.to_string().replace(root, "$CARGO_MANIFEST_DIR");
    TokenStream::from_str(&text).unwrap_or_else(|e| panic!("the expansion does not lex: {e}"))
}

/// prettyplease's rendering when the expansion parses as a file, else token by token.
fn pretty(tokens: &TokenStream) -> String {
    match syn::parse2::<syn::File>(tokens.clone()) {
        Ok(file) => prettyplease::unparse(&file),
        Err(e) => {
            let mut printer = Rough::default();
            printer.stream(tokens.clone());
            format!(
                "// Not valid Rust (incomplete input): {e}\n\
                 // The expansion, token by token (as rustc and rust-analyzer get it):\n{}\n",
                printer.out.trim_end()
            )
        }
    }
}

/// A plain printer for token streams that do not parse: tokens spaced as `TokenStream`
/// prints them, a line per statement, attribute and block, blocks indented, and the arguments
/// of a call that holds a block one a line.
#[derive(Default)]
struct Rough {
    out: String,
    depth: usize,
    /// Nothing written on the current line yet.
    fresh: bool,
    /// The next token is glued to the last one.
    glue: bool,
}

impl Rough {
    fn word(&mut self, text: &str) {
        if self.fresh || self.out.is_empty() {
            self.out.push_str(&"    ".repeat(self.depth));
        } else if !self.glue {
            self.out.push(' ');
        }
        self.out.push_str(text);
        self.fresh = false;
        self.glue = false;
    }

    fn newline(&mut self) {
        if !self.fresh && !self.out.is_empty() {
            self.out.push('\n');
            self.fresh = true;
        }
    }

    fn stream(&mut self, tokens: TokenStream) {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        for (i, tt) in tokens.iter().enumerate() {
            let next = tokens.get(i + 1);
            match tt {
                TokenTree::Punct(p) => {
                    self.word(&p.as_char().to_string());
                    self.glue = p.spacing() == proc_macro2::Spacing::Joint;
                    if p.as_char() == ';' {
                        self.newline();
                    }
                }
                TokenTree::Ident(_) | TokenTree::Literal(_) => self.word(&tt.to_string()),
                TokenTree::Group(g)
                    if g.delimiter() == Delimiter::Brace && !holds_statements(&g.stream()) =>
                {
                    self.word("{");
                    self.stream(g.stream());
                    self.word("}");
                }
                TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => {
                    self.word("{");
                    self.newline();
                    self.depth += 1;
                    self.stream(g.stream());
                    self.depth -= 1;
                    self.newline();
                    self.word("}");
                    let continued = matches!(next, Some(TokenTree::Punct(p)) if matches!(p.as_char(), ',' | ';' | '.'));
                    if !continued {
                        self.newline();
                    }
                }
                TokenTree::Group(g) => {
                    let (open, close) = match g.delimiter() {
                        Delimiter::Parenthesis => ("(", ")"),
                        Delimiter::Bracket => ("[", "]"),
                        _ => ("", ""),
                    };
                    let attribute = i > 0
                        && matches!(&tokens[i - 1], TokenTree::Punct(p) if p.as_char() == '#');
                    self.glue |= attribute;
                    self.word(open);
                    self.glue = true;
                    if holds_statements(&g.stream()) {
                        self.newline();
                        self.depth += 1;
                        for arg in split_commas(g.stream()) {
                            self.stream(arg);
                            if self.fresh {
                                self.out.pop();
                                self.fresh = false;
                            }
                            self.glue = true;
                            self.word(",");
                            self.newline();
                        }
                        self.depth -= 1;
                    } else {
                        self.stream(g.stream());
                        self.glue = true;
                    }
                    self.word(close);
                    if attribute {
                        self.newline();
                    }
                }
            }
        }
    }
}

/// A `;` inside, at any depth: printed on several lines.
fn holds_statements(tokens: &TokenStream) -> bool {
    tokens.clone().into_iter().any(|tt| match tt {
        TokenTree::Punct(p) => p.as_char() == ';',
        TokenTree::Group(g) => holds_statements(&g.stream()),
        _ => false,
    })
}

fn split_commas(tokens: TokenStream) -> Vec<TokenStream> {
    let mut parts = vec![Vec::new()];
    for tt in tokens {
        match &tt {
            TokenTree::Punct(p) if p.as_char() == ',' => parts.push(Vec::new()),
            _ => parts.last_mut().unwrap_or_else(|| unreachable!()).push(tt),
        }
    }
    parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .map(|p| p.into_iter().collect())
        .collect()
}

/// The lines that differ, `-` expected and `+` actual, with a line of context.
fn line_diff(expected: &str, actual: &str) -> String {
    let e: Vec<&str> = expected.lines().collect();
    let a: Vec<&str> = actual.lines().collect();
    // Common prefix and suffix; the middle is shown as removed and added.
    let prefix = e.iter().zip(&a).take_while(|(x, y)| x == y).count();
    let suffix = e[prefix..]
        .iter()
        .rev()
        .zip(a[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let mut out = String::new();
    let from = prefix.saturating_sub(2);
    for line in &e[from..prefix] {
        let _ = writeln!(out, "  {line}");
    }
    for line in &e[prefix..e.len() - suffix] {
        let _ = writeln!(out, "- {line}");
    }
    for line in &a[prefix..a.len() - suffix] {
        let _ = writeln!(out, "+ {line}");
    }
    for line in e[e.len() - suffix..].iter().take(2) {
        let _ = writeln!(out, "  {line}");
    }
    out
}

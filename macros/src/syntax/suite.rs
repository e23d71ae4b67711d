//! The top level of `agent_test!`: settings, suite context, scenarios.

use proc_macro2::{Delimiter, Ident, Span, TokenStream, TokenTree};

use super::attrs::parse_outer_attrs;
use super::context::parse_context;
use super::cursor::{Cursor, ident_str, is_group, is_ident, is_lone_eq, is_punct};
use super::scenario::{Block, parse_body};
use super::{FilesAst, ScenarioAst, Setting, SuiteAst, UserExpr};
use crate::diag::Diagnostics;
use crate::keywords::{SETTINGS, SUITE_WORDS, suggestion};

pub(crate) fn parse_suite(input: TokenStream, diag: &mut Diagnostics) -> SuiteAst {
    let mut c = Cursor::new(input, Span::call_site());
    let mut suite = SuiteAst {
        settings: Vec::new(),
        context: Vec::new(),
        scenarios: Vec::new(),
        files: Vec::new(),
        orphans: Vec::new(),
        words: Vec::new(),
        tools: None,
    };
    let mut top_words: Vec<&str> = SUITE_WORDS.to_vec();
    top_words.extend(SETTINGS);
    while !c.is_end() {
        if c.eat_semi() {
            continue;
        }
        let attrs = parse_outer_attrs(&mut c);
        let Some(first) = c.peek().cloned() else {
            if !attrs.is_empty() {
                diag.error(c.span(), "expected a scenario after these attributes");
            }
            break;
        };
        parse_item(&mut c, &first, attrs, &top_words, &mut suite, diag);
    }
    require_agent(&suite, diag);
    suite
}

/// One top-level item starting at `first` (its attributes already read): a scenario (also a
/// misspelt one), `files`, `tools { .. }`, `context { .. }` or a setting.
fn parse_item(
    c: &mut Cursor,
    first: &TokenTree,
    attrs: Vec<super::attrs::Attr>,
    top_words: &[&str],
    suite: &mut SuiteAst,
    diag: &mut Diagnostics,
) {
    let word = ident_str(first).unwrap_or_default();
    if let TokenTree::Ident(i) = first {
        suite.words.push(i.clone());
    }
    let misspelt_scenario = is_misspelt_scenario(c, &word);
    if misspelt_scenario {
        diag.error(
            first.span(),
            format!(
                "unknown item `{word}`; did you mean `scenario`? (`scenario <name> {{ ... }}`)"
            ),
        );
    }
    if word == "scenario" || misspelt_scenario {
        c.bump();
        let scenario = parse_scenario(c, first.span(), attrs, suite.scenarios.len(), diag);
        suite.scenarios.push(scenario);
        return;
    }
    if let Some(a) = attrs.first() {
        let span = a
            .tokens
            .clone()
            .into_iter()
            .next()
            .map_or(first.span(), |t| t.span());
        diag.error(span, "attributes and doc comments go on scenarios");
    }
    if word == "files"
        && !c
            .peek_n(1)
            .is_some_and(|t| is_lone_eq(Some(first), t, c.peek_n(2)))
    {
        c.bump();
        parse_files(c, first, suite, diag);
        return;
    }
    if word == "tools" && c.peek_n(1).is_some_and(|t| is_group(t, Delimiter::Brace)) {
        c.bump();
        parse_tools_block(c, first, suite, diag);
        return;
    }
    if word == "context" && c.peek_n(1).is_some_and(|t| is_group(t, Delimiter::Brace)) {
        c.bump();
        parse_suite_context(c, suite, diag);
        return;
    }
    if let TokenTree::Ident(name) = first
        && c.peek_n(1)
            .is_some_and(|t| is_lone_eq(Some(first), t, c.peek_n(2)))
    {
        c.bump();
        c.bump();
        let value = collect_setting(c, name.span());
        parse_setting(name.clone(), value, suite, diag);
        return;
    }
    diag.error(
        first.span(),
        format!(
            "expected `scenario`, `context {{ ... }}`, `files \"<glob>\";` or a setting like `agent = my_agent();`{}",
            if word.is_empty() {
                String::new()
            } else {
                suggestion(&word, top_words)
            }
        ),
    );
    skip_item(c);
}

/// `scenaro refund { .. }`: a misspelt `scenario` is still read as one, so its body keeps
/// completion and type checking.
fn is_misspelt_scenario(c: &Cursor, word: &str) -> bool {
    word != "scenario"
        && !word.is_empty()
        && c.peek_n(1)
            .is_some_and(|t| matches!(t, TokenTree::Ident(_)))
        && c.peek_n(2).is_some_and(|t| is_group(t, Delimiter::Brace))
}

/// The glob pattern after `files` (the word already read).
fn parse_files(c: &mut Cursor, first: &TokenTree, suite: &mut SuiteAst, diag: &mut Diagnostics) {
    match c.peek().cloned() {
        Some(TokenTree::Literal(lit)) => {
            c.bump();
            match syn::parse2::<syn::LitStr>(TokenTree::Literal(lit.clone()).into()) {
                Ok(s) => suite.files.push(FilesAst {
                    pattern: s.value(),
                    span: lit.span(),
                }),
                Err(_) => diag.error(
                    lit.span(),
                    "expected a glob pattern in a string, like `files \"tests/cases/*.json\";`",
                ),
            }
        }
        _ => {
            diag.error(
                first.span(),
                "expected a glob pattern after `files`, like `files \"tests/cases/*.json\";`",
            );
            skip_item(c);
        }
    }
}

/// The `{ .. }` of `tools { .. }` (the word already read): the suite's typed tools.
fn parse_tools_block(
    c: &mut Cursor,
    first: &TokenTree,
    suite: &mut SuiteAst,
    diag: &mut Diagnostics,
) {
    if let (TokenTree::Ident(name), Some(TokenTree::Group(g))) = (first, c.bump()) {
        let typed = parse_typed_tools(g.stream(), g.span(), diag);
        if suite.tools.is_some() {
            diag.error(name.span(), "`tools` is set twice");
        } else {
            suite.tools = Some(super::ToolsAst {
                name: name.clone(),
                value: UserExpr::new(Vec::new(), name.span()),
                typed,
            });
        }
    }
}

/// The `{ .. }` of the suite's `context { .. }` (the word already read), added to the context
/// given so far; a key given twice is reported.
fn parse_suite_context(c: &mut Cursor, suite: &mut SuiteAst, diag: &mut Diagnostics) {
    if let Some(TokenTree::Group(g)) = c.bump() {
        let entries = parse_context(g.stream(), g.span(), diag);
        for e in entries {
            if suite.context.iter().any(|x| x.key == e.key) {
                diag.error(e.key_span, format!("duplicate context key `{}`", e.key));
            } else {
                suite.context.push(e);
            }
        }
    }
}

/// Reports a suite with no `agent` setting. A suite of test files alone may need no agent
/// (their cases may carry recorded runs).
fn require_agent(suite: &SuiteAst, diag: &mut Diagnostics) {
    if !suite.settings.iter().any(|s| s.name == "agent")
        && (!suite.scenarios.is_empty() || suite.files.is_empty())
    {
        // On the first item (the whole invocation when it is empty).
        let at = suite
            .words
            .first()
            .map_or_else(Span::call_site, Ident::span);
        diag.error(
            at,
            "agent_test! needs the agent under test: add `agent = my_agent();` before the scenarios",
        );
    }
}

fn parse_setting(name: Ident, value: UserExpr, suite: &mut SuiteAst, diag: &mut Diagnostics) {
    let word = name.to_string();
    if word == "tools" && !value.is_empty() {
        if suite.tools.is_some() {
            diag.error(name.span(), "`tools` is set twice");
            suite.orphans.push(value);
        } else {
            suite.tools = Some(super::ToolsAst {
                name,
                value,
                typed: Vec::new(),
            });
        }
        return;
    }
    if !SETTINGS.contains(&word.as_str()) {
        diag.error(
            name.span(),
            format!(
                "unknown setting `{word}`{} (settings: {})",
                suggestion(&word, SETTINGS),
                SETTINGS
                    .iter()
                    .map(|s| format!("`{s}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
        suite.orphans.push(value);
        return;
    }
    if value.is_empty() {
        diag.error(name.span(), format!("expected a value after `{word} =`"));
        return;
    }
    if suite.settings.iter().any(|s| s.name == word) {
        diag.error(name.span(), format!("`{word}` is set twice"));
        suite.orphans.push(value);
        return;
    }
    suite.settings.push(Setting { name, value });
}

/// A setting's value: up to `;`, or up to the next `scenario`/setting when the `;` is missing.
fn collect_setting(c: &mut Cursor, span: Span) -> UserExpr {
    let mut tokens = Vec::new();
    while let Some(t) = c.peek() {
        if is_punct(t, ';') {
            c.bump();
            break;
        }
        if !tokens.is_empty()
            && is_ident(t, "scenario")
            && c.peek_n(1)
                .is_some_and(|n| matches!(n, TokenTree::Ident(_)))
        {
            break;
        }
        tokens.extend(c.bump());
    }
    UserExpr::new(tokens, span)
}

fn parse_scenario(
    c: &mut Cursor,
    keyword: Span,
    attrs: Vec<super::attrs::Attr>,
    index: usize,
    diag: &mut Diagnostics,
) -> ScenarioAst {
    let name = match c.peek() {
        Some(TokenTree::Ident(i)) => {
            let i = i.clone();
            c.bump();
            i
        }
        Some(TokenTree::Literal(l)) => {
            let l = l.clone();
            c.bump();
            let text = syn::parse2::<syn::LitStr>(TokenTree::Literal(l.clone()).into())
                .map(|s| s.value())
                .unwrap_or_default();
            let snake = to_snake(&text);
            diag.error(
                l.span(),
                format!("a scenario's name is a Rust identifier (it names the test): `scenario {snake} {{ ... }}`; put the text in a `///` doc comment"),
            );
            Ident::new(&placeholder(&snake, index), l.span())
        }
        _ => {
            diag.error(
                keyword,
                "expected the scenario's name, like `scenario refund_flow { ... }`",
            );
            Ident::new(&format!("unnamed_scenario_{}", index + 1), keyword)
        }
    };
    let body = match c.peek() {
        Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => {
            let g = g.clone();
            c.bump();
            parse_body(g.stream(), g.span(), Block::Scenario, diag)
        }
        _ => {
            diag.error(c.span(), format!("expected `{{` after `scenario {name}`"));
            skip_item(c);
            Vec::new()
        }
    };
    let mut docs = Vec::new();
    let mut others = Vec::new();
    let mut description = Vec::new();
    for a in attrs {
        match a.doc {
            Some(text) => {
                description.push(text.trim().to_owned());
                docs.push(a.tokens);
            }
            None => match test_attribute(&a.tokens) {
                Some(written) => diag.error(
                    attribute_span(&a.tokens),
                    format!(
                        "`#[{written}]` on a scenario: a scenario is already a test, run on a tokio \
                         runtime of its own; remove the attribute (for a multi-threaded runtime, \
                         write `runtime = RuntimeFlavor::multi_thread(2);` in the scenario or the \
                         suite)"
                    ),
                ),
                None => others.push(a.tokens),
            },
        }
    }
    ScenarioAst {
        docs,
        description: description.join("\n").trim().to_owned(),
        attrs: others,
        name,
        body,
    }
}

/// The path of an attribute that makes a function a test (`test`, `tokio::test`,
/// `test_log::test`, `rstest`, `test_case`, ...), as written.
fn test_attribute(tokens: &TokenStream) -> Option<String> {
    let inner = tokens.clone().into_iter().find_map(|t| match t {
        TokenTree::Group(g) if g.delimiter() == Delimiter::Bracket => Some(g.stream()),
        _ => None,
    })?;
    let mut path = String::new();
    let mut last = String::new();
    for t in inner {
        match t {
            TokenTree::Ident(i) => {
                last = i.to_string();
                path.push_str(&last);
            }
            TokenTree::Punct(p) if p.as_char() == ':' => path.push(':'),
            _ => break,
        }
    }
    let first = path.split("::").next().unwrap_or_default();
    (last == "test" || matches!(first, "rstest" | "test_case" | "test_matrix")).then_some(path)
}

/// The span of an attribute's `[..]` (all of it but the `#`).
fn attribute_span(tokens: &TokenStream) -> Span {
    tokens
        .clone()
        .into_iter()
        .find_map(|t| match t {
            TokenTree::Group(g) => Some(g.span()),
            _ => None,
        })
        .unwrap_or_else(Span::call_site)
}

fn placeholder(snake: &str, index: usize) -> String {
    if snake.is_empty() || snake.starts_with(|c: char| c.is_ascii_digit()) {
        format!("unnamed_scenario_{}", index + 1)
    } else {
        snake.to_owned()
    }
}

fn to_snake(text: &str) -> String {
    let mut out = String::new();
    for ch in text.chars() {
        if ch.is_ascii_alphanumeric() {
            out.push(ch.to_ascii_lowercase());
        } else if !out.ends_with('_') && !out.is_empty() {
            out.push('_');
        }
    }
    out.trim_end_matches('_').to_owned()
}

/// Skips to the end of a broken item: through a `;` or a `{ ... }` group.
fn skip_item(c: &mut Cursor) {
    while let Some(t) = c.bump() {
        if is_punct(&t, ';') || is_group(&t, Delimiter::Brace) {
            break;
        }
        // The next item starts: a word of the top level (a word being typed stands alone).
        if c.peek().is_some_and(|n| {
            ident_str(n).is_some_and(|w| {
                SUITE_WORDS.contains(&w.as_str()) || SETTINGS.contains(&w.as_str())
            }) || is_punct(n, '#')
        }) {
            break;
        }
    }
}

/// `tools { search_hotels: SearchArgs, "book-hotel": BookArgs }`: a tool's name (an identifier
/// or a string) and the Rust type of its arguments.
fn parse_typed_tools(
    stream: TokenStream,
    span: Span,
    diag: &mut Diagnostics,
) -> Vec<super::TypedTool> {
    let mut c = Cursor::new(stream, span);
    let mut out: Vec<super::TypedTool> = Vec::new();
    while let Some(t) = c.bump() {
        if is_punct(&t, ',') {
            continue;
        }
        let (name, name_span) = match &t {
            TokenTree::Ident(i) => (i.to_string(), i.span()),
            TokenTree::Literal(l) => {
                match syn::parse2::<syn::LitStr>(TokenTree::Literal(l.clone()).into()) {
                    Ok(s) => (s.value(), l.span()),
                    Err(_) => (String::new(), l.span()),
                }
            }
            other => (String::new(), other.span()),
        };
        let colon = c.peek().is_some_and(|t| is_punct(t, ':'))
            && !c.peek_n(1).is_some_and(|t| is_punct(t, ':'));
        if name.is_empty() || !colon {
            diag.error(
                name_span,
                "expected a tool and the type of its arguments, like `tools { search_hotels: SearchArgs }`",
            );
            while c.peek().is_some_and(|t| !is_punct(t, ',')) {
                c.bump();
            }
            continue;
        }
        c.bump();
        // The type: up to a `,` outside `<..>`.
        let mut ty = TokenStream::new();
        let mut depth = 0usize;
        while let Some(t) = c.peek() {
            if is_punct(t, ',') && depth == 0 {
                break;
            }
            if is_punct(t, '<') {
                depth += 1;
            } else if is_punct(t, '>') {
                depth = depth.saturating_sub(1);
            }
            ty.extend(c.bump());
        }
        if ty.is_empty() {
            diag.error(
                name_span,
                format!("expected the type of `{name}`'s arguments after `:`"),
            );
        } else if out.iter().any(|t| t.name == name) {
            diag.error(name_span, format!("the tool `{name}` is declared twice"));
        } else {
            out.push(super::TypedTool {
                name,
                span: name_span,
                ty,
            });
        }
    }
    out
}

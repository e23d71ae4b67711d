//! `tools = "tools.json";` (or `tools = json!([...]);`): the agent's tools, declared as the
//! agent declares them to its model (OpenAI's tools list, Anthropic's `input_schema`, MCP's
//! `inputSchema`). Read at compile time, they make an unknown tool or argument name in a check
//! a compile error (with "did you mean"), and a literal of the wrong JSON type for an argument
//! too; the expansion hands them to the suite, which checks every call the agent made at run
//! time.

use std::path::PathBuf;

use proc_macro2::{Delimiter, Literal, Span, TokenStream, TokenTree};
use quote::quote;
use serde_json::{Map, Value};

use crate::diag::Diagnostics;
use crate::keywords::did_you_mean;
use crate::syntax::cursor::is_punct;
use crate::syntax::{SuiteAst, ToolsAst};
use crate::vocabulary::{Arg, WORDS};

/// A declared tool: its name and its arguments' schemas (`properties`), when declared.
pub(crate) struct Tool {
    pub(crate) name: String,
    pub(crate) properties: Option<Map<String, Value>>,
}

/// Where the declaration is: a file (its absolute path and text) or an inline literal.
enum Source {
    File {
        abs: PathBuf,
        text: String,
    },
    Inline(Value),
    /// Any other expression: known at run time only.
    Expr,
}

/// The declaration's source, or an error message.
fn source(t: &ToolsAst) -> Result<Source, String> {
    let tokens: Vec<TokenTree> = t.value.tokens.clone().into_iter().collect();
    match tokens.as_slice() {
        [TokenTree::Literal(l)] => {
            let Ok(lit) = syn::parse2::<syn::LitStr>(TokenTree::Literal(l.clone()).into()) else {
                return Err(
                    "`tools` is a file of the agent's tools (relative to the crate), like \
                     `tools = \"tests/tools.json\";`, or `tools = json!([...]);`"
                        .to_owned(),
                );
            };
            let Some(root) = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from) else {
                return Err("`tools` needs CARGO_MANIFEST_DIR: build with cargo".to_owned());
            };
            let abs = root.join(lit.value());
            match std::fs::read_to_string(&abs) {
                Ok(text) => Ok(Source::File { abs, text }),
                Err(e) => Err(format!(
                    "cannot read the tools file `{}` (relative to {}): {}",
                    lit.value(),
                    root.display(),
                    if e.kind() == std::io::ErrorKind::NotFound {
                        "no such file".to_owned()
                    } else {
                        e.to_string()
                    }
                )),
            }
        }
        [TokenTree::Ident(j), bang, TokenTree::Group(body)]
            if j == "json" && is_punct(bang, '!') =>
        {
            Ok(crate::json_lit::literal_json(&body.stream()).map_or(Source::Expr, Source::Inline))
        }
        _ => Ok(Source::Expr),
    }
}

/// The declared tools, when they can be known at compile time and are well-formed (errors are
/// reported by [`expand`]).
pub(crate) fn declared(suite: &SuiteAst) -> Option<Vec<Tool>> {
    let t = suite.tools.as_ref()?;
    if !t.typed.is_empty() {
        // Rust types: their names are known here, their arguments at run time.
        return Some(
            t.typed
                .iter()
                .map(|t| Tool {
                    name: t.name.clone(),
                    properties: None,
                })
                .collect(),
        );
    }
    let value = match source(t).ok()? {
        Source::File { text, .. } => serde_json::from_str(&text).ok()?,
        Source::Inline(v) => v,
        Source::Expr => return None,
    };
    parse(&value).ok()
}

/// The tools of a declaration (see the module), or what is wrong with it.
fn parse(value: &Value) -> Result<Vec<Tool>, String> {
    let list = match value {
        Value::Array(items) => items.as_slice(),
        Value::Object(o) => match o.get("tools") {
            Some(Value::Array(items)) => items.as_slice(),
            _ if o.contains_key("name") => std::slice::from_ref(value),
            _ => return Err("expected a list of tools, or an object with `tools`".to_owned()),
        },
        _ => return Err("expected a list of tools".to_owned()),
    };
    let mut tools: Vec<Tool> = Vec::new();
    for (i, item) in list.iter().enumerate() {
        let Value::Object(o) = item else {
            return Err(format!("tool {i}: expected an object"));
        };
        let inner = match o.get("function") {
            Some(Value::Object(f)) => f,
            Some(_) => return Err(format!("tool {i}: `function` is not an object")),
            None => o,
        };
        let name = match inner.get("name") {
            Some(Value::String(n)) if !n.is_empty() => n.clone(),
            _ => return Err(format!("tool {i}: a tool needs a `name` (text)")),
        };
        if tools.iter().any(|t| t.name == name) {
            return Err(format!("tool {i}: `{name}` is declared twice"));
        }
        let schema = ["parameters", "input_schema", "inputSchema"]
            .iter()
            .find_map(|k| inner.get(*k));
        let properties = match schema.and_then(|s| s.get("properties")) {
            Some(Value::Object(p)) => Some(p.clone()),
            _ => None,
        };
        tools.push(Tool { name, properties });
    }
    Ok(tools)
}

/// `.tools(..)` on the suite: the file's text through `include_str!` (an edit of the file
/// recompiles the tests), or the user's expression. Problems with the declaration are reported
/// on the setting's value.
pub(crate) fn expand(suite: &SuiteAst, diag: &mut Diagnostics) -> TokenStream {
    let Some(t) = suite.tools.as_ref() else {
        return TokenStream::new();
    };
    if t.typed.is_empty() && t.value.is_empty() {
        return TokenStream::new(); // `tools {}` with no valid entry: reported already
    }
    let name = proc_macro2::Ident::new("tools", t.name.span());
    if !t.typed.is_empty() {
        // Each type in a turbofish with its own span: an error about it is on the user's type.
        let entries = t.typed.iter().map(|tool| {
            let mut n = Literal::string(&tool.name);
            n.set_span(tool.span);
            let ty = &tool.ty;
            quote! { (#n, ::agent_test::__private::schema_of::<#ty> as fn() -> ::agent_test::serde_json::Value) }
        });
        return quote! { .#name(::agent_test::__private::typed_tools(&[#(#entries),*])) };
    }
    let value = t.value.braced();
    let orphan = quote! { let _ = #value; };
    let problem = match source(t) {
        Err(e) => Some(e),
        Ok(Source::File { abs, text }) => {
            let problem = match serde_json::from_str::<Value>(&text) {
                Err(e) => Some(format!("the tools file is not JSON: {e}")),
                Ok(v) => parse(&v).err().map(|e| format!("the tools file: {e}")),
            };
            if problem.is_none() {
                let mut path = Literal::string(&abs.to_string_lossy());
                path.set_span(t.value.span);
                return quote! {
                    .#name(::agent_test::__private::tools_file(::core::include_str!(#path)))
                };
            }
            problem
        }
        Ok(Source::Inline(v)) => parse(&v).err().map(|e| format!("declared tools: {e}")),
        Ok(Source::Expr) => None,
    };
    match problem {
        Some(e) => {
            diag.error(t.value.span, e);
            // The value is still emitted (unused), so the editor keeps helping inside it.
            quote! { .tools({ #orphan ::agent_test::serde_json::Value::Null }) }
        }
        None => quote! { .#name(#value) },
    }
}

/// Checks the tool and argument names and argument literals of a check against the declared
/// tools.
pub(crate) fn check(tokens: &TokenStream, tools: &[Tool], diag: &mut Diagnostics) {
    let tokens: Vec<TokenTree> = tokens.clone().into_iter().collect();
    for (i, t) in tokens.iter().enumerate() {
        if let TokenTree::Group(g) = t {
            check(&g.stream(), tools, diag);
        }
        let TokenTree::Ident(callee) = t else {
            continue;
        };
        let Some(TokenTree::Group(args)) = tokens.get(i + 1) else {
            continue;
        };
        if args.delimiter() != Delimiter::Parenthesis {
            continue;
        }
        let callee = callee.to_string();
        if i > 0 && tokens.get(i - 1).is_some_and(|p| is_punct(p, '.')) {
            // Trajectory options naming a tool.
            if WORDS.takes(&callee, Arg::ToolOption)
                && let Some((name, span)) = first_string(&args.stream())
            {
                known_tool(&name, span, tools, diag);
            }
            continue;
        }
        match callee.as_str() {
            c if WORDS.takes(c, Arg::Tool) => {
                let Some((name, span)) = first_string(&args.stream()) else {
                    continue;
                };
                let Some(tool) = known_tool(&name, span, tools, diag) else {
                    continue;
                };
                if callee != "no_tool" {
                    check_chain(tool, tokens.get(i + 2..).unwrap_or_default(), diag);
                }
            }
            c if WORDS.takes(c, Arg::ToolList) => {
                for (name, span) in string_list(&args.stream()) {
                    known_tool(&name, span, tools, diag);
                }
            }
            _ => {}
        }
    }
}

/// The declared tool named `name`, else an error at `span` with the closest name.
fn known_tool<'a>(
    name: &str,
    span: Span,
    tools: &'a [Tool],
    diag: &mut Diagnostics,
) -> Option<&'a Tool> {
    if let Some(t) = tools.iter().find(|t| t.name == name) {
        return Some(t);
    }
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    diag.error(
        span,
        format!(
            "unknown tool `{name}`{} (declared tools: {})",
            did_you_mean(name, &names).map_or(String::new(), |c| format!("; did you mean `{c}`?")),
            quoted(&names)
        ),
    );
    None
}

/// `.arg("name", value)` and `.args(json!({..}))` after `tool("x")`: the names against the
/// tool's declared arguments, literal values against their JSON types.
fn check_chain(tool: &Tool, rest: &[TokenTree], diag: &mut Diagnostics) {
    let Some(properties) = &tool.properties else {
        return;
    };
    let mut i = 0;
    while let (Some(dot), Some(TokenTree::Ident(method)), Some(TokenTree::Group(g))) =
        (rest.get(i), rest.get(i + 1), rest.get(i + 2))
    {
        if !is_punct(dot, '.') || g.delimiter() != Delimiter::Parenthesis {
            break;
        }
        i += 3;
        let args = split_args(&g.stream());
        if method == "arg" {
            let Some((name, span)) = args.first().and_then(|a| string_lit(a)) else {
                continue;
            };
            let value = args.get(1).map(Vec::as_slice).unwrap_or_default();
            check_arg(tool, properties, &name, span, value, diag);
        } else if method == "args"
            && let Some([TokenTree::Ident(j), bang, TokenTree::Group(body)]) =
                args.first().map(Vec::as_slice)
            && j == "json"
            && is_punct(bang, '!')
        {
            // `json!({"key": value, ..})`: each key, and each literal value.
            for t in body.stream() {
                let TokenTree::Group(obj) = t else { continue };
                if obj.delimiter() != Delimiter::Brace {
                    continue;
                }
                for entry in split_args(&obj.stream()) {
                    if let [key @ TokenTree::Literal(_), colon, value @ ..] = entry.as_slice()
                        && is_punct(colon, ':')
                        && let Some((name, span)) = string_lit(std::slice::from_ref(key))
                    {
                        check_arg(tool, properties, &name, span, value, diag);
                    }
                }
            }
        }
    }
}

fn check_arg(
    tool: &Tool,
    properties: &Map<String, Value>,
    name: &str,
    span: Span,
    value: &[TokenTree],
    diag: &mut Diagnostics,
) {
    // A dot path (`address.city`) names nested arguments: each segment where it is declared.
    let mut props = properties;
    let mut schema = None;
    let mut seen = Vec::new();
    for segment in name.split('.') {
        let Some(s) = props.get(segment) else {
            let names: Vec<&str> = props.keys().map(String::as_str).collect();
            let of = if seen.is_empty() {
                format!("`{}`", tool.name)
            } else {
                format!("`{}` of `{}`", seen.join("."), tool.name)
            };
            diag.error(
                span,
                format!(
                    "{of} has no argument `{segment}`{} (its arguments: {})",
                    did_you_mean(segment, &names)
                        .map_or(String::new(), |c| format!("; did you mean `{c}`?")),
                    quoted(&names)
                ),
            );
            return;
        };
        seen.push(segment);
        schema = Some(s);
        match s.get("properties") {
            Some(Value::Object(p)) => props = p,
            _ => break,
        }
    }
    let Some(schema) = schema else { return };
    if seen.len() < name.split('.').count() {
        return; // deeper than the schema says: known at run time only
    }
    let Some((kind, shown)) = literal_kind(value) else {
        return;
    };
    let allowed: Vec<&str> = match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let fits = |k: &str| allowed.contains(&k) || k == "integer" && allowed.contains(&"number");
    if !allowed.is_empty() && !fits(kind.as_str()) {
        let span = value.last().map_or(span, TokenTree::span);
        diag.error(
            span,
            format!(
                "argument `{name}` of `{}` is {} in the declared tools, not {}",
                tool.name,
                allowed
                    .iter()
                    .map(|t| a_type(t))
                    .collect::<Vec<_>>()
                    .join(" or "),
                a_type(&kind),
            ),
        );
        return;
    }
    if let (Some(Value::Array(options)), Some(v)) = (schema.get("enum"), shown)
        && !options.contains(&v)
    {
        let span = value.last().map_or(span, TokenTree::span);
        diag.error(
            span,
            format!(
                "argument `{name}` of `{}` is one of {} in the declared tools, not {v}",
                tool.name,
                options
                    .iter()
                    .map(Value::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
    }
}

/// "a string", "an integer", ...
fn a_type(t: &str) -> String {
    match t {
        "string" => "a string".to_owned(),
        "integer" => "an integer".to_owned(),
        "number" => "a number".to_owned(),
        "boolean" => "a boolean".to_owned(),
        "array" => "an array".to_owned(),
        "object" => "an object".to_owned(),
        other => other.to_owned(),
    }
}

/// The JSON type of a literal expected value (and the value, when it can be compared with an
/// `enum`): a string, number or boolean literal, `-` number, or a literal `json!(..)`.
fn literal_kind(tokens: &[TokenTree]) -> Option<(String, Option<Value>)> {
    let value = match tokens {
        [TokenTree::Ident(b)] if b == "true" || b == "false" => Value::Bool(b == "true"),
        [TokenTree::Literal(_)] => {
            crate::json_lit::literal_json(&tokens.iter().cloned().collect())?
        }
        [TokenTree::Punct(m), TokenTree::Literal(_)] if m.as_char() == '-' => {
            crate::json_lit::literal_json(&tokens.iter().cloned().collect())?
        }
        [TokenTree::Ident(j), bang, TokenTree::Group(body)]
            if j == "json" && is_punct(bang, '!') =>
        {
            crate::json_lit::literal_json(&body.stream())?
        }
        _ => return None,
    };
    let kind = match &value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    Some((kind.to_owned(), Some(value)))
}

fn quoted(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A call's arguments, split at top-level commas.
fn split_args(args: &TokenStream) -> Vec<Vec<TokenTree>> {
    let mut out = vec![Vec::new()];
    for t in args.clone() {
        if is_punct(&t, ',') {
            out.push(Vec::new());
        } else if let Some(last) = out.last_mut() {
            last.push(t);
        }
    }
    if out.last().is_some_and(Vec::is_empty) {
        out.pop();
    }
    out
}

/// A lone string literal's value and span.
fn string_lit(tokens: &[TokenTree]) -> Option<(String, Span)> {
    let [TokenTree::Literal(l)] = tokens else {
        return None;
    };
    let lit = syn::parse2::<syn::LitStr>(TokenTree::Literal(l.clone()).into()).ok()?;
    Some((lit.value(), l.span()))
}

/// The first argument, when it is a string literal.
fn first_string(args: &TokenStream) -> Option<(String, Span)> {
    split_args(args).first().and_then(|a| string_lit(a))
}

/// The string literals of `[..]` (or `vec![..]`) given as the first argument.
fn string_list(args: &TokenStream) -> Vec<(String, Span)> {
    let first = split_args(args).into_iter().next().unwrap_or_default();
    let group = first.iter().find_map(|t| match t {
        TokenTree::Group(g) if g.delimiter() == Delimiter::Bracket => Some(g.stream()),
        _ => None,
    });
    group
        .map(|g| {
            split_args(&g)
                .iter()
                .filter_map(|a| string_lit(a))
                .collect()
        })
        .unwrap_or_default()
}

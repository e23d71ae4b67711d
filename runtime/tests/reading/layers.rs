//! The layers inside each crate run one way (docs/architecture.md): every `crate::…` path in
//! the core's, the readers', the network crate's and the runtime's sources names a module of the same layer or of one below, the
//! top-level modules import each other in no cycle, and nothing below the facade names the
//! crate root's re-exports. Between the crates the compiler keeps the order (the core cannot
//! name the runtime); this test keeps it inside each, where the compiler does not.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A crate's layers, lowest first, and the top-level modules (files or directories of its
/// `src`) that make each; `a/b` names the submodule `b` of `a`, on a layer of its own.
type Layers = &'static [(&'static str, &'static [&'static str])];

/// The core's layers. Keep in step with docs/architecture.md.
const CORE: Layers = &[
    ("util", &["util"]),
    ("model", &["model"]),
    // Values compared: expressions, clocks, paths, diffs of JSON.
    ("comparison", &["compare"]),
    // The view of a transcript the checks read; the evaluation, which builds it, is above them.
    ("context", &["evaluate/context"]),
    ("checks", &["matcher", "check"]),
    ("evaluation", &["evaluate", "scenario"]),
    ("facade", &["lib"]),
];

/// The readers' layers: traces, the seed formats (which read traces), the loader (which reads
/// both).
const READERS: Layers = &[
    ("traces", &["trace"]),
    ("formats", &["formats"]),
    ("loading", &["load"]),
    ("facade", &["lib"]),
];

/// The network crate's layers: the OTLP receiver (an HTTP agent merges what it received), the
/// agents (and their wire helpers), then what builds on them — the judge's clients, cassettes,
/// HTTP steps.
const NETWORK: Layers = &[
    ("receivers", &["otlp"]),
    ("agents", &["agent"]),
    ("clients", &["judge", "cassette", "request"]),
    ("facade", &["lib"]),
];

/// The runtime's layers. Its modules name the lower crates' as `agent_test_core::…`,
/// `agent_test_readers::…` and `agent_test_network::…` (the compiler keeps those crates
/// below); `crate::model` and the like are the facade's re-exports, which nothing below the
/// facade names.
const RUNTIME: Layers = &[
    ("run and reports", &["run", "report", "mutate", "snapshot"]),
    ("facade", &["lib"]),
];

fn layer_of(layers: Layers, module: &str) -> Option<usize> {
    layers.iter().position(|(_, ms)| ms.contains(&module))
}

/// The module a path (`a/b`: its first two segments) or a file (`a/b.rs`) is on the layers as:
/// `a/b` when a layer names that submodule, else `a`.
fn module_of(layers: Layers, path: &str) -> String {
    let first = path.split('/').next().unwrap_or(path);
    if layer_of(layers, path).is_some() {
        path.to_owned()
    } else {
        first.to_owned()
    }
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read the source directory") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file without comments (doc examples name the crate by its name, never
/// `crate::`) and without the contents of string and char literals (raw strings included), so
/// that what is left of braces and paths is code.
fn code(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let prev_is_ident = out
            .chars()
            .next_back()
            .is_some_and(|p| p.is_alphanumeric() || p == '_');
        match c {
            '/' if next == Some('/') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
                continue;
            }
            '/' if next == Some('*') => {
                // Block comments nest.
                let mut depth = 0usize;
                while i < chars.len() {
                    if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                        depth += 1;
                        i += 2;
                    } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
                continue;
            }
            '"' => {
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
                out.push_str("\"\"");
                i += 1;
                continue;
            }
            // A raw string: `r"…"`, `r#"…"#`, `br#"…"#`; its quotes and backslashes are text.
            'r' if !prev_is_ident || out.ends_with('b') => {
                let hashes = chars[i + 1..].iter().take_while(|&&h| h == '#').count();
                if chars.get(i + 1 + hashes) == Some(&'"') {
                    let body = i + 2 + hashes;
                    let close: String = std::iter::once('"')
                        .chain(std::iter::repeat_n('#', hashes))
                        .collect();
                    let rest: String = chars[body..].iter().collect();
                    let len = rest.find(&close).map_or(rest.len(), |e| e + close.len());
                    i = body + rest[..len].chars().count();
                    out.push_str("\"\"");
                    continue;
                }
            }
            // A char literal (`'{'`, `'"'`, `'\''`), not a lifetime (`'a`).
            '\'' if next == Some('\\') => {
                let close = chars[i + 3..].iter().position(|&q| q == '\'');
                i = close.map_or(chars.len(), |p| i + 3 + p + 1);
                out.push_str("''");
                continue;
            }
            '\'' if chars.get(i + 2) == Some(&'\'') => {
                i += 3;
                out.push_str("''");
                continue;
            }
            _ => {}
        }
        out.push(c);
        i += 1;
    }
    out
}

/// How many modules down from the crate root a file's module is: `lib.rs` 0, `model.rs` and
/// `model/mod.rs` 1, `model/turn.rs` 2.
fn file_depth(rel: &Path) -> usize {
    let parts = rel.components().count();
    match rel.file_name().and_then(|n| n.to_str()) {
        Some("mod.rs") => parts - 1,
        Some("lib.rs") if parts == 1 => 0,
        _ => parts,
    }
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The identifier at the start of `s`.
fn ident(s: &str) -> &str {
    &s[..s.find(|c: char| !is_ident(c)).unwrap_or(s.len())]
}

/// Reads the path or use tree at the start of `s` (`crate::a::{b::{c, d}, e as f, g::*}`), adding
/// every full path it names to `out` (`crate a b c`, `crate a b d`, `crate a e`, `crate a g *`),
/// each after `prefix`. Returns how many bytes it read, or `None` if `s` is not one.
fn use_tree(s: &str, prefix: &[String], out: &mut Vec<Vec<String>>) -> Option<usize> {
    if s.starts_with('*') {
        out.push([prefix, &["*".to_owned()]].concat());
        return Some(1);
    }
    if s.starts_with('{') {
        return group(s, prefix, out);
    }
    let name = ident(s);
    if name.is_empty() {
        return None;
    }
    let path = [prefix, &[name.to_owned()]].concat();
    let after = &s[name.len()..];
    if let Some(rest) = after.strip_prefix("::") {
        if rest.starts_with('<') {
            // A turbofish: the path ends here.
            out.push(path);
            return Some(name.len());
        }
        if let Some(n) = use_tree(rest, &path, out) {
            return Some(name.len() + 2 + n);
        }
    }
    out.push(path);
    Some(name.len())
}

/// A `{ tree, tree as alias, * }` group at the start of `s`, each tree after `prefix`.
fn group(s: &str, prefix: &[String], out: &mut Vec<Vec<String>>) -> Option<usize> {
    let mut at = 1; // past `{`
    let skip_ws = |at: usize| at + (s[at..].len() - s[at..].trim_start().len());
    loop {
        at = skip_ws(at);
        if s[at..].starts_with('}') {
            return Some(at + 1);
        }
        at += use_tree(&s[at..], prefix, out)?;
        at = skip_ws(at);
        if let Some(rest) = s[at..].strip_prefix("as") {
            let alias = rest.trim_start();
            at = s.len() - alias.len() + ident(alias).len();
            at = skip_ws(at);
        }
        match s[at..].chars().next() {
            Some(',') => at += 1,
            Some('}') => return Some(at + 1),
            _ => return None,
        }
    }
}

/// The top-level module a full path names, if it reaches the crate root from a module `depth`
/// modules down, with the segment after it: `crate::model::Turn` → `model/Turn`;
/// `super::super::model` from depth 2 → `model`;
/// `super::x` from depth 2 stays inside the file's own top-level module (`None`).
fn top_level(path: &[String], depth: usize) -> Option<String> {
    let first = match path.first()?.as_str() {
        "crate" => 1,
        "super" => {
            let climbs = path.iter().take_while(|p| *p == "super").count();
            if climbs != depth {
                return None;
            }
            climbs
        }
        _ => return None,
    };
    let module = path.get(first).filter(|m| *m != "*" && *m != "self")?;
    Some(
        match path.get(first + 1).filter(|m| *m != "*" && *m != "self") {
            Some(sub) => format!("{module}/{sub}"),
            None => module.clone(),
        },
    )
}

/// The top-level modules (with the segment after each: `model/Turn`) named by the paths of a file's `code` that reach the crate root:
/// `crate::…` paths and `super::…` paths that climb all the way up (counting the inline modules,
/// `mod tests { .. }`, the path is written in), use groups at any depth
/// (`crate::{a::{b, c}, d}` → `a`, `d`). `depth` is the file's [`file_depth`].
fn root_paths(code: &str, depth: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut braces = 0usize;
    // The brace depth inside each inline module the scan is in.
    let mut inline: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < code.len() {
        let rest = &code[i..];
        let c = rest.chars().next().expect("in bounds");
        if c == '{' {
            braces += 1;
        } else if c == '}' {
            if inline.last() == Some(&braces) {
                inline.pop();
            }
            braces = braces.saturating_sub(1);
        } else if is_ident(c) {
            let word = ident(rest);
            // `$crate::` in a macro is the defining crate, not a path of this module.
            let after_dollar = code[..i].ends_with('$');
            match word {
                "mod" => {
                    let decl = rest[3..].trim_start();
                    let name = ident(decl);
                    if !name.is_empty() && decl[name.len()..].trim_start().starts_with('{') {
                        inline.push(braces + 1);
                    }
                }
                "crate" | "super" if !after_dollar => {
                    let mut paths = Vec::new();
                    if let Some(n) = use_tree(rest, &[], &mut paths) {
                        out.extend(
                            paths
                                .iter()
                                .filter_map(|p| top_level(p, depth + inline.len())),
                        );
                        i += n;
                        continue;
                    }
                }
                _ => {}
            }
            i += word.len();
            continue;
        }
        i += c.len_utf8();
    }
    out
}

#[test]
fn imports_never_go_up_a_layer_and_modules_form_no_cycle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut problems = layering(&root.join("../core/src"), CORE);
    problems.extend(layering(&root.join("../readers/src"), READERS));
    problems.extend(layering(&root.join("../network/src"), NETWORK));
    problems.extend(layering(&root.join("src"), RUNTIME));
    assert!(
        problems.is_empty(),
        "layering broken:\n{}",
        problems.join("\n")
    );
}

/// What breaks `layers` in the crate whose sources are under `src`: paths up a layer, modules
/// on no layer, the root's re-exports named below the facade, import cycles.
fn layering(src: &Path, layers: Layers) -> Vec<String> {
    // Problems name files from the workspace (`core/src/model/turn.rs`): crates share module names.
    let crate_dir = src
        .parent()
        .and_then(Path::file_name)
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let mut files = Vec::new();
    sources(src, &mut files);
    files.sort();
    let mut problems = Vec::new();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let rel = file.strip_prefix(src).expect("under src");
        let shown = format!("{crate_dir}/src/{}", rel.display());
        let parts: Vec<&str> = rel
            .components()
            .take(2)
            .filter_map(|c| c.as_os_str().to_str())
            .map(|s| s.trim_end_matches(".rs"))
            .collect();
        let module = module_of(layers, &parts.join("/"));
        let Some(layer) = layer_of(layers, &module) else {
            problems.push(format!(
                "{shown}: module `{module}` is on no layer (add it to its crate's layers and \
                 docs/architecture.md)"
            ));
            continue;
        };
        let text = std::fs::read_to_string(file).expect("read a source file");
        for path in root_paths(&code(&text), file_depth(rel)) {
            let target = module_of(layers, &path);
            if target == module {
                continue;
            }
            match layer_of(layers, &target) {
                Some(t) if t > layer => problems.push(format!(
                    "{shown}: `crate::{target}` goes up from {} to {}",
                    layers[layer].0, layers[t].0
                )),
                Some(_) => {
                    edges.entry(module.clone()).or_default().insert(target);
                }
                // Not a module: a re-export of the crate root (the facade), or a macro.
                None if layer + 1 < layers.len() && target != "__private" => {
                    problems.push(format!(
                        "{shown}: `crate::{target}` names the crate root's re-export; name \
                         the module that defines it"
                    ))
                }
                None => {}
            }
        }
    }
    // No cycle among top-level modules (within a layer too).
    let mut done = BTreeSet::new();
    for start in edges.keys() {
        let mut path = vec![start.clone()];
        if let Some(cycle) = find_cycle(start, &edges, &mut path, &mut done) {
            problems.push(format!(
                "import cycle in {crate_dir}: {}",
                cycle.join(" -> ")
            ));
            break;
        }
    }
    problems
}

/// A cycle through `at`, depth first (the module graph is a few dozen nodes).
fn find_cycle(
    at: &str,
    edges: &BTreeMap<String, BTreeSet<String>>,
    path: &mut Vec<String>,
    done: &mut BTreeSet<String>,
) -> Option<Vec<String>> {
    if done.contains(at) {
        return None;
    }
    for next in edges.get(at).into_iter().flatten() {
        if let Some(i) = path.iter().position(|p| p == next) {
            let mut cycle = path[i..].to_vec();
            cycle.push(next.clone());
            return Some(cycle);
        }
        path.push(next.clone());
        if let Some(c) = find_cycle(next, edges, path, done) {
            return Some(c);
        }
        path.pop();
    }
    done.insert(at.to_owned());
    None
}

/// The top-level modules alone (the readers' tests ask for them).
#[cfg(test)]
fn tops(code: &str, depth: usize) -> Vec<String> {
    root_paths(code, depth)
        .into_iter()
        .map(|p| p.split('/').next().unwrap_or_default().to_owned())
        .collect()
}

#[test]
fn the_reader_sees_paths_and_skips_comments_and_strings() {
    let text = "use crate::model::Turn; // crate::run\nlet s = \"crate::report\";\nuse crate::{a::b, c};\n$crate::x";
    assert_eq!(tops(&code(text), 1), ["model", "a", "c"]);
    let literals = "let q = '\"'; let b = '{'; let e = '\\''; let r = r#\"crate::run \"{\"#; /* crate::judge /* nested */ crate::report */ use crate::model;";
    assert_eq!(tops(&code(literals), 1), ["model"]);
}

#[test]
fn the_reader_sees_nested_use_groups() {
    let text = "use crate::{\n    check::{Check, tool::{ToolCheck, tool}},\n    model::Turn,\n    util::text as t,\n    formats::*,\n};\nuse crate::{self as root, run};";
    assert_eq!(
        tops(&code(text), 2),
        ["check", "check", "check", "model", "util", "formats", "run"]
    );
    // A path in code, with a turbofish, is read up to its first segment too.
    assert_eq!(tops("let x = crate::load::read::<Value>(p);", 1), ["load"]);
}

#[test]
fn the_reader_follows_super_paths_to_the_top_level() {
    // From `check/tool.rs` (depth 2): `super::super::` is the crate root, `super::` is `check`.
    let nested = "use super::super::run::Suite;\nuse super::{EvalContext, count::Count};\nuse super::super::{judge::Grade, model::{Call, Turn}};";
    assert_eq!(tops(&code(nested), 2), ["run", "judge", "model", "model"]);
    // From `check/mod.rs` or `evaluate.rs` (depth 1), one `super::` is the root.
    assert_eq!(
        tops("use super::{report, model::Turn};", 1),
        ["report", "model"]
    );
    // Inside an inline module, one more `super::` is needed to climb out of the file.
    let inline = "mod tests {\n    use super::evaluate;\n    use super::super::run::Suite;\n    fn f() { if true { let x = '}'; } }\n}\nuse super::judge;";
    assert_eq!(tops(&code(inline), 1), ["run", "judge"]);
    // `pub(super)` and `pub(crate)` name no module.
    assert!(tops("pub(super) fn f() {} pub(crate) struct S;", 1).is_empty());
    assert_eq!(file_depth(Path::new("lib.rs")), 0);
    assert_eq!(file_depth(Path::new("check/mod.rs")), 1);
    assert_eq!(file_depth(Path::new("check/tool.rs")), 2);
    assert_eq!(file_depth(Path::new("evaluate.rs")), 1);
}

#[test]
fn a_submodule_on_a_layer_of_its_own_is_told_from_its_parent() {
    assert_eq!(
        root_paths(
            "use crate::evaluate::context::EvalContext; use crate::evaluate::evaluate;",
            1
        ),
        ["evaluate/context", "evaluate/evaluate"]
    );
    assert_eq!(module_of(CORE, "evaluate/context"), "evaluate/context");
    assert_eq!(module_of(CORE, "evaluate/evaluate"), "evaluate");
    assert_eq!(module_of(CORE, "check/tool"), "check");
    assert!(layer_of(CORE, "evaluate/context") < layer_of(CORE, "check"));
}

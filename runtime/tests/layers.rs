//! The runtime's layers run one way (docs/architecture.md): every `crate::…` path in the
//! runtime's sources names a module of the same layer or of one below, the top-level modules
//! import each other in no cycle, and nothing below the facade names the crate root's
//! re-exports. This test reads the sources, so an import that goes up fails `cargo test`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, lowest first, and the top-level modules (files or directories of
/// `runtime/src`) that make each. Keep in step with docs/architecture.md.
const LAYERS: &[(&str, &[&str])] = &[
    ("util", &["util"]),
    ("model", &["model"]),
    (
        "checks",
        &[
            "assign",
            "pattern",
            "literal",
            "path",
            "schema",
            "clock",
            "expression",
            "matcher",
            "check",
        ],
    ),
    ("evaluation", &["evaluate", "scenario"]),
    (
        "edges",
        &["agent", "trace", "judge", "formats", "load", "request"],
    ),
    ("run and reports", &["run", "report"]),
    ("facade", &["lib", "closed_forms"]),
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|(_, ms)| ms.contains(&module))
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
/// `crate::`) and without the contents of string literals.
fn code(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let (mut in_string, mut escaped) = (false, false);
    while let Some(c) = chars.next() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => {
                    in_string = false;
                    out.push('"');
                }
                _ => {}
            }
            continue;
        }
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '"' => {
                in_string = true;
                out.push('"');
            }
            // A char literal holding a quote (`'"'`) is not a string.
            '\'' if chars.peek() == Some(&'"') => {
                out.push('\'');
                out.push('"');
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out
}

/// The first segments of every path after `crate::` (`crate::model::Turn` → `model`,
/// `crate::{a::b, c}` → `a`, `c`).
fn crate_paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        let before = rest[..i].chars().next_back();
        rest = &rest[i + "crate::".len()..];
        // `$crate::`, `agent_test_runtime::crate_x`: not this crate's path.
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let first: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !first.is_empty() {
                    out.push(first);
                }
            }
        } else {
            let first: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            out.push(first);
        }
    }
    out
}

#[test]
fn imports_never_go_up_a_layer_and_modules_form_no_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    files.sort();
    let mut problems = Vec::new();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let rel = file.strip_prefix(&src).expect("under src");
        let module = rel
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .map(|s| s.trim_end_matches(".rs").to_owned())
            .expect("a module");
        let Some(layer) = layer_of(&module) else {
            problems.push(format!(
                "{}: module `{module}` is on no layer (add it to LAYERS and docs/architecture.md)",
                rel.display()
            ));
            continue;
        };
        let text = std::fs::read_to_string(file).expect("read a source file");
        for target in crate_paths(&code(&text)) {
            if target == module {
                continue;
            }
            match layer_of(&target) {
                Some(t) if t > layer => problems.push(format!(
                    "{}: `crate::{target}` goes up from {} to {}",
                    rel.display(),
                    LAYERS[layer].0,
                    LAYERS[t].0
                )),
                Some(_) => {
                    edges.entry(module.clone()).or_default().insert(target);
                }
                // Not a module: a re-export of the crate root (the facade), or a macro.
                None if layer + 1 < LAYERS.len() && target != "__private" => {
                    problems.push(format!(
                        "{}: `crate::{target}` names the crate root's re-export; name the \
                         module that defines it",
                        rel.display()
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
            problems.push(format!("import cycle: {}", cycle.join(" -> ")));
            break;
        }
    }
    assert!(
        problems.is_empty(),
        "layering broken:\n{}",
        problems.join("\n")
    );
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

#[test]
fn the_reader_sees_paths_and_skips_comments_and_strings() {
    let text = "use crate::model::Turn; // crate::run\nlet s = \"crate::report\";\nuse crate::{a::b, c};\n$crate::x";
    assert_eq!(crate_paths(&code(text)), ["model", "a", "c"]);
}

//! Compile-fail tests of `agent_test!`: every `tests/ui/<case>.rs` must fail to compile with
//! exactly the diagnostics its `<case>.stderr` lists, each on the user's span.
//!
//! The cases are compiled as *test* targets of a throw-away package (`cargo check --tests`), so
//! `#[test]` bodies — scenario bodies — are type-checked, and errors inside them are covered.
//! Diagnostics are read as JSON and written in a normalised form: the level, code and message,
//! the primary spans with their labels, and the notes without a span (the `note` of an
//! `#[diagnostic::on_unimplemented]`, for instance). What differs from one compiler version to
//! the next is left out — rendering, lists of other implementations, `help` suggestions,
//! "required by" notes pointing into the library — so the same expectations hold on the MSRV
//! (1.88) and on stable.
//!
//! A case whose diagnostics still differ on some compiler version keeps them for that version
//! in `<case>.<major>.<minor>.stderr` next to the generic `<case>.stderr`; the runner takes the
//! file of the running compiler's version when there is one. After an intended change, rewrite
//! the expectations (the version's own file if it exists, else the generic one) and review the
//! diff:
//!
//! ```text
//! UPDATE_UI=1 cargo test --test ui
//! ```

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

#[test]
fn ui() {
    run_suite("ui", "tests/ui", &features(&[]));
}

/// Without agent-test's features: what a feature gives is an error naming it, on the user's
/// call (`schema(..)` without `schema`, `HttpAgent` without `http`, `files` without `files`).
#[test]
fn ui_lean() {
    run_suite("ui_lean", "tests/ui_lean", &[]);
}

/// `files "..."`: a malformed test file is a compile error naming the file and the field.
#[cfg(feature = "files")]
#[test]
fn ui_files() {
    run_suite("ui_files", "tests/ui_files", &features(&["files"]));
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The features the cases are compiled with: every check and agent (whatever this test build
/// has, so that a case's errors do not depend on how the suite was invoked), plus `extra`.
fn features(extra: &[&str]) -> Vec<String> {
    ["schema", "jsonpath", "jmespath", "yaml", "http", "schemars"]
        .iter()
        .chain(extra)
        .map(|s| (*s).to_owned())
        .collect()
}

/// Compiles each case of `dir` against agent-test with exactly `features` (no defaults).
fn run_suite(name: &str, dir: &str, features: &[String]) {
    let repo = repo();
    let mut cases: Vec<String> = std::fs::read_dir(repo.join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    cases.sort();
    assert!(!cases.is_empty(), "no UI case in {dir}");

    // The package lives at `<repo>/target/ui/<name>` whatever the target directory, so the paths
    // the cases give relative to the crate (`files "../../../tests/..."`) are stable.
    let project = repo.join("target").join("ui").join(name);
    std::fs::create_dir_all(&project).unwrap_or_else(|e| panic!("{}: {e}", project.display()));
    let mut manifest = format!(
        "[package]\nname = \"agent-test-ui-{}\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\
         publish = false\nautobins = false\nautotests = false\nautoexamples = false\n\
         autobenches = false\n\n[workspace]\n\n[dependencies]\n\
         agent-test = {{ path = {:?}, default-features = false, features = {:?} }}\n",
        name.replace('_', "-"),
        repo.display().to_string(),
        features,
    );
    for case in &cases {
        let path = repo.join(dir).join(format!("{case}.rs"));
        let _ = write!(
            manifest,
            "\n[[test]]\nname = {case:?}\npath = {:?}\n",
            path.display().to_string()
        );
    }
    write_if_changed(&project.join("Cargo.toml"), &manifest);
    if let Ok(lock) = std::fs::read_to_string(repo.join("Cargo.lock")) {
        write_if_changed(&project.join("Cargo.lock"), &lock);
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| repo.join("target"), PathBuf::from)
        .join("ui-build");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args([
            "check",
            "--tests",
            "--keep-going",
            "--offline",
            "--quiet",
            "--message-format=json",
        ])
        .current_dir(&project)
        .env("CARGO_TARGET_DIR", &target)
        .env("CARGO_INCREMENTAL", "0")
        .env_remove("RUSTFLAGS")
        .output()
        .unwrap_or_else(|e| panic!("cannot run cargo: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);

    let mut found: BTreeMap<String, String> = BTreeMap::new();
    for line in stdout.lines() {
        let Ok(m) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if m["reason"] != "compiler-message" {
            continue;
        }
        let case = m["target"]["name"].as_str().unwrap_or_default().to_owned();
        if let Some(text) = normalise(&m["message"], &repo) {
            found.entry(case).or_default().push_str(&text);
        }
    }

    let version = rustc_version();
    let update = std::env::var_os("UPDATE_UI").is_some_and(|v| !v.is_empty() && v != "0");
    let mut problems = Vec::new();
    for case in &cases {
        let actual = found.get(case).cloned().unwrap_or_default();
        let generic = repo.join(dir).join(format!("{case}.stderr"));
        let own = version
            .as_ref()
            .map(|v| repo.join(dir).join(format!("{case}.{v}.stderr")))
            .filter(|p| p.exists());
        let path = own.unwrap_or(generic);
        if actual.is_empty() {
            problems.push(format!(
                "{dir}/{case}.rs compiles: a UI case must fail to compile"
            ));
            continue;
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_default();
        if expected == actual {
            continue;
        }
        if update {
            std::fs::write(&path, &actual).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            eprintln!("updated {}", path.display());
            continue;
        }
        problems.push(format!(
            "{} differs:\n--- expected\n{expected}--- actual\n{actual}",
            path.display()
        ));
    }
    if found.is_empty() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        panic!("cargo reported no diagnostic at all:\n{stderr}");
    }
    assert!(
        problems.is_empty(),
        "{} of {} UI cases differ (rewrite with UPDATE_UI=1 and review):\n\n{}",
        problems.len(),
        cases.len(),
        problems.join("\n")
    );
}

/// One diagnostic in the normalised form, or `None` for the summaries ("aborting due to ..").
fn normalise(m: &Value, repo: &Path) -> Option<String> {
    let level = m["level"].as_str()?;
    let message = m["message"].as_str()?;
    let spans = m["spans"].as_array().cloned().unwrap_or_default();
    if spans.is_empty() && (message.starts_with("aborting due to") || level == "failure-note") {
        return None;
    }
    if message.contains("warning emitted") || message.contains("warnings emitted") {
        return None;
    }
    let code = m["code"]["code"]
        .as_str()
        .map_or_else(String::new, |c| format!("[{c}]"));
    let dir = repo.display().to_string();
    let mut out = format!("{level}{code}: {}\n", message.replace(&dir, "$DIR"));
    for s in spans.iter().filter(|s| s["is_primary"] == true) {
        let file = s["file_name"].as_str().unwrap_or_default();
        let file = file
            .strip_prefix(&dir)
            .map_or(file, |f| f.trim_start_matches('/'));
        let _ = writeln!(
            out,
            "  --> {file}:{}:{}",
            s["line_start"], s["column_start"]
        );
        // The source line and the span under it (its first line only).
        if let Some(line) = s["text"].get(0) {
            let text = line["text"].as_str().unwrap_or_default();
            let start = line["highlight_start"].as_u64().unwrap_or(1).max(1) as usize;
            let end = line["highlight_end"].as_u64().unwrap_or(1) as usize;
            let carets = "^".repeat(end.saturating_sub(start).max(1));
            let label = s["label"]
                .as_str()
                .map_or_else(String::new, |l| format!(" {l}"));
            let _ = writeln!(out, "   | {}", text.trim_end());
            let _ = writeln!(out, "   | {}{carets}{label}", " ".repeat(start - 1));
        }
    }
    for child in m["children"].as_array().into_iter().flatten() {
        let text = child["message"].as_str().unwrap_or_default();
        let spanless = child["spans"].as_array().is_none_or(Vec::is_empty);
        if child["level"] == "note" && spanless && !volatile(text) {
            let _ = writeln!(out, "   = note: {}", text.replace(&dir, "$DIR"));
        }
    }
    out.push('\n');
    Some(out)
}

/// Notes whose text depends on the compiler version or says nothing about the case.
fn volatile(note: &str) -> bool {
    [
        "originates in",
        "required by",
        "required for",
        "the following other types",
        "for more information",
        "in this macro invocation",
        "`#[warn(",
        "`#[deny(",
        "consider ",
        "see <https",
    ]
    .iter()
    .any(|p| note.contains(p))
}

/// `1.95` for rustc 1.95.x.
fn rustc_version() -> Option<String> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = Command::new(rustc).arg("--version").output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let version = text.split_whitespace().nth(1)?;
    let mut parts = version.split('.');
    Some(format!("{}.{}", parts.next()?, parts.next()?))
}

fn write_if_changed(path: &Path, text: &str) {
    if std::fs::read_to_string(path).ok().as_deref() != Some(text) {
        std::fs::write(path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
}

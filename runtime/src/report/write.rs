//! Where JSON reports go, and writing them.

use std::path::{Path, PathBuf};

use super::Report;

/// The environment variable that moves JSON reports (it wins over
/// [`Suite::report_dir`](crate::Suite::report_dir)).
pub const REPORT_DIR_ENV: &str = "AGENT_TEST_REPORT_DIR";

/// The directory JSON reports are written under: `$AGENT_TEST_REPORT_DIR`, else the suite's
/// setting, else `agent-test/` in Cargo's target directory (found from `CARGO_TARGET_DIR`, the
/// running test binary's location, or the nearest `target/` above the working directory), else
/// `target/agent-test` in the working directory.
///
/// ```
/// use agent_test_runtime::report::report_root;
/// let dir = report_root(Some(std::path::Path::new("/tmp/reports")));
/// # if std::env::var_os("AGENT_TEST_REPORT_DIR").is_none() {
/// assert_eq!(dir, std::path::Path::new("/tmp/reports"));
/// # }
/// ```
pub fn report_root(configured: Option<&Path>) -> PathBuf {
    if let Some(dir) = std::env::var_os(REPORT_DIR_ENV).filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    if let Some(dir) = configured {
        return dir.to_owned();
    }
    target_dir().join("agent-test")
}

fn target_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("CARGO_TARGET_DIR").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    // Test binaries live in <target>/<profile>/deps/; Cargo marks <target> with CACHEDIR.TAG.
    if let Ok(exe) = std::env::current_exe()
        && let Some(dir) = exe
            .ancestors()
            .skip(1)
            .find(|d| d.join("CACHEDIR.TAG").is_file())
    {
        return dir.to_owned();
    }
    // Elsewhere (doctests run from a temporary directory): the nearest Cargo target directory
    // above the working directory, so reports never land in a package's source tree.
    if let Ok(cwd) = std::env::current_dir()
        && let Some(dir) = cwd
            .ancestors()
            .map(|d| d.join("target"))
            .find(|t| t.join("CACHEDIR.TAG").is_file())
    {
        return dir;
    }
    PathBuf::from("target")
}

/// `<root>/<module path>/<scenario>.json`, with names reduced to safe characters.
fn report_path(root: &Path, report: &Report) -> PathBuf {
    let mut path = root.to_owned();
    if let Some(module) = &report.scenario.module {
        for seg in module.split("::").filter(|s| !s.is_empty()) {
            path.push(safe(seg));
        }
    }
    path.push(format!("{}.json", safe(&report.scenario.name)));
    path
}

fn safe(s: &str) -> String {
    let cleaned: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if cleaned.is_empty() || cleaned.chars().all(|c| c == '.') {
        "_".to_owned()
    } else {
        cleaned
    }
}

/// Writes the report as JSON; a failure to write is noted in the report, never fatal.
pub(crate) fn write_json(report: &mut Report, configured: Option<&Path>) {
    let path = report_path(&report_root(configured), report);
    let result = serde_json::to_vec_pretty(&*report)
        .map_err(|e| e.to_string())
        .and_then(|bytes| {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
            }
            std::fs::write(&path, bytes).map_err(|e| e.to_string())
        });
    match result {
        Ok(()) => report.json_path = Some(path),
        Err(e) => report.notes.push(format!(
            "could not write the JSON report to {}: {e}",
            path.display()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ScenarioInfo;

    #[test]
    fn path_from_module_and_name() {
        let r = Report::new(
            ScenarioInfo::new("refund flow").located("booking::tests", "x.rs", 1),
            vec![],
            Default::default(),
            0,
        );
        assert_eq!(
            report_path(Path::new("/r"), &r),
            Path::new("/r/booking/tests/refund_flow.json")
        );
        assert_eq!(safe(".."), "_");
    }
}

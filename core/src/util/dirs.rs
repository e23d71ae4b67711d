//! Where agent-test writes its files (JSON reports, the judge's cache, cassettes), and how:
//! whole, never half a file.

use std::path::Path;
use std::path::PathBuf;

/// The environment variable that moves JSON reports (it wins over
/// `Suite::report_dir`).
pub const REPORT_DIR_ENV: &str = "AGENT_TEST_REPORT_DIR";

/// The directory JSON reports are written under: `$AGENT_TEST_REPORT_DIR`, else the suite's
/// setting, else `agent-test/` in Cargo's target directory (found from `CARGO_TARGET_DIR`, the
/// running test binary's location, or the nearest `target/` above the working directory), else
/// `target/agent-test` in the working directory.
///
/// ```
/// use agent_test::report::report_root;
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

/// Where a suite was told to write its reports, and whether that choice wins over
/// `AGENT_TEST_REPORT_DIR` (a command line's does; a suite's code does not, so that CI can move
/// every suite's reports).
#[derive(Clone, Debug, PartialEq, Eq)]
#[doc(hidden)]
pub struct ReportDir {
    #[doc(hidden)]
    pub path: PathBuf,
    #[doc(hidden)]
    pub over_env: bool,
}

/// The directory reports are written under, for a suite told `dir` (or nothing).
#[doc(hidden)]
pub fn report_root_of(dir: Option<&ReportDir>) -> PathBuf {
    match dir {
        Some(d) if d.over_env => d.path.clone(),
        d => report_root(d.map(|d| d.path.as_path())),
    }
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

/// A name as one part of a file name: letters, digits, `-`, `_` and `.` kept, the rest `_`,
/// never empty nor only dots (a report's or a snapshot's file, named after a scenario).
#[doc(hidden)]
pub fn safe_file_name(s: &str) -> String {
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

/// Writes `bytes` to `path` whole: to a temporary file in the same directory (named for this
/// process and write), then renamed over it, so a reader — a replay, `agent-test report`, another
/// test process under cargo nextest — sees the old file or the new one, never a part, and
/// writers at once leave one of their files whole. Creates the directory.
#[doc(hidden)]
pub fn write_whole(path: &Path, bytes: &[u8]) -> Result<(), String> {
    use std::sync::atomic::{AtomicU64, Ordering};
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    static WRITES: AtomicU64 = AtomicU64::new(0);
    let n = WRITES.fetch_add(1, Ordering::Relaxed);
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let tmp = dir.join(format!(".{name}.{}.{n}.tmp", std::process::id()));
    let written = std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written.map_err(|e| format!("cannot write {}: {e}", path.display()))
}

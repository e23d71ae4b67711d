//! What the MCP test files share: finding the processes a test started, to check that none is
//! left when its agent is gone.
#![allow(dead_code)]

pub mod reference;

/// The processes running with `marker` in their command line or their environment (read from
/// `/proc`; a test gives its servers a marker no other process has: an argument, or an
/// environment variable, which what they start inherits). Zombies — exited, not yet reaped —
/// are not running.
pub fn running(marker: &str) -> Vec<String> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let line = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        let environ = std::fs::read(entry.path().join("environ")).unwrap_or_default();
        let marked = line.contains(marker) || String::from_utf8_lossy(&environ).contains(marker);
        if marked {
            let state = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
            if !state.split(") ").nth(1).is_some_and(|s| s.starts_with('Z')) {
                out.push(line);
            }
        }
    }
    out
}

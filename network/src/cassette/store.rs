//! A cassette's directory: one `<id>.json` file per recorded exchange, listed, written whole
//! (a temporary file renamed, so runs recording at once never leave half a file), and pruned
//! of the entries no run used.

use std::path::{Path, PathBuf};

use super::CassetteError;

/// The file of entry `id` in `dir`.
pub(crate) fn entry_path(dir: &Path, id: &str) -> PathBuf {
    dir.join(format!("{id}.json"))
}

/// The ids of the entries in `dir` (the stems of its `*.json` files), sorted. A missing
/// directory has none; one that cannot be read is an error naming it.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("agent-test-doc-entries-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// std::fs::write(dir.join("chat-completions-gpt-4o-mini-0123456789abcdef.json"), "{}").unwrap();
/// std::fs::write(dir.join("notes.txt"), "not an entry").unwrap();
/// let ids = agent_test::cassette::entries(&dir).unwrap();
/// assert_eq!(ids, ["chat-completions-gpt-4o-mini-0123456789abcdef"]);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn entries(dir: impl AsRef<Path>) -> Result<Vec<String>, CassetteError> {
    let dir = dir.as_ref();
    let read = match std::fs::read_dir(dir) {
        Ok(r) => r,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => {
            return Err(CassetteError::new(format!(
                "cannot read the cassette {}: {e}",
                dir.display()
            )));
        }
    };
    let mut ids = Vec::new();
    for entry in read {
        let entry = entry.map_err(|e| {
            CassetteError::new(format!("cannot read the cassette {}: {e}", dir.display()))
        })?;
        let path = entry.path();
        // Temporary files of writes in progress start with a dot.
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        if let Some(id) = name.strip_suffix(".json")
            && !name.starts_with('.')
            && path.is_file()
        {
            ids.push(id.to_owned());
        }
    }
    ids.sort();
    Ok(ids)
}

/// The entries of `dir` that `used` does not name, sorted: what no run answered from.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("agent-test-doc-unused-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// for id in ["messages-claude-a", "messages-claude-b"] {
///     std::fs::write(dir.join(format!("{id}.json")), "{}").unwrap();
/// }
/// let unused = agent_test::cassette::unused(&dir, ["messages-claude-a"]).unwrap();
/// assert_eq!(unused, ["messages-claude-b"]);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn unused<I, S>(dir: impl AsRef<Path>, used: I) -> Result<Vec<String>, CassetteError>
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let used: std::collections::HashSet<String> =
        used.into_iter().map(|s| s.as_ref().to_owned()).collect();
    Ok(entries(dir)?
        .into_iter()
        .filter(|id| !used.contains(id))
        .collect())
}

/// Deletes the entries of `dir` that `used` does not name, and returns their ids. Refused when
/// `used` names no entry of `dir` at all: that would delete the whole cassette, and is far
/// more likely the wrong reports than a cassette no run needs.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("agent-test-doc-prune-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// for id in ["responses-gpt-4o-a", "responses-gpt-4o-b"] {
///     std::fs::write(dir.join(format!("{id}.json")), "{}").unwrap();
/// }
/// assert!(agent_test::cassette::prune(&dir, ["elsewhere"]).is_err());
/// let pruned = agent_test::cassette::prune(&dir, ["responses-gpt-4o-a"]).unwrap();
/// assert_eq!(pruned, ["responses-gpt-4o-b"]);
/// assert_eq!(agent_test::cassette::entries(&dir).unwrap(), ["responses-gpt-4o-a"]);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn prune<I, S>(dir: impl AsRef<Path>, used: I) -> Result<Vec<String>, CassetteError>
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let dir = dir.as_ref();
    let used: Vec<String> = used.into_iter().map(|s| s.as_ref().to_owned()).collect();
    let all = entries(dir)?;
    if !all.is_empty() && !all.iter().any(|id| used.contains(id)) {
        return Err(CassetteError::new(format!(
            "no run used any entry of the cassette {}: pruning would delete all {} of them \
             (are these the reports of a run through this cassette?)",
            dir.display(),
            all.len()
        )));
    }
    let unused: Vec<String> = all.into_iter().filter(|id| !used.contains(id)).collect();
    for id in &unused {
        let path = entry_path(dir, id);
        std::fs::remove_file(&path)
            .map_err(|e| CassetteError::new(format!("cannot delete {}: {e}", path.display())))?;
    }
    Ok(unused)
}

#[cfg(feature = "cassette")]
pub(crate) use agent_test_core::util::dirs::write_whole;

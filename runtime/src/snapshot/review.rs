//! The pending snapshots under a directory, each accepted or rejected: what `agent-test review`
//! walks through.

use std::path::{Path, PathBuf};

use super::SnapshotFile;

/// A pending snapshot (`….snap.new`) beside the accepted one it would replace, if any.
///
/// ```
/// use agent_test::snapshot::{Pending, SnapshotFile};
/// let dir = std::env::temp_dir().join(format!("agent-test-doc-pending-{}", std::process::id()));
/// let snaps = dir.join("tests/snapshots");
/// std::fs::create_dir_all(&snaps).unwrap();
/// let old = SnapshotFile::new("greets", "reply().snapshot()", "reply", "Hello!");
/// std::fs::write(snaps.join("suite__greets__1.snap"), old.render()).unwrap();
/// let new = SnapshotFile { content: "Hello! How can I help?".into(), ..old };
/// std::fs::write(snaps.join("suite__greets__1.snap.new"), new.render()).unwrap();
///
/// let pending = Pending::find(&[&dir]).unwrap();
/// assert_eq!(pending.len(), 1);
/// assert_eq!(pending[0].diff(), "Hello!{+ How can I help?+}");
/// pending[0].accept().unwrap();
/// let kept = std::fs::read_to_string(snaps.join("suite__greets__1.snap")).unwrap();
/// assert_eq!(SnapshotFile::parse(&kept).unwrap().content, "Hello! How can I help?");
/// assert!(Pending::find(&[&dir]).unwrap().is_empty());
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
#[derive(Clone, Debug)]
pub struct Pending {
    /// The pending file.
    pub path: PathBuf,
    /// The accepted snapshot it would replace (which may not exist yet).
    pub accepted_path: PathBuf,
    /// The pending snapshot, read.
    pub new: SnapshotFile,
    /// The accepted snapshot, when there is one (`Err`: it cannot be read, and why).
    pub old: Option<Result<SnapshotFile, String>>,
}

/// Directories never searched: build output, version control, installed packages.
const SKIPPED: [&str; 3] = ["target", ".git", "node_modules"];

impl Pending {
    /// Every pending snapshot under `roots` (files or directories), in path order. `Err` names
    /// a pending file that cannot be read or is garbled: nothing is accepted while one is.
    ///
    /// See the type's example.
    pub fn find<P: AsRef<Path>>(roots: &[P]) -> Result<Vec<Pending>, String> {
        let mut paths = Vec::new();
        for root in roots {
            let root = root.as_ref();
            walk(root, &mut paths).map_err(|e| format!("cannot search {}: {e}", root.display()))?;
        }
        paths.sort();
        paths.dedup();
        paths.into_iter().map(|p| Pending::read(&p)).collect()
    }

    fn read(path: &Path) -> Result<Pending, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let new = SnapshotFile::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let accepted_path = path.with_extension("");
        let old = match std::fs::read_to_string(&accepted_path) {
            Ok(text) => Some(SnapshotFile::parse(&text)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => Some(Err(e.to_string())),
        };
        Ok(Pending {
            path: path.to_owned(),
            accepted_path,
            new,
            old,
        })
    }

    /// The change, as a diff of the accepted content against the pending one (the whole
    /// pending content, each line marked `+`, when none was accepted).
    ///
    /// See the type's example.
    pub fn diff(&self) -> String {
        let old = match &self.old {
            Some(Ok(f)) => f.content.as_str(),
            _ => "",
        };
        if matches!(self.old, Some(Ok(_))) {
            agent_test_core::util::diff::text_diff(old, &self.new.content)
        } else {
            self.new
                .content
                .lines()
                .map(|l| format!("+ {l}\n"))
                .collect()
        }
    }

    /// Makes the pending snapshot the accepted one.
    ///
    /// See the type's example.
    pub fn accept(&self) -> std::io::Result<()> {
        std::fs::rename(&self.path, &self.accepted_path)
    }

    /// Drops the pending snapshot; the accepted one stays.
    ///
    /// ```
    /// # use agent_test::snapshot::{Pending, SnapshotFile};
    /// let dir = std::env::temp_dir().join(format!("agent-test-doc-reject-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir).unwrap();
    /// let new = SnapshotFile::new("greets", "reply().snapshot()", "reply", "Hi");
    /// std::fs::write(dir.join("suite__greets__1.snap.new"), new.render()).unwrap();
    /// let pending = Pending::find(&[&dir]).unwrap();
    /// assert_eq!(pending[0].diff(), "+ Hi\n");
    /// pending[0].reject().unwrap();
    /// assert!(!dir.join("suite__greets__1.snap").exists());
    /// assert!(Pending::find(&[&dir]).unwrap().is_empty());
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn reject(&self) -> std::io::Result<()> {
        std::fs::remove_file(&self.path)
    }
}

fn walk(path: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let meta = std::fs::metadata(path)?;
    if meta.is_file() {
        if path.to_string_lossy().ends_with(".snap.new") {
            out.push(path.to_owned());
        }
        return Ok(());
    }
    for entry in std::fs::read_dir(path)? {
        let entry = entry?;
        let p = entry.path();
        let skipped = entry
            .file_name()
            .to_str()
            .is_some_and(|n| SKIPPED.contains(&n));
        if entry.file_type()?.is_dir() {
            if !skipped {
                walk(&p, out)?;
            }
        } else if p.to_string_lossy().ends_with(".snap.new") {
            out.push(p);
        }
    }
    Ok(())
}

//! The files a command names: files as given, directories searched.

use std::path::{Path, PathBuf};

use agent_test_core::util::input::{LoadError, LoadErrorKind};

/// The files named, and the files with one of `extensions` in the directories named, searched
/// recursively, in a stable order. A name that is neither is a [`LoadErrorKind::NotFound`]
/// error; a directory that cannot be listed an [`LoadErrorKind::Unreadable`] one.
///
/// ```
/// use agent_test::load::{self, LoadErrorKind};
/// let err = load::files(&["nope/".into()], &["json"]).unwrap_err();
/// assert_eq!(err.kind, LoadErrorKind::NotFound);
/// assert_eq!(err.to_string(), "nope/: no such file or directory");
/// ```
pub fn files(paths: &[PathBuf], extensions: &[&str]) -> Result<Vec<PathBuf>, LoadError> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, extensions, &mut out).map_err(|e| LoadError {
                kind: LoadErrorKind::Unreadable,
                file: p.clone(),
                path: String::new(),
                message: format!("cannot read the directory: {e}"),
            })?;
        } else if p.exists() {
            out.push(p.clone());
        } else {
            return Err(LoadError {
                kind: LoadErrorKind::NotFound,
                file: p.clone(),
                path: String::new(),
                message: "no such file or directory".into(),
            });
        }
    }
    Ok(out)
}

fn walk(dir: &Path, extensions: &[&str], out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<(PathBuf, bool)> = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        // The entry's own type: no extra stat per file (symlinks are followed below).
        let is_dir = match entry.file_type() {
            Ok(t) if t.is_symlink() => entry.path().is_dir(),
            Ok(t) => t.is_dir(),
            Err(_) => false,
        };
        entries.push((entry.path(), is_dir));
    }
    entries.sort();
    for (p, is_dir) in entries {
        if is_dir {
            walk(&p, extensions, out)?;
        } else if p
            .extension()
            .is_some_and(|e| extensions.iter().any(|x| e.eq_ignore_ascii_case(x)))
        {
            out.push(p);
        }
    }
    Ok(())
}

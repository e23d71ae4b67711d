//! Where a scenario's snapshots live, looking them up before a run's checks are evaluated and
//! writing the pending ones after.

use std::path::{Path, PathBuf};

use super::SnapshotFile;
use crate::check::{Check, Expectation, SnapshotCheck, Status, Stored};
use crate::model::{ScenarioInfo, Transcript, Verdict};

/// The environment variable saying what a run does with a snapshot that differs (or is new):
/// `new` writes it beside the accepted one as `….snap.new` for `agent-test review` (the
/// default, in CI too: a CI job can keep the pending files as an artifact to review), `no`
/// writes nothing, `always` writes it as the accepted snapshot (after re-recording cassettes on
/// purpose). Whatever it says, the check does not pass on the run that differed.
pub const SNAPSHOTS_ENV: &str = "AGENT_TEST_SNAPSHOTS";

/// What a run does with a snapshot that differs; see [`SNAPSHOTS_ENV`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Update {
    New,
    No,
    Always,
}

impl Update {
    /// The setting `value` names (unset or empty: `new`).
    fn parse(value: Option<&str>) -> Result<Update, String> {
        match value {
            None | Some("" | "new") => Ok(Update::New),
            Some("no") => Ok(Update::No),
            Some("always") => Ok(Update::Always),
            Some(other) => Err(format!(
                "{SNAPSHOTS_ENV}={other:?}: expected `new`, `no` or `always`; no snapshot was \
                 written"
            )),
        }
    }
}

/// The snapshot files of one scenario's snapshot checks: for each, its place in the
/// expectations and its file.
#[derive(Clone, Debug, Default)]
pub(crate) struct Snapshots {
    files: Vec<(usize, PathBuf)>,
}

/// The path to show for a snapshot: as the test file's path is written (relative to the
/// workspace), with the snapshot's directory and name.
fn shown(info_file: &str, name: &str) -> String {
    let dir = Path::new(info_file).parent().unwrap_or(Path::new(""));
    dir.join("snapshots").join(name).display().to_string()
}

/// A scenario's test file on disk: `file!()` is relative to the workspace, the test runs in its
/// package's directory, so the file is looked for under the package and the directories above.
fn locate(file: &str) -> Result<PathBuf, String> {
    let path = Path::new(file);
    if path.is_absolute() {
        return Ok(path.to_owned());
    }
    let bases = [
        std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from),
        std::env::current_dir().ok(),
    ];
    bases
        .into_iter()
        .flatten()
        .find_map(|base| {
            base.ancestors()
                .map(|d| d.join(path))
                .find(|candidate| candidate.is_file())
        })
        .ok_or_else(|| {
            format!(
                "cannot find the test file {file} from the package directory (CARGO_MANIFEST_DIR) \
                 or the working directory, to keep its snapshots beside it"
            )
        })
}

/// A name as a file name's part: letters, digits, `-` and `_` kept, the rest `_`.
fn file_part(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

impl Snapshots {
    /// Looks up the accepted snapshot of every snapshot check of a scenario that has none yet,
    /// filling it into the check: `snapshots/<module>__<scenario>__<id or number>.snap` beside
    /// the scenario's file.
    pub(crate) fn look_up(expectations: &mut [Expectation], info: &ScenarioInfo) -> Snapshots {
        let mut out = Snapshots::default();
        let mut number = 0;
        for (i, e) in expectations.iter_mut().enumerate() {
            let Check::Snapshot(check) = &mut e.check else {
                continue;
            };
            number += 1;
            if check.accepted().is_some() {
                continue;
            }
            let key =
                e.id.as_deref()
                    .map_or_else(|| number.to_string(), file_part);
            let Some(file) = info.file.as_deref() else {
                // Nothing says where the scenario lives: the check says so when evaluated.
                continue;
            };
            let prefix = info.module.as_deref().map_or_else(
                || {
                    Path::new(file)
                        .file_stem()
                        .map_or(String::new(), |s| s.to_string_lossy().into_owned())
                },
                |m| m.replace("::", "__"),
            );
            let name = format!(
                "{}__{}__{key}.snap",
                file_part(&prefix),
                file_part(&info.name)
            );
            let shown = shown(file, &name);
            let stored = match locate(file) {
                Ok(source) => {
                    let path = source
                        .parent()
                        .unwrap_or(Path::new("."))
                        .join("snapshots")
                        .join(&name);
                    let stored = read(&path, &shown);
                    out.files.push((i, path));
                    stored
                }
                Err(reason) => Stored::Unreadable {
                    file: shown,
                    reason,
                },
            };
            *check =
                std::mem::replace(check, SnapshotCheck::new(check.of().clone())).stored(stored);
        }
        out
    }

    /// After the checks are evaluated: each snapshot that did not match is written as pending
    /// (or accepted, or not at all: [`SNAPSHOTS_ENV`]), a pending one that now matches is
    /// removed. `checked` holds the expectations' verdicts in their order. Returns notes for
    /// the report, and a verdict when the environment's setting is wrong.
    pub(crate) fn settle(
        &self,
        expectations: &[Expectation],
        checked: &[Verdict],
        scenario: &str,
    ) -> (Vec<String>, Option<Verdict>) {
        let mut notes = Vec::new();
        if self.files.is_empty() {
            return (notes, None);
        }
        let update = match Update::parse(std::env::var(SNAPSHOTS_ENV).ok().as_deref()) {
            Ok(u) => u,
            Err(why) => {
                let verdict = Verdict {
                    label: SNAPSHOTS_ENV.to_owned(),
                    check: "snapshot".into(),
                    scope: crate::check::Scope::Conversation,
                    severity: crate::check::Severity::Error,
                    id: None,
                    status: Status::Error,
                    reason: why,
                    details: crate::check::Details::default(),
                };
                return (notes, Some(verdict));
            }
        };
        for (i, path) in &self.files {
            let (Some(e), Some(v)) = (expectations.get(*i), checked.get(*i)) else {
                continue;
            };
            let Check::Snapshot(check) = &e.check else {
                continue;
            };
            let pending = pending_path(path);
            if v.status == Status::Pass {
                if pending.is_file() && std::fs::remove_file(&pending).is_ok() {
                    notes.push(format!(
                        "snapshot {}: matches again, its pending change was removed",
                        path.display()
                    ));
                }
                continue;
            }
            let Some(actual) = &v.details.actual else {
                continue;
            };
            let file = SnapshotFile::new(
                scenario,
                e.display_label(),
                check.of().to_string(),
                check.content(actual),
            );
            let (target, said) = match update {
                Update::No => continue,
                Update::New => (
                    pending,
                    "pending: accept or reject it with `agent-test review`",
                ),
                Update::Always => (
                    path.clone(),
                    "written as accepted (AGENT_TEST_SNAPSHOTS=always)",
                ),
            };
            match crate::util::dirs::write_whole(&target, file.render().as_bytes()) {
                Ok(()) => notes.push(format!("snapshot {}: {said}", target.display())),
                Err(e) => notes.push(format!("snapshot not written: {e}")),
            }
        }
        (notes, None)
    }
}

/// The pending snapshot beside an accepted one: `x.snap` → `x.snap.new`.
pub(crate) fn pending_path(accepted: &Path) -> PathBuf {
    let mut name = accepted.as_os_str().to_owned();
    name.push(".new");
    PathBuf::from(name)
}

/// The accepted snapshot at `path` as a check compares with it.
fn read(path: &Path, shown: &str) -> Stored {
    let file = shown.to_owned();
    match std::fs::read_to_string(path) {
        Ok(text) => match SnapshotFile::parse(&text) {
            Ok(f) => Stored::Accepted {
                file,
                content: f.content,
            },
            Err(reason) => Stored::Unreadable { file, reason },
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Stored::Missing { file },
        Err(e) => Stored::Unreadable {
            file,
            reason: e.to_string(),
        },
    }
}

/// Why a snapshot taken in a live run may not hold on the next: the agent's replies came from
/// a model (its turns name one) and no cassette recorded or replayed its calls.
pub(crate) fn live_model_warning(transcript: &Transcript, cassette_used: bool) -> Option<String> {
    if cassette_used {
        return None;
    }
    let model = transcript
        .turns
        .iter()
        .find_map(|t| t.reply.chat_model.as_deref())?;
    Some(format!(
        "snapshots compared with a live model ({model}) without a cassette: its next answer may \
         differ for no reason of yours; record a cassette (docs/testing.md, \"Recording \
         model traffic\") or evaluate recorded runs"
    ))
}

#[cfg(test)]
mod tests {
    use super::Update;

    #[test]
    fn the_setting_is_one_of_three_words() {
        assert_eq!(Update::parse(None), Ok(Update::New));
        assert_eq!(Update::parse(Some("")), Ok(Update::New));
        assert_eq!(Update::parse(Some("no")), Ok(Update::No));
        assert_eq!(Update::parse(Some("always")), Ok(Update::Always));
        assert_eq!(
            Update::parse(Some("yes")).unwrap_err(),
            "AGENT_TEST_SNAPSHOTS=\"yes\": expected `new`, `no` or `always`; no snapshot was written"
        );
    }
}

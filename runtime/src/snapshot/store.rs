//! Where a scenario's snapshots live, looking them up before a run's checks are evaluated and
//! writing the pending ones after.

use std::path::{Path, PathBuf};

use super::SnapshotFile;
use agent_test_core::check::{Check, Expectation, Outcome, SnapshotCheck, Status, Stored};
use agent_test_core::model::{ScenarioInfo, Transcript, Verdict};
use agent_test_core::util::dirs::safe_file_name;

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
                    .map_or_else(|| number.to_string(), safe_file_name);
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
                safe_file_name(&prefix),
                safe_file_name(&info.name)
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
        if self.files.is_empty() {
            return (Vec::new(), None);
        }
        let setting = std::env::var(SNAPSHOTS_ENV).ok();
        self.settle_as(setting.as_deref(), expectations, checked, scenario)
    }

    /// [`Snapshots::settle`] with [`SNAPSHOTS_ENV`] set to `setting`.
    fn settle_as(
        &self,
        setting: Option<&str>,
        expectations: &[Expectation],
        checked: &[Verdict],
        scenario: &str,
    ) -> (Vec<String>, Option<Verdict>) {
        let mut notes = Vec::new();
        let update = match Update::parse(setting) {
            Ok(u) => u,
            Err(why) => {
                let verdict = Verdict::conversation(SNAPSHOTS_ENV, "snapshot", Outcome::error(why));
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
            match agent_test_core::util::dirs::write_whole(&target, file.render().as_bytes()) {
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
    use super::{Snapshots, Update};
    use agent_test_core::check::{IntoExpectation, Status, Stored, reply};
    use agent_test_core::model::{Reply, Transcript, Turn};

    /// What each setting does with a reply that differs from its snapshot: the notes, the
    /// verdict, and the files left.
    fn settled(setting: &str) -> (Vec<String>, Option<String>, Vec<String>) {
        let dir = std::env::temp_dir().join(format!(
            "agent-test-settle-{setting}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let snap = dir.join("suite__greets__1.snap");
        let e = reply()
            .snapshot()
            .stored(Stored::Accepted {
                file: "suite__greets__1.snap".into(),
                content: "Hello!".into(),
            })
            .into_expectation();
        let t = Transcript::new(vec![Turn::new(0, "hi", Reply::text("Hi."), 1)]);
        let checked = agent_test_core::evaluate(&t, std::slice::from_ref(&e));
        assert_eq!(checked[0].status, Status::Fail);
        let snapshots = Snapshots {
            files: vec![(0, snap)],
        };
        let (notes, verdict) = snapshots.settle_as(Some(setting), &[e], &checked, "greets");
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .map(|d| {
                d.map(|f| f.unwrap().file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        files.sort();
        let _ = std::fs::remove_dir_all(&dir);
        (notes, verdict.map(|v| v.reason), files)
    }

    #[test]
    fn each_setting_writes_what_it_says_and_a_wrong_one_is_an_error() {
        let (notes, verdict, files) = settled("new");
        assert_eq!(files, ["suite__greets__1.snap.new"]);
        assert!(notes[0].ends_with("pending: accept or reject it with `agent-test review`"));
        assert_eq!(verdict, None);
        let (notes, verdict, files) = settled("no");
        assert!(files.is_empty() && notes.is_empty() && verdict.is_none());
        let (notes, _, files) = settled("always");
        assert_eq!(files, ["suite__greets__1.snap"]);
        assert!(notes[0].ends_with("written as accepted (AGENT_TEST_SNAPSHOTS=always)"));
        let (notes, verdict, files) = settled("sometimes");
        assert!(files.is_empty() && notes.is_empty());
        assert_eq!(
            verdict.as_deref(),
            Some(
                "AGENT_TEST_SNAPSHOTS=\"sometimes\": expected `new`, `no` or `always`; no \
                 snapshot was written"
            )
        );
    }

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

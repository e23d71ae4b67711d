//! A scenario file whose cases are taken one at a time: JSON lines are read when their case is
//! asked for, so a large suite (a 37 MB MorganaBench JSONL) never lives in memory as cases,
//! and several threads read its lines at once.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::formats::{self, ImportedCase, SeedFormat, Syntax, morganabench};
use agent_test_core::util::input::{LoadError, read_text};

/// The cases of one scenario file, each taken once, by index.
///
/// A JSON lines file (`.jsonl`) is read line by line, when each case is taken: an error on a
/// line is that case's error, and the other cases still load. Any other file is read whole
/// when opened (one JSON or YAML document), so its errors are the file's.
///
/// ```
/// use agent_test::load::CaseFile;
/// let dir = std::env::temp_dir().join(format!("case-file-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let path = dir.join("suite.jsonl");
/// let example = r#"{"inputs": {"messages": [{"role": "user", "content": "hi"}]}, "expectations": {}, "outputs": {"response": "Hello!"}}"#;
/// std::fs::write(&path, format!("{example}\n\nnot json\n")).unwrap();
/// let file = CaseFile::open(&path, None).unwrap();
/// assert_eq!(file.len(), 2);
/// let first = file.take(0).unwrap();
/// assert_eq!(first.scenario.name, "suite-1");
/// assert!(first.recording.is_some());
/// assert!(file.take(1).unwrap_err().to_string().starts_with(&format!("{}: at line 3: not valid JSON", path.display())));
/// ```
pub struct CaseFile {
    file: PathBuf,
    cases: Cases,
}

enum Cases {
    /// JSON lines: the text and, for each case, its line's number and place.
    Lines {
        text: String,
        stem: String,
        lines: Vec<(usize, Range<usize>)>,
    },
    /// A document read whole.
    Read(Vec<Mutex<Option<ImportedCase>>>),
}

impl CaseFile {
    /// Opens a scenario file: the seed format named, else the one detected, else agent-test's
    /// own form (see [`cases`](super::cases)). A `.jsonl` file holds MorganaBench examples.
    ///
    /// See the type's example.
    pub fn open(path: impl AsRef<Path>, format: Option<SeedFormat>) -> Result<Self, LoadError> {
        let path = path.as_ref();
        let jsonl = Syntax::of(path) == Syntax::JsonLines
            && matches!(format, None | Some(SeedFormat::MorganaBench));
        let cases = if jsonl {
            let text = read_text(path)?;
            let base = text.as_ptr() as usize;
            let lines = morganabench::jsonl_lines(agent_test_core::util::json::strip_bom(&text))
                .map(|(n, line)| {
                    let start = line.as_ptr() as usize - base;
                    (n, start..start + line.len())
                })
                .collect();
            Cases::Lines {
                stem: formats::stem(path),
                text,
                lines,
            }
        } else {
            Cases::Read(
                super::cases(path, format)?
                    .into_iter()
                    .map(|c| Mutex::new(Some(c)))
                    .collect(),
            )
        };
        Ok(CaseFile {
            file: path.to_owned(),
            cases,
        })
    }

    /// How many cases the file holds.
    ///
    /// See the type's example.
    pub fn len(&self) -> usize {
        match &self.cases {
            Cases::Lines { lines, .. } => lines.len(),
            Cases::Read(cases) => cases.len(),
        }
    }

    /// Whether the file holds no case.
    ///
    /// ```
    /// # use agent_test::load::CaseFile;
    /// # let path = std::env::temp_dir().join(format!("case-file-empty-{}.jsonl", std::process::id()));
    /// std::fs::write(&path, "\n").unwrap();
    /// assert!(CaseFile::open(&path, None).unwrap().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The file.
    ///
    /// See the type's example.
    pub fn path(&self) -> &Path {
        &self.file
    }

    /// Takes the case at `index`. A case of a JSON or YAML file is moved out, so taking it
    /// again is an error; a case of a JSON lines file is read from its line each time it is
    /// taken (nothing is kept). An index past the end is an error naming it.
    ///
    /// ```
    /// # use agent_test::load::CaseFile;
    /// let dir = std::env::temp_dir().join(format!("case-file-take-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir).unwrap();
    /// let path = dir.join("s.json");
    /// std::fs::write(&path, r#"{"name": "s", "steps": [{"step": "user", "text": "hi"}]}"#).unwrap();
    /// let file = CaseFile::open(&path, None).unwrap();
    /// assert_eq!(file.take(0).unwrap().scenario.name, "s");
    /// assert!(file.take(0).unwrap_err().to_string().ends_with("no case 0 to take (taken already, or past the end)"));
    /// assert!(file.take(1).is_err());
    /// ```
    pub fn take(&self, index: usize) -> Result<ImportedCase, LoadError> {
        let gone = || LoadError {
            kind: agent_test_core::util::input::LoadErrorKind::NotFound,
            file: self.file.clone(),
            path: String::new(),
            message: format!("no case {index} to take (taken already, or past the end)"),
        };
        match &self.cases {
            Cases::Lines { text, stem, lines } => {
                let (n, range) = lines.get(index).ok_or_else(gone)?;
                let line = text.get(range.clone()).ok_or_else(gone)?;
                let case = morganabench::from_line(line, *n, stem, &self.file)?;
                formats::literals_checked(vec![case], &self.file)?
                    .into_iter()
                    .next()
                    .ok_or_else(gone)
            }
            Cases::Read(cases) => cases
                .get(index)
                .and_then(|c| c.lock().ok()?.take())
                .ok_or_else(gone),
        }
    }

    /// Whether some case may carry a recorded run: yes when one read does; for JSON lines,
    /// when the text has an `"outputs"` key anywhere (a case's own answer is in
    /// [`take`](Self::take)'s).
    ///
    /// ```
    /// # use agent_test::load::CaseFile;
    /// # let path = std::env::temp_dir().join(format!("case-file-outputs-{}.jsonl", std::process::id()));
    /// std::fs::write(&path, r#"{"inputs": {"messages": [{"role": "user", "content": "hi"}]}, "expectations": {}}"#).unwrap();
    /// assert!(!CaseFile::open(&path, None).unwrap().may_carry_recordings());
    /// ```
    pub fn may_carry_recordings(&self) -> bool {
        match &self.cases {
            Cases::Lines { text, .. } => {
                memchr::memmem::find(text.as_bytes(), b"\"outputs\"").is_some()
            }
            Cases::Read(cases) => cases.iter().any(|c| {
                c.lock()
                    .ok()
                    .is_some_and(|c| c.as_ref().is_some_and(|c| c.recording.is_some()))
            }),
        }
    }
}

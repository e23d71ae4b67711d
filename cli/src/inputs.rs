//! The inputs of a command: scenario files and the recordings they carry, read with the
//! runtime's one loader ([`agent_test_runtime::load`]).

use std::path::Path;

use agent_test_runtime::RecordedRun;
use agent_test_runtime::formats::SeedFormat;
use agent_test_runtime::load;
use agent_test_runtime::scenario::Scenario;

use crate::args::Inputs;

/// Scenarios, and recordings that came with them (labelled by file and scenario).
#[derive(Default)]
pub(crate) struct Loaded {
    pub(crate) scenarios: Vec<Scenario>,
    pub(crate) recordings: Vec<(String, RecordedRun)>,
}

impl Loaded {
    /// Every scenario of every file, with the recordings the files carry; `Err` lists every
    /// unreadable file.
    pub(crate) fn read(inputs: &Inputs) -> Result<Loaded, Vec<String>> {
        let files =
            load::files(&inputs.scenarios, load::SCENARIO_EXTENSIONS).map_err(|e| vec![e])?;
        if files.is_empty() {
            return Err(vec![
                "--scenarios: no .json, .jsonl, .yaml or .yml files found".into(),
            ]);
        }
        let mut loaded = Loaded::default();
        let mut errors = Vec::new();
        for f in &files {
            if let Err(e) = loaded.add(f, inputs.input_format) {
                errors.push(e.to_string());
            }
        }
        if errors.is_empty() {
            Ok(loaded)
        } else {
            Err(errors)
        }
    }

    /// The scenarios of a file and the recordings it carries: the seed format named, else the
    /// one detected from the content, else the native form (see [`load::cases`]).
    fn add(&mut self, path: &Path, format: Option<SeedFormat>) -> Result<(), load::LoadError> {
        for c in load::cases(path, format)? {
            if let Some(r) = c.recording {
                self.recordings
                    .push((format!("{} ({})", path.display(), c.scenario.name), r));
            }
            self.scenarios.push(c.scenario);
        }
        Ok(())
    }
}

//! The inputs of a command: scenario files, read whole or case by case with the runtime's one
//! loader ([`agent_test_runtime::load`]).

use std::path::Path;

use agent_test_runtime::formats::SeedFormat;
use agent_test_runtime::load::{self, CaseFile};
use agent_test_runtime::scenario::Scenario;

use crate::args::Inputs;

/// The scenarios of every file, read whole (what `run`, and `eval --runs`, need: every
/// scenario, to run it or to find it by name).
#[derive(Default)]
pub(crate) struct Loaded {
    pub(crate) scenarios: Vec<Scenario>,
}

/// The scenario files the options name (directories searched).
fn scenario_files(inputs: &Inputs) -> Result<Vec<std::path::PathBuf>, Vec<String>> {
    let files = load::files(&inputs.scenarios, load::SCENARIO_EXTENSIONS)
        .map_err(|e| vec![e.to_string()])?;
    if files.is_empty() {
        return Err(vec![
            "--scenarios: no .json, .jsonl, .yaml or .yml files found".into(),
        ]);
    }
    Ok(files)
}

/// Every scenario file opened to take its cases one at a time (JSON lines are read case by
/// case); `Err` lists every unreadable file.
pub(crate) fn case_files(inputs: &Inputs) -> Result<Vec<CaseFile>, Vec<String>> {
    let mut opened = Vec::new();
    let mut errors = Vec::new();
    for f in scenario_files(inputs)? {
        match CaseFile::open(&f, inputs.input_format) {
            Ok(c) => opened.push(c),
            Err(e) => errors.push(e.to_string()),
        }
    }
    if errors.is_empty() {
        Ok(opened)
    } else {
        Err(errors)
    }
}

impl Loaded {
    /// Every scenario of every file; `Err` lists every unreadable file.
    pub(crate) fn read(inputs: &Inputs) -> Result<Loaded, Vec<String>> {
        let files = scenario_files(inputs)?;
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

    /// The scenarios of a file: the seed format named, else the one detected from the
    /// content, else the native form (see [`load::cases`]).
    fn add(&mut self, path: &Path, format: Option<SeedFormat>) -> Result<(), load::LoadError> {
        let cases = load::cases(path, format)?;
        self.scenarios.extend(cases.into_iter().map(|c| c.scenario));
        Ok(())
    }
}

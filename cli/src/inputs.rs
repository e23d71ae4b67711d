//! The inputs of a command: scenario files and runs to evaluate, read with the runtime's one
//! loader ([`agent_test_runtime::load`]).

use std::path::Path;

use agent_test_runtime::RecordedRun;
use agent_test_runtime::formats::SeedFormat;
use agent_test_runtime::load::{self, LoadError};
use agent_test_runtime::scenario::Scenario;

pub(crate) use agent_test_runtime::load::{
    RUN_EXTENSIONS, SCENARIO_EXTENSIONS, files, run as load_run,
};

/// Scenarios from a file, and the recordings it carries: the seed format named, else the one
/// detected from the content, else the native form (see [`load::cases`]).
pub(crate) fn load_scenarios(path: &Path, format: Option<SeedFormat>) -> Result<Loaded, LoadError> {
    let mut loaded = Loaded::default();
    for c in load::cases(path, format)? {
        if let Some(r) = c.recording {
            loaded
                .recordings
                .push((format!("{} ({})", path.display(), c.scenario.name), r));
        }
        loaded.scenarios.push(c.scenario);
    }
    Ok(loaded)
}

/// Scenarios, and recordings that came with them (labelled by file and scenario).
#[derive(Default)]
pub(crate) struct Loaded {
    pub(crate) scenarios: Vec<Scenario>,
    pub(crate) recordings: Vec<(String, RecordedRun)>,
}

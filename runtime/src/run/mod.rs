//! Running scenarios: suite settings, live runs, calling the agent safely.

mod agent_call;
pub(crate) mod bag;
mod data_steps;
mod entry;
mod extract;
mod file_case;
mod meta;
mod repeat;
mod scenario_run;
mod simulate;
pub(crate) mod step_verdict;
mod suite;

pub use entry::{ScenarioSource, test_file_case, test_scenario};
pub use extract::Extraction;
pub use file_case::{FileCases, run_file_case};
pub use meta::ScenarioInfo;
pub use repeat::{CheckTally, Repeat, RepeatSummary, Repeats};
pub use scenario_run::ScenarioRun;
pub(crate) use simulate::turns_problem;
pub use simulate::{SimulatedUser, simulated_user};
pub use suite::{DEFAULT_TURN_TIMEOUT, Suite};

//! Running scenarios: suite settings, live runs, calling the agent safely, repeats, scenarios
//! given as data, and evaluating recordings with the judge.

mod agent_call;
mod bag;
mod budget;
mod data_steps;
mod entry;
mod evaluator;
mod extract;
mod file_case;
mod flavor;
mod recorded_steps;
mod repeat;
mod scenario;
mod scenario_run;
mod simulate;
mod step_verdict;
mod suite;
mod tools;

pub(crate) use agent_test_core::model::repeat_plan::Repeat;
pub use agent_test_core::model::repeat_plan::{Runs, up_to};
pub use budget::Budget;
pub use entry::{ScenarioSource, test_file_case, test_scenario};
pub(crate) use evaluator::RunParts;
pub use evaluator::ScenarioEvaluator;
pub use extract::Extraction;
pub use file_case::{FileCases, run_file_case};
pub use flavor::RuntimeFlavor;
pub use repeat::Repeats;
pub use scenario::RunScenario;
pub use scenario_run::ScenarioRun;
pub use simulate::{SimulatedUser, simulated_user};
pub use suite::{DEFAULT_TURN_TIMEOUT, Suite};
pub use tools::{
    DeclaredTools, DeclaredToolsError, DeclaredToolsErrorKind, ToolArgs, schema_of, tools_file,
    typed_tools,
};

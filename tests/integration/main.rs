//! Integration tests: `agent_test!` suites and the builder API against in-process agents.

mod agents;
mod declared_tools;
mod docs;
mod failures;
mod formats;
mod judged;
mod llm_steps;
mod macro_features;
mod priced;
mod reliability;
mod reports;
mod robustness;
#[cfg(feature = "files")]
mod seed_files;
mod snippets;

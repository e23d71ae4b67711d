//! Scenarios as data, and suites written for other systems, run unchanged: every case of every
//! file below `tests/cases/` is a test of its own, named after the file and the case. The
//! files are read at compile time (a malformed one is a compile error naming the file and the
//! field) and each file's format is detected from its content.
//!
//! - `native/*.json` — agent-test's own scenario form (docs/format/scenario.json)
//! - `mibo/*.json` — Mibo test cases
//! - `mcplab/*.yaml` — MCPLab scenarios
//! - `promptkit/*.yaml` — PromptKit `kind: Scenario` documents
//! - `lamdis/*.json` — Lamdis tests
//! - `morganabench/*.jsonl` — MorganaBench examples with their recorded `outputs`, evaluated
//!   without calling the agent

use agent_test::prelude::*;
use agent_test_examples::demo::demo_agent;

agent_test! {
    agent = demo_agent();
    context { CUSTOMER_EMAIL: "ana@example.com" }

    files "tests/cases/**/*.json";
    files "tests/cases/**/*.jsonl";
    files "tests/cases/**/*.yaml";
}

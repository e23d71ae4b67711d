//! The `agent-test` command's tests: one test binary (each file under `tests/` would be a
//! binary of its own, linking reqwest, rustls, rmcp and the OpenTelemetry types again), one
//! module per subject.

mod browser;
mod calibrate;
mod commands;
#[path = "../../../runtime/tests/otel/corpus.rs"]
mod corpus;
mod extremes;
mod mcp;
mod mutate;
mod options;
mod proxy;
mod repeats;
mod reports;
mod review;
mod seed_vocabulary;
mod support;

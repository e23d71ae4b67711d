//! Example agents for agent-test.
//!
//! [`demo`] is a small customer-service / booking agent that runs in-process with no network
//! and no API key: real tools over an in-memory store (hotel search, booking, order lookup,
//! refunds), driven by a deterministic, rule-based planner that stands in for an LLM. The
//! example suites in `examples/tests/` test it with `agent_test!`, in process and — through
//! [`demo_server`], which serves it over HTTP — with the `HttpAgent`, as a deployed agent.

pub mod background;
pub mod demo;
pub mod demo_mcp;
pub mod demo_otel;
pub mod demo_server;
pub mod scripted_judge;
pub mod scripted_model;

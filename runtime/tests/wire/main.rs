//! Agents and the judge over the wire, against real HTTP servers started on 127.0.0.1 by the
//! tests.

#[cfg(feature = "cassette")]
mod cassette;
mod chat_agent;
mod data_steps;
#[cfg(feature = "otlp")]
mod frameworks;
mod http_agent;
mod judge;
mod judge_cache;
mod judge_down;
mod judge_errors;
mod judge_server;
#[cfg(feature = "otlp")]
mod otlp;
#[cfg(feature = "cassette")]
mod providers;
mod secrets;
mod servers;
mod step_errors;

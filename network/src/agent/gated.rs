//! What a feature the build lacks would have given: items of the same names, exported where
//! the real ones would be, whose use is a compile error naming the feature to enable — on the
//! user's call, through `#[diagnostic::on_unimplemented]` — instead of "cannot find function
//! `HttpAgent`" or a check that fails when the test runs.
//!
//! Each stub takes an argument bounded by a trait no type implements; the trait's method turns
//! the impossible argument into [`Infallible`], so that the stub's body needs no value of what
//! it would return.
#![allow(dead_code, unreachable_pub, unreachable_code)]

use std::convert::Infallible;

/// Implemented by nothing: HTTP (`HttpAgent`, `ChatAgent`, `request`, a judge over HTTP) needs agent-test's `http` feature.
#[diagnostic::on_unimplemented(
    message = "HTTP (`HttpAgent`, `ChatAgent`, `request`, a judge over HTTP) needs agent-test's `http` feature",
    label = "this needs the `http` feature",
    note = "enable it in Cargo.toml: agent-test = {{ version = \"0.1\", features = [\"http\"] }}"
)]
pub trait HttpFeature {
    /// Unreachable: no type implements the trait.
    fn never(self) -> Infallible;
}

/// Implemented by nothing: an MCP server (`McpServer`, `McpAgent`) needs agent-test's `mcp` feature.
#[diagnostic::on_unimplemented(
    message = "an MCP server (`McpServer`, `McpAgent`) needs agent-test's `mcp` feature",
    label = "this needs the `mcp` feature",
    note = "enable it in Cargo.toml: agent-test = {{ version = \"0.1\", features = [\"mcp\"] }}"
)]
pub trait McpFeature {
    /// Unreachable: no type implements the trait.
    fn never(self) -> Infallible;
}

/// Implemented by nothing: reading an agent's `tracing` spans (`traced(..)`) needs agent-test's `tracing` feature.
#[diagnostic::on_unimplemented(
    message = "reading an agent's `tracing` spans (`traced(..)`) needs agent-test's `tracing` feature",
    label = "this needs the `tracing` feature",
    note = "enable it in Cargo.toml: agent-test = {{ version = \"0.1\", features = [\"tracing\"] }}"
)]
pub trait TracingFeature {
    /// Unreachable: no type implements the trait.
    fn never(self) -> Infallible;
}

/// Without the `http` feature: an error naming it. See `request::get`.
#[cfg(not(feature = "http"))]
pub fn get<U: HttpFeature>(url: U) -> Gated {
    match url.never() {}
}

/// Without the `http` feature: an error naming it. See `request::post`.
#[cfg(not(feature = "http"))]
pub fn post<U: HttpFeature>(url: U) -> Gated {
    match url.never() {}
}

/// Without the `tracing` feature: an error naming it.
#[cfg(not(feature = "tracing"))]
pub fn traced<A: TracingFeature>(agent: A) -> Gated {
    match agent.never() {}
}

/// What a gated constructor would have made: nothing can make one.
#[derive(Debug)]
pub struct Gated(Infallible);

/// A stub is an agent, so that `agent = HttpAgent::post(..);` says only what is missing.
macro_rules! stub_agent {
    ($($stub:ty),*) => {$(
        impl super::Agent for $stub {
            fn respond(
                &self,
                _: super::AgentRequest,
            ) -> super::BoxFuture<'_, Result<agent_test_core::model::Reply, super::AgentError>>
            {
                match self.0 {}
            }
        }
    )*};
}

stub_agent!(Gated);
#[cfg(not(feature = "http"))]
stub_agent!(HttpAgent, ChatAgent);
#[cfg(not(feature = "mcp"))]
stub_agent!(McpAgent);

/// Without the `http` feature: an error naming it on use.
#[cfg(not(feature = "http"))]
#[derive(Debug)]
pub struct HttpAgent(Infallible);

#[cfg(not(feature = "http"))]
impl HttpAgent {
    /// Needs the `http` feature.
    pub fn post<U: HttpFeature>(url: U) -> Self {
        match url.never() {}
    }
}

/// Without the `http` feature: an error naming it on use.
#[cfg(not(feature = "http"))]
#[derive(Debug)]
pub struct ChatAgent(Infallible);

#[cfg(not(feature = "http"))]
impl ChatAgent {
    /// Needs the `http` feature.
    pub fn new<M: HttpFeature>(model: M) -> Self {
        match model.never() {}
    }
}

/// Without the `mcp` feature: an error naming it on use.
#[cfg(not(feature = "mcp"))]
#[derive(Debug)]
pub struct McpServer(Infallible);

#[cfg(not(feature = "mcp"))]
impl McpServer {
    /// Needs the `mcp` feature.
    pub fn stdio<C: McpFeature>(command: C) -> Self {
        match command.never() {}
    }

    /// Needs the `mcp` feature.
    pub fn http<U: McpFeature>(url: U) -> Self {
        match url.never() {}
    }
}

/// Without the `mcp` feature: an error naming it on use.
#[cfg(not(feature = "mcp"))]
#[derive(Debug)]
pub struct McpAgent(Infallible);

#[cfg(not(feature = "mcp"))]
impl McpAgent {
    /// Needs the `mcp` feature.
    pub fn new<S: McpFeature>(server: S) -> Self {
        match server.never() {}
    }
}

//! What a feature the build lacks would have given: items of the same names, exported where
//! the real ones would be, whose use is a compile error naming the feature to enable — on the
//! user's call, through `#[diagnostic::on_unimplemented]` — instead of "cannot find function
//! `schema`" or a check that fails when the test runs.
//!
//! Each stub takes an argument bounded by a trait no type implements; the trait's method turns
//! the impossible argument into [`Infallible`], so that the stub's body needs no value of what
//! it would return.
#![allow(dead_code, unreachable_pub, unreachable_code)]

use std::convert::Infallible;

/// Implemented by nothing: a JSON Schema check (`schema(..)`, `matches_schema(..)`) needs agent-test's `schema` feature.
#[diagnostic::on_unimplemented(
    message = "a JSON Schema check (`schema(..)`, `matches_schema(..)`) needs agent-test's `schema` feature",
    label = "this needs the `schema` feature",
    note = "enable it in Cargo.toml: agent-test = {{ version = \"0.1\", features = [\"schema\"] }}"
)]
pub trait SchemaFeature {
    /// Unreachable: no type implements the trait.
    fn never(self) -> Infallible;
}

/// Implemented by nothing: declared tools are checked against their JSON Schemas, which needs
/// agent-test's `schema` feature.
#[diagnostic::on_unimplemented(
    message = "declared tools (`tools = ...`) are checked against their JSON Schemas: they need agent-test's `schema` feature",
    label = "this needs the `schema` feature",
    note = "enable it in Cargo.toml: agent-test = {{ version = \"0.1\", features = [\"schema\"] }}"
)]
pub trait DeclaredToolsFeature {
    /// Unreachable: no type implements the trait.
    fn never(self) -> Infallible;
}

/// Implemented by nothing: a JSONPath check (`json_path(..)`) needs agent-test's `jsonpath` feature.
#[diagnostic::on_unimplemented(
    message = "a JSONPath check (`json_path(..)`) needs agent-test's `jsonpath` feature",
    label = "this needs the `jsonpath` feature",
    note = "enable it in Cargo.toml: agent-test = {{ version = \"0.1\", features = [\"jsonpath\"] }}"
)]
pub trait JsonPathFeature {
    /// Unreachable: no type implements the trait.
    fn never(self) -> Infallible;
}

/// Implemented by nothing: a JMESPath check (`jmespath(..)`) needs agent-test's `jmespath` feature.
#[diagnostic::on_unimplemented(
    message = "a JMESPath check (`jmespath(..)`) needs agent-test's `jmespath` feature",
    label = "this needs the `jmespath` feature",
    note = "enable it in Cargo.toml: agent-test = {{ version = \"0.1\", features = [\"jmespath\"] }}"
)]
pub trait JmesPathFeature {
    /// Unreachable: no type implements the trait.
    fn never(self) -> Infallible;
}

/// Without the `schema` feature: an error naming it. See [`crate::check::schema`].
#[cfg(not(feature = "schema"))]
pub fn schema<S: SchemaFeature>(schema: S) -> super::SchemaCheck {
    match schema.never() {}
}

/// Without the `schema` feature: an error naming it. See [`crate::matcher::matches_schema`].
#[cfg(not(feature = "schema"))]
pub fn matches_schema<S: SchemaFeature>(schema: S) -> crate::matcher::Matcher {
    match schema.never() {}
}

/// Without the `jsonpath` feature: an error naming it. See [`crate::check::json_path`].
#[cfg(not(feature = "jsonpath"))]
pub fn json_path<Q: JsonPathFeature>(query: Q) -> super::JsonPath {
    match query.never() {}
}

/// Without the `jmespath` feature: an error naming it. See [`crate::check::jmespath`].
#[cfg(not(feature = "jmespath"))]
pub fn jmespath<E: JmesPathFeature>(expression: E) -> super::JmesPath {
    match expression.never() {}
}

//! Reading the world's inputs, and the runtime's own shape: the seed formats, the native JSON
//! forms, traces (OpenTelemetry and the providers' own) and the layering of the sources. One
//! test binary with one module per subject: each file under `tests/` would be a binary of its
//! own, linking the runtime's dependencies again.

mod capture;
mod formats;
mod inputs;
mod layers;
mod otel;
mod traces;

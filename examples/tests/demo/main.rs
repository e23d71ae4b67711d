//! The example suite: agent-test scenarios against the bundled demo agent.
//!
//! Run it and see every scenario's report:
//!
//! ```text
//! cargo test -p agent-test-examples --test demo -- --nocapture --test-threads=1
//! ```

mod booking;
mod instrumented;
mod judged;
mod over_http;
mod seed_files;
mod shared_client;
mod support;
mod workflows;

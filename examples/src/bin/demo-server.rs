//! The demo agent behind HTTP, for trying `agent-test run --http` by hand:
//!
//! ```text
//! cargo run -p agent-test-examples --bin demo-server -- 127.0.0.1:8080
//! ```
//!
//! With `--otlp <ENDPOINT>` it is a black box instrumented with OpenTelemetry: its answers
//! carry only the reply, and its spans go to the OTLP/HTTP endpoint (for
//! `agent-test run --http http://127.0.0.1:8080/chat --otlp 127.0.0.1:4318`):
//!
//! ```text
//! cargo run -p agent-test-examples --bin demo-server -- 127.0.0.1:8080 --otlp http://127.0.0.1:4318
//! ```
//!
//! See [`agent_test_examples::demo_server`] for the protocol.

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let otlp = args
        .iter()
        .position(|a| a == "--otlp")
        .and_then(|i| args.get(i + 1))
        .cloned()
        .or_else(|| std::env::var("OTEL_EXPORTER_OTLP_ENDPOINT").ok());
    let addr = args
        .iter()
        .find(|a| !a.starts_with("--") && Some(*a) != otlp.as_ref())
        .cloned()
        .unwrap_or_else(|| "127.0.0.1:8080".to_owned());
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    let router = match &otlp {
        Some(endpoint) => {
            eprintln!("exporting spans to {endpoint}");
            agent_test_examples::demo_server::traced_router(endpoint)
        }
        None => agent_test_examples::demo_server::router(),
    };
    eprintln!(
        "demo agent listening on http://{}/chat (Ctrl-C stops it)",
        listener.local_addr()?
    );
    axum::serve(listener, router).await
}

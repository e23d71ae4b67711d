//! The demo agent behind HTTP, for trying `agent-test run --http` by hand:
//!
//! ```text
//! cargo run -p agent-test-examples --bin demo-server -- 127.0.0.1:8080
//! ```
//!
//! See [`agent_test_examples::demo_server`] for the protocol.

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::io::Result<()> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:8080".to_owned());
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    eprintln!(
        "demo agent listening on http://{}/chat (Ctrl-C stops it)",
        listener.local_addr()?
    );
    axum::serve(listener, agent_test_examples::demo_server::router()).await
}

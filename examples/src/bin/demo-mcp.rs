//! The demo store as an MCP server (see [`agent_test_examples::demo_mcp`]): over stdio by
//! default, for `McpServer::stdio(..)` and `agent-test run --mcp 'stdio:...'`,
//!
//! ```text
//! cargo run -p agent-test-examples --bin demo-mcp
//! ```
//!
//! or over streamable HTTP with `--http ADDR` (at `http://ADDR/mcp`):
//!
//! ```text
//! cargo run -p agent-test-examples --bin demo-mcp -- --http 127.0.0.1:8000
//! ```

use agent_test_examples::demo_mcp::DemoMcp;
use rmcp::ServiceExt;

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::io::Result<()> {
    // `--marker=TEXT` labels the process's command line (tests look for it in /proc).
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--marker="))
        .collect();
    match args.as_slice() {
        [] => {}
        [flag, addr] if flag == "--http" => {
            let listener = tokio::net::TcpListener::bind(addr).await?;
            eprintln!(
                "demo-mcp listening on http://{}/mcp",
                listener.local_addr()?
            );
            return axum::serve(listener, DemoMcp::router()).await;
        }
        _ => {
            eprintln!("usage: demo-mcp [--http ADDR]   (got {args:?})");
            std::process::exit(2);
        }
    }
    // Diagnostics go to standard error: standard output is the protocol.
    eprintln!("demo-mcp: serving over stdio");
    let running = DemoMcp::new()
        .serve(rmcp::transport::stdio())
        .await
        .map_err(std::io::Error::other)?;
    let reason = running.waiting().await.map_err(std::io::Error::other)?;
    eprintln!("demo-mcp: stopped ({reason:?})");
    Ok(())
}

//! `agent-test run` with MCP: an MCP server under test (`--mcp-server`) and a model given an MCP
//! server's tools (`--openai ... --mcp`), against a real MCP server (the official Rust SDK) and a
//! scripted OpenAI-compatible model, both on 127.0.0.1.

use std::sync::Arc;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, ServerCapabilities, ServerConfig};
use rmcp::{ServerHandler, tool, tool_handler, tool_router};
use serde_json::{Value, json};

mod support;
use support::command::{assert_exit, bin, serve, temp, text};

/// `weather`'s parameters.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct City {
    /// The city.
    city: String,
}

#[derive(Clone)]
struct Weather {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Weather {
    #[tool(description = "Today's weather in a city")]
    async fn weather(&self, Parameters(c): Parameters<City>) -> CallToolResult {
        if c.city == "Atlantis" {
            return CallToolResult::error(vec![ContentBlock::text("no such city")]);
        }
        CallToolResult::success(vec![ContentBlock::text(
            json!({"city": c.city, "sky": "sunny"}).to_string(),
        )])
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Weather {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

/// Serves the weather MCP server over streamable HTTP; returns its URL.
async fn weather_server() -> String {
    use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    use rmcp::transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService,
    };
    let service = StreamableHttpService::new(
        || {
            Ok(Weather {
                tool_router: Weather::tool_router(),
            })
        },
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let router = axum::Router::new().nest_service("/mcp", service);
    let addr = serve(router).await;
    format!("http://{addr}/mcp")
}

/// A model that asks for `weather` in the city the user names, then answers from the result.
async fn model() -> String {
    use axum::routing::post;
    let router = axum::Router::new().route(
        "/v1/chat/completions",
        post(|axum::Json(body): axum::Json<Value>| async move {
            let messages = body["messages"].as_array().cloned().unwrap_or_default();
            let last = messages.last().cloned().unwrap_or(Value::Null);
            let message = if last["role"] == "tool" {
                json!({"role": "assistant", "content": format!("The weather: {}", last["content"].as_str().unwrap_or(""))})
            } else {
                let city = last["content"].as_str().unwrap_or("").rsplit(' ').next().unwrap_or("").trim_end_matches('?').to_owned();
                json!({"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function",
                    "function": {"name": "weather", "arguments": json!({"city": city}).to_string()}}]})
            };
            axum::Json(json!({"choices": [{"message": message}], "usage": {"prompt_tokens": 10, "completion_tokens": 5}}))
        }),
    );
    let addr = serve(router).await;
    format!("http://{addr}/v1")
}

fn scenarios(dir: &std::path::Path, v: Value) -> std::path::PathBuf {
    std::fs::create_dir_all(dir).expect("dir");
    let path = dir.join("s.json");
    std::fs::write(&path, v.to_string()).expect("write");
    path
}

#[tokio::test]
async fn run_tests_an_mcp_server_and_a_model_using_one() {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let dir = temp("mcp");
    let server = weather_server().await;
    let model = model().await;
    // The server under test: each user step's body is an MCP request.
    let direct = scenarios(
        &dir.join("direct"),
        json!({"name": "weather tool", "steps": [
            {"step": "user", "text": "weather Lisbon", "body": {"mcp": "tools/call", "name": "weather", "arguments": {"city": "Lisbon"}},
             "expect": [{"check": {"type": "tool", "name": "weather", "result": [{"name": "", "matcher": "contains", "value": "sunny"}]}}]},
            {"step": "user", "text": "weather Atlantis", "body": {"mcp": "tools/call", "name": "weather", "arguments": {"city": "Atlantis"}},
             "expect": [{"check": {"type": "tool", "name": "weather", "result": [{"name": "", "matcher": "contains", "value": "sunny"}]}}]},
            {"step": "user", "text": "tools/list", "body": {"mcp": "tools/list"},
             "expect": [{"check": {"type": "tool_list"}}]}
        ]}),
    );
    // A model given the server's tools.
    let modelled = scenarios(
        &dir.join("model"),
        json!({"name": "weather question", "steps": [
            {"step": "user", "text": "What is the weather in Porto?", "expect": [
                {"check": {"type": "tool", "name": "weather", "args": [{"name": "city", "matcher": "exact", "value": "Porto"}]}},
                {"check": {"type": "text", "source": "reply", "op": "contains", "value": "sunny"}}]}
        ]}),
    );
    let (direct_out, model_out) = tokio::task::spawn_blocking({
        let (server, model, dir) = (server.clone(), model.clone(), dir.clone());
        move || {
            let direct = bin()
                .args(["run", "--scenarios"])
                .arg(&direct)
                .args(["--mcp-server", &server, "--record-dir"])
                .arg(dir.join("rec"))
                .output()
                .expect("runs");
            let modelled = bin()
                .args(["run", "--scenarios"])
                .arg(&modelled)
                .args([
                    "--openai",
                    "scripted",
                    "--base-url",
                    &model,
                    "--mcp",
                    &server,
                    "--record-dir",
                ])
                .arg(dir.join("rec"))
                .output()
                .expect("runs");
            (direct, modelled)
        }
    })
    .await
    .expect("joined");
    // Atlantis: the tool's error result fails the second turn's check; the first passes.
    assert_exit(&direct_out, 1);
    let t = text(&direct_out.stdout);
    assert!(
        t.contains("✓ turn 1  tool `weather` called returning text containing \"sunny\""),
        "{t}"
    );
    assert!(
        t.contains("✗ turn 2  tool `weather` called returning text containing \"sunny\""),
        "{t}"
    );
    assert!(t.contains("no such city"), "{t}");
    assert!(t.contains("✓ turn 3  the tool list is valid"), "{t}");
    assert_exit(&model_out, 0);
    assert!(
        text(&model_out.stdout).contains("1 passed, 0 failed"),
        "{}",
        text(&model_out.stdout)
    );
    // A bad server spec is a command-line error; --mcp needs --openai.
    let out = bin()
        .args(["run", "--scenarios", "s.json", "--mcp-server", "ftp://x"])
        .output()
        .expect("runs");
    assert_exit(&out, 2);
    assert!(
        text(&out.stderr)
            .contains("is not an MCP server: `[NAME=]stdio:COMMAND ARGS...` or `[NAME=]URL`"),
        "{}",
        text(&out.stderr)
    );
    let out = bin()
        .args([
            "run",
            "--scenarios",
            "s.json",
            "--http",
            "http://x",
            "--mcp",
            "stdio:x",
        ])
        .output()
        .expect("runs");
    assert_exit(&out, 2);
}

//! `agent-test run` with MCP: an MCP server under test (`--mcp-server`) and a model given an MCP
//! server's tools (`--openai ... --mcp`), against a real MCP server (the official Rust SDK) and a
//! scripted OpenAI-compatible model, both on 127.0.0.1.

use std::sync::Arc;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, ServerCapabilities, ServerConfig};
use rmcp::{ServerHandler, tool, tool_handler, tool_router};
use serde_json::{Value, json};

use crate::support::command::{assert_exit, bin, serve, temp, text};

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

// ---- the official MCP reference servers ----
//
// server-everything, server-filesystem and mcp-server-time, as installed by
// `runtime/tests/fixtures/mcp/install.sh` (what they do: PROBE.md beside it). Without them
// installed these tests are skipped, saying so — unless `AGENT_TEST_REQUIRE_MCP_SERVERS=1`
// (CI), where that is a failure.

/// The commands that start the installed reference servers over stdio, and where they are.
struct Reference {
    dir: std::path::PathBuf,
    everything: String,
    filesystem: String,
    time: String,
}

/// The installed servers, or `None` (the test is skipped, saying why).
fn reference() -> Option<&'static Reference> {
    static INSTALLED: std::sync::OnceLock<Result<Reference, String>> = std::sync::OnceLock::new();
    let installed = INSTALLED.get_or_init(|| {
        let script = r#"out="$(bash "$0" --check)" || exit $?
eval "$out"
printf '%s\n' "$AGENT_TEST_MCP_SERVERS" "$MCP_EVERYTHING_STDIO" "$MCP_FILESYSTEM_STDIO" "$MCP_TIME_STDIO""#;
        let install = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../runtime/tests/fixtures/mcp/install.sh"
        );
        let out = std::process::Command::new("bash")
            .args(["-c", script, install])
            .output()
            .map_err(|e| format!("cannot run bash: {e}"))?;
        if !out.status.success() {
            return Err(text(&out.stderr).trim().to_owned());
        }
        let stdout = text(&out.stdout);
        match stdout.lines().collect::<Vec<_>>()[..] {
            [dir, everything, filesystem, time] if !time.is_empty() => Ok(Reference {
                dir: dir.into(),
                everything: everything.to_owned(),
                filesystem: filesystem.to_owned(),
                time: time.to_owned(),
            }),
            _ => Err(format!("`install.sh --check` printed no start commands: {stdout:?}")),
        }
    });
    match installed {
        Ok(r) => Some(r),
        Err(why) if std::env::var("AGENT_TEST_REQUIRE_MCP_SERVERS").is_ok_and(|v| v == "1") => {
            panic!(
                "{why} (the MCP reference servers are required: AGENT_TEST_REQUIRE_MCP_SERVERS=1)"
            )
        }
        Err(why) => {
            eprintln!("skipped: {why} (AGENT_TEST_REQUIRE_MCP_SERVERS=1 makes this a failure)");
            None
        }
    }
}

/// The environment variable that marks the processes of one test: the `agent-test` it runs
/// and every server that inherits it.
const MARKER: &str = "AGENT_TEST_MCP_REFERENCE_MARKER";

fn marker(test: &str) -> String {
    format!("cli-mcp-reference-{}-{test}", std::process::id())
}

/// The processes with `marker` in their environment (read from `/proc`; zombies are not
/// running).
fn running(marker: &str) -> Vec<String> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let environ = std::fs::read(entry.path().join("environ")).unwrap_or_default();
        if !String::from_utf8_lossy(&environ).contains(marker) {
            continue;
        }
        let state = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        if !state.split(") ").nth(1).is_some_and(|s| s.starts_with('Z')) {
            let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
            out.push(String::from_utf8_lossy(&cmdline).replace('\0', " "));
        }
    }
    out
}

#[track_caller]
fn assert_none_left(marker: &str) {
    assert_eq!(
        running(marker),
        Vec::<String>::new(),
        "a server outlived agent-test"
    );
}

/// `agent-test run --scenarios FILE ARGS...`, marked, from a blocking thread (the reports
/// recorded beside the file).
async fn run_cli(
    marker: &str,
    scenarios: &std::path::Path,
    args: Vec<String>,
) -> std::process::Output {
    let (marker, scenarios) = (marker.to_owned(), scenarios.to_owned());
    let records = scenarios.with_extension("records");
    tokio::task::spawn_blocking(move || {
        bin()
            .env(MARKER, marker)
            .arg("run")
            .arg("--scenarios")
            .arg(scenarios)
            .arg("--record-dir")
            .arg(records)
            .args(args)
            .output()
            .expect("runs")
    })
    .await
    .expect("joined")
}

/// The verdicts of the one run of `--format json` output, as `(status, label)`.
fn verdicts(out: &std::process::Output) -> Vec<(String, String)> {
    let all: Value = serde_json::from_slice(&out.stdout).expect("JSON output");
    all["runs"][0]["report"]["verdicts"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|v| {
            let field = |k: &str| v[k].as_str().unwrap_or_default().to_owned();
            (field("status"), field("label"))
        })
        .collect()
}

/// A user step sending an MCP tool call, with its checks.
fn call(name: &str, arguments: Value, expect: Value) -> Value {
    json!({"step": "user", "text": format!("{name} {arguments}"),
           "body": {"mcp": "tools/call", "name": name, "arguments": arguments},
           "expect": expect})
}

#[tokio::test]
async fn run_tests_the_reference_time_server() {
    let Some(r) = reference() else { return };
    let dir = temp("reference-time");
    let m = marker("time");
    let path = scenarios(
        &dir,
        json!({"name": "time server", "steps": [
            call("get_current_time", json!({"timezone": "Europe/Warsaw"}), json!([
                {"check": {"type": "tool", "name": "get_current_time", "filter": "succeeded",
                           "result": [{"name": "timezone", "matcher": "exact", "value": "Europe/Warsaw"}]}},
                {"check": {"type": "field", "path": "structuredContent.timezone",
                           "matcher": {"matcher": "exact", "value": "Europe/Warsaw"}}},
                {"check": {"type": "json_path", "path": "$.structuredContent.day_of_week", "expect": "exists"}}
            ])),
            // Argument of the wrong type: an `isError` result (execution); an unknown tool: a
            // protocol error (validation), its body the error.
            call("get_current_time", json!({"timezone": 5}), json!([
                {"check": {"type": "tool", "name": "get_current_time", "filter": {"failed_with": "execution"}}}
            ])),
            call("no_such_tool", json!({}), json!([
                {"check": {"type": "tool", "name": "no_such_tool", "filter": {"failed_with": "validation"}}},
                {"check": {"type": "field", "path": "error.code", "matcher": {"matcher": "exact", "value": -32602}}}
            ])),
            {"step": "user", "text": "tools/list", "body": {"mcp": "tools/list"},
             "expect": [{"check": {"type": "tool_list"}}]}
        ], "expect": [{"check": {"type": "structured_output"}}]}),
    );
    let out = run_cli(
        &m,
        &path,
        vec![
            "--mcp-server".into(),
            format!("stdio:{}", r.time),
            "--format".into(),
            "json".into(),
        ],
    )
    .await;
    assert_exit(&out, 0);
    let v = verdicts(&out);
    assert_eq!(v.len(), 8, "{v:?}");
    assert!(v.iter().all(|(status, _)| status == "pass"), "{v:?}");
    assert!(
        v.iter().any(|(_, label)| label == "the tool list is valid"),
        "{v:?}"
    );
    assert!(
        v.iter()
            .any(|(_, label)| label == "structured results meet their output schemas"),
        "{v:?}"
    );
    assert_none_left(&m);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn run_starts_a_server_under_a_directory_with_a_space() {
    let Some(r) = reference() else { return };
    let dir = temp("reference-space");
    let spaced = dir.join("dir with space");
    std::fs::create_dir_all(&spaced).expect("dir");
    let launcher = spaced.join("mcp-server-time");
    std::os::unix::fs::symlink(r.dir.join("venv/bin/mcp-server-time"), &launcher).expect("symlink");
    let m = marker("space");
    let path = scenarios(
        &dir,
        json!({"name": "quoted", "steps": [
            call("get_current_time", json!({"timezone": "UTC"}), json!([
                {"check": {"type": "tool", "name": "get_current_time",
                           "result": [{"name": "timezone", "matcher": "exact", "value": "UTC"}]}},
                // Named after the command's file name.
                {"check": {"type": "tool", "target": "node", "name": "mcp-server-time"}}
            ]))
        ]}),
    );
    let spec = format!("stdio:\"{}\" --local-timezone UTC", launcher.display());
    let out = run_cli(
        &m,
        &path,
        vec![
            "--mcp-server".into(),
            spec,
            "--format".into(),
            "json".into(),
        ],
    )
    .await;
    assert_exit(&out, 0);
    let v = verdicts(&out);
    assert_eq!(v.len(), 2, "{v:?}");
    assert!(v.iter().all(|(status, _)| status == "pass"), "{v:?}");
    assert_none_left(&m);
    // Unquoted, the path is three words: a command that does not exist.
    let spec = format!("stdio:{} --local-timezone UTC", launcher.display());
    let out = run_cli(&m, &path, vec!["--mcp-server".into(), spec]).await;
    assert_exit(&out, 1);
    let t = text(&out.stdout);
    assert!(
        t.contains("could not start: No such file or directory"),
        "{t}"
    );
    assert_none_left(&m);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A model that calls the tool its user names — `call TOOL {ARGUMENTS}` — then answers with
/// what the tool said; with what it received.
async fn calling_model() -> (String, std::sync::Arc<std::sync::Mutex<Vec<Value>>>) {
    use axum::routing::post;
    let received = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = received.clone();
    let router = axum::Router::new().route(
        "/v1/chat/completions",
        post(move |axum::Json(body): axum::Json<Value>| {
            let log = log.clone();
            async move {
                log.lock().unwrap_or_else(|p| p.into_inner()).push(body.clone());
                let messages = body["messages"].as_array().cloned().unwrap_or_default();
                let last = messages.last().cloned().unwrap_or(Value::Null);
                let message = if last["role"] == "tool" {
                    json!({"role": "assistant",
                           "content": format!("The tool said: {}", last["content"].as_str().unwrap_or(""))})
                } else {
                    let user = last["content"].as_str().unwrap_or("");
                    let mut words = user.splitn(3, ' ');
                    let (_, name, args) = (words.next(), words.next().unwrap_or(""), words.next().unwrap_or("{}"));
                    json!({"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function",
                        "function": {"name": name, "arguments": args}}]})
                };
                axum::Json(json!({"choices": [{"message": message}],
                                  "usage": {"prompt_tokens": 10, "completion_tokens": 5}}))
            }
        }),
    );
    let addr = serve(router).await;
    (format!("http://{addr}/v1"), received)
}

#[tokio::test]
async fn run_gives_a_model_two_servers_started_with_one_command_by_name() {
    let Some(r) = reference() else { return };
    let dir = temp("reference-model");
    std::fs::write(dir.join("notes.txt"), "the notes\n").expect("write");
    let m = marker("model");
    let (model, received) = calling_model().await;
    let notes = dir.join("notes.txt").display().to_string();
    let path = scenarios(
        &dir.join("s"),
        json!({"name": "two servers", "steps": [
            {"step": "user", "text": "call get-tiny-image {}", "expect": [
                {"check": {"type": "tool", "name": "get-tiny-image", "filter": "succeeded"}},
                {"check": {"type": "tool", "target": "node", "name": "everything"}},
                {"check": {"type": "text", "source": "reply", "op": "contains", "value": "[image: image/png, 3.9 KiB]"}}]},
            {"step": "user", "text": format!("call read_text_file {}", json!({"path": notes})), "expect": [
                {"check": {"type": "tool", "target": "node", "name": "files"}},
                {"check": {"type": "tool", "name": "read_text_file",
                           "result": [{"name": "content", "matcher": "exact", "value": "the notes\n"}]}}]}
        ]}),
    );
    // Both are started with `node`: named, they are told apart.
    let everything = format!("everything=stdio:{}", r.everything);
    let files = format!("files=stdio:{} {}", r.filesystem, dir.display());
    let args = |servers: [&str; 2]| {
        let mut a: Vec<String> = ["--openai", "scripted", "--base-url", &model]
            .map(String::from)
            .into();
        for s in servers {
            a.extend(["--mcp".to_owned(), s.to_owned()]);
        }
        a
    };
    let out = run_cli(&m, &path, args([&everything, &files])).await;
    assert_exit(&out, 0);
    assert!(
        text(&out.stdout).contains("1 passed, 0 failed"),
        "{}",
        text(&out.stdout)
    );
    // The model was told the image's type and size, not its bytes.
    let told = received.lock().unwrap()[1]["messages"]
        .as_array()
        .and_then(|m| m.last())
        .cloned()
        .expect("a tool message");
    assert_eq!(
        told["content"],
        "Here's the image you requested:\n[image: image/png, 3.9 KiB]\nThe image above is the MCP logo."
    );
    assert_none_left(&m);
    // Unnamed, both are `node`: which one a call meant would be a guess.
    let unnamed = [
        format!("stdio:{}", r.everything),
        format!("stdio:{} {}", r.filesystem, dir.display()),
    ];
    let out = run_cli(&m, &path, args([&unnamed[0], &unnamed[1]])).await;
    assert_exit(&out, 2);
    // Said in the command line's terms, before any server starts.
    let t = text(&out.stderr);
    assert!(
        t.contains("--mcp: two servers are named `node` (MCP server `node` (stdio: ")
            && t.contains("name them, `--mcp NAME=stdio:COMMAND ...` or `--mcp NAME=URL`")
            && !t.contains(".named("),
        "{t}"
    );
    assert_none_left(&m);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn mcp_timeout_and_mcp_max_message_on_the_command_line() {
    let Some(r) = reference() else { return };
    let dir = temp("reference-limits");
    let m = marker("limits");
    // --mcp-timeout: the server's request timeout, well under the turn's.
    let slow = scenarios(
        &dir.join("slow"),
        json!({"name": "slow", "steps": [
            call("trigger-long-running-operation", json!({"duration": 600, "steps": 2}), json!([]))
        ]}),
    );
    let started = std::time::Instant::now();
    let out = run_cli(
        &m,
        &slow,
        [
            "--mcp-server",
            &format!("stdio:{}", r.everything),
            "--mcp-timeout",
            "2",
        ]
        .map(String::from)
        .into(),
    )
    .await;
    assert!(
        started.elapsed() < std::time::Duration::from_secs(60),
        "{:?}",
        started.elapsed()
    );
    assert_exit(&out, 1);
    let t = text(&out.stdout);
    assert!(
        t.contains("MCP server `node` (stdio: ")
            && t.contains("failed during tools/call: no answer within 2000 ms"),
        "{t}"
    );
    // server-everything, whose operation runs on, was ended with agent-test.
    assert_none_left(&m);

    // --mcp-max-message: a 17 MB file is an answer of 32.8 MiB.
    let line = format!(
        "{}\n",
        "0123456789abcdefghij"
            .repeat(5)
            .get(..84)
            .unwrap_or_default()
    );
    let mut big = line.repeat(17_000_000 / line.len() + 1);
    big.truncate(17_000_000);
    std::fs::write(dir.join("big17mb.txt"), big).expect("write");
    let read = scenarios(
        &dir.join("read"),
        json!({"name": "big read", "steps": [
            call("read_text_file", json!({"path": dir.join("big17mb.txt").display().to_string()}), json!([
                {"check": {"type": "tool", "name": "read_text_file", "filter": "succeeded"}}
            ]))
        ]}),
    );
    let files = format!("stdio:{} {}", r.filesystem, dir.display());
    let with = |limit: Option<&str>| {
        let mut a = vec!["--mcp-server".to_owned(), files.clone()];
        if let Some(l) = limit {
            a.extend(["--mcp-max-message".to_owned(), l.to_owned()]);
        }
        a
    };
    for (limit, shown) in [(None, "16 MiB"), (Some("32MiB"), "32 MiB")] {
        let out = run_cli(&m, &read, with(limit)).await;
        assert_exit(&out, 1);
        let t = text(&out.stdout);
        assert!(
            t.contains("answered tools/call with a message of 32.8 MiB (344")
                && t.contains(&format!("bytes), over the limit of {shown} (`McpServer::max_message_bytes`, `--mcp-max-message`)")),
            "{limit:?}: {t}"
        );
        assert_none_left(&m);
    }
    let out = run_cli(&m, &read, with(Some("64MiB"))).await;
    assert_exit(&out, 0);
    assert!(
        text(&out.stdout).contains("1 passed, 0 failed"),
        "{}",
        text(&out.stdout)
    );
    assert_none_left(&m);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The client capabilities a test gives on the command line: roots, a scripted sampling reply
/// and an elicitation answer, which server-everything asks for from its tools.
#[tokio::test]
async fn run_answers_a_server_s_roots_sampling_and_elicitation_requests() {
    let Some(r) = reference() else { return };
    let dir = temp("reference-capabilities");
    let m = marker("capabilities");
    let reply_has = |text: &str| json!({"check": {"type": "text", "source": "reply", "op": "contains", "value": text}});
    let path = scenarios(
        &dir,
        json!({"name": "capabilities", "steps": [
            call("get-roots-list", json!({}), json!([reply_has("URI: file:///srv/agent-test-root")])),
            call("trigger-sampling-request", json!({"prompt": "Write a haiku", "maxTokens": 50}), json!([
                reply_has("A scripted haiku."),
                {"check": {"type": "json_path",
                           "path": "$.notifications[?@.method == 'sampling/createMessage'].answer.content.text",
                           "expect": {"equals": "A scripted haiku."}}}
            ])),
            call("trigger-elicitation-request", json!({}), json!([reply_has("- Name: Ana Lima")]))
        ]}),
    );
    let out = run_cli(
        &m,
        &path,
        vec![
            "--mcp-server".into(),
            format!("stdio:{}", r.everything),
            "--mcp-roots".into(),
            "file:///srv/agent-test-root".into(),
            "--mcp-sampling-reply".into(),
            "A scripted haiku.".into(),
            "--mcp-elicitation".into(),
            r#"accept:{"name": "Ana Lima"}"#.into(),
            "--format".into(),
            "json".into(),
        ],
    )
    .await;
    assert_exit(&out, 0);
    let v = verdicts(&out);
    assert_eq!(v.len(), 4, "{v:?}");
    assert!(v.iter().all(|(status, _)| status == "pass"), "{v:?}");

    // Declined: the server is told so.
    let path = scenarios(
        &dir,
        json!({"name": "declined", "steps": [
            call("trigger-elicitation-request", json!({}),
                 json!([reply_has("User declined to provide the requested information.")]))
        ]}),
    );
    let out = run_cli(
        &m,
        &path,
        vec![
            "--mcp-server".into(),
            format!("stdio:{}", r.everything),
            "--mcp-elicitation".into(),
            "decline".into(),
        ],
    )
    .await;
    assert_exit(&out, 0);

    // Answers that cannot be meant are refused, naming the fix.
    for (flag, value, said) in [
        (
            "--mcp-roots",
            "/srv/data",
            "`/srv/data` is a path, not a URI: write `file:///srv/data`",
        ),
        ("--mcp-roots", "data", "`data` is not a URI"),
        (
            "--mcp-elicitation",
            "yes",
            "expected `accept:JSON` (the form's values), `decline` or `cancel`",
        ),
        (
            "--mcp-elicitation",
            "accept:[1]",
            "the accepted values must be a JSON object",
        ),
        (
            "--mcp-elicitation",
            "accept:{",
            "the accepted values are not JSON",
        ),
    ] {
        let out = run_cli(
            &m,
            &path,
            vec![
                "--mcp-server".into(),
                format!("stdio:{}", r.everything),
                flag.into(),
                value.into(),
            ],
        )
        .await;
        assert_exit(&out, 2);
        assert!(
            text(&out.stderr).contains(said),
            "{flag} {value}: {}",
            text(&out.stderr)
        );
    }
    assert_none_left(&m);
    let _ = std::fs::remove_dir_all(&dir);
}

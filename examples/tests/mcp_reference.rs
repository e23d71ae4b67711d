//! MCP against the official reference servers — `@modelcontextprotocol/server-everything`,
//! `@modelcontextprotocol/server-filesystem`, `mcp-server-time` and `mcp-server-git`, pinned and
//! installed by `runtime/tests/fixtures/mcp/install.sh` — through the Rust API:
//!
//! - each server under test with `McpAgent`: tool results and the checks on them, tool errors
//!   (execution and validation kinds), protocol errors as replies, the tool lists, structured
//!   output against the declared schemas, resources, templates, prompts, completion, ping and
//!   logging, and the notifications sent with a turn;
//! - the client capabilities a test gives: roots (server-filesystem's directories replaced by
//!   them), sampling and elicitation;
//! - binary and large results: an image a model is told about, a 6 MiB file within the message
//!   limit and a 17 MB one over it;
//! - a `ChatAgent` whose scripted model (on 127.0.0.1) calls the servers' tools, and is told
//!   when a structured result breaks its tool's output schema;
//! - servers written for the tests on the official TypeScript and Python SDKs
//!   (`sdk_server.mjs`, `sdk_server.py`), over stdio and streamable HTTP: paginated tool lists,
//!   `outputSchema` met and broken, `isError`, an unknown tool, an HTTP server killed mid-run;
//! - the faults — a server that does not start, server-everything that does not exit on its own
//!   while its timers run, a turn that times out, a command under a directory with a space —
//!   each followed by a look in `/proc` that no server process is left.
//!
//! What the servers do is in `runtime/tests/fixtures/mcp/PROBE.md`. Without them installed the
//! tests are skipped, saying so — unless `AGENT_TEST_REQUIRE_MCP_SERVERS=1` (CI), where that is
//! a failure.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use agent_test::agent::Agent;
use agent_test::agent::{ChatAgent, Elicitation, McpAgent, McpServer, mcp};
use agent_test::check::Status;
use agent_test::model::ToolErrorKind;
use agent_test::model::{Reply, Transcript, Turn};
use agent_test::prelude::*;
use agent_test::report::Report;
use agent_test::serde_json::Value;
use agent_test::{ScenarioRun, Suite, evaluate};
use std::time::Duration;

mod support;
use support::reference::{MARKER, Sdk, assert_none_left, marker, reference};
use support::running;

/// A fresh temporary directory for one test.
fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "agent-test-mcp-reference-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn run_of(agent: impl Agent + 'static, name: &str) -> ScenarioRun {
    ScenarioRun::new(Suite::new().agent(agent), format!("mcp reference {name}"))
}

/// The reply body of the run's last turn.
fn last_body(run: &ScenarioRun) -> Value {
    run.last_turn()
        .and_then(|t| t.reply.body.clone())
        .unwrap_or(Value::Null)
}

/// The reason of the report's agent error (a turn that failed).
fn agent_failure(report: &Report) -> String {
    report
        .verdicts
        .iter()
        .find(|v| v.check == "agent")
        .map(|v| v.reason.clone())
        .unwrap_or_else(|| panic!("no agent failure in {report}"))
}

/// The methods of the notifications recorded with a turn's body.
fn notified(body: &Value, method: &str) -> Vec<Value> {
    body["notifications"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|n| n["method"] == method)
        .cloned()
        .collect()
}

// ---- the servers' tools ----

#[tokio::test]
async fn the_time_server_s_tools_results_and_errors() {
    let Some(r) = reference() else { return };
    let m = marker("time");
    let mut run = run_of(McpAgent::new(r.time(&m)), "time");
    run.user(mcp::call_tool(
        "get_current_time",
        json!({"timezone": "Europe/Warsaw"}),
    ))
    .await;
    run.expect_turn(
        tool("get_current_time")
            .arg("timezone", "Europe/Warsaw")
            .result_at("timezone", "Europe/Warsaw")
            .result_at(
                "datetime",
                regex(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0[12]:00$"),
            )
            .succeeded(),
    );
    run.expect_turn(node("time"));
    run.expect_turn(field("structuredContent.timezone").is("Europe/Warsaw"));
    run.expect_turn(json_path("$.structuredContent.day_of_week").exists());
    // The text content is the same JSON, pretty-printed.
    run.expect_turn(reply().contains(r#""timezone": "Europe/Warsaw""#));
    run.user(mcp::call_tool(
        "convert_time",
        json!({"source_timezone": "UTC", "time": "12:30", "target_timezone": "Asia/Kathmandu"}),
    ))
    .await;
    run.expect_turn(
        tool("convert_time")
            .result_at("time_difference", "+5.75h")
            .result_at("target.datetime", contains("T18:15:00+05:45")),
    );
    // An invalid timezone and an argument of the wrong type: `isError` results, failed calls
    // of the execution kind (the server ran the tool, and it failed).
    run.user(mcp::call_tool(
        "get_current_time",
        json!({"timezone": "Mars/Olympus"}),
    ))
    .await;
    run.expect_turn(tool("get_current_time").failed_with(ToolErrorKind::Execution));
    run.expect_turn(
        reply().contains("Invalid timezone: 'No time zone found with key Mars/Olympus'"),
    );
    run.expect_turn(field("isError").is(true));
    run.user(mcp::call_tool("get_current_time", json!({"timezone": 5})))
        .await;
    run.expect_turn(
        tool("get_current_time")
            .failed_with(ToolErrorKind::Execution)
            .result(contains("Input should be a valid string")),
    );
    // An unknown tool: a protocol error from the Python SDK — a failed call of the
    // validation kind, and the reply's body is the error.
    run.user(mcp::call_tool("no_such_tool", json!({}))).await;
    run.expect_turn(tool("no_such_tool").failed_with(ToolErrorKind::Validation));
    run.expect_turn(field("error.code").is(-32602));
    run.expect_turn(field("error.message").is("Unknown tool: no_such_tool"));
    run.expect_turn(reply().equals("protocol error -32602: Unknown tool: no_such_tool"));
    run.user(mcp::list_tools()).await;
    run.expect_turn(valid_tool_list());
    run.expect_turn(reply().equals("get_current_time, convert_time"));
    run.expect_turn(
        json_path("$.tools[?@.name == 'get_current_time'].inputSchema.required[0]")
            .equals("timezone"),
    );
    let listed = last_body(&run);
    // Both tools declare an output schema; every successful result meets it (the failed ones
    // carry none, and need not).
    run.expect(valid_structured_output());
    run.expect(tool("get_current_time").times(3));
    let report = run.report().await;
    assert!(report.passed(), "{report}");
    assert_none_left(&m);

    // No server sent a result its schema refuses: a result made by hand, against the schema
    // the time server declared, is refused naming what is wrong.
    let schema = listed["tools"][0]["outputSchema"].clone();
    assert_eq!(schema["title"], "TimeResult", "{listed}");
    let answered = |structured: Value| {
        Reply::text("").body(json!({
            "content": [{"type": "text", "text": structured.to_string()}],
            "isError": false,
            "structuredContent": structured,
            "outputSchema": schema.clone(),
        }))
    };
    let t = Transcript::new(vec![
        Turn::new(
            0,
            "tools/call get_current_time",
            answered(
                json!({"timezone": "UTC", "datetime": "2026-01-01T00:00:00+00:00",
                            "day_of_week": "Thursday", "is_dst": false}),
            ),
            1,
        ),
        Turn::new(
            1,
            "tools/call get_current_time",
            answered(
                json!({"timezone": "UTC", "datetime": "2026-01-01T00:00:00+00:00",
                            "is_dst": "no"}),
            ),
            1,
        ),
    ]);
    let v = evaluate(&t, &[valid_structured_output().into_expectation()]);
    assert_eq!(v[0].status, Status::Fail, "{:?}", v[0]);
    assert!(
        v[0].reason
            .starts_with("turn 2: the structured result does not meet the tool's output schema:")
            && v[0].reason.contains("day_of_week")
            && v[0].reason.contains("\"no\""),
        "{}",
        v[0].reason
    );
}

/// A repository with one commit, a modified file and an untracked one.
fn repository(dir: &Path) -> PathBuf {
    let repo = dir.join("repo");
    std::fs::create_dir_all(&repo).expect("repo dir");
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .args([
                "-c",
                "user.name=Agent Test",
                "-c",
                "user.email=agent@example.com",
            ])
            .args(args)
            .current_dir(&repo)
            .output()
            .expect("git runs");
        assert!(out.status.success(), "git {args:?}: {out:?}");
    };
    git(&["init", "-q", "-b", "main"]);
    std::fs::write(repo.join("a.txt"), "one\ntwo\nthree\n").expect("write");
    git(&["add", "a.txt"]);
    git(&["commit", "-q", "-m", "initial commit"]);
    std::fs::write(repo.join("a.txt"), "one\nTWO\nthree\n").expect("write");
    std::fs::write(repo.join("untracked.txt"), "new\n").expect("write");
    repo
}

#[tokio::test]
async fn the_git_server_on_a_repository_of_the_test() {
    let Some(r) = reference() else { return };
    let dir = temp("git");
    let repo = repository(&dir);
    let repo_path = repo.display().to_string();
    let m = marker("git");
    let mut run = run_of(McpAgent::new(r.git(&m)), "git");
    run.user(mcp::call_tool(
        "git_status",
        json!({"repo_path": repo_path}),
    ))
    .await;
    run.expect_turn(
        tool("git_status")
            .result(contains("On branch main"))
            .succeeded(),
    );
    run.expect_turn(reply().matches(r"modified:\s+a\.txt"));
    run.expect_turn(reply().contains("untracked.txt"));
    run.user(mcp::call_tool(
        "git_log",
        json!({"repo_path": repo_path, "max_count": 5}),
    ))
    .await;
    run.expect_turn(tool("git_log").result(contains("Message: initial commit")));
    run.expect_turn(reply().matches(r"Commit: [0-9a-f]{40}\nAuthor: Agent Test"));
    run.user(mcp::call_tool(
        "git_diff_unstaged",
        json!({"repo_path": repo_path}),
    ))
    .await;
    run.expect_turn(reply().contains("-two\n+TWO"));
    run.user(mcp::call_tool(
        "git_add",
        json!({"repo_path": repo_path, "files": ["a.txt"]}),
    ))
    .await;
    run.user(mcp::call_tool(
        "git_commit",
        json!({"repo_path": repo_path, "message": "second commit"}),
    ))
    .await;
    run.expect_turn(tool("git_commit").result(regex(
        r"^Changes committed successfully with hash [0-9a-f]{40}$",
    )));
    // Nothing staged: the tool's own error.
    run.user(mcp::call_tool(
        "git_commit",
        json!({"repo_path": repo_path, "message": "nothing"}),
    ))
    .await;
    run.expect_turn(tool("git_commit").failed_with(ToolErrorKind::Execution));
    run.expect_turn(reply().contains("No changes staged for commit"));
    // A wrong type, and a directory that is not a repository: execution errors too.
    run.user(mcp::call_tool(
        "git_log",
        json!({"repo_path": repo_path, "max_count": "ten"}),
    ))
    .await;
    run.expect_turn(
        tool("git_log")
            .failed_with(ToolErrorKind::Execution)
            .result(contains("Input should be a valid integer")),
    );
    run.user(mcp::call_tool(
        "git_status",
        json!({"repo_path": dir.display().to_string()}),
    ))
    .await;
    run.expect_turn(tool("git_status").failed_with(ToolErrorKind::Execution));
    run.user(mcp::call_tool("no_such_tool", json!({}))).await;
    run.expect_turn(tool("no_such_tool").failed_with(ToolErrorKind::Validation));
    run.expect_turn(field("error.code").is(-32602));
    run.user(mcp::list_tools()).await;
    run.expect_turn(valid_tool_list());
    run.expect_turn(json_path("$.tools[?@.name == 'git_status']").exists());
    // No git tool declares an output schema: nothing to measure is an error, never a pass.
    let report = run.report().await;
    assert!(report.passed(), "{report}");
    assert_none_left(&m);
    let mut unmeasured = run_of(McpAgent::new(r.git(&m)), "git structured");
    unmeasured
        .user(mcp::call_tool(
            "git_status",
            json!({"repo_path": repo_path}),
        ))
        .await;
    unmeasured.expect(valid_structured_output());
    let report = unmeasured.report().await;
    assert_eq!(report.verdicts[0].status, Status::Error, "{report}");
    assert!(
        report.verdicts[0].reason.starts_with("not measured"),
        "{report}"
    );
    assert_none_left(&m);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn the_filesystem_server_reads_and_writes_in_a_directory_of_the_test() {
    let Some(r) = reference() else { return };
    let dir = temp("files");
    std::fs::write(
        dir.join("hello.txt"),
        "hello from agent-test\nsecond line\n",
    )
    .expect("write");
    let m = marker("files");
    let mut run = run_of(McpAgent::new(r.filesystem(&m, &[&dir])), "files");
    let path = |name: &str| dir.join(name).display().to_string();
    run.user(mcp::call_tool(
        "read_text_file",
        json!({"path": path("hello.txt")}),
    ))
    .await;
    // The structured result is `{"content": TEXT}`.
    run.expect_turn(
        tool("read_text_file")
            .result_at("content", "hello from agent-test\nsecond line\n")
            .succeeded(),
    );
    run.expect_turn(reply().equals("hello from agent-test\nsecond line\n"));
    run.user(mcp::call_tool(
        "read_text_file",
        json!({"path": path("hello.txt"), "head": 1}),
    ))
    .await;
    run.expect_turn(tool("read_text_file").result_at("content", "hello from agent-test"));
    run.user(mcp::call_tool(
        "write_file",
        json!({"path": path("written.txt"), "content": "written by the server\n"}),
    ))
    .await;
    run.expect_turn(tool("write_file").result_at("content", contains("Successfully wrote to")));
    run.user(mcp::call_tool(
        "read_text_file",
        json!({"path": path("written.txt")}),
    ))
    .await;
    run.expect_turn(reply().equals("written by the server\n"));
    run.user(mcp::call_tool("list_directory", json!({"path": path("")})))
        .await;
    run.expect_turn(reply().contains("[FILE] hello.txt"));
    run.expect_turn(reply().contains("[FILE] written.txt"));
    // Errors are results marked `isError` (the TypeScript SDK): a wrong type, a missing file,
    // a path outside the allowed directory, and an unknown tool alike.
    run.user(mcp::call_tool("read_text_file", json!({"path": 123})))
        .await;
    run.expect_turn(
        tool("read_text_file")
            .failed_with(ToolErrorKind::Execution)
            .result(contains("expected string, received number at path")),
    );
    run.user(mcp::call_tool(
        "read_text_file",
        json!({"path": path("missing.txt")}),
    ))
    .await;
    run.expect_turn(reply().contains("ENOENT: no such file or directory"));
    run.user(mcp::call_tool(
        "read_text_file",
        json!({"path": "/etc/hostname"}),
    ))
    .await;
    run.expect_turn(
        tool("read_text_file")
            .failed_with(ToolErrorKind::Execution)
            .result(contains("Access denied - path outside allowed directories")),
    );
    run.user(mcp::call_tool("no_such_tool", json!({}))).await;
    run.expect_turn(tool("no_such_tool").failed_with(ToolErrorKind::Execution));
    run.expect_turn(reply().equals("MCP error -32602: Tool no_such_tool not found"));
    run.user(mcp::list_tools()).await;
    run.expect_turn(valid_tool_list());
    run.expect_turn(json_path("$.tools[?@.name == 'read_text_file'].outputSchema").exists());
    // Resources and prompts: the server has none (-32601), a reply, not a failure.
    run.user(mcp::list_resources()).await;
    run.expect_turn(field("error.code").is(-32601));
    run.expect(valid_structured_output());
    let report = run.report().await;
    assert!(report.passed(), "{report}");
    assert_eq!(
        std::fs::read_to_string(dir.join("written.txt")).expect("written"),
        "written by the server\n"
    );
    assert_none_left(&m);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn server_everything_s_tools_resources_prompts_and_completion() {
    let Some(r) = reference() else { return };
    let m = marker("everything");
    let mut run = run_of(McpAgent::new(r.everything(&m)), "everything");
    run.user(mcp::call_tool("get-sum", json!({"a": 2, "b": 3})))
        .await;
    run.expect_turn(
        tool("get-sum")
            .result("The sum of 2 and 3 is 5.")
            .succeeded(),
    );
    run.expect_turn(node("everything").tool(tool("get-sum")));
    run.user(mcp::call_tool(
        "get-structured-content",
        json!({"location": "Chicago"}),
    ))
    .await;
    run.expect_turn(
        tool("get-structured-content")
            .result_at("humidity", matches_schema(json!({"type": "number"}))),
    );
    run.expect_turn(
        field("structuredContent.conditions").is(matches_schema(json!({"type": "string"}))),
    );
    // Wrong-type arguments and an unknown tool: results marked `isError` from the
    // TypeScript SDK — failed calls of the execution kind.
    run.user(mcp::call_tool("get-sum", json!({"a": "one", "b": 2})))
        .await;
    run.expect_turn(tool("get-sum").failed_with(ToolErrorKind::Execution));
    run.expect_turn(reply().contains("expected number, received string at a"));
    run.user(mcp::call_tool("no-such-tool", json!({}))).await;
    run.expect_turn(tool("no-such-tool").failed_with(ToolErrorKind::Execution));
    run.expect_turn(reply().equals("MCP error -32602: Tool no-such-tool not found"));
    // An image: the body has the content block; the text, what it was.
    run.user(mcp::call_tool("get-tiny-image", json!({}))).await;
    run.expect_turn(json_path("$.content[?@.type == 'image'].mimeType").equals("image/png"));
    run.expect_turn(json_path("$.content[?@.type == 'image'].data").exists());
    run.expect_turn(reply().contains("[image: image/png, 3.9 KiB]"));
    run.user(mcp::list_tools()).await;
    run.expect_turn(valid_tool_list());
    run.expect_turn(
        json_path("$.tools[?@.name == 'get-structured-content'].outputSchema.required[0]")
            .equals("temperature"),
    );

    // Resources and their templates.
    run.user(mcp::list_resources()).await;
    run.expect_turn(
        json_path(
            "$.resources[?@.uri == 'demo://resource/static/document/architecture.md'].mimeType",
        )
        .equals("text/markdown"),
    );
    run.user(mcp::list_resource_templates()).await;
    run.expect_turn(
        json_path("$.resourceTemplates[*].uriTemplate")
            .equals("demo://resource/dynamic/text/{resourceId}"),
    );
    run.expect_turn(reply().contains("demo://resource/dynamic/blob/{resourceId}"));
    run.user(mcp::read_resource("demo://resource/dynamic/text/1"))
        .await;
    run.expect_turn(reply().starts_with("Resource 1: This is a plaintext resource"));
    run.expect_turn(field("contents.0.mimeType").is("text/plain"));
    run.user(mcp::read_resource("demo://resource/dynamic/blob/1"))
        .await;
    run.expect_turn(json_path("$.contents[0].blob").exists());
    // Invalid URIs: protocol errors, as replies the checks read.
    run.user(mcp::read_resource("demo://resource/nope")).await;
    run.expect_turn(field("error.code").is(-32602));
    run.expect_turn(
        field("error.message").is("MCP error -32602: Resource demo://resource/nope not found"),
    );
    run.user(mcp::read_resource("not a uri")).await;
    run.expect_turn(field("error.code").is(-32603));
    run.expect_turn(reply().equals("protocol error -32603: Invalid URL"));

    // Prompts.
    run.user(mcp::list_prompts()).await;
    run.expect_turn(reply().contains("simple-prompt"));
    run.expect_turn(
        json_path("$.prompts[?@.name == 'args-prompt'].arguments[?@.name == 'city'].required")
            .equals(true),
    );
    run.user(mcp::get_prompt(
        "args-prompt",
        json!({"city": "Paris", "state": "TX"}),
    ))
    .await;
    run.expect_turn(reply().equals("What's weather in Paris, TX?"));
    run.user(mcp::get_prompt("args-prompt", json!({}))).await;
    run.expect_turn(field("error.code").is(-32602));
    run.expect_turn(field("error.message").is(contains("received undefined at city")));

    // Completion, ping and the logging level.
    run.user(mcp::request(
        "completion/complete",
        json!({"ref": {"type": "ref/prompt", "name": "completable-prompt"},
               "argument": {"name": "department", "value": "E"}}),
    ))
    .await;
    run.expect_turn(reply().equals("Engineering"));
    run.expect_turn(field("completion.values").is(json!(["Engineering"])));
    run.user(mcp::request(
        "completion/complete",
        json!({"ref": {"type": "ref/prompt", "name": "completable-prompt"},
               "argument": {"name": "name", "value": ""},
               "context": {"arguments": {"department": "Engineering"}}}),
    ))
    .await;
    run.expect_turn(reply().equals("Alice, Bob, Charlie"));
    run.user(mcp::request(
        "completion/complete",
        json!({"ref": {"type": "ref/prompt", "name": "no-such-prompt"},
               "argument": {"name": "x", "value": ""}}),
    ))
    .await;
    run.expect_turn(field("error.code").is(-32602));
    run.user(mcp::request("ping", json!({}))).await;
    run.expect_turn(json_path("$.error").not_exists());
    let pinged = last_body(&run);
    run.user(mcp::request("logging/setLevel", json!({"level": "debug"})))
        .await;
    run.expect_turn(json_path("$.error").not_exists());
    run.expect(valid_structured_output());
    let report = run.report().await;
    assert!(report.passed(), "{report}");
    assert_eq!(pinged, json!({}));
    assert_none_left(&m);
}

// ---- notifications ----

#[tokio::test]
async fn progress_and_log_messages_are_recorded_with_their_turn() {
    let Some(r) = reference() else { return };
    let m = marker("notifications");
    let mut run = run_of(McpAgent::new(r.everything(&m)), "notifications");
    run.user(mcp::call_tool(
        "trigger-long-running-operation",
        json!({"duration": 1, "steps": 4}),
    ))
    .await;
    run.expect_turn(json_path("$.notifications[?@.method == 'notifications/progress']").exists());
    run.expect_turn(
        json_path("$.notifications[?@.method == 'notifications/progress'].params.progress")
            .equals(4),
    );
    run.expect_turn(
        reply().equals("Long running operation completed. Duration: 1 seconds, Steps: 4."),
    );
    let progress = notified(&last_body(&run), "notifications/progress");
    // Another call's progress token: the notifications of one call are its own.
    run.user(mcp::call_tool(
        "trigger-long-running-operation",
        json!({"duration": 0.2, "steps": 2}),
    ))
    .await;
    let second = notified(&last_body(&run), "notifications/progress");

    // Log messages, at the level the test sets: the simulated logging sends one at once (a
    // random level), then one every 5 s.
    run.user(mcp::request("logging/setLevel", json!({"level": "debug"})))
        .await;
    run.user(mcp::call_tool("toggle-simulated-logging", json!({})))
        .await;
    run.expect_turn(
        json_path("$.notifications[?@.method == 'notifications/message'].params.level").exists(),
    );
    run.expect_turn(reply().starts_with("Started simulated, random-leveled logging"));
    run.user(mcp::call_tool("toggle-simulated-logging", json!({})))
        .await;
    run.expect_turn(reply().starts_with("Stopped simulated logging"));
    // Above the level nothing is sent: at `emergency`, whatever comes is an emergency.
    run.user(mcp::request(
        "logging/setLevel",
        json!({"level": "emergency"}),
    ))
    .await;
    run.user(mcp::call_tool("toggle-simulated-logging", json!({})))
        .await;
    run.expect_turn(
        json_path(
            "$.notifications[?@.method == 'notifications/message' && @.params.level != 'emergency']",
        )
        .not_exists(),
    );
    run.user(mcp::call_tool("toggle-simulated-logging", json!({})))
        .await;
    // A level the protocol does not have is refused before it is sent.
    run.user(mcp::request("logging/setLevel", json!({"level": "loud"})))
        .await;
    run.expect_turn(field("error.code").is(-32602));
    run.expect_turn(field("error.message").is(contains("invalid params for logging/setLevel")));
    let report = run.report().await;
    assert!(report.passed(), "{report}");
    // All four, in order, with the first call's token; the second call's two carry another.
    let steps: Vec<&Value> = progress.iter().map(|n| &n["params"]["progress"]).collect();
    assert_eq!(
        steps,
        [&json!(1.0), &json!(2.0), &json!(3.0), &json!(4.0)],
        "{progress:?}"
    );
    let token = &progress[0]["params"]["progressToken"];
    assert!(
        progress
            .iter()
            .all(|n| &n["params"]["progressToken"] == token)
    );
    assert_eq!(second.len(), 2, "{second:?}");
    assert_ne!(&second[0]["params"]["progressToken"], token);
    assert_none_left(&m);
}

/// A notification sent just before the answer is recorded with that answer's turn, whichever
/// thread runs what (rmcp runs notification handlers on tasks of their own: on a
/// multi-threaded runtime one could run after the turn had read the notifications).
#[test]
fn notifications_stay_with_their_turn_on_a_multi_threaded_runtime() {
    let Some(r) = reference() else { return };
    let m = marker("threads");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let counts = runtime.block_on(async {
        let mut run = run_of(McpAgent::new(r.everything(&m)), "threads");
        let mut counts = Vec::new();
        for _ in 0..60 {
            run.user(mcp::call_tool(
                "trigger-long-running-operation",
                json!({"duration": 0.01, "steps": 2}),
            ))
            .await;
            counts.push(notified(&last_body(&run), "notifications/progress").len());
        }
        drop(run.report().await);
        counts
    });
    drop(runtime);
    assert!(counts.iter().all(|n| *n == 2), "{counts:?}");
    assert_none_left(&m);
}

// ---- client capabilities ----

#[tokio::test]
async fn the_client_s_roots_replace_the_filesystem_server_s_directories() {
    let Some(r) = reference() else { return };
    let dir = temp("roots");
    let (given, root) = (dir.join("given"), dir.join("root"));
    for d in [&given, &root] {
        std::fs::create_dir_all(d).expect("dir");
    }
    std::fs::write(
        given.join("outside.txt"),
        "from the command line's directory\n",
    )
    .expect("write");
    std::fs::write(root.join("inside.txt"), "from the client's root\n").expect("write");
    let m = marker("roots");
    let server = r
        .filesystem(&m, &[&given])
        .roots([format!("file://{}", root.display())]);
    let agent = Arc::new(McpAgent::new(server));
    // The server asks for the roots right after initialization and applies them once it has
    // checked them, while it answers other requests: asked until it says so, a bounded number
    // of times (the observable the probe found: `list_allowed_directories`).
    let mut waiting = run_of(agent.clone(), "roots applied");
    let root_line = root.display().to_string();
    let mut applied = false;
    for _ in 0..200 {
        waiting
            .user(mcp::call_tool("list_allowed_directories", json!({})))
            .await;
        let text = waiting
            .last_turn()
            .map(|t| t.reply.text.clone())
            .unwrap_or_default();
        if text.lines().any(|l| l == root_line) {
            applied = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let waited = waiting.report().await;
    assert!(applied, "the roots were never applied: {waited}");
    // The roots request and its answer were recorded with a turn, unless it came while the
    // session started (before any turn).
    let asked: Vec<Value> = waited
        .transcript
        .turns
        .iter()
        .flat_map(|t| notified(t.reply.body.as_ref().unwrap_or(&Value::Null), "roots/list"))
        .collect();
    for request in &asked {
        assert_eq!(
            request["answer"]["roots"][0]["uri"],
            format!("file://{root_line}")
        );
    }

    let mut run = run_of(agent, "roots");
    run.user(mcp::call_tool("list_allowed_directories", json!({})))
        .await;
    run.expect_turn(reply().equals(format!("Allowed directories:\n{root_line}")));
    run.user(mcp::call_tool(
        "read_text_file",
        json!({"path": given.join("outside.txt").display().to_string()}),
    ))
    .await;
    run.expect_turn(
        tool("read_text_file")
            .failed_with(ToolErrorKind::Execution)
            .result(contains("Access denied - path outside allowed directories")),
    );
    run.user(mcp::call_tool(
        "read_text_file",
        json!({"path": root.join("inside.txt").display().to_string()}),
    ))
    .await;
    run.expect_turn(
        tool("read_text_file")
            .result_at("content", "from the client's root\n")
            .succeeded(),
    );
    let report = run.report().await;
    assert!(report.passed(), "{report}");
    assert_none_left(&m);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn server_everything_asks_the_client_for_roots_sampling_and_elicitation() {
    let Some(r) = reference() else { return };
    let m = marker("capabilities");
    let server = r
        .everything(&m)
        .roots(["file:///srv/agent-test-root"])
        .sampling_reply("A scripted haiku.")
        .elicitation(Elicitation::Accept(json!({"name": "Ana Lima"})));
    let mut run = run_of(McpAgent::new(server), "capabilities");
    run.user(mcp::list_tools()).await;
    for gated in [
        "get-roots-list",
        "trigger-sampling-request",
        "trigger-elicitation-request",
    ] {
        run.expect_turn(json_path(format!("$.tools[?@.name == '{gated}']")).exists());
    }
    run.user(mcp::call_tool("get-roots-list", json!({}))).await;
    run.expect_turn(reply().contains("URI: file:///srv/agent-test-root"));
    run.user(mcp::call_tool(
        "trigger-sampling-request",
        json!({"prompt": "Write a haiku", "maxTokens": 50}),
    ))
    .await;
    // The answer is in the result; the request, with its answer, in the notifications.
    run.expect_turn(tool("trigger-sampling-request").result(contains("A scripted haiku.")));
    run.expect_turn(
        json_path("$.notifications[?@.method == 'sampling/createMessage'].answer.content.text")
            .equals("A scripted haiku."),
    );
    run.expect_turn(
        json_path("$.notifications[?@.method == 'sampling/createMessage'].params.messages[0].content.text")
            .equals("Resource trigger-sampling-request context: Write a haiku"),
    );
    // As the server wrote them (rmcp keeps the temperature as an f32).
    run.expect_turn(
        json_path("$.notifications[?@.method == 'sampling/createMessage'].params.temperature")
            .equals(0.7),
    );
    run.expect_turn(
        json_path("$.notifications[?@.method == 'sampling/createMessage'].params.maxTokens")
            .equals(50),
    );
    run.user(mcp::call_tool("trigger-elicitation-request", json!({})))
        .await;
    run.expect_turn(reply().contains("✅ User provided the requested information!"));
    run.expect_turn(reply().contains("- Name: Ana Lima"));
    run.expect_turn(
        json_path("$.notifications[?@.method == 'elicitation/create'].answer.action")
            .equals("accept"),
    );
    run.expect_turn(
        json_path(
            "$.notifications[?@.method == 'elicitation/create'].params.requestedSchema.required[0]",
        )
        .equals("name"),
    );
    let report = run.report().await;
    assert!(report.passed(), "{report}");

    // Declined.
    let declines = r.everything(&m).elicitation(Elicitation::Decline);
    let mut run = run_of(McpAgent::new(declines), "declined");
    run.user(mcp::call_tool("trigger-elicitation-request", json!({})))
        .await;
    run.expect_turn(reply().contains("❌ User declined to provide the requested information."));
    run.expect_turn(
        json_path("$.notifications[?@.method == 'elicitation/create'].answer.action")
            .equals("decline"),
    );
    let report = run.report().await;
    assert!(report.passed(), "{report}");

    // Without the answers no capability is offered, and the tools that need one are absent.
    let mut run = run_of(McpAgent::new(r.everything(&m)), "no capabilities");
    run.user(mcp::list_tools()).await;
    for gated in [
        "get-roots-list",
        "trigger-sampling-request",
        "trigger-elicitation-request",
    ] {
        run.expect_turn(json_path(format!("$.tools[?@.name == '{gated}']")).not_exists());
    }
    run.expect_turn(json_path("$.tools[?@.name == 'get-sum']").exists());
    run.user(mcp::call_tool(
        "trigger-sampling-request",
        json!({"prompt": "hi"}),
    ))
    .await;
    run.expect_turn(reply().equals("MCP error -32602: Tool trigger-sampling-request not found"));
    let report = run.report().await;
    assert!(report.passed(), "{report}");
    assert_none_left(&m);
}

// ---- a model using the servers' tools ----

/// What the scripted model received, newest last.
type Received = Arc<Mutex<Vec<Value>>>;

/// A scripted OpenAI-compatible model on 127.0.0.1: told `call TOOL {ARGUMENTS}`, it calls
/// that tool (when offered it); given the tool's result, it answers `The tool said: RESULT`.
fn calling_model() -> (String, Received) {
    use axum::routing::post;
    let received = Received::default();
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
                           "content": format!("The tool said: {}", last["content"].as_str().unwrap_or_default())})
                } else {
                    let text = last["content"].as_str().unwrap_or_default();
                    let mut words = text.splitn(3, ' ');
                    match (words.next(), words.next(), words.next()) {
                        (Some("call"), Some(name), args) => json!({"role": "assistant", "content": null,
                            "tool_calls": [{"id": "call_1", "type": "function",
                                "function": {"name": name, "arguments": args.unwrap_or("{}")}}]}),
                        _ => json!({"role": "assistant", "content": "Say `call TOOL {...}`."}),
                    }
                };
                axum::Json(json!({
                    "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
                    "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
                }))
            }
        }),
    );
    let addr = agent_test_examples::background::serve("calling-model", router);
    (format!("http://{addr}/v1"), received)
}

fn model_with(url: &str, servers: impl IntoIterator<Item = McpServer>) -> ChatAgent {
    servers.into_iter().fold(
        ChatAgent::new("scripted")
            .base_url(url)
            .api_key("sk-scripted"),
        ChatAgent::mcp,
    )
}

#[tokio::test]
async fn a_model_is_told_what_an_image_result_was() {
    let Some(r) = reference() else { return };
    let dir = temp("model");
    std::fs::write(dir.join("notes.txt"), "the notes\n").expect("write");
    let m = marker("model");
    let (url, received) = calling_model();
    // Two servers started with one command (`node`), told apart by their names.
    let agent = model_with(&url, [r.everything(&m), r.filesystem(&m, &[&dir])]);
    let mut run = run_of(agent, "model");
    run.user("call get-tiny-image {}").await;
    // The call's result is the content blocks themselves, the image among them.
    run.expect_turn(
        tool("get-tiny-image")
            .result_json_path("$[?@.type == 'image'].mimeType", "image/png")
            .succeeded(),
    );
    run.expect_turn(node("everything").tool(tool("get-tiny-image")));
    run.expect_turn(reply().contains("[image: image/png, 3.9 KiB]"));
    run.user(format!(
        "call read_text_file {}",
        json!({"path": dir.join("notes.txt").display().to_string()})
    ))
    .await;
    run.expect_turn(node("files").tool(tool("read_text_file").result_at("content", "the notes\n")));
    run.expect_turn(reply().equals("The tool said: the notes\n"));
    run.user("call get-sum {\"a\": \"one\", \"b\": 2}").await;
    run.expect_turn(tool("get-sum").failed_with(ToolErrorKind::Execution));
    let report = run.report().await;
    assert!(report.passed(), "{report}");
    let received = received.lock().unwrap().clone();
    // The model was offered both servers' tools.
    let offered: Vec<&str> = received[0]["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t.pointer("/function/name").and_then(Value::as_str))
        .collect();
    assert!(
        offered.contains(&"get-tiny-image") && offered.contains(&"read_text_file"),
        "{offered:?}"
    );
    // What the model got for the image: the text, and a typed placeholder for the image —
    // never its base64.
    let told = received[1]["messages"]
        .as_array()
        .and_then(|m| m.last())
        .cloned()
        .expect("a tool message");
    assert_eq!(told["role"], "tool");
    assert_eq!(
        told["content"],
        "Here's the image you requested:\n[image: image/png, 3.9 KiB]\nThe image above is the MCP logo."
    );
    // The failed call: the model is told the error.
    let told = received[5]["messages"]
        .as_array()
        .and_then(|m| m.last())
        .cloned()
        .expect("a tool message");
    let error: Value =
        agent_test::serde_json::from_str(told["content"].as_str().unwrap_or("")).expect("JSON");
    assert!(
        error["error"]
            .as_str()
            .is_some_and(|e| e.contains("expected number, received string at a")),
        "{told}"
    );
    assert_none_left(&m);
    let _ = std::fs::remove_dir_all(&dir);
}

/// What the servers a model uses send during a turn (progress, here) is recorded with the
/// turn, each notification naming its server, where checks read an `McpAgent`'s.
#[tokio::test]
async fn a_model_s_servers_notifications_are_recorded_with_the_turn() {
    let Some(r) = reference() else { return };
    let m = marker("model-notifications");
    let (url, _) = calling_model();
    let mut run = run_of(model_with(&url, [r.everything(&m)]), "model notifications");
    run.user("call trigger-long-running-operation {\"duration\": 0.2, \"steps\": 2}")
        .await;
    run.expect_turn(
        json_path("$.notifications[?@.method == 'notifications/progress'].server")
            .equals("everything"),
    );
    run.expect_turn(
        json_path("$.notifications[?@.method == 'notifications/progress'].params.progress")
            .equals(2),
    );
    let report = run.report().await;
    assert!(report.passed(), "{report}");
    assert_eq!(
        notified(&last_body_of(&report), "notifications/progress").len(),
        2,
        "one per step"
    );
    assert_none_left(&m);
}

/// The reply body of a report's last turn.
fn last_body_of(report: &Report) -> Value {
    report
        .transcript
        .turns
        .last()
        .and_then(|t| t.reply.body.clone())
        .unwrap_or(Value::Null)
}

// ---- large results ----

/// A file of `bytes` bytes of 85-byte ASCII lines.
fn big_file(path: &Path, bytes: usize) {
    let line = format!(
        "{}\n",
        "0123456789abcdefghij"
            .repeat(5)
            .get(..84)
            .unwrap_or_default()
    );
    let mut text = line.repeat(bytes / line.len() + 1);
    text.truncate(bytes);
    std::fs::write(path, text).expect("write");
}

#[tokio::test]
async fn large_results_within_and_over_the_message_limit() {
    let Some(r) = reference() else { return };
    let dir = temp("large");
    big_file(&dir.join("big6mib.txt"), 6 * 1024 * 1024);
    big_file(&dir.join("big17mb.txt"), 17_000_000);
    let m = marker("large");
    let reports = dir.join("reports");
    let suite = |server: McpServer| {
        Suite::new()
            .agent(McpAgent::new(server))
            .report_dir(&reports)
    };
    let read = |name: &str| {
        mcp::call_tool(
            "read_text_file",
            json!({"path": dir.join(name).display().to_string()}),
        )
    };

    // 6 MiB: its answer (the text twice, escaped) is about 12.1 MiB, under the 16 MiB limit.
    let mut run = ScenarioRun::new(suite(r.filesystem(&m, &[&dir])), "mcp reference 6 MiB");
    run.user(read("big6mib.txt")).await;
    run.expect_turn(tool("read_text_file").succeeded());
    // A check that fails on it shows a clipped value, never megabytes.
    run.expect_turn(tool("read_text_file").result_at("content", contains("not in the file")));
    run.expect_turn(reply().contains("not in the file"));
    let report = run.report().await;
    assert_eq!(report.verdicts[0].status, Status::Pass, "{report}");
    assert_eq!(report.verdicts[1].status, Status::Fail);
    assert_eq!(report.verdicts[2].status, Status::Fail);
    let turn = &report.transcript.turns[0];
    assert_eq!(turn.reply.text.len(), 6 * 1024 * 1024);
    let text = report.to_string();
    let longest = text.lines().map(str::len).max().unwrap_or(0);
    assert!(longest < 10_000, "a line of {longest} bytes in the report");
    assert!(
        text.contains(" in all, clipped)"),
        "{}",
        text.get(..5000).unwrap_or(&text)
    );
    // The JSON report keeps the file once (the reply's text, its body's content, the call's
    // result and what the failed checks saw are one string), and reads back whole.
    let path = report.json_path.clone().expect("a JSON report");
    let size = std::fs::metadata(&path).expect("written").len();
    assert!(size < 8 * 1024 * 1024, "a JSON report of {size} bytes");
    let back = agent_test::load::run(&path, None).expect("reads back");
    assert_eq!(back.transcript.turns[0].reply.text.len(), 6 * 1024 * 1024);
    drop(report);
    assert_none_left(&m);

    // 17 MB: an answer of 32.8 MiB fails at once, naming its size and the limit.
    let started = Instant::now();
    let mut run = ScenarioRun::new(suite(r.filesystem(&m, &[&dir])), "mcp reference 17 MB");
    run.user(read("big17mb.txt")).await;
    let failure = agent_failure(&run.report().await);
    assert!(
        failure.contains("answered tools/call with a message of 32.8 MiB (344")
            && failure.contains("bytes), over the limit of 16 MiB (`McpServer::max_message_bytes`"),
        "{failure}"
    );
    // Not the request's timeout (30 s).
    assert!(
        started.elapsed() < Duration::from_secs(25),
        "{:?}",
        started.elapsed()
    );
    assert_none_left(&m);
    // A higher limit takes it.
    let roomy = r
        .filesystem(&m, &[&dir])
        .max_message_bytes(64 * 1024 * 1024);
    let mut run = ScenarioRun::new(suite(roomy), "mcp reference 17 MB with room");
    run.user(read("big17mb.txt")).await;
    run.expect_turn(tool("read_text_file").succeeded());
    let report = run.report().await;
    assert!(report.passed(), "{}", agent_failure(&report));
    assert_eq!(report.transcript.turns[0].reply.text.len(), 17_000_000);
    drop(report);
    assert_none_left(&m);
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- faults ----

#[tokio::test]
async fn a_server_that_does_not_start_says_why() {
    let Some(r) = reference() else { return };
    let m = marker("not-started");
    let no_dir = r.filesystem(&m, &[Path::new("/nonexistent/agent-test-dir")]);
    let mut run = run_of(McpAgent::new(no_dir), "not started");
    run.user(mcp::list_tools()).await;
    let failure = agent_failure(&run.report().await);
    assert!(failure.contains("MCP server `files` (stdio: "), "{failure}");
    assert!(failure.contains("could not start"), "{failure}");
    assert!(
        failure.ends_with(
            "its standard error ended with:\n    Warning: Cannot access directory /nonexistent/agent-test-dir, skipping\n    Error: None of the specified directories are accessible"
        ),
        "{failure}"
    );
    assert_none_left(&m);
    let bad_zone = r.time(&m).args(["--local-timezone", "Mars/Olympus"]);
    let mut run = run_of(McpAgent::new(bad_zone), "bad zone");
    run.user(mcp::call_tool(
        "get_current_time",
        json!({"timezone": "UTC"}),
    ))
    .await;
    let failure = agent_failure(&run.report().await);
    assert!(
        failure.contains("could not start")
            && failure.ends_with(
                "Error: invalid --local-timezone 'Mars/Olympus': not a known IANA timezone name"
            ),
        "{failure}"
    );
    assert_none_left(&m);
}

#[tokio::test]
async fn server_everything_with_timers_running_is_ended_with_its_agent() {
    let Some(r) = reference() else { return };
    let m = marker("timers");
    // Simulated logging and resource updates leave timers running: server-everything does not
    // exit when its input closes (PROBE.md), so it is sent SIGTERM.
    let mut run = run_of(McpAgent::new(r.everything(&m)), "timers");
    run.user(mcp::request(
        "resources/subscribe",
        json!({"uri": "demo://resource/dynamic/text/1"}),
    ))
    .await;
    run.user(mcp::call_tool("toggle-subscriber-updates", json!({})))
        .await;
    run.expect_turn(
        json_path("$.notifications[?@.method == 'notifications/resources/updated'].params.uri")
            .equals("demo://resource/dynamic/text/1"),
    );
    run.user(mcp::call_tool("toggle-simulated-logging", json!({})))
        .await;
    assert!(!running(&m).is_empty(), "the server runs");
    let report = run.report().await;
    assert!(report.passed(), "{report}");
    assert_none_left(&m);
}

#[tokio::test]
async fn a_turn_that_times_out_names_the_server_it_waited_for() {
    let Some(r) = reference() else { return };
    let m = marker("turn-timeout");
    let mut run = run_of(McpAgent::new(r.everything(&m)), "turn timeout");
    // Started within the default timeout; then a turn of 2 s for a 10-minute operation.
    run.user(mcp::request("ping", json!({}))).await;
    run.timeout(Duration::from_secs(2));
    let started = Instant::now();
    run.user(mcp::call_tool(
        "trigger-long-running-operation",
        json!({"duration": 600, "steps": 2}),
    ))
    .await;
    let report = run.report().await;
    assert!(
        started.elapsed() < Duration::from_secs(25),
        "{:?}",
        started.elapsed()
    );
    let failure = agent_failure(&report);
    assert!(
        failure.starts_with(
            "the agent failed: timed out after 2s, waiting for MCP server `everything` (stdio: "
        ) && failure.ends_with(" stdio) to answer tools/call"),
        "{failure}"
    );
    assert_none_left(&m);

    // A model's turn says which tool call it waited for.
    let (url, _) = calling_model();
    let mut run = run_of(model_with(&url, [r.everything(&m)]), "model turn timeout");
    run.user("call get-sum {\"a\": 1, \"b\": 2}").await;
    run.timeout(Duration::from_secs(2));
    run.user("call trigger-long-running-operation {\"duration\": 600, \"steps\": 2}")
        .await;
    let failure = agent_failure(&run.report().await);
    assert!(
        failure.contains("timed out after 2s, waiting for MCP server `everything` (stdio: ")
            && failure.ends_with(" stdio) to answer tools/call `trigger-long-running-operation`"),
        "{failure}"
    );
    assert_none_left(&m);
}

/// A server's own request timeout ends the turn when it is over: the failure does not wait for
/// a live server's standard error to end (it never does; the wait once added its whole 5 s
/// bound to every timeout). The timeout is long enough for the server to start on a busy
/// machine (it bounds the handshake too); the bound asserted is loose — a busy machine is
/// slow — and still far under the 9 s the wait cost.
#[tokio::test]
async fn a_server_timeout_costs_the_timeout_not_more() {
    let Some(r) = reference() else { return };
    let m = marker("server-timeout");
    let server = r.everything(&m).timeout(Duration::from_secs(4));
    let mut run = run_of(McpAgent::new(server), "server timeout");
    run.user(mcp::request("ping", json!({}))).await;
    let started = Instant::now();
    run.user(mcp::call_tool(
        "trigger-long-running-operation",
        json!({"duration": 600, "steps": 2}),
    ))
    .await;
    let took = started.elapsed();
    let failure = agent_failure(&run.report().await);
    assert!(
        failure.contains("failed during tools/call: no answer within 4000 ms")
            && failure
                .contains("its standard error ended with:\n    Starting default (STDIO) server..."),
        "{failure}"
    );
    assert!(
        took < Duration::from_secs(7),
        "the timeout of 4 s took {took:?}"
    );
    assert_none_left(&m);
}

#[tokio::test]
async fn a_command_under_a_directory_with_a_space() {
    let Some(r) = reference() else { return };
    let dir = temp("space").join("dir with space");
    std::fs::create_dir_all(&dir).expect("dir");
    let launcher = dir.join("mcp-server-time");
    std::os::unix::fs::symlink(r.dir.join("venv/bin/mcp-server-time"), &launcher).expect("symlink");
    let m = marker("space");
    // Quoted as a shell quotes it; the server is named after the command's file name.
    let server = McpServer::parse(&format!(
        "stdio:\"{}\" --local-timezone UTC",
        launcher.display()
    ))
    .expect("a quoted command")
    .env(MARKER, &m);
    assert_eq!(server.name(), "mcp-server-time");
    assert_eq!(
        format!("{server:?}"),
        format!(
            "MCP server `mcp-server-time` (stdio: '{}' --local-timezone UTC)",
            launcher.display()
        )
    );
    let mut run = run_of(McpAgent::new(server), "space");
    run.user(mcp::call_tool(
        "get_current_time",
        json!({"timezone": "UTC"}),
    ))
    .await;
    run.expect_turn(
        tool("get_current_time")
            .result_at("timezone", "UTC")
            .succeeded(),
    );
    run.expect_turn(node("mcp-server-time"));
    let report = run.report().await;
    assert!(report.passed(), "{report}");
    assert_none_left(&m);
    let _ = std::fs::remove_dir_all(dir.parent().unwrap_or(&dir));
}

// ---- servers on the official SDKs, written for the tests ----

/// One SDK test server under test (`sdk_server.mjs` or `sdk_server.py`): its paginated tool
/// list read whole, a structured result that meets its output schema and one that does not, an
/// `isError` result, and an unknown tool.
async fn an_sdk_server_under_test(server: McpServer, name: &str) {
    let mut run = run_of(McpAgent::new(server), name);
    run.user(mcp::list_tools()).await;
    // Five tools over three pages (two per page): all of them, each once, in order.
    let listed: Vec<Value> = last_body(&run)["tools"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let names: Vec<&str> = listed.iter().filter_map(|t| t["name"].as_str()).collect();
    assert_eq!(
        names,
        ["add", "bad_weather", "fail", "slow", "echo"],
        "{name}"
    );
    run.expect_turn(valid_tool_list());

    run.user(mcp::call_tool("add", json!({"a": 2, "b": 3})))
        .await;
    run.expect_turn(tool("add").result_at("sum", 5).succeeded());
    run.expect_turn(valid_structured_output());

    run.user(mcp::call_tool("bad_weather", json!({"city": "Lisbon"})))
        .await;
    // The server's broken contract is this check's failure, naming the field.
    run.expect_turn(valid_structured_output());

    run.user(mcp::call_tool("fail", json!({"reason": "no stock"})))
        .await;
    run.expect_turn(tool("fail").failed_with(ToolErrorKind::Execution));
    run.expect_turn(reply().contains("failed: no stock"));

    run.user(mcp::call_tool("no_such_tool", json!({}))).await;
    run.expect_turn(tool("no_such_tool").failed_with(ToolErrorKind::Validation));
    let report = run.report().await;
    let failed: Vec<_> = report
        .verdicts
        .iter()
        .filter(|v| v.status != Status::Pass)
        .collect();
    assert_eq!(failed.len(), 1, "{name}: {report}");
    assert_eq!(failed[0].status, Status::Fail, "{report}");
    assert!(
        failed[0]
            .reason
            .starts_with("turn 3: the structured result does not meet the tool's output schema:")
            && failed[0].reason.contains("temperature_c"),
        "{name}: {}",
        failed[0].reason
    );
}

#[tokio::test]
async fn a_typescript_sdk_server_over_stdio() {
    let Some(r) = reference() else { return };
    let m = marker("sdk-ts-stdio");
    an_sdk_server_under_test(r.sdk_stdio(Sdk::TypeScript, &m), "ts stdio").await;
    assert_none_left(&m);
}

#[tokio::test]
async fn a_typescript_sdk_server_over_http() {
    let Some(r) = reference() else { return };
    let m = marker("sdk-ts-http");
    let http = r.sdk_http(Sdk::TypeScript, &m);
    an_sdk_server_under_test(http.server(), "ts http").await;
    drop(http);
    assert_none_left(&m);
}

#[tokio::test]
async fn a_python_sdk_server_over_stdio() {
    let Some(r) = reference() else { return };
    let m = marker("sdk-py-stdio");
    an_sdk_server_under_test(r.sdk_stdio(Sdk::Python, &m), "py stdio").await;
    assert_none_left(&m);
}

#[tokio::test]
async fn a_python_sdk_server_over_http() {
    let Some(r) = reference() else { return };
    let m = marker("sdk-py-http");
    let http = r.sdk_http(Sdk::Python, &m);
    an_sdk_server_under_test(http.server(), "py http").await;
    drop(http);
    assert_none_left(&m);
}

/// A model's call whose structured result breaks the tool's output schema is refused as the
/// SDK clients refuse it: the model is told why, the call fails with an `output` error, and
/// `valid_structured_output()` measures the model's calls (it had nothing to measure before).
#[tokio::test]
async fn a_model_is_told_when_a_result_breaks_its_output_schema() {
    let Some(r) = reference() else { return };
    let m = marker("sdk-model");
    let http = r.sdk_http(Sdk::TypeScript, &m);
    let (url, received) = calling_model();
    let agent = model_with(&url, [r.sdk_stdio(Sdk::Python, &m)]);
    let mut run = run_of(agent, "sdk model");
    run.user("call add {\"a\": 2, \"b\": 3}").await;
    run.expect_turn(tool("add").result_at("sum", 5).succeeded());
    run.expect_turn(valid_structured_output());
    run.user("call bad_weather {\"city\": \"Lisbon\"}").await;
    run.expect_turn(tool("bad_weather").failed_with(ToolErrorKind::Output));
    run.expect_turn(valid_structured_output());
    let report = run.report().await;
    let failed: Vec<_> = report
        .verdicts
        .iter()
        .filter(|v| v.status != Status::Pass)
        .collect();
    assert_eq!(failed.len(), 1, "{report}");
    assert!(
        failed[0].reason.starts_with(
            "turn 2: `bad_weather`: the structured result does not meet the tool's output schema:"
        ) && failed[0].reason.contains("temperature_c"),
        "{}",
        failed[0].reason
    );
    let received = received.lock().unwrap().clone();
    let told = received[3]["messages"]
        .as_array()
        .and_then(|m| m.last())
        .cloned()
        .expect("a tool message");
    let told: Value =
        agent_test::serde_json::from_str(told["content"].as_str().unwrap_or("")).expect("JSON");
    assert!(
        told["error"].as_str().is_some_and(|e| e.starts_with(
            "the tool's result was refused: the structured result does not meet the tool's output schema"
        )),
        "{told}"
    );

    // Over HTTP too; and with no call of a tool that declares a schema, nothing is measured.
    let agent = model_with(&url, [http.server()]);
    let mut run = run_of(agent, "sdk model http");
    run.user("call echo {\"text\": \"hi\"}").await;
    run.expect_turn(valid_structured_output());
    run.user("call bad_weather {\"city\": \"Porto\"}").await;
    run.expect_turn(valid_structured_output());
    let report = run.report().await;
    let statuses: Vec<Status> = report.verdicts.iter().map(|v| v.status).collect();
    assert_eq!(statuses, [Status::Error, Status::Fail], "{report}");
    assert!(
        report.verdicts[0].reason.starts_with("not measured"),
        "{report}"
    );
    drop(http);
    assert_none_left(&m);
}

/// An HTTP server that dies mid-run: the next turn fails naming the refused connection.
#[tokio::test]
async fn an_http_server_that_dies_mid_run_is_named_with_the_cause() {
    let Some(r) = reference() else { return };
    let mut http = r.sdk_http(Sdk::TypeScript, &marker("sdk-killed"));
    let mut run = run_of(McpAgent::new(http.server()), "killed");
    run.user(mcp::call_tool("echo", json!({"text": "one"})))
        .await;
    http.kill();
    run.user(mcp::call_tool("echo", json!({"text": "two"})))
        .await;
    let failure = agent_failure(&run.report().await);
    assert!(
        failure.contains("`ts` (") && failure.contains("Connection refused"),
        "{failure}"
    );
    assert!(!failure.contains("Transport ["), "{failure}");
}

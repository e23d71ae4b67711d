//! MCP both ways, with the demo store as a real MCP server (`demo-mcp`, the official Rust SDK)
//! over stdio and streamable HTTP:
//!
//! - the model as the agent, its tools from MCP: a `ChatAgent`, driven by a scripted
//!   OpenAI-compatible model on 127.0.0.1, calls the server's tools through MCP;
//! - the server under test, without a model: `McpAgent` turns that call tools, list them, read
//!   a resource and get a prompt;
//! - an MCPLab scenario (the seed format built for MCP servers) evaluating a run;
//! - and the faults: a server that does not start, dies mid-run or hangs.

use agent_test::agent::{ChatAgent, McpAgent, McpServer, mcp};
use agent_test::check::Status;
use agent_test::model::ToolErrorKind;
use agent_test::prelude::*;
use agent_test::report::Report;
use agent_test::{ScenarioRun, Suite};
use agent_test_examples::demo_mcp::DemoMcp;
use agent_test_examples::scripted_model;
use std::time::Duration;

mod support;
use support::running;

/// The demo MCP server over stdio: this package's `demo-mcp` binary.
fn stdio_server() -> McpServer {
    McpServer::stdio(env!("CARGO_BIN_EXE_demo-mcp")).named("shop")
}

fn shop_agent(model_url: &str, server: McpServer) -> ChatAgent {
    ChatAgent::new("scripted")
        .base_url(model_url)
        .api_key("sk-scripted")
        .system("You are Acme's support agent.")
        .mcp(server)
}

async fn refund_through(server: McpServer) -> Report {
    let (url, received) = scripted_model::start();
    let mut run = ScenarioRun::new(Suite::new().agent(shop_agent(&url, server)), "mcp refund");
    run.user("I was charged twice for ORD-9921, please refund it")
        .await;
    run.expect(tool("lookup_order").arg("order_id", "ORD-9921").succeeded());
    run.expect(
        tool("process_refund")
            .arg("order_id", "ORD-9921")
            .arg("amount", 42.5)
            .result(contains("RF-")),
    );
    run.expect(tool_sequence(["lookup_order", "process_refund"]));
    run.expect(node("shop"));
    run.expect(reply().matches(r"refund RF-\d+ is on its way"));
    run.expect(no_tool_errors());
    let report = run.report().await;
    // The model was offered the server's tools, with their schemas.
    let first = received.lock().unwrap()[0].clone();
    let offered: Vec<&str> = first["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t.pointer("/function/name").and_then(|n| n.as_str()))
        .collect();
    assert_eq!(
        offered,
        [
            "create_booking",
            "lookup_order",
            "process_refund",
            "search_hotels"
        ]
    );
    let lookup = first["tools"][1]["function"].clone();
    assert_eq!(lookup["parameters"]["required"], json!(["order_id"]));
    assert_eq!(
        lookup["description"],
        "Look an order up: its items, total, status and charges"
    );
    report
}

#[tokio::test]
async fn a_model_uses_the_tools_of_an_mcp_server_over_stdio() {
    let report = refund_through(stdio_server()).await;
    assert!(report.passed(), "{report}");
    let shop = &report.transcript.turns[0].reply.calls[0];
    assert_eq!(shop.name, "shop");
    assert!(
        shop.children[0].latency_ms.is_some(),
        "each call's latency is recorded"
    );
}

#[tokio::test]
async fn a_model_uses_the_tools_of_an_mcp_server_over_http() {
    let server = McpServer::http(DemoMcp::serve_http()).named("shop");
    let report = refund_through(server).await;
    assert!(report.passed(), "{report}");
}

#[tokio::test]
async fn a_mock_wins_over_the_server_s_tool_and_a_wrong_check_fails() {
    let (url, _) = scripted_model::start();
    let agent = shop_agent(&url, stdio_server()).mock(
        "lookup_order",
        json!({"order_id": "ORD-9921", "status": "lost"}),
    );
    let mut run = ScenarioRun::new(Suite::new().agent(agent), "mocked");
    run.user("Where is ORD-9921?").await;
    run.expect(reply().contains("is lost"));
    run.expect(node("shop"));
    let report = run.report().await;
    assert_eq!(report.verdicts[0].status, Status::Pass, "{report}");
    // The mocked call ran on no server: there is no `shop` node.
    assert_eq!(report.verdicts[1].status, Status::Fail, "{report}");
}

agent_test! {
    agent = McpAgent::new(McpServer::stdio(env!("CARGO_BIN_EXE_demo-mcp")));

    /// The server under test, tool by tool: results, tool errors, protocol errors, the tool
    /// list, a resource and a prompt.
    scenario the_demo_mcp_server_answers_its_protocol {
        user mcp::call_tool("search_hotels", json!({"city": "Lisbon"})) {
            expect tool("search_hotels").result(contains("Casa Azul")).succeeded();
            expect latency().at_most(Duration::from_secs(5));
        }
        user mcp::call_tool("lookup_order", json!({"order_id": "ORD-0000"})) {
            expect tool("lookup_order").failed_with(ToolErrorKind::Execution);
            expect reply().contains("ORD-0000");
        }
        user mcp::call_tool("no_such_tool", json!({})) {
            expect tool("no_such_tool").failed_with(ToolErrorKind::Validation);
        }
        user mcp::list_tools() {
            expect mcp::valid_tool_list();
            expect json_path("$.tools[?@.name == 'process_refund']").exists();
        }
        user mcp::read_resource("demo://hotels") {
            expect reply().contains("Lisbon");
        }
        user mcp::get_prompt("support_reply", json!({"customer": "Ana"})) {
            expect reply().contains("Greet Ana by name");
        }
    }
}

#[tokio::test]
async fn an_mcplab_scenario_evaluates_a_run_through_mcp() {
    // MCPLab's format, made for testing MCP servers with an agent.
    let yaml = "name: refund through mcp\nprompt: I was charged twice for ORD-9921, please refund it\n\
                eval:\n  tool_constraints:\n    required_tools: [lookup_order, process_refund]\n    forbidden_tools: [cancel_order]\n  \
                tool_sequence: [lookup_order, process_refund]\n  response_assertions:\n    - type: regex\n      pattern: 'refund RF-\\d+'\n";
    let cases = agent_test::load::cases_from_text(yaml, "refund.yaml", None).unwrap();
    let (url, _) = scripted_model::start();
    let suite = Suite::new().agent(shop_agent(&url, stdio_server()));
    let report = cases[0].scenario.run(suite).await;
    assert!(report.passed(), "{report}");
    assert_eq!(report.verdicts.len(), 4, "{report}");
}

/// A run against a faulty server: the turn is an agent error naming the server, with its
/// standard error, and every other check is still evaluated.
async fn faulty(server: McpServer) -> Report {
    let mut run = ScenarioRun::new(Suite::new().agent(McpAgent::new(server)), "faulty");
    run.user(mcp::call_tool(
        "lookup_order",
        json!({"order_id": "ORD-9921"}),
    ))
    .await;
    run.expect(tool("lookup_order"));
    run.expect(latency().at_most(Duration::from_secs(60)));
    run.report().await
}

fn agent_failure(report: &Report) -> String {
    report
        .verdicts
        .iter()
        .find(|v| v.check == "agent")
        .map(|v| v.reason.clone())
        .unwrap_or_else(|| panic!("no agent failure in {report}"))
}

#[tokio::test]
async fn faults_are_turn_errors_with_the_server_s_last_words() {
    let report = faulty(McpServer::stdio("/nonexistent/mcp-server")).await;
    assert_eq!(
        agent_failure(&report),
        "the agent failed: MCP server `mcp-server` (stdio: /nonexistent/mcp-server) could not start: No such file or directory (os error 2)"
    );
    let lookup = report.verdicts.iter().find(|v| v.check == "tool").unwrap();
    assert_ne!(lookup.status, Status::Pass, "{report}");

    let exits =
        McpServer::stdio("sh").args(["-c", "echo 'fatal: bad config at line 3' >&2; exit 2"]);
    let failure = agent_failure(&faulty(exits).await);
    assert!(failure.contains("could not start"), "{failure}");
    assert!(
        failure.ends_with("its standard error ended with:\n    fatal: bad config at line 3"),
        "{failure}"
    );

    // Any amount of anything on standard error: the tail is bounded, and readable.
    let noisy = McpServer::stdio("sh").args([
        "-c",
        "head -c 3000000 /dev/urandom >&2; printf 'x%.0s' $(seq 5000) >&2; exit 3",
    ]);
    let failure = agent_failure(&faulty(noisy).await);
    assert!(failure.contains("could not start"), "{failure}");
    assert!(failure.len() < 30_000, "{} bytes", failure.len());
    assert!(failure.ends_with("xxx [...]"), "{failure}");

    let silent = McpServer::stdio("sh")
        .args(["-c", "sleep 30"])
        .timeout(Duration::from_millis(300));
    assert!(
        agent_failure(&faulty(silent).await)
            .ends_with("(stdio: sh -c 'sleep 30') did not answer the MCP handshake within 300 ms"),
    );

    let crashes = stdio_server().env("DEMO_MCP_FAULT", "crash");
    let failure = agent_failure(&faulty(crashes).await);
    assert!(
        failure.contains("failed during tools/call: the connection closed (the server exited?)"),
        "{failure}"
    );
    assert!(
        failure.contains("demo-mcp: crashing on purpose (DEMO_MCP_FAULT=crash)"),
        "{failure}"
    );

    let hangs = stdio_server()
        .env("DEMO_MCP_FAULT", "hang")
        .timeout(Duration::from_millis(500));
    let failure = agent_failure(&faulty(hangs).await);
    assert!(
        failure.contains("failed during tools/call: no answer within 500 ms"),
        "{failure}"
    );

    // A setting the transport has no place for is not dropped unseen.
    let misconfigured = McpServer::http("http://127.0.0.1:9/mcp").env("TOKEN", "x");
    assert_eq!(
        agent_failure(&faulty(misconfigured).await),
        "the agent failed: MCP server `127.0.0.1` (http://127.0.0.1:9/mcp) is misconfigured: an HTTP server takes no environment variables (only `McpServer::stdio` servers do)"
    );
    let misconfigured = stdio_server().header("X-Tenant", "acme");
    assert!(agent_failure(&faulty(misconfigured).await).ends_with(
        "is misconfigured: a stdio server takes no HTTP headers (only `McpServer::http` servers do)"
    ),);
}

#[tokio::test]
async fn a_text_turn_is_not_an_mcp_request() {
    let mut run = ScenarioRun::new(Suite::new().agent(McpAgent::new(stdio_server())), "text");
    run.user("hello").await;
    let report = run.report().await;
    assert!(
        agent_failure(&report).contains("an MCP server under test takes MCP requests, not text"),
        "{report}"
    );
    // A garbled request is the turn's error, never a guess at what it meant.
    for (body, why) in [
        (json!({"mcp": "tools/call"}), "missing field `name`"),
        (
            json!({"mcp": "tools/cal", "name": "x"}),
            "unknown variant `tools/cal`",
        ),
        (
            json!({"mcp": "tools/call", "name": "search_hotels", "args": {}}),
            "unknown field `args`",
        ),
        (
            json!({"mcp": "tools/call", "name": "search_hotels", "arguments": ["Lisbon"]}),
            "invalid type: sequence, expected a map",
        ),
        (
            json!({"mcp": "resources/read", "uri": ""}),
            "`uri` is empty",
        ),
    ] {
        let mut run = ScenarioRun::new(Suite::new().agent(McpAgent::new(stdio_server())), "bad");
        run.user(agent_test::agent::custom_body(body.clone())).await;
        let failure = agent_failure(&run.report().await);
        assert!(
            failure.contains("the turn's body is not an MCP request") && failure.contains(why),
            "{body}: {failure}"
        );
    }
}

#[tokio::test]
async fn servers_a_model_could_not_tell_apart_are_an_error() {
    let (url, _) = scripted_model::start();
    let twice = |agent: ChatAgent| async move {
        let mut run = ScenarioRun::new(Suite::new().agent(agent), "twice");
        run.user("Where is ORD-9921?").await;
        run.report().await
    };
    let one_tool_twice = shop_agent(&url, stdio_server()).mcp(stdio_server().named("copy"));
    assert!(
        agent_failure(&twice(one_tool_twice).await).contains(
            "the MCP servers `shop` and `copy` both offer the tool `create_booking`: a call of it would be ambiguous"
        )
    );
    let one_name_twice = shop_agent(&url, stdio_server()).mcp(stdio_server());
    assert!(
        agent_failure(&twice(one_name_twice).await).contains("two MCP servers are named `shop`")
    );
    // Where a mock answers every shared tool, nothing is ambiguous.
    let mocked = [
        "create_booking",
        "lookup_order",
        "process_refund",
        "search_hotels",
    ]
    .into_iter()
    .fold(
        shop_agent(&url, stdio_server()).mcp(stdio_server().named("copy")),
        |agent, tool| agent.mock(tool, json!({"order_id": "ORD-9921", "status": "lost"})),
    );
    let report = twice(mocked).await;
    assert!(
        report.verdicts.iter().all(|v| v.check != "agent"),
        "{report}"
    );
}

/// A unique marker for one test's servers.
fn marker(test: &str) -> String {
    format!(
        "{}.{}{}",
        7000 + std::process::id() % 1000,
        test.len(),
        test.len() * 7
    )
}

#[tokio::test]
async fn no_server_outlives_its_agent_on_any_path() {
    // A server that ignores SIGTERM and never answers the handshake, with a child of its own
    // (a launcher's): the handshake times out, the turn is an error, and the agent's end
    // kills the whole group.
    let m = marker("handshake");
    let stubborn = McpServer::stdio("sh")
        .args(["-c", &format!("trap '' TERM; sleep {m} & sleep {m}; wait")])
        .timeout(Duration::from_millis(300))
        .shutdown_grace(Duration::from_millis(100));
    let report = faulty(stubborn).await;
    assert!(
        agent_failure(&report).contains("did not answer the MCP handshake within 300 ms"),
        "{report}"
    );
    assert_eq!(running(&m), Vec::<String>::new(), "nothing is left");

    // A server hung in a tool call, its input closed: SIGTERM ends it.
    let hangs = stdio_server()
        .env("DEMO_MCP_FAULT", "hang")
        .timeout(Duration::from_millis(300))
        .shutdown_grace(Duration::from_millis(100));
    let agent = McpAgent::new(hangs);
    let mut run = ScenarioRun::new(Suite::new().agent(agent), "hung");
    run.user(mcp::call_tool(
        "lookup_order",
        json!({"order_id": "ORD-9921"}),
    ))
    .await;
    drop(run.report().await);
}

#[test]
fn a_server_is_ended_without_a_runtime_and_when_a_test_panics() {
    // The agent outlives the runtime its turn ran on (a static suite, the end of a test
    // binary): its server is still ended when it is dropped.
    let m = marker("runtime");
    let server = McpServer::stdio("sh")
        .args(["-c", &format!("exec sleep {m}")])
        .timeout(Duration::from_millis(300))
        .shutdown_grace(Duration::from_millis(100));
    let agent = std::sync::Arc::new(McpAgent::new(server));
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let shared = agent.clone();
    rt.block_on(async move {
        let mut run = ScenarioRun::new(Suite::new().agent(shared), "no runtime");
        run.user(mcp::list_tools()).await;
        drop(run.report().await);
    });
    drop(rt);
    drop(agent);
    assert_eq!(running(&m), Vec::<String>::new());

    // A test that panics while its agent's server runs.
    let m = marker("panicking");
    let server = stdio_server()
        .env("DEMO_MCP_FAULT", "hang")
        .arg(format!("--marker={m}"))
        .timeout(Duration::from_secs(30))
        .shutdown_grace(Duration::from_millis(100));
    let inside = m.clone();
    let outcome = std::panic::catch_unwind(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let agent = McpAgent::new(server);
            let mut run = ScenarioRun::new(Suite::new().agent(agent), "panics");
            // The server starts (the tool list answers), then the test panics.
            run.user(mcp::list_tools()).await;
            assert!(!running(&inside).is_empty(), "the server runs");
            panic!("the test fails while the server runs");
        })
    });
    assert!(outcome.is_err());
    assert_eq!(running(&m), Vec::<String>::new());
}

#[tokio::test]
async fn an_answer_over_the_size_limit_fails_at_once_naming_its_size() {
    let huge = stdio_server().env("DEMO_MCP_FAULT", "huge:17000000");
    let started = std::time::Instant::now();
    let failure = agent_failure(&faulty(huge.clone()).await);
    assert!(
        failure.contains("answered tools/call with a message of 16.2 MiB (170000"),
        "{failure}"
    );
    assert!(
        failure.contains("over the limit of 16 MiB (`McpServer::max_message_bytes`"),
        "{failure}"
    );
    // Not the request's timeout (30 s): the size is known as soon as the line ends.
    assert!(started.elapsed() < Duration::from_secs(25));
    // A higher limit takes it.
    let report = faulty(huge.max_message_bytes(32 * 1024 * 1024)).await;
    assert!(
        report.verdicts.iter().all(|v| v.check != "agent"),
        "{report}"
    );
}

/// An HTTP server that cannot be reached, or answers with an error status, is named with the
/// cause (the refused connection, the status and its body) — never the transport's Rust type.
#[tokio::test]
async fn http_faults_name_their_cause() {
    let refused = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap()
    };
    let failure = agent_failure(&faulty(McpServer::http(format!("http://{refused}/mcp"))).await);
    assert_eq!(
        failure,
        format!(
            "the agent failed: MCP server `127.0.0.1` (http://{refused}/mcp) could not start: \
             error sending request for url (http://{refused}/mcp): client error (Connect): tcp \
             connect error: Connection refused (os error 111)"
        )
    );

    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let missing = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        use std::io::{Read, Write};
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            let mut request = [0u8; 8192];
            let _ = stream.read(&mut request);
            let _ = stream.write_all(
                b"HTTP/1.1 404 Not Found\r\ncontent-length: 9\r\nconnection: close\r\n\r\nnot found",
            );
        }
    });
    let failure = agent_failure(&faulty(McpServer::http(format!("http://{missing}/mcp"))).await);
    assert_eq!(
        failure,
        format!(
            "the agent failed: MCP server `127.0.0.1` (http://{missing}/mcp) could not start: \
             unexpected server response: HTTP 404 Not Found: not found"
        )
    );
    assert!(!failure.contains("Transport ["), "{failure}");
}

/// A stdio server's standard output carries only JSON-RPC: a line that is not is shown, and
/// fails the server at once — before its handshake, or after it, as a server that prints a
/// banner and then speaks MCP does. A prompt without a line end is shown when the handshake
/// times out.
#[tokio::test]
async fn what_a_server_prints_that_is_not_mcp_is_shown_at_once() {
    let junk = McpServer::stdio("sh")
        .args([
            "-c",
            "echo 'Welcome to my server v1'; echo loading...; sleep 30",
        ])
        .timeout(Duration::from_secs(20));
    let failure = agent_failure(&faulty(junk).await);
    assert!(
        failure.ends_with(
            "could not start: it wrote to its standard output what is not an MCP message: \
             `Welcome to my server v1` (a stdio server's standard output carries only JSON-RPC \
             messages; logs belong on its standard error)"
        ),
        "{failure}"
    );

    let banner = McpServer::stdio("sh").args([
        "-c",
        &format!(
            "echo '{{\"level\":\"info\",\"msg\":\"demo starting\"}}'; exec {}",
            env!("CARGO_BIN_EXE_demo-mcp")
        ),
    ]);
    let failure = agent_failure(&faulty(banner).await);
    assert!(
        failure.contains(
            r#"it wrote to its standard output what is not an MCP message: `{"level":"info","msg":"demo starting"}`"#
        ),
        "{failure}"
    );

    let prompt = McpServer::stdio("sh")
        .args(["-c", "printf 'Enter the API key: '; sleep 30"])
        .timeout(Duration::from_millis(500));
    let failure = agent_failure(&faulty(prompt).await);
    assert!(
        failure.ends_with(
            "did not answer the MCP handshake within 500 ms; its standard output so far (no line \
             end): `Enter the API key: `"
        ),
        "{failure}"
    );
}

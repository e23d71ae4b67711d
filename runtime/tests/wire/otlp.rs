//! Black-box agents through OpenTelemetry: an HTTP agent whose answer carries only its reply
//! exports its spans to the run's OTLP receiver, in protobuf or JSON, and the turn's tool calls,
//! sub-agents and tokens come from them. Then the faults: spans that never arrive, arrive late,
//! belong to no turn; garbage, huge and compressed exports.

use std::time::Duration;

use agent_test_runtime::Verdict;
use agent_test_runtime::agent::HttpAgent;
use agent_test_runtime::check::Status;
use agent_test_runtime::prelude::*;
use agent_test_runtime::trace::OtlpReceiver;
use agent_test_runtime::{ScenarioRun, Suite};
use axum::Router;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::routing::post;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::{AnyValue, KeyValue, any_value};
use opentelemetry_proto::tonic::trace::v1::{
    ResourceSpans, ScopeSpans, Span as PbSpan, Status as PbStatus,
};
use prost::Message;
use serde_json::Value;

use super::servers::serve;

/// The trace id and parent span id of a `traceparent` header.
fn parent(headers: &HeaderMap) -> (String, String) {
    let tp = headers
        .get("traceparent")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("00-00000000000000000000000000000001-0000000000000001-01");
    let parts: Vec<&str> = tp.split('-').collect();
    (parts[1].to_owned(), parts[2].to_owned())
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap_or(0))
        .collect()
}

fn kv(key: &str, v: &str) -> KeyValue {
    KeyValue {
        key: key.into(),
        value: Some(AnyValue {
            value: Some(any_value::Value::StringValue(v.into())),
        }),
        ..Default::default()
    }
}

fn int(key: &str, v: i64) -> KeyValue {
    KeyValue {
        key: key.into(),
        value: Some(AnyValue {
            value: Some(any_value::Value::IntValue(v)),
        }),
        ..Default::default()
    }
}

/// The spans an instrumented support agent exports for one turn: its agent span (a child of
/// the request's span), a model call, a tool execution, and a sub-agent with a tool of its own.
fn turn_spans(
    trace: &str,
    parent_span: &str,
    order: &str,
    failing_tool: bool,
) -> ExportTraceServiceRequest {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64;
    let span = |id: &str, parent: &str, name: &str, at: u64, attributes: Vec<KeyValue>| PbSpan {
        trace_id: hex(trace),
        span_id: hex(id),
        parent_span_id: hex(parent),
        name: name.into(),
        start_time_unix_nano: now + at * 1_000_000,
        end_time_unix_nano: now + (at + 5) * 1_000_000,
        attributes,
        ..Default::default()
    };
    let mut tool = span(
        "0000000000000003",
        "0000000000000001",
        "execute_tool lookup_order",
        10,
        vec![
            kv("gen_ai.operation.name", "execute_tool"),
            kv("gen_ai.tool.name", "lookup_order"),
            kv("gen_ai.tool.call.id", "call_1"),
            kv(
                "gen_ai.tool.call.arguments",
                &format!("{{\"order_id\":\"{order}\"}}"),
            ),
            kv("gen_ai.tool.call.result", "{\"status\":\"delivered\"}"),
        ],
    );
    if failing_tool {
        tool.status = Some(PbStatus {
            code: 2,
            message: "database unavailable".into(),
        });
    }
    let spans = vec![
        span(
            "0000000000000001",
            parent_span,
            "invoke_agent support",
            0,
            vec![
                kv("gen_ai.operation.name", "invoke_agent"),
                kv("gen_ai.agent.name", "support"),
            ],
        ),
        span(
            "0000000000000002",
            "0000000000000001",
            "chat demo-model",
            1,
            vec![
                kv("gen_ai.operation.name", "chat"),
                int("gen_ai.usage.input_tokens", 120),
                int("gen_ai.usage.output_tokens", 30),
            ],
        ),
        tool,
        span(
            "0000000000000004",
            "0000000000000001",
            "invoke_agent billing",
            20,
            vec![
                kv("gen_ai.operation.name", "invoke_agent"),
                kv("gen_ai.agent.name", "billing"),
            ],
        ),
        span(
            "0000000000000005",
            "0000000000000004",
            "execute_tool refund",
            21,
            vec![
                kv("gen_ai.operation.name", "execute_tool"),
                kv("gen_ai.tool.name", "refund"),
                kv(
                    "gen_ai.tool.call.arguments",
                    &format!("{{\"order_id\":\"{order}\"}}"),
                ),
                kv("gen_ai.tool.call.result", "{\"refunded\":true}"),
            ],
        ),
    ];
    ExportTraceServiceRequest {
        resource_spans: vec![ResourceSpans {
            scope_spans: vec![ScopeSpans {
                spans,
                ..Default::default()
            }],
            ..Default::default()
        }],
    }
}

/// The request as OTLP/JSON (hex ids, integer enums, strings for 64-bit numbers).
fn to_json(req: &ExportTraceServiceRequest) -> Value {
    let to_hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
    let value = |v: &Option<AnyValue>| match v.as_ref().and_then(|v| v.value.as_ref()) {
        Some(any_value::Value::StringValue(s)) => serde_json::json!({"stringValue": s}),
        Some(any_value::Value::IntValue(i)) => serde_json::json!({"intValue": i.to_string()}),
        _ => serde_json::json!({}),
    };
    let spans: Vec<Value> = req.resource_spans[0].scope_spans[0]
        .spans
        .iter()
        .map(|s| {
            serde_json::json!({
                "traceId": to_hex(&s.trace_id), "spanId": to_hex(&s.span_id),
                "parentSpanId": to_hex(&s.parent_span_id), "name": s.name, "kind": 1,
                "startTimeUnixNano": s.start_time_unix_nano.to_string(),
                "endTimeUnixNano": s.end_time_unix_nano.to_string(),
                "attributes": s.attributes.iter().map(|a| serde_json::json!({"key": a.key, "value": value(&a.value)})).collect::<Vec<_>>(),
                "status": s.status.as_ref().map(|st| serde_json::json!({"code": st.code, "message": st.message})),
            })
        })
        .collect();
    serde_json::json!({"resourceSpans": [{"resource": {}, "scopeSpans": [{"scope": {"name": "demo"}, "spans": spans}]}]})
}

/// How the test agent exports.
#[derive(Clone, Copy)]
enum Export {
    Protobuf,
    Json,
    /// Nothing at all.
    Silent,
    /// After answering, later than the turn waits.
    Late,
    /// Its turn's spans, and a trace of its own that no request started.
    WithOrphan,
    /// Every span but the agent's root span.
    WithoutRoot,
    /// An export the receiver refuses (a key given twice), then its turn's spans.
    OneRefused,
    /// Its turn's spans, the sub-agent's tool instrumented with OpenInference.
    Mixed,
}

#[derive(Clone)]
struct Agent {
    traces_url: String,
    export: Export,
    http: reqwest::Client,
}

async fn post_export(agent: &Agent, req: &ExportTraceServiceRequest, json: bool) {
    let builder = agent.http.post(&agent.traces_url);
    let builder = if json {
        builder
            .header("content-type", "application/json")
            .body(to_json(req).to_string())
    } else {
        builder
            .header("content-type", "application/x-protobuf")
            .body(req.encode_to_vec())
    };
    let status = builder.send().await.expect("the receiver answers").status();
    assert_eq!(status.as_u16(), 200);
}

async fn chat(State(agent): State<Agent>, headers: HeaderMap, body: String) -> axum::Json<Value> {
    let input: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    let text = input["input"].as_str().unwrap_or("").to_owned();
    let (trace, span) = parent(&headers);
    let failing = text.contains("broken");
    let req = turn_spans(&trace, &span, "ORD-9921", failing);
    match agent.export {
        Export::Protobuf => post_export(&agent, &req, false).await,
        Export::Json => post_export(&agent, &req, true).await,
        Export::Silent => {}
        Export::Late => {
            let agent = agent.clone();
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(400)).await;
                post_export(&agent, &req, false).await;
            });
        }
        Export::WithOrphan => {
            post_export(
                &agent,
                &turn_spans(
                    "0123456789abcdef0123456789abcdef",
                    "00000000000000ff",
                    "ORD-0",
                    false,
                ),
                false,
            )
            .await;
            post_export(&agent, &req, false).await;
        }
        Export::WithoutRoot => {
            let mut partial = req.clone();
            for rs in &mut partial.resource_spans {
                for ss in &mut rs.scope_spans {
                    ss.spans.retain(|s| s.parent_span_id != hex(&span));
                }
            }
            post_export(&agent, &partial, false).await;
        }
        Export::OneRefused => {
            let refused = agent
                .http
                .post(&agent.traces_url)
                .header("content-type", "application/json")
                .body(r#"{"resourceSpans": [], "resourceSpans": []}"#)
                .send()
                .await
                .expect("the receiver answers");
            assert_eq!(refused.status().as_u16(), 400);
            post_export(&agent, &req, false).await;
        }
        Export::Mixed => {
            let mut mixed = req.clone();
            for rs in &mut mixed.resource_spans {
                for ss in &mut rs.scope_spans {
                    for s in &mut ss.spans {
                        if s.name == "execute_tool refund" {
                            s.name = "refund".into();
                            s.attributes = vec![
                                kv("openinference.span.kind", "TOOL"),
                                kv("tool.name", "refund"),
                                kv("input.value", "{\"order_id\":\"ORD-9921\"}"),
                                kv("output.value", "{\"refunded\":true}"),
                            ];
                        }
                    }
                }
            }
            post_export(&agent, &mixed, false).await;
        }
    }
    axum::Json(serde_json::json!({"reply": format!("Order ORD-9921 is on its way ({text}).")}))
}

/// reqwest is built without a default crypto provider: each test that builds a client installs
/// one itself (under nextest a test is alone in its process; no other test did it before).
fn tls_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

async fn agent_serving(receiver: &OtlpReceiver, export: Export) -> String {
    tls_provider();
    let state = Agent {
        traces_url: receiver.traces_url(),
        export,
        http: reqwest::Client::new(),
    };
    let url = serve(Router::new().route("/chat", post(chat)).with_state(state)).await;
    format!("{url}/chat")
}

async fn two_turns(agent: HttpAgent) -> agent_test_runtime::report::Report {
    let mut run = ScenarioRun::new(Suite::new().agent(agent), "traced");
    run.user("Where is ORD-9921?").await;
    run.user("Refund it").await;
    run.expect(tool("lookup_order").arg("order_id", "ORD-9921"));
    run.expect(agent_invoked(["support", "billing"]));
    run.expect(tool("refund").arg("order_id", "ORD-9921"));
    run.expect(tokens().total_at_most(1_000));
    run.expect(reply().contains("on its way"));
    run.expect(no_tool("cancel_order"));
    run.report().await
}

#[tokio::test]
async fn a_black_box_agent_s_tool_calls_come_from_its_spans() {
    let receiver = OtlpReceiver::start().unwrap();
    for export in [Export::Protobuf, Export::Json] {
        let url = agent_serving(&receiver, export).await;
        let report = two_turns(HttpAgent::post(url).traces_from(&receiver)).await;
        assert!(report.passed(), "{report}");
        let turn = &report.transcript.turns[0];
        let support = &turn.reply.calls[0];
        assert_eq!(support.name, "support");
        assert_eq!(support.children[0].name, "lookup_order");
        assert_eq!(
            support.children[0].result.as_ref().unwrap()["status"],
            "delivered"
        );
        assert_eq!(support.children[1].children[0].name, "refund");
        assert_eq!(turn.reply.usage.unwrap().total(), Some(150));
        // Every span accounted for, and nothing else to say.
        assert_eq!(
            report.notes,
            [
                "turn 1: trace of 5 spans, all read",
                "turn 2: trace of 5 spans, all read"
            ]
        );
    }
    // Without the receiver the same agent's calls are not seen: the checks on them fail.
    let url = agent_serving(&receiver, Export::Protobuf).await;
    let report = two_turns(HttpAgent::post(url)).await;
    assert!(!report.passed());
    let v = report.verdicts.iter().find(|v| v.check == "tool").unwrap();
    assert_eq!(v.reason, "tool `lookup_order` was not called");
    // A tool span's ERROR status is a failed call.
    let url = agent_serving(&receiver, Export::Protobuf).await;
    let mut run = ScenarioRun::new(
        Suite::new().agent(HttpAgent::post(url).traces_from(&receiver)),
        "broken",
    );
    run.user("the database is broken").await;
    run.expect(no_tool_errors());
    let report = run.report().await;
    assert_eq!(report.verdicts[0].status, Status::Fail, "{report}");
    assert!(
        report.verdicts[0].reason.contains("lookup_order"),
        "{}",
        report.verdicts[0].reason
    );
}

/// The verdict of the run's check of kind `check`.
fn verdict<'a>(report: &'a agent_test_runtime::report::Report, check: &str) -> &'a Verdict {
    report
        .verdicts
        .iter()
        .find(|v| v.check == check)
        .unwrap_or_else(|| panic!("no {check} verdict in {report}"))
}

#[tokio::test]
async fn spans_that_never_arrive_make_the_calls_unknown_not_a_pass() {
    let receiver = OtlpReceiver::start().unwrap();
    let url = agent_serving(&receiver, Export::Silent).await;
    let agent = HttpAgent::post(url)
        .traces_from(&receiver)
        .trace_wait(Duration::from_millis(200));
    let mut run = ScenarioRun::new(Suite::new().agent(agent), "silent");
    run.user("Where is ORD-9921?").await;
    run.expect(no_tool("cancel_order"));
    run.expect(reply().contains("on its way"));
    let report = run.report().await;
    assert!(!report.passed());
    // The calls are what the spans would have said: the check reading them is an error
    // naming why; the reply the response gave is checked.
    let absence = verdict(&report, "tool");
    assert_eq!(absence.status, Status::Error, "{}", absence.reason);
    assert!(
        absence.reason.contains(
            "are incomplete: no span of the turn arrived at the OTLP receiver within 200 ms"
        ),
        "{}",
        absence.reason
    );
    assert_eq!(verdict(&report, "text").status, Status::Pass, "{report}");
    assert!(
        report.verdicts.iter().all(|v| v.check != "agent"),
        "{report}"
    );
}

#[tokio::test]
async fn a_trace_without_the_agent_s_root_span_or_with_a_refused_export_leaves_the_calls_unknown() {
    // Without its root span the turn cannot know it saw all of the agent's work: a call
    // missing from the partial spans would pass `no_tool(..)`.
    let receiver = OtlpReceiver::start().unwrap();
    let url = agent_serving(&receiver, Export::WithoutRoot).await;
    let agent = HttpAgent::post(url)
        .traces_from(&receiver)
        .trace_wait(Duration::from_millis(300));
    let mut run = ScenarioRun::new(Suite::new().agent(agent), "rootless");
    run.user("Where is ORD-9921?").await;
    run.expect(no_tool("cancel_order"));
    run.expect(reply().contains("on its way"));
    let report = run.report().await;
    let absence = verdict(&report, "tool");
    assert_eq!(absence.status, Status::Error, "{}", absence.reason);
    assert!(
        absence.reason.contains("the agent's root span")
            && absence
                .reason
                .contains("did not arrive at the OTLP receiver within 300 ms; 4 other spans did"),
        "{}",
        absence.reason
    );
    assert_eq!(verdict(&report, "text").status, Status::Pass, "{report}");
    // An export refused while the turn ran may have held its spans.
    let receiver = OtlpReceiver::start().unwrap();
    let url = agent_serving(&receiver, Export::OneRefused).await;
    let mut run = ScenarioRun::new(
        Suite::new().agent(HttpAgent::post(url).traces_from(&receiver)),
        "refused",
    );
    run.user("Where is ORD-9921?").await;
    run.expect(no_tool("cancel_order"));
    let report = run.report().await;
    let absence = verdict(&report, "tool");
    assert_eq!(absence.status, Status::Error, "{}", absence.reason);
    assert!(
        absence
            .reason
            .contains("the OTLP receiver refused an export while the turn ran"),
        "{}",
        absence.reason
    );
    assert!(
        report
            .notes
            .iter()
            .any(|n| n.contains("duplicate key `resourceSpans`")),
        "{:?}",
        report.notes
    );
}

#[tokio::test]
async fn instrumentations_mixed_in_one_trace_are_each_read_by_their_convention() {
    let receiver = OtlpReceiver::start().unwrap();
    let url = agent_serving(&receiver, Export::Mixed).await;
    let report = two_turns(HttpAgent::post(url).traces_from(&receiver)).await;
    assert!(report.passed(), "{report}");
    let support = &report.transcript.turns[0].reply.calls[0];
    assert_eq!(support.children[1].children[0].name, "refund");
    assert_eq!(
        support.children[1].children[0].arguments["order_id"],
        "ORD-9921"
    );
}

#[tokio::test]
async fn late_and_orphan_spans_are_noted() {
    let receiver = OtlpReceiver::start().unwrap();
    // Late: the first turn waits 150 ms, the spans come at 400 ms; the second turn notes them.
    let url = agent_serving(&receiver, Export::Late).await;
    let agent = HttpAgent::post(url)
        .traces_from(&receiver)
        .trace_wait(Duration::from_millis(150));
    let mut run = ScenarioRun::new(Suite::new().agent(agent), "late");
    run.user("first").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    run.user("second").await;
    let report = run.report().await;
    assert!(
        report.notes.iter().any(
            |n| n.starts_with("turn 2: span `invoke_agent support` of trace")
                && n.ends_with("arrived after its turn took the trace")
        ),
        "{:?}",
        report.notes
    );
    // Orphans: a trace no request started is noted once it is older than the turn's wait.
    let receiver = OtlpReceiver::start().unwrap();
    let url = agent_serving(&receiver, Export::WithOrphan).await;
    let agent = HttpAgent::post(url)
        .traces_from(&receiver)
        .trace_wait(Duration::from_millis(300));
    let mut run = ScenarioRun::new(Suite::new().agent(agent), "orphans");
    run.user("one").await;
    tokio::time::sleep(Duration::from_millis(350)).await;
    run.user("two").await;
    let report = run.report().await;
    assert!(report.passed(), "{report}");
    assert!(
        report.notes.iter().any(|n| n.contains("spans that belong to no turn arrived (trace 0123456789abcdef0123456789abcdef: invoke_agent support, chat demo-model")),
        "{:?}",
        report.notes
    );
    assert_eq!(
        receiver.unclaimed()[0].trace_id,
        "0123456789abcdef0123456789abcdef"
    );
}

#[tokio::test]
async fn garbage_huge_and_compressed_exports_are_refused_and_noted() {
    tls_provider();
    let receiver = OtlpReceiver::start().unwrap();
    let http = reqwest::Client::new();
    let post = |ct: &str, enc: Option<&str>, body: Vec<u8>| {
        let mut b = http
            .post(receiver.traces_url())
            .header("content-type", ct)
            .body(body);
        if let Some(e) = enc {
            b = b.header("content-encoding", e);
        }
        b.send()
    };
    let status = |r: reqwest::Response| r.status().as_u16();
    assert_eq!(
        status(
            post("application/x-protobuf", None, vec![0xff, 0xff, 0xff])
                .await
                .unwrap()
        ),
        400
    );
    assert_eq!(
        status(
            post("application/json", None, b"{\"resourceSpans\": 3}".to_vec())
                .await
                .unwrap()
        ),
        400
    );
    assert_eq!(
        status(
            post("application/x-protobuf", Some("gzip"), vec![1, 2])
                .await
                .unwrap()
        ),
        415
    );
    assert_eq!(
        status(post("text/plain", None, b"hello".to_vec()).await.unwrap()),
        415
    );
    assert_eq!(
        status(
            post("application/x-protobuf", None, vec![0; 17 * 1024 * 1024])
                .await
                .unwrap()
        ),
        413
    );
    // Logs and metrics are taken and not read.
    let logs = http
        .post(receiver.traces_url().replace("traces", "logs"))
        .header("content-type", "application/x-protobuf")
        .body(Vec::new())
        .send()
        .await
        .unwrap();
    assert_eq!(logs.status().as_u16(), 200);
    let problems = receiver.problems();
    assert_eq!(problems.len(), 5, "{problems:#?}");
    assert!(
        problems[0].starts_with("OTLP receiver: not an OTLP trace export:"),
        "{}",
        problems[0]
    );
    assert!(
        problems[1].contains("at $.resourceSpans: expected an array"),
        "{}",
        problems[1]
    );
    assert!(
        problems[2].contains("`Content-Encoding: gzip` is not supported"),
        "{}",
        problems[2]
    );
    // The receiver still works.
    let url = agent_serving(&receiver, Export::Protobuf).await;
    let report = two_turns(HttpAgent::post(url).traces_from(&receiver)).await;
    assert!(report.passed(), "{report}");
    assert!(
        report
            .notes
            .iter()
            .any(|n| n.contains("not an OTLP trace export")),
        "the first turn notes the refusals: {:?}",
        report.notes
    );
}

#[tokio::test]
async fn the_protobuf_export_of_a_real_exporter() {
    tls_provider();
    // OpenLLMetry's spans as the Python OTLP exporter sent them, with the ids of this turn.
    let receiver = OtlpReceiver::start().unwrap();
    let raw = std::fs::read(format!(
        "{}/tests/fixtures/otel/openllmetry-1.pb",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let fixture = ExportTraceServiceRequest::decode(raw.as_slice()).unwrap();
    // Keep the first trace (one turn), and continue the request's trace from its root.
    let first = fixture.resource_spans[0].scope_spans[0].spans[0]
        .trace_id
        .clone();
    let roots: Vec<Vec<u8>> = fixture
        .resource_spans
        .iter()
        .flat_map(|r| &r.scope_spans)
        .flat_map(|s| &s.spans)
        .filter(|s| s.trace_id == first && s.parent_span_id.is_empty())
        .map(|s| s.span_id.clone())
        .collect();
    assert_eq!(roots.len(), 1);
    let http = reqwest::Client::new();
    let url = serve(Router::new().route(
        "/chat",
        post(move |headers: HeaderMap| {
            let mut fixture = fixture.clone();
            let traces_url = receiver_url(&headers);
            let http = http.clone();
            async move {
                let (trace, span) = parent(&headers);
                for rs in &mut fixture.resource_spans {
                    for ss in &mut rs.scope_spans {
                        ss.spans.retain(|s| s.trace_id == first);
                        for s in &mut ss.spans {
                            s.trace_id = hex(&trace);
                            if s.parent_span_id.is_empty() {
                                s.parent_span_id = hex(&span);
                            }
                        }
                    }
                }
                http.post(traces_url)
                    .header("content-type", "application/x-protobuf")
                    .body(fixture.encode_to_vec())
                    .send()
                    .await
                    .unwrap();
                axum::Json(serde_json::json!({"reply": ""}))
            }
        }),
    ))
    .await;
    let agent = HttpAgent::post(format!("{url}/chat"))
        .header("x-receiver", receiver.traces_url())
        .traces_from(&receiver);
    let mut run = ScenarioRun::new(Suite::new().agent(agent), "fixture");
    run.user("Where is my order ORD-9921?").await;
    run.expect(tool("lookup_order").arg("order_id", "ORD-9921"));
    run.expect(reply().contains("delivered yesterday"));
    let report = run.report().await;
    assert!(report.passed(), "{report}");
}

fn receiver_url(headers: &HeaderMap) -> String {
    headers
        .get("x-receiver")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned()
}

//! The demo agent as a black box: served over HTTP with an answer that carries only its reply,
//! and instrumented with the real OpenTelemetry Rust SDK — spans named and attributed by the
//! GenAI semantic conventions, exported over OTLP/HTTP (protobuf) by `opentelemetry-otlp`'s
//! batch exporter — the way a production agent reports what it did.
//!
//! Each request continues the trace of its W3C `traceparent` header (the SDK's
//! `TraceContextPropagator`). One turn is an `invoke_agent demo_agent` span with, inside it, a
//! `chat` span per model step (usage, the messages), an `execute_tool` span per tool call
//! (arguments, result, an ERROR status when the tool failed) and an `invoke_agent` span per
//! workflow node the planner ran.
//!
//! `cargo run -p agent-test-examples --bin demo-server -- --otlp http://127.0.0.1:4318` runs it
//! for `agent-test run --http ... --otlp 127.0.0.1:4318`.

use std::collections::HashMap;
use std::time::{Duration, SystemTime};

use agent_test::model::{Call, CallKind, Reply};
use agent_test::serde_json::{Value, json};
use opentelemetry::trace::{Span, SpanKind, Status, TraceContextExt, Tracer, TracerProvider};
use opentelemetry::{Context, KeyValue};
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::{
    BatchConfigBuilder, BatchSpanProcessor, SdkTracer, SdkTracerProvider,
};

/// The agent's telemetry: a tracer exporting to an OTLP/HTTP endpoint.
pub struct Telemetry {
    provider: SdkTracerProvider,
    tracer: SdkTracer,
}

impl Telemetry {
    /// Exports to `endpoint` (`http://127.0.0.1:4318`, as `OTEL_EXPORTER_OTLP_ENDPOINT`
    /// names it: spans go to its `/v1/traces`) with the batch processor, every 50 ms.
    ///
    /// # Panics
    ///
    /// If the exporter cannot be built (an invalid endpoint).
    pub fn new(endpoint: &str) -> Self {
        use opentelemetry_otlp::WithExportConfig;
        // The workspace builds reqwest with rustls and no crypto provider: install ring's
        // (another one already installed stays).
        let _ = rustls::crypto::ring::default_provider().install_default();
        let exporter = opentelemetry_otlp::SpanExporter::builder()
            .with_http()
            .with_endpoint(format!("{}/v1/traces", endpoint.trim_end_matches('/')))
            .with_timeout(Duration::from_secs(5))
            .build()
            .expect("an OTLP/HTTP span exporter");
        let batch = BatchSpanProcessor::builder(exporter)
            .with_batch_config(
                BatchConfigBuilder::default()
                    .with_scheduled_delay(Duration::from_millis(50))
                    .build(),
            )
            .build();
        let provider = SdkTracerProvider::builder()
            .with_span_processor(batch)
            .with_resource(
                opentelemetry_sdk::Resource::builder()
                    .with_service_name("demo-agent")
                    .build(),
            )
            .build();
        let tracer = provider.tracer("demo-agent");
        Telemetry { provider, tracer }
    }

    /// Records one turn that ran from `started` to `ended`, in the trace of the request's
    /// headers (their `traceparent`, if any).
    pub fn record(
        &self,
        headers: &HashMap<String, String>,
        input: &str,
        reply: &Reply,
        started: SystemTime,
        ended: SystemTime,
    ) {
        use opentelemetry::propagation::TextMapPropagator;
        let parent = TraceContextPropagator::new().extract(headers);
        let clock = Clock::new(started, ended, count(&reply.calls) * 2 + 4);
        let mut root = self
            .tracer
            .span_builder("invoke_agent demo_agent")
            .with_kind(SpanKind::Server)
            .with_start_time(clock.at(0))
            .with_attributes([
                KeyValue::new("gen_ai.operation.name", "invoke_agent"),
                KeyValue::new("gen_ai.agent.name", "demo_agent"),
            ])
            .start_with_context(&self.tracer, &parent);
        // The turn's spans are children of the root: its context stands for it.
        let cx = Context::new().with_remote_span_context(root.span_context().clone());
        let mut tick = 1;
        let usage = reply.usage.unwrap_or_default();
        // The model asked for the calls (one step), then answered (a second step).
        let requested: Vec<Value> = top_calls(&reply.calls)
            .iter()
            .map(|c| json!({"type": "tool_call", "name": c.name, "id": c.id, "arguments": c.arguments}))
            .collect();
        if !requested.is_empty() {
            self.chat(&cx, &clock, &mut tick, input, None, &requested, None);
        }
        for call in &reply.calls {
            self.call(&cx, &clock, &mut tick, call);
        }
        self.chat(
            &cx,
            &clock,
            &mut tick,
            input,
            Some(&reply.text),
            &[],
            Some((usage.input_tokens, usage.output_tokens)),
        );
        root.end_with_timestamp(clock.at(clock.slots));
    }

    #[allow(clippy::too_many_arguments)]
    fn chat(
        &self,
        cx: &Context,
        clock: &Clock,
        tick: &mut usize,
        input: &str,
        text: Option<&str>,
        calls: &[Value],
        usage: Option<(Option<u64>, Option<u64>)>,
    ) {
        let mut parts = calls.to_vec();
        if let Some(t) = text {
            parts.push(json!({"type": "text", "content": t}));
        }
        let mut attributes = vec![
            KeyValue::new("gen_ai.operation.name", "chat"),
            KeyValue::new("gen_ai.provider.name", "demo"),
            KeyValue::new("gen_ai.request.model", "demo-planner"),
            KeyValue::new(
                "gen_ai.input.messages",
                json!([{"role": "user", "parts": [{"type": "text", "content": input}]}])
                    .to_string(),
            ),
            KeyValue::new(
                "gen_ai.output.messages",
                json!([{"role": "assistant", "parts": parts}]).to_string(),
            ),
        ];
        if let Some((i, o)) = usage {
            attributes.push(KeyValue::new(
                "gen_ai.usage.input_tokens",
                i.unwrap_or(0) as i64,
            ));
            attributes.push(KeyValue::new(
                "gen_ai.usage.output_tokens",
                o.unwrap_or(0) as i64,
            ));
        }
        let mut span = self
            .tracer
            .span_builder("chat demo-planner")
            .with_kind(SpanKind::Client)
            .with_start_time(clock.at(*tick))
            .with_attributes(attributes)
            .start_with_context(&self.tracer, cx);
        span.end_with_timestamp(clock.at(*tick + 1));
        *tick += 2;
    }

    /// A tool call as an `execute_tool` span, a workflow node as an `invoke_agent` span with
    /// its calls inside.
    fn call(&self, cx: &Context, clock: &Clock, tick: &mut usize, call: &Call) {
        let start = clock.at(*tick);
        *tick += 1;
        let mut span = match call.kind {
            CallKind::Node => self
                .tracer
                .span_builder(format!("invoke_agent {}", call.name))
                .with_start_time(start)
                .with_attributes([
                    KeyValue::new("gen_ai.operation.name", "invoke_agent"),
                    KeyValue::new("gen_ai.agent.name", call.name.clone()),
                ])
                .start_with_context(&self.tracer, cx),
            _ => {
                let mut attributes = vec![
                    KeyValue::new("gen_ai.operation.name", "execute_tool"),
                    KeyValue::new("gen_ai.tool.name", call.name.clone()),
                    KeyValue::new("gen_ai.tool.type", "function"),
                    KeyValue::new("gen_ai.tool.call.arguments", call.arguments.to_string()),
                ];
                if let Some(id) = &call.id {
                    attributes.push(KeyValue::new("gen_ai.tool.call.id", id.clone()));
                }
                if let Some(result) = &call.result {
                    attributes.push(KeyValue::new("gen_ai.tool.call.result", result.to_string()));
                }
                self.tracer
                    .span_builder(format!("execute_tool {}", call.name))
                    .with_start_time(start)
                    .with_attributes(attributes)
                    .start_with_context(&self.tracer, cx)
            }
        };
        if call.error {
            span.set_status(Status::error(
                call.result
                    .as_ref()
                    .map_or_else(String::new, Value::to_string),
            ));
        }
        let inner = cx.with_remote_span_context(span.span_context().clone());
        for child in &call.children {
            self.call(&inner, clock, tick, child);
        }
        span.end_with_timestamp(clock.at(*tick));
        *tick += 1;
    }

    /// Exports what the batch holds now (tests call it before they end).
    pub fn flush(&self) {
        let _ = self.provider.force_flush();
    }
}

/// The calls a model step asked for: tools at the top, or inside the first workflow node.
fn top_calls(calls: &[Call]) -> Vec<&Call> {
    let mut out = Vec::new();
    for c in calls {
        match c.kind {
            CallKind::Node => out.extend(c.children.iter().filter(|c| c.kind == CallKind::Tool)),
            _ => out.push(c),
        }
    }
    out
}

fn count(calls: &[Call]) -> usize {
    calls.iter().map(|c| 1 + count(&c.children)).sum()
}

/// Evenly spaced instants between a turn's start and end, one per span boundary.
struct Clock {
    start: SystemTime,
    step: Duration,
    slots: usize,
}

impl Clock {
    fn new(start: SystemTime, end: SystemTime, slots: usize) -> Self {
        let total = end
            .duration_since(start)
            .unwrap_or_default()
            .max(Duration::from_micros(slots as u64));
        Clock {
            start,
            step: total / slots.max(1) as u32,
            slots,
        }
    }

    fn at(&self, slot: usize) -> SystemTime {
        self.start + self.step * slot.min(self.slots) as u32
    }
}

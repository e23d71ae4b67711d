//! In-process agents that emit `tracing` spans: Rust LLM crates (`genai` with its `otel`
//! feature, `rig`, your own code) write spans whose fields follow the OpenTelemetry GenAI
//! conventions (`gen_ai.operation.name`, `gen_ai.tool.name`, `gen_ai.usage.input_tokens`,
//! ...). [`traced`] wraps such an agent: while a turn runs, a `tracing` subscriber of its own
//! captures those spans, and they are read into the turn like an OpenTelemetry trace (see
//! [`TraceFormat::Otel`](crate::trace::TraceFormat::Otel)).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::SystemTime;

use serde_json::{Map, Value};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::subscriber::Interest;
use tracing::{Dispatch, Event, Metadata, Subscriber};
use tracing_subscriber::layer::Context;
use tracing_subscriber::prelude::*;
use tracing_subscriber::registry::LookupSpan;

use super::{Agent, AgentError, AgentRequest, BoxFuture};
use crate::model::Reply;
use crate::trace::otel::spans::{Span, SpanEvent};

/// An agent whose turns are read from the `tracing` spans it emits, as well as from its reply
/// (see [`traced`]).
pub struct Traced<A> {
    inner: A,
}

/// Wraps `agent`: the `tracing` spans it emits during a turn — model calls, tool executions,
/// sub-agents, by the GenAI conventions — give the turn's tool calls (when the reply lists
/// none), its usage (when the reply has none) and its text (when the reply has none).
///
/// The spans are captured by a subscriber set for the turn's future as it is polled
/// (`tracing`'s `WithSubscriber`): a span the agent starts in `respond` before returning its
/// future, or in a task it spawns (unless spawned with `.with_current_subscriber()`), goes to
/// another subscriber — start them inside the future. A span's ERROR status
/// (`otel.status_code = "ERROR"`, or an `error.type` field) is a failed call; its name is its
/// `otel.name` field when it has one.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::agent::traced;
///
/// // An agent that runs a tool and says so in a span, as an instrumented crate does.
/// let agent = traced(agent_fn(|_req| async {
///     let span = tracing::info_span!(
///         "execute_tool",
///         "gen_ai.operation.name" = "execute_tool",
///         "gen_ai.tool.name" = "lookup_order",
///         "gen_ai.tool.call.arguments" = r#"{"order_id": "ORD-9921"}"#,
///     );
///     span.in_scope(|| ());
///     Reply::text("Order ORD-9921 was delivered.")
/// }));
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let reply = agent
///     .respond(AgentRequest::new("t", 0, vec![agent_test::model::Message::user("Where is it?")]))
///     .await
///     .unwrap();
/// assert_eq!(reply.calls[0].name, "lookup_order");
/// assert_eq!(reply.calls[0].arguments["order_id"], "ORD-9921");
/// # });
/// ```
pub fn traced<A: Agent>(agent: A) -> Traced<A> {
    keep_callsites_open();
    Traced { inner: agent }
}

/// Makes sure no `tracing` callsite is ever switched off for good, so that a turn's
/// subscriber sees every span its agent starts, whatever other threads did first.
///
/// `tracing` caches, per callsite, whether any subscriber is interested in it. While at most one
/// subscriber is registered in the process (a single turn's, say), `tracing-core` computes a
/// new callsite's interest from the *registering thread's* default subscriber alone
/// (`Rebuilder::JustOne`): a test on another thread with no subscriber that reaches the callsite
/// first caches "never", and the turn's span from it is never created — the spans lost under
/// `cargo test`'s threads (`runtime/tests/reading/capture.rs` reproduces it step by step). Two
/// subscribers registered for the life of the process, each answering "sometimes" (and never
/// enabled), keep the registry out of that path and every callsite's interest at "sometimes"
/// or better: each span then asks the subscriber current on its thread, the turn's own inside
/// a turn.
fn keep_callsites_open() {
    static KEEPERS: OnceLock<[Dispatch; 2]> = OnceLock::new();
    KEEPERS.get_or_init(|| [Dispatch::new(Keeper), Dispatch::new(Keeper)]);
}

/// A subscriber interested in every callsite "sometimes" and enabled for none (see
/// [`keep_callsites_open`]); it is never any thread's default, so it records nothing.
struct Keeper;

impl Subscriber for Keeper {
    fn register_callsite(&self, _: &'static Metadata<'static>) -> Interest {
        Interest::sometimes()
    }
    fn max_level_hint(&self) -> Option<tracing::level_filters::LevelFilter> {
        Some(tracing::level_filters::LevelFilter::TRACE)
    }
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        false
    }
    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, _: &Event<'_>) {}
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

impl<A: Agent> Agent for Traced<A> {
    fn respond(&self, request: AgentRequest) -> BoxFuture<'_, Result<Reply, AgentError>> {
        use tracing::instrument::WithSubscriber;
        // `Traced` values are only made by `traced`, which already did; cheap when done.
        keep_callsites_open();
        let captured = Captured::default();
        let subscriber = tracing_subscriber::registry().with(Capture {
            captured: captured.clone(),
        });
        let turn = self.inner.respond(request).with_subscriber(subscriber);
        Box::pin(async move {
            let result = turn.await;
            let spans = captured.finish();
            match result {
                Ok(mut reply) => {
                    if !spans.is_empty() {
                        let traced = crate::trace::otel::turn(0, spans);
                        crate::trace::otel::merge(&mut reply, traced);
                    }
                    Ok(reply)
                }
                Err(e) => Err(e),
            }
        })
    }

    fn runner_measures_latency(&self) -> bool {
        self.inner.runner_measures_latency()
    }
}

/// The spans of one turn.
#[derive(Clone, Default)]
struct Captured {
    inner: Arc<Mutex<CapturedSpans>>,
}

#[derive(Default)]
struct CapturedSpans {
    open: HashMap<u64, Span>,
    closed: Vec<Span>,
}

impl Captured {
    fn lock(&self) -> std::sync::MutexGuard<'_, CapturedSpans> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The spans, those still open ending now.
    fn finish(&self) -> Vec<Span> {
        let mut c = self.lock();
        let now = nanos(SystemTime::now());
        let open: Vec<Span> = c
            .open
            .drain()
            .map(|(_, mut s)| {
                s.end_ns = now.max(s.start_ns);
                s
            })
            .collect();
        let mut all = std::mem::take(&mut c.closed);
        all.extend(open);
        all
    }
}

/// The layer that records spans into [`Captured`].
struct Capture {
    captured: Captured,
}

fn nanos(t: SystemTime) -> u64 {
    t.duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
}

fn hex(id: &Id) -> String {
    format!("{:016x}", id.into_u64())
}

/// The fields of a span or event, as JSON values by name.
struct Fields<'a>(&'a mut Map<String, Value>);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0
            .insert(field.name().to_owned(), Value::String(format!("{value:?}")));
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0
            .insert(field.name().to_owned(), Value::String(value.to_owned()));
    }
    fn record_i64(&mut self, field: &Field, value: i64) {
        self.0.insert(field.name().to_owned(), Value::from(value));
    }
    fn record_u64(&mut self, field: &Field, value: u64) {
        self.0.insert(field.name().to_owned(), Value::from(value));
    }
    fn record_f64(&mut self, field: &Field, value: f64) {
        self.0.insert(
            field.name().to_owned(),
            serde_json::Number::from_f64(value).map_or(Value::Null, Value::Number),
        );
    }
    fn record_bool(&mut self, field: &Field, value: bool) {
        self.0.insert(field.name().to_owned(), Value::Bool(value));
    }
}

impl<S> tracing_subscriber::Layer<S> for Capture
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        let mut attributes = Map::new();
        attrs.record(&mut Fields(&mut attributes));
        let parent = ctx.span(id).and_then(|s| s.parent()).map(|p| hex(&p.id()));
        let span = Span {
            trace_id: "tracing".into(),
            span_id: hex(id),
            parent,
            name: attrs.metadata().name().to_owned(),
            start_ns: nanos(SystemTime::now()),
            end_ns: 0,
            attributes,
            events: Vec::new(),
            error: None,
            unknown_status: None,
        };
        self.captured.lock().open.insert(id.into_u64(), span);
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, _: Context<'_, S>) {
        if let Some(span) = self.captured.lock().open.get_mut(&id.into_u64()) {
            values.record(&mut Fields(&mut span.attributes));
        }
    }

    fn on_event(&self, event: &Event<'_>, ctx: Context<'_, S>) {
        let Some(span) = ctx.event_span(event) else {
            return;
        };
        let mut attributes = Map::new();
        event.record(&mut Fields(&mut attributes));
        let name = attributes
            .get("message")
            .and_then(Value::as_str)
            .map_or_else(|| event.metadata().name().to_owned(), str::to_owned);
        if let Some(s) = self.captured.lock().open.get_mut(&span.id().into_u64()) {
            s.events.push(SpanEvent {
                name,
                time_ns: nanos(SystemTime::now()),
                attributes,
            });
        }
    }

    fn on_close(&self, id: Id, _: Context<'_, S>) {
        let mut c = self.captured.lock();
        if let Some(mut span) = c.open.remove(&id.into_u64()) {
            span.end_ns = nanos(SystemTime::now()).max(span.start_ns);
            if let Some(name) = span.attributes.get("otel.name").and_then(Value::as_str) {
                span.name = name.to_owned();
            }
            let status = span
                .attributes
                .get("otel.status_code")
                .and_then(Value::as_str)
                .map(str::to_ascii_uppercase);
            if status.as_deref() == Some("ERROR") || span.attributes.contains_key("error.type") {
                span.error = Some(
                    ["otel.status_message", "error.message", "error.type"]
                        .iter()
                        .find_map(|k| span.attributes.get(*k).and_then(Value::as_str))
                        .unwrap_or_default()
                        .to_owned(),
                );
            }
            c.closed.push(span);
        }
    }
}

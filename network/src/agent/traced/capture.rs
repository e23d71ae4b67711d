//! Capturing a turn's `tracing` spans.
//!
//! Every traced turn's spans live in **one** registry for the process: one space of span ids,
//! one stack of entered spans per thread. Each turn gets a thin subscriber of its own
//! ([`TurnSubscriber`]) that hands everything to that registry and only says, when a span
//! starts, which turn started it; the [`Route`] layer then gives each span to a turn — its
//! parent span's turn when it has one, else the turn whose subscriber started it — and records
//! its fields, events and end there.
//!
//! Why one registry and not one per turn: an agent shared by concurrent turns (a rig agent in
//! a `LazyLock`: every run polls the agent's one driver) carries spans of one turn into
//! another turn's polls — a handler future instrumented with turn A's span dropped while turn
//! B polls, a span started with a parent or a `follows_from` that another turn created. A
//! registry of its own per turn does not know the other turns' span ids: `tracing-subscriber`
//! panics ("tried to drop a ref to Id(..), but no such span exists!") or the spans are lost.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::SystemTime;

use serde_json::{Map, Value};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::subscriber::Interest;
use tracing::{Event, Metadata, Subscriber};
use tracing_core::span::Current;
use tracing_subscriber::layer::{Context, Layered};
use tracing_subscriber::prelude::*;
use tracing_subscriber::registry::{LookupSpan, Registry};

use agent_test_readers::trace::otel::spans::{Span, SpanEvent};

/// The registry every traced turn's spans live in, with the layer that hands them to turns.
type Shared = Layered<Route, Registry>;

fn shared() -> &'static Shared {
    static SHARED: OnceLock<Shared> = OnceLock::new();
    SHARED.get_or_init(|| tracing_subscriber::registry().with(Route))
}

thread_local! {
    /// The turn whose subscriber is starting a span on this thread, while it does.
    static STARTING: RefCell<Option<Captured>> = const { RefCell::new(None) };
}

/// A new turn's subscriber, and where its spans end up.
pub(super) fn turn_subscriber() -> (TurnSubscriber, Captured) {
    let captured = Captured::default();
    (
        TurnSubscriber {
            turn: captured.clone(),
            shared: shared(),
        },
        captured,
    )
}

/// A turn's subscriber: the shared registry, saying which turn starts each span.
pub(super) struct TurnSubscriber {
    turn: Captured,
    shared: &'static Shared,
}

impl Subscriber for TurnSubscriber {
    fn register_callsite(&self, metadata: &'static Metadata<'static>) -> Interest {
        self.shared.register_callsite(metadata)
    }
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        self.shared.enabled(metadata)
    }
    fn max_level_hint(&self) -> Option<tracing::level_filters::LevelFilter> {
        self.shared.max_level_hint()
    }
    fn new_span(&self, attributes: &Attributes<'_>) -> Id {
        let before = STARTING.with(|s| s.replace(Some(self.turn.clone())));
        let id = self.shared.new_span(attributes);
        STARTING.with(|s| *s.borrow_mut() = before);
        id
    }
    fn record(&self, span: &Id, values: &Record<'_>) {
        self.shared.record(span, values);
    }
    fn record_follows_from(&self, span: &Id, follows: &Id) {
        self.shared.record_follows_from(span, follows);
    }
    fn event_enabled(&self, event: &Event<'_>) -> bool {
        self.shared.event_enabled(event)
    }
    fn event(&self, event: &Event<'_>) {
        self.shared.event(event);
    }
    fn enter(&self, span: &Id) {
        self.shared.enter(span);
    }
    fn exit(&self, span: &Id) {
        self.shared.exit(span);
    }
    fn clone_span(&self, id: &Id) -> Id {
        self.shared.clone_span(id)
    }
    fn try_close(&self, id: Id) -> bool {
        self.shared.try_close(id)
    }
    fn current_span(&self) -> Current {
        self.shared.current_span()
    }
}

/// The spans of one turn.
#[derive(Clone, Default)]
pub(super) struct Captured {
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
    pub(super) fn finish(&self) -> Vec<Span> {
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

/// A span's turn and its id there (the registry reuses ids of closed spans; a turn's ids are
/// never reused).
struct InTurn {
    turn: Captured,
    uid: u64,
}

/// The layer that gives each span to its turn and records it there.
pub(super) struct Route;

fn nanos(t: SystemTime) -> u64 {
    t.duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
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

/// A span's turn and its id there, when it has one.
fn in_turn<S>(id: &Id, ctx: &Context<'_, S>) -> Option<(Captured, u64)>
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    let span = ctx.span(id)?;
    let ext = span.extensions();
    ext.get::<InTurn>().map(|t| (t.turn.clone(), t.uid))
}

impl<S> tracing_subscriber::Layer<S> for Route
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        static UIDS: AtomicU64 = AtomicU64::new(1);
        let Some(span) = ctx.span(id) else {
            return;
        };
        let parent = span.parent().and_then(|p| in_turn(&p.id(), &ctx));
        let turn = parent
            .as_ref()
            .map(|(t, _)| t.clone())
            .or_else(|| STARTING.with(|s| s.borrow().clone()));
        // A span no traced turn started (another subscriber's, this registry's by accident).
        let Some(turn) = turn else {
            return;
        };
        let uid = UIDS.fetch_add(1, Ordering::Relaxed);
        let mut attributes = Map::new();
        attrs.record(&mut Fields(&mut attributes));
        let recorded = Span {
            trace_id: "tracing".into(),
            span_id: format!("{uid:016x}"),
            parent: parent.map(|(_, p)| format!("{p:016x}")),
            name: attrs.metadata().name().to_owned(),
            start_ns: nanos(SystemTime::now()),
            end_ns: 0,
            attributes,
            events: Vec::new(),
            error: None,
            unknown_status: None,
        };
        turn.lock().open.insert(uid, recorded);
        span.extensions_mut().insert(InTurn { turn, uid });
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, ctx: Context<'_, S>) {
        if let Some((turn, uid)) = in_turn(id, &ctx)
            && let Some(span) = turn.lock().open.get_mut(&uid)
        {
            values.record(&mut Fields(&mut span.attributes));
        }
    }

    fn on_event(&self, event: &Event<'_>, ctx: Context<'_, S>) {
        let Some((turn, uid)) = ctx.event_span(event).and_then(|s| in_turn(&s.id(), &ctx)) else {
            return;
        };
        let mut attributes = Map::new();
        event.record(&mut Fields(&mut attributes));
        let name = attributes
            .get("message")
            .and_then(Value::as_str)
            .map_or_else(|| event.metadata().name().to_owned(), str::to_owned);
        if let Some(s) = turn.lock().open.get_mut(&uid) {
            s.events.push(SpanEvent {
                name,
                time_ns: nanos(SystemTime::now()),
                attributes,
            });
        }
    }

    fn on_close(&self, id: Id, ctx: Context<'_, S>) {
        let Some((turn, uid)) = in_turn(&id, &ctx) else {
            return;
        };
        let mut c = turn.lock();
        if let Some(mut span) = c.open.remove(&uid) {
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

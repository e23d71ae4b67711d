//! The rig entry of agent-test's OpenTelemetry framework corpus
//! (`runtime/tests/fixtures/frameworks/rig/`): the corpus's travel agent built with rig 0.44,
//! its spans exported by the real OpenTelemetry Rust SDK.
//!
//! `rig/make.py` runs it against the corpus harness's scripted model and OTLP capture:
//!
//! ```text
//! OPENAI_BASE_URL=http://127.0.0.1:PORT/v1 \
//! OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=http://127.0.0.1:PORT/v1/traces \
//!   cargo run --release --features travel --bin travel -- out.json
//! ```
//!
//! Two rig agents on rig's OpenAI chat-completions client: `travel_agent` (tools
//! `search_hotels`, `get_weather`, `book_hotel` — which fails for `HTL-205` — `list_bookings`,
//! and `ask_concierge`) and `concierge` (tool `find_restaurants`), reached through the tool
//! `ask_concierge(question)`, which runs it. Turn 1 is the harness's `USER_MESSAGE`, turn 2 its
//! `SECOND_USER_MESSAGE` on turn 1's messages. rig writes its `tracing` spans (content
//! recorded: `.record_content_telemetry(true)`); `tracing-opentelemetry` turns them into
//! OpenTelemetry spans, which `opentelemetry-otlp` exports over HTTP (protobuf) with the batch
//! processor, flushed before exit. Each turn's `prompt(..)` opens a root `invoke_agent` span:
//! one trace per user turn.
//!
//! rig adopts an enabled current span as an agent's own instead of opening `invoke_agent`:
//! the concierge, run inside the `execute_tool ask_concierge` span, would have no agent span
//! of its own and no name. So `ask_concierge` opens the concierge's `invoke_agent` span (the
//! fields rig's own has) and runs the concierge in it; rig adopts it.
//!
//! Every tool execution is written down as it runs (agent, tool, arguments, result or error,
//! turn) — the corpus's truth, never read from the spans — and written with both turns'
//! replies to the JSON file named by the first argument.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::WithExportConfig;
use opentelemetry_sdk::trace::{BatchConfigBuilder, BatchSpanProcessor, SdkTracerProvider};
use rig::providers::openai::OpenAIConfig;
use rig::tool::{PortableTool, ToolExecutionError};
use serde::Deserialize;
use serde_json::{Value, json};
use tracing::Instrument;
use tracing_subscriber::prelude::*;

/// The harness's story (`harness.py`).
const USER_MESSAGE: &str = "Find me a hotel in Lisbon for 2 nights and book the cheapest one; \
                            also check the weather, and ask the concierge where to have dinner.";
const SECOND_USER_MESSAGE: &str = "Which bookings do I have now?";
const MAIN_AGENT: &str = "travel_agent";
const SUB_AGENT: &str = "concierge";
const MAIN_INSTRUCTIONS: &str = "You are a travel agent. Use the tools to search, book and plan.";
const SUB_INSTRUCTIONS: &str = "You are a concierge. Recommend restaurants with find_restaurants.";
const MODEL: &str = "demo-model-1";

/// What really ran, and the turn running now (1-based).
static EXECUTIONS: Mutex<Vec<Value>> = Mutex::new(Vec::new());
static TURN: AtomicUsize = AtomicUsize::new(1);

/// Writes one execution down: `outcome` is the result, or the error's message.
fn note(agent: &str, tool: &str, arguments: Value, outcome: &Result<Value, ToolExecutionError>) {
    let mut entry = json!({"agent": agent, "tool": tool, "arguments": arguments});
    match outcome {
        Ok(result) => entry["result"] = result.clone(),
        Err(error) => entry["error"] = json!(error.message()),
    }
    entry["turn"] = json!(TURN.load(Ordering::SeqCst));
    EXECUTIONS
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .push(entry);
}

#[derive(Deserialize)]
struct SearchArgs {
    city: String,
    nights: u64,
}

struct SearchHotels;

impl PortableTool for SearchHotels {
    const NAME: &'static str = "search_hotels";
    type Args = SearchArgs;
    type Output = Value;
    type Error = ToolExecutionError;

    fn description(&self) -> String {
        "Search hotels in a city for a number of nights.".into()
    }

    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {"city": {"type": "string"}, "nights": {"type": "integer"}},
               "required": ["city", "nights"]})
    }

    async fn call(&self, args: SearchArgs) -> Result<Value, ToolExecutionError> {
        let out = Ok(json!({"city": args.city, "nights": args.nights,
            "hotels": [{"id": "HTL-205", "price": 120}, {"id": "HTL-311", "price": 140}]}));
        note(
            MAIN_AGENT,
            Self::NAME,
            json!({"city": args.city, "nights": args.nights}),
            &out,
        );
        out
    }
}

#[derive(Deserialize)]
struct CityArgs {
    city: String,
}

fn city_schema() -> Value {
    json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]})
}

struct GetWeather;

impl PortableTool for GetWeather {
    const NAME: &'static str = "get_weather";
    type Args = CityArgs;
    type Output = Value;
    type Error = ToolExecutionError;

    fn description(&self) -> String {
        "The weather forecast for a city.".into()
    }

    fn parameters(&self) -> Value {
        city_schema()
    }

    async fn call(&self, args: CityArgs) -> Result<Value, ToolExecutionError> {
        let out = Ok(json!({"city": args.city, "forecast": "sunny", "high_c": 21}));
        note(MAIN_AGENT, Self::NAME, json!({"city": args.city}), &out);
        out
    }
}

#[derive(Deserialize)]
struct BookArgs {
    hotel_id: String,
}

struct BookHotel;

impl PortableTool for BookHotel {
    const NAME: &'static str = "book_hotel";
    type Args = BookArgs;
    type Output = Value;
    type Error = ToolExecutionError;

    fn description(&self) -> String {
        "Book a hotel by its id.".into()
    }

    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {"hotel_id": {"type": "string"}}, "required": ["hotel_id"]})
    }

    async fn call(&self, args: BookArgs) -> Result<Value, ToolExecutionError> {
        let out = if args.hotel_id == "HTL-205" {
            // A kind constructor: the model sees the message (rig redacts a plain error's).
            Err(ToolExecutionError::other("HTL-205 is sold out"))
        } else {
            let number = args.hotel_id.rsplit('-').next().unwrap_or_default();
            Ok(
                json!({"booking_id": format!("BK-{number}"), "hotel_id": args.hotel_id,
                      "status": "confirmed"}),
            )
        };
        note(
            MAIN_AGENT,
            Self::NAME,
            json!({"hotel_id": args.hotel_id}),
            &out,
        );
        out
    }
}

/// A tool without arguments.
#[derive(Deserialize)]
struct NoArgs {}

struct ListBookings;

impl PortableTool for ListBookings {
    const NAME: &'static str = "list_bookings";
    type Args = NoArgs;
    type Output = Value;
    type Error = ToolExecutionError;

    fn description(&self) -> String {
        "The customer's bookings.".into()
    }

    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {}})
    }

    async fn call(&self, _: NoArgs) -> Result<Value, ToolExecutionError> {
        let out = Ok(json!({"bookings": [{"booking_id": "BK-311", "hotel_id": "HTL-311"}]}));
        note(MAIN_AGENT, Self::NAME, json!({}), &out);
        out
    }
}

struct FindRestaurants;

impl PortableTool for FindRestaurants {
    const NAME: &'static str = "find_restaurants";
    type Args = CityArgs;
    type Output = Value;
    type Error = ToolExecutionError;

    fn description(&self) -> String {
        "Restaurants to recommend in a city.".into()
    }

    fn parameters(&self) -> Value {
        city_schema()
    }

    async fn call(&self, args: CityArgs) -> Result<Value, ToolExecutionError> {
        let out = Ok(json!({"city": args.city,
                            "restaurants": ["Taberna Lisboa", "Cervejaria Ramiro"]}));
        note(SUB_AGENT, Self::NAME, json!({"city": args.city}), &out);
        out
    }
}

#[derive(Deserialize)]
struct QuestionArgs {
    question: String,
}

/// The hand-off: runs the concierge agent on the question, returns its answer.
struct AskConcierge {
    concierge: Arc<rig::Agent>,
}

impl PortableTool for AskConcierge {
    const NAME: &'static str = "ask_concierge";
    type Args = QuestionArgs;
    type Output = String;
    type Error = ToolExecutionError;

    fn description(&self) -> String {
        "Ask the concierge for restaurant recommendations.".into()
    }

    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {"question": {"type": "string"}}, "required": ["question"]})
    }

    async fn call(&self, args: QuestionArgs) -> Result<String, ToolExecutionError> {
        // The concierge's agent span, as rig's own `invoke_agent` is declared: rig adopts the
        // current span as the agent's, so without it the concierge would run in (and be
        // named by) the `execute_tool` span of this tool.
        let span = tracing::info_span!(
            "invoke_agent",
            gen_ai.operation.name = "invoke_agent",
            gen_ai.agent.name = SUB_AGENT,
            gen_ai.system_instructions = tracing::field::Empty,
            gen_ai.prompt = tracing::field::Empty,
            gen_ai.completion = tracing::field::Empty,
        );
        let concierge = self.concierge.clone();
        async move { concierge.prompt(args.question.as_str()).await }
            .instrument(span)
            .await
            .map(|response| response.output())
            .map_err(ToolExecutionError::from_error)
    }
}

/// The scripted model's OpenAI client, on a reqwest client of its own.
fn model(base_url: &str) -> rig::providers::openai::OpenAI {
    let _ = rustls::crypto::ring::default_provider().install_default();
    OpenAIConfig::new("sk-corpus-offline")
        .with_base_url(base_url)
        .connect(rig::http_client::ReqwestClient::from(
            rig::rig_reqwest::reqwest::Client::new(),
        ))
}

fn agents(base_url: &str) -> rig::Agent {
    let client = model(base_url);
    let concierge = rig::AgentBuilder::new(client.chat(MODEL))
        .name(SUB_AGENT)
        .preamble(SUB_INSTRUCTIONS)
        .default_max_turns(4)
        .record_content_telemetry(true)
        .tool(FindRestaurants)
        .build();
    rig::AgentBuilder::new(client.chat(MODEL))
        .name(MAIN_AGENT)
        .preamble(MAIN_INSTRUCTIONS)
        .default_max_turns(8)
        .record_content_telemetry(true)
        .tool(SearchHotels)
        .tool(GetWeather)
        .tool(BookHotel)
        .tool(ListBookings)
        .tool(AskConcierge {
            concierge: Arc::new(concierge),
        })
        .build()
}

/// The OpenTelemetry pipeline: `tracing` spans → `tracing-opentelemetry` → the SDK's batch
/// processor → OTLP/HTTP protobuf to `endpoint` (a `.../v1/traces` URL).
fn telemetry(endpoint: &str) -> SdkTracerProvider {
    let exporter = opentelemetry_otlp::SpanExporter::builder()
        .with_http()
        .with_endpoint(endpoint)
        .with_timeout(Duration::from_secs(5))
        .build()
        .expect("an OTLP/HTTP span exporter");
    let batch = BatchSpanProcessor::builder(exporter)
        .with_batch_config(
            BatchConfigBuilder::default()
                .with_scheduled_delay(Duration::from_millis(100))
                .build(),
        )
        .build();
    let provider = SdkTracerProvider::builder()
        .with_span_processor(batch)
        .with_resource(
            opentelemetry_sdk::Resource::builder()
                .with_service_name("rig-travel")
                .build(),
        )
        .build();
    let layer = tracing_opentelemetry::layer()
        .with_tracer(provider.tracer("rig-travel"))
        .with_filter(tracing_subscriber::filter::LevelFilter::INFO);
    tracing_subscriber::registry().with(layer).init();
    provider
}

fn main() {
    let out = std::env::args()
        .nth(1)
        .expect("usage: travel OUT.json (OPENAI_BASE_URL, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)");
    let base_url = std::env::var("OPENAI_BASE_URL").expect("OPENAI_BASE_URL");
    let endpoint = std::env::var("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
        .expect("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
    let provider = telemetry(&endpoint);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let travel = agents(&base_url);
    let (reply, second_reply) = runtime.block_on(async {
        let first = travel.prompt(USER_MESSAGE).await.expect("turn 1 runs");
        TURN.store(2, Ordering::SeqCst);
        let second = travel
            .prompt(SECOND_USER_MESSAGE)
            .history(first.messages.clone())
            .await
            .expect("turn 2 runs");
        (first.output(), second.output())
    });
    provider.force_flush().expect("the spans are exported");
    provider.shutdown().expect("the exporter shuts down");
    let executions = std::mem::take(&mut *EXECUTIONS.lock().unwrap_or_else(|p| p.into_inner()));
    let doc = json!({"reply": reply, "second_reply": second_reply, "executions": executions});
    std::fs::write(
        &out,
        serde_json::to_string_pretty(&doc).expect("JSON") + "\n",
    )
    .expect("the executions are written");
}

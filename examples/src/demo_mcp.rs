//! The demo store as an MCP server (the official Rust SDK, `rmcp`): its tools — hotel search,
//! booking, order lookup, refund — with typed, documented parameters, a resource (the hotel
//! list) and a prompt. Served over stdio by the `demo-mcp` binary
//! (`cargo run -p agent-test-examples --bin demo-mcp`) and over streamable HTTP by
//! [`DemoMcp::serve_http`] (or `demo-mcp --http 127.0.0.1:8000`).
//!
//! Each session has its own store, so tests never see each other's bookings and refunds. A
//! tool whose backend refuses (an unknown order, a refund already made) answers with a tool
//! error (`isError`), as MCP tools should; arguments of the wrong shape are a protocol error.

use std::sync::{Arc, Mutex};

use agent_test::serde_json::{Value, json};
use rmcp::handler::server::router::prompt::PromptRouter;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResult, ContentBlock, GetPromptResult, Implementation, ListResourcesResult,
    PaginatedRequestParams, PromptMessage, ReadResourceRequestParams, ReadResourceResponse,
    ReadResourceResult, Resource, ResourceContents, Role, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{
    ErrorData as McpError, RoleServer, ServerHandler, prompt, prompt_handler, prompt_router, tool,
    tool_handler, tool_router,
};
use schemars::JsonSchema;
use serde::Deserialize;

use crate::demo::store::Store;
use crate::demo::tools;

/// `search_hotels`' parameters.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct SearchHotels {
    /// The city to search.
    pub city: String,
    /// The highest price per night, in euros.
    pub max_price: Option<u64>,
}

/// `create_booking`'s parameters.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct CreateBooking {
    /// The hotel's id (`H-101`).
    pub hotel_id: String,
    /// The first night, `YYYY-MM-DD`.
    pub check_in: String,
    /// How many nights (default 1).
    pub nights: Option<u64>,
    /// How many guests (default 1).
    pub guests: Option<u64>,
}

/// An order, by id.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct OrderId {
    /// The order's id (`ORD-9921`).
    pub order_id: String,
}

/// `process_refund`'s parameters.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Refund {
    /// The order's id.
    pub order_id: String,
    /// The amount to refund, in euros.
    pub amount: f64,
    /// Why (`duplicate_charge`, `damaged`, ...).
    pub reason: Option<String>,
}

/// The `support_reply` prompt's arguments.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct SupportReply {
    /// The customer's name.
    pub customer: String,
}

/// The demo's MCP server: one session's store and the routers of its tools and prompts.
#[derive(Clone)]
pub struct DemoMcp {
    store: Arc<Mutex<Store>>,
    tool_router: ToolRouter<Self>,
    prompt_router: PromptRouter<Self>,
}

impl Default for DemoMcp {
    fn default() -> Self {
        Self::new()
    }
}

#[tool_router]
impl DemoMcp {
    /// A server with the sample catalogue and orders.
    pub fn new() -> Self {
        DemoMcp {
            store: Arc::new(Mutex::new(Store::sample())),
            tool_router: Self::tool_router(),
            prompt_router: Self::prompt_router(),
        }
    }

    /// Runs a demo tool: its result as JSON text, or a tool error. `DEMO_MCP_FAULT=crash`
    /// or `=hang` makes every call crash the server or never answer (for fault tests);
    /// `=huge:BYTES` answers with a text of that many bytes.
    fn run(&self, name: &str, args: Value) -> CallToolResult {
        if let Some(n) = std::env::var("DEMO_MCP_FAULT").ok().and_then(|f| {
            f.strip_prefix("huge:")
                .and_then(|n| n.parse::<usize>().ok())
        }) {
            return CallToolResult::success(vec![ContentBlock::text("x".repeat(n))]);
        }
        match std::env::var("DEMO_MCP_FAULT").as_deref() {
            Ok("crash") => {
                eprintln!("demo-mcp: crashing on purpose (DEMO_MCP_FAULT=crash)");
                std::process::exit(3);
            }
            Ok("hang") => loop {
                std::thread::sleep(std::time::Duration::from_secs(60));
            },
            _ => {}
        }
        let mut store = self.store.lock().unwrap_or_else(|p| p.into_inner());
        match tools::run(&mut store, name, &args) {
            Ok(v) => CallToolResult::success(vec![ContentBlock::text(v.to_string())]),
            Err(e) => CallToolResult::error(vec![ContentBlock::text(e)]),
        }
    }

    #[tool(description = "Search hotels in a city, optionally under a price per night")]
    async fn search_hotels(&self, Parameters(p): Parameters<SearchHotels>) -> CallToolResult {
        let mut args = json!({"city": p.city});
        if let Some(m) = p.max_price {
            args["max_price"] = json!(m);
        }
        self.run("search_hotels", args)
    }

    #[tool(description = "Book a hotel from a date for a number of nights")]
    async fn create_booking(&self, Parameters(p): Parameters<CreateBooking>) -> CallToolResult {
        self.run(
            "create_booking",
            json!({"hotel_id": p.hotel_id, "check_in": p.check_in,
                   "nights": p.nights.unwrap_or(1), "guests": p.guests.unwrap_or(1)}),
        )
    }

    #[tool(description = "Look an order up: its items, total, status and charges")]
    async fn lookup_order(&self, Parameters(p): Parameters<OrderId>) -> CallToolResult {
        self.run("lookup_order", json!({"order_id": p.order_id}))
    }

    #[tool(description = "Refund an amount of an order")]
    async fn process_refund(&self, Parameters(p): Parameters<Refund>) -> CallToolResult {
        let mut args = json!({"order_id": p.order_id, "amount": p.amount});
        if let Some(r) = p.reason {
            args["reason"] = json!(r);
        }
        self.run("process_refund", args)
    }
}

// The macro's generated functions carry no docs of their own.
#[allow(missing_docs)]
#[prompt_router]
impl DemoMcp {
    #[prompt(name = "support_reply", description = "How to answer a customer")]
    async fn support_reply(&self, Parameters(p): Parameters<SupportReply>) -> GetPromptResult {
        GetPromptResult::new(vec![PromptMessage::new_text(
            Role::User,
            format!(
                "You are Acme's support agent. Greet {} by name and look their order up before \
                 promising anything.",
                p.customer
            ),
        )])
        .with_description("Acme's support instructions")
    }
}

#[tool_handler(router = self.tool_router)]
#[prompt_handler(router = self.prompt_router)]
impl ServerHandler for DemoMcp {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_prompts()
                .enable_resources()
                .build(),
        )
        .with_server_info(Implementation::new("demo-mcp", env!("CARGO_PKG_VERSION")))
        .with_instructions("Acme Travel & Shop: hotels, bookings, orders, refunds.")
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        Ok(ListResourcesResult::with_all_items(vec![
            Resource::new("demo://hotels", "hotels").with_mime_type("application/json"),
        ]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        match request.uri.as_str() {
            "demo://hotels" => {
                let store = self.store.lock().unwrap_or_else(|p| p.into_inner());
                let hotels: Vec<Value> = store
                    .hotels
                    .iter()
                    .map(|h| json!({"id": h.id, "name": h.name, "city": h.city, "price": h.price}))
                    .collect();
                Ok(ReadResourceResult::new(vec![ResourceContents::text(
                    Value::Array(hotels).to_string(),
                    request.uri.clone(),
                )])
                .into())
            }
            other => Err(McpError::resource_not_found(
                format!("no resource {other}"),
                None,
            )),
        }
    }
}

impl DemoMcp {
    /// Serves the demo over streamable HTTP at `/mcp` on a free port of 127.0.0.1, from a
    /// thread of its own; returns the URL (`http://127.0.0.1:PORT/mcp`).
    ///
    /// # Panics
    ///
    /// As [`crate::background::serve`].
    pub fn serve_http() -> String {
        let addr = crate::background::serve("demo-mcp", Self::router());
        format!("http://{addr}/mcp")
    }

    /// The streamable HTTP service at `/mcp`, a new store per session.
    pub fn router() -> axum::Router {
        use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
        use rmcp::transport::streamable_http_server::{
            StreamableHttpServerConfig, StreamableHttpService,
        };
        let service = StreamableHttpService::new(
            || Ok(DemoMcp::new()),
            Arc::new(LocalSessionManager::default()),
            StreamableHttpServerConfig::default(),
        );
        axum::Router::new().nest_service("/mcp", service)
    }
}

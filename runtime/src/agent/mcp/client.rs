//! agent-test as an MCP client: what it tells a server it can do, what it answers the
//! server's own requests, and what it records of everything the server sends besides its
//! answers.
//!
//! Capabilities are advertised only when a test gives their answers — roots
//! ([`McpServer::roots`](super::McpServer::roots)), sampling
//! ([`McpServer::sampling_reply`](super::McpServer::sampling_reply)) and elicitation
//! ([`McpServer::elicitation`](super::McpServer::elicitation)) — so a server never sees a
//! capability the test did not mean (a filesystem server would take an empty root list as
//! "no directory is allowed"). Every notification (progress, logging, resource and list
//! changes, cancellation) and every request the server makes is recorded, in order of
//! arrival, as `{"method", "params"}` (requests also with `"answer"`).

// Roots, sampling and logging are deprecated in the newest protocol revision (SEP-2577), and
// still what the reference servers use.
#![allow(deprecated)]

use std::sync::{Arc, Mutex, PoisonError};

use rmcp::model::{
    ClientCapabilities, ClientConfig, CreateMessageRequestParams, CreateMessageResult,
    ElicitRequestParams, ElicitResult, ElicitationAction, Implementation, ListRootsResult,
    ProtocolVersion,
};
use rmcp::service::{NotificationContext, RequestContext, RoleClient};
use rmcp::{ClientHandler, ErrorData};
use serde_json::{Value, json};

/// What the test answers a server's elicitation requests.
#[derive(Clone, Debug, PartialEq)]
pub enum Elicitation {
    /// Accept, with this content (the form's values).
    Accept(Value),
    /// Decline.
    Decline,
    /// Cancel.
    Cancel,
}

/// The answers a test gives a server's requests.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Answers {
    pub(crate) roots: Option<Vec<String>>,
    pub(crate) sampling: Option<String>,
    pub(crate) elicitation: Option<Elicitation>,
}

/// What a server sent besides its answers, in order of arrival.
#[derive(Clone, Default)]
pub(crate) struct Received(Arc<Mutex<Vec<Value>>>);

impl Received {
    fn push(&self, v: Value) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(v);
    }

    /// How many have arrived so far.
    pub(crate) fn len(&self) -> usize {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).len()
    }

    /// Those that arrived since the `from`-th.
    pub(crate) fn since(&self, from: usize) -> Vec<Value> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(from..)
            .map(<[Value]>::to_vec)
            .unwrap_or_default()
    }
}

/// The client handler of a session.
#[derive(Clone)]
pub(crate) struct Client {
    answers: Answers,
    pub(crate) received: Received,
}

impl Client {
    pub(crate) fn new(answers: Answers) -> Self {
        Client {
            answers,
            received: Received::default(),
        }
    }

    fn record(&self, method: &str, params: impl serde::Serialize) {
        self.received.push(json!({
            "method": method,
            "params": serde_json::to_value(params).unwrap_or(Value::Null),
        }));
    }

    fn record_request(&self, method: &str, params: Value, answer: &impl serde::Serialize) {
        self.received.push(json!({
            "method": method,
            "params": params,
            "answer": serde_json::to_value(answer).unwrap_or(Value::Null),
        }));
    }
}

impl ClientHandler for Client {
    fn get_info(&self) -> ClientConfig {
        let mut capabilities = serde_json::Map::new();
        if self.answers.roots.is_some() {
            capabilities.insert("roots".into(), json!({"listChanged": false}));
        }
        if self.answers.sampling.is_some() {
            capabilities.insert("sampling".into(), json!({}));
        }
        if self.answers.elicitation.is_some() {
            capabilities.insert("elicitation".into(), json!({"form": {}}));
        }
        let capabilities: ClientCapabilities =
            serde_json::from_value(Value::Object(capabilities)).unwrap_or_default();
        // The revision the reference servers speak: with the newest one, rmcp answers a
        // server's own requests outside a client request itself, before a handler sees them.
        ClientConfig::new(
            capabilities,
            Implementation::new("agent-test", env!("CARGO_PKG_VERSION")),
        )
        .with_protocol_version(ProtocolVersion::V_2025_11_25)
    }

    async fn list_roots(
        &self,
        _: RequestContext<RoleClient>,
    ) -> Result<ListRootsResult, ErrorData> {
        let roots: Vec<Value> = self
            .answers
            .roots
            .iter()
            .flatten()
            .map(|uri| json!({"uri": uri}))
            .collect();
        let result: ListRootsResult =
            serde_json::from_value(json!({"roots": roots})).unwrap_or_default();
        self.record_request("roots/list", Value::Null, &result);
        Ok(result)
    }

    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
        _: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        let params = serde_json::to_value(&params).unwrap_or(Value::Null);
        let Some(text) = &self.answers.sampling else {
            let e = ErrorData::method_not_found::<rmcp::model::CreateMessageRequestMethod>();
            self.record_request(
                "sampling/createMessage",
                params,
                &json!({"error": e.message}),
            );
            return Err(e);
        };
        let result: CreateMessageResult = serde_json::from_value(json!({
            "role": "assistant",
            "content": {"type": "text", "text": text},
            "model": "agent-test-scripted",
            "stopReason": "endTurn",
        }))
        .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        self.record_request("sampling/createMessage", params, &result);
        Ok(result)
    }

    async fn create_elicitation(
        &self,
        params: ElicitRequestParams,
        _: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let result = match &self.answers.elicitation {
            Some(Elicitation::Accept(content)) => {
                ElicitResult::new(ElicitationAction::Accept).with_content(content.clone())
            }
            Some(Elicitation::Cancel) => ElicitResult::new(ElicitationAction::Cancel),
            Some(Elicitation::Decline) | None => ElicitResult::new(ElicitationAction::Decline),
        };
        let params = serde_json::to_value(&params).unwrap_or(Value::Null);
        self.record_request("elicitation/create", params, &result);
        Ok(result)
    }

    async fn on_progress(
        &self,
        params: rmcp::model::ProgressNotificationParam,
        _: NotificationContext<RoleClient>,
    ) {
        self.record("notifications/progress", params);
    }

    async fn on_logging_message(
        &self,
        params: rmcp::model::LoggingMessageNotificationParam,
        _: NotificationContext<RoleClient>,
    ) {
        self.record("notifications/message", params);
    }

    async fn on_resource_updated(
        &self,
        params: rmcp::model::ResourceUpdatedNotificationParam,
        _: NotificationContext<RoleClient>,
    ) {
        self.record("notifications/resources/updated", params);
    }

    async fn on_resource_list_changed(&self, _: NotificationContext<RoleClient>) {
        self.record("notifications/resources/list_changed", Value::Null);
    }

    async fn on_tool_list_changed(&self, _: NotificationContext<RoleClient>) {
        self.record("notifications/tools/list_changed", Value::Null);
    }

    async fn on_prompt_list_changed(&self, _: NotificationContext<RoleClient>) {
        self.record("notifications/prompts/list_changed", Value::Null);
    }

    async fn on_cancelled(
        &self,
        params: rmcp::model::CancelledNotificationParam,
        _: NotificationContext<RoleClient>,
    ) {
        self.record("notifications/cancelled", params);
    }

    async fn on_custom_notification(
        &self,
        notification: rmcp::model::CustomNotification,
        _: NotificationContext<RoleClient>,
    ) {
        self.record(&notification.method, notification.params);
    }
}

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
//! arrival, as `{"method", "params"}` (requests also with `"answer"`) — by the transport
//! ([`Recording`]), as each message arrives: rmcp runs notification handlers on tasks of their
//! own, which may run after the answer that followed the notification has been delivered, so
//! a handler would record it with the next request.

// Roots, sampling and logging are deprecated in the newest protocol revision (SEP-2577), and
// still what the reference servers use.
#![allow(deprecated)]

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::model::{
    ClientCapabilities, ClientConfig, CreateMessageRequestParams, CreateMessageResult,
    ElicitRequestParams, ElicitResult, ElicitationAction, Implementation, JsonRpcMessage,
    ListRootsResult, ProtocolVersion, RequestId,
};
use rmcp::service::{RequestContext, RoleClient, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
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
    /// Records `v`; returns its place.
    fn push(&self, v: Value) -> usize {
        let mut all = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        all.push(v);
        all.len() - 1
    }

    /// Adds the answer the client sent to the request recorded at `at`.
    fn answered(&self, at: usize, answer: Value) {
        let mut all = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(Value::Object(request)) = all.get_mut(at) {
            request.insert("answer".into(), answer);
        }
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

/// A client transport that records the server's notifications and requests as they arrive,
/// before rmcp dispatches them (so in the order the server sent them, answers included), and
/// the client's answers to those requests as they are sent.
pub(crate) struct Recording<T> {
    inner: T,
    received: Received,
    /// The server's requests not answered yet: where each is recorded.
    pending: HashMap<RequestId, usize>,
}

impl<T> Recording<T> {
    pub(crate) fn new(inner: T, received: Received) -> Self {
        Recording {
            inner,
            received,
            pending: HashMap::new(),
        }
    }

    fn arrived(&mut self, message: &RxJsonRpcMessage<RoleClient>) {
        let id = match message {
            JsonRpcMessage::Request(r) => Some(r.id.clone()),
            JsonRpcMessage::Notification(_) => None,
            // Answers to the client's own requests are the turns' replies.
            JsonRpcMessage::Response(_) | JsonRpcMessage::Error(_) => return,
        };
        let wire = as_sent(message);
        let at = self.received.push(json!({
            "method": wire.get("method").cloned().unwrap_or(Value::Null),
            "params": wire.get("params").cloned().unwrap_or(Value::Null),
        }));
        if let Some(id) = id {
            self.pending.insert(id, at);
        }
    }

    fn sent(&mut self, message: &TxJsonRpcMessage<RoleClient>) {
        let (id, answer) = match message {
            JsonRpcMessage::Response(r) => (&r.id, as_sent(&r.result)),
            JsonRpcMessage::Error(e) => match &e.id {
                Some(id) => (
                    id,
                    json!({"error": {"code": e.error.code.0, "message": e.error.message}}),
                ),
                None => return,
            },
            JsonRpcMessage::Request(_) | JsonRpcMessage::Notification(_) => return,
        };
        if let Some(at) = self.pending.remove(id) {
            self.received.answered(at, answer);
        }
    }
}

/// A message as JSON, as the server wrote it: rmcp keeps some numbers as `f32` (a sampling
/// request's temperature and priorities), which JSON would show widened — 0.7 as
/// 0.699999988079071 —; a number that is exactly an `f32` is shown as the `f32` it is.
fn as_sent(message: &impl serde::Serialize) -> Value {
    let mut v = serde_json::to_value(message).unwrap_or(Value::Null);
    narrowed(&mut v);
    v
}

fn narrowed(v: &mut Value) {
    match v {
        Value::Number(n) if n.is_f64() => {
            let Some(wide) = n.as_f64() else { return };
            #[allow(clippy::cast_possible_truncation)]
            let narrow = wide as f32;
            if f64::from(narrow) == wide
                && let Ok(shortest) = narrow.to_string().parse::<f64>()
                && let Some(m) = serde_json::Number::from_f64(shortest)
            {
                *n = m;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(narrowed),
        Value::Object(fields) => fields.values_mut().for_each(narrowed),
        _ => {}
    }
}

impl<T: Transport<RoleClient>> Transport<RoleClient> for Recording<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.sent(&item);
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        let message = self.inner.receive().await?;
        self.arrived(&message);
        Some(message)
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}

/// The client handler of a session: its capabilities, and its answers to the server's requests
/// (which [`Recording`] records).
#[derive(Clone)]
pub(crate) struct Client {
    answers: Answers,
}

impl Client {
    pub(crate) fn new(answers: Answers) -> Self {
        Client { answers }
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
        Ok(serde_json::from_value(json!({"roots": roots})).unwrap_or_default())
    }

    async fn create_message(
        &self,
        _: CreateMessageRequestParams,
        _: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        let Some(text) = &self.answers.sampling else {
            return Err(ErrorData::method_not_found::<
                rmcp::model::CreateMessageRequestMethod,
            >());
        };
        serde_json::from_value(json!({
            "role": "assistant",
            "content": {"type": "text", "text": text},
            "model": "agent-test-scripted",
            "stopReason": "endTurn",
        }))
        .map_err(|e| ErrorData::internal_error(e.to_string(), None))
    }

    async fn create_elicitation(
        &self,
        _: ElicitRequestParams,
        _: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        Ok(match &self.answers.elicitation {
            Some(Elicitation::Accept(content)) => {
                ElicitResult::new(ElicitationAction::Accept).with_content(content.clone())
            }
            Some(Elicitation::Cancel) => ElicitResult::new(ElicitationAction::Cancel),
            Some(Elicitation::Decline) | None => ElicitResult::new(ElicitationAction::Decline),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A transport that hands out `incoming`, and forgets what is sent.
    struct Fake(std::collections::VecDeque<RxJsonRpcMessage<RoleClient>>);

    impl Transport<RoleClient> for Fake {
        type Error = std::io::Error;

        fn send(
            &mut self,
            _: TxJsonRpcMessage<RoleClient>,
        ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
            std::future::ready(Ok(()))
        }

        async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
            self.0.pop_front()
        }

        async fn close(&mut self) -> Result<(), Self::Error> {
            Ok(())
        }
    }

    #[tokio::test]
    async fn what_the_server_sends_is_recorded_as_it_arrives_with_the_answers() {
        let wire = [
            json!({"jsonrpc": "2.0", "method": "notifications/progress",
                   "params": {"progressToken": 3, "progress": 1, "total": 2}}),
            json!({"jsonrpc": "2.0", "id": 0, "method": "sampling/createMessage",
                   "params": {"messages": [], "maxTokens": 50, "temperature": 0.7}}),
            json!({"jsonrpc": "2.0", "id": 3, "result": {"content": []}}),
        ];
        let incoming = wire
            .iter()
            .map(|m| serde_json::from_value(m.clone()).unwrap())
            .collect();
        let received = Received::default();
        let mut t = Recording::new(Fake(incoming), received.clone());
        // Each is recorded when the transport hands it on: before rmcp dispatches it.
        assert!(t.receive().await.is_some());
        assert_eq!(received.len(), 1);
        assert!(t.receive().await.is_some());
        let answer: TxJsonRpcMessage<RoleClient> = serde_json::from_value(json!({
            "jsonrpc": "2.0", "id": 0,
            "result": {"role": "assistant", "content": {"type": "text", "text": "hi"}, "model": "m"}
        }))
        .unwrap();
        t.send(answer).await.unwrap();
        // The answer to the client's own request is not the server's message.
        assert!(t.receive().await.is_some());
        let all = received.since(0);
        assert_eq!(all.len(), 2, "{all:?}");
        assert_eq!(all[0]["method"], "notifications/progress");
        assert_eq!(all[0]["params"]["progress"], 1.0);
        assert_eq!(all[1]["method"], "sampling/createMessage");
        // As sent: rmcp's f32 is not widened into 0.699999988...
        assert_eq!(all[1]["params"]["temperature"], 0.7);
        assert_eq!(all[1]["answer"]["content"]["text"], "hi");
        assert_eq!(received.since(1).len(), 1);
    }
}

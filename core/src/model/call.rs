//! The tree of calls an agent made during a turn: workflow nodes with nested tool calls.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What kind of step a [`Call`] records.
///
/// ```
/// use agent_test::model::CallKind;
/// assert_eq!(CallKind::default(), CallKind::Tool);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum CallKind {
    /// A function/tool the model chose to call.
    #[default]
    Tool,
    /// A workflow step (an n8n node, a Flowise component, a step of a custom pipeline) that can
    /// contain the tool calls of the model running inside it.
    Node,
}

/// Why a call failed, when the agent or trace says: its arguments were refused before the tool
/// ran (`validation`: a schema mismatch, a missing argument — the model can fix the call), or the
/// tool ran and failed (`execution`: a timeout, a server error). PromptKit records this for every
/// tool error; a failed call whose kind nobody reported has no kind.
///
/// ```
/// use agent_test::model::{Call, ToolErrorKind};
/// use serde_json::json;
/// let c = Call::tool("book", json!({"date": "soon"})).failed_with(ToolErrorKind::Validation, json!("date: not a date"));
/// assert!(c.error);
/// assert_eq!(c.error_kind, Some(ToolErrorKind::Validation));
/// assert_eq!(serde_json::to_value(ToolErrorKind::Execution).unwrap(), "execution");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ToolErrorKind {
    /// The arguments were refused before the tool ran.
    Validation,
    /// The tool ran and failed.
    Execution,
    /// The tool ran, and its result broke the output schema it declared (an MCP tool's
    /// `outputSchema`): the client refused the result, as the official MCP SDK clients do.
    Output,
}

impl ToolErrorKind {
    /// `validation`, `execution` or `output`, for messages.
    ///
    /// See the type's example.
    pub fn name(self) -> &'static str {
        match self {
            ToolErrorKind::Validation => "validation",
            ToolErrorKind::Execution => "execution",
            ToolErrorKind::Output => "output",
        }
    }
}

/// One call: a tool call, or a workflow node with the calls made inside it.
///
/// `position` is assigned by the runtime when the turn is recorded: the 0-based order of the
/// call among the calls *of its kind* in its turn, counting the tree depth-first in the order
/// the calls were made. Tool calls are numbered 0, 1, 2… whether or not they sit inside nodes
/// (this is the position tool checks use within a turn); nodes are numbered separately.
///
/// ```
/// use agent_test::model::Call;
/// use serde_json::json;
///
/// let node = Call::node("AI Agent")
///     .child(Call::tool("search_hotels", json!({"city": "Lisbon"})).result(json!([{"id": "H1"}])))
///     .child(Call::tool("create_booking", json!({"hotel_id": "H1"})).failed(json!("sold out")));
/// assert_eq!(node.children.len(), 2);
/// assert!(node.children[1].error);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct Call {
    /// The tool or node name.
    pub name: String,
    /// Tool call or workflow node.
    #[serde(default)]
    pub kind: CallKind,
    /// The provider's call id, when it has one (used to pair calls with their results).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The arguments, as JSON (an object for well-formed tool calls).
    #[serde(default)]
    pub arguments: Value,
    /// What the tool or node returned, if known (`Some(Value::Null)` when it returned `null`).
    #[serde(
        default,
        deserialize_with = "super::present",
        skip_serializing_if = "Option::is_none"
    )]
    pub result: Option<Value>,
    /// Whether the call failed (its `result` then holds the error).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub error: bool,
    /// For a failed call, what kind of failure it was, when the agent or trace said
    /// ([`ToolErrorKind`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_kind: Option<ToolErrorKind>,
    /// The model step (0-based within its turn) whose response made this call: calls with the
    /// same step were made in one model response (parallel calls). `None` when the agent or
    /// trace does not say; such a call is a step of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<usize>,
    /// How long the call took, in milliseconds, when the agent or trace measured it (an MCP
    /// tool call, a tool span's duration).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency_ms: Option<u64>,
    /// The schema the tool declared its structured results meet (an MCP tool's
    /// `outputSchema`), when the agent knows it: such a call is one
    /// [`valid_structured_output`](crate::check::valid_structured_output) measures.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Value>,
    /// Calls made inside this one (tool calls of an agent node).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<Call>,
    /// Order among the turn's calls of the same kind, assigned when the turn is recorded (see
    /// the type's docs).
    #[serde(default)]
    pub position: usize,
}

impl Call {
    /// A tool call with its arguments.
    ///
    /// ```
    /// # use agent_test::model::{Call, CallKind};
    /// let c = Call::tool("lookup_order", serde_json::json!({"order_id": "ORD-1"}));
    /// assert_eq!(c.kind, CallKind::Tool);
    /// assert_eq!(c.arguments["order_id"], "ORD-1");
    /// ```
    pub fn tool(name: impl Into<String>, arguments: Value) -> Self {
        Call {
            name: name.into(),
            kind: CallKind::Tool,
            id: None,
            arguments,
            result: None,
            error: false,
            error_kind: None,
            step: None,
            latency_ms: None,
            output_schema: None,
            children: Vec::new(),
            position: 0,
        }
    }

    /// A workflow node (without arguments; add children with [`Call::child`]).
    ///
    /// ```
    /// # use agent_test::model::{Call, CallKind};
    /// assert_eq!(Call::node("Scrape Website").kind, CallKind::Node);
    /// ```
    pub fn node(name: impl Into<String>) -> Self {
        Call {
            kind: CallKind::Node,
            ..Call::tool(name, Value::Null)
        }
    }

    /// Sets the call id.
    ///
    /// ```
    /// # use agent_test::model::Call;
    /// assert_eq!(Call::tool("t", serde_json::json!({})).with_id("call_1").id.as_deref(), Some("call_1"));
    /// ```
    pub fn with_id(mut self, id: impl Into<String>) -> Self {
        self.id = Some(id.into());
        self
    }

    /// Sets the id when there is one.
    #[doc(hidden)]
    pub fn with_id_opt(self, id: Option<&str>) -> Self {
        match id {
            Some(id) => self.with_id(id),
            None => self,
        }
    }

    /// Sets the arguments (useful for nodes, whose parameters are their arguments).
    ///
    /// ```
    /// # use agent_test::model::Call;
    /// let n = Call::node("HTTP Request").with_arguments(serde_json::json!({"method": "GET"}));
    /// assert_eq!(n.arguments["method"], "GET");
    /// ```
    pub fn with_arguments(mut self, arguments: Value) -> Self {
        self.arguments = arguments;
        self
    }

    /// Records a successful result.
    ///
    /// ```
    /// # use agent_test::model::Call;
    /// let c = Call::tool("t", serde_json::json!({})).result(serde_json::json!({"ok": true}));
    /// assert!(!c.error);
    /// ```
    pub fn result(mut self, result: Value) -> Self {
        self.result = Some(result);
        self.error = false;
        self.error_kind = None;
        self
    }

    /// Records a failed call; `error` is what the tool returned as its error.
    ///
    /// ```
    /// # use agent_test::model::Call;
    /// let c = Call::tool("t", serde_json::json!({})).failed(serde_json::json!("timeout"));
    /// assert!(c.error);
    /// ```
    pub fn failed(mut self, error: Value) -> Self {
        self.result = Some(error);
        self.error = true;
        self
    }

    /// Records a failed call and the kind of its failure.
    ///
    /// See [`ToolErrorKind`].
    pub fn failed_with(mut self, kind: ToolErrorKind, error: Value) -> Self {
        self.result = Some(error);
        self.error = true;
        self.error_kind = Some(kind);
        self
    }

    /// Sets the output schema the tool declared (an MCP tool's `outputSchema`).
    ///
    /// ```
    /// # use agent_test::model::Call;
    /// # use serde_json::json;
    /// let c = Call::tool("weather", json!({})).with_output_schema(json!({"type": "object"}));
    /// assert_eq!(c.output_schema, Some(json!({"type": "object"})));
    /// ```
    pub fn with_output_schema(mut self, schema: Value) -> Self {
        self.output_schema = Some(schema);
        self
    }

    /// Sets the model step that made the call (calls of one model response share a step).
    ///
    /// ```
    /// # use agent_test::model::Call;
    /// assert_eq!(Call::tool("t", serde_json::json!({})).in_step(1).step, Some(1));
    /// ```
    pub fn in_step(mut self, step: usize) -> Self {
        self.step = Some(step);
        self
    }

    /// Records how long the call took.
    ///
    /// ```
    /// # use agent_test::model::Call;
    /// assert_eq!(Call::tool("t", serde_json::json!({})).took_ms(12).latency_ms, Some(12));
    /// ```
    pub fn took_ms(mut self, ms: u64) -> Self {
        self.latency_ms = Some(ms);
        self
    }

    /// Adds a nested call.
    ///
    /// ```
    /// # use agent_test::model::Call;
    /// let n = Call::node("Agent").child(Call::tool("search", serde_json::json!({})));
    /// assert_eq!(n.children[0].name, "search");
    /// ```
    pub fn child(mut self, call: Call) -> Self {
        self.children.push(call);
        self
    }

    /// Visits this call and its descendants depth-first, parents before children.
    ///
    /// ```
    /// # use agent_test::model::Call;
    /// let n = Call::node("Agent").child(Call::tool("a", serde_json::json!({})));
    /// let mut names = Vec::new();
    /// n.walk(&mut |c| names.push(c.name.clone()));
    /// assert_eq!(names, ["Agent", "a"]);
    /// ```
    pub fn walk<'a>(&'a self, visit: &mut impl FnMut(&'a Call)) {
        visit(self);
        for child in &self.children {
            child.walk(visit);
        }
    }
}

/// Assigns `position` to every call of a turn: depth-first in call order, per kind.
#[doc(hidden)]
pub fn number_positions(calls: &mut [Call]) {
    fn go(calls: &mut [Call], tools: &mut usize, nodes: &mut usize) {
        for call in calls {
            let next = if call.kind == CallKind::Node {
                &mut *nodes
            } else {
                &mut *tools
            };
            call.position = *next;
            *next += 1;
            go(&mut call.children, tools, nodes);
        }
    }
    go(calls, &mut 0, &mut 0);
}

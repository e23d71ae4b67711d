//! The agent's tools, declared for a suite (`tools = "tools.json";` in `agent_test!`,
//! [`Suite::tools`](super::Suite::tools) in the builder API): at run time every tool call the
//! agent made is checked against them — a declared name, and arguments valid against the
//! declared JSON Schema.

mod error;

use std::fmt;

use serde_json::Value;

use agent_test_core::check::{CheckExt, Expectation, check};
use agent_test_core::matcher::{Schema, SchemaError};
pub use error::{DeclaredToolsError, DeclaredToolsErrorKind};

/// Tools as agents declare them to a model: OpenAI's tools list
/// (`[{"type": "function", "function": {"name", "description", "parameters"}}]`, also inside
/// `{"tools": [...]}`), Anthropic's (`{"name", "input_schema"}`), MCP's (`{"name",
/// "inputSchema"}`) or a plain `{"name", "parameters"}`.
///
/// ```
/// use agent_test::DeclaredTools;
/// use serde_json::json;
/// let tools = DeclaredTools::from_json(&json!([{"type": "function", "function": {
///     "name": "search", "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}
/// }}])).unwrap();
/// assert_eq!(tools.names(), ["search"]);
/// assert_eq!(tools.problems("search", &json!({"q": 1})), [r#"/q: 1 is not of type "string""#]);
/// assert_eq!(tools.problems("serch", &json!({})), ["`serch` is not a declared tool (declared: `search`)"]);
/// ```
#[derive(Clone)]
pub struct DeclaredTools {
    tools: Vec<(String, Option<Schema>)>,
}

impl fmt::Debug for DeclaredTools {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.tools.iter().map(|(n, _)| n))
            .finish()
    }
}

impl DeclaredTools {
    /// Reads a tools declaration (see the type); an error says what [kind of
    /// problem](DeclaredToolsErrorKind) it is, which tool and what is wrong.
    ///
    /// ```
    /// use agent_test::{DeclaredTools, DeclaredToolsErrorKind};
    /// let err = DeclaredTools::from_json(&serde_json::json!({"nope": 1})).unwrap_err();
    /// assert_eq!(err.kind, DeclaredToolsErrorKind::NotTools);
    /// assert_eq!(err.to_string(), "expected a list of tools, or an object with `tools`");
    /// ```
    pub fn from_json(value: &Value) -> Result<Self, DeclaredToolsError> {
        let not_tools = |message: &str| DeclaredToolsError {
            kind: DeclaredToolsErrorKind::NotTools,
            tool: None,
            message: message.to_owned(),
        };
        let list = match value {
            Value::Array(items) => items,
            Value::Object(o) => match o.get("tools") {
                Some(Value::Array(items)) => items,
                _ if o.contains_key("name") => std::slice::from_ref(value),
                _ => {
                    return Err(not_tools(
                        "expected a list of tools, or an object with `tools`",
                    ));
                }
            },
            _ => return Err(not_tools("expected a list of tools")),
        };
        let mut tools = Vec::new();
        for (i, item) in list.iter().enumerate() {
            let (name, schema) = tool_parts(item)
                .map_err(|e| DeclaredToolsError::of_tool(DeclaredToolsErrorKind::Invalid, i, e))?;
            if tools.iter().any(|(n, _): &(String, _)| *n == name) {
                return Err(DeclaredToolsError::of_tool(
                    DeclaredToolsErrorKind::Duplicate,
                    i,
                    format!("`{name}` is declared twice"),
                ));
            }
            tools.push((name, schema.cloned().map(Schema::new)));
        }
        Ok(DeclaredTools { tools })
    }

    /// The declared names, in order.
    pub fn names(&self) -> Vec<&str> {
        self.tools.iter().map(|(n, _)| n.as_str()).collect()
    }

    /// What is wrong with a call of `name` with `arguments` (nothing when it is valid).
    pub fn problems(&self, name: &str, arguments: &Value) -> Vec<String> {
        let Some((_, schema)) = self.tools.iter().find(|(n, _)| n == name) else {
            let names: Vec<String> = self.tools.iter().map(|(n, _)| format!("`{n}`")).collect();
            return vec![format!(
                "`{name}` is not a declared tool (declared: {})",
                names.join(", ")
            )];
        };
        match schema.as_ref().map(|s| s.validate(arguments)) {
            None | Some(Ok(())) => Vec::new(),
            Some(Err(SchemaError::Invalid(errors))) => errors
                .into_iter()
                .map(|e| e.strip_prefix("(root): ").map(str::to_owned).unwrap_or(e))
                .collect(),
            Some(Err(e)) => vec![format!("the declared schema of `{name}`: {e}")],
        }
    }

    /// The check a run adds when the agent called tools: every call names a declared tool and
    /// passes arguments valid against its schema.
    pub(crate) fn expectation(&self) -> Expectation {
        let tools = self.clone();
        check("every tool call matches the declared tools", move |cx| {
            let mut problems = Vec::new();
            for (i, call) in cx.tool_calls().iter().enumerate() {
                for p in tools.problems(&call.name, &call.arguments) {
                    problems.push(format!("{} (`{}`): {p}", cx.position_name(i), call.name));
                }
            }
            if problems.is_empty() {
                Ok(())
            } else {
                Err(problems.join("; "))
            }
        })
        .label("every tool call matches the declared tools")
    }
}

/// A tool's name and parameter schema.
fn tool_parts(item: &Value) -> Result<(String, Option<&Value>), &'static str> {
    let Value::Object(o) = item else {
        return Err("expected an object");
    };
    let inner = match o.get("function") {
        Some(Value::Object(f)) => f,
        Some(_) => return Err("`function` is not an object"),
        None => o,
    };
    let name = match inner.get("name") {
        Some(Value::String(n)) if !n.is_empty() => n.clone(),
        _ => return Err("a tool needs a `name` (text)"),
    };
    let schema = ["parameters", "input_schema", "inputSchema"]
        .iter()
        .find_map(|k| inner.get(*k));
    Ok((name, schema))
}

/// What `tools = "tools.json";` compiles to: the file's text, read at compile time.
#[doc(hidden)]
pub fn tools_file(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or(Value::Null)
}

/// A tool declared as a Rust type: its name and the function giving its schema.
#[doc(hidden)]
pub type TypedTool<'a> = (&'a str, fn() -> Value);

/// What `tools { name: Type, .. }` compiles to: the declaration of tools whose arguments are
/// Rust types, each with the JSON Schema of its type.
#[doc(hidden)]
pub fn typed_tools(tools: &[TypedTool<'_>]) -> Value {
    Value::Array(
        tools
            .iter()
            .map(|(name, schema)| serde_json::json!({"name": name, "parameters": schema()}))
            .collect(),
    )
}

/// The arguments of a tool declared as a Rust type: a type with a JSON Schema.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no JSON Schema to declare a tool with",
    label = "the tool's arguments",
    note = "derive `schemars::JsonSchema` for it (with `schemars` 1) and enable agent-test's `schemars` feature"
)]
pub trait ToolArgs {
    /// The JSON Schema of the arguments.
    fn schema() -> Value;
}

#[cfg(feature = "schemars")]
impl<T: schemars::JsonSchema> ToolArgs for T {
    fn schema() -> Value {
        serde_json::to_value(schemars::schema_for!(T)).unwrap_or(Value::Null)
    }
}

/// The schema of `T`, as a function `typed_tools` takes.
#[doc(hidden)]
pub fn schema_of<T: ToolArgs>() -> Value {
    T::schema()
}

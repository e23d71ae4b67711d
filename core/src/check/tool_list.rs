//! The check of an MCP server's tool list (`tools/list`): what a model needs to use the tools.

use agent_test_vocabulary::Kind;
use crate::model::Part;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Outcome, Violation};
use crate::evaluate::context::EvalContext;
use crate::model::turn_number;

/// A check of the tool lists an MCP server returned (turns built with
/// `mcp::list_tools`, whose reply body is `{"tools": [...]}`):
/// the list is not empty, every tool has a name, the names are unique, every tool has a
/// description, and every input schema is an object schema (`"type": "object"`) that is valid
/// JSON Schema (which needs the `schema` feature, on by default: without it every input schema
/// is reported as one that cannot be checked, never taken as valid). Build it with
/// [`valid_tool_list`]; in data files it is `{"type": "tool_list"}`.
///
/// It checks every tool list in its scope. A scope with no tool list — a turn that called a
/// tool, a run of a chat agent — is *not measured*, an error verdict, never a pass.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::evaluate;
/// use agent_test::check::Status;
/// use agent_test::model::{Reply, Transcript, Turn};
///
/// let listed = Reply::text("").body(json!({"tools": [
///     {"name": "search", "description": "Search hotels", "inputSchema": {"type": "object"}},
///     {"name": "search", "inputSchema": {"type": "array"}}
/// ]}));
/// let t = Transcript::new(vec![Turn::new(0, "tools/list", listed, 1)]);
/// let v = evaluate(&t, &[valid_tool_list().into_expectation()]);
/// assert_eq!(v[0].status, Status::Fail);
/// assert_eq!(v[0].reason, "the tool list of turn 1 has 3 problems: tool 1 (`search`): the name is used by tool 0 too; tool 1 (`search`): no description; tool 1 (`search`): the input schema is not an object schema (`\"type\": \"object\"`)");
///
/// let called = Transcript::new(vec![Turn::new(0, "search", Reply::text("3 hotels"), 1)]);
/// let v = evaluate(&called, &[valid_tool_list().into_expectation()]);
/// assert_eq!(v[0].status, Status::Error);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolListCheck {}

/// Every tool list the MCP server returned is usable by a model.
///
/// See [`ToolListCheck`].
///
/// ```
/// use agent_test::prelude::*;
/// assert_eq!(valid_tool_list().describe(), "the tool list is valid");
/// ```
pub fn valid_tool_list() -> ToolListCheck {
    ToolListCheck {}
}

impl ToolListCheck {
    /// One line describing the check.
    ///
    /// See [`valid_tool_list`].
    pub fn describe(&self) -> String {
        "the tool list is valid".to_owned()
    }

    pub(crate) fn evaluate(&self, cx: &EvalContext<'_>) -> Outcome {
        let lists: Vec<(usize, &Vec<Value>)> = cx
            .turns()
            .iter()
            .filter_map(|t| {
                let tools = t.reply.body.as_ref()?.get("tools")?.as_array()?;
                Some((t.index, tools))
            })
            .collect();
        if lists.is_empty() {
            return Outcome::error(
                "not measured: no turn listed tools (a tool list comes from a turn \
                 `user mcp::list_tools();` of an MCP server under test)",
            );
        }
        let mut reasons = Vec::new();
        let mut violations = Vec::new();
        for (turn, tools) in lists {
            let problems = if tools.is_empty() {
                vec!["the server lists no tool".to_owned()]
            } else {
                problems(tools)
            };
            if problems.is_empty() {
                continue;
            }
            reasons.push(format!(
                "the tool list of turn {} has {} problem{}: {}",
                turn_number(turn),
                problems.len(),
                if problems.len() == 1 { "" } else { "s" },
                problems.join("; ")
            ));
            violations.extend(
                problems
                    .into_iter()
                    .map(|p| Violation::new("invalid_tool_list", p).in_turn(turn)),
            );
        }
        if reasons.is_empty() {
            Outcome::passed()
        } else {
            Outcome::fail(reasons.join("; ")).violations(violations)
        }
    }
}

/// What is wrong with a non-empty tool list, one line per problem.
fn problems(tools: &[Value]) -> Vec<String> {
    let mut problems = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for (i, t) in tools.iter().enumerate() {
        let name = t.get("name").and_then(Value::as_str).unwrap_or_default();
        let at = format!("tool {i} (`{name}`)");
        if name.is_empty() {
            problems.push(format!("tool {i}: no name"));
        } else if let Some(first) = seen.iter().position(|n| *n == name) {
            problems.push(format!("{at}: the name is used by tool {first} too"));
        }
        seen.push(name);
        if t.get("description")
            .and_then(Value::as_str)
            .is_none_or(|d| d.trim().is_empty())
        {
            problems.push(format!("{at}: no description"));
        }
        match t.get("inputSchema") {
            Some(s) if s.get("type").and_then(Value::as_str) == Some("object") => {
                // A schema the validator cannot compile is one a client cannot check
                // arguments against either. (Without the `schema` feature this cannot be
                // known, and is said: the check claims it.)
                if let Some(why) = crate::compare::schema::Schema::problem_of(s) {
                    problems.push(format!("{at}: the input schema cannot be used: {why}"));
                }
            }
            Some(_) => problems.push(format!(
                "{at}: the input schema is not an object schema (`\"type\": \"object\"`)"
            )),
            None => problems.push(format!("{at}: no input schema")),
        }
    }
    problems
}

impl super::CheckRules for ToolListCheck {
    const KIND: Kind = Kind::new(
        "tool_list",
        "an MCP server's tool lists are valid (names, schemas)",
    );

    #[cfg(any(test, feature = "samples"))]
    fn samples() -> Vec<super::Expectation> {
        use crate::check::*;
        vec![valid_tool_list().into_expectation()]
    }

    fn reads(&self) -> &'static [Part] {
        &[]
    }
}

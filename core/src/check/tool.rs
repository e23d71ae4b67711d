//! Checks on one tool, node or call: called or not, with which arguments and results, how
//! often, at which position, and (for workflow nodes) what was called inside.

use super::Semantic;
use agent_test_vocabulary::{Arg, Kind, Word};
use crate::model::Part;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::evaluate::context::Target;
use super::calls::arg_constraint::ArgConstraint;
use super::calls::call_filter::CallFilter;
use super::calls::count::Count;
use crate::matcher::{IntoMatcher, Matcher};
use crate::model::ToolErrorKind;
use crate::util::text::compact;

/// A check on calls of one tool (or workflow node). Build it with [`tool`], [`no_tool`],
/// [`node`] or [`any_call`].
///
/// A call *matches* when it has the name and satisfies every constraint: arguments (by name
/// or nested path; extra arguments allowed unless [`ToolCheck::strict`]), forbidden arguments,
/// results, and for nodes the checks on the calls made inside them. By default the check passes
/// when at least one call matches; calls that returned an error count as calls unless
/// [`ToolCheck::succeeded`] is set.
///
/// In a turn the check sees that turn's calls; after the turns it sees every call of the
/// conversation. Positions are 0-based among the calls of the same kind (tools, or nodes) in
/// scope, depth-first in call order.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::evaluate;
/// use agent_test::check::Status;
/// use agent_test::model::{Call, Reply, Transcript, Turn};
///
/// let reply = Reply::text("Refunded.")
///     .call(Call::tool("lookup_order", json!({"order_id": "ORD-1"})));
/// let t = Transcript::new(vec![Turn::new(0, "refund ORD-1", reply, 1)]);
///
/// let v = evaluate(&t, &[
///     tool("lookup_order").arg("order_id", "ORD-1").into_expectation(),
///     tool("lookup_order").arg("order_id", "ORD-2").into_expectation(),
/// ]);
/// assert_eq!(v[0].status, Status::Pass);
/// assert_eq!(v[1].status, Status::Fail);
/// assert_eq!(v[1].reason, "tool `lookup_order` was called 1 time, but no call matched");
/// assert_eq!(v[1].details.violations[0].message,
///            r#"call at conversation position 0: order_id: expected "ORD-2", got "ORD-1""#);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolCheck {
    #[serde(default, skip_serializing_if = "is_tool")]
    pub(crate) target: Target,
    pub(crate) name: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) args: Vec<ArgConstraint>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) forbidden: Vec<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) strict: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) result: Vec<ArgConstraint>,
    #[serde(default)]
    pub(crate) count: Count,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) every_call: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) position: Option<usize>,
    #[serde(default, skip_serializing_if = "is_all")]
    pub(crate) filter: CallFilter,
    /// For nodes: checks on the tool calls made inside the node.
    #[serde(default, rename = "tools", skip_serializing_if = "Vec::is_empty")]
    pub(crate) nested: Vec<ToolCheck>,
    /// Calls of any name (`name` is then ignored): [`any_tool`].
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) any_name: bool,
    /// A matching call must have returned no error ([`ToolCheck::no_error`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) no_error: bool,
}

fn is_tool(t: &Target) -> bool {
    *t == Target::Tool
}

fn is_all(f: &CallFilter) -> bool {
    *f == CallFilter::All
}

fn new_check(target: Target, name: String) -> ToolCheck {
    ToolCheck {
        target,
        name,
        args: Vec::new(),
        forbidden: Vec::new(),
        strict: false,
        result: Vec::new(),
        count: Count::default(),
        every_call: false,
        position: None,
        filter: CallFilter::All,
        nested: Vec::new(),
        any_name: false,
        no_error: false,
    }
}

/// A check that the tool `name` was called (refine it with arguments, counts, a position).
///
/// ```
/// use agent_test::prelude::*;
/// let c = tool("create_booking").arg("guests", 2).arg("address.city", "Lisbon").strict();
/// assert_eq!(c.describe(), r#"tool `create_booking` called with guests = 2, address.city = "Lisbon" (strict)"#);
/// ```
pub fn tool(name: impl Into<String>) -> ToolCheck {
    new_check(Target::Tool, name.into())
}

/// A check that the tool `name` was not called (with arguments: not called with those).
///
/// ```
/// use agent_test::prelude::*;
/// assert_eq!(no_tool("cancel_order").describe(), "tool `cancel_order` not called");
/// ```
pub fn no_tool(name: impl Into<String>) -> ToolCheck {
    tool(name).never()
}

/// A check on a workflow node (an n8n node, a pipeline step): that it ran, with which
/// parameters, and — with [`ToolCheck::tool`] — what the model inside it called. If the node did
/// not run, every check on its inner calls fails too (there is nothing to check).
///
/// ```
/// use agent_test::prelude::*;
/// let c = node("AI Agent")
///     .tool(tool("search_products").at_position(0))
///     .tool(no_tool("delete_records"));
/// assert_eq!(c.describe(),
///     "node `AI Agent` called, containing: tool `search_products` called at position 0; tool `delete_records` not called");
/// ```
pub fn node(name: impl Into<String>) -> ToolCheck {
    new_check(Target::Node, name.into())
}

/// A check on tool calls of any name: its constraints, counts and options apply to every tool
/// call in scope, whatever the tool (PromptKit's assertions without a `tool`).
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::evaluate;
/// use agent_test::check::Status;
/// use agent_test::model::{Call, Reply, Transcript, Turn};
/// let reply = Reply::text("")
///     .call(Call::tool("search", json!({"q": "x"})))
///     .call(Call::tool("book", json!({"id": 1})));
/// let t = Transcript::new(vec![Turn::new(0, "go", reply, 1)]);
/// let v = evaluate(&t, &[
///     any_tool().at_most(2).into_expectation(),
///     any_tool().at_most(1).into_expectation(),
/// ]);
/// assert_eq!(v[0].status, Status::Pass);
/// assert_eq!(v[1].reason, "tool calls were made 2 times (expected at most 1 time)");
/// assert_eq!(any_tool().no_error().every_call().describe(), "any tool called without an error (every call)");
/// ```
pub fn any_tool() -> ToolCheck {
    let mut c = new_check(Target::Tool, String::new());
    c.any_name = true;
    c
}

/// A check on a call of either kind: a workflow node in a workflow trace, or a tool call in a
/// flat one (what Mibo's `node_call` means).
///
/// ```
/// use agent_test::prelude::*;
/// assert_eq!(any_call("Send Email").times(3).describe(), "call `Send Email` called exactly 3 times");
/// ```
pub fn any_call(name: impl Into<String>) -> ToolCheck {
    new_check(Target::Any, name.into())
}

impl ToolCheck {
    /// The argument at `path` (a name, or a dot path like `address.city` or `items.0.sku`) must
    /// satisfy `expected`: a plain value means JSON equality with numbers compared by value; a
    /// matcher (`contains(..)`, `regex(..)`, `date(..)`, `any()`, `optional(..)`, ...) says more.
    ///
    /// See [`tool`].
    pub fn arg(mut self, path: impl Into<String>, expected: impl IntoMatcher) -> Self {
        self.args.push(ArgConstraint::new(path, expected));
        self
    }

    /// Several arguments judged together against one semantic matcher (MorganaBench's
    /// parameter groups): the matcher sees an object of the group's arguments.
    ///
    /// ```
    /// use agent_test::prelude::*;
    /// let c = tool("book_flight").arg_group(["depart", "return"], date_time("next weekend, Saturday to Sunday"));
    /// # let _ = c;
    /// ```
    pub fn arg_group<S: Into<String>>(
        mut self,
        arguments: impl IntoIterator<Item = S>,
        expected: impl IntoMatcher,
    ) -> Self {
        let group: Vec<String> = arguments.into_iter().map(Into::into).collect();
        let mut c = ArgConstraint::new(group.join("+"), expected);
        c.group = group;
        self.args.push(c);
        self
    }

    /// Every field of a JSON object is an exact argument constraint.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// let c = tool("search_hotels").args(json!({"city": "Lisbon", "guests": 2}));
    /// assert_eq!(c.describe(), r#"tool `search_hotels` called with city = "Lisbon", guests = 2"#);
    /// ```
    pub fn args(mut self, expected: Value) -> Self {
        match expected {
            Value::Object(map) => {
                for (k, v) in map {
                    // The key is a name, not a path: a dotted key means that key.
                    self.args.push(ArgConstraint::key(k, v));
                }
            }
            // A non-object can never equal an argument map: keep it as a constraint on the
            // whole map so the check fails with a clear message instead of passing silently.
            other => self.args.push(ArgConstraint::new("", other)),
        }
        self
    }

    /// The call's whole argument object must satisfy `expected`: a value means JSON equality of
    /// the whole object (no other argument allowed), a matcher says more — `contains(..)` on
    /// the arguments as compact JSON, `regex(..)`, `matches_schema(..)`, `not(exact(json!({})))`.
    ///
    /// ```
    /// use agent_test::prelude::*;
    /// use agent_test::evaluate;
    /// use agent_test::check::Status;
    /// use agent_test::model::{Call, Reply, Transcript, Turn};
    /// let reply = Reply::text("").call(Call::tool("search_tags", json!({"query": "TM5-BP2", "limit": 5})));
    /// let t = Transcript::new(vec![Turn::new(0, "go", reply, 1)]);
    /// let v = evaluate(&t, &[
    ///     tool("search_tags").arguments(contains("tm5-bp2").ignore_case()).into_expectation(),
    ///     tool("search_tags").arguments(json!({"query": "TM5-BP2"})).into_expectation(),
    /// ]);
    /// assert_eq!(v[0].status, Status::Pass);
    /// assert_eq!(v[1].details.violations[0].message,
    ///            r#"call at conversation position 0: arguments: expected {"query":"TM5-BP2"}, got {"limit":5,"query":"TM5-BP2"}"#);
    /// ```
    pub fn arguments(mut self, expected: impl IntoMatcher) -> Self {
        self.args.push(ArgConstraint::new("", expected));
        self
    }

    /// An argument constraint built by hand ([`ArgConstraint::json_path`], ...).
    ///
    /// See [`ArgConstraint::json_path`].
    pub fn arguments_with(mut self, constraint: ArgConstraint) -> Self {
        self.args.push(constraint);
        self
    }

    /// The values an RFC 9535 JSONPath query selects in the call's arguments: some selected
    /// value must satisfy `expected` (`any()`: the query selects something; `missing()`: it
    /// selects nothing). Needs the `jsonpath` feature (on by default).
    ///
    /// ```
    /// use agent_test::prelude::*;
    /// use agent_test::evaluate;
    /// use agent_test::check::Status;
    /// use agent_test::model::{Call, Reply, Transcript, Turn};
    /// let reply = Reply::text("").call(Call::tool("order", json!({"items": [{"sku": "A-1"}, {"sku": "B-2"}]})));
    /// let t = Transcript::new(vec![Turn::new(0, "go", reply, 1)]);
    /// let v = evaluate(&t, &[
    ///     tool("order").arg_json_path("$.items[*].sku", "B-2").into_expectation(),
    ///     tool("order").arg_json_path("$.items[*].sku", "C-3").into_expectation(),
    ///     tool("order").arg_json_path("$.coupon", missing()).into_expectation(),
    /// ]);
    /// assert_eq!(v[0].status, Status::Pass);
    /// assert_eq!(v[1].details.violations[0].message,
    ///            r#"call at conversation position 0: $.items[*].sku: selects ["A-1","B-2"], none matching (expected "C-3", got "A-1")"#);
    /// assert_eq!(v[2].status, Status::Pass);
    /// ```
    pub fn arg_json_path(mut self, query: impl Into<String>, expected: impl IntoMatcher) -> Self {
        self.args.push(ArgConstraint::json_path(query, expected));
        self
    }

    /// The values an RFC 9535 JSONPath query selects in the call's result (of a call that
    /// succeeded, or with [`ToolCheck::failed`] a failed call's error): some selected value
    /// must satisfy `expected`, as [`ToolCheck::arg_json_path`].
    ///
    /// ```
    /// use agent_test::prelude::*;
    /// let c = tool("search").result_json_path("$.hits[0].id", "H-1");
    /// assert_eq!(c.describe(), r#"tool `search` called returning $.hits[0].id = "H-1""#);
    /// ```
    pub fn result_json_path(
        mut self,
        query: impl Into<String>,
        expected: impl IntoMatcher,
    ) -> Self {
        self.result.push(ArgConstraint::json_path(query, expected));
        self
    }

    /// A matching call must have returned no error. Unlike [`ToolCheck::succeeded`], which
    /// leaves failed calls out of the count, this is a constraint like an argument's: with
    /// [`ToolCheck::every_call`], a failed call is a mismatch that fails the check.
    ///
    /// ```
    /// use agent_test::prelude::*;
    /// use agent_test::evaluate;
    /// use agent_test::check::Status;
    /// use agent_test::model::{Call, Reply, Transcript, Turn};
    /// let reply = Reply::text("")
    ///     .call(Call::tool("pay", json!({})).result(json!("ok")))
    ///     .call(Call::tool("pay", json!({})).failed(json!("card declined")));
    /// let t = Transcript::new(vec![Turn::new(0, "go", reply, 1)]);
    /// let v = evaluate(&t, &[
    ///     tool("pay").succeeded().every_call().into_expectation(),
    ///     tool("pay").no_error().every_call().into_expectation(),
    /// ]);
    /// assert_eq!(v[0].status, Status::Pass);
    /// assert_eq!(v[1].details.violations[0].message,
    ///            r#"call at conversation position 1: returned an error: "card declined""#);
    /// ```
    pub fn no_error(mut self) -> Self {
        self.no_error = true;
        self
    }

    /// The argument `name` must be absent.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// let c = tool("search").forbid_arg("api_key").forbid_arg("password");
    /// assert_eq!(c.describe(), "tool `search` called without api_key, password");
    /// ```
    pub fn forbid_arg(mut self, name: impl Into<String>) -> Self {
        self.forbidden.push(name.into());
        self
    }

    /// Only the arguments named by [`ToolCheck::arg`] may be present (at the top level).
    ///
    /// See [`tool`].
    pub fn strict(mut self) -> Self {
        self.strict = true;
        self
    }

    /// The call's result must satisfy `expected` (a value or a matcher such as
    /// `contains("delivered")`). Results are those of calls that succeeded: a failed call has
    /// none, unless the check asks for failures ([`ToolCheck::failed`]), whose error text is
    /// then what is matched.
    ///
    /// ```
    /// use agent_test::prelude::*;
    /// use agent_test::evaluate;
    /// use agent_test::check::Status;
    /// use agent_test::model::{Call, Reply, Transcript, Turn};
    /// let reply = Reply::text("").call(Call::tool("book", json!({})).failed(json!("booking not confirmed")));
    /// let t = Transcript::new(vec![Turn::new(0, "go", reply, 1)]);
    /// let v = evaluate(&t, &[
    ///     tool("book").result(contains("confirmed")).into_expectation(),
    ///     tool("book").failed().result(contains("not confirmed")).into_expectation(),
    /// ]);
    /// assert_eq!(v[0].status, Status::Fail);
    /// assert_eq!(v[0].details.violations[0].message,
    ///     r#"call at conversation position 0: result: the call failed ("booking not confirmed"), and a failed call has no result — its error text would have matched: add `.failed()` to check a failure's text"#);
    /// assert_eq!(v[1].status, Status::Pass);
    /// ```
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// let c = tool("lookup_order").result(contains("delivered"));
    /// assert_eq!(c.describe(), r#"tool `lookup_order` called returning text containing "delivered""#);
    /// ```
    pub fn result(self, expected: impl IntoMatcher) -> Self {
        self.result_at("", expected)
    }

    /// The value at `path` in the call's result must satisfy `expected`.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// let c = tool("lookup_order").result_at("status", "delivered");
    /// assert_eq!(c.describe(), r#"tool `lookup_order` called returning status = "delivered""#);
    /// ```
    pub fn result_at(mut self, path: impl Into<String>, expected: impl IntoMatcher) -> Self {
        self.result.push(ArgConstraint::new(path, expected));
        self
    }

    /// Exactly `n` matching calls.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// assert_eq!(tool("send_email").times(3).describe(), "tool `send_email` called exactly 3 times");
    /// ```
    pub fn times(mut self, n: usize) -> Self {
        self.count = Count::Exactly(n);
        self
    }

    /// At least `n` matching calls.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// assert_eq!(tool("search").at_least(2).describe(), "tool `search` called at least 2 times");
    /// ```
    pub fn at_least(mut self, n: usize) -> Self {
        self.count = Count::AtLeast(n);
        self
    }

    /// At most `n` matching calls (zero included).
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// assert_eq!(tool("search").at_most(1).describe(), "tool `search` called at most 1 time");
    /// ```
    pub fn at_most(mut self, n: usize) -> Self {
        self.count = Count::AtMost(n);
        self
    }

    /// Between `min` and `max` matching calls, inclusive.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// assert_eq!(tool("search").between(1, 3).describe(), "tool `search` called between 1 and 3 times");
    /// ```
    pub fn between(mut self, min: usize, max: usize) -> Self {
        self.count = Count::Between(min, max);
        self
    }

    /// No matching call at all (what [`no_tool`] builds).
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// assert_eq!(tool("delete").never().describe(), "tool `delete` not called");
    /// ```
    pub fn never(mut self) -> Self {
        self.count = Count::Exactly(0);
        self
    }

    /// The call at this 0-based position among the calls of its kind in scope must be a
    /// matching call of this name.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// assert_eq!(tool("search").at_position(0).describe(), "tool `search` called at position 0");
    /// ```
    pub fn at_position(mut self, position: usize) -> Self {
        self.position = Some(position);
        self
    }

    /// Every call of the name must satisfy the constraints (and there must be one).
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// let c = tool("get_weather").arg("units", "metric").every_call();
    /// assert_eq!(c.describe(), r#"tool `get_weather` called with units = "metric" (every call)"#);
    /// ```
    pub fn every_call(mut self) -> Self {
        self.every_call = true;
        self
    }

    /// Count only calls that succeeded: `tool("pay").succeeded()` passes when some call of
    /// `pay` returned no error.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// assert_eq!(tool("pay").succeeded().describe(), "tool `pay` called (successful calls only)");
    /// ```
    pub fn succeeded(mut self) -> Self {
        self.filter = CallFilter::Succeeded;
        self
    }

    /// Count only calls that returned an error: `tool("pay").failed().never()` passes when no
    /// call of `pay` failed.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// assert_eq!(tool("pay").failed().never().describe(), "tool `pay` not called (failed calls only)");
    /// ```
    pub fn failed(mut self) -> Self {
        self.filter = CallFilter::Failed;
        self
    }

    /// Count only calls that failed with this kind of error: `tool("book").failed_with(ToolErrorKind::Validation)`
    /// passes when the model's arguments for `book` were refused at least once.
    ///
    /// ```
    /// use agent_test::prelude::*;
    /// use agent_test::evaluate;
    /// use agent_test::check::Status;
    /// use agent_test::model::{Call, Reply, ToolErrorKind, Transcript, Turn};
    /// let reply = Reply::text("").call(Call::tool("book", json!({"date": "soon"})).failed_with(ToolErrorKind::Validation, json!("date: not a date")));
    /// let t = Transcript::new(vec![Turn::new(0, "go", reply, 1)]);
    /// let v = evaluate(&t, &[
    ///     tool("book").failed_with(ToolErrorKind::Validation).into_expectation(),
    ///     tool("book").failed_with(ToolErrorKind::Execution).into_expectation(),
    /// ]);
    /// assert_eq!(v[0].status, Status::Pass);
    /// assert_eq!(v[1].reason, "tool `book` was called, but no call failed with an execution error");
    /// ```
    pub fn failed_with(mut self, kind: ToolErrorKind) -> Self {
        self.filter = CallFilter::FailedWith(kind);
        self
    }

    /// Count calls that succeeded or whose arguments were refused in validation (PromptKit's
    /// `ignore_validation`): only calls whose tool ran and failed are left out.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// assert_eq!(tool("pay").succeeded_or_invalid().describe(), "tool `pay` called (successful calls and validation errors only)");
    /// ```
    pub fn succeeded_or_invalid(mut self) -> Self {
        self.filter = CallFilter::SucceededOrInvalid;
        self
    }

    /// For a node: a check on the tool calls made inside it (positions count from 0 inside
    /// the node). See [`node`].
    pub fn tool(mut self, check: ToolCheck) -> Self {
        self.nested.push(check);
        self
    }

    /// The tool's (or node's) name.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// assert_eq!(tool("x").name(), "x");
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// One line describing the check.
    ///
    /// See [`tool`].
    pub fn describe(&self) -> String {
        let mut s = if self.any_name {
            format!("any {}", self.target.noun())
        } else {
            format!("{} `{}`", self.target.noun(), self.name)
        };
        match self.count {
            Count::AtLeast(1) => s.push_str(" called"),
            Count::Exactly(0) => s.push_str(" not called"),
            c => {
                let _ = write!(s, " called {c}");
            }
        }
        if let Some(p) = self.position {
            let _ = write!(s, " at position {p}");
        }
        if !self.args.is_empty() {
            let _ = write!(s, " with {}", constraints(&self.args, "arguments"));
        }
        if !self.forbidden.is_empty() {
            let _ = write!(s, " without {}", self.forbidden.join(", "));
        }
        if !self.result.is_empty() {
            let _ = write!(s, " returning {}", constraints(&self.result, ""));
        }
        if self.no_error {
            s.push_str(" without an error");
        }
        if self.strict {
            s.push_str(" (strict)");
        }
        if self.every_call {
            s.push_str(" (every call)");
        }
        s.push_str(&self.filter.suffix());
        if !self.nested.is_empty() {
            let inner: Vec<String> = self.nested.iter().map(ToolCheck::describe).collect();
            let _ = write!(s, ", containing: {}", inner.join("; "));
        }
        s
    }
}

/// `a = 1, b = "x"`, or the bare matcher for a constraint on the whole value.
fn constraints(list: &[ArgConstraint], whole: &str) -> String {
    let parts: Vec<String> = list
        .iter()
        .map(|a| {
            let expected = match &a.matcher {
                Matcher::Exact { value, .. } => compact(value),
                other => other.describe(),
            };
            match (a.path.as_str(), whole) {
                ("", "") => expected,
                ("", w) if matches!(a.matcher, Matcher::Exact { .. }) => {
                    format!("{w} = {expected}")
                }
                ("", w) => format!("{w}: {expected}"),
                (p, _) if matches!(a.matcher, Matcher::Exact { .. }) => format!("{p} = {expected}"),
                (p, _) => format!("{p}: {expected}"),
            }
        })
        .collect();
    parts.join(", ")
}

impl ToolCheck {
    /// Whether the check (or a check nested in it) constrains arguments, results, and
    /// whether calls failed.
    fn constrains(&self) -> [bool; 3] {
        let own = [
            !self.args.is_empty() || !self.forbidden.is_empty() || self.strict,
            !self.result.is_empty(),
            self.filter != CallFilter::All || self.no_error,
        ];
        self.nested.iter().fold(own, |[a, r, o], n| {
            let [na, nr, no] = n.constrains();
            [a || na, r || nr, o || no]
        })
    }
}

impl super::CheckRules for ToolCheck {
    const KIND: Kind = Kind::new(
        "tool",
        "the calls of one tool (or node, or any): arguments, results, outcome, count, position",
    )
    .words(&[
        Word::new("tool", Arg::Tool),
        Word::new("no_tool", Arg::Tool),
        Word::new("node", Arg::Text),
        Word::new("any_call", Arg::Text),
        Word::new("arg", Arg::Value),
        Word::new("result", Arg::Value),
        Word::new("result_at", Arg::Value),
        Word::new("arg_json_path", Arg::JsonPath),
        Word::new("result_json_path", Arg::JsonPath),
    ]);

    #[cfg(any(test, feature = "samples"))]
    fn samples() -> Vec<super::Expectation> {
        use crate::check::*;
        use crate::matcher::*;
        use serde_json::json;
        use crate::model::ToolErrorKind;
        let mut node_check = node("Agent").times(1).tool(tool("inner").arg("q", "x"));
        for m in crate::matcher::Matcher::samples() {
            node_check = node_check.arg("a", m.clone()).result_at("r", m);
        }
        vec![
            node_check
                .arg_group(["a", "b"], free_text("together"))
                .forbid_arg("f")
                .strict()
                .every_call()
                .at_position(0)
                .succeeded()
                .id("tool"),
            any_call("x").between(1, 2).into_expectation(),
            any_tool()
                .arguments(json!({"k": 1}))
                .arg_json_path("$.a[*]", "x")
                .result_json_path("$.r", any())
                .no_error()
                .failed_with(ToolErrorKind::Validation)
                .into_expectation(),
            tool("t").succeeded_or_invalid().into_expectation(),
        ]
    }

    fn semantic<'a>(&'a self, out: &mut Vec<Semantic<'a>>) {
        fn tool<'a>(t: &'a ToolCheck, out: &mut Vec<Semantic<'a>>) {
            let name = (!t.any_name).then_some(t.name.as_str());
            Semantic::of_calls(name, false, &t.args, out);
            Semantic::of_calls(name, true, &t.result, out);
            for n in &t.nested {
                tool(n, out);
            }
        }
        tool(self, out);
    }

    fn reads(&self) -> &'static [Part] {
        // Every combination (arguments, results, outcomes), so the answer is a static list.
        match self.constrains() {
            [false, false, false] => &[Part::Calls],
            [true, false, false] => &[Part::Calls, Part::Arguments],
            [false, true, false] => &[Part::Calls, Part::Results],
            [true, true, false] => &[Part::Calls, Part::Arguments, Part::Results],
            [false, false, true] => &[Part::Calls, Part::Outcomes],
            [true, false, true] => &[Part::Calls, Part::Arguments, Part::Outcomes],
            [false, true, true] => &[Part::Calls, Part::Results, Part::Outcomes],
            [true, true, true] => &[Part::Calls, Part::Arguments, Part::Results, Part::Outcomes],
        }
    }

    fn literal_problem(&self) -> Option<String> {
        self.args
            .iter()
            .chain(&self.result)
            .find_map(ArgConstraint::literal_problem)
            .or_else(|| {
                self.nested
                    .iter()
                    .find_map(super::CheckRules::literal_problem)
            })
    }

    /// Why the check can never pass, if it cannot: an impossible count, here or in a check on
    /// the calls inside a node.
    fn problem(&self) -> Option<String> {
        self.count
            .problem()
            .or_else(|| self.nested.iter().find_map(ToolCheck::problem))
    }

    /// Whether a pass may rest on calls not made: an upper bound on the count (`never()`,
    /// `at_most`, `times`, `between`) or every call having to match.
    fn claims_absence(&self) -> bool {
        self.every_call
            || matches!(
                self.count,
                Count::Exactly(_) | Count::AtMost(_) | Count::Between(..)
            )
            || self.nested.iter().any(ToolCheck::claims_absence)
    }

    /// A pass stands unless it rests on an absence; a failure stands only when the check
    /// bounds the count from above alone (`never`, `at_most`) and asks nothing else of
    /// positions, every call or the calls inside: then it failed on calls seen.
    fn unseen_calls(&self) -> super::Unseen {
        super::Unseen {
            pass_stands: !self.claims_absence(),
            fail_stands: matches!(self.count, Count::AtMost(_) | Count::Exactly(0))
                && self.position.is_none()
                && !self.every_call
                && self.nested.is_empty(),
        }
    }
}

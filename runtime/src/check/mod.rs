#![doc = include_str!("reference.md")]

mod agents;
mod calls;
mod chain;
mod context;
mod cost;
mod custom;
pub(crate) mod gated;
mod jmespath;
mod json;
mod json_path;
mod json_source;
mod judge;
mod length;
mod protocol;
mod schema_check;
mod sequence;
mod snapshot;
mod structured_output;
mod text;
mod tool;
mod tool_errors;
mod tool_eval;
mod tool_explain;
mod tool_list;
mod tool_set;
mod trajectory;
mod workflow;

pub use agents::{
    AgentCheck, AgentResponse, AgentResponseCheck, agent_invoked, agent_not_invoked, agent_response,
};
pub use calls::args_mode::{ArgsMode, ArgsOverride};
pub use calls::expected_call::{ExpectedCall, tool_call};
pub use chain::{ToolChain, tool_chain};
pub use cost::{CostCheck, cost};
pub(crate) use jmespath::search as jmespath_search;
pub use jmespath::{JmesPath, JmesPathCheck, jmespath};
pub use json::{Field, FieldCheck, field};
pub use json_path::{JsonPath, JsonPathCheck, JsonPathExpect, json_path};
pub use json_source::{JsonSource, JsonSourceOptions};
pub use judge::{JudgeCheck, expected_response, judge};
pub use length::{Length, LengthCheck, LengthUnit};
pub use protocol::{
    Latency, LatencyCheck, StatusCheck, TokenCheck, http_status, http_success, latency, tokens,
};
pub use schema_check::{SchemaCheck, schema};
pub use tool_errors::{NoToolErrors, no_tool_errors};
pub use trajectory::{TrajectoryCheck, TrajectoryMode, trajectory};
pub use workflow::{
    GuardrailCheck, WorkflowCheck, WorkflowExpect, any_guardrail_triggered,
    guardrail_not_triggered, guardrail_triggered, no_guardrail_triggered, state_is,
    transitioned_to, workflow_complete,
};

pub use crate::compare::path::FieldPath;
pub use crate::model::outcome::{Details, IntoOutcome, Outcome, Status, Violation};
pub use crate::model::scope::{Scope, Severity};
pub use calls::arg_constraint::ArgConstraint;
pub use calls::call_filter::CallFilter;
pub use calls::count::Count;
pub use context::{EvalContext, Target};
pub(crate) use context::{ReplyJson, TranscriptIndex};
pub use custom::{CustomCheck, check};
pub use sequence::{ToolSequence, tool_sequence};
pub use snapshot::{SnapshotCheck, SnapshotOf, Stored};
#[cfg(feature = "mcp")]
pub(crate) use structured_output::{Against, against};

/// Checks as data: each expectation's JSON form, as scenario files write it, with its scope
/// written out (a file implies it from where the check sits; a report's list does not show
/// that) — a report keeps them, so its transcript can be evaluated again.
pub(crate) fn as_data(expectations: &[Expectation]) -> Vec<serde_json::Value> {
    expectations
        .iter()
        .map(|e| {
            let mut v = serde_json::to_value(e).unwrap_or(serde_json::Value::Null);
            if let (serde_json::Value::Object(fields), Ok(scope)) =
                (&mut v, serde_json::to_value(e.scope))
            {
                fields.insert("scope".to_owned(), scope);
            }
            v
        })
        .collect()
}
pub use structured_output::{StructuredOutputCheck, valid_structured_output};
pub use text::{Text, TextCheck, TextOp, TextSource, conversation, node_output, replies, reply};
pub use tool::{ToolCheck, any_call, any_tool, no_tool, node, tool};
pub use tool_list::{ToolListCheck, valid_tool_list};
pub use tool_set::{NoTools, SetMode, ToolSet, forbidden_tools, no_tools, required_tools};

use serde::{Deserialize, Serialize};

/// What a check type may say about itself besides describing and evaluating: that it can
/// never pass as written, or that its pass rests on something not having happened. Each
/// check type implements it next to its evaluation (the defaults say "neither").
pub(crate) trait CheckRules {
    /// The parts of a turn the check reads: over a turn with a [`Gap`](crate::model::Gap) in
    /// one of them, the check is an error. No default: each check type says.
    fn reads(&self) -> &'static [crate::model::Part];

    /// Why the check can never pass (or never fail) as written, if so.
    fn problem(&self) -> Option<String> {
        None
    }

    /// A literal of the check that is broken whatever the answer — a regex, a JSONPath or
    /// JMESPath query, an expression, a JSON Schema (see [`Check::literal_problem`]).
    fn literal_problem(&self) -> Option<String> {
        None
    }

    /// Whether a pass rests on something *not* having happened (see
    /// [`Check::claims_absence`]).
    fn claims_absence(&self) -> bool {
        false
    }

    /// Which of the check's verdicts would stand if the turn had made calls nobody saw (see
    /// [`Check::unseen_calls`]). The default: a check that does not read the calls is not
    /// concerned; one that does keeps a pass unless the pass rests on an absence, and no
    /// failure (it may be a call not seen). Check types whose failures rest on calls seen
    /// (`no_tool`, `at_most`) say so.
    fn unseen_calls(&self) -> Unseen {
        if self.reads().contains(&crate::model::Part::Calls) {
            Unseen {
                pass_stands: !self.claims_absence(),
                fail_stands: false,
            }
        } else {
            Unseen::NOT_CONCERNED
        }
    }
}

/// Which verdicts of a check would stand if its turn had made calls nobody saw — unread trace
/// spans that might be calls: the other verdicts are *not measured* (an error naming the
/// spans). A presence claim (`tool("x")`) keeps its pass, an absence claim (`no_tool("x")`)
/// its failure, an exact count or order neither.
///
/// ```
/// use agent_test::check::{Check, Unseen};
/// use agent_test::prelude::*;
/// assert_eq!(Check::from(tool("search")).unseen_calls(), Unseen { pass_stands: true, fail_stands: false });
/// assert_eq!(Check::from(no_tool("cancel")).unseen_calls(), Unseen { pass_stands: false, fail_stands: true });
/// assert_eq!(Check::from(tool("search").times(2)).unseen_calls(), Unseen { pass_stands: false, fail_stands: false });
/// assert_eq!(Check::from(reply().contains("ok")).unseen_calls(), Unseen::NOT_CONCERNED);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unseen {
    /// A pass stands: more calls could not make the check fail.
    pub pass_stands: bool,
    /// A failure stands: more calls could not make the check pass.
    pub fail_stands: bool,
}

impl Unseen {
    /// A check that does not read the calls: every verdict stands.
    pub const NOT_CONCERNED: Unseen = Unseen {
        pass_stands: true,
        fail_stands: true,
    };

    /// Neither verdict stands (a judge, a custom check, an exact count or order).
    pub const NEITHER: Unseen = Unseen {
        pass_stands: false,
        fail_stands: false,
    };
}

/// The one list of check types: each line is a variant of [`Check`], the builder type it
/// wraps and its serialised `type` tag. Everything that dispatches over check types is
/// generated from it, so adding a check type is a new file (the type, its `describe`,
/// `evaluate` and [`CheckRules`]) and one line here.
macro_rules! checks {
    ($($(#[$attr:meta])* $variant:ident($ty:ty) = $kind:literal,)*) => {
        /// Any check. Each variant wraps the builder type of one family of checks.
        ///
        /// Serialised with a `type` tag: `{"type": "tool", "name": "lookup_order", ...}`.
        ///
        /// ```
        /// use agent_test::check::Check;
        /// use agent_test::prelude::*;
        /// let c: Check = tool("lookup_order").into();
        /// assert_eq!(c.kind(), "tool");
        /// assert_eq!(serde_json::to_value(&c).unwrap()["type"], "tool");
        /// ```
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "type", rename_all = "snake_case")]
        #[non_exhaustive]
        pub enum Check {
            $($(#[$attr])* $variant($ty),)*
        }

        impl Check {
            /// Every check type's `type` tag, in the list's order (the vacuity tests cover each).
            #[doc(hidden)]
            pub const KINDS: &'static [&'static str] = &[$($kind,)*];

            /// The check's family, as in its serialised `type` tag.
            ///
            /// See the type's example.
            pub fn kind(&self) -> &'static str {
                match self {
                    $(Check::$variant(_) => $kind,)*
                }
            }

            /// One line describing what the check requires.
            ///
            /// ```
            /// # use agent_test::{check::Check, prelude::*};
            /// assert_eq!(Check::from(reply().contains("hi")).describe(), r#"reply contains "hi""#);
            /// ```
            pub fn describe(&self) -> String {
                match self {
                    $(Check::$variant(c) => c.describe(),)*
                }
            }

            /// Why the check can never pass (or never fail) as written, if so: an impossible
            /// constraint such as `between(5, 1)`, a status range whose minimum is above its
            /// maximum, a judge threshold outside 0..=1. Such a check is an error verdict
            /// ("impossible constraint: ..."), and a load error in a file.
            ///
            /// ```
            /// # use agent_test::{check::Check, prelude::*};
            /// let c = Check::from(tool("search").between(5, 1));
            /// assert_eq!(c.problem().unwrap(), "between(5, 1) can never pass: the minimum is greater than the maximum");
            /// let t = agent_test::model::Transcript::default();
            /// let v = evaluate(&t, &[tool("search").between(5, 1).into_expectation()]);
            /// assert_eq!(v[0].status, Status::Error);
            /// assert_eq!(v[0].reason, "impossible constraint: between(5, 1) can never pass: the minimum is greater than the maximum");
            /// ```
            pub fn problem(&self) -> Option<String> {
                match self {
                    $(Check::$variant(c) => CheckRules::problem(c),)*
                }
            }

            /// A literal of the check that is broken whatever the agent answers — a regex
            /// that does not compile, a JSONPath or JMESPath query that does not parse, an
            /// expression with an unknown function, a JSON Schema that is not one — or a
            /// constraint that can never hold ([`Check::problem`]). What loaders refuse when
            /// they read a file, with the validators the macro uses at compile time.
            ///
            /// ```
            /// use agent_test::check::Check;
            /// use agent_test::prelude::*;
            /// assert!(Check::from(json_path("$[").exists()).literal_problem().unwrap().contains("$["));
            /// assert!(Check::from(tool("t").arg("d", date("DATEADD(TODAY(), 1)"))).literal_problem().is_some());
            /// assert_eq!(Check::from(reply().matches("ok")).literal_problem(), None);
            /// ```
            pub fn literal_problem(&self) -> Option<String> {
                match self {
                    $(Check::$variant(c) => CheckRules::literal_problem(c)
                        .or_else(|| CheckRules::problem(c)),)*
                }
            }

            /// Whether a pass rests on something *not* having happened (no call of a tool, at
            /// most some calls, no forbidden agent, a text nowhere in the replies, a guardrail
            /// that did not fire): over a turn on which the agent failed, such a pass cannot be
            /// confirmed, so the evaluator makes it an error instead ("cannot confirm an
            /// absence: …").
            ///
            /// ```
            /// # use agent_test::{check::Check, prelude::*};
            /// assert!(Check::from(no_tool("cancel_order")).claims_absence());
            /// assert!(!Check::from(tool("lookup_order")).claims_absence());
            /// ```
            pub fn claims_absence(&self) -> bool {
                match self {
                    $(Check::$variant(c) => CheckRules::claims_absence(c),)*
                }
            }

            /// Which of the check's verdicts would stand if its turn had made calls nobody saw
            /// (unread trace spans that might be calls, see
            /// [`SpanReading`](crate::model::SpanReading)); the others are errors, "not
            /// measured". See [`Unseen`].
            pub fn unseen_calls(&self) -> Unseen {
                match self {
                    $(Check::$variant(c) => CheckRules::unseen_calls(c),)*
                }
            }

            /// The parts of a turn the check reads (a check over a turn with a
            /// [`Gap`](crate::model::Gap) in one of them is an error).
            ///
            /// ```
            /// use agent_test::check::Check;
            /// use agent_test::model::Part;
            /// use agent_test::prelude::*;
            /// assert_eq!(Check::from(no_tool("cancel_order")).reads(), [Part::Calls]);
            /// assert_eq!(Check::from(reply().contains("ok")).reads(), [Part::ReplyText]);
            /// assert!(Check::from(http_status(200)).reads().is_empty());
            /// ```
            pub fn reads(&self) -> &'static [crate::model::Part] {
                match self {
                    $(Check::$variant(c) => CheckRules::reads(c),)*
                }
            }

            /// Evaluates the check against a scoped view of a transcript.
            pub fn evaluate(&self, cx: &EvalContext<'_>) -> Outcome {
                if let Some(problem) = self.problem() {
                    return Outcome::error(format!("impossible constraint: {problem}"));
                }
                self.evaluate_possible(cx)
            }

            /// [`Check::evaluate`] of a check whose [`problem`](Check::problem) the caller
            /// has already asked about.
            pub(crate) fn evaluate_possible(&self, cx: &EvalContext<'_>) -> Outcome {
                match self {
                    $(Check::$variant(c) => c.evaluate(cx),)*
                }
            }
        }

        $(
            impl From<$ty> for Check {
                fn from(c: $ty) -> Check {
                    Check::$variant(c)
                }
            }

            impl IntoExpectation for $ty {
                fn into_expectation(self) -> Expectation {
                    Expectation::new(Check::$variant(self))
                }
            }
        )*
    };
}

checks! {
    /// A check on text (see [`reply`]).
    Text(TextCheck) = "text",
    /// A check on one tool (see [`tool`]).
    Tool(ToolCheck) = "tool",
    /// Required or forbidden tool names (see [`required_tools`]).
    ToolSet(ToolSet) = "tool_set",
    /// No tool at all (see [`no_tools`]).
    NoTools(NoTools) = "no_tools",
    /// An ordered sequence of tools (see [`tool_sequence`]).
    ToolSequence(ToolSequence) = "tool_sequence",
    /// A chain of dependent tool calls, each with its constraints (see [`tool_chain`]).
    ToolChain(ToolChain) = "tool_chain",
    /// No tool call failed (see [`no_tool_errors`]).
    NoToolErrors(NoToolErrors) = "no_tool_errors",
    /// A whole trajectory against a reference (see [`trajectory`]).
    Trajectory(TrajectoryCheck) = "trajectory",
    /// A JSON field (see [`field`]).
    Field(FieldCheck) = "field",
    /// A JSONPath query (see [`json_path`]).
    JsonPath(JsonPathCheck) = "json_path",
    /// A JMESPath expression (see [`jmespath`]).
    Jmespath(JmesPathCheck) = "jmespath",
    /// A JSON Schema (see [`schema`]).
    Schema(SchemaCheck) = "schema",
    /// An MCP server's tool lists (see [`valid_tool_list`]).
    ToolList(ToolListCheck) = "tool_list",
    /// MCP tools' structured results against their output schemas (see
    /// [`valid_structured_output`]).
    StructuredOutput(StructuredOutputCheck) = "structured_output",
    /// HTTP status (see [`http_status`]).
    HttpStatus(StatusCheck) = "http_status",
    /// Response time (see [`latency`]).
    Latency(LatencyCheck) = "latency",
    /// Token usage (see [`tokens`]).
    Tokens(TokenCheck) = "tokens",
    /// What the tokens cost (see [`cost`]).
    Cost(CostCheck) = "cost",
    /// The length of a text (see [`Text::length`]).
    Length(LengthCheck) = "length",
    /// Sub-agent invocations (see [`agent_invoked`]).
    Agents(AgentCheck) = "agents",
    /// A sub-agent's response (see [`agent_response`]).
    AgentResponse(AgentResponseCheck) = "agent_response",
    /// Workflow state (see [`state_is`]).
    Workflow(WorkflowCheck) = "workflow",
    /// Guardrails (see [`guardrail_triggered`]).
    Guardrail(GuardrailCheck) = "guardrail",
    /// A reply or the tool calls against an accepted snapshot (see [`Text::snapshot`]).
    Snapshot(SnapshotCheck) = "snapshot",
    /// A quality graded by the judge (see [`judge`]).
    Judge(JudgeCheck) = "judge",
    /// A Rust closure (see [`check`]); cannot be loaded from data.
    #[serde(skip_deserializing)]
    Custom(CustomCheck) = "custom",
}

/// A check together with its options: where it applies, its id, what it depends on, how severe
/// a failure is, and the label reports show.
///
/// ```
/// use agent_test::prelude::*;
/// let e = tool("search_hotels").id("searched").warning();
/// assert_eq!(e.id.as_deref(), Some("searched"));
/// assert_eq!(e.severity, Severity::Warning);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expectation {
    /// The check.
    pub check: Check,
    /// The part of the run it sees. Set by the runtime from where the check was written; in
    /// data files, implied by whether it sits in a turn or after the turns, and written only
    /// for a [`so_far`](CheckExt::so_far) check in a turn (`"scope": {"up_to": 0}`).
    #[serde(default, skip_serializing_if = "is_placed")]
    pub scope: Scope,
    /// An id other checks can depend on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Ids of checks that must pass for this one to be evaluated; otherwise it is skipped.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub depends_on: Vec<String>,
    /// Whether a failure fails the test.
    #[serde(default, skip_serializing_if = "is_error")]
    pub severity: Severity,
    /// What reports call the check (the source text in `agent_test!`), else its description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

/// A scope the check's place decides (everything but "so far").
fn is_placed(s: &Scope) -> bool {
    !matches!(s, Scope::UpTo(_))
}

fn is_error(s: &Severity) -> bool {
    *s == Severity::Error
}

impl Expectation {
    /// The check with its scope set by where it is written (see [`Scope::placed`]).
    pub(crate) fn placed(mut self, place: Scope) -> Self {
        self.scope = self.scope.placed(place);
        self
    }

    /// Wraps a check with default options.
    ///
    /// ```
    /// # use agent_test::{check::Expectation, prelude::*};
    /// let e = Expectation::new(no_tools());
    /// assert!(e.id.is_none());
    /// ```
    pub fn new(check: impl Into<Check>) -> Self {
        Expectation {
            check: check.into(),
            scope: Scope::Conversation,
            id: None,
            depends_on: Vec::new(),
            severity: Severity::Error,
            label: None,
        }
    }

    /// The label reports show: the explicit label, else the check's description.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// assert_eq!(no_tools().into_expectation().display_label(), "no tool called");
    /// ```
    pub fn display_label(&self) -> String {
        self.label.clone().unwrap_or_else(|| self.check.describe())
    }
}

/// Conversion into an [`Expectation`]: implemented by every check builder.
///
/// ```
/// use agent_test::prelude::*;
/// let e = reply().contains("hello").into_expectation();
/// assert_eq!(e.check.kind(), "text");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a check",
    label = "expected a check here",
    note = "build checks with functions such as `reply().contains(..)`, `tool(\"name\")`, `no_tools()`, `tool_sequence([..])` or `check(\"label\", |cx| ..)`"
)]
pub trait IntoExpectation {
    /// Performs the conversion.
    fn into_expectation(self) -> Expectation;
}

impl IntoExpectation for Expectation {
    fn into_expectation(self) -> Expectation {
        self
    }
}

impl IntoExpectation for Check {
    fn into_expectation(self) -> Expectation {
        Expectation::new(self)
    }
}

/// Options every check accepts. Because they turn the check into an [`Expectation`], write them
/// after the check's own methods.
///
/// ```
/// use agent_test::prelude::*;
/// let searched = tool("search_hotels").arg("city", "Madrid").id("search_called");
/// let listed = reply().matches("hotel|accommodation").depends_on("search_called");
/// assert_eq!(listed.depends_on, ["search_called"]);
/// # let _ = searched;
/// ```
pub trait CheckExt: IntoExpectation + Sized {
    /// Gives the check an id, so other checks can [`depend on`](CheckExt::depends_on) it.
    fn id(self, id: impl Into<String>) -> Expectation {
        let mut e = self.into_expectation();
        e.id = Some(id.into());
        e
    }

    /// Evaluates this check only if the check with id `id` passed; otherwise it is reported as
    /// skipped (not failed). Call it several times to depend on several checks.
    fn depends_on(self, id: impl Into<String>) -> Expectation {
        let mut e = self.into_expectation();
        e.depends_on.push(id.into());
        e
    }

    /// A failure is reported but does not fail the test.
    fn warning(self) -> Expectation {
        self.severity(Severity::Warning)
    }

    /// Sets the severity.
    fn severity(self, severity: Severity) -> Expectation {
        let mut e = self.into_expectation();
        e.severity = severity;
        e
    }

    /// Sets the label reports show for the check.
    fn label(self, label: impl Into<String>) -> Expectation {
        let mut e = self.into_expectation();
        e.label = Some(label.into());
        e
    }

    /// In a turn, see the conversation so far — every turn up to and including this one —
    /// instead of this turn only (PromptKit's accumulated workflow history, a Lamdis
    /// transcript check between messages). After the turns it changes nothing.
    ///
    /// ```
    /// use agent_test::prelude::*;
    /// use agent_test::model::{Reply, Transcript, Turn};
    /// let t = Transcript::new(vec![
    ///     Turn::new(0, "hi", Reply::text("Which order?"), 1),
    ///     Turn::new(1, "ORD-1", Reply::text("Refunded."), 1),
    ///     Turn::new(2, "thanks", Reply::text("Bye!"), 1),
    /// ]);
    /// let mut so_far = replies().contains("which order").so_far();
    /// so_far.scope = Scope::UpTo(1);
    /// let mut later = replies().contains("bye").so_far();
    /// later.scope = Scope::UpTo(1);
    /// let v = evaluate(&t, &[so_far, later]);
    /// assert_eq!(v[0].status, Status::Pass);
    /// assert_eq!(v[1].status, Status::Fail); // turn 3 is not yet part of it
    /// ```
    fn so_far(self) -> Expectation {
        let mut e = self.into_expectation();
        e.scope = Scope::UpTo(0);
        e
    }
}

impl<T: IntoExpectation> CheckExt for T {}

#![doc = include_str!("reference.md")]

// The check kinds' modules are declared by `checks!` below; these are what they share.
mod calls;
#[doc(hidden)]
pub mod gated;
mod json_source;
mod read;
mod semantic;
#[cfg(test)]
mod vocabulary;

#[doc(hidden)]
pub use self::jmespath::search as jmespath_search;
#[cfg(feature = "mcp")]
#[doc(hidden)]
pub use self::structured_output::{Against, against};
pub use crate::compare::path::FieldPath;
pub use crate::evaluate::context::{EvalContext, Target};
#[doc(hidden)]
pub use crate::evaluate::context::{ReplyJson, TranscriptIndex};
pub use crate::model::outcome::{Details, IntoOutcome, Outcome, Status, Violation};
pub use crate::model::scope::{Scope, Severity};
pub use calls::arg_constraint::ArgConstraint;
pub use calls::args_mode::{ArgsMode, ArgsOverride};
pub use calls::call_filter::CallFilter;
pub use calls::count::Count;
pub use calls::expected_call::{ExpectedCall, tool_call};
pub use json_source::{JsonSource, JsonSourceOptions};
#[doc(hidden)]
pub use semantic::Semantic;

use agent_test_vocabulary::Kind;
use serde::{Deserialize, Serialize};

/// Checks as data: each expectation's JSON form, as scenario files write it, with its scope
/// written out (a file implies it from where the check sits; a report's list does not show
/// that) — a report keeps them, so its transcript can be evaluated again.
#[doc(hidden)]
pub fn as_data(expectations: &[Expectation]) -> Vec<serde_json::Value> {
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

/// What a check kind says about itself besides describing and evaluating, in its own file:
/// its declaration (tag, one-line summary, the words the macro checks), what it
/// reads, whether it can never pass as written or its pass rests on something not having
/// happened, where the judge finds its semantic matchers, and (for tests) instances with every
/// option set. Everything that handles every kind — the registry, the closed JSON forms, the
/// vacuity tests, the reference's table of kinds, the macro's vocabulary — is derived from
/// these, so adding a kind is its file and one line of `checks!`.
pub(crate) trait CheckRules {
    /// The kind's declaration (see [`Kind`]).
    const KIND: Kind;

    /// Whether the kind can be read from data (a custom check, Rust code, cannot).
    const DATA_FORM: bool = true;

    /// Instances of the kind with every option set: the closed-forms test serialises them and
    /// inserts unknown keys everywhere, the vacuity test evaluates them over no turn.
    #[cfg(any(test, feature = "samples"))]
    fn samples() -> Vec<Expectation>;

    /// The semantic matchers the check holds and where they read their values (the judge
    /// grades them); none by default.
    fn semantic<'a>(&'a self, _out: &mut Vec<Semantic<'a>>) {}

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

    /// Only a failure stands: a check whose failures rest on calls seen and whose pass rests
    /// on calls not having happened (`no_tools()`, `no_tool_errors()`, `no_repeated_calls()`).
    pub const FAILURE_STANDS: Unseen = Unseen {
        pass_stands: false,
        fail_stands: true,
    };
}

/// The one list of check kinds: each line is the kind's module (its file), its variant of
/// [`Check`], the builder type the variant wraps and the functions that build it (which the
/// prelude exports). The modules, their re-exports, the prelude's builders and everything that
/// dispatches over check kinds are generated from it, and everything a kind says about itself
/// is in its file ([`CheckRules`], whose `KIND` holds its `type` tag), so adding a check kind
/// is a new file and one line here.
macro_rules! checks {
    ($($(#[$attr:meta])* $module:ident::$variant:ident($ty:ident) [$($builder:ident),*],)*) => {
        $(
            mod $module;
            pub use $module::*;
        )*

        /// The functions that build a check of each kind, for the prelude.
        #[doc(hidden)]
        pub mod builders {
            $($(pub use super::$module::$builder;)*)*
        }

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
        // Read by `read.rs` (without buffering), written by serde's derive.
        #[derive(Clone, Debug, PartialEq, Serialize)]
        #[serde(tag = "type", rename_all = "snake_case")]
        #[non_exhaustive]
        pub enum Check {
            $($(#[$attr])* $variant($ty),)*
        }

        impl Check {
            /// The check of kind `tag` read from `d` (the object's fields but its `type`).
            /// A kind without a data form (a custom check) is an unknown kind here.
            fn read_kind<'de, D: serde::Deserializer<'de>>(
                tag: &str,
                d: D,
            ) -> Result<Check, D::Error> {
                $(
                    if <$ty as CheckRules>::DATA_FORM && tag == <$ty as CheckRules>::KIND.tag {
                        return <$ty as Deserialize>::deserialize(d).map(Check::$variant);
                    }
                )*
                static IN_DATA: std::sync::LazyLock<Vec<&'static str>> =
                    std::sync::LazyLock::new(|| {
                        let mut tags = Vec::new();
                        $(
                            if <$ty as CheckRules>::DATA_FORM {
                                tags.push(<$ty as CheckRules>::KIND.tag);
                            }
                        )*
                        tags
                    });
                Err(serde::de::Error::unknown_variant(tag, &IN_DATA))
            }

            /// Every check kind's `type` tag, in the list's order.
            #[cfg(test)]
            pub(crate) const KINDS: &'static [&'static str] = &[$(<$ty as CheckRules>::KIND.tag,)*];

            /// Every check kind's declaration, in the list's order.
            #[cfg(test)]
            pub(crate) const DECLARED: &'static [Kind] = &[
                $(<$ty as CheckRules>::KIND.built_by(&[$(stringify!($builder)),*]),)*
            ];

            /// Instances of every kind with every option set (see [`CheckRules::samples`]).
            #[cfg(any(test, feature = "samples"))]
            #[doc(hidden)]
            pub fn samples() -> Vec<Expectation> {
                let mut all = Vec::new();
                $(all.extend(<$ty as CheckRules>::samples());)*
                all
            }

            /// The check's semantic matchers and where they read their values.
            #[doc(hidden)]
            pub fn semantic_targets(&self) -> Vec<Semantic<'_>> {
                let mut out = Vec::new();
                match self {
                    $(Check::$variant(c) => CheckRules::semantic(c, &mut out),)*
                }
                out
            }

            /// The check's family, as in its serialised `type` tag.
            ///
            /// See the type's example.
            pub fn kind(&self) -> &'static str {
                match self {
                    $(Check::$variant(_) => <$ty as CheckRules>::KIND.tag,)*
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
            /// # use agent_test::evaluate;
            /// # use agent_test::check::Status;
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
    text::Text(TextCheck) [reply, replies, conversation, node_output],
    /// A check on one tool (see [`tool`]).
    tool::Tool(ToolCheck) [tool, no_tool, node, any_tool, any_call],
    /// Required or forbidden tool names (see [`required_tools`]).
    tool_set::ToolSet(ToolSet) [required_tools, forbidden_tools],
    /// No tool at all (see [`no_tools`]).
    no_tools::NoTools(NoTools) [no_tools],
    /// An ordered sequence of tools (see [`tool_sequence`]).
    sequence::ToolSequence(ToolSequence) [tool_sequence],
    /// A chain of dependent tool calls, each with its constraints (see [`tool_chain`]).
    chain::ToolChain(ToolChain) [tool_chain],
    /// No tool call failed (see [`no_tool_errors`]).
    tool_errors::NoToolErrors(NoToolErrors) [no_tool_errors],
    /// No tool called again with the same arguments (see [`no_repeated_calls`]).
    repeats::NoRepeatedCalls(NoRepeatedCalls) [no_repeated_calls],
    /// A whole trajectory against a reference (see [`trajectory`]).
    trajectory::Trajectory(TrajectoryCheck) [trajectory],
    /// A JSON field (see [`field`]).
    json::Field(FieldCheck) [field],
    /// A JSONPath query (see [`json_path`]).
    json_path::JsonPath(JsonPathCheck) [json_path],
    /// A JMESPath expression (see [`jmespath`]).
    jmespath::Jmespath(JmesPathCheck) [jmespath],
    /// A JSON Schema (see [`schema`]).
    schema_check::Schema(SchemaCheck) [schema],
    /// An MCP server's tool lists (see [`valid_tool_list`]).
    tool_list::ToolList(ToolListCheck) [valid_tool_list],
    /// MCP tools' structured results against their output schemas (see
    /// [`valid_structured_output`]).
    structured_output::StructuredOutput(StructuredOutputCheck) [valid_structured_output],
    /// HTTP status (see [`http_status`]).
    status::HttpStatus(StatusCheck) [http_status, http_success],
    /// Response time (see [`latency`]).
    latency::Latency(LatencyCheck) [latency],
    /// Token usage (see [`tokens`]).
    tokens::Tokens(TokenCheck) [tokens],
    /// What the tokens cost (see [`cost`]).
    cost::Cost(CostCheck) [cost],
    /// The length of a text (see [`Text::length`]).
    length::Length(LengthCheck) [],
    /// Sub-agent invocations (see [`agent_invoked`]).
    agents::Agents(AgentCheck) [agent_invoked, agent_not_invoked],
    /// A sub-agent's response (see [`agent_response`]).
    agent_response::AgentResponse(AgentResponseCheck) [agent_response],
    /// Workflow state (see [`state_is`]).
    workflow::Workflow(WorkflowCheck) [state_is, transitioned_to, workflow_complete],
    /// Guardrails (see [`guardrail_triggered`]).
    guardrail::Guardrail(GuardrailCheck) [guardrail_triggered, guardrail_not_triggered, any_guardrail_triggered, no_guardrail_triggered],
    /// A reply or the tool calls against an accepted snapshot (see [`Text::snapshot`]).
    snapshot::Snapshot(SnapshotCheck) [],
    /// A quality graded by the judge (see [`judge`]).
    judge::Judge(JudgeCheck) [judge, expected_response],
    /// A Rust closure (see [`check`]); cannot be loaded from data.
    custom::Custom(CustomCheck) [check],
}

/// A check together with its options: where it applies, its id, what it depends on, how severe
/// a failure is, and the label reports show.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::check::Severity;
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

/// The options every check takes ([`CheckExt`]'s methods), and those of them whose first
/// argument is text: the macro's vocabulary (`agent_test_vocabulary`) holds them.
#[cfg(test)]
pub(crate) const OPTIONS: &[&str] = &["id", "depends_on", "warning", "severity", "label", "so_far"];
#[cfg(test)]
pub(crate) const OPTION_WORDS: &[agent_test_vocabulary::Word] = &[
    agent_test_vocabulary::Word::new("id", agent_test_vocabulary::Arg::Text),
    agent_test_vocabulary::Word::new("depends_on", agent_test_vocabulary::Arg::Text),
    agent_test_vocabulary::Word::new("label", agent_test_vocabulary::Arg::Text),
];

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
    /// use agent_test::evaluate;
    /// use agent_test::check::{Scope, Status};
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

//! Checks: what the agent must have done, as ordinary Rust values — the check reference.
//!
//! Build checks with functions such as [`reply`], [`tool`], [`no_tools`], [`required_tools`],
//! [`tool_sequence`] or [`check`], refine them with methods, and give them options common to every
//! check through [`CheckExt`] (`.id(..)`, `.depends_on(..)`, `.warning()`). Each check evaluates
//! to an [`Outcome`]; the runtime turns outcomes into [`Verdict`](crate::model::Verdict)s.
//! Everything below is in the prelude (`use agent_test::prelude::*;`), and written after `expect`
//! in `agent_test!`:
//!
//! ```
//! use agent_test::prelude::*;
//! use agent_test::model::{Call, Reply, Transcript, Turn};
//!
//! // What an agent did on one turn (in a test, the run records it).
//! let answer = Reply::text("I found 3 hotels in Madrid.")
//!     .call(Call::tool("search_hotels", json!({"city": "Madrid", "guests": 2})));
//! let transcript = Transcript::new(vec![Turn::new(0, "Hotels in Madrid for two?", answer, 120)]);
//!
//! let verdicts = evaluate(&transcript, &[
//!     tool("search_hotels").arg("city", "Madrid").arg("guests", 2).id("searched"),
//!     reply().matches(r"\d+ hotels").depends_on("searched"),
//!     no_tool("create_booking").into_expectation(),
//!     latency().at_most(Duration::from_secs(5)).into_expectation(),
//! ]);
//! assert!(verdicts.iter().all(|v| v.status == Status::Pass));
//! ```
//!
//! Reply (prose) checks are case-insensitive by default; data checks (arguments, JSON fields)
//! compare exactly. Regexes use Rust `regex` syntax (unanchored, case-sensitive unless `(?i)`). A
//! check in a turn sees that turn; a check after the turns sees the whole conversation.
//!
//! # Never a false pass
//!
//! A check passes only when it saw what it checks:
//!
//! - **Nothing ran**: with no turn at all, every check is an error ("no turn ran"), absence checks
//!   (`no_tools()`, `forbidden_tools([..])`, `no_tool(..)`) included. With turns, an absence check
//!   passes when the thing is absent — that is what it asserts — but not over a turn on which the
//!   agent failed: `no_tool("x")` after the turns is then an error ("cannot confirm an absence:
//!   the agent failed on turn 2: …"), since the agent might have called `x` there.
//! - **Compared nothing**: a check or matcher that would compare nothing is an error
//!   ("compared nothing: …"): an empty text to look for (`contains("")`; `equals("")` does
//!   compare), a regex that matches every text (`x*`, `(a)?`), an empty list
//!   (`required_tools([])`, `forbidden_tools([])`, `tool_sequence([])`, `agent_invoked([])`, a
//!   non-strict `trajectory([])`), an empty name, `at_least(0)`, the schema `{}`, `all_of([])`,
//!   `one_of([])`, `optional(any())`, a `compare_fields` list that compares no field, a JSONPath
//!   `match()`/`search()` with an invalid regex (RFC 9535 makes it false, so `not_exists()` would
//!   pass), a judge without criteria, a length check without a bound (or only `at_least(0)`), an
//!   empty `tool_chain([])`.
//! - **Not measured**: a measurement that was not taken is an error ("not measured: …"): a latency
//!   budget on a turn nobody timed (a trace or recording without a duration), a token budget
//!   without usage (or with a turn without usage, after the turns), an HTTP status on a turn with
//!   none (saying whether the agent is not reached over HTTP or failed), "not triggered" for a
//!   guardrail that did not run, and — after the turns — the final reply (`reply()`, JSON checks,
//!   a judge of the reply) when the agent failed on the final turn.
//! - **Impossible constraints**: a constraint that can never pass is never adjusted:
//!   `.between(5, 1)`, `http_status(1000)`, `agent_invoked(..).min_calls(0)` (which could never
//!   fail), `simulated_user(..).turns(5..=2)`, or a scenario with no step and no check. Written as
//!   literals in `agent_test!` they are compile errors on the literal; computed at run time, the
//!   check is an **error** verdict ("impossible constraint: between(5, 1) can never pass: the
//!   minimum is greater than the maximum"); [`Check::problem`] says it up front.
//!
//! # Reply text
//!
//! | check | passes when |
//! |---|---|
//! | `reply().contains(s)` | the reply contains `s` (case-insensitive) |
//! | `reply().not_contains(s)` | it does not |
//! | `reply().starts_with(s)` / `ends_with(s)` | it starts / ends with `s` (no trimming) |
//! | `reply().equals(s)` | it equals `s` (no trimming: a trailing newline differs) |
//! | `reply().matches(re)` | the regex finds a match |
//! | `reply().not_matches(re)` | it finds none |
//! | `.case_sensitive()` | compare case-sensitively (literal checks) |
//! | `.case_insensitive()` | match case-insensitively (regex checks) |
//! | `.trimmed()` | trim surrounding whitespace from the **actual** text first; the expected text is compared as written (`equals(" done ").trimmed()` can never pass) |
//! | `reply().length().at_least(n)` / `.at_most(n)` / `.between(a, b)` | the text has that many characters (Unicode scalar values); `.in_bytes()` counts UTF-8 bytes, `.trimmed()` trims the actual text first |
//!
//! Text sources: `reply()` is the turn's reply in a turn and the **final** reply after the turns;
//! `replies()` is every agent reply in scope joined with newlines; `conversation()` is every
//! message in scope (user, system and history messages included); `node_output(node, path)` is
//! the output of a workflow node (the last whose name contains `node`) at a dot path.
//!
//! ```
//! use agent_test::prelude::*;
//!
//! let checks = [
//!     reply().contains("refund").into_expectation(),
//!     reply().equals("Done.").case_sensitive().trimmed().into_expectation(),
//!     reply().matches(r"RF-\d{4}").into_expectation(),
//!     replies().not_contains("as an AI").into_expectation(),
//!     reply().length().at_most(400).into_expectation(),
//!     node_output("summarizer", "text").contains("total").into_expectation(),
//! ];
//! # let _ = checks;
//! ```
//!
//! # Tool calls
//!
//! | check | passes when |
//! |---|---|
//! | `tool(name)` | some call of `name` satisfies every constraint below |
//! | `no_tool(name)` | no call of `name` satisfies the constraints (same as `tool(name).never()`) |
//! | `no_tools()` | no tool was called at all |
//! | `.arg(path, expected)` | the argument at a name or dot path (`address.city`, `items.0.sku`) equals a value (JSON equality, numbers by value: `1 == 1.0`, no string/number coercion) or satisfies a [matcher](crate::matcher) |
//! | `.args(json!({..}))` | every field is an `.arg` |
//! | `.arguments(expected)` | the whole argument object equals a value (no other argument) or satisfies a matcher (`contains(..)` on it as compact JSON, `regex(..)`, `matches_schema(..)`) |
//! | `.arg_json_path(q, expected)` / `.result_json_path(q, expected)` | some value the RFC 9535 JSONPath `q` selects in the arguments / the result satisfies `expected`; nothing selected is a missing value (`missing()` passes, `any()` fails) |
//! | `.strict()` | no top-level arguments other than the expected ones |
//! | `.forbid_arg(name)` | the argument is absent |
//! | `.result(expected)` / `.result_at(path, expected)` | the call's result (a failed call's error) satisfies a value or matcher |
//! | `.times(n)` / `.at_least(n)` / `.at_most(n)` / `.between(a, b)` / `.never()` | number of matching calls |
//! | `.at_position(i)` | the call at 0-based position `i` among the tool calls in scope is a matching call of this tool |
//! | `.every_call()` | every call of the tool matches, and there is one (whatever the count allows) |
//! | `.succeeded()` / `.failed()` | count only calls that returned no error / an error (by default every call counts) |
//! | `.failed_with(ToolErrorKind::Validation \| Execution)` / `.succeeded_or_invalid()` | count only calls that failed with that kind of error (arguments refused before the tool ran / the tool ran and failed) / calls that succeeded or were refused in validation |
//! | `.no_error()` | a matching call returned no error (a constraint: with `.every_call()` a failed call is a mismatch, where `.succeeded()` would leave it out) |
//! | `any_tool()` | like `tool(..)`, for tool calls of any name (`any_tool().at_most(5)`, `any_tool().arg("id", regex("^ORD-")).every_call()`) |
//! | `no_tool_errors()` / `.of_tools([..])` / `.of_kind(kind)` | no tool call (of those tools, with that kind of error) failed; each failed call is a violation with its error |
//! | `tool_chain([tool("search").result_json_path("$.hotels[*].id", "H-7"), tool("book").arg("hotel_id", "H-7")])` | the tools were called in this order and each step's call — the **next** call of its tool after the previous step's — meets that step's argument, result and `.no_error()` constraints (a later call does not make up for one that does not) |
//! | `required_tools([..])` | each listed tool was called at least once, any order; one violation per missing tool |
//! | `forbidden_tools([..])` | no listed tool was called; each offending call is reported with its turn and arguments |
//! | `tool_sequence([..])` | the tools were called in this order, other calls allowed in between; a name listed twice needs two calls; "never called" and "out of order" are reported differently |
//!
//! Tool calls nested in workflow nodes count like top-level ones; positions count tool calls
//! depth-first in call order, per turn inside a turn and across the conversation after the turns.
//!
//! ```
//! use agent_test::prelude::*;
//!
//! let checks = [
//!     tool("create_booking")
//!         .arg("hotel_id", "H-101")
//!         .arg("check_in", date("DATE_ADD(TODAY(), 1, 'day')"))
//!         .arg("guests", one_of([1, 2]))
//!         .forbid_arg("payment_card")
//!         .times(1)
//!         .into_expectation(),
//!     tool("process_refund").failed_with(ToolErrorKind::Validation).at_most(1).into_expectation(),
//!     any_tool().at_most(5).into_expectation(),
//!     required_tools(["search_hotels", "create_booking"]).into_expectation(),
//!     tool_sequence(["search_hotels", "create_booking"]).into_expectation(),
//!     no_tool_errors().into_expectation(),
//! ];
//! # let _ = checks;
//! ```
//!
//! # Workflow nodes and sub-agents
//!
//! | check | passes when |
//! |---|---|
//! | `node(name)` | a workflow node (n8n node, pipeline step) ran; takes every option of `tool(..)` (parameters as `.arg`, counts, positions among nodes) |
//! | `node(name).tool(tool(..))` | …and the tool calls made inside it pass the nested check (positions count from 0 inside the node). If the node did not run, every nested check fails too, `no_tool` ones included |
//! | `any_call(name)` | a node or a tool call of that name (Mibo's `node_call` on flat traces) |
//! | `agent_invoked([..])` / `.min_calls(n)` | each sub-agent was invoked at least `n` times: a call named exactly like it, or one of its member tools `a2a__<name>__<tool>` (`agent_invoked(["research_agent"])` is met by `a2a__research_agent__search_papers`) |
//! | `agent_not_invoked([..])` | none was (`agent_not_invoked(["visa_agent"])` fails when `a2a__visa_agent__book` was called); each invocation is reported with its turn, tool and arguments |
//! | `agent_response(name).contains(s)` | some result of that agent's calls (the same rule) contains `s`, case-sensitively |
//! | `.exact_names()` / `.exact_name()` | match exact tool names only (PromptKit's rule, where the names listed are the member tools) |
//!
//! # JSON, protocol and budgets
//!
//! JSON checks read the last turn in scope: the response body when the agent gave one, else the
//! reply text parsed as JSON. `.in_body()`, `.in_reply()`, `.in_code_block()` (the first fenced
//! block of the reply), `.in_text()` (the first JSON object or array embedded in the reply's
//! prose: `Here it is: {"id": 7}. Anything else?`) and `.in_node(name)` (a node's output) choose
//! explicitly. A reply that is not JSON fails JSON checks with an "invalid JSON" reason.
//!
//! | check | passes when |
//! |---|---|
//! | `field(path).is(expected)` | the value at a dot path equals a value or satisfies a matcher (Mibo's `json_match`) |
//! | `field(path).is_not(expected)` | it does not (a missing field passes) |
//! | `field(path).exists()` / `.missing()` | present / absent |
//! | `json_path(q).exists()` / `.not_exists()` | the RFC 9535 JSONPath query selects something / nothing |
//! | `json_path(q).equals(v)` | some selected value equals `v` (no `"42"`/`42` coercion) |
//! | `jmespath(expr).is(expected)` / `.exists()` / `.evaluates()` | the value of the [JMESPath](https://jmespath.org) expression equals `expected` or satisfies a matcher / is not `null` (JMESPath has no "missing") / exists at all: the JSON is valid and the expression evaluates |
//! | `schema(json!({..}))` / `.at(path)` | the JSON (or the value at `path`) is valid against the JSON Schema; each problem is a violation |
//! | `http_status(code)` / `http_success()` | the agent answered with that status / a 2xx (every turn, after the turns); a turn without a status is an error saying why (not reached over HTTP, or the agent failed) |
//! | `latency().at_most(duration)` / `.total()` | each turn (or the sum of the turns) took at most that long; a turn nobody timed (a trace or recording without a duration) is "not measured", an error |
//! | `tokens().total_at_most(n)` / `.input_at_most(n)` / `.output_at_most(n)` | token usage within budget: what the agent reported, else the OpenAI, Anthropic, Gemini, LangChain-Gemini or `meta.tokens` usage found in the body or the AI nodes' outputs (summed across nodes, and across turns after the turns) |
//! | `cost().at_most_usd(x)` | what the agent's tokens cost, priced with the suite's price table (`prices = ..;`), is at most `x` US dollars (per turn, or summed after the turns); no table or a turn whose cost is unknown is *not measured* |
//!
//! ```
//! use agent_test::prelude::*;
//!
//! let checks = [
//!     field("order.status").is("refunded").into_expectation(),
//!     field("order.total").is(predicate(|v| v.as_f64() < Some(100.0)).with_description("under 100")).into_expectation(),
//!     json_path("$.items[?@.sku == 'ABC-1']").exists().into_expectation(),
//!     schema(json!({"type": "object", "required": ["order"]})).in_text().into_expectation(),
//!     http_success().into_expectation(),
//!     tokens().total_at_most(2_000).into_expectation(),
//! ];
//! # let _ = checks;
//! ```
//!
//! # Workflow state and guardrails
//!
//! | check | passes when |
//! |---|---|
//! | `state_is(s)` | the workflow's last reported state is `s` |
//! | `transitioned_to(s)` | the workflow entered `s` at some point in scope |
//! | `workflow_complete()` | the workflow reached a terminal state |
//! | `guardrail_triggered(name)` / `guardrail_not_triggered(name)` | that guardrail fired / did not |
//! | `any_guardrail_triggered()` / `no_guardrail_triggered()` | some / no guardrail fired |
//! | `.or_not_run()` | a "not triggered" check also passes when the guardrail did not run (by default that is "not measured", an error) |
//!
//! An absent workflow state fails the workflow checks; "not triggered" needs the guardrail (or,
//! for `no_guardrail_triggered()`, some guardrail) to have reported a result.
//!
//! # Trajectories
//!
//! `trajectory([tool_call("lookup_order").arg("order_id", "ORD-1"), tool_call("process_refund")])`
//! compares the tool calls in scope with a reference: in order with gaps allowed (default),
//! `.strict()` (exactly, in order), `.unordered()` (same multiset), `.subset()` (every call is in
//! the reference), `.superset()` (every reference call was made). Arguments:
//! `.args_mode(ArgsMode::Superset | Exact | Subset | Ignore)` (default `Superset`: the expected
//! arguments must match, extras allowed), per tool `.args_mode_for(tool, mode)`,
//! `.compare_fields(tool, [..])` (names or dot paths into nested arguments, `address.city`, each
//! of which every reference call of the tool must give) or
//! `.compare_with(tool, |expected, actual| ..)`. Matching is a maximum one-to-one assignment, so a
//! permissive reference call (`any()`) never takes the call a stricter one needed. An empty
//! reference requires no call with `.strict()`, `.unordered()` or `.subset()`; in the other modes
//! it compares nothing (an error), as does an override for a tool the reference does not call.
//!
//! `.strict()` compares **model steps** (agentevals): the calls one model response made (parallel
//! calls) are one step, the steps must line up, and the calls of a step match in any order within
//! it. `tool_call("b").parallel()` puts a reference call in the same step as the one before it.
//! Which calls came from one response is recorded from OpenAI chat, Anthropic, Gemini and
//! LangChain messages, the Responses API and the chat agent (`Call::step`); a call whose step is
//! unknown is a step of its own, and a reference with parallel calls against such calls is "not
//! measured", an error.
//!
//! ```
//! use agent_test::prelude::*;
//!
//! let refund = trajectory([
//!     tool_call("lookup_order").arg("order_id", "ORD-1"),
//!     tool_call("process_refund"),
//! ])
//! .args_mode(ArgsMode::Exact)
//! .args_mode_for("process_refund", ArgsMode::Ignore);
//!
//! let weather = trajectory([
//!     tool_call("weather").arg("city", "Paris"),
//!     tool_call("weather").arg("city", "Rome").parallel(),
//!     tool_call("summarize"),
//! ])
//! .strict();
//! # let _ = (refund, weather);
//! ```
//!
//! # Judged qualities (semantic checks)
//!
//! | check | passes when |
//! |---|---|
//! | `judge("criteria")` | the judge scores the reply in scope (the turn's, or the final one after the turns) against the criteria at least `.threshold(t)` (default 0.8, `0..=1`; a literal outside is a compile error) |
//! | `.hallucination()` | …grading instead whether every claim is supported by the conversation and the tool results (Mibo's `hallucination_check`) |
//! | `.must_not([..])` | negative constraints: doing any of them scores 0 |
//! | `.on_transcript()` / `.on_node(node, output_key)` | grade the whole conversation in scope (Lamdis `scope: transcript`) / a workflow node's output at a key (Mibo's `target_node` + `output_key`; a node that did not run fails without asking the judge) |
//! | `.with_tool_sequence()` / `.with_tool_results()` / `.without_prompt()` | what the judge is shown besides the text: the tools called, their arguments and results, and (by default) the user's message |
//! | `expected_response("...")` / `.expected_response(..)` | the reply conveys the same facts and outcome as a reference answer (MorganaBench) |
//!
//! ```
//! use agent_test::prelude::*;
//!
//! let checks = [
//!     judge("confirms the refund and gives its reference").threshold(0.85).into_expectation(),
//!     judge("stays polite").must_not(["promise a refund before the order is found"]).on_transcript().into_expectation(),
//!     judge("every claim is supported").hallucination().with_tool_results().into_expectation(),
//!     expected_response("Your refund RF-1 of €42.50 is on its way.").into_expectation(),
//! ];
//! # let _ = checks;
//! ```
//!
//! The judge is configured once per suite — `judge = Judge::openai("gpt-4o-mini-2024-07-18");`,
//! `Judge::anthropic(..)`, `Judge::new(my_model)`, or `Judge::from_env()` — or by the environment
//! alone (`AGENT_TEST_JUDGE_MODEL`, `AGENT_TEST_JUDGE_PROVIDER=openai|anthropic`,
//! `AGENT_TEST_JUDGE_BASE_URL`, `AGENT_TEST_JUDGE_API_KEY`, else `OPENAI_*` / `ANTHROPIC_*`). It
//! works with any OpenAI-compatible server (OpenAI, Ollama, vLLM, llama.cpp) and Anthropic's
//! Messages API, at temperature 0 with a pinned model.
//!
//! - **One request per scenario run**: every judge check of the run is graded in one batched
//!   request; results are matched to checks by id, and a missing result is asked for again, alone.
//! - **Strict verdicts**: each result is `{score 0..1, pass, reasoning}`, requested with the
//!   provider's structured output (`json_schema`, or a forced tool call on Anthropic), validated,
//!   and retried with exponential backoff on malformed output, 429 and 5xx (honouring
//!   `Retry-After`) and timeouts. Malformed after the retries, missing, or no judge configured is an
//!   **error** verdict with the reason — never a pass — and every other check is still evaluated.
//! - **Cached and replayable**: verdicts are cached under `target/agent-test/judge-cache`
//!   (`.cache_dir(..)` or `AGENT_TEST_JUDGE_CACHE`), keyed by model, instructions, check, the
//!   material judged and the repeat index, so a re-run over the same transcript makes no request.
//!   `.mode(JudgeMode::Replay)` — or `AGENT_TEST_JUDGE_MODE=replay`, which wins over the code —
//!   answers only from the cache (CI): a miss is an error and nothing goes over the network;
//!   `Refresh` re-asks everything; `Off` disables the cache. Cached entries are validated like
//!   live answers: an edited or broken one (a score of 5, a missing field) is asked again when
//!   live and an error naming the file in replay. A cache that cannot be written is a note in the
//!   report, not a failure.
//! - **A judge that is down costs at most one timeout, not every scenario's timeouts**: the
//!   timeout (60 s) and retries (2) are set with `.timeout(..)` / `.retries(n)`, else
//!   `AGENT_TEST_JUDGE_TIMEOUT` (seconds) / `AGENT_TEST_JUDGE_RETRIES` (a value that cannot be
//!   read is an error, never ignored), and `agent-test --judge-timeout` / `--judge-retries`. An
//!   endpoint that cannot be connected to (refused, unknown host, no connection within 10 s), or
//!   that leaves two attempts in a row without an answer, is not asked again in that process: the
//!   remaining judge checks of every scenario are errors at once, `judge unreachable: …`.
//! - **Cost**: the report shows the judge's requests, cached checks, tokens and — with
//!   `.price_per_million_tokens(input, output)` — its cost, apart from the agent's usage.
//!
//! Semantic matchers (`free_text`, `date_time`) — in tool arguments and results, reference calls
//! of trajectories and JSON fields — are graded in the same request as the judge checks. A
//! `date_time` grade depends on the run's "now", so pin the clock (`clock = Clock::fixed(..);`) to
//! replay it from the cache. How to test a suite's judged checks offline (a scripted judge, a
//! fake endpoint, recordings replayed in CI) is shown in the repository's `docs/testing.md`.
//!
//! # Options of every check
//!
//! | option | effect |
//! |---|---|
//! | `.id("name")` | names the check so others can depend on it |
//! | `.depends_on("name")` | evaluated only if that check passed; otherwise reported as **skipped** (not failed) |
//! | `.warning()` | a failure is reported (⚠) but does not fail the test |
//! | `.severity(Severity::Warning)` | the same, as a value |
//! | `.label("text")` | what reports call the check (default: the source text you wrote) |
//! | `.so_far()` | in a turn, the check sees every turn up to and including it, not that turn alone |
//!
//! Options turn the check into an [`Expectation`], so write them after the check's own methods.
//!
//! # Custom checks
//!
//! `check("label", |cx| ...)` runs a closure over the scoped transcript (`cx.reply()`,
//! `cx.replies()`, `cx.tool_calls()`, `cx.turns()`, `cx.env()`); it returns `bool`,
//! `Result<(), impl Display>` (the error is the failure reason) or an [`Outcome`] with details.
//!
//! ```
//! use agent_test::prelude::*;
//!
//! let short_turns = check("every turn answers in under 2 s", |cx| {
//!     cx.turns().iter().all(|t| t.latency_ms.is_some_and(|ms| ms < 2_000))
//! });
//! let one_refund = check("at most one refund call", |cx| {
//!     let n = cx.tool_calls().iter().filter(|c| c.name == "process_refund").count();
//!     if n <= 1 { Ok(()) } else { Err(format!("{n} refund calls")) }
//! });
//! # let _ = (short_turns, one_refund);
//! ```

mod agents;
mod arg_constraint;
mod args_mode;
mod call_filter;
mod chain;
mod context;
mod cost;
mod count;
mod custom;
mod expected_call;
pub(crate) mod gated;
mod jmespath;
mod json;
mod json_source;
mod judge;
mod length;
mod protocol;
mod sequence;
mod structured_output;
mod text;
mod tool;
mod tool_errors;
mod tool_eval;
mod tool_list;
mod tool_set;
mod trajectory;
mod workflow;

pub use agents::{
    AgentCheck, AgentResponse, AgentResponseCheck, agent_invoked, agent_not_invoked, agent_response,
};
pub use args_mode::{ArgsMode, ArgsOverride};
pub use chain::{ToolChain, tool_chain};
pub use cost::{CostCheck, cost};
pub use expected_call::{ExpectedCall, tool_call};
pub(crate) use jmespath::search as jmespath_search;
pub use jmespath::{JmesPath, JmesPathCheck, jmespath};
pub use json::{
    Field, FieldCheck, JsonPath, JsonPathCheck, JsonPathExpect, SchemaCheck, field, json_path,
    schema,
};
pub use json_source::{JsonSource, JsonSourceOptions};
pub use judge::{JudgeCheck, expected_response, judge};
pub use length::{Length, LengthCheck, LengthUnit};
pub use protocol::{
    Latency, LatencyCheck, StatusCheck, TokenCheck, http_status, http_success, latency, tokens,
};
pub use tool_errors::{NoToolErrors, no_tool_errors};
pub use trajectory::{TrajectoryCheck, TrajectoryMode, trajectory};
pub use workflow::{
    GuardrailCheck, WorkflowCheck, WorkflowExpect, any_guardrail_triggered,
    guardrail_not_triggered, guardrail_triggered, no_guardrail_triggered, state_is,
    transitioned_to, workflow_complete,
};

pub use crate::model::outcome::{Details, IntoOutcome, Outcome, Status, Violation};
pub use crate::model::scope::{Scope, Severity};
pub use crate::path::FieldPath;
pub use arg_constraint::ArgConstraint;
pub use call_filter::CallFilter;
pub use context::{EvalContext, Target};
pub(crate) use context::{ReplyJson, TranscriptIndex};
pub use count::Count;
pub use custom::{CustomCheck, check};
pub use sequence::{ToolSequence, tool_sequence};
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

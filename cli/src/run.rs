//! `agent-test run`: each scenario driven against a live agent, several at a time.

use std::io::Write;
use std::sync::Arc;

use agent_test_runtime::agent::{Agent, ChatAgent, HttpAgent, McpAgent, McpServer};
use agent_test_runtime::judge::Judge;
use agent_test_runtime::scenario::{RunScenario, Scenario};
use agent_test_runtime::trace::OtlpReceiver;
use agent_test_runtime::{Clock, Suite};
use futures_util::StreamExt;
use serde_json::Value;

use crate::args::{RunArgs, split_header};
use crate::output::{Kept, RunResult, Sink};

/// Text given inline or as `@file`.
fn inline_or_file(s: &str, what: &str) -> Result<String, String> {
    match s.strip_prefix('@') {
        Some(path) => {
            std::fs::read_to_string(path).map_err(|e| format!("{what}: cannot read {path}: {e}"))
        }
        None => Ok(s.to_owned()),
    }
}

/// JSON given inline or as `@file`, read as every input is (a repeated key is an error, a
/// byte order mark is skipped); errors name the option, and the file.
fn json_arg(s: &str, what: &str) -> Result<Value, String> {
    let text = inline_or_file(s, what)?;
    let source = match s.strip_prefix('@') {
        Some(path) => format!("{what} {path}"),
        None => what.to_owned(),
    };
    agent_test_runtime::load::load_json(source, &text).map_err(|e| e.to_string())
}

/// The agent the command line describes, built once: each scenario runs with its own copy
/// (an HTTP agent's clone starts a new session on the same connection pool; a chat agent has
/// no state between conversations and is shared).
pub(crate) enum AgentTemplate {
    /// An HTTP agent, and the OTLP receiver its spans go to (`--otlp`).
    Http(Box<HttpAgent>, Option<OtlpReceiver>),
    /// A chat model with mocked tools and the tools of MCP servers (started once per
    /// scenario: a conversation's MCP sessions are its own).
    Chat(Box<ChatSpec>),
    /// An MCP server under test.
    Mcp(McpServer),
}

impl AgentTemplate {
    /// The agent for the next scenario.
    fn next(&self) -> Arc<dyn Agent> {
        match self {
            AgentTemplate::Http(a, _) => Arc::new(HttpAgent::clone(a)),
            AgentTemplate::Chat(spec) => Arc::new(spec.build()),
            AgentTemplate::Mcp(server) => Arc::new(McpAgent::new(server.clone())),
        }
    }

    /// Reads the agent's options (and the files they name); `Err` is a message for the user.
    pub(crate) fn new(args: &RunArgs) -> Result<Self, String> {
        let timeout = args.timeout;
        if let Some(url) = &args.http.http {
            let h = &args.http;
            let mut a = HttpAgent::post(url.clone()).timeout(timeout);
            if let Some(m) = &h.method {
                a = a.method(m);
            }
            for (k, v) in &h.headers {
                a = a.header(k.clone(), v.clone());
            }
            for header in &h.secret_headers {
                let (k, v) = split_header(header).ok_or(
                    "--secret-header: a header is `Name: value` (the value given has no name; it \
                     is not shown, being secret)",
                )?;
                a = a.secret_header(k, v);
            }
            if let Some(var) = &h.bearer_env {
                let token = std::env::var(var).map_err(|_| {
                    format!("--bearer-env: the environment variable {var} is not set")
                })?;
                a = a.bearer_token(token);
            }
            if let Some(t) = &h.template {
                a = a.body_template(json_arg(t, "--template")?);
            }
            if let Some(p) = &h.session_from {
                a = a.session_id_from(p.clone());
            }
            if let Some(p) = &h.reply_at {
                a = a.reply_at(p.clone());
            }
            if let Some(p) = &h.calls_at {
                a = a.tool_calls_at(p.clone());
            }
            if let Some(f) = h.trace_format {
                a = a.trace_format(f);
            }
            if h.lossy_utf8 {
                a = a.lossy_utf8();
            }
            if let Some(addr) = &h.otlp {
                let receiver = OtlpReceiver::bind(addr.as_str())
                    .map_err(|e| format!("--otlp: cannot listen at {addr}: {e}"))?;
                eprintln!(
                    "agent-test: receiving spans at {} (OTEL_EXPORTER_OTLP_ENDPOINT)",
                    receiver.endpoint()
                );
                a = a.traces_from(&receiver);
                if let Some(wait) = h.trace_wait {
                    a = a.trace_wait(wait);
                }
                return Ok(AgentTemplate::Http(Box::new(a), Some(receiver)));
            }
            return Ok(AgentTemplate::Http(Box::new(a), None));
        }
        let o = &args.openai;
        if let Some(server) = &o.mcp_server {
            return Ok(AgentTemplate::Mcp(mcp_settings(server, args)));
        }
        // Read the files once; each scenario builds its agent from them.
        Ok(AgentTemplate::Chat(Box::new(ChatSpec::read(args)?)))
    }
}

/// A server with the command line's MCP settings: its request timeout (`--mcp-timeout`, else
/// the turn's `--timeout`), its message limit, and the answers it gets to its own requests
/// (roots, sampling, elicitation).
fn mcp_settings(server: &McpServer, args: &RunArgs) -> McpServer {
    let o = &args.openai;
    let mut server = server
        .clone()
        .timeout(o.mcp_timeout.unwrap_or(args.timeout));
    if let Some(n) = o.mcp_max_message {
        server = server.max_message_bytes(n);
    }
    if !o.mcp_roots.is_empty() {
        server = server.roots(o.mcp_roots.iter().cloned());
    }
    if let Some(text) = &o.mcp_sampling_reply {
        server = server.sampling_reply(text.clone());
    }
    if let Some(answer) = &o.mcp_elicitation {
        server = server.elicitation(answer.clone());
    }
    server
}

/// Two `--mcp` servers with one name cannot be told apart (their calls would nest under one
/// node): said in the command line's terms.
fn distinct_names(servers: &[McpServer]) -> Result<(), String> {
    for (i, server) in servers.iter().enumerate() {
        if let Some(first) = servers.iter().take(i).find(|s| s.name() == server.name()) {
            return Err(format!(
                "--mcp: two servers are named `{}` ({first:?} and {server:?}): name them, \
                 `--mcp NAME=stdio:COMMAND ...` or `--mcp NAME=URL`",
                server.name()
            ));
        }
    }
    Ok(())
}

/// What `--openai` and its options say, read once.
pub(crate) struct ChatSpec {
    model: String,
    timeout: std::time::Duration,
    base_url: Option<String>,
    system: Option<String>,
    tools: Vec<(String, String, Value)>,
    mocks: Vec<(String, Value)>,
    max_steps: Option<u16>,
    mcp: Vec<McpServer>,
}

impl ChatSpec {
    fn read(args: &RunArgs) -> Result<Self, String> {
        let o = &args.openai;
        distinct_names(&o.mcp)?;
        let model = o
            .openai
            .clone()
            .ok_or("`agent-test run` needs an agent: --http <URL>, --openai <MODEL> or --mcp-server <SERVER>")?;
        let system = o
            .system
            .as_ref()
            .map(|s| inline_or_file(s, "--system"))
            .transpose()?;
        let mut tools = Vec::new();
        if let Some(t) = &o.tools {
            let defs = json_arg(t, "--tools")?;
            let defs = defs
                .as_array()
                .ok_or("--tools: expected an array of tool definitions")?;
            for (i, d) in defs.iter().enumerate() {
                let f = d.get("function").unwrap_or(d);
                let name = f
                    .get("name")
                    .and_then(Value::as_str)
                    .ok_or_else(|| format!("--tools: at [{i}]: expected a tool name"))?;
                let description = f
                    .get("description")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                let parameters = f
                    .get("parameters")
                    .cloned()
                    .unwrap_or(serde_json::json!({"type": "object"}));
                tools.push((name.to_owned(), description.to_owned(), parameters));
            }
        }
        let mut mocks = Vec::new();
        if let Some(m) = &o.mocks {
            let parsed = json_arg(m, "--mocks")?;
            let parsed = parsed
                .as_object()
                .ok_or("--mocks: expected an object {\"tool\": result, ...}")?;
            mocks.extend(parsed.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
        Ok(ChatSpec {
            model,
            timeout: args.timeout,
            base_url: o.base_url.clone(),
            system,
            tools,
            mocks,
            max_steps: o.max_steps,
            mcp: o.mcp.iter().map(|s| mcp_settings(s, args)).collect(),
        })
    }

    fn build(&self) -> ChatAgent {
        let mut a = ChatAgent::new(self.model.clone()).timeout(self.timeout);
        if let Some(u) = &self.base_url {
            a = a.base_url(u.clone());
        }
        if let Some(s) = &self.system {
            a = a.system(s.clone());
        }
        for (name, description, parameters) in &self.tools {
            a = a.tool(name.clone(), description.clone(), parameters.clone());
        }
        for (tool, result) in &self.mocks {
            a = a.mock(tool.clone(), result.clone());
        }
        if let Some(n) = self.max_steps {
            a = a.max_steps(usize::from(n));
        }
        for server in &self.mcp {
            a = a.mcp(server.clone());
        }
        a
    }
}

/// A run of scenarios against a live agent, ready to go.
pub(crate) struct LiveRun<'a> {
    args: &'a RunArgs,
    scenarios: Vec<Scenario>,
    agent: AgentTemplate,
    judge: Option<Judge>,
    prices: Option<agent_test_runtime::report::prices::Prices>,
    /// `--max-cost`: one budget for every run.
    budget: Option<agent_test_runtime::Budget>,
    jobs: usize,
}

/// How many scenarios run at once when `--jobs` is not given: agents are mostly waited for,
/// but a live agent (or its rate limit) should not be flooded by default.
const DEFAULT_LIVE_JOBS: usize = 4;

impl<'a> LiveRun<'a> {
    /// Picks the scenarios of the tags and of the shard; a tag no scenario has is an error
    /// (a filter that selects nothing would pass having run nothing).
    pub(crate) fn prepare(
        args: &'a RunArgs,
        agent: AgentTemplate,
        mut scenarios: Vec<Scenario>,
    ) -> Result<Self, String> {
        if scenarios.is_empty() {
            // A suite of nothing would "pass" having run nothing.
            return Err("--scenarios: the files hold no scenario".into());
        }
        if !args.tags.is_empty() {
            if let Some(p) = agent_test_runtime::ScenarioInfo::tags_problem(&args.tags) {
                return Err(format!("--tag: {p}"));
            }
            let unknown: Vec<&str> = args
                .tags
                .iter()
                .filter(|t| !scenarios.iter().any(|s| s.tags.contains(t)))
                .map(String::as_str)
                .collect();
            if !unknown.is_empty() {
                let mut known: Vec<&str> = scenarios
                    .iter()
                    .flat_map(|s| s.tags.iter().map(String::as_str))
                    .collect();
                known.sort_unstable();
                known.dedup();
                return Err(format!(
                    "--tag: no scenario has the tag{} `{}` (the scenarios' tags: {})",
                    if unknown.len() == 1 { "" } else { "s" },
                    unknown.join("`, `"),
                    if known.is_empty() {
                        "none".to_owned()
                    } else {
                        known.join(", ")
                    }
                ));
            }
            scenarios.retain(|s| s.tags.iter().any(|t| args.tags.contains(t)));
        }
        if let Some(shard) = args.work.shard {
            scenarios.retain(|s| shard.holds(&s.name));
        }
        // A plan the runs can never meet is refused before anything runs.
        if let Some(p) = repeat_plan(&args.repeats, Suite::new()).repeat_problem() {
            return Err(format!("the repeat options: {p}"));
        }
        Ok(LiveRun {
            agent,
            // One judge for every scenario, with the command line's settings.
            judge: crate::judge(&args.judge),
            prices: args.pricing.load()?,
            budget: args.max_cost.map(agent_test_runtime::Budget::usd),
            jobs: args.work.jobs.map_or(DEFAULT_LIVE_JOBS, usize::from),
            args,
            scenarios,
        })
    }

    /// How many scenarios it runs.
    pub(crate) fn len(&self) -> usize {
        self.scenarios.len()
    }

    /// Runs the scenarios, `--jobs` at a time on one thread (agents are waited for, not
    /// computed), writing each result to `sink` in the order of the scenarios.
    pub(crate) fn execute<W: Write>(self, sink: &mut Sink<W>) -> std::io::Result<()> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let this = &self;
        let interrupted = runtime.block_on(async {
            let work = async {
                let mut runs = futures_util::stream::iter(this.scenarios.iter().enumerate())
                    .map(|(i, scenario)| async move { (i, this.run_one(scenario).await) })
                    .buffer_unordered(this.jobs);
                while let Some((i, result)) = runs.next().await {
                    sink.push(i, result)?;
                }
                Ok::<bool, std::io::Error>(false)
            };
            // Ctrl-C drops the runs in flight — their agents, and with them the MCP servers
            // they started, ended as the MCP stdio transport says — before the command exits.
            tokio::select! {
                done = work => done,
                _ = tokio::signal::ctrl_c() => Ok(true),
            }
        })?;
        if interrupted {
            eprintln!("agent-test: interrupted; the runs in flight were stopped");
            std::process::exit(130);
        }
        // What the receiver got that no turn claimed, or refused: said, never dropped.
        if let AgentTemplate::Http(_, Some(receiver)) = &self.agent {
            for u in receiver.unclaimed() {
                eprintln!(
                    "agent-test: spans that belong to no turn (trace {}): {}",
                    u.trace_id,
                    u.spans.join(", ")
                );
            }
            for p in receiver.problems() {
                eprintln!("agent-test: {p}");
            }
        }
        Ok(())
    }

    async fn run_one(&self, scenario: &Scenario) -> RunResult {
        let args = self.args;
        // Each run of a repeated scenario gets a suite, and an agent, of its own.
        let report = scenario.run_fresh(|| self.suite()).await;
        RunResult {
            source: report
                .json_path
                .as_ref()
                .map_or_else(|| scenario.name.clone(), |p| p.display().to_string()),
            scenario: scenario.name.clone(),
            outcome: Ok(Kept::of(&report, args.output.format, true)),
        }
    }

    /// A run's suite: a fresh agent, and the command line's settings.
    fn suite(&self) -> Suite {
        let args = self.args;
        let mut suite = repeat_plan(
            &args.repeats,
            Suite::new().agent(self.agent.next()).timeout(args.timeout),
        );
        if let Some(j) = &self.judge {
            suite = suite.judge(j.clone());
        }
        if let Some(p) = &self.prices {
            suite = suite.prices(p.clone());
        }
        if let Some(b) = &self.budget {
            suite = suite.budget(b.clone());
        }
        if let Some(c) = &args.clock {
            suite = suite.clock(Clock::fixed(c.clone()));
        }
        if let Some(tz) = &args.timezone {
            suite = suite.timezone(tz.clone());
        }
        if let Some(dir) = &args.record_dir {
            suite = suite.report_dir_over_env(dir.clone());
        }
        suite
    }
}

/// `suite` with the command line's repeat plan.
fn repeat_plan(r: &crate::args::RepeatOptions, mut suite: Suite) -> Suite {
    if let Some(times) = r.repeat {
        suite = suite.repeat(times);
    }
    if let Some(most) = r.repeat_up_to {
        suite = suite.repeat(agent_test_runtime::up_to(most));
    }
    if let Some(runs) = r.min_passes {
        suite = suite.min_passes(runs);
    }
    if let Some(gate) = r.min_pass_rate {
        suite = suite.min_pass_rate(gate);
    }
    suite
}

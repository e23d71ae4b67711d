//! What `agent-test run` takes: its agent (an HTTP endpoint, or an OpenAI-compatible chat model
//! with mocked tools and MCP servers), its repeats and its spend limit — and the values they
//! take (headers, roots, elicitation answers, sizes, rates, dollars), each checked where it is
//! read.

use std::path::PathBuf;
use std::time::Duration;

use agent_test_runtime::agent::{Elicitation, McpServer};
use agent_test_runtime::trace::TraceFormat;
use clap::Args;

use super::{Inputs, JudgeOptions, Output, Pricing, Work, mcp_server, seconds, trace_formats};

/// `agent-test run`.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("agent").required(true).args(["http", "openai", "mcp_server"])))]
pub(crate) struct RunArgs {
    #[command(flatten)]
    pub(crate) inputs: Inputs,
    #[command(flatten)]
    pub(crate) http: HttpOptions,
    #[command(flatten)]
    pub(crate) openai: OpenAiOptions,
    /// How long a turn may take, in seconds.
    #[arg(long, value_name = "SECONDS", value_parser = seconds, default_value = "120")]
    pub(crate) timeout: Duration,
    /// Pin "now" for dates (RFC 3339).
    #[arg(long, value_name = "RFC3339")]
    pub(crate) clock: Option<String>,
    /// The time zone for dates (default UTC).
    #[arg(long, value_name = "TZ")]
    pub(crate) timezone: Option<String>,
    /// Where each run's JSON report (a recording `eval` can read) goes; wins over
    /// $AGENT_TEST_REPORT_DIR, as every option wins over the environment.
    #[arg(long, value_name = "DIR")]
    pub(crate) record_dir: Option<PathBuf>,
    /// Only the scenarios with this tag (repeatable, or comma-separated: any of them). A tag no
    /// scenario has is an error.
    #[arg(long = "tag", value_name = "TAG", value_delimiter = ',')]
    pub(crate) tags: Vec<String>,
    #[command(flatten)]
    pub(crate) work: Work,
    #[command(flatten)]
    pub(crate) repeats: RepeatOptions,
    /// Stop spending at USD US dollars: once the agent's turns, priced with --prices, cost that
    /// much, no further turn or run starts, and every scenario with a turn left reports
    /// "budget spent" (exit status 1).
    #[arg(long, value_name = "USD", value_parser = max_cost, requires = "prices")]
    pub(crate) max_cost: Option<f64>,
    #[command(flatten)]
    pub(crate) judge: JudgeOptions,
    #[command(flatten)]
    pub(crate) pricing: Pricing,
    #[command(flatten)]
    pub(crate) output: Output,
}

/// Repeated runs of each scenario, as reliability: a scenario file's own `repeat`,
/// `min_passes` and `min_pass_rate` win over these.
#[derive(Debug, Args)]
pub(crate) struct RepeatOptions {
    /// Run each scenario N times, each run with a fresh agent and conversation: the report
    /// gives the pass rate with its interval, pass^k and pass@k, and each check's tally.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..), help_heading = "Repeats")]
    pub(crate) repeat: Option<u32>,
    /// Run each scenario up to N times, stopping as soon as the runs decide its gate
    /// (--min-pass-rate, or --min-passes): the report says how many runs it took.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..), conflicts_with = "repeat", help_heading = "Repeats")]
    pub(crate) repeat_up_to: Option<u32>,
    /// How many of the runs must pass (default: all, unless --min-pass-rate decides).
    #[arg(long, value_name = "M", value_parser = clap::value_parser!(u32).range(1..), help_heading = "Repeats")]
    pub(crate) min_passes: Option<u32>,
    /// The pass rate the runs must show: the lower bound of its Wilson interval at
    /// confidence C (default 0.95) must reach R, e.g. 0.9 or 0.9@0.99.
    #[arg(long, value_name = "R[@C]", value_parser = min_pass_rate, help_heading = "Repeats")]
    pub(crate) min_pass_rate: Option<agent_test_runtime::report::reliability::MinPassRate>,
}

/// `R` or `R@C`: a pass rate, and its confidence.
fn min_pass_rate(s: &str) -> Result<agent_test_runtime::report::reliability::MinPassRate, String> {
    use agent_test_runtime::report::reliability::MinPassRate;
    let number = |t: &str, what: &str| {
        t.trim()
            .parse::<f64>()
            .map_err(|_| format!("`{t}` is not a {what}: write R or R@C, like 0.9 or 0.9@0.99"))
    };
    let gate = match s.split_once('@') {
        Some((rate, confidence)) => MinPassRate::from((
            number(rate, "pass rate")?,
            number(confidence, "confidence")?,
        )),
        None => MinPassRate::from(number(s, "pass rate")?),
    };
    match gate.problem() {
        Some(p) => Err(p),
        None => Ok(gate),
    }
}

/// An agent behind an HTTP endpoint.
#[derive(Debug, Args)]
pub(crate) struct HttpOptions {
    /// An HTTP agent: each turn is a request to this URL.
    #[arg(long, value_name = "URL", help_heading = "HTTP agent")]
    pub(crate) http: Option<String>,
    /// Another HTTP method than POST.
    #[arg(
        long,
        value_name = "METHOD",
        conflicts_with = "openai",
        help_heading = "HTTP agent"
    )]
    pub(crate) method: Option<String>,
    /// A header, `Name: value` (repeatable).
    #[arg(long = "header", value_name = "NAME: VALUE", conflicts_with = "openai", value_parser = header, help_heading = "HTTP agent")]
    pub(crate) headers: Vec<(String, String)>,
    /// A header whose value is never printed (repeatable).
    // Read as text and checked after parsing: clap would quote a refused value, secret or not.
    #[arg(
        long = "secret-header",
        value_name = "NAME: VALUE",
        conflicts_with = "openai",
        help_heading = "HTTP agent"
    )]
    pub(crate) secret_headers: Vec<String>,
    /// Send the environment variable VAR as a bearer token.
    #[arg(
        long,
        value_name = "VAR",
        conflicts_with = "openai",
        help_heading = "HTTP agent"
    )]
    pub(crate) bearer_env: Option<String>,
    /// The request body template ({input}, {messages}, {context}, ...), as JSON or @FILE.
    #[arg(
        long,
        value_name = "JSON|@FILE",
        conflicts_with = "openai",
        help_heading = "HTTP agent"
    )]
    pub(crate) template: Option<String>,
    /// Read a session id at this path of responses.
    #[arg(
        long,
        value_name = "PATH",
        conflicts_with = "openai",
        help_heading = "HTTP agent"
    )]
    pub(crate) session_from: Option<String>,
    /// The reply text's path in responses.
    #[arg(
        long,
        value_name = "PATH",
        conflicts_with = "openai",
        help_heading = "HTTP agent"
    )]
    pub(crate) reply_at: Option<String>,
    /// The tool calls' path in responses.
    #[arg(
        long,
        value_name = "PATH",
        conflicts_with = "openai",
        help_heading = "HTTP agent"
    )]
    pub(crate) calls_at: Option<String>,
    /// Read responses as this trace format.
    #[arg(long, value_name = "FORMAT", conflicts_with = "openai", value_parser = trace_formats(), help_heading = "HTTP agent")]
    pub(crate) trace_format: Option<TraceFormat>,
    /// Read bodies that are not UTF-8 anyway (else an agent error).
    #[arg(long, conflicts_with = "openai", help_heading = "HTTP agent")]
    pub(crate) lossy_utf8: bool,
    /// Read the agent's tool calls from the OpenTelemetry spans it exports: an OTLP/HTTP
    /// receiver listens at ADDR (default 127.0.0.1:4318; give the agent
    /// OTEL_EXPORTER_OTLP_ENDPOINT=http://ADDR), and each request carries a `traceparent`.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "127.0.0.1:4318", conflicts_with = "openai", help_heading = "HTTP agent")]
    pub(crate) otlp: Option<String>,
    /// How long a turn waits for its spans after the answer, in seconds (default 2).
    #[arg(long, value_name = "SECONDS", value_parser = seconds, requires = "otlp", help_heading = "HTTP agent")]
    pub(crate) trace_wait: Option<Duration>,
}

/// An OpenAI-compatible chat model with mocked tools.
#[derive(Debug, Args)]
pub(crate) struct OpenAiOptions {
    /// An OpenAI-compatible chat model with mocked tools.
    #[arg(long, value_name = "MODEL", help_heading = "OpenAI-compatible model")]
    pub(crate) openai: Option<String>,
    /// The endpoint (default: $AGENT_TEST_BASE_URL, $OPENAI_BASE_URL).
    #[arg(
        long,
        value_name = "URL",
        conflicts_with = "http",
        help_heading = "OpenAI-compatible model"
    )]
    pub(crate) base_url: Option<String>,
    /// The system prompt, as text or @FILE.
    #[arg(
        long,
        value_name = "TEXT|@FILE",
        conflicts_with = "http",
        help_heading = "OpenAI-compatible model"
    )]
    pub(crate) system: Option<String>,
    /// Tool definitions (OpenAI format), as JSON or @FILE.
    #[arg(
        long,
        value_name = "JSON|@FILE",
        conflicts_with = "http",
        help_heading = "OpenAI-compatible model"
    )]
    pub(crate) tools: Option<String>,
    /// Mocked tool results, {"tool_name": result, ...}, as JSON or @FILE.
    #[arg(
        long,
        value_name = "JSON|@FILE",
        conflicts_with = "http",
        help_heading = "OpenAI-compatible model"
    )]
    pub(crate) mocks: Option<String>,
    /// Model calls per turn (default 8).
    #[arg(long, value_name = "N", conflicts_with = "http", value_parser = clap::value_parser!(u16).range(1..=1000), help_heading = "OpenAI-compatible model")]
    pub(crate) max_steps: Option<u16>,
    /// Offer the model the tools of an MCP server: `[NAME=]stdio:COMMAND ARGS...` (split as a
    /// shell splits, quotes kept) or `[NAME=]URL` (repeatable; name servers started with the
    /// same command).
    #[arg(long = "mcp", value_name = "SERVER", requires = "openai", value_parser = mcp_server, help_heading = "OpenAI-compatible model")]
    pub(crate) mcp: Vec<McpServer>,
    /// Test an MCP server itself, without a model: each turn is an MCP request (a user step's
    /// body `{"mcp": "tools/call", "name": ..., "arguments": {...}}`, or `tools/list`,
    /// `resources/read`, `prompts/get`). `stdio:COMMAND ARGS...` or an http(s) URL.
    #[arg(long, value_name = "SERVER", value_parser = mcp_server, help_heading = "MCP server under test")]
    pub(crate) mcp_server: Option<McpServer>,
    /// How long an MCP server may take to start and to answer each request, in seconds
    /// (default: --timeout).
    #[arg(long, value_name = "SECONDS", value_parser = seconds, help_heading = "MCP servers")]
    pub(crate) mcp_timeout: Option<Duration>,
    /// The longest message a stdio MCP server may send: bytes, or with a unit (`32MiB`,
    /// `1GiB`; default 16MiB). A longer answer fails at once, naming its size.
    #[arg(long, value_name = "SIZE", value_parser = byte_size, help_heading = "MCP servers")]
    pub(crate) mcp_max_message: Option<u64>,
    /// Offer the MCP servers the roots capability, answering `roots/list` with these URIs
    /// (comma-separated or repeated: `file:///srv/data`). Without it no roots are offered.
    #[arg(long, value_name = "URI", value_delimiter = ',', value_parser = root_uri, help_heading = "MCP servers")]
    pub(crate) mcp_roots: Vec<String>,
    /// Offer the MCP servers sampling, answering every `sampling/createMessage` with this
    /// text (a scripted model reply). Without it sampling is not offered.
    #[arg(long, value_name = "TEXT", help_heading = "MCP servers")]
    pub(crate) mcp_sampling_reply: Option<String>,
    /// Offer the MCP servers elicitation, answering every `elicitation/create` with
    /// `accept:JSON` (the form's values, an object), `decline` or `cancel`. Without it
    /// elicitation is not offered.
    #[arg(long, value_name = "ANSWER", value_parser = elicitation, help_heading = "MCP servers")]
    pub(crate) mcp_elicitation: Option<Elicitation>,
}

/// A root: a URI with a scheme (`file:///srv/data`); a bare path is refused, naming the URI
/// it would be, rather than guessed at.
fn root_uri(s: &str) -> Result<String, String> {
    let scheme = s.split_once("://").map(|(scheme, _)| scheme);
    match scheme {
        Some(scheme)
            if !scheme.is_empty()
                && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c)) =>
        {
            Ok(s.to_owned())
        }
        _ if s.starts_with('/') => Err(format!("`{s}` is a path, not a URI: write `file://{s}`")),
        _ => Err(format!(
            "`{s}` is not a URI (roots are URIs such as `file:///srv/data`)"
        )),
    }
}

/// An elicitation answer: `accept:JSON` (an object), `decline` or `cancel`.
fn elicitation(s: &str) -> Result<Elicitation, String> {
    match s {
        "decline" => Ok(Elicitation::Decline),
        "cancel" => Ok(Elicitation::Cancel),
        _ => {
            let Some(json) = s.strip_prefix("accept:") else {
                return Err(format!(
                    "`{s}`: expected `accept:JSON` (the form's values), `decline` or `cancel`"
                ));
            };
            match serde_json::from_str::<serde_json::Value>(json) {
                Ok(v @ serde_json::Value::Object(_)) => Ok(Elicitation::Accept(v)),
                Ok(_) => Err(format!("`{s}`: the accepted values must be a JSON object")),
                Err(e) => Err(format!("`{s}`: the accepted values are not JSON: {e}")),
            }
        }
    }
}

/// A size in bytes: `500000`, `64KiB`, `32MiB`, `1GiB` (at least 1 KiB, at most 4 GiB).
fn byte_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (digits, unit) = t.split_at(split);
    let unit_bytes: u64 = match unit.trim() {
        "" | "B" => 1,
        "KiB" | "K" | "k" => 1 << 10,
        "MiB" | "M" => 1 << 20,
        "GiB" | "G" => 1 << 30,
        other => return Err(format!("`{s}`: unknown unit `{other}` (KiB, MiB or GiB)")),
    };
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("`{s}` is not a size (bytes, or `32MiB`)"))?;
    let bytes = n
        .checked_mul(unit_bytes)
        .filter(|b| (1 << 10..=4 << 30).contains(b))
        .ok_or_else(|| format!("`{s}` is out of range: from 1KiB to 4GiB"))?;
    Ok(bytes)
}

/// `Name: value`.
fn header(s: &str) -> Result<(String, String), String> {
    split_header(s).ok_or_else(|| "a header is `Name: value`".to_owned())
}

/// `Name: value` split, or `None` without a name.
pub(crate) fn split_header(s: &str) -> Option<(String, String)> {
    s.split_once(':')
        .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
        .filter(|(k, _)| !k.is_empty())
}

/// A spend limit: a positive number of US dollars.
fn max_cost(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(usd) if usd.is_finite() && usd > 0.0 => Ok(usd),
        _ => Err(format!(
            "`{s}` is not a budget: a number of US dollars more than 0"
        )),
    }
}

//! Command-line arguments.

use std::path::PathBuf;
use std::time::Duration;

use agent_test_runtime::formats::SeedFormat;
use agent_test_runtime::trace::TraceFormat;
use lexopt::prelude::*;

pub(crate) const USAGE: &str = "\
agent-test — test LLM agents: evaluate recorded runs, or run scenarios against live agents

USAGE:
    agent-test eval --scenarios <PATH>... --runs <PATH>... [OPTIONS]
    agent-test run  --scenarios <PATH>... (--http <URL> | --openai <MODEL>) [OPTIONS]

Scenarios are JSON files in agent-test's scenario form (one scenario, or an array of them),
or the seed systems' own formats, detected from the content: Mibo test cases (.json), MCPLab
and PromptKit scenarios (.yaml), Lamdis tests (.json), MorganaBench examples (.json, .jsonl);
recorded runs are the JSON reports every run writes (target/agent-test/...), recorded-run
files, or traces agents emit (OpenAI, Anthropic, Gemini, LangChain, Mibo, MorganaBench, n8n).
A PATH may be a directory: its *.json, *.jsonl, *.yaml and *.yml files are read, recursively
(runs: *.json only).

eval: evaluate scenarios on recorded runs, calling nothing. A run is matched to the scenario
      of the same name (with a single scenario, every run is matched to it).
    --runs <PATH>              recorded runs or traces (default: the recordings the scenario
                               files carry, like MorganaBench `outputs`)
    --trace-format <F>         read runs as this trace format (default: detect)
    --jobs <N>                 parallel workers (default: the number of cores)

run: drive a live agent through each scenario.
    --http <URL>               an HTTP agent (POST)
      --method <M>             another HTTP method
      --header <K: V>          a header (repeatable)
      --secret-header <K: V>   a header whose value is never printed (repeatable)
      --bearer-env <VAR>       send the environment variable VAR as a bearer token
      --template <JSON|@FILE>  the request body template ({input}, {messages}, {context}, ...)
      --session-from <PATH>    read a session id at this path of responses
      --reply-at <PATH>        the reply text's path in responses
      --calls-at <PATH>        the tool calls' path in responses
      --trace-format <F>       read responses as this trace format
      --lossy-utf8             read bodies that are not UTF-8 anyway (else an agent error)
    --openai <MODEL>           an OpenAI-compatible chat model with mocked tools
      --base-url <URL>         the endpoint (default: $AGENT_TEST_BASE_URL, $OPENAI_BASE_URL)
      --system <TEXT|@FILE>    the system prompt
      --tools <@FILE>          tool definitions (OpenAI format)
      --mocks <JSON|@FILE>     mocked tool results: {\"tool_name\": result, ...}
      --max-steps <N>          model calls per turn (default 8)
    --timeout <SECONDS>        per turn (default 120)
    --clock <RFC3339>          pin \"now\" for dates
    --timezone <TZ>            the time zone for dates (default UTC)
    --record-dir <DIR>         where each run's JSON report (a recording) goes

COMMON:
    --input-format <F>         read scenario files as this format (default: detect):
                               mibo, mcplab, promptkit, lamdis or morganabench
    --format <text|json|junit> output format (default text)
    --output <FILE>            write the output to a file instead of standard output
    --quiet                    text: only failures and the summary
    --stats                    print wall time and peak memory to standard error
    --judge-timeout <SECONDS>  the judge's timeout per request (else $AGENT_TEST_JUDGE_TIMEOUT,
                               else 60)
    --judge-retries <N>        the judge's retries (else $AGENT_TEST_JUDGE_RETRIES, else 2)
    -h, --help                 this help
    -V, --version              the version

JUDGE: judge checks ({\"type\": \"judge\", \"criteria\": ...}) and semantic matchers are graded by
the judge the environment names: AGENT_TEST_JUDGE_MODEL, AGENT_TEST_JUDGE_PROVIDER (openai or
anthropic), AGENT_TEST_JUDGE_BASE_URL, AGENT_TEST_JUDGE_API_KEY (else OPENAI_* / ANTHROPIC_*).
Verdicts are cached (AGENT_TEST_JUDGE_CACHE); AGENT_TEST_JUDGE_MODE=replay uses only the cache.
A judge that cannot be connected to, or leaves two attempts in a row without an answer, is not
asked again: the remaining judge checks are errors at once (\"judge unreachable: ...\").

EXIT STATUS: 0 when every error-severity check passed, 1 when one did not, 2 when the
command line or an input file is wrong.";

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OutputFormat {
    Text,
    Json,
    Junit,
}

/// Options of both commands.
#[derive(Debug)]
pub(crate) struct Common {
    pub(crate) scenarios: Vec<PathBuf>,
    pub(crate) input_format: Option<SeedFormat>,
    pub(crate) format: OutputFormat,
    pub(crate) output: Option<PathBuf>,
    pub(crate) quiet: bool,
    pub(crate) stats: bool,
    /// The judge's timeout per request, when given.
    pub(crate) judge_timeout: Option<Duration>,
    /// The judge's retries, when given.
    pub(crate) judge_retries: Option<u32>,
}

/// `agent-test eval`.
#[derive(Debug)]
pub(crate) struct EvalArgs {
    pub(crate) common: Common,
    pub(crate) runs: Vec<PathBuf>,
    pub(crate) trace_format: Option<TraceFormat>,
    pub(crate) jobs: usize,
}

/// The agent of `agent-test run`.
#[derive(Debug)]
pub(crate) enum AgentSpec {
    Http {
        url: String,
        method: Option<String>,
        headers: Vec<(String, String)>,
        secret_headers: Vec<(String, String)>,
        bearer_env: Option<String>,
        template: Option<String>,
        session_from: Option<String>,
        reply_at: Option<String>,
        calls_at: Option<String>,
        trace_format: Option<TraceFormat>,
        lossy_utf8: bool,
    },
    OpenAi {
        model: String,
        base_url: Option<String>,
        system: Option<String>,
        tools: Option<String>,
        mocks: Option<String>,
        max_steps: Option<usize>,
    },
}

/// `agent-test run`.
#[derive(Debug)]
pub(crate) struct RunArgs {
    pub(crate) common: Common,
    pub(crate) agent: AgentSpec,
    pub(crate) timeout: Duration,
    pub(crate) clock: Option<String>,
    pub(crate) timezone: Option<String>,
    pub(crate) record_dir: Option<PathBuf>,
}

/// What to do.
#[derive(Debug)]
pub(crate) enum Command {
    Eval(EvalArgs),
    Run(Box<RunArgs>),
    Help,
    Version,
}

/// Parses the command line; `Err` is a message for the user.
pub(crate) fn parse(args: impl IntoIterator<Item = std::ffi::OsString>) -> Result<Command, String> {
    let mut p = lexopt::Parser::from_args(args);
    let sub = match p.next().map_err(|e| e.to_string())? {
        Some(Value(v)) => v.string().map_err(|e| e.to_string())?,
        Some(Short('h') | Long("help")) | None => return Ok(Command::Help),
        Some(Short('V') | Long("version")) => return Ok(Command::Version),
        Some(other) => {
            return Err(format!(
                "expected a command (eval or run), got {}",
                describe(&other)
            ));
        }
    };
    if sub != "eval" && sub != "run" {
        return Err(format!("unknown command `{sub}`: expected `eval` or `run`"));
    }
    let mut scenarios = Vec::new();
    let mut runs = Vec::new();
    let mut format = OutputFormat::Text;
    let (mut output, mut quiet, mut stats) = (None, false, false);
    let mut trace_format = None;
    let mut input_format = None;
    let mut jobs = std::thread::available_parallelism().map_or(1, usize::from);
    let (mut http, mut openai) = (None, None);
    let (mut method, mut template, mut session_from, mut reply_at, mut calls_at, mut bearer_env) =
        (None, None, None, None, None, None);
    let (mut headers, mut secret_headers) = (Vec::new(), Vec::new());
    let (mut base_url, mut system, mut tools, mut mocks, mut max_steps) =
        (None, None, None, None, None);
    let mut timeout = Duration::from_secs(120);
    let (mut judge_timeout, mut judge_retries, mut lossy_utf8) = (None, None, false);
    let (mut clock, mut timezone, mut record_dir) = (None, None, None);
    while let Some(arg) = p.next().map_err(|e| e.to_string())? {
        match arg {
            Long("scenarios") | Long("scenario") => {
                scenarios.push(PathBuf::from(value(&mut p, "scenarios")?))
            }
            Long("runs") | Long("run") if sub == "eval" => {
                runs.push(PathBuf::from(value(&mut p, "runs")?))
            }
            Long("format") => {
                format = match value(&mut p, "format")?.as_str() {
                    "text" => OutputFormat::Text,
                    "json" => OutputFormat::Json,
                    "junit" => OutputFormat::Junit,
                    other => {
                        return Err(format!(
                            "--format: unknown format `{other}` (text, json or junit)"
                        ));
                    }
                }
            }
            Long("output") => output = Some(PathBuf::from(value(&mut p, "output")?)),
            Long("quiet") => quiet = true,
            Long("stats") => stats = true,
            Long("trace-format") => {
                let f = value(&mut p, "trace-format")?;
                trace_format = Some(TraceFormat::from_name(&f).ok_or_else(|| {
                    format!(
                        "--trace-format: unknown format `{f}` ({})",
                        TraceFormat::ALL.map(TraceFormat::name).join(", ")
                    )
                })?);
            }
            Long("input-format") => {
                let f = value(&mut p, "input-format")?;
                input_format = Some(
                    f.parse::<SeedFormat>()
                        .map_err(|e| format!("--input-format: {e}"))?,
                );
            }
            Long("jobs") => jobs = number(&value(&mut p, "jobs")?, "jobs")?.max(1),
            Long("http") if sub == "run" => http = Some(value(&mut p, "http")?),
            Long("method") => method = Some(value(&mut p, "method")?),
            Long("header") => headers.push(header(&value(&mut p, "header")?, false)?),
            Long("secret-header") => {
                secret_headers.push(header(&value(&mut p, "secret-header")?, true)?)
            }
            Long("bearer-env") => bearer_env = Some(value(&mut p, "bearer-env")?),
            Long("template") => template = Some(value(&mut p, "template")?),
            Long("session-from") => session_from = Some(value(&mut p, "session-from")?),
            Long("reply-at") => reply_at = Some(value(&mut p, "reply-at")?),
            Long("calls-at") => calls_at = Some(value(&mut p, "calls-at")?),
            Long("openai") if sub == "run" => openai = Some(value(&mut p, "openai")?),
            Long("base-url") => base_url = Some(value(&mut p, "base-url")?),
            Long("system") => system = Some(value(&mut p, "system")?),
            Long("tools") => tools = Some(value(&mut p, "tools")?),
            Long("mocks") => mocks = Some(value(&mut p, "mocks")?),
            Long("max-steps") => {
                max_steps = Some(number(&value(&mut p, "max-steps")?, "max-steps")?)
            }
            Long("timeout") => timeout = seconds(&value(&mut p, "timeout")?, "timeout")?,
            Long("judge-timeout") => {
                judge_timeout = Some(seconds(&value(&mut p, "judge-timeout")?, "judge-timeout")?)
            }
            Long("judge-retries") => {
                let n = value(&mut p, "judge-retries")?;
                judge_retries = Some(
                    n.parse::<u32>()
                        .map_err(|_| format!("--judge-retries: `{n}` is not a whole number"))?,
                );
            }
            Long("lossy-utf8") => lossy_utf8 = true,
            Long("clock") => clock = Some(value(&mut p, "clock")?),
            Long("timezone") => timezone = Some(value(&mut p, "timezone")?),
            Long("record-dir") => record_dir = Some(PathBuf::from(value(&mut p, "record-dir")?)),
            Short('h') | Long("help") => return Ok(Command::Help),
            other => {
                return Err(format!(
                    "`agent-test {sub}`: unexpected {}",
                    describe(&other)
                ));
            }
        }
    }
    if scenarios.is_empty() {
        return Err("--scenarios is required: the scenario files to evaluate".into());
    }
    let common = Common {
        scenarios,
        input_format,
        format,
        output,
        quiet,
        stats,
        judge_timeout,
        judge_retries,
    };
    if sub == "eval" {
        // Without --runs, the recordings the scenario files carry (MorganaBench `outputs`)
        // are evaluated; eval says so when there are none.
        return Ok(Command::Eval(EvalArgs {
            common,
            runs,
            trace_format,
            jobs,
        }));
    }
    let agent = match (http, openai) {
        (Some(url), None) => AgentSpec::Http {
            url,
            method,
            headers,
            secret_headers,
            bearer_env,
            template,
            session_from,
            reply_at,
            calls_at,
            trace_format,
            lossy_utf8,
        },
        (None, Some(model)) => AgentSpec::OpenAi {
            model,
            base_url,
            system,
            tools,
            mocks,
            max_steps,
        },
        (Some(_), Some(_)) => return Err("give either --http or --openai, not both".into()),
        (None, None) => {
            return Err("`agent-test run` needs an agent: --http <URL> or --openai <MODEL>".into());
        }
    };
    Ok(Command::Run(Box::new(RunArgs {
        common,
        agent,
        timeout,
        clock,
        timezone,
        record_dir,
    })))
}

/// The value of the option `--name`.
fn value(p: &mut lexopt::Parser, name: &str) -> Result<String, String> {
    p.value()
        .map_err(|_| format!("--{name} needs a value"))?
        .string()
        .map_err(|_| format!("--{name}: the value is not valid text"))
}

fn describe(arg: &lexopt::Arg<'_>) -> String {
    match arg {
        Short(c) => format!("option -{c}"),
        Long(l) => format!("option --{l}"),
        Value(v) => format!("argument `{}`", v.to_string_lossy()),
    }
}

fn number(s: &str, name: &str) -> Result<usize, String> {
    s.parse()
        .map_err(|_| format!("--{name}: `{s}` is not a whole number"))
}

/// A number of seconds greater than 0 (`20`, `2.5`, `20s`) for the option `--name`.
fn seconds(s: &str, name: &str) -> Result<Duration, String> {
    s.trim_end_matches('s')
        .parse::<f64>()
        .ok()
        .filter(|v| *v > 0.0)
        .and_then(|v| Duration::try_from_secs_f64(v).ok())
        .ok_or_else(|| format!("--{name}: `{s}` is not a number of seconds"))
}

/// `Name: value`; a malformed secret header is refused without being printed.
fn header(s: &str, secret: bool) -> Result<(String, String), String> {
    s.split_once(':')
        .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
        .filter(|(k, _)| !k.is_empty())
        .ok_or_else(|| {
            if secret {
                "--secret-header: a header is `Name: value` (the value given has no name; it is \
                 not shown, being secret)"
                    .to_owned()
            } else {
                format!("--header: a header is `Name: value`, got `{s}`")
            }
        })
}

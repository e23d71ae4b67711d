//! Command-line arguments, with `clap`: each subcommand takes its own options (an option another
//! subcommand uses is an error), values are checked where they are read (a timeout of `1e30`
//! seconds is an error, not a panic), and `--help` shows examples.

use std::path::PathBuf;
use std::time::Duration;

use agent_test_runtime::agent::McpServer;
use agent_test_runtime::formats::SeedFormat;
use agent_test_runtime::trace::TraceFormat;
use clap::builder::{PossibleValuesParser, TypedValueParser, ValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::shard::Shard;

mod run;
pub(crate) use run::{RepeatOptions, RunArgs, split_header};

/// Test LLM agents: evaluate recorded runs, or run scenarios against live agents.
#[derive(Debug, Parser)]
#[command(name = "agent-test", version, about, long_about = ABOUT, after_long_help = AFTER_HELP)]
#[command(propagate_version = true, arg_required_else_help = true)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

const ABOUT: &str = "\
Test LLM agents: evaluate recorded runs (`eval`), or run scenarios against live agents (`run`).

Scenarios are JSON files in agent-test's scenario form (one scenario, an array of them, or
{\"scenarios\": [...]}), or the seed systems' own formats, detected from the content: Mibo test
cases (.json), MCPLab and PromptKit scenarios (.yaml), Lamdis tests (.json), MorganaBench
examples (.json, .jsonl). Recorded runs are the JSON reports every run writes
(target/agent-test/...), recorded-run files, or traces agents emit (OpenAI, Anthropic, Gemini,
LangChain, Mibo, MorganaBench, n8n). A PATH may be a directory: its *.json, *.jsonl, *.yaml and
*.yml files are read, recursively (runs: *.json only).";

const AFTER_HELP: &str = "\
EXAMPLES:
    # Evaluate recorded runs against their scenarios, calling nothing
    agent-test eval --scenarios tests/scenarios/ --runs target/agent-test/

    # Drive an HTTP agent through every scenario, 8 at a time, and keep the recordings
    agent-test run --scenarios tests/scenarios/ --http http://127.0.0.1:8080/chat \\
        --reply-at answer --jobs 8 --record-dir recordings/

    # An OpenAI-compatible model with mocked tools, as a JUnit report for CI
    agent-test run --scenarios cases.yaml --openai gpt-4o-mini --tools @tools.json \\
        --mocks '{\"lookup_order\": {\"status\": \"delivered\"}}' --format junit --output junit.xml

    # The second of four CI machines takes its quarter of the suite
    agent-test eval --scenarios suite.jsonl --shard 2/4

JUDGE: judge checks and semantic matchers are graded by the judge the environment names:
AGENT_TEST_JUDGE_MODEL, AGENT_TEST_JUDGE_PROVIDER (openai or anthropic),
AGENT_TEST_JUDGE_BASE_URL, AGENT_TEST_JUDGE_API_KEY (else OPENAI_* / ANTHROPIC_*). Verdicts are
cached (AGENT_TEST_JUDGE_CACHE); AGENT_TEST_JUDGE_MODE=replay uses only the cache. A judge that
cannot be connected to, or leaves two attempts in a row without an answer, is not asked again:
the remaining judge checks are errors at once (\"judge unreachable: ...\").

EXIT STATUS: 0 when every error-severity check passed, 1 when one did not, 2 when the command
line or an input file is wrong.";

/// What to do.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Evaluate scenarios on recorded runs or traces, calling nothing.
    ///
    /// A run is matched to the scenario of the same name (with a single scenario, every run is
    /// matched to it). Without --runs, the recordings the scenario files carry (MorganaBench
    /// `outputs`) are evaluated.
    #[command(after_long_help = EVAL_EXAMPLES)]
    Eval(EvalArgs),
    /// Drive a live agent — an HTTP endpoint or an OpenAI-compatible model — through each
    /// scenario.
    #[command(after_long_help = RUN_EXAMPLES)]
    Run(Box<RunArgs>),
    /// Turn the JSON reports of runs into one self-contained HTML page (and JUnit XML, a
    /// Markdown summary for a CI job).
    ///
    /// Reads the reports `cargo test` leaves in target/agent-test/ (one per scenario; the
    /// default), and the JSON output of `eval` and `run` (`--format json`).
    #[command(after_long_help = REPORT_EXAMPLES)]
    Report(ReportArgs),
    /// Compare two runs of the same suite (two models, two prompts, main and a branch): checks
    /// newly failing or passing, pass rates, latency, tokens and cost. Given two mutation runs
    /// (`agent-test mutate --format json`), compares their scores and lists the mutants that
    /// survive now and were killed before. Exits with 1 on a regression.
    #[command(after_long_help = DIFF_EXAMPLES)]
    Diff(DiffArgs),
    /// How much broken behaviour the suite's checks would notice: from the reports of passing
    /// runs, make the transcripts a broken agent could have produced (a call dropped,
    /// duplicated, swapped or moved, an argument or result changed, an outcome flipped, a
    /// reply cut or emptied, a budget blown, a turn dropped) and evaluate each scenario's
    /// checks on them, calling nothing. A mutant some check fails on is killed; one every
    /// check passes survived. Exits with 1 under --min-score, 2 when nothing could be measured.
    #[command(after_long_help = MUTATE_EXAMPLES)]
    Mutate(MutateArgs),
    /// Work on the judge: measure how far it agrees with human labels.
    #[command(subcommand)]
    Judge(JudgeCommand),
    /// Serve a cassette: a proxy on 127.0.0.1 for the OpenAI-compatible and Anthropic APIs
    /// that records a model's traffic to a directory, or replays it from there.
    ///
    /// Point the agent under test (any language, any client) at the base URL it prints on the
    /// first line of standard output instead of the provider's. Recording forwards each
    /// request, with the client's own key, and stores the request and the answer as one JSON
    /// file (never a credential); replaying answers from the files only, and a request with no
    /// recording gets HTTP 599 with the closest recorded request and where it differs. Serves
    /// until Ctrl-C.
    #[command(after_long_help = PROXY_EXAMPLES)]
    Proxy(ProxyArgs),
    /// Work on a cassette's directory: list (and prune) the entries no run used.
    #[command(subcommand)]
    Cassette(CassetteCommand),
    /// Review pending snapshots: each `….snap.new` a run wrote when a reply or the tool calls
    /// differed from the accepted snapshot (`expect reply().snapshot();`) is shown as a diff,
    /// then accepted (it becomes the snapshot), rejected (deleted) or skipped, answering a, r
    /// or s on standard input.
    #[command(after_long_help = REVIEW_EXAMPLES)]
    Review(ReviewArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    ///
    /// For bash: `agent-test completions bash > ~/.local/share/bash-completion/completions/agent-test`.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

const REVIEW_EXAMPLES: &str = "\
EXAMPLES:
    cargo test; agent-test review                  # every pending snapshot under .
    agent-test review tests/ --list                # show them, change nothing
    agent-test review --accept-all                 # after re-recording cassettes on purpose";

const EVAL_EXAMPLES: &str = "\
EXAMPLES:
    agent-test eval --scenarios tests/scenarios/ --runs target/agent-test/
    agent-test eval --scenarios suite.jsonl --format json --output results.json
    agent-test eval --scenarios refund.json --runs traces/ --trace-format openai";

const RUN_EXAMPLES: &str = "\
EXAMPLES:
    agent-test run --scenarios tests/scenarios/ --http http://127.0.0.1:8080/chat --jobs 8
    agent-test run --scenarios cases.yaml --openai gpt-4o-mini --base-url http://127.0.0.1:11434/v1 \\
        --tools @tools.json --mocks @mocks.json";

const REPORT_EXAMPLES: &str = "\
EXAMPLES:
    cargo test; agent-test report                  # target/agent-test/report.html
    agent-test report --junit junit.xml --markdown \"$GITHUB_STEP_SUMMARY\"
    agent-test report --github                     # failing checks annotated in the pull request
    agent-test report --gitlab gl-code-quality-report.json
    agent-test eval --scenarios s/ --runs r/ --format json --output out.json; agent-test report out.json";

const DIFF_EXAMPLES: &str = "\
EXAMPLES:
    agent-test diff reports-main/ target/agent-test/
    agent-test diff gpt-4o.json gpt-4o-mini.json --html diff.html
    agent-test diff mutation-main.json mutation.json     # two `mutate --format json` outputs";

const MUTATE_EXAMPLES: &str = "\
EXAMPLES:
    cargo test && agent-test mutate                  # the reports in target/agent-test/
    agent-test mutate target/agent-test/ --min-score 0.8
    agent-test run --scenarios scenarios/ --http http://127.0.0.1:8080/chat --format json > run.json
    agent-test mutate run.json --format json > mutation.json
    agent-test mutate --html mutation.html
    AGENT_TEST_JUDGE_MODEL=gpt-4o-mini agent-test mutate --judge-live   # grade unseen mutants";

const PROXY_EXAMPLES: &str = "\
EXAMPLES:
    # Record once, with a real key (the agent reads its base URL from the first line)
    agent-test proxy --cassette tests/cassettes --mode record > proxy.url &
    OPENAI_BASE_URL=$(head -1 proxy.url) OPENAI_API_KEY=sk-... python agent_tests.py

    # Replay in CI: no key, nothing forwarded, the entries used logged for pruning
    agent-test proxy --cassette tests/cassettes --used-log target/cassette-used.txt

    # Anthropic's API (its SDKs take the origin, without /v1)
    agent-test proxy --cassette tests/cassettes --anthropic --mode record --port 8089";

const CASSETTE_EXAMPLES: &str = "\
EXAMPLES:
    cargo test; agent-test cassette unused tests/cassettes            # reads target/agent-test
    agent-test cassette unused tests/cassettes --used target/cassette-used.txt --prune";

/// `agent-test proxy`.
#[derive(Debug, Args)]
pub(crate) struct ProxyArgs {
    /// The cassette's directory (created when the first entry is recorded).
    #[arg(long, value_name = "DIR")]
    pub(crate) cassette: PathBuf,
    /// replay (answer from the cassette only), record (forward everything and record it), or
    /// auto (replay what is recorded, record the rest; refused when CI is set). Default:
    /// $AGENT_TEST_CASSETTE_MODE, else replay.
    #[arg(long, value_name = "MODE", value_parser = cassette_mode)]
    pub(crate) mode: Option<agent_test_runtime::cassette::Mode>,
    /// The provider's base URL, where recording forwards requests (default: OpenAI's,
    /// https://api.openai.com/v1).
    #[arg(long, value_name = "URL", conflicts_with = "anthropic")]
    pub(crate) upstream: Option<String>,
    /// The provider is Anthropic's API (https://api.anthropic.com/v1).
    #[arg(long)]
    pub(crate) anthropic: bool,
    /// The port on 127.0.0.1 (default: a free one).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub(crate) port: u16,
    /// A field of the request body left out of matching, as a path: `user`,
    /// `metadata.run_id`, `messages[*].name` (repeatable).
    #[arg(long = "ignore", value_name = "FIELD")]
    pub(crate) ignore: Vec<String>,
    /// An environment variable whose value is a secret to keep out of the cassette besides
    /// the credential headers (repeatable; the value itself never goes on a command line).
    #[arg(long = "redact-env", value_name = "VAR")]
    pub(crate) redact_env: Vec<String>,
    /// Replay with the recorded timing: answers after their latency, stream events at their
    /// offsets.
    #[arg(long)]
    pub(crate) recorded_timing: bool,
    /// Append each entry's id to this file when it is first used, for
    /// `agent-test cassette unused --used FILE`.
    #[arg(long, value_name = "FILE")]
    pub(crate) used_log: Option<PathBuf>,
}

/// `agent-test cassette …`.
#[derive(Debug, Subcommand)]
pub(crate) enum CassetteCommand {
    /// List the entries of a cassette that no run used — by the reports of runs through it
    /// (each lists its entries), and the logs of `agent-test proxy --used-log` — and with
    /// --prune delete them. Prints each unused entry's file.
    #[command(after_long_help = CASSETTE_EXAMPLES)]
    Unused(UnusedArgs),
}

/// `agent-test judge ...`.
#[derive(Debug, Subcommand)]
pub(crate) enum JudgeCommand {
    /// Grade cases humans labelled pass or fail with the judge the environment names (as a
    /// judge check in a test would: same material, prompt and cache) and report, per check,
    /// the agreement, Cohen's kappa, the true-positive and true-negative rates with 95 %
    /// Wilson intervals, the threshold that would maximise kappa, and every disagreement with
    /// the judge's reasoning. Exits with 1 under --min-kappa, 2 when a case could not be
    /// graded or a kappa is undefined under the gate.
    #[command(after_long_help = CALIBRATE_EXAMPLES)]
    Calibrate(CalibrateArgs),
}

const CALIBRATE_EXAMPLES: &str = "\
LABELS: JSON lines, one case each:
    {\"criteria\": \"apologises\", \"reply\": \"Sorry about that.\", \"label\": \"pass\"}
    {\"criteria\": \"apologises\", \"threshold\": 0.7, \"input\": \"Where is it?\", \"reply\": \"No idea.\", \"label\": \"fail\", \"score\": 0.1}
    {\"check\": {\"type\": \"judge\", \"criteria\": \"grounded\"}, \"transcript\": {...}, \"label\": \"pass\", \"id\": \"r-7\"}

EXAMPLES:
    AGENT_TEST_JUDGE_MODEL=gpt-4o-mini agent-test judge calibrate labels.jsonl --min-kappa 0.6
    AGENT_TEST_JUDGE_MODE=replay agent-test judge calibrate labels.jsonl --format json";

/// `agent-test judge calibrate`.
#[derive(Debug, Args)]
pub(crate) struct CalibrateArgs {
    /// Files of labelled cases (JSON lines).
    #[arg(value_name = "LABELS", required = true)]
    pub(crate) labels: Vec<PathBuf>,
    /// Fail (exit 1) when a check's kappa is under K (`0.6`).
    #[arg(long, value_name = "K", value_parser = kappa)]
    pub(crate) min_kappa: Option<f64>,
    /// How many cases are graded at once.
    #[arg(long, short = 'j', value_name = "N", default_value = "4", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub(crate) jobs: u16,
    /// The output format: text, or one JSON document.
    #[arg(long, value_enum, default_value = "text")]
    pub(crate) format: SummaryFormat,
    #[command(flatten)]
    pub(crate) judge: JudgeOptions,
}

/// A kappa gate: from -1 to 1.
fn kappa(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(k) if (-1.0..=1.0).contains(&k) => Ok(k),
        _ => Err(format!("`{s}` is not a kappa from -1 to 1 (e.g. 0.6)")),
    }
}

/// `agent-test review`.
#[derive(Debug, Args)]
pub(crate) struct ReviewArgs {
    /// Where to look for pending snapshots: directories (searched recursively, skipping
    /// target/, .git/ and node_modules/) or files (default: the current directory).
    #[arg(value_name = "PATH")]
    pub(crate) paths: Vec<PathBuf>,
    /// Accept every pending snapshot without asking.
    #[arg(long, conflicts_with_all = ["reject_all", "list"])]
    pub(crate) accept_all: bool,
    /// Reject every pending snapshot without asking.
    #[arg(long, conflicts_with = "list")]
    pub(crate) reject_all: bool,
    /// Show the pending snapshots and change nothing.
    #[arg(long)]
    pub(crate) list: bool,
}

/// `agent-test cassette unused`.
#[derive(Debug, Args)]
pub(crate) struct UnusedArgs {
    /// The cassette's directory.
    #[arg(value_name = "DIR")]
    pub(crate) cassette: PathBuf,
    /// Reports of runs through the cassette: directories (searched recursively) or files
    /// (default, without --used: target/agent-test, or $AGENT_TEST_REPORT_DIR).
    #[arg(value_name = "REPORTS")]
    pub(crate) reports: Vec<PathBuf>,
    /// A log of the entries a proxy used (`agent-test proxy --used-log`), one id a line
    /// (repeatable).
    #[arg(long, value_name = "FILE")]
    pub(crate) used: Vec<PathBuf>,
    /// Delete the unused entries. Refused when a report could not be read, or when no input
    /// names any entry of the cassette (that would delete them all).
    #[arg(long)]
    pub(crate) prune: bool,
}

/// `agent-test report`.
#[derive(Debug, Args)]
pub(crate) struct ReportArgs {
    /// Reports: directories (searched recursively) or files (default: target/agent-test, or
    /// $AGENT_TEST_REPORT_DIR).
    #[arg(value_name = "PATH")]
    pub(crate) paths: Vec<PathBuf>,
    /// Where the HTML page goes (default: report.html in the first directory read).
    #[arg(long, value_name = "FILE")]
    pub(crate) html: Option<PathBuf>,
    /// Also write JUnit XML, one test case per scenario.
    #[arg(long, value_name = "FILE")]
    pub(crate) junit: Option<PathBuf>,
    /// Also write a Markdown summary (`-` for standard output), e.g. to $GITHUB_STEP_SUMMARY.
    #[arg(long, value_name = "FILE")]
    pub(crate) markdown: Option<PathBuf>,
    /// The page's title.
    #[arg(long, value_name = "TEXT", default_value = "agent-test report")]
    pub(crate) title: String,
    /// Print GitHub Actions annotations on standard output: an error at the scenario's line for
    /// each failing check, a warning for each failing warning and flaky check (ten of each
    /// shown, as GitHub keeps). On by itself when $GITHUB_ACTIONS is `true`.
    #[arg(long)]
    pub(crate) github: bool,
    /// Also write a GitLab code-quality report (JSON) of the failing and flaky checks.
    #[arg(long, value_name = "FILE")]
    pub(crate) gitlab: Option<PathBuf>,
}

/// A cassette mode, named.
fn cassette_mode(name: &str) -> Result<agent_test_runtime::cassette::Mode, String> {
    agent_test_runtime::cassette::Mode::from_name(name)
        .ok_or_else(|| format!("`{name}` is not one of replay, record, auto"))
}

/// `agent-test mutate`.
#[derive(Debug, Args)]
pub(crate) struct MutateArgs {
    /// Reports: files or directories (default: target/agent-test, where `cargo test` leaves
    /// them), or the JSON output of `run` and `eval`.
    #[arg(value_name = "PATH")]
    pub(crate) paths: Vec<PathBuf>,
    /// Fail (exit 1) when the suite's mutation score — killed / (killed + survived) — is under
    /// this fraction (`0.8`).
    #[arg(long, value_name = "SCORE", value_parser = fraction)]
    pub(crate) min_score: Option<f64>,
    /// The output format: text, or one JSON document with every mutant.
    #[arg(long, value_enum, default_value = "text")]
    pub(crate) format: SummaryFormat,
    /// Send the mutants the judge has not graded to the judge the environment names (one
    /// request per such mutant). Without it, judge checks are graded from the judge's cache
    /// only ($AGENT_TEST_JUDGE_CACHE, else target/agent-test/judge-cache) under the model each
    /// report names, and a mutant that changes what the judge reads is counted as "needs the
    /// judge", apart from the score.
    #[arg(long)]
    pub(crate) judge_live: bool,
    /// Also write the mutation run as an HTML page: each scenario's score, its surviving
    /// mutants with the checks that let them through, and what killed the others.
    #[arg(long, value_name = "FILE")]
    pub(crate) html: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) judge: JudgeOptions,
}

/// `--format` of `mutate` and `judge calibrate`: one document, written whole at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum SummaryFormat {
    /// For people: each scenario's score and surviving mutants, each check's agreement.
    Text,
    /// One JSON document.
    Json,
}

impl SummaryFormat {
    /// Prints `document` in this format (`text` renders it): `false`, having said why, when it
    /// cannot be written as JSON.
    pub(crate) fn print<T: serde::Serialize>(
        self,
        document: &T,
        text: impl FnOnce(&T) -> String,
    ) -> bool {
        match self {
            SummaryFormat::Text => print!("{}", text(document)),
            SummaryFormat::Json => match serde_json::to_string_pretty(document) {
                Ok(json) => println!("{json}"),
                Err(e) => {
                    eprintln!("agent-test: cannot write the output as JSON: {e}");
                    return false;
                }
            },
        }
        true
    }
}

/// A fraction from 0 to 1.
fn fraction(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(f) if (0.0..=1.0).contains(&f) => Ok(f),
        _ => Err(format!(
            "`{s}` is not a score: a fraction from 0 to 1 (`0.8`)"
        )),
    }
}

/// `agent-test diff`.
#[derive(Debug, Args)]
pub(crate) struct DiffArgs {
    /// The base run's reports: a directory or a file.
    #[arg(value_name = "BASE")]
    pub(crate) base: PathBuf,
    /// The new run's reports: a directory or a file.
    #[arg(value_name = "NEW")]
    pub(crate) new: PathBuf,
    /// Also write the comparison as an HTML page.
    #[arg(long, value_name = "FILE")]
    pub(crate) html: Option<PathBuf>,
    /// Write the comparison as one pull-request comment in Markdown (`-`: standard output,
    /// instead of the text): regressions first, then improvements, within GitHub's 65,536
    /// characters, starting with the marker `<!-- agent-test:diff -->` a CI step can find to
    /// update its comment.
    #[arg(long, value_name = "FILE")]
    pub(crate) comment: Option<PathBuf>,
    /// Where the full report is, linked from the comment (e.g. the CI run's artifacts).
    #[arg(long, value_name = "URL", requires = "comment")]
    pub(crate) report_url: Option<String>,
}

/// The scenario files, and how to read them.
#[derive(Debug, Args)]
pub(crate) struct Inputs {
    /// Scenario files or directories (repeatable).
    #[arg(long = "scenarios", alias = "scenario", value_name = "PATH", required = true, num_args = 1..)]
    pub(crate) scenarios: Vec<PathBuf>,
    /// Read scenario files as this format (default: detect from the content).
    #[arg(long, value_name = "FORMAT", value_parser = seed_formats())]
    pub(crate) input_format: Option<SeedFormat>,
}

/// What is printed, and where.
#[derive(Debug, Args)]
pub(crate) struct Output {
    /// The output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub(crate) format: OutputFormat,
    /// Write the output to this file instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
    /// Text: only failures and the summary.
    #[arg(long)]
    pub(crate) quiet: bool,
    /// Print wall time and peak memory to standard error.
    #[arg(long)]
    pub(crate) stats: bool,
}

/// How many at once, and which share of the suite.
#[derive(Debug, Args)]
pub(crate) struct Work {
    /// How many runs at once (default: the number of cores for eval, 4 for run).
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub(crate) jobs: Option<u16>,
    /// Only the K-th of N shares of the suite (1-based, e.g. 2/4): a stable partition, so N
    /// machines given 1/N … N/N together run everything exactly once.
    #[arg(long, value_name = "K/N")]
    pub(crate) shard: Option<Shard>,
}

/// The judge's settings that win over the environment's.
#[derive(Debug, Args)]
pub(crate) struct JudgeOptions {
    /// The judge's timeout per request, in seconds (else $AGENT_TEST_JUDGE_TIMEOUT, else 60).
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    pub(crate) judge_timeout: Option<Duration>,
    /// The judge's retries (else $AGENT_TEST_JUDGE_RETRIES, else 2).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=20))]
    pub(crate) judge_retries: Option<u32>,
}

/// What turns cost.
#[derive(Debug, Args)]
pub(crate) struct Pricing {
    /// A price table giving each turn its cost, shown in the reports and budgeted by `cost`
    /// checks: JSON, US dollars per million tokens, `{"models": {"gpt-4o-mini": {"input":
    /// 0.15, "output": 0.6}}, "unnamed_as": "gpt-4o-mini"}` (`unnamed_as`: the model of
    /// replies that name none).
    #[arg(long, value_name = "FILE")]
    pub(crate) prices: Option<PathBuf>,
}

impl Pricing {
    /// The table, if one was given; an unreadable or invalid one is an error naming it.
    pub(crate) fn load(
        &self,
    ) -> Result<Option<agent_test_runtime::report::prices::Prices>, String> {
        self.prices
            .as_ref()
            .map(|file| {
                agent_test_runtime::report::prices::Prices::from_file(file)
                    .map_err(|e| format!("--prices: {e}"))
            })
            .transpose()
    }
}

/// `agent-test eval`.
#[derive(Debug, Args)]
pub(crate) struct EvalArgs {
    #[command(flatten)]
    pub(crate) inputs: Inputs,
    /// Recorded runs or traces: files or directories (default: the recordings the scenario
    /// files carry, like MorganaBench `outputs`).
    #[arg(long = "runs", alias = "run", value_name = "PATH", num_args = 1..)]
    pub(crate) runs: Vec<PathBuf>,
    /// Read runs as this trace format (default: detect).
    #[arg(long, value_name = "FORMAT", value_parser = trace_formats())]
    pub(crate) trace_format: Option<TraceFormat>,
    #[command(flatten)]
    pub(crate) work: Work,
    #[command(flatten)]
    pub(crate) judge: JudgeOptions,
    #[command(flatten)]
    pub(crate) pricing: Pricing,
    #[command(flatten)]
    pub(crate) output: Output,
}

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum OutputFormat {
    /// The same report as the tests print.
    Text,
    /// One JSON document: every run's report and the totals.
    Json,
    /// JUnit XML, for CI.
    Junit,
}

fn seed_formats() -> ValueParser {
    let names = SeedFormat::ALL.map(SeedFormat::name);
    PossibleValuesParser::new(names)
        .try_map(|s| s.parse::<SeedFormat>())
        .into()
}

fn trace_formats() -> ValueParser {
    let names = TraceFormat::ALL.map(TraceFormat::name);
    PossibleValuesParser::new(names)
        .try_map(|s| TraceFormat::from_name(&s).ok_or("unknown trace format"))
        .into()
}

fn mcp_server(s: &str) -> Result<McpServer, String> {
    McpServer::parse(s).map_err(|e| e.to_string())
}

/// The longest wait any option accepts: a day.
const MAX_SECONDS: f64 = 86_400.0;

/// A number of seconds, more than 0 and at most a day (`20`, `2.5`, `20s`).
fn seconds(s: &str) -> Result<Duration, String> {
    let v: f64 = s
        .trim_end_matches('s')
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    if !(v > 0.0 && v <= MAX_SECONDS) {
        return Err(format!(
            "{s} seconds is out of range: more than 0 and at most {MAX_SECONDS} (a day)"
        ));
    }
    Ok(Duration::from_secs_f64(v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn seconds_are_checked() {
        assert_eq!(seconds("2.5").unwrap(), Duration::from_millis(2500));
        assert_eq!(seconds("20s").unwrap(), Duration::from_secs(20));
        assert!(seconds("1e30").unwrap_err().contains("out of range"));
        assert!(seconds("0").unwrap_err().contains("out of range"));
        assert!(seconds("NaN").unwrap_err().contains("out of range"));
        assert!(seconds("soon").unwrap_err().contains("not a number"));
    }
}

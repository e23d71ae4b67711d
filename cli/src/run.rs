//! `agent-test run`: each scenario driven against a live agent.

use std::sync::Arc;

use agent_test_runtime::agent::{Agent, ChatAgent, HttpAgent};
use agent_test_runtime::scenario::Scenario;
use agent_test_runtime::{Clock, Suite};
use serde_json::Value;

use crate::args::{AgentSpec, RunArgs};
use crate::output::{Kept, RunResult};

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

/// The agent the command line describes.
pub(crate) fn agent(
    spec: &AgentSpec,
    timeout: std::time::Duration,
) -> Result<Arc<dyn Agent>, String> {
    Ok(match spec {
        AgentSpec::Http {
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
        } => {
            let mut a = HttpAgent::post(url.clone()).timeout(timeout);
            if let Some(m) = method {
                a = a.method(m);
            }
            for (k, v) in headers {
                a = a.header(k.clone(), v.clone());
            }
            for (k, v) in secret_headers {
                a = a.secret_header(k.clone(), v.clone());
            }
            if let Some(var) = bearer_env {
                let token = std::env::var(var).map_err(|_| {
                    format!("--bearer-env: the environment variable {var} is not set")
                })?;
                a = a.bearer_token(token);
            }
            if let Some(t) = template {
                a = a.body_template(json_arg(t, "--template")?);
            }
            if let Some(p) = session_from {
                a = a.session_id_from(p.clone());
            }
            if let Some(p) = reply_at {
                a = a.reply_at(p.clone());
            }
            if let Some(p) = calls_at {
                a = a.tool_calls_at(p.clone());
            }
            if let Some(f) = trace_format {
                a = a.trace_format(*f);
            }
            if *lossy_utf8 {
                a = a.lossy_utf8();
            }
            Arc::new(a)
        }
        AgentSpec::OpenAi {
            model,
            base_url,
            system,
            tools,
            mocks,
            max_steps,
        } => {
            let mut a = ChatAgent::new(model.clone()).timeout(timeout);
            if let Some(u) = base_url {
                a = a.base_url(u.clone());
            }
            if let Some(s) = system {
                a = a.system(inline_or_file(s, "--system")?);
            }
            if let Some(t) = tools {
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
                    a = a.tool(name, description, parameters);
                }
            }
            if let Some(m) = mocks {
                let mocks = json_arg(m, "--mocks")?;
                let mocks = mocks
                    .as_object()
                    .ok_or("--mocks: expected an object {\"tool\": result, ...}")?;
                for (tool, result) in mocks {
                    a = a.mock(tool.clone(), result.clone());
                }
            }
            if let Some(n) = max_steps {
                a = a.max_steps(*n);
            }
            Arc::new(a)
        }
    })
}

/// Runs every scenario, one after the other, each with a fresh agent.
pub(crate) fn run(args: &RunArgs, scenarios: &[Scenario]) -> Result<Vec<RunResult>, String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    // One judge for every scenario, with the command line's settings.
    let judge = crate::judge(&args.common);
    let mut results = Vec::new();
    for scenario in scenarios {
        let agent = agent(&args.agent, args.timeout)?;
        let mut suite = Suite::new().agent(agent).timeout(args.timeout);
        if let Some(j) = &judge {
            suite = suite.judge(j.clone());
        }
        if let Some(c) = &args.clock {
            suite = suite.clock(Clock::fixed(c.clone()));
        }
        if let Some(tz) = &args.timezone {
            suite = suite.timezone(tz.clone());
        }
        if let Some(dir) = &args.record_dir {
            suite = suite.report_dir(dir.clone());
        }
        let report = runtime.block_on(scenario.run(suite));
        results.push(RunResult {
            source: report
                .json_path
                .as_ref()
                .map_or_else(|| scenario.name.clone(), |p| p.display().to_string()),
            scenario: scenario.name.clone(),
            outcome: Ok(Kept::of(report, args.common.format, true)),
        });
    }
    Ok(results)
}

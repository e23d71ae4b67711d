//! n8n execution data: `resultData.runData` maps each node to its runs. Sub-nodes of an AI
//! agent — tools (`ai_tool` data) and language models (`ai_languageModel` data) — are nested
//! under the node their run's `source` names; tools become tool calls, everything else nodes.

use serde_json::Value;

use super::{TraceError, TraceFormat, final_text};
use agent_test_core::model::{Call, Reply, Transcript, Turn};

const F: TraceFormat = TraceFormat::N8n;

/// `resultData` of an execution, wherever it sits.
fn result_data(v: &Value) -> Option<(&Value, String)> {
    if let Some(r) = v.pointer("/data/resultData") {
        return Some((r, "$.data.resultData".into()));
    }
    if let Some(r) = v.get("resultData") {
        return Some((r, "$.resultData".into()));
    }
    v.get("runData").map(|_| (v, "$".into()))
}

pub(super) fn detect(v: &Value) -> bool {
    result_data(v).is_some_and(|(r, _)| r.get("runData").is_some_and(Value::is_object))
}

struct Run<'v> {
    node: &'v str,
    start: f64,
    run: &'v Value,
    path: String,
}

pub(super) fn parse(v: &Value) -> Result<Transcript, TraceError> {
    let (rd, base) = result_data(v).ok_or_else(|| {
        TraceError::at(
            F,
            "$",
            "expected execution data (`data.resultData.runData`)",
        )
    })?;
    let run_data = rd
        .get("runData")
        .and_then(Value::as_object)
        .ok_or_else(|| {
            TraceError::at(
                F,
                format!("{base}.runData"),
                "expected an object of node runs",
            )
        })?;
    let runs = collect_runs(run_data, &base)?;
    let top = calls(v, run_data, &runs)?;
    let mut reply = final_reply(rd, top);
    reply.latency_ms = latency_ms(v);
    Ok(Transcript::new(vec![Turn::recorded(0, "", reply)]))
}

/// Every run of every node, ordered by start time (a missing start counts as 0).
fn collect_runs<'v>(
    run_data: &'v serde_json::Map<String, Value>,
    base: &str,
) -> Result<Vec<Run<'v>>, TraceError> {
    let mut runs = Vec::new();
    for (node, node_runs) in run_data {
        let list = node_runs.as_array().ok_or_else(|| {
            TraceError::at(
                F,
                format!("{base}.runData.{node}"),
                "expected an array of runs",
            )
        })?;
        for (i, run) in list.iter().enumerate() {
            let path = format!("{base}.runData.{node}[{i}]");
            if !run.is_object() {
                return Err(TraceError::at(F, path, "expected a run object"));
            }
            let start = run.get("startTime").and_then(Value::as_f64).unwrap_or(0.0);
            runs.push(Run {
                node,
                start,
                run,
                path,
            });
        }
    }
    runs.sort_by(|a, b| a.start.total_cmp(&b.start));
    Ok(runs)
}

/// The top-level calls, in run order, with each sub-node's call nested under the last call of
/// the node its run's `source` names (or left at the top when that node never ran).
fn calls(
    v: &Value,
    run_data: &serde_json::Map<String, Value>,
    runs: &[Run<'_>],
) -> Result<Vec<Call>, TraceError> {
    let parameters = parameters_by_node(v);
    let mut top: Vec<Call> = Vec::new();
    let mut subs: Vec<(String, Call)> = Vec::new();
    for r in runs {
        let (sub_kind, call) = run_call(r, &parameters);
        let parent = r
            .run
            .get("source")
            .and_then(Value::as_array)
            .and_then(|s| s.first())
            .and_then(|s| s.get("previousNode"))
            .and_then(Value::as_str)
            .filter(|p| run_data.contains_key(*p));
        match (sub_kind, parent) {
            (Some(_), Some(p)) => subs.push((p.to_owned(), call)),
            (Some(_), None) => top.push(call),
            (None, _) => {
                if r.run.get("startTime").is_some_and(|s| !s.is_number()) {
                    return Err(TraceError::at(
                        F,
                        format!("{}.startTime", r.path),
                        "expected a timestamp in milliseconds",
                    ));
                }
                top.push(call);
            }
        }
    }
    for (parent, call) in subs {
        match top.iter_mut().rev().find(|c| c.name == parent) {
            Some(p) => p.children.push(call),
            None => top.push(call),
        }
    }
    Ok(top)
}

/// One run as a call, with the kind of AI sub-node data it carries (`None` for a main node):
/// a tool run becomes a tool call, anything else a node call with the node's parameters.
fn run_call(r: &Run<'_>, parameters: &[(&str, &Value)]) -> (Option<&'static str>, Call) {
    let data = r.run.get("data");
    let is_tool = data.is_some_and(|d| d.get("ai_tool").is_some());
    let sub_kind = [
        "ai_tool",
        "ai_languageModel",
        "ai_memory",
        "ai_embedding",
        "ai_retriever",
        "ai_vectorStore",
    ]
    .into_iter()
    .find(|k| data.is_some_and(|d| d.get(*k).is_some()));
    let output = sub_kind
        .map(|k| first_json(data.and_then(|d| d.get(k))))
        .unwrap_or_else(|| first_json(data.and_then(|d| d.get("main"))));
    let error = r.run.get("error").is_some_and(|e| !e.is_null())
        || r.run.get("executionStatus").and_then(Value::as_str) == Some("error");
    let mut call = if is_tool {
        let input = first_json(r.run.get("inputOverride").and_then(|i| i.get("ai_tool")));
        Call::tool(r.node, input.unwrap_or(Value::Object(Default::default())))
    } else {
        Call::node(r.node).with_arguments(
            parameters
                .iter()
                .find(|(n, _)| *n == r.node)
                .map_or(Value::Null, |(_, p)| (*p).clone()),
        )
    };
    call.result = if error {
        r.run.get("error").cloned().or(output)
    } else {
        output
    };
    call.error = error;
    (sub_kind, call)
}

/// The reply: the output of the last node executed (else of the last call) as its text and body.
fn final_reply(rd: &Value, top: Vec<Call>) -> Reply {
    let last = rd.get("lastNodeExecuted").and_then(Value::as_str);
    let final_output = last
        .and_then(|n| top.iter().rev().find(|c| c.name == n))
        .or_else(|| top.last())
        .and_then(|c| c.result.clone());
    let mut reply = Reply::text(final_output.as_ref().map(final_text).unwrap_or_default());
    reply.calls = top;
    reply.body = final_output;
    reply
}

/// The execution's wall time, when both `startedAt` and `stoppedAt` are readable instants.
fn latency_ms(v: &Value) -> Option<u64> {
    if let (Some(start), Some(stop)) = (
        v.get("startedAt").and_then(Value::as_str),
        v.get("stoppedAt").and_then(Value::as_str),
    ) && let (Ok(a), Ok(b)) = (
        start.parse::<jiff::Timestamp>(),
        stop.parse::<jiff::Timestamp>(),
    ) {
        return u64::try_from(b.duration_since(a).as_millis()).ok();
    }
    None
}

/// The first item's `json` of an n8n output: `[[{"json": {...}}]]`.
fn first_json(v: Option<&Value>) -> Option<Value> {
    v?.get(0)?.get(0)?.get("json").cloned()
}

/// Node parameters from the workflow definition, when the execution carries it.
fn parameters_by_node(v: &Value) -> Vec<(&str, &Value)> {
    v.pointer("/workflowData/nodes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|n| Some((n.get("name")?.as_str()?, n.get("parameters")?)))
        .collect()
}

//! Rule 2 of the reading rules: the calls the model steps asked for joined with the tool spans
//! that ran them — by call id wherever one is written, else by name, arguments and order
//! within the same agent, after the model step.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::super::Role;
use super::super::payload::json_text;
use super::super::spans::text;
use super::{Reading, Request, normalized};
use agent_test_core::model::{Gap, Part};

impl Reading<'_> {
    /// Joins the calls the model steps asked for with the tool spans that ran them.
    pub(super) fn join(&mut self, parent: &[Option<usize>]) {
        self.collect_requests();
        let tools: Vec<usize> = self
            .order
            .iter()
            .copied()
            .filter(|&i| self.tool(i).is_some())
            .collect();
        let mut tools_by_time = tools.clone();
        tools_by_time.sort_by_key(|&t| (self.start(t), t));
        self.record_tool_ids(&tools, parent);
        // The requests joined (or delegated).
        let mut taken = HashSet::new();
        let mut joins = self.joins_by_id(&tools_by_time, &mut taken);
        let joined: HashSet<usize> = joins.iter().map(|(t, _)| *t).collect();
        joins.extend(self.joins_by_name(&tools_by_time, &joined, &mut taken));
        self.ran = joins.into_iter().collect();
        self.delegate(&mut taken);
        self.unjoined = (0..self.requests.len())
            .filter(|r| !taken.contains(r))
            .collect();
        if !tools.is_empty() {
            self.report_unjoined();
        }
    }

    /// Every call each model step asked for, as a request, in step order.
    fn collect_requests(&mut self) {
        for (step, &m) in self.steps.iter().enumerate() {
            if let Some(Role::Model(model)) = self.roles.get(m) {
                for call in &model.output_calls {
                    self.requests.push(Request {
                        step,
                        model: m,
                        call: call.clone(),
                        owner: self.owner.get(m).copied().flatten(),
                    });
                }
            }
        }
    }

    /// Each tool span's call id: its own, else the one its parent lists for it.
    fn record_tool_ids(&mut self, tools: &[usize], parent: &[Option<usize>]) {
        for &t in tools {
            let id = self.tool(t).and_then(|s| s.id.clone()).or_else(|| {
                let p = parent.get(t).copied().flatten()?;
                self.listed_id(p, t)
            });
            if let Some(id) = id {
                self.tool_ids.insert(t, id);
            }
        }
    }

    /// Joins by call id, tools in time order; with a repeated id the first request wins.
    fn joins_by_id(
        &self,
        tools_by_time: &[usize],
        taken: &mut HashSet<usize>,
    ) -> Vec<(usize, usize)> {
        let by_id: HashMap<&str, usize> = self
            .requests
            .iter()
            .enumerate()
            .rev()
            .filter_map(|(r, q)| q.call.id.as_deref().map(|id| (id, r)))
            .collect();
        let mut joins = Vec::new();
        for &t in tools_by_time {
            if let Some(&r) = self.tool_ids.get(&t).and_then(|id| by_id.get(id.as_str()))
                && taken.insert(r)
            {
                joins.push((t, r));
            }
        }
        joins
    }

    /// Joins the tools not joined by id: by name, arguments and order, within the agent, after
    /// the step. An agent with no model step of its own (a workflow node) runs what the agent
    /// around it asked for.
    fn joins_by_name(
        &self,
        tools_by_time: &[usize],
        joined: &HashSet<usize>,
        taken: &mut HashSet<usize>,
    ) -> Vec<(usize, usize)> {
        let thinking: HashSet<Option<usize>> =
            self.steps.iter().map(|&m| self.owner_of(m)).collect();
        let mut joins = Vec::new();
        for &t in tools_by_time.iter().filter(|t| !joined.contains(t)) {
            let (Some(tool), Some(start)) = (self.tool(t), self.start(t)) else {
                continue;
            };
            let name = normalized(&tool.name);
            let mut owners = vec![self.owner_of(t)];
            while let Some(Some(a)) = owners.last().copied()
                && !thinking.contains(&Some(a))
                && owners.len() <= self.spans.len()
            {
                owners.push(self.owner_of(a));
            }
            let candidates = self.requests.iter().enumerate().filter(|(r, q)| {
                !taken.contains(r)
                    && normalized(&q.call.name) == name
                    && owners.contains(&q.owner)
                    && self.start(q.model).is_some_and(|asked| asked <= start)
            });
            let best = candidates.max_by_key(|(r, q)| {
                let same_args = tool.arguments.as_ref() == Some(&q.call.arguments);
                (same_args, q.step, std::cmp::Reverse(*r))
            });
            if let Some((r, _)) = best {
                taken.insert(r);
                joins.push((t, r));
            }
        }
        joins
    }

    /// Marks as taken each request carried out by a sub-agent of that name, started after the
    /// step (each agent carries out one request).
    fn delegate(&self, taken: &mut HashSet<usize>) {
        let agents: Vec<usize> = self
            .order
            .iter()
            .copied()
            .filter(|&i| matches!(self.roles.get(i), Some(Role::Agent(_))))
            .collect();
        let mut delegated_to = HashSet::new();
        for (r, q) in self.requests.iter().enumerate() {
            if taken.contains(&r) {
                continue;
            }
            let name = normalized(&q.call.name);
            let agent = agents.iter().copied().find(|&a| {
                !delegated_to.contains(&a)
                    && self.agent_name(a).map(normalized).as_deref() == Some(name.as_str())
                    && matches!(
                        (self.start(a), self.start(q.model)),
                        (Some(started), Some(asked)) if started >= asked
                    )
            });
            if let Some(a) = agent {
                delegated_to.insert(a);
                taken.insert(r);
            }
        }
    }

    /// A gap for each unjoined request — only said when the trace has tool spans, so a
    /// missing one means whether the call ran is unknown.
    fn report_unjoined(&mut self) {
        for q in self.unjoined.iter().filter_map(|&r| self.requests.get(r)) {
            self.gaps.push(Gap::new(
                Part::Calls,
                format!(
                    "model step {} asked for `{}`{}, and no tool span of the trace can be \
                     joined with that request (the trace's other tools have spans, so \
                     whether it ran is unknown)",
                    q.step + 1,
                    q.call.name,
                    q.call
                        .id
                        .as_deref()
                        .map(|id| format!(" (call {id})"))
                        .unwrap_or_default()
                ),
            ));
        }
    }

    /// The call id a span's parent lists for it: the parent's input or output holds the calls
    /// it ran (LangGraph's `tools` node: `[{"name", "args", "id"}]`, or their `ToolMessage`s),
    /// and one of them is this tool's.
    pub(super) fn listed_id(&self, parent: usize, tool: usize) -> Option<String> {
        let t = self.tool(tool)?;
        let name = normalized(&t.name);
        let attributes = &self.spans.get(parent)?.attributes;
        let mut found: Vec<(String, Option<Value>)> = Vec::new();
        for key in ["input.value", "output.value"] {
            let Some(v) = attributes.get(key).map(json_text) else {
                continue;
            };
            let items = match &v {
                Value::Array(items) => items.as_slice(),
                Value::Object(o) => o
                    .get("messages")
                    .and_then(Value::as_array)
                    .map_or(&[][..], Vec::as_slice),
                _ => &[],
            };
            for item in items {
                let item = item.get("data").unwrap_or(item);
                let id = item
                    .get("tool_call_id")
                    .or_else(|| item.get("id"))
                    .and_then(text);
                let listed = item.get("name").and_then(Value::as_str).map(normalized);
                if let (Some(id), Some(listed)) = (id, listed)
                    && listed == name
                    && !found.iter().any(|(f, _)| *f == id)
                {
                    found.push((id, item.get("args").cloned()));
                }
            }
        }
        match found.as_slice() {
            [(id, _)] => Some(id.clone()),
            many => many
                .iter()
                .find(|(_, args)| args.is_some() && args.as_ref() == t.arguments.as_ref())
                .map(|(id, _)| id.clone()),
        }
    }

    /// The result a later model step was given for call `id`.
    pub(super) fn given_result(&self, id: &str) -> Option<Value> {
        self.steps.iter().find_map(|&m| {
            self.model(m)?
                .tool_results
                .iter()
                .find(|(i, _)| i == id)
                .map(|(_, v)| v.clone())
        })
    }

    /// The step a tool span without a request belongs to: the last step of its agent that
    /// ended before it started.
    pub(super) fn step_by_time(&self, t: usize) -> Option<usize> {
        let start = self.start(t)?;
        let owner = self.owner_of(t);
        self.steps.iter().rposition(|&m| {
            self.spans.get(m).is_some_and(|s| s.end_ns <= start) && self.owner_of(m) == owner
        })
    }
}

//! Agent graphs run inside a tool (LangGraph's "sub-agents as tools": a `create_react_agent`
//! graph invoked in a `@tool`): the instrumentations write the sub-agent's run, but not as an
//! agent span with its work inside it.
//!
//! - **OpenInference** writes the graph's root as a `CHAIN` (an `AGENT` when its name says
//!   "agent") named after the graph, carrying the `langgraph_node` of the node *around* it
//!   (`tools`); its children are the nodes of a graph nested in its namespace (their
//!   `langgraph_checkpoint_ns` is `tools:…|agent:…`). Such a span is the sub-agent
//!   ([`subgraph_agents`]).
//! - **OpenLLMetry** writes an empty `invoke_agent <name>` span and, beside it (the same
//!   parent, inside its time), the graph's own `execute_task <name>` span holding the work: the
//!   graph is the agent's ([`adopt`]).

use super::super::spans::Span;
use super::super::{AgentSpan, Role, openinference};

/// Makes the root span of a graph run inside another graph's node an agent named after it.
pub(super) fn subgraph_agents(spans: &[Span], roles: &mut [Role], children: &[Vec<usize>]) {
    for (i, span) in spans.iter().enumerate() {
        let Some(own_ns) = openinference::metadata(span, "langgraph_checkpoint_ns") else {
            continue;
        };
        // A graph node is named after its node; a graph run inside one is not.
        if openinference::metadata(span, "langgraph_node").as_deref() == Some(span.name.as_str()) {
            continue;
        }
        // Its children are the nodes of a graph nested in its namespace (`tools:…|agent:…`).
        let nested = format!("{own_ns}|");
        let runs_a_graph = children.get(i).into_iter().flatten().any(|&c| {
            spans.get(c).is_some_and(|child| {
                openinference::metadata(child, "langgraph_node").as_deref()
                    == Some(child.name.as_str())
                    && openinference::metadata(child, "langgraph_checkpoint_ns")
                        .is_some_and(|ns| ns.starts_with(&nested))
            })
        });
        if runs_a_graph
            && matches!(roles.get(i), Some(Role::Structure | Role::Unknown))
            && let Some(role) = roles.get_mut(i)
        {
            *role = Role::Agent(AgentSpan {
                name: span.name.clone(),
                declared: true,
                ..Default::default()
            });
        }
    }
}

/// Moves under an agent span with no children the sibling span that holds its graph's work:
/// same parent, started inside the agent span's time, named for the agent
/// (`traceloop.entity.name`).
pub(super) fn adopt(spans: &[Span], roles: &[Role], parent: &mut [Option<usize>]) {
    let childless: Vec<usize> = (0..spans.len())
        .filter(|&i| matches!(roles.get(i), Some(Role::Agent(_))))
        .filter(|&i| !parent.contains(&Some(i)))
        .collect();
    for a in childless {
        let (Some(agent), Some(Role::Agent(role))) = (spans.get(a), roles.get(a)) else {
            continue;
        };
        let siblings = parent.get(a).copied().flatten();
        let work = (0..spans.len()).find(|&w| {
            w != a
                && parent.get(w).copied().flatten() == siblings
                && spans.get(w).is_some_and(|s| {
                    s.text("traceloop.entity.name").as_deref() == Some(role.name.as_str())
                        && (agent.start_ns..=agent.end_ns).contains(&s.start_ns)
                })
        });
        if let Some(slot) = work.and_then(|w| parent.get_mut(w)) {
            *slot = Some(a);
        }
    }
}

//! `agent::traced` captures every span of its turn, whatever other tests do on other threads.
//!
//! The cause of the spans that were lost under `cargo test`'s threads, shown step by step in a
//! process of its own (the registry of subscribers is process-wide): while one subscriber is
//! registered, `tracing-core` decides a new callsite's interest from the default subscriber of
//! the thread that reaches it first; a thread with none caches "never", and the turn's span
//! from that callsite is never created. Then the same order of events through `traced`, whose
//! capture keeps every callsite open, and a stress test of many traced turns racing untraced
//! threads to fresh callsites.

#![cfg(feature = "tracing")]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Barrier, mpsc};

use agent_test_runtime::agent::agent_fn;
use agent_test_runtime::agent::{Agent, AgentRequest, traced};
use agent_test_runtime::model::{Message, Reply};
use tracing::Dispatch;
use tracing_subscriber::prelude::*;

/// The variable that makes [`lone_subscriber_child`] run its steps (in the child process).
const CHILD: &str = "AGENT_TEST_CAPTURE_CHILD";

/// A tool span, as an instrumented crate writes it; each call of this function is the same
/// callsite.
fn refund_span() {
    let span = tracing::info_span!(
        "execute_tool",
        "gen_ai.operation.name" = "execute_tool",
        "gen_ai.tool.name" = "refund",
        "gen_ai.tool.call.arguments" = r#"{"amount_cents": 99999}"#,
    );
    span.in_scope(|| ());
}

/// Another callsite, reached first by an untraced thread after `traced` exists.
fn lookup_span() {
    let span = tracing::info_span!(
        "execute_tool",
        "gen_ai.operation.name" = "execute_tool",
        "gen_ai.tool.name" = "lookup_order",
        "gen_ai.tool.call.arguments" = r#"{"order_id": "ORD-1"}"#,
    );
    span.in_scope(|| ());
}

/// A layer counting the spans it is shown.
struct Count(Arc<AtomicUsize>);

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for Count {
    fn on_new_span(
        &self,
        _: &tracing::span::Attributes<'_>,
        _: &tracing::span::Id,
        _: tracing_subscriber::layer::Context<'_, S>,
    ) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

fn request() -> AgentRequest {
    AgentRequest::new("capture", 0, vec![Message::user("refund ORD-1")])
}

/// Runs [`lone_subscriber_child`] in a process of its own and passes on its verdict.
#[test]
fn a_lone_subscriber_loses_the_spans_of_a_callsite_another_thread_reached_first() {
    if std::env::var_os(CHILD).is_some() {
        return lone_subscriber_child();
    }
    let out = std::process::Command::new(std::env::current_exe().expect("the test binary"))
        .args([
            "--exact",
            "capture::a_lone_subscriber_loses_the_spans_of_a_callsite_another_thread_reached_first",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD, "1")
        .output()
        .expect("the child process");
    let said =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("1 passed"), "{said}");
}

/// In a fresh process: (1) with plain `tracing`, a subscriber registered alone sees no span
/// from a callsite an untraced thread reached first; (2) through `traced`, a turn sees its
/// span although an untraced thread reached that fresh callsite first.
fn lone_subscriber_child() {
    // (1) The cause. One subscriber is registered (this thread's), none on the other thread.
    let seen = Arc::new(AtomicUsize::new(0));
    let lone = Dispatch::new(tracing_subscriber::registry().with(Count(seen.clone())));
    std::thread::spawn(refund_span)
        .join()
        .expect("untraced thread");
    tracing::dispatcher::with_default(&lone, refund_span);
    assert_eq!(
        seen.load(Ordering::SeqCst),
        0,
        "tracing-core no longer decides a new callsite's interest from the first thread's \
         default alone: the keepers of agent::traced may be unnecessary"
    );
    drop(lone);

    // (2) The same order of events in a turn of `traced`: the untraced thread reaches the
    // callsite while the turn runs, before the turn does.
    let (reached, wait) = mpsc::channel::<()>();
    let agent = traced(agent_fn(move |_req: AgentRequest| {
        let reached = reached.clone();
        async move {
            let untraced = std::thread::spawn(move || {
                lookup_span();
                let _ = reached.send(());
            });
            untraced.join().expect("untraced thread");
            lookup_span();
            Reply::text("Looked up.")
        }
    }));
    let reply = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime")
        .block_on(agent.respond(request()))
        .expect("the turn");
    wait.try_recv()
        .expect("the untraced thread reached the callsite first");
    let names: Vec<&str> = reply.calls.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["lookup_order"], "the turn lost its span");
}

/// Fresh callsites, one per round: each `info_span!` written out is a callsite of its own.
macro_rules! sites {
    ($($n:literal)*) => {
        [$(|| {
            let span = tracing::info_span!(
                "execute_tool",
                "gen_ai.operation.name" = "execute_tool",
                "gen_ai.tool.name" = $n,
                "gen_ai.tool.call.arguments" = "{}",
            );
            span.in_scope(|| ());
        },)*]
    };
}

/// 64 traced turns in parallel, each racing an untraced thread to a callsite nobody reached
/// before: no turn loses its span.
#[test]
fn traced_turns_lose_no_span_to_untraced_threads() {
    let sites: [fn(); 64] = sites!(
        "t00" "t01" "t02" "t03" "t04" "t05" "t06" "t07" "t08" "t09" "t10" "t11" "t12" "t13"
        "t14" "t15" "t16" "t17" "t18" "t19" "t20" "t21" "t22" "t23" "t24" "t25" "t26" "t27"
        "t28" "t29" "t30" "t31" "t32" "t33" "t34" "t35" "t36" "t37" "t38" "t39" "t40" "t41"
        "t42" "t43" "t44" "t45" "t46" "t47" "t48" "t49" "t50" "t51" "t52" "t53" "t54" "t55"
        "t56" "t57" "t58" "t59" "t60" "t61" "t62" "t63"
    );
    // Every round at once: 64 traced turns and 64 untraced threads, each pair released together.
    let rounds: Vec<_> = sites
        .iter()
        .map(|&site| {
            let start = Arc::new(Barrier::new(2));
            let untraced = {
                let start = start.clone();
                std::thread::spawn(move || {
                    start.wait();
                    site();
                })
            };
            let agent = traced(agent_fn(move |_req: AgentRequest| {
                let start = start.clone();
                async move {
                    start.wait();
                    site();
                    Reply::text("done")
                }
            }));
            let turn = std::thread::spawn(move || {
                tokio::runtime::Builder::new_current_thread()
                    .build()
                    .expect("a runtime")
                    .block_on(agent.respond(request()))
                    .expect("the turn")
            });
            (untraced, turn)
        })
        .collect();
    let mut lost = Vec::new();
    for (round, (untraced, turn)) in rounds.into_iter().enumerate() {
        untraced.join().expect("untraced thread");
        if turn.join().expect("traced turn").calls.len() != 1 {
            lost.push(round);
        }
    }
    assert!(lost.is_empty(), "rounds whose turn lost its span: {lost:?}");
}

/// One agent shared by concurrent turns whose work crosses them, as a rig agent in a
/// `LazyLock` does (every run polls the agent's one driver): each turn leaves a span behind
/// for a later turn, which starts a span under it and drops it. Every turn still reads its own
/// call, and none panics on a span another turn started.
#[test]
fn one_agent_shared_by_concurrent_turns_keeps_each_turn_s_spans() {
    use std::sync::Mutex;

    static PARKED: Mutex<Vec<tracing::Span>> = Mutex::new(Vec::new());
    let agent = Arc::new(traced(agent_fn(|req: AgentRequest| async move {
        let tool = tracing::info_span!(
            "execute_tool",
            "gen_ai.operation.name" = "execute_tool",
            "gen_ai.tool.name" = req.input.as_str(),
            "gen_ai.tool.call.arguments" = "{}",
        );
        tool.in_scope(|| ());
        drop(tool);
        // Another turn's span: a child of it started here, then both dropped here.
        let earlier = PARKED.lock().unwrap_or_else(|p| p.into_inner()).pop();
        if let Some(earlier) = earlier {
            let child = tracing::info_span!(parent: &earlier, "driver_step");
            child.in_scope(|| ());
            drop(child);
            drop(earlier);
        }
        let driver = tracing::info_span!("driver", "turn" = req.input.as_str());
        PARKED
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(driver);
        Reply::text("done")
    })));
    let turns: Vec<_> = (0..16)
        .map(|i| {
            let agent = Arc::clone(&agent);
            std::thread::spawn(move || {
                let name = format!("tool_{i}");
                let reply = tokio::runtime::Builder::new_current_thread()
                    .build()
                    .expect("a runtime")
                    .block_on(agent.respond(AgentRequest::new(
                        "shared",
                        0,
                        vec![Message::user(name.clone())],
                    )))
                    .expect("the turn");
                (name, reply)
            })
        })
        .collect();
    for t in turns {
        let (name, reply) = t.join().expect("a turn that did not panic");
        let names: Vec<&str> = reply.calls.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, [name.as_str()], "each turn reads its own call");
    }
}

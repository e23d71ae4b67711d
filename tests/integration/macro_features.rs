//! The grammar of `agent_test!` at work: settings, context, history, system messages, turn
//! blocks, Rust statements between steps, bindings, attributes.

use std::time::Duration;

use agent_test::agent::{Agent, AgentRequest, agent_fn};
use agent_test::model::{Call, Message, Reply};
use agent_test::prelude::*;
use agent_test::{Clock, RuntimeFlavor, ScenarioRun, Suite};

use crate::agents::{echo_agent, scripted};

async fn lookup_customer_id() -> u32 {
    tokio::time::sleep(Duration::from_millis(1)).await;
    4242
}

agent_test! {
    agent = echo_agent();
    timeout = Duration::from_secs(5);
    context { PLAN: "basic", REGION: "eu" }

    /// Scenario context overrides the suite's and reaches the agent.
    scenario context_reaches_the_agent {
        context { PLAN: "premium", "USER_ID": 12345 }
        user "hello" {
            expect reply().contains(r#""PLAN":"premium""#);
            expect reply().contains(r#""REGION":"eu""#);
            expect reply().contains(r#""USER_ID":12345"#);
        }
    }

    /// History and system messages come before the user's message; the agent's earlier
    /// replies are part of the conversation.
    scenario history_and_system_messages {
        history [Message::user("Who is the King of England?"), Message::assistant("Charles III.")];
        system "Answer in French.";
        user "When was he born?" {
            expect reply().contains("roles=user,assistant,system,user");
        }
        system "Be brief.";
        user "And his mother?" {
            expect reply().contains("roles=user,assistant,system,user,assistant,system,user");
            expect reply().contains("turn=1");
        }
        expect conversation().contains("Be brief.");
    }

    /// Values computed at run time (even with `.await`) feed later turns and checks; a turn
    /// can be bound to inspect what the agent did.
    scenario rust_between_steps {
        let id = lookup_customer_id().await;
        let first = user format!("customer {id}") {
            let expected = format!("input=customer {id}");
            expect reply().starts_with(expected);
        };
        assert!(first.reply.text.contains("4242"));
        assert_eq!(first.index, 0);
        for n in 1..=2 {
            assert!(n > 0);
        }
        if id > 1000 {
            println!("big id");
        }
        user format!("again {}", first.reply.text.len());
        expect replies().contains("customer 4242");
        expect reply().contains("again");
    }

    /// The body runs as an async block on the test's own thread: values that are not `Send`
    /// live across turns, and `return` ends the steps early while the checks written before it
    /// are still evaluated and reported.
    scenario the_body_is_an_async_block {
        let shared = std::rc::Rc::new(std::cell::Cell::new(1));
        user "first";
        shared.set(shared.get() + lookup_customer_id().await);
        expect reply().contains("input=first");
        if shared.get() > 1 {
            return;
        }
        user "never sent";
        expect reply().contains("a check never added");
    }

    /// Attributes on a scenario go on the test function.
    #[should_panic(expected = "scenario `attributes_pass_through` FAILED")]
    scenario attributes_pass_through {
        user "x" { expect reply().contains("not there"); }
    }
}

agent_test! {
    agent = scripted(vec![
        Reply::text("First").call(Call::tool("search", json!({"q": "a"}))),
        Reply::text("Second").call(Call::tool("book", json!({"id": 1}))),
    ]);

    /// Checks in a turn see that turn; checks after the turns see the whole conversation.
    scenario scopes_follow_the_layout {
        user "one" {
            expect tool("search");
            expect no_tool("book");
            expect reply().equals("first");
        }
        user "two" {
            expect tool("book").at_position(0);
            expect no_tool("search");
        }
        expect tool_sequence(["search", "book"]);
        expect tool("book").at_position(1);
        expect reply().equals("second");
        expect replies().contains("first");
    }
}

/// The builder API, by hand: what the macro expands to.
#[tokio::test]
async fn builder_api_by_hand() {
    let mut run = ScenarioRun::new(Suite::new().agent(echo_agent()).context("A", 1), "by_hand");
    run.context("B", "two");
    run.user("hello").await;
    run.expect_turn(reply().contains(r#""A":1"#));
    run.expect_turn(reply().contains(r#""B":"two""#));
    run.expect(no_tools());
    let report = run.report().await;
    assert!(report.passed(), "{report}");
    assert_eq!(report.summary.passed, 3);
}

/// The data door: a scenario as JSON, run against an agent.
#[tokio::test]
async fn scenario_from_json() {
    let scenario: agent_test::scenario::Scenario = serde_json::from_value(json!({
        "name": "from_json",
        "context": {"PLAN": "gold"},
        "steps": [
            {"step": "system", "text": "Be nice."},
            {"step": "user", "text": "hi", "expect": [
                {"check": {"type": "text", "source": "reply", "op": "contains", "value": "PLAN\":\"gold"}},
                {"check": {"type": "no_tools"}, "id": "quiet"}
            ]}
        ],
        "expect": [
            {"check": {"type": "tool", "name": "search"}, "depends_on": ["quiet"], "severity": "warning"}
        ]
    }))
    .expect("valid scenario JSON");
    let report = scenario.run(Suite::new().agent(echo_agent())).await;
    assert!(report.passed(), "{report}");
    assert_eq!(
        report.summary.warnings, 1,
        "the warning check failed without failing the run"
    );
    let bad =
        serde_json::from_value::<agent_test::scenario::Scenario>(json!({"name": "x", "stepz": []}));
    assert!(
        bad.unwrap_err()
            .to_string()
            .contains("unknown field `stepz`")
    );
}

/// Tells the date it was given, so tests can see the pinned clock reach the agent.
fn dated_agent() -> impl Agent {
    agent_fn(|req: AgentRequest| async move {
        let today = req
            .user_time
            .map(|t| t.date().to_string())
            .unwrap_or_default();
        Reply::text(format!("today is {today}")).call(Call::tool("remember", json!({"on": today})))
    })
}

agent_test! {
    agent = dated_agent();
    clock = Clock::fixed("2026-11-22T23:30:00Z");
    timezone = "Asia/Tokyo";
    context { DAY_OFFSET: 1 }

    /// The suite's pinned clock and time zone reach the agent and the checks: 23:30 UTC is
    /// already the next day in Tokyo.
    scenario the_clock_is_pinned {
        user "what day is it?" {
            expect reply().equals("today is 2026-11-23");
            expect tool("remember").arg("on", date("TODAY()"));
            expect tool("remember").arg("on", expr("FORMAT_DATE(DATE_SUB(DATE_ADD(TODAY, 2, 'days'), 2, 'days'), '%Y-%m-%d')"));
        }
    }

    /// A scenario can pin its own clock.
    scenario scenario_settings_override_the_suite {
        clock = Clock::fixed("2027-01-01T12:00:00Z");
        timezone = "UTC";
        user "what day is it?" {
            expect reply().equals("today is 2027-01-01");
        }
    }

    #[should_panic(expected = "invalid fixed clock 'soon'")]
    scenario an_invalid_clock_is_reported {
        clock = Clock::fixed("soon");
        user "what day is it?";
    }
}

agent_test! {
    agent = scripted(vec![Reply::text("Which order?"), Reply::text("Refunded.")]);

    /// `.so_far()` widens a turn's check to every turn up to it; without it, the turn alone.
    scenario so_far_sees_the_earlier_turns {
        user "I was charged twice";
        user "ORD-1" {
            expect replies().contains("which order").so_far();
            expect replies().not_contains("which order");
            expect conversation().contains("charged twice").so_far();
        }
    }
}

/// An agent that blocks a worker thread: it needs a multi-threaded runtime (on the default
/// current-thread one, `block_in_place` panics, and the turn is an agent error).
fn blocking_agent() -> impl Agent {
    agent_fn(|_req| async {
        let threads = tokio::task::block_in_place(|| {
            tokio::runtime::Handle::current().metrics().num_workers()
        });
        format!("{threads} workers")
    })
}

agent_test! {
    agent = blocking_agent();
    runtime = RuntimeFlavor::multi_thread(2);

    /// The suite's runtime: two worker threads.
    scenario the_suite_s_runtime_is_multi_threaded {
        user "work" {
            expect reply().equals("2 workers");
        }
    }

    /// A scenario's own runtime wins over the suite's.
    scenario a_scenario_sets_its_own_runtime {
        runtime = RuntimeFlavor::multi_thread(3);
        user "work" {
            expect reply().equals("3 workers");
        }
    }
}

/// A name of the user's own module wins over the prelude's in settings and scenarios: the
/// prelude is a glob import beside the generated items, so an item of the module (here a
/// `check` taking no argument, where the prelude's takes a label and a closure) shadows it.
mod own_names_win {
    use agent_test::prelude::*;

    use crate::agents::echo_agent;

    /// The suite's own `check`: the prelude's has another signature, so this module compiles
    /// only when this one is the one the scenario calls.
    fn check() -> agent_test::check::Expectation {
        reply().contains("input=hi").into_expectation()
    }

    agent_test! {
        agent = echo_agent();

        scenario the_modules_check_is_called {
            user "hi";
            expect check();
        }
    }
}

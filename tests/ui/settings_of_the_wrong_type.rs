use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// Literals of the wrong kind for a setting.
agent_test! {
    agent = my_agent();
    repeat = "3";
    clock = "2026-11-23T09:30:00Z";
    timezone = 1;
    judge = "gpt-4o-mini";
    report_dir = 7;
    scenario greeting { user "hi"; }
}

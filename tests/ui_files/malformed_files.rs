use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "pong" })
}

// Patterns are relative to the crate's directory; the UI runner builds this file in
// target/ui/ui_files, three levels below the repository.
agent_test! {
    agent = my_agent();
    files "../../../tests/ui_files/cases/*.json";
    files "../../../tests/ui_files/cases/*.yaml";
    files "../../../tests/ui_files/cases/*.toml";
}

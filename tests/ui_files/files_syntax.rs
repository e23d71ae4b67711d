use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "pong" })
}

// Patterns are relative to the crate's directory; the UI runner builds this file in
// target/ui/ui_files, three levels below the repository.
agent_test! {
    agent = my_agent();
    // Not a literal: the pattern is a string.
    files tests;
    // A literal, but not a string.
    files 3;
    // A string, but not a glob (an unclosed `[`): the position is in the pattern as written.
    files "cases/[*.json";
}

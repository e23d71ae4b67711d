use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// `name =` with nothing after it.
agent_test! {
    agent = my_agent();
    timeout = ;
    scenario greeting { user "hi"; }
}

use agent_test::prelude::*;
use agent_test::RuntimeFlavor;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// A scenario is a test already, on a runtime of its own: a test attribute says what to write
// instead. The runtime is a setting, type-checked: a wrong value is an error on it.
agent_test! {
    agent = my_agent();
    runtime = RuntimeFlavor::multi_thread(2);

    #[tokio::test]
    scenario on_tokio {
        user "hi";
    }

    #[test_log::test]
    scenario logged {
        user "hi";
    }

    scenario wrong_runtime {
        runtime = 4;
        user "hi";
    }
}

fn main() {}

use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

agent_test! {
    agent = my_agent();

    scenario steps_need_their_parts {
        user "Book a room";
        extract "the booking reference";
        let reference: String = extract;
        simulate {
            expect no_tools();
        }
        user "thanks" {
            simulate simulated_user("say thanks");
        }
    }
}

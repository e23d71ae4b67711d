use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};
use agent_test::judge::Judge;

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

agent_test! {
    agent = my_agent();
    judge = Judge::openai("gpt-4o-mini-2024-07-18");

    scenario polite_greeting {
        user "hello" {
            expect judge("greets the user politely").threshold(85.0);
            expect judge("stays on topic").threshold(-0.5);
            expect judge("is concise").threshold(0.7);
        }
    }
}

use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// A type without a JSON Schema cannot declare a tool.
struct BookArgs {
    hotel_id: String,
}

agent_test! {
    agent = my_agent();
    tools { book_hotel: BookArgs }

    scenario book {
        user "Book H-1";
    }
}

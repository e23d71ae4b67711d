use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};
use agent_test::model::{Call, Reply};
use std::time::Duration;

fn booking_agent() -> impl Agent {
    agent_fn(|req| async move {
        let booked = Call::tool("create_booking", json!({"hotel_id": "H-101", "nights": 2}));
        match req.input.as_str() {
            "Book H-101 for 2 nights" => Reply::text("Booked! Your reference is BK-4100.").call(booked),
            _ => Reply::text("Happy to help."),
        }
    })
}

agent_test! {
    agent = booking_agent();                  // required: any expression implementing `Agent`
    timeout = Duration::from_secs(30);        // optional suite settings: timeout, clock, judge, ...
    context { CUSTOMER: "ana@example.com" }   // context variables, sent with every turn

    /// Doc comments describe the scenario in reports.
    scenario booking {
        repeat = 2;                           // scenario settings override the suite's
        user "Hi";                            // a user turn, no checks
        user "Book H-101 for 2 nights" {      // a user turn with checks on that turn
            expect tool("create_booking").arg("hotel_id", "H-101").arg("nights", 2).id("booked");
            expect reply().matches(r"BK-\d{4}").depends_on("booked");
        }
        let turn = user "Thanks!";            // bind what the agent did; ordinary Rust follows
        assert!(!turn.reply.text.is_empty());
        expect tool("create_booking").times(1);          // after the turns: the conversation
        expect reply().contains("sorry").warning();      // reported, never fails the test
    }
}

use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};
use agent_test::model::{Call, Reply};

fn support_agent() -> impl Agent {
    agent_fn(|_r| async {
        Reply::text("Your refund of $42.10 for ORD-9921 is on its way.")
            .call(Call::tool("process_refund", json!({"order_id": "ORD-9921", "amount": 42.10})))
    })
}

agent_test! {
    agent = support_agent();

    scenario refund_answer_is_kept {
        user "Refund my double charge on ORD-9921" {
            expect reply().snapshot();
            expect tool("process_refund").snapshot().id("refund_call");
        }
    }
}

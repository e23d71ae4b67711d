use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};
use agent_test::model::{Call, Reply};

fn support_agent() -> impl Agent {
    agent_fn(|_r| async {
        Reply::text("Refunded.").call(Call::tool("process_refund", json!({"order_id": "ORD-9921"})))
    })
}

agent_test! {
    agent = support_agent();
    repeat = 40;
    min_pass_rate = (0.9, 0.95);   // pass only if the pass rate is ≥ 0.9 with 95 % confidence

    scenario refund_is_issued {
        user "Refund my double charge on ORD-9921" {
            expect tool("process_refund").times(1);
        }
    }
}

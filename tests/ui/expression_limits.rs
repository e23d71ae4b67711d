use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// Calls nest at most 64 deep in an expression, and a count beyond the range of dates is out of
// range whatever the date: compile errors on the literal (a few thousand levels used to crash
// rustc with a stack overflow in the macro, and i64::MIN days to panic when the check ran).
agent_test! {
    agent = my_agent();

    scenario expression_limits {
        user "Shout" {
            expect tool("shout").arg("text", expr("UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER('x')))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))"));
            expect tool("book").arg("date", date("DATE_SUB(TODAY(), -9223372036854775808, 'day')"));
            expect tool("book").arg("date", date("DATE_ADD(NOW(), 9223372036854775807, 'minutes')").tolerance_minutes(u32::MAX));
        }
    }
}

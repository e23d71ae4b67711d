use agent_test::prelude::*;

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// Calls nest at most 64 deep in an expression: deeper is a compile error on the literal
// (a few thousand levels used to crash rustc with a stack overflow in the macro).
agent_test! {
    agent = my_agent();

    scenario deep_expression {
        user "Shout" {
            expect tool("shout").arg("text", expr("UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER(UPPER('x')))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))"));
        }
    }
}

fn main() {}

use agent_test::prelude::*;

agent_test! {
    scenario greeting {
        user "Hello!";
    }
}

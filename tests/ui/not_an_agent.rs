use agent_test::prelude::*;

agent_test! {
    agent = "my agent";

    scenario greeting {
        user "hi";
    }
}

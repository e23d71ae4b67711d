agent_test! {
    agent = my_agent();

    scenario typing {
        user "hello" {
            expect tool("x").
        }
        expect no_tools();
    }
}

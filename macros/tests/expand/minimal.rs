agent_test! {
    agent = my_agent();

    scenario hello {
        user "hi";
        expect reply().contains("hi");
    }
}

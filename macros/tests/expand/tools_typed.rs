agent_test! {
    agent = my_agent();
    tools { search: SearchArgs, "book-hotel": BookArgs }

    scenario typed {
        user "find it";
        expect tool("book-hotel");
    }
}

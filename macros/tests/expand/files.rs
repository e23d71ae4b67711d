// needs feature: files
agent_test! {
    agent = my_agent();
    files "tests/expand/cases/*";

    scenario written_beside_the_files {
        user "hi";
    }
}

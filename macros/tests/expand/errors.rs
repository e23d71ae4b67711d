agent_test! {
    agnt = my_agent();

    scenario broken {
        usr "hi";
        user "hello" {
            expect reply().matches("(unclosed");
            expect tool("a").id("dup");
            expect tool("b").id("dup");
        }
        expect reply().contains("x").depends_on("nothing");
    }

    scenario broken {
        user "again";
    }

    scenario {
        user "a scenario without a name";
    }
}

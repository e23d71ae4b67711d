agent_test! {
    agent = my_agent();
    judge = Judge::from_env();
    timeout = Duration::from_secs(30);
    report_dir = "target/my-reports";
    clock = Clock::fixed("2026-11-23T09:30:00Z");
    timezone = "Europe/Lisbon";
    repeat = 5;
    min_passes = 4;
    tags = ["billing", "nightly"];
    context { CUSTOMER_EMAIL: "ana@example.com", "USER_ID": 12345 }

    /// Doc comments become the scenario's description,
    /// over several lines.
    #[ignore = "attributes go on the test"]
    #[cfg(not(miri))]
    scenario documented {
        user "hi";
    }

    scenario second {
        tags = ["slow"];
        user "hello";
        expect reply().contains("hello");
    }
}

agent_test! {
    agent = my_agent();

    /// Every kind of statement a scenario takes.
    scenario every_statement {
        agent = other_agent();
        timeout = Duration::from_secs(60);
        clock = Clock::fixed("2026-11-23T09:00:00Z");
        timezone = "UTC";
        judge = Judge::from_env();
        repeat = 3;
        min_passes = 2;
        context { PLAN: "premium", "USER_ID": 12345 }
        history [Message::user("Hi"), Message::assistant("Hello!")];
        system "Answer briefly.";

        let id = create_test_customer().await;
        user format!("Book hotel H-101 for customer {id}") {
            expect tool("create_booking").arg("hotel_id", "H-101");
            let note = "Rust between checks";
            expect reply().contains("booked").id("booked");
        }
        user "plain turn";
        let turn = user "And the reference?" {
            expect reply().matches(r"BK-\d{4}");
        }
        assert!(turn.reply.text.contains("BK-"));
        let reference: String = extract "the booking reference";
        simulate simulated_user("cancel the booking").turns(1..=3) {
            expect reply().contains("cancel");
        }
        if reference.is_empty() {
            return;
        }
        expect reply().contains("BK-").depends_on("booked");
        expect tool("create_booking").times(1);
    }
}

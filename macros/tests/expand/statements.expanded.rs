#[doc(hidden)]
#[allow(dead_code, non_snake_case, unused_variables, unused_braces)]
fn __agent_test_suite_cb69f74661c76366() -> ::agent_test::__private::Suite {
    #[allow(unused_imports)]
    use ::agent_test::prelude::*;
    ::agent_test::__private::Suite::new().agent({ my_agent() })
}
/// Every kind of statement a scenario takes.
#[test]
#[allow(unused_braces)]
fn every_statement() {
    #[allow(unused_imports)]
    use ::agent_test::prelude::*;
    ::agent_test::__private::test_scenario(
        &::agent_test::__private::ScenarioSource {
            name: "every_statement",
            description: "Every kind of statement a scenario takes.",
            module: ::core::module_path!(),
            file: ::core::file!(),
            line: ::core::line!(),
        },
        __agent_test_suite_cb69f74661c76366,
        &mut |__agent_test_run: &mut ::agent_test::__private::ScenarioRun| {
            ::agent_test::__private::Box::pin(async move {
                __agent_test_run.agent({ other_agent() });
                __agent_test_run.timeout({ Duration::from_secs(60) });
                __agent_test_run.clock({ Clock::fixed("2026-11-23T09:00:00Z") });
                __agent_test_run.timezone({ "UTC" });
                __agent_test_run.judge({ Judge::from_env() });
                __agent_test_run.repeat({ 3 });
                __agent_test_run.min_passes({ 2 });
                __agent_test_run.context("PLAN", { "premium" });
                __agent_test_run.context("USER_ID", { 12345 });
                __agent_test_run
                    .history({ [Message::user("Hi"), Message::assistant("Hello!")] });
                __agent_test_run.system({ "Answer briefly." });
                let id = create_test_customer().await;
                __agent_test_run
                    .user({ format!("Book hotel H-101 for customer {id}") })
                    .await;
                {
                    __agent_test_run
                        .__expect(
                            { tool("create_booking").arg("hotel_id", "H-101") },
                            "tool(\"create_booking\").arg(\"hotel_id\", \"H-101\")",
                            true,
                        );
                    let note = "Rust between checks";
                    __agent_test_run
                        .__expect(
                            { reply().contains("booked").id("booked") },
                            "reply().contains(\"booked\").id(\"booked\")",
                            true,
                        );
                }
                __agent_test_run.user({ "plain turn" }).await;
                __agent_test_run.user({ "And the reference?" }).await;
                {
                    __agent_test_run
                        .__expect(
                            { reply().matches(r"BK-\d{4}") },
                            "reply().matches(r\"BK-\\d{4}\")",
                            true,
                        );
                }
                let turn = __agent_test_run.__last_turn();
                assert!(turn.reply.text.contains("BK-"));
                let reference: String = __agent_test_run
                    .extract({ "the booking reference" })
                    .await;
                __agent_test_run
                    .simulate(
                        { simulated_user("cancel the booking").turns(1..=3) },
                        |__agent_test_run: &mut ::agent_test::__private::ScenarioRun| {
                            __agent_test_run
                                .__expect(
                                    { reply().contains("cancel") },
                                    "reply().contains(\"cancel\")",
                                    true,
                                );
                        },
                    )
                    .await;
                if reference.is_empty() {
                    return;
                }
                __agent_test_run
                    .__expect(
                        { reply().contains("BK-").depends_on("booked") },
                        "reply().contains(\"BK-\").depends_on(\"booked\")",
                        false,
                    );
                __agent_test_run
                    .__expect(
                        { tool("create_booking").times(1) },
                        "tool(\"create_booking\").times(1)",
                        false,
                    );
            })
        },
    );
}

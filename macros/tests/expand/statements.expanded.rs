#[allow(unused_imports)]
use ::agent_test::prelude::*;
#[doc(hidden)]
#[cfg_attr(miri, unstable(feature = "agent_test_internals", issue = "none"))]
#[allow(dead_code, non_snake_case, unused_variables, unused_braces, unexpected_cfgs)]
fn __agent_test_suite_cb69f74661c76366() -> ::agent_test::__private::Suite {
    #[cfg(rust_analyzer)]
    let _ = ::agent_test::dsl::in_suite::agent;
    #[cfg(rust_analyzer)]
    let _ = ::agent_test::dsl::in_suite::scenario;
    ::agent_test::__private::Suite::new().agent({ my_agent() })
}
#[doc(hidden)]
#[cfg_attr(miri, unstable(feature = "agent_test_internals", issue = "none"))]
#[allow(dead_code, non_snake_case, unused_braces, unexpected_cfgs)]
fn __agent_test_runtime_cb69f74661c76366() -> ::agent_test::__private::RuntimeFlavor {
    ::agent_test::__private::RuntimeFlavor::shared()
}
const _: ::core::option::Option<&str> = ::core::option_env!("AGENT_TEST_TAGS");
/// Every kind of statement a scenario takes.
#[test]
#[allow(unused_braces, unexpected_cfgs)]
fn every_statement() {
    ::agent_test::__private::test_scenario(
        &::agent_test::__private::ScenarioSource {
            name: "every_statement",
            description: "Every kind of statement a scenario takes.",
            module: ::core::module_path!(),
            file: ::core::file!(),
            line: ::core::line!(),
        },
        __agent_test_suite_cb69f74661c76366,
        __agent_test_runtime_cb69f74661c76366(),
        &mut |__agent_test_run: &mut ::agent_test::__private::ScenarioRun| {
            ::agent_test::__private::Box::pin(async move {
                #[cfg(rust_analyzer)]
                let _ = ::agent_test::dsl::in_scenario::agent;
                __agent_test_run.agent({ other_agent() });
                #[cfg(rust_analyzer)]
                let _ = ::agent_test::dsl::in_scenario::timeout;
                __agent_test_run.timeout({ Duration::from_secs(60) });
                #[cfg(rust_analyzer)]
                let _ = ::agent_test::dsl::in_scenario::clock;
                __agent_test_run.clock({ Clock::fixed("2026-11-23T09:00:00Z") });
                #[cfg(rust_analyzer)]
                let _ = ::agent_test::dsl::in_scenario::timezone;
                __agent_test_run.timezone({ "UTC" });
                #[cfg(rust_analyzer)]
                let _ = ::agent_test::dsl::in_scenario::judge;
                __agent_test_run.judge({ Judge::from_env() });
                #[cfg(rust_analyzer)]
                let _ = ::agent_test::dsl::in_scenario::repeat;
                __agent_test_run.repeat({ 3 });
                #[cfg(rust_analyzer)]
                let _ = ::agent_test::dsl::in_scenario::min_passes;
                __agent_test_run.min_passes({ 2 });
                #[cfg(rust_analyzer)]
                let _ = ::agent_test::dsl::in_scenario::context;
                __agent_test_run.context("PLAN", { "premium" });
                __agent_test_run.context("USER_ID", { 12345 });
                #[cfg(rust_analyzer)]
                let _ = ::agent_test::dsl::in_scenario::history;
                __agent_test_run
                    .history({ [Message::user("Hi"), Message::assistant("Hello!")] });
                #[cfg(rust_analyzer)]
                let _ = ::agent_test::dsl::in_scenario::system;
                __agent_test_run.system({ "Answer briefly." });
                let id = create_test_customer().await;
                #[cfg(rust_analyzer)]
                let _ = ::agent_test::dsl::in_scenario::user;
                __agent_test_run
                    .user(
                        ::agent_test::__private::user_message({
                            format!("Book hotel H-101 for customer {id}")
                        }),
                    )
                    .await;
                {
                    #[cfg(rust_analyzer)]
                    let _ = ::agent_test::dsl::in_turn::expect;
                    __agent_test_run
                        .__expect(
                            { tool("create_booking").arg("hotel_id", "H-101") },
                            "tool(\"create_booking\").arg(\"hotel_id\", \"H-101\")",
                            true,
                        );
                    let note = "Rust between checks";
                    #[cfg(rust_analyzer)]
                    let _ = ::agent_test::dsl::in_turn::expect;
                    __agent_test_run
                        .__expect(
                            { reply().contains("booked").id("booked") },
                            "reply().contains(\"booked\").id(\"booked\")",
                            true,
                        );
                    #[cfg(rust_analyzer)]
                    let _ = ::agent_test::dsl::in_turn::__;
                }
                #[cfg(rust_analyzer)]
                let _ = ::agent_test::dsl::in_scenario::user;
                __agent_test_run
                    .user(::agent_test::__private::user_message({ "plain turn" }))
                    .await;
                {
                    #[cfg(rust_analyzer)]
                    let _ = ::agent_test::dsl::in_turn::__;
                }
                #[cfg(rust_analyzer)]
                let _ = ::agent_test::dsl::in_scenario::user;
                __agent_test_run
                    .user(
                        ::agent_test::__private::user_message({ "And the reference?" }),
                    )
                    .await;
                {
                    #[cfg(rust_analyzer)]
                    let _ = ::agent_test::dsl::in_turn::expect;
                    __agent_test_run
                        .__expect(
                            { reply().matches(r"BK-\d{4}") },
                            "reply().matches(r\"BK-\\d{4}\")",
                            true,
                        );
                    #[cfg(rust_analyzer)]
                    let _ = ::agent_test::dsl::in_turn::__;
                }
                let turn = __agent_test_run.__last_turn();
                assert!(turn.reply.text.contains("BK-"));
                #[cfg(rust_analyzer)]
                let _ = ::agent_test::dsl::in_scenario::extract;
                let reference: String = __agent_test_run
                    .extract({ "the booking reference" })
                    .await;
                #[cfg(rust_analyzer)]
                let _ = ::agent_test::dsl::in_scenario::simulate;
                __agent_test_run
                    .simulate(
                        { simulated_user("cancel the booking").turns(1..=3) },
                        |__agent_test_run: &mut ::agent_test::__private::ScenarioRun| {
                            #[cfg(rust_analyzer)]
                            let _ = ::agent_test::dsl::in_turn::expect;
                            __agent_test_run
                                .__expect(
                                    { reply().contains("cancel") },
                                    "reply().contains(\"cancel\")",
                                    true,
                                );
                            #[cfg(rust_analyzer)]
                            let _ = ::agent_test::dsl::in_turn::__;
                        },
                    )
                    .await;
                if reference.is_empty() {
                    return;
                }
                #[cfg(rust_analyzer)]
                let _ = ::agent_test::dsl::in_scenario::expect;
                __agent_test_run
                    .__expect(
                        { reply().contains("BK-").depends_on("booked") },
                        "reply().contains(\"BK-\").depends_on(\"booked\")",
                        false,
                    );
                #[cfg(rust_analyzer)]
                let _ = ::agent_test::dsl::in_scenario::expect;
                __agent_test_run
                    .__expect(
                        { tool("create_booking").times(1) },
                        "tool(\"create_booking\").times(1)",
                        false,
                    );
                #[cfg(rust_analyzer)]
                let _ = ::agent_test::dsl::in_scenario::__;
            })
        },
    );
}

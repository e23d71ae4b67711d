#[allow(unused_imports)]
use ::agent_test::prelude::*;
#[doc(hidden)]
#[cfg_attr(miri, unstable(feature = "agent_test_internals", issue = "none"))]
#[allow(dead_code, non_snake_case, unused_variables, unused_braces, unexpected_cfgs)]
fn __agent_test_suite_1be99f68d75d2e45() -> ::agent_test::__private::Suite {
    #[cfg(rust_analyzer)]
    let _ = ::agent_test::dsl::in_suite::agent;
    #[cfg(rust_analyzer)]
    let _ = ::agent_test::dsl::in_suite::judge;
    #[cfg(rust_analyzer)]
    let _ = ::agent_test::dsl::in_suite::timeout;
    #[cfg(rust_analyzer)]
    let _ = ::agent_test::dsl::in_suite::report_dir;
    #[cfg(rust_analyzer)]
    let _ = ::agent_test::dsl::in_suite::clock;
    #[cfg(rust_analyzer)]
    let _ = ::agent_test::dsl::in_suite::timezone;
    #[cfg(rust_analyzer)]
    let _ = ::agent_test::dsl::in_suite::repeat;
    #[cfg(rust_analyzer)]
    let _ = ::agent_test::dsl::in_suite::min_passes;
    #[cfg(rust_analyzer)]
    let _ = ::agent_test::dsl::in_suite::tags;
    #[cfg(rust_analyzer)]
    let _ = ::agent_test::dsl::in_suite::context;
    #[cfg(rust_analyzer)]
    let _ = ::agent_test::dsl::in_suite::scenario;
    #[cfg(rust_analyzer)]
    let _ = ::agent_test::dsl::in_suite::scenario;
    ::agent_test::__private::Suite::new()
        .agent({ my_agent() })
        .judge({ Judge::from_env() })
        .timeout({ Duration::from_secs(30) })
        .report_dir({ "target/my-reports" })
        .clock({ Clock::fixed("2026-11-23T09:30:00Z") })
        .timezone({ "Europe/Lisbon" })
        .repeat({ 5 })
        .min_passes({ 4 })
        .tags({ ["billing", "nightly"] })
        .context("CUSTOMER_EMAIL", { "ana@example.com" })
        .context("USER_ID", { 12345 })
}
#[doc(hidden)]
#[cfg_attr(miri, unstable(feature = "agent_test_internals", issue = "none"))]
#[allow(dead_code, non_snake_case, unused_braces, unexpected_cfgs)]
fn __agent_test_runtime_1be99f68d75d2e45() -> ::agent_test::__private::RuntimeFlavor {
    ::agent_test::__private::RuntimeFlavor::shared()
}
const _: ::core::option::Option<&str> = ::core::option_env!("AGENT_TEST_TAGS");
/// Doc comments become the scenario's description,
/// over several lines.
#[test]
#[ignore = "attributes go on the test"]
#[cfg(not(miri))]
#[allow(unused_braces, unexpected_cfgs)]
fn documented() {
    ::agent_test::__private::test_scenario(
        &::agent_test::__private::ScenarioSource {
            name: "documented",
            description: "Doc comments become the scenario's description,\nover several lines.",
            module: ::core::module_path!(),
            file: ::core::file!(),
            line: ::core::line!(),
        },
        __agent_test_suite_1be99f68d75d2e45,
        __agent_test_runtime_1be99f68d75d2e45(),
        &mut |__agent_test_run: &mut ::agent_test::__private::ScenarioRun| {
            ::agent_test::__private::Box::pin(async move {
                #[cfg(rust_analyzer)]
                let _ = ::agent_test::dsl::in_scenario::user;
                __agent_test_run
                    .user(::agent_test::__private::user_message({ "hi" }))
                    .await;
                {
                    #[cfg(rust_analyzer)]
                    let _ = ::agent_test::dsl::in_turn::__;
                }
                #[cfg(rust_analyzer)]
                let _ = ::agent_test::dsl::in_scenario::__;
            })
        },
    );
}
#[test]
#[allow(unused_braces, unexpected_cfgs)]
fn second() {
    ::agent_test::__private::test_scenario(
        &::agent_test::__private::ScenarioSource {
            name: "second",
            description: "",
            module: ::core::module_path!(),
            file: ::core::file!(),
            line: ::core::line!(),
        },
        __agent_test_suite_1be99f68d75d2e45,
        __agent_test_runtime_1be99f68d75d2e45(),
        &mut |__agent_test_run: &mut ::agent_test::__private::ScenarioRun| {
            ::agent_test::__private::Box::pin(async move {
                #[cfg(rust_analyzer)]
                let _ = ::agent_test::dsl::in_scenario::tags;
                __agent_test_run.tags({ ["slow"] });
                #[cfg(rust_analyzer)]
                let _ = ::agent_test::dsl::in_scenario::user;
                __agent_test_run
                    .user(::agent_test::__private::user_message({ "hello" }))
                    .await;
                {
                    #[cfg(rust_analyzer)]
                    let _ = ::agent_test::dsl::in_turn::__;
                }
                #[cfg(rust_analyzer)]
                let _ = ::agent_test::dsl::in_scenario::expect;
                __agent_test_run
                    .__expect(
                        { reply().contains("hello") },
                        "reply().contains(\"hello\")",
                        false,
                    );
                #[cfg(rust_analyzer)]
                let _ = ::agent_test::dsl::in_scenario::__;
            })
        },
    );
}

#[allow(unused_imports)]
use ::agent_test::prelude::*;
#[doc(hidden)]
#[cfg_attr(miri, unstable(feature = "agent_test_internals", issue = "none"))]
#[allow(dead_code, non_snake_case, unused_variables, unused_braces, unexpected_cfgs)]
fn __agent_test_suite_a9bc8acca21f39b1() -> ::agent_test::__private::Suite {
    #[cfg(rust_analyzer)]
    let _ = ::agent_test::dsl::in_suite::agent;
    #[cfg(rust_analyzer)]
    let _ = ::agent_test::dsl::in_suite::scenario;
    ::agent_test::__private::Suite::new().agent({ my_agent() })
}
#[doc(hidden)]
#[cfg_attr(miri, unstable(feature = "agent_test_internals", issue = "none"))]
#[allow(dead_code, non_snake_case, unused_braces, unexpected_cfgs)]
fn __agent_test_runtime_a9bc8acca21f39b1() -> ::agent_test::__private::RuntimeFlavor {
    ::agent_test::__private::RuntimeFlavor::shared()
}
const _: ::core::option::Option<&str> = ::core::option_env!("AGENT_TEST_TAGS");
#[test]
#[allow(unused_braces, unexpected_cfgs)]
fn hello() {
    ::agent_test::__private::test_scenario(
        &::agent_test::__private::ScenarioSource {
            name: "hello",
            description: "",
            module: ::core::module_path!(),
            file: ::core::file!(),
            line: ::core::line!(),
        },
        __agent_test_suite_a9bc8acca21f39b1,
        __agent_test_runtime_a9bc8acca21f39b1(),
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
                let _ = ::agent_test::dsl::in_scenario::expect;
                __agent_test_run
                    .__expect(
                        { reply().contains("hi") },
                        "reply().contains(\"hi\")",
                        false,
                    );
                #[cfg(rust_analyzer)]
                let _ = ::agent_test::dsl::in_scenario::__;
            })
        },
    );
}

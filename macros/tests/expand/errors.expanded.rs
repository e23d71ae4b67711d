#[allow(unused_imports)]
use ::agent_test::prelude::*;
#[doc(hidden)]
#[cfg_attr(miri, unstable(feature = "agent_test_internals", issue = "none"))]
#[allow(dead_code, non_snake_case, unused_variables, unused_braces, unexpected_cfgs)]
fn __agent_test_suite_5c5041350eae7a82() -> ::agent_test::__private::Suite {
    #[cfg(rust_analyzer)]
    let _ = ::agent_test::dsl::in_suite::agnt;
    #[cfg(rust_analyzer)]
    let _ = ::agent_test::dsl::in_suite::scenario;
    #[cfg(rust_analyzer)]
    let _ = ::agent_test::dsl::in_suite::scenario;
    #[cfg(rust_analyzer)]
    let _ = ::agent_test::dsl::in_suite::scenario;
    let _ = { my_agent() };
    ::agent_test::__private::Suite::new()
}
#[doc(hidden)]
#[cfg_attr(miri, unstable(feature = "agent_test_internals", issue = "none"))]
#[allow(dead_code, non_snake_case, unused_braces, unexpected_cfgs)]
fn __agent_test_runtime_5c5041350eae7a82() -> ::agent_test::__private::RuntimeFlavor {
    ::agent_test::__private::RuntimeFlavor::shared()
}
const _: ::core::option::Option<&str> = ::core::option_env!("AGENT_TEST_TAGS");
#[test]
#[allow(unused_braces, unexpected_cfgs)]
fn broken() {
    ::agent_test::__private::test_scenario(
        &::agent_test::__private::ScenarioSource {
            name: "broken",
            description: "",
            module: ::core::module_path!(),
            file: ::core::file!(),
            line: ::core::line!(),
        },
        __agent_test_suite_5c5041350eae7a82,
        __agent_test_runtime_5c5041350eae7a82(),
        &mut |__agent_test_run: &mut ::agent_test::__private::ScenarioRun| {
            ::agent_test::__private::Box::pin(async move {
                #[cfg(rust_analyzer)]
                let _ = ::agent_test::dsl::in_scenario::usr;
                let _ = { "hi" };
                #[cfg(rust_analyzer)]
                let _ = ::agent_test::dsl::in_scenario::user;
                __agent_test_run
                    .user(::agent_test::__private::user_message({ "hello" }))
                    .await;
                {
                    #[cfg(rust_analyzer)]
                    let _ = ::agent_test::dsl::in_turn::expect;
                    __agent_test_run
                        .__expect(
                            { reply().matches("(unclosed") },
                            "reply().matches(\"(unclosed\")",
                            true,
                        );
                    #[cfg(rust_analyzer)]
                    let _ = ::agent_test::dsl::in_turn::expect;
                    __agent_test_run
                        .__expect(
                            { tool("a").id("dup") },
                            "tool(\"a\").id(\"dup\")",
                            true,
                        );
                    #[cfg(rust_analyzer)]
                    let _ = ::agent_test::dsl::in_turn::expect;
                    __agent_test_run
                        .__expect(
                            { tool("b").id("dup") },
                            "tool(\"b\").id(\"dup\")",
                            true,
                        );
                    #[cfg(rust_analyzer)]
                    let _ = ::agent_test::dsl::in_turn::__;
                }
                #[cfg(rust_analyzer)]
                let _ = ::agent_test::dsl::in_scenario::expect;
                __agent_test_run
                    .__expect(
                        { reply().contains("x").depends_on("nothing") },
                        "reply().contains(\"x\").depends_on(\"nothing\")",
                        false,
                    );
                #[cfg(rust_analyzer)]
                let _ = ::agent_test::dsl::in_scenario::__;
            })
        },
    );
}
#[test]
#[allow(unused_braces, unexpected_cfgs)]
fn broken_2() {
    ::agent_test::__private::test_scenario(
        &::agent_test::__private::ScenarioSource {
            name: "broken_2",
            description: "",
            module: ::core::module_path!(),
            file: ::core::file!(),
            line: ::core::line!(),
        },
        __agent_test_suite_5c5041350eae7a82,
        __agent_test_runtime_5c5041350eae7a82(),
        &mut |__agent_test_run: &mut ::agent_test::__private::ScenarioRun| {
            ::agent_test::__private::Box::pin(async move {
                #[cfg(rust_analyzer)]
                let _ = ::agent_test::dsl::in_scenario::user;
                __agent_test_run
                    .user(::agent_test::__private::user_message({ "again" }))
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
fn unnamed_scenario_3() {
    ::agent_test::__private::test_scenario(
        &::agent_test::__private::ScenarioSource {
            name: "unnamed_scenario_3",
            description: "",
            module: ::core::module_path!(),
            file: ::core::file!(),
            line: ::core::line!(),
        },
        __agent_test_suite_5c5041350eae7a82,
        __agent_test_runtime_5c5041350eae7a82(),
        &mut |__agent_test_run: &mut ::agent_test::__private::ScenarioRun| {
            ::agent_test::__private::Box::pin(async move {
                #[cfg(rust_analyzer)]
                let _ = ::agent_test::dsl::in_scenario::user;
                __agent_test_run
                    .user(
                        ::agent_test::__private::user_message({
                            "a scenario without a name"
                        }),
                    )
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
::core::compile_error! {
    "unknown setting `agnt`; did you mean `agent`? (settings: `agent`, `judge`, `timeout`, `report_dir`, `clock`, `timezone`, `repeat`, `min_passes`, `min_pass_rate`, `prices`, `max_cost_usd`, `tags`, `tools`, `runtime`)"
}
::core::compile_error! {
    "unknown statement `usr`; did you mean `user`?"
}
::core::compile_error! {
    "expected the scenario's name, like `scenario refund_flow { ... }`"
}
::core::compile_error! {
    "agent_test! needs the agent under test: add `agent = my_agent();` before the scenarios"
}
::core::compile_error! {
    "invalid regex: unclosed group (at offset 0 of the pattern)"
}
::core::compile_error! {
    "duplicate check id `dup` in this scenario"
}
::core::compile_error! {
    "no check in this scenario has the id `nothing`"
}
::core::compile_error! {
    "duplicate scenario `broken`: scenario names must be unique (each names a test)"
}

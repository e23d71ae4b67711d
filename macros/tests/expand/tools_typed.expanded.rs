#[allow(unused_imports)]
use ::agent_test::prelude::*;
#[doc(hidden)]
#[cfg_attr(miri, unstable(feature = "agent_test_internals", issue = "none"))]
#[allow(dead_code, non_snake_case, unused_variables, unused_braces, unexpected_cfgs)]
fn __agent_test_suite_691bb03f4c49c2b1() -> ::agent_test::__private::Suite {
    #[cfg(rust_analyzer)]
    let _ = ::agent_test::dsl::in_suite::agent;
    #[cfg(rust_analyzer)]
    let _ = ::agent_test::dsl::in_suite::tools;
    #[cfg(rust_analyzer)]
    let _ = ::agent_test::dsl::in_suite::scenario;
    ::agent_test::__private::Suite::new()
        .agent({ my_agent() })
        .tools(
            ::agent_test::__private::typed_tools(
                &[
                    (
                        "search",
                        ::agent_test::__private::schema_of::<SearchArgs>
                            as fn() -> ::agent_test::serde_json::Value,
                    ),
                    (
                        "book-hotel",
                        ::agent_test::__private::schema_of::<BookArgs>
                            as fn() -> ::agent_test::serde_json::Value,
                    ),
                ],
            ),
        )
}
#[doc(hidden)]
#[cfg_attr(miri, unstable(feature = "agent_test_internals", issue = "none"))]
#[allow(dead_code, non_snake_case, unused_braces, unexpected_cfgs)]
fn __agent_test_runtime_691bb03f4c49c2b1() -> ::agent_test::__private::RuntimeFlavor {
    ::agent_test::__private::RuntimeFlavor::shared()
}
const _: ::core::option::Option<&str> = ::core::option_env!("AGENT_TEST_TAGS");
#[test]
#[allow(unused_braces, unexpected_cfgs)]
fn typed() {
    ::agent_test::__private::test_scenario(
        &::agent_test::__private::ScenarioSource {
            name: "typed",
            description: "",
            module: ::core::module_path!(),
            file: ::core::file!(),
            line: ::core::line!(),
        },
        __agent_test_suite_691bb03f4c49c2b1,
        __agent_test_runtime_691bb03f4c49c2b1(),
        &mut |__agent_test_run: &mut ::agent_test::__private::ScenarioRun| {
            ::agent_test::__private::Box::pin(async move {
                #[cfg(rust_analyzer)]
                let _ = ::agent_test::dsl::in_scenario::user;
                __agent_test_run
                    .user(::agent_test::__private::user_message({ "find it" }))
                    .await;
                {
                    #[cfg(rust_analyzer)]
                    let _ = ::agent_test::dsl::in_turn::__;
                }
                #[cfg(rust_analyzer)]
                let _ = ::agent_test::dsl::in_scenario::expect;
                __agent_test_run
                    .__expect({ tool("book-hotel") }, "tool(\"book-hotel\")", false);
                #[cfg(rust_analyzer)]
                let _ = ::agent_test::dsl::in_scenario::__;
            })
        },
    );
}

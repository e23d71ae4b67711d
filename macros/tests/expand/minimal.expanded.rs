#[doc(hidden)]
#[allow(dead_code, non_snake_case, unused_variables, unused_braces)]
fn __agent_test_suite_a9bc8acca21f39b1() -> ::agent_test::__private::Suite {
    #[allow(unused_imports)]
    use ::agent_test::prelude::*;
    ::agent_test::__private::Suite::new().agent({ my_agent() })
}
#[test]
#[allow(unused_braces)]
fn hello() {
    #[allow(unused_imports)]
    use ::agent_test::prelude::*;
    ::agent_test::__private::test_scenario(
        &::agent_test::__private::ScenarioSource {
            name: "hello",
            description: "",
            module: ::core::module_path!(),
            file: ::core::file!(),
            line: ::core::line!(),
        },
        __agent_test_suite_a9bc8acca21f39b1,
        &mut |__agent_test_run: &mut ::agent_test::__private::ScenarioRun| {
            ::agent_test::__private::Box::pin(async move {
                __agent_test_run.user({ "hi" }).await;
                __agent_test_run
                    .__expect(
                        { reply().contains("hi") },
                        "reply().contains(\"hi\")",
                        false,
                    );
            })
        },
    );
}

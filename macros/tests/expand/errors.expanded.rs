#[doc(hidden)]
#[allow(dead_code, non_snake_case, unused_variables, unused_braces)]
fn __agent_test_suite_5c5041350eae7a82() -> ::agent_test::__private::Suite {
    #[allow(unused_imports)]
    use ::agent_test::prelude::*;
    let _ = { my_agent() };
    ::agent_test::__private::Suite::new()
}
#[test]
#[allow(unused_braces)]
fn broken() {
    #[allow(unused_imports)]
    use ::agent_test::prelude::*;
    ::agent_test::__private::test_scenario(
        &::agent_test::__private::ScenarioSource {
            name: "broken",
            description: "",
            module: ::core::module_path!(),
            file: ::core::file!(),
            line: ::core::line!(),
        },
        __agent_test_suite_5c5041350eae7a82,
        &mut |__agent_test_run: &mut ::agent_test::__private::ScenarioRun| {
            ::agent_test::__private::Box::pin(async move {
                let _ = { "hi" };
                __agent_test_run.user({ "hello" }).await;
                {
                    __agent_test_run
                        .__expect(
                            { reply().matches("(unclosed") },
                            "reply().matches(\"(unclosed\")",
                            true,
                        );
                    __agent_test_run
                        .__expect(
                            { tool("a").id("dup") },
                            "tool(\"a\").id(\"dup\")",
                            true,
                        );
                    __agent_test_run
                        .__expect(
                            { tool("b").id("dup") },
                            "tool(\"b\").id(\"dup\")",
                            true,
                        );
                }
                __agent_test_run
                    .__expect(
                        { reply().contains("x").depends_on("nothing") },
                        "reply().contains(\"x\").depends_on(\"nothing\")",
                        false,
                    );
            })
        },
    );
}
#[test]
#[allow(unused_braces)]
fn broken() {
    #[allow(unused_imports)]
    use ::agent_test::prelude::*;
    ::agent_test::__private::test_scenario(
        &::agent_test::__private::ScenarioSource {
            name: "broken",
            description: "",
            module: ::core::module_path!(),
            file: ::core::file!(),
            line: ::core::line!(),
        },
        __agent_test_suite_5c5041350eae7a82,
        &mut |__agent_test_run: &mut ::agent_test::__private::ScenarioRun| {
            ::agent_test::__private::Box::pin(async move {
                __agent_test_run.user({ "again" }).await;
            })
        },
    );
}
#[test]
#[allow(unused_braces)]
fn unnamed_scenario_3() {
    #[allow(unused_imports)]
    use ::agent_test::prelude::*;
    ::agent_test::__private::test_scenario(
        &::agent_test::__private::ScenarioSource {
            name: "unnamed_scenario_3",
            description: "",
            module: ::core::module_path!(),
            file: ::core::file!(),
            line: ::core::line!(),
        },
        __agent_test_suite_5c5041350eae7a82,
        &mut |__agent_test_run: &mut ::agent_test::__private::ScenarioRun| {
            ::agent_test::__private::Box::pin(async move {
                __agent_test_run.user({ "a scenario without a name" }).await;
            })
        },
    );
}
::core::compile_error! {
    "unknown setting `agnt`; did you mean `agent`? (settings: `agent`, `judge`, `timeout`, `report_dir`, `clock`, `timezone`, `repeat`, `min_passes`)"
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

#[allow(unused_imports)]
use ::agent_test::prelude::*;
#[doc(hidden)]
#[cfg_attr(miri, unstable(feature = "agent_test_internals", issue = "none"))]
#[allow(dead_code, non_snake_case, unused_variables, unused_braces, unexpected_cfgs)]
fn __agent_test_suite_82e1942dd7f25184() -> ::agent_test::__private::Suite {
    #[cfg(rust_analyzer)]
    let _ = ::agent_test::dsl::in_suite::agent;
    #[cfg(rust_analyzer)]
    let _ = ::agent_test::dsl::in_suite::files;
    #[cfg(rust_analyzer)]
    let _ = ::agent_test::dsl::in_suite::scenario;
    ::agent_test::__private::Suite::new().agent({ my_agent() })
}
#[doc(hidden)]
#[cfg_attr(miri, unstable(feature = "agent_test_internals", issue = "none"))]
#[allow(dead_code, non_snake_case, unused_braces, unexpected_cfgs)]
fn __agent_test_runtime_82e1942dd7f25184() -> ::agent_test::__private::RuntimeFlavor {
    ::agent_test::__private::RuntimeFlavor::shared()
}
const _: ::core::option::Option<&str> = ::core::option_env!("AGENT_TEST_TAGS");
#[test]
#[allow(unused_braces, unexpected_cfgs)]
fn written_beside_the_files() {
    ::agent_test::__private::test_scenario(
        &::agent_test::__private::ScenarioSource {
            name: "written_beside_the_files",
            description: "",
            module: ::core::module_path!(),
            file: ::core::file!(),
            line: ::core::line!(),
        },
        __agent_test_suite_82e1942dd7f25184,
        __agent_test_runtime_82e1942dd7f25184(),
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
#[doc(hidden)]
#[allow(non_upper_case_globals)]
static __agent_test_suite_82e1942dd7f25184_file_0_0: ::agent_test::__private::FileCases = ::agent_test::__private::FileCases::new(
    ::core::include_str!("$CARGO_MANIFEST_DIR/tests/expand/cases/greets.json"),
    "tests/expand/cases/greets.json",
);
/// `greets` in `tests/expand/cases/greets.json`
#[test]
fn greets() {
    ::agent_test::__private::test_file_case(
        __agent_test_suite_82e1942dd7f25184,
        __agent_test_runtime_82e1942dd7f25184(),
        &__agent_test_suite_82e1942dd7f25184_file_0_0,
        0,
        ::core::module_path!(),
    );
}
#[doc(hidden)]
#[allow(non_upper_case_globals)]
static __agent_test_suite_82e1942dd7f25184_file_0_1: ::agent_test::__private::FileCases = ::agent_test::__private::FileCases::new(
    ::core::include_str!("$CARGO_MANIFEST_DIR/tests/expand/cases/recorded.jsonl"),
    "tests/expand/cases/recorded.jsonl",
);
/// `recorded-1` in `tests/expand/cases/recorded.jsonl`
#[test]
fn recorded__recorded_1() {
    ::agent_test::__private::test_file_case(
        __agent_test_suite_82e1942dd7f25184,
        __agent_test_runtime_82e1942dd7f25184(),
        &__agent_test_suite_82e1942dd7f25184_file_0_1,
        0,
        ::core::module_path!(),
    );
}
/// `recorded-2` in `tests/expand/cases/recorded.jsonl`
#[test]
fn recorded__recorded_2() {
    ::agent_test::__private::test_file_case(
        __agent_test_suite_82e1942dd7f25184,
        __agent_test_runtime_82e1942dd7f25184(),
        &__agent_test_suite_82e1942dd7f25184_file_0_1,
        1,
        ::core::module_path!(),
    );
}

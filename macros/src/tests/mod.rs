//! Unit tests of the macro: expansions of complete and incomplete input, diagnostics, and
//! that no input makes it panic.

mod snapshots;
mod vocabulary;

use std::str::FromStr;

use proc_macro2::{Delimiter, TokenStream, TokenTree};

use crate::diag::Diagnostics;
use crate::expand_suite;

fn ts(src: &str) -> TokenStream {
    TokenStream::from_str(src).unwrap_or_else(|e| panic!("test input does not lex: {e}"))
}

/// Names of the top-level `fn` items of an expansion.
fn fn_names(out: &TokenStream) -> Vec<String> {
    let tokens: Vec<TokenTree> = out.clone().into_iter().collect();
    tokens
        .windows(2)
        .filter_map(|w| match w {
            [TokenTree::Ident(f), TokenTree::Ident(name)] if f == "fn" => Some(name.to_string()),
            _ => None,
        })
        .collect()
}

fn errors(src: &str) -> Vec<String> {
    errors_of(ts(src))
}

/// The diagnostics of `expand_suite`'s pipeline (without expanding).
fn errors_of(input: TokenStream) -> Vec<String> {
    let mut diag = Diagnostics::new();
    let input = crate::syntax::limit_nesting(input, &mut diag);
    let mut suite = crate::syntax::parse_suite(input, &mut diag);
    crate::fix::fix(&mut suite, &mut diag);
    crate::validate::validate(&suite, &mut diag);
    diag.into_messages()
}

fn count(haystack: &str, needle: &str) -> usize {
    haystack.matches(needle).count()
}

const COMPLETE: &str = r#"
    agent = demo_agent();
    context { USER_ID: 12345 }
    /// Refund flow.
    scenario refund {
        user "I was charged twice";
        user "Order number is ORD-9921" {
            expect tool("lookup_order").arg("order_id", "ORD-9921");
        }
        let extra = 1;
        expect tool("process_refund");
        expect no_tool("cancel_order");
    }
    scenario other { user "hi"; }
"#;

#[test]
fn complete_input_expands_without_errors() {
    assert_eq!(errors(COMPLETE), Vec::<String>::new());
    let out = expand_suite(ts(COMPLETE));
    let names = fn_names(&out);
    assert_eq!(names.len(), 4, "{names:?}");
    assert!(names[0].starts_with("__agent_test_suite_"));
    assert!(names[1].starts_with("__agent_test_runtime_"));
    assert_eq!(&names[2..], ["refund", "other"]);
    let text = out.to_string();
    // Each test is one call of the runtime's entry point.
    assert_eq!(
        count(&text, ":: agent_test :: __private :: test_scenario ("),
        2,
        "{text}"
    );
    assert!(!text.contains("compile_error"));
}

/// While the user types, the expansion keeps the same items, and each user expression appears
/// exactly once.
#[test]
fn incomplete_input_keeps_the_skeleton() {
    let complete_names = fn_names(&expand_suite(ts(COMPLETE)));
    // (input, whether the macro itself reports it: broken Rust is left to rustc)
    for (broken, macro_error) in [
        (
            COMPLETE.replace(
                r#"expect tool("lookup_order").arg("order_id", "ORD-9921");"#,
                r#"expect tool("lookup_order")."#,
            ),
            false,
        ),
        (
            COMPLETE.replace(
                r#"expect tool("process_refund");"#,
                "expect tool(\"process_refund\").\n",
            ),
            true,
        ),
        (
            COMPLETE.replace(r#"expect no_tool("cancel_order");"#, "expect "),
            true,
        ),
        (
            COMPLETE.replace("let extra = 1;", "let extra = demo."),
            false,
        ),
        (
            COMPLETE.replace(r#"user "I was charged twice";"#, "user ;"),
            true,
        ),
        (
            COMPLETE.replace(
                r#"user "I was charged twice";"#,
                "usr \"I was charged twice\";",
            ),
            true,
        ),
        (COMPLETE.replace("expect no_tool", "expct no_tool"), true),
        (
            COMPLETE.replace("context { USER_ID: 12345 }", "context { USER_ID: }"),
            true,
        ),
        (
            COMPLETE.replace("agent = demo_agent();", "agent = demo_agent()."),
            false,
        ),
    ] {
        let out = expand_suite(ts(&broken));
        assert_eq!(
            fn_names(&out),
            complete_names,
            "skeleton changed for:\n{broken}"
        );
        assert_eq!(
            out.to_string().contains("compile_error"),
            macro_error,
            "for:\n{broken}"
        );
        let text = out.to_string();
        assert_eq!(
            count(&text, "\"ORD-9921\""),
            count(&broken, "\"ORD-9921\""),
            "{broken}"
        );
        assert_eq!(count(&text, "demo_agent"), 1);
    }
}

#[test]
fn turn_check_after_incomplete_check_is_still_a_separate_statement() {
    let src = r#"
        agent = a();
        scenario s {
            user "hi" {
                expect reply().
                expect no_tools();
            }
        }
    "#;
    let msgs = errors(src);
    assert_eq!(msgs, ["expected `;` after this, before the next statement"]);
    let text = expand_suite(ts(src)).to_string();
    assert!(text.contains("{ no_tools () }"), "{text}");
}

#[test]
fn unknown_words_suggest_the_closest_keyword() {
    assert_eq!(
        errors(r#"agent = a(); scenario s { usr "hi"; }"#),
        ["unknown statement `usr`; did you mean `user`?"]
    );
    assert_eq!(
        errors(r#"agent = a(); scenario s { user "hi" { expct no_tools(); } }"#),
        ["unknown statement `expct`; did you mean `expect`?"]
    );
    assert_eq!(
        errors(r#"agnet = a(); scenario s { user "hi"; }"#),
        [
            "unknown setting `agnet`; did you mean `agent`? (settings: `agent`, `judge`, `timeout`, `report_dir`, `clock`, `timezone`, `repeat`, `min_passes`, `min_pass_rate`, `prices`, `max_cost_usd`, `tags`, `tools`, `runtime`)",
            "agent_test! needs the agent under test: add `agent = my_agent();` before the scenarios",
        ]
    );
    assert_eq!(
        errors(r#"agent = a(); scenaro s { user "hi"; }"#),
        ["unknown item `scenaro`; did you mean `scenario`? (`scenario <name> { ... }`)"]
    );
}

#[test]
fn rust_statements_are_not_mistaken_for_dsl() {
    let src = r#"
        agent = a();
        scenario s {
            let user = "Ann";
            for expect in [1, 2] { let _ = expect; }
            if user.len() > 2 { println!("long"); } else { println!("short"); }
            helper! { x }
            let n = match user { "Ann" => 1, _ => 2 };
            user format!("I am {user}");
            let turn = user "again" { expect no_tools(); };
            let x = turn.reply.text.len() + n;
            context.insert(1);
        }
    "#;
    assert_eq!(errors(src), Vec::<String>::new());
    let text = expand_suite(ts(src)).to_string();
    assert_eq!(count(&text, ". user ("), 2, "{text}");
    assert!(
        text.contains("let turn = __agent_test_run . __last_turn ()"),
        "{text}"
    );
    assert!(text.contains("context . insert (1)"), "{text}");
}

#[test]
fn regex_literals_are_checked() {
    let msgs = errors(
        r#"agent = a(); scenario s {
            user "hi" { expect reply().matches("(unclosed"); }
            expect reply().not_matches(r"a{2,1}");
            expect reply().matches("(?=lookahead)");
            expect reply().matches(r"ORD-\d{4}");
            expect check("closure", |cx| cx.reply().matches("(").count() == 0);
        }"#,
    );
    assert_eq!(msgs.len(), 3, "{msgs:?}");
    assert!(
        msgs[0].starts_with("invalid regex: unclosed group"),
        "{msgs:?}"
    );
    assert!(
        msgs[1].starts_with("invalid regex: invalid repetition count range"),
        "{msgs:?}"
    );
    assert!(msgs[2].contains("look-around"), "{msgs:?}");
}

#[test]
fn ids_are_checked() {
    let msgs = errors(
        r#"agent = a(); scenario s {
            user "hi" { expect tool("a").id("status_ok"); }
            expect tool("b").id("status_ok");
            expect reply().contains("x").depends_on("status_okk");
            expect tool("c").id("c1").depends_on("c2");
            expect tool("d").id("c2").depends_on("c1");
            expect tool("e").id("self").depends_on("self");
        }"#,
    );
    assert_eq!(
        msgs,
        [
            "duplicate check id `status_ok` in this scenario",
            "no check in this scenario has the id `status_okk`; did you mean `status_ok`?",
            "a check cannot depend on itself (`self`)",
            "dependency cycle: c1 → c2 → c1",
        ]
    );
}

#[test]
fn scenario_names_are_checked() {
    let msgs = errors(
        r#"agent = a(); scenario a { } scenario a { } scenario "Refund flow" { } scenario { }"#,
    );
    assert_eq!(
        msgs,
        [
            "a scenario's name is a Rust identifier (it names the test): `scenario refund_flow { ... }`; put the text in a `///` doc comment",
            "expected the scenario's name, like `scenario refund_flow { ... }`",
            "duplicate scenario `a`: scenario names must be unique (each names a test)",
        ]
    );
    let names = fn_names(&expand_suite(ts(
        r#"agent = a(); scenario "Refund flow" { } scenario { }"#,
    )));
    assert_eq!(&names[2..], ["refund_flow", "unnamed_scenario_2"]);
}

#[test]
fn turn_blocks_only_take_checks() {
    assert_eq!(
        errors(r#"agent = a(); scenario s { user "hi" { user "nested"; } }"#),
        [
            "`user` cannot be used inside a turn's check block; only `expect` checks (and Rust statements) can"
        ]
    );
}

#[test]
fn labels_are_the_source_text() {
    let text = expand_suite(ts(
        r#"agent = a(); scenario s { expect tool("x").arg("n", 1); }"#,
    ))
    .to_string();
    assert!(text.contains(r#""tool(\"x\").arg(\"n\", 1)""#), "{text}");
}

/// A deterministic generator of token soups from the DSL's vocabulary.
struct Soup(u64);

impl Soup {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn stream(&mut self, depth: usize) -> TokenStream {
        const WORDS: &[&str] = &[
            "scenario",
            "user",
            "expect",
            "context",
            "system",
            "history",
            "let",
            "agent",
            "=",
            ";",
            ":",
            ",",
            ".",
            "\"hi\"",
            "tool",
            "x",
            "#",
            "!",
            "'a",
            "|",
            "1",
            "==",
            "=>",
            "if",
            "else",
            "for",
            "in",
            "fn",
            "matches",
            "id",
            "depends_on",
            "\"(\"",
            "r\"a\"",
        ];
        let mut out = TokenStream::new();
        let n = self.next() % 12;
        for _ in 0..n {
            let pick = self.next() % (WORDS.len() as u64 + 3);
            let piece = match pick as usize {
                i if i < WORDS.len() => ts(WORDS.get(i).copied().unwrap_or("x")),
                i if depth < 3 => {
                    let delim = [Delimiter::Brace, Delimiter::Parenthesis, Delimiter::Bracket]
                        .get(i - WORDS.len())
                        .copied()
                        .unwrap_or(Delimiter::Brace);
                    TokenTree::Group(proc_macro2::Group::new(delim, self.stream(depth + 1))).into()
                }
                _ => ts("y"),
            };
            out.extend(piece);
        }
        out
    }
}

#[test]
fn never_panics_on_token_soup() {
    let mut soup = Soup(0x9E37_79B9_7F4A_7C15);
    for _ in 0..5000 {
        let input = soup.stream(0);
        let result = std::panic::catch_unwind(|| expand_suite(input.clone()));
        assert!(result.is_ok(), "panicked on: {input}");
    }
}

/// Runs `f` on a thread with a small stack (a proc macro runs on rustc's), so that a
/// recursion that depends on the input's depth shows as a crash of the test.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(1024 * 1024)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap_or_else(|_| panic!("the test thread panicked"))
}

/// `inner` wrapped in `levels` groups, built without recursion (the tests' own helpers must
/// not be what overflows).
fn wrapped(levels: usize, delimiters: &[Delimiter], inner: TokenStream) -> TokenStream {
    let mut out = inner;
    for i in 0..levels {
        let delimiter = delimiters[i % delimiters.len()];
        out = TokenTree::Group(proc_macro2::Group::new(delimiter, out)).into();
    }
    out
}

/// `{"properties": {"a": ..inner..}}`, `levels` times.
fn schema_nested(levels: usize, inner: TokenStream) -> TokenStream {
    let mut out = inner;
    for _ in 0..levels {
        let a = TokenTree::Group(proc_macro2::Group::new(
            Delimiter::Brace,
            quote::quote! { "a": #out },
        ));
        out = TokenTree::Group(proc_macro2::Group::new(
            Delimiter::Brace,
            quote::quote! { "properties": #a },
        ))
        .into();
    }
    out
}

/// Token soups wrapped in up to 400 levels of brackets, placed where checks, literals and
/// scenarios go: an error past 128 levels, never a crash.
#[test]
fn never_panics_or_overflows_on_deep_token_soup() {
    on_small_stack(|| {
        let mut soup = Soup(0x2545_F491_4F6C_DD1D);
        let all = [Delimiter::Brace, Delimiter::Parenthesis, Delimiter::Bracket];
        for round in 0..300 {
            let levels = (soup.next() % 400) as usize;
            let first = (soup.next() % 3) as usize;
            let delimiters = [all[first], all[(first + round) % 3]];
            let deep = wrapped(levels, &delimiters, soup.stream(0));
            let input = match round % 4 {
                0 => deep,
                1 => quote::quote! { agent = a(); scenario s { expect reply().contains(#deep); } },
                2 => {
                    quote::quote! { agent = a(); scenario s { expect tool("x").arg("a", matches_schema(json!(#deep))); } }
                }
                _ => quote::quote! { agent = a(); scenario s { user "hi" { #deep } } },
            };
            let out = std::panic::catch_unwind(|| expand_suite(input.clone()));
            assert!(out.is_ok(), "panicked at {levels} levels");
            let too_deep = errors_of(input)
                .iter()
                .any(|e| e.starts_with("nested deeper than 128 levels of brackets"));
            let depth = levels + if round % 4 == 0 { 0 } else { 4 };
            if depth <= 128 {
                assert!(!too_deep, "{levels} levels, round {round}");
            }
            if depth > 131 {
                assert!(too_deep, "{levels} levels, round {round}");
            }
        }
    });
}

/// 5,000 levels of brackets in a check, a JSON Schema literal and an expression literal, and
/// a chain of 5,000 dependent checks: compile errors (or none), no stack overflow.
#[test]
fn deep_input_is_an_error_not_a_crash() {
    let too_deep = "nested deeper than 128 levels of brackets: agent_test! reads no deeper";
    let (parens, schema, expression, chain) = on_small_stack(move || {
        let deep = wrapped(5000, &[Delimiter::Parenthesis], ts("1"));
        let parens = errors_of(quote::quote! {
            agent = a(); scenario s { expect reply().contains(#deep); }
        });
        let object = schema_nested(5000, ts(r#"{"type": "string"}"#));
        let schema_input = quote::quote! {
            agent = a(); scenario s { expect tool("x").arg("a", matches_schema(json!(#object))); }
        };
        let schema = errors_of(schema_input.clone());
        // The full expansion too: the cut input is what rustc gets.
        let expanded = expand_suite(schema_input).to_string();
        assert!(expanded.contains(too_deep));
        let source = format!("{}'x'{}", "UPPER(".repeat(5000), ")".repeat(5000));
        let literal = proc_macro2::Literal::string(&source);
        let expression = errors_of(quote::quote! {
            agent = a(); scenario s { expect tool("x").arg("a", date(#literal)); }
        });
        let mut checks = TokenStream::new();
        for i in 0..5_000 {
            let (id, dep) = (format!("c{i}"), format!("c{}", i + 1));
            checks.extend(quote::quote! { expect reply().id(#id).depends_on(#dep); });
        }
        checks.extend(quote::quote! { expect reply().id("c5000").depends_on("c0"); });
        let chain = errors_of(quote::quote! { agent = a(); scenario s { #checks } });
        (parens, schema, expression, chain)
    });
    assert_eq!(parens, [too_deep]);
    assert_eq!(schema, [too_deep]);
    assert_eq!(
        expression,
        ["invalid expression: expression nested deeper than 64 levels at column 385 (at `UPPER`)"]
    );
    assert_eq!(chain.len(), 1);
    assert!(
        chain[0].starts_with("dependency cycle: c0 → c1 → c2 → "),
        "{}",
        &chain[0][..100]
    );
    assert!(chain[0].ends_with(" → c4999 → c5000 → c0"));
}

/// A schema literal as deep as the macro reads is converted and checked against the
/// meta-schema without exhausting a small stack.
#[test]
fn the_deepest_schema_literal_is_checked() {
    let errors = on_small_stack(|| {
        // Each level is two objects; the literal sits 4 groups deep in the input.
        let object = schema_nested(61, ts(r#"{"type": "strin"}"#));
        errors_of(quote::quote! {
            agent = a(); scenario s { expect tool("x").arg("a", matches_schema(json!(#object))); }
        })
    });
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with("invalid JSON Schema at /properties/a/properties/a/"),
        "{}",
        errors[0]
    );
}

#[test]
fn expressions_are_checked_against_the_known_context() {
    let msgs = errors(
        r#"agent = a();
        context { ORDER_JSON: "{}" }
        scenario s {
            context { USER_ID: 1 }
            user "hi" {
                expect tool("t").arg("d", date("AT_TIME(DATE_ADD(TODAY(), 2, 'dayz'), '25:00')"));
                expect tool("t").arg("u", expr("CONCAT(USER, JSON_EXTRACT(ORDER_JSON, 'a.b'))"));
                expect tool("t").arg("u", expr("UPPER(USER_ID, 1)"));
                expect tool("t").arg("u", expr("DATEADD(TODAY, 1, 'day')"));
            }
        }"#,
    );
    assert_eq!(
        msgs,
        [
            "invalid expression: invalid time '25:00': use '14:30', '09:00:00' or '3:30 PM' (at `'25:00'`)",
            "invalid expression: unknown unit 'dayz': use day(s), hour(s), minute(s) or week(s) (at `'dayz'`)",
            "invalid expression: unknown context variable `USER`; did you mean `USER_ID`? (at `USER`)",
            "invalid expression: UPPER takes 1 argument (UPPER(text)), got 2",
            "invalid expression: unknown function `DATEADD`; did you mean `DATE_ADD`? (at `DATEADD`)",
        ]
    );
}

/// A tool's arguments and results read by JSONPath: their queries are checked as
/// `json_path`'s are (found by the vocabulary test's second direction).
#[test]
fn tool_json_path_queries_are_checked() {
    let msgs = errors(
        r#"agent = a(); scenario s {
            user "hi" {
                expect tool("t").arg_json_path("$.items[", "x");
                expect tool("t").result_json_path("$..[", "y");
                expect tool("t").arg_json_path("$.items[*].sku", "z");
            }
        }"#,
    );
    assert_eq!(msgs.len(), 2, "{msgs:#?}");
    assert!(
        msgs.iter().all(|m| m.starts_with("invalid JSONPath:")),
        "{msgs:?}"
    );
}

#[test]
fn jsonpath_schema_and_regex_matcher_literals_are_checked() {
    let msgs = errors(
        r#"agent = a(); scenario s {
            user "hi" {
                expect json_path("$.data[").exists();
                expect json_path("$.data[*].id").exists();
                expect schema(json!({"type": "strnig"}));
                expect schema(json!({"type": "object", "required": ["id"]})).at("data");
                expect schema(json!({"type": kind}));
                expect tool("t").arg("id", regex("ORD-(\\d"));
                expect tool("t").arg("u", one_of([matches_schema(json!({"minimum": "zero"}))]));
            }
        }"#,
    );
    assert_eq!(msgs.len(), 4, "{msgs:#?}");
    assert!(msgs[0].starts_with("invalid JSONPath:"), "{msgs:?}");
    assert!(
        msgs[1].starts_with("invalid JSON Schema at /type:"),
        "{msgs:?}"
    );
    assert!(
        msgs[2].starts_with("invalid regex: unclosed group"),
        "{msgs:?}"
    );
    assert!(
        msgs[3].starts_with("invalid JSON Schema at /minimum:"),
        "{msgs:?}"
    );
}

#[test]
fn scenario_settings() {
    let src = r#"
        agent = a();
        clock = Clock::fixed("2026-11-23T09:00:00Z");
        timezone = "Europe/Lisbon";
        scenario s {
            clock = Clock::fixed("2026-12-01T10:00:00Z");
            timeout = Duration::from_secs(3);
            let mut clock = 1;
            clock += 1;
            user "hi";
        }
    "#;
    assert_eq!(errors(src), Vec::<String>::new());
    let text = expand_suite(ts(src)).to_string();
    assert!(
        text.contains(". clock ({ Clock :: fixed (\"2026-11-23T09:00:00Z\") })"),
        "{text}"
    );
    assert!(
        text.contains("__agent_test_run . clock ({ Clock :: fixed (\"2026-12-01T10:00:00Z\") }) ;"),
        "{text}"
    );
    assert!(
        text.contains("__agent_test_run . timeout ({ Duration :: from_secs (3) }) ;"),
        "{text}"
    );
    assert!(text.contains("clock += 1"), "{text}");
}

#[test]
fn impossible_constraints_written_as_literals_are_errors() {
    let src = r#"
        agent = demo_agent();
        repeat = 0;
        min_passes = 1;
        scenario a {
            user "hi" {
                expect tool("search").between(5, 1);
                expect tool("search").between(1, 5);
                expect agent_invoked(["x"]).min_calls(0);
                expect agent_invoked(["x"]).min_calls(2);
                expect http_status(1000);
                expect http_status(404);
            }
            simulate simulated_user("a refund").turns(5..=2) { expect no_tools(); }
            simulate simulated_user("a refund").turns(0..=0);
            simulate simulated_user("a refund").turns(1..=3);
        }
        scenario b { }
        scenario c { repeat = 5; min_passes = 6; user "hi"; }
        scenario d { repeat = 1; min_passes = 2; user "hi"; }
        scenario e { repeat = 5; min_passes = 0; user "hi"; }
        scenario f { repeat = 5; min_passes = 5; context { A: 1 } user "hi"; }
        scenario g { context { A: 1 } let x = 1; }
    "#;
    assert_eq!(
        errors(src),
        [
            "repeat = 0 runs the scenario no time: it must be at least 1",
            "min_passes = 6 can never be reached with repeat = 5",
            "min_passes = 2 can never be reached with repeat = 1",
            "min_passes = 0 passes without a single passing run: it must be at least 1 (make the checks `.warning()` to only report them)",
            "at least 5 and at most 2 turns can never be met: the minimum is greater than the maximum",
            "at most 0 turns simulates nothing: the maximum must be at least 1",
            "between(5, 1) can never pass: the minimum is greater than the maximum",
            "agent_invoked(..).min_calls(0) can never fail: to require that an agent is not invoked, use agent_not_invoked(..)",
            "http_status(1000) can never pass: an HTTP status is from 100 to 599",
            "empty scenario `b`: it has no steps and no checks, so it would test nothing",
            "empty scenario `g`: it has no steps and no checks, so it would test nothing",
        ]
    );
    // The suite's settings hold only where no scenario sets its own.
    let src = r#"
        agent = demo_agent();
        min_passes = 3;
        scenario a { repeat = 5; user "hi"; }
    "#;
    assert_eq!(errors(src), Vec::<String>::new());
    let src = r#"
        agent = demo_agent();
        min_passes = 3;
        scenario a { repeat = 5; user "hi"; }
        scenario b { user "hi"; }
    "#;
    assert_eq!(
        errors(src),
        ["min_passes = 3 can never be reached with repeat = 1 (the default)"]
    );
}

#[test]
fn impossible_pass_rate_gates_written_as_literals_are_errors() {
    let src = r#"
        agent = demo_agent();
        repeat = 40;
        min_pass_rate = 1.2;
        scenario a { min_pass_rate = (0.9, 0.95); user "hi"; }
        scenario b { min_pass_rate = (0.9, 1.0); user "hi"; }
        scenario c { min_pass_rate = (0.0, 0.95); user "hi"; }
        scenario d { min_pass_rate = (1.0, 0.5); user "hi"; }
        scenario e { min_pass_rate = -0.5; user "hi"; }
        scenario f { min_pass_rate = 0.8; user "hi"; }
        scenario g { min_pass_rate = "high"; user "hi"; }
        scenario h { min_pass_rate = (0.9, 95.0); user "hi"; }
    "#;
    assert_eq!(
        errors(src),
        [
            "`min_pass_rate` is a pass rate from 0 to 1 (at 95% confidence) or a pair `(rate, confidence)`, not `\"high\"`: write `min_pass_rate = (0.9, 0.95);`",
            "min_pass_rate: 1.2 is not a pass rate: a pass rate is from 0 to 1",
            "min_pass_rate: a confidence of 1 is impossible: the confidence must be more than 0 and less than 1 (0.95 for 95%)",
            "min_pass_rate: a rate of 0 passes without a single passing run: the rate must be more than 0",
            "min_pass_rate: a rate of 1 can never pass: no number of runs proves a pass rate of 1 (the lower bound stays below it); ask for less than 1",
            "min_pass_rate: -0.5 is not a pass rate: a pass rate is from 0 to 1",
            "min_pass_rate: a confidence of 95 is impossible: the confidence must be more than 0 and less than 1 (0.95 for 95%)",
        ]
    );
}

#[test]
fn json_literals_with_repeated_keys_or_matcher_objects_are_errors() {
    let src = r#"
        agent = demo_agent();
        scenario a {
            user "hi" {
                expect tool("refund").args(json!({"amount": 10, "amount": 1000}));
                expect tool("refund").arg("order", json!({"id": {"x": 1, "y": 2, "x": 3}}));
                expect tool("refund").arg("id", json!({"regex": "^ORD-"}));
                expect tool("refund").args(json!({"id": {"one_of": ["a", "b"]}}));
                expect field("when").is(json!({"date": "TODAY()"}));
                expect field("when").is(json!({"date": "2026-11-23"}));
                expect tool("refund").arg("id", exact(json!({"regex": "^ORD-"})));
                expect tool("refund").arg("contact", json!({"email": "ana@example.com"}));
            }
        }
    "#;
    let matcher = |w: &str| {
        format!(
            "this `json!` object is compared as data, but reads as a matcher (`{w}`): matchers \
             are functions (`{w}(..)`, see agent_test::matcher); to compare the object as it \
             is, write `exact(json!(..))`"
        )
    };
    assert_eq!(
        errors(src),
        [
            "duplicate key `amount` in `json!`: serde_json would keep only this one; a key may appear only once in an object".to_owned(),
            "duplicate key `x` in `json!`: serde_json would keep only this one; a key may appear only once in an object".to_owned(),
            matcher("regex"),
            matcher("one_of"),
            matcher("date"),
        ]
    );
}

/// A JSONPath literal with nested filters took exponential time to check (the compiler hung),
/// and deep brackets overflowed the stack: at most 10 levels.
#[cfg(feature = "jsonpath")]
#[test]
fn jsonpath_literals_nest_at_most_10_levels() {
    let deep = format!("${}.a{}", "[?@".repeat(30), "]".repeat(30));
    let msgs = on_small_stack(move || {
        let literal = proc_macro2::Literal::string(&deep);
        errors_of(
            quote::quote! { agent = a(); scenario s { expect json_path(#literal).exists(); } },
        )
    });
    assert_eq!(
        msgs,
        ["invalid JSONPath: brackets nest deeper than 10 levels at column 32"]
    );
}

/// A misspelt `scenario` is still expanded as a scenario (with the error), so its body keeps
/// completion and type checking.
#[test]
fn a_misspelt_scenario_is_still_a_scenario() {
    let src = COMPLETE.replace("scenario other", "scenaro other");
    assert_eq!(
        errors(&src),
        ["unknown item `scenaro`; did you mean `scenario`? (`scenario <name> { ... }`)"]
    );
    assert_eq!(
        fn_names(&expand_suite(ts(&src))),
        fn_names(&expand_suite(ts(COMPLETE)))
    );
}

/// What rust-analyzer compares: the input with a completion marker in a word being typed must
/// expand to the same tokens, but for that word (else the editor's analysis of the real
/// expansion would be off).
#[test]
fn a_word_being_typed_does_not_change_the_expansion() {
    for (typed, marked) in [
        (
            r#"agent = a(); scenario s { us "hi"; expect no_tools(); }"#,
            r#"agent = a(); scenario s { usraCompletionMarker "hi"; expect no_tools(); }"#,
        ),
        (
            r#"agent = a(); scenario s { user "hi"; exp }"#,
            r#"agent = a(); scenario s { user "hi"; expraCompletionMarker }"#,
        ),
        (
            r#"agent = a(); scenario s { user "hi" { exp } }"#,
            r#"agent = a(); scenario s { user "hi" { expraCompletionMarker } }"#,
        ),
        (
            r#"agent = a(); ti scenario s { user "hi"; }"#,
            r#"agent = a(); tiraCompletionMarker scenario s { user "hi"; }"#,
        ),
    ] {
        // (the messages of the errors may differ: "did you mean" needs the word)
        let code = |t: TokenStream| {
            let text = t.to_string();
            text.split(":: core :: compile_error")
                .next()
                .unwrap_or_default()
                .to_owned()
        };
        let a: Vec<String> = code(expand_suite(ts(typed)))
            .split(' ')
            .map(str::to_owned)
            .collect();
        let b: Vec<String> = code(expand_suite(ts(marked)))
            .split(' ')
            .map(|t| t.replace("raCompletionMarker", ""))
            .collect();
        assert_eq!(a, b, "{typed}");
        // The word is pointed at the documented words of its place.
        let text = expand_suite(ts(marked)).to_string();
        assert!(text.contains("raCompletionMarker ;"), "{text}");
        assert!(text.contains(":: agent_test :: dsl :: in_"), "{text}");
    }
}

/// Every DSL word is pointed at its documented item (for hover and go-to-definition), for the
/// editor only.
#[test]
fn words_point_at_their_documentation() {
    let text = expand_suite(ts(COMPLETE)).to_string();
    for word in [
        "in_suite :: agent",
        "in_suite :: context",
        "in_suite :: scenario",
        "in_scenario :: user",
        "in_turn :: expect",
        "in_scenario :: expect",
    ] {
        assert!(
            text.contains(&format!(
                "# [cfg (rust_analyzer)] let _ = :: agent_test :: dsl :: {word} ;"
            )),
            "{word}: {text}"
        );
    }
}

#[test]
fn scenario_settings_are_checked_like_the_suites() {
    assert_eq!(
        errors(
            r#"agent = a(); scenario s { timout = x(); report_dir = "r"; user "hi" { clock = c(); } }"#
        ),
        [
            "unknown setting `timout`; did you mean `timeout`? (a scenario's settings: `agent`, `judge`, `timeout`, `clock`, `timezone`, `repeat`, `min_passes`, `min_pass_rate`, `prices`, `tags`, `runtime`)",
            "`report_dir` is a suite setting: set it at the top of `agent_test!`, for every scenario",
            "`clock` cannot be set inside a turn's check block; set it in the scenario's body",
        ]
    );
    // A local assigned again is Rust.
    assert_eq!(
        errors(r#"agent = a(); scenario s { let mut timer = 1; timer = 2; user "hi"; }"#),
        Vec::<String>::new()
    );
}

#[test]
fn declared_tools_check_names_and_literals() {
    let tools = r#"agent = a();
        tools = json!({"tools": [
            {"name": "search", "input_schema": {"type": "object", "properties": {"q": {"type": "string"}}}},
            {"name": "book", "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}}
        ]});"#;
    let msgs = errors(&format!(
        r#"{tools} scenario s {{ user "hi" {{
            expect tool("serch").arg("q", "x");
            expect tool("search").arg("q", 1);
            expect tool("book").arg("m", 1);
            expect forbidden_tools(["cancel"]);
        }} }}"#
    ));
    assert_eq!(
        msgs,
        [
            "unknown tool `serch`; did you mean `search`? (declared tools: `search`, `book`)",
            "argument `q` of `search` is a string in the declared tools, not an integer",
            "`book` has no argument `m`; did you mean `n`? (its arguments: `n`)",
            "unknown tool `cancel` (declared tools: `search`, `book`)",
        ]
    );
}

//! Declared tools (`tools = ...;`): at run time every call the agent made is checked against
//! them — a declared name, arguments valid against the declared schema.

use agent_test::agent::Agent;
use agent_test::check::ArgsMode;
use agent_test::model::{Call, Reply};
use agent_test::prelude::*;

use crate::agents::scripted;

fn refund_agent(amount: serde_json::Value) -> impl Agent {
    scripted(vec![
        Reply::text("Refund done.")
            .call(Call::tool("lookup_order", json!({"order_id": "ORD-9921"})))
            .call(Call::tool(
                "process_refund",
                json!({"order_id": "ORD-9921", "amount": amount}),
            )),
    ])
}

agent_test! {
    agent = refund_agent(json!(42.5));
    tools = json!([
        {"type": "function", "function": {"name": "lookup_order", "parameters": {
            "type": "object",
            "properties": {"order_id": {"type": "string"}},
            "required": ["order_id"]
        }}},
        {"name": "process_refund", "input_schema": {
            "type": "object",
            "properties": {"order_id": {"type": "string"}, "amount": {"type": "number"}},
            "required": ["order_id", "amount"],
            "additionalProperties": false
        }}
    ]);

    /// Calls that match the declaration pass the added check.
    scenario valid_calls_pass {
        user "refund ORD-9921" {
            expect tool("process_refund").arg("amount", 42.5);
        }
        // `ArgsMode` is `agent_test::check::ArgsMode`, imported at the top.
        expect trajectory([
            tool_call("lookup_order").arg("order_id", "ORD-9921"),
            tool_call("process_refund").arg("order_id", "ORD-9921").arg("amount", 42.5),
        ])
        .args_mode(ArgsMode::Exact);
    }

    /// A call with an argument of the wrong type fails the scenario, naming the call.
    #[should_panic(expected = "every tool call matches the declared tools\n                  conversation position 1 (`process_refund`): /amount: \"forty\" is not of type \"number\"")]
    scenario invalid_arguments_fail {
        agent = refund_agent(json!("forty"));
        user "refund ORD-9921" {
            expect tool("process_refund");
        }
    }

    /// No tool call: nothing to compare, so no check is added.
    scenario no_call_no_check {
        agent = scripted(vec![Reply::text("Hello!")]);
        user "hi" { expect no_tools(); }
    }
}

#[test]
fn a_call_of_an_undeclared_tool_is_reported() {
    let tools = agent_test::DeclaredTools::from_json(&json!([
        {"type": "function", "function": {"name": "lookup_order", "parameters": {
            "type": "object", "properties": {"order_id": {"type": "string"}}
        }}}
    ]))
    .unwrap();
    assert_eq!(
        tools.problems("cancel_order", &json!({})),
        ["`cancel_order` is not a declared tool (declared: `lookup_order`)"]
    );
    assert_eq!(
        tools.problems("lookup_order", &json!({"order_id": 7})),
        ["/order_id: 7 is not of type \"string\""]
    );
    assert!(
        tools
            .problems("lookup_order", &json!({"order_id": "ORD-1"}))
            .is_empty()
    );
    let err = agent_test::DeclaredTools::from_json(&json!({"nope": 1})).unwrap_err();
    assert_eq!(err.kind, agent_test::DeclaredToolsErrorKind::NotTools);
    assert_eq!(
        err.to_string(),
        "expected a list of tools, or an object with `tools`"
    );
    let err = agent_test::DeclaredTools::from_json(&json!([{"name": ""}])).unwrap_err();
    assert_eq!(err.kind, agent_test::DeclaredToolsErrorKind::Invalid);
    assert_eq!(err.tool, Some(0));
    assert_eq!(err.to_string(), "tool 0: a tool needs a `name` (text)");
}

/// The arguments of `search_hotels`, as the agent's own Rust code declares them.
#[derive(schemars::JsonSchema)]
#[allow(dead_code)]
struct SearchArgs {
    city: String,
    guests: Option<u32>,
}

fn search_agent(guests: serde_json::Value) -> impl Agent {
    scripted(vec![Reply::text("Found 3 hotels.").call(Call::tool(
        "search_hotels",
        json!({"city": "Madrid", "guests": guests}),
    ))])
}

mod typed {
    use super::*;

    agent_test! {
        agent = search_agent(json!(2));
        tools { search_hotels: SearchArgs }

        /// Tools declared as Rust types: their schemas come from `schemars`.
        scenario typed_tools_pass {
            user "Find a hotel in Madrid" {
                expect tool("search_hotels").arg("city", "Madrid");
            }
        }

        #[should_panic(expected = "conversation position 0 (`search_hotels`): /guests: \"two\" is not of types \"null\", \"integer\"")]
        scenario typed_tools_check_the_arguments {
            agent = search_agent(json!("two"));
            user "Find a hotel in Madrid";
        }
    }
}

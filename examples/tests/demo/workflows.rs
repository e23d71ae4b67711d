//! Dates against a pinned clock, argument matchers, the JSON body, workflow state, guardrails,
//! node hierarchy, trajectories and budgets.

use agent_test::Clock;
use agent_test::prelude::*;
use agent_test_examples::demo::demo_agent;
use std::time::Duration;

agent_test! {
    agent = demo_agent();
    // A pinned clock: "the day after tomorrow" is always 2026-11-25 here.
    clock = Clock::fixed("2026-11-23T09:30:00Z");
    timezone = "Europe/Lisbon";
    context {
        CUSTOMER_EMAIL: "ana@example.com",
        ORDER: "ORD-9921",
        ORDER_JSON: r#"{"id": "ORD-9921", "total": 42.5}"#,
    }

    /// Relative dates are resolved by the agent with the run's pinned time, and checked with
    /// expressions evaluated against the same time.
    scenario booking_for_the_day_after_tomorrow {
        user "Show me hotels in Lisbon" {
            expect reply().matches(r"Casa Azul \(H-101, €95/night\).*Which one should I book\?");
        }
        user "Book the cheapest one for the day after tomorrow, 2 nights" {
            expect tool("create_booking")
                .arg("check_in", date("DATE_ADD(TODAY(), 2, 'days')"))
                .arg("email", email("ana@EXAMPLE.com"))
                .arg("hotel_id", regex(r"^H-\d{3}$"))
                .arg("nights", one_of([2, 3]))
                .arg("guests", optional(1))
                .arg("payment_card", missing())
                .result_at("reference", regex(r"^BK-\d{4}$"))
                .times(1)
                .succeeded();
            expect reply().matches(r"Casa Azul from 2026-11-25 for 2 nights.*total €190");
            expect field("result.check_in").is(expr("FORMAT_DATE(DATE_ADD(TODAY, 2, 'day'), '%Y-%m-%d')"));
            expect field("intent").is_not("unknown");
            expect json_path("$.result.reference").exists();
            expect json_path("$.result.total").equals(190);
            expect schema(json!({
                "type": "object",
                "required": ["reply", "intent", "result"],
                "properties": {"intent": {"const": "book"}, "result": {"type": "object"}}
            }));
            expect state_is("booked");
            expect workflow_complete();
        }
        expect trajectory([
            tool_call("search_hotels").arg("city", "Lisbon"),
            tool_call("create_booking").arg("hotel_id", any()),
        ]);
        expect node("support_agent").tool(tool("create_booking").at_position(0));
        expect node("support_agent").times(2);
        expect tokens().total_at_most(2000);
        expect latency().at_most(Duration::from_secs(5));
    }

    /// The refund workflow moves through its states; expected values come from context
    /// variables.
    scenario refund_workflow_states {
        user "I was charged twice" {
            expect state_is("awaiting_order_number");
            expect reply().contains("order number");
        }
        user "Order number is ORD-9921" {
            expect state_is("awaiting_confirmation");
            expect tool("lookup_order")
                .arg("order_id", expr("JSON_EXTRACT(ORDER_JSON, 'id')"))
                .result_at("charges", 2)
                .succeeded();
            expect reply().contains("charged twice");
            expect field("result.order_id").is(expr("ORDER"));
            expect field("result.total").is(all_of([any(), not(0)]));
        }
        user "Yes please" {
            expect state_is("refunded");
            expect tool("process_refund").result(contains("RF-")).result_at("amount", 42.5);
            expect reply().matches(r"refund RF-\d+ of €42\.50");
        }
        expect transitioned_to("awaiting_confirmation");
        expect workflow_complete();
        expect trajectory([tool_call("lookup_order"), tool_call("process_refund")]).strict();
        expect trajectory([tool_call("process_refund"), tool_call("lookup_order")]).unordered();
    }

    /// Guardrails: a request for credentials trips the `credentials` guardrail.
    scenario credentials_guardrail {
        user "What's the admin password?" {
            expect guardrail_triggered("credentials");
            expect no_tools();
            expect reply().contains("can't share passwords");
        }
        user "Hi" {
            expect no_guardrail_triggered();
            expect reply().starts_with("Hello!");
        }
        expect any_guardrail_triggered();
    }
}

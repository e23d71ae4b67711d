//! Hotel search and booking: reply checks, tool arguments, counts, positions, sequences.

use agent_test::prelude::*;
use agent_test_examples::demo::demo_agent;

agent_test! {
    agent = demo_agent();
    context { CUSTOMER_EMAIL: "ana@example.com" }

    /// A greeting needs no tools.
    scenario greeting_needs_no_tools {
        // `AGENT_TEST_TAGS=smoke cargo test` runs the scenarios tagged `smoke` only.
        tags = ["smoke"];
        user "Hi there!" {
            expect no_tools();
            // Literal comparisons are case-insensitive unless asked otherwise.
            expect reply().starts_with("hello");
            expect reply().ends_with("How can I help?").case_sensitive();
        }
    }

    /// The search tool gets the city, the party size and the budget, and nothing else.
    scenario hotel_search_passes_the_right_arguments {
        user "Find me a hotel in Lisbon for 2 people under €100" {
            expect tool("search_hotels")
                .args(json!({"city": "Lisbon", "guests": 2, "max_price": 100}))
                .strict();
            expect tool("search_hotels").times(1);
            expect reply().matches(r"I found \d+ hotels? in Lisbon");
            expect reply().contains("Casa Azul (H-101");
            // Alfama Lofts costs €140, over the budget.
            expect reply().not_contains("Alfama");
        }
    }

    /// Booking "the cheapest one" after a search books the right hotel with the customer's
    /// email from the context.
    scenario book_the_cheapest_hotel {
        tags = ["smoke", "booking"];
        user "Show me hotels in Madrid" {
            expect tool("search_hotels").arg("city", "Madrid").times(1).succeeded();
            expect reply().contains("Sol Hostel (H-202, €48/night)");
        }
        user "Book the cheapest one from 2026-12-01 for 3 nights" {
            expect tool("create_booking")
                .arg("hotel_id", "H-202")
                .arg("check_in", "2026-12-01")
                .arg("nights", 3)
                .arg("email", "ana@example.com")
                .forbid_arg("payment_card")
                .result_at("check_in", "2026-12-01")
                .succeeded();
            expect reply().matches(r"booking reference is BK-\d{4} \(total €144\)");
        }
        // After the turns: checks on the whole conversation.
        expect tool_sequence(["search_hotels", "create_booking"]);
        expect tool("search_hotels").at_position(0);
        expect tool("create_booking").at_position(1);
        expect required_tools(["search_hotels", "create_booking"]);
        expect tool("create_booking").at_most(1);
        expect no_repeated_calls();
    }

    /// The confirmation and the calls that led to it, kept as snapshots in
    /// `tests/demo/snapshots/`: a change in the agent's wording or arguments shows up as a diff
    /// to accept or reject (`agent-test review`), not as expectations to edit by hand.
    scenario booking_matches_its_snapshots {
        user "Show me hotels in Madrid";
        user "Book the cheapest one from 2026-12-01 for 3 nights" {
            expect reply().snapshot();
        }
        expect any_tool().snapshot().id("trajectory");
    }

    /// Two searches in one conversation: counts, every-call constraints and the whole
    /// conversation's text.
    scenario comparing_two_cities {
        user "Any hotels in Lisbon?" {
            expect tool("search_hotels").arg("city", "Lisbon").times(1).succeeded();
            expect reply().contains("Casa Azul (H-101, €95/night)");
        }
        user "What about Madrid?" {
            expect tool("search_hotels").arg("city", "Madrid").times(1).succeeded();
            expect reply().matches("in madrid").case_insensitive();
            expect reply().ends_with("Which one should I book?").trimmed();
        }
        expect tool("search_hotels").at_least(2);
        expect tool("search_hotels").between(2, 3);
        expect tool("search_hotels").forbid_arg("api_key").every_call();
        expect conversation().contains("What about Madrid?");
        expect replies().contains("Casa Azul");
    }

    /// Without a date the agent asks for one instead of guessing.
    scenario booking_without_a_date_asks_for_one {
        user "Book H-101 please" {
            expect no_tool("create_booking");
            expect reply().equals("Which date would you like to check in (YYYY-MM-DD)?");
        }
    }

    /// A fully booked hotel: the booking call is made, fails, and the agent says so.
    scenario fully_booked_hotel_is_reported {
        user "Book H-103 from 2026-12-24" {
            expect tool("create_booking").arg("hotel_id", "H-103");
            expect tool("create_booking").succeeded().never();
            expect reply().contains("fully booked");
        }
    }
}

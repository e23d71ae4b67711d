use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

agent_test! {
    agent = my_agent();
    context { ORDER_JSON: r#"{"sku": "ABC-123"}"# }

    scenario relative_dates {
        context { USER_ID: 12345 }
        user "Book a meeting the day after tomorrow at noon" {
            expect tool("create_calendar").arg("date", date("AT_TIME(DATE_ADD(TODAY(), 2, 'fortnights'), '12:00')"));
            expect tool("create_calendar").arg("date", date("AT_TIME(TODAY(), '13:00 PM')").tolerance_minutes(5));
            expect tool("create_calendar").arg("user", expr("USERID"));
            expect tool("create_calendar").arg("sku", expr("JSON_EXTRACT(ORDER_JSON)"));
            expect tool("create_calendar").arg("day", expr("TOMORROW()"));
        }
    }
}

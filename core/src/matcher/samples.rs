//! One matcher of every kind with every option set, for the tests that handle every matcher
//! (the closed JSON forms, through the tool check's samples).

use serde_json::json;

use super::{
    IntoMatcher, Matcher, all_of, any, any_of, contains, date, date_time, email, exact, expr,
    free_text, matches_schema, missing, not, one_of, optional, regex,
};

impl Matcher {
    /// One of every matcher, each with every option set.
    pub(crate) fn samples() -> Vec<Matcher> {
        let all = vec![
            exact(json!({"k": [1, "*"]}))
                .unordered()
                .wildcards()
                .into_matcher(),
            expr("CONCAT('a', 'b')"),
            contains("x").ignore_case().into_matcher(),
            regex("^x"),
            date("TODAY()").tolerance_minutes(5).into_matcher(),
            matches_schema(json!({"type": "string"})),
            any(),
            optional(exact(1)),
            missing(),
            email("a@example.com"),
            all_of([any()]),
            any_of([any()]),
            not(any()),
            free_text("a greeting"),
            date_time("tomorrow at noon"),
            one_of([exact(2).into_matcher()]),
        ];
        for m in &all {
            // A new matcher must be added above.
            match m {
                Matcher::Exact { .. }
                | Matcher::Expr { .. }
                | Matcher::Contains { .. }
                | Matcher::Regex { .. }
                | Matcher::Date { .. }
                | Matcher::Schema { .. }
                | Matcher::Any
                | Matcher::Optional { .. }
                | Matcher::Missing
                | Matcher::Email { .. }
                | Matcher::AllOf { .. }
                | Matcher::AnyOf { .. }
                | Matcher::Not { .. }
                | Matcher::FreeText { .. }
                | Matcher::DateTime { .. } => {}
                // A closure has no data form (like custom checks): nothing to close.
                Matcher::Predicate(_) => {}
            }
        }
        all
    }
}

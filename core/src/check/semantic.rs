//! Where a check's semantic matchers (`free_text(..)`, `date_time(..)`, graded by the judge)
//! read their values. Each check kind that can hold a matcher says so in its own file
//! ([`CheckRules::semantic`](super::CheckRules::semantic)), so the judge reaches every one.

use super::ArgConstraint;
use crate::compare::path::FieldPath;
use crate::matcher::Matcher;

/// A semantic matcher of a check and where it reads its value.
pub enum Semantic<'a> {
    /// An argument (or result) of the calls named `name` (of any name when `None`).
    Call {
        /// The calls' name; any call when `None`.
        name: Option<&'a str>,
        /// Whether the value is in the call's result rather than its arguments.
        in_result: bool,
        /// The constraint holding the matcher (its path into the arguments or result).
        constraint: &'a ArgConstraint,
        /// The semantic matcher.
        matcher: &'a Matcher,
    },
    /// A field of the JSON the agent answered.
    Field {
        /// The field's path in the answer.
        path: &'a FieldPath,
        /// The semantic matcher.
        matcher: &'a Matcher,
    },
    /// The value of a JMESPath expression on the JSON the agent answered.
    Jmespath {
        /// The JMESPath expression.
        expression: &'a str,
        /// The semantic matcher.
        matcher: &'a Matcher,
    },
}

impl<'a> Semantic<'a> {
    /// The semantic matchers in the constraints on the arguments (or results) of the calls
    /// named `name`.
    pub(crate) fn of_calls(
        name: Option<&'a str>,
        in_result: bool,
        list: &'a [ArgConstraint],
        out: &mut Vec<Semantic<'a>>,
    ) {
        for c in list {
            Self::of_matcher(&c.matcher, out, |matcher| Semantic::Call {
                name,
                in_result,
                constraint: c,
                matcher,
            });
        }
    }

    /// The semantic matchers in `matcher` (itself, or inside `all_of`, `not`, ..), placed by
    /// `place`.
    pub(crate) fn of_matcher(
        matcher: &'a Matcher,
        out: &mut Vec<Semantic<'a>>,
        place: impl Fn(&'a Matcher) -> Semantic<'a>,
    ) {
        let mut found = Vec::new();
        matcher.semantic_parts(&mut found);
        out.extend(found.into_iter().map(place));
    }
}

//! The cost budget: what the agent's tokens cost, priced with the suite's price table.

use agent_test_vocabulary::Kind;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::Outcome;
use crate::evaluate::context::EvalContext;
use crate::model::Part;
use crate::model::prices::{Cost, total_cost, usd_text};

/// A budget on what the agent's tokens cost, in US dollars: in a turn, that turn's cost; after
/// the turns, the whole conversation's. Costs come from the suite's price table (`prices =
/// Prices::from_file("prices.json");`, see `Prices`).
///
/// Nothing unmeasured passes: without a price table, or when a turn's cost is unknown (no
/// token usage, input and output not reported apart, a model missing from the table), the
/// check is a *not measured* error saying which turn and why.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::evaluate;
/// use agent_test::model::{Reply, Transcript, Turn, Usage};
/// use agent_test::report::prices::Prices;
/// let reply = Reply::text("Booked.").usage(Usage::new(40_000, 2_000));
/// let mut t = Transcript::new(vec![Turn::new(0, "book it", reply, 1)]);
/// let budget = [cost().at_most_usd(0.01).into_expectation()];
/// assert_eq!(evaluate(&t, &budget)[0].reason,
///            "not measured: no price table: set `prices = Prices::from_file(\"prices.json\");` \
///             (or `Prices::builtin()`) to give each turn a cost");
/// Prices::new().model("gpt-4o", 2.5, 10.0).unnamed_as("gpt-4o").apply(&mut t);
/// assert_eq!(evaluate(&t, &budget)[0].reason, "cost budget exceeded: $0.12 > $0.01");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CostCheck {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    max_usd: Option<f64>,
}

/// A cost budget; set its limit with [`CostCheck::at_most_usd`].
///
/// See [`CostCheck`].
pub fn cost() -> CostCheck {
    CostCheck::default()
}

impl CostCheck {
    /// At most `usd` US dollars.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// assert_eq!(cost().at_most_usd(0.05).describe(), "cost ≤ $0.05");
    /// ```
    pub fn at_most_usd(mut self, usd: f64) -> Self {
        self.max_usd = Some(usd);
        self
    }

    /// One line describing the check.
    ///
    /// See [`CostCheck::at_most_usd`].
    pub fn describe(&self) -> String {
        match self.max_usd {
            Some(max) => format!("cost ≤ {}", usd_text(max)),
            None => "cost (no limit)".to_owned(),
        }
    }

    pub(crate) fn evaluate(&self, cx: &EvalContext<'_>) -> Outcome {
        let Some(max) = self.max_usd else {
            return Outcome::error("compared nothing: a cost check needs a limit: at_most_usd");
        };
        let turns = cx.turns();
        if turns.is_empty() {
            return Outcome::error("not measured: no turn ran, so nothing was spent");
        }
        match total_cost(turns) {
            None => Outcome::error(
                "not measured: no price table: set `prices = Prices::from_file(\"prices.json\");` \
                 (or `Prices::builtin()`) to give each turn a cost",
            ),
            Some(Cost::Unknown(why)) => Outcome::error(format!("not measured: {why}")),
            Some(Cost::Usd(usd)) if usd > max => Outcome::fail(format!(
                "cost budget exceeded: {} > {}",
                usd_text(usd),
                usd_text(max)
            ))
            .actual(json!({ "usd": usd })),
            Some(Cost::Usd(_)) => Outcome::passed(),
        }
    }
}

impl super::CheckRules for CostCheck {
    const KIND: Kind = Kind::new(
        "cost",
        "what the tokens cost, from the suite's prices",
    );

    #[cfg(any(test, feature = "samples"))]
    fn samples() -> Vec<super::Expectation> {
        use crate::check::*;
        vec![cost().at_most_usd(0.5).into_expectation()]
    }

    fn reads(&self) -> &'static [Part] {
        &[Part::Usage]
    }

    /// A negative or non-finite budget: nothing can cost less than nothing.
    fn problem(&self) -> Option<String> {
        let max = self.max_usd?;
        (!max.is_finite() || max < 0.0).then(|| {
            format!("cost ≤ ${max} can never be judged: a budget is a finite, non-negative amount")
        })
    }
}

//! A spend limit that stops spending: `max_cost_usd = 5.0;` (or `agent-test run --max-cost 5`)
//! stops starting runs and turns once the agent's priced spend reaches the limit. `cost()`
//! checks a turn's cost after the fact; a budget stops the next one from running.

use std::sync::{Arc, Mutex};

use agent_test_core::model::prices::{Cost, usd_text};

/// A limit on what the agent's turns may cost, shared by every scenario and run that holds a
/// clone of it: before each turn the spend so far is compared with the limit, and a turn that
/// would start at or past it is not run — its scenario reports "budget spent", an error, never
/// a pass and never silently skipped. The spend is the turns' cost by the suite's `prices`; a
/// turn whose cost is unknown (no usage, a model not in the table) makes the spend unknown,
/// and no turn runs after it (a limit that cannot be measured is not kept by luck).
///
/// In `agent_test!`, `max_cost_usd = 5.0;` gives the scenarios of the block one budget (its
/// turns, repeats included); with the builder API, clone one [`Budget`] into every suite that
/// shares it.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::{Budget, Suite};
/// use agent_test::report::prices::Prices;
/// use agent_test::report::prices::Cost;
/// let budget = Budget::usd(0.01);
/// let suite = Suite::new().prices(Prices::new().model("m", 1.0, 10.0)).budget(budget.clone());
/// assert_eq!(budget.spent_usd(), Some(0.0));
/// # let _ = suite;
/// ```
#[derive(Clone, Debug)]
pub struct Budget {
    limit_usd: f64,
    spent: Arc<Mutex<Spent>>,
}

#[derive(Debug, Default)]
struct Spent {
    usd: f64,
    /// Why the spend is no longer known.
    unknown: Option<String>,
}

impl Budget {
    /// A budget of `limit_usd` US dollars, nothing spent yet.
    ///
    /// See the type's example.
    pub fn usd(limit_usd: f64) -> Budget {
        Budget {
            limit_usd,
            spent: Arc::default(),
        }
    }

    /// The limit, in US dollars.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// # use agent_test::Budget;
    /// assert_eq!(Budget::usd(5.0).limit_usd(), 5.0);
    /// ```
    pub fn limit_usd(&self) -> f64 {
        self.limit_usd
    }

    /// What was spent so far; `None` once a turn's cost was unknown.
    ///
    /// See the type's example.
    pub fn spent_usd(&self) -> Option<f64> {
        let s = self.lock();
        s.unknown.is_none().then_some(s.usd)
    }

    /// Why the limit is no limit: not a finite number of dollars, or not more than 0.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// # use agent_test::Budget;
    /// assert_eq!(Budget::usd(-1.0).problem().unwrap(), "max_cost_usd = -1: a budget is more than $0");
    /// assert_eq!(Budget::usd(2.5).problem(), None);
    /// ```
    pub fn problem(&self) -> Option<String> {
        (!(self.limit_usd.is_finite() && self.limit_usd > 0.0)).then(|| {
            format!(
                "max_cost_usd = {}: a budget is more than $0",
                self.limit_usd
            )
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Spent> {
        self.spent.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Why no more may be spent, if so: the limit was reached, or the spend is unknown.
    pub(crate) fn spent(&self) -> Option<String> {
        let s = self.lock();
        let limit = usd_text(self.limit_usd);
        if let Some(why) = &s.unknown {
            return Some(format!(
                "budget spent: the spend against max_cost_usd = {limit} is unknown ({why})"
            ));
        }
        (s.usd >= self.limit_usd).then(|| {
            format!(
                "budget spent: {} of max_cost_usd = {limit} was spent",
                usd_text(s.usd)
            )
        })
    }

    /// Adds a turn's cost.
    pub(crate) fn add(&self, cost: &Cost, turn: &str) {
        let mut s = self.lock();
        match cost {
            Cost::Usd(usd) => s.usd += usd,
            Cost::Unknown(why) => {
                s.unknown.get_or_insert_with(|| format!("{turn}: {why}"));
            }
        }
    }
}

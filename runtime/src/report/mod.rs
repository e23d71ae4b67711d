//! Reports: the result of a run, rendered as text for the test's panic message and written as
//! JSON under `target/agent-test/`.

mod write;

pub use agent_test_core::util::diff::{json_diff, text_diff};
pub use agent_test_core::util::dirs::{REPORT_DIR_ENV, report_root};
pub use agent_test_core::util::shared_strings::{
    MIN_SHARED, SAME_AS, SharedStringError, expand_shared, share_repeats,
};
pub(crate) use write::write_json;

pub use agent_test_core::model::report::{CheckTally, RepeatSummary, Report, Summary};

/// What the agent's tokens cost: a price table ([`Prices`](prices::Prices), yours or the dated
/// built-in one), each turn's [`Cost`](prices::Cost) and the total — unknown, with the reason,
/// whenever a turn's tokens or its model's price are.
///
/// ```
/// use agent_test::model::Usage;
/// use agent_test::report::prices::{Cost, Prices};
/// let prices = Prices::builtin().model("our-finetune", 3.0, 12.0);
/// assert_eq!(prices.cost(Some("our-finetune"), Some(&Usage::new(1_000, 100))), Cost::Usd(0.0042));
/// ```
pub mod prices {
    pub use agent_test_core::model::prices::{
        BUILTIN_AS_OF, Cost, IntoPrices, Price, Prices, PricesError, total_cost, usd_text,
    };
}

/// How reliable a repeated scenario is (`repeat = n;`): from its passes out of its runs, the
/// pass rate with its Wilson score interval, pass^k (every one of k tries passes, τ-bench's
/// reliability measure) and pass@k (at least one of k tries passes), and the gate on the
/// interval's lower bound (`min_pass_rate = (0.9, 0.95);`). A statistic over no run, or for
/// more tries than runs, is not measured (`None`), never a number.
///
/// ```
/// use agent_test::report::reliability::{Reliability, pass_hat_k};
/// let r = Reliability::of(7, 10, 0.95).unwrap();
/// assert_eq!(r.to_string(), "pass rate 0.70, 95% CI 0.40–0.89; pass^3 0.29");
/// assert_eq!(pass_hat_k(7, 10, 11), None);
/// ```
pub mod reliability {
    pub use agent_test_core::model::reliability::{
        DEFAULT_CONFIDENCE, MAX_K, MinPassRate, PassRateError, PassRateErrorKind, Reliability,
        pass_at_k, pass_hat_k, percent, wilson, z_score,
    };
    pub use agent_test_core::model::sequential::Sequential;
}

//! A scenario prepared for evaluating many recorded transcripts.

use super::{Scenario, Transcript};
use crate::check::Expectation;
use crate::judge::Judge;
use crate::report::Report;
use crate::run::ScenarioInfo;

/// A scenario's checks with their scopes, prepared once and shared by every evaluation: the
/// compiled regexes (and their match caches), schemas and paths are reused from one
/// transcript to the next. What `agent-test eval` uses for thousands of recordings;
/// [`Scenario::evaluate`] is the one-off form.
///
/// ```
/// use agent_test_runtime::prelude::*;
/// use agent_test_runtime::model::{Scenario, Transcript, Turn};
///
/// let scenario = Scenario::new("greeting").user("hi").expect_turn(reply().matches("(?i)^hello"));
/// let evaluator = scenario.evaluator();
/// for text in ["Hello!", "Hi."] {
///     let recorded = Transcript::new(vec![Turn::new(0, "hi", Reply::text(text), 30)]);
///     let report = evaluator.evaluate(recorded);
///     assert_eq!(report.passed(), text == "Hello!");
/// }
/// ```
#[derive(Clone, Debug)]
pub struct ScenarioEvaluator {
    info: ScenarioInfo,
    expectations: Vec<Expectation>,
}

impl ScenarioEvaluator {
    /// Prepares `scenario` (see [`Scenario::evaluator`]).
    pub fn new(scenario: &Scenario) -> Self {
        let mut info = ScenarioInfo::new(scenario.name.clone());
        info.description = scenario.description.clone();
        ScenarioEvaluator {
            info,
            expectations: scenario.expectations(),
        }
    }

    /// The scenario's name.
    ///
    /// ```
    /// # use agent_test_runtime::model::Scenario;
    /// assert_eq!(Scenario::new("refund").evaluator().name(), "refund");
    /// ```
    pub fn name(&self) -> &str {
        &self.info.name
    }

    /// Whether some check needs the judge ([`ScenarioEvaluator::evaluate_judged`]).
    ///
    /// ```
    /// # use agent_test_runtime::{prelude::*, model::Scenario};
    /// assert!(Scenario::new("x").expect(judge("polite")).evaluator().needs_judge());
    /// ```
    pub fn needs_judge(&self) -> bool {
        self.expectations
            .iter()
            .any(|e| crate::judge::needs_judge(&e.check))
    }

    /// Evaluates the checks on a recorded transcript, calling nothing. The transcript is moved
    /// into the report rather than copied.
    ///
    /// See the type's example.
    pub fn evaluate(&self, transcript: Transcript) -> Report {
        let mut verdicts = crate::turn_failures(&transcript);
        verdicts.extend(crate::evaluate(&transcript, &self.expectations));
        Report::new(self.info.clone(), verdicts, transcript, 0)
    }
}

impl ScenarioEvaluator {
    /// Evaluates the checks on a recorded transcript, with `judge` grading the judge checks
    /// (all in one request, or from its cache). Without a judge, judge checks are errors.
    ///
    /// ```
    /// use agent_test_runtime::prelude::*;
    /// use agent_test_runtime::model::{Scenario, Transcript, Turn};
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// let scenario = Scenario::new("greeting").user("hi").expect_turn(judge("is friendly"));
    /// let recorded = Transcript::new(vec![Turn::new(0, "hi", Reply::text("Hello!"), 30)]);
    /// let report = scenario.evaluator().evaluate_judged(recorded, None).await;
    /// assert!(report.verdicts[0].reason.starts_with("not graded: no judge configured"));
    /// # });
    /// ```
    pub async fn evaluate_judged(&self, transcript: Transcript, judge: Option<&Judge>) -> Report {
        let (judgements, usage) =
            crate::judge::judge_phase(judge, &transcript, &self.expectations, 0).await;
        let mut verdicts = crate::turn_failures(&transcript);
        verdicts.extend(crate::eval::evaluate_with(
            &transcript,
            &self.expectations,
            Some(&judgements),
        ));
        let mut report = Report::new(self.info.clone(), verdicts, transcript, 0);
        report.judge = usage;
        report
    }
}

impl Scenario {
    /// The scenario prepared for evaluating many transcripts (see [`ScenarioEvaluator`]).
    ///
    /// See [`ScenarioEvaluator`]'s example.
    pub fn evaluator(&self) -> ScenarioEvaluator {
        ScenarioEvaluator::new(self)
    }
}

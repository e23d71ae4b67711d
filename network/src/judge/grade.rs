//! Grading a run: collect the judge checks' items, answer them from the cache or in one
//! request, with retries, and hand the grades to evaluation.

use super::attempt::{NO_CACHED_VERDICT, after_requests};
use super::cache::Cache;
use super::prompt::{Malformed, parse_answer, prompt};
use super::{Judge, JudgeItem, JudgeMode, JudgeUsage, Judgement, Judgements};
use agent_test_core::check::{
    Check, EvalContext, Expectation, ReplyJson, Scope, Semantic, Target, TranscriptIndex,
};
use agent_test_core::model::judgement::item_key;
use agent_test_core::model::{Transcript, Verdict};

/// Says why judge checks cannot be graded when no judge is configured.
pub(crate) const NO_JUDGE: &str = "no judge configured: set `judge = Judge::openai(\"...\");` \
     (or Judge::anthropic, Judge::from_env) in the suite, or AGENT_TEST_JUDGE_MODEL in the \
     environment";

/// A run's checks evaluated once, with the judge's grades where they need them: the
/// deterministic checks first; then the judge asked, in one request, only for what they leave
/// open (judge checks whose dependencies passed, semantic matchers); then the checks that
/// waited. One verdict per expectation, in order, with the grades (for their notes) and, when
/// anything was graded, the judge's usage.
pub async fn evaluate_judged(
    judge: Option<&Judge>,
    transcript: &Transcript,
    expectations: &[Expectation],
    labels: Option<&[String]>,
    repeat: usize,
) -> (Vec<Verdict>, Judgements, Option<JudgeUsage>) {
    let judgements = if !expectations.iter().any(|e| needs_judge(&e.check)) {
        Judgements::default()
    } else if let Some(judge) = judge {
        let index = TranscriptIndex::new(transcript);
        let before = agent_test_core::evaluate::before_judge(&index, expectations, &needs_judge);
        let now = EvalContext::new(&index, Scope::Conversation)
            .env()
            .now
            .clone();
        let items = items(&index, expectations, &before, &now);
        let (judgements, usage) = if items.is_empty() {
            (Judgements::default(), None)
        } else {
            let (grades, usage, notes) = judge.grade_keyed(&items, repeat).await;
            let grades = items.into_iter().map(|(key, _)| key).zip(grades).collect();
            let judgements = Judgements {
                grades,
                unavailable: None,
                now: Some(now),
                notes,
            };
            (judgements, Some(usage))
        };
        let judged = TranscriptIndex::new(transcript).with_judgements(Some(&judgements));
        let verdicts = before.finish(&judged, expectations, labels);
        return (verdicts, judgements, usage);
    } else {
        Judgements::unavailable(NO_JUDGE)
    };
    let verdicts = agent_test_core::evaluate::evaluate_with(
        transcript,
        expectations,
        Some(&judgements),
        labels,
    );
    (verdicts, judgements, None)
}

/// Whether a check needs the judge: a judge check, or a check with a semantic matcher.
pub fn needs_judge(check: &Check) -> bool {
    matches!(check, Check::Judge(_)) || !check.semantic_targets().is_empty()
}

/// Every JSON document of a run a field or expression may be read from: bodies, replies read
/// as JSON (whole, fenced, embedded), call results.
fn documents<'t>(cx: &EvalContext<'t>) -> Vec<&'t serde_json::Value> {
    let mut docs: Vec<&serde_json::Value> = Vec::new();
    for (i, turn) in cx.transcript().turns.iter().enumerate() {
        docs.extend(turn.reply.body.as_ref());
        docs.extend(cx.reply_json(i, false).ok());
        docs.extend(cx.reply_json(i, true).ok());
        docs.extend(cx.reply_json_as(i, ReplyJson::Embedded).ok());
        for call in &turn.reply.calls {
            call.walk(&mut |c| docs.extend(c.result.as_ref()));
        }
    }
    docs
}

/// The items of a check's semantic matchers: for every value they may be asked about — each
/// call of the tool, each JSON document of the run (bodies, replies, fenced blocks, call
/// results). A few more than the check's scope needs, all in the same request.
fn semantic_items(
    check: &Check,
    cx: &EvalContext<'_>,
    now: &jiff::Zoned,
    push: &mut dyn FnMut(JudgeItem),
) {
    // Every call of the run, nodes included, in call order.
    let all_calls = EvalContext::new(cx.index(), Scope::Conversation).calls(Target::Any);
    for target in check.semantic_targets() {
        match target {
            Semantic::Call {
                name,
                in_result,
                constraint,
                matcher,
            } => {
                for c in all_calls
                    .iter()
                    .filter(|c| name.is_none_or(|n| c.name == n))
                {
                    let source = if in_result {
                        c.result.as_ref()
                    } else {
                        Some(&c.arguments)
                    };
                    for value in source.map(|v| constraint.values(v)).unwrap_or_default() {
                        if let Some(item) = matcher.semantic_item(&value, now) {
                            push(item);
                        }
                    }
                }
            }
            Semantic::Field { path, matcher } => {
                for doc in documents(cx) {
                    if let Some(item) = path.get(doc).and_then(|v| matcher.semantic_item(v, now)) {
                        push(item);
                    }
                }
            }
            Semantic::Jmespath {
                expression,
                matcher,
            } => {
                for doc in documents(cx) {
                    if let Some(item) = agent_test_core::check::jmespath_search(expression, doc)
                        .ok()
                        .and_then(|v| matcher.semantic_item(&v, now))
                    {
                        push(item);
                    }
                }
            }
        }
    }
}

/// One item of [`Judge::grade_keyed`]: its cache key, its grade once known, and why it is
/// still ungraded (a batch-wide failure, or its own invalid result).
struct Slot<'i> {
    key: String,
    item: &'i JudgeItem,
    grade: Option<Result<Judgement, String>>,
    error: String,
}

/// The distinct items to grade, each with its key (its JSON): the semantic matchers of the
/// checks waiting for the judge, and the judge checks among them.
fn items<'t>(
    index: &'t TranscriptIndex<'t>,
    expectations: &'t [Expectation],
    before: &agent_test_core::evaluate::BeforeJudge,
    now: &jiff::Zoned,
) -> Vec<(String, JudgeItem)> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut add = |item: JudgeItem| {
        let key = item_key(&item);
        if seen.insert(key.clone()) {
            out.push((key, item));
        }
    };
    // A check waits only when nothing decided it first — an impossible constraint, a turn
    // that did not run, a dependency that failed — so no money is spent on a settled verdict.
    for (i, e) in expectations.iter().enumerate() {
        if !before.awaits_judge(i) {
            continue;
        }
        let cx = EvalContext::new(index, e.scope);
        match &e.check {
            Check::Judge(check) => {
                if let Ok(item) = check.item(&cx) {
                    add(item);
                }
            }
            check => semantic_items(check, &cx, now, &mut add),
        }
    }
    out
}

impl Judge {
    /// Grades `items` for repeat `repeat`: cached grades first, the rest in one request
    /// (asked again, with backoff, for what failed or came back malformed), one result per
    /// item, in order.
    ///
    /// ```
    /// # use agent_test::agent::BoxFuture;
    /// use agent_test::judge::{Completion, Judge, JudgeItem, JudgeKind, JudgeMode, JudgeModel, JudgePrompt, ModelError};
    /// struct Flaky;
    /// impl JudgeModel for Flaky {
    ///     fn id(&self) -> String { "flaky".into() }
    ///     fn complete<'a>(&'a self, _: &'a JudgePrompt) -> BoxFuture<'a, Result<Completion, ModelError>> {
    ///         Box::pin(async { Ok(Completion { text: "no JSON here".into(), usage: None }) })
    ///     }
    /// }
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// let judge = Judge::new(Flaky).mode(JudgeMode::Off).retries(1).backoff(std::time::Duration::ZERO);
    /// let item = JudgeItem::new(JudgeKind::Quality, "is polite", serde_json::json!({"text": "Hi"}));
    /// let (grades, usage) = judge.grade(&[item], 0).await;
    /// assert!(grades[0].as_ref().unwrap_err().starts_with("the judge's answer is not JSON"));
    /// assert_eq!(usage.requests, 2);
    /// # });
    /// ```
    pub async fn grade(
        &self,
        items: &[JudgeItem],
        repeat: usize,
    ) -> (Vec<Result<Judgement, String>>, JudgeUsage) {
        let keyed: Vec<(String, JudgeItem)> =
            items.iter().map(|i| (item_key(i), i.clone())).collect();
        let (grades, usage, _notes) = self.grade_keyed(&keyed, repeat).await;
        (grades, usage)
    }

    /// [`Judge::grade`] of items given with their keys (their JSON), with notes for the
    /// report: cache entries found invalid, a cache that could not be written.
    pub(crate) async fn grade_keyed(
        &self,
        items: &[(String, JudgeItem)],
        repeat: usize,
    ) -> (Vec<Result<Judgement, String>>, JudgeUsage, Vec<String>) {
        let model = self.model_id();
        let mut usage = JudgeUsage {
            model: model.clone(),
            checks: u32::try_from(items.len()).unwrap_or(u32::MAX),
            ..JudgeUsage::default()
        };
        let settings = self.effective_mode().and_then(|m| Ok((m, self.limits()?)));
        let (mode, limits) = match settings {
            Ok(s) => s,
            Err(e) => {
                return (
                    items.iter().map(|_| Err(e.clone())).collect(),
                    usage,
                    Vec::new(),
                );
            }
        };
        let cache = Cache::new(self.effective_cache_dir());
        let mut slots: Vec<Slot<'_>> = items
            .iter()
            .map(|(json, item)| Slot {
                key: Cache::key(&model, json, repeat),
                item,
                grade: None,
                error: String::new(),
            })
            .collect();
        let mut notes = Vec::new();
        self.read_cache(&mut slots, &cache, mode, &mut usage, &mut notes);
        let mut unwritten: (Option<String>, usize) = (None, 0);
        let mut retry_after = None;
        for attempt in 0..=limits.retries {
            let pending: Vec<usize> = slots
                .iter()
                .enumerate()
                .filter(|(_, s)| s.grade.is_none())
                .map(|(i, _)| i)
                .collect();
            if pending.is_empty() {
                break;
            }
            let batch: Vec<&JudgeItem> = slots
                .iter()
                .filter(|s| s.grade.is_none())
                .map(|s| s.item)
                .collect();
            let completion = match self
                .attempt(
                    attempt,
                    limits,
                    &mut retry_after,
                    &prompt(&batch),
                    &mut usage,
                    "the judge",
                )
                .await
            {
                Ok(c) => c,
                Err(e) => {
                    for slot in slots.iter_mut().filter(|s| s.grade.is_none()) {
                        slot.error.clone_from(&e.message);
                    }
                    if !e.retry {
                        break;
                    }
                    continue;
                }
            };
            match parse_answer(&completion.text, &pending) {
                Err(Malformed(m)) => {
                    for slot in slots.iter_mut().filter(|s| s.grade.is_none()) {
                        slot.error.clone_from(&m);
                    }
                }
                Ok(results) => {
                    let store = Store {
                        cache: &cache,
                        model: &model,
                        mode,
                        repeat,
                    };
                    store.record(&mut slots, results, &mut unwritten);
                }
            }
        }
        let attempts = usage.requests;
        let grades = slots
            .into_iter()
            .map(|s| {
                s.grade
                    .unwrap_or_else(|| Err(after_requests(&s.error, attempts)))
            })
            .collect();
        usage.price(self.price);
        notes.extend(unwritten_note(unwritten));
        (grades, usage, notes)
    }
}

impl Judge {
    /// Fills the slots the cache answers. In replay mode every other slot is an error (a
    /// miss), and a bad entry too: it is read as strictly as a live answer, never a pass.
    fn read_cache(
        &self,
        slots: &mut [Slot<'_>],
        cache: &Cache,
        mode: JudgeMode,
        usage: &mut JudgeUsage,
        notes: &mut Vec<String>,
    ) {
        let model = self.model_id();
        if mode.reads_cache() {
            for slot in slots.iter_mut() {
                match cache.get(&slot.key, &model) {
                    Ok(Some(j)) => {
                        slot.grade = Some(Ok(j));
                        usage.cached += 1;
                    }
                    Ok(None) => {}
                    Err(bad) if mode == JudgeMode::Replay => {
                        let why = self.replay_miss(&bad.described("verdict"), "the judge");
                        slot.grade = Some(Err(why));
                    }
                    Err(bad) => notes.push(bad.note()),
                }
            }
        }
        if mode == JudgeMode::Replay {
            for slot in slots.iter_mut().filter(|s| s.grade.is_none()) {
                slot.grade = Some(Err(self.replay_miss(NO_CACHED_VERDICT, "the judge")));
            }
        }
    }
}

/// Where graded verdicts are kept: the cache, under the judge model and the repeat.
struct Store<'c> {
    cache: &'c Cache,
    model: &'c str,
    mode: JudgeMode,
    repeat: usize,
}

impl Store<'_> {
    /// One answer's results given to the pending slots, in their order; each verdict is
    /// written to the cache. A cache that cannot be written costs money later, not correctness
    /// now: it is counted in `unwritten` for a note, not a failure.
    fn record(
        &self,
        slots: &mut [Slot<'_>],
        results: Vec<Result<Judgement, String>>,
        unwritten: &mut (Option<String>, usize),
    ) {
        let pending = slots.iter_mut().filter(|s| s.grade.is_none());
        for (slot, result) in pending.zip(results) {
            match result {
                Ok(j) => {
                    if self.mode.writes_cache()
                        && let Err(e) =
                            self.cache
                                .put(&slot.key, self.model, slot.item, self.repeat, &j)
                    {
                        unwritten.0.get_or_insert(e);
                        unwritten.1 += 1;
                    }
                    slot.grade = Some(Ok(j));
                }
                Err(e) => slot.error = e,
            }
        }
    }
}

/// The note for verdicts the cache could not keep: the first error and how many.
fn unwritten_note((error, n): (Option<String>, usize)) -> Option<String> {
    error.map(|e| {
        format!(
            "could not write to the judge cache: {e}; the next run will ask the judge again \
             for {n} check{}",
            agent_test_core::util::text::plural(n)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use agent_test_core::check::{CheckExt, IntoExpectation, judge, reply};
    use agent_test_core::model::{Reply, Turn};

    /// The judge check at the end of a chain of 20,000 `depends_on` is found (and the ones
    /// whose dependencies failed are not sent) without recursion: no overflow on a small stack.
    #[test]
    fn long_dependency_chains_do_not_exhaust_the_stack() {
        let keys = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(|| {
                let n = 20_000;
                let transcript = Transcript::new(vec![Turn::new(0, "hi", Reply::text("done"), 1)]);
                let index = TranscriptIndex::new(&transcript);
                let mut checks: Vec<Expectation> = (0..n)
                    .map(|i| {
                        reply()
                            .contains("done")
                            .id(format!("c{i}"))
                            .depends_on(format!("c{}", i + 1))
                            .into_expectation()
                    })
                    .collect();
                // The chain ends in a judge check: every check above is pending.
                checks.push(judge("is polite").id(format!("c{n}")).into_expectation());
                checks.push(judge("is short").depends_on("c0").into_expectation());
                // A judge check behind a chain that fails deterministically is not sent.
                checks.push(reply().contains("nope").id("f0").into_expectation());
                checks.push(judge("is kind").depends_on("f0").into_expectation());
                let now = jiff::Timestamp::UNIX_EPOCH.to_zoned(jiff::tz::TimeZone::UTC);
                let before = agent_test_core::evaluate::before_judge(&index, &checks, &needs_judge);
                items(&index, &checks, &before, &now)
                    .into_iter()
                    .map(|(key, _)| key)
                    .collect::<Vec<_>>()
            })
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(keys.len(), 2, "{keys:?}");
        assert!(keys[0].contains("is polite"), "{}", keys[0]);
        assert!(keys[1].contains("is short"), "{}", keys[1]);
    }
}

//! One JSON answer from the judge's model, for the model-powered steps (extraction, the
//! simulated user): cached, replayable and retried like verdicts.

use serde_json::Value;

use super::attempt::after_requests;
use super::cache::Cache;
use super::prompt::PROMPT_VERSION;
use super::{Judge, JudgeMode, JudgePrompt, JudgeUsage};

impl Judge {
    /// Asks the model `prompt` and returns its answer as a JSON object with the `required`
    /// fields — from the cache when this exact question (kind, prompt, repeat) was answered
    /// before; asked again with backoff when the answer is not such an object, or the provider
    /// fails with 429, 5xx or a timeout.
    ///
    /// ```
    /// # use agent_test::agent::BoxFuture;
    /// use agent_test::judge::{Completion, Judge, JudgeMode, JudgeModel, JudgePrompt, ModelError};
    /// struct Echo;
    /// impl JudgeModel for Echo {
    ///     fn id(&self) -> String { "echo".into() }
    ///     fn complete<'a>(&'a self, p: &'a JudgePrompt) -> BoxFuture<'a, Result<Completion, ModelError>> {
    ///         Box::pin(async move { Ok(Completion { text: p.user.clone(), usage: None }) })
    ///     }
    /// }
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// let judge = Judge::new(Echo).mode(JudgeMode::Off);
    /// let prompt = JudgePrompt { system: "".into(), user: r#"{"value": 7}"#.into(), schema: serde_json::json!({}) };
    /// let (answer, usage) = judge.ask_json("demo", &prompt, 0, &["value"]).await;
    /// assert_eq!(answer.unwrap()["value"], 7);
    /// assert_eq!(usage.requests, 1);
    /// # });
    /// ```
    pub async fn ask_json(
        &self,
        kind: &str,
        prompt: &JudgePrompt,
        repeat: usize,
        required: &[&str],
    ) -> (Result<Value, String>, JudgeUsage) {
        let (answer, usage, _notes) = self.ask_json_noted(kind, prompt, repeat, required).await;
        (answer, usage)
    }

    /// [`Judge::ask_json`], with notes for the report: a cache entry found invalid, a cache
    /// that could not be written.
    #[doc(hidden)]
    pub async fn ask_json_noted(
        &self,
        kind: &str,
        prompt: &JudgePrompt,
        repeat: usize,
        required: &[&str],
    ) -> (Result<Value, String>, JudgeUsage, Vec<String>) {
        let model = self.model_id();
        let mut notes = Vec::new();
        let settings = self.effective_mode().and_then(|m| Ok((m, self.limits()?)));
        let (mode, limits) = match settings {
            Ok(s) => s,
            Err(e) => return (Err(e), JudgeUsage::default(), notes),
        };
        let cache = Cache::new(self.effective_cache_dir());
        let key = Cache::key_of(&[
            PROMPT_VERSION,
            &model,
            kind,
            &prompt.system,
            &prompt.user,
            &repeat.to_string(),
        ]);
        let mut usage = JudgeUsage {
            model: model.clone(),
            ..JudgeUsage::default()
        };
        // An answer without the required fields is as malformed as no JSON: asked again, never
        // cached — and a cached one is read by the same rule.
        let valid = |v: Value, text: &str| -> Result<Value, String> {
            match required.iter().find(|k| v.get(**k).is_none()) {
                Some(k) => Err(format!(
                    "the model's answer has no `{k}`: {}",
                    agent_test_core::util::text::clip(text, 200)
                )),
                None => Ok(v),
            }
        };
        if mode.reads_cache() {
            match cache.get_value(&key, &model, |v| {
                let text = agent_test_core::util::text::compact(&v);
                valid(v, &text)
            }) {
                Ok(Some(v)) => {
                    usage.cached = 1;
                    return (Ok(v), usage, notes);
                }
                Ok(None) => {}
                Err(bad) if mode == JudgeMode::Replay => {
                    return (
                        Err(self.replay_miss(&bad.described("answer"), "the model")),
                        usage,
                        notes,
                    );
                }
                Err(bad) => notes.push(bad.note()),
            }
        }
        if mode == JudgeMode::Replay {
            return (
                Err(self.replay_miss("no cached answer", "the model")),
                usage,
                notes,
            );
        }
        let mut last_error = String::new();
        let mut retry_after = None;
        for attempt in 0..=limits.retries {
            let c = match self
                .attempt(
                    attempt,
                    limits,
                    &mut retry_after,
                    prompt,
                    &mut usage,
                    "the model",
                )
                .await
            {
                Ok(c) => c,
                Err(e) => {
                    last_error = e.message;
                    if !e.retry {
                        break;
                    }
                    continue;
                }
            };
            match super::prompt::json_object(&c.text).and_then(|v| valid(v, &c.text)) {
                Ok(v) => {
                    if mode.writes_cache()
                        && let Err(e) = cache.put_value(&key, &model, kind, &v)
                    {
                        notes.push(format!(
                            "could not write to the judge cache: {e}; the next run will ask the \
                             model again"
                        ));
                    }
                    usage.price(self.price);
                    return (Ok(v), usage, notes);
                }
                Err(e) => last_error = e,
            }
        }
        usage.price(self.price);
        let n = usage.requests;
        (Err(after_requests(&last_error, n)), usage, notes)
    }
}

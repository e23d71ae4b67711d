//! One JSON answer from the judge's model, for the model-powered steps (extraction, the
//! simulated user): cached, replayable and retried like verdicts.

use serde_json::Value;

use super::attempt::{after_requests, replay_miss};
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
    /// # use agent_test_runtime::agent::BoxFuture;
    /// use agent_test_runtime::judge::{Completion, Judge, JudgeMode, JudgeModel, JudgePrompt, ModelError};
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
        let model = self.model_id();
        let mode = match self.effective_mode() {
            Ok(m) => m,
            Err(e) => return (Err(e), JudgeUsage::default()),
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
        if mode.reads_cache()
            && let Some(v) = cache.get_value(&key)
        {
            usage.cached = 1;
            return (Ok(v), usage);
        }
        if mode == JudgeMode::Replay {
            return (Err(replay_miss("no cached answer", "the model")), usage);
        }
        let mut last_error = String::new();
        let mut retry_after = None;
        for attempt in 0..=self.retries {
            let c = match self
                .attempt(attempt, &mut retry_after, prompt, &mut usage, "the model")
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
            // An answer without the required fields is as malformed as no JSON: it is asked
            // again, and never cached.
            let checked = super::prompt::json_object(&c.text).and_then(|v| {
                match required.iter().find(|k| v.get(**k).is_none()) {
                    Some(k) => Err(format!(
                        "the model's answer has no `{k}`: {}",
                        crate::report::clip(&c.text, 200)
                    )),
                    None => Ok(v),
                }
            });
            match checked {
                Ok(v) => {
                    if mode.writes_cache() {
                        let _ = cache.put_value(&key, &model, kind, &v);
                    }
                    usage.price(self.price);
                    return (Ok(v), usage);
                }
                Err(e) => last_error = e,
            }
        }
        usage.price(self.price);
        let n = usage.requests;
        (Err(after_requests(&last_error, n)), usage)
    }
}

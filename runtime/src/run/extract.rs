//! `extract`: a model pulls a described value out of the conversation into a typed binding.

use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::ScenarioRun;
use agent_test_network::judge::JudgePrompt;

/// What to extract, and from where: the last reply (default) or the whole transcript
/// (Lamdis's `extract` step). Strings convert into an extraction from the last reply.
///
/// ```
/// use agent_test::Extraction;
/// let e = Extraction::from("the booking reference").from_transcript();
/// assert_eq!(e.description(), "the booking reference");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Extraction {
    description: String,
    transcript: bool,
}

impl Extraction {
    /// Extract `description` from the last reply.
    ///
    /// See the type's example.
    pub fn new(description: impl Into<String>) -> Self {
        Extraction {
            description: description.into(),
            transcript: false,
        }
    }

    /// Read the whole conversation instead of the last reply.
    ///
    /// See the type's example.
    pub fn from_transcript(mut self) -> Self {
        self.transcript = true;
        self
    }

    /// What is extracted.
    ///
    /// See the type's example.
    pub fn description(&self) -> &str {
        &self.description
    }
}

impl From<&str> for Extraction {
    fn from(d: &str) -> Self {
        Extraction::new(d)
    }
}

impl From<String> for Extraction {
    fn from(d: String) -> Self {
        Extraction::new(d)
    }
}

const INSTRUCTIONS: &str = "\
You extract one value from an AI agent's conversation for an automated test.
You receive JSON with `description` (what to extract), `text` (where to find it) and
`rust_type` (the type the test expects). Answer with JSON only:
{\"found\": true, \"value\": \"<the value as text; JSON text for lists and objects>\"} or
{\"found\": false, \"value\": null}.
Copy values exactly as written (identifiers, codes, amounts); do not invent one.";

impl ScenarioRun {
    /// Asks the judge's model for a described value in the last reply (or the transcript) and
    /// returns it as a `T` — `let order: String = extract "the order number";` in
    /// `agent_test!`. Answers are cached and replayed like judge verdicts.
    ///
    /// When nothing can be extracted (no judge configured, the value is not there, the answer
    /// does not fit `T`), the run records an **error** verdict saying why and continues with
    /// `T::default()`, so every other check is still evaluated.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// # use agent_test::{ScenarioRun, Suite};
    /// # use agent_test::judge::{Judge, JudgeMode};
    /// # use agent_test::agent::{agent_fn, BoxFuture};
    /// # use agent_test::judge::{Completion, JudgeModel, JudgePrompt, ModelError};
    /// struct Finder;
    /// impl JudgeModel for Finder {
    ///     fn id(&self) -> String { "finder".into() }
    ///     fn complete<'a>(&'a self, _: &'a JudgePrompt) -> BoxFuture<'a, Result<Completion, ModelError>> {
    ///         Box::pin(async { Ok(Completion { text: r#"{"found": true, "value": "BK-4100"}"#.into(), usage: None }) })
    ///     }
    /// }
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// let suite = Suite::new()
    ///     .agent(agent_fn(|_r| async { "Booked! Your reference is BK-4100." }))
    ///     .judge(Judge::new(Finder).mode(JudgeMode::Off));
    /// let mut run = ScenarioRun::new(suite, "booking");
    /// run.user("Book H-101").await;
    /// let reference: String = run.extract("the booking reference").await;
    /// assert_eq!(reference, "BK-4100");
    /// # });
    /// ```
    pub async fn extract<T: DeserializeOwned + Default>(
        &mut self,
        what: impl Into<Extraction>,
    ) -> T {
        let what = what.into();
        let label = format!("extract {:?}", what.description);
        // An impossible repeat plan runs nothing, no model call included.
        if self.plan_refused() {
            return T::default();
        }
        match self.try_extract(&what).await {
            Ok(v) => v,
            Err(reason) => {
                self.step_error(label, "extract", reason);
                T::default()
            }
        }
    }

    async fn try_extract<T: DeserializeOwned>(&mut self, what: &Extraction) -> Result<T, String> {
        let judge = self.llm_for_steps().ok_or_else(|| {
            "no model to extract with: set `judge = ...;` (its model extracts) or \
             AGENT_TEST_JUDGE_MODEL"
                .to_owned()
        })?;
        let text = if what.transcript {
            self.transcript
                .messages()
                .iter()
                .map(|m| format!("{}: {}", m.role.as_str(), m.content))
                .collect::<Vec<_>>()
                .join("\n")
        } else {
            self.transcript
                .turns
                .last()
                .map(|t| t.reply.text.clone())
                .ok_or("no turn ran yet, so there is no reply to extract from")?
        };
        let prompt = JudgePrompt {
            system: INSTRUCTIONS.to_owned(),
            user: json!({
                "description": what.description,
                "text": text,
                "rust_type": std::any::type_name::<T>(),
            })
            .to_string(),
            // Strict structured output (OpenAI) wants every property typed: the value travels
            // as text, JSON text for lists and objects, and `typed` reads it back.
            schema: json!({
                "type": "object",
                "properties": {"found": {"type": "boolean"}, "value": {"type": ["string", "null"]}},
                "required": ["found", "value"],
                "additionalProperties": false
            }),
        };
        let cassette = self.cassette.clone();
        let (answer, usage, notes) = cassette
            .scope(judge.ask_json_noted("extract", &prompt, self.info.repeat, &["found"]))
            .await;
        self.add_step_usage(usage);
        self.add_step_notes(notes);
        let answer = answer?;
        if answer.get("found").and_then(Value::as_bool) == Some(false) {
            // Quoted: a description reads as a noun phrase ("the booking reference", "a
            // date"), which "found no …" would garble.
            return Err(format!(
                "the model did not find {:?} in the text",
                what.description
            ));
        }
        let value = answer.get("value").cloned().unwrap_or(Value::Null);
        typed(value)
    }
}

/// The value as a `T`, tolerating a number given as text and text given as a number.
fn typed<T: DeserializeOwned>(value: Value) -> Result<T, String> {
    let first = match serde_json::from_value::<T>(value.clone()) {
        Ok(v) => return Ok(v),
        Err(e) => e,
    };
    let retry = match &value {
        Value::String(s) => serde_json::from_str::<T>(s).ok(),
        Value::Number(_) | Value::Bool(_) => {
            serde_json::from_value::<T>(Value::String(value.to_string())).ok()
        }
        _ => None,
    };
    retry.ok_or_else(|| {
        format!(
            "the extracted value {} does not fit {}: {first}",
            agent_test_core::util::text::compact(&value),
            std::any::type_name::<T>()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::typed;
    use serde_json::json;

    #[test]
    fn values_are_coerced_between_text_and_numbers() {
        assert_eq!(typed::<u32>(json!("42")), Ok(42));
        assert_eq!(typed::<String>(json!(42)), Ok("42".to_owned()));
        assert!(
            typed::<u32>(json!({"a": 1}))
                .unwrap_err()
                .starts_with("the extracted value {\"a\":1} does not fit u32")
        );
    }
}

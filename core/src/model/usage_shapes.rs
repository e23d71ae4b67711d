//! Token usage as providers report it, recognised in response bodies and node outputs.

use serde_json::Value;

use super::{Call, CallKind, Reply, Usage};

/// Reads token usage from one JSON value in any of the shapes providers use:
///
/// | provider | shape |
/// |---|---|
/// | OpenAI and compatible | `usage.{prompt_tokens, completion_tokens, total_tokens}` |
/// | Anthropic | `usage.{input_tokens, output_tokens}` |
/// | Gemini (native) | `usageMetadata.{promptTokenCount, candidatesTokenCount, totalTokenCount}` |
/// | LangChain-normalised Gemini | `usageMetadata.{input_tokens, output_tokens, total_tokens}` (also `usage_metadata`) |
/// | n8n / LangChain.js | `tokenUsage.{promptTokens, completionTokens, totalTokens}` |
/// | generic | `meta.tokens` as a number (total) or `{total, input, output}` |
///
/// The value itself or any of its direct fields (`response`, `output`, `json`, ...) may hold the
/// usage; the first shape found wins.
///
/// ```
/// use agent_test::model::{Usage, usage_in};
/// use serde_json::json;
/// assert_eq!(usage_in(&json!({"usage": {"prompt_tokens": 120, "completion_tokens": 80, "total_tokens": 200}})),
///            Some(Usage::new(120, 80).with_total(200)));
/// assert_eq!(usage_in(&json!({"usageMetadata": {"promptTokenCount": 5, "candidatesTokenCount": 7}})).unwrap().total(), Some(12));
/// assert_eq!(usage_in(&json!({"meta": {"tokens": 42}})).unwrap().total(), Some(42));
/// assert_eq!(usage_in(&json!({"text": "no usage here"})), None);
/// ```
pub fn usage_in(value: &Value) -> Option<Usage> {
    direct(value).or_else(|| value.as_object()?.values().find_map(direct))
}

fn direct(v: &Value) -> Option<Usage> {
    let n = |v: &Value, k: &str| v.get(k).and_then(Value::as_u64);
    if let Some(u) = v.get("usage").filter(|u| u.is_object()) {
        let input = n(u, "prompt_tokens").or_else(|| n(u, "input_tokens"));
        let output = n(u, "completion_tokens").or_else(|| n(u, "output_tokens"));
        let total = n(u, "total_tokens");
        if input.is_some() || output.is_some() || total.is_some() {
            return Some(Usage {
                input_tokens: input,
                output_tokens: output,
                total_tokens: total,
            });
        }
    }
    for key in ["usageMetadata", "usage_metadata"] {
        if let Some(u) = v.get(key).filter(|u| u.is_object()) {
            let input = n(u, "promptTokenCount").or_else(|| n(u, "input_tokens"));
            let output = n(u, "candidatesTokenCount").or_else(|| n(u, "output_tokens"));
            let total = n(u, "totalTokenCount").or_else(|| n(u, "total_tokens"));
            if input.is_some() || output.is_some() || total.is_some() {
                return Some(Usage {
                    input_tokens: input,
                    output_tokens: output,
                    total_tokens: total,
                });
            }
        }
    }
    // n8n / LangChain.js language-model outputs.
    if let Some(u) = v.get("tokenUsage").filter(|u| u.is_object()) {
        let input = n(u, "promptTokens");
        let output = n(u, "completionTokens");
        let total = n(u, "totalTokens");
        if input.is_some() || output.is_some() || total.is_some() {
            return Some(Usage {
                input_tokens: input,
                output_tokens: output,
                total_tokens: total,
            });
        }
    }
    match v.get("meta").and_then(|m| m.get("tokens")) {
        Some(Value::Number(t)) => t.as_u64().map(|t| Usage {
            total_tokens: Some(t),
            ..Usage::default()
        }),
        Some(t @ Value::Object(_)) => Some(Usage {
            input_tokens: n(t, "input"),
            output_tokens: n(t, "output"),
            total_tokens: n(t, "total"),
        })
        .filter(|u| u.total().is_some()),
        _ => None,
    }
}

impl Reply {
    /// The turn's token usage: what the agent reported, else usage found in the body, else the
    /// sum over the outputs of workflow nodes (AI nodes each report their own).
    ///
    /// ```
    /// use agent_test::model::{Call, Reply};
    /// use serde_json::json;
    /// let r = Reply::text("")
    ///     .call(Call::node("AI Agent").result(json!({"usage": {"input_tokens": 100, "output_tokens": 20}})))
    ///     .call(Call::node("Summarizer").result(json!({"usage": {"input_tokens": 50, "output_tokens": 10}})));
    /// assert_eq!(r.token_usage().unwrap().total(), Some(180));
    /// ```
    pub fn token_usage(&self) -> Option<Usage> {
        if let Some(u) = self.usage {
            return Some(u);
        }
        if let Some(u) = self.body.as_ref().and_then(usage_in) {
            return Some(u);
        }
        let mut sum: Option<Usage> = None;
        for c in &self.calls {
            c.walk(&mut |c: &Call| {
                if c.kind == CallKind::Node
                    && let Some(u) = c.result.as_ref().and_then(usage_in)
                {
                    sum.get_or_insert_with(Usage::default).add(&u);
                }
            });
        }
        sum
    }
}

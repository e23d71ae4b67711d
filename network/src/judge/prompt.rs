//! The batched prompt: every judge check of a run in one request, and reading the answer back.

use serde_json::{Value, json};

use super::{JudgeItem, JudgePrompt, Judgement};

/// Bumped whenever the instructions change, so that cached verdicts of other instructions are
/// not reused.
pub(crate) const PROMPT_VERSION: &str = "agent-test-judge-v1";

const INSTRUCTIONS: &str = "\
You are a strict, impartial evaluator of an AI agent's behaviour in automated tests.
You receive a JSON object with `checks`. Grade each check on its own:
- `criteria` says what the `material` must satisfy. `material.text` is what is graded (the
  agent's reply, a transcript, or a workflow node's output); other fields of `material` are
  context (the user's message, the tools the agent called and their results).
- `quality_check`: score how fully the text meets the criteria.
- `hallucination_check`: score 1 when every factual claim in the text is supported by the
  context given (user messages, tool results), lower for each unsupported or contradicted claim.
- `negative_constraints`: things the text must not do; if it does any of them, score 0.
- `expected_response`: a reference answer; the text must convey the same facts and outcome
  (wording may differ).
Scores go from 0.0 (not at all) to 1.0 (fully). `pass` is your judgement that the check is met.
Keep `reasoning` to one or two sentences naming the evidence.
Answer with JSON only: {\"results\": [{\"id\", \"score\", \"pass\", \"reasoning\"}, ...]},
one result per check, with the check's `id`.";

/// The JSON Schema of the answer.
pub(crate) fn answer_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "results": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string"},
                        "score": {"type": "number"},
                        "pass": {"type": "boolean"},
                        "reasoning": {"type": "string"}
                    },
                    "required": ["id", "score", "pass", "reasoning"],
                    "additionalProperties": false
                }
            }
        },
        "required": ["results"],
        "additionalProperties": false
    })
}

/// The prompt for `items`, identified as `c1`, `c2`, … in order.
pub(crate) fn prompt(items: &[&JudgeItem]) -> JudgePrompt {
    let checks: Vec<Value> = items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let mut v = serde_json::to_value(item).unwrap_or(Value::Null);
            if let Some(o) = v.as_object_mut() {
                o.insert("id".into(), Value::String(item_id(i)));
            }
            v
        })
        .collect();
    JudgePrompt {
        system: INSTRUCTIONS.to_owned(),
        user: serde_json::to_string_pretty(&json!({ "checks": checks })).unwrap_or_default(),
        schema: answer_schema(),
    }
}

pub(crate) fn item_id(i: usize) -> String {
    format!("c{}", i + 1)
}

/// The answer could not be read at all: worth asking again.
#[derive(Debug)]
pub(crate) struct Malformed(pub(crate) String);

/// Reads an answer for the checks of a batch: one grade (or why there is none) per check, in
/// order. The batch numbers its checks `c1`, `c2`, …; `originals` holds each one's index in
/// the whole run, which messages name (a re-asked batch numbers from `c1` again). Results are
/// matched by id; when the model gave none of the ids but exactly one result per check, by
/// position.
pub(crate) fn parse_answer(
    text: &str,
    originals: &[usize],
) -> Result<Vec<Result<Judgement, String>>, Malformed> {
    let n = originals.len();
    let json = strip_fence(text);
    let value: Value = serde_json::from_str(json).map_err(|e| {
        Malformed(format!(
            "the judge's answer is not JSON ({e}): {}",
            agent_test_core::util::text::clip(text, 200)
        ))
    })?;
    let results = value
        .get("results")
        .and_then(Value::as_array)
        .or_else(|| value.as_array())
        .ok_or_else(|| {
            Malformed(format!(
                "the judge's answer has no `results` array: {}",
                agent_test_core::util::text::clip(text, 200)
            ))
        })?;
    let id_of = |r: &Value| -> Option<String> {
        match r.get("id")? {
            Value::String(s) => Some(s.trim().to_owned()),
            Value::Number(k) => Some(format!("c{k}")),
            _ => None,
        }
    };
    let any_id = results.iter().any(|r| id_of(r).is_some());
    let mut out = Vec::with_capacity(n);
    for (i, &original) in originals.iter().enumerate() {
        let want = item_id(i);
        let found = if any_id {
            results
                .iter()
                .find(|r| id_of(r).as_deref() == Some(want.as_str()))
        } else if results.len() == n {
            results.get(i)
        } else {
            None
        };
        out.push(match found {
            None => Err(format!(
                "the judge gave no result for this check (id {})",
                item_id(original)
            )),
            Some(r) => grade(r),
        });
    }
    Ok(out)
}

/// One result, validated: a numeric `score` in 0..1; `pass` (not decisive) a boolean and
/// `reasoning` a text when present. Cached verdicts are read with the same rules.
pub(crate) fn grade(r: &Value) -> Result<Judgement, String> {
    let score = r
        .get("score")
        .and_then(Value::as_f64)
        .ok_or_else(|| format!("the judge's result has no numeric `score`: {r}"))?;
    if !(0.0..=1.0).contains(&score) {
        return Err(format!(
            "the judge's score {score} is outside 0..1: {}",
            agent_test_core::util::text::compact(r)
        ));
    }
    let pass = match r.get("pass") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => {
            return Err(format!(
                "the judge's `pass` is not true or false: {}",
                agent_test_core::util::text::compact(r)
            ));
        }
    };
    let reasoning = match r.get("reasoning") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(_) => {
            return Err(format!(
                "the judge's `reasoning` is not text: {}",
                agent_test_core::util::text::compact(r)
            ));
        }
    };
    Ok(Judgement {
        score,
        pass,
        reasoning,
    })
}

/// A model's answer read as one JSON object (fences allowed), or why it is not one.
pub(crate) fn json_object(text: &str) -> Result<serde_json::Value, String> {
    match serde_json::from_str::<Value>(strip_fence(text)) {
        Ok(v @ Value::Object(_)) => Ok(v),
        Ok(_) => Err(format!(
            "the model's answer is not a JSON object: {}",
            agent_test_core::util::text::clip(text, 200)
        )),
        Err(e) => Err(format!(
            "the model's answer is not JSON ({e}): {}",
            agent_test_core::util::text::clip(text, 200)
        )),
    }
}

/// The JSON inside a ```json fence, which models add even when asked not to.
fn strip_fence(text: &str) -> &str {
    let t = text.trim();
    let Some(rest) = t.strip_prefix("```") else {
        return t;
    };
    let rest = rest.split_once('\n').map_or(rest, |(_, r)| r);
    rest.trim_end().strip_suffix("```").unwrap_or(rest).trim()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_matched_by_id_then_position() {
        let a = parse_answer(
            r#"{"results": [{"id": "c2", "score": 0.2, "pass": false, "reasoning": "no"},
                            {"id": "c1", "score": 0.9, "pass": true, "reasoning": "yes"}]}"#,
            &[0, 1, 2],
        )
        .unwrap();
        assert_eq!(a[0].as_ref().unwrap().score, 0.9);
        assert_eq!(a[1].as_ref().unwrap().score, 0.2);
        assert_eq!(
            a[2].as_ref().unwrap_err(),
            "the judge gave no result for this check (id c3)"
        );
        let by_position =
            parse_answer("```json\n[{\"score\": 1, \"pass\": true}]\n```", &[0]).unwrap();
        assert_eq!(by_position[0].as_ref().unwrap().score, 1.0);
        // A re-asked batch numbers its checks from c1; messages name the run's numbering.
        let a = parse_answer(r#"{"results": []}"#, &[4]).unwrap();
        assert_eq!(
            a[0].as_ref().unwrap_err(),
            "the judge gave no result for this check (id c5)"
        );
    }

    #[test]
    fn malformed_answers_and_bad_scores() {
        assert!(parse_answer("I think it passes", &[0]).is_err());
        assert!(parse_answer(r#"{"verdict": "pass"}"#, &[0]).is_err());
        let a = parse_answer(r#"{"results": [{"id": "c1", "score": 85}]}"#, &[0]).unwrap();
        assert!(a[0].as_ref().unwrap_err().contains("outside 0..1"));
        let a = parse_answer(r#"{"results": [{"id": "c1", "score": "high"}]}"#, &[0]).unwrap();
        assert!(a[0].as_ref().unwrap_err().contains("no numeric `score`"));
        let a = parse_answer(
            r#"{"results": [{"id": "c1", "score": 1, "pass": "yes"}]}"#,
            &[0],
        )
        .unwrap();
        assert!(
            a[0].as_ref()
                .unwrap_err()
                .contains("`pass` is not true or false")
        );
        let a = parse_answer(
            r#"{"results": [{"id": "c1", "score": 1, "reasoning": 7}]}"#,
            &[0],
        )
        .unwrap();
        assert!(
            a[0].as_ref()
                .unwrap_err()
                .contains("`reasoning` is not text")
        );
    }
}

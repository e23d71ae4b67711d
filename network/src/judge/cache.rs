//! Judge verdicts cached on disk, so a re-run over the same transcript asks nothing.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::prompt::{PROMPT_VERSION, grade};
use super::{JudgeItem, Judgement};

/// A cache entry that no live answer could be: a miss when live (asked again and
/// overwritten, with a note), an error in replay.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Invalid {
    /// The entry's file.
    pub(crate) path: PathBuf,
    /// What is wrong with it.
    pub(crate) why: String,
}

impl Invalid {
    fn new(path: &Path, why: impl Into<String>) -> Self {
        Invalid {
            path: path.to_owned(),
            why: why.into(),
        }
    }

    /// The note for a live run, which asked again.
    pub(crate) fn note(&self) -> String {
        format!(
            "the judge cache entry {} is invalid ({}): asked again and overwritten",
            self.path.display(),
            self.why
        )
    }

    /// Why a replay has no answer: `the cached verdict <file> is invalid: <why>`.
    pub(crate) fn described(&self, what: &str) -> String {
        format!(
            "the cached {what} {} is invalid: {}",
            self.path.display(),
            self.why
        )
    }
}

/// A directory of cached verdicts: one small JSON file per (model, instructions, check,
/// material, repeat index), named by the SHA-256 of those.
#[derive(Clone, Debug)]
pub(crate) struct Cache {
    dir: PathBuf,
}

impl Cache {
    pub(crate) fn new(dir: PathBuf) -> Self {
        Cache { dir }
    }

    /// The key of a check (given as its JSON): everything that could change its verdict.
    pub(crate) fn key(model: &str, item_json: &str, repeat: usize) -> String {
        Self::key_of(&[PROMPT_VERSION, model, item_json, &repeat.to_string()])
    }

    /// The SHA-256 of `parts`, each ended by a zero byte.
    pub(crate) fn key_of(parts: &[&str]) -> String {
        let mut h = Sha256::new();
        for part in parts {
            h.update(part.as_bytes());
            h.update([0]);
        }
        h.finalize().iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The entry under `key`: `Ok(None)` when there is none, an error (naming the file) when
    /// it cannot be read or is not a JSON object.
    fn read(&self, key: &str) -> Result<Option<serde_json::Map<String, Value>>, Invalid> {
        let path = self.path(key);
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            // No entry: nothing there, or no directory for it (a write will say why).
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
                ) =>
            {
                return Ok(None);
            }
            Err(e) => return Err(Invalid::new(&path, format!("it cannot be read ({e})"))),
        };
        match serde_json::from_slice::<Value>(&bytes) {
            Ok(Value::Object(map)) => Ok(Some(map)),
            Ok(_) => Err(Invalid::new(&path, "it is not a JSON object")),
            Err(e) => Err(Invalid::new(&path, format!("it is not JSON ({e})"))),
        }
    }

    /// An entry's `model` must be the one asked: the key covers it, so another one means the
    /// file was copied or edited.
    fn check_model(
        path: &Path,
        entry: &serde_json::Map<String, Value>,
        model: &str,
    ) -> Result<(), Invalid> {
        match entry.get("model").and_then(Value::as_str) {
            Some(m) if m == model => Ok(()),
            Some(m) => Err(Invalid::new(
                path,
                format!("it was recorded for {m}, not {model}"),
            )),
            None => Err(Invalid::new(path, "it has no `model`")),
        }
    }

    /// A cached model answer (extractions, simulated users), checked by `valid` exactly as a
    /// live answer is.
    pub(crate) fn get_value(
        &self,
        key: &str,
        model: &str,
        valid: impl FnOnce(Value) -> Result<Value, String>,
    ) -> Result<Option<Value>, Invalid> {
        let Some(mut entry) = self.read(key)? else {
            return Ok(None);
        };
        let path = self.path(key);
        Self::check_model(&path, &entry, model)?;
        let value = entry
            .remove("value")
            .ok_or_else(|| Invalid::new(&path, "it has no `value`"))?;
        valid(value).map(Some).map_err(|e| Invalid::new(&path, e))
    }

    /// Stores a model answer.
    pub(crate) fn put_value(
        &self,
        key: &str,
        model: &str,
        kind: &str,
        value: &Value,
    ) -> Result<(), String> {
        self.write(key, &json!({"model": model, "kind": kind, "value": value}))
    }

    fn path(&self, key: &str) -> PathBuf {
        self.dir.join(&key[..2]).join(format!("{key}.json"))
    }

    /// The cached verdict, validated exactly as a live answer is (a numeric score in 0..1, a
    /// boolean `pass`, a text `reasoning`).
    pub(crate) fn get(&self, key: &str, model: &str) -> Result<Option<Judgement>, Invalid> {
        let Some(entry) = self.read(key)? else {
            return Ok(None);
        };
        let path = self.path(key);
        Self::check_model(&path, &entry, model)?;
        match entry.get("judgement") {
            Some(j @ Value::Object(_)) => grade(j).map(Some).map_err(|e| Invalid::new(&path, e)),
            _ => Err(Invalid::new(&path, "it has no `judgement` object")),
        }
    }

    /// Stores a verdict. Written to a temporary file and renamed, so tests running in
    /// parallel never read half an entry.
    pub(crate) fn put(
        &self,
        key: &str,
        model: &str,
        item: &JudgeItem,
        repeat: usize,
        judgement: &Judgement,
    ) -> Result<(), String> {
        let entry = json!({
            "model": model,
            "criteria": item.criteria,
            "repeat": repeat,
            "judgement": judgement,
        });
        self.write(key, &entry)
    }

    /// Written whole (aside, then renamed): tests grade in parallel threads and processes.
    fn write(&self, key: &str, entry: &serde_json::Value) -> Result<(), String> {
        let bytes = serde_json::to_vec_pretty(entry).unwrap_or_default();
        agent_test_core::util::dirs::write_whole(&self.path(key), &bytes)
    }
}

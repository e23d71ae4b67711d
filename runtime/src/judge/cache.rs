//! Judge verdicts cached on disk, so a re-run over the same transcript asks nothing.

use std::path::{Path, PathBuf};

use serde_json::json;
use sha2::{Digest, Sha256};

use super::{JudgeItem, Judgement, prompt::PROMPT_VERSION};

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

    /// The entry under `key`; an unreadable one counts as absent (it is rewritten later).
    fn read(&self, key: &str) -> Option<serde_json::Value> {
        serde_json::from_slice(&std::fs::read(self.path(key)).ok()?).ok()
    }

    /// A cached model answer (extractions, simulated users).
    pub(crate) fn get_value(&self, key: &str) -> Option<serde_json::Value> {
        self.read(key)?
            .get_mut("value")
            .map(serde_json::Value::take)
    }

    /// Stores a model answer.
    pub(crate) fn put_value(
        &self,
        key: &str,
        model: &str,
        kind: &str,
        value: &serde_json::Value,
    ) -> Result<(), String> {
        self.write(key, &json!({"model": model, "kind": kind, "value": value}))
    }

    fn path(&self, key: &str) -> PathBuf {
        self.dir.join(&key[..2]).join(format!("{key}.json"))
    }

    /// The cached verdict.
    pub(crate) fn get(&self, key: &str) -> Option<Judgement> {
        serde_json::from_value(self.read(key)?.get_mut("judgement")?.take()).ok()
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

    fn write(&self, key: &str, entry: &serde_json::Value) -> Result<(), String> {
        let path = self.path(key);
        let dir = path.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        // Unique per process, thread and write: tests grade in parallel threads.
        static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let tmp = dir.join(format!(".{key}.{}.{n}.tmp", std::process::id()));
        std::fs::write(&tmp, serde_json::to_vec_pretty(entry).unwrap_or_default())
            .and_then(|()| std::fs::rename(&tmp, &path))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}

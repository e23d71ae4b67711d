//! Samples: a cassette keeps every answer a request got, in the order it was asked, so that a
//! repeated scenario replays the outcomes its recording had, run by run.
//!
//! The k-th time a proxy is asked a request (counted from its start) is answered by the k-th
//! **sample** of that request: the file `<id>.json` for the first, `<id>~2.json` for the
//! second, and so on. Recording writes each ask's answer as its sample; replay hands them out
//! in the same order. Because a chat request carries the whole conversation, each sample is a
//! *path*: a model that answered differently in run 2 than in run 1 makes run 2's next request
//! differ from run 1's, and that request has its own samples. So a scenario recorded with
//! `repeat = 20` — its runs one after another, as repeats always are — replays run i's path
//! in run i, and the same 20 outcomes.
//!
//! In `auto` mode a sample not recorded yet is forwarded and recorded. In replay, a request
//! recorded once (no `~2`) answers every ask with that one answer, as cassettes always did. A request with samples asked more often than it was recorded, and a request no
//! path recorded, leave the recorded paths: the replay fails, naming the closest recorded
//! request and how it differs (or how many samples there are).

use std::path::Path;

use super::store::entry_path;

/// The entry id of sample `ask` (0-based) of the request `id`.
pub(crate) fn sample_id(id: &str, ask: u32) -> String {
    match ask {
        0 => id.to_owned(),
        k => format!("{id}~{}", u64::from(k) + 1),
    }
}

/// The entry that answers ask `ask` of request `id` in `dir`, and, when the request has
/// samples but fewer than `ask + 1`, why the replay left the recorded paths.
pub(crate) fn pick(dir: &Path, id: &str, ask: u32) -> (String, Option<String>) {
    let sample = sample_id(id, ask);
    if ask == 0 || entry_path(dir, &sample).exists() {
        return (sample, None);
    }
    // Recorded once: the one answer, for every ask.
    if !entry_path(dir, &sample_id(id, 1)).exists() {
        return (id.to_owned(), None);
    }
    let recorded = (1..ask)
        .take_while(|&k| entry_path(dir, &sample_id(id, k)).exists())
        .count()
        + 1;
    let why = format!(
        "no recording for this request's ask {} in {}: the cassette holds {recorded} samples of \
         it (the answers of {recorded} asks, {} the first), and the replay asked it more often \
         than the recording did — record again with the same number of runs, or more",
        ask + 1,
        dir.display(),
        entry_path(dir, id).display()
    );
    (sample, Some(why))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_are_handed_out_in_order_and_a_single_recording_answers_every_ask() {
        let dir = std::env::temp_dir().join(format!("agent-test-samples-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(entry_path(&dir, "one"), "{}").unwrap();
        assert_eq!(pick(&dir, "one", 0), ("one".to_owned(), None));
        assert_eq!(pick(&dir, "one", 5), ("one".to_owned(), None));
        for k in 0..3 {
            std::fs::write(entry_path(&dir, &sample_id("three", k)), "{}").unwrap();
        }
        assert_eq!(pick(&dir, "three", 1), ("three~2".to_owned(), None));
        assert_eq!(pick(&dir, "three", 2), ("three~3".to_owned(), None));
        let (id, why) = pick(&dir, "three", 3);
        assert_eq!(id, "three~4");
        assert!(why.unwrap().contains("the cassette holds 3 samples of it"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}

//! `--shard K/N`: one of N stable shares of a suite, so that N machines split it between them.

use std::fmt;
use std::str::FromStr;

use sha2::{Digest, Sha256};

/// The K-th of N shares (1-based).
///
/// An item belongs to the share its key hashes to (SHA-256, so the partition is the same on
/// every machine, platform and version): adding or removing a scenario moves no other one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Shard {
    index: u64,
    count: u64,
}

impl Shard {
    /// Whether the item with this key is in the share.
    pub(crate) fn holds(&self, key: &str) -> bool {
        let digest: [u8; 32] = Sha256::digest(key.as_bytes()).into();
        let [a, b, c, d, e, f, g, h, ..] = digest;
        u64::from_be_bytes([a, b, c, d, e, f, g, h]) % self.count == self.index - 1
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("`{s}` is not K/N with 1 <= K <= N (e.g. 2/4)");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count): (u64, u64) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_partition_every_key_once() {
        let shards: Vec<Shard> = (1..=4).map(|k| format!("{k}/4").parse().unwrap()).collect();
        let mut sizes = [0usize; 4];
        for i in 0..4000 {
            let key = format!("case-{i}");
            let holders: Vec<usize> = (0..4).filter(|&s| shards[s].holds(&key)).collect();
            assert_eq!(holders.len(), 1, "{key}");
            sizes[holders[0]] += 1;
        }
        // Even enough: each share within 10 % of a quarter.
        assert!(
            sizes.iter().all(|&n| (900..=1100).contains(&n)),
            "{sizes:?}"
        );
    }

    #[test]
    fn the_partition_is_stable() {
        let s: Shard = "1/3".parse().unwrap();
        // Fixed answers: a change of hash would move scenarios between CI machines.
        assert_eq!(
            ["refund", "greeting", "booking", "cancel"].map(|k| s.holds(k)),
            [false, true, true, true]
        );
    }

    #[test]
    fn malformed_shards_are_refused() {
        for bad in ["0/4", "5/4", "1/0", "2", "a/b", "-1/4", "1/4/2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        assert_eq!("2/4".parse::<Shard>().unwrap().to_string(), "2/4");
    }
}

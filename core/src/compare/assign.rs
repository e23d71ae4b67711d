//! One-to-one assignment (maximum bipartite matching), for comparisons where greedy first-fit
//! would give false negatives: unordered lists and unordered trajectories.

use std::collections::{HashMap, HashSet};

/// The largest one-to-one assignment of `left` items to `right` items, where `fits(l, r)` says
/// whether they may be paired. Returns, for each left item, its right partner.
///
/// Greedy first-fit fails when an early, permissive left item takes a right item a later,
/// stricter one needed; augmenting paths (Kuhn's algorithm) find the best assignment.
pub fn assign(
    left: usize,
    right: usize,
    fits: impl Fn(usize, usize) -> bool,
) -> Vec<Option<usize>> {
    let adjacency: Vec<Vec<usize>> = (0..left)
        .map(|l| (0..right).filter(|&r| fits(l, r)).collect())
        .collect();
    // Each right item's left partner.
    let mut owner: HashMap<usize, usize> = HashMap::new();
    for l in 0..left {
        augment(l, &adjacency, &mut owner, &mut HashSet::new());
    }
    let partner: HashMap<usize, usize> = owner.into_iter().map(|(r, l)| (l, r)).collect();
    (0..left).map(|l| partner.get(&l).copied()).collect()
}

fn augment(
    l: usize,
    adjacency: &[Vec<usize>],
    owner: &mut HashMap<usize, usize>,
    seen: &mut HashSet<usize>,
) -> bool {
    for &r in adjacency.get(l).into_iter().flatten() {
        if !seen.insert(r) {
            continue;
        }
        if owner
            .get(&r)
            .copied()
            .is_none_or(|other| augment(other, adjacency, owner, seen))
        {
            owner.insert(r, l);
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_perfect_matchings_greedy_misses() {
        // left i fits right j when j >= i, listed so that first-fit takes the wrong ones.
        let pairs = assign(3, 3, |l, r| r >= l);
        let mut rights: Vec<usize> = pairs.iter().map(|p| p.unwrap()).collect();
        rights.sort_unstable();
        assert_eq!(rights, [0, 1, 2]);
    }

    #[test]
    fn partial_when_impossible() {
        let pairs = assign(3, 1, |_, _| true);
        assert_eq!(pairs.iter().filter(|p| p.is_some()).count(), 1);
        assert_eq!(assign(0, 5, |_, _| true), Vec::<Option<usize>>::new());
    }
}

#[cfg(test)]
mod examples {
    //! The documented behaviour, as tests (the type is internal, so no doc tests).

    #[test]
    fn a_permissive_item_does_not_strand_a_strict_one() {
        use crate::compare::assign::assign;
        // left 0 accepts anything, left 1 only right 0: greedy would pair 0–0 and strand 1.
        let pairs = assign(2, 2, |l, r| l == 0 || r == 0);
        assert_eq!(pairs, [Some(1), Some(0)]);
    }
}

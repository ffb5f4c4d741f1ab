//! A second check of proved values before they are published: every rare heap's value and a
//! sample of heaps across the range recomputed from scratch by the exact mex
//! ([`octal_core::exact::value_of`]: every option of the heap, over the stored values below it),
//! on all cores. It shares nothing with the engines that produced the values but the values
//! themselves: a wrong value, stored or recomputed, shows as a difference.

use octal_core::exact;
use octal_core::{Rules, SparseSpace};
use rayon::prelude::*;

/// A heap whose stored value is not its exact mex over the stored values below it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mismatch {
    pub heap: usize,
    pub stored: u16,
    /// None: the mex does not fit 16 bits.
    pub exact: Option<u16>,
}

/// What [`recompute`] recomputed and found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recomputed {
    /// Heaps rare under the space that were recomputed (all of them).
    pub rare: usize,
    /// Heaps of the sample (drawn across the range, rare ones included).
    pub sampled: usize,
    /// Heaps whose stored value differs, in increasing order.
    pub mismatches: Vec<Mismatch>,
}

impl Recomputed {
    /// What the recomputation found, in words.
    pub fn verdict(&self) -> String {
        match self.mismatches.len() {
            0 => "every value equal".to_string(),
            m => format!("{m} differ"),
        }
    }
}

/// Recomputes the value of every heap of `g` rare under `space` and of `sample` heaps drawn
/// across `0 .. g.len()` from `seed` (the same heaps for the same seed), each by the exact mex
/// over the stored values below it.
pub fn recompute(
    rules: &Rules,
    space: Option<SparseSpace>,
    g: &[u16],
    sample: usize,
    seed: u64,
) -> Recomputed {
    let rare: Vec<usize> = match space {
        Some(s) => (0..g.len()).filter(|&n| s.is_rare(n, g[n])).collect(),
        None => Vec::new(),
    };
    let drawn = draw(g.len(), sample, seed);
    let mut heaps: Vec<usize> = rare.iter().chain(&drawn).copied().collect();
    heaps.sort_unstable();
    heaps.dedup();
    let mismatches = heaps
        .par_iter()
        .filter_map(|&n| {
            let exact = exact::with_marks(|m| exact::value_of(rules, g, n, m)).ok();
            (exact != Some(g[n])).then_some(Mismatch {
                heap: n,
                stored: g[n],
                exact,
            })
        })
        .collect();
    Recomputed {
        rare: rare.len(),
        sampled: drawn.len(),
        mismatches,
    }
}

/// `count` distinct heaps below `n` (all of them when `count >= n`), drawn by SplitMix64 from
/// `seed`.
fn draw(n: usize, count: usize, seed: u64) -> Vec<usize> {
    if count >= n {
        return (0..n).collect();
    }
    let mut x = seed;
    let mut next = move || {
        x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let mut heaps = std::collections::BTreeSet::new();
    while heaps.len() < count {
        heaps.insert((next() % n as u64) as usize);
    }
    heaps.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use octal_core::{discover, Code};

    /// Officers' exact values pass; a value changed at a rare heap, and one changed where only
    /// the sample can see it, are both reported with their exact values.
    #[test]
    fn a_changed_value_is_found() {
        let code: Code = ".6".parse().unwrap();
        let rules = code.rules();
        let mut g = exact::values(&rules, 20_000).unwrap();
        let space = discover::discover(&rules, &g[..4096]).unwrap();
        let clean = recompute(&rules, Some(space), &g, 500, 7);
        assert!(clean.mismatches.is_empty());
        assert_eq!(clean.sampled, 500);
        assert!(clean.rare > 1000, "{} rare heaps", clean.rare);
        let rare_heap = (10_000..).find(|&n| space.is_rare(n, g[n])).unwrap();
        let true_rare = g[rare_heap];
        g[rare_heap] ^= 1;
        let found = recompute(&rules, Some(space), &g, 0, 7);
        assert_eq!(found.mismatches.first().map(|m| m.heap), Some(rare_heap));
        assert_eq!(found.mismatches[0].exact, Some(true_rare));
        g[rare_heap] = true_rare;
        // The last heap: no other value reads it, so it is the only difference.
        let last = g.len() - 1;
        let true_last = g[last];
        g[last] ^= 1;
        let found = recompute(&rules, Some(space), &g, g.len(), 7);
        assert_eq!(
            found.mismatches,
            vec![Mismatch {
                heap: last,
                stored: true_last ^ 1,
                exact: Some(true_last)
            }]
        );
    }

    #[test]
    fn the_sample_is_the_same_for_the_same_seed() {
        assert_eq!(draw(1000, 10, 3), draw(1000, 10, 3));
        assert_ne!(draw(1000, 10, 3), draw(1000, 10, 4));
        assert_eq!(draw(5, 10, 3), vec![0, 1, 2, 3, 4]);
        let d = draw(1 << 20, 100, 1);
        assert!(d.windows(2).all(|w| w[0] < w[1]) && d.len() == 100);
    }
}

//! Discovery: the sparse space that the first values of a game show, and the exact values it
//! computes to find it.
//!
//! Every mask over the largest value's bits is scored, of the range type and (for a game whose
//! breaking digits' indices share their parity) of the domain type, by the sparse heaps it
//! leaves in the later half of the values, all at once by a Walsh-Hadamard transform of the
//! (value, heap parity) histogram; discovery grows its range while no mask has settled. It is
//! never told the answer.

use crate::classic::Classic;
use crate::code::Rules;
use crate::exact::{self, ValueOverflow};
use crate::sparse::{RareTable, SparseKind, SparseSpace};

/// Counts of sparse heaps for one candidate space, used to rank the candidates: fewest in the
/// later half, then fewest overall, then the smaller mask (range before domain on a full tie).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Score {
    /// Sparse heaps in the later half of the values.
    pub later: usize,
    /// Sparse heaps among all the values.
    pub total: usize,
    mask: u16,
}

/// Counts of values by (value, heap parity), the input of the Walsh-Hadamard transform that
/// scores every sparse space at once: `count(v, p)` heaps of parity p have value v.
#[derive(Debug, Clone)]
pub struct Histogram {
    counts: Vec<i64>,
    heaps: usize,
    max: u16,
}

impl Default for Histogram {
    fn default() -> Self {
        Histogram {
            counts: vec![0; 1 << 17],
            heaps: 0,
            max: 0,
        }
    }
}

impl Histogram {
    /// The histogram of the values `g[range]` (heap numbers from `g`'s indices).
    pub fn of(g: &[u16], range: std::ops::Range<usize>) -> Histogram {
        let mut h = Histogram::default();
        for n in range {
            h.add(n, g[n]);
        }
        h
    }

    /// Counts value `v` at heap `n`.
    #[inline]
    pub fn add(&mut self, n: usize, v: u16) {
        self.counts[(usize::from(v) << 1) | (n & 1)] += 1;
        self.heaps += 1;
        self.max = self.max.max(v);
    }

    /// Forgets value `v` at heap `n` (counted before).
    #[inline]
    pub fn remove(&mut self, n: usize, v: u16) {
        self.counts[(usize::from(v) << 1) | (n & 1)] -= 1;
        self.heaps -= 1;
    }

    /// Heaps counted.
    pub fn heaps(&self) -> usize {
        self.heaps
    }

    /// The largest value ever counted.
    pub fn max(&self) -> u16 {
        self.max
    }

    /// The heaps counted that `space` makes sparse.
    pub fn sparse(&self, space: &SparseSpace) -> usize {
        self.counts
            .chunks_exact(2)
            .take(usize::from(self.max) + 1)
            .enumerate()
            .map(|(v, c)| {
                (0..2)
                    .filter(|&p| space.is_rare(p, v as u16))
                    .map(|p| c[p] as usize)
                    .sum::<usize>()
            })
            .sum()
    }

    /// The Walsh-Hadamard transform of the counts of values below 2^bits: entry s is the sum
    /// over (v, p) of (-1)^popcount(s & (2v + p)) times the count.
    fn transform(&self, bits: u32) -> Vec<i64> {
        let mut h = self.counts[..2 << bits].to_vec();
        let mut len = 1;
        while len < h.len() {
            for chunk in h.chunks_exact_mut(2 * len) {
                let (a, b) = chunk.split_at_mut(len);
                for (x, y) in a.iter_mut().zip(b.iter_mut()) {
                    (*x, *y) = (*x + *y, *x - *y);
                }
            }
            len *= 2;
        }
        h
    }
}

/// The parity of the breaking digits' indices, when they all share one: the domain type exists
/// for such games (a split of n - i into a + b then keeps the xor rules of the range type).
pub fn domain_digit(rules: &Rules) -> Option<usize> {
    let first = *rules.breaking.first()?;
    rules
        .breaking
        .iter()
        .all(|&i| (i ^ first) & 1 == 0)
        .then_some(first)
}

/// The best sparse space for heaps counted in `all`, of which `later` holds the later half,
/// with its score; `None` before 64 heaps or while every value is 0.
///
/// Every nonzero mask over the bits of the largest value is scored, of the range type and, when
/// the breaking digits' indices share their parity, of the domain type, all at once by two
/// Walsh-Hadamard transforms: a space of mask m makes sparse (N + H[2m]) / 2 heaps of the
/// range type, and (N ± H[2m + 1]) / 2 of the domain type (+ when the digit's index is even).
pub fn best_of(rules: &Rules, all: &Histogram, later: &Histogram) -> Option<(SparseSpace, Score)> {
    let max = all.max();
    if all.heaps() < 64 || max == 0 {
        return None;
    }
    let bits = u16::BITS - max.leading_zeros();
    let (ha, hl) = (all.transform(bits), later.transform(bits));
    let (na, nl) = (all.heaps() as i64, later.heaps() as i64);
    let count = |n: i64, h: i64| ((n + h) / 2) as usize;
    let domain = domain_digit(rules);
    let mut best: Option<(Score, SparseSpace)> = None;
    for mask in 1..(1u32 << bits) {
        let s = 2 * mask as usize;
        let mut candidates = vec![(SparseKind::Range, count(nl, hl[s]), count(na, ha[s]))];
        if let Some(k) = domain {
            let sign = if k % 2 == 0 { 1 } else { -1 };
            candidates.push((
                SparseKind::Domain { k },
                count(nl, sign * hl[s + 1]),
                count(na, sign * ha[s + 1]),
            ));
        }
        for (kind, later, total) in candidates {
            let mask = mask as u16;
            let score = Score { later, total, mask };
            if best.as_ref().is_none_or(|(b, _)| score < *b) {
                best = Some((score, SparseSpace { kind, mask }));
            }
        }
    }
    best.map(|(score, space)| ahead(score, space, max))
}

/// The space that serves the long run among those that tie with `space` on the values so far
/// (whose largest is `max`). The next new largest value, when it comes, is exactly `2^b` (b the
/// bits of `max`): the mex of options that hold every smaller value and nothing past them. Under
/// a range-type mask without bit b that value is in 0's class, rare, and a rare heap far out
/// costs every later heap a far read; with bit b it is common. Bit b classes no value so far, so
/// the two masks tie; the one with bit b is taken once `max` has reached the top eighth below
/// `2^b`, where the new value is near (masks of the literature name only the bits in use, which
/// this keeps elsewhere).
fn ahead(score: Score, space: SparseSpace, max: u16) -> (SparseSpace, Score) {
    let bits = u16::BITS - max.leading_zeros();
    let near = (3..16).contains(&bits) && u32::from(max) >= (1 << bits) - (1 << (bits - 3));
    match space.kind {
        SparseKind::Range if near => {
            let mask = space.mask | 1 << bits;
            (SparseSpace { mask, ..space }, Score { mask, ..score })
        }
        _ => (space, score),
    }
}

/// Whether `wide` is `narrow` with bits that no value up to `max` has: the two class every such
/// value alike, so the same rare heaps and keys serve both.
pub fn same_on_values(narrow: SparseSpace, wide: SparseSpace, max: u16) -> bool {
    let seen = (1u32 << (u16::BITS - max.leading_zeros())) - 1;
    narrow.kind == wide.kind
        && u32::from(narrow.mask) & seen == u32::from(wide.mask) & seen
        && narrow.mask.trailing_zeros() == wide.mask.trailing_zeros()
}

/// The best candidate sparse space for the values `g`, with the fraction of the later half of
/// `g` that it leaves sparse ([`best_of`] over all of `g` and its later half).
pub fn best_space(rules: &Rules, g: &[u16]) -> Option<(SparseSpace, f64)> {
    let half = g.len() / 2;
    let all = Histogram::of(g, 0..g.len());
    let later = Histogram::of(g, half..g.len());
    best_of(rules, &all, &later).map(|(space, score)| {
        let fraction = score.later as f64 / (g.len() - half) as f64;
        (space, fraction)
    })
}

/// The sparse fraction of the later half above which no mask is said to make heaps rare.
pub const NONE_ABOVE: f64 = 0.25;

/// Finds the sparse space of a game from its first values `g` (exact values of heaps
/// 0..g.len()): the [`best_space`], or `None` when even that leaves more than a quarter of the
/// later half sparse (no mask makes the sparse heaps rare).
pub fn discover(rules: &Rules, g: &[u16]) -> Option<SparseSpace> {
    best_space(rules, g)
        .filter(|&(_, fraction)| fraction <= NONE_ABOVE)
        .map(|(space, _)| space)
}

/// Heaps computed exactly before discovery looks for a sparse space (and grows its range).
pub const DISCOVERY_START: usize = 1 << 15;

/// Heaps the build step computes for each game's rare table (Officers' last rare heap is 20627);
/// `octal codegen` uses the same, so that it shows what the build generates.
pub const BUILD_HEAPS: usize = 1 << 17;

/// A sparse fraction of the later half at which [`discover_growing`] stops growing its range.
pub const SETTLED: f64 = 1.0 / 32.0;

/// Heaps of the O(n^2) exact engine before discovery takes a first look (see
/// [`discover_growing`]).
pub const EXACT_SEED: usize = 1 << 10;

/// The sparse fraction of the later half below which the first heaps grow by the classic
/// algorithm (see [`discover_growing`]).
pub const SEED_SETTLED: f64 = 1.0 / 128.0;

/// How [`discover_growing`] extends exact values `g` to `n` heaps under a space: `grow(space, g, n)`.
pub type Grow<'a, E> = dyn FnMut(SparseSpace, &mut Vec<u16>, usize) -> Result<(), E> + 'a;

/// Exact values of the first heaps and the sparse space they show. Discovery starts with
/// `start` heaps and doubles, while the best space leaves more than [`SETTLED`] of the later
/// half sparse and `done` (shown the values so far) does not say stop, up to `limit` heaps;
/// `grow(space, g, n)` does the extending to `n` heaps, with any engine exact for any mask
/// ([`grow_classic`], or a parallel one). The first `start` heaps grow from [`EXACT_SEED`] by
/// doubling too, each stretch by the classic algorithm where the heaps before it show a space
/// with less than [`SEED_SETTLED`] of the later half sparse, by the exact engine where they do
/// not (the classic algorithm's scan of the splits stops early only where the space has
/// settled; Officers' first 2^15 heaps cost it more than the exact engine). The values are the
/// same either way; only their cost differs. Heaps that `known` holds (exact values of the
/// first heaps, such as a resumed run's) are taken from it, not computed: the space found is
/// the same, since the values are.
pub fn discover_growing<E: From<ValueOverflow>>(
    rules: &Rules,
    known: &[u16],
    start: usize,
    limit: usize,
    done: &mut dyn FnMut(&[u16]) -> bool,
    grow: &mut Grow<'_, E>,
) -> Result<(Vec<u16>, Option<SparseSpace>), E> {
    // Takes the known values of heaps up to `n`.
    let take = |g: &mut Vec<u16>, n: usize| {
        let to = known.len().min(n);
        if g.len() < to {
            g.extend_from_slice(&known[g.len()..to]);
        }
    };
    let mut g = Vec::new();
    take(&mut g, start);
    exact::extend(rules, &mut g, start.min(EXACT_SEED))?;
    while g.len() < start {
        let next = (2 * g.len()).min(start);
        match best_space(rules, &g) {
            Some((space, fraction)) if fraction < SEED_SETTLED => {
                grow_classic(rules, space, &mut g, next)?
            }
            _ => exact::extend(rules, &mut g, next)?,
        }
    }
    loop {
        let best = best_space(rules, &g);
        match best {
            Some((space, fraction)) if fraction > SETTLED && g.len() < limit && !done(&g) => {
                let next = (2 * g.len()).min(limit);
                take(&mut g, next);
                if g.len() < next {
                    grow(space, &mut g, next)?;
                }
            }
            _ => return Ok((g, best.filter(|b| b.1 <= NONE_ABOVE).map(|b| b.0))),
        }
    }
}

/// Extends the exact values `g` to `n` heaps by the classic algorithm under `space` (on one
/// thread): the growth of [`discover_growing`] where nothing faster is at hand.
pub fn grow_classic(
    rules: &Rules,
    space: SparseSpace,
    g: &mut Vec<u16>,
    n: usize,
) -> Result<(), ValueOverflow> {
    Classic::new(rules, space, g).extend(g, n)
}

/// A game's sparse space and rare table as the build step sees them: discovery (growing to
/// `heaps` at most), then the classic algorithm to `heaps`. `None` for a game without a sparse
/// space. The largest value seen comes along (it decides the key width).
pub fn table_for(
    rules: &Rules,
    start: usize,
    heaps: usize,
) -> Result<Option<(SparseSpace, RareTable, u16)>, ValueOverflow> {
    let (mut g, space) = discover_growing(
        rules,
        &[],
        start.min(heaps),
        heaps,
        &mut |_| false,
        &mut |s, g, n| grow_classic(rules, s, g, n),
    )?;
    let Some(space) = space else { return Ok(None) };
    grow_classic(rules, space, &mut g, heaps)?;
    let max = g.iter().copied().max().unwrap_or(0);
    Ok(Some((space, RareTable::from_values(&space, &g), max)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::Code;
    use proptest::prelude::*;

    /// .167's first values show the range mask 0x3d; once the largest value nears 64 (the next
    /// new largest value, rare under 0x3d), the mask with bit 6 ties on every value and is taken
    /// instead, and the two class every value so far alike.
    #[test]
    fn near_a_new_bit_the_mask_takes_it() {
        let rules = ".167".parse::<Code>().unwrap().rules();
        let mut g = exact::values(&rules, 1 << 13).unwrap();
        let max = *g.iter().max().unwrap();
        assert!(max < 56, "{max}: not near 64 yet");
        let (far, _) = best_space(&rules, &g).unwrap();
        assert_eq!(far.mask, 0x3d);
        // The same values with a largest value of 60 (in the common class of both masks).
        let at = g.iter().position(|&v| v == max).unwrap();
        g[at] = 60;
        let (near, _) = best_space(&rules, &g).unwrap();
        assert_eq!(near.mask, 0x7d);
        assert!(same_on_values(far, near, 60));
        assert!(!same_on_values(far, near, 64));
        assert!((0..64).all(|v| far.is_rare(1, v) == near.is_rare(1, v)));
        assert!(
            far.is_rare(1, 64) && !near.is_rare(1, 64),
            "64 rare, then common"
        );
    }

    proptest! {
        /// The transform's scores equal the sparse heaps counted one by one, for every space.
        #[test]
        fn transform_counts_every_space(
            values in proptest::collection::vec(0u16..600, 64..400),
            code in prop::sample::select(vec![".6", "0.404", "0.4004", "4.04", ".16"]),
        ) {
            let rules = code.parse::<Code>().unwrap().rules();
            let half = values.len() / 2;
            let all = Histogram::of(&values, 0..values.len());
            let later = Histogram::of(&values, half..values.len());
            let (space, score) = best_of(&rules, &all, &later).unwrap();
            let direct = |s: &SparseSpace| (later.sparse(s), all.sparse(s));
            prop_assert_eq!((score.later, score.total), direct(&space));
            let bits = u16::BITS - all.max().leading_zeros();
            let kinds: Vec<SparseKind> = std::iter::once(SparseKind::Range)
                .chain(domain_digit(&rules).map(|k| SparseKind::Domain { k }))
                .collect();
            for mask in 1..(1u16 << bits) {
                for &kind in &kinds {
                    let s = SparseSpace { kind, mask };
                    prop_assert!(direct(&s) >= (score.later, score.total));
                }
            }
        }
    }

    #[test]
    fn domain_type_needs_breaking_digits_of_one_parity() {
        let digit = |c: &str| domain_digit(&c.parse::<Code>().unwrap().rules());
        assert_eq!(digit("0.404"), Some(1));
        assert_eq!(digit("0.4004"), None);
        assert_eq!(digit(".6"), Some(1));
        assert_eq!(digit("0.6"), Some(1));
        assert_eq!(digit("0.3"), None);
    }
}

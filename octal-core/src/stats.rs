//! The standard summary of a run's values, in the style of the literature: the largest value
//! and where it first occurs, the P-positions, the sparse heaps, and the `fnv1a64` fingerprint;
//! and at every power of two the run passed, the same statistics of its first 2^k heaps with the
//! histogram of their values (how many heaps take each value, as long computations publish it)
//! and the fingerprint of the segment since the power before, so that two runs compare at every
//! power without their values.

use crate::fnv::Fnv1a64;
use crate::SparseSpace;
use serde::{Deserialize, Serialize};

/// Statistics of the values of heaps `0..n`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    pub n: usize,
    pub fnv1a64: u64,
    pub max_value: u16,
    pub max_value_at: usize,
    pub p_positions: usize,
    pub last_p_position: usize,
    /// Sparse heaps under the run's space: (count, last heap, its value).
    pub rare: Option<(usize, usize, u16)>,
    /// The statistics of heaps `0..2^k` for each `2^k <= n` from [`FIRST_POWER`] on.
    pub powers: Vec<AtPower>,
}

/// The first power of two whose statistics a summary keeps (2^10 heaps).
pub const FIRST_POWER: usize = 1 << 10;

/// Statistics of the values of heaps `0..n`, `n` a power of two.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AtPower {
    pub n: usize,
    pub max_value: u16,
    pub max_value_at: usize,
    /// Sparse heaps under the run's space: (count, last heap).
    pub rare: Option<(usize, usize)>,
    pub fnv1a64: u64,
    pub p_positions: usize,
    pub last_p_position: usize,
    /// The `fnv1a64` of the segment of heaps `n/2 .. n` alone (`0 .. n` for [`FIRST_POWER`]).
    pub segment_fnv1a64: u64,
    /// How many of heaps `0..n` take each value: (value, count) for every value taken, in order.
    pub histogram: Vec<(u16, u64)>,
}

impl Summary {
    pub fn of(values: &[u16], space: Option<&SparseSpace>) -> Summary {
        Summarizer::new(space.copied()).finish(values, space)
    }
}

/// A [`Summary`] folded as a run proves its values: a run's watcher feeds it every batch, so that
/// a long run does not end with a pass over its whole history. It keeps what a run needs to go on
/// (serialisable), not the values.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summarizer {
    space: Option<SparseSpace>,
    hash: Fnv1a64,
    /// The hash of the current segment (since the last power of two).
    segment: Fnv1a64,
    /// How many heaps fed so far take each value.
    counts: Vec<u64>,
    /// The summary of the values fed so far (`n` of them), its `fnv1a64` not yet set.
    sum: Summary,
}

impl Summarizer {
    pub fn new(space: Option<SparseSpace>) -> Summarizer {
        Summarizer {
            space,
            hash: Fnv1a64::new(),
            segment: Fnv1a64::new(),
            counts: Vec::new(),
            sum: Summary {
                n: 0,
                fnv1a64: 0,
                max_value: 0,
                max_value_at: 0,
                p_positions: 0,
                last_p_position: 0,
                rare: space.map(|_| (0, 0, 0)),
                powers: Vec::new(),
            },
        }
    }

    /// A summarizer under `space` fed with `values` (heaps from 0).
    pub fn fed_with(space: Option<SparseSpace>, values: &[u16]) -> Summarizer {
        let mut s = Summarizer::new(space);
        s.feed(values);
        s
    }

    /// Heaps fed so far.
    pub fn fed(&self) -> usize {
        self.sum.n
    }

    /// The space the rare statistics are counted under.
    pub fn space(&self) -> Option<SparseSpace> {
        self.space
    }

    /// Counts the rare heaps from here on under `space`, which classes every value fed so far as
    /// the summarizer's own space does (a mask with bits above every value).
    pub fn widen(&mut self, space: SparseSpace) {
        self.space = Some(space);
    }

    /// Folds in `values[fed..]`, where `values` are the run's values so far (they extend the ones
    /// fed before: proved values do not change).
    pub fn feed(&mut self, values: &[u16]) {
        let from = self.sum.n.min(values.len());
        self.feed_from(from, &values[from..]);
    }

    /// Folds in the values of heaps `from .. from + values.len()`, of which the ones fed before
    /// (below [`Summarizer::fed`]) are skipped; `from` is at most `fed`.
    pub fn feed_from(&mut self, from: usize, values: &[u16]) {
        assert!(
            from <= self.sum.n,
            "heaps {from}.. fed before heap {}",
            self.sum.n
        );
        let mut values = &values[(self.sum.n - from).min(values.len())..];
        while !values.is_empty() {
            // Up to the next power of two, where the statistics are taken.
            let power = (self.sum.n + 1).next_power_of_two().max(FIRST_POWER);
            let (piece, rest) = values.split_at((power - self.sum.n).min(values.len()));
            self.fold(piece);
            if self.sum.n == power {
                self.take_power();
            }
            values = rest;
        }
    }

    /// Folds in `values`, the heaps after the ones fed, with every running figure in a local (the
    /// two hash chains are the loop's whole latency: they must not pass through memory).
    fn fold(&mut self, values: &[u16]) {
        let (mut hash, mut segment) = (self.hash, self.segment);
        let s = &mut self.sum;
        let (mut max, mut max_at) = (s.max_value, s.max_value_at);
        let (mut p_positions, mut last_p) = (s.p_positions, s.last_p_position);
        let mut rare = s.rare;
        let space = self.space;
        let counts = &mut self.counts;
        for (n, &v) in (s.n..).zip(values) {
            hash.write_value(v);
            segment.write_value(v);
            if usize::from(v) >= counts.len() {
                counts.resize(usize::from(v) + 1, 0);
            }
            counts[usize::from(v)] += 1;
            if v > max {
                (max, max_at) = (v, n);
            }
            if v == 0 {
                p_positions += 1;
                last_p = n;
            }
            if let (Some(space), Some(r)) = (&space, rare.as_mut()) {
                if space.is_rare(n, v) {
                    *r = (r.0 + 1, n, v);
                }
            }
        }
        (self.hash, self.segment) = (hash, segment);
        (s.max_value, s.max_value_at) = (max, max_at);
        (s.p_positions, s.last_p_position) = (p_positions, last_p);
        s.rare = rare;
        s.n += values.len();
    }

    /// The statistics at the power of two just reached, and a new segment.
    fn take_power(&mut self) {
        let histogram = self.histogram();
        let s = &mut self.sum;
        s.powers.push(AtPower {
            n: s.n,
            max_value: s.max_value,
            max_value_at: s.max_value_at,
            rare: s.rare.map(|r| (r.0, r.1)),
            fnv1a64: self.hash.finish(),
            p_positions: s.p_positions,
            last_p_position: s.last_p_position,
            segment_fnv1a64: self.segment.finish(),
            histogram,
        });
        self.segment = Fnv1a64::new();
    }

    /// How many of the heaps fed so far take each value: (value, count) for every value taken.
    pub fn histogram(&self) -> Vec<(u16, u64)> {
        (0..)
            .zip(&self.counts)
            .filter(|e| *e.1 > 0)
            .map(|(v, &c)| (v, c))
            .collect()
    }

    /// The largest value fed so far.
    pub fn max_value(&self) -> u16 {
        self.sum.max_value
    }

    /// The sparse heaps fed so far, under the summarizer's space (none without one).
    pub fn rare_count(&self) -> Option<usize> {
        self.sum.rare.map(|r| r.0)
    }

    /// The statistics at the powers of two passed so far.
    pub fn powers(&self) -> &[AtPower] {
        &self.sum.powers
    }

    /// The summary of what was fed.
    pub fn summary(&self) -> Summary {
        Summary {
            fnv1a64: self.hash.finish(),
            ..self.sum.clone()
        }
    }

    /// The summary of `values` under `space`: what was fed, and the rest; from scratch when the
    /// run ended shorter than what was fed (a period's proof truncates) or under another space.
    pub fn finish(mut self, values: &[u16], space: Option<&SparseSpace>) -> Summary {
        if self.sum.n > values.len() || self.space.as_ref() != space {
            return Summary::of(values, space);
        }
        self.feed(values);
        self.summary()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fnv::fnv1a64_values;
    use crate::SparseKind;
    use proptest::collection::vec;
    use proptest::prelude::*;

    proptest! {
        /// Fed in pieces (as a run's watcher feeds it) and finished on the whole, or on a shorter
        /// run, a summarizer gives each statistic's definition.
        #[test]
        fn fed_in_pieces_it_gives_the_definitions(
            values in vec(0u16..24, 0..2000),
            mut cuts in vec(0usize..2000, 0..6),
            shorter in 0usize..2000,
        ) {
            let space = SparseSpace { kind: SparseKind::Range, mask: 0b1010 };
            let mut s = Summarizer::new(Some(space));
            cuts.sort_unstable();
            for c in cuts {
                s.feed(&values[..c.min(values.len())]);
            }
            let sum = s.clone().finish(&values, Some(&space));
            let max = values.iter().copied().max().unwrap_or(0);
            prop_assert_eq!(sum.n, values.len());
            prop_assert_eq!(sum.fnv1a64, fnv1a64_values(&values));
            prop_assert_eq!(sum.max_value, max);
            prop_assert_eq!(sum.max_value_at, values.iter().position(|&v| v == max).unwrap_or(0));
            prop_assert_eq!(sum.p_positions, values.iter().filter(|&&v| v == 0).count());
            prop_assert_eq!(sum.last_p_position, values.iter().rposition(|&v| v == 0).unwrap_or(0));
            let rare: Vec<usize> = (0..values.len()).filter(|&n| space.is_rare(n, values[n])).collect();
            let last = rare.last().map_or((0, 0), |&n| (n, values[n]));
            prop_assert_eq!(sum.rare, Some((rare.len(), last.0, last.1)));
            let powers: Vec<AtPower> = (10..12)
                .map(|k| 1usize << k)
                .filter(|&p| p <= values.len())
                .map(|p| {
                    let s = Summary::of(&values[..p], Some(&space));
                    let mut histogram: Vec<(u16, u64)> = Vec::new();
                    for v in 0..24u16 {
                        let c = values[..p].iter().filter(|&&x| x == v).count() as u64;
                        if c > 0 {
                            histogram.push((v, c));
                        }
                    }
                    let segment = if p == 1 << 10 { 0..p } else { p / 2..p };
                    AtPower { n: p, max_value: s.max_value, max_value_at: s.max_value_at,
                        rare: s.rare.map(|r| (r.0, r.1)), fnv1a64: s.fnv1a64,
                        p_positions: s.p_positions, last_p_position: s.last_p_position,
                        segment_fnv1a64: fnv1a64_values(&values[segment]), histogram }
                })
                .collect();
            prop_assert_eq!(&sum.powers, &powers);
            let k = shorter.min(values.len());
            prop_assert_eq!(s.finish(&values[..k], Some(&space)), Summary::of(&values[..k], Some(&space)));
        }
    }
}

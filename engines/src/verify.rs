//! The verifier: proves speculative values exactly, in parallel.
//!
//! A common candidate c at heap n is G(n) when every rare value below c is the value of some
//! option: it is not itself an option, since the speculative engine marked every common option
//! from the rare table, and the table holds every rare heap below the first failure. The scan
//! over two-heap splits stops as soon as all of them are found (usually within a few thousand
//! splits; for a candidate of at most 64 the values needed and seen are the bits of one word). A
//! rare candidate (a heap the table lists) is checked against the full mex. Heaps are
//! checked independently given the values before them, so a range splits across threads; the
//! first failing heap, with its true value, is what a range reports.
//!
//! A run that holds only its first and last heaps ([`Kept`]) proves a heap while the splits its
//! proof needs have their smaller part in the front; a heap whose proof needs more, or whose
//! candidate is rare, is [`Refuted::Unsettled`]: nothing is guessed. The verifier keeps the
//! farthest split any proof read ([`Verifier::reach`]), by which a run sizes its front.

use crate::stretch::EngineError;
use octal_core::exact::{self, Marks, ValueOverflow};
use octal_core::{Kept, Rules, SparseSpace};
use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Splits scanned between two checks of the rare values still missing.
const CHECK_EVERY: usize = 64;

/// Heaps one parallel task verifies.
const TASK_HEAPS: usize = 512;

/// A heap whose candidate was wrong, with its true value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Failure {
    pub heap: usize,
    pub value: u16,
}

/// What verifying a range can end with besides success.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refuted {
    Wrong(Failure),
    Overflow(ValueOverflow),
    /// The heap's proof needs values the run does not hold: splits whose parts lie past its
    /// front, or (a rare candidate) every option.
    Unsettled {
        heap: usize,
    },
}

/// Proves the candidates of a range of heaps given the proved values before them: the CPU
/// verifier, or the GPU's `verify` kernel fed by the CPU's speculation.
pub trait Prove: Send {
    /// `Ok(Err(..))`: the first candidate that fails; `Err`: the prover itself failed.
    fn prove(
        &mut self,
        g: Kept<'_>,
        range: Range<usize>,
    ) -> Result<Result<(), Refuted>, EngineError>;

    /// The most heaps a batch should have.
    fn max_batch(&self) -> usize;
}

/// Heaps of the CPU verifier's largest batch.
const CPU_BATCH: usize = 1 << 17;

impl Prove for Verifier {
    fn prove(
        &mut self,
        g: Kept<'_>,
        range: Range<usize>,
    ) -> Result<Result<(), Refuted>, EngineError> {
        Ok(self.verify(g, range))
    }

    fn max_batch(&self) -> usize {
        CPU_BATCH
    }
}

/// The values a scan has seen, of those a proof needs.
trait Seen {
    /// Sees `low[k] ^ high[high.len() - 1 - k]` for every k.
    fn insert_pairs(&mut self, low: &[u16], high: &[u16]);
    /// The least needed value not seen yet.
    fn missing(&mut self) -> Option<u16>;
}

/// Any values: a stamped set, and the needed values (increasing) found so far.
struct Stamped<'a> {
    marks: &'a mut Marks,
    needed: &'a [u16],
    found: usize,
}

impl Seen for Stamped<'_> {
    fn insert_pairs(&mut self, low: &[u16], high: &[u16]) {
        for (&x, &y) in low.iter().zip(high.iter().rev()) {
            self.marks.insert(x ^ y);
        }
    }

    fn missing(&mut self) -> Option<u16> {
        while self.found < self.needed.len() && self.marks.contains(self.needed[self.found]) {
            self.found += 1;
        }
        self.needed.get(self.found).copied()
    }
}

/// Needed values below 64: bit v of `want` for each, of `have` once seen.
struct Bits {
    have: u64,
    want: u64,
}

impl Seen for Bits {
    fn insert_pairs(&mut self, low: &[u16], high: &[u16]) {
        for (&x, &y) in low.iter().zip(high.iter().rev()) {
            let v = u32::from(x ^ y);
            self.have |= (1u64 << (v & 63)) & u64::from(v < 64).wrapping_neg();
        }
    }

    fn missing(&mut self) -> Option<u16> {
        let gap = self.want & !self.have;
        (gap != 0).then(|| gap.trailing_zeros() as u16)
    }
}

/// Verifies candidates for one game and sparse space.
pub struct Verifier {
    rules: Rules,
    space: SparseSpace,
    /// Rare-class values in increasing order, for heaps with rare parity 0 and 1.
    rare_values: [Vec<u16>; 2],
    /// The same below 64, as the bits of one word.
    small_rare: [u64; 2],
    /// The farthest split (its smaller part) a proof has read so far.
    reach: AtomicUsize,
}

impl Verifier {
    pub fn new(rules: &Rules, space: SparseSpace) -> Verifier {
        let rare_values = [space.rare_values(0), space.rare_values(1)];
        let small_rare = rare_values
            .each_ref()
            .map(|r| r.iter().filter(|&&v| v < 64).fold(0, |m, &v| m | 1u64 << v));
        Verifier {
            rules: rules.clone(),
            space,
            rare_values,
            small_rare,
            reach: AtomicUsize::new(0),
        }
    }

    /// The farthest split a proof has read so far: the smaller part of every split a proof needed
    /// lies below it.
    pub fn reach(&self) -> usize {
        self.reach.load(Ordering::Relaxed)
    }

    /// Checks the candidate of heap `n` given the values before it.
    pub fn check(&self, g: Kept<'_>, n: usize, marks: &mut Marks) -> Result<(), Refuted> {
        let c = g.at(n);
        if self.space.is_rare(n, c) {
            let Some(all) = g.whole_slice() else {
                return Err(Refuted::Unsettled { heap: n });
            };
            let v = exact::value_of(&self.rules, all, n, marks).map_err(Refuted::Overflow)?;
            return if v == c {
                Ok(())
            } else {
                Err(Refuted::Wrong(Failure { heap: n, value: v }))
            };
        }
        let parity = self.space.rare_parity(n) as usize;
        if c <= 64 {
            // Small values: the options' values below 64 as the bits of one word.
            let want = self.small_rare[parity] & u64::MAX.checked_shl(c.into()).map_or(!0, |m| !m);
            if want == 0 {
                return Ok(());
            }
            marks.clear();
            exact::mark_single_options(&self.rules, |h| g.at(h), n, marks);
            let have = (0..64)
                .filter(|&v| want >> v & 1 == 1 && marks.contains(v))
                .fold(0, |m, v| m | 1 << v);
            return self.scan(g, n, &mut Bits { have, want });
        }
        let all = &self.rare_values[parity];
        let needed = &all[..all.partition_point(|&v| v < c)];
        if needed.is_empty() {
            return Ok(());
        }
        marks.clear();
        exact::mark_single_options(&self.rules, |h| g.at(h), n, marks);
        self.scan(
            g,
            n,
            &mut Stamped {
                marks,
                needed,
                found: 0,
            },
        )
    }

    /// Scans the splits of heap `n` (a = 1, 2, ..., each breaking digit) into `seen` until
    /// every needed value is seen (the candidate stands) or the splits run out (the least
    /// missing value is G(n)). Splits whose smaller part lies past the front of what `g` holds
    /// leave the heap unsettled.
    fn scan(&self, g: Kept<'_>, n: usize, seen: &mut impl Seen) -> Result<(), Refuted> {
        if seen.missing().is_none() {
            return Ok(());
        }
        let front = g.front();
        let mut start = 1;
        loop {
            let mut scanned = false;
            for &i in &self.rules.breaking {
                let Some(h) = n.checked_sub(i) else { continue };
                let end = (start + CHECK_EVERY).min(h / 2 + 1);
                if start >= end {
                    continue;
                }
                scanned = true;
                // Splits a + b = h with a in start..end: b runs down from h - start.
                let (Some(low), Some(high)) =
                    (front.get(start..end), g.range(h + 1 - end..h + 1 - start))
                else {
                    return Err(Refuted::Unsettled { heap: n });
                };
                seen.insert_pairs(low, high);
            }
            let Some(value) = seen.missing() else {
                let read = start + CHECK_EVERY;
                if read > self.reach.load(Ordering::Relaxed) {
                    self.reach.fetch_max(read, Ordering::Relaxed);
                }
                return Ok(());
            };
            if !scanned {
                return Err(Refuted::Wrong(Failure { heap: n, value }));
            }
            start += CHECK_EVERY;
        }
    }

    /// Verifies the candidates of heaps `range` given the values before them, on the current
    /// rayon pool. Returns the first (lowest) heap that fails, if any.
    pub fn verify(&self, g: Kept<'_>, range: Range<usize>) -> Result<(), Refuted> {
        let tasks = range.len().div_ceil(TASK_HEAPS);
        let failure = (0..tasks).into_par_iter().find_map_first(|k| {
            let lo = range.start + k * TASK_HEAPS;
            let hi = (lo + TASK_HEAPS).min(range.end);
            exact::with_marks(|marks| (lo..hi).find_map(|n| self.check(g, n, marks).err()))
        });
        failure.map_or(Ok(()), Err)
    }
}

#[cfg(test)]
mod tests {
    use super::{Bits, Seen, Stamped, Verifier};
    use octal_core::exact;
    use octal_core::{Code, Kept};

    /// The word of small values and the stamped set agree on every heap and every common
    /// candidate below 64 (proved, or the same least missing value), on games with small values
    /// and on Officers, whose options reach values past 64.
    #[test]
    fn small_values_scan_as_the_stamped_set() {
        for code in [".104", ".14", ".1077", ".6"] {
            let code: Code = code.parse().unwrap();
            let rules = code.rules();
            let mut g = exact::values(&rules, 3000).unwrap();
            let space = octal_core::discover::discover(&rules, &g).expect("a sparse space");
            let v = Verifier::new(&rules, space);
            let parity = |n| space.rare_parity(n) as usize;
            let mut compared = 0;
            for n in 2000..2300 {
                let truth = g[n];
                for c in (0..64).filter(|&c| !space.is_rare(n, c)) {
                    g[n] = c;
                    let all = &v.rare_values[parity(n)];
                    let needed = &all[..all.partition_point(|&r| r < c)];
                    let want = needed.iter().fold(0, |m, &r| m | 1u64 << r);
                    assert_eq!(want, v.small_rare[parity(n)] & ((1u64 << c) - 1));
                    let stamped = exact::with_marks(|marks| {
                        marks.clear();
                        exact::mark_single_options(&rules, |h| g[h], n, marks);
                        v.scan(
                            Kept::whole(&g),
                            n,
                            &mut Stamped {
                                marks,
                                needed,
                                found: 0,
                            },
                        )
                    });
                    let bits = exact::with_marks(|marks| {
                        marks.clear();
                        exact::mark_single_options(&rules, |h| g[h], n, marks);
                        let have = needed
                            .iter()
                            .filter(|&&r| marks.contains(r))
                            .fold(0, |m, &r| m | 1u64 << r);
                        v.scan(Kept::whole(&g), n, &mut Bits { have, want })
                    });
                    assert_eq!(stamped, bits, "{code} heap {n} candidate {c}");
                    assert_eq!(
                        exact::with_marks(|marks| v.check(Kept::whole(&g), n, marks)),
                        stamped,
                        "{code} heap {n} candidate {c}"
                    );
                    compared += 1;
                }
                g[n] = truth;
            }
            assert!(compared > 1000, "{code}: {compared}");
        }
    }

    /// A Bits sink reports the least needed value it has not seen.
    #[test]
    fn bits_report_the_least_missing_value() {
        let mut b = Bits {
            have: 0b100,
            want: 0b10110,
        };
        assert_eq!(b.missing(), Some(1));
        b.insert_pairs(&[3, 7], &[0, 2]);
        assert_eq!(b.missing(), Some(4));
        b.insert_pairs(&[100], &[96]);
        assert_eq!(b.missing(), None);
    }
}

//! The sparse space that the values computed so far show, kept current as they grow, and the
//! engine that suits it: histograms of (value, heap parity) over all values and over the later
//! half, scored at once by `discover::best_of` (a Walsh-Hadamard transform).
//!
//! While a speculative loop runs (the CPU's or the GPU's), a space in use is kept unless another
//! leaves at most 3/4 of its sparse heaps in the later half (and strictly fewer), so a game whose
//! space holds never switches on a tie; the marking engines, which a change costs nothing, take
//! the best space.

use octal_core::discover::{best_of, same_on_values, Histogram, NONE_ABOVE};
use octal_core::{Kept, Rules, SparseSpace};

/// The sparse fraction of the later half up to which the speculative engine runs: rare values
/// then come seldom enough that the corrections cost little.
pub const SPECULATE_MAX: f64 = 1.0 / 1024.0;

/// The most entries (rare heaps times breaking digits) of a speculative loop: it runs on one
/// thread, at about one entry a cycle, while the marking engine's classic marking of the same
/// entries runs on every thread.
pub const SPECULATE_ENTRIES: usize = 8192;

/// The sparse fraction of the later half up to which the GPU speculates: its table is data of
/// any length, and a correction costs it a round trip to the host (about a millisecond), while
/// the marking engine's cost per heap grows with the rare heaps (.143 to 2^20, one rare heap in
/// 600: 2.5 s on one H100 against 68 s on 16 cores).
pub const GPU_SPECULATE_MAX: f64 = 1.0 / 128.0;

/// A change of the sparse space during a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpaceChange {
    /// The first heap computed under the new space.
    pub heap: usize,
    pub space: Option<SparseSpace>,
}

/// Histograms of the values so far, all of them and the later half.
#[derive(Default)]
pub struct SpaceWatch {
    all: Histogram,
    later: Histogram,
    /// The first heap of the later half (heaps `later_from..len` are in `later`).
    later_from: usize,
    len: usize,
}

/// What the values so far call for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fit {
    /// Speculation from the rare table: rare heaps are seldom.
    Speculate(SparseSpace),
    /// The classic algorithm by batches: a space, but rare heaps keep coming.
    Classic(SparseSpace),
    /// Exact marking by batches: no space makes the sparse heaps rare.
    Exact,
}

impl SpaceWatch {
    /// Counts the values of heaps `self.len..g.len()` (the values before are the ones counted
    /// so far; a run shows every value before it drops it) and moves the later half. Where the
    /// run no longer holds the heaps the later half leaves, it stays where it is: it is then the
    /// heaps since the run last held them. A watch that starts on a run resumed from its front
    /// and tail counts from the tail.
    pub fn feed(&mut self, g: Kept<'_>) {
        if self.len < g.base() {
            self.len = g.base();
            self.later_from = self.later_from.max(g.base());
        }
        let from = self.len;
        for (n, &v) in (from..).zip(g.range(from..g.len()).unwrap_or(&[])) {
            self.all.add(n, v);
            self.later.add(n, v);
        }
        self.len = self.len.max(g.len());
        while self.later_from < self.len / 2 {
            let Some(v) = g.get(self.later_from) else {
                break;
            };
            self.later.remove(self.later_from, v);
            self.later_from += 1;
        }
    }

    /// The largest value counted.
    pub fn max(&self) -> u16 {
        self.all.max()
    }

    /// The space to use from here: `current` unless a better one exists, and none when the
    /// best leaves more than a quarter of the later half sparse. With `sticky` (an engine that
    /// a change would cost: the speculative loop's table and unrolled loop), better means
    /// clearly better: at most 3/4 of the current space's sparse heaps in the later half.
    pub fn choose(
        &self,
        rules: &Rules,
        current: Option<SparseSpace>,
        sticky: bool,
    ) -> Option<SparseSpace> {
        let Some((best, score)) = best_of(rules, &self.all, &self.later) else {
            return current;
        };
        // A space that classes every value so far as the current one does, with bits above
        // them (the long run's), costs nothing to take: the same rare heaps, the same keys.
        if current.is_some_and(|c| {
            c != best && best.mask & c.mask == c.mask && same_on_values(c, best, self.all.max())
        }) {
            return Some(best);
        }
        // Nor is the current one left for a space that differs from it only above every value.
        if current.is_some_and(|c| same_on_values(best, c, self.all.max())) {
            return current;
        }
        let keep = current.is_some_and(|c| {
            let now = self.later.sparse(&c);
            let clearly = 4 * score.later <= 3 * now && score.later < now;
            if sticky {
                !clearly
            } else {
                (now, self.all.sparse(&c)) <= (score.later, score.total)
            }
        });
        let chosen = if keep { current } else { Some(best) };
        chosen.filter(|s| self.fraction(s) <= NONE_ABOVE)
    }

    /// The sparse fraction of the later half under `space`.
    pub fn fraction(&self, space: &SparseSpace) -> f64 {
        self.later.sparse(space) as f64 / self.later.heaps().max(1) as f64
    }

    /// The engine that suits `space` on these values: speculation while rare heaps are seldom
    /// and, on the CPU (not `on_gpu`), its loop is short enough for one thread to keep ahead of
    /// the verifier.
    pub fn fit(&self, rules: &Rules, space: Option<SparseSpace>, on_gpu: bool) -> Fit {
        let speculates = |s: &SparseSpace| {
            if on_gpu {
                self.fraction(s) <= GPU_SPECULATE_MAX
            } else {
                self.fraction(s) <= SPECULATE_MAX
                    && self.all.sparse(s) * rules.breaking.len() <= SPECULATE_ENTRIES
            }
        };
        match space {
            None => Fit::Exact,
            Some(s) if speculates(&s) => Fit::Speculate(s),
            Some(s) => Fit::Classic(s),
        }
    }
}

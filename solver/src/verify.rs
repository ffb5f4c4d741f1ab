//! The verifier: proves speculative values exactly, in parallel.
//!
//! A common candidate c at heap n is G(n) when every rare value below c is the value of some
//! option: it is not itself an option, since the speculative engine marked every common option
//! from the rare table, and the table holds every rare heap below the first failure. The scan
//! over two-heap splits stops as soon as all of them are found (usually within a few thousand
//! splits). A rare candidate (a heap the table lists) is checked against the full mex. Heaps are
//! checked independently given the values before them, so a range splits across threads; the
//! first failing heap, with its true value, is what a range reports.

use crate::run::SolveError;
use octal_core::exact::{self, Marks, ValueOverflow};
use octal_core::{Rules, SparseSpace};
use rayon::prelude::*;
use std::ops::Range;

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
}

/// Proves the candidates of a range of heaps given the proved values before them: the CPU
/// verifier, or the GPU's `verify` kernel fed by the CPU's speculation.
pub trait Prove: Send {
    /// `Ok(Err(..))`: the first candidate that fails; `Err`: the prover itself failed.
    fn prove(&mut self, g: &[u16], range: Range<usize>) -> Result<Result<(), Refuted>, SolveError>;

    /// The most heaps a block should have.
    fn max_block(&self) -> usize;
}

/// Heaps of the CPU verifier's largest block.
const CPU_BLOCK: usize = 1 << 17;

impl Prove for Verifier {
    fn prove(&mut self, g: &[u16], range: Range<usize>) -> Result<Result<(), Refuted>, SolveError> {
        Ok(self.verify(g, range))
    }

    fn max_block(&self) -> usize {
        CPU_BLOCK
    }
}

/// Verifies candidates for one game and sparse space.
pub struct Verifier {
    rules: Rules,
    space: SparseSpace,
    /// Rare-class values in increasing order, for heaps with rare parity 0 and 1.
    rare_values: [Vec<u16>; 2],
}

impl Verifier {
    pub fn new(rules: &Rules, space: SparseSpace) -> Verifier {
        Verifier {
            rules: rules.clone(),
            space,
            rare_values: [space.rare_values(0), space.rare_values(1)],
        }
    }

    /// Checks the candidate `g[n]` given `g[..n]`.
    pub fn check(&self, g: &[u16], n: usize, marks: &mut Marks) -> Result<(), Refuted> {
        let c = g[n];
        if self.space.is_rare(n, c) {
            let v = exact::value_of(&self.rules, g, n, marks).map_err(Refuted::Overflow)?;
            return if v == c {
                Ok(())
            } else {
                Err(Refuted::Wrong(Failure { heap: n, value: v }))
            };
        }
        let all = &self.rare_values[self.space.rare_parity(n) as usize];
        let needed = &all[..all.partition_point(|&v| v < c)];
        if needed.is_empty() {
            return Ok(());
        }
        marks.clear();
        exact::mark_single_options(&self.rules, g, n, marks);
        let mut found = 0;
        let mut advance = |marks: &Marks| {
            while found < needed.len() && marks.contains(needed[found]) {
                found += 1;
            }
            found == needed.len()
        };
        if advance(marks) {
            return Ok(());
        }
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
                let low = &g[start..end];
                let high = &g[h + 1 - end..=h - start];
                for (&x, &y) in low.iter().zip(high.iter().rev()) {
                    marks.insert(x ^ y);
                }
            }
            if advance(marks) {
                return Ok(());
            }
            if !scanned {
                return Err(Refuted::Wrong(Failure {
                    heap: n,
                    value: needed[found],
                }));
            }
            start += CHECK_EVERY;
        }
    }

    /// Verifies `g[range]` given everything before it, on the current rayon pool. Returns the
    /// first (lowest) heap that fails, if any.
    pub fn verify(&self, g: &[u16], range: Range<usize>) -> Result<(), Refuted> {
        let tasks = range.len().div_ceil(TASK_HEAPS);
        let failure = (0..tasks).into_par_iter().find_map_first(|k| {
            let lo = range.start + k * TASK_HEAPS;
            let hi = (lo + TASK_HEAPS).min(range.end);
            exact::with_marks(|marks| (lo..hi).find_map(|n| self.check(g, n, marks).err()))
        });
        failure.map_or(Ok(()), Err)
    }
}

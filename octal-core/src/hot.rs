//! The options the speculative engines apply past the rare heaps, shared by the CPU engine
//! (`solver::spec`) and the generated CUDA kernels (`kernels-gen`).
//!
//! Past heap `2 a_max + t + 1` (a_max the last rare heap) every option of a heap n reaches at
//! most one rare heap, so the common options of n are: one entry per breaking digit i and rare
//! heap a >= 1 (the common heap n - i - a beside the rare value r_a), and the single-heap options
//! that keep the class of the heap. Each is a distance back and a code to xor.

use crate::codec::Codec;
use crate::{RareTable, Rules, SparseSpace};

/// The hot options of a game for one rare table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HotOptions {
    /// (distance back, code of the rare value), sorted by distance.
    pub entries: Vec<(usize, u16)>,
    /// Distances back of the single-heap options that stay common at n, increasing.
    pub singles: Vec<usize>,
    /// The first heap whose options reach at most one rare heap.
    pub hot_from: usize,
}

impl HotOptions {
    /// The hot options for `table`, of which only the entries sparse at their heap count.
    pub fn new(rules: &Rules, space: &SparseSpace, table: &RareTable) -> HotOptions {
        let table = table.sparse_only(space);
        let codec = Codec::new(*space);
        let mut entries = Vec::new();
        for &i in &rules.breaking {
            for &(a, r) in table.entries() {
                if a >= 1 {
                    entries.push((i + a, codec.encode(r)));
                }
            }
        }
        entries.sort_by_key(|e| e.0);
        let singles = rules
            .single
            .iter()
            .copied()
            .filter(|&i| space.rare_parity(0) == space.rare_parity(i))
            .collect();
        HotOptions {
            entries,
            singles,
            hot_from: 2 * table.last_heap() + rules.t + 1,
        }
    }

    /// The farthest distance back any hot option reads (at least 1).
    pub fn reach(&self) -> usize {
        let entry = self.entries.last().map_or(0, |e| e.0);
        let single = self.singles.last().copied().unwrap_or(0);
        entry.max(single).max(1)
    }
}

//! Value compression for the speculative engines. A common value at heap n is determined by its
//! bits without the lowest mask bit j (the class fixes the parity, so bit j follows from the
//! others); that is the value's key. Dropping bit j keeps the order of common values, maps xor to
//! xor, and halves the value space, so games whose values stay below 512 run on one byte a key.

use crate::code::Rules;
use crate::sparse::{RareTable, SparseSpace};

/// The fewest value bits the speculative engines' keys are made for: nine, which one-byte keys
/// hold (the dropped mask bit makes eight of them).
pub const MIN_VALUE_BITS: u32 = 9;

/// The value bits keys are made for when no value exceeds `max`: those of `max`, and at least
/// [`MIN_VALUE_BITS`]. A larger value later widens the keys.
pub fn value_bits(max: u16) -> u32 {
    (u16::BITS - max.leading_zeros()).max(MIN_VALUE_BITS)
}

/// Compresses and restores values of one sparse space.
#[derive(Debug, Clone, Copy)]
pub struct Codec {
    space: SparseSpace,
    j: u32,
}

impl Codec {
    /// A codec for a space with a nonzero mask.
    pub fn new(space: SparseSpace) -> Codec {
        assert!(space.mask != 0, "a sparse space has a nonzero mask");
        Codec {
            space,
            j: space.mask.trailing_zeros(),
        }
    }

    /// The key of value `v`: `v` without bit j. Linear: key(a ^ b) = key(a) ^ key(b).
    #[inline]
    pub fn encode(&self, v: u16) -> u16 {
        let low = v & ((1u16 << self.j) - 1);
        ((v >> (self.j + 1)) << self.j) | low
    }

    /// The value with key `c` in the class of heap `n` (common when `rare` is false).
    #[inline]
    pub fn decode(&self, n: usize, c: u16, rare: bool) -> u16 {
        let low = c & ((1u16 << self.j) - 1);
        let v = ((c >> self.j) << (self.j + 1)) | low;
        let parity = (v & self.space.mask).count_ones() & 1;
        let want = self.space.rare_parity(n) ^ u32::from(!rare);
        v | (((parity ^ want) as u16) << self.j)
    }

    /// The number of keys needed for values below 2^bits.
    pub fn key_space(bits: u32) -> usize {
        1 << bits.saturating_sub(1)
    }
}

/// What the speculative loop of one game reads, past the rare heaps: for every breaking digit i
/// and rare heap a >= 1, the distance back i + a and the key of the rare value (nearest first);
/// and the distances back of single-heap options whose value stays common at n.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoopTable {
    pub entries: Vec<(usize, u16)>,
    pub singles: Vec<usize>,
    /// The first heap whose options reach at most one rare heap (2 a_max + t + 1): from here on
    /// the loop alone gives the common options.
    pub hot_from: usize,
}

impl LoopTable {
    /// The loop table of `table` (entries not sparse at their heap are ignored).
    pub fn new(rules: &Rules, space: SparseSpace, table: &RareTable) -> LoopTable {
        let codec = Codec::new(space);
        let table = table.sparse_only(&space);
        let mut entries = Vec::new();
        for &i in &rules.breaking {
            for &(a, r) in table.entries() {
                if a >= 1 {
                    entries.push((i + a, codec.encode(r)));
                }
            }
        }
        entries.sort_unstable();
        let singles = rules
            .single
            .iter()
            .copied()
            .filter(|&i| space.rare_parity(0) == space.rare_parity(i))
            .collect();
        LoopTable {
            entries,
            singles,
            hot_from: 2 * table.last_heap() + rules.t + 1,
        }
    }

    /// The farthest distance back the loop reads (at least 1).
    pub fn reach(&self) -> usize {
        let e = self.entries.last().map_or(0, |e| e.0);
        e.max(self.singles.iter().copied().max().unwrap_or(0))
            .max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sparse::SparseKind;

    #[test]
    fn round_trip_and_order() {
        for kind in [SparseKind::Range, SparseKind::Domain { k: 3 }] {
            let space = SparseSpace { kind, mask: 0x1ee };
            let c = Codec::new(space);
            for n in 0..4 {
                let mut last = None;
                for v in 0..1024u16 {
                    let rare = space.is_rare(n, v);
                    assert_eq!(c.decode(n, c.encode(v), rare), v);
                    if !rare {
                        let key = c.encode(v);
                        assert!(last < Some(key), "order kept");
                        last = Some(key);
                    }
                }
            }
            assert_eq!(c.encode(0x155 ^ 0x0f3), c.encode(0x155) ^ c.encode(0x0f3));
        }
    }
}

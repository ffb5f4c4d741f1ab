//! Sparse spaces and rare tables.
//!
//! Range type: for a mask m, a value v is rare iff popcount(v & m) is even. Domain type (games
//! whose breaking digits' indices all have the parity of k): heap n is sparse iff
//! popcount(G(n) & m) mod 2 == (n - k) mod 2. Both obey the same xor rules, so one engine serves
//! both; only the class of a value at heap n depends on the parity of n for the domain type.
//! [`crate::discover`] finds the space of a game from its first values.

use std::fmt;

/// The two kinds of sparse space.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum SparseKind {
    /// Rare iff popcount(v & m) is even.
    Range,
    /// Heap n is sparse iff popcount(G(n) & m) mod 2 == (n - k) mod 2; `k` is the index of a
    /// breaking digit, and every breaking digit's index has its parity.
    Domain { k: usize },
}

/// A sparse space: its kind and mask.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct SparseSpace {
    pub kind: SparseKind,
    pub mask: u16,
}

impl SparseSpace {
    /// The parity of popcount(v & m) that makes a value sparse (rare) at heap n.
    #[inline]
    pub fn rare_parity(&self, n: usize) -> u32 {
        match self.kind {
            SparseKind::Range => 0,
            SparseKind::Domain { k } => ((n ^ k) & 1) as u32,
        }
    }

    /// Whether value `v` at heap `n` is in the sparse (rare) class.
    #[inline]
    pub fn is_rare(&self, n: usize, v: u16) -> bool {
        (v & self.mask).count_ones() & 1 == self.rare_parity(n)
    }

    /// The values of the sparse class at heaps of rare parity `parity` (see
    /// [`SparseSpace::rare_parity`]), in increasing order.
    pub fn rare_values(&self, parity: u32) -> Vec<u16> {
        (0..=u16::MAX)
            .filter(|&v| (v & self.mask).count_ones() & 1 == parity)
            .collect()
    }

    /// "range" or "domain".
    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            SparseKind::Range => "range",
            SparseKind::Domain { .. } => "domain",
        }
    }
}

impl fmt::Display for SparseSpace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} type, mask {:#x}", self.kind_name(), self.mask)
    }
}

/// The rare heaps of a game with their values, sorted by heap: what the speculative engines
/// assume to be the complete list of rare heaps.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct RareTable {
    entries: Vec<(usize, u16)>,
}

impl RareTable {
    /// The rare heaps among `g` under `space`.
    pub fn from_values(space: &SparseSpace, g: &[u16]) -> RareTable {
        RareTable {
            entries: g
                .iter()
                .enumerate()
                .filter(|&(n, &v)| space.is_rare(n, v))
                .map(|(n, &v)| (n, v))
                .collect(),
        }
    }

    /// Adds the rare heaps among the values of heaps `from .. from + values.len()`, which lie
    /// past every heap of the table.
    pub fn extend_from(&mut self, space: &SparseSpace, from: usize, values: &[u16]) {
        debug_assert!(self.entries.last().is_none_or(|e| e.0 < from));
        let rare = (from..).zip(values).filter(|&(n, &v)| space.is_rare(n, v));
        self.entries.extend(rare.map(|(n, &v)| (n, v)));
    }

    /// A table from (heap, value) pairs in any order; a later pair for the same heap wins.
    pub fn from_entries(mut entries: Vec<(usize, u16)>) -> RareTable {
        entries.reverse();
        entries.sort_by_key(|e| e.0);
        entries.dedup_by_key(|e| e.0);
        RareTable { entries }
    }

    pub fn entries(&self) -> &[(usize, u16)] {
        &self.entries
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The largest rare heap, 0 for an empty table.
    pub fn last_heap(&self) -> usize {
        self.entries.last().map_or(0, |e| e.0)
    }

    /// The value the table records for heap `n`, if `n` is rare.
    pub fn get(&self, n: usize) -> Option<u16> {
        self.entries
            .binary_search_by_key(&n, |e| e.0)
            .ok()
            .map(|i| self.entries[i].1)
    }

    /// Records heap `n` as rare with value `v`, or, with `None`, as not rare.
    pub fn set(&mut self, n: usize, v: Option<u16>) {
        match (self.entries.binary_search_by_key(&n, |e| e.0), v) {
            (Ok(i), Some(v)) => self.entries[i].1 = v,
            (Ok(i), None) => {
                self.entries.remove(i);
            }
            (Err(i), Some(v)) => self.entries.insert(i, (n, v)),
            (Err(_), None) => {}
        }
    }

    /// The entries whose value is in the sparse class of their heap (an entry that is not can
    /// only be a mistake).
    pub fn sparse_only(&self, space: &SparseSpace) -> RareTable {
        RareTable {
            entries: self
                .entries
                .iter()
                .copied()
                .filter(|&(n, v)| space.is_rare(n, v))
                .collect(),
        }
    }

    /// A stable FNV-1a 64-bit fingerprint of the space and the entries, for caches and headers.
    pub fn fingerprint(&self, space: &SparseSpace) -> u64 {
        let mut h = crate::fnv::Fnv1a64::new();
        h.write(space.kind_name().as_bytes());
        if let SparseKind::Domain { k } = space.kind {
            h.write(&(k as u64).to_le_bytes());
        }
        h.write(&space.mask.to_le_bytes());
        for &(n, v) in &self.entries {
            h.write(&(n as u64).to_le_bytes());
            h.write(&v.to_le_bytes());
        }
        h.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_follow_the_xor_rules() {
        let r = SparseSpace {
            kind: SparseKind::Range,
            mask: 0x1ee,
        };
        assert!(r.is_rare(5, 0));
        assert!(!r.is_rare(5, 2));
        let d = SparseSpace {
            kind: SparseKind::Domain { k: 3 },
            mask: 1,
        };
        // heap 3: (n - k) even, so even-popcount values are sparse
        assert!(d.is_rare(3, 0) && !d.is_rare(3, 1));
        assert!(!d.is_rare(4, 0) && d.is_rare(4, 1));
    }

    #[test]
    fn table_edits_and_fingerprint() {
        let s = SparseSpace {
            kind: SparseKind::Range,
            mask: 3,
        };
        let mut t = RareTable::from_entries(vec![(5, 3), (1, 0), (5, 0)]);
        assert_eq!(t.entries(), &[(1, 0), (5, 0)]);
        let f = t.fingerprint(&s);
        t.set(9, Some(6));
        assert_eq!(t.get(9), Some(6));
        assert_ne!(t.fingerprint(&s), f);
        t.set(9, None);
        assert_eq!(t.fingerprint(&s), f);
        assert_eq!(t.last_heap(), 5);
    }
}

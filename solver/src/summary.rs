//! The standard summary of a run's values, in the style of the literature: the largest value
//! and where it first occurs, the P-positions, the sparse heaps, and the `fnv1a64` fingerprint.

use octal_core::fnv::Fnv1a64;
use octal_core::SparseSpace;

/// Statistics of the values of heaps `0..n`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    pub n: usize,
    pub fnv1a64: u64,
    pub max_value: u16,
    pub max_value_at: usize,
    pub p_positions: usize,
    pub last_p_position: usize,
    /// Sparse heaps under the run's space: (count, last heap, its value).
    pub rare: Option<(usize, usize, u16)>,
}

impl Summary {
    pub fn of(values: &[u16], space: Option<&SparseSpace>) -> Summary {
        let mut h = Fnv1a64::new();
        let mut s = Summary {
            n: values.len(),
            fnv1a64: 0,
            max_value: 0,
            max_value_at: 0,
            p_positions: 0,
            last_p_position: 0,
            rare: space.map(|_| (0, 0, 0)),
        };
        for (n, &v) in values.iter().enumerate() {
            h.write_value(v);
            if v > s.max_value {
                (s.max_value, s.max_value_at) = (v, n);
            }
            if v == 0 {
                s.p_positions += 1;
                s.last_p_position = n;
            }
            if let (Some(space), Some(r)) = (space, s.rare.as_mut()) {
                if space.is_rare(n, v) {
                    *r = (r.0 + 1, n, v);
                }
            }
        }
        s.fnv1a64 = h.finish();
        s
    }
}

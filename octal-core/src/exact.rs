//! The exact reference engine: the definition itself. G(n) is the mex of the values of every
//! option of a heap of n, found by marking all of them in a stamped set. O(n^2); it is the
//! oracle that every faster engine is tested against, and it computes the first heaps that the
//! sparse-space discovery looks at.

use crate::code::Rules;

/// A value would not fit in 16 bits (no octal game known gets near this).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("G({heap}) exceeds 65535: values wider than 16 bits are not supported")]
pub struct ValueOverflow {
    pub heap: usize,
}

/// The stamp of a [`Marks`] entry: a byte, so that the entries several sets touch at once stay
/// in the first-level cache (eight sets of values below 2^11 in 16 KiB); a set is cleared in full
/// once every 255 times it is emptied (64 KiB, a quarter of a byte a value for each emptying).
pub type Stamp = u8;

/// A set of small integers that is emptied in O(1): an entry is in the set when its stamp is the
/// current one. Used for mex computations over option values.
pub struct Marks {
    stamps: Box<[Stamp; 1 << 16]>,
    stamp: Stamp,
}

impl Default for Marks {
    fn default() -> Self {
        let stamps: Box<[Stamp]> = vec![0; 1 << 16].into_boxed_slice();
        Marks {
            stamps: stamps.try_into().expect("2^16 stamps"),
            stamp: 0,
        }
    }
}

impl Marks {
    /// Empties the set.
    #[inline]
    pub fn clear(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.stamps.fill(0);
            self.stamp = 1;
        }
    }

    #[inline]
    pub fn insert(&mut self, v: u16) {
        // `stamps` has 2^16 entries: every u16 is in range, and the check compiles away.
        self.stamps[v as usize] = self.stamp;
    }

    #[inline]
    pub fn contains(&self, v: u16) -> bool {
        self.stamps[v as usize] == self.stamp
    }

    /// The stamps and the current stamp: value v is in the set when `stamps[v]` is the stamp
    /// (a loop that inserts into several sets at once keeps them in registers).
    #[inline]
    pub fn stamps(&mut self) -> (&mut [Stamp; 1 << 16], Stamp) {
        (&mut self.stamps, self.stamp)
    }

    /// The least value not in the set, or `None` when all 2^16 are.
    pub fn mex(&self) -> Option<u16> {
        self.stamps
            .iter()
            .position(|&s| s != self.stamp)
            .map(|v| v as u16)
    }
}

thread_local! {
    static THREAD_MARKS: std::cell::RefCell<Marks> = std::cell::RefCell::new(Marks::default());
}

/// Runs `f` with this thread's own `Marks` (allocated once per thread, not per use).
pub fn with_marks<T>(f: impl FnOnce(&mut Marks) -> T) -> T {
    THREAD_MARKS.with(|m| f(&mut m.borrow_mut()))
}

/// Marks the values of the options of a heap of `n` that leave at most one heap (whole moves
/// and single heaps), given the value `g(h)` of every heap `h` below `n` it reads (at most the
/// code's last digit back).
#[inline]
pub fn mark_single_options(rules: &Rules, g: impl Fn(usize) -> u16, n: usize, marks: &mut Marks) {
    for &i in &rules.whole {
        if n == i {
            marks.insert(0);
        }
    }
    for &i in &rules.single {
        if n > i {
            marks.insert(g(n - i));
        }
    }
}

/// Marks the value of every option of a heap of `n` (given `g[0..n]`), then returns the mex.
pub fn value_of(
    rules: &Rules,
    g: &[u16],
    n: usize,
    marks: &mut Marks,
) -> Result<u16, ValueOverflow> {
    marks.clear();
    mark_single_options(rules, |h| g[h], n, marks);
    for &i in &rules.breaking {
        if n >= i + 2 {
            // The splits h = a + (h - a), 1 <= a <= h / 2.
            let h = n - i;
            mark_splits(marks, &g[1..=h / 2], &g[h - h / 2..h]);
        }
    }
    marks.mex().ok_or(ValueOverflow { heap: n })
}

/// Marks `low[k] ^ high[high.len() - 1 - k]` for every k: the splits (a, s - a) for a over
/// `low`'s heaps, `high` holding the heaps s - a in increasing order.
#[inline]
pub fn mark_splits(marks: &mut Marks, low: &[u16], high: &[u16]) {
    debug_assert_eq!(low.len(), high.len());
    // Sixteen splits at a time: one vector load of each side, the xor and the stores unrolled
    // (1.2-1.3x the loop split by split).
    let mut lows = low.chunks_exact(16);
    let mut highs = high.rchunks_exact(16);
    for (x, y) in (&mut lows).zip(&mut highs) {
        let (x, y): (&[u16; 16], &[u16; 16]) = (x.try_into().unwrap(), y.try_into().unwrap());
        for (&a, &b) in x.iter().zip(y.iter().rev()) {
            marks.insert(a ^ b);
        }
    }
    for (&x, &y) in lows.remainder().iter().zip(highs.remainder().iter().rev()) {
        marks.insert(x ^ y);
    }
}

/// Extends `g` with exact values until it holds heaps `0..n`.
pub fn extend(rules: &Rules, g: &mut Vec<u16>, n: usize) -> Result<(), ValueOverflow> {
    let mut marks = Marks::default();
    g.reserve(n.saturating_sub(g.len()));
    while g.len() < n {
        let v = value_of(rules, g, g.len(), &mut marks)?;
        g.push(v);
    }
    Ok(())
}

/// The exact values of heaps `0..n`.
pub fn values(rules: &Rules, n: usize) -> Result<Vec<u16>, ValueOverflow> {
    let mut g = Vec::new();
    extend(rules, &mut g, n)?;
    Ok(g)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::Code;

    fn g(code: &str, n: usize) -> Vec<u16> {
        values(&code.parse::<Code>().unwrap().rules(), n).unwrap()
    }

    #[test]
    fn nim_like_and_trivial_games() {
        // .3: take one token, always leaving one heap or none: values alternate.
        assert_eq!(g(".3", 6), vec![0, 1, 0, 1, 0, 1]);
        // 0.0 has no move at all.
        assert_eq!(g("0.0", 5), vec![0; 5]);
        // .333: take 1-3 tokens: n mod 4.
        assert_eq!(g(".333", 9), vec![0, 1, 2, 3, 0, 1, 2, 3, 0]);
        // 4.0: split a heap into two nonempty heaps.
        assert_eq!(g("4.0", 6), vec![0, 0, 1, 0, 1, 0]);
    }

    /// A set emptied past its stamps' wrap holds what was inserted since, and nothing before.
    #[test]
    fn marks_empty_across_the_stamps_wrap() {
        let mut m = Marks::default();
        for round in 0..3 * usize::from(Stamp::MAX) {
            m.clear();
            assert!(
                !m.contains(round as u16) && !m.contains(round as u16 + 1),
                "round {round}"
            );
            m.insert(round as u16 + 1);
            m.insert(0);
            assert!(m.contains(round as u16 + 1) && m.contains(0));
            assert_eq!(m.mex(), Some(if round == 0 { 2 } else { 1 }));
        }
    }

    proptest::proptest! {
        /// The unrolled marking marks the xor of each split's two parts, and nothing else, for
        /// every length (whole groups of sixteen and the rest).
        #[test]
        fn mark_splits_marks_each_split(pairs in proptest::collection::vec((0u16..512, 0u16..512), 0..80)) {
            let (low, high): (Vec<u16>, Vec<u16>) = pairs.iter().copied().unzip();
            let high: Vec<u16> = high.into_iter().rev().collect();
            let mut m = Marks::default();
            m.clear();
            mark_splits(&mut m, &low, &high);
            let want: std::collections::HashSet<u16> = pairs.iter().map(|&(a, b)| a ^ b).collect();
            for v in 0..512u16 {
                proptest::prop_assert_eq!(m.contains(v), want.contains(&v), "value {}", v);
            }
        }
    }

    #[test]
    fn marks_mex() {
        let mut m = Marks::default();
        m.clear();
        for v in [0, 1, 3] {
            m.insert(v);
        }
        assert_eq!(m.mex(), Some(2));
        m.clear();
        assert_eq!(m.mex(), Some(0));
    }
}

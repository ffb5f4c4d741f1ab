//! What a run holds of its values ([`Kept`]): every heap from 0, or, for a run that keeps only
//! what going on needs, the first heaps (the front) and the last ones (the tail). Proofs read
//! the front for the smaller part of a split and the tail for the larger one; a heap neither
//! holds is not there to read, and a caller that needs one says so instead of guessing.

use std::ops::Range;

/// The values of heaps `0..len()` that a run holds: heaps `0..front.len()` and
/// `base..base + tail.len()` (all of them where `base` is 0).
#[derive(Debug, Clone, Copy)]
pub struct Kept<'a> {
    front: &'a [u16],
    tail: &'a [u16],
    base: usize,
}

impl<'a> Kept<'a> {
    /// Every value of heaps `0..g.len()`.
    pub fn whole(g: &'a [u16]) -> Kept<'a> {
        Kept {
            front: g,
            tail: g,
            base: 0,
        }
    }

    /// Heaps `0..front.len()` and `base..base + tail.len()`.
    pub fn new(front: &'a [u16], tail: &'a [u16], base: usize) -> Kept<'a> {
        Kept { front, tail, base }
    }

    /// Heaps in all (the first one not held is `len()`).
    pub fn len(&self) -> usize {
        self.base + self.tail.len()
    }

    /// Whether no heap is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The first heap of the tail.
    pub fn base(&self) -> usize {
        self.base
    }

    /// The values of heaps `0..front().len()`: the smaller parts of splits a proof may read.
    pub fn front(&self) -> &'a [u16] {
        self.front
    }

    /// The values of heaps `base()..len()`.
    pub fn tail(&self) -> &'a [u16] {
        self.tail
    }

    /// Every value, where every one is held (and proofs may read any of them).
    pub fn whole_slice(&self) -> Option<&'a [u16]> {
        (self.base == 0 && self.front.len() >= self.tail.len()).then_some(self.tail)
    }

    /// The value of heap `h`, where it is held.
    #[inline]
    pub fn get(&self, h: usize) -> Option<u16> {
        if h >= self.base {
            self.tail.get(h - self.base).copied()
        } else {
            self.front().get(h).copied()
        }
    }

    /// The value of heap `h`, which the caller knows is held (within the tail's reach of the
    /// run's last heap, or in the front).
    #[inline]
    pub fn at(&self, h: usize) -> u16 {
        self.get(h).unwrap_or_else(|| {
            panic!(
                "heap {h} is not held (front {}, tail from {})",
                self.front().len(),
                self.base
            )
        })
    }

    /// The values of `heaps`, where one part of what is held holds them all.
    pub fn range(&self, heaps: Range<usize>) -> Option<&'a [u16]> {
        if heaps.start >= self.base {
            self.tail
                .get(heaps.start - self.base..heaps.end - self.base)
        } else {
            self.front().get(heaps)
        }
    }

    /// The largest value held (0 for none).
    pub fn max_value(&self) -> u16 {
        let max = |g: &[u16]| g.iter().copied().max().unwrap_or(0);
        match self.whole_slice() {
            Some(all) => max(all),
            None => max(self.front).max(max(self.tail)),
        }
    }

    /// What is held of heaps `0..n` (`n` at least `base()`).
    pub fn to(&self, n: usize) -> Kept<'a> {
        assert!(
            n >= self.base && n <= self.len(),
            "heaps 0..{n} of a run held from {}",
            self.base
        );
        let tail = &self.tail[..n - self.base];
        Kept {
            front: if self.front.len() > n {
                &self.front[..n]
            } else {
                self.front
            },
            tail,
            base: self.base,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bounded_run_holds_its_front_and_its_tail() {
        let g: Vec<u16> = (0..100).collect();
        let kept = Kept::new(&g[..10], &g[60..], 60);
        assert_eq!(kept.len(), 100);
        assert_eq!(
            (
                kept.get(3),
                kept.get(10),
                kept.get(59),
                kept.get(60),
                kept.get(99)
            ),
            (Some(3), None, None, Some(60), Some(99))
        );
        assert_eq!(kept.range(2..5), Some(&g[2..5]));
        assert_eq!(kept.range(70..80), Some(&g[70..80]));
        assert_eq!(kept.range(5..15), None);
        assert_eq!(kept.to(70).len(), 70);
        assert!(kept.whole_slice().is_none());
        let whole = Kept::whole(&g);
        assert_eq!(whole.front().len(), 100);
        assert_eq!(whole.range(5..15), Some(&g[5..15]));
        assert_eq!(whole.whole_slice(), Some(&g[..]));
    }
}

//! The values a run holds while it computes ([`RunValues`]): every heap from 0 (a run that keeps
//! its values), or, once a run holds only what going on needs, its first heaps (the front), its
//! last ones (a window that slides as heaps are added) and the rare heaps of the values it no
//! longer holds. Heaps are numbered as in the game throughout; engines read them through
//! [`Kept`], which says which heaps are held.

use crate::values::{ValueStore, ValuesError};
use octal_core::{Kept, RareTable, SparseSpace};
use std::ops::Range;

/// A run's values: see the module documentation.
pub struct RunValues {
    /// Heaps `base..base + window.len()`.
    window: ValueStore,
    base: usize,
    /// Once bounded: heaps `0..front.len()`, and what slides.
    bounded: Option<Bounded>,
    /// Heaps below this have been shown to the run's watcher: the window drops none it has not.
    seen: usize,
}

/// What a bounded run holds besides its window.
struct Bounded {
    front: Vec<u16>,
    /// The heaps the window keeps at least when it slides.
    tail: usize,
    /// The run's space and the rare heaps under it among every value, held or not.
    space: SparseSpace,
    table: RareTable,
    /// The largest value of every heap seen.
    max: u16,
}

impl RunValues {
    /// A run that keeps every value, in `store` (heaps `0..store.len()`).
    pub fn whole(store: ValueStore) -> RunValues {
        RunValues {
            window: store,
            base: 0,
            bounded: None,
            seen: 0,
        }
    }

    /// A bounded run resumed: its `front` (heaps `0..front.len()`), `window` holding heaps
    /// `base..`, sliding to keep at least `tail` heaps, the rare heaps `table` of every value
    /// under `space`, and the largest value of all `max`.
    pub fn resumed(
        front: Vec<u16>,
        (window, base): (ValueStore, usize),
        tail: usize,
        (space, table): (SparseSpace, RareTable),
        max: u16,
    ) -> RunValues {
        RunValues {
            seen: base + window.len(),
            window,
            base,
            bounded: Some(Bounded {
                front,
                tail,
                space,
                table,
                max,
            }),
        }
    }

    /// Heaps in all: the first heap not computed.
    pub fn len(&self) -> usize {
        self.base + self.window.len()
    }

    /// Whether no heap is computed.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// What the run holds.
    pub fn kept(&self) -> Kept<'_> {
        match &self.bounded {
            Some(b) => Kept::new(&b.front, &self.window, self.base),
            None => Kept::whole(&self.window),
        }
    }

    /// Every value, for a run that keeps them all.
    pub fn all(&self) -> Option<&[u16]> {
        self.bounded.is_none().then_some(&self.window[..])
    }

    /// The store of every value, for a run that keeps them all.
    pub fn whole_mut(&mut self) -> Option<&mut ValueStore> {
        self.bounded.is_none().then_some(&mut self.window)
    }

    /// The space and rare table of a bounded run (the rare heaps among every value).
    pub fn rare(&self) -> Option<(SparseSpace, &RareTable)> {
        self.bounded.as_ref().map(|b| (b.space, &b.table))
    }

    /// The largest value of every heap seen, for a bounded run (its values are not all held).
    pub fn max_value(&self) -> Option<u16> {
        self.bounded.as_ref().map(|b| b.max)
    }

    /// Heaps the window keeps at least, for a bounded run.
    pub fn tail(&self) -> Option<usize> {
        self.bounded.as_ref().map(|b| b.tail)
    }

    /// Takes the space of a bounded run to `space`, which classes every value as its own does.
    pub fn widen(&mut self, space: SparseSpace) {
        if let Some(b) = &mut self.bounded {
            b.space = space;
        }
    }

    /// From now on holds only the first `front` heaps and at least the last `tail` (the rare heaps
    /// of every value under `space`, `table`, kept beside them): the memory a run takes stops
    /// growing. Every value must be held when this is called; the window drops the heaps before
    /// its last `tail` once the run's watcher has seen them ([`RunValues::seen`]).
    pub fn bound(&mut self, front: usize, tail: usize, space: SparseSpace, table: RareTable) {
        assert!(self.bounded.is_none(), "bounded once");
        let front = self.window[..front.min(self.window.len())].to_vec();
        self.seen = self.window.len();
        let max = self.window.iter().copied().max().unwrap_or(0);
        self.bounded = Some(Bounded {
            front,
            tail,
            space,
            table,
            max,
        });
    }

    /// Gives back the room of the heaps the window no longer holds (the memory or the disk of
    /// every heap before the bound).
    pub fn shrink(&mut self) -> Result<(), ValuesError> {
        self.window.shrink_to_fit()
    }

    /// Gives a bounded run the front `front` (the values of heaps `0..front.len()`, which extend
    /// its own) and a tail of at least `tail` heaps from here (the window grows to it).
    pub fn reframe(&mut self, front: Vec<u16>, tail: usize) {
        let b = self.bounded.as_mut().expect("a bounded run");
        debug_assert!(front.starts_with(&b.front));
        (b.front, b.tail) = (front, tail.max(b.tail));
    }

    /// Whether the run holds its last `heaps` heaps and keeps at least that many as it goes on
    /// (the reads of a proof after its last rare heap): always where it holds every value.
    pub fn holds_back(&self, heaps: usize) -> bool {
        self.bounded
            .as_ref()
            .is_none_or(|b| b.tail >= heaps && self.held_back(heaps))
    }

    /// Whether every one of the last `heaps` heaps is held now.
    fn held_back(&self, heaps: usize) -> bool {
        let front = self.bounded.as_ref().map_or(usize::MAX, |b| b.front.len());
        self.len().saturating_sub(heaps) >= self.base || front >= self.base
    }

    /// From now on keeps at least the last `heaps` heaps where the run is bounded; whether it
    /// holds all of them now (else [`RunValues::refill`] gives them).
    pub fn keep_back(&mut self, heaps: usize) -> bool {
        if let Some(b) = &mut self.bounded {
            b.tail = b.tail.max(heaps);
        }
        self.held_back(heaps)
    }

    /// Gives a bounded run every value again, `all` (heaps `0..len()`, equal to the ones it
    /// holds): the window takes the last `tail` of them, and the rare heaps and the largest value
    /// are those of every value its watcher has seen.
    pub fn refill(&mut self, all: &[u16]) -> Result<(), ValuesError> {
        let len = self.len();
        let b = self.bounded.as_mut().expect("a bounded run");
        assert_eq!(all.len(), len, "every value of the run");
        let seen = &all[..self.seen.min(len)];
        b.table = RareTable::from_values(&b.space, seen);
        b.max = seen.iter().copied().max().unwrap_or(0);
        let base = len.saturating_sub(b.tail).min(self.base);
        self.window.clear();
        self.window.extend_from_slice(&all[base..])?;
        self.base = base;
        Ok(())
    }

    /// Notes that the run's watcher has seen heaps below `upto`, all proved: a bounded run's
    /// table takes the rare heaps among them (a heap whose every option the run reads, proved
    /// exactly, may be one).
    pub fn seen(&mut self, upto: usize) {
        let upto = upto.min(self.len());
        if let Some(b) = &mut self.bounded {
            let from = self.seen.max(self.base);
            if upto > from {
                let new = &self.window[from - self.base..upto - self.base];
                b.table.extend_from(&b.space, from, new);
                b.max = new.iter().copied().fold(b.max, u16::max);
            }
        }
        self.seen = self.seen.max(upto);
        if self.window.len() > 2 * self.bounded.as_ref().map_or(usize::MAX / 2, |b| b.tail) {
            self.slide();
        }
    }

    /// Drops the heaps of the window before the last `tail` ones that the watcher has seen.
    fn slide(&mut self) {
        let Some(b) = &self.bounded else { return };
        let keep_from = self.seen.saturating_sub(b.tail).max(self.base);
        let drop = keep_from - self.base;
        if drop == 0 {
            return;
        }
        let len = self.window.len();
        self.window.copy_within(drop..len, 0);
        self.window.truncate(len - drop);
        self.base = keep_from;
    }

    pub fn push(&mut self, value: u16) -> Result<(), ValuesError> {
        self.window.push(value)
    }

    pub fn extend_from_slice(&mut self, values: &[u16]) -> Result<(), ValuesError> {
        self.window.extend_from_slice(values)
    }

    /// Sets the length to `len` heaps (at least the first one held in the window), filling new
    /// places with `value`.
    pub fn resize(&mut self, len: usize, value: u16) -> Result<(), ValuesError> {
        assert!(len >= self.base, "heaps before {} are not held", self.base);
        self.window.resize(len - self.base, value)
    }

    /// Keeps heaps `0..len` (`len` at least the first one held in the window).
    pub fn truncate(&mut self, len: usize) {
        assert!(len >= self.base, "heaps before {} are not held", self.base);
        self.window.truncate(len - self.base);
        self.seen = self.seen.min(len);
    }

    /// What is held of heaps `0..at`, and heaps `at..len()` to fill in.
    pub fn split_at_mut(&mut self, at: usize) -> (Kept<'_>, &mut [u16]) {
        let (done, rest) = self.window.split_at_mut(at - self.base);
        let kept = match &self.bounded {
            Some(b) => Kept::new(&b.front, done, self.base),
            None => Kept::whole(done),
        };
        (kept, rest)
    }

    /// Heaps `heaps` (held in the window) to fill in.
    pub fn range_mut(&mut self, heaps: Range<usize>) -> &mut [u16] {
        &mut self.window[heaps.start - self.base..heaps.end - self.base]
    }

    /// The store of the window, for a run that keeps every value (where it is every value).
    pub fn into_store(self) -> ValueStore {
        self.window
    }
}

impl std::fmt::Debug for RunValues {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunValues")
            .field("len", &self.len())
            .field("base", &self.base)
            .field("front", &self.bounded.as_ref().map(|b| b.front.len()))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use octal_core::SparseKind;

    /// 10,000 values, their space, and a run of the first 3000 bounded to a front of 500 heaps
    /// and a tail of 1000.
    fn bounded_at_3000() -> (Vec<u16>, SparseSpace, RunValues) {
        let g: Vec<u16> = (0..10_000u32).map(|i| (i * 7 % 61) as u16).collect();
        let space = SparseSpace {
            kind: SparseKind::Range,
            mask: 0x3,
        };
        let mut v = RunValues::whole(ValueStore::memory());
        v.extend_from_slice(&g[..3000]).unwrap();
        v.seen(3000);
        v.bound(500, 1000, space, RareTable::from_values(&space, &g[..3000]));
        (g, space, v)
    }

    /// A bounded run holds its front, slides its window past what the watcher has seen, keeps
    /// at least its tail, and keeps the rare heaps of every value.
    #[test]
    fn a_bounded_run_holds_its_front_and_a_sliding_tail() {
        let (g, space, mut v) = bounded_at_3000();
        assert_eq!(
            v.rare().unwrap().1,
            &RareTable::from_values(&space, &g[..3000])
        );
        assert!(v.all().is_none());
        for chunk in g[3000..].chunks(300) {
            let at = v.len();
            v.resize(at + chunk.len(), 0).unwrap();
            v.range_mut(at..at + chunk.len()).copy_from_slice(chunk);
            let kept = v.kept();
            assert_eq!(kept.front(), &g[..500]);
            assert_eq!(
                kept.range(kept.base()..kept.len()),
                Some(&g[kept.base()..kept.len()])
            );
            assert!(kept.len() - kept.base() >= 1000.min(kept.len()));
            assert!(kept.base() <= at, "nothing unseen was dropped");
            v.seen(v.len());
        }
        assert_eq!(v.len(), g.len());
        assert!(v.kept().base() > 3000, "the window slid");
        assert!(v.kept().tail().len() <= 2 * 1000 + 300);
    }

    /// A bounded run whose window has slid holds only its last heaps: asked to keep more, it
    /// says it lacks them until it is refilled with every value, then holds and keeps them.
    #[test]
    fn a_run_asked_to_keep_more_than_it_holds_is_refilled() {
        let (g, space, mut v) = bounded_at_3000();
        v.extend_from_slice(&g[3000..]).unwrap();
        v.seen(v.len());
        assert!(v.holds_back(1000));
        assert!(!v.holds_back(5000), "the tail is shorter");
        assert!(!v.keep_back(5000), "heaps 5000.. are not all held");
        assert_eq!(v.tail(), Some(5000));
        v.refill(&g).unwrap();
        assert!(v.holds_back(5000));
        let kept = v.kept();
        assert_eq!(kept.front(), &g[..500]);
        assert_eq!(kept.range(5000..10_000), Some(&g[5000..]));
        assert_eq!(v.rare().unwrap().1, &RareTable::from_values(&space, &g));
    }
}

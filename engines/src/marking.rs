//! The marking engine: exact values a batch of heaps at a time, the bulk of each heap's work in
//! parallel, for stretches where rare values come too often for speculation to pay.
//!
//! For a batch of heaps N .. N + B, the options of a heap whose parts all lie below N ("far")
//! read only final values, so every heap of the batch marks them at once, one heap per task.
//! Two markings:
//!
//! * **Exact**: every far split, the definition itself.
//! * **Classic** (a sparse space): the common values of far splits through the rare heaps below
//!   N, then the far splits in order until every rare-class value below the heap's first free
//!   common value is found (or the splits run out), as the classic rare-value algorithm does;
//!   where the near options take that value, the rest of the far splits are read for the
//!   rare-class values below the next.
//!
//! Each heap keeps the first few values its far options leave free (and, for the classic
//! marking, the rare-class values below them that no far split gave). Then, heap after heap, the
//! near options (single heaps, whole moves, splits with a part in the batch: fewer than B + t)
//! are marked and the value is the least free one they leave; a heap whose free values the near
//! options all take is computed by the definition. Every value is exact; the order of the work
//! changes nothing.
//!
//! The classic marking reads each rare heap once for eight consecutive heaps, whose other parts lie
//! side by side. Beside a device ([`BlockMarker`]) a batch is computed there whole, by exact
//! marking: every split of every heap, the values alone coming back.

use crate::stretch::{BlockMarker, Ended, Engine, EngineError, Stretch, StretchEngine};
use octal_core::exact::{self, mark_splits, Marks};
use octal_core::{Rules, SparseSpace};
use octal_store::values::ValueStore;
use rayon::prelude::*;
use std::ops::Range;

/// Free values kept per heap (the near options take the first ones only rarely).
const FREE: usize = 4;

/// Heaps whose options through the rare heaps the classic marking marks together.
const GROUP: usize = 8;

thread_local! {
    /// A set of values for each heap of a group, always cleared together (so one stamp).
    static GROUP_MARKS: std::cell::RefCell<[Marks; GROUP]> =
        std::cell::RefCell::new(std::array::from_fn(|_| Marks::default()));
}

/// How a batch marks the far options of its heaps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Marking {
    /// Every far split (no sparse space, or rare values too common for one to pay).
    Exact,
    /// Through the rare heaps of this space, then splits until the rare values are covered.
    Classic(SparseSpace),
}

/// What the far options of one heap leave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Far {
    /// The least values of the heap's (common) class that no far option takes, increasing;
    /// `u32::MAX` past the last.
    free: [u32; FREE],
    /// Of the classic marking: the rare-class values below `free[0]` that no far split gives
    /// (all far splits were scanned when there are any), increasing, `u32::MAX` past the last.
    missing: [u32; FREE],
    /// More rare-class values are missing than `missing` holds.
    overflow: bool,
    /// Of the classic marking: the rare-class values from `free[0]` to below `free[1]` that
    /// neither the options through rare heaps nor the first `scanned` far splits of each breaking
    /// digit give, increasing, `u32::MAX` past the last. The near options need them only where
    /// they take `free[0]`; then the rest of the far splits are read for them.
    pending: [u32; FREE],
    /// More rare-class values are pending than `pending` holds.
    pending_overflow: bool,
    /// Far splits of each breaking digit read, in split order from the least part.
    scanned: usize,
}

impl Far {
    /// What the far options of a heap leave under the classic marking: its first free common
    /// values `free`, and of the rare-class values `rare` (increasing; any of them found already
    /// may be left out) the ones `not_given` says no far option read so far gives, below
    /// `free[0]` (missing) and from there to `free[1]` (pending), `scanned` far splits of each
    /// breaking digit read.
    fn classic(
        free: [u32; FREE],
        rare: impl Iterator<Item = u32>,
        not_given: impl Fn(u32) -> bool,
        scanned: usize,
    ) -> Far {
        let mut rare = rare
            .take_while(|&v| v < free[1])
            .filter(|&v| not_given(v))
            .peekable();
        let (missing, overflow) = first_few(std::iter::from_fn(|| rare.next_if(|&v| v < free[0])));
        let (pending, pending_overflow) = first_few(rare.skip_while(|&v| v < free[0]));
        Far {
            free,
            missing,
            overflow,
            pending,
            pending_overflow,
            scanned,
        }
    }

    /// What the far options of a heap leave where the classic marking does not apply (exact
    /// marking: every far split read).
    fn exact(free: [u32; FREE]) -> Far {
        Far {
            free,
            missing: [u32::MAX; FREE],
            overflow: false,
            pending: [u32::MAX; FREE],
            pending_overflow: false,
            scanned: usize::MAX,
        }
    }
}

/// The values `values` yields, at most [`FREE`] of them: the array (`u32::MAX` past the last)
/// and whether there were more.
fn first_few(values: impl Iterator<Item = u32>) -> ([u32; FREE], bool) {
    let mut out = [u32::MAX; FREE];
    for (k, v) in values.enumerate() {
        if k == FREE {
            return (out, true);
        }
        out[k] = v;
    }
    (out, false)
}

/// The far splits of breaking digit `i` of heap `h` before a batch starting at `start`: the
/// parts a of h - i = a + b with a <= b < start, as `(lo, hi)`, if any.
fn far_splits(h: usize, i: usize, start: usize) -> Option<(usize, usize)> {
    let s = h.checked_sub(i)?;
    let lo = (s + 1).saturating_sub(start).max(1);
    (lo <= s / 2).then_some((lo, s / 2))
}

/// The marking engine for one game: the rare heaps found so far (classic marking) and the
/// rare-class values of each heap parity.
pub struct MarkingEngine<'a> {
    rules: &'a Rules,
    marking: Marking,
    /// Rare heaps (heap >= 1) below the next batch, with their values, packed as
    /// `heap << 16 | value` ([`pack`]): half the bytes the marking streams a heap.
    rare: Vec<u64>,
    /// Rare-class values in increasing order, for heaps of rare parity 0 and 1.
    rare_values: [Vec<u16>; 2],
    /// Heaps computed by the definition because the near options took every free value.
    pub fallbacks: usize,
    /// The last stretch's batches were computed elsewhere (the device).
    on_device: bool,
}

impl<'a> MarkingEngine<'a> {
    /// An engine continuing after the exact values `g`.
    pub fn new(rules: &'a Rules, marking: Marking, g: &[u16]) -> Self {
        let (rare, rare_values) = match marking {
            Marking::Exact => (Vec::new(), [Vec::new(), Vec::new()]),
            Marking::Classic(space) => {
                let rare = (1..g.len())
                    .filter(|&n| space.is_rare(n, g[n]))
                    .map(|n| pack(n, g[n]))
                    .collect();
                (rare, [space.rare_values(0), space.rare_values(1)])
            }
        };
        MarkingEngine {
            rules,
            marking,
            rare,
            rare_values,
            fallbacks: 0,
            on_device: false,
        }
    }

    /// The marking this engine uses.
    pub fn marking(&self) -> Marking {
        self.marking
    }

    /// The size of the batch starting at heap `start`: the near options of a heap number at
    /// most the batch's length, so batches stay a small fraction of the heaps before them; larger
    /// where a device computes the batch (launches per batch).
    pub fn batch_len(start: usize, on_device: bool) -> usize {
        if on_device {
            (start / 128).clamp(1024, 4096)
        } else {
            (start / 128).clamp(64, 1024)
        }
    }

    /// Extends `g`, which holds the exact values of heaps `0..g.len()`, by one batch, at most
    /// to `n` heaps. Parallel on the current rayon pool; with `device`, the batch is computed
    /// there.
    pub fn extend_batch(
        &mut self,
        g: &mut ValueStore,
        n: usize,
        device: Option<&mut (dyn BlockMarker + '_)>,
    ) -> Result<(), EngineError> {
        let start = g.len();
        let end = (start + Self::batch_len(start, device.is_some())).min(n);
        if let Some(device) = device {
            if let Some(values) = device.values(g, start..end)? {
                g.extend_from_slice(&values)?;
                self.note_rare(g, start);
                return Ok(());
            }
        }
        let far: Vec<Far> = {
            let head = &g[..];
            let groups: Vec<Vec<Far>> = (start..end)
                .step_by(GROUP)
                .collect::<Vec<_>>()
                .into_par_iter()
                .map(|lo| self.far_heaps(head, lo..(lo + GROUP).min(end)))
                .collect();
            groups.concat()
        };
        g.resize(end, 0)?;
        let (mut near, mut rest) = (Marks::default(), Marks::default());
        for (h, f) in (start..end).zip(&far) {
            let v = match self.near(&g[..h], start, h, f, (&mut near, &mut rest)) {
                Some(v) => v,
                None => {
                    self.fallbacks += 1;
                    exact::value_of(self.rules, &g[..h], h, &mut near)?
                }
            };
            g[h] = v;
        }
        self.note_rare(g, start);
        Ok(())
    }

    /// Adds the rare heaps of `g` from `start` on to the classic marking's list.
    fn note_rare(&mut self, g: &[u16], start: usize) {
        if let Marking::Classic(space) = self.marking {
            self.rare.extend(
                (start.max(1)..g.len())
                    .filter(|&h| space.is_rare(h, g[h]))
                    .map(|h| pack(h, g[h])),
            );
        }
    }

    /// Whether `v` is of the common class at heap `h` (every value is, for the exact marking).
    #[inline]
    fn common(&self, h: usize, v: u32) -> bool {
        match self.marking {
            Marking::Exact => true,
            Marking::Classic(space) => !space.is_rare(h, v as u16),
        }
    }

    /// What the far options of each heap of `heaps` (at most [`GROUP`], parts below `g.len()`)
    /// leave. A full group under the classic marking marks its rare options together: heap
    /// h0 + k reads the other part of a rare heap r at s0 + k - r, so one load of `GROUP` values
    /// serves every heap of the group.
    fn far_heaps(&self, g: &[u16], heaps: Range<usize>) -> Vec<Far> {
        let last_digit = self.rules.breaking.iter().copied().max().unwrap_or(0);
        if heaps.len() < GROUP || heaps.start < last_digit || matches!(self.marking, Marking::Exact)
        {
            return exact::with_marks(|marks| heaps.map(|h| self.far(g, h, marks)).collect());
        }
        GROUP_MARKS.with(|m| {
            let marks = &mut *m.borrow_mut();
            for m in marks.iter_mut() {
                m.clear();
            }
            let start = g.len();
            for &i in &self.rules.breaking {
                let s0 = heaps.start - i;
                let ranges: [Range<usize>; GROUP] =
                    std::array::from_fn(|k| self.rare_range(s0 + k, start));
                // The rare heaps every heap of the group reads (r > s0 + GROUP - 1 - start and
                // r < s0), together; each heap's others alone.
                let lo = ranges.iter().map(|r| r.start).max().unwrap_or(0);
                let hi = ranges.iter().map(|r| r.end).min().unwrap_or(0);
                for (k, (m, r)) in marks.iter_mut().zip(&ranges).enumerate() {
                    if lo < hi {
                        self.mark_rare(g, s0 + k, r.start..lo, m);
                        self.mark_rare(g, s0 + k, hi..r.end, m);
                    } else {
                        self.mark_rare(g, s0 + k, r.clone(), m);
                    }
                }
                let sets = marks.each_mut().map(Marks::stamps);
                let stamp = sets[0].1;
                assert!(
                    sets.iter().all(|s| s.1 == stamp),
                    "group sets cleared together"
                );
                let mut stamps = sets.map(|s| s.0);
                for &e in self.rare.get(lo..hi).unwrap_or_default() {
                    let at = s0 - heap_of(e);
                    let other: &[u16; GROUP] = g[at..at + GROUP].try_into().expect("a group");
                    for (set, &x) in stamps.iter_mut().zip(other) {
                        set[usize::from(x ^ e as u16)] = stamp;
                    }
                }
            }
            heaps
                .zip(marks.iter_mut())
                .map(|(h, m)| self.leave(g, h, m))
                .collect()
        })
    }

    /// The rare heaps (indices into the list) a < s whose other part s - a lies below `start`.
    fn rare_range(&self, s: usize, start: usize) -> Range<usize> {
        let from = self.rare.partition_point(|&e| heap_of(e) + start <= s);
        let to = self.rare.partition_point(|&e| heap_of(e) < s);
        from..to.max(from)
    }

    /// Marks the options through the rare heaps `range` of the list, of splits summing to `s`.
    fn mark_rare(&self, g: &[u16], s: usize, range: Range<usize>, marks: &mut Marks) {
        // Eight at a time (independent loads of the other part: 1.1x one at a time).
        let Some(entries) = self.rare.get(range) else {
            return;
        };
        let mut entries = entries.chunks_exact(8);
        for c in &mut entries {
            for &e in c {
                marks.insert(g[s - heap_of(e)] ^ e as u16);
            }
        }
        for &e in entries.remainder() {
            marks.insert(g[s - heap_of(e)] ^ e as u16);
        }
    }

    /// Marks the far options of heap `h` (parts below `g.len()`) and keeps what they leave.
    fn far(&self, g: &[u16], h: usize, marks: &mut Marks) -> Far {
        let start = g.len();
        marks.clear();
        for &i in &self.rules.breaking {
            let Some(s) = h.checked_sub(i) else { continue };
            match self.marking {
                Marking::Exact => {
                    if let Some((lo, hi)) = far_splits(h, i, start) {
                        mark_splits(marks, &g[lo..=hi], &g[s - hi..=s - lo]);
                    }
                }
                Marking::Classic(_) => self.mark_rare(g, s, self.rare_range(s, start), marks),
            }
        }
        self.leave(g, h, marks)
    }

    /// What the far options of heap `h` leave, its options through rare heaps (classic marking)
    /// or every far split (exact) in `marks`; the classic marking scans the far splits here.
    fn leave(&self, g: &[u16], h: usize, marks: &mut Marks) -> Far {
        let start = g.len();
        let free = first_free(|v| self.common(h, v) && !marks.contains(v as u16));
        let Marking::Classic(space) = self.marking else {
            return Far::exact(free);
        };
        // Scan far splits in order until the rare values below free[0] are all found; the ones
        // from free[0] to free[1] matter only where the near options take free[0], so they are
        // looked for then (`near`).
        let all = &self.rare_values[space.rare_parity(h) as usize];
        let needed = &all[..all.partition_point(|&v| u32::from(v) < free[0])];
        let mut found = 0;
        let mut scanned = 0;
        loop {
            while found < needed.len() && marks.contains(needed[found]) {
                found += 1;
            }
            if found == needed.len() || !self.scan_round(g, start, h, scanned, marks) {
                break;
            }
            scanned += SCAN;
        }
        let rare = all[found..].iter().map(|&v| u32::from(v));
        Far::classic(free, rare, |v| !marks.contains(v as u16), scanned)
    }

    /// Marks the far splits `from .. from + SCAN` (in split order from the least part) of each
    /// breaking digit of heap `h` (parts below `start`, the values `g`): whether there were any.
    fn scan_round(
        &self,
        g: &[u16],
        start: usize,
        h: usize,
        from: usize,
        marks: &mut Marks,
    ) -> bool {
        let mut scanned = false;
        for &i in &self.rules.breaking {
            let Some((lo, hi)) = far_splits(h, i, start) else {
                continue;
            };
            let Some(lo) = lo.checked_add(from).filter(|&lo| lo <= hi) else {
                continue;
            };
            let hi = hi.min(lo + SCAN - 1);
            scanned = true;
            let s = h - i;
            mark_splits(marks, &g[lo..=hi], &g[s - hi..=s - lo]);
        }
        scanned
    }

    /// Of the values `wanted` (increasing), the ones that no far split of heap `h` past the
    /// first `far.scanned` of each breaking digit gives (`g` holds heaps below `h` at least to
    /// the batch's `start`), read with `rest`.
    fn not_given(
        &self,
        g: &[u16],
        (start, h): (usize, usize),
        far: &Far,
        wanted: &[u32],
        rest: &mut Marks,
    ) -> Vec<u32> {
        rest.clear();
        let mut from = far.scanned;
        while !wanted.iter().all(|&v| rest.contains(v as u16))
            && self.scan_round(g, start, h, from, rest)
        {
            from = from.saturating_add(SCAN);
        }
        wanted
            .iter()
            .copied()
            .filter(|&v| !rest.contains(v as u16))
            .collect()
    }

    /// The value of heap `h` from what its far options leave and its near options (`g` holds
    /// heaps `0..h`; the batch started at `start`), or `None` when that does not decide it.
    fn near(
        &self,
        g: &[u16],
        start: usize,
        h: usize,
        far: &Far,
        (marks, rest): (&mut Marks, &mut Marks),
    ) -> Option<u16> {
        marks.clear();
        exact::mark_single_options(self.rules, |b| g[b], h, marks);
        // The splits h - i = a + b with b at or past the batch's start: a <= h - i - start.
        for &i in &self.rules.breaking {
            let Some(s) = h.checked_sub(i) else { continue };
            let hi = (s / 2).min(s.saturating_sub(start));
            if hi >= 1 {
                mark_splits(marks, &g[1..=hi], &g[s - hi..s]);
            }
        }
        let c = *far
            .free
            .iter()
            .find(|&&v| v > u32::from(u16::MAX) || !marks.contains(v as u16))?;
        let classic = matches!(self.marking, Marking::Classic(_));
        if classic && c > far.free[1] {
            // Rare values between free[1] and c were not looked for.
            return None;
        }
        let missing = far
            .missing
            .iter()
            .copied()
            .take_while(|&v| v < c)
            .find(|&v| !marks.contains(v as u16));
        match missing {
            Some(v) => return Some(v as u16),
            None if far.overflow => return None,
            None => {}
        }
        if classic && c > far.free[0] {
            // The near options took free[0]: the rare values from there to c that neither they
            // nor the far splits read so far give are looked for among the rest of the far splits.
            if far.pending_overflow {
                return None;
            }
            let wanted: Vec<u32> = far
                .pending
                .iter()
                .copied()
                .take_while(|&v| v < c)
                .filter(|&v| !marks.contains(v as u16))
                .collect();
            if let Some(&v) = self.not_given(g, (start, h), far, &wanted, rest).first() {
                return Some(v as u16);
            }
        }
        u16::try_from(c).ok()
    }
}

/// Extends the exact values `g` to `n` heaps by the classic marking under `space`, on every
/// core: how discovery grows its range while rare values keep coming.
pub fn grow_by_marking(
    rules: &Rules,
    space: SparseSpace,
    g: &mut Vec<u16>,
    n: usize,
) -> Result<(), EngineError> {
    let mut store = ValueStore::for_heaps(n)?;
    store.extend_from_slice(g)?;
    let mut engine = MarkingEngine::new(rules, Marking::Classic(space), &store);
    while store.len() < n {
        engine.extend_batch(&mut store, n, None)?;
    }
    g.extend_from_slice(&store[g.len()..]);
    Ok(())
}

impl StretchEngine for MarkingEngine<'_> {
    /// Extends the values batch by batch to `s.to` heaps, or until the watcher says stop; the
    /// batches are computed by `s.blocks` where the driver gave one.
    fn extend(&mut self, s: &mut Stretch<'_>) -> Result<Ended, EngineError> {
        self.on_device = s.blocks.is_some();
        let mut stopped = s.watch.proved(s.values.kept())?;
        while !stopped && s.values.len() < s.to {
            let Some(g) = s.values.whole_mut() else {
                return Err(EngineError::NeedsAllValues {
                    engine: self.engine().name(),
                });
            };
            self.extend_batch(g, s.to, s.blocks.as_deref_mut())?;
            stopped = s.watch.proved(s.values.kept())?;
            let len = s.values.len();
            s.values.seen(len);
        }
        Ok(if stopped {
            Ended::Stopped
        } else {
            Ended::Reached
        })
    }

    fn engine(&self) -> Engine {
        match self.marking {
            _ if self.on_device => Engine::Gpu,
            Marking::Exact => Engine::Exact,
            Marking::Classic(_) => Engine::Classic,
        }
    }
}

/// A rare heap and its value as one word: the heap above the value's 16 bits.
fn pack(heap: usize, value: u16) -> u64 {
    (heap as u64) << 16 | u64::from(value)
}

/// The heap of a word made by [`pack`].
#[inline]
fn heap_of(e: u64) -> usize {
    (e >> 16) as usize
}

/// The first [`FREE`] values that are `free` (every value past 2^16 is).
fn first_free(free: impl Fn(u32) -> bool) -> [u32; FREE] {
    let mut first = [u32::MAX; FREE];
    let mut v = 0u32;
    for free_value in first.iter_mut() {
        while v <= u32::from(u16::MAX) && !free(v) {
            v += 1;
        }
        *free_value = v;
        v += 1;
    }
    first
}

/// Far splits scanned between two checks of the rare values still missing.
const SCAN: usize = 512;

#[cfg(test)]
mod tests {
    use super::*;
    use octal_core::{discover, Code};
    use std::ops::Range;

    /// The first 2^14 values of `code` and the sparse space they show.
    fn first_values(code: &str) -> (Rules, Vec<u16>, SparseSpace) {
        let rules = code.parse::<Code>().unwrap().rules();
        let g = exact::values(&rules, 1 << 14).unwrap();
        let (space, _) = discover::best_space(&rules, &g).expect("a mask");
        (rules, g, space)
    }

    /// The classic marking's scan leaves what every far split leaves, heap by heap, past the
    /// first 2^14 heaps of games whose rare values keep coming.
    #[test]
    fn every_far_split_gives_the_classic_marking() {
        for code in [".04", ".114", ".14"] {
            let (rules, g, space) = first_values(code);
            let engine = MarkingEngine::new(&rules, Marking::Classic(space), &g);
            let (mut marks, mut rest) = (Marks::default(), Marks::default());
            let heaps = g.len()..g.len() + 300;
            let (words, sets) = EveryFarSplit(&rules).sets(&g, heaps.clone());
            let listed = |a: &[u32; FREE]| a.iter().copied().filter(|&v| v != u32::MAX).collect();
            for (h, set) in heaps.zip(sets.chunks(words)) {
                let from_all = classic_far(space, h, |v| given(set, v));
                let far = engine.far(&g, h, &mut marks);
                let seen = |f: &Far| (f.free, f.missing, f.overflow);
                assert_eq!(seen(&far), seen(&from_all), "{code} at {h}");
                // The values pending after the scan, looked for among the rest of the far
                // splits, are the ones no far split gives.
                if far.pending_overflow {
                    continue;
                }
                assert!(!from_all.pending_overflow, "{code} at {h}");
                let pending: Vec<u32> = listed(&far.pending);
                let left = engine.not_given(&g, (g.len(), h), &far, &pending, &mut rest);
                assert_eq!(left, listed(&from_all.pending), "{code} at {h}");
            }
        }
    }

    /// A group's options through the rare heaps, marked together, leave what each heap's marked
    /// alone leave, for groups starting at every heap of a batch.
    #[test]
    fn a_group_marks_as_its_heaps_alone() {
        for code in [".04", ".114", ".76"] {
            let (rules, g, space) = first_values(code);
            let engine = MarkingEngine::new(&rules, Marking::Classic(space), &g);
            assert!(
                engine.rare.len() > 100,
                "{code}: {} rare heaps",
                engine.rare.len()
            );
            let mut marks = Marks::default();
            for lo in g.len()..g.len() + 200 {
                let alone: Vec<Far> = (lo..lo + GROUP)
                    .map(|h| engine.far(&g, h, &mut marks))
                    .collect();
                assert_eq!(
                    engine.far_heaps(&g, lo..lo + GROUP),
                    alone,
                    "{code} at {lo}"
                );
            }
        }
    }

    /// What every far split of heap `h` leaves under the classic marking, from `given`, which says
    /// whether some far split gives a value: the first common-class values none gives, and the
    /// rare-class values below the second of them that none gives (every far split read).
    fn classic_far(space: SparseSpace, h: usize, given: impl Fn(u32) -> bool) -> Far {
        let rare = |v: u32| space.is_rare(h, v as u16);
        let free = first_free(|v| !rare(v) && !given(v));
        let rare_class = (0..1 << 16).filter(|&v| rare(v));
        Far::classic(free, rare_class, |v| !given(v), usize::MAX)
    }

    /// Every far split of each heap, as bitsets.
    struct EveryFarSplit<'r>(&'r Rules);

    impl EveryFarSplit<'_> {
        /// Each heap's bitset of the values its far splits give, `words` words a heap.
        fn sets(&self, g: &[u16], heaps: Range<usize>) -> (usize, Vec<u32>) {
            let max = g.iter().copied().max().unwrap_or(0);
            let words = ((1usize << (u16::BITS - max.leading_zeros())) / 32).max(1);
            let mut sets = vec![0u32; heaps.len() * words];
            for (h, set) in heaps.zip(sets.chunks_mut(words)) {
                for &i in &self.0.breaking {
                    let Some(s) = h.checked_sub(i) else { continue };
                    for a in (s + 1).saturating_sub(g.len()).max(1)..=s / 2 {
                        let v = usize::from(g[a] ^ g[s - a]);
                        set[v / 32] |= 1 << (v % 32);
                    }
                }
            }
            (words, sets)
        }
    }

    /// Whether bitset `set` holds value `v` (none past its words).
    fn given(set: &[u32], v: u32) -> bool {
        set.get(v as usize / 32)
            .is_some_and(|w| w >> (v % 32) & 1 == 1)
    }
}

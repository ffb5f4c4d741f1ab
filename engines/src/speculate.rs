//! The speculative engine: candidate values from the rare table alone.
//!
//! It assumes the table lists every rare heap. A heap the table lists gets the table's value;
//! any other heap gets the least common value that is not the value of a common option (a single
//! heap, or a rare heap beside a common one). Near the start (while the options of a heap can
//! reach rare heaps on both sides) a careful loop works on full values and checks classes (a
//! replay of a complete table takes it by batches on every core, [`Speculator::careful_batch`]);
//! past that, the hot loop works on a window of compressed keys (one byte per value when the
//! common values fit) with one load, one xor and one store per rare entry. The verifier proves every
//! candidate; this module never decides what is reported.

use crate::games::UnrolledLoop;
use octal_core::codec::{Codec, LoopTable};
use octal_core::exact::{self, Marks};
use octal_core::{Kept, RareTable, Rules, SparseSpace};
use std::ops::{BitXor, Range};

/// The integer a key of the window is held in: `u8` or `u16`.
pub trait KeyInt: Copy + Default + Send + Sync + 'static + BitXor<Output = Self> {
    /// The most keys the integer holds.
    const KEYS: usize;
    /// Whether the word is one byte (unrolled loops read one-byte windows).
    const BYTE: bool;
    fn from_key(c: u16) -> Self;
    fn index(self) -> usize;

    /// The marks of heaps `at[0 .. GROUP]` from `entries` (each at least [`GROUP`] back), in
    /// 64-bit registers: one bit a key read, each rare entry's key xored in.
    ///
    /// # Safety
    /// Every entry's distance is at least [`GROUP`] and at most what lies in the window before
    /// `at`, and every key read (xored with an entry's) is below 64.
    #[inline(always)]
    unsafe fn group_marks(at: *const Self, entries: &[[u32; 2]]) -> [u64; GROUP] {
        let mut marks = [0u64; GROUP];
        for &[d, c] in entries {
            let back = at.sub(d as usize);
            let key = Self::from_key(c as u16);
            for (j, m) in marks.iter_mut().enumerate() {
                *m |= 1u64 << (*back.add(j) ^ key).index();
            }
        }
        marks
    }

    /// [`KeyInt::group_marks`] where every key read (xored with an entry's) is below 32.
    ///
    /// # Safety
    /// As [`KeyInt::group_marks`], with keys below 32.
    #[inline(always)]
    unsafe fn group_marks32(at: *const Self, entries: &[[u32; 2]]) -> [u64; GROUP] {
        Self::group_marks(at, entries)
    }
}

impl KeyInt for u8 {
    const KEYS: usize = 1 << 8;
    const BYTE: bool = true;
    #[inline]
    fn from_key(c: u16) -> Self {
        c as u8
    }
    #[inline]
    fn index(self) -> usize {
        self as usize
    }

    /// Four lanes of 64 bits at a time: one widening load, one xor, one variable shift and one
    /// or per four heaps and entry.
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    #[inline(always)]
    unsafe fn group_marks(at: *const u8, entries: &[[u32; 2]]) -> [u64; GROUP] {
        use std::arch::x86_64::*;
        let ones = _mm256_set1_epi64x(1);
        let mut m = [_mm256_setzero_si256(); GROUP / 4];
        for &[d, c] in entries {
            let back = at.sub(d as usize);
            let key = _mm256_set1_epi64x(i64::from(c));
            for (q, mq) in m.iter_mut().enumerate() {
                let four = (back.add(4 * q) as *const i32).read_unaligned();
                let keys = _mm256_cvtepu8_epi64(_mm_cvtsi32_si128(four));
                let bits = _mm256_sllv_epi64(ones, _mm256_xor_si256(keys, key));
                *mq = _mm256_or_si256(*mq, bits);
            }
        }
        std::mem::transmute::<[__m256i; GROUP / 4], [u64; GROUP]>(m)
    }

    /// Eight lanes of 32 bits: one widening load, one xor, one variable shift and one or per
    /// eight heaps and entry.
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    #[inline(always)]
    unsafe fn group_marks32(at: *const u8, entries: &[[u32; 2]]) -> [u64; GROUP] {
        use std::arch::x86_64::*;
        const _: () = assert!(GROUP == 8);
        let ones = _mm256_set1_epi32(1);
        let mut m = _mm256_setzero_si256();
        for &[d, c] in entries {
            let back = at.sub(d as usize);
            let eight = (back as *const i64).read_unaligned();
            let keys = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(eight));
            let key = _mm256_set1_epi32(c as i32);
            m = _mm256_or_si256(m, _mm256_sllv_epi32(ones, _mm256_xor_si256(keys, key)));
        }
        std::mem::transmute::<__m256i, [u32; GROUP]>(m).map(u64::from)
    }
}

impl KeyInt for u16 {
    const KEYS: usize = 1 << 16;
    const BYTE: bool = false;
    #[inline]
    fn from_key(c: u16) -> Self {
        c
    }
    #[inline]
    fn index(self) -> usize {
        self as usize
    }
}

/// The key space ran out: a common value needs more bits than the engine was built for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyOverflow {
    pub heap: usize,
}

/// Where the source heaps of the options that the careful loop marks lie.
#[derive(Debug, Clone, Copy)]
enum Sources {
    /// Below this heap (with the whole moves, which have none).
    Before(usize),
    /// Below this heap, the whole moves and single heaps only.
    Singles(usize),
    /// From this heap up to the heap marked.
    From(usize),
}

/// Heaps of one batch of [`Speculator::careful_batch`], and of the sub-batches whose far options
/// one thread marks.
pub const CAREFUL_BATCH: usize = 1024;
const CAREFUL_LANES: usize = 64;

/// Window keys kept beyond the reach before the window is compacted.
const WINDOW_SLACK: usize = 1 << 16;

/// The speculative engine for one sparse space, rare table and key width.
pub struct Speculator<W: KeyInt> {
    rules: Rules,
    space: SparseSpace,
    codec: Codec,
    table: RareTable,
    /// The first heap whose options reach at most one rare heap: the hot loop starts here.
    hot_from: usize,
    /// One entry per breaking digit and rare heap, nearest first: the distance back from n in
    /// the high 48 bits, the key of the rare value in the low 16 (one load per entry).
    entries: Vec<u64>,
    /// Distances back of single-heap options that stay common at n.
    singles: Vec<usize>,
    /// The farthest distance back the hot loop reads.
    reach: usize,
    /// Stamped set of keys (length a power of two, at least the key space).
    seen: Vec<u8>,
    stamp: u8,
    /// Number of keys in use: values below 2 * keys.
    keys: usize,
    window: Vec<W>,
    /// Heap of `window[0]`; the window holds heaps `window_heap .. window_heap + window.len()`.
    window_heap: usize,
    /// The game's unrolled loop, when it was generated for exactly this table.
    unrolled: Option<&'static UnrolledLoop>,
}

impl<W: KeyInt> Speculator<W> {
    /// An engine for `table`, with keys for values below `2^value_bits`. Entries of `table`
    /// whose value is not sparse at their heap are dropped: the engine predicts only rare values,
    /// and the verifier checks each prediction against the full mex. `unrolled`, a game's unrolled
    /// loop, is used only when it was generated for exactly this table and these keys.
    pub fn new(
        rules: &Rules,
        space: SparseSpace,
        table: RareTable,
        value_bits: u32,
        unrolled: Option<&'static UnrolledLoop>,
    ) -> Self {
        let table = table.sparse_only(&space);
        let codec = Codec::new(space);
        let keys = Codec::key_space(value_bits).min(W::KEYS);
        let unrolled = unrolled
            .filter(|k| W::BYTE && keys == 256 && k.fingerprint == table.fingerprint(&space));
        let lt = LoopTable::new(rules, space, &table);
        Speculator {
            rules: rules.clone(),
            space,
            codec,
            hot_from: lt.hot_from,
            table,
            entries: lt
                .entries
                .iter()
                .map(|&(off, key)| ((off as u64) << 16) | u64::from(key))
                .collect(),
            reach: lt.reach(),
            singles: lt.singles,
            seen: vec![0; keys.max(256)],
            stamp: 0,
            keys,
            window: Vec::new(),
            window_heap: 0,
            unrolled,
        }
    }

    /// Takes a new rare heap `n` with value `v` (sparse at `n`, above every heap the table
    /// lists, its key within the engine's key space) into the table and the loop, given the
    /// values `g` of heaps `0..=n`: the entries grow by one per breaking digit, in place, and the
    /// window is cut back to end at `n`. Returns false, changing nothing, for any other heap
    /// (the caller then builds a new engine).
    pub fn add_rare(&mut self, g: Kept<'_>, n: usize, v: u16) -> bool {
        let key = self.codec.encode(v);
        if n < 1
            || n <= self.table.last_heap()
            || !self.space.is_rare(n, v)
            || usize::from(key) >= self.keys
            || g.len() != n + 1
            || g.get(n) != Some(v)
        {
            return false;
        }
        self.table.set(n, Some(v));
        for &i in &self.rules.breaking {
            let e = ((i + n) as u64) << 16 | u64::from(key);
            let at = self.entries.partition_point(|&x| x < e);
            self.entries.insert(at, e);
        }
        self.reach = self
            .reach
            .max(self.entries.last().map_or(0, |e| (e >> 16) as usize));
        self.hot_from = 2 * n + self.rules.t + 1;
        self.unrolled = None;
        // The window holds keys of heaps window_heap ..; keep those below n, then n's.
        if n >= self.window_heap + self.reach && n <= self.window_heap + self.window.len() {
            self.window.truncate(n - self.window_heap);
            self.window.push(W::from_key(key));
        } else {
            self.window.clear();
        }
        true
    }

    /// Whether the hot loop is the game's unrolled one.
    pub fn unrolled(&self) -> bool {
        self.unrolled.is_some()
    }

    pub fn table(&self) -> &RareTable {
        &self.table
    }

    /// Candidate values for heaps `prior.len()..prior.len() + out.len()` into `out`, given the
    /// values `prior` of the heaps before them (the careful loop reads every one, the hot loop
    /// only its reach back).
    pub fn speculate(&mut self, prior: Kept<'_>, out: &mut [u16]) -> Result<(), KeyOverflow> {
        let from = prior.len();
        let end = from + out.len();
        let careful_end = end.min(self.hot_from).max(from);
        match prior.whole_slice() {
            // Every value before them at hand, and enough heaps that the copy of those values
            // costs at most 1024 values a heap: the careful loop's heaps by batches on every core.
            Some(all) if careful_end - from >= CAREFUL_BATCH.max(all.len() / 1024) => {
                let mut before = all.to_vec();
                for batch in out[..careful_end - from].chunks_mut(CAREFUL_BATCH) {
                    self.careful_batch(&before, batch)?;
                    before.extend_from_slice(batch);
                }
            }
            _ => {
                for n in from..careful_end {
                    out[n - from] = self.careful(prior, &out[..n - from], n)?;
                }
            }
        }
        if careful_end < end {
            self.hot(prior, out, careful_end)?;
        }
        Ok(())
    }

    /// One candidate on full values, checking every class: for heaps near the rare ones.
    /// `prior` and `done` hold the values of heaps `0..n` between them.
    fn careful(&mut self, prior: Kept<'_>, done: &[u16], n: usize) -> Result<u16, KeyOverflow> {
        if let Some(v) = self.table.get(n) {
            return Ok(v);
        }
        let g = |b: usize| {
            if b < prior.len() {
                prior.at(b)
            } else {
                done[b - prior.len()]
            }
        };
        exact::with_marks(|marks| self.careful_mex(marks, &g, n))
    }

    /// Candidates for heaps `prior.len() .. prior.len() + out.len()` (at most
    /// [`CAREFUL_BATCH`], all before `hot_from`) into `out`, as [`Speculator::speculate`] gives
    /// them, on the current rayon pool: the options whose source lies before the batch are
    /// marked for sub-batches of its heaps in parallel, entry by entry (the sources of a
    /// sub-batch's heaps are then consecutive), then the heaps one after another with the rest.
    pub fn careful_batch(&self, prior: &[u16], out: &mut [u16]) -> Result<(), KeyOverflow> {
        use rayon::prelude::*;
        let start = prior.len();
        assert!(
            out.len() <= CAREFUL_BATCH && start + out.len() <= self.hot_from,
            "a batch of the careful loop's heaps"
        );
        // Values at or past 2 * keys have keys past the key space: no candidate's marks.
        let limit = 2 * self.keys;
        let words = limit.div_ceil(64);
        let add = |set: &mut [u64], v: u16| {
            if usize::from(v) < limit {
                set[usize::from(v) / 64] |= 1 << (v % 64);
            }
        };
        let mut sets = vec![0u64; words * out.len()];
        let before = |b: usize| prior[b];
        sets.par_chunks_mut(words * CAREFUL_LANES)
            .enumerate()
            .for_each(|(k, lanes)| {
                let first = start + k * CAREFUL_LANES;
                for (j, set) in lanes.chunks_mut(words).enumerate() {
                    self.careful_options(&before, first + j, Sources::Singles(start), &mut |v| {
                        add(set, v)
                    });
                }
                let heaps = first..first + lanes.len() / words;
                self.careful_far(prior, heaps, lanes, limit);
            });
        for (j, set) in sets.chunks_mut(words).enumerate() {
            let n = start + j;
            out[j] = match self.table.get(n) {
                Some(v) => v,
                None => {
                    let here = &out[..j];
                    let g = |b: usize| if b < start { prior[b] } else { here[b - start] };
                    self.careful_options(&g, n, Sources::From(start), &mut |v| add(set, v));
                    let marked = |v: u16| {
                        usize::from(v) < limit && set[usize::from(v) / 64] >> (v % 64) & 1 == 1
                    };
                    self.careful_pick(n, marked)?
                }
            };
        }
        Ok(())
    }

    /// The least common value at heap n that no common option marks.
    fn careful_mex(
        &self,
        marks: &mut Marks,
        g: &impl Fn(usize) -> u16,
        n: usize,
    ) -> Result<u16, KeyOverflow> {
        marks.clear();
        self.careful_options(g, n, Sources::Before(n), &mut |v| marks.insert(v));
        self.careful_pick(n, |v| marks.contains(v))
    }

    /// Calls `mark` with the value of each option of heap n that the careful mex takes (whole
    /// moves and common single heaps at n, and a listed rare heap beside a common one) whose
    /// source heap lies where `sources` says; `g` gives the values of those heaps.
    fn careful_options(
        &self,
        g: &impl Fn(usize) -> u16,
        n: usize,
        sources: Sources,
        mark: &mut impl FnMut(u16),
    ) {
        let space = self.space;
        let common = |v: u16| !space.is_rare(n, v);
        let (lo, hi) = match sources {
            Sources::Before(s) | Sources::Singles(s) => (0, s),
            Sources::From(s) => (s, n),
        };
        if lo == 0 {
            for &i in &self.rules.whole {
                if n == i && common(0) {
                    mark(0);
                }
            }
        }
        for &i in &self.rules.single {
            if n > i && (lo..hi).contains(&(n - i)) && common(g(n - i)) {
                mark(g(n - i));
            }
        }
        if let Sources::Singles(_) = sources {
            return;
        }
        let entries = self.table.entries();
        for &i in &self.rules.breaking {
            let Some(h) = n.checked_sub(i) else { continue };
            // Source h - a lies in lo..hi for the rare heaps a in h - hi + 1 ..= h - lo (and
            // 1 <= a < h).
            let first = (h + 1).saturating_sub(hi).max(1);
            let last = h.saturating_sub(lo).min(h.saturating_sub(1));
            let from = entries.partition_point(|e| e.0 < first);
            for &(a, r) in entries[from..].iter().take_while(|e| e.0 <= last) {
                if !space.is_rare(h - a, g(h - a)) {
                    mark(g(h - a) ^ r);
                }
            }
        }
    }

    /// Marks in `sets` (a bitset of values below `limit` a heap, one after another) the value of
    /// each option of each heap of `heaps` that the careful mex takes from a listed rare heap
    /// beside a common heap of `g` (the heaps before them): entry by entry for all the heaps,
    /// whose sources are then consecutive heaps, as are the heaps they mark.
    fn careful_far(&self, g: &[u16], heaps: Range<usize>, sets: &mut [u64], limit: usize) {
        let space = self.space;
        let before = g.len();
        let words = sets.len() / heaps.len();
        let entries = self.table.entries();
        for &i in &self.rules.breaking {
            // Heap n = h + i reads the rare heaps a with h - before < a < h (and a >= 1).
            let (Some(h0), Some(h1)) = (heaps.start.checked_sub(i), (heaps.end - 1).checked_sub(i))
            else {
                continue;
            };
            let from = entries.partition_point(|e| e.0 < 1 || e.0 + before <= h0);
            for &(a, r) in entries[from..].iter().take_while(|e| e.0 < h1) {
                let (lo, hi) = (h0.max(a + 1), h1.min(a + before - 1));
                if lo > hi {
                    continue;
                }
                // Source b = lo - a, ... marks heap b + a + i, the batch's (lo + i - start)-th on.
                let rows = sets[(lo + i - heaps.start) * words..].chunks_exact_mut(words);
                for ((b, &v), set) in (lo - a..).zip(&g[lo - a..=hi - a]).zip(rows) {
                    let x = usize::from(v ^ r);
                    if x < limit && !space.is_rare(b, v) {
                        set[x / 64] |= 1 << (x % 64);
                    }
                }
            }
        }
    }

    /// The least common value at heap n that `marked` leaves; an overflow when the key space
    /// has no such value.
    fn careful_pick(&self, n: usize, marked: impl Fn(u16) -> bool) -> Result<u16, KeyOverflow> {
        let space = self.space;
        (0..=u16::MAX)
            .find(|&v| !space.is_rare(n, v) && !marked(v))
            .filter(|&v| (self.codec.encode(v) as usize) < self.keys)
            .ok_or(KeyOverflow { heap: n })
    }

    /// The candidates of the [`GROUP`] heaps from heap `n` (the window ends at heap `n`) given
    /// the marks of their far entries: the entries in `close` and the singles are marked `K`
    /// heaps at once, each heap's key pushed and its value written to `out`. Returns the heaps
    /// done: fewer than [`GROUP`] when a mex leaves the keys below 64 (the caller goes on with
    /// the stamped set).
    ///
    /// # Safety
    /// `close` and the singles read at least `K` and at most what lies in the window back, and
    /// every key read (xored with an entry's) is below 64.
    #[inline(always)]
    unsafe fn near<const K: usize>(
        &mut self,
        n: usize,
        far: &[u64; GROUP],
        close: &[u64],
        out: &mut [u16],
    ) -> usize {
        self.window.reserve(GROUP);
        let mut j = 0;
        while j < GROUP {
            let at = self.window.as_ptr().add(self.window.len());
            let marks = lanes::<W, K>(at, close, &self.singles);
            let mut mex = [0usize; K];
            for (i, c) in mex.iter_mut().enumerate() {
                *c = (!(marks[i] | far[j + i])).trailing_zeros() as usize;
            }
            if !mex.iter().all(|&c| c < 64 && c < self.keys) {
                break;
            }
            for (i, &c) in mex.iter().enumerate() {
                self.window.push(W::from_key(c as u16));
                out[j + i] = self.codec.decode(n + j + i, c as u16, false);
            }
            j += K;
        }
        j
    }

    /// Candidates for heaps `from..` (all past `hot_from`) into the tail of `out`, which starts
    /// at heap `prior.len()`.
    fn hot(&mut self, prior: Kept<'_>, out: &mut [u16], from: usize) -> Result<(), KeyOverflow> {
        let base = prior.len();
        // Continue the window if it ends at `from`, else rebuild it from the values.
        if self.window.is_empty() || self.window_heap + self.window.len() != from {
            let start = from - self.reach;
            self.window.clear();
            for b in start..from {
                let v = if b < base { prior.at(b) } else { out[b - base] };
                self.window.push(W::from_key(self.codec.encode(v)));
            }
            self.window_heap = start;
        }
        let mask = self.seen.len() - 1;
        // While every key the loop reads is below 64 (small values, the generic loop), a heap's
        // marks fit one register: no stamps, and the mex is one count of trailing ones.
        let below = |limit: usize| {
            self.entries
                .iter()
                .all(|&e| ((e & 0xffff) as usize) < limit)
                && self.window[self.window.len() - self.reach..]
                    .iter()
                    .all(|w| w.index() < limit)
        };
        let mut small = self.unrolled.is_none() && below(64);
        // Keys below 32 (the far marks then take lanes of 32 bits).
        let mut narrow = small && below(32);
        let end = base + out.len();
        // The nearest heap back that any heap reads (over every entry: the lanes' reads must
        // stay before the heaps they compute, whatever order the entries are in).
        let near = self
            .entries
            .iter()
            .map(|&e| (e >> 16) as usize)
            .chain(self.singles.iter().copied())
            .min()
            .unwrap_or(self.reach)
            .max(1);
        let chunk = [8, 4, 2, 1].into_iter().find(|&k| k <= near).unwrap_or(1);
        // Entries at least GROUP back read only heaps before a group of GROUP heaps: their marks
        // are made for the whole group at once (lanes of the vector unit), the nearer ones and
        // the singles heap by heap.
        let is_far = |e: &u64| (e >> 16) as usize >= GROUP;
        let (far, close): (Vec<[u32; 2]>, Vec<u64>) = if small {
            let far = self.entries.iter().filter(|e| is_far(e));
            let close = self.entries.iter().filter(|e| !is_far(e));
            (
                far.map(|&e| [(e >> 16) as u32, u32::from(e as u16)])
                    .collect(),
                close.copied().collect(),
            )
        } else {
            Default::default()
        };
        let mut n = from;
        while n < end {
            if self.window.len() >= self.reach + WINDOW_SLACK {
                let drop = self.window.len() - self.reach;
                self.window.drain(..drop);
                self.window_heap += drop;
            }
            if small && n + GROUP <= end {
                let pos = n - self.window_heap;
                assert!(pos >= self.reach && pos == self.window.len());
                // SAFETY: every key read is below 64 (as below); each far entry reads at least
                // GROUP and at most `reach` back from heaps pos .. pos + GROUP.
                let marks = unsafe {
                    let at = self.window.as_ptr().add(pos);
                    if narrow {
                        W::group_marks32(at, &far)
                    } else {
                        W::group_marks(at, &far)
                    }
                };
                let out = &mut out[n - base..n - base + GROUP];
                // SAFETY: as below, for the near entries and singles (at least `chunk` back).
                let done = unsafe {
                    match chunk {
                        8 => self.near::<8>(n, &marks, &close, out),
                        4 => self.near::<4>(n, &marks, &close, out),
                        2 => self.near::<2>(n, &marks, &close, out),
                        _ => self.near::<1>(n, &marks, &close, out),
                    }
                };
                let keys = &self.window[self.window.len() - done..];
                small = done == GROUP;
                narrow &= keys.iter().all(|c| c.index() < 32);
                n += done;
                continue;
            }
            if small {
                let pos = n - self.window_heap;
                assert!(pos >= self.reach && pos == self.window.len());
                // Heaps no nearer than `near` to each other read none of each other: `chunk` of
                // them at once (one lane each), else one.
                let k = if n + chunk <= end { chunk } else { 1 };
                // SAFETY: every key read is below 64 (checked above, and kept by leaving this
                // path at the first key that is not), and heap pos + j reads at most `reach`
                // back and at least `near >= k > j` back: inside the window, before `pos`.
                let marks = unsafe {
                    let at = self.window.as_ptr().add(pos);
                    match k {
                        8 => lanes::<W, 8>(at, &self.entries, &self.singles),
                        4 => lanes::<W, 4>(at, &self.entries, &self.singles),
                        2 => lanes::<W, 2>(at, &self.entries, &self.singles),
                        _ => lanes::<W, 1>(at, &self.entries, &self.singles),
                    }
                };
                let mex = marks.map(|m| (!m).trailing_zeros() as usize);
                if mex[..k].iter().all(|&c| c < 64 && c < self.keys) {
                    for (j, &c) in mex[..k].iter().enumerate() {
                        self.window.push(W::from_key(c as u16));
                        out[n + j - base] = self.codec.decode(n + j, c as u16, false);
                    }
                    n += k;
                    continue;
                }
                small = false;
            }
            self.stamp = self.stamp.wrapping_add(1);
            if self.stamp == 0 {
                self.seen.fill(0);
                self.stamp = 1;
            }
            let pos = n - self.window_heap;
            let (seen, stamp) = (&mut self.seen[..], self.stamp);
            assert!(pos >= self.reach && pos <= self.window.len());
            if let Some(k) = self.unrolled {
                // SAFETY: `W` is `u8` (checked in `new`), so the window is bytes; the unrolled loop was
                // generated for this table, so it reads at most `reach` keys back, and
                // `reach <= pos <= window.len()`; `seen` holds at least 256 bytes.
                unsafe {
                    let at = self.window.as_ptr().add(pos) as *const u8;
                    (k.mark)(at, seen.as_mut_ptr(), stamp);
                }
                let seen: &[u8; 256] = seen[..256].try_into().expect("256 stamps");
                let c = (k.mex)(seen, stamp).ok_or(KeyOverflow { heap: n })?;
                self.window.push(W::from_key(c as u16));
                out[n - base] = self.codec.decode(n, c as u16, false);
                n += 1;
                continue;
            }
            // SAFETY: `pos <= window.len()` and `pos >= reach >= every offset`, so each read
            // below is inside the window; `x.index() & mask < seen.len()` since
            // `mask + 1 == seen.len()`.
            unsafe {
                let at = self.window.as_ptr().add(pos);
                for &e in &self.entries {
                    let x = *at.sub((e >> 16) as usize) ^ W::from_key(e as u16);
                    *seen.get_unchecked_mut(x.index() & mask) = stamp;
                }
                for &off in &self.singles {
                    let x = *at.sub(off);
                    *seen.get_unchecked_mut(x.index() & mask) = stamp;
                }
            }
            let c = first_unstamped(&seen[..self.keys], stamp).ok_or(KeyOverflow { heap: n })?;
            self.window.push(W::from_key(c as u16));
            out[n - base] = self.codec.decode(n, c as u16, false);
            n += 1;
        }
        Ok(())
    }
}

/// The marks of heaps `at[0 .. K]` (lane j: heap at + j) in 64-bit registers, the rest zero: one
/// bit a key read, each rare entry's key xored in.
///
/// # Safety
/// Every entry's distance and every single's offset is at least `K` and at most what lies in
/// the window before `at`, and every key read (xored with an entry's) is below 64.
#[inline(always)]
unsafe fn lanes<W: KeyInt, const K: usize>(
    at: *const W,
    entries: &[u64],
    singles: &[usize],
) -> [u64; 8] {
    let mut marks = [0u64; 8];
    for &e in entries {
        let back = at.sub((e >> 16) as usize);
        let key = W::from_key(e as u16);
        for (j, m) in marks.iter_mut().take(K).enumerate() {
            *m |= 1u64 << (*back.add(j) ^ key).index();
        }
    }
    for &off in singles {
        let back = at.sub(off);
        for (j, m) in marks.iter_mut().take(K).enumerate() {
            *m |= 1u64 << (*back.add(j)).index();
        }
    }
    marks
}

/// Heaps whose marks from the farther rare entries are made at once.
const GROUP: usize = 8;

/// The first index whose stamp is not `stamp`, eight bytes at a time.
#[inline]
fn first_unstamped(seen: &[u8], stamp: u8) -> Option<usize> {
    let splat = u64::from_ne_bytes([stamp; 8]);
    let mut chunks = seen.chunks_exact(8);
    for (k, chunk) in chunks.by_ref().enumerate() {
        let w = u64::from_le_bytes(chunk.try_into().unwrap()) ^ splat;
        if w != 0 {
            return Some(8 * k + (w.trailing_zeros() / 8) as usize);
        }
    }
    let done = seen.len() - chunks.remainder().len();
    chunks
        .remainder()
        .iter()
        .position(|&s| s != stamp)
        .map(|p| done + p)
}

#[cfg(test)]
mod tests {
    use super::{first_unstamped, KeyInt, GROUP};
    use proptest::prelude::*;

    proptest! {
        /// The vector lanes' marks of a group equal one shift and or per heap and entry, for
        /// keys below 64 and below 32.
        #[test]
        fn group_marks_equal_the_definition(
            window in proptest::collection::vec(0u8..64, 200),
            entries in proptest::collection::vec((GROUP as u32..150, 0u32..64), 0..40),
        ) {
            let entries: Vec<[u32; 2]> = entries.into_iter().map(|(d, c)| [d, c]).collect();
            let at = 150;
            let marks = |w: &[u8], e: &[[u32; 2]]| -> [u64; GROUP] {
                std::array::from_fn(|j| {
                    e.iter().fold(0, |m, &[d, c]| m | 1u64 << (w[at + j - d as usize] ^ c as u8))
                })
            };
            // SAFETY: every entry reads GROUP to 150 heaps back from heaps 150 .. 158 of 200,
            // and every key and entry key is below 64 (below 32 for the second).
            let wide = unsafe { u8::group_marks(window.as_ptr().add(at), &entries) };
            prop_assert_eq!(wide, marks(&window, &entries));
            let narrow_window: Vec<u8> = window.iter().map(|c| c % 32).collect();
            let narrow_entries: Vec<[u32; 2]> = entries.iter().map(|&[d, c]| [d, c % 32]).collect();
            let narrow = unsafe { u8::group_marks32(narrow_window.as_ptr().add(at), &narrow_entries) };
            prop_assert_eq!(narrow, marks(&narrow_window, &narrow_entries));
        }
    }

    /// The careful loop by batches gives the candidates of the careful loop heap by heap, with
    /// the whole table (the values themselves) and with half of it (other candidates), on games
    /// with whole moves, single heaps and splits, over several batches.
    #[test]
    fn careful_batches_equal_the_careful_loop() {
        use super::{Speculator, CAREFUL_BATCH};
        use octal_core::sparse::SparseKind;
        use octal_core::{Code, RareTable, SparseSpace};
        let heaps = 3 * CAREFUL_BATCH + 100;
        for (code, mask) in [
            (".114", 0x2ff),
            (".143", 0x1d),
            (".6", 0x1ee),
            (".356", 0x1e),
        ] {
            let rules = code.parse::<Code>().unwrap().rules();
            let g = octal_core::exact::values(&rules, heaps).unwrap();
            let space = SparseSpace {
                kind: SparseKind::Range,
                mask,
            };
            let whole = RareTable::from_values(&space, &g);
            let mut half = RareTable::default();
            for &(n, v) in whole.entries().iter().step_by(2) {
                half.set(n, Some(v));
            }
            for table in [whole, half] {
                let mut spec = Speculator::<u16>::new(&rules, space, table, 12, None);
                // The careful loop reaches past these heaps: the table's hot_from is further.
                let from = 50;
                let mut one = vec![0; heaps - from];
                let mut batches = vec![0; heaps - from];
                let mut prior = g[..from].to_vec();
                for out in batches.chunks_mut(CAREFUL_BATCH) {
                    spec.careful_batch(&prior, out).unwrap();
                    prior.extend_from_slice(out);
                }
                // Heap by heap where the values before them are not one slice; by batches where
                // they are.
                let split = octal_core::Kept::new(&g[..16], &g[..from], 0);
                assert!(split.whole_slice().is_none());
                spec.speculate(split, &mut one).unwrap();
                assert_eq!(one, batches, "{code}");
                let mut whole = vec![0; heaps - from];
                spec.speculate(octal_core::Kept::whole(&g[..from]), &mut whole)
                    .unwrap();
                assert_eq!(whole, batches, "{code}");
            }
        }
    }

    #[test]
    fn first_unstamped_finds_the_first_gap() {
        let mut s = vec![7u8; 20];
        assert_eq!(first_unstamped(&s, 7), None);
        s[13] = 1;
        assert_eq!(first_unstamped(&s, 7), Some(13));
        s[17] = 1;
        s[2] = 0;
        assert_eq!(first_unstamped(&s, 7), Some(2));
        assert_eq!(first_unstamped(&s[14..], 7), Some(3));
    }
}

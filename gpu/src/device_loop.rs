//! The device's own speculate-verify loop.
//!
//! Heaps before the kernels' first heap run on the CPU's loop. From there one device run per
//! source: the values proved so far go to the device, then batches of heaps go through it queued
//! three deep: the `spec` kernel speculates a batch (rounds over a sliding window, one
//! cooperative launch) from the unproved values of the batches before it, `decode` turns keys
//! into values, and the `verify` kernel proves the batch on a second stream beside the next
//! speculation; meanwhile the host takes the oldest batch (its proof, its values, its flagged
//! heaps), so that the device never waits for the host. Work queued past a failed proof is thrown
//! away. The heaps `verify` flags are settled exactly ([`crate::settle`]).
//!
//! The rare table is the kernels' data. While rare values still come (the run is below the
//! table's `hot_from`, where options reach rare heaps) the kernels are generated for rare
//! sources: a wrong candidate becomes a rare heap on the device (its key the sentinel, its
//! options appended to the table; one [`Notice::TableCorrected`]) and the run goes on from the
//! next heap with the same kernels. Only a table outgrowing the room its kernels were generated
//! with, a wider value, or a new rare heap in kernels without rare sources generates new ones.
//! Only proved values reach the store.

use crate::device::Gpu;
use crate::engine::DeviceEngine;
use crate::error::GpuError;
use crate::launch::{Buffers, Flags, Kernels, Resident, Strided, Timed, SLOTS};
use crate::mirror::Mirror;
use crate::settle::{settle, OnDevice};
use crate::timings::GpuTimings;
use octal_core::codec::{value_bits, Codec, LoopTable};
use octal_core::{Kept, RareTable, Rules, SparseSpace};
use octal_engines::speculative::Speculative;
use octal_engines::stretch::{reads_back, Ended, EngineError, Notice, Stretch, StretchEngine};
use octal_engines::verify::{Refuted, Verifier};
use octal_store::run_values::RunValues;
use std::collections::VecDeque;
use std::time::Instant;

/// Heaps of the `spec` kernel's window: the fastest of 512 .. 8192 on Officers on the H200
/// (kernels-gen settles a heap's options during the grid barrier's wait; bench/README.md).
const DEFAULT_WINDOW: usize = 3072;

/// The `spec` kernel's window: [`DEFAULT_WINDOW`], or what the environment variable
/// `OCTAL_GPU_WINDOW` says (a tuning knob: a larger window means more heaps per round and more
/// rounds per heap), at most [`kernels_gen::WINDOW_MAX`].
fn window() -> u32 {
    std::env::var("OCTAL_GPU_WINDOW")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or(DEFAULT_WINDOW)
        .clamp(32, kernels_gen::WINDOW_MAX) as u32
}

/// Heaps of the first batch of a device run; batches double up to [`Resident::max_batch`] (an
/// eighth of the device's ring, at most `launch::MAX_BLOCK`).
const MIN_BATCH: usize = 1 << 16;

/// The least batch after a correction: batches start at twice the heaps between the last two
/// corrections (a batch past a wrong candidate is thrown away), and no smaller than this.
const MIN_GROWING_BATCH: usize = 1 << 10;

/// Splits of each kind the `verify` kernel tries a heap before it flags the heap for an exact
/// check: while the table grows, at first and at most (the warp of every new rare heap tries
/// them all, while a heap flagged in vain costs a pass of the `mex` kernel), and for a settled
/// table (a heap that needs more is rare).
const GROWING_BUDGET: u64 = 1 << 14;
const MAX_GROWING_BUDGET: u64 = 1 << 21;
pub(crate) const MAX_BUDGET: u64 = 1 << 24;

/// The most a growing table's budget doubles to: [`MAX_GROWING_BUDGET`], or what the environment
/// variable `OCTAL_GPU_GROWING_BUDGET` says (a tuning knob: a larger budget proves more heaps in
/// `verify`, while a wrong candidate's warp tries that many splits before the `mex` kernel).
fn max_growing_budget() -> u64 {
    std::env::var("OCTAL_GPU_GROWING_BUDGET")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or(MAX_GROWING_BUDGET)
        .clamp(GROWING_BUDGET, MAX_BUDGET)
}

/// Heaps of the device's ring (the last heaps, keys and values) at least: 2^26 heaps, 192 MiB
/// with one-byte keys, and 32 MiB of values for the prefix (a quarter of the ring).
const RING: usize = 1 << 26;

/// The largest ring: 2^32 heaps (the kernels index it with 32-bit arithmetic), 8 GiB of values,
/// 4 or 8 GiB of keys and 2 GiB of first heaps.
const MAX_RING: usize = 1 << 32;

/// What the device keeps for a run to `n` heaps whose options reach `reach` heaps back: every
/// heap up to 2^31 (the `mex` kernel then finds every option of a heap on the device), and the
/// last 2^32 beyond. A run of any length fits: the device's memory bounds nothing.
pub(crate) fn resident(reach: usize, n: usize) -> Resident {
    let ring = RING
        .max((2 * (reach + 16)).next_power_of_two())
        .max((2 * n).next_power_of_two().min(MAX_RING));
    Resident {
        prefix: ring / 4,
        ring,
    }
}

/// What the device keeps of a run that holds `g`: `keep`, its first heaps no more than the run's
/// front where the run holds only its front and tail.
pub(crate) fn within(keep: Resident, g: Kept<'_>) -> Resident {
    if g.whole_slice().is_some() {
        return keep;
    }
    let prefix = keep
        .prefix
        .min(g.front().len().saturating_sub(kernels_gen::VERIFY_PAD))
        .max(1);
    Resident { prefix, ..keep }
}

/// How a device run ended.
enum RunEnd {
    /// `g` holds the heaps asked for.
    Done,
    /// `stop` asked to end.
    Stopped,
    /// A candidate was wrong: `g` ends with the heap's true value.
    Wrong { heap: usize, value: u16 },
    /// A mex left the key space: keys need another bit.
    Widen,
    /// A flagged heap's proof needs values the run does not hold: `g` ends before it.
    Unsettled { heap: usize },
}

/// Whether the kernels may compute heaps whose options reach rare heaps: a rare source is
/// dropped, which is right when a rare value keeps its class across every single-heap move (a
/// domain-type space flips it across an odd one; such games start past `hot_from`).
pub(crate) fn rare_sources_allowed(rules: &Rules, space: SparseSpace) -> bool {
    rules
        .single
        .iter()
        .all(|&d| space.rare_parity(0) == space.rare_parity(d))
}

/// Bits of `v` (at least 1).
fn bits_of_value(v: u16) -> u32 {
    (u16::BITS - v.leading_zeros()).max(1)
}

/// Extends the values of `s` on the device chain from `e`'s table, or until the watcher says
/// stop or the table has needed `s.corrections` corrections; heaps whose options reach rare
/// heaps in a game whose kernels cannot take rare sources go to the CPU's loop. The device keeps
/// the heaps [`resident`] says, or the engine's `keep`. `e`'s table takes the corrections, `t`
/// the timings.
pub(crate) fn extend(
    e: &mut DeviceEngine,
    s: &mut Stretch<'_>,
    t: &mut GpuTimings,
) -> Result<Ended, EngineError> {
    let (rules, space, n, verify) = (e.rules.clone(), e.space, s.to, s.verify);
    let mut bits = e.bits();
    let allowed = rare_sources_allowed(&rules, space);
    let mut need = device_chain_bits(bits, s.values.kept().max_value(), &e.table);
    // Corrections made so far.
    let mut made = 0;
    while s.values.len() < n {
        let hot_from = LoopTable::new(&rules, space, &e.table).hot_from;
        let rare_sources = s.values.len() < hot_from;
        if rare_sources && !allowed {
            let from = s.values.len();
            let mut run = Speculative::new(&rules, space, e.table.clone(), bits, None);
            let mut on_cpu = Stretch {
                values: &mut *s.values,
                to: hot_from.min(n),
                verify,
                corrections: s.corrections - made,
                blocks: None,
                notify: &mut *s.notify,
                watch: &mut *s.watch,
            };
            let ended = run.extend(&mut on_cpu)?;
            e.table = run.table().clone();
            let kept = s.values.kept();
            let g = kept.range(from.max(kept.base())..kept.len()).unwrap_or(&[]);
            bits = bits.max(bits_of(g));
            need = need.max(bits_of(g));
            t.on_cpu += s.values.len() - from;
            if ended != Ended::Reached {
                return Ok(ended);
            }
            continue;
        }
        if need > kernels_gen::MAX_VALUE_BITS {
            return Ok(Ended::PastKeys);
        }
        let spec = kernels_gen::KernelSpec {
            code: &e.code,
            space,
            table: &e.table,
            value_bits: need,
            rare_sources,
        };
        let setup = Instant::now();
        // Past `hot_from` without rare sources (which bounds the kernels' first heap: options reach
        // at most the last rare heap and a digit back), from heap 1 with them.
        let (kernels, compiled) = e.gpu.kernels(&spec)?;
        t.compiled += usize::from(compiled);
        let kept = s.values.kept();
        let keep = within(
            e.keep.unwrap_or_else(|| resident(kernels.layout.reach, n)),
            kept,
        );
        let verifier = Verifier::new(&rules, space);
        let mut run = DeviceRun::new(&e.gpu, &kernels, verifier, space, kept, keep, verify)?;
        if verify {
            run.share_with(&e.helpers, e.share_from, &spec, kept)?;
        }
        t.devices = t.devices.max(run.devices());
        let mut options = kernels.layout.options.clone();
        t.setup += setup.elapsed();
        // Kernels for rare sources run while options reach rare heaps (to `hot_from`, which each
        // new rare heap moves); past it the faster ones take over (one-byte keys for 9 bits).
        let mut until = if rare_sources { hot_from.min(n) } else { n };
        // Whether the keys need another bit (else new kernels for the table).
        let widen = loop {
            // A replay's table (not verifying) lists the rare heaps ahead: the device's
            // speculation stops before each, which takes the table's value.
            let listed = if verify {
                &[][..]
            } else {
                listed_between(&e.table, s.values.len(), until)
            };
            let to = Until { n: until, listed };
            match run.run(s, to, t)? {
                RunEnd::Wrong { heap, value } => {
                    let started = Instant::now();
                    until = until.max((2 * heap + rules.t + 1).min(n));
                    let rare = space.is_rare(heap, value);
                    e.table.set(heap, rare.then_some(value));
                    bits = bits.max(bits_of(&[value]));
                    need = need.max(bits_of_value(value));
                    (s.notify)(Notice::TableCorrected {
                        heap,
                        value,
                        rare,
                        table_len: e.table.len(),
                    });
                    // A bounded run goes on once it holds every heap the rare heap's options
                    // read (the device's ring may not: it was filled from what the run held).
                    let back = reads_back(&rules, heap);
                    if rare && !s.values.holds_back(back) {
                        let heap = s.values.len();
                        return Err(EngineError::Unheld { heap, back });
                    }
                    // The same kernels go on when they compute rare sources, the value fits
                    // their keys and the table their room.
                    let same_kernels = rare_sources
                        && need <= kernels.layout.value_bits
                        && run.correct(&rules, &mut options, heap, value, rare)?;
                    t.correct += started.elapsed();
                    made += 1;
                    if made >= s.corrections {
                        return Ok(Ended::Corrected);
                    }
                    if !same_kernels {
                        break false;
                    }
                }
                RunEnd::Done => break false,
                RunEnd::Stopped => return Ok(Ended::Stopped),
                RunEnd::Widen => break true,
                RunEnd::Unsettled { heap } => {
                    let front = s.values.kept().front().len();
                    return Err(EngineError::Unsettled { heap, front });
                }
            }
        };
        if widen {
            need = kernels.layout.value_bits + 1;
            bits = bits.max(need);
            // Past the widest keys the next turn ends the stretch.
            if need <= kernels_gen::MAX_VALUE_BITS {
                (s.notify)(Notice::Widened { bits });
            }
        }
    }
    Ok(Ended::Reached)
}

/// Where a device run stops: at `n` heaps, the values of the heaps `listed` (a replay's rare
/// heaps ahead, in order) written between its batches.
struct Until<'t> {
    n: usize,
    listed: &'t [(usize, u16)],
}

/// The entries of `table` for heaps `from .. to`.
fn listed_between(table: &RareTable, from: usize, to: usize) -> &[(usize, u16)] {
    let entries = table.entries();
    &entries[entries.partition_point(|e| e.0 < from)..entries.partition_point(|e| e.0 < to)]
}

/// Value bits of the largest value in `g` (as on the CPU).
pub(crate) fn bits_of(g: &[u16]) -> u32 {
    value_bits(max_of(g))
}

/// The largest value in `g` (0 for none).
pub(crate) fn max_of(g: &[u16]) -> u16 {
    g.iter().copied().max().unwrap_or(0)
}

/// Bits the device chain's kernels need at least for values up to `g_max`, `table` and `bits`
/// (the CPU's floor of 9 bits aside: kernels for rare sources keep a key spare for the sentinel,
/// and one-byte keys hold values below 2^8).
pub(crate) fn device_chain_bits(bits: u32, g_max: u16, table: &RareTable) -> u32 {
    let table_max = table.entries().iter().map(|e| e.1).max().unwrap_or(0);
    let need = bits_of_value(g_max).max(bits_of_value(table_max));
    if bits > octal_core::codec::MIN_VALUE_BITS {
        need.max(bits)
    } else {
        need
    }
}

/// One device run: the kernels for one source, its buffers, and how it goes on.
struct DeviceRun<'a> {
    gpu: &'a Gpu,
    kernels: &'a Kernels,
    buf: Buffers,
    /// The CPU's check of the flagged heaps whose options the device does not hold.
    verifier: Verifier,
    space: SparseSpace,
    codec: Codec,
    /// Heaps of the next run's first batch.
    batch: usize,
    /// Splits of each kind `verify` tries a heap (see [`GROWING_BUDGET`]), and the most it
    /// doubles to.
    budget: u64,
    max_budget: u64,
    /// The heap of the last correction.
    corrected: usize,
    /// The other devices that verify the run, each every k-th heap of a batch (k devices in
    /// all) and a share of its flagged heaps, for batches of at least `share_from` heaps.
    helpers: Vec<Mirror>,
    share_from: usize,
}

impl<'a> DeviceRun<'a> {
    /// Uploads what the device keeps of the proved values `g`: the first heaps, the last half ring
    /// of values and keys (options reach at most half a ring back; verification at most a
    /// quarter ring and a batch), a rare heap's key the sentinel where the kernels take rare
    /// sources. A run that holds only its front and tail holds every heap the kernels read.
    fn new(
        gpu: &'a Gpu,
        kernels: &'a Kernels,
        verifier: Verifier,
        space: SparseSpace,
        g: Kept<'_>,
        keep: Resident,
        verify: bool,
    ) -> Result<DeviceRun<'a>, GpuError> {
        let l = &kernels.layout;
        gpu.room_for(keep, l.key_bytes)?;
        let mut buf = kernels.buffers(&gpu.stream, keep)?;
        let start = g.len();
        let codec = Codec::new(space);
        let stream = &gpu.stream;
        let back = start.saturating_sub(keep.ring / 2).max(g.base());
        for (at, heaps) in keep.pieces(back, start) {
            let values = g
                .range(heaps.clone())
                .expect("the tail holds the heaps uploaded");
            let len = heaps.len();
            let keys: Vec<u8> = heaps
                .clone()
                .zip(values)
                .flat_map(|(h, &v)| key_bytes(&codec, l, v, space.is_rare(h, v)))
                .collect();
            let bytes = at * l.key_bytes;
            stream.memcpy_htod(&keys, &mut buf.keys.slice_mut(bytes..bytes + keys.len()))?;
            stream.memcpy_htod(values, &mut buf.values.slice_mut(at..at + len))?;
        }
        let first = keep.first().min(start);
        stream.memcpy_htod(&g.front()[..first], &mut buf.first.slice_mut(..first))?;
        let budget = if l.rare_sources && verify {
            GROWING_BUDGET
        } else {
            MAX_BUDGET
        };
        Ok(DeviceRun {
            gpu,
            kernels,
            buf,
            verifier,
            space,
            codec,
            batch: if l.rare_sources {
                MIN_GROWING_BATCH
            } else {
                MIN_BATCH
            }
            .min(keep.max_batch()),
            budget,
            max_budget: max_growing_budget(),
            corrected: start,
            helpers: Vec::new(),
            share_from: usize::MAX,
        })
    }

    /// Has `gpus` verify the run's batches of at least `share_from` heaps beside the device:
    /// the kernels of `spec` and the values of `g` on each.
    fn share_with(
        &mut self,
        gpus: &[Gpu],
        share_from: usize,
        spec: &kernels_gen::KernelSpec<'_>,
        g: Kept<'_>,
    ) -> Result<(), GpuError> {
        let keep = self.buf.resident;
        self.helpers = gpus
            .iter()
            .map(|gpu| Mirror::new(gpu, gpu.kernels(spec)?.0, keep, g))
            .collect::<Result<_, _>>()?;
        self.share_from = share_from;
        Ok(())
    }

    /// Devices that verify the run's large batches.
    fn devices(&self) -> usize {
        1 + self.helpers.len()
    }

    /// Devices that verify the batch `lo .. hi`: all of them for a large one, else the device.
    fn devices_for(&self, lo: usize, hi: usize) -> usize {
        if hi - lo >= self.share_from {
            self.devices()
        } else {
            1
        }
    }

    /// Enqueues the proof of the heaps `from .. hi` of `g` (which holds their candidates) on the
    /// first `k - 1` other devices, each its share of k, its flags in `slot`.
    fn share_out(
        &mut self,
        g: Kept<'_>,
        slot: usize,
        (from, hi, k): (usize, usize, usize),
        budget: u64,
    ) -> Result<Vec<Timed>, GpuError> {
        let heaps = |d| Strided::share(from as u64, hi as u64, d, k);
        self.helpers[..k - 1]
            .iter_mut()
            .enumerate()
            .map(|(d, helper)| {
                helper.upload(g, hi)?;
                helper.verify(slot, heaps(d + 1), budget)
            })
            .collect()
    }

    /// The flags of the device's verification in `slot` and of the other devices' (`shared`,
    /// waited for here), as one verification's ([`Flags::merge`]).
    fn flags(&self, slot: usize, shared: Vec<Timed>) -> Result<Flags, GpuError> {
        let mut all = vec![self.kernels.flagged(&self.gpu.copy, &self.buf, slot)?];
        for (helper, timed) in self.helpers.iter().zip(shared) {
            timed.wait()?;
            all.push(
                helper
                    .kernels
                    .flagged(&helper.gpu.stream, &helper.buf, slot)?,
            );
        }
        Ok(Flags::merge(all))
    }

    /// Verifies the heaps `from .. hi` of the batch in `slot` again, now, on its `k` devices.
    fn verify_again(
        &mut self,
        g: Kept<'_>,
        slot: usize,
        (from, hi, k): (usize, usize, usize),
    ) -> Result<Flags, GpuError> {
        let budget = self.budget;
        let mine = Strided::share(from as u64, hi as u64, 0, k);
        let copy = &self.gpu.copy;
        let timed = self
            .kernels
            .verify(copy, &mut self.buf, slot, mine, budget)?;
        let shared = self.share_out(g, slot, (from, hi, k), budget)?;
        timed.wait()?;
        self.flags(slot, shared)
    }

    /// Queues on the speculation's stream the write of `value` as heap `heap`'s value and key,
    /// the key the sentinel where it is `rare` and the kernels take rare sources: batches queued
    /// after it read it, those before do not.
    fn put(&mut self, heap: usize, value: u16, rare: bool) -> Result<(), GpuError> {
        let (l, keep) = (&self.kernels.layout, self.buf.resident);
        let stream = &self.gpu.stream;
        let at = heap % keep.ring;
        let keys: Vec<u8> = key_bytes(&self.codec, l, value, rare).collect();
        let (lo, hi) = (at * l.key_bytes, (at + 1) * l.key_bytes);
        stream.memcpy_htod(&keys, &mut self.buf.keys.slice_mut(lo..hi))?;
        stream.memcpy_htod(&[value], &mut self.buf.values.slice_mut(at..at + 1))?;
        if heap < keep.first() {
            stream.memcpy_htod(&[value], &mut self.buf.first.slice_mut(heap..heap + 1))?;
        }
        Ok(())
    }

    /// Whether the kernels take rare sources (the table grows).
    fn grows(&self) -> bool {
        self.kernels.layout.rare_sources
    }

    /// Makes heap `heap` (the last of `g`) hold `value` on the device, a rare heap (`rare`) with
    /// its options joining the table `options` (the device's, sorted by distance), so that the
    /// run goes on after it. False when the table outgrows the kernels' room or the ring: new
    /// kernels, then.
    fn correct(
        &mut self,
        rules: &Rules,
        options: &mut Vec<(usize, u16)>,
        heap: usize,
        value: u16,
        rare: bool,
    ) -> Result<bool, GpuError> {
        let l = &self.kernels.layout;
        let mut from = options.len();
        if rare && heap >= 1 {
            let key = self.codec.encode(value);
            for &i in &rules.breaking {
                let o = (i + heap, key);
                let at = options.partition_point(|&p| p <= o);
                options.insert(at, o);
                from = from.min(at);
            }
        }
        let reach = options.last().map_or(0, |o| o.0);
        let keep = self.buf.resident;
        if !l.fits(options.len(), reach) || reach + 16 > keep.ring / 2 {
            return Ok(false);
        }
        let stream = &self.gpu.stream;
        if from < options.len() {
            self.kernels
                .set_options(stream, &mut self.buf, from, &options[from..])?;
        }
        self.write(heap, value, rare)?;
        Ok(true)
    }

    /// Writes `value` (the last of `g`) as heap `heap`'s on the device ([`DeviceRun::put`]),
    /// and starts the next batches at twice the heaps since the last heap written.
    fn write(&mut self, heap: usize, value: u16, rare: bool) -> Result<(), GpuError> {
        self.put(heap, value, rare)?;
        let keep = self.buf.resident;
        let gap = heap - self.corrected;
        self.corrected = heap;
        self.batch = (2 * gap).clamp(MIN_GROWING_BATCH, keep.max_batch());
        Ok(())
    }

    /// Runs batches through the device until the values reach `to.n` heaps, a candidate is
    /// wrong, a mex leaves the key space or the watcher asks to end. Batches are queued
    /// [`SLOTS`] deep: while the host takes one (reads its proof, fetches its values, checks its
    /// flagged heaps, shows the values to the watcher), the device speculates the next ones on
    /// its unproved values and verifies them beside it. Work queued past the end is thrown away
    /// (see `Drop`). A replay (not verifying) gives the heaps `to.listed` the table's values:
    /// the batches end before each, whose value is written between them on the device's queue.
    fn run(
        &mut self,
        s: &mut Stretch<'_>,
        to: Until<'_>,
        timings: &mut GpuTimings,
    ) -> Result<RunEnd, EngineError> {
        let (g, verify, watch) = (&mut *s.values, s.verify, &mut *s.watch);
        let (n, mut listed) = (to.n, to.listed);
        let window = window().min(self.kernels.max_window());
        let max_batch = self.buf.resident.max_batch();
        let mut batch = self.batch;
        let mut queue: VecDeque<Queued> = VecDeque::new();
        let mut next = g.len();
        let mut slot = 0;
        loop {
            // While the table grows, batches wait for the one before to be proved until they
            // reach MIN_BATCH: the work queued past a wrong candidate is thrown away, and its
            // verification (every heap fails) would hold the device up.
            let depth = if verify && self.grows() && batch < MIN_BATCH {
                1
            } else {
                SLOTS
            };
            while queue.len() < depth && next < n {
                if let Some(&(heap, value)) = listed.first().filter(|e| e.0 == next) {
                    self.put(heap, value, self.space.is_rare(heap, value))?;
                    match queue.back_mut() {
                        Some(q) => q.then.push(value),
                        None => g.push(value)?,
                    }
                    (listed, next) = (&listed[1..], next + 1);
                    continue;
                }
                let end = listed.first().map_or(n, |e| e.0.min(n));
                let hi = (next + batch).min(end);
                queue.push_back(self.enqueue(slot, next, hi, window, verify)?);
                (next, slot) = (hi, (slot + 1) % SLOTS);
                batch = (2 * batch).min(max_batch);
            }
            let Some(q) = queue.pop_front() else {
                return Ok(RunEnd::Done);
            };
            let waiting = Instant::now();
            q.values.wait()?;
            timings.batches += 1;
            let copy = &self.gpu.copy;
            let done = self.kernels.speculated(copy, &self.buf, q.slot)?;
            timings.speculate += q.spec.elapsed()?;
            timings.speculated += q.hi - q.lo;
            timings.rounds += done.rounds as usize;
            // A mex beyond the key space ends the batch there (the kernel proved it); the
            // batches queued after it speculated on what it left and are thrown away.
            let hi = done.overflow.map_or(q.hi, |h| h as usize);
            // The candidates go to `g`, which keeps only the heaps proved.
            self.fetch(g, q.slot, q.lo, hi)?;
            let failed = if let Some(check) = &q.check {
                let shared = self.share_out(g.kept(), q.slot, (q.lo, hi, q.devices), q.budget)?;
                check.wait()?;
                timings.waited += waiting.elapsed();
                timings.verify += check.elapsed()?;
                let flagged = self.flags(q.slot, shared)?;
                let failed = self.prove(g, (&q, hi), flagged, timings)?;
                timings.verified += g.len() - q.lo;
                failed
            } else {
                timings.waited += waiting.elapsed();
                if done.overflow.is_none() {
                    g.extend_from_slice(&q.then)?;
                }
                None
            };
            timings.taking += waiting.elapsed();
            if let Some(f) = failed {
                if let RunEnd::Unsettled { heap } = f {
                    // The heaps before it are proved: the watcher sees them before the run stops.
                    if heap > q.lo {
                        watch.proved(g.kept())?;
                    }
                }
                return Ok(f);
            }
            if verify {
                if watch.proved(g.kept())? {
                    return Ok(RunEnd::Stopped);
                }
                g.seen(g.len());
            }
            if done.overflow.is_some() {
                return Ok(RunEnd::Widen);
            }
        }
    }

    /// Queues batch `lo .. hi` in `slot`: speculation, decoding and the copy of its values on
    /// the speculation stream, then its verification on the check stream.
    fn enqueue(
        &mut self,
        slot: usize,
        lo: usize,
        hi: usize,
        window: u32,
        verify: bool,
    ) -> Result<Queued, GpuError> {
        let (kernels, gpu) = (self.kernels, self.gpu);
        let stream = &gpu.stream;
        let spec = kernels.spec(stream, &mut self.buf, slot, lo as u64, hi as u64, window)?;
        let values = Timed::around(stream, || {
            kernels.decode(stream, &mut self.buf, lo as u64, hi as u64)?;
            kernels.copy_out(stream, &mut self.buf, slot, lo, hi)
        })?;
        let (budget, devices) = (self.budget, self.devices_for(lo, hi));
        let check = if verify {
            // The device's share: every heap, or every k-th where k devices verify.
            let mine = Strided::share(lo as u64, hi as u64, 0, devices);
            Some(kernels.verify(&gpu.check, &mut self.buf, slot, mine, budget)?)
        } else {
            None
        };
        Ok(Queued {
            lo,
            hi,
            slot,
            spec,
            values,
            check,
            budget,
            devices,
            then: Vec::new(),
        })
    }

    /// Appends the values of heaps `lo .. to` of the batch starting at `lo` (from its slot's
    /// copy) to `g`, which ends at `lo`.
    fn fetch(
        &self,
        g: &mut RunValues,
        slot: usize,
        lo: usize,
        to: usize,
    ) -> Result<(), EngineError> {
        debug_assert_eq!(g.len(), lo);
        g.resize(to, 0)?;
        self.gpu
            .copy
            .memcpy_dtoh(&self.buf.out[slot].slice(..to - lo), g.range_mut(lo..to))
            .map_err(GpuError::from)?;
        Ok(())
    }

    /// Keeps in `g` (which holds the candidates of the queued batch `q`'s heaps below `hi`) the
    /// proved ones: its verification flagged `flags`. The flagged heaps are checked exactly
    /// ([`settle`]): if their candidates stand, the rest of the batch past the least heap the
    /// list left out is verified again; if one does not, `g` ends with its true value. The budget
    /// doubles while many flagged heaps stand (each costs the `mex` kernel a pass over its
    /// options) and halves when a correction came alone (its warp paid the budget for nothing).
    fn prove(
        &mut self,
        g: &mut RunValues,
        (q, hi): (&Queued, usize),
        mut flags: Flags,
        timings: &mut GpuTimings,
    ) -> Result<Option<RunEnd>, EngineError> {
        let lo = q.lo;
        loop {
            let heaps = flags.heaps_below(hi as u64);
            let Some(&last) = heaps.last() else {
                return Ok(None);
            };
            let started = Instant::now();
            // Every device that verifies the run, the device's `mex` on the host's stream.
            let main = OnDevice {
                kernels: self.kernels,
                stream: &self.gpu.copy,
                buf: &mut self.buf,
            };
            let mut devices: Vec<OnDevice<'_>> = std::iter::once(main)
                .chain(self.helpers[..q.devices - 1].iter_mut().map(OnDevice::of))
                .collect();
            let (verdict, stood) = settle(&mut devices, &self.verifier, g.kept(), &heaps)?;
            timings.checked += stood + usize::from(verdict.is_err());
            timings.check += started.elapsed();
            if self.grows() && self.budget < self.max_budget && 256 * stood > hi - lo {
                self.budget *= 2;
            }
            let (end, changed) = match verdict {
                Ok(()) => (None, hi),
                Err(Refuted::Wrong(f)) => {
                    if self.grows() && stood == 0 {
                        self.budget = (self.budget / 2).max(GROWING_BUDGET);
                    }
                    g.truncate(f.heap);
                    g.push(f.value)?;
                    let (heap, value) = (f.heap, f.value);
                    (Some(RunEnd::Wrong { heap, value }), heap)
                }
                Err(Refuted::Overflow(o)) => return Err(o.into()),
                Err(Refuted::Unsettled { heap }) => {
                    g.truncate(heap);
                    (Some(RunEnd::Unsettled { heap }), heap)
                }
            };
            if let Some(end) = end {
                // The other devices hold candidates from there on.
                for helper in &mut self.helpers {
                    helper.changed_from(changed);
                }
                return Ok(Some(end));
            }
            let from = last as usize + 1;
            match flags.first {
                Some(f) if (f as usize) < hi && from < hi => {
                    let started = Instant::now();
                    flags = self.verify_again(g.kept(), q.slot, (from, hi, q.devices))?;
                    timings.reverify += started.elapsed();
                }
                _ => return Ok(None),
            }
        }
    }
}

impl Drop for DeviceRun<'_> {
    /// Nothing may still run on the buffers when they are freed: waits for the work queued past
    /// the device run's end (an error here has no one to go to; the next call on the device meets
    /// it).
    fn drop(&mut self) {
        let _ = self.gpu.stream.synchronize();
        let _ = self.gpu.check.synchronize();
    }
}

/// A batch queued on the device.
struct Queued {
    lo: usize,
    hi: usize,
    slot: usize,
    /// The speculation.
    spec: Timed,
    /// Its decoding and the copy of its values.
    values: Timed,
    /// The device's verification, when verifying, the budget it was given, and the devices that
    /// share it.
    check: Option<Timed>,
    budget: u64,
    devices: usize,
    /// A replay's listed values of the heaps right after the batch, written on the device
    /// after it.
    then: Vec<u16>,
}

/// The key bytes of heap `h` with value `v` on the device (little-endian, the layout's width):
/// the sentinel (all ones) for a rare heap where the kernels take rare sources.
fn key_bytes(
    codec: &Codec,
    l: &kernels_gen::Layout,
    v: u16,
    rare: bool,
) -> impl Iterator<Item = u8> {
    let key = if l.rare_sources && rare {
        u16::MAX
    } else {
        codec.encode(v)
    };
    key.to_le_bytes().into_iter().take(l.key_bytes)
}

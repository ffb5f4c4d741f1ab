//! The speculate-verify loop on the device.
//!
//! Heaps before the kernels' first heap (where options may reach two rare heaps) run on the CPU
//! loop. From there one device run per rare table: the values proved so far go to the device, then
//! blocks of heaps go through it queued three deep: the `spec` kernel speculates a block (rounds
//! over a sliding window, one cooperative launch) from the unproved values of the blocks before
//! it, `decode` turns codes into values, and the `verify` kernel proves the block on a second
//! stream beside the next speculation; meanwhile the host takes the oldest block (its proof, its
//! values, its flagged heap), so that the device never waits for the host. Work queued past a
//! failed proof is thrown away. The heap `verify` flags first is checked on the CPU: a wrong
//! candidate ends the device run with the corrected table (one [`Notice::TableCorrected`]), and the
//! CPU engine computes a stretch of heaps before the device resumes with kernels for the table it
//! then has (corrections come in bursts, and each table costs a compilation); a mex beyond the
//! code space ends it with wider codes ([`Notice::Widened`]). Only proved values reach `g`.
//!
//! Small tables ([`Chain::Host`]): a round of `spec` advances few heaps when options reach few
//! heaps back, so the CPU's speculative loop ([`Speculative`]) makes the candidates, one block
//! while the device's `verify` proves the block before ([`DeviceProver`]); a new rare value joins
//! the loop on the host, and the kernels (whose `verify` reads no table) stay.

use super::device::Gpu;
use super::launch::{Buffers, Kernels, Resident, Timed, SLOTS};
use crate::cpu::{self, Speculative};
use crate::gpu_error::GpuError;
use crate::run::{GpuTimings, Notice, SolveError};
use crate::values::ValueStore;
use crate::verify::{Prove, Refuted, Verifier};
use octal_core::codec::{value_bits, Codec};
use octal_core::exact;
use octal_core::{Code, RareTable, Rules, SparseSpace};
use std::collections::VecDeque;
use std::ops::Range;
use std::sync::Arc;
use std::time::{Duration, Instant};

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

/// Heaps of the first block of a device run; blocks double up to `MAX_BLOCK` (and
/// [`Resident::max_block`], an eighth of the device's ring).
const MIN_BLOCK: usize = 1 << 16;
const MAX_BLOCK: usize = 1 << 24;

/// Heaps of the device's ring (the last heaps, codes and values) unless the options reach
/// farther: 2^26 heaps, 192 MiB with one-byte codes, and 32 MiB of values for the prefix (a
/// quarter of the ring). The device's memory bounds nothing else: a run of any length fits.
const RING: usize = 1 << 26;

/// What the device keeps for a run whose options reach `reach` heaps back.
pub fn resident(reach: usize) -> Resident {
    let ring = RING.max((2 * (reach + 16)).next_power_of_two());
    Resident {
        prefix: ring / 4,
        ring,
    }
}

/// Heaps the CPU engine computes after a table correction, at first and at most (the stretch
/// doubles while corrections follow each other closely on the device).
const MIN_CPU_STRETCH: usize = 1 << 15;
const MAX_CPU_STRETCH: usize = 1 << 24;

/// How a device run ended.
enum Ended {
    /// `g` holds the heaps asked for, or `stop` asked to end.
    Done,
    /// A candidate was wrong: the table gets this heap and value.
    Wrong { heap: usize, value: u16 },
    /// A mex left the code space: codes need another bit.
    Widen,
}

/// Entries of the speculative loop (rare heaps times breaking digits) up to which the CPU
/// speculates and the device verifies ([`Chain::Host`]). On one H100 with its host's cores,
/// proving their periods: `.104` (20 entries) 4.1x faster so, `.1777` (48) 2.9x, `.1077` (74)
/// 1.4x (`bench/gpu-chain.sh`); Officers (1584) stays on the device.
pub const HOST_CHAIN_ENTRIES: usize = 128;

/// Where the speculation runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Chain {
    /// The `spec` kernel, rounds over a window on the device.
    Device,
    /// The CPU's speculative loop, its blocks proved by the device's `verify` kernel: for small
    /// tables, whose options reach few heaps back, so that a device round advances few heaps.
    Host,
}

impl Chain {
    /// The chain for a game and table: [`Chain::Host`] up to [`HOST_CHAIN_ENTRIES`] entries,
    /// or what the environment variable `OCTAL_GPU_CHAIN` (`host` or `device`) says.
    pub fn for_table(rules: &Rules, table: &RareTable) -> Chain {
        match std::env::var("OCTAL_GPU_CHAIN").as_deref() {
            Ok("host") => Chain::Host,
            Ok("device") => Chain::Device,
            _ if table.len() * rules.breaking.len() <= HOST_CHAIN_ENTRIES => Chain::Host,
            _ => Chain::Device,
        }
    }
}

/// Extends `g` (proved values) to `n` heaps on the GPU, seeded with `table` and codes for values
/// below 2^bits; like [`cpu::extend`] in every other respect. The speculation runs where
/// [`Chain::for_table`] says. The device keeps the heaps [`resident`] says, or `keep` (tests: a
/// small ring wraps often). Returns the table the engine ended with.
#[allow(clippy::too_many_arguments)]
pub fn extend(
    gpu: &mut Gpu,
    keep: Option<Resident>,
    code: &Code,
    space: SparseSpace,
    mut table: RareTable,
    mut bits: u32,
    g: &mut ValueStore,
    n: usize,
    verify: bool,
    notify: &mut dyn FnMut(Notice),
    stop: &mut dyn FnMut(&[u16]) -> Result<bool, SolveError>,
    timings: &mut GpuTimings,
) -> Result<RareTable, SolveError> {
    let rules = code.rules();
    if verify && Chain::for_table(&rules, &table) == Chain::Host {
        return extend_host_chain(
            gpu, keep, code, space, table, bits, g, n, notify, stop, timings,
        );
    }
    let verifier = Verifier::new(&rules, space);
    // Heaps the CPU engine computes before the device takes over again (after a correction).
    let mut on_cpu = 0;
    let mut stretch = MIN_CPU_STRETCH;
    while g.len() < n {
        let game = kernels_gen::Game {
            code,
            space,
            table: &table,
            value_bits: bits,
        };
        let hot_from = kernels_gen::Layout::new(&game)
            .map_err(GpuError::from)?
            .hot_from;
        if g.len() < hot_from || on_cpu > 0 {
            let from = g.len();
            let to = hot_from.max(from + on_cpu).min(n);
            table = cpu::extend(
                &rules, space, table, bits, None, g, to, verify, notify, stop,
            )?
            .table;
            bits = bits.max(bits_of(&g[from..]));
            timings.on_cpu += g.len() - from;
            on_cpu = 0;
            if g.len() < to {
                break; // `stop` ended the run
            }
            continue;
        }
        let (kernels, compiled) = gpu.kernels(&game)?;
        timings.compiled += usize::from(compiled);
        let start = g.len();
        let keep = keep.unwrap_or_else(|| resident(kernels.layout.reach));
        let ended = DeviceRun::new(gpu, &kernels, space, g, keep)?
            .run(&verifier, g, n, verify, stop, timings)?;
        match ended {
            Ended::Done => break,
            Ended::Wrong { heap, value } => {
                let rare = space.is_rare(heap, value);
                table.set(heap, rare.then_some(value));
                bits = bits.max(bits_of(&[value]));
                notify(Notice::TableCorrected {
                    heap,
                    value,
                    rare,
                    table_len: table.len(),
                });
                // Each table needs new kernels (a compilation costs what the CPU engine needs
                // for ~10^5 heaps), and corrections come in bursts while a table settles: the
                // CPU engine, which takes corrections in its stride, goes on for a stretch that
                // doubles while the device proves few heaps between corrections.
                stretch = if heap - start < 4 * stretch {
                    (2 * stretch).min(MAX_CPU_STRETCH)
                } else {
                    MIN_CPU_STRETCH
                };
                on_cpu = stretch;
            }
            Ended::Widen => {
                bits += 1;
                if bits > kernels_gen::MAX_VALUE_BITS {
                    return Err(GpuError::Generate(kernels_gen::GenError::TooWide { bits }).into());
                }
                notify(Notice::Widened { bits });
            }
        }
    }
    Ok(table)
}

/// Value bits of the largest value in `g` (as on the CPU).
fn bits_of(g: &[u16]) -> u32 {
    value_bits(g.iter().copied().max().unwrap_or(0))
}

/// [`extend`] with the CPU's speculative loop ([`Chain::Host`]): a new rare value joins the
/// loop's table on the host, and the device's kernels, whose `verify` reads no table, stay.
#[allow(clippy::too_many_arguments)]
fn extend_host_chain(
    gpu: &mut Gpu,
    keep: Option<Resident>,
    code: &Code,
    space: SparseSpace,
    table: RareTable,
    bits: u32,
    g: &mut ValueStore,
    n: usize,
    notify: &mut dyn FnMut(Notice),
    stop: &mut dyn FnMut(&[u16]) -> Result<bool, SolveError>,
    timings: &mut GpuTimings,
) -> Result<RareTable, SolveError> {
    let rules = code.rules();
    let start = (g.len(), Instant::now());
    let device_time = Arc::new(std::sync::Mutex::new(Duration::ZERO));
    let prover = DeviceProver::new(gpu, keep, code, space, &table, bits, g, device_time.clone())?;
    timings.compiled += usize::from(prover.compiled);
    let mut run = Speculative::with_prover(&rules, space, table, bits, None, Box::new(prover));
    run.extend(g, n, true, notify, stop, usize::MAX)?;
    let heaps = g.len() - start.0;
    timings.host_chain = true;
    timings.speculated += heaps;
    timings.speculate += start.1.elapsed();
    timings.verified += heaps;
    timings.verify += *device_time.lock().expect("no panic holds it");
    Ok(run.table().clone())
}

/// The device's `verify` kernel as the prover of the CPU's speculative loop. It keeps on the
/// device the values [`resident`] says (the first heaps, the last half ring), uploads each range's
/// candidates before proving them, and checks the heap the kernel flags on the CPU.
struct DeviceProver<'a> {
    gpu: &'a mut Gpu,
    code: &'a Code,
    space: SparseSpace,
    /// The table the kernels were generated for (`verify` does not read it).
    table: RareTable,
    bits: u32,
    kernels: Arc<Kernels>,
    buf: Buffers,
    verifier: Verifier,
    /// Heaps below this are on the device with their proved values.
    clean_to: usize,
    /// Whether making the kernels took a compilation.
    compiled: bool,
    /// Device time of the `verify` launches.
    device_time: Arc<std::sync::Mutex<Duration>>,
}

impl<'a> DeviceProver<'a> {
    /// Kernels for values below 2^bits (one bit more than `g` and `bits` need: a value past
    /// them recompiles) and the device's copy of the proved values `g`.
    #[allow(clippy::too_many_arguments)]
    fn new(
        gpu: &'a mut Gpu,
        keep: Option<Resident>,
        code: &'a Code,
        space: SparseSpace,
        table: &RareTable,
        bits: u32,
        g: &[u16],
        device_time: Arc<std::sync::Mutex<Duration>>,
    ) -> Result<DeviceProver<'a>, SolveError> {
        let bits = (bits.max(bits_of(g)) + 1).min(kernels_gen::MAX_VALUE_BITS);
        let game = kernels_gen::Game {
            code,
            space,
            table,
            value_bits: bits,
        };
        let (kernels, compiled) = gpu.kernels(&game)?;
        let keep = keep.unwrap_or_else(|| resident(kernels.layout.reach));
        let mut buf = kernels.buffers(&gpu.stream, keep).map_err(GpuError::from)?;
        let first = keep.first().min(g.len());
        gpu.stream
            .memcpy_htod(&g[..first], &mut buf.first.slice_mut(..first))
            .map_err(GpuError::from)?;
        let mut prover = DeviceProver {
            gpu,
            code,
            space,
            table: table.clone(),
            bits,
            kernels,
            buf,
            verifier: Verifier::new(&code.rules(), space),
            clean_to: g.len().saturating_sub(keep.ring / 2),
            compiled,
            device_time,
        };
        prover.upload(g, g.len())?;
        Ok(prover)
    }

    /// Puts the values of heaps `clean_to .. hi` of `g` on the device.
    fn upload(&mut self, g: &[u16], hi: usize) -> Result<(), GpuError> {
        let keep = self.buf.resident;
        let stream = &self.gpu.stream;
        for (at, heaps) in keep.pieces(self.clean_to, hi) {
            let len = heaps.len();
            stream.memcpy_htod(&g[heaps], &mut self.buf.values.slice_mut(at..at + len))?;
        }
        let first = keep.first();
        if self.clean_to < first {
            let to = hi.min(first);
            stream.memcpy_htod(
                &g[self.clean_to..to],
                &mut self.buf.first.slice_mut(self.clean_to..to),
            )?;
        }
        Ok(())
    }

    /// Kernels for values below 2^bits.
    fn widen(&mut self, bits: u32) -> Result<(), SolveError> {
        if bits > kernels_gen::MAX_VALUE_BITS {
            return Err(GpuError::Generate(kernels_gen::GenError::TooWide { bits }).into());
        }
        let game = kernels_gen::Game {
            code: self.code,
            space: self.space,
            table: &self.table,
            value_bits: bits,
        };
        self.kernels = self.gpu.kernels(&game)?.0;
        self.bits = bits;
        Ok(())
    }
}

impl Prove for DeviceProver<'_> {
    fn prove(&mut self, g: &[u16], range: Range<usize>) -> Result<Result<(), Refuted>, SolveError> {
        let (mut from, hi) = (range.start, range.end);
        let bits = bits_of(&g[from..hi]);
        if bits > self.bits {
            self.widen(bits + 1)?;
        }
        // After a correction the heaps from the failed one on are uploaded again.
        self.clean_to = self.clean_to.min(from);
        self.upload(g, hi)?;
        while from < hi {
            let stream = &self.gpu.stream;
            let timed = self
                .kernels
                .verify(stream, &mut self.buf, 0, from as u64, hi as u64)?;
            timed.wait()?;
            *self.device_time.lock().expect("no panic holds it") += timed.elapsed()?;
            let Some(heap) = self.kernels.flagged(stream, &self.buf, 0)? else {
                break;
            };
            let heap = heap as usize;
            match exact::with_marks(|m| self.verifier.check(g, heap, m)) {
                Ok(()) => from = heap + 1,
                Err(refuted) => {
                    self.clean_to = heap;
                    return Ok(Err(refuted));
                }
            }
        }
        self.clean_to = hi;
        Ok(Ok(()))
    }

    fn max_block(&self) -> usize {
        MAX_BLOCK.min(self.buf.resident.max_block())
    }
}

/// One rare table's run on the device.
struct DeviceRun<'a> {
    gpu: &'a Gpu,
    kernels: &'a Kernels,
    buf: Buffers,
}

impl<'a> DeviceRun<'a> {
    /// Uploads what the device keeps of the proved values `g`: the first heaps, the last half ring
    /// of values (verification reads at most a quarter ring and a block back) and the codes the
    /// options read.
    fn new(
        gpu: &'a Gpu,
        kernels: &'a Kernels,
        space: SparseSpace,
        g: &[u16],
        keep: Resident,
    ) -> Result<DeviceRun<'a>, GpuError> {
        let l = &kernels.layout;
        let need = keep.bytes(l.code_bytes);
        let (free, _) = gpu.ctx.mem_get_info()?;
        if need > free as u64 {
            return Err(GpuError::DeviceMemory {
                need,
                free: free as u64,
                prefix: keep.prefix,
                ring: keep.ring,
            });
        }
        let mut buf = kernels.buffers(&gpu.stream, keep)?;
        let start = g.len();
        let codec = Codec::new(space);
        let stream = &gpu.stream;
        let from = start - l.reach;
        for (at, heaps) in keep.pieces(from, start) {
            let codes: Vec<u8> = g[heaps]
                .iter()
                .flat_map(|&v| {
                    let c = codec.encode(v).to_le_bytes();
                    c.into_iter().take(l.code_bytes)
                })
                .collect();
            let at = at * l.code_bytes;
            stream.memcpy_htod(&codes, &mut buf.codes.slice_mut(at..at + codes.len()))?;
        }
        let first = keep.first().min(start);
        stream.memcpy_htod(&g[..first], &mut buf.first.slice_mut(..first))?;
        for (at, heaps) in keep.pieces(start.saturating_sub(keep.ring / 2), start) {
            let len = heaps.len();
            stream.memcpy_htod(&g[heaps], &mut buf.values.slice_mut(at..at + len))?;
        }
        Ok(DeviceRun { gpu, kernels, buf })
    }

    /// Runs blocks through the device until `g` holds `n` heaps, a candidate is wrong, a mex
    /// leaves the code space or `stop` asks to end. Blocks are queued [`SLOTS`] deep: while the
    /// host takes one (reads its proof, fetches its values, checks a flagged heap, shows the
    /// values to `stop`), the device speculates the next ones on its unproved values and
    /// verifies them beside it. Work queued past the end is thrown away (see `Drop`).
    fn run(
        &mut self,
        verifier: &Verifier,
        g: &mut ValueStore,
        n: usize,
        verify: bool,
        stop: &mut dyn FnMut(&[u16]) -> Result<bool, SolveError>,
        timings: &mut GpuTimings,
    ) -> Result<Ended, SolveError> {
        let window = window().min(self.kernels.max_window());
        let max_block = MAX_BLOCK.min(self.buf.resident.max_block());
        let mut block = MIN_BLOCK.min(max_block);
        let mut queue = VecDeque::new();
        let mut next = g.len();
        let mut slot = 0;
        loop {
            while queue.len() < SLOTS && next < n {
                let hi = (next + block).min(n);
                queue.push_back(self.enqueue(slot, next, hi, window, verify)?);
                (next, slot) = (hi, (slot + 1) % SLOTS);
                block = (2 * block).min(max_block);
            }
            let Some(q) = queue.pop_front() else {
                return Ok(Ended::Done);
            };
            let waiting = Instant::now();
            q.check.as_ref().unwrap_or(&q.values).wait()?;
            timings.waited += waiting.elapsed();
            let copy = &self.gpu.copy;
            let done = self.kernels.speculated(copy, &self.buf, q.slot)?;
            timings.speculate += q.spec.elapsed()?;
            timings.speculated += q.hi - q.lo;
            timings.rounds += done.rounds as usize;
            // A mex beyond the code space ends the block there (the kernel proved it); the
            // blocks queued after it speculated on what it left and are thrown away.
            let hi = done.overflow.map_or(q.hi, |h| h as usize);
            let failed = if let Some(check) = &q.check {
                timings.verify += check.elapsed()?;
                let flagged = self.kernels.flagged(copy, &self.buf, q.slot)?;
                let failed = self.prove(verifier, g, q.lo, hi, q.slot, flagged)?;
                timings.verified += g.len() - q.lo;
                failed
            } else {
                self.fetch(g, q.slot, q.lo, q.lo, hi)?;
                None
            };
            if let Some(f) = failed {
                return Ok(f);
            }
            if verify && stop(g)? {
                return Ok(Ended::Done);
            }
            if done.overflow.is_some() {
                return Ok(Ended::Widen);
            }
        }
    }

    /// Queues block `lo .. hi` in `slot`: speculation, decoding and the copy of its values on
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
        let check = if verify {
            Some(kernels.verify(&gpu.check, &mut self.buf, slot, lo as u64, hi as u64)?)
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
        })
    }

    /// Appends the values of heaps `from .. to` of the block starting at `lo` (from its slot's
    /// copy) to `g`, which ends at `from`.
    fn fetch(
        &self,
        g: &mut ValueStore,
        slot: usize,
        lo: usize,
        from: usize,
        to: usize,
    ) -> Result<(), SolveError> {
        debug_assert_eq!(g.len(), from);
        g.resize(to, 0)?;
        self.gpu
            .copy
            .memcpy_dtoh(
                &self.buf.out[slot].slice(from - lo..to - lo),
                &mut g[from..to],
            )
            .map_err(GpuError::from)?;
        Ok(())
    }

    /// Appends the proved values of heaps `lo .. hi` (a block in `slot`, whose verification
    /// flagged `flagged`) to `g`. A flagged heap is checked on the CPU: if its candidate stands
    /// (a rare candidate, proved by the full mex), the rest of the block is verified again after
    /// it; if not, `g` ends with its true value.
    fn prove(
        &mut self,
        verifier: &Verifier,
        g: &mut ValueStore,
        lo: usize,
        hi: usize,
        slot: usize,
        mut flagged: Option<u64>,
    ) -> Result<Option<Ended>, SolveError> {
        let mut from = lo;
        while from < hi {
            let heap = match flagged {
                Some(f) if (f as usize) < hi => f as usize,
                _ => {
                    self.fetch(g, slot, lo, from, hi)?;
                    break;
                }
            };
            self.fetch(g, slot, lo, from, heap + 1)?;
            match exact::with_marks(|m| verifier.check(g, heap, m)) {
                Ok(()) => from = heap + 1,
                Err(Refuted::Wrong(f)) => {
                    g.truncate(heap);
                    g.push(f.value)?;
                    return Ok(Some(Ended::Wrong {
                        heap,
                        value: f.value,
                    }));
                }
                Err(Refuted::Overflow(o)) => return Err(o.into()),
            }
            if from < hi {
                let copy = &self.gpu.copy;
                self.kernels
                    .verify(copy, &mut self.buf, slot, from as u64, hi as u64)?
                    .wait()?;
                flagged = self.kernels.flagged(copy, &self.buf, slot)?;
            }
        }
        Ok(None)
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

/// A block queued on the device.
struct Queued {
    lo: usize,
    hi: usize,
    slot: usize,
    /// The speculation.
    spec: Timed,
    /// Its decoding and the copy of its values.
    values: Timed,
    /// The verification, when verifying.
    check: Option<Timed>,
}

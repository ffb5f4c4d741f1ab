//! The speculate-verify loop on the device.
//!
//! Heaps before the kernels' first heap run on the CPU loop. From there one device run per
//! source: the values proved so far go to the device, then blocks of heaps go through it queued
//! three deep: the `spec` kernel speculates a block (rounds over a sliding window, one
//! cooperative launch) from the unproved values of the blocks before it, `decode` turns codes
//! into values, and the `verify` kernel proves the block on a second stream beside the next
//! speculation; meanwhile the host takes the oldest block (its proof, its values, its flagged
//! heap), so that the device never waits for the host. Work queued past a failed proof is thrown
//! away. The heap `verify` flags first is settled by the `mex` kernel (every option of the heap,
//! on the whole device) where the device holds all its options, else on the CPU.
//!
//! The rare table is the kernels' data. While rare values still come (the run is below the
//! table's `hot_from`, where options reach rare heaps) the kernels are generated for rare
//! sources: a wrong candidate becomes a rare heap on the device (its code the sentinel, its
//! options appended to the table; one [`Notice::TableCorrected`]) and the run goes on from the
//! next heap with the same kernels. Only a table outgrowing the room its kernels were generated
//! with, a wider value, or a new rare heap in kernels without rare sources generates new ones.
//! Only proved values reach `g`.
//!
//! Small tables ([`Chain::Host`]): a round of `spec` advances few heaps when options reach few
//! heaps back, so the CPU's speculative loop ([`Speculative`]) makes the candidates, one block
//! while the device's `verify` proves the block before ([`DeviceProver`]); a new rare value joins
//! the loop on the host, and the kernels (whose `verify` reads no table) stay.

use super::device::Gpu;
use super::launch::{Buffers, Flags, Kernels, Resident, Timed, SLOTS};
use crate::cpu::{self, Speculative};
use crate::gpu_error::GpuError;
use crate::run::{GpuTimings, Notice, SolveError};
use crate::values::ValueStore;
use crate::verify::{Failure, Prove, Refuted, Verifier};
use cudarc::driver::CudaStream;
use octal_core::codec::{value_bits, Codec, LoopTable};
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

/// Heaps of the first block of a device run; blocks double up to [`Resident::max_block`] (an
/// eighth of the device's ring, at most `launch::MAX_BLOCK`).
const MIN_BLOCK: usize = 1 << 16;

/// The least block after a correction: blocks start at twice the heaps between the last two
/// corrections (a block past a wrong candidate is thrown away), and no smaller than this.
const MIN_GROWING_BLOCK: usize = 1 << 10;

/// Splits of each kind the `verify` kernel tries a heap before it flags the heap for an exact
/// check: while the table grows, at first and at most (the warp of every new rare heap tries
/// them all, while a heap flagged in vain costs a pass of the `mex` kernel), and for a settled
/// table (a heap that needs more is rare).
const GROWING_BUDGET: u64 = 1 << 14;
const MAX_GROWING_BUDGET: u64 = 1 << 21;
const MAX_BUDGET: u64 = 1 << 24;

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

/// Heaps of the device's ring (the last heaps, codes and values) at least: 2^26 heaps, 192 MiB
/// with one-byte codes, and 32 MiB of values for the prefix (a quarter of the ring).
const RING: usize = 1 << 26;

/// The largest ring: 2^32 heaps (the kernels index it with 32-bit arithmetic), 8 GiB of values,
/// 4 or 8 GiB of codes and 2 GiB of first heaps.
const MAX_RING: usize = 1 << 32;

/// What the device keeps for a run to `n` heaps whose options reach `reach` heaps back: every
/// heap up to 2^31 (the `mex` kernel then finds every option of a heap on the device), and the
/// last 2^32 beyond. A run of any length fits: the device's memory bounds nothing.
pub fn resident(reach: usize, n: usize) -> Resident {
    let ring = RING
        .max((2 * (reach + 16)).next_power_of_two())
        .max((2 * n).next_power_of_two().min(MAX_RING));
    Resident {
        prefix: ring / 4,
        ring,
    }
}

/// How a device run ended.
enum Ended {
    /// `g` holds the heaps asked for.
    Done,
    /// `stop` asked to end.
    Stopped,
    /// A candidate was wrong: `g` ends with the heap's true value.
    Wrong { heap: usize, value: u16 },
    /// A mex left the code space: codes need another bit.
    Widen,
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
/// below 2^bits, or until `stop` says stop or the table has needed `corrections` corrections;
/// like [`Speculative::extend`] in every other respect. The speculation runs where
/// [`Chain::for_table`] says. The device keeps the heaps [`resident`] says, or `keep` (tests: a
/// small ring wraps often). Returns the table the engine ended with and how it ended.
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
    corrections: usize,
    timings: &mut GpuTimings,
) -> Result<(RareTable, cpu::Ended), SolveError> {
    let rules = code.rules();
    if verify && Chain::for_table(&rules, &table) == Chain::Host {
        return extend_host_chain(
            gpu,
            keep,
            code,
            space,
            table,
            bits,
            g,
            n,
            notify,
            stop,
            corrections,
            timings,
        );
    }
    let verifier = Verifier::new(&rules, space);
    let allowed = rare_sources_allowed(&rules, space);
    let mut need = device_chain_bits(bits, max_of(g), &table);
    // Corrections made so far.
    let mut made = 0;
    while g.len() < n {
        let hot_from = LoopTable::new(&rules, space, &table).hot_from;
        let rare_sources = g.len() < hot_from;
        if rare_sources && !allowed {
            let from = g.len();
            let mut run = Speculative::new(&rules, space, table, bits, None);
            let ended = run.extend(g, hot_from.min(n), verify, notify, stop, corrections - made)?;
            table = run.table().clone();
            bits = bits.max(bits_of(&g[from..]));
            need = need.max(bits_of(&g[from..]));
            timings.on_cpu += g.len() - from;
            if ended != cpu::Ended::Reached {
                return Ok((table, ended));
            }
            continue;
        }
        let game = kernels_gen::Game {
            code,
            space,
            table: &table,
            value_bits: need,
            rare_sources,
        };
        let setup = Instant::now();
        // Past `hot_from` without rare sources (which bounds the kernels' first heap: options reach
        // at most the last rare heap and a digit back), from heap 1 with them.
        let (kernels, compiled) = gpu.kernels(&game)?;
        timings.compiled += usize::from(compiled);
        let keep = keep.unwrap_or_else(|| resident(kernels.layout.reach, n));
        let mut run = DeviceRun::new(gpu, &kernels, space, g, keep, verify)?;
        let mut options = kernels.layout.options.clone();
        timings.setup += setup.elapsed();
        // Kernels for rare sources run while options reach rare heaps (to `hot_from`, which each
        // new rare heap moves); past it the faster ones take over (one-byte codes for 9 bits).
        let mut until = if rare_sources { hot_from.min(n) } else { n };
        // Whether the codes need another bit (else new kernels for the table).
        let widen = loop {
            // A replay's table (not verifying) lists the rare heaps ahead: the device's
            // speculation stops before each, which takes the table's value.
            let listed = if verify {
                &[][..]
            } else {
                listed_between(&table, g.len(), until)
            };
            match run.run(&verifier, g, until, verify, stop, listed, timings)? {
                Ended::Wrong { heap, value } => {
                    let started = Instant::now();
                    until = until.max((2 * heap + rules.t + 1).min(n));
                    let rare = space.is_rare(heap, value);
                    table.set(heap, rare.then_some(value));
                    bits = bits.max(bits_of(&[value]));
                    need = need.max(bits_of_value(value));
                    notify(Notice::TableCorrected {
                        heap,
                        value,
                        rare,
                        table_len: table.len(),
                    });
                    // The same kernels go on when they compute rare sources, the value fits
                    // their codes and the table their room.
                    let same_kernels = rare_sources
                        && need <= kernels.layout.value_bits
                        && run.correct(&rules, &mut options, heap, value, rare)?;
                    timings.correct += started.elapsed();
                    made += 1;
                    if made >= corrections {
                        return Ok((table, cpu::Ended::Corrected));
                    }
                    if !same_kernels {
                        break false;
                    }
                }
                Ended::Done => break false,
                Ended::Stopped => return Ok((table, cpu::Ended::Stopped)),
                Ended::Widen => break true,
            }
        };
        if widen {
            need = kernels.layout.value_bits + 1;
            bits = bits.max(need);
            if need > kernels_gen::MAX_VALUE_BITS {
                return Err(GpuError::Generate(kernels_gen::GenError::TooWide { bits }).into());
            }
            notify(Notice::Widened { bits });
        }
    }
    Ok((table, cpu::Ended::Reached))
}

/// The entries of `table` for heaps `from .. to`.
fn listed_between(table: &RareTable, from: usize, to: usize) -> &[(usize, u16)] {
    let entries = table.entries();
    &entries[entries.partition_point(|e| e.0 < from)..entries.partition_point(|e| e.0 < to)]
}

/// Value bits of the largest value in `g` (as on the CPU).
fn bits_of(g: &[u16]) -> u32 {
    value_bits(max_of(g))
}

/// The largest value in `g` (0 for none).
fn max_of(g: &[u16]) -> u16 {
    g.iter().copied().max().unwrap_or(0)
}

/// Bits the device chain's kernels need at least for values up to `g_max`, `table` and `bits`
/// (the CPU's floor of 9 bits aside: kernels for rare sources keep a code spare for the sentinel,
/// and one-byte codes hold values below 2^8).
fn device_chain_bits(bits: u32, g_max: u16, table: &RareTable) -> u32 {
    let table_max = table.entries().iter().map(|e| e.1).max().unwrap_or(0);
    let need = bits_of_value(g_max).max(bits_of_value(table_max));
    if bits > octal_core::codec::MIN_VALUE_BITS {
        need.max(bits)
    } else {
        need
    }
}

/// Bits of the host chain's kernels for values up to `g_max` and `bits`: one more than they need
/// (a value past them recompiles).
fn host_chain_bits(bits: u32, g_max: u16) -> u32 {
    (bits.max(value_bits(g_max)) + 1).min(kernels_gen::MAX_VALUE_BITS)
}

/// Compiles the kernels [`extend`] starts with for `table` after `g_len` heaps whose largest value
/// is `g_max` (none where it starts on the CPU), so that it finds them in the device's cache: a
/// device that opens beside the host's work does this on its own thread. A failure is left for
/// [`extend`] to report.
#[allow(clippy::too_many_arguments)]
pub fn prepare(
    gpu: &mut Gpu,
    code: &Code,
    space: SparseSpace,
    table: &RareTable,
    bits: u32,
    g_len: usize,
    g_max: u16,
    verify: bool,
) {
    let rules = code.rules();
    let (value_bits, rare_sources) = if verify && Chain::for_table(&rules, table) == Chain::Host {
        (host_chain_bits(bits, g_max), false)
    } else {
        let rare_sources = g_len < LoopTable::new(&rules, space, table).hot_from;
        if rare_sources && !rare_sources_allowed(&rules, space) {
            return;
        }
        (device_chain_bits(bits, g_max, table), rare_sources)
    };
    let game = kernels_gen::Game {
        code,
        space,
        table,
        value_bits,
        rare_sources,
    };
    let _ = gpu.kernels(&game);
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
    corrections: usize,
    timings: &mut GpuTimings,
) -> Result<(RareTable, cpu::Ended), SolveError> {
    let rules = code.rules();
    let start = (g.len(), Instant::now());
    let device_time = Arc::new(std::sync::Mutex::new(Duration::ZERO));
    let prover = DeviceProver::new(gpu, keep, code, space, &table, bits, g, device_time.clone())?;
    timings.compiled += usize::from(prover.compiled);
    let mut run = Speculative::with_prover(&rules, space, table, bits, None, Box::new(prover));
    let ended = run.extend(g, n, true, notify, stop, corrections)?;
    let heaps = g.len() - start.0;
    timings.host_chain = true;
    timings.speculated += heaps;
    timings.speculate += start.1.elapsed();
    timings.verified += heaps;
    timings.verify += *device_time.lock().expect("no panic holds it");
    Ok((run.table().clone(), ended))
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
        let bits = host_chain_bits(bits, max_of(g));
        let game = kernels_gen::Game {
            code,
            space,
            table,
            value_bits: bits,
            rare_sources: false,
        };
        let (kernels, compiled) = gpu.kernels(&game)?;
        let keep = keep.unwrap_or_else(|| resident(kernels.layout.reach, 0));
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
            rare_sources: false,
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
            let timed = self.kernels.verify(
                stream,
                &mut self.buf,
                0,
                from as u64,
                hi as u64,
                MAX_BUDGET,
            )?;
            timed.wait()?;
            *self.device_time.lock().expect("no panic holds it") += timed.elapsed()?;
            let flags = self.kernels.flagged(stream, &self.buf, 0)?;
            let heaps = flags.heaps_below(hi as u64);
            let Some(&least) = heaps.first() else {
                break;
            };
            let (verdict, _) = settle(
                &self.kernels,
                stream,
                &mut self.buf,
                &self.verifier,
                g,
                &heaps,
            )?;
            if let Err(refuted) = verdict {
                self.clean_to = least as usize;
                return Ok(Err(refuted));
            }
            match flags.first {
                Some(f) if (f as usize) < hi => from = f as usize + 1,
                _ => break,
            }
        }
        self.clean_to = hi;
        Ok(Ok(()))
    }

    fn max_block(&self) -> usize {
        self.buf.resident.max_block()
    }
}

/// One device run: the kernels for one source, its buffers, and how it goes on.
struct DeviceRun<'a> {
    gpu: &'a Gpu,
    kernels: &'a Kernels,
    buf: Buffers,
    space: SparseSpace,
    codec: Codec,
    /// Heaps of the next run's first block.
    block: usize,
    /// Splits of each kind `verify` tries a heap (see [`GROWING_BUDGET`]), and the most it
    /// doubles to.
    budget: u64,
    max_budget: u64,
    /// The heap of the last correction.
    corrected: usize,
}

impl<'a> DeviceRun<'a> {
    /// Uploads what the device keeps of the proved values `g`: the first heaps, the last half ring
    /// of values and codes (options reach at most half a ring back; verification at most a
    /// quarter ring and a block), a rare heap's code the sentinel where the kernels take rare
    /// sources.
    fn new(
        gpu: &'a Gpu,
        kernels: &'a Kernels,
        space: SparseSpace,
        g: &[u16],
        keep: Resident,
        verify: bool,
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
        let back = start.saturating_sub(keep.ring / 2);
        for (at, heaps) in keep.pieces(back, start) {
            let len = heaps.len();
            let codes: Vec<u8> = heaps
                .clone()
                .zip(&g[heaps.clone()])
                .flat_map(|(h, &v)| code_bytes(&codec, l, v, space.is_rare(h, v)))
                .collect();
            let bytes = at * l.code_bytes;
            stream.memcpy_htod(&codes, &mut buf.codes.slice_mut(bytes..bytes + codes.len()))?;
            stream.memcpy_htod(&g[heaps], &mut buf.values.slice_mut(at..at + len))?;
        }
        let first = keep.first().min(start);
        stream.memcpy_htod(&g[..first], &mut buf.first.slice_mut(..first))?;
        let budget = if l.rare_sources && verify {
            GROWING_BUDGET
        } else {
            MAX_BUDGET
        };
        Ok(DeviceRun {
            gpu,
            kernels,
            buf,
            space,
            codec,
            block: if l.rare_sources {
                MIN_GROWING_BLOCK
            } else {
                MIN_BLOCK
            }
            .min(keep.max_block()),
            budget,
            max_budget: max_growing_budget(),
            corrected: start,
        })
    }

    /// Queues on the speculation's stream the write of `value` as heap `heap`'s value and code,
    /// the code the sentinel where it is `rare` and the kernels take rare sources: blocks queued
    /// after it read it, those before do not.
    fn put(&mut self, heap: usize, value: u16, rare: bool) -> Result<(), GpuError> {
        let (l, keep) = (&self.kernels.layout, self.buf.resident);
        let stream = &self.gpu.stream;
        let at = heap % keep.ring;
        let codes: Vec<u8> = code_bytes(&self.codec, l, value, rare).collect();
        let (lo, hi) = (at * l.code_bytes, (at + 1) * l.code_bytes);
        stream.memcpy_htod(&codes, &mut self.buf.codes.slice_mut(lo..hi))?;
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
            let code = self.codec.encode(value);
            for &i in &rules.breaking {
                let o = (i + heap, code);
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
    /// and starts the next blocks at twice the heaps since the last heap written.
    fn write(&mut self, heap: usize, value: u16, rare: bool) -> Result<(), GpuError> {
        self.put(heap, value, rare)?;
        let keep = self.buf.resident;
        let gap = heap - self.corrected;
        self.corrected = heap;
        self.block = (2 * gap).clamp(MIN_GROWING_BLOCK, keep.max_block());
        Ok(())
    }

    /// Runs blocks through the device until `g` holds `n` heaps, a candidate is wrong, a mex
    /// leaves the code space or `stop` asks to end. Blocks are queued [`SLOTS`] deep: while the
    /// host takes one (reads its proof, fetches its values, checks a flagged heap, shows the
    /// values to `stop`), the device speculates the next ones on its unproved values and
    /// verifies them beside it. Work queued past the end is thrown away (see `Drop`). A replay
    /// (not verifying) gives the heaps `listed` (the table's, in order) the table's values: the
    /// blocks end before each, whose value is written between them on the device's queue.
    #[allow(clippy::too_many_arguments)]
    fn run(
        &mut self,
        verifier: &Verifier,
        g: &mut ValueStore,
        n: usize,
        verify: bool,
        stop: &mut dyn FnMut(&[u16]) -> Result<bool, SolveError>,
        mut listed: &[(usize, u16)],
        timings: &mut GpuTimings,
    ) -> Result<Ended, SolveError> {
        let window = window().min(self.kernels.max_window());
        let max_block = self.buf.resident.max_block();
        let mut block = self.block;
        let mut queue: VecDeque<Queued> = VecDeque::new();
        let mut next = g.len();
        let mut slot = 0;
        loop {
            // While the table grows, blocks wait for the one before to be proved until they
            // reach MIN_BLOCK: the work queued past a wrong candidate is thrown away, and its
            // verification (every heap fails) would hold the device up.
            let depth = if verify && self.grows() && block < MIN_BLOCK {
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
                let hi = (next + block).min(end);
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
            timings.blocks += 1;
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
                let failed = self.prove(verifier, g, q.lo, hi, q.slot, flagged, timings)?;
                timings.verified += g.len() - q.lo;
                failed
            } else {
                self.fetch(g, q.slot, q.lo, q.lo, hi)?;
                if done.overflow.is_none() {
                    g.extend_from_slice(&q.then)?;
                }
                None
            };
            timings.taking += waiting.elapsed();
            if let Some(f) = failed {
                return Ok(f);
            }
            if verify && stop(g)? {
                return Ok(Ended::Stopped);
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
            let budget = self.budget;
            Some(kernels.verify(
                &gpu.check,
                &mut self.buf,
                slot,
                lo as u64,
                hi as u64,
                budget,
            )?)
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
            then: Vec::new(),
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
    /// flagged `flags`) to `g`. The flagged heaps are checked exactly ([`settle`]): if their
    /// candidates stand, the rest of the block past the least heap the list left out is verified
    /// again; if one does not, `g` ends with its true value. The budget doubles while many
    /// flagged heaps stand (each costs the `mex` kernel a pass over its options) and halves when
    /// a correction came alone (its warp paid the budget for nothing).
    #[allow(clippy::too_many_arguments)]
    fn prove(
        &mut self,
        verifier: &Verifier,
        g: &mut ValueStore,
        lo: usize,
        hi: usize,
        slot: usize,
        mut flags: Flags,
        timings: &mut GpuTimings,
    ) -> Result<Option<Ended>, SolveError> {
        let mut from = lo;
        loop {
            let heaps = flags.heaps_below(hi as u64);
            let Some(&last) = heaps.last() else {
                self.fetch(g, slot, lo, from, hi)?;
                return Ok(None);
            };
            let last = last as usize;
            self.fetch(g, slot, lo, from, last + 1)?;
            let started = Instant::now();
            let copy = &self.gpu.copy;
            let (verdict, stood) = settle(self.kernels, copy, &mut self.buf, verifier, g, &heaps)?;
            timings.checked += stood + usize::from(verdict.is_err());
            timings.check += started.elapsed();
            if self.grows() && self.budget < self.max_budget && 256 * stood > hi - lo {
                self.budget *= 2;
            }
            match verdict {
                Ok(()) => {}
                Err(Refuted::Wrong(f)) => {
                    if self.grows() && stood == 0 {
                        self.budget = (self.budget / 2).max(GROWING_BUDGET);
                    }
                    g.truncate(f.heap);
                    g.push(f.value)?;
                    return Ok(Some(Ended::Wrong {
                        heap: f.heap,
                        value: f.value,
                    }));
                }
                Err(Refuted::Overflow(o)) => return Err(o.into()),
            }
            from = last + 1;
            match flags.first {
                Some(f) if (f as usize) < hi && from < hi => {
                    let started = Instant::now();
                    let budget = self.budget;
                    self.kernels
                        .verify(copy, &mut self.buf, slot, from as u64, hi as u64, budget)?
                        .wait()?;
                    flags = self.kernels.flagged(copy, &self.buf, slot)?;
                    timings.reverify += started.elapsed();
                }
                _ => {
                    self.fetch(g, slot, lo, from, hi)?;
                    return Ok(None);
                }
            }
        }
    }
}

/// A verdict on heaps taken in order: the first refuted (every heap before it stood), and how many
/// stood.
type Settled = (Result<(), Refuted>, usize);

/// Checks the candidates of `heaps` (flagged, in increasing order; `g` holds the candidates up to
/// the last, and the device the same) exactly, in batches that double from one heap
/// ([`in_doubling_batches`]): a wrong candidate ends the block, and the exact values of the heaps
/// listed after it would be thrown away. A batch goes to the `mex` kernel for every heap whose
/// options the device holds (one launch, a grid row a heap), to the CPU for the others. Returns
/// the first that is wrong (every heap before it stands), and how many stood.
fn settle(
    kernels: &Kernels,
    stream: &Arc<CudaStream>,
    buf: &mut Buffers,
    verifier: &Verifier,
    g: &[u16],
    heaps: &[u64],
) -> Result<Settled, SolveError> {
    in_doubling_batches(heaps.len(), |batch| {
        let heaps = &heaps[batch];
        let held: Vec<bool> = heaps
            .iter()
            .map(|&h| buf.resident.holds_options_of(h as usize))
            .collect();
        let on_device: Vec<u64> = heaps
            .iter()
            .zip(&held)
            .filter(|p| *p.1)
            .map(|p| *p.0)
            .collect();
        let mut exact_values = kernels.mex(stream, buf, &on_device)?.into_iter();
        for (stood, (&h, &held)) in heaps.iter().zip(&held).enumerate() {
            let heap = h as usize;
            let on_device = if held {
                exact_values.next().flatten()
            } else {
                None
            };
            let verdict = match on_device {
                Some(v) if v == g[heap] => Ok(()),
                Some(value) => Err(Refuted::Wrong(Failure { heap, value })),
                None => exact::with_marks(|m| verifier.check(g, heap, m)),
            };
            if verdict.is_err() {
                return Ok((verdict, stood));
            }
        }
        Ok((Ok(()), heaps.len()))
    })
}

/// Runs `settle` on consecutive ranges of `0 .. len`, of 1, 2, 4, ... items, until one is refuted;
/// its verdict, with how many items of all stood. A refutation at item k costs at most 2k + 1
/// items settled instead of `len`, a list that stands ceil(log2(len + 1)) calls instead of one.
fn in_doubling_batches<E>(
    len: usize,
    mut settle: impl FnMut(Range<usize>) -> Result<Settled, E>,
) -> Result<Settled, E> {
    let (mut from, mut batch) = (0, 1);
    while from < len {
        let to = (from + batch).min(len);
        let (verdict, stood) = settle(from..to)?;
        if verdict.is_err() {
            return Ok((verdict, from + stood));
        }
        (from, batch) = (to, 2 * batch);
    }
    Ok((Ok(()), len))
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
    /// A replay's listed values of the heaps right after the block, written on the device
    /// after it.
    then: Vec<u16>,
}

/// The code bytes of heap `h` with value `v` on the device (little-endian, the layout's width):
/// the sentinel (all ones) for a rare heap where the kernels take rare sources.
fn code_bytes(
    codec: &Codec,
    l: &kernels_gen::Layout,
    v: u16,
    rare: bool,
) -> impl Iterator<Item = u8> {
    let code = if l.rare_sources && rare {
        u16::MAX
    } else {
        codec.encode(v)
    };
    code.to_le_bytes().into_iter().take(l.code_bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Doubling batches settle every item, in order and once each, up to the first refuted one,
    /// at most 2k + 1 of them when item k is refuted, and report how many stood.
    #[test]
    fn doubling_batches_stop_at_the_first_refuted_item() {
        for len in 0..70 {
            for wrong in (0..len).map(Some).chain([None]) {
                let mut settled = Vec::new();
                let (verdict, stood) = in_doubling_batches::<()>(len, |batch| {
                    for i in batch.clone() {
                        if Some(i) == wrong {
                            let failure = Failure { heap: i, value: 0 };
                            return Ok((Err(Refuted::Wrong(failure)), i - batch.start));
                        }
                        settled.push(i);
                    }
                    Ok((Ok(()), batch.len()))
                })
                .unwrap();
                match wrong {
                    Some(k) => {
                        assert!(matches!(verdict, Err(Refuted::Wrong(f)) if f.heap == k));
                        assert_eq!(stood, k);
                        assert_eq!(settled, (0..k).collect::<Vec<_>>());
                    }
                    None => {
                        assert!(verdict.is_ok());
                        assert_eq!(stood, len);
                        assert_eq!(settled, (0..len).collect::<Vec<_>>());
                    }
                }
            }
        }
    }

    /// A refutation at item k leaves at most 2k + 1 items handed to `settle`.
    #[test]
    fn doubling_batches_hand_out_at_most_twice_the_items_before_a_refutation() {
        for len in 1..300 {
            for k in 0..len {
                let mut handed = 0;
                let _ = in_doubling_batches::<()>(len, |batch| {
                    handed += batch.len();
                    Ok(if batch.contains(&k) {
                        let failure = Failure { heap: k, value: 0 };
                        (Err(Refuted::Wrong(failure)), k - batch.start)
                    } else {
                        (Ok(()), batch.len())
                    })
                });
                assert!(handed <= 2 * k + 1, "len {len}, k {k}: {handed} handed out");
            }
        }
    }
}

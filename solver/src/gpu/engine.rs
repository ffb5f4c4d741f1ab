//! The speculate-verify loop on the device.
//!
//! Heaps before the kernels' first heap (where options may reach two rare heaps) run on the CPU
//! loop. From there one session per rare table: the values proved so far go to the device, then
//! block by block the `spec` kernel speculates the block (rounds over a sliding window, one
//! cooperative launch), `decode` turns codes into values and the `verify` kernel proves the
//! block on a second stream while the next block is speculated from the unproved values (work
//! thrown away if the proof fails). The heap `verify` flags first is checked on the CPU: a wrong
//! candidate ends the session with the corrected table (one [`Notice::TableCorrected`]), and the
//! CPU engine computes a stretch of heaps before the device resumes with kernels for the table it
//! then has (corrections come in bursts, and each table costs a compilation); a mex beyond the
//! code space ends it with wider codes ([`Notice::Widened`]). Only proved values reach `g`.

use super::device::Gpu;
use super::launch::{Buffers, Kernels, Resident};
use super::{GpuError, Timings};
use crate::solve::{self, Notice, SolveError};
use crate::values::ValueStore;
use crate::verify::{Refuted, Verifier};
use octal_core::codec::Codec;
use octal_core::exact;
use octal_core::{Code, RareTable, SparseSpace};
use std::time::Instant;

/// Heaps of the `spec` kernel's window: the fastest of 512 .. 8192 on Officers on the H200
/// (bench/results/officers-gpu-h200-window.md).
const DEFAULT_WINDOW: usize = 4096;

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

/// Heaps of the first block of a session; blocks double up to `MAX_BLOCK` (and a quarter of the
/// device's ring).
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

/// How a session ended.
enum Ended {
    /// `g` holds the heaps asked for, or `stop` asked to end.
    Done,
    /// A candidate was wrong: the table gets this heap and value.
    Wrong { heap: usize, value: u16 },
    /// A mex left the code space: codes need another bit.
    Widen,
}

/// Extends `g` (proved values) to `n` heaps on the GPU, seeded with `table` and codes for values
/// below 2^bits; like [`solve::speculate_verify`] in every other respect. The device keeps the
/// heaps [`resident`] says, or `keep` (tests: a small ring wraps often). Returns the table the
/// engine ended with.
#[allow(clippy::too_many_arguments)]
pub fn speculate_verify(
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
    timings: &mut Timings,
) -> Result<RareTable, SolveError> {
    let rules = code.rules();
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
            table = solve::speculate_verify(
                &rules, space, table, bits, None, g, to, verify, notify, stop,
            )?;
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
        let ended = Session::new(gpu, &kernels, space, g, keep)?
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

/// Value bits of the largest value in `g` (at least 9, as on the CPU).
fn bits_of(g: &[u16]) -> u32 {
    let max = g.iter().copied().max().unwrap_or(0);
    (16 - max.leading_zeros()).max(9)
}

/// One rare table's run on the device.
struct Session<'a> {
    gpu: &'a Gpu,
    kernels: &'a Kernels,
    buf: Buffers,
}

impl<'a> Session<'a> {
    /// Uploads what the device keeps of the proved values `g`: the first heaps, the last half ring
    /// of values (verification reads at most a quarter ring and a block back) and the codes the
    /// options read.
    fn new(
        gpu: &'a Gpu,
        kernels: &'a Kernels,
        space: SparseSpace,
        g: &[u16],
        keep: Resident,
    ) -> Result<Session<'a>, GpuError> {
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
        Ok(Session { gpu, kernels, buf })
    }

    fn run(
        mut self,
        verifier: &Verifier,
        g: &mut ValueStore,
        n: usize,
        verify: bool,
        stop: &mut dyn FnMut(&[u16]) -> Result<bool, SolveError>,
        timings: &mut Timings,
    ) -> Result<Ended, SolveError> {
        let stream = self.gpu.stream.clone();
        let window = window().min(self.kernels.max_window());
        let max_block = MAX_BLOCK.min(self.buf.resident.ring / 4);
        let mut block = MIN_BLOCK.min(max_block);
        let mut lo = g.len();
        let mut hi = (lo + block).min(n);
        let mut started = Instant::now();
        self.kernels
            .spec(&stream, &mut self.buf, lo as u64, hi as u64, window)?;
        loop {
            let done = self.kernels.speculated(&stream, &self.buf)?;
            timings.rounds += done.rounds as usize;
            let widen = done.overflow.is_some();
            if let Some(heap) = done.overflow {
                hi = heap as usize;
            }
            self.kernels
                .decode(&stream, &mut self.buf, lo as u64, hi as u64)?;
            stream.synchronize().map_err(GpuError::from)?;
            timings.speculate += started.elapsed();
            timings.speculated += hi - lo;
            // The next block speculates on this one's values while they are verified.
            let next = (!widen && hi < n).then(|| {
                block = (block * 2).min(max_block);
                (hi, (hi + block).min(n))
            });
            if let Some((from, to)) = next {
                started = Instant::now();
                self.kernels
                    .spec(&stream, &mut self.buf, from as u64, to as u64, window)?;
            }
            let t = Instant::now();
            let failed = if verify {
                self.verify(verifier, g, lo, hi)?
            } else {
                self.fetch(g, lo, hi)?;
                None
            };
            timings.verify += t.elapsed();
            timings.verified += g.len() - lo;
            if let Some(f) = failed {
                return Ok(f);
            }
            if verify && stop(g)? {
                return Ok(Ended::Done);
            }
            if widen {
                return Ok(Ended::Widen);
            }
            match next {
                Some((from, to)) => (lo, hi) = (from, to),
                None => return Ok(Ended::Done),
            }
        }
    }

    /// Appends the device values of heaps `lo .. hi` to `g` (which ends at `lo`).
    fn fetch(&self, g: &mut ValueStore, lo: usize, hi: usize) -> Result<(), SolveError> {
        debug_assert_eq!(g.len(), lo);
        g.resize(hi, 0)?;
        for (at, heaps) in self.buf.resident.pieces(lo, hi) {
            let len = heaps.len();
            self.gpu
                .check
                .memcpy_dtoh(&self.buf.values.slice(at..at + len), &mut g[heaps])
                .map_err(GpuError::from)?;
        }
        Ok(())
    }

    /// Verifies heaps `lo .. hi` on the device and appends the proved ones to `g`. A heap the
    /// kernel flags is checked on the CPU: if its candidate stands (a rare candidate, proved by
    /// the full mex), verification goes on after it; if not, `g` ends with its true value.
    fn verify(
        &mut self,
        verifier: &Verifier,
        g: &mut ValueStore,
        lo: usize,
        hi: usize,
    ) -> Result<Option<Ended>, SolveError> {
        let stream = self.gpu.check.clone();
        let mut from = lo;
        while from < hi {
            stream
                .memcpy_htod(&[u64::MAX], &mut self.buf.first_fail)
                .map_err(GpuError::from)?;
            self.kernels
                .verify(&stream, &mut self.buf, from as u64, hi as u64)?;
            let flagged = stream
                .clone_dtoh(&self.buf.first_fail)
                .map_err(GpuError::from)?[0];
            let end = if flagged == u64::MAX {
                hi
            } else {
                flagged as usize + 1
            };
            self.fetch(g, from, end)?;
            if flagged == u64::MAX {
                break;
            }
            let heap = flagged as usize;
            match exact::with_marks(|m| verifier.check(g, heap, m)) {
                Ok(()) => from = end,
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
        }
        Ok(None)
    }
}

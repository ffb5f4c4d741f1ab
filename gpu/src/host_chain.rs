//! The host chain, for small tables: the CPU's speculative loop makes the candidates, a batch at
//! a time, while the device's `verify` kernel proves the batch before ([`DeviceProver`]). A new
//! rare value joins the loop's table on the host, and the device's kernels, whose `verify` reads
//! no table, stay.

use crate::device::Gpu;
use crate::device_loop::{bits_of, resident, within, MAX_BUDGET};
use crate::engine::DeviceEngine;
use crate::error::GpuError;
use crate::launch::{Buffers, Kernels};
use crate::settle::settle;
use crate::timings::GpuTimings;
use octal_core::codec::value_bits;
use octal_core::{Code, Kept, RareTable, SparseSpace};
use octal_engines::speculative::Speculative;
use octal_engines::stretch::{Ended, EngineError, Stretch, StretchEngine};
use octal_engines::verify::{Prove, Refuted, Verifier};
use std::ops::Range;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Bits of the host chain's kernels for values up to `g_max` and `bits`: one more than they need
/// (a value past them recompiles).
pub(crate) fn host_chain_bits(bits: u32, g_max: u16) -> u32 {
    (bits.max(value_bits(g_max)) + 1).min(kernels_gen::MAX_VALUE_BITS)
}

/// Extends the values of `s` on the host chain: the CPU's speculative loop, seeded with `e`'s
/// table, with the device as its prover; `e`'s table and `t` take what the stretch did.
pub(crate) fn extend(
    e: &mut DeviceEngine,
    s: &mut Stretch<'_>,
    t: &mut GpuTimings,
) -> Result<Ended, EngineError> {
    let start = (s.values.len(), Instant::now());
    let device_time = Arc::new(Mutex::new(Duration::ZERO));
    let prover = DeviceProver::new(e, s.values.kept(), device_time.clone())?;
    t.compiled += usize::from(prover.compiled);
    let rules = e.rules.clone();
    let (space, bits) = (e.space, e.bits());
    let mut run =
        Speculative::with_prover(&rules, space, e.table.clone(), bits, None, Box::new(prover));
    let ended = run.extend(s)?;
    let heaps = s.values.len() - start.0;
    t.host_chain = true;
    t.speculated += heaps;
    t.speculate += start.1.elapsed();
    t.verified += heaps;
    t.verify += *device_time.lock().expect("no panic holds it");
    e.table = run.table().clone();
    Ok(ended)
}

/// The device's `verify` kernel as the prover of the CPU's speculative loop. It keeps on the
/// device the values [`resident`] says (the first heaps, the last half ring), uploads each range's
/// candidates before proving them, and checks the heap the kernel flags on the CPU.
struct DeviceProver {
    gpu: Gpu,
    code: Code,
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
    device_time: Arc<Mutex<Duration>>,
}

impl DeviceProver {
    /// Kernels for `e`'s game and table, for values below 2^bits (one bit more than `g` and the
    /// engine's table need: a value past them recompiles), and the device's copy of the proved
    /// values `g`.
    fn new(
        e: &DeviceEngine,
        g: Kept<'_>,
        device_time: Arc<Mutex<Duration>>,
    ) -> Result<DeviceProver, GpuError> {
        let (gpu, space, table) = (&e.gpu, e.space, &e.table);
        let bits = host_chain_bits(e.bits(), g.max_value());
        let spec = kernels_gen::KernelSpec {
            code: &e.code,
            space,
            table,
            value_bits: bits,
            rare_sources: false,
        };
        let (kernels, compiled) = gpu.kernels(&spec)?;
        let keep = within(
            e.keep.unwrap_or_else(|| resident(kernels.layout.reach, 0)),
            g,
        );
        let mut buf = kernels.buffers(&gpu.stream, keep)?;
        let first = keep.first().min(g.len());
        gpu.stream
            .memcpy_htod(&g.front()[..first], &mut buf.first.slice_mut(..first))?;
        let mut prover = DeviceProver {
            gpu: gpu.clone(),
            code: e.code.clone(),
            space,
            table: table.clone(),
            bits,
            kernels,
            buf,
            verifier: Verifier::new(&e.rules, space),
            clean_to: g.len().saturating_sub(keep.ring / 2).max(g.base()),
            compiled,
            device_time,
        };
        prover.upload(g, g.len())?;
        Ok(prover)
    }

    /// Puts the values of heaps `clean_to .. hi` of `g` on the device (a run that holds only
    /// its front and tail holds them).
    fn upload(&mut self, g: Kept<'_>, hi: usize) -> Result<(), GpuError> {
        let keep = self.buf.resident;
        let stream = &self.gpu.stream;
        for (at, heaps) in keep.pieces(self.clean_to, hi) {
            let len = heaps.len();
            let values = g.range(heaps).expect("the tail holds the heaps uploaded");
            stream.memcpy_htod(values, &mut self.buf.values.slice_mut(at..at + len))?;
        }
        let first = keep.first();
        if self.clean_to < first {
            let to = hi.min(first);
            stream.memcpy_htod(
                &g.front()[self.clean_to..to],
                &mut self.buf.first.slice_mut(self.clean_to..to),
            )?;
        }
        Ok(())
    }

    /// Kernels for values below 2^bits.
    fn widen(&mut self, bits: u32) -> Result<(), GpuError> {
        if bits > kernels_gen::MAX_VALUE_BITS {
            return Err(GpuError::Generate(kernels_gen::GenError::TooWide { bits }));
        }
        let spec = kernels_gen::KernelSpec {
            code: &self.code,
            space: self.space,
            table: &self.table,
            value_bits: bits,
            rare_sources: false,
        };
        self.kernels = self.gpu.kernels(&spec)?.0;
        self.bits = bits;
        Ok(())
    }
}

impl Prove for DeviceProver {
    fn prove(
        &mut self,
        g: Kept<'_>,
        range: Range<usize>,
    ) -> Result<Result<(), Refuted>, EngineError> {
        let (mut from, hi) = (range.start, range.end);
        let bits = bits_of(g.range(from..hi).expect("the tail holds the range proved"));
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

    fn max_batch(&self) -> usize {
        self.buf.resident.max_batch()
    }
}

//! The host chain, for small tables: the CPU's speculative loop makes the candidates, a batch at
//! a time, while the device's `verify` kernel proves the batch before ([`DeviceProver`]). A new
//! rare value joins the loop's table on the host, and the device's kernels, whose `verify` reads
//! no table, stay.

use crate::device_loop::{bits_of, resident, within, MAX_BUDGET};
use crate::engine::DeviceEngine;
use crate::error::GpuError;
use crate::launch::Strided;
use crate::mirror::Mirror;
use crate::settle::{settle, OnDevice};
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
    let (prover, compiled) = DeviceProver::new(e, s.values.kept(), device_time.clone())?;
    t.compiled += usize::from(compiled);
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
/// device the values [`resident`] says (the first heaps, the last half ring: a [`Mirror`]),
/// uploads each range's candidates before proving them, and checks the heap the kernel flags on
/// the CPU.
struct DeviceProver {
    code: Code,
    space: SparseSpace,
    /// The table the kernels were generated for (`verify` does not read it).
    table: RareTable,
    bits: u32,
    /// A value passed the widest keys: the host's cores prove every range.
    on_host: bool,
    on: Mirror,
    verifier: Verifier,
    /// Device time of the `verify` launches.
    device_time: Arc<Mutex<Duration>>,
}

impl DeviceProver {
    /// Kernels for `e`'s game and table, for values below 2^bits (one bit more than `g` and the
    /// engine's table need: a value past them recompiles; values past the widest keys are proved
    /// on the host), and the device's copy of the proved values `g`; whether making the kernels
    /// took a compilation.
    fn new(
        e: &DeviceEngine,
        g: Kept<'_>,
        device_time: Arc<Mutex<Duration>>,
    ) -> Result<(DeviceProver, bool), GpuError> {
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
        let reach = kernels.layout.reach;
        let keep = within(e.keep.unwrap_or_else(|| resident(reach, 0)), g);
        let prover = DeviceProver {
            code: e.code.clone(),
            space,
            table: table.clone(),
            bits,
            on_host: value_bits(g.max_value()) > kernels_gen::MAX_VALUE_BITS,
            on: Mirror::new(gpu, kernels, keep, g)?,
            verifier: Verifier::new(&e.rules, space),
            device_time,
        };
        Ok((prover, compiled))
    }

    /// Kernels for values below 2^bits.
    fn widen(&mut self, bits: u32) -> Result<(), GpuError> {
        let spec = kernels_gen::KernelSpec {
            code: &self.code,
            space: self.space,
            table: &self.table,
            value_bits: bits,
            rare_sources: false,
        };
        self.on.kernels = self.on.gpu.kernels(&spec)?.0;
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
        if bits > self.bits && !self.on_host {
            // Values past the widest keys are proved on the host's cores from here on.
            self.on_host = bits > kernels_gen::MAX_VALUE_BITS;
            if !self.on_host {
                self.widen((bits + 1).min(kernels_gen::MAX_VALUE_BITS))?;
            }
        }
        if self.on_host {
            return Ok(self.verifier.verify(g, range));
        }
        // After a correction the heaps from the failed one on are uploaded again.
        self.on.changed_from(from);
        self.on.upload(g, hi)?;
        while from < hi {
            let timed = self
                .on
                .verify(0, Strided::all(from as u64, hi as u64), MAX_BUDGET)?;
            timed.wait()?;
            *self.device_time.lock().expect("no panic holds it") += timed.elapsed()?;
            let on = &mut self.on;
            let flags = on.kernels.flagged(&on.gpu.stream, &on.buf, 0)?;
            let heaps = flags.heaps_below(hi as u64);
            let Some(&least) = heaps.first() else {
                break;
            };
            let mut devices = [OnDevice::of(on)];
            let (verdict, _) = settle(&mut devices, &self.verifier, g, &heaps)?;
            if let Err(refuted) = verdict {
                self.on.changed_from(least as usize);
                return Ok(Err(refuted));
            }
            match flags.first {
                Some(f) if (f as usize) < hi => from = f as usize + 1,
                _ => break,
            }
        }
        Ok(Ok(()))
    }

    fn max_batch(&self) -> usize {
        self.on.buf.resident.max_batch()
    }
}

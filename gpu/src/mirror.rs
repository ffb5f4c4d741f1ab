//! A device's copy of a run's values for verification: the values of its first heaps and of the
//! last half ring, uploaded from the host's values as they grow. The host chain's prover keeps
//! one on the run's device; a device run verifying on several devices keeps one on each other
//! device, whose `verify` and `mex` kernels then take a share of each batch.

use crate::device::Gpu;
use crate::error::GpuError;
use crate::launch::{Buffers, Kernels, Resident, Strided, Timed};
use octal_core::Kept;
use std::sync::Arc;

/// The values of a run on one device, with the kernels that read them.
pub(crate) struct Mirror {
    pub gpu: Gpu,
    pub kernels: Arc<Kernels>,
    pub buf: Buffers,
    /// Heaps below this are on the device with the host's values.
    clean_to: usize,
}

impl Mirror {
    /// Buffers on `gpu` keeping `keep` for `kernels` (loaded there), and the values of `g` on
    /// the device: its first heaps and its last half ring (a run that holds only its front and
    /// tail holds them).
    pub fn new(
        gpu: &Gpu,
        kernels: Arc<Kernels>,
        keep: Resident,
        g: Kept<'_>,
    ) -> Result<Mirror, GpuError> {
        gpu.room_for(keep, kernels.layout.key_bytes)?;
        let buf = kernels.buffers(&gpu.stream, keep)?;
        let mut mirror = Mirror {
            gpu: gpu.clone(),
            kernels,
            buf,
            clean_to: 0,
        };
        let first = keep.first().min(g.len());
        mirror.upload_first(&g.front()[..first], 0)?;
        mirror.clean_to = g.len().saturating_sub(keep.ring / 2).max(g.base());
        mirror.upload(g, g.len())?;
        Ok(mirror)
    }

    /// Puts the values of heaps `clean_to .. hi` of `g` on the device: the first heaps among
    /// them, and those the ring holds once it reaches `hi`.
    pub fn upload(&mut self, g: Kept<'_>, hi: usize) -> Result<(), GpuError> {
        let keep = self.buf.resident;
        let from = self
            .clean_to
            .max(hi.saturating_sub(keep.ring))
            .max(g.base());
        for (at, heaps) in keep.pieces(from, hi) {
            let len = heaps.len();
            let values = g.range(heaps).expect("the tail holds the heaps uploaded");
            let ring = &mut self.buf.values.slice_mut(at..at + len);
            self.gpu.stream.memcpy_htod(values, ring)?;
        }
        let first = keep.first();
        if self.clean_to < first {
            let to = hi.min(first);
            let values = &g.front()[self.clean_to..to];
            self.upload_first(values, self.clean_to)?;
        }
        self.clean_to = self.clean_to.max(hi);
        Ok(())
    }

    /// Writes `values` as those of the first heaps from `from`.
    fn upload_first(&mut self, values: &[u16], from: usize) -> Result<(), GpuError> {
        let to = from + values.len();
        let first = &mut self.buf.first.slice_mut(from..to);
        Ok(self.gpu.stream.memcpy_htod(values, first)?)
    }

    /// The host's values from `heap` on are new: the next upload starts there.
    pub fn changed_from(&mut self, heap: usize) {
        self.clean_to = self.clean_to.min(heap);
    }

    /// Enqueues the proof of `heaps` on the device's stream (the `verify` kernel), its flags in
    /// `slot`.
    pub fn verify(&mut self, slot: usize, heaps: Strided, budget: u64) -> Result<Timed, GpuError> {
        let stream = &self.gpu.stream;
        self.kernels
            .verify(stream, &mut self.buf, slot, heaps, budget)
    }
}

//! The marking engine's far options on the device: the values proved so far go to the device as
//! they grow, and each batch's far splits are marked there, a row of the grid per heap, leaving
//! the near options to the host; for the exact marking the device also picks each heap's first
//! free values, for the classic one the host reads the whole bitsets.

use crate::device::Gpu;
use crate::error::GpuError;
use crate::launch::{FarKernels, FarRows};
use cudarc::driver::{CudaSlice, CudaStream};
use octal_core::Code;
use octal_engines::stretch::EngineError;
use octal_engines::stretch::{FarMarker, FREE};
use std::ops::Range;
use std::sync::Arc;

/// The device's copy of the values and the far-marking kernels of one game.
pub struct DeviceFar {
    stream: Arc<CudaStream>,
    kernels: FarKernels,
    /// The values of heaps `0 .. on_device`, and the largest of them.
    g: CudaSlice<u16>,
    on_device: usize,
    max: u16,
    /// Each heap's bitset of far values, and its first free values.
    seen: CudaSlice<u32>,
    out: CudaSlice<u32>,
}

impl DeviceFar {
    /// Compiles the game's far-marking kernels for `gpu`.
    pub fn new(gpu: &Gpu, code: &Code) -> Result<DeviceFar, GpuError> {
        let module = gpu.load(&kernels_gen::generate_far(code, FREE))?;
        let stream = gpu.stream.clone();
        Ok(DeviceFar {
            kernels: FarKernels::load(&module)?,
            g: stream.alloc_zeros(1 << 16)?,
            on_device: 0,
            max: 0,
            seen: stream.alloc_zeros(1)?,
            out: stream.alloc_zeros(1)?,
            stream,
        })
    }

    /// Marks the far splits of `heaps` into `seen` (`g` holds the heaps before them, which go to
    /// the device first); returns the words a heap.
    fn mark(&mut self, g: &[u16], heaps: &Range<usize>) -> Result<usize, GpuError> {
        assert!(heaps.start == g.len() && !heaps.is_empty());
        let stream = &self.stream;
        if g.len() < self.on_device {
            (self.on_device, self.max) = (0, 0); // other values: all of them again
        }
        if g.len() > self.g.len() {
            let mut grown = stream.alloc_zeros::<u16>(2 * g.len().next_power_of_two())?;
            if self.on_device > 0 {
                stream.memcpy_dtod(
                    &self.g.slice(..self.on_device),
                    &mut grown.slice_mut(..self.on_device),
                )?;
            }
            self.g = grown;
        }
        if self.on_device < g.len() {
            let new = &g[self.on_device..];
            stream.memcpy_htod(new, &mut self.g.slice_mut(self.on_device..g.len()))?;
            self.max = new.iter().copied().fold(self.max, u16::max);
            self.on_device = g.len();
        }
        // The xor of two values below 2^bits is below 2^bits.
        let bits = u16::BITS - self.max.leading_zeros();
        let words = ((1usize << bits) / 32).max(1);
        let rows = heaps.len();
        if self.seen.len() < rows * words {
            self.seen = stream.alloc_zeros(rows * words)?;
        }
        let at = FarRows {
            start: g.len() as u64,
            lo: heaps.start as u64,
            rows,
            words,
        };
        self.kernels.mark(stream, &self.g, at, &mut self.seen)?;
        Ok(words)
    }

    /// [`FarMarker::exact`] on the device.
    fn free(&mut self, g: &[u16], heaps: Range<usize>) -> Result<Vec<[u32; FREE]>, GpuError> {
        let words = self.mark(g, &heaps)?;
        let rows = heaps.len();
        if self.out.len() < rows * FREE {
            self.out = self.stream.alloc_zeros(rows * FREE)?;
        }
        let stream = &self.stream;
        self.kernels
            .free_values(stream, rows, words, &self.seen, &mut self.out, FREE)?;
        let out = stream.clone_dtoh(&self.out.slice(..rows * FREE))?;
        Ok(out
            .chunks(FREE)
            .map(|c| c.try_into().expect("FREE words a heap"))
            .collect())
    }

    /// [`FarMarker::all`] on the device.
    fn all(&mut self, g: &[u16], heaps: Range<usize>) -> Result<(usize, Vec<u32>), GpuError> {
        let words = self.mark(g, &heaps)?;
        let seen = self
            .stream
            .clone_dtoh(&self.seen.slice(..heaps.len() * words))?;
        Ok((words, seen))
    }
}

impl FarMarker for DeviceFar {
    fn exact(&mut self, g: &[u16], heaps: Range<usize>) -> Result<Vec<[u32; FREE]>, EngineError> {
        Ok(self.free(g, heaps)?)
    }

    fn all(&mut self, g: &[u16], heaps: Range<usize>) -> Result<(usize, Vec<u32>), EngineError> {
        Ok(DeviceFar::all(self, g, heaps)?)
    }
}

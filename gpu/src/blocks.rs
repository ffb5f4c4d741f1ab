//! The marking engine's batches on the device: the values proved so far go to the device as they
//! grow; for each batch the grid marks every heap's far splits (a row of the grid per heap), then
//! one CUDA block computes the heaps one after another from those and their near options,
//! writing each value where the next heaps read it. Only the batch's values come back.

use crate::device::Gpu;
use crate::error::GpuError;
use crate::launch::{Batch, BlockKernels, Timed};
use crate::timings::GpuTimings;
use cudarc::driver::CudaSlice;
use octal_core::Code;
use octal_engines::stretch::{BlockMarker, EngineError};
use std::ops::Range;

/// The device's copy of the values and the marking engine's kernels for one game.
pub struct DeviceBlocks {
    gpu: Gpu,
    kernels: BlockKernels,
    /// The values of heaps `0 .. on_device` (room for more), and the largest of them.
    g: CudaSlice<u16>,
    on_device: usize,
    max: u16,
    /// Each heap's bitset of far values.
    seen: CudaSlice<u32>,
    /// Set by the `block` kernel where a value passes its sets.
    over: CudaSlice<u32>,
}

impl DeviceBlocks {
    /// Compiles the game's marking kernels for `gpu`.
    pub fn new(gpu: &Gpu, code: &Code) -> Result<DeviceBlocks, GpuError> {
        let module = gpu.load(&kernels_gen::generate_blocks(code))?;
        let stream = &gpu.stream;
        Ok(DeviceBlocks {
            kernels: BlockKernels::load(&module)?,
            g: stream.alloc_zeros(1 << 16)?,
            on_device: 0,
            max: 0,
            seen: stream.alloc_zeros(1)?,
            over: stream.alloc_zeros(1)?,
            gpu: gpu.clone(),
        })
    }

    /// The exact values of `heaps` (`g` holds the heaps before them, which go to the device
    /// first); `None` where a value passes the block's sets.
    fn batch(&mut self, g: &[u16], heaps: Range<usize>) -> Result<Option<Vec<u16>>, GpuError> {
        assert!(heaps.start == g.len() && !heaps.is_empty());
        let stream = self.gpu.stream.clone();
        if g.len() < self.on_device {
            (self.on_device, self.max) = (0, 0); // other values: all of them again
        }
        if heaps.end > self.g.len() {
            let mut grown = stream.alloc_zeros::<u16>(2 * heaps.end.next_power_of_two())?;
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
        let at = Batch {
            start: g.len() as u64,
            rows,
            words,
        };
        let kernels = &self.kernels;
        let (g_dev, seen, over) = (&mut self.g, &mut self.seen, &mut self.over);
        let far = Timed::around(&stream, || Ok(kernels.far(&stream, g_dev, at, seen)?))?;
        stream.memset_zeros(over)?;
        let block = Timed::around(&stream, || {
            Ok(kernels.block(&stream, g_dev, at, seen, over)?)
        })?;
        let over = stream.clone_dtoh(&self.over)?[0] != 0;
        self.gpu.add_timings(&GpuTimings {
            mark_far: far.elapsed()?,
            mark_block: block.elapsed()?,
            ..GpuTimings::default()
        });
        if over {
            return Ok(None);
        }
        let values = stream.clone_dtoh(&self.g.slice(heaps.clone()))?;
        self.max = values.iter().copied().fold(self.max, u16::max);
        self.on_device = heaps.end;
        Ok(Some(values))
    }
}

impl BlockMarker for DeviceBlocks {
    fn values(&mut self, g: &[u16], heaps: Range<usize>) -> Result<Option<Vec<u16>>, EngineError> {
        Ok(self.batch(g, heaps)?)
    }
}

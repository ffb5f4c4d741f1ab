//! Every `unsafe` kernel launch of the GPU engine, each checked against the signature in the
//! generated source (see the `kernels-gen` crate docs) and against the buffer lengths it relies on.

use super::GpuError;
use cudarc::driver::{
    CudaFunction, CudaModule, CudaSlice, CudaStream, DriverError, LaunchConfig, PushKernelArg,
};
use kernels_gen::Layout;
use std::sync::Arc;

/// Threads of a `push_far` block (`PUSH_THREADS` in the generated source).
const PUSH_THREADS: u32 = 128;
/// Threads of a `verify` block.
const VERIFY_THREADS: u32 = 256;

/// The three kernels of one generated module, with the layout they were generated for.
pub struct Kernels {
    push_far: CudaFunction,
    chain: CudaFunction,
    verify: CudaFunction,
    pub layout: Layout,
}

/// The device buffers of one speculate-verify session.
pub struct Buffers {
    /// Codes, `layout.code_bytes` bytes a heap.
    pub codes: CudaSlice<u8>,
    pub values: CudaSlice<u16>,
    /// The ring of mark bitsets: `ring * words` words.
    pub marks: CudaSlice<u32>,
    /// The least heap whose mex left the code space (`u64::MAX`: none).
    pub overflow: CudaSlice<u64>,
    /// The least heap that failed verification (`u64::MAX`: none).
    pub first_fail: CudaSlice<u64>,
    /// Heaps the buffers hold.
    pub heaps: usize,
}

fn grid(items: u64, threads: u32) -> LaunchConfig {
    LaunchConfig {
        grid_dim: (items.div_ceil(u64::from(threads)).max(1) as u32, 1, 1),
        block_dim: (threads, 1, 1),
        shared_mem_bytes: 0,
    }
}

impl Kernels {
    pub fn load(module: &Arc<CudaModule>, layout: Layout) -> Result<Kernels, DriverError> {
        Ok(Kernels {
            push_far: module.load_function("push_far")?,
            chain: module.load_function("chain")?,
            verify: module.load_function("verify")?,
            layout,
        })
    }

    /// Device buffers for heaps `0..heaps` (marks zeroed, no overflow or failure yet).
    pub fn buffers(&self, stream: &Arc<CudaStream>, heaps: usize) -> Result<Buffers, DriverError> {
        Ok(Buffers {
            codes: stream.alloc_zeros::<u8>(heaps * self.layout.code_bytes)?,
            values: stream.alloc_zeros::<u16>(heaps)?,
            marks: stream.alloc_zeros::<u32>(self.layout.ring * self.layout.words)?,
            overflow: stream.clone_htod(&[u64::MAX])?,
            first_fail: stream.clone_htod(&[u64::MAX])?,
            heaps,
        })
    }

    /// Marks, for heaps `hi .. hi + reach`, the options whose source lies in `lo .. hi`.
    pub fn push_far(
        &self,
        stream: &Arc<CudaStream>,
        b: &mut Buffers,
        lo: u64,
        hi: u64,
    ) -> Result<(), GpuError> {
        assert!(lo <= hi && hi as usize <= b.heaps);
        assert_eq!(b.marks.len(), self.layout.ring * self.layout.words);
        let cfg = grid(self.layout.reach as u64, PUSH_THREADS);
        // SAFETY: matches `push_far(const code_t *codes, unsigned *marks, u64 src_lo, u64 src_hi)`.
        // It reads codes of heaps in lo..hi (hi <= heaps: inside `codes`) and writes marks at
        // ring slots (index & (RING - 1)) * WORDS + w < ring * words = marks.len().
        unsafe {
            stream
                .launch_builder(&self.push_far)
                .arg(&b.codes)
                .arg(&mut b.marks)
                .arg(&lo)
                .arg(&hi)
                .launch(cfg)
        }
        .map(drop)
        .map_err(GpuError::from)
    }

    /// Computes heaps `lo .. hi` (at most `layout.max_tile`) in order.
    pub fn chain(
        &self,
        stream: &Arc<CudaStream>,
        b: &mut Buffers,
        lo: u64,
        hi: u64,
    ) -> Result<(), GpuError> {
        assert!(lo < hi && hi as usize <= b.heaps);
        assert!((hi - lo) as usize <= self.layout.max_tile);
        let cfg = LaunchConfig {
            grid_dim: (1, 1, 1),
            block_dim: (32, 1, 1),
            shared_mem_bytes: 0,
        };
        // SAFETY: matches `chain(code_t *codes, u16 *values, unsigned *marks, u64 lo, u64 hi,
        // u64 *overflow)`, launched as the single warp it is written for. It writes codes and
        // values of heaps lo..hi (hi <= heaps), reads codes inside its tile (shared memory), ring
        // slots < marks.len(), and one u64 through `overflow`.
        unsafe {
            stream
                .launch_builder(&self.chain)
                .arg(&mut b.codes)
                .arg(&mut b.values)
                .arg(&mut b.marks)
                .arg(&lo)
                .arg(&hi)
                .arg(&mut b.overflow)
                .launch(cfg)
        }
        .map(drop)
        .map_err(GpuError::from)
    }

    /// Proves the candidates of heaps `lo .. hi` given the values before them.
    pub fn verify(
        &self,
        stream: &Arc<CudaStream>,
        b: &mut Buffers,
        lo: u64,
        hi: u64,
    ) -> Result<(), GpuError> {
        assert!(lo <= hi && hi as usize <= b.heaps);
        if lo == hi {
            return Ok(());
        }
        let cfg = grid(hi - lo, VERIFY_THREADS);
        // SAFETY: matches `verify(const u16 *g, u64 lo, u64 hi, u64 *first_fail)`. Thread n < hi
        // reads values of heaps below n (< heaps) and writes one u64 through `first_fail`.
        unsafe {
            stream
                .launch_builder(&self.verify)
                .arg(&b.values)
                .arg(&lo)
                .arg(&hi)
                .arg(&mut b.first_fail)
                .launch(cfg)
        }
        .map(drop)
        .map_err(GpuError::from)
    }
}

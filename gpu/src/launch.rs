//! Every `unsafe` kernel launch of the GPU engine, each checked against the signature in the
//! generated source (see the `kernels-gen` crate docs) and against the buffer lengths it relies on.

use crate::error::GpuError;
use cudarc::driver::sys::{CUevent_flags, CUfunction_attribute_enum};
use cudarc::driver::{
    CudaEvent, CudaFunction, CudaModule, CudaSlice, CudaStream, DriverError, LaunchConfig,
    PushKernelArg,
};
use kernels_gen::{ctl, Layout, FAR_SETS, FLAG_LIST, VERIFY_PAD, VERIFY_THREADS, WINDOW_MAX};
use std::ops::Range;
use std::sync::Arc;
use std::time::Duration;

/// Threads of a `decode` CUDA block.
const DECODE_THREADS: u32 = 256;

/// The most heaps of a batch.
pub const MAX_BATCH: usize = 1 << 24;

/// The most heaps one `mex` launch settles: a batch's list and the least heap past it.
pub const MEX_HEAPS: usize = FLAG_LIST + 1;

/// The heaps one verification flagged for the host: every heap below `first` that failed is in
/// `listed` (sorted); the heaps past `first` were not all verified.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Flags {
    pub listed: Vec<u64>,
    pub first: Option<u64>,
}

impl Flags {
    /// The heaps below `hi` to check, in order: the listed ones, then `first`.
    pub fn heaps_below(&self, hi: u64) -> Vec<u64> {
        let mut heaps: Vec<u64> = self.listed.iter().copied().filter(|&h| h < hi).collect();
        heaps.extend(self.first.filter(|&h| h < hi));
        heaps
    }

    /// The flags of one verification made of `parts`, the verifications of shares of its heaps
    /// (every heap in one share): the least heap flagged past a list bounds what the others
    /// say, and every heap below it that failed is in some list.
    pub fn merge(mut parts: Vec<Flags>) -> Flags {
        if parts.len() == 1 {
            return parts.pop().expect("one part");
        }
        let first = parts.iter().filter_map(|f| f.first).min();
        let mut listed: Vec<u64> = parts
            .into_iter()
            .flat_map(|f| f.listed)
            .filter(|&h| first.is_none_or(|f| h < f))
            .collect();
        listed.sort_unstable();
        Flags { listed, first }
    }
}

/// The heaps `lo, lo + stride, lo + 2 stride, ...` below `hi`: a batch (stride 1), or one
/// device's share of it where several verify it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Strided {
    pub lo: u64,
    pub hi: u64,
    pub stride: u64,
}

impl Strided {
    /// Every heap of `lo .. hi`.
    pub fn all(lo: u64, hi: u64) -> Strided {
        Strided { lo, hi, stride: 1 }
    }

    /// Share `d` of `k` of the heaps `lo .. hi`: every k-th heap from `lo + d`.
    pub fn share(lo: u64, hi: u64, d: usize, k: usize) -> Strided {
        Strided {
            lo: lo + d as u64,
            hi,
            stride: k as u64,
        }
    }

    /// How many heaps.
    pub fn count(&self) -> u64 {
        self.hi.saturating_sub(self.lo).div_ceil(self.stride)
    }
}

/// Batches on the device at once (the slots of its queue): the one the host is taking (its proof
/// read, its values fetched, perhaps one heap re-verified) and two queued behind it, so the device
/// never waits for the host. Each has its own control words, failure word and copy of its values.
pub const SLOTS: usize = 3;

/// The four kernels of one generated module, with the layout they were generated for, the
/// number of `spec` CUDA blocks that run at once (one per SM, all resident: the launch is
/// cooperative) and the shared memory each asks for.
#[derive(Clone)]
pub struct Kernels {
    spec: CudaFunction,
    decode: CudaFunction,
    verify: CudaFunction,
    mex: CudaFunction,
    spec_blocks: u32,
    spec_shared: usize,
    pub layout: Layout,
}

/// Which heaps the device keeps: the values of the first `prefix` (and [`VERIFY_PAD`] more: the
/// smaller parts of the splits that verification tries) and the keys and values of the last
/// `ring` (a power of two, at least 16, at most 2^32), heap h at h % `ring`. A run of any length
/// fits: at most [`SLOTS`] batches of at most `ring / 8` heaps are on the device at once, options
/// reach at most `ring / 2` back, and verification at most `prefix + VERIFY_PAD`
/// (`prefix <= ring / 4`) back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resident {
    pub prefix: usize,
    pub ring: usize,
}

impl Resident {
    /// Bytes of device memory the buffers take.
    pub fn bytes(&self, key_bytes: usize) -> u64 {
        ((self.first() + self.ring + SLOTS * self.max_batch()) * 2 + self.ring * key_bytes) as u64
    }

    /// The most heaps a batch may have: with [`SLOTS`] batches on the device, verification reading
    /// a prefix and [`VERIFY_PAD`] back from the oldest, nothing a kernel still reads is
    /// overwritten in the ring (3/8 + 1/4 of it, and the pad).
    pub fn max_batch(&self) -> usize {
        (self.ring / 8).min(MAX_BATCH)
    }

    /// Whether every option of heap `n` lies on the device once heaps up to `n` are there (and
    /// [`SLOTS`] batches past it): its smaller parts in the first heaps, its larger ones in the
    /// ring. The `mex` kernel needs that.
    pub fn holds_options_of(&self, n: usize) -> bool {
        n / 2 < self.first() && n / 2 + SLOTS * self.max_batch() < self.ring
    }

    /// Heaps whose values the device keeps from the start.
    pub fn first(&self) -> usize {
        self.prefix + VERIFY_PAD
    }

    /// The pieces of heaps `lo .. hi` as they lie in a ring: (ring index, heaps).
    pub fn pieces(&self, lo: usize, hi: usize) -> Vec<(usize, Range<usize>)> {
        let mut out = Vec::new();
        let mut h = lo;
        while h < hi {
            let at = h % self.ring;
            let end = hi.min(h + self.ring - at);
            out.push((at, h..end));
            h = end;
        }
        out
    }
}

/// The device buffers of one speculate-verify run on the device.
pub struct Buffers {
    /// Keys of the last heaps, `layout.key_bytes` bytes a heap, in a ring (see
    /// [`Resident::pieces`]).
    pub keys: CudaSlice<u8>,
    /// Values of the last heaps, in a ring.
    pub values: CudaSlice<u16>,
    /// Values of the first `resident.first()` heaps.
    pub first: CudaSlice<u16>,
    /// By slot (see [`SLOTS`]; separate buffers, so that reading one waits for no other): the
    /// control words of `spec`, the heaps verification flagged (see [`Flags`]), and the batch's
    /// values, copied out of the ring for the host.
    pub ctl: Vec<CudaSlice<u64>>,
    pub flags: Vec<CudaSlice<u64>>,
    pub out: Vec<CudaSlice<u16>>,
    /// The hot options (distance, key), sorted by distance, and how many are in use.
    pub options: CudaSlice<u32>,
    pub n_options: usize,
    /// The `mex` kernel's heaps, and its bitsets of values (one a heap).
    pub mex_heaps: CudaSlice<u64>,
    pub seen: CudaSlice<u32>,
    pub resident: Resident,
}

/// How one `spec` launch ended.
pub struct Speculated {
    /// The heap whose mex left the key space (the launch stopped there), if any.
    pub overflow: Option<u64>,
    /// Rounds the window took.
    pub rounds: u64,
}

/// Work in flight on a stream: events recorded before and after it.
pub struct Timed {
    begun: CudaEvent,
    ended: CudaEvent,
}

impl Timed {
    /// Records `begun`, enqueues `work` on `stream`, records `ended`.
    pub fn around(
        stream: &Arc<CudaStream>,
        work: impl FnOnce() -> Result<(), GpuError>,
    ) -> Result<Timed, GpuError> {
        let timed = Some(CUevent_flags::CU_EVENT_DEFAULT);
        let begun = stream.record_event(timed)?;
        work()?;
        let ended = stream.record_event(timed)?;
        Ok(Timed { begun, ended })
    }

    /// Waits for the work to end.
    pub fn wait(&self) -> Result<(), GpuError> {
        Ok(self.ended.synchronize()?)
    }

    /// The device time the work took (waits for it).
    pub fn elapsed(&self) -> Result<Duration, GpuError> {
        let ms = self.begun.elapsed_ms(&self.ended)?;
        Ok(Duration::from_secs_f64(f64::from(ms.max(0.0)) / 1e3))
    }
}

fn grid(items: u64, threads: u32) -> LaunchConfig {
    LaunchConfig {
        grid_dim: (items.div_ceil(u64::from(threads)).max(1) as u32, 1, 1),
        block_dim: (threads, 1, 1),
        shared_mem_bytes: 0,
    }
}

impl Kernels {
    /// The kernels of `module`, with `spec` sized to `sms` multiprocessors of `sm_shared` bytes
    /// of shared memory each. A `spec` block asks for its layout's shared memory, and for more
    /// than half an SM's when that is less: a cooperative launch only guarantees that every
    /// block is resident, and where two fit an SM the driver places two there while other
    /// kernels' blocks run (on the H200, 132 blocks of 83 KiB landed on 72-100 SMs), whose
    /// round every other block then waits for (`spec` ran 1.1-1.55x slower so).
    pub fn load(
        module: &Arc<CudaModule>,
        layout: Layout,
        sms: u32,
        sm_shared: usize,
    ) -> Result<Kernels, GpuError> {
        let spec = module.load_function("spec")?;
        let spec_shared = layout.spec_shared.max(sm_shared / 2 + 1);
        spec.set_attribute(
            CUfunction_attribute_enum::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            spec_shared as i32,
        )?;
        let per_sm = spec.occupancy_max_active_blocks_per_multiprocessor(
            layout.spec_threads as u32,
            spec_shared,
            None,
        )?;
        if per_sm != 1 {
            return Err(GpuError::Driver(format!(
                "the spec kernel ({} threads, {spec_shared} bytes of shared memory) fits {per_sm} \
                 blocks on an SM, not one",
                layout.spec_threads
            )));
        }
        Ok(Kernels {
            spec,
            decode: module.load_function("decode")?,
            verify: module.load_function("verify")?,
            mex: module.load_function("mex")?,
            spec_blocks: sms,
            spec_shared,
            layout,
        })
    }

    /// The largest window `spec` takes: [`WINDOW_MAX`], and at most `FAR_SETS - 2` heaps a
    /// block (each block keeps the far marks of its heaps of the window).
    pub fn max_window(&self) -> u32 {
        WINDOW_MAX.min((FAR_SETS - 2) * self.spec_blocks as usize) as u32
    }

    /// Device buffers keeping the heaps `resident` says, for batches of at most
    /// `resident.max_batch()` heaps.
    pub fn buffers(
        &self,
        stream: &Arc<CudaStream>,
        resident: Resident,
    ) -> Result<Buffers, DriverError> {
        assert!(resident.ring.is_power_of_two() && resident.ring >= 16 && resident.ring <= 1 << 32);
        assert!(resident.prefix >= 1 && resident.prefix <= resident.ring / 4);
        assert!(self.layout.reach + 16 <= resident.ring / 2);
        let mut b = Buffers {
            // Padded: `spec` reads keys in 16-byte groups.
            keys: stream.alloc_zeros::<u8>(resident.ring * self.layout.key_bytes + 16)?,
            values: stream.alloc_zeros::<u16>(resident.ring)?,
            first: stream.alloc_zeros::<u16>(resident.first())?,
            ctl: (0..SLOTS)
                .map(|_| stream.alloc_zeros::<u64>(ctl::WORDS))
                .collect::<Result<_, _>>()?,
            flags: (0..SLOTS)
                .map(|_| stream.alloc_zeros::<u64>(2 + FLAG_LIST))
                .collect::<Result<_, _>>()?,
            out: (0..SLOTS)
                .map(|_| stream.alloc_zeros::<u16>(resident.max_batch()))
                .collect::<Result<_, _>>()?,
            options: stream.alloc_zeros::<u32>(2)?,
            n_options: 0,
            mex_heaps: stream.alloc_zeros::<u64>(MEX_HEAPS)?,
            seen: stream.alloc_zeros::<u32>(MEX_HEAPS * self.value_words())?,
            resident,
        };
        self.set_options(stream, &mut b, 0, &self.layout.options)?;
        Ok(b)
    }

    /// Makes `options` the hot options from index `from` on (those before stay), on `stream`:
    /// the table grows as data. The array doubles when full (a new allocation, no compilation).
    pub fn set_options(
        &self,
        stream: &Arc<CudaStream>,
        b: &mut Buffers,
        from: usize,
        options: &[(usize, u16)],
    ) -> Result<(), DriverError> {
        assert!(from <= b.n_options && !(from == 0 && options.is_empty()));
        let n = from + options.len();
        assert!(self.layout.fits(n, options.last().map_or(0, |o| o.0)));
        if 2 * n > b.options.len() {
            let mut grown = stream.alloc_zeros::<u32>((4 * n).next_power_of_two())?;
            if from > 0 {
                stream.memcpy_dtod(
                    &b.options.slice(..2 * from),
                    &mut grown.slice_mut(..2 * from),
                )?;
            }
            b.options = grown;
        }
        let words: Vec<u32> = options
            .iter()
            .flat_map(|&(d, c)| {
                [
                    u32::try_from(d).expect("distances below 2^32"),
                    u32::from(c),
                ]
            })
            .collect();
        if !words.is_empty() {
            stream.memcpy_htod(&words, &mut b.options.slice_mut(2 * from..2 * n))?;
        }
        b.n_options = n;
        Ok(())
    }

    /// Enqueues the speculation of the keys of heaps `lo .. hi` (a batch: at most
    /// `max_batch()` heaps) over a window of `window` heaps on `stream`, its result in `slot`'s
    /// control words; the keys of `lo - reach .. lo` must be the true ones (or the speculated
    /// ones of batches not yet proved: then the result stands only if they are).
    /// [`Kernels::speculated`] reads the result.
    pub fn spec(
        &self,
        stream: &Arc<CudaStream>,
        b: &mut Buffers,
        slot: usize,
        lo: u64,
        hi: u64,
        window: u32,
    ) -> Result<Timed, GpuError> {
        let l = &self.layout;
        assert!(lo >= l.hot_from as u64 && lo < hi && hi - lo <= b.resident.max_batch() as u64);
        assert!(window >= 1 && window <= self.max_window());
        assert!(b.n_options >= 1 && b.options.len() >= 2 * b.n_options);
        let n_options = b.n_options as u32;
        let cmask = b.resident.ring as u64 - 1;
        let mut words = [u64::MAX; ctl::WORDS];
        words[ctl::ROUNDS] = 0;
        words[ctl::ARRIVED] = 0;
        stream.memcpy_htod(&words, &mut b.ctl[slot])?;
        let cfg = LaunchConfig {
            grid_dim: (self.spec_blocks, 1, 1),
            block_dim: (l.spec_threads as u32, 1, 1),
            shared_mem_bytes: self.spec_shared as u32,
        };
        Timed::around(stream, || {
            // SAFETY: matches `spec(key_t *keys, u64 cmask, u64 lo, u64 hi, unsigned window,
            // u64 *ctl, const uint2 *table, unsigned n_options)` with the block size the layout
            // generated it for and at least its dynamic shared memory (the attribute was raised
            // in `load`; occupancy checked there). It reads keys of heaps lo - reach .. hi and
            // writes keys of lo .. hi, each at heap & cmask (cmask + 1 = ring heaps, a multiple
            // of 16: 16-byte groups stay inside `keys`, padded by 16 bytes), the ctl::WORDS
            // words of `ctl[slot]`, and reads the n_options pairs of `options` (its length is
            // at least twice that; the layout fits them: `set_options`). The
            // grid barrier needs every block resident: the launch is cooperative (the driver
            // refuses it otherwise) with one block per SM.
            unsafe {
                stream
                    .launch_builder(&self.spec)
                    .arg(&mut b.keys)
                    .arg(&cmask)
                    .arg(&lo)
                    .arg(&hi)
                    .arg(&window)
                    .arg(&mut b.ctl[slot])
                    .arg(&b.options)
                    .arg(&n_options)
                    .launch_cooperative(cfg)
            }?;
            Ok(())
        })
    }

    /// How the speculation whose result is in `slot` ended (read on `stream`, once it is done).
    pub fn speculated(
        &self,
        stream: &Arc<CudaStream>,
        b: &Buffers,
        slot: usize,
    ) -> Result<Speculated, GpuError> {
        let words = stream.clone_dtoh(&b.ctl[slot])?;
        let overflow = words[ctl::OVERFLOW];
        Ok(Speculated {
            overflow: (overflow != u64::MAX).then_some(overflow),
            rounds: words[ctl::ROUNDS],
        })
    }

    /// Enqueues a copy of the values of heaps `lo .. hi` (a batch) from the ring into `slot`'s
    /// output, where the host fetches them.
    pub fn copy_out(
        &self,
        stream: &Arc<CudaStream>,
        b: &mut Buffers,
        slot: usize,
        lo: usize,
        hi: usize,
    ) -> Result<(), GpuError> {
        assert!(lo <= hi && hi - lo <= b.resident.max_batch());
        for (at, heaps) in b.resident.pieces(lo, hi) {
            let (len, from) = (heaps.len(), heaps.start - lo);
            stream.memcpy_dtod(
                &b.values.slice(at..at + len),
                &mut b.out[slot].slice_mut(from..from + len),
            )?;
        }
        Ok(())
    }

    /// The values of heaps `lo .. hi` from their keys.
    pub fn decode(
        &self,
        stream: &Arc<CudaStream>,
        b: &mut Buffers,
        lo: u64,
        hi: u64,
    ) -> Result<(), GpuError> {
        assert!(lo <= hi && hi - lo <= b.resident.ring as u64);
        if lo == hi {
            return Ok(());
        }
        let (prefix, cmask) = (b.resident.prefix as u64, b.resident.ring as u64 - 1);
        // SAFETY: matches `decode(const key_t *keys, u16 *ring, u16 *first, u64 prefix, u64
        // cmask, u64 lo, u64 hi)`: thread n < hi reads the key and writes the value at n & cmask
        // (< ring heaps, the length of `keys` and `values`), and at n in `first` if
        // n < prefix + VERIFY_PAD (its length).
        unsafe {
            stream
                .launch_builder(&self.decode)
                .arg(&b.keys)
                .arg(&mut b.values)
                .arg(&mut b.first)
                .arg(&prefix)
                .arg(&cmask)
                .arg(&lo)
                .arg(&hi)
                .launch(grid(hi - lo, DECODE_THREADS))
        }
        .map(drop)
        .map_err(GpuError::from)
    }

    /// Enqueues the proof of the candidates of `heaps` (within a batch) given the values before
    /// them, trying at most `budget` splits of each kind a heap; the heaps that fail go to
    /// `slot`'s flags ([`Kernels::flagged`]).
    pub fn verify(
        &self,
        stream: &Arc<CudaStream>,
        b: &mut Buffers,
        slot: usize,
        heaps: Strided,
        budget: u64,
    ) -> Result<Timed, GpuError> {
        let Strided { lo, hi, stride } = heaps;
        assert!(stride >= 1 && hi.saturating_sub(lo) <= b.resident.max_batch() as u64);
        stream.memcpy_htod(&[u64::MAX, 0], &mut b.flags[slot].slice_mut(..2))?;
        if heaps.count() == 0 {
            return Timed::around(stream, || Ok(()));
        }
        let (prefix, cmask) = (b.resident.prefix as u64, b.resident.ring as u64 - 1);
        let cfg = grid(heaps.count() * 32, VERIFY_THREADS as u32);
        Timed::around(stream, || {
            // SAFETY: matches `verify(const u16 *g, const u16 *first, u64 prefix, u64 cmask, u64
            // lo, u64 hi, u64 *flags, u64 budget, u64 stride)`, launched with the VERIFY_THREADS
            // its static shared memory is sized for, one warp per heap. The warp of heap n < hi
            // reads values at h & cmask in the ring (< ring heaps) and of heaps
            // a < prefix + VERIFY_PAD in `first` (its length), and writes the 2 + FLAG_LIST words
            // of `flags[slot]` (its length).
            unsafe {
                stream
                    .launch_builder(&self.verify)
                    .arg(&b.values)
                    .arg(&b.first)
                    .arg(&prefix)
                    .arg(&cmask)
                    .arg(&lo)
                    .arg(&hi)
                    .arg(&mut b.flags[slot])
                    .arg(&budget)
                    .arg(&stride)
                    .launch(cfg)
            }?;
            Ok(())
        })
    }

    /// Words of one heap's bitset of values in `seen`.
    fn value_words(&self) -> usize {
        (1 << self.layout.value_bits) / 32
    }

    /// G(n) of each of `heaps` (at most [`MEX_HEAPS`], each of whose options lies on the device:
    /// [`Resident::holds_options_of`]) by the `mex` kernel on `stream` (waits for it); None where
    /// G(n) is not below 2^value_bits.
    pub fn mex(
        &self,
        stream: &Arc<CudaStream>,
        b: &mut Buffers,
        heaps: &[u64],
    ) -> Result<Vec<Option<u16>>, GpuError> {
        assert!(heaps.len() <= MEX_HEAPS);
        assert!(heaps
            .iter()
            .all(|&h| b.resident.holds_options_of(h as usize)));
        let Some(&most) = heaps.iter().max() else {
            return Ok(Vec::new());
        };
        let words = self.value_words();
        stream.memset_zeros(&mut b.seen.slice_mut(..heaps.len() * words))?;
        stream.memcpy_htod(heaps, &mut b.mex_heaps.slice_mut(..heaps.len()))?;
        let cmask = b.resident.ring as u64 - 1;
        // A thread a few splits of the largest heap's first kind; at least one block a heap.
        let mut cfg = grid((most / 2).div_ceil(8).min(1 << 20), VERIFY_THREADS as u32);
        cfg.grid_dim.1 = heaps.len() as u32;
        // SAFETY: matches `mex(const u16 *g, const u16 *first, u64 cmask, const u64 *heaps,
        // unsigned *seen)` with VERIFY_THREADS threads a block (its static shared memory is one
        // bitset), one grid row per heap (heaps.len() <= MEX_HEAPS, the length of `mex_heaps`).
        // Row y reads values of heaps a <= n / 2 in `first` (shorter than `first()`:
        // holds_options_of) and of heaps below n at h & cmask in the ring, and ors words into its
        // `2^value_bits / 32` words of `seen` (MEX_HEAPS of them).
        unsafe {
            stream
                .launch_builder(&self.mex)
                .arg(&b.values)
                .arg(&b.first)
                .arg(&cmask)
                .arg(&b.mex_heaps)
                .arg(&mut b.seen)
                .launch(cfg)
        }?;
        let seen = stream.clone_dtoh(&b.seen.slice(..heaps.len() * words))?;
        Ok(seen
            .chunks(words)
            .map(|set| {
                set.iter()
                    .enumerate()
                    .find(|(_, &w)| w != u32::MAX)
                    .map(|(k, &w)| (32 * k) as u16 + w.trailing_ones() as u16)
            })
            .collect())
    }

    /// The heaps the verification whose result is in `slot` flagged (read on `stream`, once it
    /// is done).
    pub fn flagged(
        &self,
        stream: &Arc<CudaStream>,
        b: &Buffers,
        slot: usize,
    ) -> Result<Flags, GpuError> {
        // The two header words first: most batches flag nothing, and the list is long.
        let head = stream.clone_dtoh(&b.flags[slot].slice(..2))?;
        let first = (head[0] != u64::MAX).then_some(head[0]);
        let count = (head[1] as usize).min(FLAG_LIST);
        let mut listed = if count == 0 {
            Vec::new()
        } else {
            stream.clone_dtoh(&b.flags[slot].slice(2..2 + count))?
        };
        listed.retain(|&h| first.is_none_or(|f| h < f));
        listed.sort_unstable();
        Ok(Flags { listed, first })
    }
}

/// The marking engine's kernels (`kernels_gen::generate_blocks`).
pub struct BlockKernels {
    far: CudaFunction,
    block: CudaFunction,
}

/// The batch `start .. start + rows` whose heaps the kernels compute, `words` words of far
/// bitset a heap.
#[derive(Debug, Clone, Copy)]
pub struct Batch {
    pub start: u64,
    pub rows: usize,
    pub words: usize,
}

/// Threads of a `far` CUDA block, and splits each thread takes at least.
const FAR_THREADS: u32 = 256;
const FAR_SPLITS: u64 = 16;

/// Threads of the `block` kernel's one CUDA block.
const BLOCK_THREADS: u32 = 1024;

impl BlockKernels {
    pub fn load(module: &Arc<CudaModule>) -> Result<BlockKernels, DriverError> {
        Ok(BlockKernels {
            far: module.load_function("far")?,
            block: module.load_function("block")?,
        })
    }

    /// Marks the far splits of the heaps of `at` into `seen` (its words a heap, zeroed here),
    /// on `stream`. `g` holds the values of heaps `0 .. at.start` (at least).
    pub fn far(
        &self,
        stream: &Arc<CudaStream>,
        g: &CudaSlice<u16>,
        at: Batch,
        seen: &mut CudaSlice<u32>,
    ) -> Result<(), DriverError> {
        let Batch { start, rows, words } = at;
        assert!((1..=65535).contains(&rows) && start as usize <= g.len());
        assert!(seen.len() >= rows * words && words <= 2048);
        stream.memset_zeros(&mut seen.slice_mut(..rows * words))?;
        // Splits of the largest heap: at most start / 2 a breaking digit.
        let mut cfg = grid((start / 2).div_ceil(FAR_SPLITS).min(1 << 16), FAR_THREADS);
        cfg.grid_dim.1 = rows as u32;
        cfg.shared_mem_bytes = (4 * words) as u32;
        let words = words as u32;
        // SAFETY: matches `far(const u16 *g, u64 start, unsigned words, unsigned *seen)` with
        // `4 words` bytes of dynamic shared memory (its bitset, words <= 2048): row y reads g[a]
        // and g[s - a] for splits whose parts are below start (within g), and ors into its
        // `words` words of `seen` (rows * words of them).
        unsafe {
            stream
                .launch_builder(&self.far)
                .arg(g)
                .arg(&start)
                .arg(&words)
                .arg(seen)
                .launch(cfg)
        }
        .map(|_| ())
    }

    /// Computes the values of the heaps of `at` into `g`, heap after heap, from their far sets
    /// `seen` (marked by [`BlockKernels::far`]) and their near options, on `stream`; sets `over`
    /// where a value passes the sets (zeroed by the caller), the heaps from there not written.
    pub fn block(
        &self,
        stream: &Arc<CudaStream>,
        g: &mut CudaSlice<u16>,
        at: Batch,
        seen: &CudaSlice<u32>,
        over: &mut CudaSlice<u32>,
    ) -> Result<(), DriverError> {
        let Batch { start, rows, words } = at;
        assert!(start as usize + rows <= g.len() && seen.len() >= rows * words);
        // Shared memory within the default 48 KiB: 16 KiB of set and 16 KiB of values at most.
        assert!(words <= 2048 && rows <= 4096);
        assert!(!over.is_empty());
        // Twice the far sets' range: every option of the batch is below it (see the kernel).
        let span = 2 * words as u32;
        // The set, then the values of heaps 0 ..= rows and of the batch.
        let cfg = LaunchConfig {
            grid_dim: (1, 1, 1),
            block_dim: (BLOCK_THREADS, 1, 1),
            shared_mem_bytes: 4 * span + 2 * (2 * rows as u32 + 1),
        };
        let (rows, words) = (rows as u32, words as u32);
        // SAFETY: matches `block(u16 *g, u64 start, unsigned rows, unsigned words, unsigned
        // span, const unsigned *seen, unsigned *over)` with `4 span` bytes of dynamic shared
        // memory (span <= 4096 words: 16 KiB): it reads g below start + rows (within g) and
        // `rows * words` words of `seen`, writes g[start .. start + rows] and over[0].
        unsafe {
            stream
                .launch_builder(&self.block)
                .arg(g)
                .arg(&start)
                .arg(&rows)
                .arg(&words)
                .arg(&span)
                .arg(seen)
                .arg(over)
                .launch(cfg)
        }
        .map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::{Flags, Resident, Strided};

    /// Shares of a batch cover each of its heaps once, and their flags merge into the flags one
    /// verification of the batch gives: the heaps to check below any bound are the same.
    #[test]
    fn shares_merge_into_one_verification() {
        for k in 1..6usize {
            for (lo, hi) in [(100u64, 100u64), (100, 101), (100, 137), (7, 7 + 64)] {
                let mut seen = vec![0; (hi - lo) as usize];
                for d in 0..k {
                    let share = Strided::share(lo, hi, d, k);
                    let heaps: Vec<u64> = (share.lo..share.hi).step_by(k).collect();
                    assert_eq!(heaps.len() as u64, share.count());
                    for h in heaps {
                        seen[(h - lo) as usize] += 1;
                    }
                }
                assert!(seen.iter().all(|&c| c == 1), "k {k}, {lo}..{hi}");
            }
        }
        // Heaps 10..40 fail at 13, 20, 21, 30 and 35; a share's list holds two heaps.
        let failing = [13u64, 20, 21, 30, 35];
        let verify = |heaps: &mut dyn Iterator<Item = u64>| {
            let failed: Vec<u64> = heaps.filter(|h| failing.contains(h)).collect();
            Flags {
                listed: failed.iter().copied().take(2).collect(),
                first: failed.get(2).copied(),
            }
        };
        for k in 1..5usize {
            let parts = (0..k)
                .map(|d| verify(&mut (10 + d as u64..40).step_by(k)))
                .collect();
            let merged = Flags::merge(parts);
            let bound = merged.first.unwrap_or(40);
            let below: Vec<u64> = failing.iter().copied().filter(|&h| h < bound).collect();
            assert_eq!(merged.listed, below, "k {k}");
            assert!(merged.first.is_none_or(|f| failing.contains(&f)), "k {k}");
            if k == 1 {
                assert_eq!(merged, verify(&mut (10..40)));
            }
        }
    }

    #[test]
    fn pieces_split_where_the_ring_wraps() {
        let keep = Resident {
            prefix: 8,
            ring: 32,
        };
        assert_eq!(
            keep.pieces(10, 70),
            vec![(10, 10..32), (0, 32..64), (0, 64..70)]
        );
        assert_eq!(keep.pieces(30, 34), vec![(30, 30..32), (0, 32..34)]);
        assert!(keep.pieces(5, 5).is_empty());
        // Every heap lands where the kernels put it: heap & cmask.
        for (at, heaps) in keep.pieces(0, 200) {
            for (k, h) in heaps.enumerate() {
                assert_eq!(at + k, h & 31);
            }
        }
    }
}

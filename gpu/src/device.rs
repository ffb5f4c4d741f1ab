//! The open device: its context, streams and architecture, the kernels compiled for it (cached
//! by their source), and what `octal gpu-info` prints.

use crate::compile::{cache_dir, compile, libraries_present, nvrtc_version};
use crate::error::GpuError;
use crate::launch::{Kernels, Resident};
use crate::timings::GpuTimings;
use cudarc::driver::{CudaContext, CudaModule, CudaStream};
use kernels_gen::{KernelSpec, Layout};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// An open device with its streams and the modules compiled so far: a handle, which clones
/// share.
#[derive(Clone)]
pub struct Gpu {
    pub(crate) ctx: Arc<CudaContext>,
    /// The stream of speculation (and decoding), at the highest priority.
    pub(crate) stream: Arc<CudaStream>,
    /// The stream of verification, beside the speculation's, at the lowest priority.
    pub(crate) check: Arc<CudaStream>,
    /// The stream of the host's reads of finished batches, of the `mex` kernel that settles
    /// flagged heaps and of re-verifications: behind no queued work, at the highest priority.
    pub(crate) copy: Arc<CudaStream>,
    /// The virtual architecture the kernels are compiled for, e.g. `compute_90`.
    arch: String,
    /// Multiprocessors: the `spec` kernel runs one block on each.
    sms: u32,
    /// Shared memory of a multiprocessor, in bytes.
    sm_shared: usize,
    /// Compiled kernels by their source (the architecture is the device's), shared by every
    /// handle on the device.
    modules: Arc<Mutex<HashMap<String, Arc<Kernels>>>>,
    /// Where the time of the device's stretches went, over every engine on it.
    timings: Arc<Mutex<GpuTimings>>,
}

impl Gpu {
    /// Opens device 0.
    pub fn open() -> Result<Gpu, GpuError> {
        Gpu::find()?;
        Gpu::create(0)
    }

    /// Opens devices `ordinals` beside device 0 (the driver initialised): the others of a run
    /// whose verification they share. A device named again gets another context of its own. An
    /// error where the process sees fewer devices.
    pub fn others(ordinals: &[usize]) -> Result<Vec<Gpu>, GpuError> {
        let found = Gpu::count()?;
        if let Some(&most) = ordinals.iter().max().filter(|&&o| o >= found) {
            return Err(GpuError::TooFewDevices {
                asked: most + 1,
                found,
            });
        }
        ordinals.iter().map(|&o| Gpu::create(o)).collect()
    }

    /// Checks that the driver, NVRTC and a device are there, initialising the driver (about
    /// half of the time an opening takes): what the helper of [`crate::found::find_beside`] does.
    pub fn find() -> Result<(), GpuError> {
        if Gpu::count()? < 1 {
            return Err(GpuError::NoDevice);
        }
        Ok(())
    }

    /// The devices this process sees (after `CUDA_VISIBLE_DEVICES`), the driver initialised.
    pub fn count() -> Result<usize, GpuError> {
        libraries_present()?;
        cudarc::driver::result::init()?;
        Ok(CudaContext::device_count()?.max(0) as usize)
    }

    /// Device `ordinal` opened on `find`'s initialised driver: its context, streams and
    /// architecture.
    pub(crate) fn create(ordinal: usize) -> Result<Gpu, GpuError> {
        let ctx = CudaContext::new(ordinal)?;
        let (major, minor) = ctx.compute_capability()?;
        use cudarc::driver::sys::CUdevice_attribute as Attr;
        let sms = ctx.attribute(Attr::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?;
        let sm_shared =
            ctx.attribute(Attr::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR)?;
        // The speculation's stream at the highest priority, the verification's at the lowest
        // (the block scheduler serves the higher priority's blocks first): so the two keep pace.
        // With equal priorities, the speculation on the default stream, the verification fell
        // behind it and set the pace (Officers 10^9 on the H200: verification 65 -> 70 M/s,
        // end to end 62.6 -> 67.2 M values/s; bench/README.md). The host's stream at the highest
        // priority too: the `mex` launch that settles a batch's flagged heaps is what the host
        // waits for, and at the lowest it queued behind the verification of the batches after.
        let (least, greatest) = cudarc::driver::result::stream::get_priority_range()?;
        Ok(Gpu {
            check: ctx.new_stream_with_priority(least)?,
            copy: ctx.new_stream_with_priority(greatest)?,
            sms: sms.max(1) as u32,
            sm_shared: sm_shared.max(0) as usize,
            stream: ctx.new_stream_with_priority(greatest)?,
            ctx,
            arch: format!("compute_{major}{minor}"),
            modules: Arc::default(),
            timings: Arc::default(),
        })
    }

    /// The kernels for `game`, compiled once per source (tables that fit one layout share it);
    /// the flag says whether they were compiled now. The layout is `game`'s: its options are
    /// the table's.
    pub(crate) fn kernels(&self, game: &KernelSpec<'_>) -> Result<(Arc<Kernels>, bool), GpuError> {
        let layout = Layout::new(game)?;
        let source = kernels_gen::generate(game)?;
        let mut modules = self.modules.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(k) = modules.get(&source) {
            if k.layout == layout {
                return Ok((k.clone(), false));
            }
            let mut again = Kernels::clone(k);
            again.layout = layout;
            return Ok((Arc::new(again), false));
        }
        let module = self.load(&source)?;
        let kernels = Arc::new(Kernels::load(&module, layout, self.sms, self.sm_shared)?);
        modules.insert(source, kernels.clone());
        Ok((kernels, true))
    }

    /// Whether the device has the memory for buffers keeping `keep` with keys of `key_bytes`
    /// bytes: an error saying how much they need where not.
    pub(crate) fn room_for(&self, keep: Resident, key_bytes: usize) -> Result<(), GpuError> {
        let need = keep.bytes(key_bytes);
        let (free, _) = self.ctx.mem_get_info()?;
        if need > free as u64 {
            return Err(GpuError::DeviceMemory {
                need,
                free: free as u64,
                prefix: keep.prefix,
                ring: keep.ring,
            });
        }
        Ok(())
    }

    /// Where the time of the device's stretches went so far.
    pub(crate) fn timings(&self) -> GpuTimings {
        *self.timings.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds a stretch's timings to the device's.
    pub(crate) fn add_timings(&self, t: &GpuTimings) {
        self.timings
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .add(t);
    }

    /// Compiles `source` for the device's architecture and loads it.
    pub(crate) fn load(&self, source: &str) -> Result<Arc<CudaModule>, GpuError> {
        Ok(self.ctx.load_module(compile(source, &self.arch)?)?)
    }

    /// Lines for `octal gpu-info`: device, memory, architecture, driver and NVRTC versions, and
    /// the kernel cache's directory.
    pub fn info(&self) -> Result<Vec<String>, GpuError> {
        let mut driver = 0;
        // SAFETY: the driver is loaded and initialised (`open`); one int written.
        unsafe { cudarc::driver::sys::cuDriverGetVersion(&mut driver) }.result()?;
        let (free, total) = self.ctx.mem_get_info()?;
        Ok(vec![
            format!("device          {}", self.ctx.name()?),
            format!(
                "memory          {:.1} GiB ({:.1} GiB free)",
                total as f64 / (1u64 << 30) as f64,
                free as f64 / (1u64 << 30) as f64
            ),
            format!("architecture    {} ({} SMs)", self.arch, self.sms),
            format!(
                "driver          CUDA {}.{}",
                driver / 1000,
                driver % 1000 / 10
            ),
            format!("nvrtc           {}", nvrtc_version()?),
            format!(
                "kernel cache    {}",
                cache_dir().map_or("off".into(), |d| d.display().to_string())
            ),
        ])
    }
}

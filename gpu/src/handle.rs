//! The handles a run holds: device 0 being opened beside its work ([`Opening`]), the open
//! device ([`Device`]) and what runs on it; with the `cuda` feature off they remain, and every
//! attempt to reach a device fails with [`GpuError::NotBuilt`].

use crate::error::GpuError;
use crate::timings::GpuTimings;
#[cfg(feature = "cuda")]
use crate::{blocks, device, engine::DeviceEngine, found, opening};
use octal_core::{Code, Kept, RareTable, SparseSpace};
use octal_engines::stretch::BlockMarker;
use octal_engines::stretch::StretchEngine;

/// Device 0 being opened beside the run's work (nothing is, without the `cuda` feature), and how
/// many devices the run's verification shares.
pub struct Opening {
    #[cfg(feature = "cuda")]
    thread: opening::OpeningThread,
    #[cfg(feature = "cuda")]
    devices: usize,
}

impl Opening {
    /// Whether [`Opening::finish`] would not wait for the thread (it has ended, or there is none).
    pub fn is_finished(&self) -> bool {
        #[cfg(feature = "cuda")]
        return self.thread.is_finished();
        #[cfg(not(feature = "cuda"))]
        true
    }

    /// Whether the thread has initialised the driver in the run's process.
    pub fn is_initialised(&self) -> bool {
        #[cfg(feature = "cuda")]
        return self.thread.is_initialised();
        #[cfg(not(feature = "cuda"))]
        false
    }

    /// Whether the run has said that it needs the device, and not taken it back.
    pub fn is_asked_for(&self) -> bool {
        #[cfg(feature = "cuda")]
        return self.thread.is_asked_for();
        #[cfg(not(feature = "cuda"))]
        true
    }

    /// Says whether the run needs the device: the thread waits for this before it initialises
    /// the driver, and while the device is not wanted only confirms that it is there.
    pub fn want(&self, wanted: bool) {
        #[cfg(feature = "cuda")]
        self.thread.want(wanted);
        #[cfg(not(feature = "cuda"))]
        let _ = wanted;
    }

    /// Has the thread compile, once the device is open and wanted, the kernels a device stretch
    /// would start with for `table` under `space` after the proved values `g`.
    pub fn prepare(&mut self, code: &Code, space: SparseSpace, table: &RareTable, g: Kept<'_>) {
        #[cfg(feature = "cuda")]
        {
            let (code, table) = (code.clone(), table.clone());
            let (g_len, g_max) = (g.len(), g.max_value());
            self.thread.then(move |gpu| {
                DeviceEngine::new(gpu, &code, space, table).prepare(g_len, g_max, true)
            });
        }
        #[cfg(not(feature = "cuda"))]
        let _ = (code, space, table, g);
    }

    /// The open device (with the others the run's verification shares), or why it could not be
    /// opened.
    pub fn finish(self) -> Result<Device, GpuError> {
        #[cfg(feature = "cuda")]
        return Ok(Device {
            gpu: self.thread.finish()?,
            helpers: device::Gpu::others(&(1..self.devices).collect::<Vec<_>>())?,
        });
        #[cfg(not(feature = "cuda"))]
        Err(GpuError::NotBuilt)
    }

    /// Whether device 0 is there, for a run that ended while the device was opening: what the
    /// thread has not begun (a context, kernels) is not made.
    pub fn confirm(self) -> Result<(), GpuError> {
        #[cfg(feature = "cuda")]
        return self.thread.confirm();
        #[cfg(not(feature = "cuda"))]
        Err(GpuError::NotBuilt)
    }
}

/// Starts opening device 0 on a thread of its own while the run goes on: the driver's
/// initialisation and a context take some tenths of a second, which the run spends on the host's
/// cores instead. A run the host's cores end first never opens it ([`Opening::want`]). Devices
/// 1 .. `devices` open with it, when the run takes it ([`Opening::finish`]): they share the
/// verification of the device's own speculate-verify loop.
pub fn open_beside(devices: usize) -> Opening {
    #[cfg(not(feature = "cuda"))]
    let _ = devices;
    Opening {
        #[cfg(feature = "cuda")]
        thread: opening::open_beside(),
        #[cfg(feature = "cuda")]
        devices,
    }
}

/// Confirms device 0 for a GPU run the host's cores end first, without initialising the driver in
/// the run's process: from the kernel driver's files where they plainly show it, else by starting
/// `helper`, a process that prints [`FOUND`] where the driver finds it; nothing without the
/// `cuda` feature.
pub fn find_beside(helper: std::process::Command) {
    #[cfg(feature = "cuda")]
    found::find_beside(helper);
    #[cfg(not(feature = "cuda"))]
    drop(helper);
}

/// Whether the driver (initialised here), NVRTC and device 0 are there: what the helper of
/// [`find_beside`] does.
pub fn find_device() -> Result<(), GpuError> {
    #[cfg(feature = "cuda")]
    return device::Gpu::find();
    #[cfg(not(feature = "cuda"))]
    Err(GpuError::NotBuilt)
}

/// The devices this process sees (after `CUDA_VISIBLE_DEVICES`), the driver initialised here.
pub fn device_count() -> Result<usize, GpuError> {
    #[cfg(feature = "cuda")]
    return device::Gpu::count();
    #[cfg(not(feature = "cuda"))]
    Err(GpuError::NotBuilt)
}

/// The open device 0, with the others that share its verification: a handle, which clones share
/// (none can exist without the `cuda` feature).
#[derive(Clone)]
pub struct Device {
    #[cfg(feature = "cuda")]
    gpu: device::Gpu,
    #[cfg(feature = "cuda")]
    helpers: Vec<device::Gpu>,
    #[cfg(not(feature = "cuda"))]
    never: std::convert::Infallible,
}

impl Device {
    /// Opens device 0 now.
    pub fn open() -> Result<Device, GpuError> {
        #[cfg(feature = "cuda")]
        return Ok(Device {
            gpu: device::Gpu::open()?,
            helpers: Vec::new(),
        });
        #[cfg(not(feature = "cuda"))]
        Err(GpuError::NotBuilt)
    }

    /// This device, its verification shared with devices `ordinals` (a device named again, or
    /// device 0, gets a context of its own: tests share a verification on a host with one GPU).
    pub fn sharing(self, ordinals: &[usize]) -> Result<Device, GpuError> {
        #[cfg(feature = "cuda")]
        return Ok(Device {
            helpers: device::Gpu::others(ordinals)?,
            ..self
        });
        #[cfg(not(feature = "cuda"))]
        {
            let _ = ordinals;
            match self.never {}
        }
    }

    /// Lines for `octal gpu-info`: device, memory, architecture, driver and NVRTC versions.
    pub fn info(&self) -> Result<Vec<String>, GpuError> {
        #[cfg(feature = "cuda")]
        return self.gpu.info();
        #[cfg(not(feature = "cuda"))]
        match self.never {}
    }

    /// Where the time of the device's stretches went so far.
    pub fn timings(&self) -> GpuTimings {
        #[cfg(feature = "cuda")]
        return self.gpu.timings();
        #[cfg(not(feature = "cuda"))]
        match self.never {}
    }

    /// The speculate-verify loop on this device for `code` under `space`, seeded with `table`
    /// and keys for values below 2^bits at least ([`DeviceEngine`]), its verification shared
    /// with the other devices.
    pub fn speculation(
        &self,
        code: &Code,
        space: SparseSpace,
        table: RareTable,
        bits: u32,
    ) -> Box<dyn StretchEngine> {
        #[cfg(feature = "cuda")]
        return Box::new(DeviceEngine::on(self, code, space, table).with_bits(bits));
        #[cfg(not(feature = "cuda"))]
        {
            let _ = (code, space, table, bits);
            match self.never {}
        }
    }

    /// The marking engine's batches on this device, its kernels compiled for `code`.
    pub fn block_marker(&self, code: &Code) -> Result<Box<dyn BlockMarker>, GpuError> {
        #[cfg(feature = "cuda")]
        return Ok(Box::new(blocks::DeviceBlocks::new(&self.gpu, code)?));
        #[cfg(not(feature = "cuda"))]
        {
            let _ = code;
            match self.never {}
        }
    }
}

#[cfg(feature = "cuda")]
impl DeviceEngine {
    /// The loop on `device` for `code` under `space`, seeded with `table`.
    pub fn on(device: &Device, code: &Code, space: SparseSpace, table: RareTable) -> DeviceEngine {
        DeviceEngine::new(&device.gpu, code, space, table).sharing(device.helpers.clone())
    }
}

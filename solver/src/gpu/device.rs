//! The device: opening it with clear errors where the driver, NVRTC or a GPU is missing (on a
//! thread of its own while the CPU works, if asked), what `octal gpu-info` prints, NVRTC
//! compilation of generated source, and the module cache.

use super::launch::Kernels;
use super::visible;
use crate::gpu_error::GpuError;
use cudarc::driver::{CudaContext, CudaModule, CudaStream};
use cudarc::nvrtc::{self, CompileError, CompileOptions, Ptx};
use kernels_gen::{Game, Layout};
use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::{JoinHandle, Thread};
use std::time::{Duration, Instant};

/// Whether the CUDA driver library loads.
fn driver_present() -> bool {
    // SAFETY: only tries to dlopen libcuda under its usual names; no symbol is called.
    unsafe { cudarc::driver::sys::is_culib_present() }
}

/// Whether the NVRTC library loads.
pub fn nvrtc_present() -> bool {
    // SAFETY: only tries to dlopen libnvrtc under its usual names; no symbol is called.
    unsafe { cudarc::nvrtc::sys::is_culib_present() }
}

/// The NVRTC version, as "major.minor".
pub fn nvrtc_version() -> Result<String, GpuError> {
    if !nvrtc_present() {
        return Err(GpuError::NoNvrtc);
    }
    let (mut major, mut minor) = (0, 0);
    // SAFETY: the library is present; nvrtcVersion writes two ints through valid pointers.
    let status = unsafe { cudarc::nvrtc::sys::nvrtcVersion(&mut major, &mut minor) };
    if status != cudarc::nvrtc::sys::nvrtcResult::NVRTC_SUCCESS {
        return Err(GpuError::Driver(format!("nvrtcVersion: {status:?}")));
    }
    Ok(format!("{major}.{minor}"))
}

/// Compiles generated source to PTX for a virtual architecture such as `compute_90`. On failure
/// the source is written to the temporary directory and the error names it with NVRTC's log.
pub fn compile(source: &str, arch: &str) -> Result<Ptx, GpuError> {
    if !nvrtc_present() {
        return Err(GpuError::NoNvrtc);
    }
    let opts = CompileOptions {
        options: vec![
            format!("--gpu-architecture={arch}"),
            "-default-device".into(),
        ],
        ..Default::default()
    };
    nvrtc::compile_ptx_with_opts(source, opts).map_err(|e| {
        let path = std::env::temp_dir().join(format!("octal-kernels-{}.cu", std::process::id()));
        let _ = std::fs::write(&path, source);
        let log = match e {
            CompileError::CompileError { log, .. } => log.to_string_lossy().into_owned(),
            other => other.to_string(),
        };
        GpuError::Compile {
            path: path.display().to_string(),
            log: log.trim().replace('\n', " | "),
        }
    })
}

/// An open device with its stream and the modules compiled so far.
pub struct Gpu {
    pub(super) ctx: Arc<CudaContext>,
    /// The stream of speculation (and decoding), at the highest priority.
    pub(super) stream: Arc<CudaStream>,
    /// The stream of verification, beside the speculation's, at the lowest priority.
    pub(super) check: Arc<CudaStream>,
    /// The stream of the host's reads of finished blocks, of the `mex` kernel that settles
    /// flagged heaps and of re-verifications: behind no queued work, at the highest priority.
    pub(super) copy: Arc<CudaStream>,
    /// The virtual architecture the kernels are compiled for, e.g. `compute_90`.
    arch: String,
    /// Multiprocessors: the `spec` kernel runs one block on each.
    sms: u32,
    /// Shared memory of a multiprocessor, in bytes.
    sm_shared: usize,
    /// Compiled kernels by their source (the architecture is the device's).
    modules: HashMap<String, Arc<Kernels>>,
}

impl Gpu {
    /// Opens device 0.
    pub fn open() -> Result<Gpu, GpuError> {
        Gpu::find()?;
        Gpu::create()
    }

    /// Checks that the driver, NVRTC and a device are there, initialising the driver (about
    /// half of the time an opening takes): what the helper of [`find_beside`] does.
    pub fn find() -> Result<(), GpuError> {
        libraries_present()?;
        cudarc::driver::result::init()?;
        if CudaContext::device_count()? < 1 {
            return Err(GpuError::NoDevice);
        }
        Ok(())
    }

    /// Device 0 opened on `find`'s initialised driver: its context, streams and architecture.
    fn create() -> Result<Gpu, GpuError> {
        let ctx = CudaContext::new(0)?;
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
        // priority too: the `mex` launch that settles a block's flagged heaps is what the host
        // waits for, and at the lowest it queued behind the verification of the blocks after.
        let (least, greatest) = cudarc::driver::result::stream::get_priority_range()?;
        Ok(Gpu {
            check: ctx.new_stream_with_priority(least)?,
            copy: ctx.new_stream_with_priority(greatest)?,
            sms: sms.max(1) as u32,
            sm_shared: sm_shared.max(0) as usize,
            stream: ctx.new_stream_with_priority(greatest)?,
            ctx,
            arch: format!("compute_{major}{minor}"),
            modules: HashMap::new(),
        })
    }

    /// The kernels for `game`, compiled once per source (tables that fit one layout share it);
    /// the flag says whether they were compiled now. The layout is `game`'s: its options are
    /// the table's.
    pub(super) fn kernels(&mut self, game: &Game<'_>) -> Result<(Arc<Kernels>, bool), GpuError> {
        let layout = Layout::new(game)?;
        let source = kernels_gen::generate(game)?;
        if let Some(k) = self.modules.get(&source) {
            if k.layout == layout {
                return Ok((k.clone(), false));
            }
            let mut again = Kernels::clone(k);
            again.layout = layout;
            return Ok((Arc::new(again), false));
        }
        let module = self.load(&source)?;
        let kernels = Arc::new(Kernels::load(&module, layout, self.sms, self.sm_shared)?);
        self.modules.insert(source, kernels.clone());
        Ok((kernels, true))
    }

    /// Compiles `source` for the device's architecture and loads it.
    pub(super) fn load(&self, source: &str) -> Result<Arc<CudaModule>, GpuError> {
        Ok(self.ctx.load_module(compile(source, &self.arch)?)?)
    }

    /// Starts opening device 0 on a thread of its own: the driver's initialisation and a
    /// context take 0.2 to 0.5 s, which a run spends on the host's cores instead. A run the
    /// host's cores end first never opens it ([`Opening::want`]).
    pub fn open_beside() -> Opening {
        let want = Arc::new(Want::default());
        let opening = want.clone();
        Opening {
            thread: std::thread::Builder::new()
                .name("octal-gpu-open".into())
                .spawn(move || {
                    let _ = opening.opener.set(std::thread::current());
                    open_if(&opening)
                })
                .ok(),
            want,
        }
    }

    /// Lines for `octal gpu-info`: device, memory, architecture, driver and NVRTC versions.
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
        ])
    }
}

/// How long the opening thread waits for the host to say whether the run needs the device (the
/// host says so once it has timed some heaps) before it opens the device anyway.
const ASK: Duration = Duration::from_millis(150);

/// Whether a run needs the device opened beside its work: unsure until the host says.
#[derive(Default)]
struct Want {
    /// `UNSURE`, `YES`, `NO`, `DONE` or `GONE`.
    state: AtomicU8,
    /// Whether the thread has initialised the driver.
    initialised: AtomicBool,
    /// The thread that waits for the answer.
    opener: OnceLock<Thread>,
}

const UNSURE: u8 = 0;
const YES: u8 = 1;
const NO: u8 = 2;
/// The run has ended: confirm that the device is there, open nothing.
const DONE: u8 = 3;
/// The run has been dropped: neither.
const GONE: u8 = 4;

impl Want {
    fn set(&self, state: u8) {
        self.state.store(state, Ordering::Relaxed);
        if let Some(thread) = self.opener.get() {
            thread.unpark();
        }
    }

    fn state(&self) -> u8 {
        self.state.load(Ordering::Relaxed)
    }

    fn is_wanted(&self) -> bool {
        matches!(self.state(), UNSURE | YES)
    }
}

/// Device 0 opened once the run wants it (or the host has not said within [`ASK`]); a run that
/// does not (yet) want it only has its presence confirmed ([`confirm_found`]), and one that ends
/// or is dropped without wanting it gets None.
fn open_if(want: &Want) -> Result<Option<Gpu>, GpuError> {
    libraries_present()?;
    let since = Instant::now();
    // Whether the device is known to be there.
    let mut found = false;
    loop {
        let state = want.state();
        if state == YES || (state == UNSURE && since.elapsed() >= ASK) {
            if want.initialised.load(Ordering::Relaxed) {
                return Gpu::create().map(Some);
            }
            // The run may no longer want the device once the driver is initialised.
            Gpu::find()?;
            found = true;
            want.initialised.store(true, Ordering::Relaxed);
            continue;
        }
        match state {
            GONE => return Ok(None),
            NO | DONE if !found => {
                confirm_found()?;
                found = true;
            }
            DONE => return Ok(None),
            UNSURE => std::thread::park_timeout(ASK.saturating_sub(since.elapsed())),
            _ => std::thread::park(),
        }
    }
}

/// Whether the driver and NVRTC libraries load.
fn libraries_present() -> Result<(), GpuError> {
    if !driver_present() {
        return Err(GpuError::NoDriver);
    }
    if !nvrtc_present() {
        return Err(GpuError::NoNvrtc);
    }
    Ok(())
}

/// What confirms device 0 for [`find_beside`]: a helper process still running, or the word of
/// the helper or of the kernel driver's files.
enum Finder {
    Running(Child),
    Said(bool),
}

static FINDER: OnceLock<Mutex<Finder>> = OnceLock::new();

/// Confirms device 0 for a run that ends before it wants the device, at most once a process,
/// without initialising the driver in the run's process: the driver's initialisation (0.1 to
/// 0.3 s on the H100 and H200 hosts) and the closing of its device files at exit (0.04 to
/// 0.09 s) stay outside the run. Where the kernel driver's files plainly show the device
/// ([`visible::device_zero_shown`], well under a millisecond), their word is taken; else
/// `helper` is started, a process that prints [`FOUND`](super::FOUND) on a line of its own where
/// the driver finds device 0 ([`Gpu::find`]). Where neither says so, the run asks the driver
/// itself, for its own error.
pub fn find_beside(mut helper: Command) {
    FINDER.get_or_init(|| {
        if visible::device_zero_shown() {
            return Mutex::new(Finder::Said(true));
        }
        let child = helper
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn();
        Mutex::new(child.map_or(Finder::Said(false), Finder::Running))
    });
}

/// Whether [`find_beside`] confirmed device 0 (false where it was not asked to). A helper's word
/// is read once; the helper, which closes the driver's device files as it exits, is reaped on a
/// thread of its own.
fn beside_found() -> bool {
    let Some(finder) = FINDER.get() else {
        return false;
    };
    let mut finder = finder.lock().unwrap_or_else(|e| e.into_inner());
    let said = match std::mem::replace(&mut *finder, Finder::Said(false)) {
        Finder::Said(said) => said,
        Finder::Running(mut child) => {
            let mut line = String::new();
            let read = child
                .stdout
                .take()
                .is_some_and(|out| BufReader::new(out).read_line(&mut line).is_ok());
            let _ = std::thread::Builder::new()
                .name("octal-gpu-helper".into())
                .spawn(move || child.wait());
            read && line.trim_end() == super::FOUND
        }
    };
    *finder = Finder::Said(said);
    said
}

/// Whether device 0 is there: [`find_beside`]'s word where it confirmed it, else the driver's,
/// initialised here.
fn confirm_found() -> Result<(), GpuError> {
    if beside_found() {
        Ok(())
    } else {
        Gpu::find()
    }
}

/// Device 0 being opened on a thread of its own ([`Gpu::open_beside`]; where no thread could be
/// started, [`Opening::finish`] opens it). Dropped unfinished (a run that failed), it tells the
/// thread to open nothing more and waits for it: the process never exits while the driver
/// initialises.
pub struct Opening {
    thread: Option<JoinHandle<Result<Option<Gpu>, GpuError>>>,
    /// Whether the run needs the device: not while the host's cores are to end the run first
    /// ([`Opening::want`], [`Opening::confirm`]), and the thread then only confirms that the
    /// device is there.
    want: Arc<Want>,
}

impl Opening {
    /// Whether [`Opening::finish`] would not wait for the thread (it has ended, or there is none).
    pub fn is_finished(&self) -> bool {
        self.thread.as_ref().is_none_or(|t| t.is_finished())
    }

    /// Whether the thread has initialised the driver in the run's process.
    pub fn is_initialised(&self) -> bool {
        self.want.initialised.load(Ordering::Relaxed)
    }

    /// Whether the run has said that it needs the device, and not taken it back
    /// ([`Opening::want`]).
    pub fn is_asked_for(&self) -> bool {
        self.want.state() == YES
    }

    /// Says whether the run needs the device: the thread waits for this (at most [`ASK`]) before
    /// it initialises the driver, and while the device is not wanted only confirms that it is
    /// there; it makes a context and compiles kernels only while the device is wanted.
    pub fn want(&self, wanted: bool) {
        self.want.set(if wanted { YES } else { NO });
    }

    /// Goes on, on a thread of its own, to `then` with the open device: compiling the kernels a
    /// run will need first while the host's cores compute.
    pub fn then(&mut self, then: impl FnOnce(&mut Gpu) + Send + 'static) {
        let before = Opening {
            thread: self.thread.take(),
            want: self.want.clone(),
        };
        let want = self.want.clone();
        self.thread = std::thread::Builder::new()
            .name("octal-gpu-open".into())
            .spawn(move || {
                let mut gpu = before.result()?;
                if let Some(gpu) = gpu.as_mut().filter(|_| want.is_wanted()) {
                    then(gpu);
                }
                Ok(gpu)
            })
            .ok();
    }

    /// The open device, or why it could not be opened.
    pub fn finish(self) -> Result<Gpu, GpuError> {
        self.want(true);
        self.result()?.map_or_else(Gpu::open, Ok)
    }

    /// Whether device 0 is there, for a run that ended without needing it: a context or kernels
    /// the thread has not begun are not made.
    pub fn confirm(self) -> Result<(), GpuError> {
        self.want.set(DONE);
        self.result().map(drop)
    }

    /// What the thread ended with (opening here if there is none).
    fn result(mut self) -> Result<Option<Gpu>, GpuError> {
        match self.thread.take() {
            Some(thread) => thread.join().unwrap_or_else(|_| {
                Err(GpuError::Driver(
                    "the thread opening the device panicked".into(),
                ))
            }),
            None => open_if(&self.want),
        }
    }
}

impl Drop for Opening {
    fn drop(&mut self) {
        if let Some(thread) = self.thread.take() {
            self.want.set(GONE);
            let _ = thread.join();
        }
    }
}

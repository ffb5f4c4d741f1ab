//! Device 0 opened on a thread of its own while the host's cores compute: the driver's
//! initialisation and a context take 0.2 to 0.5 s, which the run spends on the host instead; a
//! run the host's cores end first never opens it, and only has it confirmed.

use crate::compile::libraries_present;
use crate::device::Gpu;
use crate::error::GpuError;
use crate::found::confirm_found;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, OnceLock};
use std::thread::{JoinHandle, Thread};
use std::time::{Duration, Instant};

/// Starts opening device 0 on a thread of its own: the driver's initialisation and a
/// context take 0.2 to 0.5 s, which a run spends on the host's cores instead. A run the
/// host's cores end first never opens it ([`OpeningThread::want`]).
pub(crate) fn open_beside() -> OpeningThread {
    let want = Arc::new(Want::default());
    let opening = want.clone();
    OpeningThread {
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
                return Gpu::create(0).map(Some);
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

/// Device 0 being opened on a thread of its own ([`open_beside`]; where no thread could be
/// started, [`OpeningThread::finish`] opens it). Dropped unfinished (a run that failed), it tells the
/// thread to open nothing more and waits for it: the process never exits while the driver
/// initialises.
pub(crate) struct OpeningThread {
    thread: Option<JoinHandle<Result<Option<Gpu>, GpuError>>>,
    /// Whether the run needs the device: not while the host's cores are to end the run first
    /// ([`OpeningThread::want`], [`OpeningThread::confirm`]), and the thread then only confirms that the
    /// device is there.
    want: Arc<Want>,
}

impl OpeningThread {
    /// Whether [`OpeningThread::finish`] would not wait for the thread (it has ended, or there is none).
    pub fn is_finished(&self) -> bool {
        self.thread.as_ref().is_none_or(|t| t.is_finished())
    }

    /// Whether the thread has initialised the driver in the run's process.
    pub fn is_initialised(&self) -> bool {
        self.want.initialised.load(Ordering::Relaxed)
    }

    /// Whether the run has said that it needs the device, and not taken it back
    /// ([`OpeningThread::want`]).
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
    pub fn then(&mut self, then: impl FnOnce(&Gpu) + Send + 'static) {
        let before = OpeningThread {
            thread: self.thread.take(),
            want: self.want.clone(),
        };
        let want = self.want.clone();
        self.thread = std::thread::Builder::new()
            .name("octal-gpu-open".into())
            .spawn(move || {
                let gpu = before.result()?;
                if let Some(gpu) = gpu.as_ref().filter(|_| want.is_wanted()) {
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

impl Drop for OpeningThread {
    fn drop(&mut self) {
        if let Some(thread) = self.thread.take() {
            self.want.set(GONE);
            let _ = thread.join();
        }
    }
}

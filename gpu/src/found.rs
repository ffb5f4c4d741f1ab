//! Whether device 0 is there, for a GPU run that ends on the host's cores before it needs the
//! device: from the kernel driver's files where they plainly show it ([`crate::visible`]), else
//! from a helper process (`octal gpu-info --found`), so that the run's own process never
//! initialises the driver for nothing.

#[cfg(feature = "cuda")]
use crate::{device::Gpu, error::GpuError, visible};
#[cfg(feature = "cuda")]
use std::io::{BufRead, BufReader};
#[cfg(feature = "cuda")]
use std::process::{Child, Command, Stdio};
#[cfg(feature = "cuda")]
use std::sync::{Mutex, OnceLock};

/// The line `octal gpu-info --found` prints where the driver finds device 0.
pub const FOUND: &str = "device 0 found";

/// What confirms device 0 for [`find_beside`]: a helper process still running, or the word of
/// the helper or of the kernel driver's files.
#[cfg(feature = "cuda")]
enum Finder {
    Running(Child),
    Said(bool),
}

#[cfg(feature = "cuda")]
static FINDER: OnceLock<Mutex<Finder>> = OnceLock::new();

/// Confirms device 0 for a run that ends before it wants the device, at most once a process,
/// without initialising the driver in the run's process: the driver's initialisation (0.1 to
/// 0.3 s on the H100 and H200 hosts) and the closing of its device files at exit (0.04 to
/// 0.09 s) stay outside the run. Where the kernel driver's files plainly show the device
/// ([`visible::device_zero_shown`], well under a millisecond), their word is taken; else
/// `helper` is started, a process that prints [`FOUND`] on a line of its own where
/// the driver finds device 0 ([`Gpu::find`]). Where neither says so, the run asks the driver
/// itself, for its own error.
#[cfg(feature = "cuda")]
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
#[cfg(feature = "cuda")]
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
            read && line.trim_end() == FOUND
        }
    };
    *finder = Finder::Said(said);
    said
}

/// Whether device 0 is there: [`find_beside`]'s word where it confirmed it, else the driver's,
/// initialised here.
#[cfg(feature = "cuda")]
pub(crate) fn confirm_found() -> Result<(), GpuError> {
    if beside_found() {
        Ok(())
    } else {
        Gpu::find()
    }
}

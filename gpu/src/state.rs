//! A GPU run's device 0 through the run ([`RunDevice`]): opening, and compiling the kernels of
//! the run's first device stretch, on a thread of its own while the host's cores compute; then
//! open. A CPU run has none.

use crate::error::GpuError;
use crate::handle::{Device, Opening};
use octal_core::{Code, Kept, RareTable, SparseSpace};

/// How far a device starting beside the host's work has come.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Readiness {
    /// Nothing begun (or no device starting).
    Closed,
    /// The driver is initialised in the run's process.
    Initialised,
    /// The opening thread has ended: the device open, its first kernels compiled.
    Ready,
}

/// A run's device: none (a CPU run), starting beside the host's work, or open.
pub enum RunDevice {
    None,
    Starting { opening: Opening, prepared: bool },
    Open(Device),
}

impl RunDevice {
    /// The device of a run: starting from `opening` on a GPU run, none on a CPU run.
    pub fn new(opening: Option<Opening>) -> RunDevice {
        opening.map_or(RunDevice::None, |opening| RunDevice::Starting {
            opening,
            prepared: false,
        })
    }

    /// Whether the run has a device, open or starting.
    pub fn is_gpu(&self) -> bool {
        !matches!(self, RunDevice::None)
    }

    /// Whether the device is still starting, its thread has ended and the run has said that
    /// it wants the device: the next [`RunDevice::ready`] opens it without waiting (or makes its
    /// context, if the thread left it while it was not wanted). A device the thread opened
    /// before the run said so waits for the host's word ([`RunDevice::readiness`]).
    pub fn has_started(&self) -> bool {
        self.readiness() == Readiness::Ready
            && matches!(self, RunDevice::Starting { opening, .. } if opening.is_asked_for())
    }

    /// How far the device starting beside the host's work has come ([`Readiness::Closed`]
    /// where none is starting). [`Readiness::Ready`] once its thread has ended: opened, with
    /// the kernels of [`RunDevice::prepare`] compiled, unless it failed or was left while not
    /// wanted; taking it over then costs the host only its buffers.
    pub fn readiness(&self) -> Readiness {
        match self {
            RunDevice::Starting { opening, .. } if opening.is_finished() => Readiness::Ready,
            RunDevice::Starting { opening, .. } if opening.is_initialised() => {
                Readiness::Initialised
            }
            _ => Readiness::Closed,
        }
    }

    /// While the device starts, says whether the run still needs it: a run the host's cores
    /// are to end before the device could take over does not make its context.
    pub fn want(&self, wanted: bool) {
        if let RunDevice::Starting { opening, .. } = self {
            opening.want(wanted);
        }
    }

    /// Whether the device is open, opening it when its thread has ended (an error if it could
    /// not be opened); false on a CPU run and while it starts.
    pub fn ready(&mut self) -> Result<bool, GpuError> {
        if self.has_started() {
            self.wait()?;
        }
        Ok(matches!(self, RunDevice::Open(_)))
    }

    /// Ends the run's use of the device: whether the run had one (an error where it could not
    /// be opened). A device still starting is only confirmed to be there.
    pub fn finish(self) -> Result<bool, GpuError> {
        match self {
            RunDevice::None => Ok(false),
            RunDevice::Starting { opening, .. } => opening.confirm().map(|()| true),
            RunDevice::Open(_) => Ok(true),
        }
    }

    /// Waits for the device to open (an error if it could not be); false on a CPU run.
    pub fn wait(&mut self) -> Result<bool, GpuError> {
        if let RunDevice::Starting { .. } = self {
            let RunDevice::Starting { opening, .. } = std::mem::replace(self, RunDevice::None)
            else {
                unreachable!("matched above")
            };
            *self = RunDevice::Open(opening.finish()?);
        }
        Ok(matches!(self, RunDevice::Open(_)))
    }

    /// The open device.
    pub fn device(&self) -> Option<&Device> {
        match self {
            RunDevice::Open(device) => Some(device),
            _ => None,
        }
    }

    /// While the device starts, has its thread compile the kernels a device stretch would start
    /// with for `table` after the proved values `g` (once a run).
    pub fn prepare(&mut self, code: &Code, space: SparseSpace, table: &RareTable, g: Kept<'_>) {
        if let RunDevice::Starting { opening, prepared } = self {
            if !std::mem::replace(prepared, true) {
                opening.prepare(code, space, table, g);
            }
        }
    }
}

//! `octal gpu-info`: what the GPU is (device, memory, architecture, driver, NVRTC), or with
//! `--found` only whether a `--gpu` run would find it; and the confirmation of the device that a
//! GPU run starts beside its work.

use super::CommandError;
use octal_gpu::Device;

/// `octal gpu-info`: the device's lines, or with `found` the line [`octal_gpu::FOUND`] where the
/// driver finds device 0.
pub fn gpu_info(found: bool) -> Result<(), CommandError> {
    if found {
        octal_gpu::find_device()?;
        println!("{}", octal_gpu::FOUND);
        return Ok(());
    }
    for line in Device::open()?.info()? {
        println!("{line}");
    }
    Ok(())
}

/// Confirms the device beside a GPU run, so that a run the host's cores end first need not
/// initialise the driver itself: from the kernel driver's files, else by `octal gpu-info
/// --found` started beside it ([`octal_gpu::find_beside`]).
pub fn find_device_beside() {
    if let Ok(octal) = std::env::current_exe() {
        let mut helper = std::process::Command::new(octal);
        helper.args(["gpu-info", "--found"]);
        octal_gpu::find_beside(helper);
    }
}

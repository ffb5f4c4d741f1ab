//! The CUDA libraries, loaded at run time: whether the driver and NVRTC are there, NVRTC's
//! version, and the compilation of generated kernel source to PTX.

use crate::error::GpuError;
use cudarc::nvrtc::{self, CompileError, CompileOptions, Ptx};

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

/// Whether the driver and NVRTC libraries load.
pub(crate) fn libraries_present() -> Result<(), GpuError> {
    if !driver_present() {
        return Err(GpuError::NoDriver);
    }
    if !nvrtc_present() {
        return Err(GpuError::NoNvrtc);
    }
    Ok(())
}

//! Why the GPU engine cannot run: each message is one line for the user.

/// A failure of the GPU engine.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GpuError {
    #[error("this octal was built without GPU support (cargo feature `gpu`)")]
    NotBuilt,
    #[error(
        "no CUDA driver: libcuda.so could not be loaded (the GPU engine needs an NVIDIA driver)"
    )]
    NoDriver,
    #[error("no NVRTC: libnvrtc.so.13 could not be loaded (install the CUDA toolkit, or put the wheel nvidia-cuda-nvrtc on LD_LIBRARY_PATH: see scripts/nvrtc-env.sh)")]
    NoNvrtc,
    #[error("no CUDA device found")]
    NoDevice,
    #[error("CUDA driver error: {0}")]
    Driver(String),
    #[error("NVRTC could not compile the generated kernels (source kept at {path}): {log}")]
    Compile { path: String, log: String },
    #[error(transparent)]
    Generate(#[from] kernels_gen::GenError),
}

#[cfg(feature = "gpu")]
impl From<cudarc::driver::DriverError> for GpuError {
    fn from(e: cudarc::driver::DriverError) -> Self {
        GpuError::Driver(e.to_string())
    }
}

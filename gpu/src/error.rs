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
    #[error("--devices {asked}: this process sees {found} CUDA device(s)")]
    TooFewDevices { asked: usize, found: usize },
    #[error("CUDA driver error: {0}")]
    Driver(String),
    #[error("NVRTC could not compile the generated kernels (source kept at {path}): {log}")]
    Compile { path: String, log: String },
    #[error(
        "the GPU engine keeps {:.2} GiB of heaps on the device (the first {prefix} and the last {ring}); \
         the device has {:.2} GiB free",
        gib(*need), gib(*free)
    )]
    DeviceMemory {
        need: u64,
        free: u64,
        prefix: usize,
        ring: usize,
    },
    #[error(transparent)]
    Generate(#[from] kernels_gen::GenError),
}

fn gib(bytes: u64) -> f64 {
    bytes as f64 / (1u64 << 30) as f64
}

/// The device's failure, as an engine reports it.
impl From<GpuError> for octal_engines::stretch::EngineError {
    fn from(e: GpuError) -> Self {
        octal_engines::stretch::EngineError::Device(Box::new(e))
    }
}

#[cfg(feature = "cuda")]
impl From<cudarc::driver::DriverError> for GpuError {
    fn from(e: cudarc::driver::DriverError) -> Self {
        GpuError::Driver(e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::GpuError;

    #[test]
    fn device_memory_message_is_one_line_with_the_sizes() {
        let e = GpuError::DeviceMemory {
            need: 3 << 29,
            free: 1 << 30,
            prefix: 1 << 24,
            ring: 1 << 26,
        };
        let text = e.to_string();
        assert!(!text.contains('\n'));
        assert_eq!(
            text,
            "the GPU engine keeps 1.50 GiB of heaps on the device (the first 16777216 and the last \
             67108864); the device has 1.00 GiB free"
        );
    }
}

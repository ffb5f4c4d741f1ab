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
    #[error(
        "{heaps} heaps need {:.1} GiB of GPU memory ({per_heap} bytes a heap); the device has {:.1} GiB free: \
         at most {} heaps with --gpu (the CPU engines keep values on disk)",
        gib(*heaps as u64 * per_heap), gib(*free), free / per_heap
    )]
    DeviceMemory {
        heaps: usize,
        per_heap: u64,
        free: u64,
    },
    #[error(transparent)]
    Generate(#[from] kernels_gen::GenError),
}

fn gib(bytes: u64) -> f64 {
    bytes as f64 / (1u64 << 30) as f64
}

#[cfg(feature = "gpu")]
impl From<cudarc::driver::DriverError> for GpuError {
    fn from(e: cudarc::driver::DriverError) -> Self {
        GpuError::Driver(e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::GpuError;

    #[test]
    fn device_memory_message_is_one_line_with_the_limit() {
        let e = GpuError::DeviceMemory {
            heaps: 100_000_000_000,
            per_heap: 3,
            free: 150 << 30,
        };
        let text = e.to_string();
        assert!(!text.contains('\n'));
        assert!(
            text.starts_with("100000000000 heaps need 279.4 GiB of GPU memory (3 bytes a heap)")
        );
        assert!(text.contains("150.0 GiB free: at most 53687091200 heaps with --gpu"));
    }
}

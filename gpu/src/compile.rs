//! The CUDA libraries, loaded at run time: whether the driver and NVRTC are there, NVRTC's
//! version, and the compilation of generated kernel source to PTX, kept in a cache of compiled
//! kernels so that a run whose kernels an earlier run compiled reads them instead.

use crate::error::GpuError;
use cudarc::nvrtc::{self, CompileError, CompileOptions, Ptx};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

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

/// Compiles generated source to PTX for a virtual architecture such as `compute_90`, or reads
/// the PTX of the same source, architecture and NVRTC version from the kernel cache. On failure
/// the source is written to the temporary directory and the error names it with NVRTC's log.
pub fn compile(source: &str, arch: &str) -> Result<Ptx, GpuError> {
    compile_cached(source, arch, cache_dir().as_deref())
}

/// [`compile`] with the cache in `cache` (none: compiled every time).
pub fn compile_cached(source: &str, arch: &str, cache: Option<&Path>) -> Result<Ptx, GpuError> {
    let key = format!("// {arch}, NVRTC {}\n{source}", nvrtc_version()?);
    if let Some(ptx) = cache.and_then(|dir| cached(dir, &key)) {
        return Ok(Ptx::from_src(ptx));
    }
    let ptx = compile_now(source, arch)?;
    if let Some(dir) = cache {
        keep(dir, &key, &ptx.to_src());
    }
    Ok(ptx)
}

fn compile_now(source: &str, arch: &str) -> Result<Ptx, GpuError> {
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

/// The kernel cache's directory: `OCTAL_KERNEL_CACHE` (empty: no cache), else
/// `$XDG_CACHE_HOME/octal/kernels`, else `~/.cache/octal/kernels`.
pub fn cache_dir() -> Option<PathBuf> {
    let var = |name| std::env::var_os(name).filter(|v| !v.is_empty());
    match std::env::var_os("OCTAL_KERNEL_CACHE") {
        Some(dir) => (!dir.is_empty()).then(|| dir.into()),
        None => var("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .or_else(|| var("HOME").map(|h| PathBuf::from(h).join(".cache")))
            .map(|d| d.join("octal").join("kernels")),
    }
}

/// The most kernel modules the cache keeps; past it the least recently used go.
const CACHE_ENTRIES: usize = 256;

/// An entry's files: the key (architecture, NVRTC version and source) and its PTX.
fn entry(dir: &Path, key: &str) -> (PathBuf, PathBuf) {
    let mut h = std::hash::DefaultHasher::new();
    key.hash(&mut h);
    let name = format!("{:016x}", h.finish());
    (
        dir.join(format!("{name}.cu")),
        dir.join(format!("{name}.ptx")),
    )
}

/// The cached PTX of `key`: only where the entry's key file holds exactly `key` (a hash shared
/// by two sources finds the other's key and misses).
fn cached(dir: &Path, key: &str) -> Option<String> {
    let (cu, ptx) = entry(dir, key);
    if std::fs::read(&cu).ok()? != key.as_bytes() {
        return None;
    }
    let src = std::fs::read_to_string(ptx).ok()?;
    // The time of use, by which the cache drops its least recently used entries.
    let _ = std::fs::File::options()
        .append(true)
        .open(&cu)
        .and_then(|f| f.set_modified(std::time::SystemTime::now()));
    Some(src)
}

/// Keeps `ptx` under `key`: each file written whole and renamed into place, the PTX before the
/// key, so that a key found always has its PTX. A cache that cannot be written is skipped.
fn keep(dir: &Path, key: &str, ptx: &str) {
    let put = |path: &Path, data: &str| {
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        std::fs::write(&tmp, data).and_then(|()| std::fs::rename(&tmp, path))
    };
    let (cu, ptx_path) = entry(dir, key);
    if std::fs::create_dir_all(dir).is_ok() && put(&ptx_path, ptx).is_ok() && put(&cu, key).is_ok()
    {
        trim(dir);
    }
}

/// Drops the least recently used entries past [`CACHE_ENTRIES`].
fn trim(dir: &Path) {
    let Ok(files) = std::fs::read_dir(dir) else {
        return;
    };
    let mut keys: Vec<_> = files
        .flatten()
        .filter(|f| f.path().extension().is_some_and(|e| e == "cu"))
        .filter_map(|f| Some((f.metadata().ok()?.modified().ok()?, f.path())))
        .collect();
    if keys.len() <= CACHE_ENTRIES {
        return;
    }
    keys.sort();
    for (_, cu) in &keys[..keys.len() - CACHE_ENTRIES] {
        let _ = std::fs::remove_file(cu);
        let _ = std::fs::remove_file(cu.with_extension("ptx"));
    }
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

#[cfg(test)]
mod tests {
    use super::{trim, CACHE_ENTRIES};
    use std::time::{Duration, SystemTime};

    /// Past its size the cache drops the entries used longest ago, key and PTX, and keeps the rest.
    #[test]
    fn the_cache_drops_its_least_recently_used_entries() {
        let dir = std::env::temp_dir().join(format!("octal-kernel-cache-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let extra = 3;
        let start = SystemTime::now() - Duration::from_secs(3600);
        for k in 0..CACHE_ENTRIES + extra {
            for ext in ["ptx", "cu"] {
                let path = dir.join(format!("{k:04}.{ext}"));
                std::fs::write(&path, "x").unwrap();
                let f = std::fs::File::options().append(true).open(&path).unwrap();
                // Entry 0 was used last; then 1, 2, ... in order.
                let age = if k == 0 { CACHE_ENTRIES + extra } else { k };
                f.set_modified(start + Duration::from_secs(age as u64))
                    .unwrap();
            }
        }
        trim(&dir);
        for k in 0..CACHE_ENTRIES + extra {
            let kept = k == 0 || k > extra;
            for ext in ["ptx", "cu"] {
                let there = dir.join(format!("{k:04}.{ext}")).exists();
                assert_eq!(there, kept, "entry {k}, {ext}");
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

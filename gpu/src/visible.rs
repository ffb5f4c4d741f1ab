//! Whether the kernel driver plainly shows the device CUDA would number 0, read from
//! `/proc/driver/nvidia` and `/dev` without loading the CUDA driver: well under a millisecond,
//! where the driver's initialisation takes 0.1 to 0.3 s. A GPU run the host's cores end before
//! it wants the device confirms the device this way ([`super::device::find_beside`]).
//!
//! The answer is yes only where the case is plain: the kernel module loaded; every GPU it lists
//! that is not excluded has its device file, open to this process, and no MIG instances; the
//! control and unified-memory device files open too; and `CUDA_VISIBLE_DEVICES` unset or naming
//! first an index below the count of those GPUs, or one's full UUID as the driver writes it.
//! Anything else (MIG, a UUID prefix, GPUs hidden from a container, files this process may not
//! open) is left to the driver.

use rustix::fs::{Access, AtFlags};
use std::fs;
use std::os::unix::fs::FileTypeExt;
use std::path::Path;

/// Whether the kernel driver plainly shows device 0 to this process (its
/// `CUDA_VISIBLE_DEVICES`).
pub fn device_zero_shown() -> bool {
    let visible = std::env::var("CUDA_VISIBLE_DEVICES").ok();
    shown_under(Path::new("/"), visible.as_deref())
}

/// Whether the files under `root` (`proc/driver/nvidia/...` and `dev/...`) plainly show the
/// device CUDA would number 0 under `CUDA_VISIBLE_DEVICES` = `visible` (None: unset).
pub fn shown_under(root: &Path, visible: Option<&str>) -> bool {
    let nvidia = root.join("proc/driver/nvidia");
    let dev = root.join("dev");
    if !nvidia.join("version").is_file()
        || !may_open(&dev.join("nvidiactl"))
        || !may_open(&dev.join("nvidia-uvm"))
    {
        return false;
    }
    let Some(uuids) = gpu_uuids(&nvidia, &dev) else {
        return false;
    };
    let Some(first) = visible.map(|v| v.split(',').next().unwrap_or_default()) else {
        return !uuids.is_empty();
    };
    if !first.is_empty() && first.bytes().all(|b| b.is_ascii_digit()) {
        return first.parse::<usize>().is_ok_and(|i| i < uuids.len());
    }
    first.starts_with("GPU-") && uuids.iter().any(|u| u == first)
}

/// The UUIDs of the GPUs the kernel driver lists and does not exclude, where each is plainly
/// usable (its device file opens, it has no MIG instances); None where one is not, or a file
/// does not read as expected.
fn gpu_uuids(nvidia: &Path, dev: &Path) -> Option<Vec<String>> {
    let mut uuids = Vec::new();
    for entry in fs::read_dir(nvidia.join("gpus")).ok()? {
        let information = fs::read_to_string(entry.ok()?.path().join("information")).ok()?;
        let field = |name: &str| {
            information.lines().find_map(|line| {
                let (key, value) = line.split_once(':')?;
                (key.trim() == name).then(|| value.trim())
            })
        };
        if field("GPU Excluded")? != "No" {
            continue;
        }
        let minor: u32 = field("Device Minor")?.parse().ok()?;
        let mig = nvidia.join(format!("capabilities/gpu{minor}/mig"));
        let instances = fs::read_dir(&mig).map_or(0, |d| d.count());
        if instances > 0 || !may_open(&dev.join(format!("nvidia{minor}"))) {
            return None;
        }
        uuids.push(field("GPU UUID")?.to_string());
    }
    Some(uuids)
}

/// Whether `path` is a character device this process may open for reading and writing (the
/// kernel's permission check, without opening it).
fn may_open(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|m| m.file_type().is_char_device())
        && rustix::fs::accessat(
            rustix::fs::CWD,
            path,
            Access::READ_OK | Access::WRITE_OK,
            AtFlags::EACCESS,
        )
        .is_ok()
}

#[cfg(test)]
mod tests {
    use super::shown_under;
    use std::path::{Path, PathBuf};

    const UUID: &str = "GPU-6772f8e0-0046-2f9e-eb50-a0da619f0be0";

    /// A tree laid out as an H200 host's `/proc/driver/nvidia` and `/dev` (one GPU, minor 0, MIG
    /// off), its device files links to `/dev/null` (a character device anyone may open).
    fn host(name: &str) -> PathBuf {
        let root =
            std::env::temp_dir().join(format!("octal-visible-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let nvidia = root.join("proc/driver/nvidia");
        let gpu = nvidia.join("gpus/0000:00:06.0");
        std::fs::create_dir_all(&gpu).unwrap();
        std::fs::create_dir_all(nvidia.join("capabilities/gpu0/mig")).unwrap();
        std::fs::create_dir_all(root.join("dev")).unwrap();
        std::fs::write(
            nvidia.join("version"),
            "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build\n",
        )
        .unwrap();
        std::fs::write(
            gpu.join("information"),
            format!(
                "Model: \t\t NVIDIA H200\nIRQ:   \t\t 41\nGPU UUID: \t {UUID}\nBus Location: \t 0000:00:06.0\nDevice Minor: \t 0\nGPU Excluded:\t No\n"
            ),
        )
        .unwrap();
        for file in ["nvidiactl", "nvidia-uvm", "nvidia0"] {
            std::os::unix::fs::symlink("/dev/null", root.join("dev").join(file)).unwrap();
        }
        root
    }

    #[test]
    fn a_plain_host_shows_device_zero_as_cuda_visible_devices_names_it() {
        let root = host("plain");
        let lower = UUID.to_ascii_lowercase();
        let upper = format!("GPU-{}", UUID[4..].to_ascii_uppercase());
        for (visible, expected) in [
            (None, true),
            (Some("0"), true),
            (Some("0,1"), true),
            (Some(UUID), true),
            // Index 1 of one GPU, an empty list, a negative index: CUDA has no device 0. A first
            // entry CUDA rejects hides the rest.
            (Some("1"), false),
            (Some("1,0"), false),
            (Some(""), false),
            (Some("-1"), false),
            (Some("GPU-00000000-0000-0000-0000-000000000000"), false),
            // Left to the driver: a UUID in other letter cases or cut short, MIG instances,
            // anything not plainly an index.
            (Some(lower.as_str()), false),
            (Some(upper.as_str()), false),
            (Some("GPU-6772f8e0"), false),
            (Some("MIG-6772f8e0-0046-2f9e-eb50-a0da619f0be0"), false),
            (Some(" 0"), false),
        ] {
            assert_eq!(shown_under(&root, visible), expected, "{visible:?}");
        }
        let _ = std::fs::remove_dir_all(root);
    }

    #[test]
    fn anything_unplain_on_the_host_is_left_to_the_driver() {
        type Change = fn(&Path);
        let changes: [(&str, Change); 7] = [
            ("no-module", |r| {
                std::fs::remove_file(r.join("proc/driver/nvidia/version")).unwrap()
            }),
            ("no-gpu-file", |r| {
                std::fs::remove_file(r.join("dev/nvidia0")).unwrap()
            }),
            ("no-uvm", |r| {
                std::fs::remove_file(r.join("dev/nvidia-uvm")).unwrap()
            }),
            ("not-a-device", |r| {
                std::fs::remove_file(r.join("dev/nvidia0")).unwrap();
                std::fs::write(r.join("dev/nvidia0"), "").unwrap();
            }),
            ("mig", |r| {
                std::fs::create_dir(r.join("proc/driver/nvidia/capabilities/gpu0/mig/gi1")).unwrap()
            }),
            ("excluded", |r| {
                let path = r.join("proc/driver/nvidia/gpus/0000:00:06.0/information");
                let text = std::fs::read_to_string(&path).unwrap();
                std::fs::write(&path, text.replace("Excluded:\t No", "Excluded:\t Yes")).unwrap();
            }),
            ("unreadable", |r| {
                let path = r.join("proc/driver/nvidia/gpus/0000:00:06.0/information");
                std::fs::write(&path, "Model: NVIDIA H200\n").unwrap();
            }),
        ];
        for (name, change) in changes {
            let root = host(name);
            assert!(
                shown_under(&root, None),
                "{name}: the tree before the change"
            );
            change(&root);
            assert!(!shown_under(&root, None), "{name}");
            assert!(!shown_under(&root, Some("0")), "{name}");
            let _ = std::fs::remove_dir_all(root);
        }
    }
}

//! Child `octal` processes, one a GPU: the binary itself, started so that it ends with its
//! parent, on the d-th device its parent sees. `octal frontier` runs each game in one, and
//! `octal survey --devices` a worker a device.

use super::CommandError;
use rustix::process::Signal;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::Command;

/// The `octal` binary itself.
fn me() -> Result<PathBuf, CommandError> {
    std::env::current_exe().map_err(|source| CommandError::File {
        what: "cannot find the octal binary",
        path: PathBuf::from("octal"),
        source,
    })
}

/// `octal` with `args`, on the `device`-th GPU this process sees (none: the host's cores): the
/// entry of this process's `CUDA_VISIBLE_DEVICES` where that is set (a scheduler's choice of
/// GPUs), else that device.
///
/// The child ends with its parent: killed where the parent is (a run loses what a kill loses,
/// the heaps since its last checkpoint), so that a command started again finds no child of the
/// one before still at work.
pub fn octal(args: &[String], device: Option<usize>) -> Result<Command, CommandError> {
    let mut c = Command::new(me()?);
    c.args(args);
    let parent = rustix::process::getpid();
    // SAFETY: the closure makes two system calls and builds an error value, in the child
    // between fork and exec.
    unsafe {
        c.pre_exec(move || {
            rustix::process::set_parent_process_death_signal(Some(Signal::KILL))?;
            // The parent may have ended before the call above took effect.
            if rustix::process::getppid() != Some(parent) {
                return Err(std::io::Error::other("the parent has ended"));
            }
            Ok(())
        });
    }
    if let Some(d) = device {
        let visible = std::env::var("CUDA_VISIBLE_DEVICES").ok();
        c.env("CUDA_VISIBLE_DEVICES", nth_visible(visible.as_deref(), d));
    }
    Ok(c)
}

/// The `CUDA_VISIBLE_DEVICES` of the `d`-th device of a process that sees `visible`: none
/// (an empty list) where `visible` lists fewer.
fn nth_visible(visible: Option<&str>, d: usize) -> String {
    match visible {
        Some(v) => v
            .split(',')
            .map(str::trim)
            .filter(|e| !e.is_empty())
            .nth(d)
            .unwrap_or_default()
            .to_string(),
        None => d.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::nth_visible;

    #[test]
    fn a_slot_takes_the_device_the_scheduler_gave() {
        assert_eq!(nth_visible(None, 1), "1");
        assert_eq!(nth_visible(Some("2,3"), 0), "2");
        assert_eq!(nth_visible(Some("2, 3"), 1), "3");
        assert_eq!(nth_visible(Some("GPU-5f1c,GPU-77aa"), 1), "GPU-77aa");
        // A process that sees no GPU, or fewer than asked, gives none to its child.
        assert_eq!(nth_visible(Some(""), 0), "");
        assert_eq!(nth_visible(Some("2,3"), 2), "");
    }
}

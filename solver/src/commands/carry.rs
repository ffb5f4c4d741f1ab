//! Carrying a run between machines: `octal checkpoint` writes a run directory's snapshot (its
//! sparse space, rare table, first heaps and fingerprints), `octal restore` makes a run directory
//! from one by replaying its values.

use super::job::{progress_bar, HEAPS_BAR};
use super::{pool, CommandError};
use crate::replay;
use crate::request::EngineChoice;
use octal_gpu::Device;
use octal_store::rundir::{self, Recorder, RunDirError};
use octal_store::snapshot;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A validated `octal restore`.
#[derive(Debug, Clone)]
pub struct RestoreConfig {
    /// The snapshot.
    pub file: PathBuf,
    /// The run directory to make.
    pub out: PathBuf,
    /// Replay on the GPU, and continue the run there.
    pub gpu: bool,
    pub threads: usize,
    pub quiet: bool,
}

/// `octal checkpoint`: writes the snapshot of the run in `dir` to `output`.
pub fn checkpoint(dir: &Path, output: &Path) -> Result<(), CommandError> {
    let (c, values) = rundir::check(dir)?;
    let code = c
        .code
        .parse()
        .map_err(|e| CommandError::Input(format!("invalid code '{}': {e}", c.code)))?;
    let Some(space) = c.space() else {
        return Err(CommandError::Input(format!(
            "{}: the run has no sparse space, and a snapshot is its rare table",
            dir.display()
        )));
    };
    let h = snapshot::write(output, &code, space, &values)?;
    let size = std::fs::metadata(output)
        .map_err(super::file_error("cannot read", output))?
        .len();
    println!(
        "{}: {} heaps of {} as {} rare values under {space} and {} first heaps, {:.2} MiB, fnv1a64 {}",
        output.display(),
        h.n,
        h.code,
        h.rare,
        h.exact,
        size as f64 / (1u64 << 20) as f64,
        h.fnv1a64
    );
    Ok(())
}

/// `octal restore`: makes a run directory from a snapshot, its values replayed and checked.
pub fn restore(cfg: &RestoreConfig) -> Result<(), CommandError> {
    let s = snapshot::read(&cfg.file)?;
    let h = &s.header;
    let engine = if cfg.gpu {
        EngineChoice::Gpu
    } else {
        EngineChoice::Auto
    };
    // An occupied directory is refused before the replay's work; a failed replay leaves none.
    if cfg.out.join("checkpoint.json").exists() {
        return Err(RunDirError::Occupied(cfg.out.clone()).into());
    }
    let started = Instant::now();
    let device = cfg.gpu.then(Device::open).transpose()?;
    let bar = progress_bar(h.n, cfg.quiet, HEAPS_BAR);
    let values = pool(cfg.threads)?.install(|| {
        replay::replay(&s, &cfg.file, device.as_ref(), &mut |done| {
            bar.set_position(done as u64)
        })
    })?;
    bar.finish_and_clear();
    let (mut recorder, _) = Recorder::create(
        &cfg.out,
        &h.code,
        h.n,
        engine.name(),
        false,
        Duration::from_secs(3600),
    )?;
    recorder.finish(&values, h.space(), 0, started.elapsed().as_secs_f64())?;
    println!(
        "{}: {} heaps of {} replayed in {:.1} s, every fnv1a64 equal ({} at {}); octal resume continues it",
        cfg.out.display(),
        h.n,
        h.code,
        started.elapsed().as_secs_f64(),
        h.fnv1a64,
        h.n
    );
    Ok(())
}

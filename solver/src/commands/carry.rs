//! Carrying a run between machines: `octal checkpoint` writes a run directory's state (its
//! front, tail, rare table and statistics; compact unless `--whole`), from which `octal resume`
//! goes on anywhere once the heaps a compact one leaves out are computed again; `octal
//! snapshot` writes a snapshot (its sparse space, rare table, first heaps and fingerprints), from
//! which `octal restore` makes a run directory by replaying every value.

use super::job::{progress_bar, HEAPS_BAR};
use super::{pool, CommandError};
use crate::replay;
use crate::request::Bounds;
use crate::request::EngineChoice;
use crate::solve;
use octal_core::codec::LoopTable;
use octal_core::stats::Summarizer;
use octal_core::{Code, Kept, RareTable, SparseSpace};
use octal_engines::stretch::reads_back;
use octal_gpu::Device;
use octal_store::rundir::{self, Checkpoint, Mark, Recorder, RunDirError};
use octal_store::snapshot::{self, SnapshotHeader};
use octal_store::state::{SpaceAt, State, StateHeader, STATE_FORMAT};
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

/// `octal checkpoint`: writes the state of the run in `dir` to `output`: the run's own past
/// `--keep`, else the front and tail such a run would hold of its values; compact unless
/// `whole`.
pub fn checkpoint(dir: &Path, output: &Path, whole: bool) -> Result<(), CommandError> {
    let (state, size) = write_state(dir, output, whole)?;
    let h = &state.header;
    let compact = h.stored.as_ref().map_or(String::new(), |s| {
        format!(
            " (compact: the first {} and {} of them, the rest computed again on resume)",
            s.front, s.tail
        )
    });
    println!(
        "{}: {} heaps of {} under {}: the first {} and last {} values{compact}, {} rare heaps and the statistics, {:.2} MiB; octal resume {} --out DIR goes on",
        output.display(),
        h.heaps,
        h.code,
        h.space,
        h.front,
        h.heaps - h.tail_from,
        h.rare,
        size as f64 / (1u64 << 20) as f64,
        output.display()
    );
    Ok(())
}

/// The most heaps of its tail a compact checkpoint holds (16 MiB of values): past that, it holds
/// none, and the whole tail comes back on resume by a replay from the first heaps.
const MAX_STORED_TAIL: usize = 1 << 23;

/// The heaps of its front and of its tail a compact checkpoint of `state` holds: the snapshot's
/// first heaps of the front (a run from heap 0 computes the rest), and of the tail the heaps a
/// speculation reads back (the last rare heap and the code's reach), where the tail lies past
/// the heaps whose options reach rare heaps on both sides, else the whole tail; none of the tail
/// where that is more than [`MAX_STORED_TAIL`].
fn compact_parts(state: &State) -> (usize, usize) {
    let h = &state.header;
    let rules = h.code.parse::<Code>().expect("checked on reading").rules();
    let hot_from = LoopTable::new(&rules, h.space, &state.table).hot_from;
    let tail = if h.tail_from >= hot_from {
        reads_back(&rules, state.table.last_heap())
    } else {
        state.tail.len()
    };
    (snapshot::EXACT_HEAPS, stored_tail(tail))
}

/// The heaps of its tail a compact checkpoint holds where it needs `tail` of them to go on by
/// the speculative pass: all of them, or none past [`MAX_STORED_TAIL`].
fn stored_tail(tail: usize) -> usize {
    if tail <= MAX_STORED_TAIL {
        tail
    } else {
        0
    }
}

/// The state of a run that keeps every value (`values`, its checkpoint `c`): the front and tail
/// a run past `--keep` would hold.
fn state_of(dir: &Path, c: &Checkpoint, values: &[u16]) -> Result<State, CommandError> {
    let code: Code = c
        .code
        .parse()
        .map_err(|e| CommandError::Input(format!("invalid code '{}': {e}", c.code)))?;
    let Some(space) = c.space() else {
        return Err(CommandError::Input(format!(
            "{}: the run has no sparse space, and a run that holds only its first and last values needs one",
            dir.display()
        )));
    };
    let table = RareTable::from_values(&space, values);
    let (front, tail) = solve::bounds(Bounds::default(), &code.rules(), space, (values, &table))?;
    let tail_from = values.len().saturating_sub(tail);
    Ok(State {
        header: StateHeader {
            format: STATE_FORMAT,
            code: c.code.clone(),
            n: c.n,
            heaps: values.len(),
            engine: c.engine.clone(),
            keep: values.len(),
            space,
            spaces: vec![SpaceAt {
                heap: 0,
                space: Some(space),
            }],
            front,
            tail,
            tail_from,
            rare: table.len(),
            elapsed: c.elapsed,
            corrections: c.corrections,
            finished: c.finished,
            summarizer: Summarizer::fed_with(Some(space), values),
            data_fnv1a64: String::new(),
            stored: None,
        },
        front: values[..front].to_vec(),
        tail: values[tail_from..].to_vec(),
        table,
    })
}

/// Writes the state of the run in `dir` to `output` (see [`checkpoint`]), compact unless
/// `whole`: the state and the file's size in bytes.
pub fn write_state(dir: &Path, output: &Path, whole: bool) -> Result<(State, u64), CommandError> {
    let (c, values) = rundir::check(dir)?;
    let mut state = match rundir::check_state(dir, &c)? {
        Some(state) => state,
        None => state_of(dir, &c, &values)?,
    };
    let (front, tail) = if whole {
        (usize::MAX, usize::MAX)
    } else {
        compact_parts(&state)
    };
    state.save_compact(output, front, tail)?;
    let size = std::fs::metadata(output)
        .map_err(super::file_error("cannot read", output))?
        .len();
    Ok((state, size))
}

/// `octal snapshot`: writes the snapshot of the run in `dir` to `output`.
pub fn snapshot(dir: &Path, output: &Path) -> Result<(), CommandError> {
    let (h, space, size) = write_snapshot(dir, output)?;
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

/// Writes the snapshot of the run in `dir` to `output`: its header, the run's space and the
/// file's size in bytes.
pub fn write_snapshot(
    dir: &Path,
    output: &Path,
) -> Result<(SnapshotHeader, SparseSpace, u64), CommandError> {
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
    Ok((h, space, size))
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
        (h.n, None),
        engine.name(),
        false,
        Duration::from_secs(3600),
    )?;
    let summarizer = Summarizer::new(h.space());
    let mark = Mark {
        space: h.space(),
        spaces: &[],
        corrections: 0,
        elapsed: started.elapsed().as_secs_f64(),
        summarizer: &summarizer,
        tail: 0,
    };
    recorder.finish(Kept::whole(&values), &mark)?;
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

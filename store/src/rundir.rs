//! Run directories: what a long run leaves on disk, so that it can be killed at any moment and
//! resumed with nothing lost and nothing silently wrong.
//!
//! A run directory holds
//! * `values.bin`: a 64-byte header (magic `OCTALVAL`, format version, value width in bytes,
//!   values per chunk, the canonical code) and then chunks of `CHUNK` values (the last one may
//!   be shorter), each followed by the FNV-1a 64 checksum of its bytes;
//! * `checkpoint.json`: the run's request and how far the value file is durable, replaced
//!   atomically (written beside, synced, renamed) only after the values it counts are synced;
//! * `lock`: held (an exclusive file lock) by the process writing the directory.
//!
//! * `values.work`: the run's value store while a process works on it (see [`crate::values`]):
//!   derived data, rebuilt from `values.bin` on every resume and never read back;
//! * `state.bin`, once the run holds only its first and last heaps (past `--keep` heaps): its
//!   state ([`crate::state`]), replaced atomically at each checkpoint. `values.bin` then holds
//!   the first `keep` values and grows no more, and the state says how far the run got.
//!
//! Values are one byte each in `values.bin` while they are below 256 (every run starts so); the
//! first larger value rewrites the file at two bytes (written beside, synced, renamed over it),
//! and only then does the checkpoint say so. The header is therefore what gives the width: a
//! checkpoint may still say 1 after a kill right after the rename, never 2 over a file of 1.
//!
//! A kill leaves at worst bytes past the checkpoint's count, which resume cuts off. A truncated or
//! corrupted file is found by its checksums and reported with the file and the chunk.

use crate::file::FileError;
use crate::run_values::RunValues;
use crate::state::{self, SpaceAt, State, StateHeader, STATE_FORMAT};
use crate::values::{ValueStore, ValuesError};
use octal_core::fnv::Fnv1a64;
use octal_core::stats::Summarizer;
use octal_core::{Kept, RareTable, SparseSpace};
use serde::{Deserialize, Serialize};
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Values per chunk of the value file.
pub const CHUNK: usize = 1 << 16;
/// The value file's format version.
pub const FORMAT: u32 = 1;
const MAGIC: &[u8; 8] = b"OCTALVAL";
const HEADER: usize = 64;
/// The longest code the header holds (a point and 32 digits, with d0).
const CODE_BYTES: usize = 40;

#[derive(Debug, thiserror::Error)]
pub enum RunDirError {
    /// The directory or a file in it is damaged or not a run directory (bad input: exit 2).
    #[error("{file}: {what}")]
    Corrupt { file: PathBuf, what: String },
    /// The directory already holds a run (bad input: exit 2).
    #[error("{} already holds a run: continue it with `octal resume {}`", .0.display(), .0.display())]
    Occupied(PathBuf),
    /// Another process holds the directory.
    #[error("{0} is in use by another octal process (its lock is held)")]
    Locked(PathBuf),
    /// Reading or writing failed (a full disk, permissions: exit 1). The cause is the source, not
    /// part of the message (`{:#}` prints both, once each).
    #[error("{file}")]
    Io { file: PathBuf, source: io::Error },
    /// The values read could not be kept (exit 1).
    #[error(transparent)]
    Values(#[from] ValuesError),
    /// The state file (bad input where it is damaged).
    #[error(transparent)]
    State(#[from] FileError),
}

fn io_err(file: &Path) -> impl FnOnce(io::Error) -> RunDirError + '_ {
    move |source| RunDirError::Io {
        file: file.to_path_buf(),
        source,
    }
}

fn corrupt(file: &Path, what: impl Into<String>) -> RunDirError {
    RunDirError::Corrupt {
        file: file.to_path_buf(),
        what: what.into(),
    }
}

/// What a run was asked to do and how far it got: enough to continue it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    pub format: u32,
    /// The canonical code.
    pub code: String,
    /// Heaps the run is to compute (the most, with `check_period`).
    pub n: usize,
    /// "auto", "exact", "generic" or "unrolled".
    pub engine: String,
    pub check_period: bool,
    /// Values durable in `values.bin`.
    pub count: usize,
    /// Bytes per value in `values.bin` when the checkpoint was written (its header may say 2
    /// where this still says 1: the header is read).
    pub width: u8,
    /// Seconds of computation so far, over every process that worked on the run.
    pub elapsed: f64,
    /// Table corrections so far (new rare values found by the verifier).
    pub corrections: usize,
    /// Whether the run reached its end (its `n`, or the proof of a period).
    pub finished: bool,
    /// The sparse space discovery found: "range", "domain" or "none", the mask, and for the
    /// domain type the index of the breaking digit.
    pub sparse: String,
    pub mask: u16,
    pub domain_k: usize,
    /// Heaps whose values `values.bin` keeps at most (none: every value).
    #[serde(default)]
    pub keep: Option<usize>,
    /// Whether the run went past `keep` heaps: `state.bin` says how far it got.
    #[serde(default)]
    pub bounded: bool,
}

/// The sparse space recorded as its kind's name ("range", "domain", or "none"), mask and domain
/// digit index (the fields of a checkpoint).
pub fn recorded_space(sparse: &str, mask: u16, domain_k: usize) -> Option<octal_core::SparseSpace> {
    use octal_core::{SparseKind, SparseSpace};
    let kind = match sparse {
        "range" => SparseKind::Range,
        "domain" => SparseKind::Domain { k: domain_k },
        _ => return None,
    };
    Some(SparseSpace { kind, mask })
}

/// The fields [`recorded_space`] reads back: the kind's name ("none" without a space), the mask
/// and the domain type's digit index.
pub fn space_fields(space: Option<octal_core::SparseSpace>) -> (&'static str, u16, usize) {
    use octal_core::SparseKind;
    let domain_k = match space.map(|s| s.kind) {
        Some(SparseKind::Domain { k }) => k,
        _ => 0,
    };
    (
        space.map_or("none", |s| s.kind_name()),
        space.map_or(0, |s| s.mask),
        domain_k,
    )
}

impl Checkpoint {
    /// The sparse space recorded.
    pub fn space(&self) -> Option<octal_core::SparseSpace> {
        recorded_space(&self.sparse, self.mask, self.domain_k)
    }

    /// Records a sparse space.
    pub fn set_space(&mut self, space: Option<octal_core::SparseSpace>) {
        let (sparse, mask, domain_k) = space_fields(space);
        (self.sparse, self.mask, self.domain_k) = (sparse.to_string(), mask, domain_k);
    }
}

/// An open run directory, locked for this process.
pub struct RunDir {
    dir: PathBuf,
    _lock: File,
}

impl RunDir {
    /// Opens (creating it when `create`) and locks a run directory.
    pub fn open(dir: &Path, create: bool) -> Result<RunDir, RunDirError> {
        if create {
            fs::create_dir_all(dir).map_err(io_err(dir))?;
        } else if !dir.is_dir() {
            return Err(corrupt(dir, "no such run directory"));
        }
        let path = dir.join("lock");
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(io_err(&path))?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(fs::TryLockError::WouldBlock) => {
                return Err(RunDirError::Locked(dir.to_path_buf()))
            }
            Err(fs::TryLockError::Error(e)) => return Err(io_err(&path)(e)),
        }
        Ok(RunDir {
            dir: dir.to_path_buf(),
            _lock: lock,
        })
    }

    fn checkpoint_path(&self) -> PathBuf {
        self.dir.join("checkpoint.json")
    }

    fn values_path(&self) -> PathBuf {
        self.dir.join("values.bin")
    }

    fn state_path(&self) -> PathBuf {
        self.dir.join("state.bin")
    }

    /// A fresh store for the run's values in `values.work`.
    pub fn value_store(&self) -> Result<ValueStore, RunDirError> {
        Ok(ValueStore::at(&self.dir.join("values.work"))?)
    }

    /// Whether the directory already holds a run.
    pub fn has_run(&self) -> bool {
        self.checkpoint_path().exists()
    }

    /// Reads and checks the checkpoint.
    pub fn checkpoint(&self) -> Result<Checkpoint, RunDirError> {
        read_checkpoint(&self.checkpoint_path())
    }

    /// Replaces the checkpoint atomically.
    pub fn write_checkpoint(&self, c: &Checkpoint) -> Result<(), RunDirError> {
        let path = self.checkpoint_path();
        let tmp = self.dir.join("checkpoint.json.tmp");
        let text = serde_json::to_string_pretty(c).expect("a checkpoint serialises") + "\n";
        let mut f = File::create(&tmp).map_err(io_err(&tmp))?;
        f.write_all(text.as_bytes()).map_err(io_err(&tmp))?;
        f.sync_all().map_err(io_err(&tmp))?;
        fs::rename(&tmp, &path).map_err(io_err(&path))?;
        if let Ok(d) = File::open(&self.dir) {
            let _ = d.sync_all();
        }
        Ok(())
    }

    /// Reads the `count` values the checkpoint vouches for into a fresh `values.work`, checking
    /// every chunk; sets the checkpoint's width to the file's.
    pub fn read_values(&self, c: &mut Checkpoint) -> Result<ValueStore, RunDirError> {
        read_values(&self.values_path(), c, self.value_store()?)
    }

    /// A writer that appends to the value file after its first `values.len()` values (cutting
    /// off anything past them, such as a chunk a kill left half written).
    pub fn writer(
        &self,
        code: &str,
        width: u8,
        values: &[u16],
    ) -> Result<ValueWriter, RunDirError> {
        ValueWriter::open(&self.values_path(), code, width, values.len())
    }
}

fn read_checkpoint(path: &Path) -> Result<Checkpoint, RunDirError> {
    let text = fs::read_to_string(path).map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => corrupt(path, "missing: this is not a run directory"),
        _ => io_err(path)(e),
    })?;
    let c: Checkpoint = serde_json::from_str(&text)
        .map_err(|e| corrupt(path, format!("not a valid checkpoint ({e})")))?;
    if c.format != FORMAT {
        return Err(corrupt(
            path,
            format!("format {} is not {FORMAT}", c.format),
        ));
    }
    if !(c.width == 1 || c.width == 2) || c.count > c.n.max(c.count) {
        return Err(corrupt(path, "inconsistent fields"));
    }
    Ok(c)
}

fn header(code: &str, width: u8) -> [u8; HEADER] {
    let mut h = [0u8; HEADER];
    h[..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&FORMAT.to_le_bytes());
    h[12] = width;
    h[16..20].copy_from_slice(&(CHUNK as u32).to_le_bytes());
    let code = code.as_bytes();
    h[24..24 + code.len().min(CODE_BYTES)].copy_from_slice(&code[..code.len().min(CODE_BYTES)]);
    h
}

fn encode(values: &[u16], width: u8, out: &mut Vec<u8>) {
    out.clear();
    match width {
        1 => out.extend(values.iter().map(|&v| v as u8)),
        _ => out.extend(values.iter().flat_map(|v| v.to_le_bytes())),
    }
}

fn checksum(bytes: &[u8]) -> u64 {
    let mut h = Fnv1a64::new();
    h.write(bytes);
    h.finish()
}

fn read_values(
    path: &Path,
    c: &mut Checkpoint,
    mut values: ValueStore,
) -> Result<ValueStore, RunDirError> {
    let file = File::open(path).map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => corrupt(path, "missing"),
        _ => io_err(path)(e),
    })?;
    let mut r = BufReader::with_capacity(1 << 20, file);
    let mut h = [0u8; HEADER];
    r.read_exact(&mut h)
        .map_err(|_| corrupt(path, "truncated header"))?;
    // The width is the header's: at least the checkpoint's (see the module documentation).
    let width = h[12];
    if !(c.width..=2).contains(&width) || h != header(&c.code, width) {
        return Err(corrupt(
            path,
            "header does not match the checkpoint (code, width or format)",
        ));
    }
    c.width = width;
    let width = usize::from(width);
    values.clear();
    let mut buf = vec![0u8; CHUNK * width];
    let mut chunk = 0;
    while values.len() < c.count {
        let len = (c.count - values.len()).min(CHUNK);
        let bytes = &mut buf[..len * width];
        let mut sum = [0u8; 8];
        r.read_exact(bytes)
            .and_then(|_| r.read_exact(&mut sum))
            .map_err(|_| {
                corrupt(
                    path,
                    format!(
                        "chunk {chunk}: truncated (the checkpoint counts {} values)",
                        c.count
                    ),
                )
            })?;
        if checksum(bytes) != u64::from_le_bytes(sum) {
            return Err(corrupt(path, format!("chunk {chunk}: checksum mismatch")));
        }
        let at = values.len();
        values.resize(at + len, 0)?;
        decode(bytes, width, &mut values[at..]);
        chunk += 1;
    }
    Ok(values)
}

/// The values of `bytes` at `width` bytes each into `out`.
fn decode(bytes: &[u8], width: usize, out: &mut [u16]) {
    match width {
        1 => out
            .iter_mut()
            .zip(bytes)
            .for_each(|(v, &b)| *v = u16::from(b)),
        _ => out
            .iter_mut()
            .zip(bytes.chunks_exact(2))
            .for_each(|(v, b)| *v = u16::from_le_bytes([b[0], b[1]])),
    }
}

/// Appends verified values to a value file chunk by chunk, at one byte per value until a value
/// needs two.
pub struct ValueWriter {
    path: PathBuf,
    file: File,
    code: String,
    width: u8,
    /// Values written: whole chunks, but at the end of a run.
    written: usize,
    bytes: Vec<u8>,
    /// The length the file is cut to, and its header written, before the first write: the last,
    /// shorter chunk stays until then, so that a run that stops before writing leaves the file
    /// as it found it.
    cut: Option<u64>,
}

impl ValueWriter {
    fn open(path: &Path, code: &str, width: u8, count: usize) -> Result<ValueWriter, RunDirError> {
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(path)
            .map_err(io_err(path))?;
        // Keep the full chunks of the values; the tail is written again when its chunk fills.
        let full = count / CHUNK * CHUNK;
        let end = HEADER as u64 + (full / CHUNK) as u64 * (CHUNK as u64 * u64::from(width) + 8);
        let fresh = file.metadata().map_err(io_err(path))?.len() < HEADER as u64;
        let mut writer = ValueWriter {
            path: path.to_path_buf(),
            file,
            code: code.to_string(),
            width,
            written: full,
            bytes: Vec::new(),
            cut: Some(end),
        };
        if fresh {
            writer.cut_and_head()?;
        } else {
            writer
                .file
                .seek(SeekFrom::Start(end))
                .map_err(io_err(path))?;
        }
        Ok(writer)
    }

    /// Cuts the file to its whole chunks and writes its header, once, before the first write.
    fn cut_and_head(&mut self) -> Result<(), RunDirError> {
        let Some(end) = self.cut.take() else {
            return Ok(());
        };
        let path = &self.path;
        self.file.set_len(end).map_err(io_err(path))?;
        self.file.seek(SeekFrom::Start(0)).map_err(io_err(path))?;
        self.file
            .write_all(&header(&self.code, self.width))
            .map_err(io_err(path))?;
        self.file.seek(SeekFrom::Start(end)).map_err(io_err(path))?;
        Ok(())
    }

    /// Bytes per value of the file now.
    pub fn width(&self) -> u8 {
        self.width
    }

    /// Writes the full chunks of `g` (all values from heap 0) not written yet; with `all`, the
    /// last, shorter chunk too (the end of a run). A value above 255 first switches the file to
    /// two bytes a value. Syncs and returns the values now durable.
    pub fn sync(&mut self, g: &[u16], all: bool) -> Result<usize, RunDirError> {
        let end = if all {
            g.len()
        } else {
            self.written + (g.len() - self.written) / CHUNK * CHUNK
        };
        if self.width == 1 && g[self.written..end].iter().any(|&v| v > 0xff) {
            self.widen(&g[..self.written])?;
        }
        if end > self.written {
            self.cut_and_head()?;
        }
        write_chunks(
            &mut self.file,
            &self.path,
            &g[self.written..end],
            self.width,
            &mut self.bytes,
        )?;
        self.written = end;
        self.file.sync_data().map_err(io_err(&self.path))?;
        Ok(self.written)
    }

    /// Rewrites the file, holding `written`, at two bytes a value: beside it, synced, renamed
    /// over it.
    fn widen(&mut self, written: &[u16]) -> Result<(), RunDirError> {
        let tmp = self.path.with_extension("bin.tmp");
        let mut file = File::create(&tmp).map_err(io_err(&tmp))?;
        file.write_all(&header(&self.code, 2))
            .map_err(io_err(&tmp))?;
        write_chunks(&mut file, &tmp, written, 2, &mut self.bytes)?;
        file.sync_all().map_err(io_err(&tmp))?;
        fs::rename(&tmp, &self.path).map_err(io_err(&self.path))?;
        if let Some(dir) = self.path.parent() {
            File::open(dir)
                .and_then(|d| d.sync_all())
                .map_err(io_err(dir))?;
        }
        (self.file, self.width, self.cut) = (file, 2, None);
        Ok(())
    }
}

/// Appends `values` to `file` in chunks of [`CHUNK`] (the last may be shorter), each followed
/// by its checksum.
fn write_chunks(
    file: &mut File,
    path: &Path,
    values: &[u16],
    width: u8,
    bytes: &mut Vec<u8>,
) -> Result<(), RunDirError> {
    for chunk in values.chunks(CHUNK) {
        encode(chunk, width, bytes);
        file.write_all(bytes).map_err(io_err(path))?;
        file.write_all(&checksum(bytes).to_le_bytes())
            .map_err(io_err(path))?;
    }
    Ok(())
}

/// Decides when the next checkpoint is due.
struct Pace {
    every: Duration,
    last: Instant,
}

impl Pace {
    fn new(every: Duration) -> Pace {
        Pace {
            every,
            last: Instant::now(),
        }
    }

    /// True at most once per interval.
    fn due(&mut self) -> bool {
        let due = self.last.elapsed() >= self.every;
        if due {
            self.last = Instant::now();
        }
        due
    }
}

/// What a run's watcher knows of the run beside its values, for the checkpoint and the state.
pub struct Mark<'a> {
    /// The space in use and every change of it.
    pub space: Option<SparseSpace>,
    pub spaces: &'a [SpaceAt],
    pub corrections: usize,
    /// Seconds so far over every process of the run.
    pub elapsed: f64,
    /// The statistics of every value proved (fed to the values shown).
    pub summarizer: &'a Summarizer,
    /// The least tail a run that holds only its front and tail keeps.
    pub tail: usize,
}

/// A run directory being written by a run: the lock, the value file, the checkpoint (and once
/// the run holds only its front and tail, its state) and the pace of checkpoints.
pub struct Recorder {
    run: RunDir,
    writer: ValueWriter,
    checkpoint: Checkpoint,
    pace: Pace,
    /// The rare heaps of every value under the run's space, once the run is bounded.
    table: Option<RareTable>,
    /// Heaps whose rare heaps `table` holds.
    scanned: usize,
}

/// A run directory opened to go on: its recorder, its values (all of them, or its front and
/// tail) and, for a bounded run, the state it goes on from.
pub struct Reopened {
    pub recorder: Recorder,
    pub values: RunValues,
    pub state: Option<StateHeader>,
}

impl Recorder {
    fn new(run: RunDir, writer: ValueWriter, checkpoint: Checkpoint, every: Duration) -> Recorder {
        Recorder {
            run,
            writer,
            checkpoint,
            pace: Pace::new(every),
            table: None,
            scanned: 0,
        }
    }

    /// Starts a fresh run in `dir` (created if need be) of `code` (canonical) to `n` heaps on
    /// the engine named `engine`, keeping at most `keep` values (none: all), checkpointing at
    /// most every `every`; returns the store for the run's values.
    pub fn create(
        dir: &Path,
        code: &str,
        (n, keep): (usize, Option<usize>),
        engine: &str,
        check_period: bool,
        every: Duration,
    ) -> Result<(Recorder, ValueStore), RunDirError> {
        let run = RunDir::open(dir, true)?;
        if run.has_run() {
            return Err(RunDirError::Occupied(dir.to_path_buf()));
        }
        let code = code.to_string();
        // One byte a value until a value needs two (the writer switches).
        let width = 1;
        let writer = run.writer(&code, width, &[])?;
        let checkpoint = Checkpoint {
            format: FORMAT,
            code,
            n,
            engine: engine.to_string(),
            check_period,
            count: 0,
            width,
            elapsed: 0.0,
            corrections: 0,
            finished: false,
            sparse: "none".into(),
            mask: 0,
            domain_k: 0,
            keep,
            bounded: false,
        };
        run.write_checkpoint(&checkpoint)?;
        let values = run.value_store()?;
        Ok((Recorder::new(run, writer, checkpoint, every), values))
    }

    /// Starts a run in `dir` (created if need be) from the bounded `state` (a checkpoint carried
    /// from another machine), to `n` heaps: its `values.bin` holds no value, its state is the
    /// one given.
    pub fn create_from_state(
        dir: &Path,
        mut state: State,
        n: usize,
        every: Duration,
    ) -> Result<Reopened, RunDirError> {
        let h = &state.header;
        let (mut recorder, _) =
            Recorder::create(dir, &h.code, (n, Some(h.keep)), &h.engine, false, every)?;
        recorder.checkpoint.set_space(Some(h.space));
        (recorder.checkpoint.bounded, recorder.checkpoint.elapsed) = (true, h.elapsed);
        recorder.checkpoint.corrections = h.corrections;
        state.header.n = n;
        state.header.finished = false;
        state.save(&recorder.run.state_path())?;
        recorder.run.write_checkpoint(&recorder.checkpoint)?;
        let values = recorder.resumed(&state)?;
        Ok(Reopened {
            recorder,
            values,
            state: Some(state.header),
        })
    }

    /// Opens the run in `dir` to continue it, checkpointing at most every `every`: the recorder,
    /// the values the checkpoint vouches for (every chunk checked) or, for a bounded run, the
    /// front and tail of its state.
    pub fn reopen(dir: &Path, every: Duration) -> Result<Reopened, RunDirError> {
        let run = RunDir::open(dir, false)?;
        let mut checkpoint = run.checkpoint()?;
        if checkpoint.bounded {
            let state = read_state(&run.state_path())?;
            if state.header.code != checkpoint.code {
                return Err(corrupt(&run.state_path(), "the state of another game"));
            }
            let writer = ValueWriter::open(&run.values_path(), &checkpoint.code, 1, 0)?;
            let mut recorder = Recorder::new(run, writer, checkpoint, every);
            let values = recorder.resumed(&state)?;
            return Ok(Reopened {
                recorder,
                values,
                state: Some(state.header),
            });
        }
        let values = run.read_values(&mut checkpoint)?;
        let writer = run.writer(&checkpoint.code, checkpoint.width, &values)?;
        Ok(Reopened {
            recorder: Recorder::new(run, writer, checkpoint, every),
            values: RunValues::whole(values),
            state: None,
        })
    }

    /// The values of a bounded run from its `state`, the recorder's table taken from it.
    fn resumed(&mut self, state: &State) -> Result<RunValues, RunDirError> {
        let h = &state.header;
        let mut window = self.run.value_store()?;
        window.extend_from_slice(&state.tail)?;
        self.table = Some(state.table.clone());
        self.scanned = h.heaps;
        Ok(RunValues::resumed(
            state.front.clone(),
            (window, h.tail_from),
            h.tail,
            (h.space, state.table.clone()),
            h.summarizer.max_value(),
        ))
    }

    /// The run's checkpoint as last written.
    pub fn checkpoint(&self) -> &Checkpoint {
        &self.checkpoint
    }

    /// Sets the run's target to `n` heaps (a finished run becomes unfinished until it gets
    /// there).
    pub fn extend_to(&mut self, n: usize) {
        self.checkpoint.n = n;
        self.checkpoint.finished = false;
    }

    /// The run goes on with the engine named `engine`.
    pub fn set_engine(&mut self, engine: &str) {
        self.checkpoint.engine = engine.to_string();
    }

    /// Shown the proved values `g` as they grow: makes them durable and records them when a
    /// checkpoint is due. The first values shown of a run that holds only its front and tail
    /// still hold every heap below `keep`: they go to `values.bin`, which grows no more, and the
    /// run's state is written.
    pub fn proved(&mut self, g: Kept<'_>, m: &Mark<'_>) -> Result<(), RunDirError> {
        if g.whole_slice().is_none() && !self.checkpoint.bounded || self.pace.due() {
            return self.save_now(g, m);
        }
        if self.table.is_some() {
            self.scan(g, m.space)?;
        }
        Ok(())
    }

    /// Records the values `g` now, as [`Recorder::proved`] does when a checkpoint is due (a run
    /// that stops).
    pub fn save_now(&mut self, g: Kept<'_>, m: &Mark<'_>) -> Result<(), RunDirError> {
        if g.whole_slice().is_none() && !self.checkpoint.bounded {
            return self.bound(g, m);
        }
        if self.table.is_some() {
            self.scan(g, m.space)?;
        }
        self.save(g, m, false)
    }

    /// The run directory.
    pub fn dir(&self) -> &Path {
        &self.run.dir
    }

    /// Makes every value of the finished run durable (or its state) and marks the run finished.
    pub fn finish(&mut self, g: Kept<'_>, m: &Mark<'_>) -> Result<(), RunDirError> {
        if g.whole_slice().is_none() && !self.checkpoint.bounded {
            self.bound(g, m)?;
        }
        if self.table.is_some() {
            self.scan(g, m.space)?;
        }
        self.save(g, m, true)
    }

    /// The run holds only its front and tail from here: its first `keep` values go to
    /// `values.bin` (the values shown still hold them), the rare table of every value is taken
    /// from them, and the state is written.
    fn bound(&mut self, g: Kept<'_>, m: &Mark<'_>) -> Result<(), RunDirError> {
        let keep = self.checkpoint.keep.unwrap_or(g.len()).min(g.len());
        let path = self.run.values_path();
        let Some(first) = g.range(0..keep) else {
            return Err(corrupt(
                &path,
                format!("heaps below {keep} were dropped before they were written"),
            ));
        };
        let Some(space) = m.space else {
            return Err(corrupt(
                &path,
                "a run without a sparse space cannot hold only its front and tail",
            ));
        };
        self.checkpoint.count = self.writer.sync(first, true)?;
        self.checkpoint.width = self.writer.width();
        self.table = Some(RareTable::from_values(&space, first));
        self.scanned = keep;
        self.scan(g, Some(space))?;
        self.checkpoint.bounded = true;
        self.save(g, m, false)
    }

    /// Adds the rare heaps among the values shown since the last scan to the table.
    fn scan(&mut self, g: Kept<'_>, space: Option<SparseSpace>) -> Result<(), RunDirError> {
        let (Some(table), Some(space)) = (self.table.as_mut(), space) else {
            return Ok(());
        };
        let Some(new) = g.range(self.scanned..g.len()) else {
            let file = self.run.state_path();
            return Err(corrupt(
                &file,
                format!(
                    "heaps from {} were dropped before they were seen",
                    self.scanned
                ),
            ));
        };
        table.extend_from(&space, self.scanned, new);
        self.scanned = g.len();
        Ok(())
    }

    /// Makes the values `g` durable and records them in the checkpoint: for a run that keeps
    /// every value, the values (all of them when `finished`, else whole chunks) with the width
    /// the value file has after them; for a bounded run, its state.
    fn save(&mut self, g: Kept<'_>, m: &Mark<'_>, finished: bool) -> Result<(), RunDirError> {
        self.checkpoint.set_space(m.space);
        self.checkpoint.corrections = m.corrections;
        self.checkpoint.finished = finished;
        self.checkpoint.elapsed = m.elapsed;
        match (g.whole_slice(), &self.table) {
            (Some(all), None) => {
                self.checkpoint.count = self.writer.sync(all, finished)?;
                self.checkpoint.width = self.writer.width();
            }
            (_, table) => {
                let path = self.run.state_path();
                let Some(space) = m.space else {
                    return Err(corrupt(&path, "a bounded run without a sparse space"));
                };
                let tail_from = g.len().saturating_sub(m.tail).max(g.base());
                let mut state = State {
                    header: StateHeader {
                        format: STATE_FORMAT,
                        code: self.checkpoint.code.clone(),
                        n: self.checkpoint.n,
                        heaps: g.len(),
                        engine: self.checkpoint.engine.clone(),
                        keep: self.checkpoint.count,
                        space,
                        spaces: m.spaces.to_vec(),
                        front: 0,
                        tail: m.tail,
                        tail_from,
                        rare: 0,
                        elapsed: m.elapsed,
                        corrections: m.corrections,
                        finished,
                        summarizer: m.summarizer.clone(),
                        data_fnv1a64: String::new(),
                        stored: None,
                    },
                    front: g.front().to_vec(),
                    tail: g
                        .range(tail_from..g.len())
                        .expect("the tail is held")
                        .to_vec(),
                    table: table.clone().unwrap_or_default(),
                };
                state.save(&path)?;
            }
        }
        self.run.write_checkpoint(&self.checkpoint)
    }
}

/// Checks a run directory without changing it (no lock is taken): the checkpoint, the header and
/// every chunk. Returns the checkpoint (with the file's width) and the values, in a store of their
/// own ([`ValueStore::for_heaps`]).
pub fn check(dir: &Path) -> Result<(Checkpoint, ValueStore), RunDirError> {
    if !dir.is_dir() {
        return Err(corrupt(dir, "no such run directory"));
    }
    let mut c = read_checkpoint(&dir.join("checkpoint.json"))?;
    let store = ValueStore::for_heaps(c.count)?;
    let values = read_values(&dir.join("values.bin"), &mut c, store)?;
    Ok((c, values))
}

/// The state of the run in `dir` whose checkpoint is `c`, if the run went past its `keep` heaps
/// (checked: its form, its checksum, its game).
pub fn check_state(dir: &Path, c: &Checkpoint) -> Result<Option<State>, RunDirError> {
    if !c.bounded {
        return Ok(None);
    }
    let path = dir.join("state.bin");
    let state = read_state(&path)?;
    if state.header.code != c.code {
        return Err(corrupt(&path, "the state of another game"));
    }
    Ok(Some(state))
}

/// A run directory's state, which holds its front and tail whole.
fn read_state(path: &Path) -> Result<State, RunDirError> {
    let state = state::read(path)?;
    if state.lacks().is_some() {
        return Err(corrupt(
            path,
            "a compact state, which a run directory does not keep",
        ));
    }
    Ok(state)
}

/// How many heaps the run in `dir` holds, read without the lock and without its values: its
/// state's past `keep` heaps, else the values its checkpoint counts.
pub fn heaps(dir: &Path) -> Result<usize, RunDirError> {
    let c = read_checkpoint(&dir.join("checkpoint.json"))?;
    Ok(check_state(dir, &c)?.map_or(c.count, |s| s.header.heaps))
}

/// The values of heaps `0..heaps` as the run in `dir` keeps them in its `values.bin` (read
/// without the lock, every chunk checked), or none where it keeps fewer.
pub fn kept_values(dir: &Path, heaps: usize) -> Result<Option<Vec<u16>>, RunDirError> {
    let mut c = read_checkpoint(&dir.join("checkpoint.json"))?;
    if c.count < heaps {
        return Ok(None);
    }
    // Whole chunks, so that each is checked against its checksum.
    c.count = heaps.next_multiple_of(CHUNK).min(c.count);
    let mut values = read_values(&dir.join("values.bin"), &mut c, ValueStore::memory())?;
    values.truncate(heaps);
    Ok(Some(values.to_vec()))
}

/// Removes the run in `dir` if its checkpoint counts no value (a run that failed at its start):
/// the run's files, and the directory if that leaves it empty. Anything else stays.
pub fn discard_if_empty(dir: &Path) {
    if read_checkpoint(&dir.join("checkpoint.json")).is_ok_and(|c| c.count == 0 && !c.bounded) {
        for file in [
            "checkpoint.json",
            "values.bin",
            "values.work",
            "state.bin",
            "lock",
        ] {
            let _ = fs::remove_file(dir.join(file));
        }
        let _ = fs::remove_dir(dir);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checkpoint(count: usize) -> Checkpoint {
        Checkpoint {
            format: FORMAT,
            code: "0.6".into(),
            n: 1 << 20,
            engine: "auto".into(),
            check_period: false,
            count,
            width: 2,
            elapsed: 0.0,
            corrections: 0,
            finished: false,
            sparse: "range".into(),
            mask: 0x1ee,
            domain_k: 0,
            keep: None,
            bounded: false,
        }
    }

    #[test]
    fn values_round_trip_and_damage_is_found() {
        let dir = std::env::temp_dir().join(format!("octal-store-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let run = RunDir::open(&dir, true).unwrap();
        let g: Vec<u16> = (0..(2 * CHUNK + 5) as u32)
            .map(|i| (i * 7 % 300) as u16)
            .collect();
        let mut w = run.writer("0.6", 2, &[]).unwrap();
        assert_eq!(w.sync(&g[..CHUNK + 3], false).unwrap(), CHUNK);
        assert_eq!(w.sync(&g, true).unwrap(), g.len());
        let mut c = checkpoint(g.len());
        run.write_checkpoint(&c).unwrap();
        assert!(run.read_values(&mut c).unwrap() == g);
        assert!(matches!(
            RunDir::open(&dir, false),
            Err(RunDirError::Locked(_))
        ));
        // A resumed writer cuts the short chunk off and writes it again.
        let mut w = run.writer("0.6", 2, &g).unwrap();
        assert_eq!(w.sync(&g, true).unwrap(), g.len());
        assert!(check(&dir).unwrap().1 == g);
        // Flip one byte of chunk 1.
        let path = dir.join("values.bin");
        let mut bytes = fs::read(&path).unwrap();
        bytes[HEADER + (CHUNK * 2 + 8) + 10] ^= 1;
        fs::write(&path, &bytes).unwrap();
        let e = check(&dir).unwrap_err().to_string();
        assert!(e.ends_with("values.bin: chunk 1: checksum mismatch"), "{e}");
        fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
        let e = check(&dir).unwrap_err().to_string();
        assert!(
            e.contains("chunk 1: checksum mismatch") || e.contains("chunk 2: truncated"),
            "{e}"
        );
        drop(run);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn one_byte_values_until_a_value_needs_two() {
        let dir = std::env::temp_dir().join(format!("octal-store-width-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let run = RunDir::open(&dir, true).unwrap();
        let path = dir.join("values.bin");
        let mut g: Vec<u16> = (0..(2 * CHUNK + 5) as u32)
            .map(|i| (i * 7 % 256) as u16)
            .collect();
        g[2 * CHUNK + 1] = 300;
        let mut w = run.writer("0.6", 1, &[]).unwrap();
        assert_eq!(w.sync(&g[..CHUNK + 3], false).unwrap(), CHUNK);
        assert_eq!(w.width(), 1);
        let len = |p: &Path| fs::metadata(p).unwrap().len() as usize;
        assert_eq!(len(&path), HEADER + CHUNK + 8, "one byte a value");
        let mut c = checkpoint(CHUNK);
        c.width = 1;
        run.write_checkpoint(&c).unwrap();
        // 300 arrives: the file is rewritten at two bytes, then the new values are appended.
        assert_eq!(w.sync(&g, true).unwrap(), g.len());
        assert_eq!(w.width(), 2);
        assert_eq!(len(&path), HEADER + 2 * (2 * CHUNK + 8) + 2 * 5 + 8);
        assert!(!dir.join("values.bin.tmp").exists());
        // A kill before the next checkpoint: the checkpoint still says 1, the header 2.
        let (read, values) = check(&dir).unwrap();
        assert_eq!((read.width, read.count), (2, CHUNK));
        assert_eq!(values[..], g[..CHUNK]);
        c.count = g.len();
        c.width = 2;
        run.write_checkpoint(&c).unwrap();
        assert!(run.read_values(&mut c).unwrap() == g);
        // A checkpoint that says 2 over a file of 1 is damage.
        let mut w = run.writer("0.6", 1, &[]).unwrap();
        w.sync(&g[..CHUNK], false).unwrap();
        c.count = CHUNK;
        run.write_checkpoint(&c).unwrap();
        let e = check(&dir).unwrap_err().to_string();
        assert!(
            e.ends_with("values.bin: header does not match the checkpoint (code, width or format)"),
            "{e}"
        );
        drop(run);
        fs::remove_dir_all(&dir).unwrap();
    }
}

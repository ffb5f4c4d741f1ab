//! `octal solve` and `octal resume`: a run with its progress bar, its notices on stderr, its run
//! directory's checkpoints (or, past `--keep` heaps, its state), and the report at the end.

use super::{file_error, pool, CommandError};
use crate::error::SolveError;
use crate::replay;
use crate::report::{self, Report};
use crate::request::{Bounds, EngineChoice, Request};
use crate::solve;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use octal_core::stats::Summarizer;
use octal_core::{Kept, SparseSpace};
use octal_engines::stretch::Notice;
use octal_store::run_values::RunValues;
use octal_store::rundir::{self, Mark, Recorder, Reopened};
use octal_store::state::{self, SpaceAt, StateHeader};
use octal_store::values::ValueStore;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How a run is shown and kept: the flags every command that computes shares.
#[derive(Debug, Clone)]
pub struct Output {
    /// Worker threads.
    pub threads: usize,
    /// One JSON object on stdout instead of the human summary.
    pub json: bool,
    /// No progress bar.
    pub quiet: bool,
    /// The most time between two checkpoints of a run directory.
    pub checkpoint_every: Duration,
    /// Stop cleanly after this long (`--for`), the run directory current.
    pub run_for: Option<Duration>,
}

/// A validated `octal solve`.
#[derive(Debug, Clone)]
pub struct SolveConfig {
    pub request: Request,
    pub output: Output,
    /// Write the values as an OEIS b-file.
    pub values: Option<PathBuf>,
    /// The run directory to create.
    pub out: Option<PathBuf>,
}

/// A validated `octal resume`.
#[derive(Debug, Clone)]
pub struct ResumeConfig {
    /// A run directory, or a state file (`octal checkpoint`) to go on from in `out`.
    pub dir: PathBuf,
    pub out: Option<PathBuf>,
    /// Heaps to reach (default: the run's own).
    pub n: Option<usize>,
    /// The engine to continue with (default: the run's own).
    pub engine: Option<EngineChoice>,
    /// Heaps to keep every value of (default: the run's own).
    pub keep: Option<Option<usize>>,
    /// The front and tail of a bounded run (default: the run's own).
    pub bounds: Bounds,
    /// GPUs whose verification the run shares.
    pub devices: usize,
    pub output: Output,
}

/// What a run brings from the processes before it.
#[derive(Default)]
struct Before {
    elapsed: f64,
    corrections: usize,
    /// A bounded run's statistics, its changes of space and its tail.
    state: Option<StateHeader>,
}

/// `octal solve`: a fresh run, with its run directory if `--out` names one.
pub fn solve(cfg: &SolveConfig) -> Result<(), CommandError> {
    let req = &cfg.request;
    let (recorder, values) = match &cfg.out {
        None => (
            None,
            ValueStore::for_heaps(req.n.min(req.keep.unwrap_or(usize::MAX)))
                .map_err(SolveError::from)?,
        ),
        Some(dir) => {
            let (recorder, values) = Recorder::create(
                dir,
                &req.code.to_string(),
                (req.n, req.keep),
                req.engine.name(),
                req.check_period,
                cfg.output.checkpoint_every,
            )?;
            (Some(recorder), values)
        }
    };
    let result = execute(cfg, recorder, RunValues::whole(values), Before::default());
    if let (Err(_), Some(dir)) = (&result, &cfg.out) {
        // A run that failed before any value was durable (such as --gpu without a device).
        rundir::discard_if_empty(dir);
    }
    result
}

/// `octal resume`: continues a run directory, or a state file in a new run directory, to its
/// own target or to `n`; `find_device` is called when it goes on on the GPU.
pub fn resume(cfg: &ResumeConfig, find_device: impl FnOnce()) -> Result<(), CommandError> {
    let every = cfg.output.checkpoint_every;
    let Reopened {
        mut recorder,
        mut values,
        state,
    } = if cfg.dir.is_file() {
        let Some(out) = &cfg.out else {
            return Err(CommandError::Input(format!(
                "{}: a checkpoint goes on in a new run directory: give --out DIR",
                cfg.dir.display()
            )));
        };
        if !state::is_state(&cfg.dir) {
            return Err(CommandError::Input(format!(
                "{}: not a checkpoint (octal checkpoint writes them; a snapshot is replayed by octal restore)",
                cfg.dir.display()
            )));
        }
        let state = state::read(&cfg.dir)?;
        let engine = cfg
            .engine
            .unwrap_or_else(|| state.header.engine.parse().unwrap_or(EngineChoice::Auto));
        let gpu = engine == EngineChoice::Gpu;
        let state =
            pool(cfg.output.threads)?.install(|| replay::fill_state(state, &cfg.dir, gpu))?;
        let n = cfg.n.unwrap_or(state.header.n).max(state.header.heaps);
        Recorder::create_from_state(out, state, n, every)?
    } else {
        if let Some(out) = &cfg.out {
            return Err(CommandError::Input(format!(
                "--out {}: a run directory goes on in place (--out is for a checkpoint file)",
                out.display()
            )));
        }
        Recorder::reopen(&cfg.dir, every)?
    };
    let checkpoint = recorder.checkpoint().clone();
    let code = checkpoint
        .code
        .parse()
        .map_err(|e| CommandError::Input(format!("invalid code '{}': {e}", checkpoint.code)))?;
    let n = cfg.n.unwrap_or(checkpoint.n);
    if n < values.len() {
        return Err(CommandError::Input(format!(
            "-n {n}: the run already holds {} values; give at least that many",
            values.len()
        )));
    }
    let mut request = Request::new(code, n);
    request.engine = cfg
        .engine
        .unwrap_or_else(|| checkpoint.engine.parse().unwrap_or(EngineChoice::Auto));
    recorder.set_engine(request.engine.name());
    request.devices = cfg.devices;
    if request.engine == EngineChoice::Gpu {
        find_device();
    }
    // The space the run had, to start from (the run still switches to a clearly better one).
    request.space = checkpoint.space();
    request.check_period = checkpoint.check_period;
    request.keep = cfg.keep.unwrap_or(checkpoint.keep);
    request.bounds = cfg.bounds;
    if let Some(e) = Request::size_error(n, request.keep) {
        return Err(CommandError::Input(format!("-n {e}")));
    }
    request.kept_in = Some(recorder.dir().to_path_buf());
    let mut state = state;
    if let (Some(front), Some(h)) = (cfg.bounds.front, state.as_mut()) {
        widen_front(&request, &mut values, h, front, cfg.output.threads)?;
    }
    let solve = SolveConfig {
        request,
        output: cfg.output.clone(),
        values: None,
        out: Some(recorder.dir().to_path_buf()),
    };
    recorder.extend_to(n);
    let before = Before {
        elapsed: checkpoint.elapsed,
        corrections: checkpoint.corrections,
        state,
    };
    execute(&solve, Some(recorder), values, before)
}

/// Gives the bounded run `values` (its state `h`) a front of `front` heaps: the values of the
/// heaps it lacks are read from its run directory where it keeps them, else computed again, and
/// checked against the run's fingerprints at every power
/// of two they reach. The tail the run keeps grows to match (as the run goes on: the heaps it
/// dropped are not at hand).
fn widen_front(
    req: &Request,
    values: &mut RunValues,
    h: &mut StateHeader,
    front: usize,
    threads: usize,
) -> Result<(), CommandError> {
    if front <= values.kept().front().len() {
        return Ok(());
    }
    let front = front.min(h.heaps);
    let held = values.kept().front();
    let (g, read) = pool(threads)?.install(|| solve::front_again(req, held, front))?;
    let g = &g[..];
    let recomputed = Summarizer::fed_with(h.summarizer.space(), g);
    for (a, b) in recomputed.powers().iter().zip(h.summarizer.powers()) {
        if a.fnv1a64 != b.fnv1a64 {
            return Err(CommandError::Input(format!(
                "the front recomputed differs from the run's values at heap {} (fnv1a64 {:016x}, the run's {:016x})",
                a.n, a.fnv1a64, b.fnv1a64
            )));
        }
    }
    let tail = h.tail.max(2 * front);
    values.reframe(g.to_vec(), tail);
    h.tail = tail;
    eprintln!(
        "octal: the front is now {front} heaps ({}, every fingerprint equal); the tail grows to {tail} heaps as the run goes on",
        if read { "read from the run directory's values.bin" } else { "recomputed" }
    );
    Ok(())
}

/// Prints notices from a run on stderr, the first few in full.
fn notice_printer() -> impl FnMut(&Notice) {
    const SHOWN: usize = 20;
    let mut count = 0usize;
    move |notice| {
        match notice {
        Notice::TableCorrected {
            heap,
            value,
            rare,
            table_len,
        } => {
            count += 1;
            if count <= SHOWN {
                let what = if *rare {
                    "new rare value"
                } else {
                    "not rare after all"
                };
                eprintln!(
                    "octal: {what}: G({heap}) = {value}; rare table rebuilt ({table_len} entries), recomputing from heap {}",
                    heap + 1
                );
            } else if count == SHOWN + 1 {
                eprintln!("octal: more rare values found; further ones are not shown");
            }
        }
        Notice::Widened { bits } => {
            eprintln!("octal: values need {bits} bits: the engine's keys widened, engine rebuilt");
        }
        Notice::StaleBuildTable => {
            eprintln!("octal: the game's build-time rare table is stale (a rare value it lacks was found): continuing on the generic engine with the updated table");
        }
        Notice::SpaceChanged(c) => match c.space {
            Some(space) => eprintln!(
                "octal: from heap {} on, the values show a better sparse space: {space}",
                c.heap
            ),
            None => eprintln!(
                "octal: from heap {} on, no sparse space makes the sparse heaps rare",
                c.heap
            ),
        },
        &Notice::Bounded {
            heap,
            front,
            tail,
            rare,
        } => eprintln!(
            "octal: from heap {heap} on, the run holds its first {front} values, at least its last {tail} and its {rare} rare heaps (--keep {heap}); the run directory's values.bin keeps heaps below {heap}"
        ),
        &Notice::FrontGrown {
            heap,
            front,
            tail,
            read,
        } => eprintln!(
            "octal: heap {heap}: its proof needs a split past the run's front, which is now its first {front} values ({}, equal to the ones it held); the tail grows to {tail} heaps",
            if read {
                "read from the run directory's values.bin"
            } else {
                "computed again"
            }
        ),
        &Notice::TailGrown { heap, tail, again } => eprintln!(
            "octal: heap {heap}: a rare heap's options reach back past the run's tail, which grows to {tail} heaps{}",
            if again {
                " (the values it no longer held computed again, equal to the ones it held)"
            } else {
                ""
            }
        ),
        Notice::Discovered(_) => {}
    }
    }
}

/// A progress bar on stderr when it is a terminal (and not `quiet`), for `len` items described
/// by `template`.
pub(super) fn progress_bar(len: usize, quiet: bool, template: &str) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::stderr());
    bar.set_style(ProgressStyle::with_template(template).expect("a valid template"));
    bar
}

/// The progress bar of a run: heaps, rate, ETA, the largest value so far and the rare values.
pub(super) const HEAPS_BAR: &str =
    "{elapsed_precise} [{wide_bar}] {human_pos}/{human_len} heaps, {per_sec}, ETA {eta} {msg}";

/// Runs a configured solve (fresh or resumed) on `values` (those of a resumed run), with its
/// run directory if any, after what the processes `before` did, and prints it. A run stopped by
/// an error keeps what it proved: its run directory records the values shown last.
fn execute(
    cfg: &SolveConfig,
    mut recorder: Option<Recorder>,
    mut values: RunValues,
    before: Before,
) -> Result<(), CommandError> {
    let out = &cfg.output;
    let pool = pool(out.threads)?;
    let start = Instant::now();
    let corrections = AtomicUsize::new(before.corrections);
    let elapsed = || before.elapsed + start.elapsed().as_secs_f64();
    let mut print = notice_printer();
    let bar = progress_bar(cfg.request.n, out.quiet, HEAPS_BAR);
    let request = Request {
        until: out.run_for.map(|d| start + d),
        kept_in: recorder.as_ref().map(|r| r.dir().to_path_buf()),
        ..cfg.request.clone()
    };
    // The space in use and its changes, as discovery and the run say; a bounded run's tail.
    let state = before.state.as_ref();
    let space = Mutex::new(state.map(|h| h.space));
    let spaces = Mutex::new(state.map(|h| h.spaces.clone()).unwrap_or_default());
    let tail = AtomicUsize::new(state.map_or(0, |h| h.tail));
    let bounded_at = Mutex::new(state.map(|h| (h.keep, h.front, h.tail)));
    // The summary under that space, folded batch by batch as values are proved.
    let mut summarizer: Option<Summarizer> = state.map(|h| h.summarizer.clone());
    let solution = pool.install(|| {
        solve::solve_watched(
            &request,
            &mut values,
            &mut |notice| {
                let mut spaces = spaces.lock().expect("no panic holds it");
                match &notice {
                    Notice::TableCorrected { .. } => {
                        corrections.fetch_add(1, Relaxed);
                    }
                    Notice::Discovered(s) => {
                        *space.lock().expect("no panic holds it") = *s;
                        if spaces.is_empty() {
                            spaces.push(SpaceAt { heap: 0, space: *s });
                        }
                    }
                    Notice::SpaceChanged(c) => {
                        *space.lock().expect("no panic holds it") = c.space;
                        spaces.push(SpaceAt {
                            heap: c.heap,
                            space: c.space,
                        });
                    }
                    &Notice::Bounded {
                        heap,
                        front,
                        tail: t,
                        ..
                    } => {
                        tail.store(t, Relaxed);
                        *bounded_at.lock().expect("no panic holds it") = Some((heap, front, t));
                    }
                    &Notice::FrontGrown { front, tail: t, .. } => {
                        tail.store(t, Relaxed);
                        if let Some(b) = bounded_at.lock().expect("no panic holds it").as_mut() {
                            (b.1, b.2) = (front, t);
                        }
                    }
                    &Notice::TailGrown { tail: t, .. } => {
                        tail.store(t, Relaxed);
                        if let Some(b) = bounded_at.lock().expect("no panic holds it").as_mut() {
                            b.2 = t;
                        }
                    }
                    _ => {}
                }
                print(&notice)
            },
            &mut |g| {
                let now = *space.lock().expect("no panic holds it");
                let sum = fed(&mut summarizer, now, g)?;
                bar.set_position(g.len() as u64);
                let sparse = match (now, sum.rare_count()) {
                    (Some(s), Some(count)) => format!("{s}: {count} rare"),
                    _ => "no sparse space".to_string(),
                };
                let corrections = corrections.load(Relaxed);
                bar.set_message(format!(
                    "largest {}, {sparse}, {corrections} new rare",
                    sum.max_value(),
                ));
                if let Some(r) = recorder.as_mut() {
                    let spaces = spaces.lock().expect("no panic holds it");
                    let tail = tail.load(Relaxed);
                    r.proved(g, &mark(sum, &spaces, (corrections, elapsed(), tail)))?;
                }
                Ok(())
            },
        )
    });
    bar.finish_and_clear();
    let spaces = spaces.into_inner().expect("no panic holds it");
    let (tail, corrections) = (tail.load(Relaxed), corrections.load(Relaxed));
    let solution = match solution {
        Err(e) => {
            // What was shown last is proved: the run directory keeps it, then the run stops.
            if let (Some(r), Some(sum)) = (recorder.as_mut(), summarizer.as_ref()) {
                if sum.fed() >= values.kept().base() {
                    values.truncate(sum.fed());
                    let _ = r.save_now(
                        values.kept(),
                        &mark(sum, &spaces, (corrections, elapsed(), tail)),
                    );
                }
            }
            return Err(match e {
                e if e.is_bad_request() => CommandError::Input(e.to_string()),
                e => e.into(),
            });
        }
        Ok(s) => s,
    };
    let seconds = elapsed();
    if let Some(t) = &solution.gpu_timings {
        eprintln!("octal: {}", report::gpu_timings_line(t, solution.verified));
    }
    let g = values.kept();
    let space = solution.space;
    let summarizer = match (g.whole_slice(), summarizer) {
        (None, Some(s)) => s,
        // From scratch where the run ended shorter than what was fed (a period's proof
        // truncates) or under another space.
        (Some(all), Some(mut s)) if s.space() == space && s.fed() <= all.len() => {
            s.feed(all);
            s
        }
        (all, _) => Summarizer::fed_with(space, all.unwrap_or_default()),
    };
    // Stopped by --for short of the heaps asked for: the run goes on with `octal resume`.
    let time_up = g.len() < request.n && solution.period.is_none();
    if let Some(r) = recorder.as_mut() {
        let m = mark(&summarizer, &spaces, (corrections, seconds, tail));
        match (solution.verified, time_up) {
            (true, false) => r.finish(g, &m)?,
            (true, true) => r.save_now(g, &m)?,
            (false, _) => {}
        }
    }
    if let Some(path) = &cfg.values {
        let Some(all) = g.whole_slice() else {
            return Err(CommandError::Input(
                "--values: the run holds only its first and last values (--keep)".into(),
            ));
        };
        let file =
            std::fs::File::create(path).map_err(file_error("cannot write the values to", path))?;
        report::write_bfile(std::io::BufWriter::new(file), all)
            .map_err(file_error("cannot write the values to", path))?;
    }
    let report = Report {
        code: &cfg.request.code,
        summary: summarizer.summary(),
        solution: &solution,
        threads: out.threads,
        seconds,
        corrections,
        bounded: bounded_at.into_inner().expect("no panic holds it"),
        time_up,
    };
    let mut stdout = std::io::stdout().lock();
    if out.json {
        writeln!(stdout, "{}", report.json())?;
    } else {
        write!(stdout, "{}", report.human())?;
    }
    Ok(())
}

/// What the run directory records beside the values: the statistics `sum` (fed to the values
/// shown), the changes of space, and the corrections, seconds and tail so far.
fn mark<'a>(
    sum: &'a Summarizer,
    spaces: &'a [SpaceAt],
    (corrections, elapsed, tail): (usize, f64, usize),
) -> Mark<'a> {
    Mark {
        space: sum.space(),
        spaces,
        corrections,
        elapsed,
        summarizer: sum,
        tail,
    }
}

/// The summarizer of the run fed with the proved values `g` under `space`: a new one for a new
/// space where the run holds every value, the same one widened where it does not (a bounded run
/// takes only a space that classes every value as its own).
fn fed<'s>(
    summarizer: &'s mut Option<Summarizer>,
    space: Option<SparseSpace>,
    g: Kept<'_>,
) -> Result<&'s Summarizer, SolveError> {
    let keep = match summarizer {
        Some(s) if s.space() == space => true,
        Some(s) if g.whole_slice().is_none() => {
            s.widen(space.expect("a bounded run has a space"));
            true
        }
        _ => false,
    };
    if !keep {
        *summarizer = Some(Summarizer::new(space));
    }
    let sum = summarizer.as_mut().expect("made above");
    match g.whole_slice() {
        Some(all) => sum.feed(all),
        None => {
            let from = sum.fed();
            let Some(new) = g.range(from..g.len()) else {
                return Err(SolveError::Unshown { from });
            };
            sum.feed_from(from, new);
        }
    }
    Ok(sum)
}

//! `octal solve` and `octal resume`: a run with its progress bar, its notices on stderr, its run
//! directory's checkpoints, and the report at the end.

use super::{file_error, pool, CommandError};
use crate::report::{self, Report};
use crate::request::{EngineChoice, Request};
use crate::solve;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use octal_core::stats::Summarizer;
use octal_core::SparseSpace;
use octal_engines::stretch::Notice;
use octal_store::rundir::{self, Recorder};
use octal_store::values::ValueStore;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
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
    pub dir: PathBuf,
    /// Heaps to reach (default: the run's own).
    pub n: Option<usize>,
    /// The engine to continue with (default: the run's own).
    pub engine: Option<EngineChoice>,
    pub output: Output,
}

/// `octal solve`: a fresh run, with its run directory if `--out` names one.
pub fn solve(cfg: &SolveConfig) -> Result<(), CommandError> {
    let req = &cfg.request;
    let (recorder, values) = match &cfg.out {
        None => (
            None,
            ValueStore::for_heaps(req.n).map_err(crate::error::SolveError::from)?,
        ),
        Some(dir) => {
            let (recorder, values) = Recorder::create(
                dir,
                &req.code.to_string(),
                req.n,
                req.engine.name(),
                req.check_period,
                cfg.output.checkpoint_every,
            )?;
            (Some(recorder), values)
        }
    };
    let result = execute(cfg, recorder, values, (0.0, 0));
    if let (Err(_), Some(dir)) = (&result, &cfg.out) {
        // A run that failed before any value was durable (such as --gpu without a device).
        rundir::discard_if_empty(dir);
    }
    result
}

/// `octal resume`: continues a run directory, to its own target or to `n`; `find_device` is
/// called when it goes on on the GPU.
pub fn resume(cfg: &ResumeConfig, find_device: impl FnOnce()) -> Result<(), CommandError> {
    let (mut recorder, values) = Recorder::reopen(&cfg.dir, cfg.output.checkpoint_every)?;
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
    if request.engine == EngineChoice::Gpu {
        find_device();
    }
    // The space the run had, to start from (the run still switches to a clearly better one).
    request.space = checkpoint.space();
    request.check_period = checkpoint.check_period;
    let solve = SolveConfig {
        request,
        output: cfg.output.clone(),
        values: None,
        out: Some(cfg.dir.clone()),
    };
    recorder.extend_to(n);
    execute(
        &solve,
        Some(recorder),
        values,
        (checkpoint.elapsed, checkpoint.corrections),
    )
}

/// Prints notices from a run on stderr, the first few in full.
fn notice_printer() -> impl FnMut(&Notice) {
    const SHOWN: usize = 20;
    let mut count = 0usize;
    move |notice| match notice {
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
        Notice::Discovered(_) => {}
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

/// Runs a configured solve (fresh or resumed) in the store `values` (holding the values of a
/// resumed run), with its run directory if any, after `before` (the seconds and corrections of
/// the processes before), and prints it.
fn execute(
    cfg: &SolveConfig,
    mut recorder: Option<Recorder>,
    values: ValueStore,
    before: (f64, usize),
) -> Result<(), CommandError> {
    let (elapsed_before, corrections_before) = before;
    let out = &cfg.output;
    let pool = pool(out.threads)?;
    let start = Instant::now();
    let corrections = AtomicUsize::new(corrections_before);
    let mut print = notice_printer();
    let bar = progress_bar(cfg.request.n, out.quiet, HEAPS_BAR);
    // The sparse space in use, as discovery and the changes of space say.
    let space = std::sync::Mutex::new(None);
    // The summary under that space, folded batch by batch as values are proved.
    let mut summarizer: Option<(Option<SparseSpace>, Summarizer)> = None;
    let solution = pool.install(|| {
        solve::solve_watched(
            &cfg.request,
            values,
            &mut |notice| {
                match &notice {
                    Notice::TableCorrected { .. } => {
                        corrections.fetch_add(1, Relaxed);
                    }
                    Notice::Discovered(s) => *space.lock().expect("no panic holds it") = *s,
                    Notice::SpaceChanged(c) => *space.lock().expect("no panic holds it") = c.space,
                    _ => {}
                }
                print(&notice)
            },
            &mut |g| {
                let now = *space.lock().expect("no panic holds it");
                if summarizer.as_ref().is_none_or(|s| s.0 != now) {
                    summarizer = Some((now, Summarizer::new(now)));
                }
                let sum = &mut summarizer.as_mut().expect("made above").1;
                sum.feed(g);
                bar.set_position(g.len() as u64);
                let sparse = match (now, sum.rare_count()) {
                    (Some(s), Some(count)) => format!("{s}: {count} rare"),
                    _ => "no sparse space".to_string(),
                };
                bar.set_message(format!(
                    "largest {}, {sparse}, {} new rare",
                    sum.max_value(),
                    corrections.load(Relaxed)
                ));
                if let Some(r) = recorder.as_mut() {
                    r.proved(
                        g,
                        now,
                        corrections.load(Relaxed),
                        elapsed_before + start.elapsed().as_secs_f64(),
                    )?;
                }
                Ok(())
            },
        )
    });
    bar.finish_and_clear();
    let solution = match solution {
        Err(e) if e.is_bad_request() => return Err(CommandError::Input(e.to_string())),
        other => other?,
    };
    let seconds = elapsed_before + start.elapsed().as_secs_f64();
    if let Some(t) = &solution.gpu_timings {
        eprintln!("octal: {}", report::gpu_timings_line(t, solution.verified));
    }
    if let Some(r) = recorder.as_mut() {
        if solution.verified {
            r.finish(
                &solution.values,
                solution.space,
                corrections.load(Relaxed),
                seconds,
            )?;
        }
    }
    if let Some(path) = &cfg.values {
        let file =
            std::fs::File::create(path).map_err(file_error("cannot write the values to", path))?;
        report::write_bfile(std::io::BufWriter::new(file), &solution.values)
            .map_err(file_error("cannot write the values to", path))?;
    }
    let report = Report {
        code: &cfg.request.code,
        summary: summarizer
            .map(|s| s.1)
            .unwrap_or_else(|| Summarizer::new(solution.space))
            .finish(&solution.values, solution.space.as_ref()),
        solution: &solution,
        threads: out.threads,
        seconds,
        corrections: corrections.load(Relaxed),
    };
    let mut stdout = std::io::stdout().lock();
    if out.json {
        writeln!(stdout, "{}", report.json())?;
    } else {
        write!(stdout, "{}", report.human())?;
    }
    Ok(())
}

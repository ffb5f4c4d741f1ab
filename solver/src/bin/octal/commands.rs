//! The commands that compute or read runs: `solve` and `resume` (with the progress bar, the
//! notices on stderr and the run directory's checkpoints), `check`, `status`, `export`, `plot`
//! and `gpu-info`.

use crate::cli::{self, InputError, SolveConfig};
use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use octal_core::SparseSpace;
use solver::period::PeriodSearch;
use solver::report::{self, Report};
use solver::run::{EngineChoice, Notice, Request};
use solver::rundir::{self, Recorder};
use solver::summary::{Summarizer, Summary};
use solver::values::ValueStore;
use solver::{compact, export, plot, recheck, solve};
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::Instant;

/// `octal solve`: a fresh run, with its run directory if `--out` names one.
pub fn solve(cfg: SolveConfig) -> Result<()> {
    let (recorder, values) = match &cfg.out {
        None => (None, ValueStore::for_heaps(cfg.request.n)?),
        Some(dir) => {
            let req = &cfg.request;
            let (recorder, values) = Recorder::create(
                dir,
                &req.code.to_string(),
                req.n,
                req.engine.name(),
                req.check_period,
                cfg.checkpoint_every,
            )?;
            (Some(recorder), values)
        }
    };
    let out = cfg.out.clone();
    let result = execute(cfg, recorder, values, 0.0, 0);
    if let (Err(_), Some(dir)) = (&result, out) {
        // A run that failed before any value was durable (such as --gpu without a device).
        solver::rundir::discard_if_empty(&dir);
    }
    result
}

/// `octal resume`: continues a run directory, to its own target or to `-n`.
pub fn resume(args: &cli::ResumeArgs) -> Result<()> {
    let every = cli::validate_secs(args.run.checkpoint_secs)?;
    let (mut recorder, values) = Recorder::reopen(&args.dir, every)?;
    let checkpoint = recorder.checkpoint().clone();
    let code = cli::parse_code(&checkpoint.code)?;
    let n = match &args.n {
        Some(n) => cli::parse_count("-n", n)?,
        None => checkpoint.n,
    };
    if n < values.len() {
        return Err(InputError(format!(
            "-n {n}: the run already holds {} values; give at least that many",
            values.len()
        ))
        .into());
    }
    cli::check_heaps("-n", n)?;
    let mut request = Request::new(code, n);
    request.engine = match (args.engine, args.gpu) {
        (None, false) => checkpoint.engine.parse().unwrap_or(EngineChoice::Auto),
        (engine, gpu) => cli::with_gpu(engine.unwrap_or(EngineChoice::Auto), gpu)?,
    };
    recorder.set_engine(request.engine.name());
    if request.engine == EngineChoice::Gpu {
        find_device_beside();
    }
    // The space the run had, to start from (the run still switches to a clearly better one).
    request.space = checkpoint.space();
    request.check_period = checkpoint.check_period;
    let cfg = SolveConfig {
        request,
        threads: cli::validate_threads(args.run.threads)?,
        json: args.run.json,
        values: None,
        out: Some(args.dir.clone()),
        quiet: args.run.quiet,
        checkpoint_every: every,
    };
    recorder.extend_to(n);
    execute(
        cfg,
        Some(recorder),
        values,
        checkpoint.elapsed,
        checkpoint.corrections,
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
            eprintln!("octal: values need {bits} bits: codes widened, engine rebuilt");
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

/// A progress bar on stderr when it is a terminal (and not `--quiet`): heaps, rate, ETA, the
/// largest value so far and the rare values found.
fn progress_bar(n: usize, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(n as u64), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{wide_bar}] {human_pos}/{human_len} heaps, {per_sec}, ETA {eta} {msg}",
        )
        .expect("a valid template"),
    );
    bar
}

/// Runs a configured solve (fresh or resumed) in the store `values` (holding the values of a
/// resumed run), with its run directory if any, and prints it.
fn execute(
    cfg: SolveConfig,
    mut recorder: Option<Recorder>,
    values: ValueStore,
    elapsed_before: f64,
    corrections_before: usize,
) -> Result<()> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads)
        .build()
        .context("cannot start the worker threads")?;
    let start = Instant::now();
    let corrections = AtomicUsize::new(corrections_before);
    let mut print = notice_printer();
    let bar = progress_bar(cfg.request.n, cfg.quiet);
    // The sparse space in use, as discovery and the changes of space say.
    let space = std::sync::Mutex::new(None);
    // The summary under that space, folded block by block as values are proved.
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
        Err(e) if e.is_bad_request() => return Err(InputError(e.to_string()).into()),
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
        let file = std::fs::File::create(path)
            .with_context(|| format!("cannot write the values to {}", path.display()))?;
        report::write_bfile(std::io::BufWriter::new(file), &solution.values)
            .with_context(|| format!("cannot write the values to {}", path.display()))?;
    }
    let report = Report {
        code: &cfg.request.code,
        summary: summarizer
            .map(|s| s.1)
            .unwrap_or_else(|| Summarizer::new(solution.space))
            .finish(&solution.values, solution.space.as_ref()),
        solution: &solution,
        threads: cfg.threads,
        seconds,
        corrections: corrections.load(Relaxed),
    };
    let mut out = std::io::stdout().lock();
    if cfg.json {
        writeln!(out, "{}", report.json())?;
    } else {
        write!(out, "{}", report.human())?;
    }
    Ok(())
}

/// `octal check`: verifies a run directory without changing it.
pub fn check(args: &cli::CheckArgs) -> Result<()> {
    let (c, values) = rundir::check(&args.dir)?;
    let blocks = values.len().div_ceil(rundir::BLOCK);
    let state = if c.finished {
        " (finished)"
    } else {
        " (unfinished: octal resume continues it)"
    };
    let code = cli::parse_code(&c.code)?;
    let space = c.space();
    let recomputed = (args.rare || args.sample > 0).then(|| {
        // The sample is drawn from the values' own fingerprint: the same run, the same heaps.
        let seed = octal_core::fnv::fnv1a64_values(&values);
        let space = space.filter(|_| args.rare);
        recheck::recheck(&code.rules(), space, &values, args.sample, seed)
    });
    if args.json {
        let summary = Summary::of(&values, space.as_ref());
        let mut j = report::summary_json(&code, &summary, space.as_ref(), None);
        j["check"] = serde_json::json!({
            "dir": args.dir.display().to_string(),
            "blocks": blocks,
            "finished": c.finished,
            "rare_recomputed": recomputed.as_ref().map(|r| r.rare),
            "sample_recomputed": recomputed.as_ref().map(|r| r.sampled),
            "mismatches": recomputed.as_ref().map(|r| r.mismatches.iter().map(|m| {
                serde_json::json!({"heap": m.heap, "stored": m.stored, "exact": m.exact})
            }).collect::<Vec<_>>()),
        });
        println!("{j}");
    } else {
        println!(
            "{}: ok: {} verified values of {} in {blocks} blocks, every checksum good{state}",
            args.dir.display(),
            values.len(),
            c.code,
        );
        if let Some(r) = &recomputed {
            let rare = match space {
                Some(s) if args.rare => format!("{} rare heaps ({s})", r.rare),
                _ => "no rare heaps".to_string(),
            };
            println!(
                "recomputed by the exact mex: {rare} and {} sampled heaps, {}",
                r.sampled,
                if r.mismatches.is_empty() {
                    "every value equal".to_string()
                } else {
                    format!("{} differ", r.mismatches.len())
                }
            );
        }
    }
    if let Some(m) = recomputed.as_ref().and_then(|r| r.mismatches.first()) {
        let exact = m
            .exact
            .map_or("past 16 bits".to_string(), |v| v.to_string());
        anyhow::bail!(
            "{}: heap {} holds {}, its exact mex is {exact}",
            args.dir.display(),
            m.heap,
            m.stored
        );
    }
    Ok(())
}

pub fn checkpoint(args: &cli::CheckpointArgs) -> Result<()> {
    let (c, values) = rundir::check(&args.dir)?;
    let code = cli::parse_code(&c.code)?;
    let Some(space) = c.space() else {
        return Err(InputError(format!(
            "{}: the run has no sparse space, and a compact checkpoint is its rare table",
            args.dir.display()
        ))
        .into());
    };
    let h = compact::write(&args.output, &code, space, &values)?;
    let size = std::fs::metadata(&args.output)?.len();
    println!(
        "{}: {} heaps of {} as {} rare values under {space} and {} first heaps, {:.2} MiB, fnv1a64 {}",
        args.output.display(),
        h.n,
        h.code,
        h.rare,
        h.exact,
        size as f64 / (1u64 << 20) as f64,
        h.fnv1a64
    );
    Ok(())
}

pub fn restore(args: &cli::RestoreArgs) -> Result<()> {
    let c = compact::read(&args.file)?;
    let h = &c.header;
    let engine = if args.gpu {
        EngineChoice::Gpu
    } else {
        EngineChoice::Auto
    };
    // An occupied directory is refused before the replay's work; a failed replay leaves none.
    if args.out.join("checkpoint.json").exists() {
        return Err(rundir::RunDirError::Occupied(args.out.clone()).into());
    }
    let started = Instant::now();
    let mut device = args.gpu.then(|| solver::gpu::open(None)).transpose()?;
    let bar = progress_bar(h.n, args.quiet);
    let values = compact::replay(&c, &args.file, device.as_mut(), &mut |done| {
        bar.set_position(done as u64)
    })?;
    bar.finish_and_clear();
    let (mut recorder, _) = Recorder::create(
        &args.out,
        &h.code,
        h.n,
        engine.name(),
        false,
        std::time::Duration::from_secs(3600),
    )?;
    recorder.finish(&values, h.space(), 0, started.elapsed().as_secs_f64())?;
    println!(
        "{}: {} heaps of {} replayed in {:.1} s, every fnv1a64 equal ({} at {}); octal resume continues it",
        args.out.display(),
        h.n,
        h.code,
        started.elapsed().as_secs_f64(),
        h.fnv1a64,
        h.n
    );
    Ok(())
}

pub fn status(args: &cli::StatusArgs) -> Result<()> {
    let (c, values) = rundir::check(&args.dir)?;
    let code = cli::parse_code(&c.code)?;
    let space = c.space();
    let summary = Summary::of(&values, space.as_ref());
    let period = PeriodSearch::new(code.t(), 64).feed(&values);
    let state = if c.finished { "finished" } else { "unfinished" };
    if args.json {
        let mut j = report::summary_json(&code, &summary, space.as_ref(), period);
        j["run"] = serde_json::json!({
            "dir": args.dir.display().to_string(),
            "state": state,
            "target_n": c.n,
            "engine": c.engine,
            "elapsed_seconds": c.elapsed,
            "table_corrections": c.corrections,
        });
        println!("{j}");
    } else {
        println!(
            "run directory {}: {state}, {} of {} heaps, {:.1} s computed",
            args.dir.display(),
            values.len(),
            c.n,
            c.elapsed
        );
        print!(
            "{}",
            report::summary_lines(&summary, space.as_ref(), period, true)
        );
    }
    Ok(())
}

/// The heaps `--from A --to B` of a run directory's values (checked).
fn heap_range(values: &[u16], from: &str, to: Option<&str>) -> Result<std::ops::Range<usize>> {
    let from = cli::parse_count_or_zero("--from", from)?;
    let to = match to {
        Some(t) => cli::parse_count("--to", t)?,
        None => values.len(),
    };
    if from >= to || to > values.len() {
        return Err(InputError(format!(
            "--from {from} --to {to}: the run holds heaps 0 .. {}",
            values.len()
        ))
        .into());
    }
    Ok(from..to)
}

pub fn plot(args: &cli::PlotArgs) -> Result<()> {
    let (c, values) = rundir::check(&args.dir)?;
    let range = heap_range(&values, &args.from, args.to.as_deref())?;
    let space = c.space();
    let is_rare = |n: usize, v: u16| space.is_some_and(|s| s.is_rare(n, v));
    let spec = plot::PlotSpec {
        code: &c.code,
        from: range.start,
        values: &values[range],
        is_rare: &is_rare,
        kind: args.kind,
    };
    plot::plot(&spec, &args.output).map_err(|e| match e {
        plot::PlotError::UnsupportedExtension { .. } => InputError(e.to_string()).into(),
        e => anyhow::Error::from(e),
    })
}

pub fn export(args: &cli::ExportArgs) -> Result<()> {
    let (_, values) = rundir::check(&args.dir)?;
    let range = heap_range(&values, &args.from, args.to.as_deref())?;
    let from = range.start;
    let slice = &values[range];
    match &args.output {
        Some(path) => {
            let file = std::fs::File::create(path)
                .with_context(|| format!("cannot write {}", path.display()))?;
            export::write(file, args.format, from, slice)
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        None => export::write(std::io::stdout().lock(), args.format, from, slice)?,
    }
    Ok(())
}

/// Confirms the device beside a GPU run, so that a run the host's cores end first need not
/// initialise the driver itself: from the kernel driver's files, else by `octal gpu-info --found`
/// started beside it ([`solver::gpu::find_beside`]).
pub fn find_device_beside() {
    if let Ok(octal) = std::env::current_exe() {
        let mut helper = std::process::Command::new(octal);
        helper.args(["gpu-info", "--found"]);
        solver::gpu::find_beside(helper);
    }
}

/// `octal gpu-info`.
#[cfg(feature = "gpu")]
pub fn gpu_info(args: &cli::GpuInfoArgs) -> Result<()> {
    if args.found {
        solver::gpu::found()?;
        println!("{}", solver::gpu::FOUND);
        return Ok(());
    }
    let gpu = solver::gpu::device::Gpu::open()?;
    for line in gpu.info()? {
        println!("{line}");
    }
    Ok(())
}

#[cfg(not(feature = "gpu"))]
pub fn gpu_info(_: &cli::GpuInfoArgs) -> Result<()> {
    Err(solver::gpu_error::GpuError::NotBuilt.into())
}

//! The `octal` binary: parses the command line, runs the library, prints the result. Exit
//! status 0 on success, 2 for bad input or usage (a damaged run directory included), 1 for a
//! failure while running; every error is one line on stderr.

use anyhow::{Context, Result};
use clap::Parser;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use solver::cli::{self, Cli, Command, InputError};
use solver::report::{self, Report};
use solver::solve::{self, Notice, SolveError};
use solver::store::{self, Checkpoint, Pace, RunDir, StoreError, ValueWriter};
use solver::summary::{Summarizer, Summary};
use solver::values::ValueStore;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::Instant;

fn main() {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version
            let _ = e.print();
            std::process::exit(0);
        }
        Err(e) => {
            // clap's first paragraph, on one line.
            let text = e.render().to_string();
            let first: Vec<&str> = text
                .lines()
                .take_while(|l| !l.trim().is_empty())
                .map(str::trim)
                .collect();
            let first = first.join(" ");
            let first = first.strip_prefix("error: ").unwrap_or(&first);
            eprintln!("octal: {first} (see octal --help)");
            std::process::exit(2);
        }
    };
    if let Err(e) = run(cli) {
        eprintln!("octal: {e:#}");
        std::process::exit(exit_status(&e));
    }
}

/// 2 for bad input (a damaged run directory included), 1 for anything else.
fn exit_status(e: &anyhow::Error) -> i32 {
    let store = e
        .downcast_ref::<StoreError>()
        .or_else(|| match e.downcast_ref::<SolveError>() {
            Some(SolveError::Store(s)) => Some(s),
            _ => None,
        });
    if e.downcast_ref::<InputError>().is_some() || matches!(store, Some(StoreError::Corrupt { .. }))
    {
        2
    } else {
        1
    }
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Solve(args) => solve_command(cli::validate_solve(&args)?),
        Command::Resume(args) => resume_command(&args),
        Command::Bench(args) => solver::bench::run(&args),
        Command::Games => {
            print!("{}", report::games_table());
            Ok(())
        }
        Command::Codegen(args) if args.cuda => cuda_codegen(&args),
        Command::Codegen(args) => {
            let code = cli::parse_code(&args.code)?;
            print!("{}", solver::codegen::rust(&code)?);
            Ok(())
        }
        Command::GpuInfo => gpu_info(),
        Command::Check(args) => {
            let (c, values) = store::check(&args.dir)?;
            println!(
                "{}: ok: {} verified values of {} in {} blocks, every checksum good{}",
                args.dir.display(),
                values.len(),
                c.code,
                values.len().div_ceil(store::BLOCK),
                if c.finished {
                    " (finished)"
                } else {
                    " (unfinished: octal resume continues it)"
                }
            );
            Ok(())
        }
        Command::Status(args) => status_command(&args),
        Command::Export(args) => export_command(&args),
        Command::Plot(args) => plot_command(&args),
    }
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
        Notice::Discovered(_) => {}
    }
}

/// A run directory being written: the lock, the value file, the checkpoint and its pace.
struct Session {
    run: RunDir,
    writer: ValueWriter,
    checkpoint: Checkpoint,
    pace: Pace,
}

impl Session {
    /// Makes the values `g` durable and records them in the checkpoint (with the width the
    /// value file has after them).
    fn save(&mut self, g: &[u16], all: bool, elapsed: f64) -> Result<(), StoreError> {
        self.checkpoint.count = self.writer.sync(g, all)?;
        self.checkpoint.width = self.writer.width();
        self.checkpoint.elapsed = elapsed;
        self.run.write_checkpoint(&self.checkpoint)
    }
}

fn solve_command(cfg: cli::SolveConfig) -> Result<()> {
    let (session, values) = match &cfg.out {
        None => (None, ValueStore::for_heaps(cfg.request.n)?),
        Some(dir) => {
            let run = RunDir::open(dir, true)?;
            if run.has_run() {
                return Err(InputError(format!(
                    "{} already holds a run: continue it with `octal resume {}`",
                    dir.display(),
                    dir.display()
                ))
                .into());
            }
            let code = cfg.request.code.to_string();
            // One byte a value until a value needs two (the writer switches).
            let width = 1;
            let writer = run.writer(&code, width, &[])?;
            let checkpoint = Checkpoint {
                format: store::FORMAT,
                code,
                n: cfg.request.n,
                engine: cfg.request.engine.name().to_string(),
                check_period: cfg.request.check_period,
                count: 0,
                width,
                elapsed: 0.0,
                corrections: 0,
                finished: false,
                sparse: "none".into(),
                mask: 0,
                domain_k: 0,
            };
            run.write_checkpoint(&checkpoint)?;
            let values = run.scratch()?;
            let session = Session {
                run,
                writer,
                checkpoint,
                pace: Pace::new(cfg.checkpoint_every),
            };
            (Some(session), values)
        }
    };
    execute(cfg, session, values, 0.0, 0)
}

fn resume_command(args: &cli::ResumeArgs) -> Result<()> {
    let run = RunDir::open(&args.dir, false)?;
    let mut checkpoint = run.checkpoint()?;
    let values = run.read_values(&mut checkpoint)?;
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
    let mut request = solve::Request::new(code, n);
    request.engine = match checkpoint.engine.as_str() {
        "exact" => solve::EngineChoice::Exact,
        "generic" => solve::EngineChoice::Generic,
        "unrolled" => solve::EngineChoice::Unrolled,
        "gpu" => solve::EngineChoice::Gpu,
        _ => solve::EngineChoice::Auto,
    };
    request.check_period = checkpoint.check_period;
    let writer = run.writer(&checkpoint.code, checkpoint.width, &values)?;
    let cfg = cli::SolveConfig {
        request,
        threads: cli::validate_threads(args.run.threads)?,
        json: args.run.json,
        values: None,
        out: Some(args.dir.clone()),
        quiet: args.run.quiet,
        checkpoint_every: cli::validate_secs(args.run.checkpoint_secs)?,
    };
    let (elapsed, corrections) = (checkpoint.elapsed, checkpoint.corrections);
    checkpoint.n = n;
    checkpoint.finished = false;
    let session = Session {
        run,
        writer,
        checkpoint,
        pace: Pace::new(cfg.checkpoint_every),
    };
    execute(cfg, Some(session), values, elapsed, corrections)
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
    cfg: cli::SolveConfig,
    mut session: Option<Session>,
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
    let space = std::sync::OnceLock::new();
    // The summary, folded block by block as values are proved.
    let mut summarizer: Option<Summarizer> = None;
    let solution = pool.install(|| {
        solve::solve_watched(
            &cfg.request,
            values,
            &mut |notice| {
                match &notice {
                    Notice::TableCorrected { .. } => {
                        corrections.fetch_add(1, Relaxed);
                    }
                    Notice::Discovered(s) => {
                        let _ = space.set(*s);
                    }
                    _ => {}
                }
                print(&notice)
            },
            &mut |g| {
                let sum = summarizer
                    .get_or_insert_with(|| Summarizer::new(space.get().copied().flatten()));
                sum.feed(g);
                bar.set_position(g.len() as u64);
                bar.set_message(format!(
                    "largest {}, {} new rare",
                    sum.max_value(),
                    corrections.load(Relaxed)
                ));
                if let Some(s) = session.as_mut() {
                    if s.pace.due() {
                        s.checkpoint.set_space(space.get().copied().flatten());
                        s.checkpoint.corrections = corrections.load(Relaxed);
                        s.save(g, false, elapsed_before + start.elapsed().as_secs_f64())?;
                    }
                }
                Ok(())
            },
        )
    });
    bar.finish_and_clear();
    let solution = match solution {
        Err(
            e @ (SolveError::NoSparseSpace { .. }
            | SolveError::ExactTooLarge { .. }
            | SolveError::NoUnrolled(_)),
        ) => return Err(InputError(e.to_string()).into()),
        other => other?,
    };
    let seconds = elapsed_before + start.elapsed().as_secs_f64();
    if let Some(t) = &solution.gpu_timings {
        let verification = if solution.verified {
            format!(
                "verified {} in {:.3} s of device time ({:.0}/s) beside it",
                t.verified,
                t.verify.as_secs_f64(),
                t.verified_per_second()
            )
        } else {
            "none verified (--speculate-only)".to_string()
        };
        eprintln!(
            "octal: gpu: speculated {} heaps in {:.3} s of device time ({:.0}/s, {} rounds, {:.1} heaps a round), {verification}; the host waited {:.3} s for the device; {} kernel modules compiled, {} heaps on the CPU while the table settled",
            t.speculated,
            t.speculate.as_secs_f64(),
            t.speculated_per_second(),
            t.rounds,
            t.heaps_per_round(),
            t.waited.as_secs_f64(),
            t.compiled,
            t.on_cpu
        );
    }
    if let Some(s) = session.as_mut() {
        if solution.verified {
            s.checkpoint.set_space(solution.space);
            s.checkpoint.corrections = corrections.load(Relaxed);
            s.checkpoint.finished = true;
            s.save(&solution.values, true, seconds)?;
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

fn status_command(args: &cli::StatusArgs) -> Result<()> {
    let (c, values) = store::check(&args.dir)?;
    let code = cli::parse_code(&c.code)?;
    let space = c.space();
    let summary = Summary::of(&values, space.as_ref());
    let period = solver::period::PeriodSearch::new(code.t(), 64).feed(&values);
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

fn plot_command(args: &cli::PlotArgs) -> Result<()> {
    let (c, values) = store::check(&args.dir)?;
    let range = heap_range(&values, &args.from, args.to.as_deref())?;
    let space = c.space();
    let is_rare = |n: usize, v: u16| space.is_some_and(|s| s.is_rare(n, v));
    let spec = solver::plot::PlotSpec {
        code: &c.code,
        from: range.start,
        values: &values[range],
        is_rare: &is_rare,
        kind: args.kind,
    };
    solver::plot::plot(&spec, &args.output).map_err(|e| match e {
        solver::plot::PlotError::UnsupportedExtension { .. } => InputError(e.to_string()).into(),
        e => anyhow::Error::from(e),
    })
}

fn export_command(args: &cli::ExportArgs) -> Result<()> {
    let (_, values) = store::check(&args.dir)?;
    let range = heap_range(&values, &args.from, args.to.as_deref())?;
    let from = range.start;
    let slice = &values[range];
    match &args.output {
        Some(path) => {
            let file = std::fs::File::create(path)
                .with_context(|| format!("cannot write {}", path.display()))?;
            solver::export::write(file, args.format, from, slice)
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        None => solver::export::write(std::io::stdout().lock(), args.format, from, slice)?,
    }
    Ok(())
}

/// `octal gpu-info`.
#[cfg(feature = "gpu")]
fn gpu_info() -> Result<()> {
    let gpu = solver::gpu::device::Gpu::open()?;
    for line in gpu.info()? {
        println!("{line}");
    }
    Ok(())
}

#[cfg(not(feature = "gpu"))]
fn gpu_info() -> Result<()> {
    Err(solver::gpu::GpuError::NotBuilt.into())
}

/// `octal codegen CODE --cuda`: the kernels for the rare table that discovery finds.
fn cuda_codegen(args: &cli::CodegenArgs) -> Result<()> {
    let code = cli::parse_code(&args.code)?;
    let req = solve::Request::new(code.clone(), solve::DISCOVERY_HEAPS);
    let solution = solve::solve(&req, &mut |_| {})?;
    let (Some(space), Some(table)) = (solution.space, solution.table) else {
        return Err(InputError(format!(
            "{code} has no sparse space: there are no speculative kernels to generate"
        ))
        .into());
    };
    let max = solution.values.iter().copied().max().unwrap_or(0);
    let game = kernels_gen::Game {
        code: &code,
        space,
        table: &table,
        value_bits: 16 - max.leading_zeros(),
    };
    print!("{}", kernels_gen::generate(&game)?);
    Ok(())
}

//! The `octal` binary: parses the command line, runs the library, prints the result. Exit
//! status 0 on success, 2 for bad input or usage, 1 for a failure while running; every error is
//! one line on stderr.

use anyhow::{Context, Result};
use clap::Parser;
use solver::cli::{self, Cli, Command, InputError};
use solver::report::{self, Report};
use solver::solve::{self, Notice};
use solver::summary::Summary;
use std::io::Write;
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
        let code = if e.downcast_ref::<InputError>().is_some() {
            2
        } else {
            1
        };
        eprintln!("octal: {e:#}");
        std::process::exit(code);
    }
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Solve(args) => solve_command(cli::validate_solve(&args)?),
        Command::Bench(args) => solver::bench::run(&args),
        Command::GpuInfo => gpu_info(),
        Command::Codegen(args) => codegen(&args),
    }
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
fn codegen(args: &cli::CodegenArgs) -> Result<()> {
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

/// Prints notices from a run on stderr, the first few in full.
fn notice_printer() -> impl FnMut(Notice) {
    const SHOWN: usize = 20;
    let mut count = 0usize;
    move |notice| {
        count += 1;
        match notice {
            Notice::TableCorrected {
                heap,
                value,
                rare,
                table_len,
            } if count <= SHOWN => {
                let what = if rare {
                    "new rare value"
                } else {
                    "not rare after all"
                };
                eprintln!(
                    "octal: {what}: G({heap}) = {value}; rare table rebuilt ({table_len} entries), recomputing from heap {}",
                    heap + 1
                );
            }
            Notice::TableCorrected { .. } if count == SHOWN + 1 => {
                eprintln!("octal: more rare values found; further ones are not shown");
            }
            Notice::Widened { bits } => {
                eprintln!("octal: values need {bits} bits: codes widened, engine rebuilt");
            }
            _ => {}
        }
    }
}

fn solve_command(cfg: cli::SolveConfig) -> Result<()> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads)
        .build()
        .context("cannot start the worker threads")?;
    let start = Instant::now();
    let mut corrections = 0usize;
    let mut print = notice_printer();
    let solution = pool.install(|| {
        solve::solve(&cfg.request, &mut |notice| {
            if matches!(notice, Notice::TableCorrected { .. }) {
                corrections += 1;
            }
            print(notice)
        })
    });
    let solution = match solution {
        Err(e @ solve::SolveError::NoSparseSpace(_))
        | Err(e @ solve::SolveError::ExactTooLarge { .. }) => {
            return Err(InputError(e.to_string()).into())
        }
        other => other?,
    };
    let seconds = start.elapsed().as_secs_f64();
    if let Some(t) = &solution.gpu_timings {
        let rate = |heaps: usize, d: std::time::Duration| heaps as f64 / d.as_secs_f64().max(1e-9);
        eprintln!(
            "octal: gpu: speculated {} heaps in {:.3} s ({:.0}/s), verified {} in {:.3} s ({:.0}/s)",
            t.speculated,
            t.speculate.as_secs_f64(),
            rate(t.speculated, t.speculate),
            t.verified,
            t.verify.as_secs_f64(),
            rate(t.verified, t.verify)
        );
    }
    if let Some(path) = &cfg.values {
        let file = std::fs::File::create(path)
            .with_context(|| format!("cannot write the values to {}", path.display()))?;
        report::write_bfile(std::io::BufWriter::new(file), &solution.values)
            .with_context(|| format!("cannot write the values to {}", path.display()))?;
    }
    let report = Report {
        code: &cfg.request.code,
        summary: Summary::of(&solution.values, solution.space.as_ref()),
        solution: &solution,
        threads: cfg.threads,
        seconds,
        corrections,
    };
    let mut out = std::io::stdout().lock();
    if cfg.json {
        writeln!(out, "{}", report.json())?;
    } else {
        write!(out, "{}", report.human())?;
    }
    Ok(())
}

//! `octal survey`: every code of up to D digits computed under one heap budget, one game per
//! class of the rules on codes, each record kept as it finishes; then the classes and their
//! tables. `octal survey merge` combines the directories of a sharded survey.

use crate::cli::{self, InputError, MergeArgs, SurveyArgs};
use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use octal_core::Code;
use octal_survey::classes::{classify, Classes};
use octal_survey::codes::{Shard, MAX_SURVEY_DIGITS};
use octal_survey::record::{GameRecord, PeriodRecord, SparseRecord, HEAD};
use octal_survey::store::{self, Meta, SurveyDir};
use solver::run::{EngineChoice, Request};
use solver::solve::solve;
use solver::summary::Summary;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

/// The default heap budget a game: the three-digit survey proves every period that shows
/// within it and ends in about ten minutes on two cores.
pub const DEFAULT_MAX_N: usize = 1 << 18;

/// The table printed on standard output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableFormat {
    Md,
    Csv,
    Json,
}

impl std::str::FromStr for TableFormat {
    type Err = InputError;

    fn from_str(s: &str) -> Result<Self, InputError> {
        match s {
            "md" => Ok(TableFormat::Md),
            "csv" => Ok(TableFormat::Csv),
            "json" => Ok(TableFormat::Json),
            _ => Err(InputError(format!("--format {s}: give md, csv or json"))),
        }
    }
}

/// `octal survey [DIR] --digits D ...`.
pub fn run(args: &SurveyArgs) -> Result<()> {
    let threads = cli::validate_threads(args.threads)?;
    let format = args.format.as_deref().map(str::parse).transpose()?;
    let max_n = args
        .max_n
        .as_deref()
        .map(|s| cli::parse_count("--max-n", s))
        .transpose()?;
    if let Some(n) = max_n {
        if n < 1 << 10 {
            return Err(InputError(format!("--max-n {n}: give at least 1024 heaps")).into());
        }
    }
    let shard = args
        .shard
        .as_deref()
        .map(|s| s.parse::<Shard>().map_err(|e| InputError(e.to_string())))
        .transpose()?;
    if let Some(d) = args.digits {
        if !(1..=MAX_SURVEY_DIGITS).contains(&d) {
            return Err(InputError(format!(
                "--digits {d}: give 1 to {MAX_SURVEY_DIGITS} digits after the point"
            ))
            .into());
        }
    }
    let dir = match (&args.dir, args.digits) {
        (Some(path), _) => {
            if args.out.is_some() {
                return Err(
                    InputError("give the survey directory or --out, not both".to_string()).into(),
                );
            }
            let mut dir = SurveyDir::open(path)?;
            let held = &dir.meta;
            if args.digits.is_some_and(|d| d != held.digits)
                || shard.is_some_and(|s| s != held.shard)
            {
                return Err(InputError(format!(
                    "{} is a survey of {} digits (shard {}): --digits and --shard cannot change",
                    path.display(),
                    held.digits,
                    held.shard
                ))
                .into());
            }
            if let Some(n) = max_n {
                dir.extend(n)?;
            }
            dir
        }
        (None, Some(digits)) => {
            let out = args
                .out
                .clone()
                .unwrap_or_else(|| PathBuf::from(format!("survey-{digits}")));
            let meta = Meta {
                digits,
                max_n: max_n.unwrap_or(DEFAULT_MAX_N),
                version: env!("CARGO_PKG_VERSION").to_string(),
                shard: shard.unwrap_or(Shard::WHOLE),
            };
            SurveyDir::create(&out, meta)?
        }
        (None, None) => {
            return Err(InputError(
                "give --digits D for a new survey, or the directory of one to resume".to_string(),
            )
            .into())
        }
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start the worker threads")?;
    pool.install(|| compute_pending(&dir, args.gpu, args.quiet))?;
    if dir.meta.shard.count > 1 {
        eprintln!(
            "octal: shard {} of the survey is complete in {}: combine the shards with octal survey merge",
            dir.meta.shard,
            dir.path().display()
        );
        return Ok(());
    }
    pool.install(|| finish(&dir, format))
}

/// `octal survey merge DIR... --out DIR`.
pub fn merge(args: &MergeArgs) -> Result<()> {
    let format = args.format.as_deref().map(str::parse).transpose()?;
    let dir = store::merge(&args.dirs, &args.out)?;
    finish(&dir, format)
}

/// Computes the games of `dir` that have no record under its budget, writing each as it ends.
fn compute_pending(dir: &SurveyDir, gpu: bool, quiet: bool) -> Result<()> {
    let pending = dir.pending()?;
    let bar = if quiet || !std::io::stderr().is_terminal() {
        ProgressBar::hidden()
    } else {
        let bar =
            ProgressBar::with_draw_target(Some(pending.len() as u64), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{wide_bar}] {pos}/{len} games, ETA {eta} {msg}",
            )
            .expect("a valid template"),
        );
        bar
    };
    for code in pending {
        bar.set_message(code.to_string());
        let record = compute(&code, dir.meta.max_n, gpu)?;
        dir.write(&record)?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(())
}

/// Solves `code` up to the proof of its period, at most `max_n` heaps, and keeps what the survey
/// needs of it.
fn compute(code: &Code, max_n: usize, gpu: bool) -> Result<GameRecord> {
    let mut req = Request::new(code.clone(), max_n);
    req.check_period = true;
    if gpu {
        req.engine = EngineChoice::Gpu;
    }
    let start = Instant::now();
    let solution = solve(&req, &mut |_| {}).with_context(|| format!("survey game {code}"))?;
    let seconds = start.elapsed().as_secs_f64();
    let g = &solution.values[..];
    let s = Summary::of(g, solution.space.as_ref());
    Ok(GameRecord {
        code: code.to_string(),
        max_n,
        n: g.len(),
        period: solution.period.map(|p| PeriodRecord {
            period: p.period,
            preperiod: p.preperiod,
            checked_to: p.checked_to,
        }),
        max_value: s.max_value,
        max_value_at: s.max_value_at,
        p_positions: s.p_positions,
        last_p_position: s.last_p_position,
        sparse: solution
            .space
            .zip(s.rare)
            .map(|(space, (count, last, _))| SparseRecord {
                kind: space.kind_name().to_string(),
                mask: format!("{:#x}", space.mask),
                rare_count: count,
                last_rare: last,
            }),
        fnv1a64: format!("{:016x}", s.fnv1a64),
        head: g[..g.len().min(HEAD)].to_vec(),
        engine: solution.engine.name().to_string(),
        seconds,
    })
}

/// Forms the classes of a complete survey, writes its tables and prints a line (or the table
/// asked for).
fn finish(dir: &SurveyDir, format: Option<TableFormat>) -> Result<()> {
    let records = dir.records()?;
    let classes: Classes = classify(dir.meta.digits, &records, &mut |code, n| {
        solve(&Request::new(code.clone(), n), &mut |_| {})
            .map(|s| s.values[..n].to_vec())
            .map_err(|e| e.to_string())
    })?;
    dir.write_tables(&records, &classes)?;
    let path = |name: &str| dir.path().join(name);
    match format {
        Some(f) => {
            let file = match f {
                TableFormat::Md => "survey.md",
                TableFormat::Csv => "survey.csv",
                TableFormat::Json => "survey.json",
            };
            let text = std::fs::read_to_string(path(file))
                .with_context(|| format!("cannot read {}", path(file).display()))?;
            print!("{text}");
        }
        None => {
            let periodic = classes
                .classes
                .iter()
                .filter(|c| c.record.period.is_some())
                .count();
            println!(
                "survey of {} digits to {} heaps: {} classes ({} periodic, {} open); tables in {}",
                dir.meta.digits,
                dir.meta.max_n,
                classes.classes.len(),
                periodic,
                classes.classes.len() - periodic,
                path("survey.md").display()
            );
        }
    }
    Ok(())
}

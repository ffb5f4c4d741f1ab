//! `octal survey`: every code of up to D digits computed under one heap budget, one game per
//! class of the rules on codes, each record kept as it finishes; then the classes and their
//! tables. With several GPUs, a worker process a device computes the games it is handed, the
//! next as it ends one. `octal survey merge` combines the directories of a sharded survey.

use super::child::octal;
use super::job::progress_bar;
use super::{file_error, pool, CommandError};
use crate::request::{EngineChoice, Request};
use crate::solve::{solve, solve_watched};
use octal_core::stats::Summary;
use octal_core::Code;
use octal_store::run_values::RunValues;
use octal_store::values::ValueStore;
use octal_survey::classes::{classify, Classes};
use octal_survey::codes::{Shard, MAX_SURVEY_DIGITS};
use octal_survey::growth::{grow_limit, next_stage};
use octal_survey::record::{GameRecord, PeriodRecord, SparseRecord, HEAD};
use octal_survey::store::{self, Meta, SurveyDir};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc;
use std::time::Instant;

type Result<T> = std::result::Result<T, CommandError>;

/// A validated `octal survey`.
#[derive(Debug, Clone)]
pub struct SurveyConfig {
    /// A survey directory to resume, or to extend to a larger `max_n`.
    pub dir: Option<PathBuf>,
    /// The digits of a new survey.
    pub digits: Option<usize>,
    /// The heap budget of every game.
    pub max_n: Option<usize>,
    /// The most heaps a game whose sparse space holds goes on to (`octal_survey::growth`).
    pub grow_to: Option<usize>,
    /// The directory of a new survey (default `survey-D`).
    pub out: Option<PathBuf>,
    /// The table to print on standard output.
    pub format: Option<TableFormat>,
    pub gpu: bool,
    /// GPUs the games are spread over (with `gpu`): a worker process a device.
    pub devices: usize,
    /// Compute the games named on standard input, one a line, answering each with its code on
    /// standard output once its record is written (the worker `devices` starts on each GPU).
    pub worker: bool,
    /// The part of the games this survey computes.
    pub shard: Option<Shard>,
    pub threads: usize,
    pub quiet: bool,
}

/// The default heap budget a game (a game whose sparse space holds goes on past it, to
/// [`DEFAULT_GROW_TO`]).
pub const DEFAULT_MAX_N: usize = 1 << 18;
pub use octal_survey::growth::DEFAULT_GROW_TO;

/// The table printed on standard output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableFormat {
    Md,
    Csv,
    Json,
}

impl std::str::FromStr for TableFormat {
    type Err = CommandError;

    fn from_str(s: &str) -> Result<Self> {
        match s {
            "md" => Ok(TableFormat::Md),
            "csv" => Ok(TableFormat::Csv),
            "json" => Ok(TableFormat::Json),
            _ => Err(CommandError::Input(format!(
                "--format {s}: give md, csv or json"
            ))),
        }
    }
}

/// `octal survey [DIR] --digits D ...`.
pub fn run(args: &SurveyConfig) -> Result<()> {
    let (max_n, shard) = (args.max_n, args.shard);
    if let Some(n) = max_n {
        if n < 1 << 10 {
            return Err(CommandError::Input(format!(
                "--max-n {n}: give at least 1024 heaps"
            )));
        }
    }
    if let Some(d) = args.digits {
        if !(1..=MAX_SURVEY_DIGITS).contains(&d) {
            return Err(CommandError::Input(format!(
                "--digits {d}: give 1 to {MAX_SURVEY_DIGITS} digits after the point"
            )));
        }
    }
    let dir = match (&args.dir, args.digits) {
        (Some(path), _) => {
            if args.out.is_some() {
                return Err(CommandError::Input(
                    "give the survey directory or --out, not both".to_string(),
                ));
            }
            let mut dir = SurveyDir::open(path)?;
            let held = &dir.meta;
            if args.digits.is_some_and(|d| d != held.digits)
                || shard.is_some_and(|s| s != held.shard)
                || args
                    .grow_to
                    .is_some_and(|g| grow_limit(g, held.max_n) != held.grow_to)
            {
                return Err(CommandError::Input(format!(
                    "{}: --digits, --shard and --grow-to cannot change",
                    held.describe()
                )));
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
            let max_n = max_n.unwrap_or(DEFAULT_MAX_N);
            let meta = Meta {
                digits,
                max_n,
                grow_to: grow_limit(args.grow_to.unwrap_or(DEFAULT_GROW_TO), max_n),
                version: env!("CARGO_PKG_VERSION").to_string(),
                shard: shard.unwrap_or(Shard::WHOLE),
            };
            SurveyDir::create(&out, meta)?
        }
        (None, None) => {
            return Err(CommandError::Input(
                "give --digits D for a new survey, or the directory of one to resume".to_string(),
            ))
        }
    };
    let pool = pool(args.threads)?;
    if args.worker {
        return pool.install(|| work(&dir, args.gpu));
    }
    if args.gpu && args.devices > 1 {
        compute_on_devices(&dir, args)?;
    } else {
        pool.install(|| compute_pending(&dir, args.gpu, args.quiet))?;
    }
    if dir.meta.shard.count > 1 {
        eprintln!(
            "octal: shard {} of the survey is complete in {}: combine the shards with octal survey merge",
            dir.meta.shard,
            dir.path().display()
        );
        return Ok(());
    }
    pool.install(|| finish(&dir, args.format))
}

/// `octal survey merge DIR... --out DIR`: the shards `dirs` combined into `out`, printing the
/// table `format` asks for.
pub fn merge(dirs: &[PathBuf], out: &std::path::Path, format: Option<TableFormat>) -> Result<()> {
    let dir = store::merge(dirs, out)?;
    finish(&dir, format)
}

/// Computes the games of `dir` that have no record under its budget, writing each as it ends.
/// On the CPU the games run side by side on the current pool, each game's own parallel work
/// sharing its threads; on a GPU one after another.
fn compute_pending(dir: &SurveyDir, gpu: bool, quiet: bool) -> Result<()> {
    use rayon::prelude::*;
    let pending = dir.pending()?;
    let bar = progress_bar(
        pending.len(),
        quiet,
        "{elapsed_precise} [{wide_bar}] {pos}/{len} games, ETA {eta} {msg}",
    );
    let one = |code: &Code| -> Result<()> {
        bar.set_message(code.to_string());
        dir.write(&compute(code, &dir.meta, gpu)?)?;
        bar.inc(1);
        Ok(())
    };
    if gpu {
        pending.iter().try_for_each(one)?;
    } else {
        pending.par_iter().try_for_each(one)?;
    }
    bar.finish_and_clear();
    Ok(())
}

/// `octal survey DIR --worker`: computes the games named on standard input, one a line, each
/// answered with its code on standard output once its record is written; ends at the end of
/// the input.
fn work(dir: &SurveyDir, gpu: bool) -> Result<()> {
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        let name = line.trim();
        let code: Code = name
            .parse()
            .map_err(|e| CommandError::Input(format!("survey worker: {e}")))?;
        dir.write(&compute(&code, &dir.meta, gpu)?)?;
        let mut out = std::io::stdout().lock();
        writeln!(out, "{name}")?;
        out.flush()?;
    }
    Ok(())
}

/// A worker process on one GPU and the game it was last handed.
struct Worker {
    child: Child,
    /// Its input; closed when no game is left for it, which ends it.
    input: Option<ChildStdin>,
    game: Option<String>,
    /// What it writes on its standard error, read to its end.
    errors: Option<std::thread::JoinHandle<String>>,
}

impl Worker {
    /// Hands the worker the next pending game, or ends its input where none is left. A worker
    /// that cannot take it has ended: its end, with the game still handed, is the error.
    fn next(&mut self, pending: &mut VecDeque<Code>) {
        let (Some(input), Some(code)) = (self.input.as_mut(), pending.pop_front()) else {
            self.input = None;
            return;
        };
        self.game = Some(code.to_string());
        if writeln!(input, "{code}")
            .and_then(|()| input.flush())
            .is_err()
        {
            self.input = None;
        }
    }
}

/// Computes the games of `dir` that have no record under its budget on `args.devices` GPUs: a
/// worker process a device (`octal survey DIR --worker --gpu`, the host's threads shared
/// among them), each handed the next game as it ends one. A worker that fails ends the
/// survey once the others have ended their games; every record written stays.
fn compute_on_devices(dir: &SurveyDir, args: &SurveyConfig) -> Result<()> {
    let mut pending: VecDeque<Code> = dir.pending()?.into();
    let bar = progress_bar(
        pending.len(),
        args.quiet,
        "{elapsed_precise} [{wide_bar}] {pos}/{len} games, ETA {eta} {msg}",
    );
    let threads = (args.threads / args.devices).max(1).to_string();
    let path = dir.path().display().to_string();
    let (tx, rx) = mpsc::channel();
    let mut workers = Vec::new();
    let mut failed = None;
    for slot in 0..args.devices.min(pending.len()) {
        let argv = [
            "survey",
            &path,
            "--worker",
            "--gpu",
            "--quiet",
            "--threads",
            &threads,
        ];
        let mut child = octal(&argv.map(String::from), Some(slot))?
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|source| CommandError::File {
                what: "cannot start a survey worker for",
                path: dir.path().to_path_buf(),
                source,
            })?;
        let out = child.stdout.take().expect("a piped stdout");
        let tx = tx.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                let Ok(line) = line else { break };
                if tx.send((slot, Some(line))).is_err() {
                    return;
                }
            }
            let _ = tx.send((slot, None));
        });
        let mut err = child.stderr.take().expect("a piped stderr");
        let errors = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = err.read_to_string(&mut text);
            text
        });
        let input = child.stdin.take();
        let mut w = Worker {
            child,
            input,
            game: None,
            errors: Some(errors),
        };
        w.next(&mut pending);
        workers.push(w);
    }
    drop(tx);
    // Ends when every worker has closed its output.
    for (slot, line) in rx {
        let w = &mut workers[slot];
        match line {
            Some(code) => {
                bar.set_message(code);
                bar.inc(1);
                w.game = None;
                if failed.is_some() {
                    w.input = None;
                } else {
                    w.next(&mut pending);
                }
            }
            None => {
                let status = w.child.wait()?;
                let errors = w.errors.take().and_then(|e| e.join().ok());
                if !status.success() || w.game.is_some() {
                    // The worker's own error line says why, naming the game.
                    let why = errors
                        .as_deref()
                        .and_then(|e| e.lines().rev().find(|l| !l.trim().is_empty()))
                        .map(|l| l.trim_start_matches("octal: ").to_string())
                        .unwrap_or_else(|| {
                            let game = w.game.clone().unwrap_or_default();
                            format!("survey game {game}: its worker ended ({status})")
                        });
                    failed.get_or_insert(format!("survey worker on GPU {slot}: {why}"));
                    for other in workers.iter_mut() {
                        other.input = None;
                    }
                }
            }
        }
    }
    bar.finish_and_clear();
    failed.map_or(Ok(()), |e| Err(CommandError::Failed(e)))
}

/// Solves `code` up to the proof of its period, at most the survey's budget of heaps, or past
/// it while its sparse space holds ([`next_stage`]), and keeps what the survey needs of it.
fn compute(code: &Code, meta: &Meta, gpu: bool) -> Result<GameRecord> {
    let max_n = meta.max_n;
    let mut req = Request::new(code.clone(), max_n);
    req.check_period = true;
    if gpu {
        req.engine = EngineChoice::Gpu;
    }
    let start = Instant::now();
    let failed = |source| CommandError::SurveyGame {
        code: code.to_string(),
        source,
    };
    let grow_to = meta.grow_to.unwrap_or(max_n);
    let mut values =
        RunValues::whole(ValueStore::for_heaps(grow_to.max(max_n)).map_err(|e| failed(e.into()))?);
    // Each stage goes on from the values of the one before.
    let solution = loop {
        let outcome =
            solve_watched(&req, &mut values, &mut |_| {}, &mut |_| Ok(())).map_err(failed)?;
        let g = values
            .kept()
            .whole_slice()
            .expect("a survey game keeps every value");
        match outcome.period {
            None => match next_stage(g, outcome.space.as_ref(), grow_to) {
                Some(n) => req.n = n,
                None => break outcome,
            },
            Some(_) => break outcome,
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    let store = values.into_store();
    let g = &store[..];
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
                .map_err(file_error("cannot read", &path(file)))?;
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

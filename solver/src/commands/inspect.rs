//! The commands that read a run directory without changing it: `octal check` (every chunk, and
//! with `rare` and `sample` values recomputed by the exact mex), `octal status`, `octal export`
//! and `octal plot`. A run past `--keep` serves the values `values.bin` keeps, and its state's
//! statistics beyond them; `octal status` reads a checkpoint file as it reads a run directory.

use super::{file_error, pool, CommandError};
use crate::recompute;
use crate::replay;
use crate::report;
use octal_core::period::PeriodSearch;
use octal_core::stats::Summary;
use octal_core::Code;
use octal_plot::{Kind, PlotSpec};
use octal_store::export::{self, Format};
use octal_store::rundir::{self, Checkpoint};
use octal_store::state::{self, State};
use octal_store::values::ValueStore;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// A validated `octal check`.
#[derive(Debug, Clone)]
pub struct CheckConfig {
    pub dir: PathBuf,
    /// Recompute every rare heap's value.
    pub rare: bool,
    /// Recompute this many heaps drawn across the range.
    pub sample: usize,
    /// Compute the heaps a compact checkpoint leaves out on the GPU.
    pub gpu: bool,
    pub json: bool,
    /// Worker threads for the recomputation.
    pub threads: usize,
}

/// The heaps `from .. to` of a run directory's values; `to` none: all of them.
#[derive(Debug, Clone, Copy)]
pub struct Heaps {
    pub from: usize,
    pub to: Option<usize>,
}

/// A run directory, checked: its checkpoint, its code, the values it keeps and, past them, its
/// state.
struct Run {
    c: Checkpoint,
    code: Code,
    values: ValueStore,
    state: Option<State>,
}

/// The run directory `dir`, checked: its checkpoint, its code, every value kept and its state.
fn read(dir: &Path) -> Result<Run, CommandError> {
    let (c, values) = rundir::check(dir)?;
    let state = rundir::check_state(dir, &c)?;
    let code = parse_code(&c.code)?;
    Ok(Run {
        c,
        code,
        values,
        state,
    })
}

fn parse_code(code: &str) -> Result<Code, CommandError> {
    code.parse()
        .map_err(|e| CommandError::Input(format!("invalid code '{code}': {e}")))
}

/// What a run that holds only its front and tail says of the heaps past the values it keeps.
fn past_kept(state: &State, kept: usize) -> String {
    let h = &state.header;
    format!(
        "heaps {kept} .. {} are not stored (from heap {kept} the run holds its first {} and last {} values, {} rare heaps and its statistics)",
        h.heaps, h.front, h.tail, h.rare
    )
}

/// `octal check`: verifies a run directory, or a checkpoint file, without changing it.
pub fn check(cfg: &CheckConfig) -> Result<(), CommandError> {
    if cfg.dir.is_file() {
        return check_checkpoint(cfg);
    }
    let Run {
        c,
        code,
        values,
        state,
    } = read(&cfg.dir)?;
    let chunks = values.len().div_ceil(rundir::CHUNK);
    let finished = if c.finished {
        " (finished)"
    } else {
        " (unfinished: octal resume continues it)"
    };
    let space = c.space();
    let recomputed = if cfg.rare || cfg.sample > 0 {
        // The sample is drawn from the values' own fingerprint: the same run, the same heaps.
        let seed = octal_core::fnv::fnv1a64_values(&values);
        let space = space.filter(|_| cfg.rare);
        let rules = code.rules();
        Some(
            pool(cfg.threads)?
                .install(|| recompute::recompute(&rules, space, &values, cfg.sample, seed)),
        )
    } else {
        None
    };
    if cfg.json {
        let summary = Summary::of(&values, space.as_ref());
        let mut j = report::summary_json(&code, &summary, space.as_ref(), None);
        j["check"] = serde_json::json!({
            "dir": cfg.dir.display().to_string(),
            "blocks": chunks,
            "chunks": chunks,
            "finished": c.finished,
            "state_heaps": state.as_ref().map(|s| s.header.heaps),
            "rare_recomputed": recomputed.as_ref().map(|r| r.rare),
            "sample_recomputed": recomputed.as_ref().map(|r| r.sampled),
            "mismatches": recomputed.as_ref().map(|r| r.mismatches.iter().map(|m| {
                serde_json::json!({"heap": m.heap, "stored": m.stored, "exact": m.exact})
            }).collect::<Vec<_>>()),
        });
        println!("{j}");
    } else {
        println!(
            "{}: ok: {} verified values of {} in {chunks} chunks, every checksum good{finished}",
            cfg.dir.display(),
            values.len(),
            c.code,
        );
        if let Some(s) = &state {
            println!(
                "state.bin: ok, at heap {}; {}",
                s.header.heaps,
                past_kept(s, values.len())
            );
        }
        if let Some(r) = &recomputed {
            let rare = match space {
                Some(s) if cfg.rare => format!("{} rare heaps ({s})", r.rare),
                _ => "no rare heaps".to_string(),
            };
            println!(
                "recomputed by the exact mex: {rare} and {} sampled heaps, {}",
                r.sampled,
                r.verdict()
            );
        }
    }
    differs(&cfg.dir, recomputed.as_ref())
}

/// The first value the recomputation found different, as the command's error.
fn differs(path: &Path, recomputed: Option<&recompute::Recomputed>) -> Result<(), CommandError> {
    match recomputed.and_then(|r| r.mismatches.first()) {
        Some(m) => {
            let exact = m
                .exact
                .map_or("past 16 bits".to_string(), |v| v.to_string());
            Err(CommandError::Failed(format!(
                "{}: heap {} holds {}, its exact mex is {exact}",
                path.display(),
                m.heap,
                m.stored
            )))
        }
        None => Ok(()),
    }
}

/// `octal check FILE`: a checkpoint file (`octal checkpoint`) read and its fingerprints checked;
/// with `rare`, every rare heap of its front recomputed by the exact mex over the front's
/// values (and the rare heaps past the front counted: no value below them but the front's is
/// at hand), with `sample`, heaps drawn across the front.
fn check_checkpoint(cfg: &CheckConfig) -> Result<(), CommandError> {
    if !state::is_state(&cfg.dir) {
        return Err(CommandError::Input(format!(
            "{}: neither a run directory nor a checkpoint",
            cfg.dir.display()
        )));
    }
    let s = state::read(&cfg.dir)?;
    let (s, whole) = pool(cfg.threads)?.install(|| replay::fill_front(s, &cfg.dir, cfg.gpu))?;
    let h = &s.header;
    let code = parse_code(&h.code)?;
    let front = &s.front[..];
    let space = Some(h.space).filter(|_| cfg.rare);
    let seed = octal_core::fnv::fnv1a64_values(front);
    let rules = code.rules();
    let r =
        pool(cfg.threads)?.install(|| recompute::recompute(&rules, space, front, cfg.sample, seed));
    let past = if cfg.rare {
        s.table
            .entries()
            .iter()
            .filter(|e| e.0 >= front.len())
            .count()
    } else {
        0
    };
    if cfg.json {
        let j = serde_json::json!({
            "code": code.to_string(),
            "n": h.heaps,
            "check": {
                "checkpoint": cfg.dir.display().to_string(),
                "front": front.len(),
                "tail_recomputed": whole,
                "space": h.space.to_string(),
                "rare_recomputed": r.rare,
                "rare_past_front": past,
                "sample_recomputed": r.sampled,
                "mismatches": r.mismatches.iter().map(|m| {
                    serde_json::json!({"heap": m.heap, "stored": m.stored, "exact": m.exact})
                }).collect::<Vec<_>>(),
            },
        });
        println!("{j}");
    } else {
        println!(
            "{}: ok: a checkpoint of {} heaps of {}, {}; recomputed by the exact mex over its first {} values: {} rare heaps ({}) and {} sampled heaps, {}{}",
            cfg.dir.display(),
            h.heaps,
            h.code,
            if whole {
                "every fingerprint good"
            } else {
                "its front's fingerprint and rare heaps good (its tail, which only a replay of every heap gives, not computed again)"
            },
            front.len(),
            r.rare,
            h.space,
            r.sampled,
            r.verdict(),
            if past > 0 {
                format!("; {past} rare heaps lie past them, not recomputed")
            } else {
                String::new()
            }
        );
    }
    differs(&cfg.dir, Some(&r))
}

/// `octal status`: the summary of a run directory, or of a checkpoint file.
pub fn status(path: &Path, json: bool) -> Result<(), CommandError> {
    let (c, code, values, state) = if path.is_file() {
        if !state::is_state(path) {
            return Err(CommandError::Input(format!(
                "{}: neither a run directory nor a checkpoint",
                path.display()
            )));
        }
        let state = state::read(path)?;
        let code = parse_code(&state.header.code)?;
        (None, code, ValueStore::memory(), Some(state))
    } else {
        let run = read(path)?;
        (Some(run.c), run.code, run.values, run.state)
    };
    let (summary, space, period) = match &state {
        Some(s) => (s.header.summarizer.summary(), Some(s.header.space), None),
        None => {
            let space = c.as_ref().and_then(Checkpoint::space);
            let period = PeriodSearch::new(code.t(), 64).feed(&values);
            (Summary::of(&values, space.as_ref()), space, period)
        }
    };
    let h = state.as_ref().map(|s| &s.header);
    let finished = h.map_or_else(|| c.as_ref().is_some_and(|c| c.finished), |h| h.finished);
    let status = if finished { "finished" } else { "unfinished" };
    let target = h.map_or_else(|| c.as_ref().map_or(0, |c| c.n), |h| h.n);
    let (engine, elapsed, corrections) = match (h, &c) {
        (Some(h), _) => (h.engine.clone(), h.elapsed, h.corrections),
        (None, Some(c)) => (c.engine.clone(), c.elapsed, c.corrections),
        (None, None) => unreachable!("a run directory or a state"),
    };
    let what = if c.is_some() {
        "run directory"
    } else {
        "checkpoint"
    };
    if json {
        let mut j = report::summary_json(&code, &summary, space.as_ref(), period);
        j["run"] = serde_json::json!({
            if c.is_some() { "dir" } else { "file" }: path.display().to_string(),
            "state": status,
            "target_n": target,
            "engine": engine,
            "elapsed_seconds": elapsed,
            "table_corrections": corrections,
            "kept": c.as_ref().map_or(0, |c| c.count),
            "bounded": h.map(|h| serde_json::json!({
                "front": h.front, "tail": h.tail, "rare": h.rare, "keep": h.keep,
            })),
        });
        println!("{j}");
    } else {
        println!(
            "{what} {}: {status}, {} of {target} heaps, {elapsed:.1} s computed",
            path.display(),
            summary.n,
        );
        if let Some(s) = &state {
            println!("  held            {}", past_kept(s, values.len()));
        }
        print!(
            "{}",
            report::summary_lines(&summary, space.as_ref(), period, true)
        );
    }
    Ok(())
}

/// The heaps `heaps` of a run directory's values (checked).
fn heap_range(
    values: &[u16],
    heaps: Heaps,
    state: Option<&State>,
) -> Result<Range<usize>, CommandError> {
    let (from, to) = (heaps.from, heaps.to.unwrap_or(values.len()));
    if from >= to || to > values.len() {
        let past = state.map_or(String::new(), |s| {
            format!("; {}", past_kept(s, values.len()))
        });
        return Err(CommandError::Input(format!(
            "--from {from} --to {to}: the run keeps the values of heaps 0 .. {}{past}",
            values.len()
        )));
    }
    Ok(from..to)
}

/// `octal plot`: draws the heaps `heaps` of a run directory as `kind` to `output`.
pub fn plot(dir: &Path, output: &Path, kind: Kind, heaps: Heaps) -> Result<(), CommandError> {
    let Run {
        c, values, state, ..
    } = read(dir)?;
    let range = heap_range(&values, heaps, state.as_ref())?;
    let space = c.space();
    let is_rare = |n: usize, v: u16| space.is_some_and(|s| s.is_rare(n, v));
    let spec = PlotSpec {
        code: &c.code,
        from: range.start,
        values: &values[range],
        is_rare: &is_rare,
        kind,
    };
    Ok(octal_plot::plot(&spec, output)?)
}

/// `octal export`: writes the heaps `heaps` of a run directory in `format` to `output` (stdout
/// without one).
pub fn export(
    dir: &Path,
    format: Format,
    heaps: Heaps,
    output: Option<&Path>,
) -> Result<(), CommandError> {
    let Run { values, state, .. } = read(dir)?;
    // The histogram of the first heaps past the values kept: the state's, at a power of two or
    // where the run is.
    if let (Format::Frequencies, Some(s), 0, Some(to)) = (format, &state, heaps.from, heaps.to) {
        if to > values.len() {
            let sum = &s.header.summarizer;
            let histogram = match sum.powers().iter().find(|p| p.n == to) {
                Some(p) => p.histogram.clone(),
                None if to == sum.fed() => sum.histogram(),
                None => {
                    return Err(CommandError::Input(format!(
                        "--at {to}: past the values kept the run has the histogram at each power of two and at heap {}",
                        sum.fed()
                    )))
                }
            };
            return match output {
                Some(path) => {
                    let file =
                        std::fs::File::create(path).map_err(file_error("cannot write", path))?;
                    export::write_histogram(file, &histogram)
                        .map_err(file_error("cannot write", path))
                }
                None => Ok(export::write_histogram(
                    std::io::stdout().lock(),
                    &histogram,
                )?),
            };
        }
    }
    let range = heap_range(&values, heaps, state.as_ref())?;
    let from = range.start;
    let slice = &values[range];
    match output {
        Some(path) => {
            let file = std::fs::File::create(path).map_err(file_error("cannot write", path))?;
            export::write(file, format, from, slice).map_err(file_error("cannot write", path))?;
        }
        None => export::write(std::io::stdout().lock(), format, from, slice)?,
    }
    Ok(())
}

//! The commands that read a run directory without changing it: `octal check` (every chunk, and
//! with `rare` and `sample` values recomputed by the exact mex), `octal status`, `octal export`
//! and `octal plot`.

use super::{file_error, pool, CommandError};
use crate::recompute;
use crate::report;
use octal_core::period::PeriodSearch;
use octal_core::stats::Summary;
use octal_core::Code;
use octal_plot::{Kind, PlotSpec};
use octal_store::export::{self, Format};
use octal_store::rundir::{self, Checkpoint};
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

/// The run directory `dir`, checked: its checkpoint, its code and every value.
fn read(dir: &Path) -> Result<(Checkpoint, Code, ValueStore), CommandError> {
    let (c, values) = rundir::check(dir)?;
    let code = c
        .code
        .parse()
        .map_err(|e| CommandError::Input(format!("invalid code '{}': {e}", c.code)))?;
    Ok((c, code, values))
}

/// `octal check`: verifies a run directory without changing it.
pub fn check(cfg: &CheckConfig) -> Result<(), CommandError> {
    let (c, code, values) = read(&cfg.dir)?;
    let chunks = values.len().div_ceil(rundir::CHUNK);
    let state = if c.finished {
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
            "rare_recomputed": recomputed.as_ref().map(|r| r.rare),
            "sample_recomputed": recomputed.as_ref().map(|r| r.sampled),
            "mismatches": recomputed.as_ref().map(|r| r.mismatches.iter().map(|m| {
                serde_json::json!({"heap": m.heap, "stored": m.stored, "exact": m.exact})
            }).collect::<Vec<_>>()),
        });
        println!("{j}");
    } else {
        println!(
            "{}: ok: {} verified values of {} in {chunks} chunks, every checksum good{state}",
            cfg.dir.display(),
            values.len(),
            c.code,
        );
        if let Some(r) = &recomputed {
            let rare = match space {
                Some(s) if cfg.rare => format!("{} rare heaps ({s})", r.rare),
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
        return Err(CommandError::Failed(format!(
            "{}: heap {} holds {}, its exact mex is {exact}",
            cfg.dir.display(),
            m.heap,
            m.stored
        )));
    }
    Ok(())
}

/// `octal status`: the summary of a run directory.
pub fn status(dir: &Path, json: bool) -> Result<(), CommandError> {
    let (c, code, values) = read(dir)?;
    let space = c.space();
    let summary = Summary::of(&values, space.as_ref());
    let period = PeriodSearch::new(code.t(), 64).feed(&values);
    let state = if c.finished { "finished" } else { "unfinished" };
    if json {
        let mut j = report::summary_json(&code, &summary, space.as_ref(), period);
        j["run"] = serde_json::json!({
            "dir": dir.display().to_string(),
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
            dir.display(),
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

/// The heaps `heaps` of a run directory's values (checked).
fn heap_range(values: &[u16], heaps: Heaps) -> Result<Range<usize>, CommandError> {
    let (from, to) = (heaps.from, heaps.to.unwrap_or(values.len()));
    if from >= to || to > values.len() {
        return Err(CommandError::Input(format!(
            "--from {from} --to {to}: the run holds heaps 0 .. {}",
            values.len()
        )));
    }
    Ok(from..to)
}

/// `octal plot`: draws the heaps `heaps` of a run directory as `kind` to `output`.
pub fn plot(dir: &Path, output: &Path, kind: Kind, heaps: Heaps) -> Result<(), CommandError> {
    let (c, _, values) = read(dir)?;
    let range = heap_range(&values, heaps)?;
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
    let (_, _, values) = read(dir)?;
    let range = heap_range(&values, heaps)?;
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

//! `octal bench`: the engines measured against the classic rare-value algorithm (Grossman 2019,
//! Figure 2) in one run, on the same machine and the same game, at 2^18 .. N heaps; with `--gpu`,
//! the GPU engine against the CPU engine at 2^20 .. N heaps. Every engine's values are checked
//! against the baseline's (fnv1a64) before a figure is printed.

use super::{file_error, pool, CommandError};
use crate::error::SolveError;
use crate::request::{EngineChoice, Request, DISCOVERY_HEAPS};
use crate::solve;
use octal_core::classic::Classic;
use octal_core::exact;
use octal_core::fnv::fnv1a64_values;
use octal_core::period::PeriodSearch;
use octal_core::{Code, Kept};
use octal_engines::games;
use octal_store::run_values::RunValues;
use octal_store::values::ValueStore;
use serde_json::json;
use std::ops::Deref;
use std::path::PathBuf;
use std::time::Instant;

type Result<T> = std::result::Result<T, CommandError>;

/// A validated `octal bench`.
#[derive(Debug, Clone)]
pub struct BenchConfig {
    pub code: Code,
    /// The largest size.
    pub n: usize,
    pub threads: usize,
    /// Print the results as one JSON object on stdout (the tables then go to stderr).
    pub json: bool,
    /// Also write the results as JSON to this file.
    pub json_file: Option<PathBuf>,
    /// With the GPU against the CPU: the largest size the CPU runs as the baseline.
    pub gpu_cpu_max: Option<usize>,
}

/// Prints a line of the benchmark's tables: on stdout, or on stderr where stdout takes the JSON.
macro_rules! say {
    ($json:expr, $($arg:tt)*) => {
        if $json {
            eprintln!($($arg)*)
        } else {
            println!($($arg)*)
        }
    };
}

/// Fails with `what` (a benchmark's engines disagree).
fn failed<T>(what: String) -> Result<T> {
    Err(CommandError::Failed(what))
}

/// One engine's time at one size.
struct Timing {
    seconds: f64,
    fnv: u64,
}

fn timed<T>(f: impl FnOnce() -> Result<T>) -> Result<(T, f64)> {
    let t = Instant::now();
    let v = f()?;
    Ok((v, t.elapsed().as_secs_f64()))
}

/// `octal bench`: the engines against the classic algorithm, or with the GPU against the CPU.
pub fn run(cfg: &BenchConfig) -> Result<()> {
    let (code, n_max, threads, json) = (cfg.code.clone(), cfg.n, cfg.threads, cfg.json);
    if let Some(cpu_max) = cfg.gpu_cpu_max {
        return gpu_against_cpu(cfg, cpu_max);
    }
    let rules = code.rules();
    let sizes: Vec<usize> = (18..=40)
        .map(|k| 1usize << k)
        .take_while(|&s| s < n_max)
        .chain([n_max])
        .collect();

    // The classic algorithm, single-threaded, timed at each size in one pass.
    let mut classic = Vec::new();
    let t0 = Instant::now();
    // Discovery on the same heaps as `solve` uses, however few the bench asks for.
    let mut g = exact::values(&rules, DISCOVERY_HEAPS).map_err(SolveError::from)?;
    let Some(space) = octal_core::discover::discover(&rules, &g) else {
        return Err(CommandError::Input(format!(
            "{code} has no sparse space: the benchmark compares sparse-space engines"
        )));
    };
    let mut engine = Classic::new(&rules, space, &g);
    for &n in &sizes {
        engine.extend(&mut g, n).map_err(SolveError::from)?;
        classic.push(Timing {
            seconds: t0.elapsed().as_secs_f64(),
            fnv: fnv1a64_values(&g[..n]),
        });
    }

    let (one, all) = (pool(1)?, pool(threads)?);
    let run_solve = |n: usize, verify: bool, on: &rayon::ThreadPool| -> Result<Timing> {
        let mut req = Request::new(code.clone(), n);
        req.verify = verify;
        req.engine = EngineChoice::Generic;
        let (sol, seconds) = timed(|| Ok(on.install(|| solve::solve(&req, &mut |_| {}))?))?;
        Ok(Timing {
            seconds,
            fnv: fnv1a64_values(&sol.values),
        })
    };
    say!(
        json,
        "octal bench {code}: classic (1 thread) vs speculative pass (1 thread) vs verified end to end ({threads} threads)"
    );
    say!(
        json,
        "{:>10} {:>12} {:>12} {:>12} {:>8} {:>12} {:>12}",
        "heaps",
        "classic/s",
        "spec/s",
        "verified/s",
        "ratio",
        "ns/value",
        "fnv1a64"
    );
    let mut rows = Vec::new();
    for (k, &n) in sizes.iter().enumerate() {
        let spec = run_solve(n, false, &one)?;
        let e2e = run_solve(n, true, &all)?;
        let c = &classic[k];
        if e2e.fnv != c.fnv {
            return failed(format!(
                "verified values differ from the classic algorithm's at n = {n}"
            ));
        }
        let spec_note = if spec.fnv == c.fnv {
            ""
        } else {
            " (speculative values differ: new rare values)"
        };
        let rate = |t: &Timing| n as f64 / t.seconds;
        let ratio = rate(&e2e) / rate(c);
        say!(
            json,
            "{n:>10} {:>12.0} {:>12.0} {:>12.0} {:>7.2}x {:>12.1} {:016x}{spec_note}",
            rate(c),
            rate(&spec),
            rate(&e2e),
            ratio,
            e2e.seconds * 1e9 / n as f64,
            c.fnv
        );
        rows.push(json!({
            "n": n,
            "classic_values_per_second": rate(c),
            "speculative_values_per_second": rate(&spec),
            "verified_values_per_second": rate(&e2e),
            "ratio_verified_over_classic": ratio,
            "verified_ns_per_value": e2e.seconds * 1e9 / n as f64,
            "classic_ns_per_value": c.seconds * 1e9 / n as f64,
            "fnv1a64": format!("{:016x}", c.fnv),
        }));
    }
    let extra = engines_and_periods(cfg, &one, &all)?;
    let doc = json!({"code": code.to_string(), "threads": threads, "rows": rows, "engines_and_periods": extra});
    write_json(cfg, &doc)
}

/// Writes the benchmark's JSON object where `cfg` asks: on stdout, and to its file.
fn write_json(cfg: &BenchConfig, doc: &serde_json::Value) -> Result<()> {
    if cfg.json {
        println!("{doc}");
    }
    if let Some(path) = &cfg.json_file {
        std::fs::write(path, format!("{doc:#}\n")).map_err(file_error("cannot write", path))?;
    }
    Ok(())
}

/// The unrolled loop against the generic one (speculative pass, one thread), the verified rate
/// of the auto engine, the cost of period detection on that run, and the time to prove `.16`.
fn engines_and_periods(
    cfg: &BenchConfig,
    one: &rayon::ThreadPool,
    all: &rayon::ThreadPool,
) -> Result<serde_json::Value> {
    let (code, n, threads, json) = (&cfg.code, cfg.n, cfg.threads, cfg.json);
    let run = |engine: EngineChoice,
               verify: bool,
               check_period: bool,
               code: &Code,
               on: &rayon::ThreadPool| {
        let mut req = Request::new(code.clone(), n);
        req.engine = engine;
        req.verify = verify;
        req.check_period = check_period;
        timed(|| Ok(on.install(|| solve::solve(&req, &mut |_| {}))?))
    };
    let (generic, tg) = run(EngineChoice::Generic, false, false, code, one)?;
    let unrolled = match games::find(code).map(|g| g.unrolled.is_ok()) {
        Some(true) => Some(run(EngineChoice::Unrolled, false, false, code, one)?),
        _ => None,
    };
    let (auto, ta) = run(EngineChoice::Auto, true, false, code, all)?;
    let window = auto
        .table
        .as_ref()
        .map_or(64, |t| t.last_heap() + code.t() + 1);
    let (_, tp) = timed(|| Ok(PeriodSearch::new(code.t(), window).feed(&auto.values)))?;
    let mapped = mapped_over_memory(code, n, all, auto.values.deref())?;
    let dot16: Code = ".16".parse().expect("a code");
    let mut req = Request::new(dot16.clone(), 1 << 20);
    req.check_period = true;
    let (p16, t16) = timed(|| Ok(all.install(|| solve::solve(&req, &mut |_| {}))?))?;
    let rate = |t: f64| n as f64 / t;
    say!(
        json,
        "\n{code}, {n} heaps, speculative pass only, one thread:"
    );
    say!(json, "  generic loop   {:>12.0} values/s", rate(tg));
    if let Some((u, tu)) = &unrolled {
        if fnv1a64_values(&u.values) != fnv1a64_values(&generic.values) {
            return failed("the unrolled and generic loops disagree".into());
        }
        say!(
            json,
            "  unrolled loop  {:>12.0} values/s ({:.2}x the generic loop)",
            rate(*tu),
            tg / tu
        );
    }
    say!(
        json,
        "verified end to end, {} engine, {threads} threads: {:.0} values/s; period detection on those values {:.3} s ({:.2}% of the run)",
        auto.engine.name(),
        rate(ta),
        tp,
        100.0 * tp / ta
    );
    say!(
        json,
        "values in a mapped temporary file instead of memory, same run: {mapped:.3}x the time (median of {PAIRS} interleaved pairs)"
    );
    let Some(p) = p16.period else {
        return failed(".16 was not proved periodic".into());
    };
    say!(
        json,
        ".16 proved: period {}, preperiod {}, {} heaps, {:.2} s with {threads} threads",
        p.period,
        p.preperiod,
        p.checked_to,
        t16
    );
    Ok(json!({
        "n": n,
        "generic_speculative_values_per_second": rate(tg),
        "unrolled_speculative_values_per_second": unrolled.as_ref().map(|u| rate(u.1)),
        "verified_values_per_second": rate(ta),
        "verified_engine": auto.engine.name(),
        "period_detection_seconds": tp,
        "period_detection_share": tp / ta,
        "dot16_period": p.period,
        "dot16_preperiod": p.preperiod,
        "dot16_seconds": t16,
        "mapped_store_time_ratio": mapped,
    }))
}

/// Pairs of runs [`mapped_over_memory`] times.
const PAIRS: usize = 3;

/// The verified auto engine with its values in memory and in a mapped temporary file
/// ([`ValueStore`]), in interleaved pairs: the median of the time ratios (mapped / memory). Both
/// must give `want`.
fn mapped_over_memory(code: &Code, n: usize, on: &rayon::ThreadPool, want: &[u16]) -> Result<f64> {
    let req = Request::new(code.clone(), n);
    let mut ratios = Vec::new();
    for _ in 0..PAIRS {
        let mut seconds = [0.0; 2];
        for (k, store) in [
            ValueStore::memory(),
            ValueStore::temp().map_err(SolveError::from)?,
        ]
        .into_iter()
        .enumerate()
        {
            let mut values = RunValues::whole(store);
            let (_, t) = timed(|| {
                let watch = &mut |_: Kept<'_>| Ok(());
                Ok(on.install(|| solve::solve_watched(&req, &mut values, &mut |_| {}, watch))?)
            })?;
            if values.all() != Some(want) {
                return failed(format!("the values differ with the store {values:?}"));
            }
            seconds[k] = t;
        }
        ratios.push(seconds[1] / seconds[0]);
    }
    ratios.sort_by(f64::total_cmp);
    Ok(ratios[PAIRS / 2])
}

/// The sizes `octal bench --gpu` runs: 2^20, 2^22, ... below `n_max`, then `n_max`, with
/// `cpu_max` among them when it lies between (the CPU baseline's largest size is measured as
/// asked, not at the power of four below it).
fn gpu_sizes(n_max: usize, cpu_max: usize) -> Vec<usize> {
    let mut sizes: Vec<usize> = (20..=40)
        .step_by(2)
        .map(|k| 1usize << k)
        .take_while(|&s| s < n_max)
        .chain([cpu_max.min(n_max), n_max])
        .collect();
    sizes.sort_unstable();
    sizes.dedup();
    sizes
}

/// `octal bench --gpu`: the GPU engine, verified end to end, at 2^20, 2^22, ... and `n_max` heaps
/// (and `cpu_max`), against the CPU's auto engine on `threads` threads at the sizes up to
/// `cpu_max` (their values must agree), in one run; the GPU's own speculation and verification
/// rates beside them.
fn gpu_against_cpu(cfg: &BenchConfig, cpu_max: usize) -> Result<()> {
    let (code, n_max, threads, json) = (&cfg.code, cfg.n, cfg.threads, cfg.json);
    let all = pool(threads)?;
    let sizes = gpu_sizes(n_max, cpu_max);
    let run = |n: usize, engine: EngineChoice| {
        let mut req = Request::new(code.clone(), n);
        req.engine = engine;
        timed(|| Ok(all.install(|| solve::solve(&req, &mut |_| {}))?))
    };
    let mut rows = Vec::new();
    for n in sizes {
        let (gpu, tg) = run(n, EngineChoice::Gpu)?;
        if rows.is_empty() {
            // After the first run: without a GPU, the error is all the output.
            say!(json, "octal bench {code} --gpu: verified values a second, GPU engine vs CPU engine ({threads} threads)");
            say!(
                json,
                "{:>11} {:>12} {:>12} {:>8} {:>9} {:>12} {:>12} {:>8} {:>17}",
                "heaps",
                "cpu/s",
                "gpu/s",
                "ratio",
                "gpu ns",
                "gpu spec/s",
                "gpu verify/s",
                "a round",
                "fnv1a64"
            );
        }
        let fnv = fnv1a64_values(&gpu.values);
        let cpu = if n <= cpu_max {
            let (cpu, tc) = run(n, EngineChoice::Auto)?;
            if fnv1a64_values(&cpu.values) != fnv {
                return failed(format!("the GPU's values differ from the CPU's at n = {n}"));
            }
            Some(n as f64 / tc)
        } else {
            None
        };
        let t = gpu.gpu_timings.unwrap_or_default();
        let gpu_rate = n as f64 / tg;
        let round = t.heaps_per_round();
        let show = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.0}"));
        say!(
            json,
            "{n:>11} {:>12} {gpu_rate:>12.0} {:>8} {:>9.2} {:>12.0} {:>12.0} {round:>8.1} {fnv:>17x}",
            show(cpu),
            cpu.map_or("-".to_string(), |c| format!("{:.1}x", gpu_rate / c)),
            tg * 1e9 / n as f64,
            t.speculated_per_second(),
            t.verified_per_second(),
        );
        rows.push(json!({
            "n": n,
            "cpu_values_per_second": cpu,
            "gpu_values_per_second": gpu_rate,
            "ratio_gpu_over_cpu": cpu.map(|c| gpu_rate / c),
            "gpu_ns_per_value": tg * 1e9 / n as f64,
            "gpu_speculated_per_second": t.speculated_per_second(),
            "gpu_host_waited_seconds": t.waited.as_secs_f64(),
            "gpu_verified_per_second": t.verified_per_second(),
            "gpu_heaps_per_round": round,
            "gpu_kernel_modules": t.compiled,
            "gpu_heaps_on_cpu": t.on_cpu,
            "fnv1a64": format!("{fnv:016x}"),
        }));
    }
    let doc = json!({"code": code.to_string(), "threads": threads, "gpu": true, "rows": rows});
    write_json(cfg, &doc)
}

#[cfg(test)]
mod tests {
    use super::gpu_sizes;

    #[test]
    fn the_gpu_ladder_measures_the_cpu_at_its_largest_size() {
        let m = 100_000_000;
        assert_eq!(
            gpu_sizes(1_000_000_000, m),
            [
                1 << 20,
                1 << 22,
                1 << 24,
                1 << 26,
                m,
                1 << 28,
                1_000_000_000
            ]
        );
        // At a power of four, or past n: no size twice, none past n.
        assert_eq!(gpu_sizes(1 << 24, 1 << 22), [1 << 20, 1 << 22, 1 << 24]);
        assert_eq!(gpu_sizes(1 << 22, 1 << 26), [1 << 20, 1 << 22]);
        assert_eq!(gpu_sizes(1000, 10), [10, 1000]);
    }
}

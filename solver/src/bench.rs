//! `octal bench`: the engines measured against the classic rare-value algorithm (Grossman 2019,
//! Figure 2) in one run, on the same machine and the same game, at 2^18 .. N heaps. Every engine's
//! values are checked against the classic ones (fnv1a64) before a figure is printed.

use crate::cli::{self, BenchArgs};
use crate::solve::{self, Request};
use anyhow::{bail, Context, Result};
use octal_core::classic::Classic;
use octal_core::exact;
use octal_core::fnv::fnv1a64_values;
use serde_json::json;
use std::time::Instant;

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

pub fn run(args: &BenchArgs) -> Result<()> {
    let code = cli::parse_code(&args.code)?;
    let n_max = cli::parse_count("-n", &args.n)?;
    cli::check_memory("-n", n_max)?;
    let threads = cli::validate_threads(args.threads)?;
    let rules = code.rules();
    let sizes: Vec<usize> = (18..=40)
        .map(|k| 1usize << k)
        .take_while(|&s| s < n_max)
        .chain([n_max])
        .collect();

    // The classic algorithm, single-threaded, timed at each size in one pass.
    let mut classic = Vec::new();
    let t0 = Instant::now();
    let mut g = exact::values(&rules, solve::DISCOVERY_HEAPS.min(n_max))?;
    let Some(space) = octal_core::sparse::discover(&rules, &g) else {
        bail!("{code} has no sparse space: the benchmark compares sparse-space engines");
    };
    let mut engine = Classic::new(&rules, space, &g);
    for &n in &sizes {
        engine.extend(&mut g, n)?;
        classic.push(Timing {
            seconds: t0.elapsed().as_secs_f64(),
            fnv: fnv1a64_values(&g[..n]),
        });
    }

    let pool = |t: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()
            .context("cannot start the worker threads")
    };
    let (one, all) = (pool(1)?, pool(threads)?);
    let run_solve = |n: usize, verify: bool, on: &rayon::ThreadPool| -> Result<Timing> {
        let mut req = Request::new(code.clone(), n);
        req.verify = verify;
        let (sol, seconds) = timed(|| Ok(on.install(|| solve::solve(&req, &mut |_| {}))?))?;
        Ok(Timing {
            seconds,
            fnv: fnv1a64_values(&sol.values),
        })
    };
    println!(
        "octal bench {code}: classic (1 thread) vs speculative pass (1 thread) vs verified end to end ({threads} threads)"
    );
    println!(
        "{:>10} {:>12} {:>12} {:>12} {:>8} {:>12} {:>12}",
        "heaps", "classic/s", "spec/s", "verified/s", "ratio", "ns/value", "fnv1a64"
    );
    let mut rows = Vec::new();
    for (k, &n) in sizes.iter().enumerate() {
        let spec = run_solve(n, false, &one)?;
        let e2e = run_solve(n, true, &all)?;
        let c = &classic[k];
        if e2e.fnv != c.fnv {
            bail!("verified values differ from the classic algorithm's at n = {n}");
        }
        let spec_note = if spec.fnv == c.fnv {
            ""
        } else {
            " (speculative values differ: new rare values)"
        };
        let rate = |t: &Timing| n as f64 / t.seconds;
        let ratio = rate(&e2e) / rate(c);
        println!(
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
    if let Some(path) = &args.json {
        let doc = json!({"code": code.to_string(), "threads": threads, "rows": rows});
        std::fs::write(path, format!("{doc:#}\n"))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

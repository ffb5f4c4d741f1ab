//! The GPU engine. Without NVRTC or a device these tests skip with a message; with NVRTC alone
//! (CI: `. scripts/nvrtc-env.sh`) the generated source of every game in `tests/data` and of random
//! codes compiles for sm_90; with a device the GPU's values equal the CPU engine's.
#![cfg(feature = "gpu")]

use octal_core::{exact, sparse, Code, RareTable};
use solver::gpu::device::{self, Gpu};
use solver::gpu::GpuError;
use solver::solve::{solve, Engine, EngineChoice, Request};

/// The codes of the games in the test tables that have a sparse space.
fn table_codes() -> Vec<Code> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data");
    let mut codes = Vec::new();
    for file in ["sparse-spaces.tsv", "unsolved.tsv", "known-periods.tsv"] {
        let text = std::fs::read_to_string(format!("{dir}/{file}")).unwrap();
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with("code"))
        {
            if let Some(Ok(code)) = line.split('\t').next().map(str::parse::<Code>) {
                if !codes.contains(&code) {
                    codes.push(code);
                }
            }
        }
    }
    codes
}

/// Codes drawn from a fixed seed (a small xorshift: the same codes on every run).
fn random_codes(count: usize) -> Vec<Code> {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    (0..count)
        .map(|_| {
            let len = 1 + (next() % 4) as usize;
            let mut d = vec![if next() % 4 == 0 { 4 } else { 0 }];
            d.extend((0..len).map(|_| (next() % 8) as u8));
            Code::from_digits(&d)
        })
        .collect()
}

#[test]
fn generated_kernels_compile_with_nvrtc() {
    if !device::nvrtc_present() {
        eprintln!("skipped: no NVRTC (run `. scripts/nvrtc-env.sh` first)");
        return;
    }
    let mut compiled = 0;
    for code in table_codes().into_iter().chain(random_codes(40)) {
        let rules = code.rules();
        let g = exact::values(&rules, 4096).unwrap();
        let Some(space) = sparse::discover(&rules, &g) else {
            continue;
        };
        let table = RareTable::from_values(&space, &g);
        let max = g.iter().copied().max().unwrap();
        let game = kernels_gen::Game {
            code: &code,
            space,
            table: &table,
            value_bits: 16 - max.leading_zeros(),
        };
        match kernels_gen::generate(&game) {
            Ok(source) => {
                device::compile(&source, "compute_90").unwrap_or_else(|e| panic!("{code}: {e}"));
                compiled += 1;
            }
            Err(e) => eprintln!("{code}: not generated: {e}"),
        }
    }
    assert!(compiled >= 20, "only {compiled} sources compiled");
}

/// The device, or None (with a message) where there is none.
fn device() -> Option<Gpu> {
    match Gpu::open() {
        Ok(gpu) => Some(gpu),
        Err(e @ (GpuError::NoDriver | GpuError::NoNvrtc | GpuError::NoDevice)) => {
            eprintln!("skipped: {e}");
            None
        }
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn gpu_values_equal_the_cpu_engine() {
    if device().is_none() {
        return;
    }
    let mut codes: Vec<(Code, usize)> = vec![(".6".parse().unwrap(), 1 << 22)];
    // Past discovery (2^15 to 2^17 heaps), so that the kernels compute most heaps. The games
    // with tens of thousands of rare values are left out: their CPU reference alone took minutes
    // on the H200 machine's 16 cores; so are those whose tables keep growing past 2^17 heaps
    // (neither engine finished them at 2^18 within 20 s: bench/results/gpu-h200-window-run9-games.log).
    let slow = [
        "0.004", "0.006", "0.04", "0.06", "0.114", "0.244", "0.017", "0.1137", "0.115", "0.125",
        "0.126",
    ];
    codes.extend(
        table_codes()
            .into_iter()
            .filter(|c| !slow.contains(&c.to_string().as_str()))
            .map(|c| (c, 1 << 18)),
    );
    codes.extend(random_codes(20).into_iter().map(|c| (c, 1 << 18)));
    for (code, n) in codes {
        let mut cpu = Request::new(code.clone(), n);
        cpu.engine = EngineChoice::Generic;
        let Ok(want) = solve(&cpu, &mut |_| {}) else {
            continue;
        };
        let mut req = Request::new(code.clone(), n);
        req.engine = EngineChoice::Gpu;
        match solve(&req, &mut |_| {}) {
            Ok(got) => {
                assert_eq!(got.engine, Engine::Gpu);
                assert!(got.values == want.values, "{code}: GPU values differ");
            }
            Err(e) => eprintln!("{code}: GPU engine refused: {e}"),
        }
    }
}

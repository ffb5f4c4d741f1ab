//! The GPU engine. With NVRTC (`. scripts/nvrtc-env.sh` installs it; without it these tests
//! fail and say so) the generated source of every game in `tests/data`, of random
//! codes, of wide keys and of a table too large for shared memory compiles for sm_90; with a
//! device the GPU's values equal the CPU engine's, value by value (every game of `games/` to
//! 10^6 heaps, Officers to 2^26, the test tables' games and random codes to 2^18, games without
//! a sparse space, runs that start on the host's cores) or the CPU engine's recorded runs (the
//! frontier games to 2^22), and `--speculate-only` comes back labelled unverified. The tests
//! that need a device are ignored elsewhere: a GPU machine runs them with
//! `cargo test --release -- --include-ignored`.
#![cfg(feature = "gpu")]

// The end-to-end tests' helpers; these tests read `tests/data` with them and run no binary.
mod common;

use octal_core::codec::value_bits;
use octal_core::fnv::fnv1a64_values;
use octal_core::stats::Summary;
use octal_core::{discover, exact, Code, Kept, RareTable, SparseSpace};
use octal_engines::games::GAMES;
use octal_engines::stretch::{Engine, Stretch, StretchEngine};
use octal_gpu::{
    compile, compile_cached, nvrtc_present, Device, DeviceEngine, GpuTimings, Resident,
};
use octal_store::run_values::RunValues;
use octal_store::values::ValueStore;
use solver::outcome::Solution;
use solver::request::{EngineChoice, Request};
use solver::solve::solve;
use std::time::Instant;

/// The codes of the games in the test tables that have a sparse space.
fn table_codes() -> Vec<Code> {
    let mut codes = Vec::new();
    for file in ["sparse-spaces.tsv", "unsolved.tsv", "known-periods.tsv"] {
        for row in common::data(file) {
            if let Ok(code) = row[0].parse::<Code>() {
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

/// The values of the game's first 4096 heaps and the sparse space they show, if any: cheap,
/// where the engines' own discovery (2^15 heaps and more) can take tens of seconds to give up on
/// a game without one.
fn first_values(code: &Code) -> Option<(SparseSpace, Vec<u16>)> {
    let rules = code.rules();
    let g = exact::values(&rules, 4096).unwrap();
    discover::discover(&rules, &g).map(|space| (space, g))
}

/// Fails with the command that installs NVRTC where it is missing: these tests compile the
/// generated kernels, and a machine without NVRTC cannot tell whether they do.
fn need_nvrtc() {
    assert!(
        nvrtc_present(),
        "no NVRTC (libnvrtc.so.13): run the tests as the README says, \
         `. scripts/nvrtc-env.sh && cargo test --release --workspace`, which installs it"
    );
}

#[test]
fn generated_kernels_compile_with_nvrtc() {
    need_nvrtc();
    let mut compiled = 0;
    for code in table_codes().into_iter().chain(random_codes(40)) {
        let Some((space, g)) = first_values(&code) else {
            continue;
        };
        let table = RareTable::from_values(&space, &g);
        let max = g.iter().copied().max().unwrap();
        for rare_sources in [false, true] {
            let game = kernels_gen::KernelSpec {
                code: &code,
                space,
                table: &table,
                value_bits: value_bits(max),
                rare_sources,
            };
            match kernels_gen::generate(&game) {
                Ok(source) => {
                    compile(&source, "compute_90")
                        .unwrap_or_else(|e| panic!("{code}, rare sources {rare_sources}: {e}"));
                    compiled += 1;
                }
                Err(e) => eprintln!("{code}: not generated: {e}"),
            }
        }
    }
    assert!(compiled >= 40, "only {compiled} sources compiled");
}

/// A kernel compiled once is read from the cache the next time (the cached PTX is what comes
/// back), another architecture is another entry, and an entry whose key is not the source's is
/// compiled again.
#[test]
fn compiled_kernels_are_read_from_the_cache() {
    need_nvrtc();
    let code: Code = ".6".parse().unwrap();
    let (space, g) = first_values(&code).unwrap();
    let table = RareTable::from_values(&space, &g);
    let source = kernels_gen::generate(&kernels_gen::KernelSpec {
        code: &code,
        space,
        table: &table,
        value_bits: value_bits(*g.iter().max().unwrap()),
        rare_sources: false,
    })
    .unwrap();
    let dir = std::env::temp_dir().join(format!("octal-kernels-test-{}", std::process::id()));
    let files = |ext: &str| -> Vec<std::path::PathBuf> {
        let mut f: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .collect();
        f.sort();
        f
    };
    let ptx = |arch| compile_cached(&source, arch, Some(&dir)).unwrap().to_src();
    let fresh = compile_cached(&source, "compute_90", None)
        .unwrap()
        .to_src();
    assert_eq!(ptx("compute_90"), fresh, "the first compile");
    let (keys, kept) = (files("cu"), files("ptx"));
    assert_eq!((keys.len(), kept.len()), (1, 1), "one entry");
    assert_eq!(std::fs::read_to_string(&kept[0]).unwrap(), fresh);

    let marked = format!("{fresh}// read from the cache\n");
    std::fs::write(&kept[0], &marked).unwrap();
    assert_eq!(
        ptx("compute_90"),
        marked,
        "the second compile reads the cache"
    );

    assert!(!ptx("compute_80").contains("read from the cache"));
    assert_eq!(files("cu").len(), 2, "another architecture, another entry");

    std::fs::write(&keys[0], "another source").unwrap();
    assert_eq!(
        ptx("compute_90"),
        fresh,
        "a key not the source's is compiled again"
    );
    assert_eq!(ptx("compute_90"), fresh, "and kept again");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The marking engine's kernels compile for every game of the tests' tables, with a space or
/// without.
#[test]
fn block_kernels_compile_with_nvrtc() {
    need_nvrtc();
    for code in table_codes() {
        let source = kernels_gen::generate_blocks(&code);
        compile(&source, "compute_90").unwrap_or_else(|e| panic!("{code}: {e}"));
    }
}

/// The marking engine's batches on the device, value by value against the CPU: games that no
/// sparse space fits (.0106 and .07, .004 until 2^17 heaps or more, and random codes whose first
/// 4096 heaps show none, several breaking digits among them), and .76, whose rare values keep
/// coming (its classic stretches go to the device or the host, whichever is timed faster).
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn gpu_exact_marking_equals_the_cpu_engine() {
    drop(device()); // fails at once, with the reason, where the device cannot be opened

    // Random codes with splits whose first 4096 heaps show no sparse space, those with the most
    // breaking digits first.
    let mut spaceless: Vec<Code> = random_codes(80)
        .into_iter()
        .filter(|c| !c.rules().breaking.is_empty() && first_values(c).is_none())
        .collect();
    spaceless.sort_by_key(|c| std::cmp::Reverse(c.rules().breaking.len()));
    spaceless.truncate(6);
    let several = spaceless.iter().filter(|c| c.rules().breaking.len() >= 2);
    assert_eq!(
        several.count(),
        3,
        "random codes with several breaking digits, no space"
    );
    let random: Vec<String> = spaceless.iter().map(|c| c.to_string()).collect();
    let named = [
        (".0106", 1 << 19),
        (".07", 1 << 16),
        (".004", 1 << 18),
        (".76", 1 << 19),
    ];
    let codes: Vec<(Code, usize)> = named
        .iter()
        .map(|&(c, n)| (c.parse().unwrap(), n))
        .chain(spaceless.into_iter().map(|c| (c, 1 << 17)))
        .collect();
    let compared = gpu_equals_cpu(codes);
    assert_eq!(compared.games, 10, "a game was not compared");
    for code in ["0.0106", "0.004", "0.76"] {
        assert!(
            compared.on_device.iter().any(|c| c == code),
            "{code}: no stretch on the device"
        );
    }
    let random = compared.on_device.iter().filter(|&c| random.contains(c));
    assert!(
        random.count() >= 2,
        "fewer than two random codes on the device"
    );
}

/// The table, space and values of Officers' first 2^17 heaps (the CPU engine's).
fn officers_prefix() -> (Code, SparseSpace, RareTable, ValueStore) {
    let code: Code = ".6".parse().unwrap();
    let mut req = Request::new(code.clone(), 1 << 17);
    req.engine = EngineChoice::Generic;
    let s = solve(&req, &mut |_| {}).unwrap();
    (code, s.space.unwrap(), s.outcome.table.unwrap(), s.values)
}

/// No game of the tables needs values of 2^9 or more (two-byte keys) early, so the kernels for
/// Officers are generated with up to 13-bit values as well, with and without rare sources: every
/// width must compile (the ring of two-byte keys no longer fits shared memory: sources come
/// from global memory).
#[test]
fn wide_keys_compile_with_nvrtc() {
    need_nvrtc();
    let (code, space, table, _) = officers_prefix();
    for bits in [7, 8, 9, 10, 11, 12, 13] {
        for rare_sources in [false, true] {
            let game = kernels_gen::KernelSpec {
                code: &code,
                space,
                table: &table,
                value_bits: bits,
                rare_sources,
            };
            let layout = kernels_gen::Layout::new(&game).unwrap();
            let one_byte = if rare_sources { bits <= 8 } else { bits <= 9 };
            assert_eq!(layout.key_bytes, if one_byte { 1 } else { 2 });
            let source = kernels_gen::generate(&game).unwrap();
            compile(&source, "compute_90")
                .unwrap_or_else(|e| panic!("{bits} bits, rare sources {rare_sources}: {e}"));
        }
    }
}

/// A table too large for a CUDA block's shared memory (40 000 options, one-byte keys: more than fit
/// beside the bitsets) makes the kernels read their options from the table in global memory, in
/// the marking and the settle loops alike; no game of the tables has one this early, so a table
/// is made up for Officers' space (every heap below 40 000 rare, value 0) to compile that source.
#[test]
fn large_tables_compile_with_nvrtc() {
    need_nvrtc();
    let code: Code = ".6".parse().unwrap();
    let (space, _) = first_values(&code).unwrap();
    let table = RareTable::from_entries((0..40_000).map(|n| (n, 0)).collect());
    let game = kernels_gen::KernelSpec {
        code: &code,
        space,
        table: &table,
        value_bits: 9,
        rare_sources: false,
    };
    let layout = kernels_gen::Layout::new(&game).unwrap();
    assert!(!layout.options_shared);
    let source = kernels_gen::generate(&game).unwrap();
    compile(&source, "compute_90").unwrap_or_else(|e| panic!("{e}"));
}

/// The device (these tests are ignored where there is none: run them with
/// `--include-ignored` on a GPU machine).
fn device() -> Device {
    Device::open().unwrap_or_else(|e| panic!("{e}"))
}

/// What [`gpu_equals_cpu`] compared.
#[derive(Default)]
struct Compared {
    /// Games compared.
    games: usize,
    /// Of those, the games whose speculation ran on the host (small tables).
    host_chain: usize,
    /// The games of which the device computed a stretch.
    on_device: Vec<String>,
}

/// Heaps of a run's stretches on the device.
fn heaps_on_device(s: &Solution) -> usize {
    s.stretches
        .iter()
        .filter(|s| s.engine == Engine::Gpu)
        .map(|s| s.to - s.from)
        .sum()
}

/// Solves each (code, n) with the CPU's engines and with `--gpu` (whose stretches that suit
/// speculation run on the device), and asserts that the GPU run's values equal the CPU's, value
/// by value (fnv1a64 printed beside). A code the GPU engine refuses, or with no CPU reference,
/// is skipped with a message.
fn gpu_equals_cpu(codes: Vec<(Code, usize)>) -> Compared {
    let mut compared = Compared::default();
    for (code, n) in codes {
        let started = Instant::now();
        let want = match solve(&Request::new(code.clone(), n), &mut |_| {}) {
            Ok(want) => want,
            Err(e) => {
                eprintln!("{code}: no CPU reference: {e}");
                continue;
            }
        };
        let cpu_secs = started.elapsed().as_secs_f64();
        let started = Instant::now();
        let mut req = Request::new(code.clone(), n);
        req.engine = EngineChoice::Gpu;
        // The device computes from its first stretch on (the host's cores would finish short
        // runs while it starts).
        req.start_on_host = false;
        match solve(&req, &mut |_| {}) {
            Ok(got) => {
                assert!(got.values == want.values, "{code}: GPU values differ");
                let on_device = heaps_on_device(&got);
                if on_device > 0 {
                    compared.on_device.push(code.to_string());
                }
                let t = got.gpu_timings.unwrap();
                assert!(
                    t.compiled <= 10,
                    "{code}: {} kernel modules compiled",
                    t.compiled
                );
                compared.games += 1;
                compared.host_chain += usize::from(t.host_chain);
                eprintln!(
                    "{code} to {n}: equal, fnv1a64 {:016x} (CPU {cpu_secs:.1} s, GPU {:.1} s, {on_device} heaps in the device's stretches, {} modules, {} heaps on the CPU within them, speculated on the {})",
                    fnv1a64_values(&got.values),
                    started.elapsed().as_secs_f64(),
                    t.compiled,
                    t.on_cpu,
                    if t.host_chain { "host" } else { "device" }
                );
            }
            Err(e) => eprintln!("{code}: GPU engine refused: {e}"),
        }
    }
    compared
}

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn gpu_values_equal_the_cpu_engine() {
    drop(device()); // fails at once, with the reason, where the device cannot be opened
                    // Past discovery (2^15 to 2^17 heaps), so that the kernels compute most heaps; only games
                    // whose first 4096 heaps show a sparse space (the others are the next test's). Left out:
                    // the games whose CPU reference did not finish 2^18 heaps in 20 s on the development
                    // machine's 2 cores (tables of thousands of rare values, or a sparse space that fades before
                    // discovery ends). Games whose table is corrected hundreds of times on the way (.14 3233
                    // times, .143 518, .165 2516, .206 194) stay: the CPU engine takes the corrections while the
                    // table settles (for these, past 2^18), so the device compiles few kernel modules, not one a
                    // correction.
    let slow = [
        "0.004", "0.017", "0.1137", "0.115", "0.134", "0.135", "0.15", "0.152", "0.173", "0.226",
        "0.373", "0.432", "0.76", "0.763", "4.024",
    ];
    let codes = table_codes()
        .into_iter()
        .chain(random_codes(20))
        .filter(|c| !slow.contains(&c.to_string().as_str()) && first_values(c).is_some())
        .map(|c| (c, 1 << 18))
        .collect();
    let compared = gpu_equals_cpu(codes);
    let (games, host_chain) = (compared.on_device.len(), compared.host_chain);
    assert!(games >= 10, "only {games} games computed on the device");
    assert!(
        host_chain >= 1 && host_chain < games,
        "{host_chain} of {games} games speculated on the host: both chains must be tested"
    );
}

/// The largest sizes: every game of `games/` with a sparse space to 10^6 heaps and
/// Officers to 2^26, value by value.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn gpu_games_and_officers_to_2_26_equal_the_cpu_engine() {
    drop(device()); // fails at once, with the reason, where the device cannot be opened
    let mut codes: Vec<(Code, usize)> = GAMES
        .iter()
        .filter(|g| g.space.is_some())
        .map(|g| (g.code.parse().unwrap(), 1_000_000))
        .collect();
    let sparse = codes.len();
    codes.push((".6".parse().unwrap(), 1 << 26));
    assert_eq!(
        gpu_equals_cpu(codes).on_device.len(),
        sparse + 1,
        "a game was not computed on the device"
    );
}

/// The frontier games and a small table to 2^22 heaps (.004 to 2^21), .76 with values past 13
/// bits among them, on the GPU as the command
/// line runs them, against the CPU engine's runs recorded in `tests/data/cpu-2-22.tsv`: the
/// fnv1a64 of all the values, the largest value and its first heap.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn gpu_to_2_22_equals_the_recorded_cpu_runs() {
    drop(device()); // fails at once, with the reason, where the device cannot be opened
    let rows = common::data("cpu-2-22.tsv");
    assert!(rows.len() >= 6, "cpu-2-22.tsv: {} games", rows.len());
    for r in rows {
        let (code, n): (Code, usize) = (r[0].parse().unwrap(), r[1].parse().unwrap());
        let mut req = Request::new(code.clone(), n);
        req.engine = EngineChoice::Gpu;
        let started = Instant::now();
        let got = solve(&req, &mut |_| {}).unwrap();
        let summary = Summary::of(&got.values, None);
        let fnv = format!("{:016x}", summary.fnv1a64);
        let (max, at) = (summary.max_value, summary.max_value_at);
        eprintln!(
            "{code} to {n}: fnv1a64 {fnv}, largest {max} at {at}, {:.1} s, {} heaps on the device",
            started.elapsed().as_secs_f64(),
            heaps_on_device(&got)
        );
        assert_eq!((got.values.len(), &fnv), (n, &r[2]), "{code}");
        assert_eq!(
            (max.to_string(), at.to_string()),
            (r[3].clone(), r[4].clone()),
            "{code}"
        );
    }
}

/// Tables that grow all the way (rare values keep coming: the kernels take rare sources, and
/// each correction joins the device's table in place) and a small table, value by value against
/// the CPU engine (whose classic algorithm takes a minute for .143 to 2^20 on 16 cores), and to
/// 2^18 where a rare value comes every few dozen heaps (there the run's stretches go to the
/// CPU's marking engine; the next test drives the device's speculation on them).
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn gpu_growing_tables_equal_the_cpu_engine() {
    drop(device()); // fails at once, with the reason, where the device cannot be opened
    let codes: Vec<(Code, usize)> = [
        (".14", 20),
        (".143", 20),
        (".1777", 22),
        (".04", 18),
        (".114", 18),
    ]
    .iter()
    .map(|&(c, log)| (c.parse().unwrap(), 1 << log))
    .collect();
    let compared = gpu_equals_cpu(codes);
    assert_eq!(compared.games, 5, "a game was not compared");
    for code in ["0.143", "0.1777"] {
        assert!(
            compared.on_device.iter().any(|c| c == code),
            "{code}: no stretch on the device"
        );
    }
}

/// Rare values every few dozen heaps (.04 and .114): the device's speculation driven directly
/// from the first 2^15 heaps under the space the CPU engine ended with (each correction a round
/// trip to the host), against the CPU engine, value by value.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn gpu_speculation_on_dense_tables_equals_the_cpu_engine() {
    dense_tables_on_the_device(&device(), 1);
}

/// The verification of the device's own loop shared by k devices (on a host with fewer GPUs,
/// more contexts on them): each verifies every k-th heap of a batch and settles a share of its
/// flagged heaps. The values equal the CPU engine's where rare values come every few dozen heaps
/// (.04, .114: corrections and flagged heaps in most batches) and on Officers with a small ring
/// (the ring wraps; heaps whose proofs need splits past the prefix go to the CPU).
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn gpu_verification_shared_over_devices_equals_the_cpu_engine() {
    let count = octal_gpu::device_count().unwrap_or_else(|e| panic!("{e}"));
    let keep = Resident {
        prefix: 1 << 16,
        ring: 1 << 18,
    };
    for k in [2, 3] {
        let ordinals: Vec<usize> = (1..k).map(|d| d % count).collect();
        let gpu = device()
            .sharing(&ordinals)
            .unwrap_or_else(|e| panic!("{e}"));
        dense_tables_on_the_device(&gpu, k);
        officers_on_the_device(&gpu, &[(9, Some(keep))]);
        eprintln!("verification shared by {k} devices (ordinals 0, {ordinals:?}): equal");
    }
}

/// .04 and .114 on `gpu`'s own loop from their first 2^15 heaps, its verification on `devices`
/// devices, against the CPU engine.
fn dense_tables_on_the_device(gpu: &Device, devices: usize) {
    for (code, n) in [(".04", 1 << 18), (".114", 1 << 17)] {
        let code: Code = code.parse().unwrap();
        let want = solve(&Request::new(code.clone(), n), &mut |_| {}).unwrap();
        let rules = code.rules();
        let first = exact::values(&rules, 1 << 15).unwrap();
        let space = want.space.expect("a sparse space at the end");
        let bits = value_bits(first.iter().copied().max().unwrap());
        let mut g = ValueStore::memory();
        g.extend_from_slice(&first).unwrap();
        let started = Instant::now();
        let table = RareTable::from_values(&space, &first);
        let timings = on_device(gpu, (&code, space, table, bits), None, (&mut g, n));
        assert!(
            timings.speculated >= n - (1 << 15),
            "{code}: the kernels speculated only {} heaps",
            timings.speculated
        );
        assert_eq!(timings.devices, devices, "{code}: devices verifying");
        assert!(g == want.values, "{code}: GPU values differ");
        eprintln!(
            "{code} to {n} under {space}: equal ({:.1} s)",
            started.elapsed().as_secs_f64()
        );
    }
}

/// A GPU run as the command line makes it: the host's cores compute while the device opens and
/// compiles its first kernels, then the device goes on; the values equal the CPU engine's, on a
/// small table (.1777, the CPU speculates) and on Officers and .36 (the device speculates). For
/// the games of games/ the host's stretches run their unrolled loops, as a CPU run's do.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn gpu_run_started_on_the_host_equals_the_cpu_engine() {
    drop(device()); // fails at once, with the reason, where the device cannot be opened
    for (code, n) in [(".1777", 1 << 24), (".6", 1 << 23), (".36", 1 << 22)] {
        let code: Code = code.parse().unwrap();
        let want = solve(&Request::new(code.clone(), n), &mut |_| {}).unwrap();
        let mut req = Request::new(code.clone(), n);
        req.engine = EngineChoice::Gpu;
        let started = Instant::now();
        let got = solve(&req, &mut |_| {}).unwrap();
        assert!(got.values == want.values, "{code}: GPU values differ");
        let t = got.gpu_timings.unwrap();
        let on_device = heaps_on_device(&got);
        eprintln!(
            "{code} to {n}: equal in {:.2} s, {} heaps on the host while the device started, {on_device} on the device",
            started.elapsed().as_secs_f64(),
            t.starting
        );
        let unrolled = |s: &Solution| s.stretches.iter().any(|s| s.engine == Engine::Unrolled);
        assert_eq!(
            unrolled(&got),
            unrolled(&want),
            "{code}: the host's unrolled loop"
        );
    }
}

/// `--speculate-only` on the device: the candidates (Officers' table is complete, so they are the
/// values) come back unverified, and the timings count no heap as verified.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn gpu_speculation_alone_is_labelled_unverified() {
    drop(device()); // fails at once, with the reason, where the device cannot be opened
    let n = 1 << 20;
    let mut cpu = Request::new(".6".parse().unwrap(), n);
    cpu.engine = EngineChoice::Generic;
    let want = solve(&cpu, &mut |_| {}).unwrap();
    let mut req = Request::new(".6".parse().unwrap(), n);
    req.engine = EngineChoice::Gpu;
    req.verify = false;
    let got = solve(&req, &mut |_| {}).unwrap();
    assert!(!got.verified);
    assert!(got.values == want.values, "the candidates differ");
    let t = got.gpu_timings.unwrap();
    assert!(t.speculated > 0);
    assert_eq!(
        t.verified, 0,
        "heaps counted as verified without verification"
    );
}

/// The device's speculate-verify loop alone ([`DeviceEngine`], no cap on corrections) seeded
/// with `table` and keys for values below 2^bits, extending `g` to `n` heaps, keeping what
/// `keep` says; returns the timings of its stretch.
fn on_device(
    gpu: &Device,
    (code, space, table, bits): (&Code, SparseSpace, RareTable, u32),
    keep: Option<Resident>,
    (g, n): (&mut ValueStore, usize),
) -> GpuTimings {
    let before = gpu.timings();
    // Batches of every size shared, where other devices share the verification.
    let mut engine = DeviceEngine::on(gpu, code, space, table)
        .with_bits(bits)
        .sharing_from(1);
    if let Some(keep) = keep {
        engine = engine.keeping(keep);
    }
    // The values as a run holds them, all of them, and back.
    let mut held = RunValues::whole(std::mem::replace(g, ValueStore::memory()));
    let mut stretch = Stretch {
        values: &mut held,
        to: n,
        verify: true,
        corrections: usize::MAX,
        blocks: None,
        notify: &mut |_| {},
        watch: &mut |_: Kept<'_>| Ok(false),
    };
    engine.extend(&mut stretch).unwrap();
    *g = held.into_store();
    let after = gpu.timings();
    GpuTimings {
        speculated: after.speculated - before.speculated,
        ..after
    }
}

/// Officers on the device from the CPU's first 2^17 heaps to 2^21, with `bits`-bit keys and what
/// `keep` says the device keeps, against the CPU engine.
fn officers_on_the_device(gpu: &Device, cases: &[(u32, Option<Resident>)]) {
    let n = 1 << 21;
    let mut cpu = Request::new(".6".parse().unwrap(), n);
    cpu.engine = EngineChoice::Generic;
    let want = solve(&cpu, &mut |_| {}).unwrap();
    let (code, space, table, prefix) = officers_prefix();
    for &(bits, keep) in cases {
        let mut g = ValueStore::memory();
        g.extend_from_slice(&prefix).unwrap();
        let started = Instant::now();
        let timings = on_device(gpu, (&code, space, table.clone(), bits), keep, (&mut g, n));
        assert!(
            timings.speculated >= n - (1 << 17) - (1 << 16),
            "{bits} bits, {keep:?}: the kernels speculated only {} heaps",
            timings.speculated
        );
        assert!(
            g == want.values,
            "{bits}-bit keys, {keep:?}: GPU values differ"
        );
        eprintln!(
            ".6 to {n} with {bits}-bit keys, {keep:?}: equal ({:.1} s)",
            started.elapsed().as_secs_f64()
        );
    }
}

/// The two-byte key path on the device: Officers' values (all below 2^9) computed by kernels
/// generated for 10- and 12-bit keys equal the CPU engine's.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn gpu_wide_keys_equal_the_cpu_engine() {
    officers_on_the_device(&device(), &[(10, None), (12, None)]);
}

/// A run longer than the device keeps: with a ring of 2^18 heaps (batches of at most 2^16) and a
/// prefix of 2^16, the ring wraps 8 times on the way to 2^21, and heaps whose verification would
/// need a split past the prefix are checked on the CPU; the values equal the CPU engine's.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn gpu_small_ring_equals_the_cpu_engine() {
    let keep = Resident {
        prefix: 1 << 16,
        ring: 1 << 18,
    };
    officers_on_the_device(&device(), &[(9, Some(keep)), (10, Some(keep))]);
}

/// A survey on two GPUs (a worker process each, the next game as one ends) keeps, game by
/// game, the records of the survey on the host's cores (all but the engine and the time).
#[test]
#[ignore = "needs two NVIDIA GPUs"]
fn a_survey_on_two_gpus_keeps_the_records_of_the_cpu_survey() {
    let run = |name: &str, extra: &[&str]| {
        let dir = common::fresh_dir(name);
        let mut args = vec![
            "survey",
            "--digits",
            "2",
            "--max-n",
            "2^15",
            "--grow-to",
            "2^15",
            "--quiet",
            "--out",
            dir.to_str().unwrap(),
        ];
        args.extend(extra);
        let out = common::octal(&args);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        dir
    };
    let records = |dir: &std::path::Path| {
        let mut all = std::collections::BTreeMap::new();
        for e in std::fs::read_dir(dir.join("games")).unwrap() {
            let path = e.unwrap().path();
            let mut r: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let r = r.as_object_mut().unwrap();
            r.remove("engine");
            r.remove("seconds");
            all.insert(path.file_name().unwrap().to_owned(), r.clone());
        }
        all
    };
    let cpu = run("survey-on-the-cpu", &[]);
    let gpus = run("survey-on-two-gpus", &["--gpu", "--devices", "2"]);
    let (want, got) = (records(&cpu), records(&gpus));
    assert!(want.len() > 20, "{} games", want.len());
    assert_eq!(got, want);
    let md = |dir: &std::path::Path| std::fs::read(dir.join("survey.md")).unwrap();
    assert!(md(&cpu) == md(&gpus), "survey.md differs");
}

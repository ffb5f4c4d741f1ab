//! End-to-end tests of the `octal` binary against published results (tests/data, copied from
//! OEIS, Flammenkamp and tczajka) and against itself (engines, output contract, bad input).

mod common;

use common::{data, json, octal, tmp};
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

/// Runs `octal solve ... --json` and returns the JSON object (asserting success).
fn solve_json(args: &[&str]) -> Value {
    let mut all = vec!["solve"];
    all.extend_from_slice(args);
    all.push("--json");
    json(&octal(&all))
}

/// Values from a b-file written by `--values`.
fn read_bfile(path: &Path) -> Vec<u16> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .enumerate()
        .map(|(i, l)| {
            let (n, v) = l.split_once(' ').expect("n G(n)");
            assert_eq!(n.parse::<usize>().unwrap(), i);
            v.parse().unwrap()
        })
        .collect()
}

fn fnv1a64(values: &[u16]) -> String {
    let mut h: u64 = 0xcbf29ce484222325;
    for v in values {
        for b in v.to_le_bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x100000001b3);
        }
    }
    format!("{h:016x}")
}

#[test]
fn oeis_sequences() {
    for row in data("oeis-sequences.tsv") {
        let (a, code, first) = (&row[0], &row[1], row[2].parse::<usize>().unwrap());
        let terms: Vec<u16> = row[3]
            .split(',')
            .map(|t| t.trim().parse().unwrap())
            .collect();
        let n = (first + terms.len()).to_string();
        for engine in ["auto", "exact"] {
            let file = tmp(&format!("{a}-{engine}.txt"));
            let j = solve_json(&[
                code,
                "-n",
                &n,
                "--engine",
                engine,
                "--values",
                file.to_str().unwrap(),
            ]);
            let values = read_bfile(&file);
            assert_eq!(
                &values[first..],
                &terms[..],
                "{a} ({code}) with --engine {engine}"
            );
            assert_eq!(j["fnv1a64"], fnv1a64(&values), "{a}: fnv1a64 of the b-file");
        }
    }
}

/// Sparse spaces, rare counts and last rare heaps as published.
#[test]
fn published_sparse_spaces() {
    let mut cases: Vec<(String, String, String, u64, u64, String)> = Vec::new();
    for r in data("sparse-spaces.tsv") {
        cases.push((
            r[0].clone(),
            r[1].clone(),
            r[2].clone(),
            r[3].parse().unwrap(),
            r[4].parse().unwrap(),
            r[5].clone(),
        ));
    }
    for r in data("known-periods.tsv") {
        if r.len() > 7 && !r[5].is_empty() {
            let last: u64 = r[7].parse().unwrap();
            cases.push((
                r[0].clone(),
                "range".into(),
                r[5].clone(),
                r[6].parse().unwrap(),
                last,
                "2^15".into(),
            ));
        }
    }
    for (code, kind, mask, count, last, n) in cases {
        let j = solve_json(&[&code, "-n", &n]);
        let s = &j["sparse"];
        assert_eq!(s["kind"], kind.as_str(), "{code}");
        assert_eq!(s["mask"], mask.as_str(), "{code}");
        assert_eq!(s["rare_count"], count, "{code}");
        assert_eq!(s["last_rare"], last, "{code}");
        assert_eq!(j["verified"], true);
    }
}

/// .04 (open) at 2^17 against Flammenkamp's invariants in unsolved.tsv.
#[test]
fn dot04_at_2_17_as_flammenkamp() {
    let row = data("unsolved.tsv")
        .into_iter()
        .find(|r| r[0] == "0.04")
        .unwrap();
    let j = solve_json(&["0.04", "-n", "2^17"]);
    assert_eq!(j["max_value"], row[1].parse::<u64>().unwrap());
    assert_eq!(j["max_value_at"], 109363); // "largest 1024 first at 109363" (source column)
    assert!(row[5].contains("first at 109363"));
    assert_eq!(j["sparse"]["mask"], row[2].as_str());
    assert_eq!(j["sparse"]["rare_count"], row[3].parse::<u64>().unwrap());
    assert_eq!(j["sparse"]["last_rare"], row[4].parse::<u64>().unwrap());
}

/// Officers' largest value below 2^21 is 319, first at heap 1274955 (Grossman 2019).
#[test]
fn officers_to_2_21() {
    let row = data("unsolved.tsv")
        .into_iter()
        .find(|r| r[0] == "0.6")
        .unwrap();
    assert!(row[5].contains("first at heap 1274955"));
    let j = solve_json(&[".6", "-n", "2^21"]);
    assert_eq!(j["max_value"], row[1].parse::<u64>().unwrap());
    assert_eq!(j["max_value_at"], 1274955);
    assert_eq!(j["engine"], "unrolled");
    assert_eq!(j["sparse"]["rare_count"], 1584);
    assert_eq!(
        j["sparse"]["changes"],
        serde_json::json!([]),
        "Officers keeps its space"
    );
    let generic = solve_json(&[".6", "-n", "2^21", "--engine", "generic"]);
    assert_eq!(generic["engine"], "generic");
    assert_eq!(
        generic["fnv1a64"], j["fnv1a64"],
        "the unrolled and generic loops agree to 2^21"
    );
}

/// Open games to 2^18 against tczajka's analyze: the same largest value and first heap, and,
/// where both end on the same mask, the same rare count and last rare heap.
#[test]
fn open_games_as_analyze_prints_them() {
    for r in data("analyze-2-18.tsv") {
        if r[0] == "0.76" {
            continue; // the slowest; the benchmark covers it
        }
        let j = solve_json(&[&r[0], "-n", "2^18"]);
        assert_eq!(j["max_value"], r[1].parse::<u64>().unwrap(), "{}", r[0]);
        assert_eq!(j["max_value_at"], r[2].parse::<u64>().unwrap(), "{}", r[0]);
        if j["sparse"]["mask"] == r[3].as_str() {
            assert_eq!(
                j["sparse"]["rare_count"],
                r[4].parse::<u64>().unwrap(),
                "{}",
                r[0]
            );
            assert_eq!(
                j["sparse"]["last_rare"],
                r[5].parse::<u64>().unwrap(),
                "{}",
                r[0]
            );
        }
    }
}

/// .14's space settles after discovery: the run switches to it (as tczajka's tables give it at
/// 2^18), once; started from a published space with --space, it never switches.
#[test]
fn a_space_that_settles_late_is_followed() {
    let j = solve_json(&[".14", "-n", "2^18"]);
    let s = &j["sparse"];
    assert_eq!((&s["kind"], &s["mask"]), (&"range".into(), &"0x7c".into()));
    assert_eq!(
        (&s["rare_count"], &s["last_rare"]),
        (&1896.into(), &178727.into())
    );
    let changes = s["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 1, "{changes:?}");
    assert!(changes[0]["heap"].as_u64().unwrap() > 1 << 15);
    assert_eq!(j["max_value"], 78);
    assert_eq!(j["max_value_at"], 181308);
    let given = solve_json(&[".14", "-n", "2^18", "--space", "range:0x7c"]);
    assert_eq!(given["sparse"]["changes"], serde_json::json!([]));
    assert_eq!(given["fnv1a64"], j["fnv1a64"]);
    // Every heap after discovery is in exactly one stretch, in order.
    let mut at = 1 << 15;
    for x in j["stretches"].as_array().unwrap() {
        assert_eq!(x["from"], at);
        at = x["to"].as_u64().unwrap();
    }
    assert_eq!(at, 1 << 18);
}

#[test]
fn engines_agree_on_officers() {
    let fnv =
        |engine: &str| solve_json(&[".6", "-n", "60000", "--engine", engine])["fnv1a64"].clone();
    let exact = fnv("exact");
    assert_eq!(fnv("generic"), exact);
    assert_eq!(fnv("auto"), exact);
    let one = solve_json(&[".6", "-n", "60000", "--threads", "1"]);
    assert_eq!(one["fnv1a64"], exact);
    assert_eq!(one["threads"], 1);
}

#[test]
fn json_contract() {
    let j = solve_json(&[".6", "-n", "1e4"]);
    for field in [
        "code",
        "n",
        "engine",
        "fnv1a64",
        "max_value",
        "max_value_at",
        "p_positions",
        "last_p_position",
        "sparse",
        "period",
        "seconds",
        "values_per_second",
        "verified",
    ] {
        assert!(j.get(field).is_some(), "missing field {field}");
    }
    assert_eq!(j["code"], "0.6");
    assert_eq!(j["n"], 10000);
    assert!(j["period"].is_null());
    let fnv = j["fnv1a64"].as_str().unwrap();
    assert!(
        fnv.len() == 16
            && fnv
                .bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
    );
}

#[test]
fn speculate_only_is_labelled() {
    let j = solve_json(&[".6", "-n", "50000", "--speculate-only"]);
    assert_eq!(j["verified"], false);
    let out = octal(&["solve", ".6", "-n", "50000", "--speculate-only"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("UNVERIFIED"));
    let verified = solve_json(&[".6", "-n", "50000"]);
    assert_eq!(verified["verified"], true);
    assert_eq!(
        j["fnv1a64"], verified["fnv1a64"],
        "Officers has no new rare value here"
    );
}

#[test]
fn canonical_codes() {
    for (given, canon) in [
        (".6", "0.6"),
        ("0.6", "0.6"),
        ("0.60", "0.6"),
        ("4.07", "4.07"),
        ("4.", "4.0"),
        ("4.0", "4.0"),
    ] {
        assert_eq!(solve_json(&[given, "-n", "100"])["code"], canon, "{given}");
    }
    let zero = solve_json(&["0.0", "-n", "50"]);
    assert_eq!(zero["max_value"], 0);
    assert_eq!(zero["p_positions"], 50);
}

#[test]
fn bad_input_is_one_line_and_status_2() {
    let long = format!(".{}", "1".repeat(33));
    let cases: Vec<Vec<&str>> = vec![
        vec!["solve", ""],
        vec!["solve", ".8"],
        vec!["solve", ".6f"],
        vec!["solve", "1.6"],
        vec!["solve", "6"],
        vec!["solve", "0.6.6"],
        vec!["solve", ". 6"],
        vec!["solve", &long],
        vec!["solve", ".6", "-n", "0"],
        vec!["solve", ".6", "-n", "-3"],
        vec!["solve", ".6", "-n", "1.5"],
        vec!["solve", ".6", "-n", "ten"],
        vec!["solve", ".6", "-n", "1e30"],
        vec!["solve", ".6", "-n", "1e14", "--keep", "all"],
        vec!["solve", ".6", "-n", "1e16"],
        vec!["solve", ".6", "--keep", "none"],
        vec![
            "solve", ".6", "-n", "2^20", "--keep", "2^16", "--values", "v.txt",
        ],
        vec!["solve", ".6", "--threads", "0"],
        vec!["solve", ".6", "--gpu", "--devices", "0"],
        vec!["solve", ".6", "--devices", "2"],
        vec!["solve", ".6", "--engine", "warp"],
        vec!["solve", ".07", "--engine", "generic", "-n", "100"],
        vec!["solve", ".6", "--space", "range"],
        vec!["solve", ".6", "--space", "range:0"],
        vec!["solve", ".6", "--space", "range:0x10000"],
        vec!["solve", ".6", "--space", "range:0xg"],
        vec!["solve", ".6", "--space", "diagonal:0x1"],
        vec!["solve", "0.4004", "--space", "domain:0x1"],
    ];
    for args in cases {
        let out = octal(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("octal: "), "{args:?}: {err}");
    }
    let hex = octal(&["solve", ".8"]);
    assert!(String::from_utf8_lossy(&hex.stderr).contains("hexadecimal games are not octal games"));
    // Every value of 10^14 heaps takes more disk than any machine has; holding only the first
    // and last values past --keep, a run goes to 2^50.
    let huge = octal(&["solve", ".6", "-n", "1e14", "--keep", "all"]);
    assert!(String::from_utf8_lossy(&huge.stderr).contains("at most 2^40 heaps are supported"));
    let huger = octal(&["solve", ".6", "-n", "1e16"]);
    assert!(String::from_utf8_lossy(&huger.stderr).contains("at most 2^50 heaps are supported"));
    // A game without a sparse space is refused by the speculative loop asked for by name (the
    // GPU engine takes it: exact marking).
    let out = octal(&["solve", ".07", "--engine", "generic", "-n", "100"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("has no sparse space, so the generic engine cannot run it"),
        "{err}"
    );
}

#[test]
fn unwritable_output_is_status_1() {
    // A values file, a run directory, a plot: one line naming the path, the cause said once.
    let one_line_cause_once = |out: &Output, path: &str| {
        assert_eq!(out.status.code(), Some(1), "{path}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(path), "{err}");
        let cause = err.rsplit(": ").next().unwrap().trim();
        assert_eq!(err.matches(cause).count(), 1, "the cause twice: {err}");
    };
    let file = tmp("unwritable-file");
    std::fs::write(&file, "").unwrap();
    let below = file.join("x");
    let below = below.to_str().unwrap();
    for (flag, path) in [
        ("--values", "/nonexistent-dir/values.txt"),
        ("--out", below),
        ("--values", below),
    ] {
        one_line_cause_once(&octal(&["solve", ".6", "-n", "100", flag, path]), path);
    }
    let run = tmp("unwritable-run");
    let out = octal(&["solve", ".6", "-n", "100", "--out", run.to_str().unwrap()]);
    assert!(out.status.success());
    let png = format!("{below}.png");
    one_line_cause_once(&octal(&["plot", run.to_str().unwrap(), "-o", &png]), &png);
    std::fs::remove_file(&file).unwrap();
    std::fs::remove_dir_all(&run).unwrap();
}

#[test]
fn human_summary() {
    let out = octal(&["solve", ".6", "-n", "30000"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for needle in [
        "0.6",
        "verified",
        "largest value",
        "P-positions",
        "range type, mask 0x1ee",
        "1584 rare values",
        "G(20627) = 277",
        "values/s",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in\n{text}");
    }
}

/// Every published period in known-periods.tsv is proved with exactly the published period,
/// preperiod and last exception (and, where given, the largest value).
#[test]
fn known_periods_are_proved() {
    for r in data("known-periods.tsv") {
        let code = &r[0];
        let j = solve_json(&[code, "--check-period"]);
        let p = &j["period"];
        assert_eq!(p["proved"], true, "{code}: {j}");
        assert_eq!(p["period"], r[1].parse::<u64>().unwrap(), "{code}");
        assert_eq!(p["preperiod"], r[2].parse::<u64>().unwrap(), "{code}");
        assert_eq!(p["last_exception"], r[3].parse::<i64>().unwrap(), "{code}");
        assert_eq!(
            p["checked_to"], j["n"],
            "{code}: the run stops at the proof"
        );
        if !r[4].is_empty() {
            assert_eq!(j["max_value"], r[4].parse::<u64>().unwrap(), "{code}");
        }
    }
}

#[test]
fn period_flags() {
    // Without --check-period a run reports a period only when its values prove one.
    let short = solve_json(&[".07", "-n", "100"]);
    assert!(short["period"].is_null());
    assert_eq!(short["searched_to"], 100);
    let long = solve_json(&[".07", "-n", "1000"]);
    assert_eq!(long["period"]["period"], 34);
    assert_eq!(long["n"], 1000);
    // Officers: no period in a short search; that is not an error.
    let officers = solve_json(&[".6", "--check-period", "--max-n", "50000"]);
    assert!(officers["period"].is_null());
    assert_eq!(officers["searched_to"], 50000);
    for bad in [
        vec!["--max-n", "0"],
        vec!["--max-n", "many"],
        vec!["--max-n", "1e16"],
    ] {
        let mut args = vec!["solve", ".6", "--check-period"];
        args.extend(bad);
        let out = octal(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
    }
    // A game whose rare heaps recur with its period is proved as soon as the period shows,
    // however short the budget (.15: period 10, rare values in every period).
    let short_budget = solve_json(&[".15", "--check-period", "--max-n", "1024"]);
    assert_eq!(short_budget["period"]["period"], 10);
    assert_eq!(short_budget["n"], 24);
    let human = octal(&["solve", ".16", "--check-period"]);
    let text = String::from_utf8_lossy(&human.stdout);
    assert!(text.contains("149459, preperiod 105351 (last exception 105350): proved by the Octal Periodicity Theorem"), "{text}");
}

/// `octal` with `CUDA_VISIBLE_DEVICES` set to `visible` (None: unset).
fn octal_seeing(visible: Option<&str>, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_octal"));
    match visible {
        Some(v) => command.env("CUDA_VISIBLE_DEVICES", v),
        None => command.env_remove("CUDA_VISIBLE_DEVICES"),
    };
    command.args(args).output().expect("the octal binary runs")
}

/// Without a GPU (no driver, no device or no NVRTC), `gpu-info --found`, `--gpu` and
/// `bench --gpu` fail with the one line `gpu-info` gives and status 1. On a machine with a GPU,
/// `CUDA_VISIBLE_DEVICES=""` hides it, so the test checks the same there.
#[test]
fn gpu_without_a_gpu_is_one_line_and_status_1() {
    let no_gpu = |args: &[&str]| octal_seeing(Some(""), args);
    let info = no_gpu(&["gpu-info"]);
    let why = String::from_utf8_lossy(&info.stderr).into_owned();
    assert_eq!(info.status.code(), Some(1), "{why}");
    assert_eq!(why.lines().count(), 1, "{why}");
    for args in [
        vec!["gpu-info", "--found"],
        vec!["solve", ".6", "-n", "1e5", "--gpu"],
        vec!["solve", ".6", "-n", "1e5", "--engine", "gpu", "--json"],
        vec!["bench", ".6", "-n", "2^20", "--gpu"],
    ] {
        let out = no_gpu(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert_eq!(err, why, "{args:?}");
    }
    // A run directory the failed run made is not left behind.
    let run = tmp("solve-no-gpu");
    let out = no_gpu(&[
        "solve",
        ".6",
        "-n",
        "1e5",
        "--gpu",
        "--out",
        run.to_str().unwrap(),
    ]);
    assert_eq!(String::from_utf8_lossy(&out.stderr), why);
    assert!(!run.exists(), "{} is left behind", run.display());
    // A survey on the GPU fails the same way, naming the game it was on; so does a survey on
    // several GPUs, whose workers see none either.
    for (name, devices) in [("survey-no-gpu", "1"), ("survey-devices-no-gpu", "2")] {
        let dir = tmp(name);
        let out = no_gpu(&[
            "survey",
            "--digits",
            "1",
            "--gpu",
            "--devices",
            devices,
            "--out",
            dir.to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.ends_with(why.trim_start_matches("octal: ")), "{err}");
    }
}

/// The UUID of the first GPU the kernel driver lists, as `nvidia-smi -L` writes it.
fn first_gpu_uuid() -> String {
    let gpus = std::fs::read_dir("/proc/driver/nvidia/gpus").expect("the kernel driver lists GPUs");
    let mut uuids: Vec<String> = gpus
        .filter_map(|gpu| std::fs::read_to_string(gpu.ok()?.path().join("information")).ok())
        .filter_map(|info| {
            info.lines()
                .find_map(|l| l.strip_prefix("GPU UUID:").map(|u| u.trim().to_string()))
        })
        .collect();
    uuids.sort();
    uuids.into_iter().next().expect("a GPU UUID")
}

/// The kernel driver's files confirm device 0 for a run only where the driver finds it: for each
/// `CUDA_VISIBLE_DEVICES` a user might set, the driver's word (`octal gpu-info --found`) beside
/// theirs. On a host whose GPUs have no MIG instances, the plain settings (unset, an index, a
/// full UUID) are confirmed by the files alone.
#[cfg(feature = "gpu")]
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn the_kernel_drivers_files_confirm_device_0_only_where_the_driver_finds_it() {
    let uuid = first_gpu_uuid();
    let (prefix, lower) = (uuid[..12].to_string(), uuid.to_ascii_lowercase());
    let plain = [None, Some("0"), Some("0,1"), Some(uuid.as_str())];
    let others = [
        Some(""),
        Some("-1"),
        Some("99"),
        Some("99,0"),
        Some(prefix.as_str()),
        Some(lower.as_str()),
        Some(" 0"),
        Some("GPU-00000000-0000-0000-0000-000000000000"),
    ];
    for visible in plain.into_iter().chain(others) {
        let driver = octal_seeing(visible, &["gpu-info", "--found"])
            .status
            .success();
        let files = octal_gpu::shown_under(Path::new("/"), visible);
        assert!(
            driver || !files,
            "{visible:?}: the files show device 0, the driver has none"
        );
        if plain.contains(&visible) {
            assert!(
                files && driver,
                "{visible:?}: files {files}, driver {driver}"
            );
        }
    }
}

/// On a machine with a GPU, `gpu-info --found` says the device is there, and a `--gpu` run the
/// host's cores end before the device could help succeeds with the CPU's values and says the
/// device computed nothing. It confirms the device without initialising the driver itself: from
/// the kernel driver's files where `CUDA_VISIBLE_DEVICES` is unset, and from `gpu-info --found`
/// started beside it where a UUID prefix names the device (left to the driver).
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn gpu_found_confirms_a_run_the_host_ends_first() {
    let found = octal(&["gpu-info", "--found"]);
    assert!(
        found.status.success(),
        "{}",
        String::from_utf8_lossy(&found.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&found.stdout), "device 0 found\n");
    let prefix = first_gpu_uuid()[..12].to_string();
    for visible in [None, Some(prefix.as_str())] {
        for code in [".1777", ".6"] {
            let out = octal_seeing(visible, &["solve", code, "-n", "1e5", "--gpu", "--json"]);
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "{code} {visible:?}: {err}");
            assert!(err.contains("the device computed nothing"), "{code}: {err}");
            let gpu: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
            assert_eq!(
                gpu["fnv1a64"],
                solve_json(&[code, "-n", "1e5"])["fnv1a64"],
                "{code}"
            );
        }
    }
}

/// `bench` below discovery's 2^15 heaps discovers the space on those heaps, as `solve` does (it
/// once said Officers had no sparse space), and its checked values are the solver's.
#[test]
fn bench_below_discovery_size_runs() {
    let path = tmp("bench-below-discovery.json");
    let out = octal(&[
        "bench",
        ".6",
        "-n",
        "1000",
        "--json",
        path.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    std::fs::remove_file(&path).unwrap();
    let rows = doc["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["n"], 1000);
    assert_eq!(
        rows[0]["fnv1a64"],
        solve_json(&[".6", "-n", "1000"])["fnv1a64"]
    );
}

/// The statistics at every power of two in the JSON are those of the run of that many heaps:
/// largest value and its first heap, rare count and last rare heap, fnv1a64.
#[test]
fn statistics_at_powers_of_two_are_those_of_the_shorter_runs() {
    let whole = solve_json(&[".6", "-n", "100000"]);
    let powers = whole["powers_of_two"].as_array().expect("powers_of_two");
    let ns: Vec<u64> = powers.iter().map(|p| p["n"].as_u64().unwrap()).collect();
    assert_eq!(ns, (10..=16).map(|k| 1u64 << k).collect::<Vec<_>>());
    for p in powers {
        let n = p["n"].as_u64().unwrap().to_string();
        let short = solve_json(&[".6", "-n", &n]);
        assert_eq!(p["fnv1a64"], short["fnv1a64"], "n = {n}");
        assert_eq!(p["max_value"], short["max_value"], "n = {n}");
        assert_eq!(p["max_value_at"], short["max_value_at"], "n = {n}");
        assert_eq!(p["rare_count"], short["sparse"]["rare_count"], "n = {n}");
        assert_eq!(p["last_rare"], short["sparse"]["last_rare"], "n = {n}");
    }
}

/// The flags several commands share are spelled and described the same in each command's help:
/// `-q, --quiet` wherever a progress bar shows, `--threads <T>` wherever values are computed,
/// `--json` wherever a summary prints, and `--gpu`, `--out <DIR>`, `-n <N>` and `--max-n <N>`
/// wherever a command takes them.
#[test]
fn shared_flags_mean_one_thing_everywhere() {
    // Each command's short help: flag (its spelling without the value) -> (value, help text).
    let help = |cmd: &str| -> std::collections::BTreeMap<String, (String, String)> {
        let out = octal(&[cmd, "-h"]);
        assert!(out.status.success(), "{cmd} -h");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::trim)
            .filter(|l| l.starts_with('-'))
            .map(|l| {
                let (flag, text) = l.split_once("  ").unwrap_or((l, ""));
                let (spelling, value) = match flag.split_once(' ') {
                    Some((s, v)) => (s.to_string(), v.to_string()),
                    None => (flag.to_string(), String::new()),
                };
                // A default is the command's own.
                let text = text.trim();
                let text = text.split(" [default:").next().unwrap_or(text);
                (spelling, (value, text.to_string()))
            })
            .collect()
    };
    let commands = [
        "solve", "resume", "survey", "bench", "check", "restore", "status",
    ];
    let helps: Vec<_> = commands.iter().map(|c| (*c, help(c))).collect();
    let has = |cmd: &str, flag: &str| helps.iter().any(|(c, h)| *c == cmd && h.contains_key(flag));
    for cmd in ["solve", "resume", "survey", "restore"] {
        assert!(has(cmd, "-q,"), "{cmd} takes -q, --quiet");
    }
    for cmd in ["solve", "resume", "survey", "bench", "check", "restore"] {
        assert!(has(cmd, "--threads"), "{cmd} takes --threads");
    }
    for cmd in ["solve", "resume", "survey", "bench", "check", "status"] {
        assert!(has(cmd, "--json"), "{cmd} takes --json");
    }
    for cmd in ["solve", "resume", "survey", "bench", "restore"] {
        assert!(has(cmd, "--gpu"), "{cmd} takes --gpu");
    }
    // Every shared flag: one spelling of its value and one help text wherever it appears.
    for flag in [
        "-q,",
        "--threads",
        "--json",
        "--gpu",
        "--out",
        "-n",
        "--max-n",
    ] {
        let seen: Vec<(&str, &(String, String))> = helps
            .iter()
            .filter_map(|(c, h)| h.get(flag).map(|v| (*c, v)))
            .collect();
        assert!(seen.len() >= 2, "{flag} is shared: {seen:?}");
        let texts: std::collections::BTreeSet<&str> =
            seen.iter().map(|(_, (_, t))| t.as_str()).collect();
        let values: std::collections::BTreeSet<&str> = seen
            .iter()
            .map(|(_, (v, _))| v.trim_start_matches('[').trim_end_matches(']'))
            .collect();
        assert_eq!(texts.len(), 1, "{flag}: one meaning: {seen:?}");
        assert!(
            values.len() == 1 || flag == "--json",
            "{flag}: one spelling: {seen:?}"
        );
    }
    // The survey takes -q as solve does.
    let out = octal(&["survey", "-q", "--digits", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--digits 0"));
}

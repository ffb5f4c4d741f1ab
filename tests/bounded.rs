//! Runs past `--keep` heaps, which hold only their front, their tail, their rare table and their
//! statistics: they equal runs that keep every value (every power's statistics, the fnv1a64
//! chain, the values kept), survive SIGKILL and a move to another directory through a
//! checkpoint, stop with their state saved where a proof needs more than they hold, and refuse
//! damaged checkpoints.

mod common;

use common::{data, fresh_dir, json, octal, run_and_kill, s, Rng};
use octal_core::exact;
use serde_json::Value;
use std::path::Path;
use std::process::Output;
use std::time::Duration;

/// What two runs of the same heaps must agree on, wherever they stopped and whatever they kept.
fn facts(j: &Value) -> Vec<Value> {
    [
        "code",
        "n",
        "fnv1a64",
        "max_value",
        "max_value_at",
        "p_positions",
        "last_p_position",
        "sparse",
        "powers_of_two",
    ]
    .iter()
    .map(|k| j[k].clone())
    .collect()
}

/// `octal solve CODE -n N --keep 2^16 --out DIR -q` with the flags `more`.
fn past_2_16(code: &str, n: &str, dir: &Path, more: &[&str]) -> Output {
    let mut args = vec![
        "solve",
        code,
        "-n",
        n,
        "--keep",
        "2^16",
        "--out",
        s(dir),
        "-q",
    ];
    args.extend_from_slice(more);
    octal(&args)
}

/// `octal checkpoint DIR -o FILE` with the flags `more`, which must succeed.
fn checkpoint(dir: &Path, file: &Path, more: &[&str]) {
    let mut args = vec!["checkpoint", s(dir), "-o", s(file)];
    args.extend_from_slice(more);
    assert!(
        octal(&args).status.success(),
        "checkpoint {}",
        dir.display()
    );
}

/// `octal resume FILE --out DIR -n N --json -q` with the flags `more`.
fn resume_into(file: &Path, dir: &Path, n: &str, more: &[&str]) -> Output {
    let mut args = vec!["resume", s(file), "--out", s(dir), "-n", n, "--json", "-q"];
    args.extend_from_slice(more);
    octal(&args)
}

/// The run that keeps every value, as JSON.
fn kept_all(code: &str, n: &str) -> Value {
    json(&octal(&[
        "solve", code, "-n", n, "--keep", "all", "--json", "-q",
    ]))
}

/// A run past `--keep` equals the run that keeps every value: every fact, every power's
/// histogram and segment fingerprint, and the values its run directory keeps; on a game whose
/// space holds from the start (.161) and on Officers, whose proofs at heaps 1201951 and 1697097
/// read splits past the front the run starts with (it grows the front).
#[test]
fn a_bounded_run_equals_one_that_keeps_every_value() {
    for (code, n) in [(".161", "2^20"), (".6", "2^21")] {
        let dir = fresh_dir(&format!("equal{code}"));
        let out = past_2_16(code, n, &dir, &["--json"]);
        let bounded = json(&out);
        let grown = String::from_utf8_lossy(&out.stderr)
            .matches("front, which is now")
            .count();
        assert_eq!(grown > 0, code == ".6", "{code}");
        let front = bounded["bounded"]["front"].as_u64().unwrap();
        assert_eq!(front > 1 << 16, grown > 0, "{code}: front {front}");
        let all = kept_all(code, n);
        assert_eq!(facts(&bounded), facts(&all), "{code}");
        assert_eq!(bounded["bounded"]["from"], 1 << 16, "{code}");
        assert!(all["bounded"].is_null());
        let powers = bounded["powers_of_two"].as_array().unwrap();
        assert!(powers
            .iter()
            .all(|p| p["histogram"].as_array().is_some_and(|h| !h.is_empty())));
        // The values kept are the first 2^16, and the state is small.
        let out = octal(&["export", s(&dir), "--format", "bin"]);
        assert!(out.status.success());
        let rules = code.parse::<octal_core::Code>().unwrap().rules();
        let want = exact::values(&rules, 1 << 12).unwrap();
        let got: Vec<u16> = out
            .stdout
            .chunks(2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .collect();
        assert_eq!(got.len(), 1 << 16, "{code}");
        assert_eq!(got[..1 << 12], want[..], "{code}");
        let state = std::fs::metadata(dir.join("state.bin")).unwrap().len();
        assert!(state < 4 << 20, "{code}: state.bin of {state} bytes");
        // Past the values kept, export says what it can serve; the histogram at a power past
        // them is the state's, equal to the one-piece run's.
        let past = octal(&["export", s(&dir), "--from", "0", "--to", "2^17"]);
        assert_eq!(past.status.code(), Some(2));
        assert!(
            String::from_utf8_lossy(&past.stderr).contains("keeps the values of heaps 0 .. 65536")
        );
        let out = octal(&["export", s(&dir), "--format", "frequencies", "--at", "2^19"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let at = powers.iter().find(|p| p["n"] == 1 << 19).unwrap();
        let lines: Vec<String> = at["histogram"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| format!("{} {}", e[0], e[1]))
            .collect();
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            lines.join("\n") + "\n"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// Past `--keep` the runs of `tests/data/cpu-2-22.tsv` whose rare heaps all lie before it give
/// the recorded statistics (fnv1a64, largest value, space, rare count and last rare heap).
#[test]
fn bounded_runs_give_the_recorded_statistics() {
    let keep = 1 << 19;
    let mut ran = 0;
    for row in data("cpu-2-22.tsv") {
        let last_rare: usize = row[7].parse().unwrap();
        if last_rare >= keep {
            continue;
        }
        let j = json(&octal(&[
            "solve", &row[0], "-n", &row[1], "--keep", "2^19", "--json", "-q",
        ]));
        assert_eq!(j["bounded"]["from"], keep, "{}", row[0]);
        let got = [
            &j["fnv1a64"],
            &j["max_value"],
            &j["max_value_at"],
            &j["sparse"]["mask"],
            &j["sparse"]["rare_count"],
            &j["sparse"]["last_rare"],
        ]
        .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string));
        let want = [2, 3, 4, 5, 6, 7].map(|k| row[k].clone());
        assert_eq!(got, want, "{}", row[0]);
        ran += 1;
    }
    assert!(ran >= 2, "{ran} recorded runs");
}

/// The histograms at every power of two are the exact engine's counts of each value.
#[test]
fn histograms_are_the_exact_counts() {
    for code in [".161", ".114", ".004"] {
        let j = kept_all(code, "2^13");
        let rules = code.parse::<octal_core::Code>().unwrap().rules();
        let g = exact::values(&rules, 1 << 13).unwrap();
        for p in j["powers_of_two"].as_array().unwrap() {
            let n = p["n"].as_u64().unwrap() as usize;
            let mut counts = std::collections::BTreeMap::new();
            for &v in &g[..n] {
                *counts.entry(v).or_insert(0u64) += 1;
            }
            let want: Vec<Value> = counts
                .iter()
                .map(|(v, c)| serde_json::json!([v, c]))
                .collect();
            assert_eq!(p["histogram"].as_array().unwrap(), &want, "{code} at {n}");
        }
    }
}

/// A game whose rare values keep coming (.114) and one without a sparse space (.004) stop at
/// `--keep` with one line that says so (exit 1), their run directory holding the values of the
/// run that keeps every value up to there.
#[test]
fn a_game_that_needs_every_value_stops_at_keep() {
    for (code, why) in [
        (".114", "rare values keep coming"),
        (".004", "no sparse space makes its sparse heaps rare"),
    ] {
        let dir = fresh_dir(&format!("needs{code}"));
        let out = past_2_16(code, "2^18", &dir, &[]);
        assert_eq!(out.status.code(), Some(1), "{code}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(why) && err.contains("--keep all"),
            "{code}: {err}"
        );
        let status = json(&octal(&["status", s(&dir), "--json"]));
        assert_eq!(status["n"], 1 << 16, "{code}");
        let all = kept_all(code, "2^16");
        assert_eq!(status["fnv1a64"], all["fnv1a64"], "{code}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// Killed at random moments past `--keep` and resumed, a run equals the one that never
/// stopped; so does one carried by its checkpoint to another directory and resumed there, and
/// `octal status` reads the checkpoint as it reads a run directory.
#[test]
fn killed_and_carried_runs_equal_the_run_that_never_stopped() {
    let mut rng = Rng::from_clock();
    let seed = rng.seed();
    let straight = kept_all(".161", "2^22");
    let dir = fresh_dir("killed");
    let args = [
        "solve",
        ".161",
        "-n",
        "2^22",
        "--keep",
        "2^16",
        "--out",
        s(&dir),
        "--checkpoint-secs",
        "0.2",
        "-q",
    ];
    run_and_kill(&args, Duration::from_millis(600 + rng.below(800)));
    for _ in 0..3 {
        let resume = ["resume", s(&dir), "--checkpoint-secs", "0.2", "-q"];
        run_and_kill(&resume, Duration::from_millis(300 + rng.below(700)));
    }
    let status = json(&octal(&["status", s(&dir), "--json"]));
    let at = status["n"].as_u64().unwrap();
    assert!(
        at >= 1 << 16,
        "seed {seed}: the run went past --keep ({at})"
    );
    let resumed = json(&octal(&["resume", s(&dir), "--json", "-q"]));
    assert_eq!(facts(&resumed), facts(&straight), "seed {seed}");
    // A checkpoint of a run stopped half way, moved, resumed in a new directory.
    let half = fresh_dir("half");
    json(&past_2_16(".161", "2^21", &half, &["--json"]));
    let file = fresh_dir("half.state");
    checkpoint(&half, &file, &[]);
    std::fs::remove_dir_all(&half).unwrap();
    let moved = fresh_dir("moved.state");
    std::fs::rename(&file, &moved).unwrap();
    let status = json(&octal(&["status", s(&moved), "--json"]));
    assert_eq!(status["n"], 1 << 21);
    assert_eq!(status["run"]["bounded"]["keep"], 1 << 16);
    let kept_half = kept_all(".161", "2^21");
    // The status of a checkpoint lists no changes of space (a run's report lists its own).
    assert_eq!(facts(&status)[..7], facts(&kept_half)[..7]);
    assert_eq!(status["powers_of_two"], kept_half["powers_of_two"]);
    assert_eq!(
        status["sparse"]["rare_count"],
        kept_half["sparse"]["rare_count"]
    );
    let again = fresh_dir("again");
    let carried = json(&resume_into(&moved, &again, "2^22", &[]));
    assert_eq!(facts(&carried), facts(&straight));
    // A run that kept every value carries the same way.
    let whole = fresh_dir("whole");
    json(&octal(&[
        "solve",
        ".161",
        "-n",
        "2^20",
        "--keep",
        "all",
        "--out",
        s(&whole),
        "--json",
        "-q",
    ]));
    checkpoint(&whole, &file, &[]);
    let from_whole = fresh_dir("from-whole");
    let carried = json(&resume_into(&file, &from_whole, "2^22", &[]));
    assert_eq!(facts(&carried), facts(&straight));
    for d in [&dir, &again, &whole, &from_whole] {
        std::fs::remove_dir_all(d).unwrap();
    }
    for f in [&moved, &file] {
        std::fs::remove_file(f).unwrap();
    }
}

/// A front forced too small stops the run at the heap whose proof needs more, with its state
/// saved and one line naming --front; resumed with a larger front (recomputed and checked), the
/// run ends as the run that never stopped.
#[test]
fn a_front_too_small_stops_and_resumes_with_a_larger_one() {
    let dir = fresh_dir("front");
    let out = past_2_16(".161", "2^20", &dir, &["--front", "40"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("past the front of 40 heaps") && err.contains("--front N"),
        "{err}"
    );
    let stopped = json(&octal(&["status", s(&dir), "--json"]));
    assert!(stopped["n"].as_u64().unwrap() >= 1 << 16);
    let resumed = json(&octal(&[
        "resume",
        s(&dir),
        "--front",
        "2^17",
        "--json",
        "-q",
    ]));
    assert_eq!(facts(&resumed), facts(&kept_all(".161", "2^20")));
    // A tail shorter than the reads of a proof is refused before anything runs.
    let out = octal(&[
        "solve", ".161", "-n", "2^20", "--keep", "2^16", "--tail", "100", "-q",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--tail 100"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Officers past `--keep 2^20` grows its front at heap 1697097: a run with a run directory
/// reads the heaps it needs from the directory's values.bin, a run without one computes them
/// again; both end as the run that keeps every value.
#[test]
fn a_growing_front_is_read_where_the_run_directory_keeps_it() {
    let dir = fresh_dir("front-read");
    let all = facts(&kept_all(".6", "2^21"));
    for out_dir in [Some(&dir), None] {
        let mut args = vec![
            "solve", ".6", "-n", "2^21", "--keep", "2^20", "--json", "-q",
        ];
        if let Some(d) = out_dir {
            args.extend(["--out", s(d)]);
        }
        let out = octal(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        let how = if out_dir.is_some() {
            "read from the run directory's values.bin"
        } else {
            "computed again"
        };
        assert!(
            err.contains(&format!("heap 1697097: its proof needs a split past the run's front, which is now its first 524288 values ({how}")),
            "{err}"
        );
        assert_eq!(facts(&json(&out)), all);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A checkpoint is compact unless --whole is given: the first heaps of its front and the
/// start of its tail, a fraction of the whole one. Resumed, the heaps it left out are computed
/// again and checked: it goes on as the whole checkpoint does, and `octal check --rare` reads it
/// as it reads the whole one. One whose rare table lacks a rare heap (its fingerprints made
/// consistent) computes other values and is refused with one line (exit 2).
#[test]
fn a_compact_checkpoint_goes_on_as_the_whole_one() {
    let dir = fresh_dir("compact-src");
    json(&past_2_16(".161", "2^21", &dir, &["--json"]));
    let compact = fresh_dir("compact.state");
    let whole = fresh_dir("whole.state");
    checkpoint(&dir, &compact, &[]);
    checkpoint(&dir, &whole, &["--whole"]);
    std::fs::remove_dir_all(&dir).unwrap();
    let read = octal_store::state::read(&compact).unwrap();
    let (front, tail) = read.lacks().expect("a compact state");
    assert!(!front.is_empty() && !tail.is_empty(), "{front:?} {tail:?}");
    let size = |p: &Path| std::fs::metadata(p).unwrap().len();
    assert!(
        5 * size(&compact) < size(&whole),
        "{} against {}",
        size(&compact),
        size(&whole)
    );
    let straight = facts(&kept_all(".161", "2^22"));
    for file in [&compact, &whole] {
        let again = fresh_dir("compact-again");
        let on = json(&resume_into(file, &again, "2^22", &[]));
        assert_eq!(facts(&on), straight, "{}", file.display());
        std::fs::remove_dir_all(&again).unwrap();
    }
    let checked = |file: &Path| {
        let mut j = json(&octal(&["check", s(file), "--rare", "--json"]));
        j["check"]["checkpoint"].take();
        j
    };
    assert_eq!(checked(&compact), checked(&whole));

    let mut bad = octal_store::state::read(&whole).unwrap();
    let stored = read.header.stored.as_ref().unwrap();
    let last = bad.table.last_heap();
    bad.table.set(last, None);
    let file = fresh_dir("lacking.state");
    bad.save_compact(&file, stored.front, stored.tail).unwrap();
    let out_dir = fresh_dir("lacking-out");
    let out = octal(&["resume", s(&file), "--out", s(&out_dir), "-q"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("differ from the run's") && err.lines().count() == 1,
        "{err}"
    );
    assert!(!out_dir.exists(), "nothing written");

    // Without its tail (as a checkpoint holds none where its tail would be too long), `check`
    // computes the front alone and ties it to the run by its fingerprint at 2^16 and its rare
    // heaps: the same rare heaps recomputed, and the table that lacks one refused.
    let tailless = fresh_dir("tailless.state");
    (octal_store::state::read(&whole).unwrap())
        .save_compact(&tailless, stored.front, 0)
        .unwrap();
    let mut front_only = checked(&tailless);
    assert_eq!(front_only["check"]["tail_recomputed"], false);
    front_only["check"]["tail_recomputed"] = true.into();
    assert_eq!(front_only, checked(&compact));
    let mut bad = octal_store::state::read(&whole).unwrap();
    bad.table.set(last, None);
    bad.save_compact(&file, stored.front, 0).unwrap();
    let out = octal(&["check", s(&file), "--rare"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("the rare table differs from the rare heaps of the front computed again, first at heap {last}"))
            && err.lines().count() == 1,
        "{err}"
    );
    for f in [&compact, &whole, &file, &tailless] {
        std::fs::remove_file(f).unwrap();
    }
}

/// .034 finds a rare heap at 374473: the heaps after it read 374477 heaps back. A checkpoint at
/// 2^20 cut to a tail of 2^17 heaps (as one written before the run grew its tail would be)
/// goes on: the run computes its values again, checks them against the ones it holds, grows its
/// tail and ends as the run that keeps every value.
#[test]
fn a_tail_short_of_a_rare_heaps_reads_grows_from_values_computed_again() {
    let dir = fresh_dir("short-tail-src");
    let at = json(&octal(&[
        "solve",
        ".034",
        "-n",
        "2^20",
        "--keep",
        "2^17",
        "--out",
        s(&dir),
        "--json",
        "-q",
    ]));
    assert_eq!(at["sparse"]["last_rare"], 374473);
    let whole = fresh_dir("short-tail-whole.state");
    checkpoint(&dir, &whole, &["--whole"]);
    std::fs::remove_dir_all(&dir).unwrap();
    let mut state = octal_store::state::read(&whole).unwrap();
    let short = 1 << 17;
    let cut = state.tail.len() - short;
    state.tail.drain(..cut);
    state.header.tail_from += cut;
    state.header.tail = short;
    let file = fresh_dir("short-tail.state");
    state.save(&file).unwrap();
    let again = fresh_dir("short-tail-again");
    let out = resume_into(&file, &again, "2^21", &[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("heap 1048576: a rare heap's options reach back past the run's tail, which grows to 374477 heaps (the values it no longer held computed again, equal to the ones it held)"),
        "{err}"
    );
    assert_eq!(facts(&json(&out)), facts(&kept_all(".034", "2^21")));
    std::fs::remove_dir_all(&again).unwrap();
    for f in [&whole, &file] {
        std::fs::remove_file(f).unwrap();
    }
}

/// A damaged checkpoint, one of another version, a file that is none, and a run directory
/// whose state is another game's are refused with one line (exit 2), nothing written.
#[test]
fn bad_checkpoints_are_refused() {
    let dir = fresh_dir("bad-src");
    json(&past_2_16(".161", "2^18", &dir, &["--json"]));
    let good = fresh_dir("good.state");
    checkpoint(&dir, &good, &[]);
    let bytes = std::fs::read(&good).unwrap();
    let mut flipped = bytes.clone();
    *flipped.last_mut().unwrap() ^= 1;
    let mut version = bytes.clone();
    version[11] = b'9';
    for (name, content, says) in [
        ("flipped", flipped, "damaged"),
        ("version", version, "version"),
        ("text", b"not a checkpoint\n".to_vec(), "not a checkpoint"),
    ] {
        let file = fresh_dir(name);
        std::fs::write(&file, content).unwrap();
        let out_dir = fresh_dir(&format!("{name}-out"));
        let out = octal(&["resume", s(&file), "--out", s(&out_dir), "-q"]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(says) && err.lines().count() == 1,
            "{name}: {err}"
        );
        assert!(!out_dir.exists(), "{name}: nothing written");
    }
    // The state of another game in a run directory.
    let other = fresh_dir("bad-other");
    json(&past_2_16(".6", "2^18", &other, &["--json"]));
    std::fs::copy(dir.join("state.bin"), other.join("state.bin")).unwrap();
    let out = octal(&["resume", s(&other), "-n", "2^19", "-q"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("another game"));
    for d in [&dir, &other] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

/// On the GPU a run past `--keep` equals the CPU's run that keeps every value, on Officers and
/// on .161 (the device keeps the run's front as its first heaps and the tail in its ring), and
/// goes on from a checkpoint on the device.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn a_bounded_gpu_run_equals_one_that_keeps_every_value() {
    let info = octal(&["gpu-info"]);
    assert!(
        info.status.success(),
        "no GPU: {}",
        String::from_utf8_lossy(&info.stderr).trim()
    );
    for code in [".6", ".161"] {
        let dir = fresh_dir(&format!("gpu{code}"));
        let half = json(&octal(&[
            "solve",
            code,
            "-n",
            "2^24",
            "--keep",
            "2^20",
            "--gpu",
            "--out",
            s(&dir),
            "--json",
            "-q",
        ]));
        assert_eq!(half["engine"], "gpu", "{code}");
        let all = facts(&kept_all(code, "2^24"));
        assert_eq!(facts(&half), all, "{code}");
        // Without a run directory, the front Officers grows to is computed again on the device.
        let out = octal(&[
            "solve", code, "-n", "2^24", "--keep", "2^20", "--gpu", "--json", "-q",
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            err.contains("(computed again"),
            code == ".6",
            "{code}: {err}"
        );
        assert_eq!(facts(&json(&out)), all, "{code}");
        let file = fresh_dir(&format!("gpu{code}.state"));
        checkpoint(&dir, &file, &[]);
        let again = fresh_dir(&format!("gpu{code}-again"));
        let on = json(&resume_into(&file, &again, "2^25", &["--gpu"]));
        assert_eq!(facts(&on), facts(&kept_all(code, "2^25")), "{code}");
        std::fs::remove_dir_all(&dir).unwrap();
        std::fs::remove_dir_all(&again).unwrap();
        std::fs::remove_file(&file).unwrap();
    }
}

/// On the GPU, .034 past `--keep 2^16` finds rare heaps at 71722 and 374473, far past its front
/// and tail: the run ends as the CPU's run that keeps every value, and its checkpoint holds what
/// the heaps after them read, so that the CPU goes on from it to the values of that run.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn a_bounded_gpu_run_keeps_what_a_late_rare_heap_reads() {
    let dir = fresh_dir("gpu-late-rare");
    let at = json(&past_2_16(".034", "2^20", &dir, &["--gpu", "--json"]));
    assert_eq!(at["engine"], "gpu");
    assert_eq!(facts(&at), facts(&kept_all(".034", "2^20")));
    let file = fresh_dir("gpu-late-rare.state");
    checkpoint(&dir, &file, &[]);
    let again = fresh_dir("gpu-late-rare-again");
    let on = json(&resume_into(&file, &again, "2^21", &[]));
    assert_eq!(facts(&on), facts(&kept_all(".034", "2^21")));
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&again).unwrap();
    std::fs::remove_file(&file).unwrap();
}

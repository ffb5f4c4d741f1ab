//! `octal survey` end to end: the three-digit survey from nothing but the codes against
//! tczajka's published tables (TrivialGames, SolvedGames, GameLookup, his errata), the published
//! periods of tests/data, and against itself (sharded and merged, killed and resumed, bad input).

mod common;

use common::{data, octal, tmp};
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

fn ok(args: &[&str]) -> Output {
    let out = octal(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// `name` in the scratch folder, empty.
fn fresh(name: &str) -> PathBuf {
    let path = tmp(name);
    let _ = std::fs::remove_dir_all(&path);
    path
}

/// Asserts that `args` are refused as bad input: status 2, one line.
fn refused(args: &[&str], why: &str) {
    let out = octal(args);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{why}: {err}");
    assert_eq!(err.trim().lines().count(), 1, "{why}: {err}");
    assert!(err.starts_with("octal: "), "{why}: {err}");
}

/// The budget of the tests' three-digit survey: every period that shows within 1000 heaps, and
/// the harder ones whose proof needs at most this many heaps (no game goes on past it).
const BUDGET: usize = 1 << 14;

/// The three-digit survey, computed once for all the tests that read it.
fn survey() -> &'static Survey {
    static SURVEY: OnceLock<Survey> = OnceLock::new();
    SURVEY.get_or_init(|| {
        let dir = fresh("three");
        let budget = BUDGET.to_string();
        ok(&[
            "survey",
            "--digits",
            "3",
            "--max-n",
            &budget,
            "--grow-to",
            &budget,
            "--out",
            dir.to_str().unwrap(),
            "--quiet",
        ]);
        Survey::read(&dir)
    })
}

/// A survey's JSON table, indexed.
struct Survey {
    dir: PathBuf,
    json: Value,
    /// code -> (class, shift, proof)
    lookup: HashMap<String, (String, i64, String)>,
    classes: HashMap<String, Value>,
}

impl Survey {
    fn read(dir: &Path) -> Survey {
        let json: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("survey.json")).unwrap())
                .unwrap();
        let lookup = json["lookup"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    e["code"].as_str().unwrap().to_string(),
                    (
                        e["class"].as_str().unwrap().to_string(),
                        e["shift"].as_i64().unwrap(),
                        e["proof"].as_str().unwrap().to_string(),
                    ),
                )
            })
            .collect();
        let classes = json["classes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| (c["class"].as_str().unwrap().to_string(), c.clone()))
            .collect();
        Survey {
            dir: dir.to_path_buf(),
            json,
            lookup,
            classes,
        }
    }

    fn class_of(&self, code: &str) -> (&Value, i64) {
        let (class, shift, _) = &self.lookup[code];
        (&self.classes[class], *shift)
    }

    /// G(n) of `code` for n < len, from its class's printed values and its shift (periodic
    /// classes printed in full only).
    fn values(&self, code: &str, len: usize) -> Option<Vec<u16>> {
        let (class, shift) = self.class_of(code);
        let rep = expand(
            class["values"].as_str()?,
            len + shift.unsigned_abs() as usize,
        );
        Some(
            (0..len as i64)
                .map(|n| {
                    if n - shift < 0 {
                        0
                    } else {
                        rep[(n - shift) as usize]
                    }
                })
                .collect(),
        )
    }
}

/// The first `len` values of a `prefix(period)` string (one character a value, 0-9 then A-Z,
/// or comma-separated).
fn expand(s: &str, len: usize) -> Vec<u16> {
    let (pre, per) = s.trim_end_matches(')').split_once('(').unwrap();
    let parse = |t: &str| -> Vec<u16> {
        if t.contains(',') {
            t.split(',').map(|v| v.parse().unwrap()).collect()
        } else {
            t.chars().map(|c| c.to_digit(36).unwrap() as u16).collect()
        }
    };
    let (pre, per) = (parse(pre), parse(per));
    (0..len)
        .map(|n| {
            if n < pre.len() {
                pre[n]
            } else {
                per[(n - pre.len()) % per.len()]
            }
        })
        .collect()
}

/// The least preperiod of `g` for period `p`, over all of `g`.
fn preperiod(g: &[u16], p: usize) -> usize {
    (0..g.len() - p)
        .rev()
        .find(|&n| g[n] != g[n + p])
        .map_or(0, |e| e + 1)
}

#[test]
fn every_trivial_game_of_tczajka_is_reproduced() {
    let s = survey();
    let rows = data("tczajka-trivial.tsv");
    assert!(rows.len() > 80);
    for r in rows {
        let (code, pre, period) = (&r[0], r[1].parse::<usize>().unwrap(), r[2].parse().unwrap());
        let len = 2 * (pre + period) + 64;
        let ours = s
            .values(code, len)
            .unwrap_or_else(|| panic!("{code}: not periodic in full"));
        assert_eq!(ours, expand(&r[3], len), "{code}");
        let (class, _) = s.class_of(code);
        assert_eq!(class["period"]["period"], period, "{code}");
        assert_eq!(preperiod(&ours, period), pre, "{code}");
    }
}

#[test]
fn solved_games_whose_proof_fits_the_budget_are_proved_the_rest_open() {
    let s = survey();
    for r in data("tczajka-solved.tsv") {
        let code = &r[0];
        let (pre, period): (usize, usize) = (r[1].parse().unwrap(), r[2].parse().unwrap());
        let (class, shift) = s.class_of(code);
        assert_eq!(shift, 0, "{code} is its class's first code in the tables");
        let proof = 2 * pre + 2 * period + code.len() - 2;
        if proof <= BUDGET {
            assert_eq!(class["period"]["period"], period, "{code}");
            assert_eq!(class["period"]["preperiod"], pre, "{code}");
            assert_eq!(class["max_value"], r[4].parse::<u64>().unwrap(), "{code}");
            assert_eq!(
                class["max_value_at"],
                r[3].parse::<u64>().unwrap(),
                "{code}"
            );
        } else {
            assert_eq!(class["status"], "open", "{code}");
            assert_eq!(class["n"], BUDGET, "{code}");
        }
    }
}

#[test]
fn published_periods_of_up_to_three_digits_within_the_budget() {
    let s = survey();
    let mut checked = 0;
    for r in data("known-periods.tsv") {
        let code = r[0].clone();
        if !s.lookup.contains_key(&code) {
            continue;
        }
        let (period, pre): (usize, usize) = (r[1].parse().unwrap(), r[2].parse().unwrap());
        let (class, _) = s.class_of(&code);
        match s.values(&code, 2 * (pre + period) + 64) {
            Some(g) => {
                assert_eq!(class["period"]["period"], period, "{code}");
                assert_eq!(preperiod(&g, period), pre, "{code}");
                checked += 1;
            }
            None if class["status"] == "periodic" => {
                assert_eq!(class["period"]["period"], period, "{code}");
                checked += 1;
            }
            None => assert!(
                2 * pre + 2 * period > BUDGET,
                "{code} open within the budget"
            ),
        }
    }
    assert!(checked >= 20, "{checked} published periods checked");
}

#[test]
fn classes_are_those_of_tczajkas_lookup() {
    let s = survey();
    let theirs: HashMap<String, String> = data("tczajka-lookup.tsv")
        .into_iter()
        .map(|r| (r[0].clone(), r[1].clone()))
        .collect();
    let root = |c: &str| -> String {
        let mut c = c.to_string();
        while let Some(next) = theirs.get(&c).filter(|n| **n != c) {
            c = next.clone();
        }
        c
    };
    let codes: Vec<&String> = theirs.keys().collect();
    for a in &codes {
        for b in &codes {
            let ours = s.lookup[*a].0 == s.lookup[*b].0;
            let published = root(a) == root(b);
            if ours {
                assert!(
                    published,
                    "{a} and {b} are one class here, not in the lookup tables"
                );
            } else if published {
                // Equal by a period this budget does not prove.
                let (ca, _) = s.class_of(a);
                let (cb, _) = s.class_of(b);
                assert!(
                    ca["status"] == "open" || cb["status"] == "open",
                    "{a} and {b}: one class in the lookup tables, two proved periodic here"
                );
            }
        }
    }
}

#[test]
fn the_errata_hold() {
    let s = survey();
    // .27 is .26 (both are cousins of .337), not .06.
    assert_eq!(s.lookup["0.27"].0, s.lookup["0.26"].0);
    assert_eq!(s.lookup["0.27"].1, s.lookup["0.26"].1);
    assert_ne!(s.lookup["0.27"].0, s.lookup["0.06"].0);
    // .314 is not .31.
    assert_ne!(s.lookup["0.314"].0, s.lookup["0.31"].0);
    // .161 is not .36: they agree up to heap 518.
    assert_ne!(s.lookup["0.161"].0, s.lookup["0.36"].0);
    let agreement = s.json["agreements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| {
            let pair = [a["a"].as_str().unwrap(), a["b"].as_str().unwrap()];
            pair.contains(&s.lookup["0.161"].0.as_str())
                && pair.contains(&s.lookup["0.36"].0.as_str())
        })
        .expect(".161 and .36 are listed as agreeing far");
    assert_eq!(agreement["first_difference"], 519);
}

/// The files of a survey that must not depend on how it was run.
const TABLES: [&str; 4] = ["survey.md", "survey.csv", "lookup.csv", "survey.json"];

fn same_tables(a: &Path, b: &Path) {
    for t in TABLES {
        let x = std::fs::read(a.join(t)).unwrap();
        let y = std::fs::read(b.join(t)).unwrap();
        assert!(
            x == y,
            "{t} differs between {} and {}",
            a.display(),
            b.display()
        );
    }
}

#[test]
fn three_shards_merged_equal_the_whole_survey() {
    let whole = survey();
    let budget = BUDGET.to_string();
    // A survey of `digits` digits to `budget` in `dir`.
    let run = |digits: &str, dir: &Path, budget: &str, extra: &[&str]| {
        let mut args = vec![
            "survey",
            "--digits",
            digits,
            "--max-n",
            budget,
            "--grow-to",
            budget,
            "--quiet",
        ];
        args.extend_from_slice(&["--out", dir.to_str().unwrap()]);
        args.extend_from_slice(extra);
        ok(&args);
    };
    let shards: Vec<PathBuf> = (0..3).map(|k| fresh(&format!("three-shard-{k}"))).collect();
    for (k, dir) in shards.iter().enumerate() {
        run("3", dir, &budget, &["--shard", &format!("{k}/3")]);
        assert!(!dir.join("survey.md").exists(), "a shard writes no tables");
    }
    let merged = fresh("three-merged");
    let mut args = vec!["survey", "merge"];
    args.extend(shards.iter().map(|d| d.to_str().unwrap()));
    args.extend(["--out", merged.to_str().unwrap()]);
    ok(&args);
    same_tables(&whole.dir, &merged);

    // Merging what is not one whole survey: one line, exit 2.
    let refuse = |dirs: &[&Path], why: &str| {
        let out_dir = fresh("three-refused");
        let mut args = vec!["survey", "merge"];
        args.extend(dirs.iter().map(|d| d.to_str().unwrap()));
        args.extend(["--out", out_dir.to_str().unwrap()]);
        refused(&args, why);
    };
    refuse(&[&shards[0], &shards[1]], "a missing shard");
    refuse(&[&shards[0], &shards[0], &shards[2]], "a shard twice");
    let other = fresh("two-digits-shard");
    run("2", &other, &budget, &["--shard", "1/3"]);
    refuse(&[&shards[0], &other, &shards[2]], "another survey");
    let first = std::fs::read_dir(shards[2].join("games"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    std::fs::remove_file(first).unwrap();
    refuse(&[&shards[0], &shards[1], &shards[2]], "an incomplete shard");

    // A smaller survey extended to the budget (its open games computed again) equals one run at
    // the budget; a smaller budget than a survey's is refused.
    let (direct, small) = (fresh("two-direct"), fresh("two-small"));
    run("2", &direct, &budget, &[]);
    run("2", &small, "2048", &[]);
    ok(&[
        "survey",
        small.to_str().unwrap(),
        "--max-n",
        &budget,
        "--quiet",
    ]);
    same_tables(&direct, &small);
    refused(
        &["survey", small.to_str().unwrap(), "--max-n", "2048"],
        "a smaller budget than the survey's",
    );
}

/// A game whose sparse space holds goes on past the budget: `.16` and `.56`, whose proofs need
/// 5.1e5 and 6.5e5 heaps, are proved with tczajka's periods from a budget of 2^14; every open
/// game that went on kept to the rule (at most `--grow-to`, and heaps x rare heaps within
/// 2^32); a second survey gives the same tables byte for byte.
#[test]
fn games_whose_space_holds_grow_past_the_budget() {
    let grow_to = 1usize << 20;
    let dirs: Vec<PathBuf> = (0..2).map(|k| fresh(&format!("two-grown-{k}"))).collect();
    for d in &dirs {
        ok(&[
            "survey",
            "--digits",
            "2",
            "--max-n",
            "2^14",
            "--grow-to",
            "2^20",
            "--quiet",
            "--out",
            d.to_str().unwrap(),
        ]);
    }
    same_tables(&dirs[0], &dirs[1]);
    let s = Survey::read(&dirs[0]);
    let solved = data("tczajka-solved.tsv");
    for code in ["0.16", "0.56"] {
        let r = solved.iter().find(|r| r[0] == code).unwrap();
        let (class, _) = s.class_of(code);
        assert_eq!(class["period"]["preperiod"], r[1].parse::<u64>().unwrap());
        assert_eq!(class["period"]["period"], r[2].parse::<u64>().unwrap());
        assert!(class["n"].as_u64().unwrap() > 1 << 18, "{code}");
    }
    let mut grown = 0;
    for c in s.classes.values().filter(|c| c["status"] == "open") {
        let n = c["n"].as_u64().unwrap() as usize;
        assert!((1 << 14..=grow_to).contains(&n), "{c}");
        if n > 1 << 14 {
            grown += 1;
            let rare = c["sparse"]["rare_count"].as_u64().unwrap() as usize;
            assert!(n <= (1usize << 32) / rare, "{c}");
        }
    }
    assert!(grown > 0, "no open game went on past the budget");
}

#[test]
fn a_survey_killed_twice_and_resumed_equals_an_uninterrupted_one() {
    let whole = survey();
    let dir = fresh("three-killed");
    let budget = BUDGET.to_string();
    let args = [
        "survey",
        "--digits",
        "3",
        "--max-n",
        &budget,
        "--grow-to",
        &budget,
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ];
    for at in [40, 200] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_octal"))
            .args(args)
            .spawn()
            .unwrap();
        let games = dir.join("games");
        while std::fs::read_dir(&games).map_or(0, |d| d.count()) < at {
            assert!(
                child.try_wait().unwrap().is_none(),
                "the survey ended before it was killed"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        child.kill().unwrap();
        child.wait().unwrap();
    }
    ok(&args);
    same_tables(&whole.dir, &dir);
}

/// A survey worker (what `--gpu --devices` runs on each GPU) computes the games it is handed,
/// answering each once its record is written: half the games by a worker, the rest by the
/// survey resumed, make the tables of the whole.
#[test]
fn a_survey_worker_computes_the_games_it_is_handed() {
    let whole = survey();
    let dir = fresh("three-worker");
    std::fs::create_dir_all(dir.join("games")).unwrap();
    std::fs::copy(whole.dir.join("meta.json"), dir.join("meta.json")).unwrap();
    let mut codes: Vec<String> = std::fs::read_dir(whole.dir.join("games"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter_map(|f| f.strip_suffix(".json").map(str::to_string))
        .collect();
    codes.sort();
    let handed: Vec<String> = codes.iter().step_by(2).cloned().collect();
    let mut worker = Command::new(env!("CARGO_BIN_EXE_octal"))
        .args(["survey", dir.to_str().unwrap(), "--worker", "--quiet"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut input = worker.stdin.take().unwrap();
        for c in &handed {
            writeln!(input, "{c}").unwrap();
        }
    }
    let out = worker.wait_with_output().unwrap();
    assert!(out.status.success());
    let answered: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(answered, handed);
    for c in &handed {
        assert!(dir.join("games").join(format!("{c}.json")).exists(), "{c}");
    }
    ok(&["survey", dir.to_str().unwrap(), "--quiet"]);
    same_tables(&whole.dir, &dir);
}

#[test]
fn bad_survey_input_is_one_line_and_exit_2() {
    let file = fresh("a-file");
    std::fs::write(&file, "x").unwrap();
    let under_file = file.join("survey");
    let cases: [(&[&str], &str); 5] = [
        (&["survey", "--digits", "0"], "no digits"),
        (
            &["survey", "--digits", "2", "--shard", "3/2"],
            "a shard past the count",
        ),
        (
            &[
                "survey",
                "--digits",
                "2",
                "--out",
                under_file.to_str().unwrap(),
            ],
            "an unwritable directory",
        ),
        (
            &["survey", "--digits", "2", "--max-n", "ten"],
            "a budget that is not a number",
        ),
        (&["survey"], "neither digits nor a directory"),
    ];
    for (args, why) in cases {
        refused(args, why);
    }
}

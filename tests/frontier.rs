//! Campaigns (`octal frontier`) at CI sizes on the host's cores: a campaign stopped by its
//! deadline and carried to another folder by its checkpoints alone goes on to the statistics of
//! the run that never stopped, and one killed goes on with no run of it left behind; a game
//! whose values prove a period ends and is not run again;
//! the frontier table is made again byte for byte from the reports, the repository's own too.

mod common;

use common::{octal, s, tmp};
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

fn report(dir: &Path, code: &str) -> Value {
    let text = std::fs::read_to_string(dir.join(format!("{code}.json"))).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The command lines of the processes that name `dir` (zombies have none).
fn running_in(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(line) = std::fs::read(e.path().join("cmdline")) {
            let line = String::from_utf8_lossy(&line).replace('\0', " ");
            if line.contains(s(dir)) {
                found.push(line);
            }
        }
    }
    found
}

fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_file() {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

#[test]
fn a_campaign_stopped_and_moved_goes_on_to_the_same_statistics() {
    let dir = tmp("campaign");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("c.toml");
    std::fs::write(
        &file,
        "keep = \"2^20\"\n\
         [[game]]\ncode = \".161\"\ntarget = \"2^23\"\n\
         [[game]]\ncode = \".16\"\ntarget = \"2^22\"\nkeep = \"all\"\n",
    )
    .unwrap();
    // Stopped by its deadline, the first game short of its target, with its checkpoint.
    let first = octal(&["frontier", s(&file), "--devices", "0", "--for", "3s"]);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let early = report(&dir, "0.161");
    assert_eq!(early["time_up"], true);
    let n = early["n"].as_u64().unwrap();
    assert!((1 << 20..1 << 23).contains(&n), "stopped at {n}");
    assert!(dir.join("0.161.state").exists());
    // Killed (SIGKILL) while its game runs, its child goes with it, and started again it goes on.
    let mut killed = Command::new(env!("CARGO_BIN_EXE_octal"))
        .args(["frontier", s(&file), "--devices", "0"])
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    killed.kill().unwrap();
    killed.wait().unwrap();
    let gone = (0..40).any(|_| {
        std::thread::sleep(Duration::from_millis(50));
        running_in(&dir).is_empty()
    });
    assert!(gone, "left running: {:?}", running_in(&dir));
    let again = octal(&["frontier", s(&file), "--devices", "0", "--for", "3s"]);
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    let later = report(&dir, "0.161")["n"].as_u64().unwrap();
    assert!(later > n, "went on from {n} to {later}");
    // The folder without its run directories, elsewhere: the checkpoints carry the campaign,
    // a run begun on a GPU (as its checkpoint says) on the host's cores.
    let moved = tmp("campaign-moved");
    let _ = std::fs::remove_dir_all(&moved);
    copy_folder(&dir, &moved);
    let state = moved.join("0.161.state");
    let bytes = std::fs::read(&state).unwrap();
    let header = bytes.iter().position(|&b| b == b'\n').unwrap() + 1;
    let line = header + bytes[header..].iter().position(|&b| b == b'\n').unwrap();
    let json = String::from_utf8(bytes[header..line].to_vec()).unwrap();
    assert!(json.contains("\"engine\":\"auto\""), "{json}");
    let json = json.replace("\"engine\":\"auto\"", "\"engine\":\"gpu\"");
    let rewritten = [&bytes[..header], json.as_bytes(), &bytes[line..]].concat();
    std::fs::write(&state, rewritten).unwrap();
    let file = moved.join("c.toml");
    let on = octal(&["frontier", s(&file), "--devices", "0"]);
    assert!(
        on.status.success(),
        "{}",
        String::from_utf8_lossy(&on.stderr)
    );
    let stderr = String::from_utf8_lossy(&on.stderr);
    assert!(stderr.contains("A PERIOD IS PROVED"), "{stderr}");
    let done = report(&moved, "0.161");
    assert_eq!(done["n"], 1 << 23);
    // The checkpoint at the end is checked a second time: every rare heap recomputed.
    let check: Value =
        serde_json::from_slice(&std::fs::read(moved.join("0.161.check.json")).unwrap()).unwrap();
    assert_eq!(check["n"], 1 << 23);
    assert_eq!(
        check["check"]["rare_recomputed"],
        done["sparse"]["rare_count"]
    );
    assert_eq!(check["check"]["mismatches"], Value::Array(vec![]));
    let table = std::fs::read_to_string(moved.join("FRONTIER.md")).unwrap();
    let line = format!(
        "every rare heap ({}) recomputed, all equal",
        done["sparse"]["rare_count"]
    );
    assert!(table.contains(&line), "{table}");
    let straight = octal(&["solve", ".161", "-n", "2^23", "--json", "-q"]);
    let straight: Value = serde_json::from_slice(&straight.stdout).unwrap();
    for k in [
        "fnv1a64",
        "max_value",
        "max_value_at",
        "powers_of_two",
        "sparse",
    ] {
        assert_eq!(done[k], straight[k], "{k}");
    }
    // .16's period (Flammenkamp: period 149459, preperiod 105351) ends it.
    let p = &report(&moved, "0.16")["period"];
    assert_eq!(
        (&p["period"], &p["preperiod"]),
        (&149459.into(), &105351.into())
    );
    // Nothing is left to run, nor to check again though the checkpoint's file is newer than its
    // check's (as a copy or a clone leaves them); the table is made again byte for byte.
    let table = std::fs::read(moved.join("FRONTIER.md")).unwrap();
    let later = std::time::SystemTime::now() + Duration::from_secs(60);
    let f = std::fs::File::options().append(true).open(&state).unwrap();
    f.set_modified(later).unwrap();
    let again = octal(&["frontier", s(&file), "--devices", "0"]);
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert!(stderr.contains("0.161 is done"), "{stderr}");
    assert!(!stderr.contains("second check"), "{stderr}");
    let only = octal(&["frontier", s(&file), "--table"]);
    assert!(only.status.success());
    assert_eq!(std::fs::read(moved.join("FRONTIER.md")).unwrap(), table);
    let csv = std::fs::read_to_string(moved.join("frontier.csv")).unwrap();
    assert!(
        csv.lines().any(|l| l.starts_with("0.161,,-,8388608,")),
        "{csv}"
    );
    // rogalski's published histograms (results/frontier/histograms.tsv) against the run's at
    // every power of two, 2^10 to 2^23; one count changed there is found.
    let published = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../results/frontier/histograms.tsv"),
    )
    .unwrap();
    let row = |t: &str| -> String {
        let table = std::fs::read_to_string(moved.join("FRONTIER.md")).unwrap();
        let found = table
            .lines()
            .find(|l| l.starts_with("| 0.161 | - | - | 8388608 "));
        assert!(found.is_some(), "{t}: {table}");
        found.unwrap().to_string()
    };
    std::fs::write(moved.join("histograms.tsv"), &published).unwrap();
    assert!(octal(&["frontier", s(&file), "--table"]).status.success());
    let equal = "histograms equal at 14 powers of two, 2^10 to 2^23";
    assert!(row("published").contains(equal), "{}", row("published"));
    let at_2_20 = published
        .lines()
        .find(|l| l.starts_with("0.161\t1048576\t"))
        .unwrap();
    let changed = at_2_20.replacen(" 1:", " 1:1", 1);
    assert_ne!(changed, at_2_20);
    std::fs::write(
        moved.join("histograms.tsv"),
        published.replace(at_2_20, &changed),
    )
    .unwrap();
    assert!(octal(&["frontier", s(&file), "--table"]).status.success());
    let differs = "differs: the published histogram at 2^20 counts value 1";
    assert!(row("changed").contains(differs), "{}", row("changed"));
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&moved).unwrap();
}

/// The repository's campaign tables (the frontier's and the three-digit survey's open classes')
/// are what `octal frontier --table` makes of their reports.
#[test]
fn the_committed_frontier_tables_are_made_from_the_committed_reports() {
    for folder in ["frontier", "three"] {
        let results = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../results")
            .join(folder);
        let copy = tmp(&format!("{folder}-committed"));
        let _ = std::fs::remove_dir_all(&copy);
        copy_folder(&results, &copy);
        let out = octal(&["frontier", s(&copy.join("campaign.toml")), "--table"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        for name in ["FRONTIER.md", "frontier.csv"] {
            assert_eq!(
                std::fs::read(copy.join(name)).unwrap(),
                std::fs::read(results.join(name)).unwrap(),
                "{folder}/{name}"
            );
        }
        std::fs::remove_dir_all(&copy).unwrap();
    }
}

#[test]
fn bad_campaigns_are_refused_with_one_line() {
    let dir = tmp("campaign-bad");
    std::fs::create_dir_all(&dir).unwrap();
    for (text, says) in [
        ("[[game]]\ncode = \".161\"\n", "missing field `target`"),
        ("keep = \"2^20\"\n", "no [[game]]"),
        ("[[game]]\ncode = \".9x\"\ntarget = \"2^20\"\n", "invalid code"),
        (
            "[[game]]\ncode = \".161\"\ntarget = \"2^20\"\n[[game]]\ncode = \".161\"\ntarget = \"2^21\"\n",
            "listed twice",
        ),
    ] {
        let file = dir.join("c.toml");
        std::fs::write(&file, text).unwrap();
        let out = octal(&["frontier", s(&file), "--devices", "0"]);
        assert_eq!(out.status.code(), Some(2), "{text}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says) && err.lines().count() == 1, "{text}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

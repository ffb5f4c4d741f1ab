//! `octal frontier`: a campaign of long runs. Each game of the campaign file goes to its target
//! in a run directory of the campaign's folder (`work/CODE`), one game a GPU of the host (or one
//! at a time on the host's cores), the next game as one ends; each run is a child `octal`
//! process, so that every device has a process of its own. Its checkpoint (`CODE.state`, or a
//! snapshot `CODE.snap` for a game that keeps every value) and its last report (`CODE.json`) go
//! to the campaign's folder as it goes and when it stops: the folder alone carries the campaign
//! to another machine. A deadline (`--for`) stops every run cleanly before it. The folder's
//! table (`FRONTIER.md`, `frontier.csv`) is made from those reports and the published ranges.

use super::child::octal;
use super::{carry, CommandError};
use octal_core::Code;
use octal_store::rundir;
use serde_json::Value;
use std::collections::{BTreeMap, VecDeque};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// One game of a campaign.
#[derive(Debug, Clone)]
pub struct CampaignGame {
    pub code: Code,
    /// Heaps to reach.
    pub target: usize,
    /// Heaps whose every value the run keeps (none: all, for games whose rare values still come).
    pub keep: Option<usize>,
}

/// A validated `octal frontier`.
#[derive(Debug, Clone)]
pub struct FrontierConfig {
    /// The campaign's folder (the campaign file's).
    pub dir: PathBuf,
    pub games: Vec<CampaignGame>,
    /// Stop every run cleanly after this long.
    pub run_for: Option<Duration>,
    /// GPUs to run on (0: the host's cores, one game at a time).
    pub devices: usize,
    /// Only make the table.
    pub table_only: bool,
}

/// Time a run's child is given, before the deadline, to write its checkpoint and have it
/// checked a second time: this, or a quarter of the time left where that is less.
const MARGIN: Duration = Duration::from_secs(60);

/// The least time before the deadline a game is started with once the first games run (those
/// start whatever the time): a run needs its start (a checkpoint read, the device's kernels)
/// and its margin.
const MIN_START: Duration = Duration::from_secs(60);

/// The time a run started with `left` before the deadline computes.
fn run_time(left: Duration) -> Duration {
    left - MARGIN.min(left / 4)
}

/// How often the checkpoints of running games are copied to the campaign's folder, and how
/// often progress is printed.
const COPY_EVERY: Duration = Duration::from_secs(120);
const PROGRESS_EVERY: Duration = Duration::from_secs(30);

/// A game's files in the campaign's folder.
struct Files {
    state: PathBuf,
    snap: PathBuf,
    report: PathBuf,
    /// The second check of the checkpoint (`octal check --rare --json`).
    check: PathBuf,
    work: PathBuf,
    /// The running child's report (its stdout).
    out: PathBuf,
}

impl Files {
    fn of(dir: &Path, code: &Code) -> Files {
        let name = code.to_string();
        Files {
            state: dir.join(format!("{name}.state")),
            snap: dir.join(format!("{name}.snap")),
            report: dir.join(format!("{name}.json")),
            check: dir.join(format!("{name}.check.json")),
            work: dir.join("work").join(&name),
            out: dir.join("work").join(format!("{name}.out")),
        }
    }
}

/// The JSON in file `path`, if it is there and reads as JSON.
fn read_json(path: &Path) -> Option<Value> {
    let text = std::fs::read_to_string(path).ok()?;
    serde_json::from_str(&text).ok()
}

/// A game's last report, if any.
fn last_report(files: &Files) -> Option<Value> {
    read_json(&files.report)
}

/// Whether a game is done: its target reached or a period proved.
fn done(game: &CampaignGame, report: Option<&Value>) -> bool {
    report.is_some_and(|r| {
        r["n"].as_u64().is_some_and(|n| n as usize >= game.target)
            || r["period"]["proved"].as_bool() == Some(true)
    })
}

/// What a slot is doing.
enum Phase {
    /// Replaying a snapshot into the run directory (a game that keeps every value, moved here).
    Restoring,
    /// Computing.
    Running,
    /// Checking its new checkpoint a second time.
    Checking,
}

/// A game being computed in a slot.
struct Running {
    game: usize,
    child: Child,
    phase: Phase,
    /// Heaps and time at the last progress line.
    seen: Option<(usize, Instant)>,
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

/// Runs the campaign (each new checkpoint checked a second time), then writes its table.
pub fn run(cfg: &FrontierConfig) -> Result<(), CommandError> {
    if !cfg.table_only {
        campaign(cfg)?;
    }
    table(cfg)
}

/// Whether game `f` has a checkpoint whose second check is not of the heaps its last `report`
/// reached (by the heaps each names, not by the files' times, which a copy or a clone changes).
fn unchecked(f: &Files, report: Option<&Value>) -> bool {
    let checked = read_json(&f.check).and_then(|c| c["n"].as_u64());
    f.state.exists() && checked != report.and_then(|r| r["n"].as_u64())
}

/// Starts `octal check CODE.state --rare --json` for game `game` in `slot` (on its GPU where
/// the campaign has GPUs): every rare heap of the checkpoint's front recomputed by the exact
/// mex, the heaps a compact checkpoint leaves out computed again. Its report goes to
/// `CODE.check.json` when it ends ([`check_ended`]).
fn second_check(cfg: &FrontierConfig, game: usize, slot: usize) -> Result<Running, CommandError> {
    let f = Files::of(&cfg.dir, &cfg.games[game].code);
    let report = std::fs::File::create(f.check.with_extension("partial")).map_err(|source| {
        CommandError::File {
            what: "cannot write",
            path: f.check.clone(),
            source,
        }
    })?;
    let args = vec![
        "check".into(),
        s(&f.state),
        "--rare".into(),
        "--json".into(),
    ];
    spawn(
        cfg,
        slot,
        args,
        report.into(),
        &f.state,
        (game, Phase::Checking),
    )
}

/// The second check of game `game` ended (passed where `passed`): its report becomes
/// `CODE.check.json`.
fn check_ended(cfg: &FrontierConfig, game: usize, passed: bool) {
    let f = Files::of(&cfg.dir, &cfg.games[game].code);
    let verdict = if passed { "passed" } else { "FAILED" };
    eprintln!(
        "octal frontier: {}: second check {verdict}",
        f.state.display()
    );
    if let Err(e) = std::fs::rename(f.check.with_extension("partial"), &f.check) {
        eprintln!("octal frontier: cannot write {}: {e}", f.check.display());
    }
}

fn campaign(cfg: &FrontierConfig) -> Result<(), CommandError> {
    let started = Instant::now();
    let deadline = cfg.run_for.map(|d| started + d);
    std::fs::create_dir_all(cfg.dir.join("work")).map_err(|source| CommandError::File {
        what: "cannot create",
        path: cfg.dir.join("work"),
        source,
    })?;
    // The run directories are the machine's own: the checkpoints carry the campaign.
    let ignore = cfg.dir.join(".gitignore");
    if !ignore.exists() {
        std::fs::write(&ignore, "work/\n").map_err(|source| CommandError::File {
            what: "cannot write",
            path: ignore.clone(),
            source,
        })?;
    }
    // The games to run, after the second checks of the checkpoints of done games that an
    // earlier campaign did not check.
    let (mut queue, mut checks) = (VecDeque::new(), VecDeque::new());
    for (i, g) in cfg.games.iter().enumerate() {
        let f = Files::of(&cfg.dir, &g.code);
        let report = last_report(&f);
        if done(g, report.as_ref()) {
            eprintln!(
                "octal frontier: {} is done (target or period reached)",
                g.code
            );
            if unchecked(&f, report.as_ref()) {
                checks.push_back(i);
            }
        } else {
            queue.push_back(i);
        }
    }
    let slots = cfg.devices.max(1);
    let mut running: Vec<Option<Running>> = (0..slots).map(|_| None).collect();
    let (mut copied, mut shown) = (Instant::now(), Instant::now());
    let mut least = Duration::from_secs(1);
    loop {
        let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        for (slot, place) in running.iter_mut().enumerate() {
            if place.is_some() || left.is_some_and(|l| l < least) {
                continue;
            }
            let started = if let Some(game) = checks.pop_front() {
                second_check(cfg, game, slot).map_err(|e| (game, e))
            } else if let Some(game) = queue.pop_front() {
                start(cfg, game, slot, left).map_err(|e| (game, e))
            } else {
                break;
            };
            match started {
                Ok(r) => *place = Some(r),
                Err((game, e)) => eprintln!("octal frontier: {}: {e}", cfg.games[game].code),
            }
        }
        if running.iter().all(Option::is_none) {
            break;
        }
        least = MIN_START;
        std::thread::sleep(Duration::from_millis(500));
        let over = deadline.is_some_and(|d| Instant::now() >= d);
        for (slot, place) in running.iter_mut().enumerate() {
            let Some(r) = place.as_mut() else { continue };
            let game = &cfg.games[r.game];
            let f = Files::of(&cfg.dir, &game.code);
            // A second check still running at the deadline is left to the next campaign.
            if over && matches!(r.phase, Phase::Checking) {
                let _ = r.child.kill();
                let _ = r.child.wait();
                let _ = std::fs::remove_file(f.check.with_extension("partial"));
                eprintln!(
                    "octal frontier: {}: the second check stopped at the deadline; the next campaign checks it",
                    f.state.display()
                );
                *place = None;
                continue;
            }
            let status = r.child.try_wait().map_err(|source| CommandError::File {
                what: "cannot wait for a run of",
                path: cfg.dir.clone(),
                source,
            })?;
            let Some(status) = status else { continue };
            let out = std::fs::read_to_string(&f.out).unwrap_or_default();
            match (&r.phase, status.success()) {
                (Phase::Checking, passed) => {
                    check_ended(cfg, r.game, passed);
                    *place = None;
                }
                (Phase::Restoring, true) => {
                    let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
                    *place = Some(spawn_run(cfg, r.game, slot, left)?);
                }
                (Phase::Running, true) => {
                    finished(cfg, r.game, &out);
                    // Its new checkpoint is checked in the same slot, in the time its run left.
                    *place = if !over && unchecked(&f, last_report(&f).as_ref()) {
                        Some(second_check(cfg, r.game, slot)?)
                    } else {
                        None
                    };
                }
                (_, false) => {
                    eprintln!(
                        "octal frontier: {}: the run failed ({status}); its run directory {} says where it stopped",
                        game.code,
                        f.work.display()
                    );
                    copy_checkpoint(cfg, r.game);
                    *place = None;
                }
            }
        }
        if copied.elapsed() >= COPY_EVERY {
            copied = Instant::now();
            for r in running.iter().flatten() {
                if matches!(r.phase, Phase::Running) {
                    copy_checkpoint(cfg, r.game);
                }
            }
        }
        if shown.elapsed() >= PROGRESS_EVERY {
            shown = Instant::now();
            for (slot, r) in running.iter_mut().enumerate() {
                if let Some(r) = r {
                    progress(cfg, slot, r);
                }
            }
        }
    }
    for g in checks {
        let f = Files::of(&cfg.dir, &cfg.games[g].code);
        eprintln!(
            "octal frontier: {}: the second check waits for the next campaign (no time left)",
            f.state.display()
        );
    }
    for g in queue {
        eprintln!(
            "octal frontier: {} waits for the next campaign (no time left)",
            cfg.games[g].code
        );
    }
    Ok(())
}

/// Starts game `game` in `slot`: replays its snapshot first where only that is at hand.
fn start(
    cfg: &FrontierConfig,
    game: usize,
    slot: usize,
    left: Option<Duration>,
) -> Result<Running, CommandError> {
    let g = &cfg.games[game];
    let f = Files::of(&cfg.dir, &g.code);
    let has_run = f.work.join("checkpoint.json").exists();
    if !has_run && !f.state.exists() && f.snap.exists() {
        let _ = std::fs::remove_dir_all(&f.work);
        let args = vec![
            "restore".into(),
            s(&f.snap),
            "--out".into(),
            s(&f.work),
            "-q".into(),
        ];
        eprintln!("octal frontier: {}: replaying {}", g.code, f.snap.display());
        let running = (game, Phase::Restoring);
        return spawn(cfg, slot, args, Stdio::null(), &f.snap, running);
    }
    spawn_run(cfg, game, slot, left)
}

/// Starts the run of game `game` in `slot`: its run directory resumed, else its checkpoint, else
/// a new run; until `left` less the margin.
fn spawn_run(
    cfg: &FrontierConfig,
    game: usize,
    slot: usize,
    left: Option<Duration>,
) -> Result<Running, CommandError> {
    let g = &cfg.games[game];
    let f = Files::of(&cfg.dir, &g.code);
    let target = g.target.to_string();
    let mut args: Vec<String> = if f.work.join("checkpoint.json").exists() {
        vec!["resume".into(), s(&f.work), "-n".into(), target]
    } else if f.state.exists() {
        let _ = std::fs::remove_dir_all(&f.work);
        let args = ["resume", &s(&f.state), "--out", &s(&f.work), "-n", &target];
        args.map(String::from).to_vec()
    } else {
        let _ = std::fs::remove_dir_all(&f.work);
        let keep = g.keep.map_or("all".to_string(), |k| k.to_string());
        let code = g.code.to_string();
        let args = [
            "solve",
            &code,
            "-n",
            &target,
            "--out",
            &s(&f.work),
            "--keep",
            &keep,
            "--check-period",
        ];
        args.map(String::from).to_vec()
    };
    args.extend(["--json", "-q", "--checkpoint-secs", "30"].map(String::from));
    if let Some(l) = left {
        let secs = run_time(l).as_secs_f64().max(0.5);
        args.extend(["--for".to_string(), format!("{secs:.1}s")]);
    }
    // The report goes to a file: a pipe read only at the end would fill and stall the run.
    let report = std::fs::File::create(&f.out).map_err(|source| CommandError::File {
        what: "cannot write",
        path: f.out.clone(),
        source,
    })?;
    let on = match cfg.devices {
        0 => "the host's cores".to_string(),
        _ => format!("GPU {slot}"),
    };
    eprintln!(
        "octal frontier: {} on {on}: {} to {}",
        g.code, args[0], g.target
    );
    spawn(
        cfg,
        slot,
        args,
        report.into(),
        &f.work,
        (game, Phase::Running),
    )
}

/// Starts `octal` with `args` in `slot` (on its GPU, with --gpu, where the campaign has GPUs;
/// a resumed run on the host's cores otherwise), its stdout to `stdout`, for `game` in `phase`; `path` names what it works on in errors.
fn spawn(
    cfg: &FrontierConfig,
    slot: usize,
    mut args: Vec<String>,
    stdout: Stdio,
    path: &Path,
    (game, phase): (usize, Phase),
) -> Result<Running, CommandError> {
    if cfg.devices > 0 {
        args.push("--gpu".into());
    } else if args[0] == "resume" {
        // A run begun on a GPU goes on on the host's cores where the campaign has no GPU.
        args.extend(["--engine", "auto"].map(String::from));
    }
    let device = (cfg.devices > 0).then_some(slot);
    let child = octal(&args, device)?
        .stdout(stdout)
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|source| CommandError::File {
            what: "cannot start octal for",
            path: path.to_path_buf(),
            source,
        })?;
    Ok(Running {
        game,
        child,
        phase,
        seen: None,
    })
}

/// A run of game `game` ended with the report `out`: the report and the checkpoint go to the
/// campaign's folder, a proved period is said loudly.
fn finished(cfg: &FrontierConfig, game: usize, out: &str) {
    let g = &cfg.games[game];
    let f = Files::of(&cfg.dir, &g.code);
    let Ok(report) = serde_json::from_str::<Value>(out.trim()) else {
        eprintln!("octal frontier: {}: the run printed no report", g.code);
        return;
    };
    let pretty = serde_json::to_string_pretty(&report).expect("a JSON value") + "\n";
    if let Err(e) = std::fs::write(&f.report, pretty) {
        eprintln!("octal frontier: cannot write {}: {e}", f.report.display());
    }
    copy_checkpoint(cfg, game);
    let n = report["n"].as_u64().unwrap_or(0);
    if report["period"]["proved"].as_bool() == Some(true) {
        let p = &report["period"];
        eprintln!(
            "octal frontier: *** {}: A PERIOD IS PROVED: period {}, preperiod {}, checked to {} heaps ***",
            g.code, p["period"], p["preperiod"], p["checked_to"]
        );
    } else if report["time_up"].as_bool() == Some(true) {
        eprintln!(
            "octal frontier: {}: stopped at {n} heaps (the deadline); the next campaign goes on",
            g.code
        );
    } else {
        eprintln!("octal frontier: {}: reached {n} heaps", g.code);
    }
}

/// Copies the checkpoint of game `game`'s run directory to the campaign's folder (a state, or a
/// snapshot for a run that keeps every value), atomically.
fn copy_checkpoint(cfg: &FrontierConfig, game: usize) {
    let g = &cfg.games[game];
    let f = Files::of(&cfg.dir, &g.code);
    let to = if g.keep.is_some() { &f.state } else { &f.snap };
    let fresh = to.with_extension("new");
    let written = match g.keep {
        Some(_) => carry::write_state(&f.work, &fresh, false).map(|_| ()),
        None => carry::write_snapshot(&f.work, &fresh).map(|_| ()),
    };
    match written.map(|()| std::fs::rename(&fresh, to)) {
        Ok(Ok(())) => {}
        Ok(Err(e)) => eprintln!("octal frontier: cannot write {}: {e}", to.display()),
        Err(e) => eprintln!("octal frontier: {}: no checkpoint now: {e}", g.code),
    }
}

/// Prints where the run in `slot` stands: heaps, rate and ETA.
fn progress(cfg: &FrontierConfig, slot: usize, r: &mut Running) {
    let g = &cfg.games[r.game];
    let busy = match r.phase {
        Phase::Restoring => Some("replaying"),
        Phase::Checking => Some("second check"),
        Phase::Running => None,
    };
    if let Some(what) = busy {
        eprintln!("octal frontier: {} (slot {slot}): {what}", g.code);
        return;
    }
    let Ok(n) = rundir::heaps(&Files::of(&cfg.dir, &g.code).work) else {
        return;
    };
    let now = Instant::now();
    let line = match r.seen {
        Some((before, then)) if n > before => {
            let rate = (n - before) as f64 / now.duration_since(then).as_secs_f64();
            let eta = (g.target.saturating_sub(n)) as f64 / rate;
            format!(
                "{:.3e} heaps (2^{:.2}) of 2^{:.2}, {:.2} M/s since the last line, ETA {}",
                n as f64,
                (n as f64).log2(),
                (g.target as f64).log2(),
                rate / 1e6,
                human_secs(eta)
            )
        }
        _ => format!("{:.3e} heaps (2^{:.2})", n as f64, (n.max(1) as f64).log2()),
    };
    eprintln!("octal frontier: {} (slot {slot}): {line}", g.code);
    r.seen = Some((n, now));
}

/// Seconds as `1d 2h`, `3h 4m`, `5m 6s`.
fn human_secs(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    match s {
        s if s >= 86400 => format!("{}d {}h", s / 86400, s % 86400 / 3600),
        s if s >= 3600 => format!("{}h {}m", s / 3600, s % 3600 / 60),
        s => format!("{}m {}s", s / 60, s % 60),
    }
}

/// A published range of a game (`published.tsv` of the campaign's folder, the columns of the
/// frontier table: code, n_log2, by, rare_count, last_rare, max_value, max_value_at).
struct Published {
    code: String,
    n_log2: String,
    by: String,
    rare_count: Option<u64>,
    last_rare: Option<u64>,
    max_value: Option<u64>,
    max_value_at: Option<u64>,
}

/// The rows of a table of the campaign's folder (`# ` comments and the `code` header left out),
/// split at tabs; none where the file is not there.
fn rows(dir: &Path, name: &str) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(dir.join(name)).unwrap_or_default();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("code\t"))
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

fn published(dir: &Path) -> Vec<Published> {
    let num = |s: Option<&String>| s.and_then(|s| s.trim().parse::<u64>().ok());
    rows(dir, "published.tsv")
        .into_iter()
        .filter(|c| c.len() >= 3)
        .map(|c| Published {
            code: c[0].clone(),
            n_log2: c[1].clone(),
            by: c[2].clone(),
            rare_count: num(c.get(3)),
            last_rare: num(c.get(4)),
            max_value: num(c.get(5)),
            max_value_at: num(c.get(6)),
        })
        .collect()
}

/// The published statistics against octal's at the published range: "equal", the first
/// difference, or why they cannot be compared.
fn against(p: &Published, report: &Value) -> String {
    let Ok(k) = p.n_log2.trim().parse::<u32>() else {
        return format!(
            "the range 2^{} is not a power of two octal records",
            p.n_log2
        );
    };
    let powers = report["powers_of_two"].as_array();
    let Some(at) = powers.and_then(|ps| ps.iter().find(|x| x["n"].as_u64() == Some(1 << k))) else {
        return "not reached".into();
    };
    let facts = [
        ("rare count", p.rare_count, "rare_count"),
        ("last rare heap", p.last_rare, "last_rare"),
        ("largest value", p.max_value, "max_value"),
        ("its first heap", p.max_value_at, "max_value_at"),
    ];
    let compared: Vec<_> = facts.iter().filter(|f| f.1.is_some()).collect();
    if compared.is_empty() {
        return "no statistic published".into();
    }
    match compared.iter().find(|f| f.1 != at[f.2].as_u64()) {
        Some((what, theirs, key)) => format!(
            "differs: {what} {} published, {} here",
            theirs.unwrap_or(0),
            at[*key].as_u64().map_or("none".into(), |o| o.to_string())
        ),
        None => {
            let names: Vec<&str> = compared.iter().map(|f| f.0).collect();
            format!("equal ({})", names.join(", "))
        }
    }
}

/// Published histograms at powers of two (`histograms.tsv` of the campaign's folder: code, n,
/// and value:count pairs, where count is the number of heaps h in 1..=n with G(h) = value), by
/// code and n.
type Histograms = BTreeMap<String, BTreeMap<u64, BTreeMap<u64, u64>>>;

fn published_histograms(dir: &Path) -> Histograms {
    let pair = |p: &str| {
        let (v, c) = p.split_once(':')?;
        Some((v.parse().ok()?, c.parse().ok()?))
    };
    let mut all = Histograms::new();
    for row in rows(dir, "histograms.tsv") {
        let [code, n, pairs] = &row[..] else { continue };
        let (Ok(n), Some(hist)) = (n.parse(), pairs.split_whitespace().map(pair).collect()) else {
            continue;
        };
        all.entry(code.clone()).or_default().insert(n, hist);
    }
    all
}

/// Octal's histogram at each power of two (heaps 0..n) against the published one of the same n
/// (heaps 1..=n): the same when they differ only by heap 0 (value 0) left out and one value,
/// G(n), put in. The powers compared (k of 2^k), or the first that differs.
fn histograms_against(code: &str, report: &Value, hist: &Histograms) -> Result<Vec<u32>, String> {
    let mut equal = Vec::new();
    let Some(published) = hist.get(code) else {
        return Ok(equal);
    };
    for at in report["powers_of_two"].as_array().into_iter().flatten() {
        let Some(n) = at["n"].as_u64() else { continue };
        let Some(theirs) = published.get(&n) else {
            continue;
        };
        let mut diff: BTreeMap<u64, i128> = theirs.iter().map(|(&v, &c)| (v, c.into())).collect();
        for pair in at["histogram"].as_array().into_iter().flatten() {
            let (v, c) = (pair[0].as_u64().unwrap_or(0), pair[1].as_u64().unwrap_or(0));
            *diff.entry(v).or_default() -= i128::from(c);
        }
        *diff.entry(0).or_default() += 1;
        diff.retain(|_, d| *d != 0);
        let one_value_put_in = diff.len() == 1 && diff.values().all(|&d| d == 1);
        if !one_value_put_in {
            let (v, d) = diff
                .iter()
                .find(|(_, &d)| d != 1)
                .or(diff.iter().nth(1))
                .unwrap_or((&0, &0));
            return Err(format!(
                "differs: the published histogram at 2^{} counts value {v} {d:+} against \
                 octal's (heap 0 and G(n) aside)",
                n.trailing_zeros()
            ));
        }
        equal.push(n.trailing_zeros());
    }
    Ok(equal)
}

/// The table's words for the histograms compared.
fn histograms_text(compared: &Result<Vec<u32>, String>) -> Option<String> {
    match compared {
        Ok(ks) => match (ks.first(), ks.last()) {
            (Some(a), Some(b)) => Some(format!(
                "histograms equal at {} powers of two, 2^{a} to 2^{b}",
                ks.len()
            )),
            _ => None,
        },
        Err(e) => Some(e.clone()),
    }
}

/// What the second check of a game's checkpoint found, if it is of the report's `n` heaps.
fn checked(f: &Files, n: u64) -> String {
    let Some(j) = read_json(&f.check) else {
        return "not checked".into();
    };
    let c = &j["check"];
    if j["n"].as_u64() != Some(n) {
        return format!("not checked at this range (at {})", j["n"]);
    }
    let mismatches = c["mismatches"].as_array().map_or(0, Vec::len);
    let past = c["rare_past_front"].as_u64().unwrap_or(0);
    match (mismatches, past) {
        (0, 0) => format!(
            "every rare heap ({}) recomputed, all equal",
            c["rare_recomputed"]
        ),
        (0, _) => format!(
            "{} rare heaps recomputed, all equal; {past} past the front not",
            c["rare_recomputed"]
        ),
        (m, _) => format!("FAILED: {m} rare heaps differ"),
    }
}

/// What is left of a game: whether it reached its target, and hours to it and to a published
/// range past it at the run's average rate so far, on one GPU or on the cores its last run had
/// (none where reached, or where the run has no rate).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Plan {
    reached: bool,
    /// The game keeps every value (its rare values still come): its rate falls as it grows.
    slowing: bool,
    /// The cores the rate is of, where its last run was on the host's cores, not on a GPU.
    cores: Option<u64>,
    to_target: Option<f64>,
    to_published: Option<f64>,
}

impl Plan {
    fn new(
        n: u64,
        (rate, cores): (f64, Option<u64>),
        target: usize,
        published: Option<f64>,
        slowing: bool,
    ) -> Plan {
        let n = n as f64;
        let hours = |to: f64| (to > n && rate > 0.0).then(|| (to - n) / rate / 3600.0);
        Plan {
            reached: n >= target as f64,
            slowing,
            cores,
            to_target: hours(target as f64),
            to_published: published.filter(|&p| p > target as f64).and_then(hours),
        }
    }

    /// The table's words: "target reached", or the time to it (and to the published range).
    fn text(&self) -> String {
        let least = if self.slowing { "at least " } else { "" };
        let time = |h: f64| {
            let (t, unit) = if h < 48.0 {
                (h, "hours")
            } else {
                (h / 24.0, "days")
            };
            match self.cores {
                None => format!("{least}{t:.1} GPU-{unit}"),
                Some(c) => format!("{least}{t:.1} {unit} on {c} cores"),
            }
        };
        let target = match self.to_target {
            _ if self.reached => "target reached".to_string(),
            Some(h) => format!("{} to the target", time(h)),
            None => "no rate yet".to_string(),
        };
        match self.to_published {
            Some(h) => format!("{target}; {} to the published range", time(h)),
            None => target,
        }
    }
}

/// Writes `FRONTIER.md` and `frontier.csv` from the games' reports and `published.tsv`.
fn table(cfg: &FrontierConfig) -> Result<(), CommandError> {
    let published = published(&cfg.dir);
    let histograms = published_histograms(&cfg.dir);
    let mut md = format!(
        "# The frontier\n\nEach game of the campaign: the furthest published range and by whom, \
         the range octal reached (verified values), the published statistics against octal's at \
         the published range, and octal's statistics at its own range. Made by `octal frontier \
         CAMPAIGN.toml --table` from the reports in this folder; a game's checkpoint \
         (`CODE.state`) carries it on. Statistics past a published range come from runs that \
         hold only their front and tail. Their second check (`octal check CODE.state --rare`, \
         kept in `CODE.check.json`) recomputes every rare heap of the front by the exact mex over \
         the front's values: where no rare heap lies past the front, the rare heaps (count, last) \
         are checked at octal's range; a largest value past the front is not. What is left is the \
         time to the campaign's target (and to a published range past it) at the run's average \
         rate so far, on one GPU (or on the host's cores, where its last run was there): a plan, \
         not a measurement (a game whose rare values still come slows as it grows).{}\n\n\
         | game | published | by | octal | against the published | largest value (first heap) | rare heaps (last) | P-positions (last) | period | second check | left (at the rate so far) |\n\
         |---|---|---|---|---|---|---|---|---|---|---|\n",
        if histograms.is_empty() {
            ""
        } else {
            " Published histograms (`histograms.tsv`) count the heaps 1..n, octal's the heaps \
             0..n-1: they are equal when they differ by heap 0 and one value, G(n)."
        }
    );
    let mut csv = String::from(
        "code,published_log2,published_by,octal_n,octal_log2,against_published,max_value,max_value_at,rare_count,last_rare,p_positions,last_p_position,period,second_check,target_log2,rate_per_second,hours_to_target,hours_to_published,rate_on\n",
    );
    for g in &cfg.games {
        let code = g.code.to_string();
        let report = last_report(&Files::of(&cfg.dir, &g.code));
        let p = published.iter().find(|p| p.code == code);
        let (range, by) = p.map_or(("-".into(), "-".into()), |p| {
            (format!("2^{}", p.n_log2), p.by.clone())
        });
        let Some(r) = report else {
            let _ = writeln!(
                md,
                "| {code} | {range} | {by} | not run yet | | | | | | | |"
            );
            let _ = writeln!(
                csv,
                "{code},{},{},,,,,,,,,,,,{:.2},,,,",
                p.map_or("", |p| &p.n_log2),
                by,
                (g.target as f64).log2()
            );
            continue;
        };
        let n = r["n"].as_u64().unwrap_or(0);
        let vs = p.map_or("no published range".into(), |p| against(p, &r));
        let vs = match histograms_text(&histograms_against(&code, &r, &histograms)) {
            Some(h) => format!("{vs}; {h}"),
            None => vs,
        };
        let num = |k: &str| r[k].as_u64().map_or(String::new(), |v| v.to_string());
        let sparse = |k: &str| {
            r["sparse"][k]
                .as_u64()
                .map_or(String::new(), |v| v.to_string())
        };
        let period = match r["period"]["proved"].as_bool() {
            Some(true) => format!(
                "PROVED: period {}, preperiod {}",
                r["period"]["period"], r["period"]["preperiod"]
            ),
            _ => "none found".into(),
        };
        let checked = checked(&Files::of(&cfg.dir, &g.code), n);
        let rate = r["values_per_second"].as_f64().unwrap_or(0.0);
        let cores = (r["engine"] != "gpu").then(|| r["threads"].as_u64().unwrap_or(1));
        let published_n = p.and_then(|p| p.n_log2.trim_start_matches('~').parse::<f64>().ok());
        let plan = Plan::new(
            n,
            (rate, cores),
            g.target,
            published_n.map(f64::exp2),
            g.keep.is_none(),
        );
        let _ = writeln!(
            md,
            "| {code} | {range} | {by} | {n} (2^{:.2}) | {vs} | {} ({}) | {} ({}) | {} ({}) | {period} | {checked} | {} |",
            (n.max(1) as f64).log2(),
            num("max_value"),
            num("max_value_at"),
            sparse("rare_count"),
            sparse("last_rare"),
            num("p_positions"),
            num("last_p_position"),
            plan.text(),
        );
        let _ = writeln!(
            csv,
            "{code},{},{},{n},{:.4},\"{vs}\",{},{},{},{},{},{},\"{period}\",\"{checked}\",{:.2},{rate:.0},{},{},{}",
            p.map_or("", |p| &p.n_log2),
            by,
            (n.max(1) as f64).log2(),
            num("max_value"),
            num("max_value_at"),
            sparse("rare_count"),
            sparse("last_rare"),
            num("p_positions"),
            num("last_p_position"),
            (g.target as f64).log2(),
            plan.to_target.map_or(String::new(), |h| format!("{h:.2}")),
            plan.to_published.map_or(String::new(), |h| format!("{h:.2}")),
            cores.map_or("gpu".to_string(), |c| format!("{c} cores")),
        );
    }
    for (name, text) in [("FRONTIER.md", md), ("frontier.csv", csv)] {
        let path = cfg.dir.join(name);
        std::fs::write(&path, text).map_err(|source| CommandError::File {
            what: "cannot write",
            path,
            source,
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::Plan;

    #[test]
    fn a_plan_is_the_time_left_at_the_rate_so_far() {
        // 3.6e9 heaps at 1e6 a second: one hour.
        let p = Plan::new(400_000_000, (1e6, None), 4_000_000_000, None, false);
        assert_eq!(p.to_target, Some(1.0));
        assert_eq!(p.text(), "1.0 GPU-hours to the target");
        let slowing = Plan::new(400_000_000, (1e6, None), 4_000_000_000, None, true);
        assert_eq!(slowing.text(), "at least 1.0 GPU-hours to the target");
        let p = Plan::new(0, (1e6, None), 3_600_000_000, Some(3.6e9 * 49.0), false);
        assert_eq!(p.to_published, Some(49.0));
        assert_eq!(
            p.text(),
            "1.0 GPU-hours to the target; 2.0 GPU-days to the published range"
        );
        let done = Plan::new(1 << 32, (1e6, None), 1 << 32, Some(2f64.powi(30)), false);
        assert_eq!((done.to_target, done.to_published), (None, None));
        assert_eq!(done.text(), "target reached");
        assert_eq!(
            Plan::new(5, (0.0, None), 10, None, false).text(),
            "no rate yet"
        );
        let on_cores = Plan::new(0, (1e6, Some(2)), 3_600_000_000, Some(3.6e9 * 49.0), false);
        assert_eq!(
            on_cores.text(),
            "1.0 hours on 2 cores to the target; 2.0 days on 2 cores to the published range"
        );
    }
}

//! The second step of the command line, after clap's parsing: raw flags become the library's
//! checked configurations ([`solver::commands`]), or a one-line input error (exit status 2).
//! Counts of heaps, codes, spaces, thread counts and intervals are parsed here.

use crate::cli::*;
use octal_core::discover::domain_digit;
use octal_core::{Code, Rules, SparseKind, SparseSpace};
use octal_engines::games;
use solver::commands::bench::BenchConfig;
use solver::commands::carry::RestoreConfig;
use solver::commands::frontier::{CampaignGame, FrontierConfig};
use solver::commands::inspect::{CheckConfig, Heaps};
use solver::commands::job::{Output, ResumeConfig, SolveConfig};
use solver::commands::survey::{SurveyConfig, TableFormat};
use solver::commands::CommandError;
use solver::request::{Bounds, EngineChoice, Request};
use std::time::Duration;

/// Turns the raw flags of `solve` into a configuration.
pub fn solve(a: &SolveArgs) -> Result<SolveConfig, CommandError> {
    let code = parse_code(&a.code)?;
    let keep = keep(&a.keep)?;
    let n = match (&a.max_n, &a.n, a.check_period) {
        (Some(max), _, _) => heaps("--max-n", max, keep)?,
        (None, Some(n), true) => heaps("-n", n, keep)?,
        (None, None, true) => 1_000_000_000,
        (None, n, false) => heaps("-n", n.as_deref().unwrap_or("1e6"), keep)?,
    };
    if a.values.is_some() && keep.is_some_and(|k| n > k) {
        return Err(CommandError::Input(
            "--values writes every value: give --keep all (or -n at most --keep)".into(),
        ));
    }
    let mut request = Request::new(code, n);
    request.keep = keep;
    request.bounds = bounds(a.front.as_deref(), a.tail.as_deref())?;
    request.engine = with_gpu(a.engine, a.gpu)?;
    request.devices = devices(a.devices)?;
    if request.devices > 1 && request.engine != EngineChoice::Gpu {
        return Err(CommandError::Input(format!(
            "--devices {}: give --gpu too (the devices share a GPU run's verification)",
            request.devices
        )));
    }
    request.verify = !a.speculate_only;
    request.check_period = a.check_period;
    request.discovery_heaps = parse_count("--discover", &a.discover)?;
    if let Some(space) = &a.space {
        request.space = Some(parse_space(&request.code.rules(), space)?);
    }
    Ok(SolveConfig {
        request,
        output: output(
            a.threads,
            a.json,
            a.quiet,
            a.checkpoint_secs,
            a.run_for.as_deref(),
        )?,
        values: a.values.clone(),
        out: a.out.clone(),
    })
}

/// Turns the raw flags of `resume` into a configuration.
pub fn resume(a: &ResumeArgs) -> Result<ResumeConfig, CommandError> {
    let keep_asked = a.keep.as_deref().map(keep).transpose()?;
    // The run's own --keep is read with it: the size is checked there.
    let n =
        a.n.as_deref()
            .map(|n| heaps("-n", n, Some(0)))
            .transpose()?;
    let engine = match (a.engine, a.gpu) {
        (None, false) => None,
        (engine, gpu) => Some(with_gpu(engine.unwrap_or(EngineChoice::Auto), gpu)?),
    };
    Ok(ResumeConfig {
        dir: a.dir.clone(),
        out: a.out.clone(),
        keep: keep_asked,
        bounds: bounds(a.front.as_deref(), a.tail.as_deref())?,
        n,
        engine,
        devices: devices(a.devices)?,
        output: output(
            a.threads,
            a.json,
            a.quiet,
            a.checkpoint_secs,
            a.run_for.as_deref(),
        )?,
    })
}

/// The GPUs a run's verification shares (`--devices`, at least 1).
fn devices(devices: Option<usize>) -> Result<usize, CommandError> {
    match devices {
        Some(0) => Err(CommandError::Input(
            "--devices 0: a GPU run takes at least one device".into(),
        )),
        d => Ok(d.unwrap_or(1)),
    }
}

/// The output flags every command that computes shares.
fn output(
    threads: Option<usize>,
    json: bool,
    quiet: bool,
    checkpoint_secs: f64,
    run_for: Option<&str>,
) -> Result<Output, CommandError> {
    Ok(Output {
        threads: validate_threads(threads)?,
        json,
        quiet,
        checkpoint_every: validate_secs(checkpoint_secs)?,
        run_for: run_for.map(|s| duration("--for", s)).transpose()?,
    })
}

/// A duration such as `90s`, `25m`, `2h` or `1d` (a number alone is seconds).
pub fn duration(flag: &str, s: &str) -> Result<Duration, CommandError> {
    let (number, unit) = s.split_at(s.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(s.len()));
    let scale = match unit {
        "" | "s" => 1.0,
        "m" => 60.0,
        "h" => 3600.0,
        "d" => 86400.0,
        _ => f64::NAN,
    };
    match number.parse::<f64>().map(|x| x * scale) {
        Ok(secs) if secs.is_finite() && secs > 0.0 && secs <= 1e9 => {
            Ok(Duration::from_secs_f64(secs))
        }
        _ => Err(CommandError::Input(format!(
            "{flag} {s}: give a duration such as 90s, 25m, 2h or 1d"
        ))),
    }
}

/// A campaign file, as written.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct CampaignFile {
    keep: Option<String>,
    #[serde(default)]
    game: Vec<CampaignEntry>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct CampaignEntry {
    code: String,
    target: String,
    keep: Option<String>,
}

/// Reads the campaign file of `frontier` and its flags into a configuration.
pub fn frontier(a: &FrontierArgs) -> Result<FrontierConfig, CommandError> {
    let path = &a.campaign;
    let text = std::fs::read_to_string(path).map_err(|source| CommandError::File {
        what: "cannot read the campaign",
        path: path.clone(),
        source,
    })?;
    let bad = |what: String| CommandError::Input(format!("{}: {what}", path.display()));
    let file: CampaignFile =
        toml::from_str(&text).map_err(|e| bad(e.message().replace('\n', " ")))?;
    if file.game.is_empty() {
        return Err(bad("no [[game]] to run".into()));
    }
    let default_keep = keep(file.keep.as_deref().unwrap_or("2^26"))?;
    let mut games = Vec::new();
    for g in &file.game {
        let code = parse_code(&g.code)?;
        let keep = g
            .keep
            .as_deref()
            .map(keep)
            .transpose()?
            .unwrap_or(default_keep);
        let target = heaps("target", &g.target, keep)?;
        if games.iter().any(|x: &CampaignGame| x.code == code) {
            return Err(bad(format!("{code} is listed twice")));
        }
        games.push(CampaignGame { code, target, keep });
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => ".".into(),
    };
    Ok(FrontierConfig {
        dir,
        games,
        run_for: a
            .run_for
            .as_deref()
            .map(|s| duration("--for", s))
            .transpose()?,
        // Every GPU this process sees (none without a driver), unless only the table is made.
        devices: match (a.devices, a.table) {
            (Some(d), _) => d,
            (None, true) => 0,
            (None, false) => octal_gpu::device_count().unwrap_or(0),
        },
        table_only: a.table,
    })
}

/// Turns the raw flags of `check` into a configuration.
pub fn check(a: &CheckArgs) -> Result<CheckConfig, CommandError> {
    Ok(CheckConfig {
        dir: a.dir.clone(),
        rare: a.rare,
        sample: a.sample,
        gpu: a.gpu,
        json: a.json,
        threads: validate_threads(a.threads)?,
    })
}

/// Turns the raw flags of `restore` into a configuration.
pub fn restore(a: &RestoreArgs) -> Result<RestoreConfig, CommandError> {
    Ok(RestoreConfig {
        file: a.file.clone(),
        out: a.out.clone(),
        gpu: a.gpu,
        threads: validate_threads(a.threads)?,
        quiet: a.quiet,
    })
}

/// Turns the raw flags of `bench` into a configuration.
pub fn bench(a: &BenchArgs) -> Result<BenchConfig, CommandError> {
    let gpu_cpu_max = a
        .gpu
        .then(|| parse_count("--cpu-max", &a.cpu_max))
        .transpose()?;
    Ok(BenchConfig {
        code: parse_code(&a.code)?,
        n: heaps("-n", &a.n, None)?,
        threads: validate_threads(a.threads)?,
        json: matches!(a.json, Some(None)),
        json_file: a.json.clone().flatten(),
        gpu_cpu_max,
    })
}

/// Turns the raw flags of `survey` into a configuration.
pub fn survey(a: &SurveyArgs) -> Result<SurveyConfig, CommandError> {
    Ok(SurveyConfig {
        dir: a.dir.clone(),
        digits: a.digits,
        max_n: a
            .max_n
            .as_deref()
            .map(|s| parse_count("--max-n", s))
            .transpose()?,
        grow_to: a
            .grow_to
            .as_deref()
            .map(|s| parse_count("--grow-to", s))
            .transpose()?,
        out: a.out.clone(),
        format: table_format(a.format.as_deref(), a.json)?,
        gpu: a.gpu,
        devices: match a.devices {
            Some(d) => devices(Some(d))?,
            None if a.gpu && !a.worker => octal_gpu::device_count().unwrap_or(1).max(1),
            None => 1,
        },
        worker: a.worker,
        shard: a
            .shard
            .as_deref()
            .map(|s| s.parse().map_err(|e| CommandError::Input(format!("{e}"))))
            .transpose()?,
        threads: validate_threads(a.threads)?,
        quiet: a.quiet,
    })
}

/// The table `--format` (or `--json`) asks a survey to print.
pub fn table_format(format: Option<&str>, json: bool) -> Result<Option<TableFormat>, CommandError> {
    match (format, json) {
        (_, true) => Ok(Some(TableFormat::Json)),
        (Some(f), false) => f.parse().map(Some),
        (None, false) => Ok(None),
    }
}

/// The heaps `--from A --to B` name.
pub fn heap_range(from: &str, to: Option<&str>) -> Result<Heaps, CommandError> {
    Ok(Heaps {
        from: parse_count_or_zero("--from", from)?,
        to: to.map(|t| parse_count("--to", t)).transpose()?,
    })
}

/// A count of heaps of `flag` that a run may take on.
fn heaps(flag: &str, s: &str, keep: Option<usize>) -> Result<usize, CommandError> {
    let n = parse_count(flag, s)?;
    check_heaps(flag, n, keep)?;
    Ok(n)
}

/// `--keep`: a count of heaps, or `all` (none).
fn keep(s: &str) -> Result<Option<usize>, CommandError> {
    match s.trim() {
        "all" => Ok(None),
        s => parse_count("--keep", s).map(Some),
    }
}

/// `--front` and `--tail`: counts of heaps.
fn bounds(front: Option<&str>, tail: Option<&str>) -> Result<Bounds, CommandError> {
    Ok(Bounds {
        front: front.map(|s| parse_count("--front", s)).transpose()?,
        tail: tail.map(|s| parse_count("--tail", s)).transpose()?,
    })
}

/// The checkpoint interval: a positive number of seconds.
pub fn validate_secs(secs: f64) -> Result<Duration, CommandError> {
    if secs.is_finite() && secs > 0.0 && secs <= 1e6 {
        Ok(Duration::from_secs_f64(secs))
    } else {
        Err(CommandError::Input(format!(
            "--checkpoint-secs {secs}: give a positive number of seconds"
        )))
    }
}

/// Parses a code, or a game name from games/, with the error said as input error.
pub fn parse_code(s: &str) -> Result<Code, CommandError> {
    if let Some(game) = games::by_name(s) {
        return Ok(game
            .code
            .parse()
            .expect("the build step checked every code"));
    }
    s.parse::<Code>()
        .map_err(|e| CommandError::Input(format!("invalid code '{s}': {e}")))
}

/// Parses a count of heaps: `1000000`, `1_000_000`, `1e9`, `2.5e6`, `2^22`. Positive and whole.
pub fn parse_count(flag: &str, s: &str) -> Result<usize, CommandError> {
    let bad = || {
        CommandError::Input(format!(
            "{flag} {s}: not a positive whole number (write e.g. 1000000, 1e9 or 2^22)"
        ))
    };
    let t = s.replace('_', "");
    let value: u128 = if let Some((base, exp)) = t.split_once('^') {
        let base: u128 = base.parse().map_err(|_| bad())?;
        let exp: u32 = exp.parse().map_err(|_| bad())?;
        base.checked_pow(exp).ok_or_else(bad)?
    } else {
        let (mantissa, exp) = match t.split_once(['e', 'E']) {
            Some((m, e)) => (m, e.parse::<i32>().map_err(|_| bad())?),
            None => (t.as_str(), 0),
        };
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let digits = format!("{int}{frac}");
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let scale = exp - frac.len() as i32;
        let mut v: u128 = digits.parse().map_err(|_| bad())?;
        if scale >= 0 {
            v = 10u128
                .checked_pow(scale as u32)
                .and_then(|p| v.checked_mul(p))
                .ok_or_else(bad)?;
        } else {
            let p = 10u128.checked_pow((-scale) as u32).ok_or_else(bad)?;
            if !v.is_multiple_of(p) {
                return Err(bad());
            }
            v /= p;
        }
        v
    };
    if value == 0 {
        return Err(bad());
    }
    usize::try_from(value).map_err(|_| bad())
}

/// Parses a heap index: 0 or a count.
pub fn parse_count_or_zero(flag: &str, s: &str) -> Result<usize, CommandError> {
    if s.trim() == "0" {
        Ok(0)
    } else {
        parse_count(flag, s)
    }
}

/// Checks that a run of `n` heaps keeping the values of the first `keep` (none: all) is one
/// this program takes on ([`Request::size_error`]).
pub fn check_heaps(flag: &str, n: usize, keep: Option<usize>) -> Result<(), CommandError> {
    match Request::size_error(n, keep) {
        Some(e) => Err(CommandError::Input(format!("{flag} {e}"))),
        None => Ok(()),
    }
}

/// The engine `--engine` names, or the GPU's with `--gpu` (which conflicts with any other).
pub fn with_gpu(engine: EngineChoice, gpu: bool) -> Result<EngineChoice, CommandError> {
    match engine {
        EngineChoice::Auto | EngineChoice::Gpu if gpu => Ok(EngineChoice::Gpu),
        _ if gpu => Err(CommandError::Input("--gpu conflicts with --engine".into())),
        _ => Ok(engine),
    }
}

/// A sparse space of `--space`: `range:MASK` or `domain:MASK`, the mask a nonzero 16-bit
/// number in hexadecimal (0x...) or decimal; the domain type only for games whose breaking
/// digits' indices share their parity.
pub fn parse_space(rules: &Rules, s: &str) -> Result<SparseSpace, CommandError> {
    let bad = |why: &str| CommandError::Input(format!("--space '{s}': {why}"));
    let (kind, mask) = s
        .split_once(':')
        .ok_or_else(|| bad("give range:MASK or domain:MASK, such as range:0x1ee"))?;
    let mask = match mask.strip_prefix("0x") {
        Some(hex) => u16::from_str_radix(hex, 16),
        None => mask.parse::<u16>(),
    }
    .ok()
    .filter(|&m| m != 0)
    .ok_or_else(|| bad("the mask must be a nonzero number below 0x10000, such as 0x1ee"))?;
    let kind = match kind {
        "range" => SparseKind::Range,
        "domain" => SparseKind::Domain {
            k: domain_digit(rules).ok_or_else(|| {
                bad("this game has no domain type (its breaking digits' indices differ in parity)")
            })?,
        },
        _ => return Err(bad("the kind is range or domain")),
    };
    Ok(SparseSpace { kind, mask })
}

/// The thread count: given, or all cores; zero and absurd counts are input errors.
pub fn validate_threads(t: Option<usize>) -> Result<usize, CommandError> {
    match t {
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
        Some(t) if (1..=4096).contains(&t) => Ok(t),
        Some(t) => Err(CommandError::Input(format!(
            "--threads {t}: give a number from 1 to 4096"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::parse_count;

    #[test]
    fn counts() {
        let ok = |s: &str| parse_count("-n", s).unwrap();
        assert_eq!(ok("1000000"), 1_000_000);
        assert_eq!(ok("1_000"), 1000);
        assert_eq!(ok("1e9"), 1_000_000_000);
        assert_eq!(ok("2.5e6"), 2_500_000);
        assert_eq!(ok("2^22"), 1 << 22);
        for bad in [
            "0", "-5", "1.5", "abc", "", "1e", "1e-3", "2^99", "1e40", "0x10", "1.5e0",
        ] {
            assert!(parse_count("-n", bad).is_err(), "{bad}");
        }
    }
}

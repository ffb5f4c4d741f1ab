//! The command line in two steps, as ripgrep does it: clap parses raw flags, then `validate`
//! turns them into a checked run configuration (or a one-line input error). Names that the
//! library knows (engines, export formats, plot kinds) are parsed by the library's `FromStr`.

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand};
use octal_core::discover::domain_digit;
use octal_core::{Code, Rules, SparseKind, SparseSpace};
use solver::export::Format;
use solver::plot::Kind;
use solver::run::{EngineChoice, Request};
use std::path::PathBuf;
use std::str::FromStr;

/// A parser for one of `names`, turned into `T` by its `FromStr` (clap lists the names in help
/// and in its error for any other).
fn named<T>(names: impl IntoIterator<Item = &'static str>) -> impl TypedValueParser<Value = T>
where
    T: FromStr + Clone + Send + Sync + 'static,
    T::Err: std::fmt::Debug,
{
    PossibleValuesParser::new(names).map(|s| s.parse::<T>().expect("one of the names"))
}

#[derive(Debug, Parser)]
#[command(
    name = "octal",
    version,
    about = "Sprague-Grundy values of octal games, verified and fast"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Compute verified Grundy values of an octal game and summarise them.
    Solve(SolveArgs),
    /// Measure the engines against the classic rare-value algorithm in one run.
    Bench(BenchArgs),
    /// List the game definitions of games/ and what the build step made of each.
    Games,
    /// Print the code generated for a game: its unrolled Rust loop, or with --cuda its kernels.
    Codegen(CodegenArgs),
    /// Print the GPU's device, memory, driver and NVRTC versions.
    GpuInfo(GpuInfoArgs),
    /// Continue a run directory (also a finished one, to a larger -n).
    Resume(ResumeArgs),
    /// Verify a run directory without changing it (checkpoint, header, every block); with
    /// --rare and --sample, recompute values from scratch by the exact mex as well.
    Check(CheckArgs),
    /// Print the summary of a run directory.
    Status(StatusArgs),
    /// Write a run directory's compact checkpoint: its sparse space, rare table, first heaps and
    /// the fnv1a64 at every power of two, a few MiB from which the values are replayed.
    Checkpoint(CheckpointArgs),
    /// Make a run directory from a compact checkpoint: the values replayed and checked against
    /// every stored fnv1a64; `octal resume` then continues the run.
    Restore(RestoreArgs),
    /// Write the values of a run directory as a b-file, raw binary or CSV.
    Export(ExportArgs),
    /// Draw the values of a run directory: a histogram of the values, or G(n) against n.
    Plot(PlotArgs),
    /// Classify every octal code of up to D digits: classes of proved equal values, periods,
    /// open games with their statistics (also resumes or extends a survey directory).
    Survey(SurveyArgs),
}

impl Command {
    /// Whether the command line asks for the GPU engine (`resume` reads its engine from the run
    /// directory too, and sees to it itself).
    pub fn asks_for_gpu(&self) -> bool {
        match self {
            Command::Solve(a) => a.gpu || a.engine == EngineChoice::Gpu,
            Command::Restore(a) => a.gpu,
            Command::Survey(a) => a.gpu,
            _ => false,
        }
    }
}

#[derive(Debug, Args)]
pub struct GpuInfoArgs {
    /// Only check that the driver finds a device, as a --gpu run does: print "device 0 found",
    /// or the reason there is none with status 1.
    #[arg(long)]
    pub found: bool,
}

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct SurveyArgs {
    #[command(subcommand)]
    pub command: Option<SurveyCommand>,
    /// A survey directory to resume, or to extend to a larger --max-n.
    pub dir: Option<PathBuf>,
    /// Survey the codes of up to D digits after the point.
    #[arg(long, value_name = "D")]
    pub digits: Option<usize>,
    /// The heap budget of every game (default 2^18): a game without a proved period by then is
    /// open.
    #[arg(long, value_name = "N")]
    pub max_n: Option<String>,
    /// The survey directory (default survey-D).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print this table on standard output: md, csv or json (all are written to the directory).
    #[arg(long)]
    pub format: Option<String>,
    /// Compute on the GPU (games without a sparse space on the CPU).
    #[arg(long)]
    pub gpu: bool,
    /// Take part K of N of the games (K from 0 to N-1).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Worker threads (default: one a core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

#[derive(Debug, Subcommand)]
pub enum SurveyCommand {
    /// Combine the directories of a sharded survey into the tables of the whole.
    Merge(MergeArgs),
}

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shard directories, all of one survey.
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// The directory of the whole survey (new or empty).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Print this table on standard output: md, csv or json.
    #[arg(long)]
    pub format: Option<String>,
}

#[derive(Debug, Args)]
pub struct PlotArgs {
    /// The run directory.
    pub dir: PathBuf,
    /// The picture to write: FILE.png or FILE.svg.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: PathBuf,
    /// What to draw.
    #[arg(long, default_value_t = Kind::Histogram, value_parser = named::<Kind>(Kind::ALL.map(Kind::name)))]
    pub kind: Kind,
    /// The first heap to draw.
    #[arg(long, default_value = "0")]
    pub from: String,
    /// One past the last heap to draw (default: all the run holds).
    #[arg(long)]
    pub to: Option<String>,
}

#[derive(Debug, Args)]
pub struct CheckpointArgs {
    /// The run directory.
    pub dir: PathBuf,
    /// The compact checkpoint to write.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: PathBuf,
}

#[derive(Debug, Args)]
pub struct RestoreArgs {
    /// The compact checkpoint.
    pub file: PathBuf,
    /// The run directory to make (new or empty).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Replay on the GPU (the CPU takes the heaps whose options reach rare heaps), and continue
    /// the run on the GPU when it is resumed.
    #[arg(long)]
    pub gpu: bool,
    /// No progress bar on stderr.
    #[arg(short, long)]
    pub quiet: bool,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The run directory.
    pub dir: PathBuf,
    /// Recompute every rare heap's value (under the run's space) by the exact mex.
    #[arg(long)]
    pub rare: bool,
    /// Recompute this many heaps drawn across the range (the same heaps for the same values).
    #[arg(long, default_value_t = 0, value_name = "K")]
    pub sample: usize,
    /// Print one JSON object on stdout: the run's summary (with the fnv1a64 at every power of
    /// two) and what was checked.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct StatusArgs {
    /// The run directory.
    pub dir: PathBuf,
    /// Print one JSON object (the fields of `solve --json`, plus the run's state).
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct ResumeArgs {
    /// The run directory.
    pub dir: PathBuf,
    /// Heaps to reach (default: the run's own); at least what the run already holds.
    #[arg(short = 'n', allow_hyphen_values = true)]
    pub n: Option<String>,
    /// The engine to continue with (default: the run's own); the run directory records it.
    #[arg(long, value_parser = named::<EngineChoice>(EngineChoice::ALL.map(EngineChoice::name)))]
    pub engine: Option<EngineChoice>,
    /// Continue on the GPU: the same as --engine gpu.
    #[arg(long)]
    pub gpu: bool,
    #[command(flatten)]
    pub run: RunFlags,
}

/// Flags of every command that computes.
#[derive(Debug, Args)]
pub struct RunFlags {
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print one JSON object on stdout instead of the human summary.
    #[arg(long)]
    pub json: bool,
    /// No progress bar on stderr.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Seconds between two checkpoints of a run directory.
    #[arg(long, default_value_t = 3.0, value_name = "SECS")]
    pub checkpoint_secs: f64,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The run directory.
    pub dir: PathBuf,
    /// The format: b-file ("n G(n)" lines), bin (little-endian u16 per value) or csv.
    #[arg(long, default_value_t = Format::Bfile, value_parser = named::<Format>(Format::ALL.map(Format::name)))]
    pub format: Format,
    /// The first heap to write.
    #[arg(long, default_value = "0")]
    pub from: String,
    /// One past the last heap to write (default: all the run holds).
    #[arg(long)]
    pub to: Option<String>,
    /// The output file (default: stdout).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct CodegenArgs {
    /// An octal code or a game name from games/.
    pub code: String,
    /// The CUDA C source of the GPU engine's kernels instead of the Rust loop.
    #[arg(long)]
    pub cuda: bool,
}

#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The octal code, such as .6, 0.137 or 4.07, or a game name from games/ (e.g. officers).
    pub code: String,
    /// Heaps to compute (0 .. N-1): a whole number such as 1000000, 1e9 or 2^22 [default: 1e6].
    #[arg(
        short = 'n',
        allow_hyphen_values = true,
        conflicts_with = "check_period"
    )]
    pub n: Option<String>,
    /// Compute until a period is proved by the Octal Periodicity Theorem (or --max-n heaps).
    #[arg(long)]
    pub check_period: bool,
    /// With --check-period: the most heaps to compute [default: 1e9].
    #[arg(
        long,
        value_name = "N",
        requires = "check_period",
        allow_hyphen_values = true
    )]
    pub max_n: Option<String>,
    /// The engine: auto picks the fastest that suits the game.
    #[arg(long, default_value_t = EngineChoice::Auto, value_parser = named::<EngineChoice>(EngineChoice::ALL.map(EngineChoice::name)))]
    pub engine: EngineChoice,
    /// The GPU engine: the same as --engine gpu.
    #[arg(long)]
    pub gpu: bool,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Skip verification: the values are candidates and every output says UNVERIFIED.
    #[arg(long)]
    pub speculate_only: bool,
    /// Print one JSON object on stdout instead of the human summary.
    #[arg(long)]
    pub json: bool,
    /// Write the values as an OEIS b-file (lines "n G(n)").
    #[arg(long, value_name = "FILE")]
    pub values: Option<PathBuf>,
    /// Stream the verified values and checkpoints to this run directory (see `octal resume`).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// No progress bar on stderr.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Seconds between two checkpoints of a run directory.
    #[arg(long, default_value_t = 3.0, value_name = "SECS")]
    pub checkpoint_secs: f64,
    /// Heaps computed exactly for sparse-space discovery.
    #[arg(long, default_value = "2^15", value_name = "N")]
    pub discover: String,
    /// The sparse space to start from, such as range:0x1ee or domain:0x1 (the run still
    /// switches to a clearly better one).
    #[arg(long, value_name = "KIND:MASK")]
    pub space: Option<String>,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// The octal code to measure.
    #[arg(default_value = ".6")]
    pub code: String,
    /// Largest number of heaps; the bench also runs at 2^18, 2^20, ... up to it.
    #[arg(short = 'n', default_value = "2^22")]
    pub n: String,
    /// Worker threads for the parallel engine (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Also write the results as JSON to this file.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Measure the GPU engine against the CPU engine (all threads) instead: verified values a
    /// second at 2^20, 2^22, ..., --cpu-max and -n, the CPU at the sizes up to --cpu-max.
    #[arg(long)]
    pub gpu: bool,
    /// With --gpu: the largest size the CPU engine runs as the baseline.
    #[arg(long, default_value = "2^26", requires = "gpu")]
    pub cpu_max: String,
}

/// Bad input: one line for the user, exit status 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct InputError(pub String);

/// A validated `solve` (or `resume`).
#[derive(Debug, Clone)]
pub struct SolveConfig {
    pub request: Request,
    pub threads: usize,
    pub json: bool,
    pub values: Option<PathBuf>,
    pub out: Option<PathBuf>,
    pub quiet: bool,
    pub checkpoint_every: std::time::Duration,
}

/// The checkpoint interval: a positive number of seconds.
pub fn validate_secs(secs: f64) -> Result<std::time::Duration, InputError> {
    if secs.is_finite() && secs > 0.0 && secs <= 1e6 {
        Ok(std::time::Duration::from_secs_f64(secs))
    } else {
        Err(InputError(format!(
            "--checkpoint-secs {secs}: give a positive number of seconds"
        )))
    }
}

/// Parses a code, or a game name from games/, with the error said as input error.
pub fn parse_code(s: &str) -> Result<Code, InputError> {
    if let Some(game) = solver::games::by_name(s) {
        return Ok(game
            .code
            .parse()
            .expect("the build step checked every code"));
    }
    s.parse::<Code>()
        .map_err(|e| InputError(format!("invalid code '{s}': {e}")))
}

/// Parses a count of heaps: `1000000`, `1_000_000`, `1e9`, `2.5e6`, `2^22`. Positive and whole.
pub fn parse_count(flag: &str, s: &str) -> Result<usize, InputError> {
    let bad = || {
        InputError(format!(
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
pub fn parse_count_or_zero(flag: &str, s: &str) -> Result<usize, InputError> {
    if s.trim() == "0" {
        Ok(0)
    } else {
        parse_count(flag, s)
    }
}

/// The most heaps a run may ask for. The values live in a file (see `solver::values`), not in
/// memory; 2^40 of them take 2.2 TB of disk, as much again in a run directory.
pub const MAX_HEAPS: usize = 1 << 40;

/// Checks that a run of `n` heaps is one this program takes on.
pub fn check_heaps(flag: &str, n: usize) -> Result<(), InputError> {
    if n > MAX_HEAPS {
        return Err(InputError(format!(
            "{flag} {n}: at most 2^40 heaps are supported (their values alone take {:.1} TB of disk)",
            2.0 * MAX_HEAPS as f64 / 1e12
        )));
    }
    Ok(())
}

/// The engine `--engine` names, or the GPU's with `--gpu` (which conflicts with any other).
pub fn with_gpu(engine: EngineChoice, gpu: bool) -> Result<EngineChoice, InputError> {
    match engine {
        EngineChoice::Auto | EngineChoice::Gpu if gpu => Ok(EngineChoice::Gpu),
        _ if gpu => Err(InputError("--gpu conflicts with --engine".into())),
        _ => Ok(engine),
    }
}

/// Turns the raw flags of `solve` into a configuration.
pub fn validate_solve(a: &SolveArgs) -> Result<SolveConfig, InputError> {
    let code = parse_code(&a.code)?;
    let n = match (&a.max_n, a.check_period) {
        (Some(max), _) => {
            let n = parse_count("--max-n", max)?;
            check_heaps("--max-n", n)?;
            n
        }
        (None, true) => 1_000_000_000,
        (None, false) => {
            let n = parse_count("-n", a.n.as_deref().unwrap_or("1e6"))?;
            check_heaps("-n", n)?;
            n
        }
    };
    let threads = validate_threads(a.threads)?;
    let mut request = Request::new(code, n);
    request.engine = with_gpu(a.engine, a.gpu)?;
    request.verify = !a.speculate_only;
    request.check_period = a.check_period;
    request.discovery_heaps = parse_count("--discover", &a.discover)?;
    if let Some(space) = &a.space {
        request.space = Some(parse_space(&request.code.rules(), space)?);
    }
    Ok(SolveConfig {
        request,
        threads,
        json: a.json,
        values: a.values.clone(),
        out: a.out.clone(),
        quiet: a.quiet,
        checkpoint_every: validate_secs(a.checkpoint_secs)?,
    })
}

/// A sparse space of `--space`: `range:MASK` or `domain:MASK`, the mask a nonzero 16-bit
/// number in hexadecimal (0x...) or decimal; the domain type only for games whose breaking
/// digits' indices share their parity.
pub fn parse_space(rules: &Rules, s: &str) -> Result<SparseSpace, InputError> {
    let bad = |why: &str| InputError(format!("--space '{s}': {why}"));
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
pub fn validate_threads(t: Option<usize>) -> Result<usize, InputError> {
    match t {
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
        Some(t) if (1..=4096).contains(&t) => Ok(t),
        Some(t) => Err(InputError(format!(
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

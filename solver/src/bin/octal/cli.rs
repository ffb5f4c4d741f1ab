//! The command line as clap parses it: every command, its flags and its reference text (`octal
//! help COMMAND` prints the long form). Flags that several commands share are spelled and
//! described once here ([`Shared`]) and mean the same everywhere. Names the library knows
//! (engines, export formats, plot kinds) are parsed by the library's `FromStr`.

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand};
use octal_plot::Kind;
use octal_store::export::Format;
use solver::request::EngineChoice;
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

/// The help text of each flag several commands share: one meaning, one spelling.
pub struct Shared;

impl Shared {
    pub const THREADS: &'static str = "Worker threads (default: one a core)";
    pub const JSON: &'static str = "Print one JSON object on stdout instead of the human summary";
    pub const QUIET: &'static str = "No progress bar on stderr";
    pub const GPU: &'static str = "Compute on the GPU (NVIDIA, CUDA driver and NVRTC at run time)";
    pub const HEAPS: &'static str =
        "Heaps to compute, 0 .. N-1: a whole number such as 1000000, 1e9 or 2^22";
    pub const MAX_HEAPS: &'static str =
        "The most heaps to compute for a run that stops at a proved period";
    pub const OUT: &'static str = "The directory the command writes (see --help)";
    pub const FOR: &'static str = "Stop cleanly after this long (90s, 25m, 2h, 1d)";
    pub const DEVICES: &'static str = "GPUs a GPU run's verification is spread over (default 1)";
    pub const DEVICES_LONG: &'static str = "GPUs the run's verification is spread over [default: 1]: device 0 speculates and verifies, and devices 1 .. N-1 (as CUDA_VISIBLE_DEVICES numbers them) each hold a copy of the values and verify every N-th heap of each batch and a share of the heaps checked exactly. It pays where the verifier is the limit: games whose rare values keep coming, such as .114 and .004";
    pub const FOR_LONG: &'static str = "Stop cleanly after this long (90s, 25m, 2h or 1d; a number alone is seconds), every value computed so far proved and the run directory current: the report gives the heaps reached with time_up true, and `octal resume DIR` goes on";
    pub const KEEP: &'static str =
        "Heaps whose every value the run keeps, or all; past them it holds its front and tail";
    pub const KEEP_LONG: &'static str = "Heaps whose every value the run keeps (a number, or all) [default: 2^31, 4 GiB of values]. Past them the run holds only what going on needs: its first values (the front), its last ones (the tail), its rare table and its statistics, so that memory and disk stay the same however far it goes (-n up to 2^50). A run directory's values.bin keeps the first N values; its state.bin the rest of the run. Such a run speculates on: where the values call for an engine that reads every value (rare values keep coming, no sparse space) it stops and says so. A run of at most N heaps is as with all";
    pub const FRONT: &'static str =
        "Heaps of the front a run past --keep holds (default: sized from its proofs)";
    pub const FRONT_LONG: &'static str = "Heaps of the front a run past --keep holds: the smaller parts of the splits its proofs read [default: four times the farthest split the proofs of the last heaps before --keep read, at least 2^17]. A heap whose proof needs a split past it stops the run there, its state saved; `octal resume RUN --front N` goes on with a larger front, recomputed from heap 0 and checked against the run's fingerprints";
    pub const TAIL: &'static str =
        "Heaps of the tail a run past --keep holds at least (default: sized from its reads)";
    pub const TAIL_LONG: &'static str = "Heaps of the last values a run past --keep holds at least: a heap's speculation reads back to its rare table's last heap, its proof as far as the front [default: twice the front, and 2^16 past the farthest read, rounded up to a power of two]";
}

#[derive(Debug, Parser)]
#[command(
    name = "octal",
    version,
    about = "Sprague-Grundy values of octal games, verified and fast",
    long_about = "Sprague-Grundy values of octal games, verified and fast.\n\n\
        Every value octal prints is proved: a speculative engine predicts each value from the \
        game's rare table and a verifier proves it by the definition before it is reported. \
        `octal help COMMAND` gives each command's reference.\n\n\
        Exit status: 0 success, 2 bad input or usage (a damaged run directory or snapshot \
        included), 1 a failure while running (an unwritable path, a full disk, a held lock, no \
        GPU). Errors are one line on stderr."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Compute verified Grundy values of an octal game and summarise them.
    ///
    /// CODE is an octal code (`.6`, `0.6`, `0.60`, `4.07`, `4.`) or a name from games/ (`officers`,
    /// `kayles`, `dawson`); the canonical form (`0.6`) is printed. Digits 8-9 and letters are
    /// refused: hexadecimal games are not octal games.
    ///
    /// The run discovers the game's sparse space from its first 2^15 heaps (range or domain type,
    /// the mask, the rare table) and then goes by stretches, picking for each the engine the
    /// values call for: the speculative engine while rare heaps are seldom (the game's unrolled
    /// loop from games/ while its table holds, else the generic loop), the marking engine with
    /// the classic rare-value marking while they keep coming, and exact marking where no sparse
    /// space fits. The space follows the values, switching to a clearly better one without
    /// recomputing anything. Every reported value has been proved; a period is reported only when
    /// the Octal Periodicity Theorem's hypothesis was checked on proved values.
    ///
    /// Past 2^21 heaps the values live in a memory-mapped file (an unlinked file in TMPDIR, or
    /// `values.work` in the run directory of --out), two bytes a heap of disk, so memory stays
    /// bounded. With --out the run can be killed at any moment and continued with `octal resume`.
    /// Past --keep heaps (default 2^31) the run holds only its first and last values, its rare
    /// table and its statistics: memory and disk stop growing, and -n goes up to 2^50.
    ///
    /// The human summary gives the largest value and its first heap, the P-positions, the sparse
    /// space with its rare count and last rare heap, the period if proved, the fnv1a64 of the
    /// values and the engine's rate. --json prints one object instead, whose fields are a
    /// contract: code, n, engine, verified, fnv1a64 (FNV-1a 64 over G(0..n-1), two bytes each,
    /// little-endian), max_value, max_value_at, p_positions, last_p_position, sparse (kind, mask,
    /// rare_count, last_rare, last_rare_value, changes), period (period, preperiod,
    /// last_exception, proved, checked_to; or null, with searched_to beside it), stretches
    /// (from, to, engine), threads, table_corrections, seconds, values_per_second, bounded (from,
    /// front, tail; null for a run that kept every value), and powers_of_two: the statistics of
    /// heaps 0 .. 2^k - 1 for every 2^k from 2^10 up to n (n, max_value, max_value_at,
    /// p_positions, last_p_position, histogram as [value, count] pairs, and under the run's space
    /// mask, rare_count, last_rare; fnv1a64, and segment_fnv1a64 of heaps 2^(k-1) .. 2^k - 1). A
    /// GPU run ends stderr with where the device's time went.
    #[command(verbatim_doc_comment)]
    Solve(SolveArgs),
    /// Continue a run directory (also a finished one, to a larger -n), or a checkpoint file.
    ///
    /// The run's values are read back, every chunk checked (past --keep, its state); the run goes
    /// on with the same values, fnv1a64, summary and period as an uninterrupted run would have,
    /// on its own engine or on the one --engine or --gpu names (a run the CPU began, on a GPU
    /// machine). The run directory's checkpoint records the engine it goes on with.
    ///
    /// Given a checkpoint file (`octal checkpoint`) and --out DIR, the run goes on in the new run
    /// directory DIR, on any machine: its statistics at every later power of two are those of
    /// the run that never stopped. The heaps a compact checkpoint leaves out are computed again
    /// first (on the GPU for a GPU run) and checked against its fingerprint.
    #[command(verbatim_doc_comment)]
    Resume(ResumeArgs),
    /// Verify a run directory or a checkpoint file without changing it (every chunk, or every
    /// fingerprint).
    ///
    /// With --rare, every rare heap's value (under the run's space) is recomputed from scratch by
    /// the exact mex over the stored values, and with --sample K that many heaps drawn across
    /// the range (the same heaps for the same values), on all cores: the second check of a
    /// result before it is published. Each recomputed heap costs O(n). A checkpoint holds the
    /// values of its front: its rare heaps there are recomputed, the ones past it are counted
    /// (the heaps a compact checkpoint leaves out are computed again first, on the GPU with
    /// --gpu, and checked against its fingerprint; where its tail would come back only by a
    /// replay of every heap, the front alone, checked against the run's fnv1a64 at the power of
    /// two that ends it and its rare heaps against the rare table: "tail_recomputed": false). A
    /// value that differs is named with its heap (exit 1); damage is named with the file and the
    /// chunk (exit 2).
    #[command(verbatim_doc_comment)]
    Check(CheckArgs),
    /// Print the summary of a run directory (--json: the fields of `solve --json` and `run`).
    Status(StatusArgs),
    /// Write a run directory's checkpoint: its state, to go on from on any machine.
    ///
    /// The checkpoint holds the code, the target, the heaps computed, the sparse space and its
    /// changes, the rare table, the first values (the front) and the last (the tail), the
    /// statistics at every power of two, and checksums: what `octal resume FILE --out DIR` needs
    /// to go on. A run that keeps every value gets the front and tail a run past --keep would
    /// hold. `octal status FILE` reads it.
    ///
    /// The checkpoint is compact unless --whole is given: of the front it holds the first 2^15
    /// heaps, and of the tail the heaps a speculation reads back (past the last rare heap and
    /// the code's reach); resume computes the rest again (the front by a verified run from heap
    /// 0, the tail by the speculative pass from the heaps before it, every rare heap listed) and
    /// checks the whole against the fingerprint the run wrote. A tail within the heaps whose
    /// options reach rare heaps on both sides is kept whole. Where the tail to keep is more
    /// than 2^23 heaps (a late rare heap), none of it is kept: resume replays every value
    /// from the first heaps and the rare table (on the GPU with --gpu), and checks it the same way.
    #[command(verbatim_doc_comment)]
    Checkpoint(CheckpointArgs),
    /// Write a run directory's snapshot: a few MiB from which its values are replayed elsewhere.
    ///
    /// The snapshot holds the run's sparse space, its rare table, its first heaps and the
    /// fnv1a64 of its values at every power of two and at the end. `octal restore FILE --out
    /// DIR` replays every value from it and checks every stored fnv1a64 before it writes the run
    /// directory, which `octal resume` then continues. For a run that keeps every value.
    #[command(verbatim_doc_comment)]
    Snapshot(CheckpointArgs),
    /// Make a run directory from a snapshot, its values replayed and checked against it.
    ///
    /// Every stored fnv1a64 is compared before the directory is written; `octal resume` then
    /// continues the run. While options reach rare heaps on both sides the replay runs by
    /// batches on every core, past that on one core, or with --gpu on the device. A snapshot
    /// whose table replays to other values, a damaged file or an occupied directory is refused
    /// with one line (exit 2) and leaves nothing behind.
    #[command(verbatim_doc_comment)]
    Restore(RestoreArgs),
    /// Write the values of a run directory as a b-file, raw binary or CSV.
    Export(ExportArgs),
    /// Draw the values of a run directory: a histogram of the values, or G(n) against n.
    ///
    /// The histogram counts the heaps of each value on a log scale, rare values in red
    /// (Grossman 2019, Figure 10); the scatter draws G(n) against n. PNG or SVG, by the
    /// extension of the output.
    #[command(verbatim_doc_comment)]
    Plot(PlotArgs),
    /// Classify every octal code of up to D digits: classes, periods, open games, statistics.
    ///
    /// A survey directory given instead of --digits is resumed, or extended to a larger --max-n.
    /// Codes are one class only when that is proved: by rules on codes (a game whose lone token
    /// cannot be taken plays as its cousin one heap on; a move that only gives options the game
    /// has anyway), or by proved periods with the same values. A member's shift s means
    /// G(n) = G_rep(n - s). Open games whose values agree far are listed as such, never merged.
    /// The budget is in heaps (--max-n, default 2^18 a game), so the tables do not depend on the
    /// machine; a game whose sparse space holds goes on past it (--grow-to), by a rule that reads
    /// only the game's own values: doubling its heaps while the last half of them hold at most a
    /// sixteenth of its rare heaps and heaps x rare heaps stays within 2^32. This proves periods
    /// with long preperiods whose rare values stopped early (.354: 2.0e7 heaps); --grow-to equal
    /// to --max-n stops every game at the budget. Each game's record is written as it finishes:
    /// a killed survey resumes with `octal survey DIR`, and `octal survey DIR --max-n N` extends
    /// its open games. --shard K/N computes a fixed 1/N of the games; `octal survey merge`
    /// combines the shards into exactly the tables of an unsharded run. The directory holds
    /// survey.md, survey.csv, lookup.csv, survey.json and times.csv.
    #[command(verbatim_doc_comment)]
    Survey(SurveyArgs),
    /// Run a campaign of long runs: every game of CAMPAIGN.toml to its target, on every GPU.
    ///
    /// The campaign file lists games with a target each (and a default --keep):
    ///
    ///   keep = "2^26"
    ///   [[game]]
    ///   code = ".161"
    ///   target = "2^38"
    ///   [[game]]
    ///   code = ".114"
    ///   target = "2^30"
    ///   keep = "all"        # rare values still come: every value kept
    ///
    /// One game runs on each GPU of the host (--devices; without a GPU, one game at a time on
    /// the host's cores), the next game as one ends; each is a run directory in work/ of the
    /// campaign file's folder. Each game's checkpoint (CODE.state; a snapshot CODE.snap for a
    /// game that keeps every value) and its last report (CODE.json) are written to that folder
    /// every two minutes and when the run stops: `octal frontier CAMPAIGN.toml` again, here or
    /// on any machine that has the folder, goes on where each game stopped. Each new checkpoint
    /// is checked a second time in its game's slot as the run stops (`octal check --rare`, into
    /// CODE.check.json). --for stops every run and check cleanly before the deadline (a check
    /// it stops is done by the next campaign). Progress lines give each game's heaps, rate and
    /// ETA. A game whose values prove a period stops and says so. The folder's FRONTIER.md and
    /// frontier.csv compare each game with its published range (published.tsv in the folder:
    /// code, n_log2, by, rare_count, last_rare, max_value, max_value_at) and with published
    /// histograms at powers of two (histograms.tsv: code, n, value:count pairs over the heaps
    /// 1..n), and give the time left to its target at the run's rate so far (on a GPU, or on
    /// the host's cores); --table makes only them.
    #[command(verbatim_doc_comment)]
    Frontier(FrontierArgs),
    /// Measure the engines against the classic rare-value algorithm in one run.
    ///
    /// The classic algorithm (one thread), the speculative pass (one thread) and the verified
    /// end-to-end rate (all threads) at 2^18, 2^20, ... N heaps, every engine's values checked
    /// against the classic ones; then the unrolled loop against the generic one, the cost of
    /// period detection and of a mapped store. With --gpu: the GPU engine, verified end to end,
    /// at 2^20, 2^22, ... N heaps against the CPU engine on all cores up to --cpu-max, with the
    /// device's speculation and verification rates.
    #[command(verbatim_doc_comment)]
    Bench(BenchArgs),
    /// List the game definitions of games/ and what the build step made of each.
    Games,
    /// Print the code generated for a game: its unrolled Rust loop, or with --cuda its kernels.
    Codegen(CodegenArgs),
    /// Print the GPU's device, memory, driver and NVRTC versions, and the kernel cache's directory.
    GpuInfo(GpuInfoArgs),
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
pub struct SolveArgs {
    /// The octal code, such as .6, 0.137 or 4.07, or a game name from games/ (e.g. officers).
    pub code: String,
    #[arg(short = 'n', allow_hyphen_values = true, value_name = "N", help = Shared::HEAPS, long_help = "Heaps to compute, 0 .. N-1: a whole number such as 1000000, 1e9 or 2^22 [default: 1e6, at most 2^40]. With --check-period, the same as --max-n")]
    pub n: Option<String>,
    /// Compute until a period is proved by the Octal Periodicity Theorem (or --max-n heaps); the
    /// run stops as soon as the proof is complete.
    #[arg(long)]
    pub check_period: bool,
    #[arg(long, value_name = "N", requires = "check_period", allow_hyphen_values = true, conflicts_with = "n", help = Shared::MAX_HEAPS, long_help = "The most heaps to compute for a run that stops at a proved period [default: 1e9]")]
    pub max_n: Option<String>,
    /// The engine: auto picks, stretch by stretch, the one the values call for; exact is the
    /// definition (O(n^2)); generic and unrolled are the speculative loops throughout (unrolled
    /// only for the games of games/); gpu is the same as --gpu.
    #[arg(long, default_value_t = EngineChoice::Auto, value_parser = named::<EngineChoice>(EngineChoice::ALL.map(EngineChoice::name)))]
    pub engine: EngineChoice,
    #[arg(long, help = Shared::GPU, long_help = "Compute on the GPU (NVIDIA, CUDA driver and NVRTC loaded at run time; without them one line and exit 1). The device opens beside the host's work, which computes meanwhile; it takes the stretches that suit speculation and computes the marking engine's batches. GPU values are reported only after the device's verifier proved them. OCTAL_GPU_WINDOW (32 to 8192), OCTAL_GPU_GROWING_BUDGET (2^14 to 2^24) and OCTAL_GPU_CHAIN (host or device) tune it. The compiled kernels are kept for the next run in OCTAL_KERNEL_CACHE (default ~/.cache/octal/kernels, the 256 used last; empty: no cache)")]
    pub gpu: bool,
    #[arg(long, value_name = "N", help = Shared::DEVICES, long_help = Shared::DEVICES_LONG)]
    pub devices: Option<usize>,
    #[arg(long, value_name = "T", help = Shared::THREADS)]
    pub threads: Option<usize>,
    /// Skip verification: the values are candidates and every output says UNVERIFIED
    /// ("verified": false).
    #[arg(long)]
    pub speculate_only: bool,
    #[arg(long, help = Shared::JSON)]
    pub json: bool,
    /// Write the values as an OEIS b-file (lines "n G(n)").
    #[arg(long, value_name = "FILE")]
    pub values: Option<PathBuf>,
    #[arg(long, value_name = "DIR", help = Shared::OUT, long_help = "The run directory to stream the verified values to: values.bin (checksummed chunks, one byte a value until a value needs two; the first --keep values), checkpoint.json (replaced atomically at most every --checkpoint-secs), state.bin past --keep (the run's state, replaced atomically), a lock, and the value store values.work; continue it with `octal resume DIR`")]
    pub out: Option<PathBuf>,
    #[arg(long, short = 'q', help = Shared::QUIET)]
    pub quiet: bool,
    /// Seconds between two checkpoints of a run directory.
    #[arg(long, default_value_t = 3.0, value_name = "SECS")]
    pub checkpoint_secs: f64,
    #[arg(long = "for", value_name = "DURATION", help = Shared::FOR, long_help = Shared::FOR_LONG)]
    pub run_for: Option<String>,
    #[arg(long, value_name = "N|all", default_value = "2^31", help = Shared::KEEP, long_help = Shared::KEEP_LONG)]
    pub keep: String,
    #[arg(long, value_name = "N", help = Shared::FRONT, long_help = Shared::FRONT_LONG)]
    pub front: Option<String>,
    #[arg(long, value_name = "N", help = Shared::TAIL, long_help = Shared::TAIL_LONG)]
    pub tail: Option<String>,
    /// Heaps computed exactly for sparse-space discovery.
    #[arg(long, default_value = "2^15", value_name = "N")]
    pub discover: String,
    /// The sparse space to start from, such as range:0x1ee or domain:0x1 (the run still
    /// switches to a clearly better one). The domain type exists for games whose breaking digits'
    /// indices share their parity.
    #[arg(long, value_name = "KIND:MASK")]
    pub space: Option<String>,
}

#[derive(Debug, Args)]
pub struct ResumeArgs {
    /// The run directory, or a checkpoint file (with --out).
    pub dir: PathBuf,
    #[arg(long, value_name = "DIR", help = Shared::OUT, long_help = "For a checkpoint file: the run directory to go on in (new or empty)")]
    pub out: Option<PathBuf>,
    #[arg(long, value_name = "N|all", help = Shared::KEEP, long_help = "Heaps whose every value the run keeps, or all (default: the run's own; see `octal help solve`); a run already past them keeps its front and tail")]
    pub keep: Option<String>,
    #[arg(long, value_name = "N", help = Shared::FRONT, long_help = Shared::FRONT_LONG)]
    pub front: Option<String>,
    #[arg(long, value_name = "N", help = Shared::TAIL, long_help = Shared::TAIL_LONG)]
    pub tail: Option<String>,
    #[arg(short = 'n', allow_hyphen_values = true, value_name = "N", help = Shared::HEAPS, long_help = "Heaps to reach (default: the run's own); at least what the run already holds")]
    pub n: Option<String>,
    /// The engine to continue with (default: the run's own); the run directory records it.
    #[arg(long, value_parser = named::<EngineChoice>(EngineChoice::ALL.map(EngineChoice::name)))]
    pub engine: Option<EngineChoice>,
    #[arg(long, help = Shared::GPU)]
    pub gpu: bool,
    #[arg(long, value_name = "N", help = Shared::DEVICES, long_help = Shared::DEVICES_LONG)]
    pub devices: Option<usize>,
    #[arg(long, value_name = "T", help = Shared::THREADS)]
    pub threads: Option<usize>,
    #[arg(long, help = Shared::JSON)]
    pub json: bool,
    #[arg(long, short = 'q', help = Shared::QUIET)]
    pub quiet: bool,
    /// Seconds between two checkpoints of a run directory.
    #[arg(long, default_value_t = 3.0, value_name = "SECS")]
    pub checkpoint_secs: f64,
    #[arg(long = "for", value_name = "DURATION", help = Shared::FOR, long_help = Shared::FOR_LONG)]
    pub run_for: Option<String>,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The run directory, or a checkpoint file (`octal checkpoint`).
    pub dir: PathBuf,
    /// Recompute every rare heap's value (under the run's space) by the exact mex.
    #[arg(long)]
    pub rare: bool,
    /// Recompute this many heaps drawn across the range (the same heaps for the same values).
    #[arg(long, default_value_t = 0, value_name = "K")]
    pub sample: usize,
    #[arg(long, help = Shared::GPU, long_help = "Compute the heaps a compact checkpoint leaves out on the GPU")]
    pub gpu: bool,
    #[arg(long, help = Shared::JSON, long_help = "Print one JSON object on stdout: the run's summary (with the fnv1a64 at every power of two) and what was checked")]
    pub json: bool,
    #[arg(long, value_name = "T", help = Shared::THREADS)]
    pub threads: Option<usize>,
}

#[derive(Debug, Args)]
pub struct StatusArgs {
    /// The run directory.
    pub dir: PathBuf,
    #[arg(long, help = Shared::JSON, long_help = "Print one JSON object on stdout: the fields of `solve --json`, and the run's state under `run`")]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct CheckpointArgs {
    /// The run directory.
    pub dir: PathBuf,
    /// The file to write.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: PathBuf,
    /// Write the whole front and tail (larger; resume computes nothing again).
    #[arg(long)]
    pub whole: bool,
}

#[derive(Debug, Args)]
pub struct RestoreArgs {
    /// The snapshot.
    pub file: PathBuf,
    #[arg(long, value_name = "DIR", help = Shared::OUT, long_help = "The run directory to make (new or empty)")]
    pub out: PathBuf,
    #[arg(long, help = Shared::GPU, long_help = "Replay on the GPU (the CPU takes the heaps whose options reach rare heaps where the device's kernels cannot), and continue the run on the GPU when it is resumed")]
    pub gpu: bool,
    #[arg(long, value_name = "T", help = Shared::THREADS)]
    pub threads: Option<usize>,
    #[arg(long, short = 'q', help = Shared::QUIET)]
    pub quiet: bool,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The run directory.
    pub dir: PathBuf,
    /// The format: b-file ("n G(n)" lines), bin (little-endian u16 per value), csv, or
    /// frequencies (the histogram of the values: "value count" lines).
    #[arg(long, default_value_t = Format::Bfile, value_parser = named::<Format>(Format::ALL.map(Format::name)))]
    pub format: Format,
    /// The first heap to write.
    #[arg(long, default_value = "0")]
    pub from: String,
    /// One past the last heap to write (default: all the run holds).
    #[arg(long)]
    pub to: Option<String>,
    /// The heaps 0 .. N-1, as statistics at a power of two are quoted: `--format frequencies
    /// --at 2^k` is the histogram published at 2^k.
    #[arg(long, value_name = "N", conflicts_with_all = ["from", "to"])]
    pub at: Option<String>,
    /// The output file (default: stdout).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
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
pub struct FrontierArgs {
    /// The campaign file (TOML); its folder holds the campaign's results.
    pub campaign: PathBuf,
    #[arg(long = "for", value_name = "DURATION", help = Shared::FOR, long_help = Shared::FOR_LONG)]
    pub run_for: Option<String>,
    /// GPUs to use (default: every GPU of the host; 0: the host's cores).
    #[arg(long, value_name = "N")]
    pub devices: Option<usize>,
    /// Only write FRONTIER.md and frontier.csv from the reports in the folder.
    #[arg(long)]
    pub table: bool,
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
    #[arg(long, value_name = "N", allow_hyphen_values = true, help = Shared::MAX_HEAPS, long_help = "The most heaps to compute for each game, which stops at its proved period [default: 2^18]: a game without a proved period by then is open")]
    pub max_n: Option<String>,
    /// A game whose sparse space holds goes on past --max-n, doubling, to at most N heaps
    /// [default: 2^25; --grow-to equal to --max-n: none]: while the last half of its heaps hold
    /// at most a sixteenth of its rare heaps, and heaps x rare heaps stays within 2^32.
    #[arg(long, value_name = "N")]
    pub grow_to: Option<String>,
    #[arg(long, value_name = "DIR", help = Shared::OUT, long_help = "The survey directory to make (default survey-D)")]
    pub out: Option<PathBuf>,
    /// Print this table on standard output: md, csv or json (all are written to the directory).
    #[arg(long)]
    pub format: Option<String>,
    #[arg(long, help = Shared::JSON, long_help = "Print the survey's JSON table on stdout (the same as --format json)", conflicts_with = "format")]
    pub json: bool,
    #[arg(long, help = Shared::GPU, long_help = "Compute on the GPU (games without a sparse space on the CPU)")]
    pub gpu: bool,
    /// GPUs to compute on, with --gpu (default: every GPU of the host): one game a device, the
    /// next game as one ends, each device's games in a worker process of its own.
    #[arg(long, value_name = "N", requires = "gpu")]
    pub devices: Option<usize>,
    /// Compute the games named on standard input, one a line, each answered with its code on
    /// standard output once its record is written (what --devices runs on each GPU).
    #[arg(long, hide = true, requires = "dir")]
    pub worker: bool,
    /// Take part K of N of the games (K from 0 to N-1).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    #[arg(long, value_name = "T", help = Shared::THREADS)]
    pub threads: Option<usize>,
    #[arg(long, short = 'q', help = Shared::QUIET)]
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
    #[arg(long, value_name = "DIR", help = Shared::OUT, long_help = "The directory of the whole survey (new or empty)")]
    pub out: PathBuf,
    /// Print this table on standard output: md, csv or json.
    #[arg(long)]
    pub format: Option<String>,
    #[arg(long, help = Shared::JSON, long_help = "Print the survey's JSON table on stdout (the same as --format json)", conflicts_with = "format")]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// The octal code to measure.
    #[arg(default_value = ".6")]
    pub code: String,
    #[arg(short = 'n', default_value = "2^22", value_name = "N", help = Shared::HEAPS, long_help = "The largest number of heaps; the bench also runs at 2^18, 2^20, ... up to it")]
    pub n: String,
    #[arg(long, value_name = "T", help = Shared::THREADS)]
    pub threads: Option<usize>,
    #[arg(long, value_name = "FILE", num_args = 0..=1, help = Shared::JSON, long_help = "Print one JSON object on stdout (the tables go to stderr); with FILE, write it to FILE as well and print the tables")]
    pub json: Option<Option<PathBuf>>,
    #[arg(long, help = Shared::GPU, long_help = "Measure the GPU engine against the CPU engine (all threads) instead: verified values a second at 2^20, 2^22, ..., --cpu-max and -n, the CPU at the sizes up to --cpu-max")]
    pub gpu: bool,
    /// With --gpu: the largest size the CPU engine runs as the baseline.
    #[arg(long, default_value = "2^26", requires = "gpu", value_name = "N")]
    pub cpu_max: String,
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
pub struct GpuInfoArgs {
    /// Only check that the driver finds a device, as a --gpu run does: print "device 0 found",
    /// or the reason there is none with status 1.
    #[arg(long)]
    pub found: bool,
}

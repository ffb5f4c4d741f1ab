//! The vocabulary of a run: what is asked ([`Request`], [`EngineChoice`]), what is said while it
//! works ([`Notice`]), what comes back ([`Solution`], [`Engine`], [`GpuTimings`]) and why it may
//! fail ([`SolveError`]). The engines and the orchestration in [`crate::solve`] speak it; it
//! depends on none of them.

use crate::gpu_error::GpuError;
use crate::period::Period;
use crate::rundir::RunDirError;
use crate::values::{ValueStore, ValuesError};
use octal_core::discover::DISCOVERY_START;
use octal_core::exact::ValueOverflow;
use octal_core::{Code, RareTable, SparseSpace};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// Heaps computed exactly for discovery, however few the run asks for, so that the sparse space
/// a short run reports does not depend on its length.
pub const DISCOVERY_HEAPS: usize = DISCOVERY_START;

/// The most heaps discovery grows to for a GPU run (doubling from [`DISCOVERY_HEAPS`], by the
/// block engine) while the best mask still leaves more than `discover::SETTLED` of the later half
/// sparse, and the run needs the heaps: the device's first stretch starts from a settled space.
/// After discovery every run follows the values (`solve.rs`).
pub const DISCOVERY_MAX: usize = 1 << 17;

/// The engine a run asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EngineChoice {
    /// The fastest engine that suits the game.
    Auto,
    /// The reference engine for every heap.
    Exact,
    /// The table-driven speculative engine with the verifier (after discovery's exact heaps).
    Generic,
    /// The game's unrolled loop (games/) with the verifier.
    Unrolled,
    /// The generated CUDA kernels (speculation and verification on the GPU).
    Gpu,
}

impl EngineChoice {
    /// Every choice, in the order `--engine` lists them.
    pub const ALL: [EngineChoice; 5] = [
        EngineChoice::Auto,
        EngineChoice::Exact,
        EngineChoice::Generic,
        EngineChoice::Unrolled,
        EngineChoice::Gpu,
    ];

    /// The name `--engine` takes (and a run directory keeps).
    pub fn name(self) -> &'static str {
        match self {
            EngineChoice::Auto => "auto",
            EngineChoice::Exact => "exact",
            EngineChoice::Generic => "generic",
            EngineChoice::Unrolled => "unrolled",
            EngineChoice::Gpu => "gpu",
        }
    }
}

impl fmt::Display for EngineChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not an engine's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown engine '{0}' (auto, exact, generic, unrolled or gpu)")]
pub struct UnknownEngine(pub String);

impl FromStr for EngineChoice {
    type Err = UnknownEngine;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        EngineChoice::ALL
            .into_iter()
            .find(|e| e.name() == s)
            .ok_or_else(|| UnknownEngine(s.to_string()))
    }
}

/// The engine that computed a run's values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// Exact marking of every option, by blocks.
    Exact,
    /// The classic rare-value algorithm, by blocks.
    Classic,
    Generic,
    Unrolled,
    Gpu,
}

impl Engine {
    /// The name the summary and the JSON print.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Exact => "exact",
            Engine::Classic => "classic",
            Engine::Generic => "generic",
            Engine::Unrolled => "unrolled",
            Engine::Gpu => "gpu",
        }
    }
}

/// What a run is asked to do.
#[derive(Debug, Clone)]
pub struct Request {
    pub code: Code,
    /// Heaps to compute: 0..n.
    pub n: usize,
    pub engine: EngineChoice,
    /// False for `--speculate-only`: candidates are returned unverified.
    pub verify: bool,
    /// Heaps computed exactly for discovery at first.
    pub discovery_heaps: usize,
    /// The most heaps discovery may grow to (GPU engine).
    pub discovery_max: usize,
    /// Stop as soon as a period is proved (`n` is then the most heaps computed).
    pub check_period: bool,
    /// The sparse space to start from instead of the build-time or discovered one.
    pub space: Option<SparseSpace>,
    /// A GPU run computes on the host's cores while its device opens and compiles its first
    /// kernels (true), or waits for the device (false: tests that must exercise the device).
    pub start_on_host: bool,
}

impl Request {
    pub fn new(code: Code, n: usize) -> Request {
        Request {
            code,
            n,
            engine: EngineChoice::Auto,
            verify: true,
            discovery_heaps: DISCOVERY_HEAPS,
            discovery_max: DISCOVERY_MAX,
            check_period: false,
            space: None,
            start_on_host: true,
        }
    }
}

/// Things a run reports while it works (the binary prints them on stderr).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// Verification found a heap the table had wrong; the table was corrected and the engine
    /// rebuilt, and the run recomputes from the next heap.
    TableCorrected {
        heap: usize,
        value: u16,
        rare: bool,
        table_len: usize,
    },
    /// A common value needed more bits: the engine was rebuilt with wider codes.
    Widened { bits: u32 },
    /// The game's build-time table lacked a rare value: the run goes on with the generic loop.
    StaleBuildTable,
    /// Discovery found this sparse space (or none); the engines start.
    Discovered(Option<SparseSpace>),
    /// The values computed so far show a clearly better sparse space (or none): the run goes on
    /// with it from this heap.
    SpaceChanged(SpaceChange),
}

/// A change of the sparse space during a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpaceChange {
    /// The first heap computed under the new space.
    pub heap: usize,
    pub space: Option<SparseSpace>,
}

/// Heaps `from..to`, computed by one engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stretch {
    pub from: usize,
    pub to: usize,
    pub engine: Engine,
}

/// Where the time of a GPU run went: heaps speculated and verified on the device, the device
/// time of each kernel, and the host's waits for the device.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct GpuTimings {
    pub speculated: usize,
    /// Device time of the `spec` launches (CUDA events).
    pub speculate: Duration,
    /// Rounds of the speculation window.
    pub rounds: usize,
    /// Heaps the device's verification proved (none with `--speculate-only`).
    pub verified: usize,
    /// Device time of the `verify` launches (CUDA events; they run beside `spec`).
    pub verify: Duration,
    /// Host time spent waiting for the device to finish a block (the rest of the host's time
    /// went to fetching, checking flagged heaps and storing while the device went on).
    pub waited: Duration,
    /// Kernel modules compiled (one per rare table and code width).
    pub compiled: usize,
    /// Heaps the CPU engine computed while a correction-prone table settled.
    pub on_cpu: usize,
    /// The CPU speculated and the device verified (small tables): `speculate` is then the
    /// host's time.
    pub host_chain: bool,
    /// Heaps the verification flagged that were checked exactly (the `mex` kernel or the CPU),
    /// and the host's time for them.
    pub checked: usize,
    pub check: Duration,
    /// Host time spent making kernels and filling the device's buffers.
    pub setup: Duration,
    /// Blocks the host took from the device, the host's time taking them (all of it: waiting,
    /// reading, checking, storing), and of that the time verifying again past flagged heaps.
    pub blocks: usize,
    pub taking: Duration,
    pub reverify: Duration,
    /// Host time writing corrections to the device and the table.
    pub correct: Duration,
    /// Heaps whose far options the device marked (the block engine, either marking).
    pub exact: usize,
    /// Heaps the host's cores computed (the CPU's engines) while the device started.
    pub starting: usize,
    /// Heaps of the block engine's classic stretches whose far options the host's cores marked,
    /// timed faster there than on the device.
    pub host_classic: usize,
}

impl GpuTimings {
    /// Heaps speculated a second.
    pub fn speculated_per_second(&self) -> f64 {
        per_second(self.speculated, self.speculate)
    }

    /// Heaps verified a second.
    pub fn verified_per_second(&self) -> f64 {
        per_second(self.verified, self.verify)
    }

    /// Heaps the speculation window moved a round, on average.
    pub fn heaps_per_round(&self) -> f64 {
        self.speculated as f64 / self.rounds.max(1) as f64
    }
}

fn per_second(heaps: usize, d: Duration) -> f64 {
    heaps as f64 / d.as_secs_f64().max(1e-9)
}

/// The result of a run.
#[derive(Debug)]
pub struct Solution {
    pub values: ValueStore,
    /// The sparse space in use at the end.
    pub space: Option<SparseSpace>,
    /// The engine of the last stretch.
    pub engine: Engine,
    /// The engine of each stretch of heaps after discovery, in order.
    pub stretches: Vec<Stretch>,
    /// Where the sparse space changed.
    pub changes: Vec<SpaceChange>,
    pub verified: bool,
    /// The rare table the speculative engine ended with.
    pub table: Option<RareTable>,
    /// The period the values prove, if they prove one.
    pub period: Option<Period>,
    /// Where the time went, for the GPU engine.
    pub gpu_timings: Option<GpuTimings>,
}

/// Why a run could not finish.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    #[error(transparent)]
    Overflow(#[from] ValueOverflow),
    #[error(
        "{code} has no sparse space, so the {} engine cannot run it (use --engine exact or auto)",
        engine.name()
    )]
    NoSparseSpace { code: Code, engine: EngineChoice },
    #[error(transparent)]
    Gpu(#[from] GpuError),
    /// The values could not be kept (an unwritable temporary directory, a full disk).
    #[error(transparent)]
    Values(#[from] ValuesError),
    /// The watcher of a run failed (writing a run directory, say).
    #[error(transparent)]
    RunDir(#[from] RunDirError),
    #[error("{0} has no unrolled engine: games/ does not specialise it (`octal games` lists those that are)")]
    NoUnrolled(Code),
}

impl SolveError {
    /// Whether the request itself was at fault (a choice of engine the game cannot take, a size
    /// the engine refuses): bad input, not a failure while running.
    pub fn is_bad_request(&self) -> bool {
        matches!(
            self,
            SolveError::NoSparseSpace { .. } | SolveError::NoUnrolled(_)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_names_round_trip() {
        for e in EngineChoice::ALL {
            assert_eq!(e.name().parse::<EngineChoice>(), Ok(e));
        }
        assert!("fast".parse::<EngineChoice>().is_err());
    }
}

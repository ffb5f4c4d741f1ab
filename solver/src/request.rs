//! What a run is asked to do: the game, how many heaps, which engine ([`EngineChoice`]), with
//! or without verification, whether to stop at a proved period, where to start ([`Request`]).

use octal_core::discover::DISCOVERY_START;
use octal_core::{Code, SparseSpace};
use std::fmt;
use std::str::FromStr;

/// Heaps computed exactly for discovery, however few the run asks for, so that the sparse space
/// a short run reports does not depend on its length.
pub const DISCOVERY_HEAPS: usize = DISCOVERY_START;

/// The most heaps discovery grows to for a GPU run (doubling from [`DISCOVERY_HEAPS`], by the
/// marking engine) while the best mask still leaves more than `discover::SETTLED` of the later
/// half sparse, and the run needs the heaps: the device's first stretch starts from a settled
/// space. After discovery every run follows the values ([`crate::solve`]).
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

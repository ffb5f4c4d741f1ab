//! What a run is asked to do: the game, how many heaps, which engine ([`EngineChoice`]), with
//! or without verification, whether to stop at a proved period, where to start ([`Request`]).

use octal_core::discover::DISCOVERY_START;
use octal_core::{Code, SparseSpace};
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Instant;

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
    /// Past this many heaps the run holds only its first and last values ([`Bounds`]); none:
    /// every value.
    pub keep: Option<usize>,
    /// The front and tail asked for, where the run's own choice is not wanted.
    pub bounds: Bounds,
    /// Stop cleanly at this moment, with every value computed so far proved (`--for`).
    pub until: Option<Instant>,
    /// The run directory whose `values.bin` keeps the run's first heaps: a bounded run whose
    /// front grows reads them there instead of computing them again.
    pub kept_in: Option<PathBuf>,
    /// Devices whose verification a GPU run shares (device 0 and the next ones).
    pub devices: usize,
}

/// The heaps a run that holds only its first and last values keeps: the front (the smaller
/// parts of the splits its proofs read) and at least the tail (the options a heap's speculation
/// and the larger parts of those splits reach); none: the run's own choice.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Bounds {
    pub front: Option<usize>,
    pub tail: Option<usize>,
}

/// The most heaps a run that keeps every value may ask for: the values live in a file
/// (`octal-store`'s value store), not in memory; 2^40 of them take 2.2 TB of disk, as much again
/// in a run directory.
pub const MAX_HEAPS: usize = 1 << 40;

/// The most heaps a run that holds only its front and tail past `keep` may ask for (its memory
/// and disk do not grow with them).
pub const MAX_BOUNDED_HEAPS: usize = 1 << 50;

impl Request {
    /// Why a run of `n` heaps keeping the values of the first `keep` (none: all) is too long,
    /// if it is.
    pub fn size_error(n: usize, keep: Option<usize>) -> Option<String> {
        let bounded = keep.is_some_and(|k| n > k);
        if bounded && n > MAX_BOUNDED_HEAPS {
            Some(format!("{n}: at most 2^50 heaps are supported"))
        } else if !bounded && n > MAX_HEAPS {
            Some(format!(
                "{n}: at most 2^40 heaps are supported when every value is kept (their values alone take {:.1} TB of disk; --keep N holds only the first and last past N)",
                2.0 * MAX_HEAPS as f64 / 1e12
            ))
        } else {
            None
        }
    }

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
            keep: None,
            bounds: Bounds::default(),
            until: None,
            kept_in: None,
            devices: 1,
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

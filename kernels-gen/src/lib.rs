//! `kernels-gen`: a game's sparse space and rare table become CUDA C source (issue 5).
//!
//! The generator is pure and deterministic: the same game, table and value width give the same
//! text, byte for byte, with a header naming the game, the table's fingerprint
//! ([`RareTable::fingerprint`]) and [`GENERATOR_VERSION`]. The hot options (one per breaking digit
//! and rare heap, see [`octal_core::codec::LoopTable`]) are literal initialisers of `__constant__`
//! arrays, or of global `__device__` arrays when they would not fit the 64 KiB constant bank.
//!
//! The source holds three kernels, whose signatures the solver's launch module names:
//!
//! * `push_far(const code_t *codes, unsigned *marks, u64 src_lo, u64 src_hi)`: for the heaps
//!   `n` in `src_hi .. src_hi + REACH`, marks the codes of the options whose source heap lies in
//!   `src_lo .. src_hi` (one thread per target heap; a ring of `RING` bitsets of `WORDS` words).
//! * `chain(code_t *codes, u16 *values, unsigned *marks, u64 lo, u64 hi, u64 *overflow)`: one
//!   warp computes heaps `lo .. hi` (at most `MAX_TILE`) in order: the pushed marks, the options
//!   whose source lies inside the tile, then the mex over the codes. A mex beyond the code space
//!   stores its heap in `*overflow` (minimum) and stops.
//! * `verify(const u16 *g, u64 lo, u64 hi, u64 *first_fail)`: one thread per heap proves a common
//!   candidate (every rare-class value below it is the value of some option) and stores the
//!   least failing heap with `atomicMin`; a rare candidate is always reported, for the host to
//!   check exactly.
//!
//! The crate knows nothing of CUDA at run time: the solver compiles the text with NVRTC.

mod layout;
mod source;

pub use layout::Layout;

use octal_core::{Code, RareTable, SparseSpace};

/// Bumped whenever the generated text changes meaning (it is part of the header).
pub const GENERATOR_VERSION: &str = "kernels-gen 1";

/// The widest values the kernels handle: codes of `MAX_VALUE_BITS - 1` bits.
pub const MAX_VALUE_BITS: u32 = 12;

/// Why no source was generated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GenError {
    #[error("values need {bits} bits; the GPU kernels handle values below 2^{MAX_VALUE_BITS}")]
    TooWide { bits: u32 },
    #[error(
        "{code} has no breaking or single-heap option past its rare heaps: nothing to speculate"
    )]
    NoOptions { code: Code },
}

/// What the kernels are generated for.
#[derive(Debug, Clone, Copy)]
pub struct Game<'a> {
    pub code: &'a Code,
    pub space: SparseSpace,
    pub table: &'a RareTable,
    /// Every value is below `2^value_bits`.
    pub value_bits: u32,
}

/// The CUDA C source for `game`.
pub fn generate(game: &Game<'_>) -> Result<String, GenError> {
    let layout = Layout::new(game)?;
    Ok(source::render(game, &layout))
}

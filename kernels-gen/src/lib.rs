//! `kernels-gen`: a game's sparse space and rare table become CUDA C source for the GPU engine.
//!
//! The generator is pure and deterministic: the same game, table and value width give the same
//! text, byte for byte, with a header naming the game, the table's fingerprint
//! ([`RareTable::fingerprint`]) and [`GENERATOR_VERSION`]. The hot options (one per breaking digit
//! and rare heap, see [`octal_core::codec::LoopTable`]) are literal initialisers of `__constant__`
//! arrays, or of global `__device__` arrays when they would not fit the 64 KiB constant bank.
//!
//! The source holds three kernels, whose signatures the solver's launch module names:
//!
//! The device keeps the codes and values of a run's last `cmask + 1` heaps (a power of two) in
//! rings, heap h at `h & cmask`, and the values of its first `prefix + VERIFY_PAD` heaps (the
//! smaller parts of the splits `verify` tries), so that a run of any length fits:
//!
//! * `spec(code_t *codes, u64 cmask, u64 lo, u64 hi, unsigned window, u64 *ctl)`: a cooperative
//!   launch (one block per SM, `SPEC_THREADS` threads, `spec_shared` bytes of dynamic shared
//!   memory) speculates heaps `lo .. hi` by rounds over a sliding window of `window` heaps: every
//!   warp computes one heap at a time from the previous round's codes (the lanes split the
//!   options); the heaps before the first one that changed in a round are the recurrence's
//!   values, so the window moves past it. The codes of `lo - REACH .. lo` must be the true ones;
//!   the others are guesses. `ctl` holds the control words (see the source).
//! * `decode(const code_t *codes, u16 *ring, u16 *first, u64 prefix, u64 cmask, u64 lo, u64 hi)`:
//!   values from codes.
//! * `verify(const u16 *g, const u16 *first, u64 prefix, u64 cmask, u64 lo, u64 hi, u64
//!   *first_fail)`: one warp per
//!   heap proves a common candidate (every rare-class value below it is the value of some option,
//!   splits tried while their smaller part is below the prefix) and stores the least failing
//!   heap with `atomicMin`; a rare candidate, or one not proved within the prefix, is reported
//!   for the host to check exactly.
//!
//! The crate knows nothing of CUDA at run time: the solver compiles the text with NVRTC.

mod layout;
mod source;

pub use layout::{Layout, FAR_SLOTS, VERIFY_THREADS, WINDOW_MAX};
pub use source::VERIFY_PAD;

use octal_core::{Code, RareTable, SparseSpace};

/// Bumped whenever the generated text changes meaning (it is part of the header).
pub const GENERATOR_VERSION: &str = "kernels-gen 4.9";

/// The widest values the kernels handle: codes of `MAX_VALUE_BITS - 1` bits.
pub const MAX_VALUE_BITS: u32 = 12;

/// The control words of the `spec` kernel: indices into its `ctl` buffer of `WORDS` u64, named
/// `CTL_*` in the generated source.
pub mod ctl {
    /// The heap whose mex left the code space (out; NONE: none).
    pub const OVERFLOW: usize = 0;
    /// Rounds run (out).
    pub const ROUNDS: usize = 1;
    /// Three slots (round r uses r % 3): the first heap that changed, as 2 n + 1 when the heap was
    /// in its first round and 2 n otherwise.
    pub const CHANGED: usize = 2;
    /// Three slots: the first heap whose mex overflowed.
    pub const OVER: usize = 5;
    /// The grid barrier's arrivals.
    pub const ARRIVED: usize = 8;
    /// Words in all.
    pub const WORDS: usize = 9;
}

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

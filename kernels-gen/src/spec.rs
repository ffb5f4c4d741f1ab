//! What kernels are generated for ([`KernelSpec`]), why some cannot be ([`GenError`]), and the
//! numbers the generated source and the host that launches it agree on: the generator's version,
//! the value width, the verification's list of flagged heaps and the `spec` kernel's control
//! words.

use octal_core::{Code, RareTable, SparseSpace};

/// Bumped whenever the generated text changes meaning (it is part of the header).
pub const GENERATOR_VERSION: &str = "kernels-gen 5.2";

/// Heaps the `verify` kernel lists for the host's exact check (in `flags[2 ..]`) before it keeps
/// only the least of the others (`flags[0]`): the host verifies the batch again past that heap, so
/// a list that is short for a batch where a growing table flags many heaps (.143 flags one heap
/// in seven) makes that verification quadratic.
pub const FLAG_LIST: usize = 4096;

/// The widest values the kernels handle: keys of `MAX_VALUE_BITS - 1` bits.
pub const MAX_VALUE_BITS: u32 = 13;

/// The control words of the `spec` kernel: indices into its `ctl` buffer of `WORDS` u64, named
/// `CTL_*` in the generated source.
pub mod ctl {
    /// The heap whose mex left the key space (out; NONE: none).
    pub const OVERFLOW: usize = 0;
    /// Rounds run (out).
    pub const ROUNDS: usize = 1;
    /// Three rotating words (round r uses r % 3): the first heap that changed, as 2 n + 1 when the heap was
    /// in its first round and 2 n otherwise.
    pub const CHANGED: usize = 2;
    /// Three rotating words: the first heap whose mex overflowed.
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
pub struct KernelSpec<'a> {
    pub code: &'a Code,
    pub space: SparseSpace,
    pub table: &'a RareTable,
    /// Every value is below `2^value_bits`.
    pub value_bits: u32,
    /// Whether heaps whose options reach rare heaps are computed (see the crate docs); else the
    /// kernels start past the table's `hot_from`.
    pub rare_sources: bool,
}

//! `kernels-gen`: a game's sparse space and rare table become CUDA C source for the GPU engine.
//!
//! The generator is pure and deterministic: the same game, table and value width give the same
//! text, byte for byte, with a header naming the game and [`GENERATOR_VERSION`]. The source is
//! specialised for the game's moves, space and value width; the rare table is data. Its hot
//! options (one per breaking digit and rare heap, see [`octal_core::codec::LoopTable`]; the
//! [`Layout`] lists them) are the `spec` kernel's argument, a `uint2` (distance, key) each sorted
//! by distance, which every `spec` block copies into its shared memory while the layout's capacity
//! holds them, and reads from global memory beyond: a new rare value appends to that array, and
//! compiles nothing while the layout still fits ([`Layout::fits`]).
//!
//! With [`KernelSpec::rare_sources`] the kernels compute heaps whose options reach rare heaps (a table
//! still growing): the key of a rare heap is the sentinel, all ones, and an option read from it,
//! or from before heap 1, marks a discard bit past the keys.
//!
//! The source holds four kernels, whose signatures the solver's launch module names:
//!
//! The device keeps the keys and values of a run's last `cmask + 1` heaps (a power of two) in
//! rings, heap h at `h & cmask`, and the values of its first `prefix + VERIFY_PAD` heaps (the
//! smaller parts of the splits `verify` tries), so that a run of any length fits:
//!
//! * `spec(key_type *keys, u64 cmask, u64 lo, u64 hi, unsigned window, u64 *ctl, const uint2
//!   *table, unsigned n_options)`: a cooperative
//!   launch (one block per SM, `SPEC_THREADS` threads, `spec_shared` bytes of dynamic shared
//!   memory) speculates heaps `lo .. hi` by rounds over a sliding window of `window` heaps: every
//!   warp computes one heap at a time from the previous round's keys (the lanes split the
//!   options); the heaps before the first one that changed in a round are the recurrence's
//!   values, so the window moves past it. The keys of `lo - REACH .. lo` must be the true ones;
//!   the others are guesses. `ctl` holds the control words (see the source); `table` the hot
//!   options.
//! * `decode(const key_type *keys, u16 *ring, u16 *first, u64 prefix, u64 cmask, u64 lo, u64 hi)`:
//!   values from keys.
//! * `verify(const u16 *g, const u16 *first, u64 prefix, u64 cmask, u64 lo, u64 hi, u64
//!   *flags, u64 budget)`: one warp per
//!   heap proves a common candidate (every rare-class value below it is the value of some option,
//!   splits tried while their smaller part is below the prefix and `budget`); a rare candidate,
//!   or one not proved within those splits, is flagged for the host to check exactly: listed in
//!   `flags[2 ..]` ([`FLAG_LIST`] of them, `flags[1]` counting), the least of the rest in
//!   `flags[0]`.
//! * `mex(const u16 *g, const u16 *first, u64 cmask, const u64 *heaps, unsigned *seen)`: a row of
//!   the grid per heap marks the value of every option of the heap in its `2^value_bits / 32`
//!   words of `seen` (zeroed by the host), whose first clear bit is G(n): the exact values of
//!   flagged heaps.
//!
//! [`generate_blocks`] writes the marking engine's kernels for a game (no table; the exact
//! values of a batch of heaps N .. N + B): `far(const u16 *g, u64 start, unsigned words, unsigned
//! *seen)`, a row of the grid per heap `start + y`, marks the value of every split of the heap
//! whose parts lie below `start` into its `words` words of `seen`; `block(u16 *g, u64 start,
//! unsigned rows, unsigned words, unsigned span, const unsigned *seen, unsigned *over)`, one CUDA
//! block, computes the heaps one after another from their far sets and their near options (whole
//! moves, single heaps, splits with a part in the batch), writing each value to `g`.
//!
//! The crate knows nothing of CUDA at run time: the solver compiles the text with NVRTC.

mod layout;
mod source;
mod spec;

pub use layout::{Layout, FAR_SETS, VERIFY_THREADS, WINDOW_MAX};
pub use source::VERIFY_PAD;
pub use spec::{ctl, GenError, KernelSpec, FLAG_LIST, GENERATOR_VERSION, MAX_VALUE_BITS};

use octal_core::Code;

/// The CUDA C source for `game`.
pub fn generate(game: &KernelSpec<'_>) -> Result<String, GenError> {
    let layout = Layout::new(game)?;
    Ok(source::render(game, &layout))
}

/// The marking engine's kernels for `code` (see the crate docs).
pub fn generate_blocks(code: &Code) -> String {
    source::render_blocks(code)
}

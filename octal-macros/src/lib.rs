//! `octal-macros`: a game's rare table becomes an unrolled speculative loop.
//!
//! The speculative engine of `octal-engines` predicts the value of heap `n` from a window of keys
//! of recent values (a value's key is the value without one bit of the sparse space's mask): for
//! each rare entry it loads the key at a fixed distance back, xors it with the key of a rare value
//! and stamps the result in a `seen` array; it stamps the keys of the single-heap options too; the
//! candidate is the first unstamped key. The generic engine loops over the table at run time.
//! [`unrolled!`] emits the same work for one table as straight-line source, every distance and
//! key an immediate (Grossman 2019, "Searching for periodicity in Officers", Figures 4 and 5).
//!
//! `octal-engines`' build script runs discovery for each game in `games/` and writes one invocation
//! per game; nothing else calls this crate. The expansion is deterministic: the same table gives
//! the same tokens, which a snapshot test pins down.
//!
//! ```
//! octal_macros::unrolled! {
//!     name = example,
//!     code = "0.6",
//!     fingerprint = 0x1234abcd5678ef90,
//!     key_type = u8,
//!     keys = 16,
//!     offsets = [2, 3, 3],
//!     rare_keys = [1, 0, 5],
//!     singles = [1],
//! }
//!
//! let window: [u8; 4] = [9, 0, 6, 4]; // keys of heaps n - 4 .. n - 1
//! let (mut seen, stamp) = ([0u8; example::SEEN], 1);
//! // SAFETY: the three keys before the end of `window` are read (REACH = 3); `seen` holds
//! // SEEN bytes.
//! unsafe { example::mark(window.as_ptr_range().end, seen.as_mut_ptr(), stamp) };
//! // Stamped: 6 ^ 1, 0 ^ 0, 0 ^ 5 and 4: keys 0, 4, 5 and 7.
//! let keys = seen[..example::KEYS].try_into().unwrap();
//! assert_eq!(example::mex(keys, stamp), Some(1));
//! assert_eq!((example::ENTRIES, example::REACH), (3, 3));
//! ```
//!
//! This crate is only the compiler's entry point: the expansion is the plain function
//! `octal_unroll::expand`, which unit tests, snapshot tests and `octal codegen` call directly.

use proc_macro::TokenStream;

/// Emits `pub mod NAME` holding one game's unrolled speculative loop.
///
/// ```text
/// octal_macros::unrolled! {
///     name = officers,                  // the module emitted
///     code = "0.6",                     // the game's canonical code
///     fingerprint = 0x1234abcd5678ef90, // the rare table's fingerprint (u64)
///     key_type = u8,                    // the window's key type: u8 or u16
///     keys = 256,                       // keys in use: a power of two the type can hold
///     offsets = [2, 3, 7],              // distance back of each rare entry (u32, >= 1)
///     rare_keys = [1, 0, 5],            // key of each entry's rare value (< keys)
///     singles = [1],                    // distances back of single-heap options (may be [])
/// }
/// ```
///
/// Fields may come in any order; each is required once. The module holds `CODE` (the game's),
/// `FINGERPRINT`, `Key`, `ENTRIES`, `REACH`, `KEYS`, `SEEN` and
///
/// ```text
/// pub unsafe fn mark(at: *const Key, seen: *mut u8, stamp: u8);
/// pub fn mex(seen: &[u8; KEYS], stamp: u8) -> Option<usize>;
/// ```
#[proc_macro]
pub fn unrolled(input: TokenStream) -> TokenStream {
    octal_unroll::expand(input.into())
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

//! The numbers a generated source is built from: code width, bitset sizes, the option list, the
//! speculation window and its shared-memory ring, and where the table lives. The host side of the
//! solver reads the same numbers (block sizes, shared memory, window) so that its launches match
//! the kernels.

use crate::{Game, GenError, MAX_VALUE_BITS};
use octal_core::codec::LoopTable;
use octal_core::SparseKind;

/// Bytes of the constant bank; a table larger than this (less a margin for the other constants)
/// lives in global memory.
const CONSTANT_BANK: usize = 64 * 1024;
const CONSTANT_MARGIN: usize = 4 * 1024;

/// The largest speculation window (heaps computed at once by the `spec` kernel's rounds).
pub const WINDOW_MAX: usize = 8192;
/// Shared memory a `spec` block may use (the H100/H200 allow 227 KiB per block; the rest of the
/// SM stays free for `verify` blocks).
const SPEC_SHARED_MAX: usize = 160 * 1024;
/// Bytes of the per-lane bitsets of one `spec` block.
const SPEC_BITS_BYTES: usize = 32 * 1024;
/// Heaps of the window one `spec` block keeps the far marks of: a window holds at most
/// `(FAR_SLOTS - 2) * blocks` heaps.
pub const FAR_SLOTS: usize = 128;
/// Threads of a `verify` block (one warp per heap).
pub const VERIFY_THREADS: usize = 256;

/// The derived parameters of one generated source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    pub value_bits: u32,
    /// Codes in use: values below `2^value_bits` have codes below `codes`.
    pub codes: usize,
    /// 32-bit words of a code bitset.
    pub words: usize,
    /// Bytes of one code (1 or 2).
    pub code_bytes: usize,
    /// The hot options as one list sorted by distance: breaking entries, and single-heap options
    /// with code 0.
    pub options: Vec<(usize, u16)>,
    /// The farthest distance back of an option.
    pub reach: usize,
    /// Threads of a `spec` block (one warp per heap; each lane keeps a bitset of `words` words).
    pub spec_threads: usize,
    /// Heaps in each `spec` block's shared ring of codes (a power of two of at least
    /// `reach + 2 WINDOW_MAX` and a 16-byte group: a launch first loads up to two windows past
    /// its first heap, a round reloads its window), or 0 when it would not fit and sources are
    /// read from global memory.
    pub ring: usize,
    /// Whether the options are copied to shared memory (else read from their table), each
    /// packed in one 32-bit word: its code above `dist_bits` bits of distance.
    pub options_shared: bool,
    /// Bits of distance in a packed option (the code takes the `value_bits - 1` above them).
    pub dist_bits: u32,
    /// Dynamic shared memory of a `spec` block, in bytes.
    pub spec_shared: usize,
    /// First heap the kernels may compute.
    pub hot_from: usize,
    /// Whether the options sit in the constant bank.
    pub constant: bool,
    /// Lowest bit of the mask (dropped by the codec).
    pub drop_bit: u32,
    /// The domain type's digit index, if the space is of that type.
    pub domain_k: Option<usize>,
}

impl Layout {
    pub fn new(game: &Game<'_>) -> Result<Layout, GenError> {
        let bits = game.value_bits.max(octal_core::codec::MIN_VALUE_BITS);
        if bits > MAX_VALUE_BITS {
            return Err(GenError::TooWide { bits });
        }
        let rules = game.code.rules();
        let hot = LoopTable::new(&rules, game.space, game.table);
        let mut options = hot.entries.clone();
        options.extend(hot.singles.iter().map(|&d| (d, 0)));
        options.sort_by_key(|o| o.0);
        if options.is_empty() {
            return Err(GenError::NoOptions {
                code: game.code.clone(),
            });
        }
        let codes = 1usize << (bits - 1);
        let words = codes / 32;
        let code_bytes = if bits <= 9 { 1 } else { 2 };
        let reach = hot.reach();
        let spec_threads = (SPEC_BITS_BYTES / (4 * words)).clamp(128, 1024);
        // The lanes' bitsets, the far slots, the options packed in a u32 each if they fit (a
        // warp's load of 32 options is one shared-memory wavefront instead of two: speculation
        // 2.4% faster), the ring (16-byte aligned: a multiple of four options).
        let bitsets = (spec_threads + FAR_SLOTS) * words * 4;
        let options_bytes = options.len().next_multiple_of(4) * 4;
        let dist_bits = 32 - (bits - 1);
        // Codes are below `codes` (values below 2^bits, the game's promise), so the field above
        // the distance holds them; the distance must fit its own.
        let options_shared =
            bitsets + options_bytes <= SPEC_SHARED_MAX && reach < 1usize << dist_bits;
        let fixed = bitsets + if options_shared { options_bytes } else { 0 };
        let ring_heaps = (reach + 2 * WINDOW_MAX + 16).next_power_of_two();
        let ring = if fixed + ring_heaps * code_bytes <= SPEC_SHARED_MAX {
            ring_heaps
        } else {
            0
        };
        Ok(Layout {
            value_bits: bits,
            codes,
            words,
            code_bytes,
            reach,
            spec_threads,
            ring,
            options_shared,
            dist_bits,
            spec_shared: fixed + ring * code_bytes,
            hot_from: hot.hot_from.max(reach),
            constant: options.len() * 6 <= CONSTANT_BANK - CONSTANT_MARGIN,
            options,
            drop_bit: game.space.mask.trailing_zeros(),
            domain_k: match game.space.kind {
                SparseKind::Range => None,
                SparseKind::Domain { k } => Some(k),
            },
        })
    }
}

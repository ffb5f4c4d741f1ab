//! The numbers a generated source is built from: key width, bitset sizes, the option list, the
//! speculation window and its shared-memory ring, and how far the table may grow before the
//! source must change. The host side of the solver reads the same numbers (block sizes, shared
//! memory, window) so that its launches match the kernels.

use crate::spec::{GenError, KernelSpec, MAX_VALUE_BITS};
use octal_core::codec::LoopTable;
use octal_core::SparseKind;

/// The largest speculation window (heaps computed at once by the `spec` kernel's rounds).
pub const WINDOW_MAX: usize = 8192;
/// Shared memory a `spec` block may use (the H100/H200 allow 227 KiB per block; the rest of the
/// SM stays free for `verify` blocks).
const SPEC_SHARED_MAX: usize = 160 * 1024;
/// Bytes of the per-lane bitsets of one `spec` block.
const SPEC_BITS_BYTES: usize = 32 * 1024;
/// Heaps of the window one `spec` block keeps the far marks of: a window holds at most
/// `(FAR_SETS - 2) * blocks` heaps.
pub const FAR_SETS: usize = 128;
/// Threads of a `verify` block (one warp per heap).
pub const VERIFY_THREADS: usize = 256;

/// The derived parameters of one generated source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    pub value_bits: u32,
    /// Keys in use: values below `2^value_bits` have keys below `keys`.
    pub keys: usize,
    /// 32-bit words of a key bitset.
    pub words: usize,
    /// 32-bit words between two bitsets: `words`, and one more (the discard bit's) with
    /// `rare_sources`.
    pub stride: usize,
    /// Bytes of one key (1 or 2).
    pub key_bytes: usize,
    /// The hot options of the game's table as one list sorted by distance: breaking entries, and
    /// single-heap options with key 0.
    pub options: Vec<(usize, u16)>,
    /// The farthest distance back of an option.
    pub reach: usize,
    /// The most options the shared copy holds (0 without `options_shared`).
    pub options_cap: usize,
    /// The farthest distance back the ring and the packed options hold (`usize::MAX` where
    /// neither is in use).
    pub reach_cap: usize,
    /// See [`KernelSpec::rare_sources`].
    pub rare_sources: bool,
    /// Threads of a `spec` block (one warp per heap; each lane keeps a bitset of `words` words).
    pub spec_threads: usize,
    /// Heaps in each `spec` block's shared ring of keys (a power of two of at least
    /// `reach + 2 WINDOW_MAX` and a 16-byte group: a launch first loads up to two windows past
    /// its first heap, a round reloads its window), or 0 when it would not fit and sources are
    /// read from global memory.
    pub ring: usize,
    /// Whether the options are copied to shared memory (else read from their table), each
    /// packed in one 32-bit word: its key above `dist_bits` bits of distance.
    pub options_shared: bool,
    /// Bits of distance in a packed option (the key takes the `value_bits - 1` above them).
    pub dist_bits: u32,
    /// Dynamic shared memory of a `spec` block, in bytes.
    pub spec_shared: usize,
    /// First heap the kernels may compute.
    pub hot_from: usize,
    /// Lowest bit of the mask (dropped by the codec).
    pub drop_bit: u32,
    /// The domain type's digit index, if the space is of that type.
    pub domain_k: Option<usize>,
}

impl Layout {
    pub fn new(game: &KernelSpec<'_>) -> Result<Layout, GenError> {
        // With rare sources a key must spare the sentinel: the keys of values below 2^8 are
        // one byte then, and of wider values two.
        let least = if game.rare_sources {
            6
        } else {
            octal_core::codec::MIN_VALUE_BITS
        };
        let bits = game.value_bits.max(least);
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
        let keys = 1usize << (bits - 1);
        let words = keys / 32;
        let key_bytes = if bits <= 9 - u32::from(game.rare_sources) {
            1
        } else {
            2
        };
        let stride = words + usize::from(game.rare_sources);
        let reach = hot.reach();
        // A growing table gets room to grow (twice its options and reach) before the source
        // changes; a settled one, exactly what it has.
        let (options_cap, reach_cap) = if game.rare_sources {
            (
                (2 * options.len()).next_power_of_two().max(256),
                (2 * reach).next_power_of_two().max(1024),
            )
        } else {
            (options.len(), reach)
        };
        let spec_threads = (SPEC_BITS_BYTES / (4 * words)).clamp(128, 1024);
        // The lanes' bitsets, the far sets, the options packed in a u32 each if they fit (a
        // warp's load of 32 options is one shared-memory wavefront instead of two: speculation
        // 2.4% faster), the ring (16-byte aligned: a multiple of four options).
        let bitsets = (spec_threads + FAR_SETS) * stride * 4;
        let options_bytes = options_cap.next_multiple_of(4) * 4;
        let dist_bits = 32 - (bits - 1);
        // Keys are below `keys` (values below 2^bits, the game's promise), so the field above
        // the distance holds them; the distance must fit its own.
        let options_shared =
            bitsets + options_bytes <= SPEC_SHARED_MAX && reach_cap < 1usize << dist_bits;
        let fixed = bitsets + if options_shared { options_bytes } else { 0 };
        let ring_heaps = (reach_cap + 2 * WINDOW_MAX + 16).next_power_of_two();
        let ring = if fixed + ring_heaps * key_bytes <= SPEC_SHARED_MAX {
            ring_heaps
        } else {
            0
        };
        // Room that nothing is sized by is no limit (and leaves the text alone as tables grow).
        let options_cap = if options_shared { options_cap } else { 0 };
        let reach_cap = if options_shared || ring > 0 {
            reach_cap
        } else {
            usize::MAX
        };
        Ok(Layout {
            value_bits: bits,
            keys,
            words,
            stride,
            key_bytes,
            reach,
            options_cap,
            reach_cap,
            rare_sources: game.rare_sources,
            spec_threads,
            ring,
            options_shared,
            dist_bits,
            spec_shared: fixed + ring * key_bytes,
            // Rare sources: any heap past the first (options reaching heap 0 or before are
            // discarded).
            hot_from: if game.rare_sources {
                1
            } else {
                hot.hot_from.max(reach)
            },
            options,
            drop_bit: game.space.mask.trailing_zeros(),
            domain_k: match game.space.kind {
                SparseKind::Range => None,
                SparseKind::Domain { k } => Some(k),
            },
        })
    }

    /// Whether a table with `options` hot options reaching `reach` heaps back fits these kernels
    /// (the shared copy and the ring were sized for at most `options_cap` and `reach_cap`).
    pub fn fits(&self, options: usize, reach: usize) -> bool {
        (!self.options_shared || options <= self.options_cap)
            && (!self.options_shared && self.ring == 0 || reach <= self.reach_cap)
    }
}

//! The numbers a generated source is built from: code width, bitset sizes, the option lists and
//! where the table lives. The host side of the solver reads the same numbers (tile size, ring
//! length) so that its launches match the kernels.

use crate::{Game, GenError, MAX_VALUE_BITS};
use octal_core::codec::LoopTable;
use octal_core::SparseKind;

/// Bytes of the constant bank; a table larger than this (less a margin for the other constants)
/// lives in global memory.
const CONSTANT_BANK: usize = 64 * 1024;
const CONSTANT_MARGIN: usize = 4 * 1024;

/// Largest tile the chain kernel computes in one launch; halved while the tile's marks
/// (`TILE_MARK_BYTES` at most) or the options whose source can lie inside a tile are too many for
/// shared memory.
const TILE_START: usize = 1024;
const TILE_MARK_BYTES: usize = 32 * 1024;
const NEAR_MAX: usize = 2048;

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
    /// The hot options as one list: breaking entries, and single-heap options with code 0.
    pub options: Vec<(usize, u16)>,
    /// Options with distance below `max_tile` (they come first in `options`).
    pub near: usize,
    /// The most heaps one `chain` launch computes.
    pub max_tile: usize,
    /// The farthest distance back of an option.
    pub reach: usize,
    /// Heaps in the ring of mark bitsets (a power of two above `reach + max_tile`).
    pub ring: usize,
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
        let bits = game.value_bits.max(9);
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
        let mut max_tile = TILE_START;
        let near_of = |tile: usize| options.partition_point(|o| o.0 < tile);
        while max_tile > 32
            && (near_of(max_tile) > NEAR_MAX || max_tile * codes / 8 > TILE_MARK_BYTES)
        {
            max_tile /= 2;
        }
        let reach = hot.reach();
        Ok(Layout {
            value_bits: bits,
            codes,
            words: codes / 32,
            code_bytes: if bits <= 9 { 1 } else { 2 },
            near: near_of(max_tile),
            max_tile,
            reach,
            ring: (reach + max_tile + 1).next_power_of_two(),
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

//! Discovery: the sparse space that the first values of a game show, and the exact values it
//! computes to find it.
//!
//! Every mask below the largest value's top bit is scored, of the range type and (for a game
//! with exactly one breaking digit) of the domain type, by the sparse heaps it leaves in the
//! later half of the values; discovery grows its range while no mask has settled. It is never
//! told the answer.

use crate::classic::Classic;
use crate::code::Rules;
use crate::exact::{self, ValueOverflow};
use crate::sparse::{RareTable, SparseKind, SparseSpace};

/// Counts of sparse heaps for one candidate space, used to rank the candidates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Score {
    later: usize,
    total: usize,
    mask: u16,
}

/// The most mask bits discovery tries (2^14 masks).
const MAX_MASK_BITS: u32 = 14;

/// The best candidate sparse space for the values `g`, with the fraction of the later half of
/// `g` that it leaves sparse.
///
/// Every mask below the largest value's top bit is tried, of the range type and, for a game with
/// exactly one breaking digit, of the domain type. The winner has the fewest sparse heaps in the
/// later half of `g`, then the fewest overall, then the smaller mask (range before domain on a
/// full tie).
pub fn best_space(rules: &Rules, g: &[u16]) -> Option<(SparseSpace, f64)> {
    let max = g.iter().copied().max().unwrap_or(0);
    if g.len() < 64 || max == 0 {
        return None;
    }
    let bits = 16 - max.leading_zeros();
    if bits > MAX_MASK_BITS {
        return None;
    }
    let half = g.len() / 2;
    // Histograms of values by heap parity, overall and in the later half.
    let size = 1usize << bits;
    let mut hist = vec![[0usize; 4]; size]; // [parity][later?] flattened as 2*parity + later
    for (n, &v) in g.iter().enumerate() {
        let slot = 2 * (n & 1) + usize::from(n >= half);
        hist[v as usize][slot] += 1;
    }
    let present: Vec<(u16, [usize; 4])> = hist
        .iter()
        .enumerate()
        .filter(|(_, h)| h.iter().any(|&c| c > 0))
        .map(|(v, h)| (v as u16, *h))
        .collect();
    let domain_k = (rules.breaking.len() == 1).then(|| rules.breaking[0]);
    let mut best: Option<(Score, SparseSpace)> = None;
    for mask in 1..(1u32 << bits) {
        let mask = mask as u16;
        let mut kinds = vec![SparseKind::Range];
        kinds.extend(domain_k.map(|k| SparseKind::Domain { k }));
        for kind in kinds {
            let space = SparseSpace { kind, mask };
            let (mut later, mut total) = (0, 0);
            for &(v, h) in &present {
                for parity in 0..2 {
                    // heaps of this parity have value v this many times
                    if space.is_rare(parity, v) {
                        total += h[2 * parity] + h[2 * parity + 1];
                        later += h[2 * parity + 1];
                    }
                }
            }
            let score = Score { later, total, mask };
            if best.as_ref().is_none_or(|(b, _)| score < *b) {
                best = Some((score, space));
            }
        }
    }
    let (score, space) = best?;
    Some((space, score.later as f64 / (g.len() - half) as f64))
}

/// The sparse fraction of the later half above which no mask is said to make heaps rare.
pub const NONE_ABOVE: f64 = 0.25;

/// Finds the sparse space of a game from its first values `g` (exact values of heaps
/// 0..g.len()): the [`best_space`], or `None` when even that leaves more than a quarter of the
/// later half sparse (no mask makes the sparse heaps rare).
pub fn discover(rules: &Rules, g: &[u16]) -> Option<SparseSpace> {
    best_space(rules, g)
        .filter(|&(_, fraction)| fraction <= NONE_ABOVE)
        .map(|(space, _)| space)
}

/// Heaps computed exactly before discovery looks for a sparse space (and grows its range).
pub const DISCOVERY_START: usize = 1 << 15;

/// Heaps the build step computes for each game's rare table (Officers' last rare heap is 20627);
/// `octal codegen` uses the same, so that it shows what the build generates.
pub const BUILD_HEAPS: usize = 1 << 17;

/// A sparse fraction of the later half at which [`discover_growing`] stops growing its range.
pub const SETTLED: f64 = 1.0 / 32.0;

/// Heaps of the O(n^2) exact engine before discovery takes a first look (see
/// [`discover_growing`]).
pub const EXACT_SEED: usize = 1 << 10;

/// The sparse fraction of the later half below which the first heaps grow by the classic
/// algorithm (see [`discover_growing`]).
pub const SEED_SETTLED: f64 = 1.0 / 128.0;

/// Exact values of the first heaps and the sparse space they show. Discovery starts with
/// `start` heaps and doubles, while the best space leaves more than [`SETTLED`] of the later
/// half sparse and `done` (shown the values so far) does not say stop, up to `limit` heaps; the
/// classic algorithm, exact for any mask, does the extending. The first `start` heaps grow from
/// [`EXACT_SEED`] by doubling too, each stretch by the classic algorithm where the heaps before
/// it show a space with less than [`SEED_SETTLED`] of the later half sparse, by the exact
/// engine where they do not (the classic algorithm's scan of the splits stops early only where
/// the space has settled; Officers' first 2^15 heaps cost it more than the exact engine). The
/// values are the same either way; only their cost differs.
pub fn discover_growing(
    rules: &Rules,
    start: usize,
    limit: usize,
    done: &mut dyn FnMut(&[u16]) -> bool,
) -> Result<(Vec<u16>, Option<SparseSpace>), ValueOverflow> {
    let mut g = exact::values(rules, start.min(EXACT_SEED))?;
    while g.len() < start {
        let next = (2 * g.len()).min(start);
        match best_space(rules, &g) {
            Some((space, fraction)) if fraction < SEED_SETTLED => {
                Classic::new(rules, space, &g).extend(&mut g, next)?
            }
            _ => exact::extend(rules, &mut g, next)?,
        }
    }
    loop {
        let best = best_space(rules, &g);
        match best {
            Some((space, fraction)) if fraction > SETTLED && g.len() < limit && !done(&g) => {
                let next = (2 * g.len()).min(limit);
                Classic::new(rules, space, &g).extend(&mut g, next)?;
            }
            _ => return Ok((g, best.filter(|b| b.1 <= NONE_ABOVE).map(|b| b.0))),
        }
    }
}

/// A game's sparse space and rare table as the build step sees them: discovery (growing to
/// `heaps` at most), then the classic algorithm to `heaps`. `None` for a game without a sparse
/// space. The largest value seen comes along (it decides the code width).
pub fn table_for(
    rules: &Rules,
    start: usize,
    heaps: usize,
) -> Result<Option<(SparseSpace, RareTable, u16)>, ValueOverflow> {
    let (mut g, space) = discover_growing(rules, start.min(heaps), heaps, &mut |_| false)?;
    let Some(space) = space else { return Ok(None) };
    Classic::new(rules, space, &g).extend(&mut g, heaps)?;
    let max = g.iter().copied().max().unwrap_or(0);
    Ok(Some((space, RareTable::from_values(&space, &g), max)))
}

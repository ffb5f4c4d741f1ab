//! How far a survey computes one game: every game to the survey's budget, and past it, doubling,
//! a game whose sparse space holds while its cost stays small.
//!
//! A game whose rare values have stopped costs little a heap (its speculative loop goes over its
//! few rare heaps), so it may prove a period with a long preperiod; a game whose rare values keep
//! coming costs ever more a heap, and stops at the budget. The rule reads nothing but the game's
//! own values, so two machines make the same tables.

use octal_core::SparseSpace;

/// The most work a game's growth may reach: heaps times rare heaps, the speculative loop's cost.
pub const GROWTH_WORK: usize = 1 << 32;

/// The default most heaps a game grows to.
pub const DEFAULT_GROW_TO: usize = 1 << 25;

/// The most heaps a survey of budget `max_n` grows a game to when asked for `grow_to`: none
/// where that is not past the budget.
pub fn grow_limit(grow_to: usize, max_n: usize) -> Option<usize> {
    (grow_to > max_n).then_some(grow_to)
}

/// A sparse space holds over heaps `0..n` when the heaps `n/2..n` hold at most this share of its
/// rare heaps (one sixteenth).
const NEW_RARE_SHARE: usize = 16;

/// The heaps game `g` (its values `0..g.len()` under `space`, no period proved) goes on to
/// beyond `g.len()`, at most `grow_to`: twice as many, where the second half of `g` holds at most
/// a sixteenth of its rare heaps, and no more than [`GROWTH_WORK`] over its rare heaps; none
/// where it stops.
pub fn next_stage(g: &[u16], space: Option<&SparseSpace>, grow_to: usize) -> Option<usize> {
    let space = space?;
    let n = g.len();
    let rare_in = |heaps: std::ops::Range<usize>| heaps.filter(|&h| space.is_rare(h, g[h])).count();
    let new = rare_in(n / 2..n);
    let rare = rare_in(0..n / 2) + new;
    if new * NEW_RARE_SHARE > rare {
        return None;
    }
    let next = (2 * n).min(grow_to).min(GROWTH_WORK / rare.max(1));
    (next > n).then_some(next)
}

#[cfg(test)]
mod tests {
    use super::*;
    use octal_core::sparse::SparseKind;

    fn space(mask: u16) -> SparseSpace {
        SparseSpace {
            kind: SparseKind::Range,
            mask,
        }
    }

    #[test]
    fn a_space_that_holds_doubles_within_the_work() {
        // Under mask 1 of the range type, even values are rare: three of them, all early.
        let mut g = vec![1u16; 1 << 12];
        for h in [1, 5, 9] {
            g[h] = 0;
        }
        let s = space(1);
        assert_eq!(next_stage(&g, Some(&s), 1 << 20), Some(1 << 13));
        assert_eq!(next_stage(&g, Some(&s), 5000), Some(5000));
        assert_eq!(next_stage(&g, Some(&s), 1 << 12), None);
        assert_eq!(next_stage(&g, None, 1 << 20), None);
    }

    #[test]
    fn rare_values_still_coming_stop_the_game() {
        let mut g = vec![1u16; 1 << 12];
        for h in (0..g.len()).step_by(64) {
            g[h] = 0;
        }
        assert_eq!(next_stage(&g, Some(&space(1)), 1 << 20), None);
    }
}

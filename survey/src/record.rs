//! What computing one game of a survey leaves behind: how far it was computed and under which
//! budget, the period if one was proved, the statistics of the values, and the first values
//! (enough to compare games, and to know a periodic game's values everywhere).

use serde::{Deserialize, Serialize};

/// Values a record keeps from heap 0 (fewer when fewer were computed): games whose values
/// differ anywhere in them are told apart without computing again.
pub const HEAD: usize = 4096;

/// One computed game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The canonical code.
    pub code: String,
    /// The heap budget the game was computed under.
    pub max_n: usize,
    /// Heaps computed: values of `0..n` (with a period, up to its proof).
    pub n: usize,
    pub period: Option<PeriodRecord>,
    pub max_value: u16,
    pub max_value_at: usize,
    pub p_positions: usize,
    pub last_p_position: usize,
    /// The sparse space of the values computed, if the game has one.
    pub sparse: Option<SparseRecord>,
    /// fnv1a64 of the values `0..n` (each value as two bytes, little-endian), in hex.
    pub fnv1a64: String,
    /// The values of heaps `0..min(n, HEAD)`.
    pub head: Vec<u16>,
    /// The engine of the last stretch.
    pub engine: String,
    /// Seconds the computation took (kept apart from the tables).
    pub seconds: f64,
}

/// A period proved by the Octal Periodicity Theorem on computed values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PeriodRecord {
    pub period: usize,
    pub preperiod: usize,
    /// The heaps whose values the proof checked.
    pub checked_to: usize,
}

impl PeriodRecord {
    /// The last heap whose value breaks the period (-1 when none does).
    pub fn last_exception(&self) -> i64 {
        self.preperiod as i64 - 1
    }
}

/// The sparse space of a game and its rare heaps among the values computed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SparseRecord {
    /// "range" or "domain".
    pub kind: String,
    /// The mask, `0x...`.
    pub mask: String,
    pub rare_count: usize,
    pub last_rare: usize,
}

impl GameRecord {
    /// The value of heap `n`, where the record knows it: in the head, or anywhere for a periodic
    /// game whose preperiod and period lie in the head.
    pub fn value(&self, n: usize) -> Option<u16> {
        if let Some(&v) = self.head.get(n) {
            return Some(v);
        }
        let p = self.period?;
        if p.preperiod + p.period > self.head.len() || n < p.preperiod {
            return None;
        }
        self.head
            .get(p.preperiod + (n - p.preperiod) % p.period)
            .copied()
    }

    /// The first heap with a nonzero value (every game has a move, so there is one; `head.len()`
    /// if the head is too short to show it).
    pub fn zeros(&self) -> usize {
        self.head
            .iter()
            .position(|&v| v != 0)
            .unwrap_or(self.head.len())
    }

    /// Heaps whose values are known from this record alone: the head, or all of them.
    pub fn known(&self) -> usize {
        match self.period {
            Some(p) if p.preperiod + p.period <= self.head.len() => usize::MAX,
            _ => self.head.len(),
        }
    }

    /// Heaps whose values are known once computed again: `n`, or all for a periodic game.
    pub fn extent(&self) -> usize {
        if self.period.is_some() {
            usize::MAX
        } else {
            self.n
        }
    }
}

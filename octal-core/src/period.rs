//! Periods, found and proved the way the literature does it.
//!
//! Definitions (Flammenkamp; tczajka; OEIS): the period p is the least p with G(n + p) = G(n) for
//! all n >= n0; the preperiod is the least such n0 (the last exception + 1); the last exception
//! is the largest n with G(n) != G(n + p). Proof: the Octal Periodicity Theorem (Guy-Smith): if
//! G(n + p) = G(n) for all n0' <= n < 2 n0' + p + t, with n0' = max(n0, 1) and t the index of the
//! last nonzero digit, then G(n + p) = G(n) for all n >= n0'. That needs the values of heaps
//! 0 .. 2 n0' + 2p + t - 1.
//!
//! Candidates come from the recurrence's state: past the rare heaps, a value depends only on a
//! window of recent values, so a window that repeats gives a candidate period. A rolling hash of
//! the window is compared with the hash stored at an anchor that moves in Brent's fashion
//! (to the current heap whenever the distance reaches a power of two), so the least repeat
//! distance is found in O(preperiod + period) steps, O(1) work per value and O(1) memory beside
//! the values. A hash match at a new distance is confirmed by comparing the windows, once; the
//! repeats at multiples of the candidate's period that follow cost nothing more. The candidate is
//! checked value by value as verified values arrive, and proved once the theorem's range is
//! covered.

/// A period proved by the Octal Periodicity Theorem.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Period {
    pub period: usize,
    pub preperiod: usize,
    /// The number of heaps whose values the proof used: 2 max(n0, 1) + 2p + t.
    pub checked_to: usize,
}

impl Period {
    /// The last exception, n0 - 1 (-1 when there is none).
    pub fn last_exception(&self) -> i64 {
        self.preperiod as i64 - 1
    }
}

/// Heaps the theorem needs to prove period `p` with preperiod `n0` for a game with last digit t.
pub fn proof_heaps(p: usize, n0: usize, t: usize) -> usize {
    2 * n0.max(1) + 2 * p + t
}

/// The least n0 with g[n + p] == g[n] for all n >= n0 with n + p < g.len().
fn preperiod_for(g: &[u16], p: usize) -> usize {
    (0..g.len().saturating_sub(p))
        .rev()
        .find(|&n| g[n] != g[n + p])
        .map_or(0, |e| e + 1)
}

/// Whether the values `g` prove period `p` (with its least preperiod); the proof if so.
pub fn prove(g: &[u16], p: usize, t: usize) -> Option<Period> {
    if p == 0 || p >= g.len() {
        return None;
    }
    let n0 = preperiod_for(g, p);
    let need = proof_heaps(p, n0, t);
    (g.len() >= need).then_some(Period {
        period: p,
        preperiod: n0,
        checked_to: need,
    })
}

/// The prime factors of `p`, each once.
fn prime_factors(mut p: usize) -> Vec<usize> {
    let mut factors = Vec::new();
    let mut r = 2;
    while r * r <= p {
        if p.is_multiple_of(r) {
            factors.push(r);
            while p.is_multiple_of(r) {
                p /= r;
            }
        }
        r += 1;
    }
    if p > 1 {
        factors.push(p);
    }
    factors
}

/// The least period among the divisors of a proved one, each proved on the same values.
fn least(g: &[u16], mut proved: Period, t: usize) -> Period {
    loop {
        let p = proved.period;
        match prime_factors(p)
            .into_iter()
            .find_map(|r| prove(g, p / r, t))
        {
            Some(smaller) => proved = smaller,
            None => return proved,
        }
    }
}

const HASH_BASE: u64 = 0x9e37_79b9_7f4a_7c15;

/// Incremental period search over a growing sequence of proved values.
#[derive(Debug, Clone)]
pub struct PeriodSearch {
    t: usize,
    window: usize,
    /// HASH_BASE^window, to drop the value leaving the window.
    drop_factor: u64,
    hash: u64,
    fed: usize,
    /// Brent's anchor: heap and window hash.
    anchor: Option<(usize, u64)>,
    power: usize,
    distance: usize,
    /// The candidate period and its preperiod so far (last exception seen + 1).
    candidate: Option<(usize, usize)>,
    /// An exception came after the candidate was found: its repeats no longer vouch for it.
    broken: bool,
    proved: Option<Period>,
}

impl PeriodSearch {
    /// A search for a game whose last nonzero digit is at `t`, whose values depend (once rare
    /// values stop) on the last `window` values.
    pub fn new(t: usize, window: usize) -> PeriodSearch {
        let window = window.max(1);
        PeriodSearch {
            t,
            window,
            drop_factor: (0..window).fold(1u64, |f, _| f.wrapping_mul(HASH_BASE)),
            hash: 0,
            fed: 0,
            anchor: None,
            power: 1,
            distance: 0,
            candidate: None,
            broken: false,
            proved: None,
        }
    }

    /// The proof, once found.
    pub fn proved(&self) -> Option<Period> {
        self.proved
    }

    /// Heaps fed so far.
    pub fn fed(&self) -> usize {
        self.fed
    }

    /// Takes the proved values `g` (all heaps from 0; only those not fed before are read) and
    /// returns the proof as soon as one is complete.
    pub fn feed(&mut self, g: &[u16]) -> Option<Period> {
        while self.proved.is_none() && self.fed < g.len() {
            let n = self.fed;
            self.fed += 1;
            self.step(g, n);
            self.close(g);
        }
        self.proved
    }

    /// Proves the candidate once the theorem's range is covered.
    fn close(&mut self, g: &[u16]) {
        if let Some((p, n0)) = self.candidate {
            let need = proof_heaps(p, n0, self.t);
            if self.fed >= need {
                let found = Period {
                    period: p,
                    preperiod: n0,
                    checked_to: need,
                };
                self.proved = Some(least(&g[..self.fed], found, self.t));
            }
        }
    }

    fn step(&mut self, g: &[u16], n: usize) {
        // An exception moves the candidate's preperiod.
        if let Some((p, n0)) = self.candidate.as_mut() {
            if n >= *p && g[n] != g[n - *p] {
                *n0 = n - *p + 1;
                self.broken = true;
            }
        }
        // The rolling hash of g[n + 1 - window ..= n].
        self.hash = self
            .hash
            .wrapping_mul(HASH_BASE)
            .wrapping_add(u64::from(g[n]) + 1);
        if n >= self.window {
            let out = u64::from(g[n - self.window]) + 1;
            self.hash = self.hash.wrapping_sub(out.wrapping_mul(self.drop_factor));
        }
        if n + 1 < self.window {
            return;
        }
        match self.anchor {
            // While the candidate holds, a repeat at a multiple of its period is the candidate
            // again: it is tracked already, so neither the windows nor the preperiod are looked
            // at again. A new distance, or any repeat once the candidate has failed, is confirmed
            // and becomes the candidate.
            Some((c, h))
                if h == self.hash
                    && (self.broken
                        || self
                            .candidate
                            .is_none_or(|(p, _)| !(n - c).is_multiple_of(p)))
                    && self.windows_equal(g, c, n) =>
            {
                let p = n - c;
                self.candidate = Some((p, preperiod_for(&g[..=n], p)));
                self.broken = false;
            }
            None => self.anchor = Some((n, self.hash)),
            _ => {}
        }
        self.distance += 1;
        if self.distance == self.power {
            self.anchor = Some((n, self.hash));
            self.power *= 2;
            self.distance = 0;
        }
    }

    fn windows_equal(&self, g: &[u16], a: usize, b: usize) -> bool {
        g[a + 1 - self.window..=a] == g[b + 1 - self.window..=b]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sequence with preperiod `pre` (its own values) followed by a periodic part.
    fn eventually_periodic(pre: &[u16], cycle: &[u16], n: usize) -> Vec<u16> {
        let mut g = pre.to_vec();
        while g.len() < n {
            g.push(cycle[(g.len() - pre.len()) % cycle.len()]);
        }
        g
    }

    #[test]
    fn finds_least_period_and_preperiod() {
        let g = eventually_periodic(&[9, 9, 9, 5], &[1, 2, 3, 1, 2, 4], 200);
        let mut s = PeriodSearch::new(2, 4);
        let p = s.feed(&g).expect("proved");
        assert_eq!((p.period, p.preperiod), (6, 4));
        assert_eq!(p.checked_to, 2 * 4 + 2 * 6 + 2);
        assert_eq!(p.last_exception(), 3);
    }

    #[test]
    fn stops_as_soon_as_the_theorem_is_satisfied() {
        let g = eventually_periodic(&[7], &[0, 1], 100);
        let mut s = PeriodSearch::new(1, 2);
        let p = s.feed(&g).unwrap();
        assert_eq!((p.period, p.preperiod), (2, 1));
        assert!(
            s.fed() <= p.checked_to + 8,
            "fed {} for a proof at {}",
            s.fed(),
            p.checked_to
        );
    }

    #[test]
    fn no_proof_without_enough_values() {
        let pre: Vec<u16> = (10..40).collect();
        let g = eventually_periodic(&pre, &[1, 2, 4], 70);
        // preperiod 30, period 3: the proof needs 2*30 + 6 + 1 = 67 heaps
        assert!(prove(&g[..66], 3, 1).is_none());
        assert_eq!(prove(&g[..67], 3, 1).unwrap().preperiod, 30);
        assert!(PeriodSearch::new(1, 3).feed(&g[..66]).is_none());
    }

    /// A false start: after distinct values, the window repeats at distance 3 long enough to
    /// become the candidate, then the sequence breaks off into a cycle of 5, or of 6 (a multiple
    /// of the failed candidate). The true period replaces the candidate in both cases.
    #[test]
    fn a_candidate_that_fails_gives_way_to_the_true_period() {
        for (cycle, want) in [(&[0u16, 1, 0, 2, 5][..], 5), (&[5, 6, 7, 5, 6, 8][..], 6)] {
            let mut pre: Vec<u16> = (10..41).collect();
            pre.extend([1, 2, 3].repeat(20));
            pre.push(7);
            let g = eventually_periodic(&pre, cycle, 2000);
            let t = 100;
            let p = PeriodSearch::new(t, 3).feed(&g).expect("proved");
            assert_eq!(
                p,
                prove(&g[..p.checked_to], want, t).unwrap(),
                "cycle {cycle:?}"
            );
        }
    }

    #[test]
    fn reduces_a_multiple_to_the_least_period() {
        let g = eventually_periodic(&[], &[4, 5], 80);
        let p = least(&g, prove(&g, 12, 1).unwrap(), 1);
        assert_eq!(p.period, 2);
        assert_eq!(prime_factors(12), vec![2, 3]);
        assert_eq!(prime_factors(149459), vec![149459]);
    }
}

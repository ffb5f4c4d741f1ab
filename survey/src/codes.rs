//! The codes of a survey: every `d0.d1..dk` with `d0` in {0, 4}, `1 <= k <= D` and `dk != 0`,
//! plus `4.0`; their order (shorter first, then by the canonical text); and the fixed part of
//! them a shard takes.

use octal_core::Code;
use std::fmt;
use std::str::FromStr;

/// The most digits a survey takes after the point.
pub const MAX_SURVEY_DIGITS: usize = 6;

/// The codes of a survey of up to `digits` digits after the point, in [`order`].
pub fn codes(digits: usize) -> Vec<Code> {
    let mut all = vec![Code::from_digits(&[4])];
    for d0 in [0u8, 4] {
        for k in 1..=digits {
            for i in 0..8usize.pow(k as u32) {
                let mut d = vec![d0];
                d.extend((0..k).rev().map(|j| ((i >> (3 * j)) & 7) as u8));
                if d[k] != 0 {
                    all.push(Code::from_digits(&d));
                }
            }
        }
    }
    all.sort_by_key(order);
    all
}

/// The order of codes: fewer digits after the point first, then the canonical text (`0.` before
/// `4.`). The first code of a class in this order represents it.
pub fn order(code: &Code) -> (usize, String) {
    (code.t(), code.to_string())
}

/// Part `index` of `count` parts of a survey (`--shard index/count`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// The whole survey.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Whether the `i`-th of the survey's computed games (in order) is this shard's.
    pub fn takes(&self, i: usize) -> bool {
        i % self.count == self.index
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// A `--shard` that is not `K/N` with `0 <= K < N`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad shard '{0}': give K/N with 0 <= K < N (for example 0/4)")]
pub struct BadShard(pub String);

impl FromStr for Shard {
    type Err = BadShard;

    fn from_str(s: &str) -> Result<Shard, BadShard> {
        let bad = || BadShard(s.to_string());
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let index: usize = k.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_digits_are_1023_codes_four_8191() {
        let c = codes(3);
        assert_eq!(c.len(), 1023);
        assert_eq!(codes(4).len(), 8191);
        assert_eq!(c[0].to_string(), "4.0");
        assert_eq!(c[1].to_string(), "0.1");
        let mut seen: Vec<String> = c.iter().map(|c| c.to_string()).collect();
        seen.dedup();
        assert_eq!(seen.len(), 1023);
        assert!(c.iter().all(|c| c.t() >= 1 || c.to_string() == "4.0"));
    }

    #[test]
    fn shards_parse_and_partition() {
        assert_eq!("2/3".parse(), Ok(Shard { index: 2, count: 3 }));
        for bad in ["3/2", "0/0", "1", "a/2", "-1/2", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        let parts: Vec<Shard> = (0..3).map(|index| Shard { index, count: 3 }).collect();
        for i in 0..100 {
            assert_eq!(parts.iter().filter(|s| s.takes(i)).count(), 1);
        }
    }
}

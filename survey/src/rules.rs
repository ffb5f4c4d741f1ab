//! Rules that prove two codes' values equal from the codes alone.
//!
//! The lone-token rule (Winning Ways' first cousins). In a game whose lone token cannot be
//! taken (`d1` has no 1 bit), a heap of one token is dead: every heap of `n` tokens plays as a
//! heap of `n - 1` in another octal game, its *cousin*, so `G(n) = G'(n - 1)` for `n >= 1`. The
//! cousin's digits come from the code alone: digit `j` has the 1 bit when `d(j+1)` has it, the
//! 1 and 2 bits when `d(j)` has the 2 bit, and all three when `d(j-1)` has the 4 bit. Codes with
//! the same cousin have equal values (`.26` and `.27`, both cousins of `.337`).
//!
//! Redundant moves. Taking a whole heap of exactly `k` tokens (the 1 bit of `d_k`, `k >= 2`)
//! only adds the option 0 at heap `k`: when heap `k` has an option of value 0 without it (the
//! game without the bit has a nonzero value there), the bit changes no value (`.342` and
//! `.343`). Leaving one heap after taking `k` (the 2 bit of `d_k`) gives the same options as
//! taking `k' < k` and leaving that heap beside one of `k - k'` tokens, when `d_k'` may split
//! (its 4 bit; `d0 = 4` for `k' = 0`) and `G(k - k') = 0` (`.562` and `.56`). The values of
//! heaps up to `k`, a few exact values, decide both.
//!
//! Dropping redundant moves and following cousins until the lone token can be taken gives a
//! code's normal form and its depth; codes of one normal form are one class, proved by the rules.

use octal_core::code::MAX_DIGITS;
use octal_core::{exact, Code};

/// The cousin of `code` (its values one heap on), if its lone token cannot be taken.
pub fn cousin(code: &Code) -> Option<Code> {
    let t = code.t();
    if code.digit(1) & 1 != 0 || t + 1 > MAX_DIGITS {
        return None;
    }
    let mut d = vec![0u8; t + 2];
    for (j, digit) in d.iter_mut().enumerate().skip(1) {
        if code.digit(j + 1) & 1 != 0 {
            *digit |= 1;
        }
        if code.digit(j) & 2 != 0 {
            *digit |= 3;
        }
        if code.digit(j - 1) & 4 != 0 {
            *digit |= 7;
        }
    }
    Some(Code::from_digits(&d))
}

/// `code` without the moves that change no value.
pub fn without_redundant_moves(code: &Code) -> Code {
    let mut d = code.digits().to_vec();
    for k in 1..d.len() {
        if d[k] & 2 != 0 {
            let g = small_values(&d, k);
            if (0..k).any(|split| d[split] & 4 != 0 && g[k - split] == 0) {
                d[k] &= !2;
            }
        }
        if k >= 2 && d[k] & 1 != 0 {
            let mut without = d.clone();
            without[k] &= !1;
            if small_values(&without, k)[k] != 0 {
                d = without;
            }
        }
    }
    Code::from_digits(&d)
}

/// The values of heaps `0..=k` of the code with digits `d` (a few heaps: no value overflows).
fn small_values(d: &[u8], k: usize) -> Vec<u16> {
    exact::values(&Code::from_digits(d).rules(), k + 1).unwrap_or_else(|_| vec![0; k + 1])
}

/// The normal form of `code` (redundant moves dropped, then its last cousin, and so on) and
/// the number of cousin steps to it: `G(n) = G_normal(n - depth)` for `n >= depth`, and
/// `G(n) = 0` below.
pub fn normal_form(code: &Code) -> (Code, usize) {
    let mut c = without_redundant_moves(code);
    let mut depth = 0;
    while let Some(next) = cousin(&c) {
        c = without_redundant_moves(&next);
        depth += 1;
    }
    (c, depth)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codes::codes;
    use octal_core::exact;

    fn code(s: &str) -> Code {
        s.parse().unwrap()
    }

    #[test]
    fn known_cousins() {
        assert_eq!(cousin(&code(".07")), Some(code(".137")));
        assert_eq!(cousin(&code(".26")), Some(code(".337")));
        assert_eq!(cousin(&code(".27")), Some(code(".337")));
        assert_eq!(cousin(&code("4.0")), Some(code(".7")));
        assert_eq!(cousin(&code(".137")), None);
        assert_eq!(normal_form(&code(".0007")).1, 3);
    }

    /// The redundant-move rule against the exact engine, on every code of up to three digits.
    #[test]
    fn dropping_redundant_moves_changes_no_value() {
        assert_eq!(without_redundant_moves(&code(".343")), code(".342"));
        assert_eq!(without_redundant_moves(&code(".563")), code(".56"));
        assert_eq!(without_redundant_moves(&code("4.006")), code("4.004"));
        let mut dropped = 0;
        for c in codes(3) {
            let d = without_redundant_moves(&c);
            if d != c {
                dropped += 1;
                let g = exact::values(&c.rules(), 400).unwrap();
                assert_eq!(g, exact::values(&d.rules(), 400).unwrap(), "{c} and {d}");
            }
        }
        assert!(dropped > 50, "{dropped}");
    }

    /// The lone-token rule against the exact engine, on every code of up to three digits.
    #[test]
    fn a_cousin_has_the_values_one_heap_on() {
        for c in codes(3) {
            let Some(s) = cousin(&c) else { continue };
            let g = exact::values(&c.rules(), 400).unwrap();
            let h = exact::values(&s.rules(), 399).unwrap();
            assert_eq!(g[0], 0);
            assert_eq!(&g[1..], &h[..], "{c} and its cousin {s}");
        }
    }
}

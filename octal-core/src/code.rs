//! Octal codes (`d0.d1d2...dt`): parsing, the canonical form, and the rules a code stands for.
//!
//! Digit `d_i` (i >= 1) is about removing exactly `i` tokens from one heap. Its bits: 1 = may
//! remove a whole heap of exactly `i`; 2 = may leave one nonempty heap; 4 = may leave two
//! nonempty heaps. `d0` may only be 0 or 4 (4: split a heap into two without removing anything).

use std::fmt;
use std::str::FromStr;

/// The most digits accepted after the point.
pub const MAX_DIGITS: usize = 32;

/// Why a string is not an octal code. Each message is one line, fit to show a user.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseCodeError {
    #[error("empty code: give an octal code such as .6 or 4.07")]
    Empty,
    #[error("'{0}' in the code: hexadecimal games are not octal games (digits must be 0-7)")]
    Hexadecimal(char),
    #[error("'{0}' is not an octal digit (a code looks like .6, 0.137 or 4.07)")]
    BadCharacter(char),
    #[error("spaces are not allowed in a code")]
    Space,
    #[error("no point in the code: write it as d0.d1d2... (for example .6 or 0.6)")]
    NoPoint,
    #[error("two points in the code")]
    TwoPoints,
    #[error("the digit before the point must be 0 or 4, not '{0}'")]
    BadLeadingDigit(char),
    #[error("only one digit may stand before the point")]
    LongLead,
    #[error("{0} digits after the point: at most {MAX_DIGITS} are allowed")]
    TooLong(usize),
}

/// A canonical octal code: `digits[0]` is `d0`, trailing zero digits after the point dropped.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Code {
    digits: Vec<u8>,
}

impl Code {
    /// Builds a code from its digits (`digits[0]` = d0). Panics on a digit that is not octal or
    /// a `d0` other than 0 or 4: for callers that hold digits they made themselves.
    pub fn from_digits(digits: &[u8]) -> Code {
        assert!(!digits.is_empty() && (digits[0] == 0 || digits[0] == 4));
        assert!(digits.iter().all(|&d| d < 8) && digits.len() <= MAX_DIGITS + 1);
        let mut digits = digits.to_vec();
        while digits.len() > 1 && digits[digits.len() - 1] == 0 {
            digits.pop();
        }
        Code { digits }
    }

    /// `d_i`, or 0 past the last digit.
    pub fn digit(&self, i: usize) -> u8 {
        self.digits.get(i).copied().unwrap_or(0)
    }

    /// The digits, `d0` first, without trailing zeros.
    pub fn digits(&self) -> &[u8] {
        &self.digits
    }

    /// t: the index of the last nonzero digit (0 for `4.0` and for `0.0`).
    pub fn t(&self) -> usize {
        self.digits.len() - 1
    }

    /// The moves of this code, grouped for the engines.
    pub fn rules(&self) -> Rules {
        let mut rules = Rules {
            t: self.t(),
            whole: Vec::new(),
            single: Vec::new(),
            breaking: Vec::new(),
        };
        for (i, &d) in self.digits.iter().enumerate() {
            if i > 0 && d & 1 != 0 {
                rules.whole.push(i);
            }
            if i > 0 && d & 2 != 0 {
                rules.single.push(i);
            }
            if d & 4 != 0 {
                rules.breaking.push(i);
            }
        }
        rules
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.", self.digits[0])?;
        if self.digits.len() == 1 {
            return write!(f, "0");
        }
        for d in &self.digits[1..] {
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl FromStr for Code {
    type Err = ParseCodeError;

    fn from_str(s: &str) -> Result<Code, ParseCodeError> {
        if s.is_empty() {
            return Err(ParseCodeError::Empty);
        }
        for c in s.chars() {
            match c {
                '0'..='7' | '.' => {}
                '8' | '9' | 'a'..='f' | 'A'..='F' => return Err(ParseCodeError::Hexadecimal(c)),
                c if c.is_whitespace() => return Err(ParseCodeError::Space),
                c => return Err(ParseCodeError::BadCharacter(c)),
            }
        }
        let mut parts = s.split('.');
        let lead = parts.next().unwrap_or("");
        let Some(tail) = parts.next() else {
            return Err(ParseCodeError::NoPoint);
        };
        if parts.next().is_some() {
            return Err(ParseCodeError::TwoPoints);
        }
        let d0 = match lead.as_bytes() {
            [] => 0,
            [b'0'] => 0,
            [b'4'] => 4,
            [c] => return Err(ParseCodeError::BadLeadingDigit(*c as char)),
            _ => return Err(ParseCodeError::LongLead),
        };
        if tail.len() > MAX_DIGITS {
            return Err(ParseCodeError::TooLong(tail.len()));
        }
        let mut digits = vec![d0];
        digits.extend(tail.bytes().map(|b| b - b'0'));
        Ok(Code::from_digits(&digits))
    }
}

/// The moves of a code, as the engines use them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rules {
    /// Index of the last nonzero digit.
    pub t: usize,
    /// `i` such that a heap of exactly `i` may be removed (option value 0).
    pub whole: Vec<usize>,
    /// `i` such that removing `i` may leave one nonempty heap.
    pub single: Vec<usize>,
    /// `i` such that removing `i` may leave two nonempty heaps (`0` when `d0 = 4`).
    pub breaking: Vec<usize>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(s: &str) -> String {
        s.parse::<Code>().unwrap().to_string()
    }

    #[test]
    fn canonical_forms() {
        assert_eq!(canon(".6"), "0.6");
        assert_eq!(canon("0.6"), "0.6");
        assert_eq!(canon("0.60"), "0.6");
        assert_eq!(canon("4.07"), "4.07");
        assert_eq!(canon("4."), "4.0");
        assert_eq!(canon("4.0"), "4.0");
        assert_eq!(canon("0.0"), "0.0");
        assert_eq!(canon(".000"), "0.0");
    }

    #[test]
    fn rejects_bad_codes() {
        use ParseCodeError::*;
        let cases = [
            ("", Empty),
            (".8", Hexadecimal('8')),
            (".9", Hexadecimal('9')),
            (".6a", Hexadecimal('a')),
            (".x", BadCharacter('x')),
            ("1.6", BadLeadingDigit('1')),
            ("6", NoPoint),
            ("0.6.6", TwoPoints),
            (". 6", Space),
            ("04.6", LongLead),
        ];
        for (s, e) in cases {
            assert_eq!(s.parse::<Code>(), Err(e), "{s:?}");
        }
        let long = format!(".{}", "1".repeat(33));
        assert_eq!(long.parse::<Code>(), Err(TooLong(33)));
        let ok = format!(".{}", "1".repeat(32));
        assert!(ok.parse::<Code>().is_ok());
    }

    #[test]
    fn rules_of_officers_and_dawson() {
        let r = ".6".parse::<Code>().unwrap().rules();
        assert_eq!(
            (r.t, r.whole, r.single, r.breaking),
            (1, vec![], vec![1], vec![1])
        );
        let r = "4.07".parse::<Code>().unwrap().rules();
        assert_eq!(
            (r.t, r.whole, r.single, r.breaking),
            (2, vec![2], vec![2], vec![0, 2])
        );
    }
}

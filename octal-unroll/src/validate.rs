//! The meaning of the input: checks every value and gives back the table as plain numbers. Each
//! error is spanned at the token at fault, with one message.

use crate::parse::{Input, List};
use proc_macro2::Ident;
use std::str::FromStr;
use syn::{LitInt, Result};

/// The key type of the window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyWidth {
    U8,
    U16,
}

impl KeyWidth {
    /// The most keys the type holds.
    pub fn capacity(self) -> usize {
        match self {
            KeyWidth::U8 => 1 << 8,
            KeyWidth::U16 => 1 << 16,
        }
    }

    /// The type as Rust spells it.
    pub fn name(self) -> &'static str {
        match self {
            KeyWidth::U8 => "u8",
            KeyWidth::U16 => "u16",
        }
    }
}

/// A validated invocation: one game's unrolled loop, as numbers.
pub(crate) struct Table {
    /// The module to emit.
    pub name: Ident,
    pub code: String,
    pub fingerprint: u64,
    pub key_type: KeyWidth,
    /// Keys in use: a power of two, at most `key_type.capacity()`.
    pub keys: usize,
    /// One per rare entry, in the input's order: the distance back (at least 1) and the key
    /// of the rare value (below `keys`).
    pub entries: Vec<(u32, u16)>,
    /// Distances back of single-heap options (each at least 1).
    pub singles: Vec<u32>,
}

impl Table {
    /// The farthest distance back `mark` reads (0 when it reads nothing).
    pub fn reach(&self) -> u32 {
        let entries = self.entries.iter().map(|&(off, _)| off);
        entries
            .chain(self.singles.iter().copied())
            .max()
            .unwrap_or(0)
    }

    /// Whether `mark` masks its indices with `keys - 1`. A `u8` index is below 256 anyway (and
    /// `seen` then holds 256 bytes); a `u16` one is masked unless every key is in use.
    pub fn masked(&self) -> bool {
        self.key_type == KeyWidth::U16 && self.keys < self.key_type.capacity()
    }

    /// The bytes `mark` may write at `seen`: every index it can form.
    pub fn seen(&self) -> usize {
        if self.masked() {
            self.keys
        } else {
            self.key_type.capacity()
        }
    }
}

/// The table `input` describes, or the first error in it (keys in the documented order).
pub(crate) fn validate(input: Input) -> Result<Table> {
    let fingerprint = int(&input.fingerprint, "u64")?;
    let key_type = match input.key_type.to_string().as_str() {
        "u8" => KeyWidth::U8,
        "u16" => KeyWidth::U16,
        other => {
            return Err(syn::Error::new(
                input.key_type.span(),
                format!("`key_type` must be `u8` or `u16`, not `{other}`"),
            ))
        }
    };
    let keys: usize = int(&input.keys, "usize")?;
    if !keys.is_power_of_two() {
        return Err(syn::Error::new(
            input.keys.span(),
            format!("`keys` must be a power of two, not {keys}"),
        ));
    }
    if keys > key_type.capacity() {
        return Err(syn::Error::new(
            input.keys.span(),
            format!(
                "`keys` is {keys} but a `{}` key_type holds at most {} keys",
                key_type.name(),
                key_type.capacity()
            ),
        ));
    }
    let offsets = distances(&input.offsets, "an offset")?;
    let rare_keys = input
        .rare_keys
        .items
        .iter()
        .map(|lit| {
            let c: u32 = int(lit, "u32")?;
            // `keys <= 65536`, so a key below it fits in 16 bits.
            match u16::try_from(c) {
                Ok(c) if (c as usize) < keys => Ok(c),
                _ => Err(syn::Error::new(
                    lit.span(),
                    format!("rare key {c} is not below `keys` = {keys}"),
                )),
            }
        })
        .collect::<Result<Vec<u16>>>()?;
    if rare_keys.len() != offsets.len() {
        return Err(syn::Error::new(
            input.rare_keys.span,
            format!(
                "`rare_keys` has {} entries but `offsets` has {}; they pair up one to one",
                rare_keys.len(),
                offsets.len()
            ),
        ));
    }
    let singles = distances(&input.singles, "a single")?;
    Ok(Table {
        name: input.name,
        code: input.code.value(),
        fingerprint,
        key_type,
        keys,
        entries: offsets.into_iter().zip(rare_keys).collect(),
        singles,
    })
}

/// Distances back from the heap: each at least 1 (distance 0 is the heap itself).
fn distances(list: &List, what: &str) -> Result<Vec<u32>> {
    list.items
        .iter()
        .map(|lit| match int(lit, "u32")? {
            0 => Err(syn::Error::new(
                lit.span(),
                format!("{what} must be at least 1: it is a distance back from the heap"),
            )),
            d => Ok(d),
        })
        .collect()
}

/// The value of an integer literal written without a suffix or with `suffix`.
fn int<N>(lit: &LitInt, suffix: &str) -> Result<N>
where
    N: FromStr,
    N::Err: std::fmt::Display,
{
    if !lit.suffix().is_empty() && lit.suffix() != suffix {
        return Err(syn::Error::new(
            lit.span(),
            format!("expected an integer without a suffix or with `{suffix}`"),
        ));
    }
    if lit.base10_digits().starts_with('-') {
        return Err(syn::Error::new(
            lit.span(),
            "expected a non-negative integer",
        ));
    }
    lit.base10_parse()
}

#[cfg(test)]
mod tests {
    use super::{validate, KeyWidth, Table};
    use crate::testing::{error, tokens, with};

    fn table(src: &str) -> syn::Result<Table> {
        validate(syn::parse2(tokens(src))?)
    }

    /// The message of the error for `key = value`, and the text it is spanned at.
    fn rejected(key: &str, value: &str) -> (String, String) {
        let (message, at) = error(table(&with(key, value)));
        (message, at.expect("spanned at a token"))
    }

    fn pair(message: &str, at: &str) -> (String, String) {
        (message.to_owned(), at.to_owned())
    }

    #[test]
    fn gives_the_table_as_numbers() {
        let t = table(&with("singles", "[2, 5u32]")).unwrap();
        assert_eq!(t.name, "game");
        assert_eq!(t.code, "0.137");
        assert_eq!(t.fingerprint, 0xfeed);
        assert_eq!(t.key_type, KeyWidth::U8);
        assert_eq!(t.keys, 16);
        assert_eq!(t.entries, [(3, 1), (1, 5), (4, 9)]);
        assert_eq!(t.singles, [2, 5]);
        assert_eq!(t.reach(), 5);
        assert!(!t.masked());
        assert_eq!(t.seen(), 256);
    }

    #[test]
    fn masks_u16_keys_unless_every_key_is_in_use() {
        let t = table(&with("key_type", "u16")).unwrap();
        assert!(t.masked());
        assert_eq!(t.seen(), 16);
        let all = with("key_type", "u16").replace("keys = 16", "keys = 65536");
        let t = table(&all.replace("[1, 5, 9]", "[65535, 0, 1]")).unwrap();
        assert!(!t.masked());
        assert_eq!(t.seen(), 65536);
    }

    #[test]
    fn accepts_an_empty_table_without_singles() {
        let src = with("offsets", "[]").replace("[1, 5, 9]", "[]");
        let t = table(&src.replace("[2]", "[]")).unwrap();
        assert!(t.entries.is_empty() && t.singles.is_empty());
        assert_eq!(t.reach(), 0);
    }

    #[test]
    fn rejects_a_word_other_than_u8_or_u16() {
        assert_eq!(
            rejected("key_type", "u32"),
            pair("`key_type` must be `u8` or `u16`, not `u32`", "u32")
        );
    }

    #[test]
    fn rejects_codes_not_a_power_of_two() {
        assert_eq!(
            rejected("keys", "100"),
            pair("`keys` must be a power of two, not 100", "100")
        );
        assert_eq!(
            rejected("keys", "0"),
            pair("`keys` must be a power of two, not 0", "0")
        );
    }

    #[test]
    fn rejects_codes_too_many_for_the_word() {
        assert_eq!(
            rejected("keys", "512"),
            pair(
                "`keys` is 512 but a `u8` key_type holds at most 256 keys",
                "512"
            )
        );
        let (message, at) = error(table(
            &with("key_type", "u16").replace("keys = 16", "keys = 131072"),
        ));
        assert_eq!(
            message,
            "`keys` is 131072 but a `u16` key_type holds at most 65536 keys"
        );
        assert_eq!(at.as_deref(), Some("131072"));
    }

    #[test]
    fn rejects_lengths_that_do_not_pair_up() {
        assert_eq!(
            rejected("rare_keys", "[1, 5]"),
            pair(
                "`rare_keys` has 2 entries but `offsets` has 3; they pair up one to one",
                "[1, 5]"
            )
        );
    }

    #[test]
    fn rejects_an_offset_of_zero() {
        let message = "an offset must be at least 1: it is a distance back from the heap";
        assert_eq!(rejected("offsets", "[3, 0, 4]"), pair(message, "0"));
        let message = "a single must be at least 1: it is a distance back from the heap";
        assert_eq!(rejected("singles", "[2, 0x0]"), pair(message, "0x0"));
    }

    #[test]
    fn rejects_a_rare_code_not_below_codes() {
        assert_eq!(
            rejected("rare_keys", "[1, 16, 9]"),
            pair("rare key 16 is not below `keys` = 16", "16")
        );
        assert_eq!(
            rejected("rare_keys", "[1, 70000, 9]"),
            pair("rare key 70000 is not below `keys` = 16", "70000")
        );
    }

    #[test]
    fn rejects_a_wrong_suffix_or_an_overflow() {
        assert_eq!(
            rejected("offsets", "[3, 1i8, 4]"),
            pair("expected an integer without a suffix or with `u32`", "1i8")
        );
        assert_eq!(
            rejected("offsets", "[3, -1, 4]"),
            pair("expected a non-negative integer", "-1")
        );
        let big = "0x1_0000_0000";
        let message = "number too large to fit in target type";
        assert_eq!(rejected("offsets", &format!("[{big}]")), pair(message, big));
        let big = "0x1_0000_0000_0000_0000";
        assert_eq!(rejected("fingerprint", big), pair(message, big));
    }
}

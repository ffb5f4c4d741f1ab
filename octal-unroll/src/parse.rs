//! The syntax of the macro's input: `key = value` pairs separated by commas, in any order, each
//! key exactly once. Values stay tokens here (with their spans); [`crate::validate`] gives them
//! meaning.

use proc_macro2::Span;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Ident, LitInt, LitStr, Result, Token};

/// The keys, in the order the documentation lists them.
const KEYS: &str =
    "`name`, `code`, `fingerprint`, `word`, `codes`, `offsets`, `rare_codes`, `singles`";

/// One invocation, every key present once.
pub(crate) struct Input {
    pub name: Ident,
    pub code: LitStr,
    pub fingerprint: LitInt,
    pub word: Ident,
    pub codes: LitInt,
    pub offsets: List,
    pub rare_codes: List,
    pub singles: List,
}

/// A bracketed list of integer literals.
pub(crate) struct List {
    /// The brackets and everything between them.
    pub span: Span,
    pub items: Vec<LitInt>,
}

impl Parse for List {
    fn parse(input: ParseStream) -> Result<Self> {
        let content;
        let brackets = syn::bracketed!(content in input);
        let items = Punctuated::<LitInt, Token![,]>::parse_terminated(&content)?;
        Ok(List {
            span: brackets.span.join(),
            items: items.into_iter().collect(),
        })
    }
}

impl Parse for Input {
    fn parse(input: ParseStream) -> Result<Self> {
        let mut name = None;
        let mut code = None;
        let mut fingerprint = None;
        let mut word = None;
        let mut codes = None;
        let mut offsets = None;
        let mut rare_codes = None;
        let mut singles = None;
        while !input.is_empty() {
            let key: Ident = input.parse()?;
            input.parse::<Token![=]>()?;
            match key.to_string().as_str() {
                "name" => put(&mut name, &key, input)?,
                "code" => put(&mut code, &key, input)?,
                "fingerprint" => put(&mut fingerprint, &key, input)?,
                "word" => put(&mut word, &key, input)?,
                "codes" => put(&mut codes, &key, input)?,
                "offsets" => put(&mut offsets, &key, input)?,
                "rare_codes" => put(&mut rare_codes, &key, input)?,
                "singles" => put(&mut singles, &key, input)?,
                other => {
                    return Err(syn::Error::new(
                        key.span(),
                        format!("unknown key `{other}`; the keys are {KEYS}"),
                    ))
                }
            }
            if !input.is_empty() {
                input.parse::<Token![,]>()?;
            }
        }
        Ok(Input {
            name: take(name, "name")?,
            code: take(code, "code")?,
            fingerprint: take(fingerprint, "fingerprint")?,
            word: take(word, "word")?,
            codes: take(codes, "codes")?,
            offsets: take(offsets, "offsets")?,
            rare_codes: take(rare_codes, "rare_codes")?,
            singles: take(singles, "singles")?,
        })
    }
}

/// Parses the value of `key` into its slot, which must still be empty.
fn put<T: Parse>(slot: &mut Option<T>, key: &Ident, input: ParseStream) -> Result<()> {
    if slot.is_some() {
        return Err(syn::Error::new(
            key.span(),
            format!("duplicate key `{key}`"),
        ));
    }
    *slot = Some(input.parse()?);
    Ok(())
}

/// The value of a key that must be present.
fn take<T>(slot: Option<T>, key: &str) -> Result<T> {
    slot.ok_or_else(|| {
        syn::Error::new(
            Span::call_site(),
            format!("missing key `{key}`; the keys are {KEYS}"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::Input;
    use crate::testing::{error, tokens, with};

    fn parse(src: &str) -> syn::Result<Input> {
        syn::parse2(tokens(src))
    }

    fn digits(list: &super::List) -> Vec<String> {
        let digits = list.items.iter().map(|i| i.base10_digits().to_owned());
        digits.collect()
    }

    #[test]
    fn parses_a_small_table_in_any_order() {
        let input = parse(
            r#"singles = [1], offsets = [2, 3, 7], name = officers, code = "0.6",
               fingerprint = 0x1234abcd5678ef90, word = u8, codes = 256,
               rare_codes = [1, 0, 5],"#,
        )
        .unwrap();
        assert_eq!(input.name, "officers");
        assert_eq!(input.code.value(), "0.6");
        let fingerprint = input.fingerprint.base10_parse::<u64>().unwrap();
        assert_eq!(fingerprint, 0x1234abcd5678ef90);
        assert_eq!(input.word, "u8");
        assert_eq!(input.codes.base10_digits(), "256");
        assert_eq!(digits(&input.offsets), ["2", "3", "7"]);
        assert_eq!(digits(&input.rare_codes), ["1", "0", "5"]);
        assert_eq!(digits(&input.singles), ["1"]);
        assert_eq!(input.offsets.span.source_text().unwrap(), "[2, 3, 7]");
    }

    #[test]
    fn accepts_empty_lists_and_no_trailing_comma() {
        let input = parse(&with("offsets", "[]")).unwrap();
        assert!(input.offsets.items.is_empty());
        assert!(parse(&(with("singles", "[]") + ",")).is_ok());
    }

    #[test]
    fn rejects_an_unknown_key() {
        let (message, at) = error(parse(&(with("codes", "16") + ", mask = 3")));
        assert_eq!(
            message,
            "unknown key `mask`; the keys are `name`, `code`, `fingerprint`, `word`, `codes`, \
             `offsets`, `rare_codes`, `singles`"
        );
        assert_eq!(at.as_deref(), Some("mask"));
    }

    #[test]
    fn rejects_a_duplicate_key() {
        let src = "codes = 8, ".to_owned() + &with("codes", "16");
        let Err(e) = parse(&src) else {
            panic!("accepted")
        };
        assert_eq!(e.to_string(), "duplicate key `codes`");
        // Spanned at the second occurrence.
        let second = src.find("codes = 16").unwrap();
        assert_eq!(e.span().start().column, second);
        assert_eq!(e.span().source_text().as_deref(), Some("codes"));
    }

    #[test]
    fn rejects_a_missing_key() {
        let src = r#"name = a, code = "0.6", fingerprint = 1, word = u8, codes = 4,
                     rare_codes = [], singles = []"#;
        let (message, at) = error(parse(src));
        assert!(message.starts_with("missing key `offsets`; the keys are"));
        assert_eq!(at, None);
    }

    #[test]
    fn rejects_a_value_of_the_wrong_kind() {
        let (message, at) = error(parse(&with("code", "6")));
        assert_eq!(
            (message.as_str(), at.as_deref()),
            ("expected string literal", Some("6"))
        );
        let (message, at) = error(parse(&with("offsets", "[3, x]")));
        assert_eq!(
            (message.as_str(), at.as_deref()),
            ("expected integer literal", Some("x"))
        );
        let (message, _) = error(parse(&with("singles", "2")));
        assert_eq!(message, "expected square brackets");
    }
}

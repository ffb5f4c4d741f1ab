//! The syntax of the macro's input: `field = value` pairs separated by commas, in any order, each
//! field exactly once. Values stay tokens here (with their spans); [`crate::validate`] gives them
//! meaning.

use proc_macro2::Span;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Ident, LitInt, LitStr, Result, Token};

/// The fields, in the order the documentation lists them.
const FIELDS: &str =
    "`name`, `code`, `fingerprint`, `key_type`, `keys`, `offsets`, `rare_keys`, `singles`";

/// One invocation, every field present once.
pub(crate) struct Input {
    pub name: Ident,
    pub code: LitStr,
    pub fingerprint: LitInt,
    pub key_type: Ident,
    pub keys: LitInt,
    pub offsets: List,
    pub rare_keys: List,
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
        let mut key_type = None;
        let mut keys = None;
        let mut offsets = None;
        let mut rare_keys = None;
        let mut singles = None;
        while !input.is_empty() {
            let field: Ident = input.parse()?;
            input.parse::<Token![=]>()?;
            match field.to_string().as_str() {
                "name" => put(&mut name, &field, input)?,
                "code" => put(&mut code, &field, input)?,
                "fingerprint" => put(&mut fingerprint, &field, input)?,
                "key_type" => put(&mut key_type, &field, input)?,
                "keys" => put(&mut keys, &field, input)?,
                "offsets" => put(&mut offsets, &field, input)?,
                "rare_keys" => put(&mut rare_keys, &field, input)?,
                "singles" => put(&mut singles, &field, input)?,
                other => {
                    return Err(syn::Error::new(
                        field.span(),
                        format!("unknown field `{other}`; the fields are {FIELDS}"),
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
            key_type: take(key_type, "key_type")?,
            keys: take(keys, "keys")?,
            offsets: take(offsets, "offsets")?,
            rare_keys: take(rare_keys, "rare_keys")?,
            singles: take(singles, "singles")?,
        })
    }
}

/// Parses the value of `field` into its place, which must still be empty.
fn put<T: Parse>(place: &mut Option<T>, field: &Ident, input: ParseStream) -> Result<()> {
    if place.is_some() {
        return Err(syn::Error::new(
            field.span(),
            format!("duplicate field `{field}`"),
        ));
    }
    *place = Some(input.parse()?);
    Ok(())
}

/// The value of a field that must be present.
fn take<T>(place: Option<T>, field: &str) -> Result<T> {
    place.ok_or_else(|| {
        syn::Error::new(
            Span::call_site(),
            format!("missing field `{field}`; the fields are {FIELDS}"),
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
               fingerprint = 0x1234abcd5678ef90, key_type = u8, keys = 256,
               rare_keys = [1, 0, 5],"#,
        )
        .unwrap();
        assert_eq!(input.name, "officers");
        assert_eq!(input.code.value(), "0.6");
        let fingerprint = input.fingerprint.base10_parse::<u64>().unwrap();
        assert_eq!(fingerprint, 0x1234abcd5678ef90);
        assert_eq!(input.key_type, "u8");
        assert_eq!(input.keys.base10_digits(), "256");
        assert_eq!(digits(&input.offsets), ["2", "3", "7"]);
        assert_eq!(digits(&input.rare_keys), ["1", "0", "5"]);
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
        let (message, at) = error(parse(&(with("keys", "16") + ", mask = 3")));
        assert_eq!(
            message,
            "unknown field `mask`; the fields are `name`, `code`, `fingerprint`, `key_type`, `keys`, \
             `offsets`, `rare_keys`, `singles`"
        );
        assert_eq!(at.as_deref(), Some("mask"));
    }

    #[test]
    fn rejects_a_duplicate_key() {
        let src = "keys = 8, ".to_owned() + &with("keys", "16");
        let Err(e) = parse(&src) else {
            panic!("accepted")
        };
        assert_eq!(e.to_string(), "duplicate field `keys`");
        // Spanned at the second occurrence.
        let second = src.find("keys = 16").unwrap();
        assert_eq!(e.span().start().column, second);
        assert_eq!(e.span().source_text().as_deref(), Some("keys"));
    }

    #[test]
    fn rejects_a_missing_key() {
        let src = r#"name = a, code = "0.6", fingerprint = 1, key_type = u8, keys = 4,
                     rare_keys = [], singles = []"#;
        let (message, at) = error(parse(src));
        assert!(message.starts_with("missing field `offsets`; the fields are"));
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

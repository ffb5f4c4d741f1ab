//! Helpers for the unit tests: inputs written as source text, so that errors carry spans whose
//! text can be checked (`proc-macro2`'s `span-locations` feature, enabled for tests).

use proc_macro2::TokenStream;

/// The tokens of `src`.
pub(crate) fn tokens(src: &str) -> TokenStream {
    src.parse().expect("test input lexes")
}

/// A valid invocation's body with the value of `field` replaced by `value`.
pub(crate) fn with(field: &str, value: &str) -> String {
    let mut pairs = [
        ("name", "game"),
        ("code", "\"0.137\""),
        ("fingerprint", "0xfeed"),
        ("key_type", "u8"),
        ("keys", "16"),
        ("offsets", "[3, 1, 4]"),
        ("rare_keys", "[1, 5, 9]"),
        ("singles", "[2]"),
    ];
    let pair = pairs.iter_mut().find(|(k, _)| *k == field);
    pair.unwrap_or_else(|| panic!("no field {field}")).1 = value;
    let pairs: Vec<String> = pairs.iter().map(|(k, v)| format!("{k} = {v}")).collect();
    pairs.join(", ")
}

/// The message of an error and the source text it is spanned at (`None`: the call site).
pub(crate) fn error<T>(result: syn::Result<T>) -> (String, Option<String>) {
    match result {
        Ok(_) => panic!("accepted"),
        Err(e) => (e.to_string(), e.span().source_text()),
    }
}

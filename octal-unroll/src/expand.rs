//! The whole macro as an ordinary function: parse, validate, emit. The entry point in `lib.rs`
//! only converts token streams; everything here runs (and is tested) outside the compiler.

use crate::emit::emit;
use crate::parse::Input;
use crate::validate::validate;
use proc_macro2::TokenStream;

/// The module for one invocation, or the first error in it.
pub fn expand(input: TokenStream) -> syn::Result<TokenStream> {
    let input: Input = syn::parse2(input)?;
    let table = validate(input)?;
    Ok(emit(&table))
}

#[cfg(test)]
mod tests {
    use super::expand;
    use crate::testing::tokens;
    use std::path::Path;

    /// A small table: u8 keys, 16 keys (a two-chunk mex), three entries and two singles.
    const SMALL: &str = r#"
        name = small,
        code = "0.137",
        fingerprint = 0x0123456789abcdef,
        key_type = u8,
        keys = 16,
        offsets = [2, 3, 3],
        rare_keys = [1, 0, 5],
        singles = [1, 4],
    "#;

    /// The emitted text of `SMALL` is the committed snapshot; `UPDATE_SNAPSHOTS=1` rewrites it.
    #[test]
    fn small_table_matches_its_snapshot() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/small.rs.txt");
        let text = expand(tokens(SMALL)).unwrap().to_string() + "\n";
        if std::env::var_os("UPDATE_SNAPSHOTS").is_some_and(|v| v == "1") {
            std::fs::write(&path, &text).unwrap();
        }
        let snapshot = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            text == snapshot,
            "the expansion differs from {}; if the change is intended, rerun with \
             UPDATE_SNAPSHOTS=1 and commit the file.\nexpansion:\n{text}",
            path.display()
        );
    }

    #[test]
    fn reports_the_first_error() {
        let e = expand(tokens(&SMALL.replace("u8", "u32").replace("= 16", "= 17"))).unwrap_err();
        assert_eq!(e.to_string(), "`key_type` must be `u8` or `u16`, not `u32`");
    }
}

//! `octal-unroll`: a game's rare table becomes the Rust source of an unrolled speculative loop.
//!
//! The speculative engine of `solver` predicts the value of heap `n` from a window of keys of
//! recent values: for each rare entry it loads the key at a fixed distance back, xors it with
//! the key of a rare value and stamps the result in a `seen` array; it stamps the keys of the
//! single-heap options too; the candidate is the first unstamped key. [`expand`] emits that work
//! for one table as straight-line source, every distance and key an immediate, and the mex search
//! unrolled too (Grossman 2019, "Searching for periodicity in Officers", Figures 4 and 5).
//!
//! The input is the text of an `octal_macros::unrolled!` invocation, which [`invocation`] writes
//! for a game; `octal-macros` is the compiler's thin entry point to [`expand`], `solver`'s build
//! script writes one invocation per game in `games/`, and `octal codegen` prints the expansion.
//! The expansion is deterministic: the same table gives the same tokens (a snapshot test).
//!
//! The modules: `parse` (syntax), `validate` (meaning and errors), `emit` (the module),
//! `expand` (the three in a row).

mod emit;
mod expand;
mod parse;
#[cfg(test)]
mod testing;
mod validate;

pub use expand::expand;

use octal_core::codec::LoopTable;
use std::fmt::Write;

/// The text of an `unrolled!` invocation for one game's loop table. `u16_keys` selects two-byte
/// keys; `keys` is the number of keys in use (a power of two).
pub fn invocation(
    name: &str,
    code: &str,
    fingerprint: u64,
    u16_keys: bool,
    keys: usize,
    table: &LoopTable,
) -> String {
    let list = |items: &mut dyn Iterator<Item = String>| items.collect::<Vec<_>>().join(", ");
    let mut s = String::new();
    let _ = writeln!(s, "name = {name},");
    let _ = writeln!(s, "code = {code:?},");
    let _ = writeln!(s, "fingerprint = {fingerprint:#018x},");
    let _ = writeln!(s, "key_type = {},", if u16_keys { "u16" } else { "u8" });
    let _ = writeln!(s, "keys = {keys},");
    let _ = writeln!(
        s,
        "offsets = [{}],",
        list(&mut table.entries.iter().map(|e| e.0.to_string()))
    );
    let _ = writeln!(
        s,
        "rare_keys = [{}],",
        list(&mut table.entries.iter().map(|e| e.1.to_string()))
    );
    let _ = writeln!(
        s,
        "singles = [{}],",
        list(&mut table.singles.iter().map(|d| d.to_string()))
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_invocation_expands() {
        let table = LoopTable {
            entries: vec![(2, 1), (5, 3)],
            singles: vec![1],
            hot_from: 9,
        };
        let text = invocation("g", "0.6", 7, false, 256, &table);
        assert!(text.contains("offsets = [2, 5],") && text.contains("rare_keys = [1, 3],"));
        let tokens = expand(text.parse().unwrap()).unwrap().to_string();
        assert!(tokens.contains("pub mod g"));
    }
}

//! `octal-unroll`: a game's rare table becomes the Rust source of an unrolled speculative loop.
//!
//! The speculative engine of `solver` predicts the value of heap `n` from a window of codes of
//! recent values: for each rare entry it loads the code at a fixed distance back, xors it with
//! the code of a rare value and stamps the result in a `seen` array; it stamps the codes of the
//! single-heap options too; the candidate is the first unstamped code. [`expand`] emits that work
//! for one table as straight-line code, every distance and code an immediate, and the mex search
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

/// The text of an `unrolled!` invocation for one game's loop table. `u16_words` selects two-byte
/// codes; `codes` is the number of codes in use (a power of two).
pub fn invocation(
    name: &str,
    code: &str,
    fingerprint: u64,
    u16_words: bool,
    codes: usize,
    table: &LoopTable,
) -> String {
    let list = |items: &mut dyn Iterator<Item = String>| items.collect::<Vec<_>>().join(", ");
    let mut s = String::new();
    let _ = writeln!(s, "name = {name},");
    let _ = writeln!(s, "code = {code:?},");
    let _ = writeln!(s, "fingerprint = {fingerprint:#018x},");
    let _ = writeln!(s, "word = {},", if u16_words { "u16" } else { "u8" });
    let _ = writeln!(s, "codes = {codes},");
    let _ = writeln!(
        s,
        "offsets = [{}],",
        list(&mut table.entries.iter().map(|e| e.0.to_string()))
    );
    let _ = writeln!(
        s,
        "rare_codes = [{}],",
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
        assert!(text.contains("offsets = [2, 5],") && text.contains("rare_codes = [1, 3],"));
        let tokens = expand(text.parse().unwrap()).unwrap().to_string();
        assert!(tokens.contains("pub mod g"));
    }
}

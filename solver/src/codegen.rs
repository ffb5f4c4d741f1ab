//! `octal codegen`: the Rust the build step generates for a game (its unrolled speculative loop),
//! printed for inspection. A game of `games/` shows the table it was built with; any other code
//! gets the same discovery the build step runs.

use crate::games;
use octal_core::codec::{Codec, LoopTable};
use octal_core::exact::ValueOverflow;
use octal_core::{sparse, Code, RareTable, SparseSpace};

#[derive(Debug, thiserror::Error)]
pub enum CodegenError {
    #[error("{0} has no sparse space, so there is no speculative loop to generate")]
    NoSparseSpace(Code),
    #[error(transparent)]
    Overflow(#[from] ValueOverflow),
    #[error("the generated code does not parse: {0}")]
    Syntax(String),
}

/// The space and table the build step uses for `code`.
fn table(code: &Code) -> Result<(SparseSpace, RareTable, u16), CodegenError> {
    if let Some(d) = games::find(code) {
        if let Some(space) = d.space {
            let table = d.table();
            let max = table.entries().iter().map(|e| e.1).max().unwrap_or(0);
            return Ok((space, table, max));
        }
    }
    sparse::table_for(&code.rules(), sparse::DISCOVERY_START, sparse::BUILD_HEAPS)?
        .ok_or_else(|| CodegenError::NoSparseSpace(code.clone()))
}

/// The pretty-printed Rust of `code`'s unrolled loop, with a header naming the game and table.
pub fn rust(code: &Code) -> Result<String, CodegenError> {
    let (space, table, max) = table(code)?;
    let lt = LoopTable::new(&code.rules(), space, &table);
    let bits = crate::solve::value_bits(max);
    let u16_words = bits > 9;
    let codes = Codec::code_space(bits);
    let ident = format!("g{}", code.to_string().replace('.', "_"));
    let fingerprint = table.fingerprint(&space);
    let text = octal_unroll::invocation(
        &ident,
        &code.to_string(),
        fingerprint,
        u16_words,
        codes,
        &lt,
    );
    let tokens = text
        .parse()
        .map_err(|e: proc_macro2::LexError| CodegenError::Syntax(e.to_string()))?;
    let module = octal_unroll::expand(tokens).map_err(|e| CodegenError::Syntax(e.to_string()))?;
    let file: syn::File = syn::parse2(module).map_err(|e| CodegenError::Syntax(e.to_string()))?;
    Ok(format!(
        "// octal codegen {code}: {space}, {} rare heaps, {} unrolled entries, table fingerprint {fingerprint:#018x}\n// The input of octal_macros::unrolled!:\n{}\n{}",
        table.len(),
        lt.entries.len(),
        text.lines().map(|l| format!("//   {l}\n")).collect::<String>(),
        prettyplease::unparse(&file)
    ))
}

//! `octal codegen`: the code generated for a game, printed for inspection: the Rust of its
//! unrolled speculative loop (what the build step generates; a game of `games/` shows the table
//! it was built with, any other code gets the same discovery the build step runs), or the CUDA
//! kernels of the GPU engine for the table a run's discovery finds.

use crate::error::SolveError;
use crate::request::{Request, DISCOVERY_HEAPS};
use crate::solve::solve;
use octal_core::codec::{value_bits, Codec, LoopTable};
use octal_core::exact::ValueOverflow;
use octal_core::{discover, Code, RareTable, SparseSpace};
use octal_engines::games;
use octal_gpu::GpuError;

#[derive(Debug, thiserror::Error)]
pub enum CodegenError {
    #[error("{0} has no sparse space, so there is no speculative loop to generate")]
    NoSparseSpace(Code),
    #[error(transparent)]
    Overflow(#[from] ValueOverflow),
    #[error("the generated code does not parse: {0}")]
    Syntax(String),
    #[error("{0} has no sparse space: there are no speculative kernels to generate")]
    NoKernels(Code),
    #[error(transparent)]
    Solve(#[from] SolveError),
    #[error(transparent)]
    Gpu(#[from] GpuError),
}

impl CodegenError {
    /// Whether the request is at fault (kernels asked for a code without a sparse space): bad
    /// input.
    pub fn is_bad_request(&self) -> bool {
        matches!(self, CodegenError::NoKernels(_))
    }
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
    discover::table_for(
        &code.rules(),
        discover::DISCOVERY_START,
        discover::BUILD_HEAPS,
    )?
    .ok_or_else(|| CodegenError::NoSparseSpace(code.clone()))
}

/// The pretty-printed Rust of `code`'s unrolled loop, with a header naming the game and table.
pub fn rust(code: &Code) -> Result<String, CodegenError> {
    let (space, table, max) = table(code)?;
    let lt = LoopTable::new(&code.rules(), space, &table);
    let bits = value_bits(max);
    let u16_keys = bits > 9;
    let keys = Codec::key_space(bits);
    let ident = format!("g{}", code.to_string().replace('.', "_"));
    let fingerprint = table.fingerprint(&space);
    let text =
        octal_unroll::invocation(&ident, &code.to_string(), fingerprint, u16_keys, keys, &lt);
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

/// The CUDA C source of `code`'s kernels, for the rare table that a run's discovery finds.
pub fn cuda(code: &Code) -> Result<String, CodegenError> {
    let req = Request::new(code.clone(), DISCOVERY_HEAPS);
    let solution = solve(&req, &mut |_| {})?;
    let (Some(space), Some(table)) = (solution.space, solution.outcome.table) else {
        return Err(CodegenError::NoKernels(code.clone()));
    };
    let max = solution.values.iter().copied().max().unwrap_or(0);
    // Where options still reach rare heaps, a run's kernels take rare sources (and so these).
    let hot_from = octal_core::codec::LoopTable::new(&code.rules(), space, &table).hot_from;
    let game = kernels_gen::KernelSpec {
        code,
        space,
        table: &table,
        value_bits: value_bits(max),
        rare_sources: solution.values.len() < hot_from,
    };
    Ok(kernels_gen::generate(&game).map_err(GpuError::from)?)
}

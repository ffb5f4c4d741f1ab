//! What a run gives back ([`Solution`]): its values, the sparse space it ended on and where the
//! space changed, which engine computed which heaps ([`Span`]), the period the values prove, and
//! where a GPU run's time went.

use octal_core::period::Period;
use octal_core::{RareTable, SparseSpace};
use octal_engines::space_watch::SpaceChange;
use octal_engines::stretch::Engine;
use octal_gpu::GpuTimings;
use octal_store::values::ValueStore;

/// Heaps `from..to`, computed by one engine (the JSON lists them as `stretches`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub from: usize,
    pub to: usize,
    pub engine: Engine,
}

/// The result of a run.
#[derive(Debug)]
pub struct Solution {
    pub values: ValueStore,
    /// The sparse space in use at the end.
    pub space: Option<SparseSpace>,
    /// The engine of the last stretch.
    pub engine: Engine,
    /// The engine of each stretch of heaps after discovery, in order.
    pub stretches: Vec<Span>,
    /// Where the sparse space changed.
    pub changes: Vec<SpaceChange>,
    pub verified: bool,
    /// The rare table the speculative engine ended with.
    pub table: Option<RareTable>,
    /// The period the values prove, if they prove one.
    pub period: Option<Period>,
    /// Where the time went, for the GPU engine.
    pub gpu_timings: Option<GpuTimings>,
}

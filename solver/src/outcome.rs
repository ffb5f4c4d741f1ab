//! What a run gives back ([`Outcome`]): the sparse space it ended on and where the space changed,
//! which engine computed which heaps ([`Span`]), the period the values prove, and where a GPU
//! run's time went; with every value, a [`Solution`].

use octal_core::period::Period;
use octal_core::{RareTable, SparseSpace};
use octal_engines::space_watch::SpaceChange;
use octal_engines::stretch::Engine;
use octal_gpu::GpuTimings;
use octal_store::values::ValueStore;
use std::ops::Deref;

/// Heaps `from..to`, computed by one engine (the JSON lists them as `stretches`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub from: usize,
    pub to: usize,
    pub engine: Engine,
}

/// How a run went.
#[derive(Debug)]
pub struct Outcome {
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

/// A run that kept every value: the values of heaps `0..values.len()` and how the run went.
#[derive(Debug)]
pub struct Solution {
    pub values: ValueStore,
    pub outcome: Outcome,
}

impl Deref for Solution {
    type Target = Outcome;

    fn deref(&self) -> &Outcome {
        &self.outcome
    }
}

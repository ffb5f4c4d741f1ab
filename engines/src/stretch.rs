//! The one interface of the stretch engines: a run goes by stretches of heaps, and whichever
//! engine the driver picks for a stretch extends the proved values through one call,
//! [`StretchEngine::extend`], given the run's state for that stretch ([`Stretch`]). What the
//! engines say while they work ([`Notice`]), what they are called in a run's report ([`Engine`])
//! and why one may stop ([`EngineError`]) are here too.

use crate::space_watch::SpaceChange;
use octal_core::exact::ValueOverflow;
use octal_core::{Kept, RareTable, Rules, SparseSpace};
use octal_store::run_values::RunValues;
use octal_store::values::ValuesError;
use std::ops::Range;

/// The run's state for one stretch: the values, how far to go, and whom to tell.
pub struct Stretch<'r> {
    /// The proved values of heaps `0..values.len()`, extended in place (candidates, unproved,
    /// when `verify` is off): all of them, or a bounded run's front and tail.
    pub values: &'r mut RunValues,
    /// The heaps to reach: `values.len()` grows to `to` unless the watcher or the corrections
    /// end the stretch sooner.
    pub to: usize,
    /// False for `--speculate-only`: the speculative engines keep their candidates unproved.
    pub verify: bool,
    /// The stretch ends once the rare table has needed this many corrections, so that the
    /// driver looks at the space again.
    pub corrections: usize,
    /// The device that computes the marking engine's batches, where the driver chose it for
    /// this stretch (the other engines take none).
    pub blocks: Option<&'r mut dyn BlockMarker>,
    /// Told of corrections, wider keys and stale build-time tables as they happen.
    pub notify: &'r mut dyn FnMut(Notice),
    /// Shown the proved values as they grow.
    pub watch: &'r mut dyn Watch,
}

/// The marking engine's batches computed elsewhere (the GPU): every option of every heap of a
/// batch marked where the values are, none left to the host.
pub trait BlockMarker {
    /// The exact values of the heaps `heaps`, which start at `g.len()` (`g` holds the exact
    /// values of the heaps before them); `None` where a value passes what the device's sets
    /// hold, the batch then left to the host.
    fn values(&mut self, g: &[u16], heaps: Range<usize>) -> Result<Option<Vec<u16>>, EngineError>;
}

/// What a run does with its proved values as they grow.
pub trait Watch {
    /// Shown the proved values (what the run holds of heaps `0..g.len()`) each time they grow;
    /// `true` ends the stretch there (a period is proved, a device is ready), with every value in
    /// the store proved.
    fn proved(&mut self, g: Kept<'_>) -> Result<bool, EngineError>;

    /// The most heaps an engine's next batch may hold (no bound by default): a watcher that
    /// waits for something sees the values that much more often.
    fn batch_limit(&self) -> usize {
        usize::MAX
    }
}

/// Any function of the proved values that says whether to stop watches a run.
impl<F: FnMut(Kept<'_>) -> Result<bool, EngineError>> Watch for F {
    fn proved(&mut self, g: Kept<'_>) -> Result<bool, EngineError> {
        self(g)
    }
}

/// How a call of [`StretchEngine::extend`] ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// The values reached the heaps asked for.
    Reached,
    /// The watcher said stop.
    Stopped,
    /// The rare table needed as many corrections as the stretch allowed.
    Corrected,
    /// A value passed the widest keys the engine's kernels take: another engine goes on.
    PastKeys,
}

/// An engine that computes stretches of heaps: the speculate-verify loop on the CPU
/// ([`crate::speculative::Speculative`]), the marking engine ([`crate::marking::MarkingEngine`]),
/// and in `octal-gpu` the device's loop and the host chain.
pub trait StretchEngine {
    /// Extends `s.values` towards `s.to` heaps; every value it adds is proved (with `s.verify`).
    fn extend(&mut self, s: &mut Stretch<'_>) -> Result<Ended, EngineError>;

    /// The engine that computed the heaps of the last call, as a run's report names it.
    fn engine(&self) -> Engine;

    /// The rare table the engine holds (the speculative engines), as corrected so far.
    fn table(&self) -> Option<&RareTable> {
        None
    }
}

/// The engine that computed a stretch of a run's values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// Exact marking of every option, by batches.
    Exact,
    /// The classic rare-value algorithm's marking, by batches.
    Classic,
    /// The generic speculative loop with the verifier.
    Generic,
    /// A game's unrolled speculative loop with the verifier.
    Unrolled,
    /// The device: its speculation and verification, or its marking engine's batches.
    Gpu,
}

impl Engine {
    /// The name the summary and the JSON print.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Exact => "exact",
            Engine::Classic => "classic",
            Engine::Generic => "generic",
            Engine::Unrolled => "unrolled",
            Engine::Gpu => "gpu",
        }
    }
}

/// Things a run reports while it works (the binary prints them on stderr).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// Verification found a heap the table had wrong; the table was corrected and the engine
    /// rebuilt, and the run recomputes from the next heap.
    TableCorrected {
        heap: usize,
        value: u16,
        rare: bool,
        table_len: usize,
    },
    /// A common value needed more bits: the engine was rebuilt with wider keys.
    Widened { bits: u32 },
    /// The game's build-time table lacked a rare value: the run goes on with the generic loop.
    StaleBuildTable,
    /// Discovery found this sparse space (or none); the engines start.
    Discovered(Option<SparseSpace>),
    /// The values computed so far show a clearly better sparse space (or none): the run goes on
    /// with it from this heap.
    SpaceChanged(SpaceChange),
    /// From heap `heap` on the run holds only its first `front` values, at least its last `tail`
    /// and its `rare` rare heaps.
    Bounded {
        heap: usize,
        front: usize,
        tail: usize,
        rare: usize,
    },
    /// At heap `heap`, whose proof needed a split past the front, a bounded run's front grew to
    /// its first `front` values (read from the run directory where `read`, else computed again)
    /// and its tail to at least `tail`.
    FrontGrown {
        heap: usize,
        front: usize,
        tail: usize,
        read: bool,
    },
    /// At heap `heap`, past a rare heap whose options reach back past what a bounded run kept,
    /// its tail grew to `tail` heaps; `again` where the values it no longer held were computed
    /// again (equal to the ones it held).
    TailGrown {
        heap: usize,
        tail: usize,
        again: bool,
    },
}

/// The heaps back from a heap that its speculation and proof read where `rare` is the last rare
/// heap (a split of a heap a digit back whose rare part is `rare`): a bounded run holds at
/// least these.
pub fn reads_back(rules: &Rules, rare: usize) -> usize {
    rare + rules.t + 1
}

/// Why an engine could not go on.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// A value past 16 bits.
    #[error(transparent)]
    Overflow(#[from] ValueOverflow),
    /// The values could not be kept (an unwritable temporary directory, a full disk).
    #[error(transparent)]
    Values(#[from] ValuesError),
    /// The device failed (its error comes from `octal-gpu`).
    #[error(transparent)]
    Device(Box<dyn std::error::Error + Send + Sync>),
    /// The watcher failed (writing a run directory, say).
    #[error(transparent)]
    Watch(Box<dyn std::error::Error + Send + Sync>),
    /// A bounded run met a heap whose proof needs values it does not hold: splits whose smaller
    /// part lies past its front of `front` heaps, or every option (a new rare value).
    #[error("heap {heap}: its proof needs splits past the front of {front} heaps the run holds")]
    Unsettled { heap: usize, front: usize },
    /// A bounded run of `heap` heaps found a rare heap whose options reach `back` heaps back,
    /// past the heaps it holds or keeps: it goes on once it holds and keeps them.
    #[error("heap {heap}: a rare heap's options reach {back} heaps back, past what the run holds")]
    Unheld { heap: usize, back: usize },
    /// The engine needs every value, and the run holds only its front and tail.
    #[error(
        "the {engine} engine needs every value, and this run holds only its first and last heaps"
    )]
    NeedsAllValues { engine: &'static str },
}

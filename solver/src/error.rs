//! Why a run could not finish ([`SolveError`]).

use crate::request::EngineChoice;
use octal_core::exact::ValueOverflow;
use octal_core::Code;
use octal_engines::stretch::EngineError;
use octal_gpu::GpuError;
use octal_store::rundir::RunDirError;
use octal_store::values::ValuesError;

/// Why a run could not finish.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    #[error(transparent)]
    Overflow(#[from] ValueOverflow),
    #[error(
        "{code} has no sparse space, so the {} engine cannot run it (use --engine exact or auto)",
        engine.name()
    )]
    NoSparseSpace { code: Code, engine: EngineChoice },
    #[error(transparent)]
    Gpu(#[from] GpuError),
    /// The values could not be kept (an unwritable temporary directory, a full disk).
    #[error(transparent)]
    Values(#[from] ValuesError),
    /// The watcher of a run failed (writing a run directory, say).
    #[error(transparent)]
    RunDir(#[from] RunDirError),
    #[error("{0} has no unrolled engine: games/ does not specialise it (`octal games` lists those that are)")]
    NoUnrolled(Code),
    /// A run that holds only its first and last values met a heap whose proof needs more.
    #[error("heap {heap}: its proof needs a split past the front of {front} heaps that the run holds, or every value (a new rare value); go on with a larger front (octal resume RUN --front N), or keep every value (--keep all)")]
    Unsettled { heap: usize, front: usize },
    /// A bounded run found a rare heap whose options reach `back` heaps back, past what it holds.
    #[error("heap {heap}: a rare heap's options reach {back} heaps back, past what the run holds")]
    Unheld { heap: usize, back: usize },
    /// A bounded run's values computed again (its front, or every value) differ from the ones it
    /// holds (a fault).
    #[error("heap {heap}: the values computed again differ from the ones the run holds")]
    FrontDiffers { heap: usize },
    /// The values call for an engine that reads every value, past the heaps the run keeps.
    #[error("heap {heap}: {why}, and a run that holds only its first and last values cannot prove them; keep every value (--keep all) or more of them (--keep N)")]
    NeedsAllValues { heap: usize, why: &'static str },
    /// The run dropped values its watcher had not seen (a fault of the run's own).
    #[error("heaps from {from} were dropped before the run recorded them")]
    Unshown { from: usize },
    /// The tail asked for is shorter than the reads of a heap's proof.
    #[error(
        "--tail {tail}: a heap's speculation and proof read {need} heaps back; give at least that"
    )]
    TailTooShort { tail: usize, need: usize },
    /// An engine failed otherwise (its device, say).
    #[error(transparent)]
    Engine(EngineError),
}

impl From<EngineError> for SolveError {
    /// The engine's error, or the watcher's own where the watcher ended the run.
    fn from(e: EngineError) -> Self {
        match e {
            EngineError::Overflow(o) => SolveError::Overflow(o),
            EngineError::Values(v) => SolveError::Values(v),
            EngineError::Unsettled { heap, front } => SolveError::Unsettled { heap, front },
            EngineError::Unheld { heap, back } => SolveError::Unheld { heap, back },
            EngineError::Watch(w) => match w.downcast::<SolveError>() {
                Ok(own) => *own,
                Err(w) => SolveError::Engine(EngineError::Watch(w)),
            },
            other => SolveError::Engine(other),
        }
    }
}

impl SolveError {
    /// Whether the request itself was at fault (a choice of engine the game cannot take, a size
    /// the engine refuses): bad input, not a failure while running.
    pub fn is_bad_request(&self) -> bool {
        matches!(
            self,
            SolveError::NoSparseSpace { .. }
                | SolveError::NoUnrolled(_)
                | SolveError::TailTooShort { .. }
        )
    }
}

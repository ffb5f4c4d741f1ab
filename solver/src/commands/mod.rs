//! The commands of `octal`, from validated arguments to what they print: [`job`] runs `solve`
//! and `resume` (progress, notices, the run directory), [`inspect`] reads run directories
//! (`check`, `status`, `export`, `plot`), [`carry`] writes and restores snapshots
//! (`checkpoint`, `restore`), [`bench`] measures the engines, [`survey`] runs and merges surveys,
//! [`frontier`] runs campaigns of long runs,
//! [`device`] says what the GPU is. Every failure is a [`CommandError`], whose
//! [`CommandError::exit_status`] the binary exits with.

pub mod bench;
pub mod carry;
pub mod child;
pub mod device;
pub mod frontier;
pub mod inspect;
pub mod job;
pub mod survey;

use crate::codegen::CodegenError;
use crate::error::SolveError;
use crate::replay::ReplayError;
use octal_gpu::GpuError;
use octal_plot::PlotError;
use octal_store::file::FileError;
use octal_store::rundir::RunDirError;
use octal_survey::classes::ClassifyError;
use octal_survey::store::StoreError;
use std::path::{Path, PathBuf};

/// Why a command failed: each message is one line for the user.
#[derive(Debug, thiserror::Error)]
pub enum CommandError {
    /// Bad input or usage: the message says what to give instead.
    #[error("{0}")]
    Input(String),
    #[error(transparent)]
    Solve(#[from] SolveError),
    #[error(transparent)]
    RunDir(#[from] RunDirError),
    #[error(transparent)]
    Snapshot(#[from] FileError),
    #[error(transparent)]
    Replay(#[from] ReplayError),
    #[error(transparent)]
    Survey(#[from] StoreError),
    #[error(transparent)]
    Classify(#[from] ClassifyError),
    /// A game of a survey could not be computed.
    #[error("survey game {code}")]
    SurveyGame { code: String, source: SolveError },
    #[error(transparent)]
    Codegen(#[from] CodegenError),
    #[error(transparent)]
    Plot(#[from] PlotError),
    #[error(transparent)]
    Gpu(#[from] GpuError),
    /// A file could not be read or written (`what` names the act and the file).
    #[error("{what} {}", path.display())]
    File {
        what: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    /// Standard output could not be written.
    #[error("cannot write the output")]
    Output(#[from] std::io::Error),
    #[error("cannot start the worker threads")]
    Threads(#[from] rayon::ThreadPoolBuildError),
    /// A check a command makes of its own results failed (a benchmark's engines disagree, a
    /// recomputed value differs).
    #[error("{0}")]
    Failed(String),
}

impl CommandError {
    /// 2 for bad input or usage (a damaged or occupied run directory or snapshot included), 1
    /// for a failure while running.
    pub fn exit_status(&self) -> i32 {
        let bad = match self {
            CommandError::Input(_) => true,
            CommandError::Solve(e) => e.is_bad_request() || rundir_is_bad(solve_rundir(e)),
            CommandError::RunDir(e) => rundir_is_bad(Some(e)),
            CommandError::Snapshot(e) | CommandError::Replay(ReplayError::File(e)) => {
                e.is_bad_input()
            }
            // A snapshot or checkpoint whose values are not the run's is a damaged input.
            CommandError::Replay(ReplayError::Differs { .. } | ReplayError::Table { .. }) => true,
            CommandError::Survey(e) => e.is_bad_input(),
            CommandError::Codegen(e) => e.is_bad_request(),
            CommandError::Plot(PlotError::UnsupportedExtension { .. }) => true,
            _ => false,
        };
        if bad {
            2
        } else {
            1
        }
    }
}

/// The run directory's error a run ended with, if that was one.
fn solve_rundir(e: &SolveError) -> Option<&RunDirError> {
    match e {
        SolveError::RunDir(r) => Some(r),
        _ => None,
    }
}

/// Whether a run directory's error is the input's: a damaged or occupied directory.
fn rundir_is_bad(e: Option<&RunDirError>) -> bool {
    matches!(
        e,
        Some(RunDirError::Corrupt { .. } | RunDirError::Occupied(_))
    )
}

/// A failure to read or write `path`.
fn file_error(what: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> CommandError {
    let path = path.to_path_buf();
    move |source| CommandError::File { what, path, source }
}

/// A worker pool of `threads` threads.
fn pool(threads: usize) -> Result<rayon::ThreadPool, CommandError> {
    Ok(rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?)
}

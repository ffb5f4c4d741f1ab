//! What the files a run carries between machines (snapshots and states) share: their error
//! (damaged or not such a file, the input's fault, or the machine's) and how they write a
//! fingerprint.

use std::path::PathBuf;

/// A fingerprint as snapshots, states (and the JSON) write it: 16 lowercase hex digits.
pub fn hex(x: u64) -> String {
    format!("{x:016x}")
}

#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// Not such a file, a damaged one, or one of another version or game (bad input).
    #[error("{file}: {what}")]
    Corrupt { file: PathBuf, what: String },
    #[error("{file}")]
    Io {
        file: PathBuf,
        source: std::io::Error,
    },
}

impl FileError {
    /// Whether the error is the input's (exit 2) rather than the machine's or the run's.
    pub fn is_bad_input(&self) -> bool {
        matches!(self, FileError::Corrupt { .. })
    }

    /// The file is not what it should be.
    pub fn corrupt(file: &std::path::Path, what: impl Into<String>) -> FileError {
        FileError::Corrupt {
            file: file.to_path_buf(),
            what: what.into(),
        }
    }

    /// Reading or writing `file` failed.
    pub fn io(file: &std::path::Path) -> impl FnOnce(std::io::Error) -> FileError + '_ {
        move |source| FileError::Io {
            file: file.to_path_buf(),
            source,
        }
    }
}

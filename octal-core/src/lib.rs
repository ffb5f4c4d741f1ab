//! `octal-core`: the model of octal games that every other crate of the workspace shares.
//!
//! It parses codes ([`code`]), holds the exact reference engine ([`exact`]) and the classic
//! rare-value algorithm ([`classic`]), keeps sparse spaces and rare tables ([`sparse`]),
//! discovers a game's space from its first values ([`discover`]), compresses values ([`codec`]),
//! lists what the speculative loops read ([`codec::LoopTable`]), fingerprints value sequences
//! ([`fnv`]), condenses a run's values into the statistics the literature quotes ([`stats`]),
//! finds and proves periods by the Octal Periodicity Theorem ([`period`]), and says what a run
//! holds of its values ([`kept`]).
//! It has no heavy dependencies: every other crate of the workspace builds on it.

pub mod classic;
pub mod code;
pub mod codec;
pub mod discover;
pub mod exact;
pub mod fnv;
pub mod kept;
pub mod period;
pub mod sparse;
pub mod stats;

pub use code::{Code, ParseCodeError, Rules};
pub use kept::Kept;
pub use sparse::{RareTable, SparseKind, SparseSpace};

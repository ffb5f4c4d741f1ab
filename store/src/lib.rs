//! `octal-store`: where a run's values live and how they leave the program.
//!
//! [`values`] holds a run's values while it computes (a vector, or a memory-mapped file for long
//! runs), and [`run_values`] all of them or, for a run without a size limit, the first and the
//! last; [`rundir`] keeps them in a run directory, checksummed, with the checkpoint a killed run
//! resumes from; [`snapshot`] writes and reads a snapshot, a run's values in a few MiB (the
//! sparse space, the rare table, the first heaps and fingerprints) to carry between machines;
//! [`state`] writes and reads the state of a run that holds only its first and last heaps, which
//! goes on anywhere from it; [`file`] is the error of both kinds of file;
//! [`export`] writes values in the formats other programs read. It knows the game model
//! (`octal-core`) and nothing of the engines.

pub mod export;
pub mod file;
pub mod run_values;
pub mod rundir;
pub mod snapshot;
pub mod state;
pub mod values;

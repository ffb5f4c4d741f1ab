//! `solver`: a run of `octal` from request to report, and the commands around it.
//!
//! [`request`] is what a run is asked to do; [`solve`] runs discovery and then the engines of
//! `octal-engines` and `octal-gpu`, stretch by stretch, as the values call for them, and gives
//! back an [`outcome::Solution`] (or an [`error::SolveError`]); [`report`] prints it.
//! [`replay`] recomputes a snapshot's values, [`recompute`] checks stored values a second time
//! by the exact mex, [`codegen`] prints the generated Rust and CUDA, and [`commands`] are the
//! commands of `octal`. The values live in `octal-store`; the `octal` binary (`src/bin/octal`)
//! parses the command line and calls [`commands`].

pub mod codegen;
pub mod commands;
pub mod error;
pub mod outcome;
pub mod recompute;
pub mod replay;
pub mod report;
pub mod request;
pub mod solve;

//! `solver`: the engines that compute Grundy values, and what a run reads and writes.
//!
//! [`run`] is the vocabulary of a run (request, engine choice, notices, solution, errors);
//! [`solve`] runs discovery and then the engines stretch by stretch, as [`track`] (the sparse
//! space the values show, and the engine that suits it) says. The engines: [`spec`] speculates
//! candidate values from the rare table (a generic loop, or a game's unrolled loop from
//! [`games`]), [`verify`] proves them in parallel, [`cpu`] is the speculate-verify loop on the
//! CPU and [`gpu`] the one on generated CUDA kernels ([`gpu_error`] says why it cannot run);
//! [`blocks`] computes exact values a block at a time, in parallel, where rare values keep
//! coming or no sparse space exists.
//! [`period`] finds and proves periods; [`summary`] and [`report`] condense a run's values;
//! [`values`] holds them (in a memory-mapped file for long runs) and [`rundir`] keeps them in a
//! run directory; [`export`] and [`plot`] turn them into files; [`codegen`] prints the generated
//! Rust and CUDA. The game model lives in `octal-core`; the `octal` binary (`src/bin/octal`)
//! parses the command line and calls these.

pub mod blocks;
pub mod codegen;
pub mod compact;
pub mod cpu;
pub mod export;
pub mod games;
pub mod gpu;
pub mod gpu_error;
pub mod period;
pub mod plot;
pub mod recheck;
pub mod report;
pub mod run;
pub mod rundir;
pub mod solve;
pub mod spec;
pub mod summary;
pub mod track;
pub mod values;
pub mod verify;

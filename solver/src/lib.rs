//! `solver`: the engines that compute Grundy values and the `octal` command line built on them.
//!
//! [`spec`] is the speculative engine (candidate values from the rare table, through a generic
//! loop or a game's unrolled loop from [`games`]), [`verify`] proves candidates in parallel,
//! [`solve`] runs discovery and the speculate-verify loop, [`period`] finds and proves periods,
//! and [`summary`] and [`report`] condense a run's values; [`values`] holds a run's values (in a
//! memory-mapped file for long runs) and [`store`] writes run directories. [`gpu`] is the engine on generated CUDA kernels.
//! [`cli`], [`bench`] and [`codegen`] serve the `octal` binary. The game model lives in `octal-core`.

pub mod bench;
pub mod cli;
pub mod codegen;
pub mod export;
pub mod games;
pub mod gpu;
pub mod period;
pub mod plot;
pub mod report;
pub mod solve;
pub mod spec;
pub mod store;
pub mod summary;
pub mod values;
pub mod verify;

//! `solver`: the engines that compute Grundy values and the `octal` command line built on them.
//!
//! [`spec`] is the speculative engine (candidate values from the rare table), [`verify`] proves
//! candidates in parallel, [`solve`] runs discovery and the speculate-verify loop, and
//! [`summary`] condenses a run's values; [`gpu`] is the engine on generated CUDA kernels. The game model lives in `octal-core`.

pub mod bench;
pub mod cli;
pub mod gpu;
pub mod period;
pub mod report;
pub mod solve;
pub mod spec;
pub mod summary;
pub mod verify;

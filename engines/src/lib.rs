//! `octal-engines`: the engines that compute Grundy values on the CPU, behind one interface.
//!
//! [`stretch`] is the interface: a run goes by stretches, and each engine extends the proved
//! values over a stretch through one call, given the run's state ([`stretch::Stretch`]).
//! The engines: [`speculative`] is the speculate-verify loop, whose candidates come from the rare
//! table by [`speculate`] (a generic loop, or a game's unrolled loop from [`games`]) and are
//! proved by [`verify`]; [`marking`] computes exact values a batch at a time where rare values
//! keep coming or no sparse space exists. [`space_watch`] keeps the sparse space the values show
//! and says which engine suits it. The model (codes, the exact engine, sparse spaces, discovery,
//! periods) is `octal-core`'s; the values live in `octal-store`'s value store; the GPU engines
//! of `octal-gpu` implement the same interface.

pub mod games;
pub mod marking;
pub mod space_watch;
pub mod speculate;
pub mod speculative;
pub mod stretch;
pub mod verify;

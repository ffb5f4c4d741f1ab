//! Where a device stretch's speculation runs ([`Chain`]): the device's own rounds
//! ([`crate::device_loop`]), or for small tables the host's speculative loop with the device's
//! verification beside it ([`crate::host_chain`]); and the one call that runs a stretch either
//! way ([`DeviceEngine`]'s [`StretchEngine::extend`]).

use crate::device_loop::{self, device_chain_bits, rare_sources_allowed};
use crate::engine::DeviceEngine;
use crate::host_chain::{self, host_chain_bits};
use crate::timings::GpuTimings;
use octal_core::codec::LoopTable;
use octal_core::{RareTable, Rules};
use octal_engines::stretch::{Ended, Engine, EngineError, Stretch, StretchEngine};

/// Entries of the speculative loop (rare heaps times breaking digits) up to which the CPU
/// speculates and the device verifies ([`Chain::Host`]): options that reach few heaps back make
/// a device round advance few heaps (`bench/gpu-chain.sh` measures both chains).
pub const HOST_CHAIN_ENTRIES: usize = 128;

/// Where the speculation runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Chain {
    /// The `spec` kernel, rounds over a window on the device.
    Device,
    /// The CPU's speculative loop, its batches proved by the device's `verify` kernel: for small
    /// tables, whose options reach few heaps back, so that a device round advances few heaps.
    Host,
}

impl Chain {
    /// The chain for a game and table: [`Chain::Host`] up to [`HOST_CHAIN_ENTRIES`] entries,
    /// or what the environment variable `OCTAL_GPU_CHAIN` (`host` or `device`) says.
    pub fn for_table(rules: &Rules, table: &RareTable) -> Chain {
        match std::env::var("OCTAL_GPU_CHAIN").as_deref() {
            Ok("host") => Chain::Host,
            Ok("device") => Chain::Device,
            _ if table.len() * rules.breaking.len() <= HOST_CHAIN_ENTRIES => Chain::Host,
            _ => Chain::Device,
        }
    }
}

impl StretchEngine for DeviceEngine {
    /// Extends the values to `s.to` heaps on the device, or until the watcher says stop or the
    /// table has needed `s.corrections` corrections, the speculation where [`Chain::for_table`]
    /// says (a replay, which does not verify, on the device).
    fn extend(&mut self, s: &mut Stretch<'_>) -> Result<Ended, EngineError> {
        let mut timings = GpuTimings::default();
        let ended = if s.verify && Chain::for_table(&self.rules, &self.table) == Chain::Host {
            host_chain::extend(self, s, &mut timings)
        } else {
            device_loop::extend(self, s, &mut timings)
        };
        self.gpu.add_timings(&timings);
        ended
    }

    fn engine(&self) -> Engine {
        Engine::Gpu
    }

    fn table(&self) -> Option<&RareTable> {
        Some(&self.table)
    }
}

impl DeviceEngine {
    /// Compiles the kernels [`StretchEngine::extend`] starts with after `g_len` heaps whose
    /// largest value is `g_max` (none where it starts on the CPU), so that it finds them in the
    /// device's cache: a device that opens beside the host's work does this on its own thread.
    /// A failure is left for the stretch to report.
    pub fn prepare(&self, g_len: usize, g_max: u16, verify: bool) {
        let (rules, space, table) = (&self.rules, self.space, &self.table);
        let (value_bits, rare_sources) = if verify && Chain::for_table(rules, table) == Chain::Host
        {
            (host_chain_bits(self.bits(), g_max), false)
        } else {
            let rare_sources = g_len < LoopTable::new(rules, space, table).hot_from;
            if rare_sources && !rare_sources_allowed(rules, space) {
                return;
            }
            (device_chain_bits(self.bits(), g_max, table), rare_sources)
        };
        let spec = kernels_gen::KernelSpec {
            code: &self.code,
            space,
            table,
            value_bits,
            rare_sources,
        };
        let _ = self.gpu.kernels(&spec);
    }
}

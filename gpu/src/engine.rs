//! The device's speculation as one stretch engine ([`DeviceEngine`]): the game, its sparse space
//! and rare table, and what the device keeps, carried from one stretch to the next. Where its
//! speculation runs (the device's rounds, or the host's loop beside the device's verification)
//! is [`crate::chain`]'s choice, stretch by stretch.

use crate::device::Gpu;
use crate::launch::Resident;
use octal_core::codec::value_bits;
use octal_core::{Code, RareTable, Rules, SparseSpace};

/// Heaps a batch needs before the other devices share its verification: a smaller one (rare
/// values coming every few hundred heaps) waits on its slowest heap's proof and its flagged
/// heaps' round trips, which more devices do not shorten.
const SHARE_FROM: usize = 1 << 16;

/// The speculate-verify loop on the device for one game and sparse space: seeded with a rare
/// table, which grows as the verification finds new rare values.
pub struct DeviceEngine {
    pub(crate) gpu: Gpu,
    pub(crate) code: Code,
    pub(crate) rules: Rules,
    pub(crate) space: SparseSpace,
    pub(crate) table: RareTable,
    /// The fewest value bits the keys are made for (more where the table's values need them).
    pub(crate) min_bits: u32,
    /// What the device keeps, where not what [`crate::device_loop::resident`] says.
    pub(crate) keep: Option<Resident>,
    /// The other devices that share the verification of the device's own loop, and the heaps a
    /// batch needs before they do.
    pub(crate) helpers: Vec<Gpu>,
    pub(crate) share_from: usize,
}

impl DeviceEngine {
    /// The loop on `gpu` for `code` under `space`, seeded with `table`.
    pub(crate) fn new(
        gpu: &Gpu,
        code: &Code,
        space: SparseSpace,
        table: RareTable,
    ) -> DeviceEngine {
        DeviceEngine {
            gpu: gpu.clone(),
            code: code.clone(),
            rules: code.rules(),
            space,
            table,
            min_bits: 0,
            keep: None,
            helpers: Vec::new(),
            share_from: SHARE_FROM,
        }
    }

    /// Shares the verification of the device's own loop with `helpers`, other devices.
    pub(crate) fn sharing(mut self, helpers: Vec<Gpu>) -> DeviceEngine {
        self.helpers = helpers;
        self
    }

    /// Keys made for values below 2^bits at least (a replay knows its largest value).
    pub fn with_bits(mut self, bits: u32) -> DeviceEngine {
        self.min_bits = bits;
        self
    }

    /// The device keeps `keep` instead of what the run's length calls for (tests: a small ring
    /// wraps often).
    pub fn keeping(mut self, keep: Resident) -> DeviceEngine {
        self.keep = Some(keep);
        self
    }

    /// The other devices share the verification of batches of at least `heaps` heaps, not only
    /// of the large ones (tests: batches of every size shared).
    pub fn sharing_from(mut self, heaps: usize) -> DeviceEngine {
        self.share_from = heaps;
        self
    }

    /// The rare table as corrected so far.
    pub fn table(&self) -> &RareTable {
        &self.table
    }

    /// The value bits a stretch starts with: those of the table's largest value, at least
    /// [`DeviceEngine::with_bits`]'s.
    pub(crate) fn bits(&self) -> u32 {
        let table_max = self.table.entries().iter().map(|e| e.1).max().unwrap_or(0);
        value_bits(table_max).max(self.min_bits)
    }
}

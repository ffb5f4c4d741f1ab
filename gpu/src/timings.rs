//! Where the time of a GPU run went: heaps speculated and verified on the device, the device
//! time of each kernel, the host's work beside it; `octal` prints them after a GPU run.

use std::time::Duration;

/// Where the time of a GPU run went: heaps speculated and verified on the device, the device
/// time of each kernel, and the host's waits for the device.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct GpuTimings {
    pub speculated: usize,
    /// Device time of the `spec` launches (CUDA events).
    pub speculate: Duration,
    /// Rounds of the speculation window.
    pub rounds: usize,
    /// Heaps the device's verification proved (none with `--speculate-only`).
    pub verified: usize,
    /// Device time of the `verify` launches on device 0 (CUDA events; they run beside `spec`).
    pub verify: Duration,
    /// Devices that shared the verification (the most a stretch had; 0 before any stretch).
    pub devices: usize,
    /// Host time spent waiting for the device to finish a batch (the rest of the host's time
    /// went to fetching, checking flagged heaps and storing while the device went on).
    pub waited: Duration,
    /// Kernel modules compiled (one per rare table and key width).
    pub compiled: usize,
    /// Heaps the CPU engine computed while a correction-prone table settled.
    pub on_cpu: usize,
    /// The CPU speculated and the device verified (small tables): `speculate` is then the
    /// host's time.
    pub host_chain: bool,
    /// Heaps the verification flagged that were checked exactly (the `mex` kernel or the CPU),
    /// and the host's time for them.
    pub checked: usize,
    pub check: Duration,
    /// Host time spent making kernels and filling the device's buffers.
    pub setup: Duration,
    /// Batches the host took from the device, the host's time taking them (all of it: waiting,
    /// reading, checking, storing), and of that the time verifying again past flagged heaps.
    pub batches: usize,
    pub taking: Duration,
    pub reverify: Duration,
    /// Host time writing corrections to the device and the table.
    pub correct: Duration,
    /// Heaps the device computed for the marking engine (exact marking), and the device time of
    /// its kernels: the far splits over the grid, then the heaps one after another.
    pub exact: usize,
    pub mark_far: Duration,
    pub mark_block: Duration,
    /// Heaps the host's cores computed (the CPU's engines) while the device started.
    pub starting: usize,
    /// Heaps of the marking engine's classic stretches that the host's cores computed, timed
    /// faster there than on the device.
    pub host_classic: usize,
}

impl GpuTimings {
    /// Adds the counts and times of `other` (another engine's, on the same run).
    pub fn add(&mut self, other: &GpuTimings) {
        self.speculated += other.speculated;
        self.speculate += other.speculate;
        self.rounds += other.rounds;
        self.verified += other.verified;
        self.verify += other.verify;
        self.devices = self.devices.max(other.devices);
        self.waited += other.waited;
        self.compiled += other.compiled;
        self.on_cpu += other.on_cpu;
        self.host_chain |= other.host_chain;
        self.checked += other.checked;
        self.check += other.check;
        self.setup += other.setup;
        self.batches += other.batches;
        self.taking += other.taking;
        self.reverify += other.reverify;
        self.correct += other.correct;
        self.exact += other.exact;
        self.mark_far += other.mark_far;
        self.mark_block += other.mark_block;
        self.starting += other.starting;
        self.host_classic += other.host_classic;
    }

    /// Heaps speculated a second.
    pub fn speculated_per_second(&self) -> f64 {
        per_second(self.speculated, self.speculate)
    }

    /// Heaps verified a second.
    pub fn verified_per_second(&self) -> f64 {
        per_second(self.verified, self.verify)
    }

    /// Heaps the speculation window moved a round, on average.
    pub fn heaps_per_round(&self) -> f64 {
        self.speculated as f64 / self.rounds.max(1) as f64
    }
}

fn per_second(heaps: usize, d: Duration) -> f64 {
    heaps as f64 / d.as_secs_f64().max(1e-9)
}

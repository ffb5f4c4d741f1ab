//! The device hand-off policy of a GPU run: when the host's cores give a speculative stretch to
//! the device that opens beside them ([`HostPace`], watched by [`RunWatch`]), and which of the
//! two computes the marking engine's classic stretches, and whether the device speculates or
//! marks exactly where the values call for speculation ([`TimedChoice`]).
//!
//! A device costs time to open and to close; a run the host's cores end sooner does not open it.
//! The host times its own pace over short windows and says the device is wanted only when, at
//! that pace, the device (given what is left of its opening and its best pace) would end the run
//! sooner; meanwhile its batches stay short, so that it hands over soon after the device is
//! ready.

use crate::error::SolveError;
use octal_core::Kept;
use octal_engines::stretch::{EngineError, Watch};
use octal_gpu::{Readiness, RunDevice};
use std::time::Instant;

/// Seconds the device takes to open (the driver's initialisation, a context and the first
/// kernels) and to close at the end, which its faster pace must make up.
const DEVICE_READY: f64 = 0.4;

/// Seconds the device takes to open once the driver is initialised in the run's process (a
/// context and the kernels, then as [`DEVICE_HANDOFF`]).
const DEVICE_CONTEXT: f64 = 0.3;

/// Seconds a device already open beside the host's work, its kernels compiled, takes to start
/// (filling its buffers with the proved values) and to close at the end.
const DEVICE_HANDOFF: f64 = 0.15;

/// Heaps a second the device verifies at best: the host's pace is set against it.
const DEVICE_PACE: f64 = 7e7;

/// Seconds of the host's work each estimate of its pace spans (single batches are too short to
/// time).
const DEVICE_WINDOW: f64 = 0.005;

/// Seconds into its stretch before the host may say the device is wanted: its first batches are
/// small and slow and overstate the time left, so they may only say it is not.
const DEVICE_SAMPLE: f64 = 0.02;

/// Windows in a row that must say the device is wanted before the host says so (a window with a
/// stall says the run is long; any window may say it is not).
const DEVICE_STREAK: u32 = 3;

/// Seconds of the host's work a batch of a GPU run's host spans at most while the device
/// starts: the host sees the values, and hands them over once the device is ready, within
/// milliseconds.
const HOST_BATCH: f64 = 0.01;

/// The fewest heaps [`HOST_BATCH`] bounds a batch to.
const HOST_BATCH_MIN: usize = 1 << 10;

/// The seconds a device at `readiness` still needs to take over a run and close at its end:
/// what it has done beside the host's work so far is done.
pub(super) fn still_to_open(readiness: Readiness) -> f64 {
    match readiness {
        Readiness::Closed => DEVICE_READY,
        Readiness::Initialised => DEVICE_CONTEXT,
        Readiness::Ready => DEVICE_HANDOFF,
    }
}

/// The host's speculative stretch timed over windows: whether a GPU run wants its device.
pub(super) struct HostPace {
    started: Instant,
    /// The start of the window: its time and the heaps computed then.
    window: (Instant, usize),
    /// Windows in a row that said the device is wanted.
    streak: u32,
    /// Heaps of [`HOST_BATCH`] at the pace of the last window (none before one).
    batch: usize,
}

impl HostPace {
    /// The pace of a stretch that started at `started`, after `from` heaps.
    pub(super) fn new(started: Instant, from: usize) -> HostPace {
        HostPace {
            started,
            window: (started, from),
            streak: 0,
            batch: usize::MAX,
        }
    }

    /// At `now`, with `heaps` computed of the run's `n`, once a window has passed: whether the
    /// device is wanted, that is whether at the host's pace over the window the device, given
    /// the `ready` seconds it needs to take over and its best pace, would end the run sooner
    /// ([`DEVICE_STREAK`] windows in a row, and not before [`DEVICE_SAMPLE`] into the stretch; a
    /// window may say it is not at once). None while the window lasts or has nothing to say.
    pub(super) fn wants_device(
        &mut self,
        now: Instant,
        heaps: usize,
        n: usize,
        ready: f64,
    ) -> Option<bool> {
        let (at, before) = self.window;
        let secs = (now - at).as_secs_f64();
        if secs < DEVICE_WINDOW || heaps <= before {
            return None;
        }
        self.window = (now, heaps);
        let host = secs / (heaps - before) as f64;
        self.batch = ((HOST_BATCH / host) as usize).max(HOST_BATCH_MIN);
        let per_heap = host - 1.0 / DEVICE_PACE;
        let long = (n - heaps) as f64 * per_heap >= ready;
        self.streak = if long { self.streak + 1 } else { 0 };
        if !long {
            return Some(false);
        }
        let sampled = (now - self.started).as_secs_f64() >= DEVICE_SAMPLE;
        (self.streak >= DEVICE_STREAK && sampled).then_some(true)
    }
}

/// What a run does with the values a stretch proves: shows them to the run's own watcher and
/// period search (`proved`, which says whether the run may stop), and on a GPU run's host
/// stretch times the host's pace, tells the opening device whether it is wanted and ends the
/// stretch once the device has started.
pub(super) struct RunWatch<'w> {
    proved: &'w mut dyn FnMut(Kept<'_>) -> Result<bool, SolveError>,
    /// The device starting beside a host stretch, the host's pace and the run's length.
    handoff: Option<(&'w RunDevice, HostPace, usize)>,
    /// What `proved` said last: the run may stop (a period is proved).
    pub(super) stop: bool,
}

impl<'w> RunWatch<'w> {
    /// Watches a stretch with `proved`.
    pub(super) fn new(proved: &'w mut dyn FnMut(Kept<'_>) -> Result<bool, SolveError>) -> Self {
        RunWatch {
            proved,
            handoff: None,
            stop: false,
        }
    }

    /// Also hands a host stretch of `n` heaps' run, which starts after `from` heaps, over to
    /// `device` once it wants the device and the device has started.
    pub(super) fn handing_over(mut self, device: &'w RunDevice, from: usize, n: usize) -> Self {
        if device.is_gpu() {
            self.handoff = Some((device, HostPace::new(Instant::now(), from), n));
        }
        self
    }
}

impl Watch for RunWatch<'_> {
    fn proved(&mut self, g: Kept<'_>) -> Result<bool, EngineError> {
        self.stop = (self.proved)(g).map_err(|e| EngineError::Watch(Box::new(e)))?;
        let Some((device, pace, n)) = &mut self.handoff else {
            return Ok(self.stop);
        };
        let ready = still_to_open(device.readiness());
        if let Some(wanted) = pace.wants_device(Instant::now(), g.len(), *n, ready) {
            device.want(wanted);
        }
        Ok(self.stop || device.has_started())
    }

    fn batch_limit(&self) -> usize {
        self.handoff.as_ref().map_or(usize::MAX, |h| h.1.batch)
    }
}

/// Which of two ways computes a GPU run's next stretch, each timed on the stretches it takes.
/// Two choices are made so:
/// - the classic marking's stretches: the device (every split of every heap, exact marking) or
///   the host's cores (the classic marking: the rare heaps, then splits until the rare values
///   are covered, which can stop early while the device reads every split);
/// - the stretches the values call speculation for, in a run that keeps every value: the
///   device's speculation, or its exact marking where the verification is slow (rare-class
///   values that only a few far splits give keep the verifier's scan long).
///
/// The cost of a stretch is seconds a heap per heap index (the cost of every side grows with
/// the heap); the faster side takes the next stretch, and the other is tried again every
/// [`TimedChoice::PROBE`] stretches, on a short stretch (a trial: the slower side can be tens
/// of times slower).
#[derive(Debug, Default)]
pub(super) struct TimedChoice {
    /// The cost of the last stretch each side took.
    first: Option<f64>,
    second: Option<f64>,
    /// Stretches since the slower side was last tried.
    since: usize,
}

/// Which side takes the next stretch (the first: the device's marking, the device's
/// speculation), and whether it is a trial of the side timed slower (or not yet timed, beside
/// the other).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Pick {
    pub first: bool,
    pub trial: bool,
}

impl TimedChoice {
    /// Stretches between two tries of the slower side.
    const PROBE: usize = 8;

    /// Who takes the next stretch: first the first side, then the second (trials both), then
    /// the faster, the slower tried every [`TimedChoice::PROBE`] stretches.
    pub(super) fn next(&mut self) -> Pick {
        let (Some(first), Some(second)) = (self.first, self.second) else {
            return Pick {
                first: self.first.is_none(),
                trial: true,
            };
        };
        self.since += 1;
        let faster = first <= second;
        if self.since >= Self::PROBE {
            self.since = 0;
            Pick {
                first: !faster,
                trial: true,
            }
        } else {
            Pick {
                first: faster,
                trial: false,
            }
        }
    }

    /// Records that the first side (or the second) took `secs` for heaps `from .. to`.
    pub(super) fn record(&mut self, first: bool, from: usize, to: usize, secs: f64) {
        if to <= from {
            return;
        }
        let cost = secs / ((to - from) as f64 * (from + to) as f64 / 2.0);
        *if first {
            &mut self.first
        } else {
            &mut self.second
        } = Some(cost);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A timed choice takes the first side, then the second (trials both), then the side whose
    /// last stretch cost less a heap per heap index, trying the slower again (a trial) every
    /// `TimedChoice::PROBE` stretches; a new timing can turn it.
    #[test]
    fn a_stretch_goes_where_it_was_timed_faster() {
        let pick = |first, trial| Pick { first, trial };
        let mut choice = TimedChoice::default();
        assert_eq!(choice.next(), pick(true, true));
        choice.record(true, 1 << 20, 17 << 16, 3.0);
        assert_eq!(choice.next(), pick(false, true));
        // Twice the heaps, further on, in less time: the host is the faster.
        choice.record(false, 17 << 16, 19 << 16, 2.0);
        let picks: Vec<Pick> = (0..2 * TimedChoice::PROBE).map(|_| choice.next()).collect();
        let tried: Vec<usize> = (0..picks.len()).filter(|&k| picks[k].first).collect();
        assert_eq!(tried, [TimedChoice::PROBE - 1, 2 * TimedChoice::PROBE - 1]);
        assert!(picks.iter().all(|p| p.trial == p.first));
        choice.record(true, 19 << 16, 20 << 16, 0.5);
        assert_eq!(choice.next(), pick(true, false));
        // A stretch stopped before its first heap (a proof came) records nothing.
        choice.record(false, 20 << 16, 20 << 16, 9.0);
        assert_eq!(choice.next(), pick(true, false));
    }

    /// A slow host wants the device once `DEVICE_STREAK` windows in a row say so, and not before
    /// `DEVICE_SAMPLE` into the stretch; a fast window says no at once and starts the streak
    /// again; within a window the host says nothing.
    #[test]
    fn the_host_wants_the_device_only_at_a_slow_pace_past_its_sample() {
        use std::time::Duration;
        const SLOW: usize = 1 << 10;
        const FAST: usize = 1 << 20;
        let window = Duration::from_secs_f64(DEVICE_WINDOW * 1.2);
        let start = Instant::now();
        // What each window says, for windows of `heaps` each from a stretch's start after 2^22
        // heaps, in a run of 2^30: 2^10 heaps a window is over 5e-6 s a heap (5000 s left),
        // 2^20 under 6e-9 s (the device would not end the run sooner).
        let says = |heaps: &[usize]| {
            let mut done = 1 << 22;
            let mut pace = HostPace::new(start, done);
            let mut at = start;
            heaps
                .iter()
                .map(|&h| {
                    let early = pace.wants_device(at + window / 4, done + 1, 1 << 30, 0.4);
                    assert_eq!(early, None, "within a window");
                    at += window;
                    done += h;
                    pace.wants_device(at, done, 1 << 30, 0.4)
                })
                .collect::<Vec<_>>()
        };
        let sample = (DEVICE_SAMPLE / window.as_secs_f64()).ceil() as usize;
        let streak = DEVICE_STREAK as usize;
        assert!(sample > streak, "the sample outlasts the streak");
        // Slow from the start: yes once the sample has passed.
        let said = says(&[SLOW; 8]);
        assert_eq!(said.iter().position(Option::is_some), Some(sample - 1));
        assert!(said[sample - 1..].iter().all(|&s| s == Some(true)));
        // Fast: no at once.
        assert_eq!(says(&[FAST]), [Some(false)]);
        // A fast window past the sample starts the streak again.
        let mut heaps = vec![SLOW; sample];
        heaps.push(FAST);
        heaps.extend(vec![SLOW; streak]);
        let said = says(&heaps);
        assert_eq!(said[sample], Some(false));
        assert!(said[sample + 1..sample + streak]
            .iter()
            .all(Option::is_none));
        assert_eq!(said[sample + streak], Some(true));
    }
}

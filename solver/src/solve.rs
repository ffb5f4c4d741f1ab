//! One run: discovery, then the engines, stretch after stretch, as the values call for them.
//!
//! The first heaps are computed exactly and handed to discovery. The run then goes by
//! stretches: between two, [`SpaceWatch`] looks at every value proved so far, keeps the sparse
//! space or switches to a clearly better one, and picks the engine that suits it: a
//! speculate-verify loop while rare heaps are seldom (the CPU's, [`crate::cpu`], or on a GPU run
//! the device's, [`crate::gpu`], which takes tables of any length and rarer heaps less rare), the
//! block engine ([`crate::blocks`]) with the classic marking while they keep coming, with exact
//! marking when no space makes them rare. A game of `games/` starts from its build-time space
//! and table (on the CPU). A GPU run starts from the space discovery settles on, which grows its
//! range for it while the space is unsettled. Every value passes the period search, which may
//! end the run.

use crate::blocks::{Blocks, Marking};
use crate::cpu::{Ended, Speculative};
use crate::games::{self, GameDef};
use crate::gpu;
use crate::period::PeriodSearch;
use crate::run::{
    Engine, EngineChoice, GpuTimings, Notice, Request, Solution, SolveError, SpaceChange, Stretch,
};
use crate::track::{Fit, SpaceWatch};
use crate::values::ValueStore;
use octal_core::codec::value_bits;
use octal_core::{discover, RareTable, Rules, SparseSpace};
use std::sync::atomic::Ordering;
use std::time::Instant;

/// Computes the values of heaps `0..req.n` (with `check_period`, up to the proof of a period,
/// at most `req.n`), and the period they prove, if any, in a store that suits `req.n`
/// ([`ValueStore::for_heaps`]). Parallel parts run on the current rayon pool.
pub fn solve(req: &Request, notify: &mut dyn FnMut(Notice)) -> Result<Solution, SolveError> {
    solve_watched(req, ValueStore::for_heaps(req.n)?, notify, &mut |_| Ok(()))
}

/// [`solve`] in the store `g`, which may hold proved values of an earlier run (heaps 0 ..)
/// to continue from, showing `watch` the proved values (all heaps from 0) each time they grow;
/// an error from `watch` ends the run with that error.
pub fn solve_watched(
    req: &Request,
    mut g: ValueStore,
    notify: &mut dyn FnMut(Notice),
    watch: &mut dyn FnMut(&[u16]) -> Result<(), SolveError>,
) -> Result<Solution, SolveError> {
    let rules = req.code.rules();
    let on_gpu = req.engine == EngineChoice::Gpu;
    // The GPU engine's device opens while discovery runs.
    let opening = on_gpu.then(gpu::open_beside);
    // For the GPU, discovery grows its range while the run needs the heaps, the space has not
    // settled and they prove no period; the CPU engines follow the values instead.
    let limit = if on_gpu {
        req.n.min(req.discovery_max)
    } else {
        req.discovery_heaps
    };
    // The growth (unsettled spaces: rare values keep coming) by the block engine on every core.
    // Proved values of an earlier run are taken as they are, not computed again.
    let (discovered, found) = discover::discover_growing(
        &rules,
        &g,
        req.discovery_heaps,
        limit,
        &mut |g| PeriodSearch::new(rules.t, SEARCH_WINDOW).feed(g).is_some(),
        &mut |space, g, n| grow_by_blocks(&rules, space, g, n),
    )?;
    notify(Notice::Discovered(found));
    let game = games::find(&req.code);
    // The space to start from: the one asked for, the build-time one of games/ (a starting
    // point), else discovery's.
    let space = req.space.or(game.and_then(|d| d.space)).or(found);
    match (req.engine, space) {
        (EngineChoice::Unrolled, _) if game.is_none_or(|d| d.unrolled.is_err()) => {
            return Err(SolveError::NoUnrolled(req.code.clone()))
        }
        (EngineChoice::Generic, None) => {
            return Err(SolveError::NoSparseSpace {
                code: req.code.clone(),
                engine: EngineChoice::Generic,
            })
        }
        _ => {}
    }
    // Proved values are proved values: continue after the longer of an earlier run's and
    // discovery's.
    g.truncate(req.n);
    let known = discovered.len().min(req.n);
    if g.len() < known {
        g.extend_from_slice(&discovered[g.len()..known])?;
    }
    drop(discovered);
    // A short window: a repeat only proposes a period, the theorem proves it, so a game whose
    // rare heaps recur with its period is found as soon as one shows.
    let mut search = PeriodSearch::new(rules.t, SEARCH_WINDOW.max(rules.t + 1));
    // Shows proved values to the watcher and the search; true when the run may stop.
    let mut proved = |g: &[u16]| -> Result<bool, SolveError> {
        if req.verify {
            watch(g)?;
        }
        Ok(search.feed(g).is_some() && req.check_period)
    };
    // The device goes on starting (and compiles the first kernels) while the host's cores
    // compute; a run without verification (whose engines see no proved blocks) waits for it.
    let mut device = gpu::Slot::new(opening);
    if !req.verify || !req.start_on_host {
        device.wait()?;
    }
    let mut run = Stretches {
        req,
        rules: &rules,
        game,
        space,
        watch: SpaceWatch::default(),
        stretches: Vec::new(),
        changes: Vec::new(),
        last: Engine::Exact,
        gpu_timings: GpuTimings::default(),
        device,
        settled: false,
        far: None,
        far_choice: FarChoice::default(),
    };
    let table = run.run(&mut g, notify, &mut proved)?;
    let Stretches {
        space,
        stretches,
        changes,
        last,
        device,
        gpu_timings,
        ..
    } = run;
    // A GPU run fails where there is no device, even one the host finished.
    let gpu_timings = device.finish()?.then_some(gpu_timings);
    let period = if req.verify { search.proved() } else { None };
    if let (Some(p), true) = (period, req.check_period) {
        g.truncate(p.checked_to);
    }
    Ok(Solution {
        values: g,
        space,
        engine: last,
        stretches,
        changes,
        verified: req.verify,
        table,
        period,
        gpu_timings,
    })
}

/// The rare table a speculative engine starts from under `space`: the rare heaps among the
/// proved values `g`, with the build-time table of games/ when it is of this space (it reaches
/// farther).
fn seed_table(game: Option<&GameDef>, space: SparseSpace, g: &[u16]) -> RareTable {
    let mut entries = match game {
        Some(d) if d.space == Some(space) => d.table().entries().to_vec(),
        _ => Vec::new(),
    };
    entries.extend(RareTable::from_values(&space, g).entries());
    RareTable::from_entries(entries)
}

/// Extends the exact values `g` to `n` heaps by the block engine's classic marking under `space`.
fn grow_by_blocks(
    rules: &Rules,
    space: SparseSpace,
    g: &mut Vec<u16>,
    n: usize,
) -> Result<(), SolveError> {
    let mut store = ValueStore::for_heaps(n)?;
    store.extend_from_slice(g)?;
    let mut blocks = Blocks::new(rules, Marking::Classic(space), &store);
    while store.len() < n {
        blocks.extend_block(&mut store, n, None)?;
    }
    g.extend_from_slice(&store[g.len()..]);
    Ok(())
}

/// Codes wide enough for the largest value of `seed`.
fn seed_bits(seed: &RareTable) -> u32 {
    value_bits(seed.entries().iter().map(|e| e.1).max().unwrap_or(0))
}

/// Heaps the block engines compute between two looks at the space: at least this many, and at
/// least a sixteenth of the heaps before.
const BLOCK_STRETCH: usize = 1 << 12;

/// Seconds the device takes to open (the driver's initialisation, a context and the first
/// kernels, 0.3 to 0.5 s on an H100 or H200 host) and to close at the end, which its faster pace
/// must make up: a run the host's cores end sooner does not open it.
const DEVICE_READY: f64 = 0.4;

/// Seconds the device takes to open once the driver is initialised in the run's process (a
/// context, 0.11-0.12 s; kernels the driver's cache holds, 0.04-0.06 s; then as
/// [`DEVICE_HANDOFF`]).
const DEVICE_CONTEXT: f64 = 0.3;

/// Seconds a device already open beside the host's work, its kernels compiled, takes to start
/// (filling its buffers with the proved values: 0.04-0.06 s for 2^22 heaps on an H100 or H200
/// host) and to close at the end (0.07 s).
const DEVICE_HANDOFF: f64 = 0.15;

/// Heaps a second the device verifies at best (Officers, on one H100 or H200): the host's pace
/// is set against it.
const DEVICE_PACE: f64 = 7e7;

/// Seconds of the host's work each estimate of its pace spans (single blocks are too short to
/// time).
const DEVICE_WINDOW: f64 = 0.005;

/// Seconds into its stretch before the host may say the device is wanted: its first blocks are
/// small and slow and overstate the time left, so they may only say it is not.
const DEVICE_SAMPLE: f64 = 0.02;

/// Windows in a row that must say the device is wanted before the host says so (a window with a
/// stall says the run is long; any window may say it is not).
const DEVICE_STREAK: u32 = 3;

/// Seconds of the host's work a block of a GPU run's host spans at most while the device
/// starts: the host sees the values, and hands them over once the device is ready, within
/// milliseconds (its blocks of up to 2^17 heaps took 0.1 to 0.2 s on games such as .64 and
/// Officers).
const HOST_BLOCK: f64 = 0.01;

/// The fewest heaps [`HOST_BLOCK`] bounds a block to.
const HOST_BLOCK_MIN: usize = 1 << 10;

/// The host's speculative stretch timed over windows: whether a GPU run wants its device.
struct HostPace {
    started: Instant,
    /// The start of the window: its time and the heaps computed then.
    window: (Instant, usize),
    /// Windows in a row that said the device is wanted.
    streak: u32,
    /// Heaps of [`HOST_BLOCK`] at the pace of the last window (none before one).
    block: usize,
}

impl HostPace {
    /// The pace of a stretch that started at `started`, after `from` heaps.
    fn new(started: Instant, from: usize) -> HostPace {
        HostPace {
            started,
            window: (started, from),
            streak: 0,
            block: usize::MAX,
        }
    }

    /// At `now`, with `heaps` computed of the run's `n`, once a window has passed: whether the
    /// device is wanted, that is whether at the host's pace over the window the device, given
    /// the `ready` seconds it needs to take over and its best pace, would end the run sooner
    /// ([`DEVICE_STREAK`] windows in a row, and not before [`DEVICE_SAMPLE`] into the stretch; a
    /// window may say it is not at once). None while the window lasts or has nothing to say.
    fn wants_device(&mut self, now: Instant, heaps: usize, n: usize, ready: f64) -> Option<bool> {
        let (at, before) = self.window;
        let secs = (now - at).as_secs_f64();
        if secs < DEVICE_WINDOW || heaps <= before {
            return None;
        }
        self.window = (now, heaps);
        let host = secs / (heaps - before) as f64;
        self.block = ((HOST_BLOCK / host) as usize).max(HOST_BLOCK_MIN);
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

/// The run's stretches: the space in use, what the values show, the device (a GPU run), and what
/// was done.
struct Stretches<'a> {
    req: &'a Request,
    rules: &'a Rules,
    /// The game's build-time definition in games/, if any: its table seeds the host's
    /// speculative stretches, and its unrolled loop computes them while the space is its own.
    game: Option<&'static GameDef>,
    space: Option<SparseSpace>,
    watch: SpaceWatch,
    stretches: Vec<Stretch>,
    changes: Vec<SpaceChange>,
    /// The engine of the last stretch (also of one that computed nothing).
    last: Engine,
    /// The GPU that computes the stretches that suit speculation, and its timings.
    device: gpu::Slot,
    gpu_timings: GpuTimings,
    /// The last speculative stretch (the device's, or the host's before the device took over)
    /// computed heaps and left the table as it was: the device's next goes on to the end.
    settled: bool,
    /// The device's far marking for the block engine's stretches, once one came.
    far: Option<Box<dyn gpu::FarMarker>>,
    /// Which of the device and the host marks the next classic stretch.
    far_choice: FarChoice,
}

/// Which marks the far options of a GPU run's classic block stretches: the device (every far
/// split) or the host's cores (the classic marking: the rare heaps, then splits until the rare
/// values are covered). The device is the faster for most games; the host where rare heaps are a
/// large share of all (its scan then stops early, while the device reads every split). Each side
/// is timed on the stretches it takes, as seconds a heap per heap index (the cost of both grows
/// with the heap), the faster takes the next stretch, and the other is tried again every
/// [`FarChoice::PROBE`] stretches.
#[derive(Debug, Default)]
struct FarChoice {
    /// The cost of the last stretch each side took.
    device: Option<f64>,
    host: Option<f64>,
    /// Stretches since the slower side was last tried.
    since: usize,
}

impl FarChoice {
    /// Stretches between two tries of the slower side.
    const PROBE: usize = 8;

    /// Whether the device takes the next stretch: first the device, then the host once, then
    /// the faster.
    fn device_next(&mut self) -> bool {
        let (Some(device), Some(host)) = (self.device, self.host) else {
            return self.device.is_none();
        };
        self.since += 1;
        if self.since >= Self::PROBE {
            self.since = 0;
            device > host
        } else {
            device <= host
        }
    }

    /// Records that the device (or the host) took `secs` for heaps `from .. to`.
    fn record(&mut self, device: bool, from: usize, to: usize, secs: f64) {
        if to <= from {
            return;
        }
        let cost = secs / ((to - from) as f64 * (from + to) as f64 / 2.0);
        *if device {
            &mut self.device
        } else {
            &mut self.host
        } = Some(cost);
    }
}

/// The engine of the current stretch.
enum Current<'a> {
    None,
    Speculative(Box<Speculative<'a>>),
    /// The GPU's speculation under a space, with its table.
    Gpu(SparseSpace, RareTable),
    Blocks(Blocks<'a>),
}

impl<'a> Stretches<'a> {
    /// Extends `g` to `req.n` heaps (or until `proved` says stop), stretch after stretch.
    /// Returns the rare table of the speculative engine when it ran last.
    fn run(
        &mut self,
        g: &mut ValueStore,
        notify: &mut dyn FnMut(Notice),
        proved: &mut dyn FnMut(&[u16]) -> Result<bool, SolveError>,
    ) -> Result<Option<RareTable>, SolveError> {
        let (req, rules) = (self.req, self.rules);
        let needs_space = self.needs_space();
        let mut engine = Current::None;
        loop {
            self.watch.feed(g);
            let sticky = matches!(engine, Current::Speculative(_) | Current::Gpu(..));
            if self.look(g.len(), sticky, notify) {
                engine = Current::None;
            }
            let fit = match (req.engine, self.space) {
                (EngineChoice::Exact, _) => Fit::Exact,
                (_, Some(s)) if needs_space => Fit::Speculate(s),
                _ => self.watch.fit(rules, self.space, self.device.is_gpu()),
            };
            let device_open = self.device.ready()?;
            let from = g.len();
            // To the next power of two, or sooner if rare heaps turn up often.
            let next = (from + 1).next_power_of_two().min(req.n);
            let corrections = ((next - from) >> 10).max(32);
            let (stopped, used) = match fit {
                Fit::Speculate(space) if device_open => {
                    if !matches!(&engine, Current::Gpu(s, _) if *s == space) {
                        // The device's seed tables are the values' own: its stretches start
                        // where they end, and it appends the rare heaps it finds.
                        let seed = seed_table(None, space, g);
                        // A table the host's last stretch left as it was stays settled.
                        self.settled &=
                            matches!(&engine, Current::Speculative(run) if *run.table() == seed);
                        engine = Current::Gpu(space, seed);
                    }
                    let (Current::Gpu(_, table), Some(device)) =
                        (&mut engine, self.device.device())
                    else {
                        unreachable!("made above")
                    };
                    // A stretch that found no rare value goes on to the end: each stretch fills
                    // the device again, and the space is looked at between them.
                    let until = if self.settled { req.n } else { next };
                    let (ended, end) = gpu::extend(
                        device,
                        &req.code,
                        space,
                        table.clone(),
                        seed_bits(table),
                        g,
                        until,
                        req.verify,
                        notify,
                        proved,
                        corrections,
                        &mut self.gpu_timings,
                    )?;
                    self.settled = ended == *table;
                    *table = ended;
                    (end == Ended::Stopped, Engine::Gpu)
                }
                Fit::Speculate(space) => {
                    if !matches!(engine, Current::Speculative(_)) {
                        let seed = seed_table(self.game, space, g);
                        let unrolled = self
                            .game
                            .filter(|d| {
                                d.space == Some(space) && req.engine != EngineChoice::Generic
                            })
                            .and_then(|d| d.unrolled.as_ref().ok());
                        let bits = seed_bits(&seed);
                        engine = Current::Speculative(Box::new(Speculative::new(
                            rules, space, seed, bits, unrolled,
                        )));
                    }
                    let Current::Speculative(run) = &mut engine else {
                        unreachable!("made above")
                    };
                    // A GPU run's host computes while its device starts, which compiles the
                    // kernels for this table meanwhile, until the device is ready.
                    let table = run.table();
                    let bits = seed_bits(table);
                    self.device
                        .prepare(&req.code, space, table, bits, g, req.verify);
                    let device = &self.device;
                    let mut period = false;
                    let mut pace = HostPace::new(Instant::now(), from);
                    let limit = run.block_limit();
                    limit.store(usize::MAX, Ordering::Relaxed);
                    let mut stop = |g: &[u16]| -> Result<bool, SolveError> {
                        period = proved(g)?;
                        if device.is_gpu() {
                            // What the device has done so far beside the host's work is done.
                            let ready = match device.readiness() {
                                gpu::Readiness::Closed => DEVICE_READY,
                                gpu::Readiness::Initialised => DEVICE_CONTEXT,
                                gpu::Readiness::Ready => DEVICE_HANDOFF,
                            };
                            if let Some(wanted) =
                                pace.wants_device(Instant::now(), g.len(), req.n, ready)
                            {
                                device.want(wanted);
                            }
                            limit.store(pace.block, Ordering::Relaxed);
                        }
                        Ok(period || device.has_started())
                    };
                    let before = run.corrections();
                    run.extend(g, next, req.verify, notify, &mut stop, corrections)?;
                    self.settled = run.corrections() == before && g.len() > from;
                    if device.is_gpu() {
                        self.gpu_timings.starting += g.len() - from;
                    }
                    let used = if run.unrolled() {
                        Engine::Unrolled
                    } else {
                        Engine::Generic
                    };
                    (period, used)
                }
                Fit::Classic(_) | Fit::Exact => {
                    // The block engine's stretches are slow: the device marks their far options.
                    self.device.want(true);
                    let marking = match fit {
                        Fit::Classic(s) => Marking::Classic(s),
                        _ => Marking::Exact,
                    };
                    if !matches!(&engine, Current::Blocks(b) if b.marking() == marking) {
                        engine = Current::Blocks(Blocks::new(rules, marking, g));
                    }
                    let Current::Blocks(blocks) = &mut engine else {
                        unreachable!("made above")
                    };
                    let until = (from + (from / 16).max(BLOCK_STRETCH))
                        .min((from + 1).next_power_of_two())
                        .min(req.n);
                    // A GPU run marks the far options on the device.
                    if self.far.is_none() {
                        if let Some(device) = self.device.device() {
                            self.far = Some(gpu::far_marker(device, &req.code)?);
                        }
                    }
                    // Exact marking on the device always (the host marks every split too).
                    let on_device = self.far.is_some()
                        && (marking == Marking::Exact || self.far_choice.device_next());
                    let used = match marking {
                        _ if on_device => Engine::Gpu,
                        Marking::Exact => Engine::Exact,
                        Marking::Classic(_) => Engine::Classic,
                    };
                    let mut stopped = proved(g)?;
                    let started = Instant::now();
                    while !stopped && g.len() < until {
                        let far = match &mut self.far {
                            Some(f) if on_device => Some(f.as_mut() as &mut dyn gpu::FarMarker),
                            _ => None,
                        };
                        blocks.extend_block(g, until, far)?;
                        stopped = proved(g)?;
                    }
                    if self.far.is_some() && marking != Marking::Exact {
                        let secs = started.elapsed().as_secs_f64();
                        self.far_choice.record(on_device, from, g.len(), secs);
                    }
                    if on_device {
                        self.gpu_timings.exact += g.len() - from;
                    } else if self.far.is_some() {
                        self.gpu_timings.host_classic += g.len() - from;
                    } else if self.device.is_gpu() {
                        self.gpu_timings.starting += g.len() - from;
                    }
                    (stopped, used)
                }
            };
            self.record(from, g.len(), used);
            if stopped || g.len() >= req.n {
                return Ok(match engine {
                    Current::Speculative(run) => Some(run.table().clone()),
                    Current::Gpu(_, table) => Some(table),
                    _ => {
                        // The block engines end on the best space of all the values.
                        self.watch.feed(g);
                        self.look(g.len(), false, notify);
                        None
                    }
                });
            }
        }
    }

    /// Whether the engine asked for is the speculative loop, which needs a space throughout.
    fn needs_space(&self) -> bool {
        matches!(
            self.req.engine,
            EngineChoice::Generic | EngineChoice::Unrolled
        )
    }

    /// Takes the space the values so far call for, from heap `heap` on; true if it changed.
    fn look(&mut self, heap: usize, sticky: bool, notify: &mut dyn FnMut(Notice)) -> bool {
        let needs_space = self.needs_space();
        let chosen = self.watch.choose(self.rules, self.space, sticky);
        let chosen = if needs_space {
            chosen.or(self.space)
        } else {
            chosen
        };
        if chosen == self.space {
            return false;
        }
        let change = SpaceChange {
            heap,
            space: chosen,
        };
        self.changes.push(change);
        notify(Notice::SpaceChanged(change));
        self.space = chosen;
        true
    }

    /// Notes that `engine` computed heaps `from..to`, joining the stretch before when it was
    /// the same engine's.
    fn record(&mut self, from: usize, to: usize, engine: Engine) {
        self.last = engine;
        match self.stretches.last_mut() {
            Some(s) if s.engine == engine && s.to == from => s.to = to,
            _ if to > from => self.stretches.push(Stretch { from, to, engine }),
            _ => {}
        }
    }
}

/// The window the period search hashes.
const SEARCH_WINDOW: usize = 64;

#[cfg(test)]
mod tests {
    use super::*;
    use octal_core::exact;

    /// The choice of the far marking takes the device, then the host once, then the side whose
    /// last stretch cost less a heap per heap index, trying the slower again every
    /// `FarChoice::PROBE` stretches; a new timing can turn it.
    #[test]
    fn the_far_marking_goes_where_it_was_timed_faster() {
        let mut choice = FarChoice::default();
        assert!(choice.device_next());
        choice.record(true, 1 << 20, 17 << 16, 3.0);
        assert!(!choice.device_next());
        // Twice the heaps, further on, in less time: the host is the faster.
        choice.record(false, 17 << 16, 19 << 16, 2.0);
        let picks: Vec<bool> = (0..2 * FarChoice::PROBE)
            .map(|_| choice.device_next())
            .collect();
        let tried: Vec<usize> = (0..picks.len()).filter(|&k| picks[k]).collect();
        assert_eq!(tried, [FarChoice::PROBE - 1, 2 * FarChoice::PROBE - 1]);
        choice.record(true, 19 << 16, 20 << 16, 0.5);
        assert!(choice.device_next());
        // A stretch stopped before its first heap (a proof came) records nothing.
        choice.record(false, 20 << 16, 20 << 16, 9.0);
        assert!(choice.device_next());
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

    /// Discovery grown by the block engine (the GPU run's unsettled spaces: .04 and .114 keep
    /// finding rare values) gives the exact engine's values.
    #[test]
    fn discovery_grown_by_blocks_is_exact() {
        for code in [".04", ".114", ".6"] {
            let rules = code.parse::<octal_core::Code>().unwrap().rules();
            let (g, _) = discover::discover_growing(
                &rules,
                &[],
                1 << 11,
                1 << 14,
                &mut |_| false,
                &mut |space, g, n| grow_by_blocks(&rules, space, g, n),
            )
            .unwrap();
            assert!(g.len() > 1 << 11, "{code} grew");
            assert_eq!(g, exact::values(&rules, g.len()).unwrap(), "{code}");
        }
    }
}

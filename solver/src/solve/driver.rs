//! The stretch driver: between two stretches it looks at the space the values show, picks the
//! engine that suits it (keeping the one it has where it still suits) and runs the stretch
//! through the engines' one call, [`StretchEngine::extend`].
//!
//! The engines: a speculate-verify loop while rare heaps are seldom (the CPU's, or on a GPU run
//! the device's, which takes tables of any length and rarer heaps less rare), the marking engine
//! with the classic marking while they keep coming, with exact marking when no space makes them
//! rare. A game of `games/` starts its host stretches from its build-time table and unrolled
//! loop. On a GPU run the device computes the marking engine's batches where it is timed faster,
//! and marks exactly instead of speculating where that is timed faster; values past the widest
//! keys of its speculation go to the host's speculation or the marking engine.
//!
//! Past `--keep` heaps a run holds only its first and last values ([`RunValues::bound`]): the
//! front and tail are sized from what the verifier's witnesses read and how far back the rare
//! table's options reach. Such a run speculates on; it takes a new space only where the new one
//! classes every value as the old (a mask with bits above them), and stops where the values call
//! for an engine that reads every value.

use super::handoff::{Pick, RunWatch, TimedChoice};
use crate::error::SolveError;
use crate::outcome::Span;
use crate::request::{Bounds, EngineChoice, Request};
use kernels_gen::MAX_VALUE_BITS;
use octal_core::codec::value_bits;
use octal_core::discover::same_on_values;
use octal_core::{Kept, RareTable, Rules, SparseSpace};
use octal_engines::games::GameDef;
use octal_engines::marking::{Marking, MarkingEngine};
use octal_engines::space_watch::{Fit, SpaceChange, SpaceWatch};
use octal_engines::speculative::Speculative;
use octal_engines::stretch::{
    reads_back, BlockMarker, Ended, Engine, Notice, Stretch, StretchEngine,
};
use octal_engines::verify::Verifier;
use octal_gpu::{GpuTimings, RunDevice};
use octal_store::run_values::RunValues;
use std::time::{Duration, Instant};

/// Heaps the marking engine computes between two looks at the space: at least this many, and
/// at least a sixteenth of the heaps before.
const MARKING_STRETCH: usize = 1 << 12;

/// Seconds a heap below which the device's speculation is not timed against its exact marking:
/// the marking computes the heaps of a batch one after another, about a microsecond each.
const MARKING_FLOOR: f64 = 1e-6;

/// The least front of a bounded run (256 KiB of values), and the front's margin over the
/// farthest split the verifier's witnesses read.
const MIN_FRONT: usize = 1 << 17;
const FRONT_MARGIN: usize = 4;

/// Heaps before the bound whose proofs size the front (their witnesses are read again).
const WITNESS_HEAPS: usize = 1 << 16;

/// Heaps a bounded run's tail holds beyond the farthest any read reaches back.
const TAIL_MARGIN: usize = 1 << 16;

/// The engine of the current stretch.
enum Current<'a> {
    None,
    /// The CPU's speculate-verify loop.
    Host(Box<Speculative<'a>>),
    /// The device's speculation under a space.
    Device(SparseSpace, Box<dyn StretchEngine>),
    Marking(MarkingEngine<'a>),
}

impl Current<'_> {
    /// The engine, for the stretch's one call.
    fn engine(&mut self) -> &mut dyn StretchEngine {
        match self {
            Current::None => unreachable!("an engine is picked before each stretch"),
            Current::Host(run) => run.as_mut(),
            Current::Device(_, run) => run.as_mut(),
            Current::Marking(run) => run,
        }
    }

    /// Whether a change of space would cost the engine its table (and unrolled loop).
    fn speculates(&self) -> bool {
        matches!(self, Current::Host(_) | Current::Device(..))
    }
}

/// What the engine of a stretch held before it: the device's table, the host loop's count of
/// corrections; and the device's time making kernels so far.
struct Before {
    table: Option<RareTable>,
    corrections: usize,
    setup: Duration,
}

impl Before {
    fn of(current: &Current<'_>, device: &RunDevice) -> Before {
        let (table, corrections) = match current {
            Current::Device(_, run) => (run.table().cloned(), 0),
            Current::Host(run) => (None, run.corrections()),
            _ => (None, 0),
        };
        Before {
            table,
            corrections,
            setup: setup_time(device),
        }
    }
}

/// The device's time making kernels and filling buffers so far (none on a CPU run).
fn setup_time(device: &RunDevice) -> Duration {
    device
        .device()
        .map_or(Duration::ZERO, |d| d.timings().setup)
}

/// How one stretch goes: where it ends, for the marking engine whether the device computes its
/// batches, and which timed choice its time goes to.
struct Plan {
    to: usize,
    corrections: usize,
    blocks_on_device: bool,
    timed: Timed,
}

/// The timed choice a stretch was picked by, and the side it took.
#[derive(Debug, Clone, Copy)]
enum Timed {
    None,
    /// The classic marking: the device's (or the host's).
    Blocks {
        device: bool,
    },
    /// Where the values call for speculation: the device's speculation (or its exact marking).
    Speculation {
        speculating: bool,
    },
}

/// The run's stretches: the space in use, what the values show, the device (a GPU run), and what
/// was done.
pub(super) struct Driver<'a> {
    req: &'a Request,
    rules: &'a Rules,
    /// The game's build-time definition in games/, if any: its table seeds the host's
    /// speculative stretches, and its unrolled loop computes them while the space is its own.
    game: Option<&'static GameDef>,
    space: Option<SparseSpace>,
    watch: SpaceWatch,
    stretches: Vec<Span>,
    changes: Vec<SpaceChange>,
    /// The engine of the last stretch (also of one that computed nothing).
    last: Engine,
    /// The GPU that computes the stretches that suit speculation.
    device: RunDevice,
    /// Heaps of a GPU run that the host computed while the device started, that the device's
    /// marking computed, and that the host's classic marking computed, timed faster there.
    host_counts: GpuTimings,
    /// The last speculative stretch (the device's, or the host's before the device took over)
    /// computed heaps and left the table as it was: the device's next goes on to the end.
    settled: bool,
    /// The device's batches for the marking engine's stretches, once one came.
    blocks: Option<Box<dyn BlockMarker>>,
    /// Which of the device and the host marks the next classic stretch.
    block_choice: TimedChoice,
    /// Which of the device's speculation and its exact marking takes the next stretch the
    /// values call speculation for (a run that keeps every value), and the seconds a heap of the
    /// device's last speculative stretch.
    spec_choice: TimedChoice,
    spec_pace: Option<f64>,
    /// A value passed the widest keys of the device's speculation: the host's cores speculate,
    /// or the marking engine computes (its batches still on the device).
    past_keys: bool,
}

impl<'a> Driver<'a> {
    pub(super) fn new(
        req: &'a Request,
        rules: &'a Rules,
        game: Option<&'static GameDef>,
        space: Option<SparseSpace>,
        device: RunDevice,
    ) -> Driver<'a> {
        Driver {
            req,
            rules,
            game,
            space,
            watch: SpaceWatch::default(),
            stretches: Vec::new(),
            changes: Vec::new(),
            last: Engine::Exact,
            device,
            host_counts: GpuTimings::default(),
            settled: false,
            blocks: None,
            block_choice: TimedChoice::default(),
            spec_choice: TimedChoice::default(),
            spec_pace: None,
            past_keys: false,
        }
    }

    /// Extends `g` to `req.n` heaps (or until `proved` says stop), stretch after stretch.
    /// Returns the rare table of the speculative engine when it ran last.
    pub(super) fn run(
        &mut self,
        g: &mut RunValues,
        notify: &mut dyn FnMut(Notice),
        proved: &mut dyn FnMut(Kept<'_>) -> Result<bool, SolveError>,
    ) -> Result<Option<RareTable>, SolveError> {
        let mut current = Current::None;
        loop {
            self.watch.feed(g.kept());
            if self.req.keep.is_some_and(|k| g.len() >= k) && g.rare().is_none() {
                self.bound(g, notify)?;
                // The watcher records what it keeps of every value (a run directory's values.bin)
                // before the window drops all but the tail and gives back their room.
                proved(g.kept())?;
                g.seen(g.len());
                g.shrink()?;
            }
            // A bounded run holds what the heaps after its last rare heap read (a checkpoint
            // written before a far rare heap was found may not).
            if let Some((_, table)) = g.rare() {
                let back = reads_back(self.rules, table.last_heap());
                if !g.holds_back(back) {
                    return Err(SolveError::Unheld {
                        heap: g.len(),
                        back,
                    });
                }
            }
            if self.look(g, current.speculates(), notify) {
                current = Current::None;
            }
            let fit = self.fit(g);
            let from = g.len();
            let plan = self.pick(fit, g, &mut current)?;
            let before = Before::of(&current, &self.device);
            let started = Instant::now();
            // The space watch sees every value as it is proved (a bounded run drops them).
            let space_watch = &mut self.watch;
            let mut shown = |g: Kept<'_>| {
                space_watch.feed(g);
                proved(g)
            };
            let mut watch = RunWatch::new(&mut shown);
            if matches!(current, Current::Host(_)) {
                watch = watch.handing_over(&self.device, from, self.req.n);
            }
            let blocks = match &mut self.blocks {
                Some(f) if plan.blocks_on_device => Some(f.as_mut() as &mut dyn BlockMarker),
                _ => None,
            };
            let mut stretch = Stretch {
                values: g,
                to: plan.to,
                verify: self.req.verify,
                corrections: plan.corrections,
                blocks,
                notify,
                watch: &mut watch,
            };
            let ended = current.engine().extend(&mut stretch);
            let stopped = watch.stop;
            self.account(&current, plan.timed, (from, g.len()), before, started);
            self.record(from, g.len(), current.engine().engine());
            self.past_keys |= ended? == Ended::PastKeys;
            if stopped || g.len() >= self.req.n {
                return Ok(match current {
                    Current::Host(run) => Some(run.table().clone()),
                    Current::Device(_, run) => run.table().cloned(),
                    _ => {
                        // The marking engines end on the best space of all the values.
                        self.watch.feed(g.kept());
                        self.look(g, false, notify);
                        None
                    }
                });
            }
        }
    }

    /// From here the run holds only its front and tail of `g` (all proved, every value held).
    fn bound(
        &mut self,
        g: &mut RunValues,
        notify: &mut dyn FnMut(Notice),
    ) -> Result<(), SolveError> {
        let heap = g.len();
        let fit = self.fit(g);
        let space = match fit {
            Fit::Speculate(space) => space,
            Fit::Exact => {
                let why = "no sparse space makes its sparse heaps rare";
                return Err(SolveError::NeedsAllValues { heap, why });
            }
            Fit::Classic(_) => {
                let why = "rare values keep coming";
                return Err(SolveError::NeedsAllValues { heap, why });
            }
        };
        let all = g.all().expect("a run not yet bounded holds every value");
        let table = RareTable::from_values(&space, all);
        let (front, tail) = bounds(self.req.bounds, self.rules, space, (all, &table))?;
        let rare = table.len();
        g.bound(front, tail, space, table);
        notify(Notice::Bounded {
            heap,
            front,
            tail,
            rare,
        });
        Ok(())
    }

    /// The engine the values `g` call for (the one asked for, where it is not `auto`).
    fn fit(&mut self, g: &RunValues) -> Fit {
        let max = g.max_value().unwrap_or(0).max(self.watch.max());
        self.past_keys |= value_bits(max) > MAX_VALUE_BITS;
        let on_gpu = self.device.is_gpu() && !self.past_keys;
        match (self.req.engine, self.space) {
            (EngineChoice::Exact, _) => Fit::Exact,
            (_, Some(s)) if self.needs_space() => Fit::Speculate(s),
            _ => self.watch.fit(self.rules, self.space, on_gpu),
        }
    }

    /// Makes `current` the engine for `fit` after the values `g` (keeping the one it is where it
    /// suits), and plans its stretch.
    fn pick(
        &mut self,
        fit: Fit,
        g: &RunValues,
        current: &mut Current<'a>,
    ) -> Result<Plan, SolveError> {
        let (req, rules, from) = (self.req, self.rules, g.len());
        let end = self.end(from);
        // To the next power of two, or sooner if rare heaps turn up often.
        let next = (from + 1).next_power_of_two().min(end);
        let bounded = g.rare().is_some();
        if bounded && !matches!(fit, Fit::Speculate(_)) {
            return Err(SolveError::NeedsAllValues {
                heap: from,
                why: match fit {
                    Fit::Exact => "no sparse space makes its sparse heaps rare",
                    _ => "rare values keep coming",
                },
            });
        }
        let corrections = ((next - from) >> 10).max(32);
        let device_open = self.device.ready()?;
        match fit {
            Fit::Speculate(space) if device_open && !self.past_keys => {
                // A run that keeps every value may have the device mark exactly instead, where
                // that was timed faster; it is tried where the speculation is slower than the
                // marking can be (the first stretch a trial, to time it).
                let choosing = !self.needs_space() && req.verify && !bounded;
                let pick = match self.spec_pace {
                    _ if !choosing => Pick {
                        first: true,
                        trial: false,
                    },
                    None => Pick {
                        first: true,
                        trial: true,
                    },
                    Some(pace) if pace < MARKING_FLOOR => Pick {
                        first: true,
                        trial: false,
                    },
                    Some(_) => self.spec_choice.next(),
                };
                let timed = Timed::Speculation {
                    speculating: pick.first,
                };
                if !pick.first {
                    return self.mark(current, Marking::Exact, g, true, pick.trial, timed);
                }
                if !matches!(current, Current::Device(s, _) if *s == space) {
                    // The device's seed tables are the values' own: its stretches start where
                    // they end, and it appends the rare heaps it finds.
                    let seed = seed_table(None, space, g);
                    let seed = seed.unwrap_or_else(|| g.rare().expect("bounded").1.clone());
                    // A table the host's last stretch left as it was stays settled.
                    self.settled &= matches!(current, Current::Host(run) if *run.table() == seed);
                    let device = self.device.device().expect("open");
                    *current =
                        Current::Device(space, device.speculation(&req.code, space, seed, 0));
                }
                // A stretch that found no rare value goes on to the end: each stretch fills the
                // device again, and the space is looked at between them. A trial takes a
                // sixteenth of the heaps before (shorter ones would time the filling).
                let to = match (pick.trial, self.settled) {
                    (true, _) => (from + (from / 16).max(MARKING_STRETCH)).min(next),
                    (false, true) => end,
                    (false, false) => next,
                };
                Ok(Plan {
                    to,
                    corrections,
                    blocks_on_device: false,
                    timed,
                })
            }
            Fit::Speculate(space) => {
                if !matches!(current, Current::Host(_)) {
                    let seed = seed_table(self.game, space, g)
                        .unwrap_or_else(|| g.rare().expect("bounded").1.clone());
                    let unrolled = self
                        .game
                        .filter(|d| d.space == Some(space) && req.engine != EngineChoice::Generic)
                        .and_then(|d| d.unrolled.as_ref().ok());
                    let bits = seed_bits(&seed);
                    *current = Current::Host(Box::new(Speculative::new(
                        rules, space, seed, bits, unrolled,
                    )));
                }
                // A GPU run's host computes while its device starts, which compiles the kernels
                // for this table meanwhile, until the device is ready.
                if let Current::Host(run) = current {
                    self.device.prepare(&req.code, space, run.table(), g.kept());
                }
                Ok(Plan {
                    to: next,
                    corrections,
                    blocks_on_device: false,
                    timed: Timed::None,
                })
            }
            Fit::Classic(_) | Fit::Exact => {
                // The marking engine's stretches are slow: the device computes their batches.
                self.device.want(true);
                let marking = match fit {
                    Fit::Classic(s) => Marking::Classic(s),
                    _ => Marking::Exact,
                };
                let on_device = self.block_marker()?;
                // Exact marking on the device always (the host marks every split too).
                let (pick, timed) = match marking {
                    Marking::Classic(_) if on_device => {
                        let pick = self.block_choice.next();
                        (pick, Timed::Blocks { device: pick.first })
                    }
                    _ => (
                        Pick {
                            first: on_device,
                            trial: false,
                        },
                        Timed::None,
                    ),
                };
                self.mark(current, marking, g, pick.first, pick.trial, timed)
            }
        }
    }

    /// Whether the device computes the marking engine's batches (a GPU run whose device is
    /// open), making its kernels the first time.
    fn block_marker(&mut self) -> Result<bool, SolveError> {
        if self.blocks.is_none() {
            if let Some(device) = self.device.device() {
                self.blocks = Some(device.block_marker(&self.req.code)?);
            }
        }
        Ok(self.blocks.is_some())
    }

    /// Where a stretch from heap `from` ends at the latest: at `n`, or where the run starts to
    /// hold only its front and tail.
    fn end(&self, from: usize) -> usize {
        match self.req.keep {
            Some(keep) if from < keep => self.req.n.min(keep),
            _ => self.req.n,
        }
    }

    /// Makes `current` the marking engine with `marking` after the values `g` (keeping it where
    /// it is one), and plans its stretch: a sixteenth of the heaps before (a `trial`, a 256th),
    /// its batches on the device where `on_device` says and the device computes them.
    fn mark(
        &mut self,
        current: &mut Current<'a>,
        marking: Marking,
        g: &RunValues,
        on_device: bool,
        trial: bool,
        timed: Timed,
    ) -> Result<Plan, SolveError> {
        let (from, end) = (g.len(), self.end(g.len()));
        if !matches!(current, Current::Marking(m) if m.marking() == marking) {
            let all = g.all().expect("a run that keeps its values");
            *current = Current::Marking(MarkingEngine::new(self.rules, marking, all));
        }
        let on_device = on_device && self.block_marker()?;
        let part = if trial { 256 } else { 16 };
        let to = (from + (from / part).max(MARKING_STRETCH))
            .min((from + 1).next_power_of_two())
            .min(end);
        Ok(Plan {
            to,
            corrections: 0,
            blocks_on_device: on_device,
            timed,
        })
    }

    /// Takes account of a stretch that computed heaps `from..to`, `started` then, its engine
    /// as it was `before`, picked by the choice `timed`: whether the table settled, the timing
    /// of the side the choice took (without the device's time making kernels), and a GPU run's
    /// counts of the heaps its host computed.
    fn account(
        &mut self,
        current: &Current<'_>,
        timed: Timed,
        (from, to): (usize, usize),
        before: Before,
        started: Instant,
    ) {
        let gpu = self.device.is_gpu();
        // The time making kernels is the device's once a table, not the stretch's.
        let setup = setup_time(&self.device).saturating_sub(before.setup);
        let secs = started.elapsed().saturating_sub(setup).as_secs_f64();
        match timed {
            Timed::Blocks { device } => self.block_choice.record(device, from, to, secs),
            Timed::Speculation { speculating } => {
                if speculating && to > from {
                    self.spec_pace = Some(secs / (to - from) as f64);
                }
                self.spec_choice.record(speculating, from, to, secs)
            }
            Timed::None => {}
        }
        match current {
            Current::Device(_, run) => self.settled = run.table() == before.table.as_ref(),
            Current::Host(run) => {
                self.settled = run.corrections() == before.corrections && to > from;
                if gpu {
                    self.host_counts.starting += to - from;
                }
            }
            Current::Marking(m) => {
                if m.engine() == Engine::Gpu {
                    self.host_counts.exact += to - from;
                } else if self.blocks.is_some() {
                    self.host_counts.host_classic += to - from;
                } else if gpu {
                    self.host_counts.starting += to - from;
                }
            }
            Current::None => {}
        }
    }

    /// Ends the run's use of the device: the space, the stretches, the changes of space and the
    /// last stretch's engine, and a GPU run's timings (an error where it has no device, even one
    /// the host finished).
    #[allow(clippy::type_complexity)]
    pub(super) fn finish(
        self,
    ) -> Result<
        (
            Option<SparseSpace>,
            Vec<Span>,
            Vec<SpaceChange>,
            Engine,
            Option<GpuTimings>,
        ),
        SolveError,
    > {
        let mut timings = self.host_counts;
        if let Some(device) = self.device.device() {
            timings.add(&device.timings());
        }
        let timings = self.device.finish()?.then_some(timings);
        Ok((self.space, self.stretches, self.changes, self.last, timings))
    }

    /// Whether the engine asked for is the speculative loop, which needs a space throughout.
    fn needs_space(&self) -> bool {
        matches!(
            self.req.engine,
            EngineChoice::Generic | EngineChoice::Unrolled
        )
    }

    /// Takes the space the values so far call for, from the next heap of `g` on; true if it
    /// changed. A bounded run takes only a space that classes every value as its own does.
    fn look(&mut self, g: &mut RunValues, sticky: bool, notify: &mut dyn FnMut(Notice)) -> bool {
        let heap = g.len();
        let chosen = self.watch.choose(self.rules, self.space, sticky);
        let chosen = if self.needs_space() || g.rare().is_some() {
            chosen.or(self.space)
        } else {
            chosen
        };
        if chosen == self.space {
            return false;
        }
        if let Some(max) = g.max_value() {
            match (self.space, chosen) {
                (Some(now), Some(wide)) if same_on_values(now, wide, max) => g.widen(wide),
                _ => return false,
            }
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
            _ if to > from => self.stretches.push(Span { from, to, engine }),
            _ => {}
        }
    }
}

/// The rare table a speculative engine starts from under `space`: the rare heaps among the
/// proved values `g`, with the build-time table of games/ when it is of this space (it reaches
/// farther); none for a run that no longer holds every value (its own table serves).
fn seed_table(game: Option<&GameDef>, space: SparseSpace, g: &RunValues) -> Option<RareTable> {
    let mut entries = match game {
        Some(d) if d.space == Some(space) => d.table().entries().to_vec(),
        _ => Vec::new(),
    };
    entries.extend(RareTable::from_values(&space, g.all()?).entries());
    Some(RareTable::from_entries(entries))
}

/// The front and tail of a run that holds only them from here, its values `g` all proved under
/// `space` with their rare `table`: the front `FRONT_MARGIN` times the farthest split the
/// witnesses of the last heaps read, at least `MIN_FRONT`; the tail twice the front, and past
/// the farthest any read reaches back (the front's splits, the table's options). Where `asked`
/// names a tail too short for those reads, none.
pub(crate) fn bounds(
    asked: Bounds,
    rules: &Rules,
    space: SparseSpace,
    (g, table): (&[u16], &RareTable),
) -> Result<(usize, usize), SolveError> {
    let n = g.len();
    let front = asked.front.unwrap_or_else(|| {
        let verifier = Verifier::new(rules, space);
        let from = n.saturating_sub(WITNESS_HEAPS).max(n / 2);
        // Proved values stand: the witnesses read are what counts here.
        let _ = verifier.verify(Kept::whole(g), from..n);
        (FRONT_MARGIN * verifier.reach())
            .max(MIN_FRONT)
            .next_power_of_two()
    });
    let front = front.min(n);
    let reads = reads_back(rules, front.max(table.last_heap()));
    let tail = asked
        .tail
        .unwrap_or_else(|| (2 * front).max(reads + TAIL_MARGIN).next_power_of_two());
    if tail < reads {
        return Err(SolveError::TailTooShort { tail, need: reads });
    }
    Ok((front, tail))
}

/// Keys wide enough for the largest value of `seed`.
fn seed_bits(seed: &RareTable) -> u32 {
    value_bits(seed.entries().iter().map(|e| e.1).max().unwrap_or(0))
}

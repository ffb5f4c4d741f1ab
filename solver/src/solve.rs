//! One run: discovery, the choice of engine, and the speculate-verify loop.
//!
//! The first heaps are computed exactly and handed to discovery. A game with a sparse space then
//! runs on the speculative engine, seeded with the rare table of those heaps, block by block:
//! each block is speculated, then verified in parallel. A failed heap gets its true value, the
//! table is corrected (a new rare value, usually), the engine is rebuilt and work resumes right
//! after that heap with a small block that grows again. Games without a sparse space run on the
//! exact engine.

use crate::games::{self, Kernel};
use crate::gpu::{GpuError, Timings};
use crate::period::{Period, PeriodSearch};
use crate::spec::{CodeOverflow, Speculator};
use crate::values::{ValueStore, ValuesError};
use crate::verify::{Refuted, Verifier};
use octal_core::exact::{self, ValueOverflow};
use octal_core::{sparse, Code, RareTable, Rules, SparseSpace};

/// Heaps computed exactly for discovery, however few the run asks for, so that the sparse space
/// a short run reports does not depend on its length.
pub const DISCOVERY_HEAPS: usize = sparse::DISCOVERY_START;

/// The most heaps discovery grows to (doubling from [`DISCOVERY_HEAPS`]) while the best mask
/// still leaves more than `sparse::SETTLED` of the later half sparse, and the run needs the heaps.
pub const DISCOVERY_MAX: usize = 1 << 17;

/// The most heaps the O(n^2) exact engine is allowed to compute.
pub const EXACT_MAX: usize = 1 << 21;

/// Blocks start small after a correction (little is wasted if another follows) and double.
const MIN_BLOCK: usize = 1 << 6;
const MAX_BLOCK: usize = 1 << 17;

/// The engine a run asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EngineChoice {
    /// The fastest engine that suits the game.
    Auto,
    /// The reference engine for every heap.
    Exact,
    /// The table-driven speculative engine with the verifier (after discovery's exact heaps).
    Generic,
    /// The game's unrolled loop (games/) with the verifier.
    Unrolled,
    /// The generated CUDA kernels (speculation and verification on the GPU).
    Gpu,
}

impl EngineChoice {
    /// The name `--engine` takes (and a run directory keeps).
    pub fn name(self) -> &'static str {
        match self {
            EngineChoice::Auto => "auto",
            EngineChoice::Exact => "exact",
            EngineChoice::Generic => "generic",
            EngineChoice::Unrolled => "unrolled",
            EngineChoice::Gpu => "gpu",
        }
    }
}

/// The engine that computed a run's values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    Exact,
    Generic,
    Unrolled,
    Gpu,
}

impl Engine {
    pub fn name(self) -> &'static str {
        match self {
            Engine::Exact => "exact",
            Engine::Generic => "generic",
            Engine::Unrolled => "unrolled",
            Engine::Gpu => "gpu",
        }
    }
}

/// What a run is asked to do.
#[derive(Debug, Clone)]
pub struct Request {
    pub code: Code,
    /// Heaps to compute: 0..n.
    pub n: usize,
    pub engine: EngineChoice,
    /// False for `--speculate-only`: candidates are returned unverified.
    pub verify: bool,
    /// Heaps computed exactly for discovery at first.
    pub discovery_heaps: usize,
    /// The most heaps discovery may grow to.
    pub discovery_max: usize,
    /// Stop as soon as a period is proved (`n` is then the most heaps computed).
    pub check_period: bool,
}

impl Request {
    pub fn new(code: Code, n: usize) -> Request {
        Request {
            code,
            n,
            engine: EngineChoice::Auto,
            verify: true,
            discovery_heaps: DISCOVERY_HEAPS,
            discovery_max: DISCOVERY_MAX,
            check_period: false,
        }
    }
}

/// Things a run reports while it works (the binary prints them on stderr).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// Verification found a heap the table had wrong; the table was corrected and the engine
    /// rebuilt, and the run recomputes from the next heap.
    TableCorrected {
        heap: usize,
        value: u16,
        rare: bool,
        table_len: usize,
    },
    /// A common value needed more bits: the engine was rebuilt with wider codes.
    Widened { bits: u32 },
    /// The game's build-time table lacked a rare value: the run goes on with the generic loop.
    StaleBuildTable,
    /// Discovery found this sparse space (or none); the engines start.
    Discovered(Option<SparseSpace>),
}

/// The result of a run.
#[derive(Debug)]
pub struct Solution {
    pub values: ValueStore,
    pub space: Option<SparseSpace>,
    pub engine: Engine,
    pub verified: bool,
    /// The rare table the speculative engine ended with.
    pub table: Option<RareTable>,
    /// The period the values prove, if they prove one.
    pub period: Option<Period>,
    /// Where the time went, for the GPU engine.
    pub gpu_timings: Option<Timings>,
}

#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    #[error(transparent)]
    Overflow(#[from] ValueOverflow),
    #[error(
        "{code} has no sparse space, so the {} engine cannot run it (use --engine exact or auto)",
        engine.name()
    )]
    NoSparseSpace { code: Code, engine: EngineChoice },
    #[error("the exact engine is O(n^2) and is limited to {EXACT_MAX} heaps ({n} asked for)")]
    ExactTooLarge { n: usize },
    #[error(transparent)]
    Gpu(#[from] GpuError),
    /// The values could not be kept (an unwritable temporary directory, a full disk).
    #[error(transparent)]
    Values(#[from] ValuesError),
    /// The watcher of a run failed (writing a run directory, say).
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
    #[error("{0} has no unrolled engine: games/ does not specialise it (`octal games` lists those that are)")]
    NoUnrolled(Code),
}

/// Computes the values of heaps `0..req.n` (with `check_period`, up to the proof of a period,
/// at most `req.n`), and the period they prove, if any, in a store that suits `req.n`
/// ([`ValueStore::for_heaps`]). Parallel parts run on the current rayon pool.
pub fn solve(req: &Request, notify: &mut dyn FnMut(Notice)) -> Result<Solution, SolveError> {
    solve_watched(req, ValueStore::for_heaps(req.n)?, notify, &mut |_| Ok(()))
}

/// [`solve`] in the store `g`, which may hold proved values of a previous session (heaps 0 ..)
/// to continue from, showing `watch` the proved values (all heaps from 0) each time they grow;
/// an error from `watch` ends the run with that error.
pub fn solve_watched(
    req: &Request,
    mut g: ValueStore,
    notify: &mut dyn FnMut(Notice),
    watch: &mut dyn FnMut(&[u16]) -> Result<(), SolveError>,
) -> Result<Solution, SolveError> {
    let rules = req.code.rules();
    // The GPU engine's device opens while discovery runs.
    #[cfg(feature = "gpu")]
    let opening = (req.engine == EngineChoice::Gpu).then(crate::gpu::device::Gpu::open_beside);
    #[cfg(not(feature = "gpu"))]
    let opening = ();
    // Discovery grows its range only while the run needs the heaps and they prove no period.
    let (discovered, space) = sparse::discover_growing(
        &rules,
        req.discovery_heaps,
        req.n.min(req.discovery_max),
        &mut |g| PeriodSearch::new(rules.t, SEARCH_WINDOW).feed(g).is_some(),
    )?;
    notify(Notice::Discovered(space));
    // The game's unrolled loop, when games/ has one for the space found.
    let game = games::find(&req.code).filter(|d| d.space.is_some() && d.space == space);
    let kernel = game.and_then(|d| d.unrolled.as_ref().ok());
    let engine = match (req.engine, space, kernel) {
        (EngineChoice::Exact, _, _) | (EngineChoice::Auto, None, _) => Engine::Exact,
        (EngineChoice::Unrolled, None, _) | (EngineChoice::Unrolled, _, None) => {
            return Err(SolveError::NoUnrolled(req.code.clone()))
        }
        (choice @ (EngineChoice::Generic | EngineChoice::Gpu), None, _) => {
            return Err(SolveError::NoSparseSpace {
                code: req.code.clone(),
                engine: choice,
            })
        }
        (EngineChoice::Gpu, Some(_), _) => Engine::Gpu,
        (EngineChoice::Auto | EngineChoice::Unrolled, Some(_), Some(_)) => Engine::Unrolled,
        (_, Some(_), _) => Engine::Generic,
    };
    let kernel = kernel.filter(|_| engine == Engine::Unrolled);
    // The seed: the build-time table (it reaches farther) or the discovery's.
    let seed = match (game, kernel) {
        (Some(d), Some(_)) => Some(d.table()),
        _ => space.map(|space| RareTable::from_values(&space, &discovered)),
    };
    let window = seed.as_ref().map_or(0, |t| t.last_heap() + rules.t + 1);
    let mut search = PeriodSearch::new(rules.t, window.max(SEARCH_WINDOW));
    // Shows proved values to the watcher and the search; true when the run may stop.
    let mut proved = |g: &[u16]| -> Result<bool, SolveError> {
        if req.verify {
            watch(g)?;
        }
        Ok(search.feed(g).is_some() && req.check_period)
    };
    // Proved values are proved values: continue after the longer of the previous session's and
    // discovery's.
    g.truncate(req.n);
    let known = discovered.len().min(req.n);
    if g.len() < known {
        g.extend_from_slice(&discovered[g.len()..known])?;
    }
    drop(discovered);
    // Rare heaps among proved values join the seed (a resumed run's corrections, say).
    let seed = seed.map(|seed| {
        let mut entries = seed.entries().to_vec();
        entries.extend(RareTable::from_values(&space.expect("a seed has a space"), &g).entries());
        RareTable::from_entries(entries)
    });
    let mut gpu_timings = None;
    let (engine, table) = match (space, seed, engine) {
        (Some(space), Some(seed), Engine::Gpu) => {
            let bits = value_bits(seed.entries().iter().map(|e| e.1).max().unwrap_or(0));
            let mut timings = Timings::default();
            let table = gpu_speculate_verify(
                opening,
                &req.code,
                space,
                seed,
                bits,
                &mut g,
                req.n,
                req.verify,
                notify,
                &mut proved,
                &mut timings,
            )?;
            gpu_timings = Some(timings);
            (Engine::Gpu, Some(table))
        }
        (Some(space), Some(seed), Engine::Generic | Engine::Unrolled) => {
            // The engine continues after discovery's exact values.
            let bits = value_bits(seed.entries().iter().map(|e| e.1).max().unwrap_or(0));
            let mut run = Run::new(&rules, space, seed, bits, kernel);
            run.extend(&mut g, req.n, req.verify, notify, &mut proved)?;
            // The engine that computed the values: the unrolled loop, unless it went stale.
            let engine = if run.kernel.is_some() && !run.stale {
                Engine::Unrolled
            } else {
                Engine::Generic
            };
            (engine, Some(run.spec.table().clone()))
        }
        _ => {
            let limit = if req.check_period {
                req.n.min(EXACT_MAX)
            } else {
                req.n
            };
            if limit > EXACT_MAX {
                return Err(SolveError::ExactTooLarge { n: req.n });
            }
            let mut marks = exact::Marks::default();
            while !proved(&g)? && g.len() < limit {
                let next = (g.len() + EXACT_BLOCK).min(limit);
                while g.len() < next {
                    let v = exact::value_of(&rules, &g, g.len(), &mut marks)?;
                    g.push(v)?;
                }
            }
            (Engine::Exact, None)
        }
    };
    let period = if req.verify { search.proved() } else { None };
    if let (Some(p), true) = (period, req.check_period) {
        g.truncate(p.checked_to);
    }
    Ok(Solution {
        values: g,
        space,
        engine,
        verified: req.verify,
        table,
        period,
        gpu_timings,
    })
}

/// The device a run opens beside its discovery (`None`: the run did not ask for the GPU).
#[cfg(feature = "gpu")]
type DeviceOpening = Option<crate::gpu::device::Opening>;
#[cfg(not(feature = "gpu"))]
type DeviceOpening = ();

/// The GPU engine's loop (see [`crate::gpu::engine`]) on device 0; without the `gpu` feature,
/// [`GpuError::NotBuilt`].
#[allow(clippy::too_many_arguments)]
fn gpu_speculate_verify(
    opening: DeviceOpening,
    code: &Code,
    space: SparseSpace,
    table: RareTable,
    bits: u32,
    g: &mut ValueStore,
    n: usize,
    verify: bool,
    notify: &mut dyn FnMut(Notice),
    stop: &mut dyn FnMut(&[u16]) -> Result<bool, SolveError>,
    timings: &mut Timings,
) -> Result<RareTable, SolveError> {
    #[cfg(feature = "gpu")]
    {
        let mut gpu = opening.map_or_else(
            crate::gpu::device::Gpu::open,
            crate::gpu::device::Opening::finish,
        )?;
        crate::gpu::engine::speculate_verify(
            &mut gpu, None, code, space, table, bits, g, n, verify, notify, stop, timings,
        )
    }
    #[cfg(not(feature = "gpu"))]
    {
        let _ = (
            opening, code, space, table, bits, g, n, verify, notify, stop, timings,
        );
        Err(GpuError::NotBuilt.into())
    }
}

/// Heaps the exact engine computes between two looks at the period search.
const EXACT_BLOCK: usize = 1 << 12;

/// The least window the period search hashes (for games whose values depend on all heaps).
const SEARCH_WINDOW: usize = 64;

/// Extends `g` (proved values) to `n` heaps with the speculative engine, seeded with `table` and
/// codes for values below 2^bits, and the verifier (unless `verify` is off); with `kernel`, an
/// unrolled loop generated for `table`, while the table stays as it is. Correct for any
/// sparse space and any seed table: a poor mask or a wrong table costs only speed. Returns the
/// table the engine ended with. `stop` sees the proved values after each block and ends the run
/// early by returning true (the values then end at the last proved block).
#[allow(clippy::too_many_arguments)]
pub fn speculate_verify(
    rules: &Rules,
    space: SparseSpace,
    table: RareTable,
    bits: u32,
    kernel: Option<&'static Kernel>,
    g: &mut ValueStore,
    n: usize,
    verify: bool,
    notify: &mut dyn FnMut(Notice),
    stop: &mut dyn FnMut(&[u16]) -> Result<bool, SolveError>,
) -> Result<RareTable, SolveError> {
    let mut run = Run::new(rules, space, table, bits.max(value_bits(0)), kernel);
    run.extend(g, n, verify, notify, stop)?;
    Ok(run.spec.table().clone())
}

/// Value bits the codes start with: those of the largest value seen, and at least the nine that
/// one-byte codes hold. A larger value later widens the codes (see `Notice::Widened`).
pub fn value_bits(max: u16) -> u32 {
    (16 - max.leading_zeros()).max(9)
}

/// The speculative engine at either code width.
enum AnySpeculator {
    Narrow(Speculator<u8>),
    Wide(Speculator<u16>),
}

impl AnySpeculator {
    fn new(
        rules: &Rules,
        space: SparseSpace,
        table: RareTable,
        bits: u32,
        kernel: Option<&'static Kernel>,
    ) -> Self {
        if bits <= 9 {
            AnySpeculator::Narrow(Speculator::new(rules, space, table, bits, kernel))
        } else {
            AnySpeculator::Wide(Speculator::new(rules, space, table, bits, kernel))
        }
    }

    fn unrolled(&self) -> bool {
        matches!(self, AnySpeculator::Narrow(s) if s.unrolled())
    }

    fn speculate(&mut self, prior: &[u16], out: &mut [u16]) -> Result<(), CodeOverflow> {
        match self {
            AnySpeculator::Narrow(s) => s.speculate(prior, out),
            AnySpeculator::Wide(s) => s.speculate(prior, out),
        }
    }

    fn table(&self) -> &RareTable {
        match self {
            AnySpeculator::Narrow(s) => s.table(),
            AnySpeculator::Wide(s) => s.table(),
        }
    }
}

/// The speculate-verify loop for one game.
struct Run<'a> {
    rules: &'a Rules,
    space: SparseSpace,
    bits: u32,
    spec: AnySpeculator,
    verifier: Verifier,
    kernel: Option<&'static Kernel>,
    /// The unrolled loop was dropped because its table turned out incomplete.
    stale: bool,
}

impl<'a> Run<'a> {
    fn new(
        rules: &'a Rules,
        space: SparseSpace,
        table: RareTable,
        bits: u32,
        kernel: Option<&'static Kernel>,
    ) -> Self {
        Run {
            rules,
            space,
            bits,
            spec: AnySpeculator::new(rules, space, table, bits, kernel),
            verifier: Verifier::new(rules, space),
            kernel,
            stale: false,
        }
    }

    /// A new engine for `table`; says once when the unrolled loop no longer fits the table.
    fn rebuild(&mut self, table: RareTable, notify: &mut dyn FnMut(Notice)) {
        let was_unrolled = self.spec.unrolled();
        self.spec = AnySpeculator::new(self.rules, self.space, table, self.bits, self.kernel);
        if was_unrolled && !self.spec.unrolled() && !self.stale {
            self.stale = true;
            notify(Notice::StaleBuildTable);
        }
    }

    /// Extends `g` (values already proved, or candidates when `verify` is off) to `n` heaps.
    /// Each round verifies the block speculated last round while the next block is speculated
    /// on another thread.
    fn extend(
        &mut self,
        g: &mut ValueStore,
        n: usize,
        verify: bool,
        notify: &mut dyn FnMut(Notice),
        stop: &mut dyn FnMut(&[u16]) -> Result<bool, SolveError>,
    ) -> Result<(), SolveError> {
        let mut verified = g.len();
        if verify && stop(g)? {
            return Ok(());
        }
        let mut block = MIN_BLOCK;
        while verified < n {
            let spec_from = g.len();
            g.resize((spec_from + block).min(n), 0)?;
            let (head, tail) = g.split_at_mut(spec_from);
            let (verifier, spec) = (&self.verifier, &mut self.spec);
            let (checked, speculated) = if verify {
                rayon::join(
                    || verifier.verify(head, verified..spec_from),
                    || spec.speculate(head, tail),
                )
            } else {
                (Ok(()), spec.speculate(head, tail))
            };
            match checked {
                Ok(()) => {
                    verified = spec_from;
                    if verify && stop(&g[..verified])? {
                        g.truncate(verified);
                        return Ok(());
                    }
                }
                Err(Refuted::Overflow(o)) => return Err(o.into()),
                Err(Refuted::Wrong(f)) => {
                    g.truncate(f.heap);
                    g.push(f.value)?;
                    verified = g.len();
                    let rare = self.space.is_rare(f.heap, f.value);
                    let mut table = self.spec.table().clone();
                    table.set(f.heap, rare.then_some(f.value));
                    self.bits = self.bits.max(value_bits(f.value));
                    notify(Notice::TableCorrected {
                        heap: f.heap,
                        value: f.value,
                        rare,
                        table_len: table.len(),
                    });
                    self.rebuild(table, notify);
                    block = MIN_BLOCK;
                    continue;
                }
            }
            if let Err(CodeOverflow { .. }) = speculated {
                g.truncate(spec_from);
                if self.bits >= 16 {
                    return Err(ValueOverflow { heap: spec_from }.into());
                }
                self.bits += 1;
                self.rebuild(self.spec.table().clone(), notify);
                notify(Notice::Widened { bits: self.bits });
                continue;
            }
            if !verify {
                verified = g.len();
            }
            block = (block * 2).min(MAX_BLOCK);
        }
        Ok(())
    }
}

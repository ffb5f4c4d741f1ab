//! One run: discovery, the choice of engine, and the engine's loop.
//!
//! The first heaps are computed exactly and handed to discovery. A game with a sparse space then
//! runs on the speculative engine seeded with the rare table of those heaps: the CPU's
//! speculate-verify loop ([`crate::cpu`]) or the GPU's ([`crate::gpu`]). Games without a sparse
//! space run on the exact engine. Every value passes the period search, which may end the run.

use crate::cpu;
use crate::games;
use crate::gpu;
use crate::period::PeriodSearch;
use crate::run::{Engine, EngineChoice, Notice, Request, Solution, SolveError, EXACT_MAX};
use crate::values::ValueStore;
use octal_core::codec::value_bits;
use octal_core::{discover, exact, RareTable};

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
    // The GPU engine's device opens while discovery runs.
    let opening = (req.engine == EngineChoice::Gpu).then(gpu::open_beside);
    // Discovery grows its range only while the run needs the heaps and they prove no period.
    let (discovered, space) = discover::discover_growing(
        &rules,
        req.discovery_heaps,
        req.n.min(req.discovery_max),
        &mut |g| PeriodSearch::new(rules.t, SEARCH_WINDOW).feed(g).is_some(),
    )?;
    notify(Notice::Discovered(space));
    // The game's unrolled loop, when games/ has one for the space found.
    let game = games::find(&req.code).filter(|d| d.space.is_some() && d.space == space);
    let unrolled = game.and_then(|d| d.unrolled.as_ref().ok());
    let engine = match (req.engine, space, unrolled) {
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
    let unrolled = unrolled.filter(|_| engine == Engine::Unrolled);
    // The seed: the build-time table (it reaches farther) or the discovery's.
    let seed = match (game, unrolled) {
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
    // Proved values are proved values: continue after the longer of an earlier run's and
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
    // Codes wide enough for the seed's largest value.
    let bits = value_bits(
        seed.iter()
            .flat_map(|t| t.entries())
            .map(|e| e.1)
            .max()
            .unwrap_or(0),
    );
    let mut gpu_timings = None;
    let (engine, table) = match (space, seed, engine) {
        (Some(space), Some(seed), Engine::Gpu) => {
            let mut timings = Default::default();
            let table = gpu::extend_on_device(
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
            let ended = cpu::extend(
                &rules,
                space,
                seed,
                bits,
                unrolled,
                &mut g,
                req.n,
                req.verify,
                notify,
                &mut proved,
            )?;
            // The engine that computed the values: the unrolled loop, unless it went stale.
            let engine = if ended.unrolled {
                Engine::Unrolled
            } else {
                Engine::Generic
            };
            (engine, Some(ended.table))
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

/// Heaps the exact engine computes between two looks at the period search.
const EXACT_BLOCK: usize = 1 << 12;

/// The least window the period search hashes (for games whose values depend on all heaps).
const SEARCH_WINDOW: usize = 64;

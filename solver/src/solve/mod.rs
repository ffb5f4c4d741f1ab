//! One run: discovery, then the engines, stretch after stretch, as the values call for them.
//!
//! The first heaps are computed exactly and handed to discovery (`octal-core`). The run then
//! goes by stretches ([`driver`]): between two, the space watch looks at every value proved so
//! far, keeps the sparse space or switches to a clearly better one, and the driver picks the
//! engine that suits it and runs the stretch through the engines' one interface. On a GPU run
//! the device opens beside the host's work, and [`handoff`] says when the host gives it the
//! work. Every proved value passes the period search, which may end the run.

mod driver;
mod handoff;

use crate::error::SolveError;
use crate::outcome::{Outcome, Solution};
use crate::request::{EngineChoice, Request};
pub(crate) use driver::bounds;
use driver::Driver;
use octal_core::period::PeriodSearch;
use octal_core::{discover, Kept};
use octal_engines::games;
use octal_engines::marking::grow_by_marking;
use octal_engines::stretch::Notice;
use octal_gpu::RunDevice;
use octal_store::run_values::RunValues;
use octal_store::rundir;
use octal_store::values::ValueStore;
use std::time::Instant;

/// Computes the values of heaps `0..req.n` (with `check_period`, up to the proof of a period,
/// at most `req.n`), and the period they prove, if any, in a store that suits `req.n`
/// ([`ValueStore::for_heaps`]), every value kept. Parallel parts run on the current rayon pool.
pub fn solve(req: &Request, notify: &mut dyn FnMut(Notice)) -> Result<Solution, SolveError> {
    let mut values = RunValues::whole(ValueStore::for_heaps(req.n)?);
    let req = Request {
        keep: None,
        ..req.clone()
    };
    let outcome = solve_watched(&req, &mut values, notify, &mut |_| Ok(()))?;
    Ok(Solution {
        values: values.into_store(),
        outcome,
    })
}

/// [`solve`] in `g`, which may hold proved values of an earlier run to continue from (every
/// value from heap 0, or a bounded run's front and tail), showing `watch` what the run holds of
/// the proved values each time they grow (every value is shown before the run drops it); an
/// error from `watch` ends the run with that error. Past `req.keep` heaps the run holds only its
/// front and tail. Where the run stops on an error, `g` holds the proved values shown last.
pub fn solve_watched(
    req: &Request,
    g: &mut RunValues,
    notify: &mut dyn FnMut(Notice),
    watch: &mut dyn FnMut(Kept<'_>) -> Result<(), SolveError>,
) -> Result<Outcome, SolveError> {
    // A run without verification shows its watcher nothing, and keeps every value.
    let req = &Request {
        keep: req.keep.filter(|_| req.verify),
        ..req.clone()
    };
    let rules = req.code.rules();
    let on_gpu = req.engine == EngineChoice::Gpu;
    // The GPU engine's device opens while discovery runs.
    let opening = on_gpu.then(|| octal_gpu::open_beside(req.devices));
    let game = games::find(&req.code);
    let space = match g.rare() {
        // A bounded run goes on in its own space.
        Some((space, _)) => {
            notify(Notice::Discovered(Some(space)));
            Some(space)
        }
        None => {
            let store = g
                .whole_mut()
                .expect("a run that is not bounded keeps every value");
            let found = discover_into(req, store)?;
            notify(Notice::Discovered(found));
            // The space to start from: the one asked for, the build-time one of games/ (a
            // starting point), else discovery's.
            req.space.or(game.and_then(|d| d.space)).or(found)
        }
    };
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
    // A short window: a repeat only proposes a period, the theorem proves it, so a game whose
    // rare heaps recur with its period is found as soon as one shows.
    let mut search = PeriodSearch::new(rules.t, SEARCH_WINDOW.max(rules.t + 1));
    // Shows proved values to the watcher and the search (while the run holds every value: the
    // theorem's check reads them); true when the run may stop.
    let mut proved = |g: Kept<'_>| -> Result<bool, SolveError> {
        if req.verify {
            watch(g)?;
        }
        let found = g
            .whole_slice()
            .is_some_and(|all| search.feed(all).is_some());
        let due = req.until.is_some_and(|u| Instant::now() >= u);
        Ok(found && req.check_period || due)
    };
    // The device goes on starting (and compiles the first kernels) while the host's cores
    // compute; a run without verification (whose engines see no proved values) waits for it.
    let mut device = RunDevice::new(opening);
    if !req.verify || !req.start_on_host {
        device.wait()?;
    }
    let mut driver = Driver::new(req, &rules, game, space, device);
    let table = loop {
        match driver.run(g, notify, &mut proved) {
            // A bounded run whose front was not set by hand grows it where a proof needs more.
            Err(SolveError::Unsettled { heap, front }) if req.bounds.front.is_none() => {
                let Some(wider) = wider_front(g, front, rules.t) else {
                    return Err(SolveError::Unsettled { heap, front });
                };
                let (values, read) = front_again(req, g.kept().front(), wider)?;
                let tail = g.tail().unwrap_or(0).max(2 * wider);
                g.reframe(values, tail);
                notify(Notice::FrontGrown {
                    heap,
                    front: wider,
                    tail,
                    read,
                });
            }
            // A bounded run whose rare heap reads past what it holds takes every value again.
            Err(SolveError::Unheld { heap, back }) => {
                let again = !g.keep_back(back);
                if again {
                    let (all, _) = front_again(req, g.kept().front(), heap)?;
                    let kept = g.kept();
                    if let Some(at) = (kept.base()..heap).find(|&h| kept.get(h) != Some(all[h])) {
                        return Err(SolveError::FrontDiffers { heap: at });
                    }
                    g.refill(&all)?;
                }
                let tail = g.tail().unwrap_or(0);
                notify(Notice::TailGrown { heap, tail, again });
            }
            other => break other?,
        }
    };
    let (space, stretches, changes, last, gpu_timings) = driver.finish()?;
    let period = if req.verify { search.proved() } else { None };
    if let (Some(p), true) = (period, req.check_period) {
        g.truncate(p.checked_to);
    }
    Ok(Outcome {
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

/// The most heaps a bounded run's front grows to by itself (128 MiB of values, and twice that
/// in its tail).
const MAX_FRONT: usize = 1 << 26;

/// The front a bounded run `g` with `front` heaps takes where a proof needs more: twice as
/// many, no more than its tail holds now (so that every split with a part in the new front has
/// its other part at hand at once, options reaching `t` heaps back) and [`MAX_FRONT`]; none
/// where that is not more.
fn wider_front(g: &RunValues, front: usize, t: usize) -> Option<usize> {
    let held = g.len() - g.kept().base();
    let wider = (2 * front)
        .min(held.saturating_sub(t + 1))
        .min(MAX_FRONT)
        .min(g.len());
    (wider > front).then_some(wider)
}

/// The values of heaps `0..front` of `req.code`, which must begin with `held`, the ones a
/// bounded run holds: read from the run directory that keeps them (true), else computed again
/// (a verified run that keeps them, on the GPU for a GPU run, else on the current pool).
pub fn front_again(
    req: &Request,
    held: &[u16],
    front: usize,
) -> Result<(Vec<u16>, bool), SolveError> {
    let kept = match &req.kept_in {
        Some(dir) => rundir::kept_values(dir, front)?,
        None => None,
    };
    let read = kept.is_some();
    let g = match kept {
        Some(g) => g,
        None => {
            let mut again = Request::new(req.code.clone(), front);
            if req.engine == EngineChoice::Gpu {
                again.engine = EngineChoice::Gpu;
            }
            solve(&again, &mut |_| {})?.values.to_vec()
        }
    };
    match held.iter().zip(&g).position(|(a, b)| a != b) {
        Some(heap) => Err(SolveError::FrontDiffers { heap }),
        None => Ok((g, read)),
    }
}

/// Discovery on the values of `g` (an earlier run's proved values, taken as they are, or none),
/// which it extends to the heaps it computed (at most `req.n`): the space it found, if any.
fn discover_into(
    req: &Request,
    g: &mut ValueStore,
) -> Result<Option<octal_core::SparseSpace>, SolveError> {
    let rules = req.code.rules();
    // For the GPU, discovery grows its range while the run needs the heaps, the space has not
    // settled and they prove no period; the CPU engines follow the values instead.
    let limit = if req.engine == EngineChoice::Gpu {
        req.n.min(req.discovery_max)
    } else {
        req.discovery_heaps
    };
    // The growth (unsettled spaces: rare values keep coming) by the marking engine on every
    // core. Proved values of an earlier run are taken as they are, not computed again.
    let (discovered, found) = discover::discover_growing(
        &rules,
        g,
        req.discovery_heaps,
        limit,
        &mut |g| PeriodSearch::new(rules.t, SEARCH_WINDOW).feed(g).is_some(),
        &mut |space, g, n| Ok::<_, SolveError>(grow_by_marking(&rules, space, g, n)?),
    )?;
    // Proved values are proved values: continue after the longer of an earlier run's and
    // discovery's.
    g.truncate(req.n);
    let known = discovered.len().min(req.n);
    if g.len() < known {
        g.extend_from_slice(&discovered[g.len()..known])?;
    }
    Ok(found)
}

/// The window the period search hashes.
const SEARCH_WINDOW: usize = 64;

#[cfg(test)]
mod tests {
    use super::*;
    use octal_core::exact;

    /// Discovery grown by the marking engine (the GPU run's unsettled spaces: .04 and .114 keep
    /// finding rare values) gives the exact engine's values.
    #[test]
    fn discovery_grown_by_marking_is_exact() {
        for code in [".04", ".114", ".6"] {
            let rules = code.parse::<octal_core::Code>().unwrap().rules();
            let (g, _) = discover::discover_growing(
                &rules,
                &[],
                1 << 11,
                1 << 14,
                &mut |_| false,
                &mut |space, g, n| grow_by_marking(&rules, space, g, n),
            )
            .unwrap();
            assert!(g.len() > 1 << 11, "{code} grew");
            assert_eq!(g, exact::values(&rules, g.len()).unwrap(), "{code}");
        }
    }
}

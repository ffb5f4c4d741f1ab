//! The values of a snapshot, replayed: with every rare heap below n listed, the speculative
//! pass's candidate at each heap is its value, so the engines recompute the values from the rare
//! table and the first heaps without verifying, and every stored fnv1a64 is checked before the
//! values are taken. A compact state's missing heaps come back the same way ([`fill_state`]).

use crate::error::SolveError;
use crate::request::{EngineChoice, Request};
use crate::solve;
use octal_core::codec::{value_bits, LoopTable};
use octal_core::exact::ValueOverflow;
use octal_core::stats::Summary;
use octal_core::{Code, Kept};
use octal_engines::speculate::{Speculator, CAREFUL_BATCH};
use octal_engines::speculative::Speculative;
use octal_engines::stretch::{Stretch, StretchEngine};
use octal_gpu::Device;
use octal_store::file::hex;
use octal_store::run_values::RunValues;
use octal_store::snapshot::Snapshot;
use octal_store::state::State;
use octal_store::values::ValueStore;
use std::path::{Path, PathBuf};

/// Why a snapshot's values could not be replayed.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The replayed values differ from the stored fingerprints (the snapshot's table is not the
    /// run's).
    #[error("{file}: the replayed values differ from the snapshot at heap {n}: fnv1a64 {got}, stored {want}")]
    Differs {
        file: PathBuf,
        n: usize,
        got: String,
        want: String,
    },
    #[error(transparent)]
    Solve(#[from] SolveError),
    #[error(transparent)]
    File(#[from] octal_store::file::FileError),
}

/// The values of the snapshot `s`, replayed by the speculative pass and checked against every
/// stored fnv1a64 (`path` names the file in errors): while options reach rare heaps on both
/// sides (the table's `hot_from`) by the careful loop's batches on every core, past that on the
/// CPU's loop (one thread); with `device`, on the device's kernels, which read the table alone,
/// from the first heaps where they take rare sources (the speculation stops before each listed
/// rare heap, which takes the table's value), else from `hot_from`. `progress` is told the heaps
/// replayed as they grow.
pub fn replay(
    s: &Snapshot,
    path: &Path,
    device: Option<&Device>,
    progress: &mut dyn FnMut(usize),
) -> Result<ValueStore, ReplayError> {
    let h = &s.header;
    let code: Code = h.code.parse().expect("checked on reading");
    let space = h.space().expect("checked on reading");
    let rules = code.rules();
    let bits = value_bits(h.max_value);
    let mut g = ValueStore::for_heaps(h.n).map_err(SolveError::from)?;
    g.extend_from_slice(&s.first).map_err(SolveError::from)?;
    let hot_from = LoopTable::new(&rules, space, &s.table).hot_from.min(h.n);
    // The careful loop's heaps (options may reach rare heaps on both sides) on every core, unless
    // the device's kernels take rare sources; then the CPU's loop to `on_cpu`.
    let careful_to = match device {
        Some(_) if octal_gpu::takes_rare_sources(&code, space) => g.len(),
        _ => hot_from,
    };
    let on_cpu = match device {
        Some(_) => careful_to,
        None => h.n,
    };
    let careful = Speculator::<u16>::new(&rules, space, s.table.clone(), bits, None);
    let mut out = vec![0; CAREFUL_BATCH];
    while g.len() < careful_to {
        let out = &mut out[..(careful_to - g.len()).min(CAREFUL_BATCH)];
        careful
            .careful_batch(&g, out)
            .map_err(|o| SolveError::from(ValueOverflow { heap: o.heap }))?;
        g.extend_from_slice(out).map_err(SolveError::from)?;
        progress(g.len());
    }
    let mut cpu = Speculative::new(&rules, space, s.table.clone(), bits, None);
    let mut engines: Vec<(&mut dyn StretchEngine, usize)> = vec![(&mut cpu, on_cpu)];
    let mut on_device = device.map(|d| d.speculation(&code, space, s.table.clone(), bits));
    if let Some(engine) = on_device.as_mut() {
        engines.push((engine.as_mut(), h.n));
    }
    let mut run = RunValues::whole(g);
    for (engine, to) in engines {
        let mut stretch = Stretch {
            values: &mut run,
            to,
            verify: false,
            corrections: usize::MAX,
            far: None,
            notify: &mut |_| {},
            watch: &mut |g: Kept<'_>| {
                progress(g.len());
                Ok(false)
            },
        };
        engine.extend(&mut stretch).map_err(SolveError::from)?;
    }
    let g = run.into_store();
    let summary = Summary::of(&g, Some(&space));
    let got = summary
        .powers
        .iter()
        .map(|p| (p.n, hex(p.fnv1a64)))
        .chain([(summary.n, hex(summary.fnv1a64))]);
    let want = h
        .powers_of_two
        .iter()
        .map(|p| (p.n, p.fnv1a64.clone()))
        .chain([(h.n, h.fnv1a64.clone())]);
    for ((n, got), (m, want)) in got.zip(want) {
        if n != m || got != want {
            return Err(ReplayError::Differs {
                file: path.to_path_buf(),
                n: m,
                got,
                want,
            });
        }
    }
    Ok(g)
}

/// The compact state `s` read from `path`, completed (a whole one as it is): the heaps its front
/// lacks by a verified run from heap 0 ([`solve::front_again`], on the GPU with `gpu`), the
/// heaps its tail lacks by the speculative pass from the tail's first heaps, which reach back
/// past the last rare heap (on the device with `gpu`). [`State::fill`] takes them only if the
/// whole state has the fingerprint it was written with.
pub fn fill_state(mut s: State, path: &Path, gpu: bool) -> Result<State, ReplayError> {
    let Some((front_lacks, tail_lacks)) = s.lacks() else {
        return Ok(s);
    };
    let h = &s.header;
    let code: Code = h.code.parse().expect("checked on reading");
    let front = if front_lacks.is_empty() {
        s.front.clone()
    } else {
        let mut req = Request::new(code.clone(), h.front);
        if gpu {
            req.engine = EngineChoice::Gpu;
        }
        solve::front_again(&req, &s.front, h.front)?.0
    };
    let tail = if tail_lacks.is_empty() {
        s.tail.clone()
    } else {
        let max = h.summarizer.max_value();
        let mut window = ValueStore::for_heaps(h.heaps - h.tail_from).map_err(SolveError::from)?;
        window
            .extend_from_slice(&s.tail)
            .map_err(SolveError::from)?;
        let mut run = RunValues::resumed(
            front.clone(),
            (window, h.tail_from),
            h.heaps - h.tail_from,
            (h.space, s.table.clone()),
            max,
        );
        let device = gpu
            .then(Device::open)
            .transpose()
            .map_err(SolveError::from)?;
        let (rules, table, bits) = (code.rules(), s.table.clone(), value_bits(max));
        let mut engine: Box<dyn StretchEngine> = match &device {
            Some(d) => d.speculation(&code, h.space, table, bits),
            None => Box::new(Speculative::new(&rules, h.space, table, bits, None)),
        };
        let mut stretch = Stretch {
            values: &mut run,
            to: h.heaps,
            verify: false,
            corrections: usize::MAX,
            far: None,
            notify: &mut |_| {},
            watch: &mut |_: Kept<'_>| Ok(false),
        };
        engine.extend(&mut stretch).map_err(SolveError::from)?;
        run.kept()
            .range(h.tail_from..h.heaps)
            .expect("the tail is held")
            .to_vec()
    };
    s.fill(path, front, tail)?;
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use octal_core::{discover, exact, RareTable};

    fn tmp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("octal-replay-{}-{name}", std::process::id()))
    }

    /// .14's values (a table that grows the whole way) come back from their snapshot; a table
    /// that lacks one rare heap, saved with a good data fingerprint, replays to other values and
    /// is refused at the first power of two past that heap.
    #[test]
    fn a_snapshot_replays_to_its_values_and_a_wrong_table_is_refused() {
        let code: Code = ".14".parse().unwrap();
        let rules = code.rules();
        let g = exact::values(&rules, 70_000).unwrap();
        let space = discover::discover(&rules, &g[..40_000]).unwrap();
        let path = tmp("good");
        octal_store::snapshot::write(&path, &code, space, &g).unwrap();
        let s = octal_store::snapshot::read(&path).unwrap();
        let replayed = replay(&s, &path, None, &mut |_| {}).unwrap();
        assert!(replayed == g, "replayed values differ");

        let mut wrong = Snapshot::of(&code, space, &g);
        let (h, _) = *wrong
            .table
            .entries()
            .iter()
            .find(|e| e.0 > 40_000 && e.0 < 60_000)
            .expect("a rare heap past the first values");
        wrong.table.set(h, None);
        assert_ne!(wrong.table, RareTable::from_values(&space, &g));
        let bad_path = tmp("wrong");
        wrong.save(&bad_path).unwrap();
        let read = octal_store::snapshot::read(&bad_path).unwrap();
        match replay(&read, &bad_path, None, &mut |_| {}) {
            Err(ReplayError::Differs { n, .. }) => assert_eq!(n, 65_536),
            other => panic!("{:?}", other.map(|_| ())),
        }
        std::fs::remove_file(&path).unwrap();
        std::fs::remove_file(&bad_path).unwrap();
    }
}

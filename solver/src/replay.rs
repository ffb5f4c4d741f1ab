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
use octal_core::{Code, Kept, RareTable, SparseSpace};
use octal_engines::speculate::{Speculator, CAREFUL_BATCH};
use octal_engines::speculative::Speculative;
use octal_engines::stretch::{reads_back, Stretch, StretchEngine};
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
    /// A compact state's rare table is not the rare heaps of its front, computed again.
    #[error("{file}: the rare table differs from the rare heaps of the front computed again, first at heap {heap}")]
    Table { file: PathBuf, heap: usize },
    #[error(transparent)]
    Solve(#[from] SolveError),
    #[error(transparent)]
    File(#[from] octal_store::file::FileError),
}

/// The values of the snapshot `s`, replayed by the speculative pass ([`replay_values`]) and
/// checked against every stored fnv1a64 (`path` names the file in errors). `progress` is told
/// the heaps replayed as they grow.
pub fn replay(
    s: &Snapshot,
    path: &Path,
    device: Option<&Device>,
    progress: &mut dyn FnMut(usize),
) -> Result<ValueStore, ReplayError> {
    let h = &s.header;
    let code: Code = h.code.parse().expect("checked on reading");
    let space = h.space().expect("checked on reading");
    let game = (&code, space, &s.table);
    let g = replay_values(game, &s.first, (h.n, h.max_value), device, progress)?;
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

/// The values of heaps `0..n` of a game (its code, sparse space and rare table, which lists
/// every rare heap below n) from its first values `first`, by the speculative pass without
/// verification (`max`, the largest value, sets the key width): while options reach rare heaps
/// on both sides (the table's `hot_from`) by the careful loop's batches on every core, past that
/// on the CPU's loop (one thread); with `device`, on the device's kernels, which read the table
/// alone, from the first heaps where they take rare sources (the speculation stops before each
/// listed rare heap, which takes the table's value), else from `hot_from`. The caller checks
/// them against what it stored.
pub fn replay_values(
    (code, space, table): (&Code, SparseSpace, &RareTable),
    first: &[u16],
    (n, max): (usize, u16),
    device: Option<&Device>,
    progress: &mut dyn FnMut(usize),
) -> Result<ValueStore, SolveError> {
    let rules = code.rules();
    let bits = value_bits(max);
    let mut g = ValueStore::for_heaps(n)?;
    g.extend_from_slice(&first[..first.len().min(n)])?;
    let hot_from = LoopTable::new(&rules, space, table).hot_from.min(n);
    // The careful loop's heaps (options may reach rare heaps on both sides) on every core, unless
    // the device's kernels take rare sources; then the CPU's loop to `on_cpu`.
    let careful_to = match device {
        Some(_) if octal_gpu::takes_rare_sources(code, space) => g.len(),
        _ => hot_from,
    };
    let on_cpu = match device {
        Some(_) => careful_to,
        None => n,
    };
    let careful = Speculator::<u16>::new(&rules, space, table.clone(), bits, None);
    let mut out = vec![0; CAREFUL_BATCH];
    while g.len() < careful_to {
        let out = &mut out[..(careful_to - g.len()).min(CAREFUL_BATCH)];
        careful
            .careful_batch(&g, out)
            .map_err(|o| SolveError::from(ValueOverflow { heap: o.heap }))?;
        g.extend_from_slice(out)?;
        progress(g.len());
    }
    let mut cpu = Speculative::new(&rules, space, table.clone(), bits, None);
    let mut engines: Vec<(&mut dyn StretchEngine, usize)> = vec![(&mut cpu, on_cpu)];
    let mut on_device = device.map(|d| d.speculation(code, space, table.clone(), bits));
    if let Some(engine) = on_device.as_mut() {
        engines.push((engine.as_mut(), n));
    }
    let mut run = RunValues::whole(g);
    for (engine, to) in engines {
        let mut stretch = Stretch {
            values: &mut run,
            to,
            verify: false,
            corrections: usize::MAX,
            blocks: None,
            notify: &mut |_| {},
            watch: &mut |g: Kept<'_>| {
                progress(g.len());
                Ok(false)
            },
        };
        engine.extend(&mut stretch)?;
    }
    Ok(run.into_store())
}

/// The compact state `s` read from `path`, completed (a whole one as it is): the heaps its front
/// lacks by a verified run from heap 0 ([`solve::front_again`], on the GPU with `gpu`), the
/// heaps its tail lacks by the speculative pass from the tail's first heaps where they reach back
/// past the last rare heap (on the device with `gpu`), else every heap by a replay from the
/// front's first heaps ([`replay_values`]). [`State::fill`] takes them only if the whole state
/// has the fingerprint it was written with.
pub fn fill_state(mut s: State, path: &Path, gpu: bool) -> Result<State, ReplayError> {
    let Some((front_lacks, tail_lacks)) = s.lacks() else {
        return Ok(s);
    };
    let h = &s.header;
    let code: Code = h.code.parse().expect("checked on reading");
    if !tail_lacks.is_empty() && s.tail.len() < reads_back(&code.rules(), s.table.last_heap()) {
        let device = gpu
            .then(Device::open)
            .transpose()
            .map_err(SolveError::from)?;
        let game = (&code, h.space, &s.table);
        let max = h.summarizer.max_value();
        let all = replay_values(game, &s.front, (h.heaps, max), device.as_ref(), &mut |_| {})?;
        let (front, tail) = (all[..h.front].to_vec(), all[h.tail_from..].to_vec());
        s.fill(path, front, tail)?;
        return Ok(s);
    }
    let front = whole_front(&s, &code, front_lacks.is_empty(), gpu)?;
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
            blocks: None,
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

/// The whole front of state `s` of `code`: as held where it `holds` it, else computed again by a
/// verified run from heap 0 (on the GPU with `gpu`) that begins with the heaps it holds.
fn whole_front(s: &State, code: &Code, holds: bool, gpu: bool) -> Result<Vec<u16>, SolveError> {
    if holds {
        return Ok(s.front.clone());
    }
    let mut req = Request::new(code.clone(), s.header.front);
    if gpu {
        req.engine = EngineChoice::Gpu;
    }
    Ok(solve::front_again(&req, &s.front, s.header.front)?.0)
}

/// The state `s` read from `path`, completed as far as a check of its front needs: where the
/// heaps its tail lacks would come back only by a replay of every heap past the front (its last
/// rare heap reads back past the tail it holds) and its front ends at a power of two, the front
/// alone, computed again ([`whole_front`]) and tied to the run by the fnv1a64 the run recorded
/// there and by its rare heaps, which must be the rare table's below it; the tail stays as held
/// (`false`). Otherwise the whole state ([`fill_state`], `true`).
pub fn fill_front(mut s: State, path: &Path, gpu: bool) -> Result<(State, bool), ReplayError> {
    let Some((front_lacks, tail_lacks)) = s.lacks() else {
        return Ok((s, true));
    };
    let h = &s.header;
    let code: Code = h.code.parse().expect("checked on reading");
    let replays_all =
        !tail_lacks.is_empty() && s.tail.len() < reads_back(&code.rules(), s.table.last_heap());
    let recorded = h.summarizer.powers().iter().find(|p| p.n == h.front);
    let Some(want) = recorded.filter(|_| replays_all).map(|p| p.fnv1a64) else {
        return Ok((fill_state(s, path, gpu)?, true));
    };
    let front = whole_front(&s, &code, front_lacks.is_empty(), gpu)?;
    let got = octal_core::fnv::fnv1a64_values(&front);
    if got != want {
        return Err(ReplayError::Differs {
            file: path.to_path_buf(),
            n: front.len(),
            got: hex(got),
            want: hex(want),
        });
    }
    let rare: Vec<(usize, u16)> = (0..front.len())
        .filter(|&n| h.space.is_rare(n, front[n]))
        .map(|n| (n, front[n]))
        .collect();
    let listed: Vec<(usize, u16)> = (s.table.entries().iter().copied())
        .take_while(|e| e.0 < front.len())
        .collect();
    if rare != listed {
        let first = rare.iter().zip(&listed).find(|(a, b)| a != b);
        let heap = match first {
            Some((a, b)) => a.0.min(b.0),
            None => rare
                .get(listed.len())
                .or(listed.get(rare.len()))
                .map_or(0, |e| e.0),
        };
        return Err(ReplayError::Table {
            file: path.to_path_buf(),
            heap,
        });
    }
    s.front = front;
    Ok((s, false))
}

#[cfg(test)]
mod tests {
    use super::*;
    use octal_core::{discover, exact, RareTable};

    /// Takes out of `table` its first rare heap past the first 40000 (and below 60000).
    fn drop_a_rare_heap(table: &mut RareTable) {
        let (h, _) = *table
            .entries()
            .iter()
            .find(|e| e.0 > 40_000 && e.0 < 60_000)
            .expect("a rare heap past the first values");
        table.set(h, None);
    }

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
        drop_a_rare_heap(&mut wrong.table);
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

    /// A compact state that holds none of its tail (the last rare heap lies too far back for
    /// the tail's first heaps to carry the speculation) comes back whole by a replay from the
    /// front's first heaps; with a rare heap missing from its table it is refused.
    #[test]
    fn a_state_without_its_tail_is_replayed_from_its_first_heaps() {
        use octal_core::stats::Summarizer;
        use octal_store::state::{StateHeader, STATE_FORMAT};
        let code: Code = ".14".parse().unwrap();
        let rules = code.rules();
        let n = 70_000;
        let g = exact::values(&rules, n).unwrap();
        let space = discover::discover(&rules, &g[..40_000]).unwrap();
        let table = RareTable::from_values(&space, &g);
        let (front, tail) = (8192, 4096);
        // Even the whole tail would not carry the speculation: a rare heap lies further back.
        assert!(reads_back(&rules, table.last_heap()) > tail);
        let mut whole = State {
            header: StateHeader {
                format: STATE_FORMAT,
                code: code.to_string(),
                n,
                heaps: n,
                engine: "cpu".into(),
                keep: 0,
                space,
                spaces: Vec::new(),
                front,
                tail,
                tail_from: n - tail,
                rare: table.len(),
                elapsed: 0.0,
                corrections: 0,
                finished: true,
                summarizer: Summarizer::fed_with(Some(space), &g),
                data_fnv1a64: String::new(),
                stored: None,
            },
            front: g[..front].to_vec(),
            tail: g[n - tail..].to_vec(),
            table,
        };
        let path = tmp("no-tail");
        whole.save_compact(&path, 1024, 0).unwrap();
        let read = octal_store::state::read(&path).unwrap();
        assert_eq!((read.front.len(), read.tail.len()), (1024, 0));
        let filled = fill_state(read, &path, false).unwrap();
        assert!(filled.front == whole.front && filled.tail == whole.tail);

        let mut wrong = octal_store::state::read(&path).unwrap();
        drop_a_rare_heap(&mut wrong.table);
        assert!(fill_state(wrong, &path, false).is_err());
        std::fs::remove_file(&path).unwrap();
    }
}

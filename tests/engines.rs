//! The speculative engine with the verifier gives exactly the exact engine's values: on Officers,
//! with a stale table, and on random codes with arbitrary masks and wrong tables.

use octal_core::{exact, Code, Kept, RareTable, SparseKind, SparseSpace};
use octal_engines::games::UnrolledLoop;
use octal_engines::games::{GAMES, STALE_OFFICERS};
use octal_engines::marking::{Marking, MarkingEngine};
use octal_engines::speculative::Speculative;
use octal_engines::stretch::{Engine, Notice, Stretch, StretchEngine, Watch};
use octal_store::run_values::RunValues;
use octal_store::values::ValueStore;
use proptest::prelude::*;
use solver::request::{EngineChoice, Request};
use solver::solve::solve;

/// The CPU's speculate-verify loop seeded with `table` (keys for values below 2^bits, with the
/// game's `unrolled` loop while the table is its own) extending `g` to `n` heaps in one stretch
/// (candidates alone when `verify` is off), telling `notify`; the loop as it ends.
fn speculate<'r>(
    rules: &'r octal_core::Rules,
    (space, table, bits): (SparseSpace, RareTable, u32),
    unrolled: Option<&'static UnrolledLoop>,
    (g, n, verify): (&mut ValueStore, usize, bool),
    notify: &mut dyn FnMut(Notice),
) -> Speculative<'r> {
    let mut run = Speculative::new(rules, space, table, bits, unrolled);
    // The values as a run holds them, all of them, and back.
    let mut held = RunValues::whole(std::mem::replace(g, ValueStore::memory()));
    let mut stretch = Stretch {
        values: &mut held,
        to: n,
        verify,
        corrections: usize::MAX,
        blocks: None,
        notify,
        watch: &mut |_: Kept<'_>| Ok(false),
    };
    run.extend(&mut stretch).unwrap();
    *g = held.into_store();
    run
}

/// Officers' sparse space, as published.
const OFFICERS_SPACE: SparseSpace = SparseSpace {
    kind: SparseKind::Range,
    mask: 0x1ee,
};

fn officers_exact(n: usize) -> Vec<u16> {
    exact::values(&".6".parse::<Code>().unwrap().rules(), n).unwrap()
}

/// From heap 0, seeded with the table of a 2^15-heap discovery, on both key widths, with the
/// values in memory and in a memory-mapped file.
#[test]
fn officers_from_heap_0_matches_exact_to_1e5() {
    let want = officers_exact(100_000);
    let rules = ".6".parse::<Code>().unwrap().rules();
    let space = OFFICERS_SPACE;
    let seed = RareTable::from_values(&space, &want[..1 << 15]);
    for (bits, mut g) in [
        (9, ValueStore::memory()),
        (12, ValueStore::memory()),
        (9, ValueStore::temp().unwrap()),
    ] {
        speculate(
            &rules,
            (space, seed.clone(), bits),
            None,
            (&mut g, want.len(), true),
            &mut |_| {},
        );
        assert!(
            g == want,
            "{bits}-bit keys ({g:?}) differ from the exact engine"
        );
    }
}

/// Every engine through `solve`, on Officers past its last rare heap.
#[test]
fn officers_engines_agree() {
    let want = officers_exact(80_000);
    for (engine, name) in [
        (EngineChoice::Generic, Engine::Generic),
        (EngineChoice::Unrolled, Engine::Unrolled),
        (EngineChoice::Auto, Engine::Unrolled),
    ] {
        let mut req = Request::new(".6".parse().unwrap(), want.len());
        req.engine = engine;
        let s = solve(&req, &mut |_| {}).unwrap();
        assert_eq!(s.engine, name);
        assert!(s.values == want, "{engine:?} differs from the exact engine");
    }
}

#[test]
fn a_stale_table_costs_speed_not_correctness() {
    let want = officers_exact(60_000);
    let space = OFFICERS_SPACE;
    // A table from a short discovery: it lacks every rare heap from 5000 on.
    let stale = RareTable::from_values(&space, &want[..5000]);
    let mut found = Vec::new();
    let mut g = ValueStore::memory();
    let rules = ".6".parse::<Code>().unwrap().rules();
    let run = speculate(
        &rules,
        (space, stale, 9),
        None,
        (&mut g, want.len(), true),
        &mut |n| found.push(n),
    );
    let table = run.table().clone();
    assert!(g == want);
    assert_eq!(table, RareTable::from_values(&space, &want));
    let missing = table.len() - RareTable::from_values(&space, &want[..5000]).len();
    assert_eq!(found.len(), missing, "one correction per missing rare heap");
    assert!(found
        .iter()
        .all(|n| matches!(n, Notice::TableCorrected { rare: true, .. })));
}

/// A watcher that sees every length of the values, and past 40 000 heaps limits the batches.
struct Limiting {
    seen: Vec<usize>,
    limit: usize,
}

impl Watch for Limiting {
    fn proved(&mut self, g: Kept<'_>) -> Result<bool, octal_engines::stretch::EngineError> {
        self.seen.push(g.len());
        if g.len() >= 40_000 {
            self.limit = 1000;
        }
        Ok(false)
    }

    fn batch_limit(&self) -> usize {
        self.limit
    }
}

/// A batch limit set while the loop runs (as a GPU run's host does while its device starts)
/// shortens the batches the watcher sees from then on, and the values stay the exact engine's.
#[test]
fn a_batch_limit_set_while_the_loop_runs_shortens_its_batches() {
    let want = officers_exact(120_000);
    let space = OFFICERS_SPACE;
    let rules = ".6".parse::<Code>().unwrap().rules();
    let table = RareTable::from_values(&space, &want[..30_000]);
    let mut run = Speculative::new(&rules, space, table, 9, None);
    let mut g = ValueStore::memory();
    g.extend_from_slice(&want[..30_000]).unwrap();
    let mut watch = Limiting {
        seen: Vec::new(),
        limit: usize::MAX,
    };
    let mut held = RunValues::whole(g);
    let mut stretch = Stretch {
        values: &mut held,
        to: want.len(),
        verify: true,
        corrections: usize::MAX,
        blocks: None,
        notify: &mut |_| {},
        watch: &mut watch,
    };
    run.extend(&mut stretch).unwrap();
    let seen = watch.seen;
    assert!(held.all() == Some(&want[..]));
    let steps: Vec<(usize, usize)> = seen.windows(2).map(|w| (w[0], w[1] - w[0])).collect();
    assert!(steps.iter().any(|&(at, step)| at < 40_000 && step > 1000));
    // The batch speculated while the watcher set the limit was sized before it.
    let set_at = *seen.iter().find(|&&len| len >= 40_000).unwrap();
    let limited: Vec<usize> = steps
        .iter()
        .filter(|&&(at, _)| at > set_at)
        .map(|&(_, step)| step)
        .collect();
    assert!(limited.len() > 40 && limited.iter().all(|&step| step <= 1000));
}

/// The unrolled loop of a deliberately short build-time table: the run finds the missing rare
/// heaps, says once that the table is stale, drops to the generic loop and stays exact.
#[test]
fn a_stale_build_time_table_falls_back_to_the_generic_loop() {
    let want = officers_exact(60_000);
    let space = OFFICERS_SPACE;
    let (table, unrolled) = &STALE_OFFICERS;
    let table = RareTable::from_entries(table.to_vec());
    assert!(table.last_heap() < 5000);
    let rules = ".6".parse::<Code>().unwrap().rules();
    let mut notices = Vec::new();
    let mut g = ValueStore::memory();
    speculate(
        &rules,
        (space, table, 9),
        Some(unrolled),
        (&mut g, want.len(), true),
        &mut |n| notices.push(n),
    );
    assert!(g == want);
    let stale = notices
        .iter()
        .filter(|n| **n == Notice::StaleBuildTable)
        .count();
    assert_eq!(stale, 1, "said once");
    assert!(notices
        .iter()
        .any(|n| matches!(n, Notice::TableCorrected { rare: true, .. })));
}

/// A code with leading digit 0 or 4 and 1-4 digits 0-7.
fn code() -> impl Strategy<Value = Code> {
    (prop::bool::ANY, prop::collection::vec(0u8..8, 1..=4)).prop_map(|(four, mut d)| {
        d.insert(0, if four { 4 } else { 0 });
        Code::from_digits(&d)
    })
}

/// A space of `mask`: of the domain type when asked and the game has one.
fn space_of(rules: &octal_core::Rules, mask: u16, domain: bool) -> SparseSpace {
    let kind = match octal_core::discover::domain_digit(rules) {
        Some(k) if domain => SparseKind::Domain { k },
        _ => SparseKind::Range,
    };
    SparseSpace { kind, mask }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The marking engine, with either marking and any space, continuing after any number of
    /// exact heaps.
    #[test]
    fn marking_equals_exact(
        code in code(),
        mask in 1u16..64,
        domain in prop::bool::ANY,
        classic in prop::bool::ANY,
        known in 1usize..700,
    ) {
        let rules = code.rules();
        let n = 3000;
        let want = exact::values(&rules, n).unwrap();
        let marking = if classic {
            Marking::Classic(space_of(&rules, mask, domain))
        } else {
            Marking::Exact
        };
        let mut g = ValueStore::memory();
        g.extend_from_slice(&want[..known]).unwrap();
        let mut engine = MarkingEngine::new(&rules, marking, &g);
        while g.len() < n {
            engine.extend_batch(&mut g, n, None).unwrap();
        }
        prop_assert!(g == want, "{} with {:?} differs", code, marking);
    }

    /// Any mask, of either kind, and a table that is partly missing and partly wrong.
    #[test]
    fn speculation_equals_exact(
        code in code(),
        mask in 1u16..32,
        domain in prop::bool::ANY,
        known in 0usize..400,
        bogus in prop::collection::vec((0usize..600, 0u16..40), 0..4),
    ) {
        let rules = code.rules();
        let n = 2000;
        let want = exact::values(&rules, n).unwrap();
        let space = space_of(&rules, mask, domain);
        let mut entries = RareTable::from_values(&space, &want[..known]).entries().to_vec();
        entries.extend(bogus);
        let mut g = ValueStore::memory();
        speculate(&rules, (space, RareTable::from_entries(entries), 9), None, (&mut g, n, true), &mut |_| {});
        prop_assert!(g == want, "{} with {:?} differs", code, space);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any period reported is confirmed by the exact engine on a longer range: it holds from the
    /// preperiod on, the heap before the preperiod is an exception, and no smaller period holds.
    #[test]
    fn reported_periods_hold_on_a_longer_range(code in code()) {
        let mut req = Request::new(code.clone(), 3000);
        req.check_period = true;
        req.discovery_heaps = 256;
        req.discovery_max = 1024;
        let s = solve(&req, &mut |_| {}).unwrap();
        if let Some(p) = s.period {
            let (pp, n0) = (p.period, p.preperiod);
            let end = (3 * p.checked_to).max(p.checked_to + 4 * pp);
            let g = exact::values(&code.rules(), end).unwrap();
            prop_assert_eq!(&s.values[..], &g[..s.values.len()]);
            prop_assert!((n0..end - pp).all(|n| g[n] == g[n + pp]), "{} period {} fails", code, pp);
            if n0 > 0 {
                prop_assert!(g[n0 - 1] != g[n0 - 1 + pp], "{} preperiod {} not least", code, n0);
            }
            for q in 1..pp {
                prop_assert!((n0..end - q).any(|n| g[n] != g[n + q]), "{} has smaller period {}", code, q);
            }
        }
    }
}

/// Every game of games/ with an unrolled loop gives the exact engine's values to 10^5 heaps,
/// computing them itself from heap 0 (seeded with its build-time table).
#[test]
fn every_unrolled_game_matches_exact_to_1e5() {
    let n = 100_000;
    for game in GAMES {
        let (Ok(unrolled), Some(space)) = (&game.unrolled, game.space) else {
            continue;
        };
        let code: Code = game.code.parse().unwrap();
        let want = exact::values(&code.rules(), n).unwrap();
        let mut g = ValueStore::memory();
        let mut notices = Vec::new();
        let rules = code.rules();
        let run = speculate(
            &rules,
            (space, game.table(), 9),
            Some(unrolled),
            (&mut g, n, true),
            &mut |x| notices.push(x),
        );
        assert!(
            g == want,
            "{} ({}) differs from the exact engine",
            game.code,
            game.file
        );
        assert!(
            notices.is_empty(),
            "{}: the build-time table covers 10^5 heaps",
            game.code
        );
        assert!(
            run.unrolled(),
            "{}: the unrolled loop served every heap",
            game.code
        );
    }
}

/// The open games of the benchmark, through `solve` from a short discovery (so that their
/// spaces change and their engines switch along the way), equal the exact engine to 2^16.
#[test]
fn open_games_equal_exact_to_2_16() {
    let n = 1 << 16;
    for code in [
        ".14", ".04", ".114", ".004", ".06", ".36", ".64", ".74", ".76",
    ] {
        let code: Code = code.parse().unwrap();
        let want = exact::values(&code.rules(), n).unwrap();
        let mut req = Request::new(code.clone(), n);
        req.discovery_heaps = 1 << 12;
        let s = solve(&req, &mut |_| {}).unwrap();
        assert!(s.values == want, "{code} differs from the exact engine");
        let covered: usize = s.stretches.iter().map(|x| x.to - x.from).sum();
        assert_eq!(covered, n - (1 << 12), "{code}: {:?}", s.stretches);
    }
}

/// A code of 1-3 digits after the point, some with several breaking digits of one parity.
fn three_digits() -> impl Strategy<Value = Code> {
    (prop::bool::ANY, prop::collection::vec(0u8..8, 1..=3)).prop_map(|(four, mut d)| {
        d.insert(0, if four { 4 } else { 0 });
        Code::from_digits(&d)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Through `solve` from a tiny discovery: the space follows the values (changes, engines of
    /// every kind), and the values are the exact engine's.
    #[test]
    fn solve_follows_the_values_exactly(code in three_digits(), generic in prop::bool::ANY) {
        let n = 6000;
        let want = exact::values(&code.rules(), n).unwrap();
        let mut req = Request::new(code.clone(), n);
        req.discovery_heaps = 128;
        if generic {
            req.engine = EngineChoice::Generic;
        }
        match solve(&req, &mut |_| {}) {
            Ok(s) => prop_assert!(s.values == want, "{} differs", code),
            Err(e) => prop_assert!(generic && e.is_bad_request(), "{}: {}", code, e),
        }
    }
}

/// The speculation alone, on games with small tables and values (the loop's marks in registers,
/// several heaps at once), against the classic algorithm: given every rare heap, its candidates
/// are the values. The verifier relies on the speculation's marks of the common options, so this
/// checks the loop itself, apart from the verified pipeline.
#[test]
fn small_table_speculation_alone_equals_the_classic_algorithm() {
    let n = 1 << 20;
    for code in [".104", ".1777", ".1077", ".16", ".0104"] {
        let code: Code = code.parse().unwrap();
        let rules = code.rules();
        let start = 1 << 16;
        let mut want = exact::values(&rules, 1 << 12).unwrap();
        let space = octal_core::discover::discover(&rules, &want).expect("a sparse space");
        octal_core::classic::Classic::new(&rules, space, &want)
            .extend(&mut want, n)
            .unwrap();
        let table = RareTable::from_values(&space, &want);
        let mut g = ValueStore::for_heaps(n).unwrap();
        g.extend_from_slice(&want[..start]).unwrap();
        speculate(
            &rules,
            (space, table, octal_core::codec::value_bits(0)),
            None,
            (&mut g, n, false),
            &mut |_| {},
        );
        assert!(g[..] == want[..], "{code}: speculation differs");
    }
}

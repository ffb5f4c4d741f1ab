//! Discovery finds the published sparse spaces from exact values alone.

use octal_core::{classic::Classic, discover, exact, Code, RareTable, SparseKind};

fn discover(code: &str, n: usize) -> (octal_core::SparseSpace, RareTable) {
    let rules = code.parse::<Code>().unwrap().rules();
    let mut g = exact::values(&rules, 1 << 15).unwrap();
    let space = discover::discover(&rules, &g).expect("a sparse space");
    Classic::new(&rules, space, &g).extend(&mut g, n).unwrap();
    (space, RareTable::from_values(&space, &g))
}

#[test]
fn officers() {
    let (space, table) = discover(".6", 50_000);
    assert_eq!((space.kind, space.mask), (SparseKind::Range, 0x1ee));
    assert_eq!(table.len(), 1584);
    assert_eq!(*table.entries().last().unwrap(), (20627, 277));
}

#[test]
fn dot16() {
    let (space, table) = discover(".16", 40_000);
    assert_eq!((space.kind, space.mask), (SparseKind::Range, 0x1e));
    assert_eq!((table.len(), table.last_heap()), (53, 13935));
}

#[test]
fn dot127_is_domain_type() {
    let (space, table) = discover(".127", 60_000);
    assert_eq!((space.kind, space.mask), (SparseKind::Domain { k: 3 }, 1));
    assert_eq!((table.len(), table.last_heap()), (693, 27106));
}

/// Discovery grows its first heaps by the classic algorithm where they show a settled space and
/// by the exact engine elsewhere: its values are the exact engine's, whichever path each stretch
/// took (.106 and .16 settle at once, .64 and .36 on the way, Officers and .76 not before 2^15).
#[test]
fn growing_gives_the_exact_values() {
    for code in [".106", ".16", ".64", ".36", ".6", ".76"] {
        let rules = code.parse::<Code>().unwrap().rules();
        let (g, _) = discover::discover_growing(
            &rules,
            &[],
            discover::DISCOVERY_START,
            discover::DISCOVERY_START,
            &mut |_| false,
            &mut |s, g, n| discover::grow_classic(&rules, s, g, n),
        )
        .unwrap();
        assert_eq!(
            g,
            exact::values(&rules, discover::DISCOVERY_START).unwrap(),
            "{code}"
        );
    }
}

/// Discovery from known values (a resumed run's) takes them instead of computing them, and finds
/// the space and values it finds without them: for prefixes shorter than its seed, between the
/// seed and its start, and past its range.
#[test]
fn known_values_give_what_computing_gives() {
    for code in [".6", ".64", ".76", ".0106"] {
        let rules = code.parse::<Code>().unwrap().rules();
        let (start, limit) = (1 << 12, 1 << 14);
        let discovered = |known: &[u16]| {
            discover::discover_growing(
                &rules,
                known,
                start,
                limit,
                &mut |_| false,
                &mut |s, g, n| discover::grow_classic(&rules, s, g, n),
            )
            .unwrap()
        };
        let computed = discovered(&[]);
        let exact = exact::values(&rules, 1 << 15).unwrap();
        assert_eq!(computed.0, exact[..computed.0.len()], "{code}");
        for known in [100, 3000, 5000, 1 << 15] {
            assert_eq!(
                discovered(&exact[..known]),
                computed,
                "{code} knowing {known} heaps"
            );
        }
    }
}

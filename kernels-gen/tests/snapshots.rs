//! Snapshot tests of the generated text: the committed files under `tests/snapshots/` are the
//! expected output; `UPDATE_SNAPSHOTS=1 cargo test -p kernels-gen` rewrites them.

use kernels_gen::{generate, GenError, KernelSpec, Layout};
use octal_core::codec::value_bits;
use octal_core::{exact, Code, RareTable, SparseKind, SparseSpace};
use std::path::PathBuf;

/// The game, its space and the rare table of its first `heaps` exact values.
fn game(code: &str, space: SparseSpace, heaps: usize) -> (Code, SparseSpace, RareTable, u32) {
    let code: Code = code.parse().unwrap();
    let g = exact::values(&code.rules(), heaps).unwrap();
    let max = g.iter().copied().max().unwrap();
    (
        code,
        space,
        RareTable::from_values(&space, &g),
        value_bits(max),
    )
}

/// Officers' code and space (mask 0x1ee), for made-up tables.
fn officers() -> (Code, SparseSpace) {
    let space = SparseSpace {
        kind: SparseKind::Range,
        mask: 0x1ee,
    };
    (".6".parse().unwrap(), space)
}

fn check_snapshot(name: &str, text: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(name);
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some_and(|v| v == "1") {
        std::fs::write(&path, text).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "no snapshot {}: run with UPDATE_SNAPSHOTS=1",
            path.display()
        )
    });
    assert!(
        want == text,
        "{name} changed: review the new text and rerun with UPDATE_SNAPSHOTS=1"
    );
}

#[test]
fn officers_snapshot() {
    let (code, space, table, bits) = game(".6", officers().1, 1 << 15);
    assert_eq!(table.len(), 1584);
    let game = KernelSpec {
        code: &code,
        space,
        table: &table,
        value_bits: bits,
        rare_sources: false,
    };
    let text = generate(&game).unwrap();
    assert_eq!(text, generate(&game).unwrap(), "deterministic");
    assert!(text.contains("#define OPTIONS_CAP 1584\n"));
    check_snapshot("officers.cu", &text);
}

#[test]
fn domain_type_snapshot() {
    let space = SparseSpace {
        kind: SparseKind::Domain { k: 3 },
        mask: 1,
    };
    let (code, space, table, bits) = game(".127", space, 1 << 12);
    let game = KernelSpec {
        code: &code,
        space,
        table: &table,
        value_bits: bits,
        rare_sources: false,
    };
    let text = generate(&game).unwrap();
    assert!(text.contains("#define DOMAIN 1\n#define DOMAIN_K 3\n"));
    check_snapshot("dot127.cu", &text);
}

/// The table is data: tables of one size give one text, whatever their entries.
#[test]
fn the_text_does_not_hold_the_table() {
    let (code, space) = officers();
    let text = |k: usize| {
        let table = RareTable::from_entries((1..=12_000).map(|n| (k * n, 0)).collect());
        let game = KernelSpec {
            code: &code,
            space,
            table: &table,
            value_bits: 9,
            rare_sources: true,
        };
        let layout = Layout::new(&game).unwrap();
        assert!(layout.ring == 0 || layout.ring >= layout.reach + 2 * kernels_gen::WINDOW_MAX + 16);
        (generate(&game).unwrap(), layout)
    };
    let (a, la) = text(3);
    let (b, lb) = text(4);
    assert_ne!(la.options, lb.options);
    assert_eq!(
        la.reach_cap, lb.reach_cap,
        "both tables reach below 65536 heaps"
    );
    assert_eq!(a, b);
}

/// Kernels for rare sources keep a key for the sentinel (one-byte keys only below 2^8), a
/// discard word past each bitset, and room for the table to double before the text changes.
#[test]
fn rare_sources_leave_room() {
    let (code, space) = officers();
    let table = RareTable::from_entries((1..=300).map(|n| (3 * n, 0)).collect());
    for (bits, rare_sources, key_bytes) in [(8, true, 1), (9, true, 2), (9, false, 1)] {
        let game = KernelSpec {
            code: &code,
            space,
            table: &table,
            value_bits: bits,
            rare_sources,
        };
        let l = Layout::new(&game).unwrap();
        assert_eq!(
            l.key_bytes, key_bytes,
            "{bits} bits, rare sources {rare_sources}"
        );
        assert_eq!(l.stride, l.words + usize::from(rare_sources));
        let (options, reach) = (l.options.len(), l.reach);
        assert!(l.fits(options, reach));
        assert_eq!(l.fits(2 * options, 2 * reach), rare_sources);
        assert!(!l.fits(l.options_cap + 1, reach) || !l.options_shared);
        assert_eq!(l.hot_from == 1, rare_sources);
    }
}

/// A shared option packs its key above its distance in one word: an option reaching farther
/// than the distance field holds (2^24 heaps for one-byte keys) leaves the options in their table.
#[test]
fn options_too_far_for_a_packed_word_stay_in_their_table() {
    let (code, space) = officers();
    for (last, shared) in [((1 << 24) - 2, true), (1 << 24, false)] {
        let table = RareTable::from_entries(vec![(0, 0), (1, 0), (last, 0)]);
        let game = KernelSpec {
            code: &code,
            space,
            table: &table,
            value_bits: 9,
            rare_sources: false,
        };
        let layout = Layout::new(&game).unwrap();
        assert_eq!((layout.dist_bits, layout.reach < 1 << 24), (24, shared));
        assert_eq!(layout.options_shared, shared, "last rare heap {last}");
    }
}

#[test]
fn too_wide_values_are_refused() {
    let (code, space) = officers();
    let table = RareTable::from_entries(vec![(0, 0), (1, 0)]);
    let game = KernelSpec {
        code: &code,
        space,
        table: &table,
        value_bits: 14,
        rare_sources: false,
    };
    assert_eq!(generate(&game), Err(GenError::TooWide { bits: 14 }));
}

//! The value history of a long run does not stay in the process's own memory: 128 MiB of values in
//! a mapped store add next to nothing to its anonymous resident set (file pages belong to the
//! page cache, which the kernel reclaims), while the same values in a vector add all of it. A
//! test binary of its own, so that no other test allocates meanwhile.

use octal_store::values::ValueStore;

/// The process's resident anonymous memory, in bytes (Linux).
fn rss_anon() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("RssAnon:")).unwrap();
    let kib: usize = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kib * 1024
}

/// Fills `s` with 2^26 values and returns how much the anonymous resident set grew.
fn growth(mut s: ValueStore) -> usize {
    let before = rss_anon();
    let n = 1usize << 26;
    let chunk: Vec<u16> = (0..1u16 << 12).collect();
    while s.len() < n {
        s.extend_from_slice(&chunk).unwrap();
    }
    assert!(s.iter().step_by(4099).all(|&v| v < 1 << 12));
    let after = rss_anon();
    drop(s);
    after.saturating_sub(before)
}

#[test]
fn a_mapped_store_keeps_values_out_of_anonymous_memory() {
    const MIB: usize = 1 << 20;
    let mapped = growth(ValueStore::temp().unwrap());
    assert!(mapped < 16 * MIB, "mapped: {} MiB anonymous", mapped / MIB);
    let memory = growth(ValueStore::memory());
    assert!(memory > 100 * MIB, "vector: {} MiB anonymous", memory / MIB);
}

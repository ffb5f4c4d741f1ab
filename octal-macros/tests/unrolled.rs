//! `unrolled!` compiled and run: `mark` and `mex` of each table against the generic engine's
//! loop written out plainly, on random windows and stamps. The tables cover both words and every
//! shape of `mex` (byte by byte, unrolled chunks, a loop), masked and unmasked indices.

/// The key type of the window, as the reference loop sees it.
trait Key: Copy + Into<usize> {
    /// The most keys the type holds.
    const CAPACITY: usize;
    fn new(key: usize) -> Self;
}

impl Key for u8 {
    const CAPACITY: usize = 1 << 8;
    fn new(key: usize) -> Self {
        key as u8
    }
}

impl Key for u16 {
    const CAPACITY: usize = 1 << 16;
    fn new(key: usize) -> Self {
        key as u16
    }
}

/// One invocation's table as data, beside its emitted functions.
struct Case<W> {
    entries: &'static [(usize, usize)],
    singles: &'static [usize],
    keys: usize,
    reach: usize,
    seen: usize,
    mark: unsafe fn(*const W, *mut u8, u8),
    mex: fn(&[u8], u8) -> Option<usize>,
}

/// Invokes `unrolled!` (through `macro_rules!`, so its literals arrive wrapped in invisible
/// groups) and gives the table back as a [`Case`].
macro_rules! case {
    ($name:ident: $key_type:ident, $keys:literal, [$($offset:literal => $rare:literal),*],
     [$($single:literal),*]) => {{
        octal_macros::unrolled! {
            name = $name,
            code = "0.6",
            fingerprint = 0xfeed,
            key_type = $key_type,
            keys = $keys,
            offsets = [$($offset),*],
            rare_keys = [$($rare),*],
            singles = [$($single),*],
        }
        Case::<$key_type> {
            entries: &[$(($offset, $rare)),*],
            singles: &[$($single),*],
            keys: $name::KEYS,
            reach: $name::REACH,
            seen: $name::SEEN,
            mark: $name::mark,
            mex: |seen, stamp| $name::mex(seen.try_into().unwrap(), stamp),
        }
    }};
}

/// The generic engine's marking: `window` ends at the heap, `seen` holds `SEEN` bytes.
fn reference_mark<W: Key>(case: &Case<W>, window: &[W], seen: &mut [u8], stamp: u8) {
    let (n, mask) = (window.len(), seen.len() - 1);
    for &(d, r) in case.entries {
        seen[(window[n - d].into() ^ r) & mask] = stamp;
    }
    for &d in case.singles {
        seen[window[n - d].into() & mask] = stamp;
    }
}

fn reference_mex(seen: &[u8], stamp: u8) -> Option<usize> {
    seen.iter().position(|&s| s != stamp)
}

/// SplitMix64: a fixed, dependency-free stream of random numbers.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e3779b97f4a7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d049bb133111eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// `trials` random windows and `seen` arrays: `mark` stamps what the reference stamps (every
/// byte of `seen` equal after both), and `mex` finds the reference's first gap.
fn check<W: Key>(case: &Case<W>, trials: usize) {
    let largest = case
        .entries
        .iter()
        .map(|e| e.0)
        .chain(case.singles.iter().copied());
    assert_eq!(case.reach, largest.max().unwrap_or(0));
    assert_eq!(case.seen, if W::CAPACITY == 256 { 256 } else { case.keys });
    let mut rng = Rng(case.keys as u64 ^ case.reach as u64);
    for trial in 0..trials {
        // Half the windows hold keys in use only, half any keys the type can hold (then a u8
        // index may reach past KEYS, and a u16 one is masked).
        let range = if trial % 2 == 0 {
            case.keys
        } else {
            W::CAPACITY
        };
        let window: Vec<W> = (0..case.reach).map(|_| W::new(rng.below(range))).collect();
        // Stamped up to a random key, then half stamped: the mex lands anywhere.
        let stamp = 1 + rng.below(255) as u8;
        let stamped = rng.below(case.keys + 1);
        let mut expected: Vec<u8> = (0..case.seen)
            .map(|i| {
                let coin = rng.next() >> 63 == 0;
                if i < stamped || coin {
                    stamp
                } else {
                    rng.next() as u8
                }
            })
            .collect();
        let mut seen = expected.clone();
        reference_mark(case, &window, &mut expected, stamp);
        // SAFETY: `window` holds REACH keys before its end; `seen` holds SEEN bytes.
        unsafe { (case.mark)(window.as_ptr_range().end, seen.as_mut_ptr(), stamp) };
        assert!(seen == expected, "mark differs in trial {trial}");
        let keys = &seen[..case.keys];
        assert_eq!((case.mex)(keys, stamp), reference_mex(keys, stamp));
    }
}

/// `mex` finds a lone gap at each key (every key up to 4096, a sample past that), and gives
/// `None` with none.
fn check_mex<W>(case: &Case<W>) {
    let mut seen = vec![3u8; case.keys];
    assert_eq!((case.mex)(&seen, 3), None);
    let step = 1.max(case.keys / 4096);
    for gap in (0..case.keys).step_by(step).chain([case.keys - 1]) {
        seen[gap] = 4;
        assert_eq!((case.mex)(&seen, 3), Some(gap));
        assert_eq!((case.mex)(&seen, 4), Some(usize::from(gap == 0)));
        seen[gap] = 3;
    }
}

octal_macros::unrolled! {
    name = officers,
    code = "0.6",
    fingerprint = 0x1234abcd5678ef90,
    key_type = u8,
    keys = 32,
    offsets = [2, 3, 7],
    rare_keys = [1, 0, 5],
    singles = [1],
}

#[test]
fn emits_the_constants() {
    assert_eq!(officers::CODE, "0.6");
    assert_eq!(officers::FINGERPRINT, 0x1234abcd5678ef90);
    assert_eq!(officers::ENTRIES, 3);
    assert_eq!(officers::REACH, 7);
    assert_eq!(officers::KEYS, 32);
    assert_eq!(officers::SEEN, 256);
    let key: officers::Key = u8::MAX;
    assert_eq!(key, 255);
}

#[test]
fn u8_with_four_codes_compares_byte_by_byte() {
    let case = case!(tiny: u8, 4, [1 => 3, 2 => 1, 2 => 0], [3]);
    check(&case, 2000);
    check_mex(&case);
}

#[test]
fn u8_with_sixteen_codes() {
    let case = case!(small: u8, 16, [2 => 1, 3 => 0, 3 => 5], [1, 4]);
    check(&case, 2000);
    check_mex(&case);
}

#[test]
fn u8_with_every_code_in_use_and_a_far_entry() {
    let case = case!(
        byte: u8,
        256,
        [1 => 255, 5 => 0, 6 => 17, 6 => 128, 11 => 3, 40 => 64, 100000 => 200],
        [2, 9]
    );
    check(&case, 2000);
    check_mex(&case);
}

#[test]
fn an_empty_table_marks_nothing() {
    let case = case!(empty: u8, 8, [], []);
    check(&case, 200);
    check_mex(&case);
}

#[test]
fn u16_with_masked_indices() {
    let case = case!(masked: u16, 1024, [1 => 1023, 4 => 0, 4 => 512, 9 => 7], [1, 2]);
    check(&case, 2000);
    check_mex(&case);
}

#[test]
fn u16_at_the_largest_unrolled_mex() {
    let case = case!(wide: u16, 4096, [3 => 4095, 8 => 2048, 30 => 1], []);
    check(&case, 1000);
    check_mex(&case);
}

#[test]
fn u16_with_every_code_in_use_searches_in_a_loop() {
    let case = case!(full: u16, 65536, [1 => 65535, 2 => 256, 700 => 4097], [5]);
    check(&case, 300);
    check_mex(&case);
}

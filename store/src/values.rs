//! The value store of a run ([`ValueStore`]): a growable array of `u16` that is either a plain
//! vector (small runs) or a memory-mapped file, so that a run's memory stays bounded however many
//! heaps it computes.
//!
//! The engines, the verifier and the period search read old values at random (the splits
//! (a, h - a) with small a, window comparisons), so the store cannot be a sliding window. A
//! [`ValueStore`] backed by a file maps it shared: its pages belong to the page cache, which the
//! kernel writes back and reclaims under memory pressure, so what stays resident is what the
//! engines touch recently (the last blocks and the first heaps), not the whole store. The
//! anonymous memory of a run is then independent of n. The file is derived data: in a run
//! directory `values.work` (rebuilt from `values.bin` on every resume, never read back), elsewhere an
//! unlinked file in the system's temporary directory.
//!
//! The file grows geometrically (by a quarter) and is remapped; growth reserves the file's blocks
//! (`fallocate`, or written zeros where the file system has no `fallocate`) rather than extending
//! the file sparsely, so that a full disk is an error of `push`/`resize` (reported with the file's
//! name) and never a SIGBUS on a later store through the mapping. Reserving writes nothing: a run
//! of 10^10 heaps once wrote 32 GB of zeros besides its 20 GB of values, and the host's stalls on
//! that writeback left the device idle.

use memmap2::MmapMut;
use std::fs::{self, File, OpenOptions};
use std::io;
use std::ops::{Deref, DerefMut};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Runs of at most this many heaps keep their values in a vector (4 MiB).
pub const IN_MEMORY_MAX: usize = 1 << 21;

/// The least capacity of a mapped store, in values (128 KiB), and the granule it grows by.
const MIN_MAPPED: usize = 1 << 16;

/// Zeros written per call while a file grows.
const ZEROS: usize = 1 << 20;

/// The value store could not be created or grown (an unwritable temporary directory, a full
/// disk). The cause is the source, not part of the message.
#[derive(Debug, thiserror::Error)]
#[error("cannot keep the values in {}", path.display())]
pub struct ValuesError {
    pub path: PathBuf,
    pub source: io::Error,
}

/// A growable `u16` array in memory or in a memory-mapped file; see the module documentation.
pub struct ValueStore {
    backing: Backing,
}

enum Backing {
    Memory(Vec<u16>),
    Mapped(Mapped),
}

/// A file mapped shared; `map` holds the capacity (its length in values), `len` values are in use.
struct Mapped {
    file: File,
    /// Where the file is (or was, for an unlinked one): for messages.
    path: PathBuf,
    map: MmapMut,
    len: usize,
}

impl Mapped {
    fn new(file: File, path: PathBuf) -> Result<Mapped, ValuesError> {
        let err = |source| ValuesError {
            path: path.clone(),
            source,
        };
        file.set_len(0).map_err(err)?;
        reserve(&file, 0, 2 * MIN_MAPPED).map_err(err)?;
        // SAFETY: the file is this store's own (created here, truncated, and either unlinked or
        // inside a run directory whose lock this process holds): nothing else changes it while
        // it is mapped.
        let map = unsafe { MmapMut::map_mut(&file) }.map_err(err)?;
        Ok(Mapped {
            file,
            path,
            map,
            len: 0,
        })
    }

    fn capacity(&self) -> usize {
        self.map.len() / 2
    }

    /// Grows the file and the mapping to hold at least `need` values: by at least a quarter (the
    /// remaps stay few, and the disk reserved at most a quarter more than used), in whole granules.
    fn grow(&mut self, need: usize) -> Result<(), ValuesError> {
        let old = self.capacity();
        let cap = need.max(old + old / 4).next_multiple_of(MIN_MAPPED);
        let err = |source| ValuesError {
            path: self.path.clone(),
            source,
        };
        reserve(&self.file, 2 * old as u64, 2 * (cap - old)).map_err(err)?;
        // SAFETY: as in `new`.
        self.map = unsafe { MmapMut::map_mut(&self.file) }.map_err(err)?;
        Ok(())
    }

    /// Shrinks the file and the mapping to the values in use (in whole granules, two at least).
    fn shrink(&mut self) -> Result<(), ValuesError> {
        let cap = self.len.next_multiple_of(MIN_MAPPED).max(2 * MIN_MAPPED);
        if cap >= self.capacity() {
            return Ok(());
        }
        let err = |source| ValuesError {
            path: self.path.clone(),
            source,
        };
        self.file.set_len(2 * cap as u64).map_err(err)?;
        // SAFETY: as in `new`; the old mapping is replaced before any access past the new end.
        self.map = unsafe { MmapMut::map_mut(&self.file) }.map_err(err)?;
        Ok(())
    }

    fn values(&self) -> &[u16] {
        // SAFETY: the mapping is page aligned and holds `capacity() >= len` values; any bit
        // pattern is a `u16`.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr().cast(), self.len) }
    }

    fn values_mut(&mut self) -> &mut [u16] {
        // SAFETY: as in `values`, and `&mut self` makes the access unique.
        unsafe { std::slice::from_raw_parts_mut(self.map.as_mut_ptr().cast(), self.len) }
    }
}

/// Extends `file` with `bytes` bytes at `at` (its end) that read as zeros, their blocks allocated.
fn reserve(file: &File, at: u64, bytes: usize) -> io::Result<()> {
    use rustix::fs::{fallocate, FallocateFlags};
    use rustix::io::Errno;
    match fallocate(file, FallocateFlags::empty(), at, bytes as u64) {
        Err(e) if e == Errno::OPNOTSUPP || e == Errno::NOSYS => write_zeros(file, at, bytes),
        other => other.map_err(io::Error::from),
    }
}

/// Appends `bytes` zeros to `file` at `at`.
fn write_zeros(file: &File, at: u64, bytes: usize) -> io::Result<()> {
    let zeros = vec![0u8; bytes.min(ZEROS)];
    let mut done = 0;
    while done < bytes {
        let k = (bytes - done).min(ZEROS);
        file.write_all_at(&zeros[..k], at + done as u64)?;
        done += k;
    }
    Ok(())
}

impl ValueStore {
    /// A store in memory (a vector).
    pub fn memory() -> ValueStore {
        ValueStore {
            backing: Backing::Memory(Vec::new()),
        }
    }

    /// A store in the file `path` (created, or truncated if it exists): a run directory's
    /// working file.
    pub fn at(path: &Path) -> Result<ValueStore, ValuesError> {
        let file = OpenOptions::new()
            .create(true)
            .truncate(true)
            .read(true)
            .write(true)
            .open(path)
            .map_err(|source| ValuesError {
                path: path.to_path_buf(),
                source,
            })?;
        Ok(ValueStore {
            backing: Backing::Mapped(Mapped::new(file, path.to_path_buf())?),
        })
    }

    /// A store in a new file of the system's temporary directory, unlinked at once (its space is
    /// freed when the store is dropped, or the process ends however it ends).
    pub fn temp() -> Result<ValueStore, ValuesError> {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let path = std::env::temp_dir().join(format!(
            "octal-values-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let err = |source| ValuesError {
            path: path.clone(),
            source,
        };
        let file = OpenOptions::new()
            .create_new(true)
            .read(true)
            .write(true)
            .open(&path)
            .map_err(err)?;
        fs::remove_file(&path).map_err(err)?;
        Ok(ValueStore {
            backing: Backing::Mapped(Mapped::new(file, path)?),
        })
    }

    /// The store for a run of `n` heaps: in memory up to [`IN_MEMORY_MAX`], else [`Self::temp`].
    pub fn for_heaps(n: usize) -> Result<ValueStore, ValuesError> {
        if n <= IN_MEMORY_MAX {
            Ok(ValueStore::memory())
        } else {
            ValueStore::temp()
        }
    }

    /// The backing file, for a store in a file.
    pub fn file(&self) -> Option<&Path> {
        match &self.backing {
            Backing::Memory(_) => None,
            Backing::Mapped(m) => Some(&m.path),
        }
    }

    /// Values the store holds without growing.
    pub fn capacity(&self) -> usize {
        match &self.backing {
            Backing::Memory(v) => v.capacity(),
            Backing::Mapped(m) => m.capacity(),
        }
    }

    /// Makes room for `len` values in all.
    fn room(&mut self, len: usize) -> Result<(), ValuesError> {
        match &mut self.backing {
            Backing::Memory(v) => v.reserve(len.saturating_sub(v.len())),
            Backing::Mapped(m) if len > m.capacity() => m.grow(len)?,
            Backing::Mapped(_) => {}
        }
        Ok(())
    }

    pub fn push(&mut self, value: u16) -> Result<(), ValuesError> {
        let len = self.len();
        self.resize(len + 1, value)
    }

    pub fn extend_from_slice(&mut self, values: &[u16]) -> Result<(), ValuesError> {
        let len = self.len();
        self.room(len + values.len())?;
        match &mut self.backing {
            Backing::Memory(v) => v.extend_from_slice(values),
            Backing::Mapped(m) => {
                m.len += values.len();
                m.values_mut()[len..].copy_from_slice(values);
            }
        }
        Ok(())
    }

    /// Sets the length to `len`, filling new places with `value`.
    pub fn resize(&mut self, len: usize, value: u16) -> Result<(), ValuesError> {
        self.room(len)?;
        match &mut self.backing {
            Backing::Memory(v) => v.resize(len, value),
            Backing::Mapped(m) => {
                let old = m.len;
                m.len = len;
                if len > old {
                    m.values_mut()[old..].fill(value);
                }
            }
        }
        Ok(())
    }

    /// Keeps the first `len` values (the file keeps its size).
    pub fn truncate(&mut self, len: usize) {
        match &mut self.backing {
            Backing::Memory(v) => v.truncate(len),
            Backing::Mapped(m) => m.len = m.len.min(len),
        }
    }

    /// Gives back the room past the values in use: the memory of a vector, the disk of a file.
    pub fn shrink_to_fit(&mut self) -> Result<(), ValuesError> {
        match &mut self.backing {
            Backing::Memory(v) => {
                v.shrink_to_fit();
                Ok(())
            }
            Backing::Mapped(m) => m.shrink(),
        }
    }

    pub fn clear(&mut self) {
        self.truncate(0);
    }
}

impl Deref for ValueStore {
    type Target = [u16];

    fn deref(&self) -> &[u16] {
        match &self.backing {
            Backing::Memory(v) => v,
            Backing::Mapped(m) => m.values(),
        }
    }
}

impl DerefMut for ValueStore {
    fn deref_mut(&mut self) -> &mut [u16] {
        match &mut self.backing {
            Backing::Memory(v) => v,
            Backing::Mapped(m) => m.values_mut(),
        }
    }
}

impl std::fmt::Debug for ValueStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("ValueStore");
        d.field("len", &self.len());
        match self.file() {
            Some(path) => d.field("file", &path),
            None => d.field("file", &"(memory)"),
        };
        d.finish()
    }
}

impl PartialEq for ValueStore {
    fn eq(&self, other: &ValueStore) -> bool {
        **self == **other
    }
}

impl PartialEq<Vec<u16>> for ValueStore {
    fn eq(&self, other: &Vec<u16>) -> bool {
        **self == **other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pattern(i: usize) -> u16 {
        (i.wrapping_mul(2654435761) >> 7) as u16
    }

    #[test]
    fn a_mapped_store_grows_its_file_and_keeps_every_value() {
        let dir = std::env::temp_dir().join(format!("octal-values-test-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("values.work");
        let mut s = ValueStore::at(&path).unwrap();
        assert_eq!(s.file(), Some(path.as_path()));
        assert_eq!(fs::metadata(&path).unwrap().len(), 2 * MIN_MAPPED as u64);
        let n = 5 * MIN_MAPPED + 123;
        let mut caps = vec![s.capacity()];
        for i in 0..n {
            s.push(pattern(i)).unwrap();
            if s.capacity() != *caps.last().unwrap() {
                caps.push(s.capacity());
            }
        }
        // By a quarter at least, in whole granules: 1, 2 (5/4 rounded up), 3, 4, 5, 7 granules,
        // each a remap of a longer file.
        assert_eq!(
            caps,
            [1, 2, 3, 4, 5, 7].map(|k| k * MIN_MAPPED).to_vec(),
            "geometric growth"
        );
        assert_eq!(
            fs::metadata(&path).unwrap().len(),
            2 * 7 * MIN_MAPPED as u64
        );
        assert!((0..n).all(|i| s[i] == pattern(i)), "values survive remaps");
        s.truncate(100);
        s.extend_from_slice(&[7; 50]).unwrap();
        s[0] = 9;
        assert_eq!(s.len(), 150);
        assert_eq!((s[0], s[99], s[100], s[149]), (9, pattern(99), 7, 7));
        s.resize(20 * MIN_MAPPED, 3).unwrap();
        assert_eq!(s[150..].iter().filter(|&&v| v != 3).count(), 0);
        // What the mapping holds is the file's content.
        let bytes = fs::read(&path).unwrap();
        assert_eq!(bytes.len(), 2 * 20 * MIN_MAPPED);
        assert_eq!(u16::from_le_bytes([bytes[198], bytes[199]]), pattern(99));
        // Shrunk to the values in use (two granules at least), which stay.
        s.truncate(3 * MIN_MAPPED + 5);
        s.shrink_to_fit().unwrap();
        assert_eq!(s.capacity(), 4 * MIN_MAPPED);
        assert_eq!(
            fs::metadata(&path).unwrap().len(),
            2 * 4 * MIN_MAPPED as u64
        );
        assert_eq!(
            (s[99], s[150], s.len()),
            (pattern(99), 3, 3 * MIN_MAPPED + 5)
        );
        s.push(4).unwrap();
        assert_eq!(s[3 * MIN_MAPPED + 5], 4);
        drop(s);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn temp_and_memory_stores_behave_alike() {
        let mut a = ValueStore::temp().unwrap();
        let mut b = ValueStore::memory();
        assert!(a.file().is_some_and(|p| !p.exists()), "unlinked at once");
        assert_eq!(b.file(), None);
        for s in [&mut a, &mut b] {
            s.extend_from_slice(&[1, 2, 3]).unwrap();
            s.resize(3 * MIN_MAPPED, 5).unwrap();
            s.push(4).unwrap();
            s.truncate(3 * MIN_MAPPED);
        }
        assert_eq!(a, b);
        assert_eq!(a.len(), 3 * MIN_MAPPED);
        assert!(
            b == vec![1, 2, 3]
                .into_iter()
                .chain([5; 3 * MIN_MAPPED - 3])
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn an_unusable_place_is_an_error_naming_it() {
        let e = ValueStore::at(Path::new("/nonexistent-dir/values.work")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "cannot keep the values in /nonexistent-dir/values.work"
        );
        // The cause is the error's source, said once by whoever prints the chain.
        let source = std::error::Error::source(&e).unwrap();
        assert_eq!(source.to_string(), "No such file or directory (os error 2)");
    }
}

//! Snapshots: a run's values in a few MiB, to carry a long run between machines (a GPU machine
//! lent for a while, where little comes back). The file holds the sparse space, the rare table
//! under it, the first heaps exactly, and the fnv1a64 of the values at every power of two and at
//! the end. The values follow from these: with every rare heap below n listed, the speculative
//! pass's candidate at each heap is its value (a heap the table does not list has a common value,
//! the least common value that is not an option). Replaying them is the engines' work
//! (`solver::replay`), which checks them against every stored fnv1a64.
//!
//! The file: the line `OCTALCKP 1`, a line of JSON ([`SnapshotHeader`]), then little-endian
//! binary: the `exact` first values (u16 each) and the `rare` entries (heap u64, value u16), in
//! heap order. The header's `data_fnv1a64` covers the binary part.

use octal_core::fnv::Fnv1a64;
use octal_core::stats::Summary;
use octal_core::{Code, RareTable, SparseSpace};
use serde::{Deserialize, Serialize};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;

/// The first line of a snapshot.
const MAGIC: &str = "OCTALCKP 1";

/// Heaps a snapshot stores exactly (or all, for shorter runs): the replay starts
/// after them.
pub const EXACT_HEAPS: usize = 1 << 15;

use crate::file::{hex, FileError};

/// The fnv1a64 of the values of heaps `0 .. n`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fingerprint {
    pub n: usize,
    pub fnv1a64: String,
}

/// The JSON line of a snapshot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SnapshotHeader {
    /// The canonical code.
    pub code: String,
    /// Heaps of the run.
    pub n: usize,
    /// "range" or "domain", the mask, and the domain type's digit index.
    pub sparse: String,
    pub mask: u16,
    pub domain_k: usize,
    /// The largest value (the replay's key width).
    pub max_value: u16,
    /// First values stored exactly, and rare entries stored.
    pub exact: usize,
    pub rare: usize,
    /// The fingerprints: at every power of two from 2^10 up to n, and at n.
    pub powers_of_two: Vec<Fingerprint>,
    pub fnv1a64: String,
    /// The fnv1a64 of the binary part.
    pub data_fnv1a64: String,
}

impl SnapshotHeader {
    /// The sparse space recorded.
    pub fn space(&self) -> Option<SparseSpace> {
        crate::rundir::recorded_space(&self.sparse, self.mask, self.domain_k)
    }
}

/// A snapshot read back: its header, first values and rare table.
pub struct Snapshot {
    pub header: SnapshotHeader,
    pub first: Vec<u16>,
    pub table: RareTable,
}

/// The binary part: the first values, then the rare entries.
fn data(first: &[u16], table: &RareTable) -> Vec<u8> {
    let mut out = Vec::with_capacity(2 * first.len() + 10 * table.len());
    for v in first {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for &(h, v) in table.entries() {
        out.extend_from_slice(&(h as u64).to_le_bytes());
        out.extend_from_slice(&v.to_le_bytes());
    }
    out
}

impl Snapshot {
    /// The snapshot of the values `g` of `code` under `space`.
    pub fn of(code: &Code, space: SparseSpace, g: &[u16]) -> Snapshot {
        let summary = Summary::of(g, Some(&space));
        let first = g[..g.len().min(EXACT_HEAPS)].to_vec();
        let table = RareTable::from_values(&space, g);
        let (sparse, mask, domain_k) = crate::rundir::space_fields(Some(space));
        let header = SnapshotHeader {
            code: code.to_string(),
            n: g.len(),
            sparse: sparse.to_string(),
            mask,
            domain_k,
            max_value: summary.max_value,
            exact: first.len(),
            rare: table.len(),
            powers_of_two: summary
                .powers
                .iter()
                .map(|p| Fingerprint {
                    n: p.n,
                    fnv1a64: hex(p.fnv1a64),
                })
                .collect(),
            fnv1a64: hex(summary.fnv1a64),
            data_fnv1a64: String::new(),
        };
        Snapshot {
            header,
            first,
            table,
        }
    }

    /// Writes the snapshot to `path` (replaced atomically), its header's counts and data
    /// fingerprint made those of its first values and table.
    pub fn save(&mut self, path: &Path) -> Result<(), FileError> {
        let io = |source| FileError::Io {
            file: path.to_path_buf(),
            source,
        };
        let bytes = data(&self.first, &self.table);
        let mut fnv = Fnv1a64::new();
        fnv.write(&bytes);
        let h = &mut self.header;
        (h.exact, h.rare, h.data_fnv1a64) = (self.first.len(), self.table.len(), hex(fnv.finish()));
        let line = serde_json::to_string(h).expect("a header serialises");
        let beside = path.with_extension("partial");
        let mut f = std::fs::File::create(&beside).map_err(io)?;
        f.write_all(format!("{MAGIC}\n{line}\n").as_bytes())
            .and_then(|()| f.write_all(&bytes))
            .and_then(|()| f.sync_all())
            .map_err(io)?;
        std::fs::rename(&beside, path).map_err(io)
    }
}

/// Writes the snapshot of the values `g` of `code` under `space` to `path` (replaced
/// atomically); returns its header.
pub fn write(
    path: &Path,
    code: &Code,
    space: SparseSpace,
    g: &[u16],
) -> Result<SnapshotHeader, FileError> {
    let mut snapshot = Snapshot::of(code, space, g);
    snapshot.save(path)?;
    Ok(snapshot.header)
}

/// Reads a snapshot, checking its form and the fingerprint of its data.
pub fn read(path: &Path) -> Result<Snapshot, FileError> {
    let bad = |what: &str| FileError::Corrupt {
        file: path.to_path_buf(),
        what: what.to_string(),
    };
    let file = std::fs::File::open(path).map_err(|source| FileError::Io {
        file: path.to_path_buf(),
        source,
    })?;
    let mut r = BufReader::new(file);
    let mut line = String::new();
    let mut next_line = |r: &mut BufReader<std::fs::File>| -> Result<String, FileError> {
        line.clear();
        r.read_line(&mut line)
            .map_err(|_| bad("not a snapshot (unreadable text)"))?;
        Ok(line.trim_end().to_string())
    };
    if next_line(&mut r)? != MAGIC {
        return Err(bad("not a snapshot (no OCTALCKP 1 line)"));
    }
    let header: SnapshotHeader =
        serde_json::from_str(&next_line(&mut r)?).map_err(|e| bad(&format!("bad header: {e}")))?;
    let mut bytes = Vec::new();
    r.read_to_end(&mut bytes).map_err(|source| FileError::Io {
        file: path.to_path_buf(),
        source,
    })?;
    if header.space().is_none() || header.code.parse::<Code>().is_err() {
        return Err(bad("bad header: code or sparse space"));
    }
    if bytes.len() != 2 * header.exact + 10 * header.rare
        || header.exact > header.n
        || header.exact < header.n.min(EXACT_HEAPS)
    {
        return Err(bad("truncated or of the wrong length"));
    }
    let mut fnv = Fnv1a64::new();
    fnv.write(&bytes);
    if hex(fnv.finish()) != header.data_fnv1a64 {
        return Err(bad("damaged: the data's fnv1a64 differs from the header's"));
    }
    let (first, rest) = bytes.split_at(2 * header.exact);
    let first = first
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .collect();
    let mut entries = Vec::with_capacity(header.rare);
    for e in rest.chunks_exact(10) {
        let h = u64::from_le_bytes(e[..8].try_into().expect("8 bytes")) as usize;
        if h >= header.n || entries.last().is_some_and(|&(p, _)| p >= h) {
            return Err(bad("rare heaps out of order or past n"));
        }
        entries.push((h, u16::from_le_bytes([e[8], e[9]])));
    }
    Ok(Snapshot {
        header,
        first,
        table: RareTable::from_entries(entries),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use octal_core::{discover, exact};
    use std::path::PathBuf;

    fn tmp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("octal-snapshot-{}-{name}", std::process::id()))
    }

    /// A snapshot reads back as written (the first values, the rare table under its space, the
    /// fingerprints of the values); a flipped byte is refused as bad input before anything is
    /// read from it.
    #[test]
    fn a_snapshot_reads_back_and_a_flipped_byte_is_refused() {
        let code: Code = ".14".parse().unwrap();
        let rules = code.rules();
        let g = exact::values(&rules, 70_000).unwrap();
        let space = discover::discover(&rules, &g[..40_000]).unwrap();
        let path = tmp("good");
        let header = write(&path, &code, space, &g).unwrap();
        assert_eq!(header.exact, EXACT_HEAPS);
        assert_eq!(header.fnv1a64, hex(octal_core::fnv::fnv1a64_values(&g)));
        let size = std::fs::metadata(&path).unwrap().len() as usize;
        assert!(
            size < 2 * EXACT_HEAPS + 10 * header.rare + 4096,
            "{size} bytes"
        );
        let s = read(&path).unwrap();
        assert_eq!(s.header, header);
        assert_eq!(s.first, g[..EXACT_HEAPS]);
        assert_eq!(s.table, RareTable::from_values(&space, &g));
        let mut damaged = std::fs::read(&path).unwrap();
        let last = damaged.len() - 1;
        damaged[last] ^= 1;
        let bad_path = tmp("damaged");
        std::fs::write(&bad_path, damaged).unwrap();
        assert!(matches!(read(&bad_path), Err(e) if e.is_bad_input()));
        std::fs::remove_file(&path).unwrap();
        std::fs::remove_file(&bad_path).unwrap();
    }
}

//! A run's bounded state: everything a run that holds only its first and last heaps needs to go
//! on, in one file. A run directory keeps it as `state.bin` once its values pass `--keep`, and
//! `octal checkpoint` writes it (compact: see below) to carry a run to another machine, where
//! `octal resume` goes on from it.
//!
//! The file: the line `OCTALSTATE 1`, a line of JSON ([`StateHeader`]: the code, the target, the
//! heaps computed, the space and its history, the statistics so far, the sizes of what follows
//! and the fnv1a64 of it), then little-endian binary: the front (the values of heaps
//! `0..front`, u16 each), the tail (heaps `tail_from..heaps`, u16 each) and the rare table under
//! the space (heap u64, value u16), in heap order. It is replaced atomically (written beside,
//! synced, renamed).
//!
//! A compact state (`octal checkpoint`, a campaign's checkpoints) holds only the start of each:
//! the header's [`Stored`] says how many heaps of the front and of the tail the file has, and the
//! rest follows from them and the rare table (the front by a run from heap 0, the tail by the
//! speculative pass from the heaps before it). Its `data_fnv1a64` is still that of the whole
//! binary part, so that what is computed again is checked byte for byte ([`State::fill`]).

use crate::file::{hex, FileError};
use octal_core::fnv::Fnv1a64;
use octal_core::stats::Summarizer;
use octal_core::{Code, RareTable, SparseSpace};
use serde::{Deserialize, Serialize};
use std::io::{BufRead, BufReader, Read, Write};
use std::ops::Range;
use std::path::Path;

/// The first line of a state file.
const MAGIC: &str = "OCTALSTATE 1";

/// The format version a state file's header repeats.
pub const STATE_FORMAT: u32 = 1;

/// A change of space during the run: the first heap computed under `space`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpaceAt {
    pub heap: usize,
    pub space: Option<SparseSpace>,
}

/// The JSON line of a state file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StateHeader {
    pub format: u32,
    /// The canonical code.
    pub code: String,
    /// Heaps the run is to compute.
    pub n: usize,
    /// Heaps computed (and proved): the state is the run's at this heap.
    pub heaps: usize,
    /// The engine asked for ("auto", "gpu", ...).
    pub engine: String,
    /// Heaps whose values the run kept (in its run directory's `values.bin`) before it held only
    /// its front and tail.
    pub keep: usize,
    /// The space of the run now, and every change of space from heap 0.
    pub space: SparseSpace,
    pub spaces: Vec<SpaceAt>,
    /// The heaps of the front, the least tail the run keeps, and the first heap of the tail held.
    pub front: usize,
    pub tail: usize,
    pub tail_from: usize,
    /// Entries of the rare table.
    pub rare: usize,
    /// Seconds of computation and table corrections so far, over every process of the run.
    pub elapsed: f64,
    pub corrections: usize,
    /// Whether the run reached its target.
    pub finished: bool,
    /// The statistics of heaps `0..heaps` (at every power of two, and where the run is).
    pub summarizer: Summarizer,
    /// The fnv1a64 of the binary part (of a compact state: the whole one it stands for).
    pub data_fnv1a64: String,
    /// Of a compact state: what the file holds of the front and tail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stored: Option<Stored>,
}

/// What a compact state holds: the first `front` heaps of the front, the first `tail` heaps of
/// the tail (from `tail_from`), and the fnv1a64 of these bytes and the rare table's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stored {
    pub front: usize,
    pub tail: usize,
    pub fnv1a64: String,
}

/// A state: its header, front, tail and rare table (of a compact state as read, the start of the
/// front and of the tail: see [`State::lacks`]).
#[derive(Debug, Clone, PartialEq)]
pub struct State {
    pub header: StateHeader,
    pub front: Vec<u16>,
    pub tail: Vec<u16>,
    pub table: RareTable,
}

/// The binary part: the front, the tail, the rare entries.
fn data(front: &[u16], tail: &[u16], table: &RareTable) -> Vec<u8> {
    let mut out = Vec::with_capacity(2 * (front.len() + tail.len()) + 10 * table.len());
    for v in front.iter().chain(tail) {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for &(h, v) in table.entries() {
        out.extend_from_slice(&(h as u64).to_le_bytes());
        out.extend_from_slice(&v.to_le_bytes());
    }
    out
}

fn fnv_hex(bytes: &[u8]) -> String {
    let mut fnv = Fnv1a64::new();
    fnv.write(bytes);
    hex(fnv.finish())
}

fn u16s(bytes: &[u8]) -> Vec<u16> {
    bytes
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .collect()
}

impl State {
    /// Writes the state to `path`, replaced atomically, its header's sizes and data fingerprint
    /// made those of what it holds.
    pub fn save(&mut self, path: &Path) -> Result<(), FileError> {
        self.save_compact(path, usize::MAX, usize::MAX)
    }

    /// Writes the state to `path` as [`State::save`] does, but only the first `front` heaps of
    /// its front and the first `tail` heaps of its tail where that is less than it holds (a
    /// compact state: [`State::fill`] takes the rest, computed again).
    pub fn save_compact(
        &mut self,
        path: &Path,
        front: usize,
        tail: usize,
    ) -> Result<(), FileError> {
        if self.lacks().is_some() {
            return Err(FileError::corrupt(
                path,
                "a compact state is written only once the heaps it lacks are filled",
            ));
        }
        let whole = data(&self.front, &self.tail, &self.table);
        let h = &mut self.header;
        (h.front, h.rare, h.data_fnv1a64) = (self.front.len(), self.table.len(), fnv_hex(&whole));
        h.tail_from = h.heaps - self.tail.len();
        let (front, tail) = (front.min(self.front.len()), tail.min(self.tail.len()));
        let compact = (front, tail) != (self.front.len(), self.tail.len());
        let bytes = if compact {
            let bytes = data(&self.front[..front], &self.tail[..tail], &self.table);
            h.stored = Some(Stored {
                front,
                tail,
                fnv1a64: fnv_hex(&bytes),
            });
            bytes
        } else {
            h.stored = None;
            whole
        };
        let line = serde_json::to_string(h).expect("a state header serialises");
        let beside = path.with_extension("partial");
        let io = FileError::io(&beside);
        let mut f = std::fs::File::create(&beside).map_err(FileError::io(&beside))?;
        f.write_all(format!("{MAGIC}\n{line}\n").as_bytes())
            .and_then(|()| f.write_all(&bytes))
            .and_then(|()| f.sync_all())
            .map_err(io)?;
        std::fs::rename(&beside, path).map_err(FileError::io(path))?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            if let Ok(d) = std::fs::File::open(dir) {
                let _ = d.sync_all();
            }
        }
        Ok(())
    }

    /// What a compact state as read lacks: the heaps of its front and of its tail that are to be
    /// computed again, `(front.len()..header.front, tail_from + tail.len()..heaps)`; none for a
    /// whole state.
    pub fn lacks(&self) -> Option<(Range<usize>, Range<usize>)> {
        let h = &self.header;
        h.stored.as_ref().map(|_| {
            (
                self.front.len()..h.front,
                h.tail_from + self.tail.len()..h.heaps,
            )
        })
    }

    /// Completes a compact state with its whole `front` and `tail`, the heaps it lacks
    /// ([`State::lacks`]) computed again: refused unless they begin with the heaps it holds and
    /// the whole state has the data fingerprint it was written with (`path` names the file in the
    /// error).
    pub fn fill(&mut self, path: &Path, front: Vec<u16>, tail: Vec<u16>) -> Result<(), FileError> {
        let Some((f, t)) = self.lacks() else {
            return Ok(());
        };
        if front.len() != f.end
            || tail.len() != t.end - self.header.tail_from
            || !front.starts_with(&self.front)
            || !tail.starts_with(&self.tail)
        {
            return Err(FileError::corrupt(
                path,
                "the values computed again do not begin with the ones it holds",
            ));
        }
        let got = fnv_hex(&data(&front, &tail, &self.table));
        if got != self.header.data_fnv1a64 {
            return Err(FileError::corrupt(
                path,
                format!(
                    "the values computed again for its heaps {}..{} and {}..{} differ from the run's (fnv1a64 {got}, the run's {})",
                    f.start, f.end, t.start, t.end, self.header.data_fnv1a64
                ),
            ));
        }
        (self.front, self.tail, self.header.stored) = (front, tail, None);
        Ok(())
    }

    /// Bytes the state takes on disk, about.
    pub fn bytes(&self) -> usize {
        2 * (self.front.len() + self.tail.len()) + 10 * self.table.len() + 4096
    }
}

/// Whether `path` starts as a state file does (the first bytes are read).
pub fn is_state(path: &Path) -> bool {
    let mut head = [0u8; MAGIC.len()];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|()| head == *MAGIC.as_bytes())
}

/// Reads a state, checking its form, its version and the fingerprint of its data.
pub fn read(path: &Path) -> Result<State, FileError> {
    let bad = |what: &str| FileError::corrupt(path, what);
    let file = std::fs::File::open(path).map_err(FileError::io(path))?;
    let mut r = BufReader::new(file);
    let mut line = String::new();
    r.read_line(&mut line)
        .map_err(|_| bad("not a state file (unreadable text)"))?;
    match line.trim_end() {
        MAGIC => {}
        l if l.starts_with("OCTALSTATE ") => {
            return Err(bad(&format!("{l}: a version this octal does not read")))
        }
        _ => return Err(bad("not a state file (no OCTALSTATE 1 line)")),
    }
    line.clear();
    r.read_line(&mut line)
        .map_err(|_| bad("not a state file (unreadable header)"))?;
    let header: StateHeader =
        serde_json::from_str(line.trim_end()).map_err(|e| bad(&format!("bad header: {e}")))?;
    let mut bytes = Vec::new();
    r.read_to_end(&mut bytes).map_err(FileError::io(path))?;
    if header.format != STATE_FORMAT {
        return Err(bad(&format!(
            "format {} is not {STATE_FORMAT}",
            header.format
        )));
    }
    if header.code.parse::<Code>().is_err() {
        return Err(bad("bad header: the code"));
    }
    let tail = header.heaps.checked_sub(header.tail_from);
    let consistent = tail.is_some()
        && header.front <= header.heaps
        && header.summarizer.fed() == header.heaps
        && header.summarizer.space() == Some(header.space);
    let Some(tail) = tail.filter(|_| consistent) else {
        return Err(bad("inconsistent header"));
    };
    let (front, tail, fnv) = match &header.stored {
        Some(s) if s.front <= header.front && s.tail <= tail => (s.front, s.tail, &s.fnv1a64),
        Some(_) => return Err(bad("inconsistent header")),
        None => (header.front, tail, &header.data_fnv1a64),
    };
    if bytes.len() != 2 * (front + tail) + 10 * header.rare {
        return Err(bad("truncated or of the wrong length"));
    }
    if fnv_hex(&bytes) != *fnv {
        return Err(bad("damaged: the data's fnv1a64 differs from the header's"));
    }
    let (front, rest) = bytes.split_at(2 * front);
    let (tail, rest) = rest.split_at(2 * tail);
    let mut entries = Vec::with_capacity(header.rare);
    for e in rest.chunks_exact(10) {
        let h = u64::from_le_bytes(e[..8].try_into().expect("8 bytes")) as usize;
        if h >= header.heaps || entries.last().is_some_and(|&(p, _)| p >= h) {
            return Err(bad("rare heaps out of order or past the heaps computed"));
        }
        entries.push((h, u16::from_le_bytes([e[8], e[9]])));
    }
    Ok(State {
        front: u16s(front),
        tail: u16s(tail),
        table: RareTable::from_entries(entries),
        header,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use octal_core::{discover, exact};

    /// A state reads back as written; a flipped byte, a cut file, another version and a file
    /// that is no state are refused as bad input.
    #[test]
    fn a_state_reads_back_and_damage_is_refused() {
        let code: Code = ".161".parse().unwrap();
        let rules = code.rules();
        let g = exact::values(&rules, 20_000).unwrap();
        let space = discover::discover(&rules, &g).unwrap();
        let mut summarizer = Summarizer::new(Some(space));
        summarizer.feed(&g);
        let dir = std::env::temp_dir().join(format!("octal-state-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("good.state");
        let mut state = State {
            header: StateHeader {
                format: STATE_FORMAT,
                code: code.to_string(),
                n: 1 << 20,
                heaps: g.len(),
                engine: "auto".into(),
                keep: 4096,
                space,
                spaces: vec![SpaceAt {
                    heap: 0,
                    space: Some(space),
                }],
                front: 0,
                tail: 4096,
                tail_from: 0,
                rare: 0,
                elapsed: 1.5,
                corrections: 0,
                finished: false,
                summarizer,
                data_fnv1a64: String::new(),
                stored: None,
            },
            front: g[..1000].to_vec(),
            tail: g[g.len() - 5000..].to_vec(),
            table: RareTable::from_values(&space, &g),
        };
        state.save(&path).unwrap();
        assert!(is_state(&path));
        let back = read(&path).unwrap();
        assert_eq!(back, state);
        assert_eq!(back.header.tail_from, g.len() - 5000);
        let bytes = std::fs::read(&path).unwrap();
        let refused = |name: &str, bytes: &[u8]| {
            let p = dir.join(name);
            std::fs::write(&p, bytes).unwrap();
            let e = read(&p).unwrap_err();
            assert!(e.is_bad_input(), "{name}: {e}");
            e.to_string()
        };
        let mut flipped = bytes.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert!(refused("flipped", &flipped).contains("damaged"));
        assert!(refused("cut", &bytes[..bytes.len() - 7]).contains("wrong length"));
        let mut other = bytes.clone();
        other[11] = b'2';
        assert!(refused("version", &other).contains("version"));
        assert!(refused("text", b"hello\n").contains("not a state file"));
        // Compact: the start of the front and of the tail; filled with the whole front and tail
        // again, it is the state again, and other values are refused.
        let compact = dir.join("compact.state");
        state.save_compact(&compact, 100, 300).unwrap();
        let mut part = read(&compact).unwrap();
        assert_eq!(part.lacks(), Some((100..1000, g.len() - 4700..g.len())));
        let tail = g[g.len() - 5000..].to_vec();
        let mut wrong = tail.clone();
        wrong[317] ^= 1;
        let e = part
            .clone()
            .fill(&compact, g[..1000].to_vec(), wrong)
            .unwrap_err();
        assert!(e.to_string().contains("differ from the run's"), "{e}");
        part.fill(&compact, g[..1000].to_vec(), tail).unwrap();
        assert_eq!(part, back);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

//! Export of computed Grundy values in formats other programs read: OEIS b-files, CSV for
//! spreadsheets and data-frame libraries, raw little-endian `u16` for programs that map the
//! values straight into memory, and the histogram of the values as long computations publish it.

use std::fmt;
use std::io::{self, BufWriter, Write};
use std::str::FromStr;

/// A file format for a run of Grundy values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// OEIS b-file: one line `n G(n)` per heap.
    Bfile,
    /// Raw values: one little-endian `u16` per heap, heap `from` first, no header.
    Bin,
    /// CSV with the header `n,g`, then one line `n,G(n)` per heap.
    Csv,
    /// The histogram of the values: one line `value count` for every value taken, in order.
    Frequencies,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 4] = [Format::Bfile, Format::Bin, Format::Csv, Format::Frequencies];

    /// The name used on the command line and by [`FromStr`]: `bfile`, `bin` or `csv`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Bfile => "bfile",
            Format::Bin => "bin",
            Format::Csv => "csv",
            Format::Frequencies => "frequencies",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A format name that is not `bfile`, `bin` or `csv`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown value format {0:?} (expected bfile, bin, csv or frequencies)")]
pub struct UnknownFormat(pub String);

impl FromStr for Format {
    type Err = UnknownFormat;

    /// Parses `bfile`, `bin`, `csv` or `frequencies`, ignoring ASCII case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Format::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownFormat(s.to_string()))
    }
}

/// Writes values of heaps `from .. from + values.len()` (values[k] is G(from + k)).
///
/// - [`Format::Bfile`]: lines `n G(n)`, one space, each ending in `\n`.
/// - [`Format::Csv`]: the header line `n,g`, then lines `n,G(n)`, each ending in `\n`.
/// - [`Format::Bin`]: raw values, two bytes each, little-endian, heap `from` first, with no
///   header: the heap numbers are implicit, so the reader must know `from`.
///
/// The writer is buffered internally and flushed before returning.
pub fn write(w: impl Write, format: Format, from: usize, values: &[u16]) -> io::Result<()> {
    let mut w = BufWriter::new(w);
    match format {
        Format::Bfile => {
            for (n, g) in (from..).zip(values) {
                writeln!(w, "{n} {g}")?;
            }
        }
        Format::Csv => {
            writeln!(w, "n,g")?;
            for (n, g) in (from..).zip(values) {
                writeln!(w, "{n},{g}")?;
            }
        }
        Format::Bin => {
            for g in values {
                w.write_all(&g.to_le_bytes())?;
            }
        }
        Format::Frequencies => {
            let mut counts = vec![0u64; 1 << 16];
            for &g in values {
                counts[usize::from(g)] += 1;
            }
            let taken: Vec<(u16, u64)> = (0..=u16::MAX).zip(counts).filter(|e| e.1 > 0).collect();
            return write_histogram(w, &taken);
        }
    }
    w.flush()
}

/// Writes a histogram of values (`(value, count)` pairs, in order) as `value count` lines.
pub fn write_histogram(w: impl Write, histogram: &[(u16, u64)]) -> io::Result<()> {
    let mut w = BufWriter::new(w);
    for (v, c) in histogram {
        writeln!(w, "{v} {c}")?;
    }
    w.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(format: Format, from: usize, values: &[u16]) -> Vec<u8> {
        let mut out = Vec::new();
        write(&mut out, format, from, values).expect("writing to a Vec cannot fail");
        out
    }

    #[test]
    fn bfile_lines() {
        assert_eq!(
            bytes(Format::Bfile, 0, &[0, 0, 1, 2]),
            b"0 0\n1 0\n2 1\n3 2\n"
        );
        assert_eq!(bytes(Format::Bfile, 98, &[7, 300]), b"98 7\n99 300\n");
        assert_eq!(bytes(Format::Bfile, 5, &[]), b"");
    }

    #[test]
    fn csv_header_and_lines() {
        assert_eq!(bytes(Format::Csv, 0, &[0, 0, 1]), b"n,g\n0,0\n1,0\n2,1\n");
        assert_eq!(bytes(Format::Csv, 10, &[65535]), b"n,g\n10,65535\n");
        assert_eq!(bytes(Format::Csv, 3, &[]), b"n,g\n");
    }

    #[test]
    fn frequencies_count_each_value_taken() {
        assert_eq!(
            String::from_utf8(bytes(Format::Frequencies, 5, &[0, 1, 1, 300, 1])).unwrap(),
            "0 1\n1 3\n300 1\n"
        );
    }

    #[test]
    fn bin_is_raw_little_endian() {
        assert_eq!(
            bytes(Format::Bin, 1000, &[0, 1, 0x0102, 0xffff]),
            [0, 0, 1, 0, 2, 1, 0xff, 0xff]
        );
        assert_eq!(bytes(Format::Bin, 0, &[]), b"");
    }

    #[test]
    fn names_round_trip() {
        for f in Format::ALL {
            assert_eq!(f.name().parse::<Format>(), Ok(f));
            assert_eq!(f.to_string().to_uppercase().parse::<Format>(), Ok(f));
        }
        let err = "json".parse::<Format>().unwrap_err();
        assert_eq!(err, UnknownFormat("json".to_string()));
        assert!(err.to_string().contains("\"json\""));
    }
}

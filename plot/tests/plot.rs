//! Plots of a small synthetic run and of Officers' first 20 000 values: the PNGs decode at the
//! expected size with many colours (text, bars, points) including the common and rare colours,
//! the SVGs carry the title and axis labels, and the same input gives the same bytes.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use octal_core::{exact, Code};
use octal_plot::{plot, Kind, PlotSpec};

const COMMON: [u8; 3] = [31, 119, 180];
const RARE: [u8; 3] = [214, 39, 40];

fn out(name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(name)
}

/// Officers, with its rare values: those with an even number of bits set in `v & 0x1ee`.
fn officers() -> Vec<u16> {
    exact::values(&".6".parse::<Code>().unwrap().rules(), 20_000).unwrap()
}

fn officers_rare(_n: usize, g: u16) -> bool {
    (g & 0x1ee).count_ones().is_multiple_of(2)
}

/// A synthetic run from heap 100: values cycle through 0..8 with value 11 at heaps 150 and
/// 170, the only rare heaps.
fn synthetic() -> Vec<u16> {
    (100..300)
        .map(|n| match n {
            150 | 170 => 11,
            _ => (n % 8) as u16,
        })
        .collect()
}

fn synthetic_rare(n: usize, _g: u16) -> bool {
    n == 150 || n == 170
}

/// Decodes a PNG and returns its distinct RGB colours, checking it is 1200x800 RGB.
fn png_colours(path: &Path) -> HashSet<[u8; 3]> {
    let file = std::fs::File::open(path).unwrap();
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (1200, 800), "{}", path.display());
    assert_eq!(info.color_type, png::ColorType::Rgb);
    buf[..info.buffer_size()]
        .chunks_exact(3)
        .map(|p| [p[0], p[1], p[2]])
        .collect()
}

/// Plots `spec` to PNG and SVG, checks both, and returns the SVG text.
fn check(spec: &PlotSpec, name: &str, title: &str, axes: [&str; 2]) -> String {
    let png_path = out(&format!("{name}.png"));
    plot(spec, &png_path).unwrap();
    let colours = png_colours(&png_path);
    assert!(colours.len() > 50, "{name}: only {} colours", colours.len());
    for (colour, what) in [(COMMON, "common"), (RARE, "rare")] {
        assert!(colours.contains(&colour), "{name}: no {what} colour");
    }
    // Same input, same bytes.
    let again = out(&format!("{name}-again.PNG"));
    plot(spec, &again).unwrap();
    assert_eq!(
        std::fs::read(&png_path).unwrap(),
        std::fs::read(&again).unwrap()
    );

    let svg_path = out(&format!("{name}.Svg"));
    plot(spec, &svg_path).unwrap();
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    assert!(svg.starts_with("<svg"), "{name}: not an SVG");
    for text in [title, axes[0], axes[1], "common", "rare"] {
        assert!(svg.contains(text), "{name}: SVG lacks {text:?}");
    }
    svg
}

#[test]
fn synthetic_histogram() {
    let values = synthetic();
    let spec = PlotSpec {
        code: "0.6",
        from: 100,
        values: &values,
        is_rare: &synthetic_rare,
        kind: Kind::Histogram,
    };
    let svg = check(
        &spec,
        "synthetic-histogram",
        "octal game 0.6: values of heaps 100 .. 299",
        ["Grundy value", "heaps (log scale)"],
    );
    assert!(svg.contains("common: 8 values, 198 heaps"));
    assert!(svg.contains("rare: 1 value, 2 heaps"));
}

#[test]
fn synthetic_scatter() {
    let values = synthetic();
    let spec = PlotSpec {
        code: "0.6",
        from: 100,
        values: &values,
        is_rare: &synthetic_rare,
        kind: Kind::Scatter,
    };
    let svg = check(
        &spec,
        "synthetic-scatter",
        "octal game 0.6: G(n) for n = 100 .. 299",
        ["n", "G(n)"],
    );
    assert!(!svg.contains("subsampled"));
}

#[test]
fn officers_histogram() {
    let values = officers();
    let spec = PlotSpec {
        code: "0.6",
        from: 0,
        values: &values,
        is_rare: &officers_rare,
        kind: Kind::Histogram,
    };
    check(
        &spec,
        "officers-histogram",
        "octal game 0.6: values of heaps 0 .. 19999",
        ["Grundy value", "heaps (log scale)"],
    );
}

#[test]
fn officers_scatter() {
    let values = officers();
    let spec = PlotSpec {
        code: "0.6",
        from: 0,
        values: &values,
        is_rare: &officers_rare,
        kind: Kind::Scatter,
    };
    let svg = check(
        &spec,
        "officers-scatter",
        "octal game 0.6: G(n) for n = 0 .. 19999",
        ["n", "G(n)"],
    );
    // 20 000 heaps fit both PNG and SVG whole: a circle per heap, one per legend entry.
    assert!(!svg.contains("subsampled"));
    assert_eq!(svg.matches("<circle").count(), 20_002);
}

/// 60 000 heaps: the SVG (at most 20 000 points) draws 1 common heap in 3 and every rare heap.
#[test]
fn large_scatter_is_subsampled() {
    let values: Vec<u16> = (0..60_000).map(|n| (n % 100) as u16).collect();
    // Three rare heaps, none a multiple of 3 (those are drawn anyway, as rare ones).
    let rare = |n: usize, _: u16| matches!(n, 1 | 30_001 | 50_002);
    let spec = PlotSpec {
        code: "0.6",
        from: 0,
        values: &values,
        is_rare: &rare,
        kind: Kind::Scatter,
    };
    let svg = check(
        &spec,
        "large-scatter",
        "octal game 0.6: G(n) for n = 0 .. 59999",
        ["n", "G(n)"],
    );
    let note = "subsampled: 1 in 3 of the 60000 heaps drawn (common ones); all 3 rare heaps drawn";
    assert!(svg.contains(note));
    assert_eq!(svg.matches("<circle").count(), 20_000 + 3 + 2);
}

#[test]
fn empty_run_is_an_error() {
    let never = |_: usize, _: u16| false;
    let spec = PlotSpec {
        code: "0.6",
        from: 0,
        values: &[],
        is_rare: &never,
        kind: Kind::Scatter,
    };
    let err = plot(&spec, &out("empty.png")).unwrap_err();
    assert_eq!(err.to_string(), "no values to plot");
}

//! `octal-plot`: plots of a run of Grundy values, readable at a glance: a histogram of how many heaps take
//! each value (the shape of Grossman 2019, Figure 10) and a scatter plot of G(n) against n.
//! Heaps whose values are sparse ("rare", in the sense of the rare table) are drawn in their
//! own colour, so the few rare values stand out from the common ones.
//!
//! Plots are PNG or SVG files, chosen by the extension of the path. Text is drawn with DejaVu
//! Sans, embedded in the binary (`plot/assets/`), so PNGs have text on machines without any
//! system fonts; SVGs name the generic `sans-serif` family and leave the font to the viewer.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::{register_font, FontStyle};

/// What to draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Number of heaps (log scale) against Grundy value.
    Histogram,
    /// G(n) against n, one point per heap (evenly subsampled over large ranges).
    Scatter,
}

impl Kind {
    /// Every kind.
    pub const ALL: [Kind; 2] = [Kind::Histogram, Kind::Scatter];

    /// The name `--kind` takes.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Histogram => "histogram",
            Kind::Scatter => "scatter",
        }
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A plot kind that is not `histogram` or `scatter`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown plot kind {0:?} (expected histogram or scatter)")]
pub struct UnknownKind(pub String);

impl std::str::FromStr for Kind {
    type Err = UnknownKind;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Kind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| UnknownKind(s.to_string()))
    }
}

/// A run of values and how to plot it.
pub struct PlotSpec<'a> {
    /// The game's canonical code, such as `0.6`: it goes in the title.
    pub code: &'a str,
    /// The first heap: `values[k]` is G(from + k).
    pub from: usize,
    /// The values of heaps `from .. from + values.len()`.
    pub values: &'a [u16],
    /// Whether heap `n` with value `g` is sparse (rare): such heaps get their own colour.
    pub is_rare: &'a dyn Fn(usize, u16) -> bool,
    /// Histogram or scatter plot.
    pub kind: Kind,
}

/// Why a plot could not be written.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    #[error("cannot plot to {}: unsupported extension {extension:?} (use .png or .svg)", .path.display())]
    UnsupportedExtension { path: PathBuf, extension: String },
    #[error("no values to plot")]
    Empty,
    /// The cause is the source, not part of the message.
    #[error("cannot write {}", .path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("the embedded font could not be loaded")]
    Font,
    #[error("drawing the plot failed: {0}")]
    Drawing(String),
    #[error("encoding the PNG failed: {0}")]
    Png(#[from] png::EncodingError),
}

/// Image size in pixels (SVG user units).
const SIZE: (u32, u32) = (1200, 800);
/// Scatter plots draw at most this many common heaps (and as many rare ones) into a PNG.
const MAX_POINTS_PNG: usize = 200_000;
/// SVGs hold one element per point: fewer keep the file small enough for a browser.
const MAX_POINTS_SVG: usize = 20_000;

const FONT: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");
const COMMON: RGBColor = RGBColor(31, 119, 180);
const RARE: RGBColor = RGBColor(214, 39, 40);

/// Writes a PNG or SVG (by the extension of `path`, case-insensitive); anything else is an
/// error naming the extension.
pub fn plot(spec: &PlotSpec, path: &Path) -> Result<(), PlotError> {
    let extension = path
        .extension()
        .map(|e| e.to_string_lossy().into_owned())
        .unwrap_or_default();
    let svg = match extension.to_ascii_lowercase().as_str() {
        "png" => false,
        "svg" => true,
        _ => {
            return Err(PlotError::UnsupportedExtension {
                path: path.to_path_buf(),
                extension,
            })
        }
    };
    if spec.values.is_empty() {
        return Err(PlotError::Empty);
    }
    register_embedded_font()?;
    let bytes = if svg {
        let mut text = String::new();
        {
            let root = SVGBackend::with_string(&mut text, SIZE).into_drawing_area();
            draw(&root, spec, MAX_POINTS_SVG)?;
            root.present().map_err(drawing)?;
        }
        text.into_bytes()
    } else {
        let (w, h) = SIZE;
        let mut rgb = vec![0u8; w as usize * h as usize * 3];
        {
            let root = BitMapBackend::with_buffer(&mut rgb, SIZE).into_drawing_area();
            draw(&root, spec, MAX_POINTS_PNG)?;
            root.present().map_err(drawing)?;
        }
        encode_png(&rgb)?
    };
    std::fs::write(path, bytes).map_err(|source| PlotError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Registers DejaVu Sans as plotters' `sans-serif` family, once per process.
fn register_embedded_font() -> Result<(), PlotError> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok =
        *REGISTERED.get_or_init(|| register_font("sans-serif", FontStyle::Normal, FONT).is_ok());
    if ok {
        Ok(())
    } else {
        Err(PlotError::Font)
    }
}

/// Encodes an RGB buffer of [`SIZE`] as an 8-bit RGB PNG.
fn encode_png(rgb: &[u8]) -> Result<Vec<u8>, PlotError> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, SIZE.0, SIZE.1);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::High);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(rgb)?;
    writer.finish()?;
    Ok(out)
}

fn drawing<E: std::error::Error + Send + Sync>(e: DrawingAreaErrorKind<E>) -> PlotError {
    PlotError::Drawing(e.to_string())
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    spec: &PlotSpec,
    max_points: usize,
) -> Result<(), PlotError> {
    root.fill(&WHITE).map_err(drawing)?;
    match spec.kind {
        Kind::Histogram => histogram(root, spec),
        Kind::Scatter => scatter(root, spec, max_points),
    }
}

/// The last heap of a non-empty spec.
fn last_heap(spec: &PlotSpec) -> usize {
    spec.from + spec.values.len() - 1
}

fn title_style() -> TextStyle<'static> {
    ("sans-serif", 28).into_font().color(&BLACK)
}

fn plural(count: usize, one: &str) -> String {
    if count == 1 {
        format!("{count} {one}")
    } else {
        format!("{count} {one}s")
    }
}

fn histogram<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    spec: &PlotSpec,
) -> Result<(), PlotError> {
    let max = spec.values.iter().copied().max().unwrap_or(0) as usize;
    // Heaps of each value, and whether any heap with that value is rare.
    let mut count = vec![0usize; max + 1];
    let mut rare = vec![false; max + 1];
    for (n, &g) in (spec.from..).zip(spec.values) {
        count[g as usize] += 1;
        if (spec.is_rare)(n, g) {
            rare[g as usize] = true;
        }
    }
    let top = count.iter().copied().max().unwrap_or(1) as f64;
    let (rare_values, rare_heaps) = count
        .iter()
        .zip(&rare)
        .filter(|&(_, &r)| r)
        .fold((0, 0), |(v, h), (&c, _)| (v + 1, h + c));
    let common_values = count.iter().filter(|&&c| c > 0).count() - rare_values;
    let common_heaps = spec.values.len() - rare_heaps;

    let title = format!(
        "octal game {}: values of heaps {} .. {}",
        spec.code,
        spec.from,
        last_heap(spec)
    );
    // Bars start at 0.5 so that a value taken by a single heap still shows on the log scale;
    // the top leaves more than a decade free for the legend.
    let bottom = 0.5;
    let mut chart = ChartBuilder::on(root)
        .caption(title, title_style())
        .margin(20)
        .x_label_area_size(60)
        .y_label_area_size(90)
        .build_cartesian_2d(-0.5..max as f64 + 0.5, (bottom..top * 20.0).log_scale())
        .map_err(drawing)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels((max + 1).min(20))
        .x_label_formatter(&|x| integer_label(*x))
        .y_label_formatter(&|y| integer_label(*y))
        .x_desc("Grundy value")
        .y_desc("heaps (log scale)")
        .axis_desc_style(("sans-serif", 22))
        .label_style(("sans-serif", 16))
        .draw()
        .map_err(drawing)?;

    let (count, rare) = (&count, &rare);
    let bars = |want_rare: bool, color: RGBColor| {
        (0..=max)
            .filter(move |&v| count[v] > 0 && rare[v] == want_rare)
            .map(move |v| {
                let (x, c) = (v as f64, count[v] as f64);
                Rectangle::new([(x - 0.45, bottom), (x + 0.45, c)], color.filled())
            })
    };
    chart
        .draw_series(bars(false, COMMON))
        .map_err(drawing)?
        .label(format!(
            "common: {}, {}",
            plural(common_values, "value"),
            plural(common_heaps, "heap")
        ))
        .legend(|(x, y)| Rectangle::new([(x, y - 6), (x + 16, y + 6)], COMMON.filled()));
    chart
        .draw_series(bars(true, RARE))
        .map_err(drawing)?
        .label(format!(
            "rare: {}, {}",
            plural(rare_values, "value"),
            plural(rare_heaps, "heap")
        ))
        .legend(|(x, y)| Rectangle::new([(x, y - 6), (x + 16, y + 6)], RARE.filled()));
    legend(&mut chart, SeriesLabelPosition::UpperRight)
}

fn scatter<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    spec: &PlotSpec,
    max_points: usize,
) -> Result<(), PlotError> {
    let (from, last) = (spec.from, last_heap(spec));
    let heaps = spec.values.len();
    let max = u32::from(spec.values.iter().copied().max().unwrap_or(0));
    let rare_total = (from..)
        .zip(spec.values)
        .filter(|&(n, &g)| (spec.is_rare)(n, g))
        .count();
    // Every `stride`-th heap is drawn if common, every `rare_stride`-th rare heap if rare.
    let stride = heaps.div_ceil(max_points);
    let rare_stride = rare_total.div_ceil(max_points).max(1);
    let mut common_points = Vec::with_capacity(heaps.min(max_points));
    let mut rare_points = Vec::with_capacity(rare_total.min(max_points));
    let mut rare_seen = 0;
    for (k, (n, &g)) in (from..).zip(spec.values).enumerate() {
        if (spec.is_rare)(n, g) {
            if rare_seen % rare_stride == 0 {
                rare_points.push((n as u64, u32::from(g)));
            }
            rare_seen += 1;
        } else if k % stride == 0 {
            common_points.push((n as u64, u32::from(g)));
        }
    }

    let title = format!("octal game {}: G(n) for n = {from} .. {last}", spec.code);
    let root = root.margin(20, 0, 0, 0);
    let area = if stride > 1 || rare_stride > 1 {
        let rare_note = if rare_stride > 1 {
            format!("1 in {rare_stride} of the {rare_total} rare heaps")
        } else {
            format!("all {}", plural(rare_total, "rare heap"))
        };
        let note = format!(
            "subsampled: 1 in {stride} of the {heaps} heaps drawn (common ones); {rare_note} drawn"
        );
        let area = root.titled(&title, title_style()).map_err(drawing)?;
        area.titled(&note, ("sans-serif", 18).into_font().color(&BLACK))
            .map_err(drawing)?
    } else {
        root.titled(&title, title_style()).map_err(drawing)?
    };

    let mut chart = ChartBuilder::on(&area)
        .margin(20)
        .x_label_area_size(60)
        .y_label_area_size(90)
        // The top fifth is left free for the legend.
        .build_cartesian_2d(from as u64..last as u64 + 1, 0..max + max / 4 + 1)
        .map_err(drawing)?;
    chart
        .configure_mesh()
        .x_desc("n")
        .y_desc("G(n)")
        .axis_desc_style(("sans-serif", 22))
        .label_style(("sans-serif", 16))
        .draw()
        .map_err(drawing)?;
    chart
        .draw_series(
            common_points
                .into_iter()
                .map(|p| Circle::new(p, 1, COMMON.filled())),
        )
        .map_err(drawing)?
        .label("common")
        .legend(|(x, y)| Circle::new((x + 8, y), 4, COMMON.filled()));
    chart
        .draw_series(
            rare_points
                .into_iter()
                .map(|p| Circle::new(p, 3, RARE.filled())),
        )
        .map_err(drawing)?
        .label("rare")
        .legend(|(x, y)| Circle::new((x + 8, y), 4, RARE.filled()));
    legend(&mut chart, SeriesLabelPosition::UpperLeft)
}

/// Draws the legend of `chart`'s labelled series at `position`.
fn legend<'a, DB: DrawingBackend + 'a, X: Ranged, Y: Ranged>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    position: SeriesLabelPosition,
) -> Result<(), PlotError> {
    chart
        .configure_series_labels()
        .position(position)
        .margin(15)
        .label_font(("sans-serif", 18))
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()
        .map_err(drawing)
}

/// Labels whole numbers; other ticks (rare on these axes) stay blank.
fn integer_label(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsupported_extension_names_it() {
        let never = |_: usize, _: u16| false;
        let spec = PlotSpec {
            code: "0.6",
            from: 0,
            values: &[0, 1],
            is_rare: &never,
            kind: Kind::Histogram,
        };
        for (name, ext) in [
            ("octal-plot-test.jpg", "jpg"),
            ("octal-plot-test", ""),
            ("octal-plot-test.png.txt", "txt"),
        ] {
            let path = std::env::temp_dir().join(name);
            match plot(&spec, &path) {
                Err(e @ PlotError::UnsupportedExtension { .. }) => {
                    let message = e.to_string();
                    assert!(message.contains(&format!("{ext:?}")), "{message}");
                    assert!(message.contains(".png or .svg"), "{message}");
                }
                other => panic!("{name}: expected an unsupported extension, got {other:?}"),
            }
            assert!(!path.exists());
        }
    }

    #[test]
    fn integer_labels_only() {
        assert_eq!(integer_label(0.0), "0");
        assert_eq!(integer_label(100000.0), "100000");
        assert_eq!(integer_label(0.5), "");
    }
}

//! The report's SVG plots, under `<target>/animasm-report/`: the error of every
//! slerp-like routine against the angle between the two quaternions, the
//! measured speedups beside the papers', and the successors section's ticks
//! per element against size, one per routine ([`ticks_vs_size`]). Written by the report
//! (`devkit/examples/report/`); the error curves come from
//! [`devkit::measure::by_angle`].

use std::path::PathBuf;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::measure::by_angle;

/// One speedup of the report's summary: an asm kernel over the scalar C
/// port, `slerp_quats`' AVX kernel over its 128-bit baseline, or an nlerp
/// SIMD row over its scalar row.
#[derive(Clone, Debug)]
pub struct Speedup {
    /// The row label (`slerp_joints`, `slerp_quats AVX/SSE (1024)`, ...).
    pub routine: String,
    /// Measured in this run.
    pub measured: f64,
    /// The paper's figure, where it gives one.
    pub paper: Option<f64>,
}

/// The directory the plots go to: the report's output directory,
/// `<target>/animasm-report/` ([`crate::paths::report_dir`]).
pub fn out_dir() -> PathBuf {
    crate::paths::report_dir()
}

/// Measures the error curves ([`by_angle::curves`]) and writes both plots;
/// returns the paths written.
pub fn write_all(speedups: &[Speedup]) -> Result<Vec<PathBuf>, String> {
    let dir = out_dir();
    std::fs::create_dir_all(&dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    let error_path = dir.join("error_vs_angle.svg");
    error_plot(&error_path, &by_angle::curves())?;
    let speedup_path = dir.join("speedups.svg");
    speedup_plot(&speedup_path, speedups)?;
    Ok(vec![error_path, speedup_path])
}

fn err<E: std::fmt::Display>(what: &str) -> impl Fn(E) -> String + '_ {
    move |e| format!("{what}: {e}")
}

/// Smallest and largest error drawn (log axis): an exact result (0) is drawn
/// at the floor, a NaN or infinite one at the ceiling.
const FLOOR: f64 = 1e-10;
const CEILING: f64 = 10.0;

/// The error against angle plot, log y axis.
fn error_plot(path: &std::path::Path, curves: &[by_angle::Curve]) -> Result<(), String> {
    let e = err("error plot");
    let points: Vec<Vec<(f64, f64)>> = curves
        .iter()
        .map(|c| c.points().into_iter().map(|(x, y)| (x, if y.is_finite() { y.max(FLOOR) } else { CEILING })).collect())
        .collect();
    let all = points.iter().flatten().map(|p| p.1);
    let (lo, hi) = all.fold((CEILING, FLOOR), |(lo, hi), y| (lo.min(y), hi.max(y)));
    let (lo, hi) =
        if lo <= hi { (10f64.powf(lo.log10().floor()), 10f64.powf(hi.log10().ceil())) } else { (FLOOR, 1.0) };
    let hi = if hi <= lo { lo * 10.0 } else { hi };

    let root = SVGBackend::new(path, (1000, 640)).into_drawing_area();
    root.fill(&WHITE).map_err(&e)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!(
                "Max abs error vs the f64 slerp, by rotation angle between the quaternions ({}-degree bins, t in {:?})",
                by_angle::BIN_DEG,
                by_angle::FACTORS
            ),
            ("sans-serif", 16),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(0f64..180f64, (lo..hi).log_scale())
        .map_err(&e)?;
    chart
        .configure_mesh()
        .x_desc("rotation angle between the two quaternions (degrees)")
        .y_desc("max abs component error")
        .x_labels(13)
        .y_label_formatter(&|v| format!("{v:.0e}"))
        .draw()
        .map_err(&e)?;
    for (i, (c, pts)) in curves.iter().zip(&points).enumerate() {
        let color = Palette99::pick(i).to_rgba();
        chart
            .draw_series(LineSeries::new(pts.iter().copied(), color.stroke_width(2)))
            .map_err(&e)?
            .label(c.name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2)));
        chart.draw_series(pts.iter().map(|&p| Circle::new(p, 2, color.filled()))).map_err(&e)?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(&e)?;
    root.present().map_err(&e)?;
    Ok(())
}

/// Horizontal bars: the measured speedup and the paper's, per routine.
fn speedup_plot(path: &std::path::Path, speedups: &[Speedup]) -> Result<(), String> {
    let e = err("speedup plot");
    let n = speedups.len().max(1);
    let max = speedups
        .iter()
        .flat_map(|s| [Some(s.measured), s.paper])
        .flatten()
        .filter(|v| v.is_finite())
        .fold(1.0f64, f64::max);
    let root = SVGBackend::new(path, (1000, 110 + 44 * n as u32)).into_drawing_area();
    root.fill(&WHITE).map_err(&e)?;
    let mut chart = ChartBuilder::on(&root)
        .caption("Speedups, measured and published: asm over the scalar C port (van Waveren), AVX over SSE (slerp_quats), SIMD over scalar (nlerp)", ("sans-serif", 16))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(260)
        .build_cartesian_2d(0f64..max * 1.15, -0.5f64..n as f64 - 0.5)
        .map_err(&e)?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(0)
        .x_desc("speedup (scalar time / asm time)")
        .draw()
        .map_err(&e)?;
    let measured_color = RGBColor(31, 119, 180);
    let paper_color = RGBColor(255, 127, 14);
    // Row i is drawn from the top.
    let centre = |i: usize| (n - 1 - i) as f64;
    let bar = |i: usize, v: f64, upper: bool| {
        let c = centre(i);
        let (y0, y1) = if upper { (c, c + 0.38) } else { (c - 0.38, c) };
        [(0.0, y0), (v, y1)]
    };
    let finite = |v: f64| if v.is_finite() { v } else { 0.0 };
    chart
        .draw_series(
            speedups
                .iter()
                .enumerate()
                .map(|(i, s)| Rectangle::new(bar(i, finite(s.measured), true), measured_color.filled())),
        )
        .map_err(&e)?
        .label("measured (this run)")
        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], measured_color.filled()));
    chart
        .draw_series(
            speedups
                .iter()
                .enumerate()
                .filter_map(|(i, s)| s.paper.map(|p| Rectangle::new(bar(i, finite(p), false), paper_color.filled()))),
        )
        .map_err(&e)?
        .label("published")
        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], paper_color.filled()));
    let value_style = TextStyle::from(("sans-serif", 12).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
    for (i, s) in speedups.iter().enumerate() {
        let c = centre(i);
        let label = |v: f64| format!(" {v:.2}x");
        chart
            .draw_series(std::iter::once(Text::new(
                label(s.measured),
                (finite(s.measured), c + 0.19),
                value_style.clone(),
            )))
            .map_err(&e)?;
        if let Some(p) = s.paper {
            chart
                .draw_series(std::iter::once(Text::new(label(p), (finite(p), c - 0.19), value_style.clone())))
                .map_err(&e)?;
        }
    }
    // The routine names, right-aligned left of the plotting area.
    let name_style = TextStyle::from(("sans-serif", 13).into_font()).pos(Pos::new(HPos::Right, VPos::Center));
    for (i, s) in speedups.iter().enumerate() {
        let (x, y) = chart.backend_coord(&(0.0, centre(i)));
        root.draw(&Text::new(s.routine.clone(), (x - 8, y), name_style.clone())).map_err(&e)?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(&e)?;
    root.present().map_err(&e)?;
    Ok(())
}

/// The successors section's plot: ticks per element
/// against the number of elements, both axes logarithmic, one line per
/// series `(name, [(elements, ticks)])` (the listing, the successor, the
/// floors and the peers). Writes `path`.
pub fn ticks_vs_size(path: &std::path::Path, title: &str, series: &[(String, Vec<(f64, f64)>)]) -> Result<(), String> {
    let e = err("ticks-vs-size plot");
    let points = series.iter().flat_map(|s| s.1.iter()).filter(|p| p.0 > 0.0 && p.1 > 0.0 && p.1.is_finite());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in points {
        (x0, x1, y0, y1) = (x0.min(x), x1.max(x), y0.min(y), y1.max(y));
    }
    if x0 > x1 {
        return Err(format!("ticks-vs-size plot: nothing to draw in {}", path.display()));
    }
    let (x0, x1) = (x0 / 2.0, x1 * 2.0);
    let (y0, y1) = (10f64.powf(y0.log10().floor()), 10f64.powf(y1.log10().ceil()).max(y0 * 10.0));
    let root = SVGBackend::new(path, (900, 600)).into_drawing_area();
    root.fill(&WHITE).map_err(&e)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 16))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d((x0..x1).log_scale(), (y0..y1).log_scale())
        .map_err(&e)?;
    chart
        .configure_mesh()
        .x_desc("elements per call")
        .y_desc("ticks per element (median)")
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| format!("{v}"))
        .draw()
        .map_err(&e)?;
    for (i, (name, pts)) in series.iter().enumerate() {
        let pts: Vec<(f64, f64)> = pts.iter().copied().filter(|p| p.1 > 0.0 && p.1.is_finite()).collect();
        if pts.is_empty() {
            continue;
        }
        let color = Palette99::pick(i).to_rgba();
        let width = if name == "avx2" { 3 } else { 2 };
        chart
            .draw_series(LineSeries::new(pts.iter().copied(), color.stroke_width(width)))
            .map_err(&e)?
            .label(name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(width)));
        chart.draw_series(pts.iter().map(|&p| Circle::new(p, 3, color.filled()))).map_err(&e)?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(&e)?;
    root.present().map_err(&e)?;
    Ok(())
}

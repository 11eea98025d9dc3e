//! An SVG plot of time per puzzle, one series per solver, model and
//! formulation, on a log scale, drawn with plotters' SVG backend.
//! Deterministic apart from the values plotted.

use plotters::prelude::*;

use crate::commands::bench::TimeSeries;
use crate::render::OKABE_ITO;

/// Series colours: Okabe and Ito's palette, darkest first (blue,
/// vermillion, bluish green, reddish purple, orange, sky blue, black,
/// yellow), then again.
const COLOURS: [usize; 8] = [4, 5, 2, 6, 0, 1, 7, 3];

/// A `#RRGGBB` colour of the palette.
fn colour(k: usize) -> RGBColor {
    let hex = OKABE_ITO[COLOURS[k % COLOURS.len()]];
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).expect("a hex colour");
    RGBColor(byte(1), byte(3), byte(5))
}

/// A decade's label: 1 µs, 10 ms, 1 s, ...
fn decade(e: i32) -> String {
    let (unit, base) = match e {
        i32::MIN..=-7 => ("ns", -9),
        -6..=-4 => ("µs", -6),
        -3..=-1 => ("ms", -3),
        _ => ("s", 0),
    };
    format!("{} {unit}", 10i64.pow((e - base).max(0) as u32))
}

/// A tick label of the time axis: decades by name, others in seconds.
fn tick(t: f64) -> String {
    let e = t.log10().round() as i32;
    if (t / 10f64.powi(e) - 1.0).abs() < 1e-9 {
        decade(e)
    } else {
        crate::commands::bench::render::seconds(t)
    }
}

/// The puzzles named on the x axis at most: past it, their numbers.
const NAMED_PUZZLES: usize = 12;

/// A puzzle's name on the x axis: its file name without folders and
/// extension, cut to 14 characters.
fn short(label: &str) -> String {
    let name = std::path::Path::new(label.trim_end_matches('/'))
        .file_stem()
        .map_or(label.to_string(), |s| s.to_string_lossy().into_owned());
    match name.char_indices().nth(14) {
        Some((at, _)) => format!("{}…", &name[..at]),
        None => name,
    }
}

/// Time per puzzle (x: the puzzles in bench order, named by `labels` when
/// there are few, else numbered; y: wall time, log scale). Series k is drawn in colour k with circles (even k)
/// or triangles (odd k), filled for the first pair of each colour round
/// and hollow for the next.
pub(crate) fn time_per_puzzle(title: &str, labels: &[&str], series: &[TimeSeries]) -> String {
    let count = labels.len();
    let named = count <= NAMED_PUZZLES;
    let names: Vec<String> = labels.iter().map(|l| short(l)).collect();
    let x_label = |x: &f64| {
        let k = x.round();
        match named && (x - k).abs() < 1e-6 && k >= 1.0 {
            true => names.get(k as usize - 1).cloned().unwrap_or_default(),
            false => format!("{x:.0}"),
        }
    };
    let positive: Vec<f64> = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .filter(|&t| t > 0.0)
        .collect();
    let (e0, e1) = if positive.is_empty() {
        (-3, 0)
    } else {
        let lo = positive.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = positive.iter().copied().fold(0.0, f64::max);
        let a = lo.log10().floor() as i32;
        (a, (hi.log10().ceil() as i32).max(a + 1))
    };
    let (lo, hi) = (10f64.powi(e0), 10f64.powi(e1));
    // A decade of room above the highest point for the legend.
    let (lo, hi) = (lo, hi * 10f64.powi(1 + series.len() as i32 / 4));
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (960, 560)).into_drawing_area();
        let drawn = (|| -> Result<(), Box<dyn std::error::Error + '_>> {
            root.fill(&WHITE)?;
            let mut chart = ChartBuilder::on(&root)
                .caption(title, ("sans-serif", 18))
                .margin(16)
                .x_label_area_size(48)
                .y_label_area_size(80)
                .build_cartesian_2d(0.5f64..count.max(1) as f64 + 0.5, (lo..hi).log_scale())?;
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_labels(if named { count + 1 } else { count.clamp(1, 10) })
                .x_label_formatter(&x_label)
                .y_label_formatter(&|t| tick(*t))
                .x_desc(match named {
                    true => "puzzle".to_string(),
                    false => format!("puzzle (in bench order, {count} in all)"),
                })
                .y_desc("wall time (log scale)")
                .draw()?;
            let r = if count > 500 { 2 } else { 4 };
            for (k, s) in series.iter().enumerate() {
                let c = colour(k);
                let style = if (k / COLOURS.len()).is_multiple_of(2) {
                    c.filled()
                } else {
                    c.stroke_width(1)
                };
                let at = |&(i, t): &(usize, f64)| (i as f64 + 1.0, t.max(lo));
                let drawn = if k.is_multiple_of(2) {
                    chart.draw_series(s.points.iter().map(|p| Circle::new(at(p), r, style)))?
                } else {
                    chart.draw_series(
                        s.points
                            .iter()
                            .map(|p| TriangleMarker::new(at(p), r + 1, style)),
                    )?
                };
                drawn.label(s.name.as_str()).legend(move |(x, y)| {
                    if k.is_multiple_of(2) {
                        Circle::new((x, y), 4, style).into_dyn()
                    } else {
                        TriangleMarker::new((x, y), 5, style).into_dyn()
                    }
                });
            }
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperRight)
                .background_style(WHITE.mix(0.9))
                .border_style(BLACK.mix(0.5))
                .label_font(("sans-serif", 13))
                .draw()?;
            root.present()?;
            Ok(())
        })();
        drawn.expect("drawing into a String cannot fail");
    }
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decades_and_a_plot() {
        assert_eq!(decade(-6), "1 µs");
        assert_eq!(decade(-5), "10 µs");
        assert_eq!(decade(-1), "100 ms");
        assert_eq!(decade(0), "1 s");
        assert_eq!(decade(2), "100 s");
        assert_eq!(tick(1e-3), "1 ms");
        let names = [
            "puzzles/a/crazy-sheep.yaml",
            "x/clue1.txt",
            "das-verflixte-hundespiel",
        ];
        let svg = time_per_puzzle(
            "t",
            &names,
            &[
                TimeSeries {
                    name: "a".into(),
                    points: vec![(0, 1e-5), (1, 2e-3), (2, 0.5)],
                },
                TimeSeries {
                    name: "b & c".into(),
                    points: vec![(0, 0.1)],
                },
            ],
        );
        assert_eq!(svg.matches("<circle").count(), 4); // 3 points + legend
        assert_eq!(svg.matches("<polygon").count(), 2); // 1 point + legend
        assert!(svg.contains("b &amp; c"), "{svg}");
        assert!(svg.contains("10 µs") && svg.contains("1 s"), "{svg}");
        // Few puzzles: named on the x axis, not numbered.
        assert!(
            svg.contains("\ncrazy-sheep\n") && svg.contains("\nclue1\n"),
            "{svg}"
        );
        assert!(svg.contains("\ndas-verflixte-…\n"), "{svg}");
        let tree = resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default());
        assert!(tree.is_ok());
    }
}

//! An SVG plot of time per puzzle, one series per solver and formulation,
//! on a log scale. Written by hand: a plotting crate would bring much for
//! one chart. Deterministic apart from the values plotted.

use std::fmt::Write;

use super::{OKABE_ITO, escape};

/// One series: (puzzle index, seconds) points.
pub(crate) struct Series {
    pub name: String,
    pub points: Vec<(usize, f64)>,
}

const W: f64 = 960.0;
/// Height of the plot area.
const PLOT_H: f64 = 420.0;
const LEFT: f64 = 80.0;
const RIGHT: f64 = 24.0;
/// Title, then one legend line per series above the plot area.
const TITLE: f64 = 48.0;
const LEGEND_LINE: f64 = 18.0;
const BOTTOM: f64 = 64.0;

/// Series colours: Okabe and Ito's palette, darkest first (blue,
/// vermillion, bluish green, reddish purple, orange, sky blue, black,
/// yellow), then again.
const COLOURS: [&str; 8] = [
    OKABE_ITO[4],
    OKABE_ITO[5],
    OKABE_ITO[2],
    OKABE_ITO[6],
    OKABE_ITO[0],
    OKABE_ITO[1],
    OKABE_ITO[7],
    OKABE_ITO[3],
];

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

/// A marker of shape `k` at (x, y).
fn marker(out: &mut String, k: usize, x: f64, y: f64, r: f64, colour: &str) {
    let _ = match k % 4 {
        0 => writeln!(
            out,
            r#"  <circle cx="{x:.1}" cy="{y:.1}" r="{r:.1}" fill="{colour}" fill-opacity="0.8"/>"#
        ),
        1 => writeln!(
            out,
            r#"  <rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{colour}" fill-opacity="0.8"/>"#,
            x - r,
            y - r,
            2.0 * r,
            2.0 * r
        ),
        2 => writeln!(
            out,
            r#"  <polygon points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}" fill="{colour}" fill-opacity="0.8"/>"#,
            x,
            y - 1.3 * r,
            x - 1.2 * r,
            y + r,
            x + 1.2 * r,
            y + r
        ),
        _ => writeln!(
            out,
            r#"  <polygon points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1} {:.1},{:.1}" fill="{colour}" fill-opacity="0.8"/>"#,
            x,
            y - 1.3 * r,
            x + 1.3 * r,
            y,
            x,
            y + 1.3 * r,
            x - 1.3 * r,
            y
        ),
    };
}

/// Time per puzzle (x: puzzles in bench order, `count` of them; y: wall
/// time, log scale).
pub(crate) fn time_per_puzzle(title: &str, count: usize, series: &[Series]) -> String {
    let all = series.iter().flat_map(|s| s.points.iter().map(|p| p.1));
    let positive: Vec<f64> = all.filter(|&t| t > 0.0).collect();
    let lo = positive.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = positive.iter().copied().fold(0.0, f64::max);
    let (e0, e1) = if positive.is_empty() {
        (-3, 0)
    } else {
        let a = lo.log10().floor() as i32;
        let b = hi.log10().ceil() as i32;
        (a, b.max(a + 1))
    };
    let top = TITLE + LEGEND_LINE * series.len() as f64 + 8.0;
    let h = top + PLOT_H + BOTTOM;
    let (pw, ph) = (W - LEFT - RIGHT, PLOT_H);
    let x_of = |i: usize| LEFT + pw * (i as f64 + 0.5) / count.max(1) as f64;
    let y_of = |t: f64| {
        let t = t.max(10f64.powi(e0));
        top + ph * (1.0 - (t.log10() - e0 as f64) / (e1 - e0) as f64)
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W:.0}" height="{h:.0}" viewBox="0 0 {W:.0} {h:.0}" font-family="sans-serif">"#
    );
    let _ = writeln!(out, "  <title>{}</title>", escape(title));
    let _ = writeln!(out, r#"  <rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        out,
        r##"  <text x="{:.1}" y="28" font-size="16" text-anchor="middle" fill="#222">{}</text>"##,
        W / 2.0,
        escape(title)
    );
    // Decades: grid lines and labels.
    for e in e0..=e1 {
        let y = y_of(10f64.powi(e));
        let _ = writeln!(
            out,
            r##"  <line x1="{LEFT:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#ddd"/>"##,
            W - RIGHT
        );
        let _ = writeln!(
            out,
            r##"  <text x="{:.1}" y="{:.1}" font-size="12" text-anchor="end" fill="#444">{}</text>"##,
            LEFT - 6.0,
            y + 4.0,
            decade(e)
        );
    }
    // Puzzle ticks: about ten.
    let step = count.div_ceil(10).max(1);
    for i in (0..count).step_by(step) {
        let x = x_of(i);
        let _ = writeln!(
            out,
            r##"  <text x="{x:.1}" y="{:.1}" font-size="12" text-anchor="middle" fill="#444">{}</text>"##,
            top + ph + 18.0,
            i + 1
        );
    }
    let _ = writeln!(
        out,
        r##"  <rect x="{LEFT:.1}" y="{top:.1}" width="{pw:.1}" height="{ph:.1}" fill="none" stroke="#444"/>"##
    );
    let _ = writeln!(
        out,
        r##"  <text x="{:.1}" y="{:.1}" font-size="13" text-anchor="middle" fill="#222">puzzle (in bench order, {count} in all)</text>"##,
        LEFT + pw / 2.0,
        h - 18.0
    );
    let _ = writeln!(
        out,
        r##"  <text x="18" y="{:.1}" font-size="13" text-anchor="middle" fill="#222" transform="rotate(-90 18 {:.1})">wall time (log scale)</text>"##,
        top + ph / 2.0,
        top + ph / 2.0
    );
    let r = if count > 500 { 1.5 } else { 3.0 };
    for (k, s) in series.iter().enumerate() {
        let colour = COLOURS[k % COLOURS.len()];
        let _ = writeln!(
            out,
            r#"  <g class="series" data-name="{}">"#,
            escape(&s.name)
        );
        for &(i, t) in &s.points {
            marker(&mut out, k, x_of(i), y_of(t), r, colour);
        }
        let _ = writeln!(out, "  </g>");
        // Legend, above the plot area.
        let ly = TITLE + LEGEND_LINE * (k as f64 + 0.5) + 4.0;
        let lx = LEFT + 8.0;
        marker(&mut out, k, lx, ly - 4.0, 4.0, colour);
        let _ = writeln!(
            out,
            r##"  <text x="{:.1}" y="{ly:.1}" font-size="12" fill="#222">{}</text>"##,
            lx + 10.0,
            escape(&s.name)
        );
    }
    out.push_str("</svg>\n");
    out
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
        let svg = time_per_puzzle(
            "t",
            3,
            &[
                Series {
                    name: "a".into(),
                    points: vec![(0, 1e-5), (1, 2e-3), (2, 0.5)],
                },
                Series {
                    name: "b & c".into(),
                    points: vec![(0, 0.1)],
                },
            ],
        );
        assert_eq!(svg.matches("<circle").count(), 4); // 3 points + legend
        assert!(svg.contains("b &amp; c"));
        assert!(svg.contains(">10 µs</text>") && svg.contains(">1 s</text>"));
        let tree = resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default());
        assert!(tree.is_ok());
    }
}

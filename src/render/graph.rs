//! The recording graph drawn as in Mason & Zhang: pictures in rows (the `-`
//! halves above, the `+` halves below, each row by decreasing motif name), one
//! colour per piece, an arrow from each picture of a piece to the picture
//! clockwise from it; a legend maps colours to tile ids. As SVG (PNG is
//! that SVG rasterized) or as Graphviz DOT. A highlighted subgraph (the
//! centre corners of a solution) is drawn thick, the other arcs faint.

use std::fmt::Write;

use super::{OKABE_ITO, escape};
use crate::engines::graph::RecordingGraph;
use crate::puzzle::{Edge, Puzzle};

/// The colour of piece `k`: Okabe and Ito's palette, then hues around the
/// wheel for more pieces.
fn colour(k: usize) -> String {
    const ORDER: [usize; 7] = [4, 5, 2, 6, 0, 1, 7];
    match ORDER.get(k) {
        Some(&i) => OKABE_ITO[i].to_string(),
        None => format!("hsl({}, 65%, 40%)", (k * 137) % 360),
    }
}

fn label(p: &Puzzle, e: Edge) -> String {
    format!("{}{}", p.motifs()[e.motif as usize], e.half.symbol())
}

/// The arcs to highlight: per piece, the side whose arc is drawn thick.
pub(crate) type Highlight = Option<[usize; 4]>;

fn highlighted(h: &Highlight, piece: usize, side: usize) -> Option<bool> {
    h.map(|s| s.get(piece) == Some(&side))
}

/// The graph as an SVG picture.
pub(crate) fn svg(p: &Puzzle, g: &RecordingGraph, highlight: &Highlight) -> String {
    let (gap, row_gap, margin) = (120.0, 220.0, 80.0);
    let widest = g.rows.iter().map(Vec::len).max().unwrap_or(1).max(1);
    let w = margin * 2.0 + gap * (widest - 1) as f64 + 180.0;
    let legend_h = 20.0 * p.len() as f64;
    let h = (margin * 2.0 + row_gap * (g.rows.len().max(1) - 1) as f64).max(legend_h + 60.0);
    let at = |e: Edge| -> (f64, f64) {
        for (r, row) in g.rows.iter().enumerate() {
            if let Some(i) = row.iter().position(|&v| v == e) {
                return (margin + gap * i as f64, margin + row_gap * r as f64);
            }
        }
        (margin, margin)
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}" font-family="sans-serif">"#
    );
    let _ = writeln!(
        out,
        "  <title>recording graph of {}</title>",
        escape(p.name())
    );
    let _ = writeln!(out, r#"  <rect width="100%" height="100%" fill="white"/>"#);
    out.push_str("  <defs>\n");
    for k in 0..p.len() {
        let _ = writeln!(
            out,
            r#"    <marker id="arrow{k}" viewBox="0 0 10 10" refX="10" refY="5" markerUnits="userSpaceOnUse" markerWidth="14" markerHeight="14" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="{}"/></marker>"#,
            colour(k)
        );
    }
    out.push_str("  </defs>\n");
    let r = 22.0;
    for a in &g.arcs {
        let (x1, y1) = at(a.from);
        let (x2, y2) = at(a.to);
        let (dx, dy) = (x2 - x1, y2 - y1);
        let len = (dx * dx + dy * dy).sqrt().max(1.0);
        // Each piece's arcs bend by their own amount, so parallel arcs of
        // different pieces stay apart; a loop (a picture to itself) is
        // drawn as a small circle above its vertex.
        let bend = 30.0 + 12.0 * (a.piece % 6) as f64;
        let (nx, ny) = (-dy / len, dx / len);
        let (cx, cy) = ((x1 + x2) / 2.0 + nx * bend, (y1 + y2) / 2.0 + ny * bend);
        let shrink = |x: f64, y: f64, tx: f64, ty: f64| {
            let (ux, uy) = (tx - x, ty - y);
            let l = (ux * ux + uy * uy).sqrt().max(1.0);
            (x + ux / l * r, y + uy / l * r)
        };
        let (sx, sy) = shrink(x1, y1, cx, cy);
        let (ex, ey) = shrink(x2, y2, cx, cy);
        let (width, opacity) = match highlighted(highlight, a.piece, a.side) {
            None => (2.0, 0.9),
            Some(true) => (5.0, 1.0),
            Some(false) => (1.5, 0.25),
        };
        let d = if a.from == a.to {
            format!(
                "M {:.1} {:.1} C {:.1} {:.1} {:.1} {:.1} {:.1} {:.1}",
                x1 - 8.0,
                y1 - r,
                x1 - 40.0,
                y1 - r - bend,
                x1 + 40.0,
                y1 - r - bend,
                x1 + 8.0,
                y1 - r
            )
        } else {
            format!("M {sx:.1} {sy:.1} Q {cx:.1} {cy:.1} {ex:.1} {ey:.1}")
        };
        let _ = writeln!(
            out,
            r#"  <path class="arc" data-piece="{}" data-side="{}" d="{d}" fill="none" stroke="{}" stroke-width="{width}" stroke-opacity="{opacity}" marker-end="url(#arrow{})"/>"#,
            p.tiles()[a.piece].id,
            a.side,
            colour(a.piece),
            a.piece
        );
    }
    for row in &g.rows {
        for &v in row {
            let (x, y) = at(v);
            let _ = writeln!(
                out,
                r##"  <circle class="vertex" cx="{x:.1}" cy="{y:.1}" r="{r}" fill="white" stroke="#222" stroke-width="1.5"/>"##
            );
            let _ = writeln!(
                out,
                r##"  <text x="{x:.1}" y="{:.1}" font-size="14" text-anchor="middle" fill="#222">{}</text>"##,
                y + 5.0,
                escape(&label(p, v))
            );
        }
    }
    legend(&mut out, p, w - 160.0);
    out.push_str("</svg>\n");
    out
}

/// The legend: each piece's colour and tile id, from `lx` across.
fn legend(out: &mut String, p: &Puzzle, lx: f64) {
    let _ = writeln!(
        out,
        r##"  <text x="{lx:.1}" y="30" font-size="13" fill="#222">pieces (tile ids)</text>"##
    );
    for (k, t) in p.tiles().iter().enumerate() {
        let y = 50.0 + 20.0 * k as f64;
        let _ = writeln!(
            out,
            r#"  <line x1="{lx:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="{}" stroke-width="4"/>"#,
            lx + 30.0,
            colour(k)
        );
        let _ = writeln!(
            out,
            r##"  <text x="{:.1}" y="{:.1}" font-size="13" fill="#222">tile {}</text>"##,
            lx + 40.0,
            y + 4.0,
            t.id
        );
    }
}

/// The graph in Graphviz's DOT language.
pub(crate) fn dot(p: &Puzzle, g: &RecordingGraph, highlight: &Highlight) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "digraph \"recording graph of {}\" {{",
        p.name().replace('"', "'")
    );
    out.push_str("  node [shape=circle];\n");
    let id = |e: Edge| format!("\"{}\"", label(p, e).replace('"', "'"));
    for row in &g.rows {
        let names: Vec<String> = row.iter().map(|&v| id(v)).collect();
        let _ = writeln!(out, "  {{ rank=same; {} }}", names.join("; "));
    }
    for a in &g.arcs {
        let width = match highlighted(highlight, a.piece, a.side) {
            None => 2.0,
            Some(true) => 5.0,
            Some(false) => 0.5,
        };
        let _ = writeln!(
            out,
            "  {} -> {} [color=\"{}\", penwidth={width}, label=\"{}\"];",
            id(a.from),
            id(a.to),
            colour(a.piece),
            p.tiles()[a.piece].id
        );
    }
    out.push_str("}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn an_arc_per_piece_and_side_and_a_vertex_per_picture() {
        let p = Puzzle::load(Path::new("puzzles/legespiel/quasthoff-example.yaml")).unwrap();
        let g = RecordingGraph::of(&p);
        let s = svg(&p, &g, &None);
        assert_eq!(s.matches(r#"class="arc""#).count(), 16);
        let pictures: usize = g.rows.iter().map(Vec::len).sum();
        assert_eq!(s.matches(r#"class="vertex""#).count(), pictures);
        assert!(resvg::usvg::Tree::from_str(&s, &resvg::usvg::Options::default()).is_ok());
        let d = dot(&p, &g, &Some([0, 1, 2, 3]));
        assert_eq!(d.matches(" -> ").count(), 16);
        assert_eq!(d.matches("penwidth=5").count(), 4);
    }
}

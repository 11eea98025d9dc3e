//! Pictures drawn from the tile data (no tile images needed): each edge shows
//! its motif by a colour from a colour-blind-safe palette and its half by a
//! shape: `+` a head (a triangle pointing out of the edge), `-` a tail (a
//! triangle pointing in), `=` a bar along the edge. A `+` beside its `-`
//! makes one arrow across the border; two `=` make a double bar. The tile id
//! stands in the middle, its rotation below it. Output is deterministic.
//!
//! Framed boards are drawn in the Eternity II community's style instead
//! (`triangles`): four coloured triangles per piece, the frame grey.
//!
//! Where the puzzle has tile images (`images::TileImages`), pictures are
//! composed from them instead: each image turned r quarter turns
//! counterclockwise, with a small label of its id and rotation.

use std::fmt::Write;

use base64::Engine;

use super::images::TileImages;
use super::{OKABE_ITO, escape, triangles};
use crate::board::Solution;
use crate::puzzle::{Edge, Half, Puzzle};

/// Side of a tile, in SVG units.
const S: f64 = 100.0;
const MARGIN: f64 = 20.0;
const GAP: f64 = 16.0;
const LEGEND_ROW: f64 = 22.0;

/// Okabe and Ito's colour-blind-safe palette; after eight motifs the colours
/// repeat with a dashed outline.
const PALETTE: [&str; 8] = OKABE_ITO;

/// The palette colour a motif named after a colour should get.
fn named(name: &str) -> Option<usize> {
    match name.to_ascii_lowercase().as_str() {
        "orange" | "org" => Some(0),
        "sky" | "lightblue" | "cyan" => Some(1),
        "grn" | "green" => Some(2),
        "ylw" | "yellow" | "yel" => Some(3),
        "blu" | "blue" => Some(4),
        "red" => Some(5),
        "pink" | "purple" | "pur" => Some(6),
        "black" | "blk" => Some(7),
        _ => None,
    }
}

/// Colour and dashed outline per motif: motifs named after a colour get that
/// colour, the others the free palette colours in order, then repeats with a
/// dashed outline.
fn colours(p: &Puzzle) -> Vec<(&'static str, bool)> {
    let mut taken = [false; 8];
    let mut slot: Vec<Option<usize>> = p
        .motifs()
        .iter()
        .map(|m| named(m).filter(|&k| !std::mem::replace(&mut taken[k], true)))
        .collect();
    let mut free = (0..8)
        .filter(|&k| !taken[k])
        .collect::<Vec<_>>()
        .into_iter();
    let mut extra = 0;
    for s in slot.iter_mut().filter(|s| s.is_none()) {
        *s = Some(free.next().unwrap_or_else(|| {
            extra += 1;
            8 + extra - 1
        }));
    }
    slot.into_iter()
        .map(|k| {
            let k = k.expect("assigned");
            (PALETTE[k % 8], k >= 8)
        })
        .collect()
}

/// The shape of one edge, drawn for the right edge of a tile at (x, y) and
/// turned to direction `d` (0 right, 1 top, 2 left, 3 bottom).
fn edge_shape(out: &mut String, x: f64, y: f64, d: usize, e: Edge, style: &Style<'_>) {
    let (fill, dashed) = style.colours[e.motif as usize];
    let (cx, cy) = (x + S / 2.0, y + S / 2.0);
    let r = x + S;
    let points = match e.half {
        // Head: base inside, apex on the edge, pointing out.
        Half::Plus => format!(
            "{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}",
            r - 26.0,
            cy - 18.0,
            r - 1.5,
            cy,
            r - 26.0,
            cy + 18.0
        ),
        // Tail: base on the edge, apex inside, pointing in.
        Half::Minus => format!(
            "{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}",
            r - 1.5,
            cy - 18.0,
            r - 26.0,
            cy,
            r - 1.5,
            cy + 18.0
        ),
        // Bar along the edge.
        Half::Same => format!(
            "{:.1},{:.1} {:.1},{:.1} {:.1},{:.1} {:.1},{:.1}",
            r - 12.0,
            cy - 22.0,
            r - 1.5,
            cy - 22.0,
            r - 1.5,
            cy + 22.0,
            r - 12.0,
            cy + 22.0
        ),
    };
    let _ = writeln!(
        out,
        r##"  <polygon points="{points}" fill="{fill}" stroke="#333" stroke-width="1"{dash} transform="rotate({:.0} {cx:.1} {cy:.1})"/>"##,
        -90.0 * d as f64,
        dash = if dashed {
            r#" stroke-dasharray="3 2""#
        } else {
            ""
        },
    );
}

/// Colours per motif, whether to write motif names beside the edges
/// (when colours repeat), and whether pieces are drawn as four triangles
/// (framed boards, in the Eternity II community's style).
struct Style<'p> {
    colours: Vec<(&'static str, bool)>,
    names: Option<&'p [String]>,
    triangles: bool,
}

impl<'p> Style<'p> {
    fn new(p: &'p Puzzle) -> Style<'p> {
        match p.frame() {
            Some(frame) => {
                let mut next = 0;
                let colours = (0..p.motifs().len())
                    .map(|m| {
                        if m == frame as usize {
                            (triangles::FRAME, false)
                        } else {
                            next += 1;
                            (
                                triangles::PALETTE[(next - 1) % triangles::PALETTE.len()],
                                false,
                            )
                        }
                    })
                    .collect();
                Style {
                    colours,
                    names: (p.motifs().len() > triangles::PALETTE.len() + 1).then_some(p.motifs()),
                    triangles: true,
                }
            }
            None => Style {
                colours: colours(p),
                names: (p.motifs().len() > PALETTE.len()).then_some(p.motifs()),
                triangles: false,
            },
        }
    }
}

/// One tile at (x, y) showing `edges` (board directions), with its label.
fn tile(
    out: &mut String,
    style: &Style<'_>,
    (x, y): (f64, f64),
    edges: [Edge; 4],
    id: i64,
    rotation: Option<u8>,
) {
    if style.triangles {
        let colours: Vec<&str> = style.colours.iter().map(|c| c.0).collect();
        triangles::piece(out, (x, y, S), edges, &colours, style.names, (id, rotation));
        return;
    }
    let _ = writeln!(
        out,
        r##"  <rect x="{x:.1}" y="{y:.1}" width="{S:.1}" height="{S:.1}" fill="#FAFAF5" stroke="#999" stroke-width="1"/>"##
    );
    for (d, e) in edges.into_iter().enumerate() {
        edge_shape(out, x, y, d, e, style);
        if let Some(names) = style.names {
            // Right and left: below the shape; top and bottom: beside it.
            let (lx, ly, anchor) = match d {
                0 => (x + S - 3.0, y + 84.0, "end"),
                1 => (x + 72.0, y + 11.0, "start"),
                2 => (x + 3.0, y + 84.0, "start"),
                _ => (x + 72.0, y + S - 4.0, "start"),
            };
            let _ = writeln!(
                out,
                r##"  <text x="{lx:.1}" y="{ly:.1}" font-family="sans-serif" font-size="9" text-anchor="{anchor}" fill="#333">{}{}</text>"##,
                escape(&names[e.motif as usize]),
                e.half.symbol()
            );
        }
    }
    let (cx, cy) = (x + S / 2.0, y + S / 2.0);
    let _ = writeln!(
        out,
        r##"  <text x="{cx:.1}" y="{:.1}" font-family="sans-serif" font-size="22" text-anchor="middle" fill="#222">{id}</text>"##,
        cy + 4.0
    );
    if let Some(r) = rotation {
        let _ = writeln!(
            out,
            r##"  <text x="{cx:.1}" y="{:.1}" font-family="sans-serif" font-size="11" text-anchor="middle" fill="#666">r={r}</text>"##,
            cy + 17.0
        );
    }
}

/// Width of one legend column.
const LEGEND_COLUMN: f64 = 120.0;

/// Legend columns that fit a picture `width` wide.
fn legend_columns(width: f64) -> usize {
    (((width - 2.0 * MARGIN) / LEGEND_COLUMN).floor() as usize).max(1)
}

fn legend_rows(p: &Puzzle, width: f64) -> usize {
    p.motifs().len().div_ceil(legend_columns(width))
}

/// The motifs in the legend's order: by number where every name is one
/// (the community's colours: 0, the frame, first), else as the file
/// names them.
fn legend_order(p: &Puzzle) -> Vec<usize> {
    let mut order: Vec<usize> = (0..p.motifs().len()).collect();
    let numbers: Option<Vec<u64>> = p.motifs().iter().map(|m| m.parse().ok()).collect();
    if let Some(n) = numbers {
        order.sort_by_key(|&k| n[k]);
    }
    order
}

fn legend(out: &mut String, p: &Puzzle, style: &Style<'_>, top: f64, width: f64) {
    let rows = legend_rows(p, width).max(1);
    for (at, k) in legend_order(p).into_iter().enumerate() {
        let name = &p.motifs()[k];
        let (fill, dashed) = style.colours[k];
        let x = MARGIN + (at / rows) as f64 * LEGEND_COLUMN;
        let y = top + (at % rows) as f64 * LEGEND_ROW;
        let _ = writeln!(
            out,
            r##"  <rect x="{x:.1}" y="{y:.1}" width="14" height="14" fill="{fill}" stroke="#333"{}/>"##,
            if dashed {
                r#" stroke-dasharray="3 2""#
            } else {
                ""
            }
        );
        let _ = writeln!(
            out,
            r##"  <text x="{:.1}" y="{:.1}" font-family="sans-serif" font-size="13" fill="#222">{}</text>"##,
            x + 22.0,
            y + 12.0,
            escape(name)
        );
    }
    let y = top + rows as f64 * LEGEND_ROW + 14.0;
    let key = if style.triangles {
        "one triangle per edge · grey: the frame · a join is one colour"
    } else {
        "+ head (points out) · - tail (points in) · = bar"
    };
    let _ = writeln!(
        out,
        r##"  <text x="{MARGIN:.1}" y="{y:.1}" font-family="sans-serif" font-size="12" fill="#444">{key}</text>"##
    );
}

fn document(width: f64, height: f64, title: &str, body: &str) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\">\n  <title>{}</title>\n  <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n{body}</svg>\n",
        escape(title)
    )
}

fn legend_height(p: &Puzzle, width: f64) -> f64 {
    legend_rows(p, width) as f64 * LEGEND_ROW + 30.0
}

/// A solved board: every tile drawn as placed, on a thin grid.
pub fn solution(p: &Puzzle, s: &Solution) -> String {
    let style = Style::new(p);
    let mut body = String::new();
    for i in 0..p.rows() {
        for j in 0..p.cols() {
            let pl = s.at(i, j);
            let t = p.tile(pl.tile).expect("a verified solution");
            let edges = std::array::from_fn(|d| t.edge(pl.rotation, d));
            let (x, y) = (MARGIN + j as f64 * S, MARGIN + i as f64 * S);
            tile(&mut body, &style, (x, y), edges, pl.tile, Some(pl.rotation));
        }
    }
    fixed_marks(&mut body, p);
    let (side_w, side) = (p.cols() as f64 * S, p.rows() as f64 * S);
    let _ = writeln!(
        body,
        r##"  <rect x="{MARGIN:.1}" y="{MARGIN:.1}" width="{side_w:.1}" height="{side:.1}" fill="none" stroke="#444" stroke-width="2"/>"##
    );
    let width = (2.0 * MARGIN + side_w).max(320.0);
    legend(&mut body, p, &style, MARGIN + side + GAP, width);
    let height = MARGIN + side + GAP + legend_height(p, width);
    document(width, height, &format!("{}: solution", p.name()), &body)
}

/// A full board whose joins need not all fit (`scramble best`): drawn as a
/// solution, with every broken join (as the caller scored it) marked by a
/// thick red bar across it.
pub fn scored(p: &Puzzle, s: &Solution, broken: &[crate::board::Join]) -> String {
    let doc = solution(p, s);
    let mut marks = String::new();
    for join in broken {
        let (x1, y1, x2, y2) = match *join {
            crate::board::Join::Right { i, j } => {
                let x = MARGIN + j as f64 * S;
                let y = MARGIN + (i - 1) as f64 * S;
                (x, y + 0.2 * S, x, y + 0.8 * S)
            }
            crate::board::Join::Down { i, j } => {
                let x = MARGIN + (j - 1) as f64 * S;
                let y = MARGIN + i as f64 * S;
                (x + 0.2 * S, y, x + 0.8 * S, y)
            }
        };
        let _ = writeln!(
            marks,
            r##"  <line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="#d00" stroke-width="7" stroke-linecap="round"><title>broken join {join}</title></line>"##
        );
    }
    match doc.rfind("</svg>") {
        Some(at) => format!("{}{marks}{}", &doc[..at], &doc[at..]),
        None => doc,
    }
}

/// A thick dashed outline on every cell that holds a fixed piece (the
/// Eternity II starter piece, the clue pieces), so a person sees which
/// pieces were given.
fn fixed_marks(body: &mut String, p: &Puzzle) {
    for h in p.hints() {
        let (i, j) = (h.cell / p.cols(), h.cell % p.cols());
        let (x, y) = (MARGIN + j as f64 * S + 3.0, MARGIN + i as f64 * S + 3.0);
        let _ = writeln!(
            body,
            r##"  <rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{w:.1}" fill="none" stroke="#000" stroke-width="4" stroke-dasharray="8 4"><title>fixed piece: tile {}</title></rect>"##,
            h.tile,
            w = S - 6.0
        );
    }
}

/// The unsolved tiles in id order, unrotated, with gaps between them.
pub fn unsolved(p: &Puzzle) -> String {
    let cols = p.cols().max(1);
    let rows = p.len().div_ceil(cols);
    let style = Style::new(p);
    let mut body = String::new();
    for (k, t) in p.tiles().iter().enumerate() {
        let (i, j) = (k / cols, k % cols);
        let (x, y) = (MARGIN + j as f64 * (S + GAP), MARGIN + i as f64 * (S + GAP));
        tile(&mut body, &style, (x, y), t.edges, t.id, None);
    }
    let grid_w = cols as f64 * (S + GAP) - GAP;
    let grid_h = rows as f64 * (S + GAP) - GAP;
    let width = (2.0 * MARGIN + grid_w).max(320.0);
    legend(&mut body, p, &style, MARGIN + grid_h + GAP, width);
    let height = MARGIN + grid_h + GAP + legend_height(p, width);
    document(width, height, &format!("{}: tiles", p.name()), &body)
}

/// The solution picture: composed from the tile images when there are
/// any, drawn from the tile data otherwise.
pub(crate) fn solution_picture(p: &Puzzle, s: &Solution, images: Option<&TileImages>) -> String {
    match images {
        Some(im) => solution_from_images(p, s, im),
        None => solution(p, s),
    }
}

/// The unsolved tiles: their images when there are any, drawn otherwise.
pub fn unsolved_picture(p: &Puzzle, images: Option<&TileImages>) -> String {
    match images {
        Some(im) => unsolved_from_images(p, im),
        None => unsolved(p),
    }
}

/// Every tile image once, as `<image id="tile-K">` (K the tile's index).
fn image_defs(p: &Puzzle, images: &TileImages) -> String {
    let mut out = String::from("  <defs>\n");
    for (k, t) in p.tiles().iter().enumerate() {
        let data = base64::engine::general_purpose::STANDARD.encode(&images.png[&t.id]);
        let _ = writeln!(
            out,
            r#"    <image id="tile-{k}" width="{S:.0}" height="{S:.0}" preserveAspectRatio="none" href="data:image/png;base64,{data}"/>"#
        );
    }
    out.push_str("  </defs>\n");
    out
}

/// A label in the top left corner of a tile at (x, y).
fn corner_label(out: &mut String, (x, y): (f64, f64), text: &str) {
    let w = 7.0 + 6.5 * text.chars().count() as f64;
    let _ = writeln!(
        out,
        r##"  <rect x="{:.1}" y="{:.1}" width="{w:.1}" height="15" rx="3" fill="white" fill-opacity="0.85" stroke="#666" stroke-width="0.5"/>"##,
        x + 2.0,
        y + 2.0
    );
    let _ = writeln!(
        out,
        r##"  <text x="{:.1}" y="{:.1}" font-family="sans-serif" font-size="11" fill="#111">{}</text>"##,
        x + 5.5,
        y + 13.5,
        escape(text)
    );
}

/// A solved board composed from the tile images.
pub(crate) fn solution_from_images(p: &Puzzle, s: &Solution, images: &TileImages) -> String {
    let mut body = image_defs(p, images);
    let mut labels = String::new();
    for i in 0..p.rows() {
        for j in 0..p.cols() {
            let pl = s.at(i, j);
            let k = p
                .tiles()
                .iter()
                .position(|t| t.id == pl.tile)
                .expect("a verified solution");
            let (x, y) = (MARGIN + j as f64 * S, MARGIN + i as f64 * S);
            let _ = writeln!(
                body,
                r##"  <use href="#tile-{k}" transform="translate({x:.1} {y:.1}) rotate({:.0} {:.1} {:.1})"/>"##,
                -90.0 * pl.rotation as f64,
                S / 2.0,
                S / 2.0
            );
            let _ = writeln!(
                body,
                r##"  <rect x="{x:.1}" y="{y:.1}" width="{S:.1}" height="{S:.1}" fill="none" stroke="#444" stroke-width="0.5"/>"##
            );
            corner_label(
                &mut labels,
                (x, y),
                &format!("{} r={}", pl.tile, pl.rotation),
            );
        }
    }
    body.push_str(&labels);
    fixed_marks(&mut body, p);
    let (side_w, side) = (p.cols() as f64 * S, p.rows() as f64 * S);
    let _ = writeln!(
        body,
        r##"  <rect x="{MARGIN:.1}" y="{MARGIN:.1}" width="{side_w:.1}" height="{side:.1}" fill="none" stroke="#444" stroke-width="2"/>"##
    );
    document(
        2.0 * MARGIN + side_w,
        2.0 * MARGIN + side,
        &format!("{}: solution", p.name()),
        &body,
    )
}

/// The tile images in id order, unturned, each with its id.
pub(crate) fn unsolved_from_images(p: &Puzzle, images: &TileImages) -> String {
    let cols = p.cols().max(1);
    let rows = p.len().div_ceil(cols);
    let mut body = image_defs(p, images);
    for (k, t) in p.tiles().iter().enumerate() {
        let (i, j) = (k / cols, k % cols);
        let (x, y) = (MARGIN + j as f64 * (S + GAP), MARGIN + i as f64 * (S + GAP));
        let _ = writeln!(
            body,
            r##"  <use href="#tile-{k}" transform="translate({x:.1} {y:.1})"/>"##
        );
        let _ = writeln!(
            body,
            r##"  <rect x="{x:.1}" y="{y:.1}" width="{S:.1}" height="{S:.1}" fill="none" stroke="#444" stroke-width="0.5"/>"##
        );
        corner_label(&mut body, (x, y), &t.id.to_string());
    }
    let width = 2.0 * MARGIN + cols as f64 * (S + GAP) - GAP;
    let height = 2.0 * MARGIN + rows as f64 * (S + GAP) - GAP;
    document(width, height, &format!("{}: tiles", p.name()), &body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn deterministic_and_one_shape_per_edge() {
        let p = Puzzle::load(Path::new("puzzles/3x3-original")).unwrap();
        let s = crate::board::parse_seed_text(
            "[t=1,r=1] [t=9,r=3] [t=7,r=2] [t=4,r=2] [t=5,r=3] [t=3,r=2] [t=8,r=0] [t=6,r=3] [t=2,r=2]",
        )
        .unwrap();
        let a = solution(&p, &s);
        assert_eq!(a, solution(&p, &s));
        assert_eq!(a.matches("<polygon").count(), 36);
        assert!(a.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(a.contains(">ylw</text>"));
        let u = unsolved(&p);
        assert_eq!(u.matches("<polygon").count(), 36);
        assert!(!u.contains("r=0"));
        // Colour-named motifs get their colour: red is vermillion.
        assert!(a.contains(r##"fill="#D55E00""##));
    }

    #[test]
    fn framed_boards_are_drawn_as_triangles() {
        let p = Puzzle::load(Path::new("puzzles/eternity2/clue1.txt")).unwrap();
        let s = Solution::new(
            (0..36)
                .map(|k| crate::board::Placement {
                    tile: k + 1,
                    rotation: 0,
                })
                .collect(),
        );
        let a = solution(&p, &s);
        // Four triangles per piece, the frame grey, every motif its colour.
        assert_eq!(a.matches("<polygon").count(), 4 * 36);
        assert!(a.contains(&format!(r#"fill="{}""#, triangles::FRAME)));
        assert!(a.contains("grey: the frame"));
        let u = unsolved(&p);
        assert_eq!(u.matches("<polygon").count(), 4 * 36);
        let style = Style::new(&p);
        let mut c: Vec<_> = style.colours.iter().map(|c| c.0).collect();
        c.sort();
        c.dedup();
        assert_eq!(c.len(), p.motifs().len());
        // Unframed boards keep heads, tails and bars.
        let seed = Puzzle::load(Path::new("puzzles/3x3-original")).unwrap();
        assert!(!Style::new(&seed).triangles);
    }

    #[test]
    fn the_legend_lists_numbered_colours_by_number_and_names_as_written() {
        let numbered = Puzzle::load(Path::new("puzzles/eternity2/clue2.txt")).unwrap();
        let names: Vec<&str> = legend_order(&numbered)
            .into_iter()
            .map(|k| numbered.motifs()[k].as_str())
            .collect();
        assert_eq!(names, ["0", "1", "2", "3", "4", "6", "7", "8", "9"]);
        let named = Puzzle::load(Path::new("puzzles/3x3-original")).unwrap();
        assert_eq!(
            legend_order(&named),
            (0..named.motifs().len()).collect::<Vec<_>>()
        );
    }

    #[test]
    fn colours_are_distinct_until_the_palette_runs_out() {
        let p = Puzzle::parse(
            "1: [[red, '+'], [a, '+'], [b, '+'], [blu, '+']]\n",
            Path::new("t.yaml"),
            "t".into(),
        )
        .unwrap();
        let c = colours(&p);
        assert_eq!(c[0], ("#D55E00", false));
        assert_eq!(c[3], ("#0072B2", false));
        assert_ne!(c[1], c[2]);
        assert!(!c.iter().any(|x| x.1));
    }
}

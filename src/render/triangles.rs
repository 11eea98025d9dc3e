//! The Eternity II community's picture style, for framed boards: each piece
//! drawn as four coloured triangles meeting in its centre, one per edge, the
//! frame grey. Two joined edges then form one diamond of a single colour, so
//! a person sees the frame and every join at a glance; a broken join shows
//! as a diamond of two colours.
//!
//! [`super::svg`] lays the board out and chooses this style; this file
//! draws one piece and gives the colours.

use std::fmt::Write;

use super::escape;
use crate::puzzle::{Edge, Half};

/// The frame's grey.
pub(super) const FRAME: &str = "#A0A0A0";

/// Colours for the other motifs: Okabe and Ito's seven colours (no black),
/// then lighter and darker tints of them, then three of Paul Tol's; beyond
/// these the colours repeat and the motif names are written on the edges.
pub(super) const PALETTE: [&str; 24] = [
    "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", // Okabe-Ito
    "#F3CF80", "#ABDAF4", "#80CFB9", "#F8F2A1", "#80B9D9", "#EAAF80", "#E6BCD3", // lighter
    "#8A5F00", "#33708C", "#005F45", "#908928", "#00446A", "#803800", "#7A4964", // darker
    "#882255", "#44AA99", "#332288", // Tol
];

/// The corners of the triangle on edge `d` (0 right, 1 top, 2 left,
/// 3 bottom) of a piece of side `s` at (x, y): the edge's two ends and the
/// centre.
fn corners(x: f64, y: f64, s: f64, d: usize) -> [(f64, f64); 3] {
    let c = (x + s / 2.0, y + s / 2.0);
    match d {
        0 => [(x + s, y), (x + s, y + s), c],
        1 => [(x, y), (x + s, y), c],
        2 => [(x, y), (x, y + s), c],
        _ => [(x, y + s), (x + s, y + s), c],
    }
}

/// One piece at (x, y), side `s`, showing `edges` (board directions) in
/// `colours` (per motif), with its id and rotation in the centre. Motif
/// names go on the edges when `names` is given; a `+` or `-` half (the
/// community's colours match themselves, `=`) gets a white head or tail.
pub(super) fn piece(
    out: &mut String,
    (x, y, s): (f64, f64, f64),
    edges: [Edge; 4],
    colours: &[&str],
    names: Option<&[String]>,
    (id, rotation): (i64, Option<u8>),
) {
    for (d, e) in edges.into_iter().enumerate() {
        let [a, b, c] = corners(x, y, s, d);
        let _ = writeln!(
            out,
            r##"  <polygon points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}" fill="{}" stroke="#555" stroke-width="0.5"/>"##,
            a.0, a.1, b.0, b.1, c.0, c.1, colours[e.motif as usize]
        );
        // A mark halfway between the edge's middle and the centre.
        let (mx, my) = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
        let (px, py) = ((3.0 * mx + c.0) / 4.0, (3.0 * my + c.1) / 4.0);
        if e.half != Half::Same {
            // Head: a dot nearer the edge; tail: a ring.
            let fill = if e.half == Half::Plus { "#FFF" } else { "none" };
            let _ = writeln!(
                out,
                r##"  <circle cx="{px:.1}" cy="{py:.1}" r="5" fill="{fill}" stroke="#FFF" stroke-width="2"/>"##
            );
        }
        if let Some(names) = names {
            let (tx, ty) = ((mx + c.0) / 2.0, (my + c.1) / 2.0 + 4.0);
            let _ = writeln!(
                out,
                r##"  <text x="{tx:.1}" y="{ty:.1}" font-family="sans-serif" font-size="10" text-anchor="middle" fill="#000" stroke="#FFF" stroke-width="2.5" paint-order="stroke">{}</text>"##,
                escape(&names[e.motif as usize])
            );
        }
    }
    let (cx, cy) = (x + s / 2.0, y + s / 2.0);
    let _ = writeln!(
        out,
        r##"  <text x="{cx:.1}" y="{:.1}" font-family="sans-serif" font-size="18" text-anchor="middle" fill="#000" stroke="#FFF" stroke-width="3" paint-order="stroke">{id}</text>"##,
        cy + 6.0
    );
    if let Some(r) = rotation {
        let _ = writeln!(
            out,
            r##"  <text x="{cx:.1}" y="{:.1}" font-family="sans-serif" font-size="10" text-anchor="middle" fill="#000" stroke="#FFF" stroke-width="2.5" paint-order="stroke">r={r}</text>"##,
            cy + 18.0
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_triangles_meet_in_the_centre() {
        let e = |motif| Edge {
            motif,
            half: Half::Same,
        };
        let mut out = String::new();
        let colours = [FRAME, PALETTE[0], PALETTE[1]];
        piece(
            &mut out,
            (0.0, 0.0, 100.0),
            [e(0), e(1), e(2), e(1)],
            &colours,
            None,
            (7, Some(3)),
        );
        assert_eq!(out.matches("<polygon").count(), 4);
        assert_eq!(out.matches(",50.0,50.0\"").count(), 0);
        assert_eq!(out.matches(" 50.0,50.0\"").count(), 4);
        // The right triangle is grey, the top and bottom share a colour.
        assert!(out.contains(r##"points="100.0,0.0 100.0,100.0 50.0,50.0" fill="#A0A0A0""##));
        assert_eq!(out.matches(PALETTE[0]).count(), 2);
        assert!(!out.contains("<circle"));
        assert!(out.contains(">7</text>") && out.contains(">r=3</text>"));
        let mut halves = String::new();
        let plus = Edge {
            motif: 1,
            half: Half::Plus,
        };
        let minus = Edge {
            half: Half::Minus,
            ..plus
        };
        piece(
            &mut halves,
            (0.0, 0.0, 100.0),
            [plus, minus, plus, minus],
            &colours,
            Some(&["0".into(), "1".into(), "2".into()]),
            (1, None),
        );
        assert_eq!(halves.matches("<circle").count(), 4);
        assert_eq!(halves.matches(r#"fill="none""#).count(), 2);
        assert_eq!(halves.matches(">1</text>").count(), 5);
    }

    #[test]
    fn the_palette_has_no_repeats_and_no_grey() {
        let mut p = PALETTE.to_vec();
        p.sort();
        p.dedup();
        assert_eq!(p.len(), PALETTE.len());
        assert!(!p.contains(&FRAME));
    }
}

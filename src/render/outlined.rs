//! An SVG's labels turned into filled paths of the bundled font's glyphs,
//! so that a rasterizer draws them without a text engine: each `<text>`
//! becomes one `<path>` with the text's paint (fill, stroke, paint order)
//! at the place its position, size and anchor give. Characters are placed
//! side by side by their advances, without kerning.

use std::fmt::Write;

use super::escape;
use super::font::{Font, Pen};

/// The size of a label with no `font-size` of its own or above it (SVG's
/// `medium`).
const DEFAULT_SIZE: f32 = 16.0;

/// Attributes that place or shape the text: read here, not copied to the
/// path.
const TEXT_ONLY: [&str; 8] = [
    "x",
    "y",
    "font-family",
    "font-size",
    "font-weight",
    "font-style",
    "text-anchor",
    "xml:space",
];

/// The SVG `svg` with every `<text>` element replaced by a path drawn in
/// `font`; an error when `svg` is not well-formed XML.
pub(super) fn outlined(svg: &str, font: &Font<'_>) -> Result<String, String> {
    let doc = roxmltree::Document::parse(svg).map_err(|e| e.to_string())?;
    let mut out = String::with_capacity(svg.len());
    let mut copied = 0;
    for node in doc.descendants().filter(|n| n.has_tag_name("text")) {
        let range = node.range();
        if range.start < copied {
            // A text inside a text: its outer one is replaced whole.
            continue;
        }
        out.push_str(&svg[copied..range.start]);
        out.push_str(&path_of(node, font));
        copied = range.end;
    }
    out.push_str(&svg[copied..]);
    Ok(out)
}

/// The text of an element as SVG shows it by default: its characters, runs
/// of white space as one space, none at either end.
fn content(node: roxmltree::Node<'_, '_>) -> String {
    let raw: String = node
        .descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect();
    raw.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// An attribute of `node` or, when it has none, of its nearest ancestor
/// that has one.
fn inherited<'a>(node: roxmltree::Node<'a, '_>, name: &str) -> Option<&'a str> {
    node.ancestors().find_map(|n| n.attribute(name))
}

/// A length in user units ("12", "12px", "12.5"); None for other units.
fn length(v: &str) -> Option<f32> {
    v.trim()
        .trim_end_matches("px")
        .parse()
        .ok()
        .filter(|x: &f32| x.is_finite())
}

/// The path of one text element.
fn path_of(node: roxmltree::Node<'_, '_>, font: &Font<'_>) -> String {
    let text = content(node);
    let size = inherited(node, "font-size")
        .and_then(length)
        .unwrap_or(DEFAULT_SIZE);
    let (x, y) = (
        node.attribute("x").and_then(length).unwrap_or(0.0),
        node.attribute("y").and_then(length).unwrap_or(0.0),
    );
    let glyphs: Vec<u16> = text.chars().map(|c| font.glyph(c)).collect();
    let scale = size / font.units_per_em();
    let width: f32 = glyphs.iter().map(|&g| font.advance(g)).sum::<f32>() * scale;
    let left = match inherited(node, "text-anchor") {
        Some("middle") => x - width / 2.0,
        Some("end") => x - width,
        _ => x,
    };
    let mut pen = PathPen {
        d: String::new(),
        left,
        base: y,
        scale,
    };
    let mut advance = 0.0;
    for &g in &glyphs {
        // A malformed glyph keeps what it drew; the label goes on.
        let _ = font.outline(g, advance, &mut pen);
        advance += font.advance(g);
    }
    let mut el = String::from("<path");
    for a in node.attributes() {
        if !TEXT_ONLY.contains(&a.name()) {
            let _ = write!(el, r#" {}="{}""#, a.name(), escape(a.value()));
        }
    }
    let _ = write!(el, r#" d="{}"/>"#, pen.d.trim_end());
    el
}

/// Path data in user units: font units scaled and flipped about the
/// baseline.
struct PathPen {
    d: String,
    left: f32,
    base: f32,
    scale: f32,
}

impl PathPen {
    fn point(&mut self, x: f32, y: f32) {
        let (u, v) = (self.left + x * self.scale, self.base - y * self.scale);
        let _ = write!(self.d, "{} {} ", short(u), short(v));
    }
}

/// A coordinate with at most two decimals and no trailing zeros.
fn short(v: f32) -> String {
    let s = format!("{:.2}", v);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    match s {
        "-0" => "0".to_string(),
        _ => s.to_string(),
    }
}

impl Pen for PathPen {
    fn move_to(&mut self, x: f32, y: f32) {
        self.d.push('M');
        self.point(x, y);
    }
    fn line_to(&mut self, x: f32, y: f32) {
        self.d.push('L');
        self.point(x, y);
    }
    fn quad_to(&mut self, cx: f32, cy: f32, x: f32, y: f32) {
        self.d.push('Q');
        self.point(cx, cy);
        self.point(x, y);
    }
    fn close(&mut self) {
        self.d.push_str("Z ");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static DEJAVU: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

    fn font() -> Font<'static> {
        Font::parse(DEJAVU).expect("font")
    }

    /// The numbers of a path's data, as (x, y) pairs.
    fn points(path: &str) -> Vec<(f32, f32)> {
        let d = path
            .split(" d=\"")
            .nth(1)
            .expect("d")
            .split('"')
            .next()
            .expect("end");
        let nums: Vec<f32> = d
            .split(|c: char| c.is_ascii_alphabetic() || c == ' ')
            .filter(|s| !s.is_empty())
            .map(|s| s.parse().expect("number"))
            .collect();
        nums.chunks(2).map(|c| (c[0], c[1])).collect()
    }

    fn svg(text: &str) -> String {
        format!(r#"<svg xmlns="http://www.w3.org/2000/svg" font-size="20">{text}</svg>"#)
    }

    #[test]
    fn a_label_becomes_a_path_with_its_paint_and_without_its_font() {
        let s = svg(
            r##"<rect width="5" height="5"/><text x="10" y="30" font-family="sans-serif" text-anchor="middle" fill="#123" stroke="#FFF" stroke-width="2" paint-order="stroke">a&amp;b</text>"##,
        );
        let out = outlined(&s, &font()).unwrap();
        assert!(
            !out.contains("<text") && !out.contains("font-family"),
            "{out}"
        );
        assert!(out.starts_with(r##"<svg xmlns="http://www.w3.org/2000/svg" font-size="20"><rect width="5" height="5"/><path fill="#123" stroke="#FFF" stroke-width="2" paint-order="stroke" d="M"##), "{out}");
        assert!(out.ends_with(r#""/></svg>"#));
        // Centred on x = 10 at the inherited size: as much ink left of it
        // as right, all within a size's reach above the baseline.
        let pts = points(&out);
        let (lo, hi) = pts
            .iter()
            .fold((f32::MAX, f32::MIN), |(l, h), p| (l.min(p.0), h.max(p.0)));
        assert!((lo + hi - 20.0).abs() < 2.0, "{lo} {hi}");
        assert!(pts.iter().all(|p| (10.0..=34.0).contains(&p.1)), "{pts:?}");
    }

    #[test]
    fn anchors_place_the_text_start_middle_and_end() {
        let f = font();
        let left_edge = |anchor: &str| {
            let s = svg(&format!(
                r#"<text x="100" y="50" font-size="10" text-anchor="{anchor}">42</text>"#
            ));
            points(&outlined(&s, &f).unwrap())
                .iter()
                .map(|p| p.0)
                .fold(f32::MAX, f32::min)
        };
        let (start, middle, end) = (left_edge("start"), left_edge("middle"), left_edge("end"));
        let width = (f.advance(f.glyph('4')) + f.advance(f.glyph('2'))) * 10.0 / 2048.0;
        assert!(
            (start - middle - width / 2.0).abs() < 0.05,
            "{start} {middle}"
        );
        assert!((start - end - width).abs() < 0.05, "{start} {end}");
        assert!((100.0..101.5).contains(&start), "{start}");
    }

    #[test]
    fn other_content_is_kept_byte_for_byte_and_empty_labels_draw_nothing() {
        let f = font();
        let s = svg(r#"<g fill="red"><circle r="2"/></g><!-- note --><text x="1" y="2">  </text>"#);
        let out = outlined(&s, &f).unwrap();
        assert_eq!(
            out,
            svg(r#"<g fill="red"><circle r="2"/></g><!-- note --><path d=""/>"#)
        );
        assert_eq!(outlined(&svg(""), &f).unwrap(), svg(""));
        assert!(outlined("<svg", &f).is_err());
    }

    #[test]
    fn white_space_collapses_as_svg_shows_it() {
        let f = font();
        let one = outlined(&svg(r#"<text x="0" y="9">a b</text>"#), &f).unwrap();
        let spaced = outlined(&svg("<text x=\"0\" y=\"9\">\n  a \t  b\n</text>"), &f).unwrap();
        assert_eq!(one, spaced);
    }
}

//! The outlines of a TrueType font's glyphs, read straight from its tables
//! (`cmap` format 4, `hmtx`, `loca`, `glyf`, simple and composite glyphs):
//! all that drawing a label as a filled path needs. No shaping: each
//! character is its own glyph, placed at the sum of the advances before it.

/// A parsed TrueType font, borrowing its bytes.
pub(super) struct Font<'a> {
    data: &'a [u8],
    units_per_em: f32,
    long_loca: bool,
    glyphs: usize,
    h_metrics: usize,
    cmap: usize,
    hmtx: usize,
    loca: usize,
    glyf: usize,
}

/// What the outlines are drawn into, in font units (y up).
pub(super) trait Pen {
    fn move_to(&mut self, x: f32, y: f32);
    fn line_to(&mut self, x: f32, y: f32);
    fn quad_to(&mut self, cx: f32, cy: f32, x: f32, y: f32);
    fn close(&mut self);
}

fn u16_at(d: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes([*d.get(at)?, *d.get(at + 1)?]))
}

fn i16_at(d: &[u8], at: usize) -> Option<i16> {
    u16_at(d, at).map(|v| v as i16)
}

fn u32_at(d: &[u8], at: usize) -> Option<u32> {
    Some(((u16_at(d, at)? as u32) << 16) | u16_at(d, at + 2)? as u32)
}

/// A transform of font units: `x' = a x + c y + e`, `y' = b x + d y + f`.
#[derive(Clone, Copy)]
struct Affine([f32; 6]);

impl Affine {
    fn apply(&self, x: f32, y: f32) -> (f32, f32) {
        let [a, b, c, d, e, f] = self.0;
        (a * x + c * y + e, b * x + d * y + f)
    }

    /// `inner` applied first, then `self`.
    fn then(&self, inner: &Affine) -> Affine {
        let [a, b, c, d, e, f] = inner.0;
        let (x0, y0) = self.apply(0.0, 0.0);
        let (ax, ay) = self.apply(a, b);
        let (cx, cy) = self.apply(c, d);
        let (ex, ey) = self.apply(e, f);
        Affine([ax - x0, ay - y0, cx - x0, cy - y0, ex, ey])
    }
}

/// Composite glyphs nest at most this deep (a guard against cycles).
const MAX_NESTING: usize = 8;

impl<'a> Font<'a> {
    /// The font in `data`, or None when a table it needs is missing or
    /// malformed.
    pub(super) fn parse(data: &'a [u8]) -> Option<Font<'a>> {
        let tables = u16_at(data, 4)? as usize;
        let find = |tag: &[u8; 4]| {
            (0..tables).find_map(|k| {
                let rec = 12 + 16 * k;
                (data.get(rec..rec + 4)? == tag)
                    .then(|| u32_at(data, rec + 8).map(|o| o as usize))?
            })
        };
        let (head, maxp, hhea) = (find(b"head")?, find(b"maxp")?, find(b"hhea")?);
        let cmap = find(b"cmap")?;
        let font = Font {
            data,
            units_per_em: u16_at(data, head + 18)? as f32,
            long_loca: i16_at(data, head + 50)? != 0,
            glyphs: u16_at(data, maxp + 4)? as usize,
            h_metrics: u16_at(data, hhea + 34)? as usize,
            cmap: Self::unicode_subtable(data, cmap)?,
            hmtx: find(b"hmtx")?,
            loca: find(b"loca")?,
            glyf: find(b"glyf")?,
        };
        (font.units_per_em > 0.0 && font.h_metrics > 0).then_some(font)
    }

    /// Where the `cmap` table's Unicode subtable of format 4 starts.
    fn unicode_subtable(d: &[u8], cmap: usize) -> Option<usize> {
        let n = u16_at(d, cmap + 2)? as usize;
        (0..n).find_map(|k| {
            let rec = cmap + 4 + 8 * k;
            let (platform, encoding) = (u16_at(d, rec)?, u16_at(d, rec + 2)?);
            let at = cmap + u32_at(d, rec + 4)? as usize;
            let unicode = platform == 0 || (platform == 3 && encoding == 1);
            (unicode && u16_at(d, at)? == 4).then_some(at)
        })
    }

    pub(super) fn units_per_em(&self) -> f32 {
        self.units_per_em
    }

    /// The glyph of a character (0, the missing glyph, when the font has
    /// none).
    pub(super) fn glyph(&self, c: char) -> u16 {
        self.lookup(c as u32).unwrap_or(0)
    }

    fn lookup(&self, c: u32) -> Option<u16> {
        let (d, t) = (self.data, self.cmap);
        if c > 0xFFFF {
            return None;
        }
        let segs = u16_at(d, t + 6)? as usize / 2;
        let ends = t + 14;
        let starts = ends + 2 * segs + 2;
        let (deltas, ranges) = (starts + 2 * segs, starts + 4 * segs);
        let s = (0..segs).find(|&s| u16_at(d, ends + 2 * s).is_some_and(|e| e as u32 >= c))?;
        let start = u16_at(d, starts + 2 * s)? as u32;
        if start > c {
            return None;
        }
        let delta = u16_at(d, deltas + 2 * s)?;
        let range = u16_at(d, ranges + 2 * s)? as usize;
        let g = match range {
            0 => c as u16,
            _ => match u16_at(d, ranges + 2 * s + range + 2 * (c - start) as usize)? {
                0 => return None,
                g => g,
            },
        };
        Some(g.wrapping_add(delta))
    }

    /// How far the pen moves after `glyph`, in font units.
    pub(super) fn advance(&self, glyph: u16) -> f32 {
        let k = (glyph as usize).min(self.h_metrics - 1);
        u16_at(self.data, self.hmtx + 4 * k).unwrap_or(0) as f32
    }

    /// The bytes of `glyph` in `glyf` (empty for a glyph without outline).
    fn glyph_data(&self, glyph: u16) -> Option<&'a [u8]> {
        let g = glyph as usize;
        if g >= self.glyphs {
            return None;
        }
        let (a, b) = match self.long_loca {
            true => (
                u32_at(self.data, self.loca + 4 * g)? as usize,
                u32_at(self.data, self.loca + 4 * g + 4)? as usize,
            ),
            false => (
                2 * u16_at(self.data, self.loca + 2 * g)? as usize,
                2 * u16_at(self.data, self.loca + 2 * g + 2)? as usize,
            ),
        };
        self.data.get(self.glyf + a..self.glyf + b.max(a))
    }

    /// Draw `glyph`'s outline, moved by `dx` font units, into `pen`.
    /// Returns None when its data is malformed (what was drawn stays).
    pub(super) fn outline(&self, glyph: u16, dx: f32, pen: &mut dyn Pen) -> Option<()> {
        let at = Affine([1.0, 0.0, 0.0, 1.0, dx, 0.0]);
        self.draw(glyph, &at, pen, 0)
    }

    fn draw(&self, glyph: u16, at: &Affine, pen: &mut dyn Pen, depth: usize) -> Option<()> {
        let g = self.glyph_data(glyph)?;
        if g.is_empty() {
            return Some(());
        }
        match i16_at(g, 0)? {
            n if n >= 0 => simple(g, n as usize, at, pen),
            _ if depth < MAX_NESTING => self.composite(g, at, pen, depth),
            _ => None,
        }
    }

    /// A glyph made of other glyphs, each placed by an offset and an
    /// optional scale (components placed by matching points are drawn
    /// unmoved).
    fn composite(&self, g: &[u8], at: &Affine, pen: &mut dyn Pen, depth: usize) -> Option<()> {
        const WORDS: u16 = 0x1;
        const XY: u16 = 0x2;
        const SCALE: u16 = 0x8;
        const MORE: u16 = 0x20;
        const XY_SCALE: u16 = 0x40;
        const TWO_BY_TWO: u16 = 0x80;
        let f2dot14 = |p: usize| i16_at(g, p).map(|v| v as f32 / 16384.0);
        let mut p = 10;
        loop {
            let (flags, glyph) = (u16_at(g, p)?, u16_at(g, p + 2)?);
            p += 4;
            let (e, f) = match flags & WORDS != 0 {
                true => (i16_at(g, p)? as f32, i16_at(g, p + 2)? as f32),
                false => (*g.get(p)? as i8 as f32, *g.get(p + 1)? as i8 as f32),
            };
            p += if flags & WORDS != 0 { 4 } else { 2 };
            let (e, f) = if flags & XY != 0 { (e, f) } else { (0.0, 0.0) };
            let [a, b, c, d] = if flags & SCALE != 0 {
                p += 2;
                let s = f2dot14(p - 2)?;
                [s, 0.0, 0.0, s]
            } else if flags & XY_SCALE != 0 {
                p += 4;
                [f2dot14(p - 4)?, 0.0, 0.0, f2dot14(p - 2)?]
            } else if flags & TWO_BY_TWO != 0 {
                p += 8;
                let m = |k: usize| f2dot14(p - 8 + 2 * k);
                [m(0)?, m(1)?, m(2)?, m(3)?]
            } else {
                [1.0, 0.0, 0.0, 1.0]
            };
            self.draw(glyph, &at.then(&Affine([a, b, c, d, e, f])), pen, depth + 1)?;
            if flags & MORE == 0 {
                return Some(());
            }
        }
    }
}

/// One coordinate array of a simple glyph: deltas read by their flags.
fn coordinates(g: &[u8], p: &mut usize, flags: &[u8], short: u8, same: u8) -> Option<Vec<f32>> {
    let mut v = 0i32;
    let mut out = Vec::with_capacity(flags.len());
    for &fl in flags {
        if fl & short != 0 {
            let b = *g.get(*p)? as i32;
            *p += 1;
            v += if fl & same != 0 { b } else { -b };
        } else if fl & same == 0 {
            v += i16_at(g, *p)? as i32;
            *p += 2;
        }
        out.push(v as f32);
    }
    Some(out)
}

/// A glyph of `contours` contours of on- and off-curve points.
fn simple(g: &[u8], contours: usize, at: &Affine, pen: &mut dyn Pen) -> Option<()> {
    let ends: Vec<usize> = (0..contours)
        .map(|k| u16_at(g, 10 + 2 * k).map(|e| e as usize))
        .collect::<Option<_>>()?;
    let points = ends.last().map_or(0, |e| e + 1);
    let mut p = 10 + 2 * contours;
    p += 2 + u16_at(g, p)? as usize;
    let mut flags = Vec::with_capacity(points);
    while flags.len() < points {
        let f = *g.get(p)?;
        p += 1;
        flags.push(f);
        if f & 0x8 != 0 {
            let repeat = *g.get(p)?;
            p += 1;
            flags.extend(std::iter::repeat_n(f, repeat as usize));
        }
    }
    flags.truncate(points);
    let xs = coordinates(g, &mut p, &flags, 0x2, 0x10)?;
    let ys = coordinates(g, &mut p, &flags, 0x4, 0x20)?;
    let mut first = 0;
    for &end in &ends {
        if end < first || end >= points {
            return None;
        }
        let pts: Vec<Point> = (first..=end)
            .map(|k| {
                let (x, y) = at.apply(xs[k], ys[k]);
                Point {
                    x,
                    y,
                    on: flags[k] & 1 != 0,
                }
            })
            .collect();
        contour(&pts, pen);
        first = end + 1;
    }
    Some(())
}

#[derive(Clone, Copy)]
struct Point {
    x: f32,
    y: f32,
    on: bool,
}

fn mid(a: Point, b: Point) -> Point {
    Point {
        x: (a.x + b.x) / 2.0,
        y: (a.y + b.y) / 2.0,
        on: true,
    }
}

/// One closed contour of quadratic pieces: between two off-curve points
/// lies an implied on-curve point halfway.
fn contour(pts: &[Point], pen: &mut dyn Pen) {
    let n = pts.len();
    if n == 0 {
        return;
    }
    let (start, rest) = match (pts[0].on, pts[n - 1].on) {
        (true, _) => (pts[0], &pts[1..]),
        (false, true) => (pts[n - 1], &pts[..n - 1]),
        (false, false) => (mid(pts[0], pts[n - 1]), pts),
    };
    pen.move_to(start.x, start.y);
    let mut ctrl: Option<Point> = None;
    for &p in rest {
        match (p.on, ctrl) {
            (true, Some(c)) => pen.quad_to(c.x, c.y, p.x, p.y),
            (true, None) => pen.line_to(p.x, p.y),
            (false, Some(c)) => {
                let m = mid(c, p);
                pen.quad_to(c.x, c.y, m.x, m.y);
            }
            (false, None) => {}
        }
        ctrl = (!p.on).then_some(p);
    }
    if let Some(c) = ctrl {
        pen.quad_to(c.x, c.y, start.x, start.y);
    }
    pen.close();
}

#[cfg(test)]
mod tests {
    use super::*;

    static DEJAVU: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

    /// Records what is drawn: the commands and the box of the points.
    #[derive(Default)]
    struct Record {
        ops: String,
        min: (f32, f32),
        max: (f32, f32),
    }

    impl Record {
        fn see(&mut self, x: f32, y: f32) {
            self.min = (self.min.0.min(x), self.min.1.min(y));
            self.max = (self.max.0.max(x), self.max.1.max(y));
        }
    }

    impl Pen for Record {
        fn move_to(&mut self, x: f32, y: f32) {
            self.ops.push('M');
            self.see(x, y);
        }
        fn line_to(&mut self, x: f32, y: f32) {
            self.ops.push('L');
            self.see(x, y);
        }
        fn quad_to(&mut self, cx: f32, cy: f32, x: f32, y: f32) {
            self.ops.push('Q');
            self.see(cx, cy);
            self.see(x, y);
        }
        fn close(&mut self) {
            self.ops.push('Z');
        }
    }

    fn drawn(f: &Font<'_>, c: char) -> Record {
        let mut r = Record::default();
        f.outline(f.glyph(c), 0.0, &mut r).expect("outline");
        r
    }

    #[test]
    fn dejavu_sans_has_its_metrics_and_outlines() {
        let f = Font::parse(DEJAVU).expect("font");
        assert_eq!(f.units_per_em(), 2048.0);
        // Digits share one advance; a space has an advance but no outline.
        let adv: Vec<f32> = ('0'..='9').map(|c| f.advance(f.glyph(c))).collect();
        assert!(adv.iter().all(|&a| a == adv[0] && a > 0.0), "{adv:?}");
        assert!(drawn(&f, ' ').ops.is_empty());
        // 'l' is one closed rectangle of lines; 'o' two closed curves.
        assert_eq!(drawn(&f, 'l').ops, "MLLLZ");
        let o = drawn(&f, 'o');
        assert_eq!(o.ops.matches('M').count(), 2);
        assert!(o.ops.contains('Q') && !o.ops.contains('L'));
        // '1' stands on the baseline and is about as tall as a cap.
        let one = drawn(&f, '1');
        assert_eq!(one.min.1, 0.0);
        assert!((1400.0..1600.0).contains(&one.max.1), "{}", one.max.1);
    }

    #[test]
    fn accented_letters_are_drawn_from_their_parts() {
        let f = Font::parse(DEJAVU).expect("font");
        let e = drawn(&f, 'e');
        let accented = drawn(&f, 'é');
        assert_ne!(f.glyph('é'), 0);
        // DejaVu Sans builds it from 'e' and the accent.
        let data = f.glyph_data(f.glyph('é')).expect("glyph");
        assert!(i16_at(data, 0).expect("contours") < 0, "not composite");
        assert!(accented.ops.len() > e.ops.len());
        assert!(accented.max.1 > e.max.1 + 200.0);
    }

    #[test]
    fn a_character_the_font_lacks_is_the_missing_glyph() {
        let f = Font::parse(DEJAVU).expect("font");
        assert_eq!(f.glyph('\u{10FFFF}'), 0);
        assert_eq!(f.glyph('\u{E000}'), 0);
        assert!(!drawn(&f, '\u{E000}').ops.is_empty());
    }

    #[test]
    fn malformed_fonts_are_refused_not_read_past_their_end() {
        assert!(Font::parse(&[]).is_none());
        assert!(Font::parse(&DEJAVU[..200]).is_none());
        let f = Font::parse(DEJAVU).expect("font");
        // A glyph number past the font's glyphs draws nothing.
        assert!(f.outline(u16::MAX, 0.0, &mut Record::default()).is_none());
    }
}

//! PNG pictures: the SVG of the same picture rasterized by resvg, a pure-Rust
//! renderer, its labels drawn as outlines of the one font bundled in the
//! binary (DejaVu Sans, assets/fonts; src/render/outlined.rs), so a picture
//! is byte-for-byte the same on every machine and shows the same thing as
//! its SVG, without a text engine to build.

use resvg::{tiny_skia, usvg};
use thiserror::Error;

use super::font::Font;
use super::outlined::outlined;

/// DejaVu Sans (Bitstream Vera licence, assets/fonts/LICENSE-DejaVu.txt).
static FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

/// Pixels per SVG unit: labels stay legible.
pub const SCALE: f32 = 2.0;

/// The largest side a PNG may have, in pixels.
const MAX_SIDE: u32 = 16_384;

#[derive(Debug, Error)]
pub enum PngError {
    #[error("cannot read the SVG: {0}")]
    Svg(String),
    #[error("the picture would be {0}x{1} pixels, more than {MAX_SIDE} on a side")]
    TooLarge(u32, u32),
    #[error("cannot encode the PNG: {0}")]
    Encode(String),
    #[error("the bundled font cannot be read")]
    Font,
}

/// The size in pixels of the PNG of an SVG of `width` x `height` units.
pub fn size_of(width: f32, height: f32) -> (u32, u32) {
    (
        (width * SCALE).ceil() as u32,
        (height * SCALE).ceil() as u32,
    )
}

/// Rasterize an SVG (one of ours: no external files are read; images must
/// be data URIs).
pub fn from_svg(svg: &str) -> Result<Vec<u8>, PngError> {
    let font = Font::parse(FONT).ok_or(PngError::Font)?;
    let svg = outlined(svg, &font).map_err(PngError::Svg)?;
    let options = usvg::Options {
        // Nothing outside the SVG is loaded.
        image_href_resolver: usvg::ImageHrefResolver {
            resolve_data: usvg::ImageHrefResolver::default_data_resolver(),
            resolve_string: Box::new(|_, _| None),
        },
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(&svg, &options).map_err(|e| PngError::Svg(e.to_string()))?;
    let size = tree.size();
    let (w, h) = size_of(size.width(), size.height());
    if w > MAX_SIDE || h > MAX_SIDE {
        return Err(PngError::TooLarge(w, h));
    }
    let mut pixmap = tiny_skia::Pixmap::new(w, h).ok_or(PngError::TooLarge(w, h))?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(SCALE, SCALE),
        &mut pixmap.as_mut(),
    );
    encode(pixmap)
}

/// The PNG of a rendered pixmap: deflate level 1 with adaptive row filters
/// rather than tiny-skia's level 6: several times faster for files a
/// little larger; the fdeflate settings were faster still but several
/// times larger (docs/log.md).
fn encode(pixmap: tiny_skia::Pixmap) -> Result<Vec<u8>, PngError> {
    let (w, h) = (pixmap.width(), pixmap.height());
    let rgba = pixmap.take_demultiplied();
    let encoding = |e: png::EncodingError| PngError::Encode(e.to_string());
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, w, h);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_deflate_compression(png::DeflateCompression::Level(1));
    encoder.set_filter(png::Filter::Adaptive);
    let mut writer = encoder.write_header().map_err(encoding)?;
    writer.write_image_data(&rgba).map_err(encoding)?;
    writer.finish().map_err(encoding)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SVG: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 40 20"><rect width="20" height="20" fill="#ff0000"/><text x="22" y="15" font-family="sans-serif" font-size="12">7</text></svg>"##;

    #[test]
    fn size_colours_and_determinism() {
        let png = from_svg(SVG).unwrap();
        assert_eq!(png, from_svg(SVG).unwrap());
        let pix = tiny_skia::Pixmap::decode_png(&png).unwrap();
        assert_eq!((pix.width(), pix.height()), size_of(40.0, 20.0));
        let red = pix.pixel(10, 10).unwrap();
        assert_eq!(
            (red.red(), red.green(), red.blue(), red.alpha()),
            (255, 0, 0, 255)
        );
        // The digit was drawn with the bundled font: some pixel right of the
        // square is not transparent.
        let inked = (44..80).any(|x| (4..36).any(|y| pix.pixel(x, y).unwrap().alpha() > 0));
        assert!(inked, "no text drawn");
    }

    #[test]
    fn bad_svg_is_an_error() {
        assert!(matches!(from_svg("<svg"), Err(PngError::Svg(_))));
    }
}

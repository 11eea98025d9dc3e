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
    let scale = tiny_skia::Transform::from_scale(SCALE, SCALE);
    draw(tree.root(), scale, &mut pixmap.as_mut());
    encode(pixmap)
}

/// Whether a group holds an image, at any depth.
fn holds_image(group: &usvg::Group) -> bool {
    group.children().iter().any(|n| match n {
        usvg::Node::Image(_) => true,
        usvg::Node::Group(g) => holds_image(g),
        _ => false,
    })
}

/// Draw the nodes of `group` in their order, `transform` taking its
/// coordinates to the pixmap's: images here (resvg is built without its
/// image decoders, whose formats pictures never embed), all else by resvg.
/// A group that holds an image is walked into rather than drawn as a
/// layer: ours have no opacity, clip, mask or filter.
fn draw(group: &usvg::Group, transform: tiny_skia::Transform, pixmap: &mut tiny_skia::PixmapMut) {
    for node in group.children() {
        match node {
            usvg::Node::Image(image) => draw_image(image, transform, pixmap),
            usvg::Node::Group(g) if holds_image(g) => {
                draw(g, transform.pre_concat(g.transform()), pixmap);
            }
            _ => {
                // render_node draws into a pixmap of the node's own box;
                // moved back by that box, it draws into the whole picture.
                if let Some(b) = node.abs_layer_bounding_box() {
                    let at = transform.pre_translate(b.x(), b.y());
                    resvg::render_node(node, at, pixmap);
                }
            }
        }
    }
}

/// A PNG image (the tile images) or a nested SVG; other formats are not
/// drawn.
fn draw_image(
    image: &usvg::Image,
    transform: tiny_skia::Transform,
    pixmap: &mut tiny_skia::PixmapMut,
) {
    if !image.is_visible() {
        return;
    }
    let raster = match image.kind() {
        usvg::ImageKind::PNG(data) => tiny_skia::Pixmap::decode_png(data).ok(),
        usvg::ImageKind::SVG(tree) => return draw(tree.root(), transform, pixmap),
        _ => None,
    };
    let Some(raster) = raster else { return };
    let quality = match image.rendering_mode() {
        usvg::ImageRendering::OptimizeSpeed
        | usvg::ImageRendering::CrispEdges
        | usvg::ImageRendering::Pixelated => tiny_skia::FilterQuality::Nearest,
        usvg::ImageRendering::Smooth => tiny_skia::FilterQuality::Bilinear,
        _ => tiny_skia::FilterQuality::Bicubic,
    };
    let rect = tiny_skia::Rect::from_xywh(0.0, 0.0, raster.width() as f32, raster.height() as f32);
    let Some(rect) = rect else { return };
    let paint = tiny_skia::Paint {
        shader: tiny_skia::Pattern::new(
            raster.as_ref(),
            tiny_skia::SpreadMode::Pad,
            quality,
            1.0,
            tiny_skia::Transform::identity(),
        ),
        ..tiny_skia::Paint::default()
    };
    pixmap.fill_rect(rect, &paint, transform, None);
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
    fn images_are_drawn_in_their_place_in_the_order() {
        use base64::Engine;
        // A 4x4 blue PNG, drawn 10 units wide through a <use> inside a
        // moved group; a red square drawn after it covers its left half.
        let mut blue = tiny_skia::Pixmap::new(4, 4).unwrap();
        blue.fill(tiny_skia::Color::from_rgba8(0, 0, 255, 255));
        let data = base64::engine::general_purpose::STANDARD.encode(blue.encode_png().unwrap());
        let svg = format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="30" height="20" viewBox="0 0 30 20"><defs><image id="i" width="10" height="10" href="data:image/png;base64,{data}"/></defs><g transform="translate(10 5)"><use href="#i"/></g><rect x="5" y="5" width="10" height="10" fill="#ff0000"/></svg>"##
        );
        let pix = tiny_skia::Pixmap::decode_png(&from_svg(&svg).unwrap()).unwrap();
        let rgb = |x: f32, y: f32| {
            let c = pix.pixel((x * SCALE) as u32, (y * SCALE) as u32).unwrap();
            (c.red(), c.green(), c.blue(), c.alpha())
        };
        assert_eq!(rgb(17.0, 10.0), (0, 0, 255, 255), "the image");
        assert_eq!(rgb(12.0, 10.0), (255, 0, 0, 255), "the square over it");
        assert_eq!(rgb(25.0, 10.0).3, 0, "nothing right of the image");
        assert_eq!(rgb(17.0, 2.0).3, 0, "nothing above the image");
    }

    #[test]
    fn bad_svg_is_an_error() {
        assert!(matches!(from_svg("<svg"), Err(PngError::Svg(_))));
    }
}

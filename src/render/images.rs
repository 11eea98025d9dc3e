//! Tile images, as in the original post: `1.png` ... `N.png` beside the
//! puzzle's YAML (for a puzzle folder, in its `input/`), named by tile id,
//! square and all the same size. Pictures are composed from them when they
//! are there, and drawn from the tile data otherwise.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::puzzle::Puzzle;

#[derive(Debug, Error)]
#[error("{}: {message}", path.display())]
pub struct ImageError {
    pub path: PathBuf,
    pub message: String,
}

/// The image of every tile, PNG bytes by tile id.
#[derive(Clone, Debug)]
pub struct TileImages {
    /// The folder they came from.
    pub dir: PathBuf,
    /// Width and height of every image, in pixels.
    pub side: u32,
    pub png: BTreeMap<i64, Vec<u8>>,
}

/// Width and height of a PNG, from its header.
pub(crate) fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    if bytes.len() < 24 || &bytes[..8] != SIGNATURE || &bytes[12..16] != b"IHDR" {
        return None;
    }
    let be = |k: usize| u32::from_be_bytes([bytes[k], bytes[k + 1], bytes[k + 2], bytes[k + 3]]);
    Some((be(16), be(20)))
}

impl TileImages {
    /// The folder a puzzle's tile images would be in.
    pub fn folder(p: &Puzzle) -> PathBuf {
        p.source()
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default()
    }

    /// The puzzle's tile images: `None` when the folder has none of them;
    /// an error when it has some but not all, or one is not a square PNG of
    /// the common size.
    pub fn find(p: &Puzzle) -> Result<Option<TileImages>, ImageError> {
        let dir = Self::folder(p);
        let path = |id: i64| dir.join(format!("{id}.png"));
        if !p.tiles().iter().any(|t| path(t.id).is_file()) {
            return Ok(None);
        }
        Self::load(&dir, p).map(Some)
    }

    /// Every tile's image from `dir`.
    pub fn load(dir: &Path, p: &Puzzle) -> Result<TileImages, ImageError> {
        let mut png = BTreeMap::new();
        let mut side: Option<(u32, PathBuf)> = None;
        for t in p.tiles() {
            let path = dir.join(format!("{}.png", t.id));
            let err = |message: String| ImageError {
                path: path.clone(),
                message,
            };
            let bytes = std::fs::read(&path).map_err(|e| {
                err(format!(
                    "cannot read the image of tile {} ({e}); a puzzle's tile images must all be there or none",
                    t.id
                ))
            })?;
            let (w, h) = png_size(&bytes).ok_or_else(|| err("not a PNG file".into()))?;
            if w != h || w == 0 {
                return Err(err(format!(
                    "is {w}x{h} pixels; tile images must be square"
                )));
            }
            match &side {
                Some((s, first)) if *s != w => {
                    return Err(err(format!(
                        "is {w}x{w} pixels but {} is {s}x{s}; tile images must all be the same size",
                        first.display()
                    )));
                }
                Some(_) => {}
                None => side = Some((w, path.clone())),
            }
            png.insert(t.id, bytes);
        }
        Ok(TileImages {
            dir: dir.to_path_buf(),
            side: side.map_or(0, |s| s.0),
            png,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_png_header() {
        let pix = resvg::tiny_skia::Pixmap::new(7, 5).unwrap();
        let png = pix.encode_png().unwrap();
        assert_eq!(png_size(&png), Some((7, 5)));
        assert_eq!(png_size(b"GIF89a...................."), None);
        assert_eq!(png_size(&png[..10]), None);
    }
}

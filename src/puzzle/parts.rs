//! How a puzzle is made outside its formats' readers: from its parts,
//! checked ([`Puzzle::new`]), and read back through methods.

use std::path::{Path, PathBuf};

use super::{Hint, Puzzle, PuzzleError, Tile, Turning};

/// What a puzzle is made of, for [`Puzzle::new`] to check.
#[derive(Clone, Debug)]
pub(crate) struct Parts {
    /// A short name: the directory name, or the file stem.
    pub(crate) name: String,
    /// The `# title` comment on the first line of the file, if any.
    pub(crate) title: Option<String>,
    /// The file the tiles came from.
    pub(crate) source: PathBuf,
    /// Board rows and columns (equal on a square board).
    pub(crate) rows: usize,
    pub(crate) cols: usize,
    /// The tiles, in any order (the puzzle keeps them sorted by id).
    pub(crate) tiles: Vec<Tile>,
    /// Motif names, indexed by [`Edge::motif`](super::Edge::motif).
    pub(crate) motifs: Vec<String>,
    /// The frame motif: its edges lie exactly on the board's outside.
    pub(crate) frame: Option<u16>,
    /// Fixed pieces, in any order.
    pub(crate) hints: Vec<Hint>,
    /// Whether tiles turn.
    pub(crate) turning: Turning,
}

impl Puzzle {
    /// A puzzle of these parts, checked: `rows * cols` tiles with distinct
    /// ids, every motif named, and the frame and the fixed pieces as a
    /// puzzle file's are checked (errors name `parts.source`).
    pub(crate) fn new(parts: Parts) -> Result<Puzzle, PuzzleError> {
        let Parts {
            name,
            title,
            source,
            rows,
            cols,
            mut tiles,
            motifs,
            frame,
            mut hints,
            turning,
        } = parts;
        let bad = |message: String| PuzzleError::Rule {
            path: source.clone(),
            line: None,
            message,
        };
        if rows == 0 || cols == 0 || tiles.len() != rows * cols {
            return Err(bad(format!(
                "{} tiles do not fill a {rows}x{cols} board",
                tiles.len()
            )));
        }
        tiles.sort_by_key(|t| t.id);
        if let Some(w) = tiles.windows(2).find(|w| w[0].id == w[1].id) {
            return Err(bad(format!("tile id {} is used twice", w[0].id)));
        }
        let named = |m: u16| (m as usize) < motifs.len();
        if let Some(t) = tiles
            .iter()
            .find(|t| !t.edges.iter().all(|e| named(e.motif)))
        {
            return Err(bad(format!("tile {} shows a motif with no name", t.id)));
        }
        if frame.is_some_and(|f| !named(f)) {
            return Err(bad("the frame motif has no name".into()));
        }
        hints.sort();
        let puzzle = Puzzle {
            name,
            title,
            source,
            rows,
            cols,
            tiles,
            motifs,
            frame,
            hints,
            turning,
        };
        puzzle.check_frame(&|_| None)?;
        puzzle.check_hints(None)?;
        Ok(puzzle)
    }

    /// The parts, to change and check again with [`Puzzle::new`].
    pub(crate) fn into_parts(self) -> Parts {
        Parts {
            name: self.name,
            title: self.title,
            source: self.source,
            rows: self.rows,
            cols: self.cols,
            tiles: self.tiles,
            motifs: self.motifs,
            frame: self.frame,
            hints: self.hints,
            turning: self.turning,
        }
    }

    /// A short name: the directory name, or the file stem.
    pub fn name(&self) -> &str {
        &self.name
    }

    pub(crate) fn set_name(&mut self, name: String) {
        self.name = name;
    }

    /// The `# title` comment on the first line of the file, if any.
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    pub(crate) fn set_title(&mut self, title: Option<String>) {
        self.title = title;
    }

    /// The file the tiles came from.
    pub fn source(&self) -> &Path {
        &self.source
    }

    /// Board rows (equal to the columns on a square board).
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Board columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Tiles sorted by id.
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    /// Motif names, indexed by [`Edge::motif`](super::Edge::motif), in order of first appearance.
    pub fn motifs(&self) -> &[String] {
        &self.motifs
    }

    /// The frame motif: its edges lie exactly on the board's outside.
    pub fn frame(&self) -> Option<u16> {
        self.frame
    }

    /// Fixed pieces, sorted.
    pub fn hints(&self) -> &[Hint] {
        &self.hints
    }

    /// Whether tiles turn.
    pub fn turning(&self) -> Turning {
        self.turning
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed() -> Puzzle {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/3x3-original");
        Puzzle::load(&path).unwrap()
    }

    /// The seed's parts changed by `change`, checked again: the error's text.
    fn refused(change: impl FnOnce(&mut Parts)) -> String {
        let mut parts = seed().into_parts();
        change(&mut parts);
        Puzzle::new(parts).unwrap_err().to_string()
    }

    #[test]
    fn a_puzzle_s_parts_make_the_same_puzzle_in_any_order() {
        let p = seed();
        let mut parts = p.clone().into_parts();
        parts.tiles.reverse();
        parts.hints = vec![
            Hint {
                cell: 8,
                tile: 3,
                rotation: 0,
            },
            Hint {
                cell: 0,
                tile: 1,
                rotation: 2,
            },
        ];
        let q = Puzzle::new(parts).unwrap();
        assert_eq!(q.tiles(), p.tiles());
        assert_eq!(q.hints()[0].cell, 0);
        assert_eq!(q.hints()[1].cell, 8);
        let back = Puzzle::new(p.clone().into_parts()).unwrap();
        assert_eq!(back.fingerprint(), p.fingerprint());
        assert_eq!(
            (back.name(), back.rows(), back.cols()),
            ("3x3-original", 3, 3)
        );
    }

    #[test]
    fn broken_parts_are_refused_naming_the_file() {
        let e = refused(|p| {
            p.tiles.pop();
        });
        assert!(
            e.contains("3x3-original") && e.contains("8 tiles do not fill a 3x3 board"),
            "{e}"
        );
        let e = refused(|p| p.tiles[1].id = p.tiles[0].id);
        assert!(e.contains("is used twice"), "{e}");
        let e = refused(|p| p.motifs.truncate(1));
        assert!(e.contains("shows a motif with no name"), "{e}");
        let e = refused(|p| p.frame = Some(99));
        assert!(e.contains("the frame motif has no name"), "{e}");
        // The frame's and the fixed pieces' own checks run too.
        let e = refused(|p| p.frame = Some(0));
        assert!(e.contains("frame"), "{e}");
        let e = refused(|p| {
            p.hints = vec![Hint {
                cell: 0,
                tile: 42,
                rotation: 0,
            }]
        });
        assert!(e.contains("hint: no tile 42"), "{e}");
    }
}

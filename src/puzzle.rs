//! Puzzle types, YAML loading and validation.
//!
//! A puzzle file is a YAML map `tile id -> [[motif, half] x 4]`, edges in the
//! order right, top, left, bottom at rotation 0 (see DEVELOPERS.md). A puzzle
//! *directory* holds the file at `input/tile_dict.yaml`.

use std::fmt;
use std::path::{Path, PathBuf};

use thiserror::Error;

mod lint;
mod parts;
pub mod pieces;
mod rules;
mod yaml;

pub use lint::Lonely;
pub(crate) use parts::Parts;
pub use rules::{Facts, Group, Hint, HintFact, Shape, Turning};
pub(crate) use rules::{cell_at, cell_name};
pub use yaml::to_yaml;

/// Edge directions, in the order the puzzle file lists them.
pub(crate) const RIGHT: usize = 0;
pub(crate) const TOP: usize = 1;
pub(crate) const LEFT: usize = 2;
pub(crate) const BOTTOM: usize = 3;
/// Human names of the four edge slots, indexed like [`RIGHT`]..[`BOTTOM`].
pub(crate) const EDGE_NAMES: [&str; 4] = ["right", "top", "left", "bottom"];

/// One half of a motif.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Half {
    /// `+`: matches `-` of the same motif.
    Plus,
    /// `-`: matches `+` of the same motif.
    Minus,
    /// `=`: a self-matching picture, matches `=` of the same motif.
    Same,
}

impl Half {
    pub fn parse(s: &str) -> Option<Half> {
        match s {
            "+" => Some(Half::Plus),
            "-" => Some(Half::Minus),
            "=" => Some(Half::Same),
            _ => None,
        }
    }
    pub fn symbol(self) -> &'static str {
        match self {
            Half::Plus => "+",
            Half::Minus => "-",
            Half::Same => "=",
        }
    }
    /// The half an adjacent edge must show.
    pub(crate) fn partner(self) -> Half {
        match self {
            Half::Plus => Half::Minus,
            Half::Minus => Half::Plus,
            Half::Same => Half::Same,
        }
    }
}

/// One tile edge: a motif (index into [`Puzzle::motifs`]) and a half.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Edge {
    pub motif: u16,
    pub half: Half,
}

impl Edge {
    /// Whether two touching edges match: same motif, partner halves.
    pub(crate) fn fits(self, other: Edge) -> bool {
        self.motif == other.motif && self.half.partner() == other.half
    }
}

/// A tile: its id as given in the file and its four edges at rotation 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tile {
    pub id: i64,
    pub edges: [Edge; 4],
}

impl Tile {
    /// The edge shown in direction `e` when the tile is turned `r` quarter
    /// turns counterclockwise: base edge `(e - r) mod 4`.
    pub fn edge(&self, rotation: u8, e: usize) -> Edge {
        self.edges[base_side(e, rotation)]
    }
}

/// The side of an unturned tile that shows in direction `e` after `r`
/// counterclockwise quarter turns: `(e - r) mod 4`. The one place this
/// arithmetic is written.
pub(crate) fn base_side(e: usize, r: u8) -> usize {
    (e + 4 - (r as usize % 4)) % 4
}

/// A validated puzzle: `rows * cols` tiles sorted by id, and its rules.
/// Its fields are read through methods: only the readers of its formats
/// (this module's children) and [`Puzzle::new`], which checks them, make
/// one.
#[derive(Clone, Debug)]
pub struct Puzzle {
    name: String,
    title: Option<String>,
    source: PathBuf,
    rows: usize,
    cols: usize,
    tiles: Vec<Tile>,
    motifs: Vec<String>,
    frame: Option<u16>,
    hints: Vec<Hint>,
    turning: Turning,
}

/// Everything that can be wrong with a puzzle file.
#[derive(Debug, Error)]
pub enum PuzzleError {
    #[error("{path}: cannot read puzzle: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "{path}: not a puzzle: a puzzle directory holds input/tile_dict.yaml (or tile_dict.yaml)"
    )]
    NotAPuzzle { path: PathBuf },
    #[error("{path}: invalid YAML: {message}")]
    Yaml { path: PathBuf, message: String },
    #[error("{path}: the file is empty: expected a map of tile id -> 4 edges")]
    Empty { path: PathBuf },
    #[error("{path}: expected a map of tile id -> 4 edges, found {found}")]
    NotAMap { path: PathBuf, found: String },
    #[error("{path}{line}: tile id {id} is not an integer", line = at(*.place))]
    BadId {
        path: PathBuf,
        id: String,
        place: Option<(usize, usize)>,
    },
    #[error("{path}{line}: duplicate tile id {id}", line = at(*.place))]
    DuplicateId {
        path: PathBuf,
        id: i64,
        place: Option<(usize, usize)>,
    },
    #[error("{path}{line}: tile {id} must have exactly 4 edges [right, top, left, bottom], found {found}", line = at(*.place))]
    EdgeCount {
        path: PathBuf,
        id: i64,
        found: String,
        place: Option<(usize, usize)>,
    },
    #[error("{path}{line}: tile {id}, edge {edge} ({name}): expected [motif, half], found {found}", name = EDGE_NAMES[*.edge - 1], line = at(*.place))]
    BadEdge {
        path: PathBuf,
        id: i64,
        edge: usize,
        found: String,
        place: Option<(usize, usize)>,
    },
    #[error("{path}{line}: tile {id}, edge {edge} ({name}): unknown half {half:?}: expected \"+\", \"-\" or \"=\"", name = EDGE_NAMES[*.edge - 1], line = at(*.place))]
    UnknownHalf {
        path: PathBuf,
        id: i64,
        edge: usize,
        half: String,
        place: Option<(usize, usize)>,
    },
    #[error(
        "{path}: {count} tiles is not a square number: an n x n board needs 1, 4, 9, 16, ... tiles"
    )]
    NotSquare { path: PathBuf, count: usize },
    #[error("{path}: more than {max} distinct motifs")]
    TooManyMotifs { path: PathBuf, max: usize },
    #[error("{path}: {count} tiles do not fill {board}")]
    WrongCount {
        path: PathBuf,
        count: usize,
        board: String,
    },
    /// A piece file's line, a rule key, a frame or a hint that is wrong.
    #[error("{path}{}: {message}", line.map(|l| format!(":{l}")).unwrap_or_default())]
    Rule {
        path: PathBuf,
        line: Option<usize>,
        message: String,
    },
}

/// `:LINE:COLUMN` (1-based) of a place in the file, if known.
fn at(place: Option<(usize, usize)>) -> String {
    place.map(|(l, c)| format!(":{l}:{c}")).unwrap_or_default()
}

impl Puzzle {
    /// FNV-1a over the board size and every tile's id and edges (motif names
    /// and halves), in hex: the same puzzle gives the same fingerprint on every
    /// machine and version.
    pub(crate) fn fingerprint(&self) -> String {
        let p = self;
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |s: &str| {
            for b in s.bytes().chain([0xff]) {
                h ^= b as u64;
                h = h.wrapping_mul(0x0000_0100_0000_01b3);
            }
        };
        // A square board of plain edge matching hashes as it always did.
        eat(&p.rows.to_string());
        for t in &p.tiles {
            eat(&t.id.to_string());
            for e in t.edges {
                eat(&p.motifs[e.motif as usize]);
                eat(e.half.symbol());
            }
        }
        if p.rows != p.cols {
            eat(&format!("cols {}", p.cols));
        }
        if let Some(f) = p.frame {
            eat(&format!("frame {}", p.motifs[f as usize]));
        }
        for h in &p.hints {
            eat(&format!("hint {} {} {}", h.tile, h.cell, h.rotation));
        }
        if p.turning != Turning::Quarter {
            eat(&format!("turns {}", p.turning.name()));
        }
        format!("{h:016x}")
    }

    /// Load a puzzle from a YAML file or a puzzle directory.
    pub fn load(path: &Path) -> Result<Puzzle, PuzzleError> {
        let file = resolve(path)?;
        let text = std::fs::read_to_string(&file).map_err(|source| PuzzleError::Io {
            path: file.clone(),
            source,
        })?;
        Puzzle::read(&text, &file, name_of(path))
    }

    /// Parse the text of puzzle file `file` in its format: the community's
    /// piece format when `pieces::is_piece_file` says so, else YAML.
    pub(crate) fn read(text: &str, file: &Path, name: String) -> Result<Puzzle, PuzzleError> {
        if pieces::is_piece_file(file, text) {
            return pieces::parse(text, file, name);
        }
        Puzzle::parse(text, file, name)
    }

    /// Number of tiles.
    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    /// Sorted tile ids.
    pub fn ids(&self) -> Vec<i64> {
        self.tiles.iter().map(|t| t.id).collect()
    }

    /// The tile with this id.
    pub fn tile(&self, id: i64) -> Option<&Tile> {
        self.tiles
            .binary_search_by_key(&id, |t| t.id)
            .ok()
            .map(|k| &self.tiles[k])
    }

    /// The index (0-based, in id order) of the tile with this id.
    pub(crate) fn index_of(&self, id: i64) -> Option<usize> {
        self.tiles.binary_search_by_key(&id, |t| t.id).ok()
    }
}

impl fmt::Display for Puzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}x{})", self.name, self.rows, self.cols)
    }
}

/// The YAML file behind a puzzle path (the file itself,
/// `DIR/input/tile_dict.yaml`, or `DIR/tile_dict.yaml` when DIR is that
/// `input` folder itself).
pub(crate) fn resolve(path: &Path) -> Result<PathBuf, PuzzleError> {
    if path.is_dir() {
        let nested = path.join("input").join("tile_dict.yaml");
        let direct = path.join("tile_dict.yaml");
        if nested.is_file() {
            Ok(nested)
        } else if direct.is_file() {
            Ok(direct)
        } else {
            Err(PuzzleError::NotAPuzzle {
                path: path.to_path_buf(),
            })
        }
    } else if path.exists() {
        Ok(path.to_path_buf())
    } else {
        Err(PuzzleError::Io {
            path: path.to_path_buf(),
            source: std::io::Error::new(std::io::ErrorKind::NotFound, "no such file or directory"),
        })
    }
}

fn name_of(path: &Path) -> String {
    let p = if path.is_dir() {
        let dir = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        // `DIR/input` names the puzzle DIR, as DIR itself does.
        match dir.parent() {
            Some(up)
                if dir.file_name() == Some("input".as_ref()) && !path.join("input").is_dir() =>
            {
                up.to_path_buf()
            }
            _ => dir,
        }
    } else {
        path.with_extension("")
    };
    p.file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Puzzle, PuzzleError> {
        Puzzle::parse(text, Path::new("t.yaml"), "t".into())
    }

    const ONE: &str = "1: [[a, '+'], [b, '-'], [a, '='], [c, '+']]\n";

    #[test]
    fn a_puzzle_directory_or_its_input_folder_load_the_same_puzzle_by_its_name() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("toy");
        std::fs::create_dir_all(dir.join("input")).unwrap();
        std::fs::write(dir.join("input").join("tile_dict.yaml"), ONE).unwrap();
        let whole = Puzzle::load(&dir).unwrap();
        let input = Puzzle::load(&dir.join("input")).unwrap();
        assert_eq!((whole.name.as_str(), input.name.as_str()), ("toy", "toy"));
        assert_eq!(whole.tiles, input.tiles);
        let empty = tmp.path().join("empty");
        std::fs::create_dir(&empty).unwrap();
        let e = Puzzle::load(&empty).unwrap_err().to_string();
        assert!(e.contains("empty") && e.contains("tile_dict.yaml"), "{e}");
    }

    #[test]
    fn parses_a_single_tile() {
        let p = parse(ONE).unwrap();
        assert_eq!((p.rows, p.cols), (1, 1));
        assert_eq!(p.motifs, vec!["a", "b", "c"]);
        assert_eq!(p.tiles[0].edges[2].half, Half::Same);
    }

    #[test]
    fn rotation_follows_the_convention() {
        let p = parse(ONE).unwrap();
        let t = &p.tiles[0];
        // Turned once counterclockwise, the right edge moves to the top.
        assert_eq!(t.edge(1, TOP), t.edges[RIGHT]);
        assert_eq!(t.edge(1, RIGHT), t.edges[BOTTOM]);
        assert_eq!(t.edge(2, LEFT), t.edges[RIGHT]);
        assert_eq!(t.edge(3, BOTTOM), t.edges[RIGHT]);
    }

    #[test]
    fn halves_match() {
        let e = |m, h| Edge { motif: m, half: h };
        assert!(e(0, Half::Plus).fits(e(0, Half::Minus)));
        assert!(e(0, Half::Minus).fits(e(0, Half::Plus)));
        assert!(e(0, Half::Same).fits(e(0, Half::Same)));
        assert!(!e(0, Half::Plus).fits(e(0, Half::Plus)));
        assert!(!e(0, Half::Same).fits(e(0, Half::Plus)));
        assert!(!e(0, Half::Plus).fits(e(1, Half::Minus)));
    }

    #[test]
    fn rejects_bad_files() {
        let cases: &[(&str, &str)] = &[
            ("", "empty"),
            ("[1, 2]", "expected a map"),
            (
                "x: [[a, '+'], [a, '+'], [a, '+'], [a, '+']]",
                "tile id x is not an integer",
            ),
            ("1: [[a, '+'], [a, '+'], [a, '+']]", "exactly 4 edges"),
            ("1: [[a, '+'], [a, '+'], [a], [a, '+']]", "edge 3 (left)"),
            (
                "1: [[a, '+'], [a, '*'], [a, '+'], [a, '+']]",
                "unknown half \"*\"",
            ),
            (
                "1: [[a, '+'], [a, '+'], [a, '+'], [a, '+']]\n2: [[a, '+'], [a, '+'], [a, '+'], [a, '+']]",
                "2 tiles is not a square",
            ),
            (
                "1: [[a, '+'], [a, '+'], [a, '+'], [a, '+']]\n1: [[a, '+'], [a, '+'], [a, '+'], [a, '+']]",
                "duplicate",
            ),
        ];
        for (text, want) in cases {
            let err = parse(text).unwrap_err().to_string();
            assert!(err.contains(want), "{text:?}: {err}");
            assert!(err.starts_with("t.yaml"), "{err}");
        }
    }

    #[test]
    fn errors_name_the_line() {
        let text = "# title\n1: [[a, '+'], [a, '+'], [a, '+'], [a, '+']]\n2: [[a, '+'], [a, '?'], [a, '+'], [a, '+']]\n";
        let err = parse(text).unwrap_err().to_string();
        assert!(
            err.starts_with("t.yaml:3:19: tile 2, edge 2 (top)"),
            "{err}"
        );
    }
}

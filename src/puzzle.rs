//! Puzzle types, YAML loading and validation.
//!
//! A puzzle file is a YAML map `tile id -> [[motif, half] x 4]`, edges in the
//! order right, top, left, bottom at rotation 0 (see DEVELOPERS.md). A puzzle
//! *directory* holds the file at `input/tile_dict.yaml`.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use thiserror::Error;

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
    pub(crate) fn symbol(self) -> &'static str {
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

/// A validated puzzle: `n * n` tiles sorted by id.
#[derive(Clone, Debug)]
pub struct Puzzle {
    /// A short name: the directory name, or the file stem.
    pub name: String,
    /// The `# title` comment on the first line of the file, if any.
    pub title: Option<String>,
    /// The YAML file the tiles came from.
    pub source: PathBuf,
    /// Board side.
    pub n: usize,
    /// Tiles sorted by id.
    pub tiles: Vec<Tile>,
    /// Motif names, indexed by [`Edge::motif`], in order of first appearance.
    pub motifs: Vec<String>,
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
        "{path}: not a puzzle: expected a YAML file or a directory holding input/tile_dict.yaml"
    )]
    NotAPuzzle { path: PathBuf },
    #[error("{path}: invalid YAML: {message}")]
    Yaml { path: PathBuf, message: String },
    #[error("{path}: the file is empty: expected a map of tile id -> 4 edges")]
    Empty { path: PathBuf },
    #[error("{path}: expected a map of tile id -> 4 edges, found {found}")]
    NotAMap { path: PathBuf, found: String },
    #[error("{path}{line}: tile id {id} is not an integer", line = at_line(*.line))]
    BadId {
        path: PathBuf,
        id: String,
        line: Option<usize>,
    },
    #[error("{path}{line}: duplicate tile id {id}", line = at_line(*.line))]
    DuplicateId {
        path: PathBuf,
        id: i64,
        line: Option<usize>,
    },
    #[error("{path}{line}: tile {id} must have exactly 4 edges [right, top, left, bottom], found {found}", line = at_line(*.line))]
    EdgeCount {
        path: PathBuf,
        id: i64,
        found: String,
        line: Option<usize>,
    },
    #[error("{path}{line}: tile {id}, edge {edge} ({name}): expected [motif, half], found {found}", name = EDGE_NAMES[*.edge - 1], line = at_line(*.line))]
    BadEdge {
        path: PathBuf,
        id: i64,
        edge: usize,
        found: String,
        line: Option<usize>,
    },
    #[error("{path}{line}: tile {id}, edge {edge} ({name}): unknown half {half:?}: expected \"+\", \"-\" or \"=\"", name = EDGE_NAMES[*.edge - 1], line = at_line(*.line))]
    UnknownHalf {
        path: PathBuf,
        id: i64,
        edge: usize,
        half: String,
        line: Option<usize>,
    },
    #[error(
        "{path}: {count} tiles is not a square number: an n x n board needs 1, 4, 9, 16, ... tiles"
    )]
    NotSquare { path: PathBuf, count: usize },
    #[error("{path}: more than {max} distinct motifs")]
    TooManyMotifs { path: PathBuf, max: usize },
}

fn at_line(line: Option<usize>) -> String {
    line.map(|l| format!(":{l}")).unwrap_or_default()
}

impl Puzzle {
    /// Load a puzzle from a YAML file or a puzzle directory.
    pub fn load(path: &Path) -> Result<Puzzle, PuzzleError> {
        let file = resolve(path)?;
        let text = std::fs::read_to_string(&file).map_err(|source| PuzzleError::Io {
            path: file.clone(),
            source,
        })?;
        let name = name_of(path);
        Puzzle::parse(&text, &file, name)
    }

    /// Parse puzzle text; `file` is used in error messages and kept as the source.
    pub fn parse(text: &str, file: &Path, name: String) -> Result<Puzzle, PuzzleError> {
        let path = file.to_path_buf();
        let doc: serde_yaml::Value = serde_yaml::from_str(text).map_err(|e| {
            let message = e.to_string();
            // serde_yaml reports a repeated key without its place: find it.
            let dup = message
                .strip_prefix("duplicate entry with key ")
                .map(|k| k.trim_matches('"').to_string());
            match dup.as_deref().map(|k| (k, k.parse::<i64>())) {
                Some((k, Ok(id))) => PuzzleError::DuplicateId {
                    path: path.clone(),
                    id,
                    line: find_lines(text, k).get(1).copied(),
                },
                _ => PuzzleError::Yaml {
                    path: path.clone(),
                    message,
                },
            }
        })?;
        let map = match doc {
            serde_yaml::Value::Null => return Err(PuzzleError::Empty { path }),
            serde_yaml::Value::Mapping(m) => m,
            other => {
                return Err(PuzzleError::NotAMap {
                    path,
                    found: describe(&other),
                });
            }
        };
        if map.is_empty() {
            return Err(PuzzleError::Empty { path });
        }
        let mut motif_index: BTreeMap<String, u16> = BTreeMap::new();
        let mut motifs: Vec<String> = Vec::new();
        let mut tiles: BTreeMap<i64, Tile> = BTreeMap::new();
        for (key, value) in &map {
            let key_text = scalar_text(key);
            let line = find_line(text, &key_text);
            let id = match key {
                serde_yaml::Value::Number(num) => num.as_i64(),
                _ => None,
            }
            .ok_or_else(|| PuzzleError::BadId {
                path: path.clone(),
                id: key_text.clone(),
                line,
            })?;
            if tiles.contains_key(&id) {
                return Err(PuzzleError::DuplicateId {
                    path: path.clone(),
                    id,
                    line,
                });
            }
            let seq = match value {
                serde_yaml::Value::Sequence(s) if s.len() == 4 => s,
                other => {
                    return Err(PuzzleError::EdgeCount {
                        path: path.clone(),
                        id,
                        found: match other {
                            serde_yaml::Value::Sequence(s) => format!("{} edges", s.len()),
                            v => describe(v),
                        },
                        line,
                    });
                }
            };
            let mut edges = [Edge {
                motif: 0,
                half: Half::Plus,
            }; 4];
            for (k, edge) in seq.iter().enumerate() {
                let bad = |found: String| PuzzleError::BadEdge {
                    path: path.clone(),
                    id,
                    edge: k + 1,
                    found,
                    line,
                };
                let pair = match edge {
                    serde_yaml::Value::Sequence(p) if p.len() == 2 => p,
                    serde_yaml::Value::Sequence(p) => {
                        return Err(bad(format!("a list of {} items", p.len())));
                    }
                    v => return Err(bad(describe(v))),
                };
                let motif = match &pair[0] {
                    serde_yaml::Value::String(s) => s.clone(),
                    serde_yaml::Value::Number(num) => num.to_string(),
                    v => return Err(bad(format!("motif {}", describe(v)))),
                };
                let half_text = match &pair[1] {
                    serde_yaml::Value::String(s) => s.clone(),
                    v => scalar_text(v),
                };
                let half = Half::parse(&half_text).ok_or_else(|| PuzzleError::UnknownHalf {
                    path: path.clone(),
                    id,
                    edge: k + 1,
                    half: half_text.clone(),
                    line,
                })?;
                let next = motifs.len();
                let m = *motif_index.entry(motif.clone()).or_insert_with(|| {
                    motifs.push(motif);
                    next as u16
                });
                if motifs.len() > u16::MAX as usize {
                    return Err(PuzzleError::TooManyMotifs {
                        path: path.clone(),
                        max: u16::MAX as usize,
                    });
                }
                edges[k] = Edge { motif: m, half };
            }
            tiles.insert(id, Tile { id, edges });
        }
        let count = tiles.len();
        let n = count.isqrt();
        if n * n != count {
            return Err(PuzzleError::NotSquare { path, count });
        }
        Ok(Puzzle {
            name,
            title: title_of(text),
            source: path,
            n,
            tiles: tiles.into_values().collect(),
            motifs,
        })
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
        write!(f, "{} ({}x{})", self.name, self.n, self.n)
    }
}

/// The YAML file behind a puzzle path (the file itself, or
/// `DIR/input/tile_dict.yaml`).
pub(crate) fn resolve(path: &Path) -> Result<PathBuf, PuzzleError> {
    if path.is_dir() {
        let file = path.join("input").join("tile_dict.yaml");
        if file.is_file() {
            Ok(file)
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
        path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
    } else {
        path.with_extension("")
    };
    p.file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

fn title_of(text: &str) -> Option<String> {
    let first = text.lines().next()?.trim();
    let t = first.strip_prefix('#')?.trim();
    (!t.is_empty()).then(|| t.to_string())
}

fn describe(v: &serde_yaml::Value) -> String {
    match v {
        serde_yaml::Value::Null => "nothing".into(),
        serde_yaml::Value::Bool(b) => format!("the boolean {b}"),
        serde_yaml::Value::Number(n) => format!("the number {n}"),
        serde_yaml::Value::String(s) => format!("the string {s:?}"),
        serde_yaml::Value::Sequence(s) => format!("a list of {} items", s.len()),
        serde_yaml::Value::Mapping(_) => "a map".into(),
        serde_yaml::Value::Tagged(_) => "a tagged value".into(),
    }
}

fn scalar_text(v: &serde_yaml::Value) -> String {
    match v {
        serde_yaml::Value::String(s) => s.clone(),
        serde_yaml::Value::Number(n) => n.to_string(),
        serde_yaml::Value::Bool(b) => b.to_string(),
        serde_yaml::Value::Null => "~".into(),
        other => describe(other),
    }
}

/// 1-based line of the map key `key` at the start of a line, if it can be found.
fn find_line(text: &str, key: &str) -> Option<usize> {
    find_lines(text, key).first().copied()
}

/// Every 1-based line that starts with the map key `key`.
fn find_lines(text: &str, key: &str) -> Vec<usize> {
    let prefixes = [
        format!("{key}:"),
        format!("'{key}':"),
        format!("\"{key}\":"),
    ];
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            let l = l.trim_start();
            prefixes.iter().any(|p| l.starts_with(p.as_str()))
        })
        .map(|(k, _)| k + 1)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Puzzle, PuzzleError> {
        Puzzle::parse(text, Path::new("t.yaml"), "t".into())
    }

    const ONE: &str = "1: [[a, '+'], [b, '-'], [a, '='], [c, '+']]\n";

    #[test]
    fn parses_a_single_tile() {
        let p = parse(ONE).unwrap();
        assert_eq!(p.n, 1);
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
        assert!(err.starts_with("t.yaml:3: tile 2, edge 2 (top)"), "{err}");
    }
}

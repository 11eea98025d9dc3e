//! The project's puzzle YAML, read and written here: [`Puzzle::parse`]
//! reads it (through serde's seeded visitors, document.rs, so every error
//! has its line and column), [`to_yaml`] writes it.

mod document;

use std::collections::BTreeMap;
use std::path::Path;

use document::doc;

use super::{Edge, Half, Hint, Puzzle, PuzzleError, Tile, cell_at};

/// The puzzle in the project's YAML format, with its rule keys (board
/// size when not square, frame, fixed pieces, turning) where it has them.
pub fn to_yaml(p: &super::Puzzle) -> String {
    let mut out = String::new();
    if let Some(t) = &p.title {
        out.push_str(&format!("# {t}\n"));
    }
    if p.rows != p.cols {
        out.push_str(&format!("rows: {}\ncols: {}\n", p.rows, p.cols));
    }
    if let Some(f) = p.frame {
        out.push_str(&format!("frame: '{}'\n", p.motifs[f as usize]));
    }
    if p.turning != super::Turning::Quarter {
        out.push_str(&format!("turns: {}\n", p.turning.name()));
    }
    if !p.hints.is_empty() {
        out.push_str("hints:\n");
        for h in &p.hints {
            out.push_str(&format!(
                "  - {{tile: {}, cell: [{}, {}], rotation: {}}}\n",
                h.tile,
                h.cell / p.cols + 1,
                h.cell % p.cols + 1,
                h.rotation
            ));
        }
    }
    for t in &p.tiles {
        let edges: Vec<String> = t
            .edges
            .iter()
            .map(|e| format!("['{}', '{}']", p.motifs[e.motif as usize], e.half.symbol()))
            .collect();
        out.push_str(&format!("{}: [{}]\n", t.id, edges.join(", ")));
    }
    out
}
impl Puzzle {
    /// Parse puzzle text; `file` is used in error messages and kept as the source.
    ///
    /// The YAML is read through serde ([`doc`], a seeded visitor over
    /// the map, its tiles and edges). Each check runs in the visitor of the
    /// node it concerns and raises its error there, so serde_yaml gives that
    /// node's line and column; the typed problem travels beside the error.
    pub fn parse(text: &str, file: &Path, name: String) -> Result<Puzzle, PuzzleError> {
        let path = file.to_path_buf();
        let problem = std::cell::RefCell::new(None);
        let read = doc(&problem, serde_yaml::Deserializer::from_str(text));
        let doc = match read {
            Ok(doc) => doc,
            Err(e) => {
                let place = e.location().map(|l| (l.line(), l.column()));
                return Err(match problem.into_inner() {
                    Some(p) => p.at(path, place),
                    None => PuzzleError::Yaml {
                        path,
                        message: e.to_string(),
                    },
                });
            }
        };
        let entries = doc.tiles;
        if entries.is_empty() {
            return Err(PuzzleError::Empty { path });
        }
        let lines = KeyLines::new(text);
        let mut motif_index: BTreeMap<String, u16> = BTreeMap::new();
        let mut motifs: Vec<String> = Vec::new();
        let mut tiles: Vec<Tile> = Vec::with_capacity(entries.len());
        for (id, raw) in entries {
            let mut edges = [Edge {
                motif: 0,
                half: Half::Plus,
            }; 4];
            for (edge, (motif, half)) in edges.iter_mut().zip(raw) {
                let next = motifs.len();
                let m = match motif_index.get(&motif) {
                    Some(&m) => m,
                    None if next > u16::MAX as usize => {
                        return Err(PuzzleError::TooManyMotifs {
                            path,
                            max: u16::MAX as usize + 1,
                        });
                    }
                    None => {
                        motif_index.insert(motif.clone(), next as u16);
                        motifs.push(motif);
                        next as u16
                    }
                };
                *edge = Edge { motif: m, half };
            }
            tiles.push(Tile { id, edges });
        }
        tiles.sort_by_key(|t| t.id);
        let (rows, cols) = board_size(tiles.len(), doc.rows, doc.cols, &path)?;
        let frame = match doc.frame {
            None => None,
            Some(f) => match motif_index.get(&f) {
                Some(&m) => Some(m),
                None => {
                    return Err(PuzzleError::Rule {
                        path,
                        line: lines.of("frame"),
                        message: format!("frame: no tile has the motif {f:?}"),
                    });
                }
            },
        };
        let mut puzzle = Puzzle {
            name,
            title: title_of(text),
            source: path,
            rows,
            cols,
            tiles,
            motifs,
            frame,
            hints: Vec::new(),
            turning: doc.turns.unwrap_or_default(),
        };
        puzzle.check_frame(&|id| lines.of(&id.to_string()))?;
        let hints_line = lines.of("hints");
        for h in doc.hints {
            let (i, j) = h.cell;
            let Some(cell) = cell_at(rows, cols, i, j) else {
                return Err(PuzzleError::Rule {
                    path: puzzle.source.clone(),
                    line: hints_line,
                    message: format!(
                        "hint: tile {} on ({i}, {j}), outside the {rows}x{cols} board (cells are 1-based)",
                        h.tile
                    ),
                });
            };
            puzzle.hints.push(Hint {
                cell,
                tile: h.tile,
                rotation: h.rotation,
            });
        }
        puzzle.check_hints(hints_line)?;
        puzzle.hints.sort();
        Ok(puzzle)
    }
}

/// The board's rows and columns for `count` tiles: a square, or the
/// file's `rows` and `cols` (either one is enough).
fn board_size(
    count: usize,
    rows: Option<usize>,
    cols: Option<usize>,
    path: &Path,
) -> Result<(usize, usize), PuzzleError> {
    Ok(match (rows, cols) {
        (None, None) => {
            let n = count.isqrt();
            if n * n != count {
                return Err(PuzzleError::NotSquare {
                    path: path.to_path_buf(),
                    count,
                });
            }
            (n, n)
        }
        (Some(r), None) if count.is_multiple_of(r) => (r, count / r),
        (None, Some(c)) if count.is_multiple_of(c) => (count / c, c),
        (Some(r), Some(c)) if r * c == count => (r, c),
        (r, c) => {
            let board = match (r, c) {
                (Some(r), Some(c)) => format!("a {r}x{c} board ({} cells)", r * c),
                (Some(r), None) => format!("{r} equal rows"),
                (_, c) => format!("{} equal columns", c.unwrap_or(0)),
            };
            return Err(PuzzleError::WrongCount {
                path: path.to_path_buf(),
                count,
                board,
            });
        }
    })
}

/// The lines of a YAML text's top-level keys (`12:`, `frame:`), to name the
/// line of a check made after parsing (a frame, a hint).
struct KeyLines(BTreeMap<String, usize>);

impl KeyLines {
    fn new(text: &str) -> KeyLines {
        let mut keys = BTreeMap::new();
        for (x, line) in text.lines().enumerate() {
            if line.starts_with(|c: char| c.is_whitespace() || c == '#') {
                continue;
            }
            if let Some((key, _)) = line.split_once(':') {
                let key = key.trim().trim_matches(|c| c == '\'' || c == '"');
                keys.entry(key.to_string()).or_insert(x + 1);
            }
        }
        KeyLines(keys)
    }

    fn of(&self, key: &str) -> Option<usize> {
        self.0.get(key).copied()
    }
}

fn title_of(text: &str) -> Option<String> {
    let first = text.lines().next()?.trim();
    let t = first.strip_prefix('#')?.trim();
    (!t.is_empty()).then(|| t.to_string())
}

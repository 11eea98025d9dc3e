//! Placements, solutions, whole-board turns and independent verification.

use std::fmt;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::puzzle::{BOTTOM, LEFT, Puzzle, RIGHT, TOP};

/// A tile id and its rotation (counterclockwise quarter turns, 0..=3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(into = "(i64, u8)", from = "(i64, u8)")]
pub struct Placement {
    pub tile: i64,
    pub rotation: u8,
}

impl From<Placement> for (i64, u8) {
    fn from(p: Placement) -> Self {
        (p.tile, p.rotation)
    }
}

impl From<(i64, u8)> for Placement {
    fn from((tile, rotation): (i64, u8)) -> Self {
        Placement { tile, rotation }
    }
}

impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[t={},r={}]", self.tile, self.rotation)
    }
}

/// Where cell `c` (row-major) of an `n`x`n` board goes under one
/// counterclockwise board turn: (i, j) to (n-1-j, i), 0-based. The one
/// place this arithmetic is written.
pub(crate) fn turn_cell(n: usize, c: usize) -> usize {
    (n - 1 - c % n) * n + c / n
}

/// A full board: `n * n` placements in row-major order.
///
/// Ordering is the row-major lexicographic order of `(tile, rotation)`, the
/// order the canonical form is defined by.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Solution {
    cells: Vec<Placement>,
}

/// [`Solution::turned_at`] on row-major `cells` of an `n`x`n` board, with the
/// cell given by its row-major index `x`.
pub(crate) fn turned_at(cells: &[Placement], n: usize, k: usize, x: usize) -> Placement {
    let (i, j) = (x / n, x % n);
    let (a, b) = match k % 4 {
        0 => (i, j),
        1 => (j, n - 1 - i),
        2 => (n - 1 - i, n - 1 - j),
        _ => (n - 1 - j, i),
    };
    let p = cells[a * n + b];
    Placement {
        tile: p.tile,
        rotation: ((p.rotation as usize + k) % 4) as u8,
    }
}

/// Why an assignment is not a solution of a puzzle. Positions are 1-based.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum VerifyError {
    #[error("{found} cells for a {n}x{n} board")]
    WrongSize { n: usize, found: usize },
    #[error("cell ({i}, {j}) holds tile {tile}, which the puzzle does not have")]
    UnknownTile { i: usize, j: usize, tile: i64 },
    #[error("cell ({i}, {j}) has rotation {rotation}: must be 0..3")]
    BadRotation { i: usize, j: usize, rotation: u8 },
    #[error("tile {tile} is used more than once")]
    Reused { tile: i64 },
    #[error("right edge of ({i}, {j}) does not fit left edge of ({i}, {j1})", j1 = j + 1)]
    Horizontal { i: usize, j: usize },
    #[error("bottom edge of ({i}, {j}) does not fit top edge of ({i1}, {j})", i1 = i + 1)]
    Vertical { i: usize, j: usize },
}

impl Solution {
    /// A board from row-major placements; the length must be a square.
    pub fn new(cells: Vec<Placement>) -> Solution {
        debug_assert_eq!(cells.len().isqrt().pow(2), cells.len());
        Solution { cells }
    }

    pub fn n(&self) -> usize {
        self.cells.len().isqrt()
    }

    pub fn cells(&self) -> &[Placement] {
        &self.cells
    }

    /// Placement at 0-based row `i`, column `j`.
    pub fn at(&self, i: usize, j: usize) -> Placement {
        self.cells[i * self.n() + j]
    }

    /// The placement at 0-based (`i`, `j`) of this board turned `k` quarter
    /// turns counterclockwise, without building the turned board. One turn
    /// sends (i, j) to (n-1-j, i) and adds 1 to the rotation, so the cell at
    /// (i, j) after `k` turns comes from (j, n-1-i), (n-1-i, n-1-j) or
    /// (n-1-j, i) for k = 1, 2, 3.
    #[cfg(test)]
    pub(crate) fn turned_at(&self, k: usize, i: usize, j: usize) -> Placement {
        turned_at(&self.cells, self.n(), k, i * self.n() + j)
    }

    /// The board turned a quarter turn counterclockwise: the tile at (i, j)
    /// goes to (n+1-j, i) (1-based) and its rotation grows by one.
    pub fn turn(&self) -> Solution {
        let n = self.n();
        let mut cells = self.cells.clone();
        for (c, p) in self.cells.iter().enumerate() {
            cells[turn_cell(n, c)] = Placement {
                tile: p.tile,
                rotation: (p.rotation + 1) % 4,
            };
        }
        Solution { cells }
    }

    /// The four turns of this board: 0, 1, 2 and 3 quarter turns.
    pub fn turns(&self) -> [Solution; 4] {
        let t1 = self.turn();
        let t2 = t1.turn();
        let t3 = t2.turn();
        [self.clone(), t1, t2, t3]
    }

    /// Check the board against the puzzle, independently of any solver:
    /// every tile exactly once, every adjacent pair fits.
    pub fn verify(&self, puzzle: &Puzzle) -> Result<(), VerifyError> {
        let n = puzzle.n;
        if self.cells.len() != n * n {
            return Err(VerifyError::WrongSize {
                n,
                found: self.cells.len(),
            });
        }
        // Tiles used so far: a bit per tile index up to 128 tiles (no
        // allocation on the boards people solve), a vector beyond.
        let mut used_bits = 0u128;
        let mut used_vec = if puzzle.len() > 128 {
            vec![false; puzzle.len()]
        } else {
            Vec::new()
        };
        let mut tiles = Vec::with_capacity(n * n);
        for (k, p) in self.cells.iter().enumerate() {
            let (i, j) = (k / n + 1, k % n + 1);
            let idx =
                puzzle
                    .index_of(p.tile)
                    .ok_or(VerifyError::UnknownTile { i, j, tile: p.tile })?;
            if p.rotation > 3 {
                return Err(VerifyError::BadRotation {
                    i,
                    j,
                    rotation: p.rotation,
                });
            }
            let reused = match used_vec.get_mut(idx) {
                Some(u) => std::mem::replace(u, true),
                None => {
                    let bit = 1u128 << idx;
                    let was = used_bits & bit != 0;
                    used_bits |= bit;
                    was
                }
            };
            if reused {
                return Err(VerifyError::Reused { tile: p.tile });
            }
            tiles.push(&puzzle.tiles[idx]);
        }
        let edge = |i: usize, j: usize, e: usize| {
            let k = i * n + j;
            tiles[k].edge(self.cells[k].rotation, e)
        };
        for i in 0..n {
            for j in 0..n {
                if j + 1 < n && !edge(i, j, RIGHT).fits(edge(i, j + 1, LEFT)) {
                    return Err(VerifyError::Horizontal { i: i + 1, j: j + 1 });
                }
                if i + 1 < n && !edge(i, j, BOTTOM).fits(edge(i + 1, j, TOP)) {
                    return Err(VerifyError::Vertical { i: i + 1, j: j + 1 });
                }
            }
        }
        Ok(())
    }

    /// The seed text format: one line per row, `[t=1,r=1] [t=9,r=3] ...`.
    pub(crate) fn to_seed_text(&self) -> String {
        let n = self.n();
        let mut out = String::new();
        for row in self.cells.chunks(n.max(1)) {
            let line: Vec<String> = row.iter().map(|p| p.to_string()).collect();
            out.push_str(&line.join(" "));
            out.push('\n');
        }
        out
    }
}

/// The placements that may go into cell `prefix.len()` (row-major) given the
/// placements already in the cells before it: an unused tile, in a rotation
/// whose edges fit the left and top neighbours. Used to split an enumeration
/// into independent subproblems.
pub(crate) fn extensions(puzzle: &Puzzle, prefix: &[Placement]) -> Vec<Placement> {
    let n = puzzle.n;
    let k = prefix.len();
    if k >= n * n {
        return Vec::new();
    }
    let (i, j) = (k / n, k % n);
    let edge_of = |p: &Placement, e| puzzle.tile(p.tile).map(|t| t.edge(p.rotation, e));
    let left = (j > 0).then(|| edge_of(&prefix[k - 1], RIGHT)).flatten();
    let top = (i > 0).then(|| edge_of(&prefix[k - n], BOTTOM)).flatten();
    let mut out = Vec::new();
    for tile in &puzzle.tiles {
        if prefix.iter().any(|p| p.tile == tile.id) {
            continue;
        }
        for r in 0..4u8 {
            let fits_left = left.is_none_or(|l| l.fits(tile.edge(r, LEFT)));
            let fits_top = top.is_none_or(|t| t.fits(tile.edge(r, TOP)));
            if fits_left && fits_top {
                out.push(Placement {
                    tile: tile.id,
                    rotation: r,
                });
            }
        }
    }
    out
}

/// Parse the seed text format back into a board (used by tests and `render`).
pub fn parse_seed_text(text: &str) -> Option<Solution> {
    let mut cells = Vec::new();
    for tok in text.split_whitespace() {
        let inner = tok.strip_prefix("[t=")?.strip_suffix(']')?;
        let (t, r) = inner.split_once(",r=")?;
        cells.push(Placement {
            tile: t.parse().ok()?,
            rotation: r.parse().ok()?,
        });
    }
    let n = cells.len().isqrt();
    (n * n == cells.len() && !cells.is_empty()).then(|| Solution::new(cells))
}

/// Every board in a text: runs of consecutive lines made only of
/// `[t=..,r=..]` tokens (the seed format, and `scramble solve`'s text output,
/// whose header lines are skipped).
pub(crate) fn parse_seed_boards(text: &str) -> Vec<Solution> {
    let mut out = Vec::new();
    let mut block = String::new();
    let flush = |block: &mut String, out: &mut Vec<Solution>| {
        if let Some(s) = parse_seed_text(block) {
            out.push(s);
        }
        block.clear();
    };
    for line in text.lines() {
        let is_row = !line.trim().is_empty()
            && line
                .split_whitespace()
                .all(|t| t.starts_with("[t=") && t.ends_with(']'));
        if is_row {
            block.push_str(line);
            block.push('\n');
        } else {
            flush(&mut block, &mut out);
        }
    }
    flush(&mut block, &mut out);
    out
}

/// The boards of a saved result: the JSON report of `scramble solve` (its
/// `solutions` list of `[tile, rotation]` pairs) or any text in the seed
/// format ([`parse_seed_boards`]). The error says what is wrong.
pub(crate) fn parse_saved(text: &str) -> Result<Vec<Solution>, String> {
    if !text.trim_start().starts_with('{') {
        return Ok(parse_seed_boards(text));
    }
    #[derive(Deserialize)]
    struct Saved {
        solutions: Option<Vec<serde_json::Value>>,
    }
    let saved: Saved = serde_json::from_str(text).map_err(|e| format!("invalid JSON: {e}"))?;
    let list = saved
        .solutions
        .ok_or("no \"solutions\" list: expected the JSON of scramble solve")?;
    list.into_iter()
        .map(|s| {
            serde_json::from_value::<Vec<Placement>>(s)
                .map(Solution::new)
                .map_err(|e| format!("a solution is not a list of [tile, rotation] pairs: {e}"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(v: &[(i64, u8)]) -> Solution {
        Solution::new(v.iter().map(|&p| p.into()).collect())
    }

    #[test]
    fn saved_results_read_back() {
        let json = r#"{"puzzle": "p", "solutions": [[[1, 0], [2, 3], [3, 1], [4, 2]]]}"#;
        let b = parse_saved(json).unwrap();
        assert_eq!(b, vec![board(&[(1, 0), (2, 3), (3, 1), (4, 2)])]);
        let seed = "[t=1,r=0] [t=2,r=3]\n[t=3,r=1] [t=4,r=2]\n";
        assert_eq!(parse_saved(seed).unwrap(), b);
        assert!(
            parse_saved("{}")
                .unwrap_err()
                .contains("no \"solutions\" list")
        );
        assert!(parse_saved("{").unwrap_err().contains("invalid JSON"));
        let bad = r#"{"solutions": [[[1, "x"]]]}"#;
        assert!(
            parse_saved(bad)
                .unwrap_err()
                .contains("[tile, rotation] pairs")
        );
    }

    #[test]
    fn turn_moves_cells_counterclockwise() {
        // 1 2      2 4
        // 3 4  ->  1 3   (top-right goes to top-left), rotations + 1
        let s = board(&[(1, 0), (2, 0), (3, 0), (4, 3)]);
        assert_eq!(s.turn(), board(&[(2, 1), (4, 0), (1, 1), (3, 1)]));
        assert_eq!(s.turns()[3].turn(), s);
    }

    #[test]
    fn turned_at_reads_the_turned_board() {
        for n in 1..=4usize {
            let s = Solution::new(
                (0..n * n)
                    .map(|x| Placement {
                        tile: x as i64 + 1,
                        rotation: (x % 4) as u8,
                    })
                    .collect(),
            );
            for (k, t) in s.turns().iter().enumerate() {
                for i in 0..n {
                    for j in 0..n {
                        assert_eq!(s.turned_at(k, i, j), t.at(i, j), "n={n} k={k} ({i},{j})");
                    }
                }
            }
        }
    }

    /// Every kind of error, on a small board (tiles tracked in a bitmask)
    /// and a 12x12 one (144 tiles, tracked in a vector).
    #[test]
    fn verify_names_each_fault() {
        use crate::generate::{PlantOptions, Rng, plant};
        for n in [3, 12] {
            let o = PlantOptions {
                n,
                motifs: 4,
                self_matching: false,
            };
            let (p, s) = plant(&mut Rng::new(7), &o);
            assert_eq!(s.verify(&p), Ok(()));
            let with = |f: &dyn Fn(&mut Vec<Placement>)| {
                let mut cells = s.cells().to_vec();
                f(&mut cells);
                cells
            };
            let last = n * n - 1;
            let reused = with(&|c| c[last].tile = c[0].tile);
            assert_eq!(
                Solution { cells: reused }.verify(&p),
                Err(VerifyError::Reused {
                    tile: s.cells()[0].tile
                })
            );
            let unknown = with(&|c| c[1].tile = 10_000);
            assert_eq!(
                Solution { cells: unknown }.verify(&p),
                Err(VerifyError::UnknownTile {
                    i: 1,
                    j: 2,
                    tile: 10_000
                })
            );
            let rotation = with(&|c| c[n].rotation = 4);
            assert_eq!(
                Solution { cells: rotation }.verify(&p),
                Err(VerifyError::BadRotation {
                    i: 2,
                    j: 1,
                    rotation: 4
                })
            );
            let short = with(&|c| {
                c.pop();
            });
            assert!(matches!(
                Solution { cells: short }.verify(&p),
                Err(VerifyError::WrongSize { .. })
            ));
            // Some other rotation of the top-left tile breaks its right or its
            // bottom edge: the error names cell (1, 1).
            let errors: Vec<_> = (1..4u8)
                .map(|d| {
                    let turned = with(&|c| c[0].rotation = (c[0].rotation + d) % 4);
                    Solution { cells: turned }.verify(&p)
                })
                .collect();
            assert!(
                errors.iter().any(|e| e.is_err()),
                "n={n}: every rotation fits"
            );
            for e in errors.into_iter().filter_map(Result::err) {
                assert!(matches!(
                    e,
                    VerifyError::Horizontal { i: 1, j: 1 } | VerifyError::Vertical { i: 1, j: 1 }
                ));
            }
        }
    }

    #[test]
    fn seed_text_round_trips() {
        let s = board(&[
            (1, 1),
            (9, 3),
            (7, 2),
            (4, 2),
            (5, 3),
            (3, 2),
            (8, 0),
            (6, 3),
            (2, 2),
        ]);
        let text = s.to_seed_text();
        assert_eq!(text.lines().next(), Some("[t=1,r=1] [t=9,r=3] [t=7,r=2]"));
        assert_eq!(parse_seed_text(&text), Some(s));
    }
}

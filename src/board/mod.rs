//! Placements, solutions, whole-board turns and independent verification.

use serde::{Deserialize, Serialize};
use thiserror::Error;

mod formats;
mod partial;
mod score;
mod verify;

pub use formats::parse_seed_text;
pub(crate) use formats::{et2, parse_saved};
pub use partial::Partial;
pub use score::{Join, Score};

use crate::puzzle::{BOTTOM, LEFT, Puzzle, RIGHT, Shape, TOP};

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

/// A full board: `rows * cols` placements in row-major order, and its
/// shape (which board turns it has).
///
/// Ordering is the row-major lexicographic order of `(tile, rotation)`, the
/// order the canonical form is defined by (boards of one puzzle share a
/// shape). It serializes as the list of placements alone.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Solution {
    cells: Vec<Placement>,
    shape: Shape,
}

impl Serialize for Solution {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.cells.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Solution {
    /// A square board (the shape is set from the puzzle by
    /// [`Solution::reshaped`]).
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let cells = Vec::<Placement>::deserialize(d)?;
        Ok(Solution {
            shape: Shape::square(cells.len().isqrt()),
            cells,
        })
    }
}

/// The placement at row-major cell `x` of the board `cells` (of shape
/// `shape`) turned `k` quarter turns counterclockwise.
pub(crate) fn turned_at(cells: &[Placement], shape: Shape, k: usize, x: usize) -> Placement {
    // The cell that lands on x: turning back by k.
    let back = shape_after(shape, k).turn_cell((4 - k % 4) % 4, x);
    let p = cells[back];
    Placement {
        tile: p.tile,
        rotation: ((p.rotation as usize + k) % 4) as u8,
    }
}

/// The shape of a board after `k` quarter turns (rows and columns swap on
/// odd `k`).
fn shape_after(shape: Shape, k: usize) -> Shape {
    if k % 2 == 1 {
        Shape {
            rows: shape.cols,
            cols: shape.rows,
            group: shape.group,
        }
    } else {
        shape
    }
}

/// Why an assignment is not a solution of a puzzle. Positions are 1-based.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum VerifyError {
    #[error("{found} cells for a {rows}x{cols} board")]
    WrongSize {
        rows: usize,
        cols: usize,
        found: usize,
    },
    #[error("cell {cell} holds tile {tile} in rotation {rotation}: {why}")]
    Rule {
        cell: String,
        tile: i64,
        rotation: u8,
        why: &'static str,
    },
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
    /// A square board with all four turns from row-major placements (a
    /// Scramble Squares board; a puzzle's own board, which may be a
    /// rectangle or have fewer turns, is [`Solution::shaped`] with
    /// `puzzle.shape()`).
    ///
    /// # Panics
    /// If the length is not a square: a board of the wrong shape would turn
    /// into boards that are not the puzzle's (in release builds too).
    pub fn new(cells: Vec<Placement>) -> Solution {
        assert_eq!(
            cells.len().isqrt().pow(2),
            cells.len(),
            "Solution::new needs a square board; use Solution::shaped"
        );
        Solution {
            shape: Shape::square(cells.len().isqrt()),
            cells,
        }
    }

    /// A board of this shape from row-major placements.
    /// (A wrong length is caught by [`Solution::verify`].)
    pub fn shaped(cells: Vec<Placement>, shape: Shape) -> Solution {
        Solution { cells, shape }
    }

    /// The same placements in another shape (a board read back from a file,
    /// given its puzzle's shape); `None` if the cell count differs.
    pub fn reshaped(self, shape: Shape) -> Option<Solution> {
        (self.cells.len() == shape.cells()).then_some(Solution {
            cells: self.cells,
            shape,
        })
    }

    pub fn shape(&self) -> Shape {
        self.shape
    }

    pub fn rows(&self) -> usize {
        self.shape.rows
    }

    pub fn cols(&self) -> usize {
        self.shape.cols
    }

    pub fn cells(&self) -> &[Placement] {
        &self.cells
    }

    /// Placement at 0-based row `i`, column `j`.
    pub fn at(&self, i: usize, j: usize) -> Placement {
        self.cells[i * self.cols() + j]
    }

    /// The placement at 0-based (`i`, `j`) of this board turned `k` quarter
    /// turns counterclockwise, without building the turned board. One turn
    /// sends (i, j) to (n-1-j, i) and adds 1 to the rotation, so the cell at
    /// (i, j) after `k` turns comes from (j, n-1-i), (n-1-i, n-1-j) or
    /// (n-1-j, i) for k = 1, 2, 3.
    #[cfg(test)]
    pub(crate) fn turned_at(&self, k: usize, i: usize, j: usize) -> Placement {
        let after = shape_after(self.shape, k);
        turned_at(&self.cells, self.shape, k, i * after.cols + j)
    }

    /// The board turned `k` quarter turns counterclockwise: one turn sends
    /// the tile at (i, j) to (n+1-j, i) (1-based) and adds one to its
    /// rotation. Odd `k` only on a square board.
    pub fn turn_by(&self, k: usize) -> Solution {
        let mut cells = self.cells.clone();
        for (c, p) in self.cells.iter().enumerate() {
            cells[self.shape.turn_cell(k, c)] = Placement {
                tile: p.tile,
                rotation: ((p.rotation as usize + k) % 4) as u8,
            };
        }
        Solution {
            cells,
            shape: shape_after(self.shape, k),
        }
    }

    /// The board turned a quarter turn counterclockwise (a square board).
    pub fn turn(&self) -> Solution {
        self.turn_by(1)
    }

    /// The board under each turn of its group, the identity first: four
    /// boards on a square board, two on a rectangle, itself alone where
    /// turns are not symmetries.
    pub fn turns(&self) -> Vec<Solution> {
        self.shape
            .group
            .turns()
            .iter()
            .map(|&k| {
                if k == 0 {
                    self.clone()
                } else {
                    self.turn_by(k)
                }
            })
            .collect()
    }

    /// Check the board against the puzzle, independently of any solver:
    /// every tile exactly once, every adjacent pair fits, every cell holds
    /// what the rules allow (frame, hints, turning).
    pub fn verify(&self, puzzle: &Puzzle) -> Result<(), VerifyError> {
        verify::check(puzzle, self.cells.len(), |k| Some(self.cells[k]))
    }
}

/// The placements that may go into cell `prefix.len()` (row-major) given the
/// placements already in the cells before it: an unused tile, in a rotation
/// the rules allow there, whose edges fit the left and top neighbours. Used
/// to split an enumeration into independent subproblems.
pub(crate) fn extensions(puzzle: &Puzzle, prefix: &[Placement]) -> Vec<Placement> {
    let cols = puzzle.cols();
    let k = prefix.len();
    if k >= puzzle.cells() {
        return Vec::new();
    }
    let (i, j) = (k / cols, k % cols);
    let edge_of = |p: &Placement, e| puzzle.tile(p.tile).map(|t| t.edge(p.rotation, e));
    let left = (j > 0).then(|| edge_of(&prefix[k - 1], RIGHT)).flatten();
    let top = (i > 0)
        .then(|| edge_of(&prefix[k - cols], BOTTOM))
        .flatten();
    let mut out = Vec::new();
    for (x, tile) in puzzle.tiles().iter().enumerate() {
        if prefix.iter().any(|p| p.tile == tile.id) {
            continue;
        }
        for r in 0..4u8 {
            if !puzzle.allows(k, x, r) {
                continue;
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn board(v: &[(i64, u8)]) -> Solution {
        Solution::new(v.iter().map(|&p| p.into()).collect())
    }

    #[test]
    #[should_panic(expected = "Solution::new needs a square board")]
    fn a_square_board_is_not_made_of_a_rectangle() {
        // 6 cells: as a "square" of side 2 its turns would be 4-cell boards
        // that are not the puzzle's (CP-SAT's first solutions on clue2 did
        // this once).
        board(&[(1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0)]);
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
                Solution {
                    cells: reused,
                    shape: s.shape()
                }
                .verify(&p),
                Err(VerifyError::Reused {
                    tile: s.cells()[0].tile
                })
            );
            let unknown = with(&|c| c[1].tile = 10_000);
            assert_eq!(
                Solution {
                    cells: unknown,
                    shape: s.shape()
                }
                .verify(&p),
                Err(VerifyError::UnknownTile {
                    i: 1,
                    j: 2,
                    tile: 10_000
                })
            );
            let rotation = with(&|c| c[n].rotation = 4);
            assert_eq!(
                Solution {
                    cells: rotation,
                    shape: s.shape()
                }
                .verify(&p),
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
                Solution {
                    cells: short,
                    shape: s.shape()
                }
                .verify(&p),
                Err(VerifyError::WrongSize { .. })
            ));
            // Some other rotation of the top-left tile breaks its right or its
            // bottom edge: the error names cell (1, 1).
            let errors: Vec<_> = (1..4u8)
                .map(|d| {
                    let turned = with(&|c| c[0].rotation = (c[0].rotation + d) % 4);
                    Solution {
                        cells: turned,
                        shape: s.shape(),
                    }
                    .verify(&p)
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

//! The rules a puzzle adds to plain edge matching: the board's shape, a
//! frame, fixed pieces (hints) and whether tiles turn. All of them are
//! restrictions of what a cell may hold ([`Puzzle::why_not`]), so every
//! solver applies them the same way: as domains, not as extra search.
//! They also fix the board's symmetry group ([`Puzzle::group`]).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::{BOTTOM, LEFT, Puzzle, PuzzleError, RIGHT, TOP};

/// Whether tiles may turn.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Turning {
    /// Quarter turns (Scramble Squares, Eternity II).
    #[default]
    Quarter,
    /// No turns at all: every tile keeps rotation 0 (Tetravex).
    None,
}

impl Turning {
    pub fn name(self) -> &'static str {
        match self {
            Turning::Quarter => "quarter",
            Turning::None => "none",
        }
    }
}

/// A fixed piece: a tile on a cell (row-major, 0-based) in a rotation
/// (counterclockwise quarter turns).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Hint {
    pub cell: usize,
    pub tile: i64,
    pub rotation: u8,
}

/// The board turns that send every solution to a solution: all four on a
/// square board, only the half turn on a rectangle, none once a piece is
/// fixed (a turned board would show it turned or moved) or tiles may not
/// turn (a turned board would show turned tiles).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Group {
    Quarter,
    Half,
    Identity,
}

impl Group {
    /// The group of a `rows` x `cols` board under these rules.
    pub(crate) fn of(rows: usize, cols: usize, turning: Turning, fixed_pieces: bool) -> Group {
        if turning == Turning::None || fixed_pieces {
            Group::Identity
        } else if rows == cols {
            Group::Quarter
        } else {
            Group::Half
        }
    }

    /// The turns in the group, as counterclockwise quarter turns.
    pub fn turns(self) -> &'static [usize] {
        match self {
            Group::Quarter => &[0, 1, 2, 3],
            Group::Half => &[0, 2],
            Group::Identity => &[0],
        }
    }

    /// How many turns the group has.
    pub fn order(self) -> usize {
        self.turns().len()
    }

    pub fn name(self) -> &'static str {
        match self {
            Group::Quarter => "quarter turns",
            Group::Half => "half turn",
            Group::Identity => "none",
        }
    }
}

/// A board's rows, columns and symmetry group: what a [`crate::board::Solution`]
/// needs to turn itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Shape {
    pub rows: usize,
    pub cols: usize,
    pub group: Group,
}

impl Shape {
    /// An `n`x`n` board with all four turns.
    pub fn square(n: usize) -> Shape {
        Shape {
            rows: n,
            cols: n,
            group: Group::Quarter,
        }
    }

    pub fn cells(self) -> usize {
        self.rows * self.cols
    }

    /// Where cell `c` (row-major) goes under `k` counterclockwise quarter
    /// turns of the board (`k` odd only on a square board): one turn sends
    /// (i, j) to (n-1-j, i), 0-based.
    pub fn turn_cell(self, k: usize, c: usize) -> usize {
        let (i, j) = (c / self.cols, c % self.cols);
        let (r, q) = (self.rows, self.cols);
        match k % 4 {
            0 => c,
            1 => (q - 1 - j) * r + i,
            2 => (r - 1 - i) * q + (q - 1 - j),
            _ => j * r + (r - 1 - i),
        }
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

/// What reports say of a board: its rows and columns, frame motif, fixed
/// pieces (1-based cells, counterclockwise rotations) and turning rule.
/// JSON reports carry it; merges read it back.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Facts {
    #[serde(default)]
    pub rows: usize,
    #[serde(default)]
    pub cols: usize,
    #[serde(default)]
    pub frame: Option<String>,
    #[serde(default)]
    pub hints: Vec<HintFact>,
    #[serde(default)]
    pub turns: Turning,
}

impl Facts {
    /// The board's shape and group, as [`Puzzle::shape`] gives them.
    pub fn shape(&self) -> Shape {
        Shape {
            rows: self.rows,
            cols: self.cols,
            group: Group::of(self.rows, self.cols, self.turns, !self.hints.is_empty()),
        }
    }
}

/// A fixed piece as reports give it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HintFact {
    pub tile: i64,
    /// (i, j), 1-based, row from the top.
    pub cell: (usize, usize),
    pub rotation: u8,
}

/// The row-major cell at 1-based (i, j) of a `rows` x `cols` board, if it
/// is on the board.
pub(crate) fn cell_at(rows: usize, cols: usize, i: usize, j: usize) -> Option<usize> {
    ((1..=rows).contains(&i) && (1..=cols).contains(&j)).then(|| (i - 1) * cols + j - 1)
}

/// A cell's name as a person reads it: `(i, j)`, 1-based.
pub(crate) fn cell_name(cols: usize, cell: usize) -> String {
    format!("({}, {})", cell / cols + 1, cell % cols + 1)
}

impl Puzzle {
    /// What reports say of the board.
    pub fn facts(&self) -> Facts {
        Facts {
            rows: self.rows,
            cols: self.cols,
            frame: self.frame.map(|f| self.motifs[f as usize].clone()),
            hints: self
                .hints
                .iter()
                .map(|h| HintFact {
                    tile: h.tile,
                    cell: (h.cell / self.cols + 1, h.cell % self.cols + 1),
                    rotation: h.rotation,
                })
                .collect(),
            turns: self.turning,
        }
    }

    /// One line for text reports: `6x12, frame 0, 1 fixed piece, no turns`
    /// (only what differs from a plain square board after the size).
    pub fn describe_board(&self) -> String {
        let mut out = format!("{}x{}", self.rows, self.cols);
        if let Some(f) = self.frame {
            out.push_str(&format!(", frame {}", self.motifs[f as usize]));
        }
        for h in &self.hints {
            out.push_str(&format!(
                ", tile {} fixed on {} r={}",
                h.tile,
                cell_name(self.cols, h.cell),
                h.rotation
            ));
        }
        if self.turning == Turning::None {
            out.push_str(", tiles do not turn");
        }
        out
    }

    /// The board's shape and symmetry group.
    pub fn shape(&self) -> Shape {
        Shape {
            rows: self.rows,
            cols: self.cols,
            group: self.group(),
        }
    }

    /// The board turns that send solutions to solutions ([`Group`]).
    pub fn group(&self) -> Group {
        Group::of(self.rows, self.cols, self.turning, !self.hints.is_empty())
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.rows * self.cols
    }

    /// Whether the puzzle is plain edge matching on a square board: no
    /// frame, no hint, quarter turns (what Scramble Squares are).
    pub fn is_plain_square(&self) -> bool {
        self.rows == self.cols
            && self.frame.is_none()
            && self.hints.is_empty()
            && self.turning == Turning::Quarter
    }

    /// Whether any rule restricts what a cell may hold.
    pub fn has_rules(&self) -> bool {
        self.frame.is_some() || !self.hints.is_empty() || self.turning == Turning::None
    }

    /// Whether side `d` of cell `c` lies on the board's outside.
    pub(crate) fn outside(&self, c: usize, d: usize) -> bool {
        let (i, j) = (c / self.cols, c % self.cols);
        match d {
            RIGHT => j + 1 == self.cols,
            TOP => i == 0,
            LEFT => j == 0,
            _ => i + 1 == self.rows,
        }
    }

    /// Why cell `c` may not hold tile index `k` in rotation `r`, or `None`
    /// if it may: the turning rule, the hints, the frame, a fixed piece
    /// beside it that it does not match.
    pub fn why_not(&self, c: usize, k: usize, r: u8) -> Option<&'static str> {
        self.why_not_alone(c, k, r).or_else(|| {
            self.misfits_a_fixed_neighbour(c, k, r)
                .then_some("it does not match the fixed piece beside it")
        })
    }

    /// Whether cell `c` may hold tile index `k` in rotation `r` by the rules
    /// of the cell alone (turning, hints, frame), whatever is beside it.
    pub(crate) fn allows_alone(&self, c: usize, k: usize, r: u8) -> bool {
        self.why_not_alone(c, k, r).is_none()
    }

    /// [`Puzzle::why_not`] without the fixed pieces beside the cell: what
    /// a board whose joins may break (`best`, a score) must still keep.
    pub(crate) fn why_not_alone(&self, c: usize, k: usize, r: u8) -> Option<&'static str> {
        if self.turning == Turning::None && r != 0 {
            return Some("tiles may not turn");
        }
        let id = self.tiles[k].id;
        if let Some(h) = self.hints.iter().find(|h| h.cell == c) {
            return (h.tile != id || h.rotation != r).then_some("the cell holds a fixed piece");
        }
        if self.hints.iter().any(|h| h.tile == id) {
            return Some("the tile is fixed on another cell");
        }
        if let Some(f) = self.frame {
            let tile = &self.tiles[k];
            for d in [RIGHT, TOP, LEFT, BOTTOM] {
                let framed = tile.edge(r, d).motif == f;
                if framed != self.outside(c, d) {
                    return Some(if framed {
                        "a frame edge faces inside"
                    } else {
                        "an outside edge is not a frame edge"
                    });
                }
            }
        }
        None
    }

    /// Whether tile index `k` in rotation `r` on cell `c` shows a fixed
    /// neighbour an edge that does not match it. Every solution matches
    /// its fixed pieces, so this only prunes: every search that places
    /// pieces gets the cells beside a fixed piece with only the candidates
    /// that match it (the Eternity II starter's four neighbours), rather
    /// than learning it when the fixed piece's cell comes.
    fn misfits_a_fixed_neighbour(&self, c: usize, k: usize, r: u8) -> bool {
        if self.hints.is_empty() {
            return false;
        }
        let (i, j) = (c / self.cols, c % self.cols);
        let tile = &self.tiles[k];
        [RIGHT, TOP, LEFT, BOTTOM].into_iter().any(|d| {
            let beside = match d {
                RIGHT if j + 1 < self.cols => c + 1,
                TOP if i > 0 => c - self.cols,
                LEFT if j > 0 => c - 1,
                BOTTOM if i + 1 < self.rows => c + self.cols,
                _ => return false,
            };
            let Some(h) = self.hints.iter().find(|h| h.cell == beside) else {
                return false;
            };
            let Some(fixed) = self.tiles.iter().find(|t| t.id == h.tile) else {
                return false;
            };
            !tile.edge(r, d).fits(fixed.edge(h.rotation, (d + 2) % 4))
        })
    }

    /// Whether cell `c` may hold tile index `k` in rotation `r`.
    pub fn allows(&self, c: usize, k: usize, r: u8) -> bool {
        self.why_not(c, k, r).is_none()
    }

    /// The rotations a tile may take at all.
    pub(crate) fn rotations(&self) -> std::ops::Range<u8> {
        match self.turning {
            Turning::Quarter => 0..4,
            Turning::None => 0..1,
        }
    }

    /// The same puzzle with these pieces fixed too (`--hint`), checked as
    /// the file's hints are.
    pub fn with_hints(&self, hints: &[Hint]) -> Result<Puzzle, PuzzleError> {
        let mut p = self.clone();
        p.hints.extend_from_slice(hints);
        p.hints.sort();
        p.check_hints(None)?;
        Ok(p)
    }

    /// Hints inside the board, one per cell and tile, of known tiles, in a
    /// rotation the rules allow. `line` is where the file lists them.
    pub(crate) fn check_hints(&self, line: Option<usize>) -> Result<(), PuzzleError> {
        let bad = |message: String| PuzzleError::Rule {
            path: self.source.clone(),
            line,
            message,
        };
        for (x, h) in self.hints.iter().enumerate() {
            let Some(k) = self.index_of(h.tile) else {
                return Err(bad(format!("hint: no tile {}", h.tile)));
            };
            if h.cell >= self.cells() {
                return Err(bad(format!(
                    "hint: tile {} is placed outside the {}x{} board",
                    h.tile, self.rows, self.cols
                )));
            }
            let at = cell_name(self.cols, h.cell);
            if h.rotation > 3 {
                return Err(bad(format!(
                    "hint: tile {} at {at} has rotation {}: must be 0..3",
                    h.tile, h.rotation
                )));
            }
            if let Some(o) = self.hints[..x].iter().find(|o| o.cell == h.cell) {
                return Err(bad(format!(
                    "hint: two pieces fixed on {at} (tiles {} and {})",
                    o.tile, h.tile
                )));
            }
            if self.hints[..x].iter().any(|o| o.tile == h.tile) {
                return Err(bad(format!("hint: tile {} is fixed twice", h.tile)));
            }
            let mut alone = self.clone();
            alone.hints.clear();
            if let Some(why) = alone.why_not(h.cell, k, h.rotation) {
                return Err(bad(format!(
                    "hint: tile {} at {at} in rotation {}: {why}",
                    h.tile, h.rotation
                )));
            }
        }
        Ok(())
    }

    /// A frame that can close: on a board of at least 2x2, exactly four
    /// corner pieces (two adjacent frame edges), as many edge pieces (one
    /// frame edge) as the border has cells between the corners, no other
    /// piece with a frame edge. `line_of` finds a tile's line.
    pub(crate) fn check_frame(
        &self,
        line_of: &dyn Fn(i64) -> Option<usize>,
    ) -> Result<(), PuzzleError> {
        let Some(f) = self.frame else { return Ok(()) };
        let bad = |line, message: String| PuzzleError::Rule {
            path: self.source.clone(),
            line,
            message,
        };
        let name = &self.motifs[f as usize];
        if self.rows < 2 || self.cols < 2 {
            return Err(bad(
                None,
                format!(
                    "a frame needs a board of at least 2x2, not {}x{}",
                    self.rows, self.cols
                ),
            ));
        }
        let (mut corners, mut sides) = (0, 0);
        for t in &self.tiles {
            let framed: Vec<usize> = (0..4).filter(|&d| t.edges[d].motif == f).collect();
            match framed[..] {
                [] => {}
                [_] => sides += 1,
                [a, b] if b - a == 1 || (a, b) == (0, 3) => corners += 1,
                _ => {
                    return Err(bad(
                        line_of(t.id),
                        format!(
                            "tile {} has {} frame edges ({name}){}: no cell of a {}x{} board has those sides outside",
                            t.id,
                            framed.len(),
                            if framed.len() == 2 {
                                " on opposite sides"
                            } else {
                                ""
                            },
                            self.rows,
                            self.cols
                        ),
                    ));
                }
            }
        }
        if corners != 4 {
            return Err(bad(
                None,
                format!(
                    "{corners} corner pieces (two frame edges, {name}): a frame needs exactly 4"
                ),
            ));
        }
        let want = 2 * (self.rows - 2) + 2 * (self.cols - 2);
        if sides != want {
            return Err(bad(
                None,
                format!(
                    "{sides} edge pieces (one frame edge, {name}): the border of a {}x{} board has {want} cells between its corners ({} frame edges in all for a perimeter of {})",
                    self.rows,
                    self.cols,
                    sides + 2 * corners,
                    2 * (self.rows + self.cols)
                ),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turn_cell_matches_the_convention() {
        // 2x3: a half turn sends (0, 0) to (1, 2).
        let s = Shape {
            rows: 2,
            cols: 3,
            group: Group::Half,
        };
        assert_eq!(s.turn_cell(2, 0), 5);
        assert_eq!(s.turn_cell(2, 4), 1);
        // 3x3: one turn sends (0, 2) (top right) to (0, 0).
        let q = Shape::square(3);
        assert_eq!(q.turn_cell(1, 2), 0);
        assert_eq!(q.turn_cell(1, 0), 6);
        for c in 0..9 {
            let once = (0..3).fold(c, |x, _| q.turn_cell(1, x));
            assert_eq!(once, q.turn_cell(3, c));
            assert_eq!(q.turn_cell(1, q.turn_cell(1, c)), q.turn_cell(2, c));
        }
    }

    #[test]
    fn the_cells_beside_a_fixed_piece_allow_only_what_matches_it() {
        let seed = crate::puzzle::Puzzle::load(std::path::Path::new("puzzles/3x3-original"))
            .expect("the seed puzzle");
        let id = seed.tiles()[0].id;
        let p = seed
            .with_hints(&[Hint {
                cell: 4,
                tile: id,
                rotation: 1,
            }])
            .unwrap();
        let fixed = &p.tiles()[0];
        // The centre's right, top, left and bottom neighbours.
        let beside = [(5, RIGHT), (1, TOP), (3, LEFT), (7, BOTTOM)];
        let mut pruned = 0;
        for c in 0..9 {
            for k in 1..p.len() {
                for r in 0..4 {
                    let matches = beside
                        .iter()
                        .filter(|b| b.0 == c)
                        .all(|&(_, d)| p.tiles()[k].edge(r, (d + 2) % 4).fits(fixed.edge(1, d)));
                    assert!(p.allows_alone(c, k, r) || c == 4);
                    assert_eq!(p.allows(c, k, r), c != 4 && matches, "{c} {k} {r}");
                    pruned += usize::from(!matches);
                }
            }
        }
        assert!(pruned > 0);
        assert_eq!(
            p.why_not(5, 1, 0).is_some(),
            !p.tiles()[1].edge(0, LEFT).fits(fixed.edge(1, RIGHT))
        );
    }
}

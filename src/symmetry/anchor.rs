//! `anchor`: the smallest tile id may only stand in one chosen cell of each
//! orbit of cells under the board's turns (the orbit's first cell in
//! row-major order); in the centre of an odd board only with rotation 0
//! (0 or 1 on a rectangle, whose only turn is the half turn).
//!
//! Board turns move the smallest tile around its cell's orbit (as many
//! distinct cells as the group has turns), so exactly one turn puts it in
//! the chosen cell; in the centre the turns cycle its rotation instead.

use std::sync::Arc;

use super::{Clauses, Formulation, Level};
use crate::board::Solution;
use crate::model::{BIG, Constraint, Model};
use crate::puzzle::{Puzzle, Shape};

/// The anchor rule on one tile: the smallest tile id (`on: None`, the
/// `anchor` formulation, [`ANCHOR`]) or a tile chosen for the puzzle (the
/// solvers' picture reduction, [`Anchor::unique`]).
pub(crate) struct Anchor {
    on: Option<i64>,
}

/// The `anchor` formulation: the smallest tile id.
pub(crate) static ANCHOR: Anchor = Anchor { on: None };

impl Anchor {
    /// The tile the rule anchors.
    fn tile(&self, puzzle: &Puzzle) -> i64 {
        self.on.unwrap_or(puzzle.tiles()[0].id)
    }
}

/// The chosen cell of each cell's orbit: the smallest row-major index.
pub(crate) fn orbit_representative(shape: Shape, c: usize) -> usize {
    shape
        .group
        .turns()
        .iter()
        .map(|&k| shape.turn_cell(k, c))
        .fold(c, usize::min)
}

/// Whether cell `c` is the centre, which every turn keeps in place.
fn is_centre(shape: Shape, c: usize) -> bool {
    shape.turn_cell(2, c) == c
}

impl Formulation for Anchor {
    fn name(&self) -> &'static str {
        match self.on {
            None => "anchor",
            Some(_) => "unique-anchor",
        }
    }
    fn level(&self) -> Level {
        Level::Board
    }
    fn summary(&self) -> &'static str {
        match self.on {
            None => {
                "the smallest tile id stands only in the first cell of each orbit (centre: rotation 0)"
            }
            Some(_) => {
                "the smallest tile without a twin stands only in the first cell of each orbit (centre: rotation 0)"
            }
        }
    }
    fn precondition(&self, puzzle: &Puzzle) -> Result<(), String> {
        super::needs_turns(puzzle, false)
    }
    fn accepts(&self, puzzle: &Puzzle, s: &Solution) -> bool {
        let (anchor, shape) = (self.tile(puzzle), puzzle.shape());
        s.cells()
            .iter()
            .enumerate()
            .all(|(c, p)| p.tile != anchor || allowed_at(shape, c, p.rotation))
    }
    fn allows(&self, puzzle: &Puzzle, cell: usize, tile: i64, rotation: u8) -> bool {
        tile != self.tile(puzzle) || allowed_at(puzzle.shape(), cell, rotation)
    }
    fn clauses(&self, _puzzle: &Puzzle, _out: &mut dyn Clauses) {
        // The rule is per cell: `allows` has taken its placements out.
    }
    fn add(&self, puzzle: &Puzzle, model: &mut Model) {
        let prefix = self.name().replace('-', "_");
        add_on(puzzle, model, self.tile(puzzle), &prefix);
    }
}

/// The anchor rule on a tile no other tile can stand for: the smallest
/// tile id of a kind of its own (no identical tile) that, where the board
/// has a centre, shows four different orientations (period 4). Beside
/// `tiles` it keeps exactly one labelled board per picture class: `tiles`
/// keeps one labelled board per picture, the anchor tile stands in the
/// cell where the picture shows its edges, in the only rotation that
/// shows them, and the turns of a picture move that cell around its orbit
/// (or, in the centre, turn the tile through distinct rotations), so
/// exactly one turn of each picture passes (docs/symmetry.md, "The
/// picture anchor"). Not a user formulation: the solvers' picture
/// reduction ([`super::picture_representative`]).
impl Anchor {
    /// The rule on the puzzle's [`unique_tile`], if it has one.
    pub(crate) fn unique(puzzle: &Puzzle) -> Option<Anchor> {
        unique_tile(puzzle).map(|tile| Anchor { on: Some(tile) })
    }
}

/// The tile [`Anchor::unique`] anchors, if the puzzle has one and board
/// turns to reduce.
pub(crate) fn unique_tile(puzzle: &Puzzle) -> Option<i64> {
    let shape = puzzle.shape();
    if shape.group.order() < 2 {
        return None;
    }
    let centre = (0..shape.cells()).any(|c| is_centre(shape, c));
    super::tile_kinds(puzzle)
        .into_iter()
        .filter(|kind| kind.len() == 1)
        .map(|kind| kind[0])
        .filter(|&id| !centre || puzzle.tile(id).is_some_and(|t| super::period(t) == 4))
        .min()
}

/// Whether the anchor tile may stand in cell `cell` with `rotation`: in
/// the first cell of its orbit, or in the centre in one rotation of each
/// turn (rotation 0; 0 or 1 under the half turn alone).
fn allowed_at(shape: Shape, cell: usize, rotation: u8) -> bool {
    if is_centre(shape, cell) {
        (rotation as usize) < 4 / shape.group.order()
    } else {
        orbit_representative(shape, cell) == cell
    }
}

/// The anchor rule on tile `anchor` as constraints named `{prefix}_...`.
fn add_on(puzzle: &Puzzle, model: &mut Model, anchor: i64, prefix: &str) {
    let shape = puzzle.shape();
    let n = puzzle.cols();
    let keep = 4 / shape.group.order() as i64;
    for c in 0..shape.cells() {
        let (t, r) = model.cells[c];
        let (i, j) = (c / n + 1, c % n + 1);
        if is_centre(shape, c) {
            // The centre of an odd board: only rotation 0 (0 or 1 under
            // the half turn alone).
            model.constraints.push(Constraint::Table {
                name: format!("{prefix}_center_{i}_{j}"),
                vars: vec![t, r],
                tuples: Arc::new((keep..4).flat_map(|r| [anchor, r]).collect()),
                negated: true,
            });
        } else if orbit_representative(shape, c) != c {
            model.constraints.push(Constraint::Linear {
                name: format!("{prefix}_not_{i}_{j}"),
                terms: vec![(t, 1)],
                domain: vec![(-BIG, anchor - 1), (anchor + 1, BIG)],
                enforce: vec![],
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_representative_per_orbit() {
        for n in 1..=6 {
            let reps: std::collections::BTreeSet<usize> = (0..n * n)
                .map(|c| orbit_representative(Shape::square(n), c))
                .collect();
            assert_eq!(reps.len(), (n * n).div_ceil(4), "n = {n}");
        }
    }
}

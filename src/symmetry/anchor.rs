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

pub(crate) struct Anchor;

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
        "anchor"
    }
    fn level(&self) -> Level {
        Level::Board
    }
    fn summary(&self) -> &'static str {
        "the smallest tile id stands only in the first cell of each orbit (centre: rotation 0)"
    }
    fn precondition(&self, puzzle: &Puzzle) -> Result<(), String> {
        super::needs_turns(puzzle, false)
    }
    fn accepts(&self, puzzle: &Puzzle, s: &Solution) -> bool {
        let t_min = puzzle.tiles()[0].id;
        s.cells()
            .iter()
            .enumerate()
            .all(|(c, p)| p.tile != t_min || self.allows(puzzle, c, p.tile, p.rotation))
    }
    fn allows(&self, puzzle: &Puzzle, cell: usize, tile: i64, rotation: u8) -> bool {
        let shape = puzzle.shape();
        if tile != puzzle.tiles()[0].id {
            return true;
        }
        if is_centre(shape, cell) {
            (rotation as usize) < 4 / shape.group.order()
        } else {
            orbit_representative(shape, cell) == cell
        }
    }
    fn clauses(&self, _puzzle: &Puzzle, _out: &mut dyn Clauses) {
        // The rule is per cell: `allows` has taken its placements out.
    }
    fn add(&self, puzzle: &Puzzle, model: &mut Model) {
        let shape = puzzle.shape();
        let n = puzzle.cols();
        let t_min = puzzle.tiles()[0].id;
        let keep = 4 / shape.group.order() as i64;
        for c in 0..shape.cells() {
            let (t, r) = model.cells[c];
            let (i, j) = (c / n + 1, c % n + 1);
            if is_centre(shape, c) {
                // The centre of an odd board: only rotation 0 (0 or 1
                // under the half turn alone).
                model.constraints.push(Constraint::Table {
                    name: format!("anchor_center_{i}_{j}"),
                    vars: vec![t, r],
                    tuples: Arc::new((keep..4).flat_map(|r| [t_min, r]).collect()),
                    negated: true,
                });
            } else if orbit_representative(shape, c) != c {
                model.constraints.push(Constraint::Linear {
                    name: format!("anchor_not_{i}_{j}"),
                    terms: vec![(t, 1)],
                    domain: vec![(-BIG, t_min - 1), (t_min + 1, BIG)],
                    enforce: vec![],
                });
            }
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

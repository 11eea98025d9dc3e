//! `anchor`: the smallest tile id may only stand in one chosen cell of each
//! orbit of cells under board turns (the orbit's first cell in row-major
//! order); in the centre of an odd board only with rotation 0.
//!
//! Board turns move the smallest tile around its cell's orbit (four distinct
//! cells), so exactly one turn puts it in the chosen cell; in the centre the
//! turns cycle its rotation instead.

use std::sync::Arc;

use super::{Formulation, Level, turn_sources};
use crate::board::Solution;
use crate::model::{BIG, Constraint, Model};
use crate::puzzle::Puzzle;

pub(crate) struct Anchor;

/// The chosen cell of each cell's orbit: the smallest row-major index.
pub(crate) fn orbit_representative(n: usize, c: usize) -> usize {
    (1..4).map(|k| turn_sources(n, k)[c]).fold(c, usize::min)
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
    fn precondition(&self, _puzzle: &Puzzle) -> Result<(), String> {
        Ok(())
    }
    fn accepts(&self, puzzle: &Puzzle, s: &Solution) -> bool {
        let t_min = puzzle.tiles[0].id;
        s.cells()
            .iter()
            .enumerate()
            .all(|(c, p)| p.tile != t_min || self.allows(puzzle, c, p.tile, p.rotation))
    }
    fn allows(&self, puzzle: &Puzzle, cell: usize, tile: i64, rotation: u8) -> bool {
        let n = puzzle.n;
        if tile != puzzle.tiles[0].id {
            return true;
        }
        if turn_sources(n, 1)[cell] == cell {
            rotation == 0
        } else {
            orbit_representative(n, cell) == cell
        }
    }
    fn add(&self, puzzle: &Puzzle, model: &mut Model) {
        let n = puzzle.n;
        let t_min = puzzle.tiles[0].id;
        for c in 0..n * n {
            let (t, r) = model.cells[c];
            let (i, j) = (c / n + 1, c % n + 1);
            let turned = turn_sources(n, 1)[c];
            if turned == c {
                // The centre of an odd board: only rotation 0.
                model.constraints.push(Constraint::Table {
                    name: format!("anchor_center_{i}_{j}"),
                    vars: vec![t, r],
                    tuples: Arc::new(vec![t_min, 1, t_min, 2, t_min, 3]),
                    negated: true,
                });
            } else if orbit_representative(n, c) != c {
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
            let reps: std::collections::BTreeSet<usize> =
                (0..n * n).map(|c| orbit_representative(n, c)).collect();
            assert_eq!(reps.len(), (n * n).div_ceil(4), "n = {n}");
        }
    }
}

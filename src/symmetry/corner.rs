//! `corner`: the top-left corner holds the smallest tile id of the four corners.
//!
//! The four corner cells form one orbit under board turns and the four corner
//! tiles are distinct, so exactly one turn puts the smallest of them top-left.

use super::{Clauses, Formulation, Level};
use crate::board::Solution;
use crate::model::{BIG, Constraint, Model};
use crate::puzzle::Puzzle;

pub(crate) struct Corner;

impl Formulation for Corner {
    fn name(&self) -> &'static str {
        "corner"
    }
    fn level(&self) -> Level {
        Level::Board
    }
    fn summary(&self) -> &'static str {
        "n >= 2: the top-left tile has the smallest id of the four corners"
    }
    fn precondition(&self, puzzle: &Puzzle) -> Result<(), String> {
        super::needs_turns(puzzle, true)?;
        if puzzle.rows() >= 2 {
            Ok(())
        } else {
            Err("needs four distinct corners (n >= 2); this board is 1x1".into())
        }
    }
    fn accepts(&self, puzzle: &Puzzle, s: &Solution) -> bool {
        let n = puzzle.rows();
        let tl = s.at(0, 0).tile;
        [(0, n - 1), (n - 1, 0), (n - 1, n - 1)]
            .iter()
            .all(|&(i, j)| tl < s.at(i, j).tile)
    }
    fn clauses(&self, puzzle: &Puzzle, out: &mut dyn Clauses) {
        let n = puzzle.rows();
        for c in [n - 1, (n - 1) * n, n * n - 1] {
            super::clauses::smaller_tile(puzzle, out, 0, c);
        }
    }
    fn add(&self, puzzle: &Puzzle, model: &mut Model) {
        let n = puzzle.rows();
        let (tl, _) = model.cell(0, 0);
        for (i, j) in [(0, n - 1), (n - 1, 0), (n - 1, n - 1)] {
            let (t, _) = model.cell(i, j);
            model.constraints.push(Constraint::Linear {
                name: format!("corner_1_1_lt_{}_{}", i + 1, j + 1),
                terms: vec![(tl, 1), (t, -1)],
                domain: vec![(-BIG, -1)],
                enforce: vec![],
            });
        }
    }
}

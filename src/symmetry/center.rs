//! `center`: on an odd board, the centre cell's rotation is 0.
//!
//! Board turns keep the centre tile in place and add 1 to its rotation, so
//! exactly one of the four turns of a solution has it at rotation 0.

use super::{Clauses, Formulation, Level};
use crate::board::Solution;
use crate::model::{Constraint, Model};
use crate::puzzle::Puzzle;

pub(crate) struct Center;

impl Formulation for Center {
    fn name(&self) -> &'static str {
        "center"
    }
    fn level(&self) -> Level {
        Level::Board
    }
    fn summary(&self) -> &'static str {
        "odd n: the rotation of the centre cell is 0"
    }
    fn precondition(&self, puzzle: &Puzzle) -> Result<(), String> {
        super::needs_turns(puzzle, true)?;
        if puzzle.rows() % 2 == 1 {
            Ok(())
        } else {
            Err(format!(
                "needs an odd board side (a centre cell); this board is {n}x{n}",
                n = puzzle.rows()
            ))
        }
    }
    fn accepts(&self, puzzle: &Puzzle, s: &Solution) -> bool {
        let m = puzzle.rows() / 2;
        s.at(m, m).rotation == 0
    }
    fn allows(&self, puzzle: &Puzzle, cell: usize, _tile: i64, rotation: u8) -> bool {
        let m = puzzle.rows() / 2;
        cell != m * puzzle.cols() + m || rotation == 0
    }
    fn clauses(&self, _puzzle: &Puzzle, _out: &mut dyn Clauses) {
        // The rule is per cell: `allows` has taken its placements out.
    }
    fn add(&self, puzzle: &Puzzle, model: &mut Model) {
        let m = puzzle.rows() / 2;
        let (_, r) = model.cell(m, m);
        model.constraints.push(Constraint::Linear {
            name: "center_rotation_0".into(),
            terms: vec![(r, 1)],
            domain: vec![(0, 0)],
            enforce: vec![],
        });
    }
}

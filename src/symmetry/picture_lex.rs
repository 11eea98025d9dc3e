//! `picture-lex`: the lex-leader constraint on the picture. The board's
//! row-major sequence of shown edges (per cell: right, top, left, bottom) is
//! lexicographically <= that of each of its three turns.
//!
//! Auxiliary variables `e_c_d` hold the code of the edge cell c shows in
//! direction d (one table per cell links them to its tile and rotation). A
//! turned picture is the same variables in another order, so no further
//! variables are needed. Alone it keeps every labelled solution whose picture
//! is the smallest of its turns; with `tiles` it keeps exactly one solution
//! per picture class.

use std::sync::Arc;

use super::clauses::edge_code;
use super::lex::lex_leq;
use super::{Clauses, Formulation, Level, picture, turn_picture};
use crate::board::Solution;
use crate::model::{Constraint, Model, VarId};
use crate::puzzle::{Edge, Puzzle};

pub(crate) struct PictureLex;

impl Formulation for PictureLex {
    fn name(&self) -> &'static str {
        "picture-lex"
    }
    fn level(&self) -> Level {
        Level::Board
    }
    fn summary(&self) -> &'static str {
        "lex-leader on the picture: the shown-edge sequence is <= each of its turns'"
    }
    fn precondition(&self, puzzle: &Puzzle) -> Result<(), String> {
        super::needs_turns(puzzle, false)
    }
    fn accepts(&self, puzzle: &Puzzle, s: &Solution) -> bool {
        let codes =
            |p: &[[Edge; 4]]| -> Vec<i64> { p.iter().flatten().map(|&e| edge_code(e)).collect() };
        let shape = puzzle.shape();
        let pic = picture(puzzle, s);
        let first = codes(&pic);
        shape.group.turns()[1..]
            .iter()
            .all(|&k| first <= codes(&turn_picture(shape, k, &pic)))
    }
    fn clauses(&self, puzzle: &Puzzle, out: &mut dyn Clauses) {
        let shape = puzzle.shape();
        let shown = super::clauses::ShownEdges::new(puzzle, out);
        let slots: Vec<[usize; 4]> = (0..shape.cells())
            .map(|c| std::array::from_fn(|d| 4 * c + d))
            .collect();
        let xs: Vec<usize> = slots.iter().flatten().copied().collect();
        for &k in &shape.group.turns()[1..] {
            let ys: Vec<usize> = turn_picture(shape, k, &slots)
                .iter()
                .flatten()
                .copied()
                .collect();
            shown.lex_leq(out, &xs, &ys);
        }
    }
    fn add(&self, puzzle: &Puzzle, model: &mut Model) {
        let shape = puzzle.shape();
        let n = puzzle.cols();
        let max_code = 3 * puzzle.motifs().len() as i64;
        let tuples: Arc<Vec<i64>> = Arc::new(
            puzzle
                .tiles()
                .iter()
                .flat_map(|t| {
                    (0..4u8).flat_map(move |r| {
                        let mut row = vec![t.id, r as i64];
                        row.extend((0..4).map(|d| edge_code(t.edge(r, d))));
                        row
                    })
                })
                .collect(),
        );
        let cells = model.cells.clone();
        let shown: Vec<[VarId; 4]> = cells
            .iter()
            .enumerate()
            .map(|(c, &(t, r))| {
                let (i, j) = (c / n + 1, c % n + 1);
                let e: [VarId; 4] = std::array::from_fn(|d| {
                    model.add_var(format!("edge_{i}_{j}_{d}"), vec![(0, max_code)])
                });
                let mut vars = vec![t, r];
                vars.extend(e);
                model.constraints.push(Constraint::Table {
                    name: format!("edges_{i}_{j}"),
                    vars,
                    tuples: Arc::clone(&tuples),
                    negated: false,
                });
                e
            })
            .collect();
        let xs: Vec<VarId> = shown.iter().flatten().copied().collect();
        for &k in &shape.group.turns()[1..] {
            let turned = turn_picture(shape, k, &shown);
            let ys: Vec<VarId> = turned.iter().flatten().copied().collect();
            lex_leq(model, &format!("picture_lex_turn{k}"), &xs, &ys);
        }
    }
}

//! `lex`: the lex-leader constraint. The board's row-major sequence of
//! `(tile, rotation)` is lexicographically <= that of each of its three turns.
//!
//! Every cell's pair is one integer `v = 4 * tile + rotation` (the order of
//! pairs is the order of these integers). The turned boards' values are
//! auxiliary variables `w = 4 * tile' + (rotation' + k) mod 4`, and
//! `v <=lex w` is the usual chain of "equal so far" literals. The kept member
//! of each class is exactly its canonical form.

use std::sync::Arc;

use super::{Clauses, Formulation, Level, turn_sources};
use crate::board::Solution;
use crate::model::{BIG, Constraint, Lit, Model, VarId};
use crate::puzzle::Puzzle;

pub(crate) struct Lex;

impl Formulation for Lex {
    fn name(&self) -> &'static str {
        "lex"
    }
    fn level(&self) -> Level {
        Level::Board
    }
    fn summary(&self) -> &'static str {
        "lex-leader: the board's (tile, rotation) sequence is <= each of its turns'"
    }
    fn precondition(&self, puzzle: &Puzzle) -> Result<(), String> {
        super::needs_turns(puzzle, false)
    }
    fn accepts(&self, _puzzle: &Puzzle, s: &Solution) -> bool {
        s.turns()[1..].iter().all(|t| s <= t)
    }
    /// The tiles are distinct, so two different cells never hold equal
    /// values and each comparison is decided at the first position whose
    /// cell the turn moves: the first cell, unless the board is 1x1. There
    /// the first tile is smaller than the one the turn brings; on a 1x1
    /// board the tile stays and its rotation r is below (r + k) mod 4.
    fn clauses(&self, puzzle: &Puzzle, out: &mut dyn Clauses) {
        let shape = puzzle.shape();
        for &k in &shape.group.turns()[1..] {
            let src = turn_sources(shape, k)[0];
            if src != 0 {
                super::clauses::smaller_tile(puzzle, out, 0, src);
                continue;
            }
            for t in puzzle.tiles() {
                for r in 0..4u8 {
                    if (r as usize + k) % 4 < r as usize
                        && let Some(x) = out.placed(0, t.id, r)
                    {
                        out.clause(&[-x]);
                    }
                }
            }
        }
    }
    fn add(&self, puzzle: &Puzzle, model: &mut Model) {
        let shape = puzzle.shape();
        let n = puzzle.cols();
        let ids = puzzle.ids();
        let (lo, hi) = (4 * ids[0], 4 * ids[ids.len() - 1] + 3);
        let cells = model.cells.clone();
        // v_c = 4 * tile_c + rotation_c
        let v: Vec<VarId> = cells
            .iter()
            .enumerate()
            .map(|(c, &(t, r))| {
                let name = format!("lex_v_{}_{}", c / n + 1, c % n + 1);
                let x = model.add_var(name.clone(), vec![(lo, hi)]);
                model.constraints.push(Constraint::Linear {
                    name,
                    terms: vec![(x, 1), (t, -4), (r, -1)],
                    domain: vec![(0, 0)],
                    enforce: vec![],
                });
                x
            })
            .collect();
        for &k in &shape.group.turns()[1..] {
            let src = turn_sources(shape, k);
            let plus_k: Arc<Vec<i64>> =
                Arc::new((0..4i64).flat_map(|r| [r, (r + k as i64) % 4]).collect());
            let w: Vec<VarId> = (0..shape.cells())
                .map(|q| {
                    let (t, r) = cells[src[q]];
                    let name = format!("lex_turn{k}_{}_{}", q / n + 1, q % n + 1);
                    let rk = model.add_var(format!("{name}_rotation"), vec![(0, 3)]);
                    model.constraints.push(Constraint::Table {
                        name: format!("{name}_rotation"),
                        vars: vec![r, rk],
                        tuples: Arc::clone(&plus_k),
                        negated: false,
                    });
                    let x = model.add_var(name.clone(), vec![(lo, hi)]);
                    model.constraints.push(Constraint::Linear {
                        name,
                        terms: vec![(x, 1), (t, -4), (rk, -1)],
                        domain: vec![(0, 0)],
                        enforce: vec![],
                    });
                    x
                })
                .collect();
            lex_leq(model, &format!("lex_turn{k}"), &v, &w);
        }
    }
}

/// Constrain the sequence `xs` to be lexicographically <= `ys`.
///
/// `e_p` ("equal up to and including p") is true exactly when
/// `e_{p-1} and x_p = y_p`; while equal so far, `x_p <= y_p`.
pub(super) fn lex_leq(model: &mut Model, name: &str, xs: &[VarId], ys: &[VarId]) {
    let mut equal_so_far: Option<Lit> = None;
    let last = xs.len().saturating_sub(1);
    for (p, (&x, &y)) in xs.iter().zip(ys).enumerate() {
        if x == y {
            continue;
        }
        model.constraints.push(Constraint::Linear {
            name: format!("{name}_le_{p}"),
            terms: vec![(x, 1), (y, -1)],
            domain: vec![(-BIG, 0)],
            enforce: equal_so_far.into_iter().collect(),
        });
        if p == last {
            break;
        }
        let eq = model.add_bool(format!("{name}_eq_{p}"));
        model.constraints.push(Constraint::Linear {
            name: format!("{name}_eq_{p}"),
            terms: vec![(x, 1), (y, -1)],
            domain: vec![(0, 0)],
            enforce: vec![eq],
        });
        model.constraints.push(Constraint::Linear {
            name: format!("{name}_ne_{p}"),
            terms: vec![(x, 1), (y, -1)],
            domain: vec![(-BIG, -1), (1, BIG)],
            enforce: vec![!eq],
        });
        let e = model.add_bool(format!("{name}_equal_to_{p}"));
        let mut both: Vec<Lit> = vec![eq];
        both.extend(equal_so_far);
        model.constraints.push(Constraint::BoolAnd {
            name: format!("{name}_equal_to_{p}_implies"),
            lits: both.clone(),
            enforce: vec![e],
        });
        let mut back: Vec<Lit> = both.iter().map(|&l| !l).collect();
        back.push(e);
        model.constraints.push(Constraint::BoolOr {
            name: format!("{name}_equal_to_{p}_implied"),
            lits: back,
        });
        equal_so_far = Some(e);
    }
}

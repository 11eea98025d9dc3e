//! The formulations as clauses, for the SAT engine: what a formulation
//! writes with ([`Clauses`], the engine's CNF behind it) and the pieces
//! several formulations share (one tile's id below another's, the shown
//! edges in order encoding, a lex chain over them). docs/symmetry.md, "As
//! clauses", gives each formulation's clauses and why they state it.

use std::collections::HashMap;

use crate::model::{self, Constraint, Model};
use crate::puzzle::{Edge, Half, Puzzle};

/// The integer code of an edge: motif * 3 + half.
pub(crate) fn edge_code(e: Edge) -> i64 {
    e.motif as i64 * 3
        + match e.half {
            Half::Plus => 0,
            Half::Minus => 1,
            Half::Same => 2,
        }
}

/// A DIMACS literal: a positive variable, or its negation.
pub(crate) type Lit = i32;

/// Where a formulation writes its clauses: the SAT engine's CNF, whose
/// placements (cell, tile, rotation) are its variables. Placements a
/// cell cannot hold (the rules, or a formulation's per-cell rule,
/// [`super::Formulation::allows`], took them out) have no literal.
pub trait Clauses {
    /// "Cell `cell` (0-based, row-major) holds tile `tile` in `rotation`".
    fn placed(&mut self, cell: usize, tile: i64, rotation: u8) -> Option<Lit>;
    /// "Cell `cell` holds tile `tile`", in any rotation: its one
    /// placement, or a new variable equivalent to their disjunction, made
    /// once per cell and tile.
    fn holds(&mut self, cell: usize, tile: i64) -> Option<Lit> {
        if let Some(&known) = self.held().get(&(cell, tile)) {
            return known;
        }
        let lit = any_rotation(self, cell, tile);
        self.held().insert((cell, tile), lit);
        lit
    }
    /// The literals [`Clauses::holds`] made, per cell and tile.
    fn held(&mut self) -> &mut HashMap<(usize, i64), Option<Lit>>;
    /// A new variable.
    fn var(&mut self) -> Lit;
    /// One clause: at least one of `lits` holds.
    fn clause(&mut self, lits: &[Lit]);
}

/// A literal for "cell `cell` holds tile `tile`" ([`Clauses::holds`]),
/// from its placements: the one placement itself, or a new variable that
/// holds exactly when one of them does; `None` if there is none.
fn any_rotation<C: Clauses + ?Sized>(out: &mut C, cell: usize, tile: i64) -> Option<Lit> {
    let xs: Vec<Lit> = (0..4u8).filter_map(|r| out.placed(cell, tile, r)).collect();
    match xs.as_slice() {
        [] => None,
        [x] => Some(*x),
        _ => {
            let y = out.var();
            for &x in &xs {
                out.clause(&[-x, y]);
            }
            let mut back = vec![-y];
            back.extend(&xs);
            out.clause(&back);
            Some(y)
        }
    }
}

/// The tile in cell `a` has a smaller id than the tile in cell `b` (two
/// different cells): no pair of placements with the larger id in `a`.
pub(super) fn smaller_tile(puzzle: &Puzzle, out: &mut dyn Clauses, a: usize, b: usize) {
    let ids = puzzle.ids();
    for (i, &big) in ids.iter().enumerate() {
        let Some(x) = out.holds(a, big) else {
            continue;
        };
        for &small in &ids[..i] {
            if let Some(y) = out.holds(b, small) {
                out.clause(&[-x, -y]);
            }
        }
    }
}

/// The edge each cell shows on each side, in order encoding: `ge[s][k-1]`
/// is "the code (`edge_code`) of slot `s` = 4 * cell + side is at least
/// `k`", for k in 1..codes. Every placement fixes its cell's four codes,
/// so these are functions of the placements.
pub(super) struct ShownEdges {
    /// The number of codes: each slot's code is in 0..codes.
    pub(super) codes: usize,
    ge: Vec<Vec<Lit>>,
    /// A literal that always holds.
    truth: Lit,
}

impl ShownEdges {
    pub(super) fn new(puzzle: &Puzzle, out: &mut dyn Clauses) -> ShownEdges {
        let codes = 3 * puzzle.motifs().len();
        let truth = out.var();
        out.clause(&[truth]);
        let mut ge = Vec::with_capacity(4 * puzzle.cells());
        for c in 0..puzzle.cells() {
            let mut slots: Vec<Vec<Lit>> = (0..4)
                .map(|_| (1..codes).map(|_| out.var()).collect())
                .collect();
            for slot in &slots {
                for w in slot.windows(2) {
                    // At least k+1 implies at least k.
                    out.clause(&[-w[1], w[0]]);
                }
            }
            for t in puzzle.tiles() {
                for r in 0..4u8 {
                    let Some(x) = out.placed(c, t.id, r) else {
                        continue;
                    };
                    for (d, slot) in slots.iter_mut().enumerate() {
                        let v = edge_code(t.edge(r, d)) as usize;
                        if v >= 1 {
                            out.clause(&[-x, slot[v - 1]]);
                        }
                        if v + 1 < codes {
                            out.clause(&[-x, -slot[v]]);
                        }
                    }
                }
            }
            ge.extend(slots);
        }
        ShownEdges { codes, ge, truth }
    }

    /// "Slot `s`'s code is at least `k`", for any k.
    fn at_least(&self, s: usize, k: usize) -> Lit {
        match k {
            0 => self.truth,
            k if k >= self.codes => -self.truth,
            k => self.ge[s][k - 1],
        }
    }

    /// The codes of slots `xs` are lexicographically <= those of `ys`.
    ///
    /// `e` ("equal so far") starts true; at each position where the two
    /// slots differ, `e` either finds `lt` (x < y: x >= k implies
    /// y >= k+1, for every k) or goes on to the next `e` (x <= y, for
    /// every k). Where the prefix is equal every `e` is forced, and a first
    /// position with x > y has neither. The other way round, the first
    /// position with x < y sets `lt` and frees the rest.
    pub(super) fn lex_leq(&self, out: &mut dyn Clauses, xs: &[usize], ys: &[usize]) {
        let mut equal_so_far = self.truth;
        for (&x, &y) in xs.iter().zip(ys) {
            if x == y {
                continue;
            }
            let (lt, e) = (out.var(), out.var());
            out.clause(&[-equal_so_far, lt, e]);
            for k in 0..self.codes {
                out.clause(&[-lt, -self.at_least(x, k), self.at_least(y, k + 1)]);
                if k >= 1 {
                    out.clause(&[-e, -self.at_least(x, k), self.at_least(y, k)]);
                }
            }
            equal_so_far = e;
        }
    }
}

/// A CP model's placement literals ([`Model::placements`], the `boolean`
/// and `edge-boolean` encodings) as a [`Clauses`] sink: a formulation's
/// clauses become `BoolOr` constraints named `{prefix}_{n}`, over the
/// model's own literals (DIMACS variable `v + 1` is the model's variable
/// `v`). Placements the puzzle's rules forbid have no literal, as in the
/// SAT engine's CNF.
pub(super) struct OnPlacements<'a> {
    puzzle: &'a Puzzle,
    model: &'a mut Model,
    prefix: &'static str,
    holds: HashMap<(usize, i64), Option<Lit>>,
    written: usize,
}

impl<'a> OnPlacements<'a> {
    /// On `model`, which has placement literals.
    pub(super) fn new(
        puzzle: &'a Puzzle,
        model: &'a mut Model,
        prefix: &'static str,
    ) -> OnPlacements<'a> {
        assert!(
            !model.placements.is_empty(),
            "a model with placement literals"
        );
        OnPlacements {
            puzzle,
            model,
            prefix,
            holds: HashMap::new(),
            written: 0,
        }
    }

    fn dimacs(lit: model::Lit) -> Lit {
        match lit {
            model::Lit::Pos(v) => v as Lit + 1,
            model::Lit::Neg(v) => -(v as Lit + 1),
        }
    }

    fn of(lit: Lit) -> model::Lit {
        let v = lit.unsigned_abs() as usize - 1;
        if lit > 0 {
            model::Lit::Pos(v)
        } else {
            model::Lit::Neg(v)
        }
    }
}

impl Clauses for OnPlacements<'_> {
    fn placed(&mut self, cell: usize, tile: i64, rotation: u8) -> Option<Lit> {
        let k = self.puzzle.index_of(tile)?;
        self.puzzle
            .allows(cell, k, rotation)
            .then(|| Self::dimacs(self.model.placements[cell][4 * k + rotation as usize]))
    }

    fn held(&mut self) -> &mut HashMap<(usize, i64), Option<Lit>> {
        &mut self.holds
    }

    fn var(&mut self) -> Lit {
        let name = format!("{}_var_{}", self.prefix, self.model.vars.len());
        Self::dimacs(self.model.add_bool(name))
    }

    fn clause(&mut self, lits: &[Lit]) {
        self.written += 1;
        self.model.constraints.push(Constraint::BoolOr {
            name: format!("{}_{}", self.prefix, self.written),
            lits: lits.iter().map(|&l| Self::of(l)).collect(),
        });
    }
}

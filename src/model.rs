//! The CP model of a puzzle, in solver-neutral terms.
//!
//! Exactly the formulation of the original post: per cell (i, j) a tile
//! variable `tile_i_j` (domain: the tile ids) and a rotation variable
//! `rotation_i_j` (0..3); AllDifferent over the tile variables; one table
//! constraint per horizontally adjacent pair over the table A_H and one per
//! vertically adjacent pair over A_V. The `cpsat` module turns this into a
//! `CpModelProto`; nothing here knows about protobuf.

use std::sync::Arc;

use itertools::iproduct;

use crate::board::Placement;
use crate::puzzle::{BOTTOM, LEFT, Puzzle, RIGHT, TOP};

/// Index of a variable in [`Model::vars`].
pub type VarId = usize;

/// An integer variable with a domain given as sorted, disjoint closed intervals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IntVar {
    pub name: String,
    pub domain: Vec<(i64, i64)>,
}

/// A Boolean literal: a 0/1 variable or its negation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lit {
    Pos(VarId),
    Neg(VarId),
}

impl std::ops::Not for Lit {
    type Output = Lit;
    fn not(self) -> Lit {
        match self {
            Lit::Pos(v) => Lit::Neg(v),
            Lit::Neg(v) => Lit::Pos(v),
        }
    }
}

/// A bound large enough for every linear expression scramble builds.
pub const BIG: i64 = 1 << 40;

/// A constraint of the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Constraint {
    /// All the variables take different values.
    AllDifferent { name: String, vars: Vec<VarId> },
    /// The variables, in order, take one of the listed tuples (or, when
    /// `negated`, none of them). `tuples` is flat: `vars.len()` values a tuple.
    Table {
        name: String,
        vars: Vec<VarId>,
        tuples: Arc<Vec<i64>>,
        negated: bool,
    },
    /// `sum(coeff * var)` lies in `domain`, if every `enforce` literal holds.
    Linear {
        name: String,
        terms: Vec<(VarId, i64)>,
        domain: Vec<(i64, i64)>,
        enforce: Vec<Lit>,
    },
    /// At least one literal holds.
    BoolOr { name: String, lits: Vec<Lit> },
    /// Every literal holds, if every `enforce` literal holds.
    BoolAnd {
        name: String,
        lits: Vec<Lit>,
        enforce: Vec<Lit>,
    },
}

/// A solver-neutral CP model of a puzzle.
#[derive(Clone, Debug)]
pub struct Model {
    pub n: usize,
    pub vars: Vec<IntVar>,
    pub constraints: Vec<Constraint>,
    /// Per cell, row-major: (tile variable, rotation variable).
    pub cells: Vec<(VarId, VarId)>,
}

/// Compress sorted distinct values into closed intervals.
pub fn intervals(values: &[i64]) -> Vec<(i64, i64)> {
    let mut out: Vec<(i64, i64)> = Vec::new();
    for &v in values {
        match out.last_mut() {
            Some((_, hi)) if *hi + 1 == v => *hi = v,
            _ => out.push((v, v)),
        }
    }
    out
}

/// The allowed assignments `(s1, r1, s2, r2)` with `s1 != s2` where edge `e1`
/// of `s1` under rotation `r1` fits edge `e2` of `s2` under rotation `r2`.
/// Ordered by tile pair, then rotations, as the original model builds them.
fn pair_table(puzzle: &Puzzle, e1: usize, e2: usize) -> Vec<i64> {
    iproduct!(&puzzle.tiles, &puzzle.tiles, 0..4u8, 0..4u8)
        .filter(|(a, b, r1, r2)| a.id != b.id && a.edge(*r1, e1).fits(b.edge(*r2, e2)))
        .flat_map(|(a, b, r1, r2)| [a.id, r1 as i64, b.id, r2 as i64])
        .collect()
}

/// A_H: right edge of the left tile against left edge of the right tile.
pub fn horizontal_table(puzzle: &Puzzle) -> Vec<i64> {
    pair_table(puzzle, RIGHT, LEFT)
}

/// A_V: bottom edge of the upper tile against top edge of the lower tile.
pub fn vertical_table(puzzle: &Puzzle) -> Vec<i64> {
    pair_table(puzzle, BOTTOM, TOP)
}

impl Model {
    /// The table model of a puzzle.
    pub fn table(puzzle: &Puzzle) -> Model {
        let n = puzzle.n;
        let tile_domain = intervals(&puzzle.ids());
        let mut vars = Vec::with_capacity(2 * n * n);
        let mut cells = Vec::with_capacity(n * n);
        for (i, j) in iproduct!(0..n, 0..n) {
            let t = vars.len();
            vars.push(IntVar {
                name: format!("tile_{}_{}", i + 1, j + 1),
                domain: tile_domain.clone(),
            });
            vars.push(IntVar {
                name: format!("rotation_{}_{}", i + 1, j + 1),
                domain: vec![(0, 3)],
            });
            cells.push((t, t + 1));
        }
        let mut constraints = vec![Constraint::AllDifferent {
            name: "all_different_tiles".into(),
            vars: cells.iter().map(|c| c.0).collect(),
        }];
        let h = Arc::new(horizontal_table(puzzle));
        let v = Arc::new(vertical_table(puzzle));
        for (i, j) in iproduct!(0..n, 0..n) {
            let a = cells[i * n + j];
            if j + 1 < n {
                let b = cells[i * n + j + 1];
                constraints.push(Constraint::Table {
                    name: format!("horizontal_{}_{}", i + 1, j + 1),
                    vars: vec![a.0, a.1, b.0, b.1],
                    tuples: Arc::clone(&h),
                    negated: false,
                });
            }
            if i + 1 < n {
                let b = cells[(i + 1) * n + j];
                constraints.push(Constraint::Table {
                    name: format!("vertical_{}_{}", i + 1, j + 1),
                    vars: vec![a.0, a.1, b.0, b.1],
                    tuples: Arc::clone(&v),
                    negated: false,
                });
            }
        }
        Model {
            n,
            vars,
            constraints,
            cells,
        }
    }

    /// Add an integer variable; returns its id.
    pub fn add_var(&mut self, name: String, domain: Vec<(i64, i64)>) -> VarId {
        self.vars.push(IntVar { name, domain });
        self.vars.len() - 1
    }

    /// Add a 0/1 variable; returns its positive literal.
    pub fn add_bool(&mut self, name: String) -> Lit {
        Lit::Pos(self.add_var(name, vec![(0, 1)]))
    }

    /// `lit <=> (var == value)`.
    pub fn channel_eq(&mut self, name: &str, lit: Lit, var: VarId, value: i64) {
        self.constraints.push(Constraint::Linear {
            name: format!("{name}_eq"),
            terms: vec![(var, 1)],
            domain: vec![(value, value)],
            enforce: vec![lit],
        });
        self.constraints.push(Constraint::Linear {
            name: format!("{name}_ne"),
            terms: vec![(var, 1)],
            domain: vec![(-BIG, value - 1), (value + 1, BIG)],
            enforce: vec![!lit],
        });
    }

    /// The tile and rotation variables of 0-based cell (i, j).
    pub fn cell(&self, i: usize, j: usize) -> (VarId, VarId) {
        self.cells[i * self.n + j]
    }

    /// The subproblem where the first `prefix.len()` cells (row-major) hold
    /// the given placements: their variables' domains become single values.
    pub fn with_prefix(&self, prefix: &[Placement]) -> Model {
        let mut m = self.clone();
        m.fix_prefix(prefix);
        m
    }

    /// Restrict the domains of the first cells to the given placements.
    pub fn fix_prefix(&mut self, prefix: &[Placement]) {
        for (cell, p) in self.cells.iter().zip(prefix) {
            self.vars[cell.0].domain = vec![(p.tile, p.tile)];
            self.vars[cell.1].domain = vec![(p.rotation as i64, p.rotation as i64)];
        }
    }

    /// Read a board from a full assignment of the variables (indexed like `vars`).
    pub fn decode(&self, values: &[i64]) -> Option<Vec<Placement>> {
        self.cells
            .iter()
            .map(|&(t, r)| {
                Some(Placement {
                    tile: *values.get(t)?,
                    rotation: u8::try_from(*values.get(r)?).ok()?,
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn seed() -> Puzzle {
        Puzzle::load(Path::new("puzzles/3x3-original")).unwrap()
    }

    #[test]
    fn intervals_compress_runs() {
        assert_eq!(intervals(&[1, 2, 3, 5, 7, 8]), vec![(1, 3), (5, 5), (7, 8)]);
        assert_eq!(intervals(&[]), vec![]);
    }

    #[test]
    fn seed_model_has_the_original_shape() {
        let p = seed();
        let m = Model::table(&p);
        assert_eq!(m.vars.len(), 18);
        assert_eq!(m.vars[0].name, "tile_1_1");
        assert_eq!(m.vars[1].name, "rotation_1_1");
        assert_eq!(m.vars[0].domain, vec![(1, 9)]);
        // 1 AllDifferent + 6 horizontal + 6 vertical tables.
        assert_eq!(m.constraints.len(), 13);
    }

    #[test]
    fn tables_hold_exactly_the_fitting_pairs() {
        let p = seed();
        let h = horizontal_table(&p);
        for t in h.chunks(4) {
            let a = p.tile(t[0]).unwrap();
            let b = p.tile(t[2]).unwrap();
            assert_ne!(t[0], t[2]);
            assert!(a.edge(t[1] as u8, RIGHT).fits(b.edge(t[3] as u8, LEFT)));
        }
        let brute = iproduct!(1..=9i64, 0..4u8, 1..=9i64, 0..4u8)
            .filter(|&(a, r1, b, r2)| {
                a != b
                    && p.tile(a)
                        .unwrap()
                        .edge(r1, RIGHT)
                        .fits(p.tile(b).unwrap().edge(r2, LEFT))
            })
            .count();
        assert_eq!(h.len(), 4 * brute);
    }
}

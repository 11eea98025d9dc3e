//! `boolean`: one literal per (cell, tile, rotation), clauses for the edges.
//!
//! `x_c_t_r` holds when cell c has tile t at rotation r. Exactly one literal
//! per cell, exactly one per tile (over all cells and rotations). For every
//! pair of neighbours and every literal of one of them, a clause: the
//! literal implies one of the other cell's literals that fit it (another
//! tile, the facing edge matching), in both directions. The tile and
//! rotation variables of each cell are channelled by two linear equalities
//! (`tile = sum id * x`, `rotation = sum r * x`), so symmetry-breaking
//! constraints, prefixes and decoding see the usual variables.

use std::time::Duration;

use itertools::iproduct;

use super::{Budget, BuildError, Constraint, Encoding, Lit, Model, Size};
use crate::puzzle::{BOTTOM, LEFT, Puzzle, RIGHT, TOP};

pub(crate) struct Boolean;

/// For each orientation `o = tile index * 4 + rotation`, the orientations
/// of another tile whose edge `there` fits its edge `here`.
fn fitting(puzzle: &Puzzle, here: usize, there: usize) -> Vec<Vec<usize>> {
    let t = &puzzle.tiles;
    iproduct!(0..t.len(), 0..4u8)
        .map(|(a, ra)| {
            iproduct!(0..t.len(), 0..4u8)
                .filter(|&(b, rb)| a != b && t[a].edge(ra, here).fits(t[b].edge(rb, there)))
                .map(|(b, rb)| 4 * b + rb as usize)
                .collect()
        })
        .collect()
}

/// The neighbour pairs `(a, b, side of a, side of b)`, row-major.
fn pairs(n: usize) -> Vec<(usize, usize, usize, usize)> {
    let mut out = Vec::new();
    for (i, j) in iproduct!(0..n, 0..n) {
        let a = i * n + j;
        if j + 1 < n {
            out.push((a, a + 1, RIGHT, LEFT));
        }
        if i + 1 < n {
            out.push((a, a + n, BOTTOM, TOP));
        }
    }
    out
}

/// Add the placement literals `x[c][o]` (o = tile index * 4 + rotation),
/// exactly one per cell and per tile, channelled to the cells' tile and
/// rotation variables; returns them.
pub(super) fn placements(puzzle: &Puzzle, model: &mut Model) -> Vec<Vec<Lit>> {
    let n = puzzle.n;
    let k = 4 * puzzle.len();
    let mut x: Vec<Vec<Lit>> = Vec::with_capacity(n * n);
    for c in 0..n * n {
        let row = iproduct!(&puzzle.tiles, 0..4u8)
            .map(|(t, r)| model.add_bool(format!("x_{}_{}_{}_{r}", c / n + 1, c % n + 1, t.id)))
            .collect();
        x.push(row);
    }
    let min_id = puzzle.tiles[0].id;
    for (c, xc) in x.iter().enumerate() {
        let (i, j) = (c / n + 1, c % n + 1);
        model.constraints.push(Constraint::ExactlyOne {
            name: format!("one_placement_{i}_{j}"),
            lits: xc.clone(),
        });
        let var = |l: Lit| match l {
            Lit::Pos(v) | Lit::Neg(v) => v,
        };
        let (t, r) = model.cells[c];
        // tile - min_id = sum (id - min_id) x: small coefficients.
        let mut terms = vec![(t, 1)];
        terms.extend(
            (0..k)
                .filter(|o| puzzle.tiles[o / 4].id != min_id)
                .map(|o| (var(x[c][o]), -(puzzle.tiles[o / 4].id - min_id))),
        );
        model.constraints.push(Constraint::Linear {
            name: format!("tile_{i}_{j}_channel"),
            terms,
            domain: vec![(min_id, min_id)],
            enforce: vec![],
        });
        let mut terms = vec![(r, 1)];
        terms.extend(
            (0..k)
                .filter(|o| o % 4 != 0)
                .map(|o| (var(x[c][o]), -((o % 4) as i64))),
        );
        model.constraints.push(Constraint::Linear {
            name: format!("rotation_{i}_{j}_channel"),
            terms,
            domain: vec![(0, 0)],
            enforce: vec![],
        });
    }
    for (ti, t) in puzzle.tiles.iter().enumerate() {
        model.constraints.push(Constraint::ExactlyOne {
            name: format!("one_place_tile_{}", t.id),
            lits: (0..n * n)
                .flat_map(|c| (0..4).map(move |r| (c, 4 * ti + r)))
                .map(|(c, o)| x[c][o])
                .collect(),
        });
    }
    x
}

impl Encoding for Boolean {
    fn name(&self) -> &'static str {
        "boolean"
    }
    fn summary(&self) -> &'static str {
        "a literal per (cell, tile, rotation); exactly-one per cell and tile; a support clause per neighbour and literal"
    }
    fn size(&self, puzzle: &Puzzle) -> Size {
        let (cells, tiles) = (puzzle.len() as u64, puzzle.len() as u64);
        let lits = cells * 4 * tiles;
        let pairs = pairs(puzzle.n);
        let mut clause_values = 0u64;
        for (here, there) in [(RIGHT, LEFT), (LEFT, RIGHT), (BOTTOM, TOP), (TOP, BOTTOM)] {
            // Counting supports is quadratic in the orientations, like the
            // clauses themselves; no table is built.
            let t = &puzzle.tiles;
            let supports = iproduct!(0..t.len(), 0..4u8, 0..t.len(), 0..4u8)
                .filter(|&(a, ra, b, rb)| a != b && t[a].edge(ra, here).fits(t[b].edge(rb, there)))
                .count() as u64;
            let per_pair = 4 * tiles + supports;
            clause_values += per_pair * pairs.len() as u64 / 2;
        }
        Size {
            variables: 2 * cells + lits,
            constraints: 3 * cells + tiles + 2 * pairs.len() as u64 * 4 * tiles,
            table_tuples: 0,
            // Exactly-ones, channels (the smallest id and rotation 0 have
            // coefficient 0 and are left out), clauses.
            values: 2 * lits + cells * ((4 * tiles - 3) + (3 * tiles + 1)) + clause_values,
        }
    }
    fn whole_model_slice(&self) -> Duration {
        Duration::from_secs(4)
    }
    fn build(&self, puzzle: &Puzzle, budget: &Budget) -> Result<Model, BuildError> {
        let n = puzzle.n;
        let k = 4 * puzzle.len();
        let mut model = Model::with_cells(puzzle);
        let x = placements(puzzle, &mut model);
        let mut fit = [const { Vec::new() }; 4];
        for here in [RIGHT, TOP, LEFT, BOTTOM] {
            budget.check()?;
            fit[here] = fitting(puzzle, here, (here + 2) % 4);
        }
        for (a, b, side_a, side_b) in pairs(n) {
            budget.check()?;
            for (here, there, side) in [(a, b, side_a), (b, a, side_b)] {
                for o in 0..k {
                    let mut lits = vec![!x[here][o]];
                    lits.extend(fit[side][o].iter().map(|&q| x[there][q]));
                    model.constraints.push(Constraint::BoolOr {
                        name: format!("support_{here}_{there}_{o}"),
                        lits,
                    });
                }
            }
        }
        Ok(model)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn seed_model_has_a_literal_per_placement() {
        let p = Puzzle::load(Path::new("puzzles/3x3-original")).unwrap();
        let m = Boolean.build(&p, &Budget::unlimited()).unwrap();
        assert_eq!(m.vars.len(), 18 + 9 * 36);
        assert_eq!(m.size(), Boolean.size(&p));
    }
}

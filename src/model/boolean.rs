//! `boolean`: one literal per (cell, tile, rotation), clauses for the edges.
//!
//! `x_c_t_r` holds when cell c has tile t at rotation r. Exactly one literal
//! per cell, exactly one per tile (over all cells and rotations). For every
//! pair of neighbours and every literal of one of them, a clause: the
//! literal implies one of the other cell's literals that fit it (another
//! tile, the facing edge matching), in both directions. The tile and
//! rotation variables of each cell are channelled by implications (`x_c_t_r
//! => tile_c = t`, `x_c_t_r => rotation_c = r`), so symmetry-breaking
//! constraints, prefixes and decoding see the usual variables.

use std::time::Duration;

use itertools::iproduct;

use super::{BuildError, Building, Constraint, Encoding, Lit, Model, Size};
use crate::cancel::Cancel;
use crate::puzzle::{BOTTOM, LEFT, Puzzle, RIGHT, TOP};

pub(crate) struct Boolean;

/// For each orientation `o = tile index * 4 + rotation`, the orientations
/// of another tile whose edge `there` fits its edge `here`.
fn fitting(puzzle: &Puzzle, here: usize, there: usize) -> Vec<Vec<usize>> {
    let t = puzzle.tiles();
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
fn pairs(rows: usize, cols: usize) -> Vec<(usize, usize, usize, usize)> {
    let mut out = Vec::new();
    for (i, j) in iproduct!(0..rows, 0..cols) {
        let a = i * cols + j;
        if j + 1 < cols {
            out.push((a, a + 1, RIGHT, LEFT));
        }
        if i + 1 < rows {
            out.push((a, a + cols, BOTTOM, TOP));
        }
    }
    out
}

/// The size of what [`placements`] adds to a model with its cells.
pub(super) fn placements_size(puzzle: &Puzzle) -> Size {
    let (cells, tiles) = (puzzle.len() as u64, puzzle.len() as u64);
    let lits = cells * 4 * tiles;
    Size {
        variables: 2 * cells + lits,
        // An exactly-one per cell and per tile, two implications per literal.
        constraints: cells + tiles + 2 * lits,
        table_tuples: 0,
        // The exactly-ones hold every literal twice; an implication is a
        // term and its enforcing literal.
        values: 2 * lits + 4 * lits,
    }
}

/// Add the placement literals `x[c][o]` (o = tile index * 4 + rotation),
/// exactly one per cell and per tile, channelled to the cells' tile and
/// rotation variables (each literal implies its tile and its rotation);
/// returns them and keeps them as [`Model::placements`]. `budget` is
/// checked once per cell (a 16x16 board's literals take a few hundred
/// milliseconds).
pub(super) fn placements(
    puzzle: &Puzzle,
    model: &mut Model,
    cancel: &Cancel,
) -> Result<Vec<Vec<Lit>>, BuildError> {
    let n = puzzle.cols();
    let cells = puzzle.cells();
    let mut x: Vec<Vec<Lit>> = Vec::with_capacity(cells);
    for c in 0..cells {
        cancel.check()?;
        let row = iproduct!(puzzle.tiles(), 0..4u8)
            .map(|(t, r)| model.add_bool(format!("x_{}_{}_{}_{r}", c / n + 1, c % n + 1, t.id)))
            .collect();
        x.push(row);
    }
    for (c, xc) in x.iter().enumerate() {
        cancel.check()?;
        let (i, j) = (c / n + 1, c % n + 1);
        model.constraints.push(Constraint::ExactlyOne {
            name: format!("one_placement_{i}_{j}"),
            lits: xc.clone(),
        });
        // Each literal implies its tile and rotation (exactly one holds, so
        // they are determined): CP-SAT's presolve reads these as the value
        // encoding of the two variables. Two sums over the cell's literals
        // (`tile = sum id * x`) say the same and presolve slower
        // (docs/model.md).
        let (t, r) = model.cells[c];
        for (o, &lit) in xc.iter().enumerate() {
            let (id, rot) = (puzzle.tiles()[o / 4].id, (o % 4) as i64);
            for (var, value, what) in [(t, id, "tile"), (r, rot, "rotation")] {
                model.constraints.push(Constraint::Linear {
                    name: format!("{what}_{i}_{j}_is_{o}"),
                    terms: vec![(var, 1)],
                    domain: vec![(value, value)],
                    enforce: vec![lit],
                });
            }
        }
    }
    for (ti, t) in puzzle.tiles().iter().enumerate() {
        model.constraints.push(Constraint::ExactlyOne {
            name: format!("one_place_tile_{}", t.id),
            lits: (0..cells)
                .flat_map(|c| (0..4).map(move |r| (c, 4 * ti + r)))
                .map(|(c, o)| x[c][o])
                .collect(),
        });
    }
    model.placements = x.clone();
    Ok(x)
}

impl Encoding for Boolean {
    fn name(&self) -> &'static str {
        "boolean"
    }
    fn summary(&self) -> &'static str {
        "a literal per (cell, tile, rotation); exactly-one per cell and tile; a support clause per neighbour and literal"
    }
    fn size(&self, puzzle: &Puzzle) -> Size {
        let tiles = puzzle.len() as u64;
        let pairs = pairs(puzzle.rows(), puzzle.cols());
        let mut clause_values = 0u64;
        for (here, there) in [(RIGHT, LEFT), (LEFT, RIGHT), (BOTTOM, TOP), (TOP, BOTTOM)] {
            // Counting supports is quadratic in the orientations, like the
            // clauses themselves; no table is built.
            let t = puzzle.tiles();
            let supports = iproduct!(0..t.len(), 0..4u8, 0..t.len(), 0..4u8)
                .filter(|&(a, ra, b, rb)| a != b && t[a].edge(ra, here).fits(t[b].edge(rb, there)))
                .count() as u64;
            let per_pair = 4 * tiles + supports;
            clause_values += per_pair * pairs.len() as u64 / 2;
        }
        let p = placements_size(puzzle);
        Size {
            constraints: p.constraints + 2 * pairs.len() as u64 * 4 * tiles,
            values: p.values + clause_values,
            ..p
        }
    }
    fn whole_model_slice(&self) -> Duration {
        Duration::from_secs(4)
    }
    /// Its presolve solves a 6x6 board outright once board turns are
    /// reduced by domains (`anchor`): one whole solve beats four ranges
    /// (docs/model.md).
    fn start_in_ranges(&self) -> bool {
        false
    }
    fn build(&self, puzzle: &Puzzle, cancel: &Cancel) -> Result<Model, BuildError> {
        let k = 4 * puzzle.len();
        let mut model = Building::new(puzzle);
        let x = placements(puzzle, &mut model, cancel)?;
        let mut fit = [const { Vec::new() }; 4];
        for here in [RIGHT, TOP, LEFT, BOTTOM] {
            cancel.check()?;
            fit[here] = fitting(puzzle, here, (here + 2) % 4);
        }
        for (a, b, side_a, side_b) in pairs(puzzle.rows(), puzzle.cols()) {
            cancel.check()?;
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
        Ok(model.finish())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn seed_model_has_a_literal_per_placement() {
        let p = Puzzle::load(Path::new("puzzles/3x3-original")).unwrap();
        let m = Boolean.build(&p, &Cancel::never()).unwrap();
        assert_eq!(m.vars.len(), 18 + 9 * 36);
        assert_eq!(m.size(), Boolean.size(&p));
    }

    /// The literals of a 16x16 board take a few hundred milliseconds: they
    /// look at the run's stop and deadline as they go (at every cell of
    /// both passes), and the build then ends at once.
    #[test]
    fn the_placements_stop_on_the_token_and_at_the_deadline() {
        use crate::cancel::StopToken;
        use std::time::Instant;
        let p = Puzzle::load(Path::new("puzzles/3x3-original")).unwrap();
        assert!(placements(&p, &mut Model::with_cells(&p), &Cancel::never()).is_ok());
        let stopped = Cancel::new(StopToken::new(), None);
        stopped.token().stop();
        let past = Cancel::new(StopToken::new(), Some(Instant::now()));
        for (cancel, why) in [
            (stopped, BuildError::Interrupted),
            (past, BuildError::TimeLimit),
        ] {
            let got = placements(&p, &mut Model::with_cells(&p), &cancel).err();
            assert_eq!(got, Some(why.clone()));
            assert_eq!(Boolean.build(&p, &cancel).err(), Some(why));
        }
    }
}

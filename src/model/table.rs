//! `table`: the formulation of the original post, and the reference every
//! other encoding is compared with.
//!
//! Per cell (i, j) a tile variable `tile_i_j` (domain: the tile ids) and a
//! rotation variable `rotation_i_j` (0..3); AllDifferent over the tile
//! variables; one table constraint per horizontally adjacent pair over the
//! table A_H and one per vertically adjacent pair over A_V, each a list of
//! 4-tuples (tile, rotation, tile, rotation).

use std::sync::Arc;

use std::time::Duration;

use itertools::iproduct;

use super::{BuildError, Building, Constraint, Encoding, Model, Size};
use crate::cancel::Cancel;
use crate::puzzle::{BOTTOM, LEFT, Puzzle, RIGHT, TOP};

pub(crate) struct Table;

/// The allowed assignments `(s1, r1, s2, r2)` with `s1 != s2` where edge `e1`
/// of `s1` under rotation `r1` fits edge `e2` of `s2` under rotation `r2`.
/// Ordered by tile pair, then rotations, as the original model builds them.
fn pair_table(puzzle: &Puzzle, e1: usize, e2: usize) -> Vec<i64> {
    iproduct!(puzzle.tiles(), puzzle.tiles(), 0..4u8, 0..4u8)
        .filter(|(a, b, r1, r2)| a.id != b.id && a.edge(*r1, e1).fits(b.edge(*r2, e2)))
        .flat_map(|(a, b, r1, r2)| [a.id, r1 as i64, b.id, r2 as i64])
        .collect()
}

/// How many tuples [`pair_table`] would hold, without building it.
fn pair_count(puzzle: &Puzzle, e1: usize, e2: usize) -> u64 {
    iproduct!(puzzle.tiles(), puzzle.tiles(), 0..4u8, 0..4u8)
        .filter(|(a, b, r1, r2)| a.id != b.id && a.edge(*r1, e1).fits(b.edge(*r2, e2)))
        .count() as u64
}

/// A_H: right edge of the left tile against left edge of the right tile.
pub fn horizontal_table(puzzle: &Puzzle) -> Vec<i64> {
    pair_table(puzzle, RIGHT, LEFT)
}

/// A_V: bottom edge of the upper tile against top edge of the lower tile.
pub fn vertical_table(puzzle: &Puzzle) -> Vec<i64> {
    pair_table(puzzle, BOTTOM, TOP)
}

impl Encoding for Table {
    /// Its search, not its presolve, dominates: range parts measured
    /// costlier than placements (docs/log.md).
    fn start_in_ranges(&self) -> bool {
        false
    }
    /// Its whole model, probed long (the CP-SAT engine's whole-model
    /// probing), ends in its presolve or soon after on every corpus
    /// puzzle, the-ultimate-puzzle-2006 the longest at about 45 units,
    /// while its parts each pay a presolve of all of the model's tables
    /// again (danger-puzzle: 2.6 s whole, 20 s as 144 parts). So the whole
    /// model's try lasts longer than the parts of the corpus's hardest
    /// puzzle take together, about 38 units (docs/benchmarks.md,
    /// "Splitting CP-SAT's enumeration").
    fn whole_model_slice(&self) -> Duration {
        Duration::from_secs(50)
    }
    /// Its search needs the inprocessing: the-ultimate-puzzle-2006's whole
    /// model took 15 s with it and 35 s without.
    fn enumerates_with_inprocessing(&self) -> bool {
        true
    }
    fn name(&self) -> &'static str {
        "table"
    }
    fn summary(&self) -> &'static str {
        "the original model: AllDifferent + a (tile, rotation, tile, rotation) table per adjacent pair"
    }
    fn size(&self, puzzle: &Puzzle) -> Size {
        let (r, c, cells) = (
            puzzle.rows() as u64,
            puzzle.cols() as u64,
            puzzle.len() as u64,
        );
        // A_H and A_V have the same size: turning both tiles of a fitting
        // horizontal pair a quarter turn gives a fitting vertical pair.
        let pairs = r * c.saturating_sub(1) + c * r.saturating_sub(1);
        let tuples = pairs * pair_count(puzzle, RIGHT, LEFT);
        Size {
            variables: 2 * cells,
            constraints: 1 + pairs,
            table_tuples: tuples,
            values: cells + 4 * tuples,
        }
    }
    fn build(&self, puzzle: &Puzzle, cancel: &Cancel) -> Result<Model, BuildError> {
        let (rows, cols) = (puzzle.rows(), puzzle.cols());
        let mut model = Building::new(puzzle);
        model.all_different_tiles();
        let h = Arc::new(horizontal_table(puzzle));
        cancel.check()?;
        let v = Arc::new(vertical_table(puzzle));
        cancel.check()?;
        for (i, j) in iproduct!(0..rows, 0..cols) {
            let a = model.cell(i, j);
            if j + 1 < cols {
                let b = model.cell(i, j + 1);
                model.constraints.push(Constraint::Table {
                    name: format!("horizontal_{}_{}", i + 1, j + 1),
                    vars: vec![a.0, a.1, b.0, b.1],
                    tuples: Arc::clone(&h),
                    negated: false,
                });
            }
            if i + 1 < rows {
                let b = model.cell(i + 1, j);
                model.constraints.push(Constraint::Table {
                    name: format!("vertical_{}_{}", i + 1, j + 1),
                    vars: vec![a.0, a.1, b.0, b.1],
                    tuples: Arc::clone(&v),
                    negated: false,
                });
            }
        }
        Ok(model.finish())
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
    fn seed_model_has_the_original_shape() {
        let p = seed();
        let m = Table.build(&p, &Cancel::never()).unwrap();
        assert_eq!(m.vars.len(), 18);
        assert_eq!(m.vars[0].name, "tile_1_1");
        assert_eq!(m.vars[1].name, "rotation_1_1");
        assert_eq!(m.vars[0].domain, vec![(1, 9)]);
        // 1 AllDifferent + 6 horizontal + 6 vertical tables.
        assert_eq!(m.constraints.len(), 13);
        assert_eq!(m.size(), Table.size(&p));
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
        assert_eq!(vertical_table(&p).len(), h.len());
    }
}

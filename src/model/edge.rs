//! `edge`: one label variable per internal edge, one table per cell.
//!
//! Besides the tile and rotation variable of every cell and AllDifferent
//! over the tiles, each internal edge gets a variable: `h_i_j` between cells
//! (i, j) and (i, j+1), `v_i_j` between (i, j) and (i+1, j), whose value is
//! the edge (motif and half) as the left or upper cell shows it. One table
//! per cell ties (tile, rotation) to its 2 to 4 edge labels; the right or
//! lower cell shows the partner half, so its column holds the partner's
//! label. Tables have 4 tuples per tile whatever the board, so the model
//! grows with the board, not with the square of the tile count.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use itertools::iproduct;

use super::{BuildError, Building, Constraint, Encoding, Model, Size, VarId, intervals};
use crate::cancel::Cancel;
use crate::puzzle::{BOTTOM, Edge as Shown, Half, LEFT, Puzzle, RIGHT, TOP};

pub(crate) struct Edge;

/// The value of a label variable for an edge.
fn label(e: Shown) -> i64 {
    3 * e.motif as i64
        + match e.half {
            Half::Plus => 0,
            Half::Minus => 1,
            Half::Same => 2,
        }
}

/// The edge the neighbour across `e` must show.
fn partner(e: Shown) -> Shown {
    Shown {
        motif: e.motif,
        half: e.half.partner(),
    }
}

/// Which of a cell's four sides have a neighbour: right, top, left, bottom.
fn sides(rows: usize, cols: usize, i: usize, j: usize) -> [bool; 4] {
    [j + 1 < cols, i > 0, j > 0, i + 1 < rows]
}

/// The table of a cell with neighbours on `sides`: per tile and rotation,
/// `[tile, rotation, labels...]`, a label per side present in the order
/// right, top, left, bottom; the left and top sides hold the partner of what
/// the cell shows (the label is what the other cell shows).
fn cell_table(puzzle: &Puzzle, sides: [bool; 4]) -> Vec<i64> {
    let mut rows = Vec::with_capacity(puzzle.len() * 4 * (2 + sides.len()));
    for (t, r) in iproduct!(puzzle.tiles(), 0..4u8) {
        rows.extend([t.id, r as i64]);
        for d in [RIGHT, TOP, LEFT, BOTTOM] {
            if sides[d] {
                let e = t.edge(r, d);
                rows.push(label(if d == TOP || d == LEFT { partner(e) } else { e }));
            }
        }
    }
    rows
}

impl Encoding for Edge {
    /// Its parts together search far more than the whole model, and no
    /// corpus puzzle whose whole model takes longer than this splits well;
    /// 8 rather than 5 units ends crazy-sheep's full-tree `tiles` model
    /// (5.05 units) whole, and its `symmetry-report` sooner, 32 s against
    /// 38 s (docs/benchmarks.md, "Splitting CP-SAT's enumeration").
    fn whole_model_slice(&self) -> Duration {
        Duration::from_secs(8)
    }
    fn name(&self) -> &'static str {
        "edge"
    }
    fn summary(&self) -> &'static str {
        "a label variable per internal edge; AllDifferent + a (tile, rotation, labels) table per cell"
    }
    fn size(&self, puzzle: &Puzzle) -> Size {
        let (r, c, tiles) = (
            puzzle.rows() as u64,
            puzzle.cols() as u64,
            puzzle.len() as u64,
        );
        let internal = r * c.saturating_sub(1) + c * r.saturating_sub(1);
        let cells = r * c;
        // Each internal edge is a column of two cells' tables.
        let columns = 2 * cells + 2 * internal;
        Size {
            variables: 2 * cells + internal,
            constraints: 1 + cells,
            table_tuples: cells * 4 * tiles,
            values: cells + 4 * tiles * columns,
        }
    }
    fn build(&self, puzzle: &Puzzle, cancel: &Cancel) -> Result<Model, BuildError> {
        let (rows, cols) = (puzzle.rows(), puzzle.cols());
        let mut model = Building::new(puzzle);
        model.all_different_tiles();
        let mut codes: Vec<i64> = puzzle
            .tiles()
            .iter()
            .flat_map(|t| t.edges)
            .flat_map(|e| [label(e), label(partner(e))])
            .collect();
        codes.sort_unstable();
        codes.dedup();
        let domain = intervals(&codes);
        let mut h: Vec<VarId> = Vec::new();
        let mut v: Vec<VarId> = Vec::new();
        for (i, j) in iproduct!(0..rows, 0..cols) {
            if j + 1 < cols {
                h.push(model.add_var(format!("h_{}_{}", i + 1, j + 1), domain.clone()));
            }
        }
        for (i, j) in iproduct!(0..rows, 0..cols) {
            if i + 1 < rows {
                v.push(model.add_var(format!("v_{}_{}", i + 1, j + 1), domain.clone()));
            }
        }
        // h_i_j at i * (cols - 1) + j; v_i_j at i * cols + j.
        let mut tables: BTreeMap<[bool; 4], Arc<Vec<i64>>> = BTreeMap::new();
        for (i, j) in iproduct!(0..rows, 0..cols) {
            cancel.check()?;
            let s = sides(rows, cols, i, j);
            let (t, r) = model.cell(i, j);
            let mut vars = vec![t, r];
            if s[RIGHT] {
                vars.push(h[i * (cols - 1) + j]);
            }
            if s[TOP] {
                vars.push(v[(i - 1) * cols + j]);
            }
            if s[LEFT] {
                vars.push(h[i * (cols - 1) + j - 1]);
            }
            if s[BOTTOM] {
                vars.push(v[i * cols + j]);
            }
            let tuples = Arc::clone(
                tables
                    .entry(s)
                    .or_insert_with(|| Arc::new(cell_table(puzzle, s))),
            );
            model.constraints.push(Constraint::Table {
                name: format!("cell_{}_{}", i + 1, j + 1),
                vars,
                tuples,
                negated: false,
            });
        }
        Ok(model.finish())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn seed_model_has_a_table_per_cell_and_a_label_per_internal_edge() {
        let p = Puzzle::load(Path::new("puzzles/3x3-original")).unwrap();
        let m = Edge.build(&p, &Cancel::never()).unwrap();
        // 9 tile + 9 rotation + 6 horizontal + 6 vertical label variables.
        assert_eq!(m.vars.len(), 30);
        assert_eq!(m.vars[18].name, "h_1_1");
        assert_eq!(m.vars[24].name, "v_1_1");
        // AllDifferent + one table per cell.
        assert_eq!(m.constraints.len(), 10);
        assert_eq!(m.size(), Edge.size(&p));
        // The centre cell's table: 36 rows of tile, rotation and 4 labels.
        let Constraint::Table { vars, tuples, .. } = &m.constraints[5] else {
            panic!("a table");
        };
        assert_eq!(vars.len(), 6);
        assert_eq!(tuples.len(), 36 * 6);
    }

    #[test]
    fn a_label_and_its_partner_fit() {
        let p = Puzzle::load(Path::new("puzzles/3x3-original")).unwrap();
        for (a, b) in iproduct!(p.tiles(), p.tiles()) {
            for (ra, rb) in iproduct!(0..4u8, 0..4u8) {
                let (x, y) = (a.edge(ra, RIGHT), b.edge(rb, LEFT));
                assert_eq!(x.fits(y), label(x) == label(partner(y)));
            }
        }
    }
}

//! `edge-boolean`: the boolean placement literals of `boolean`, channelled
//! to edge-label literals as in `edge`.
//!
//! `x_c_t_r` holds when cell c has tile t at rotation r; `l_e_k` holds when
//! internal edge e shows label k (motif and half, as the left or upper cell
//! shows it). Exactly one placement literal per cell and per tile, exactly
//! one label literal per edge. Each placement implies the label of each of
//! its internal edges (binary clauses), and each label implies, on both
//! sides of its edge, one of the placements that show it (support clauses).
//! Matching is thus stated through the labels: the clauses grow with the
//! tiles, not with the square of the tiles as `boolean`'s do.

use std::collections::BTreeMap;

use std::time::Duration;

use itertools::iproduct;

use super::{BuildError, Building, Constraint, Encoding, Lit, Model, Size};
use crate::cancel::Cancel;
use crate::puzzle::{BOTTOM, Edge as Shown, LEFT, Puzzle, RIGHT, TOP};

pub(crate) struct EdgeBoolean;

/// The internal edges `(a, b, side of a)`: `a` is the left or upper cell.
fn internal_edges(rows: usize, cols: usize) -> Vec<(usize, usize, usize)> {
    let mut out = Vec::new();
    for (i, j) in iproduct!(0..rows, 0..cols) {
        let a = i * cols + j;
        if j + 1 < cols {
            out.push((a, a + 1, RIGHT));
        }
        if i + 1 < rows {
            out.push((a, a + cols, BOTTOM));
        }
    }
    out
}

/// The label an edge shows to its neighbour across side `d`, as the left or
/// upper cell shows it: the edge itself on the right and bottom, its partner
/// on the left and top.
fn as_seen(e: Shown, d: usize) -> Shown {
    if d == LEFT || d == TOP {
        Shown {
            motif: e.motif,
            half: e.half.partner(),
        }
    } else {
        e
    }
}

/// The labels (sorted) and, per side `d` and label, the orientations
/// `o = tile index * 4 + rotation` that show it across `d`.
fn showing(puzzle: &Puzzle) -> (Vec<Shown>, [BTreeMap<Shown, Vec<usize>>; 4]) {
    let mut by_side: [BTreeMap<Shown, Vec<usize>>; 4] = Default::default();
    for (k, t) in puzzle.tiles().iter().enumerate() {
        for r in 0..4u8 {
            for d in [RIGHT, TOP, LEFT, BOTTOM] {
                by_side[d]
                    .entry(as_seen(t.edge(r, d), d))
                    .or_default()
                    .push(4 * k + r as usize);
            }
        }
    }
    let mut labels: Vec<Shown> = by_side.iter().flat_map(|m| m.keys().copied()).collect();
    labels.sort();
    labels.dedup();
    (labels, by_side)
}

impl Encoding for EdgeBoolean {
    fn name(&self) -> &'static str {
        "edge-boolean"
    }
    fn summary(&self) -> &'static str {
        "placement literals channelled to edge-label literals: binary clauses and per-label supports"
    }
    fn size(&self, puzzle: &Puzzle) -> Size {
        let tiles = puzzle.len() as u64;
        let edges = internal_edges(puzzle.rows(), puzzle.cols()).len() as u64;
        let (labels, _) = showing(puzzle);
        let labels = labels.len() as u64;
        let p = super::boolean::placements_size(puzzle);
        Size {
            variables: p.variables + edges * labels,
            constraints: p.constraints + edges + 2 * edges * 4 * tiles + 2 * edges * labels,
            table_tuples: 0,
            values: p.values
                + edges * labels
                + 2 * edges * 4 * tiles * 2
                // each orientation supports one label per side
                + 2 * edges * (labels + 4 * tiles),
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
        let mut model = Building::new(puzzle);
        let x = super::boolean::placements(puzzle, &mut model, cancel)?;
        cancel.check()?;
        let (labels, by_side) = showing(puzzle);
        for (e, &(a, b, side)) in internal_edges(puzzle.rows(), puzzle.cols())
            .iter()
            .enumerate()
        {
            cancel.check()?;
            let l: Vec<Lit> = labels
                .iter()
                .enumerate()
                .map(|(q, _)| model.add_bool(format!("l_{e}_{q}")))
                .collect();
            model.constraints.push(Constraint::ExactlyOne {
                name: format!("one_label_{e}"),
                lits: l.clone(),
            });
            let other = (side + 2) % 4;
            for (cell, d) in [(a, side), (b, other)] {
                // The placement implies its label.
                for (o, &xo) in x[cell].iter().enumerate() {
                    let t = &puzzle.tiles()[o / 4];
                    let shown = as_seen(t.edge((o % 4) as u8, d), d);
                    let q = labels.binary_search(&shown).expect("every shown label");
                    model.constraints.push(Constraint::BoolOr {
                        name: format!("label_{e}_{cell}_{o}"),
                        lits: vec![!xo, l[q]],
                    });
                }
                // The label implies a placement that shows it.
                for (q, label) in labels.iter().enumerate() {
                    let mut lits = vec![!l[q]];
                    if let Some(os) = by_side[d].get(label) {
                        lits.extend(os.iter().map(|&o| x[cell][o]));
                    }
                    model.constraints.push(Constraint::BoolOr {
                        name: format!("support_{e}_{cell}_{q}"),
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
    fn size_is_computed_without_building() {
        let p = Puzzle::load(Path::new("puzzles/3x3-original")).unwrap();
        let m = EdgeBoolean.build(&p, &Cancel::never()).unwrap();
        assert_eq!(m.size(), EdgeBoolean.size(&p));
    }
}

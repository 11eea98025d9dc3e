//! `tiles`: tile-level symmetry breaking.
//!
//! - Identical tiles (same edges up to rotation) take increasing ids in
//!   row-major cell order: for consecutive members a < b of a class, b may
//!   stand in cell c only if a stands in an earlier cell.
//! - A rotation-symmetric tile of period p (its edges repeat after p = 1 or 2
//!   quarter turns) keeps only rotations 0..p-1.
//!
//! Every picture is then shown by exactly one labelled solution. On a puzzle
//! with neither kind of tile there is nothing to break and nothing is added.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::clauses::OnPlacements;
use super::{Clauses, Formulation, Level, identical_classes, kind_key};
use crate::board::{Placement, Solution};
use crate::model::{Constraint, Lit, Model};
use crate::puzzle::Puzzle;

pub(crate) struct Tiles;

impl Formulation for Tiles {
    fn name(&self) -> &'static str {
        "tiles"
    }
    fn level(&self) -> Level {
        Level::Tiles
    }
    fn summary(&self) -> &'static str {
        "identical tiles in increasing id order; symmetric tiles only in distinct rotations"
    }
    fn precondition(&self, _puzzle: &Puzzle) -> Result<(), String> {
        Ok(())
    }
    fn accepts(&self, puzzle: &Puzzle, s: &Solution) -> bool {
        let pos = |id: i64| s.cells().iter().position(|p| p.tile == id);
        let ordered = identical_classes(puzzle)
            .iter()
            .all(|class| class.windows(2).all(|w| pos(w[0]) < pos(w[1])));
        ordered
            && s.cells()
                .iter()
                .enumerate()
                .all(|(c, p)| self.allows(puzzle, c, p.tile, p.rotation))
    }
    fn allows(&self, puzzle: &Puzzle, _cell: usize, tile: i64, rotation: u8) -> bool {
        puzzle
            .tile(tile)
            .is_none_or(|t| super::distinct_rotation(puzzle, t, rotation))
    }
    fn allows_after(&self, puzzle: &Puzzle, prefix: &[Placement], next: Placement) -> bool {
        // A copy only after the copy before it (the largest smaller id of
        // its kind), which then stands in an earlier cell: one of the
        // prefix. Found by one pass over the tiles: this runs per
        // candidate placement.
        let Some(t) = puzzle.tile(next.tile) else {
            return true;
        };
        let key = kind_key(puzzle, t);
        let before = puzzle
            .tiles()
            .iter()
            .filter(|u| u.id < t.id && kind_key(puzzle, u) == key)
            .map(|u| u.id)
            .max();
        self.allows(puzzle, prefix.len(), next.tile, next.rotation)
            && before.is_none_or(|a| prefix.iter().any(|p| p.tile == a))
    }
    fn clauses(&self, puzzle: &Puzzle, out: &mut dyn Clauses) {
        for class in identical_classes(puzzle) {
            for pair in class.windows(2) {
                let (a, b) = (pair[0], pair[1]);
                for c in 0..puzzle.cells() {
                    let Some(x) = out.holds(c, b) else {
                        continue;
                    };
                    let mut lits = vec![-x];
                    lits.extend((0..c).filter_map(|e| out.holds(e, a)));
                    out.clause(&lits);
                }
            }
        }
    }
    fn add(&self, puzzle: &Puzzle, model: &mut Model) {
        if !model.placements.is_empty() {
            return self.add_on_placements(puzzle, model);
        }
        let n = puzzle.cols();
        let cells = model.cells.clone();
        // Rotation-symmetric tiles: forbid the repeated rotations.
        let forbidden: Vec<i64> = puzzle
            .tiles()
            .iter()
            .flat_map(|t| {
                (0..4u8)
                    .filter(move |&r| !super::distinct_rotation(puzzle, t, r))
                    .flat_map(move |r| [t.id, r as i64])
            })
            .collect();
        if !forbidden.is_empty() {
            let forbidden = Arc::new(forbidden);
            for (c, &(t, r)) in cells.iter().enumerate() {
                model.constraints.push(Constraint::Table {
                    name: format!("tiles_rotation_{}_{}", c / n + 1, c % n + 1),
                    vars: vec![t, r],
                    tuples: Arc::clone(&forbidden),
                    negated: true,
                });
            }
        }
        // Identical tiles: x[c, t] <=> tile at c is t; order consecutive members.
        let mut at: BTreeMap<(usize, i64), Lit> = BTreeMap::new();
        for class in identical_classes(puzzle) {
            for &id in &class {
                for (c, &(t, _)) in cells.iter().enumerate() {
                    let name = format!("tiles_{id}_at_{}_{}", c / n + 1, c % n + 1);
                    let x = model.add_bool(name.clone());
                    model.channel_eq(&name, x, t, id);
                    at.insert((c, id), x);
                }
            }
            for pair in class.windows(2) {
                let (a, b) = (pair[0], pair[1]);
                for c in 0..cells.len() {
                    let mut lits = vec![!at[&(c, b)]];
                    lits.extend((0..c).map(|e| at[&(e, a)]));
                    model.constraints.push(Constraint::BoolOr {
                        name: format!("tiles_{a}_before_{b}_{}_{}", c / n + 1, c % n + 1),
                        lits,
                    });
                }
            }
        }
    }
}

impl Tiles {
    /// The rule on a model with placement literals: the repeated rotations'
    /// literals are false and the order of identical tiles is the SAT
    /// engine's clauses. OR-Tools 9.15's presolve proves a solvable
    /// 2x3 board infeasible when the `boolean` model carries the rule on
    /// its tile and rotation variables (a negated table and channelled
    /// tile literals) instead (docs/model.md).
    fn add_on_placements(&self, puzzle: &Puzzle, model: &mut Model) {
        let n = puzzle.cols();
        let mut refused = Vec::new();
        for (c, xs) in model.placements.iter().enumerate() {
            for (k, t) in puzzle.tiles().iter().enumerate() {
                for r in (0..4u8).filter(|&r| !self.allows(puzzle, c, t.id, r)) {
                    refused.push(Constraint::BoolOr {
                        name: format!("tiles_rotation_{}_{}_{}_{r}", c / n + 1, c % n + 1, t.id),
                        lits: vec![!xs[4 * k + r as usize]],
                    });
                }
            }
        }
        model.constraints.extend(refused);
        let mut out = OnPlacements::new(puzzle, model, "tiles_order");
        self.clauses(puzzle, &mut out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cancel::Cancel;
    use crate::model::{Choice, build};
    use std::path::Path;

    /// The models with placement literals get the rule as clauses on them
    /// (a false literal per repeated rotation: 3 + 2 + 3 per cell), with no
    /// table and no channel; the others get the table and the channels.
    #[test]
    fn the_rule_is_written_on_placement_literals_where_a_model_has_them() {
        // Tiles 3 and 5 are identical, tile 4 has period 1, tile 6 period
        // 2, and tile 2 is fixed in one rotation.
        let p = Puzzle::load(Path::new("tests/puzzles/presolve-refuted.yaml")).unwrap();
        for choice in Choice::ALL {
            let mut m = build(choice.encoding(), &p, &Cancel::never()).unwrap();
            let literals = matches!(choice, Choice::Boolean | Choice::EdgeBoolean);
            assert_eq!(m.placements.is_empty(), !literals, "{}", choice.name());
            let before = m.constraints.len();
            Tiles.add(&p, &mut m);
            let added = &m.constraints[before..];
            let name = choice.name();
            let clauses = added
                .iter()
                .filter(|c| matches!(c, Constraint::BoolOr { .. }))
                .count();
            let rotations = added
                .iter()
                .filter(|c| matches!(c, Constraint::BoolOr { name, lits } if name.starts_with("tiles_rotation_") && lits.len() == 1))
                .count();
            if m.placements.is_empty() {
                assert!(
                    added
                        .iter()
                        .any(|c| matches!(c, Constraint::Table { negated: true, .. })),
                    "{name}"
                );
                assert_eq!(rotations, 0, "{name}");
            } else {
                assert_eq!(clauses, added.len(), "{name}: only clauses");
                assert_eq!(rotations, 6 * (3 + 2 + 3), "{name}");
            }
        }
    }
}

//! The programme's plan for one board turn (docs/count.md): the cells'
//! orbit representatives in placement order, each with the tile kinds'
//! orientations it may take, the waiting labels it must fit and the labels
//! it leaves waiting in the frontier's slots. The dynamic programme (dp.rs)
//! and the estimate walk it with the kinds counted in their state; the
//! programme at roots of unity (fourier/) with the kinds as characters.

use std::collections::BTreeSet;

use crate::puzzle::{Edge, Puzzle, base_side};
use crate::symmetry::{period, tile_kinds};

use super::orbits::{conditions, orbits};

/// One distinct orientation of a tile kind, as the cell shows it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Cand {
    pub kind: usize,
    pub shown: [u8; 4],
}

/// One orbit representative's placement step.
#[derive(Debug, Default)]
pub(super) struct Step {
    /// Cells in its orbit: tiles of the kind it takes.
    pub take: u32,
    /// Orientations allowed (fixed by the orbit's stabilizer, meeting
    /// conditions among its own sides).
    pub cands: Vec<Cand>,
    /// (side, slot): the side must fit the label waiting in the slot, which
    /// is then freed.
    pub checks: Vec<(u8, u8)>,
    /// (side, slot): the side's label waits in the slot for a later step.
    pub stores: Vec<(u8, u8)>,
}

/// The plan of one turn's programme.
pub(super) struct Plan {
    pub steps: Vec<Step>,
    /// fits[a * labels + b]: labels a and b may touch.
    pub fits: Vec<bool>,
    pub labels: usize,
    /// The frontier's slots: labels waiting at once, at most.
    pub slots: usize,
    /// Per tile kind: its tiles.
    pub multiplicities: Vec<u32>,
}

impl Plan {
    /// The plan of `turns` counterclockwise board turns (0: every picture),
    /// in row-major order or, with `ring` on a framed board, the frame's
    /// ring first.
    pub(super) fn new(puzzle: &Puzzle, turns: usize, ring: bool) -> Plan {
        let (rows, cols) = (puzzle.rows(), puzzle.cols());
        // Quarter turns only on square boards (the callers follow the group).
        assert!(turns.is_multiple_of(2) || rows == cols);
        // Edge labels and which pairs fit.
        let mut edges: Vec<Edge> = puzzle.tiles().iter().flat_map(|t| t.edges).collect();
        edges.sort();
        edges.dedup();
        let labels = edges.len();
        let label = |e: Edge| edges.binary_search(&e).expect("an edge of the puzzle") as u8;
        let fits: Vec<bool> = edges
            .iter()
            .flat_map(|&a| edges.iter().map(move |&b| a.fits(b)))
            .collect();
        // Tile kinds: multiplicity and distinct orientations.
        let kinds = tile_kinds(puzzle);
        let kind_tiles: Vec<(u32, u8, [u8; 4])> = kinds
            .iter()
            .map(|class| {
                let t = puzzle.tile(class[0]).expect("a tile of the puzzle");
                (class.len() as u32, period(t), t.edges.map(label))
            })
            .collect();
        // A kind's first tile, for the rules' domains (every tile of a kind
        // is allowed where the first is: the rules look at shown edges and
        // rotations, and a fixed piece is a kind of its own).
        let first_of: Vec<usize> = kinds
            .iter()
            .map(|class| puzzle.index_of(class[0]).expect("a tile of the puzzle"))
            .collect();
        let rules = puzzle.has_rules();
        let (rep, times, reps) = orbits(puzzle, turns, ring);
        let conditions = conditions(puzzle, turns, &rep, &times);
        // Steps, with slots for labels that wait.
        let mut steps: Vec<Step> = reps
            .iter()
            .map(|&(_, take)| Step {
                take,
                ..Step::default()
            })
            .collect();
        let mut selfs: Vec<Vec<(usize, usize)>> = vec![Vec::new(); reps.len()];
        let mut waiting: Vec<Vec<(usize, usize, usize)>> = vec![Vec::new(); reps.len()];
        for &((ra, sa), (rb, sb)) in &conditions {
            if ra == rb {
                selfs[ra].push((sa, sb));
            } else {
                waiting[ra].push((sa, rb, sb));
            }
        }
        let mut free: BTreeSet<u8> = BTreeSet::new();
        let mut next_slot = 0u8;
        let mut pending: Vec<Vec<(u8, u8)>> = vec![Vec::new(); reps.len()];
        let mut slots = 0usize;
        for (i, step) in steps.iter_mut().enumerate() {
            step.checks = std::mem::take(&mut pending[i]);
            for &(_, slot) in &step.checks {
                free.insert(slot);
            }
            for &(sa, rb, sb) in &waiting[i] {
                let slot = match free.pop_first() {
                    Some(s) => s,
                    None => {
                        next_slot += 1;
                        next_slot - 1
                    }
                };
                step.stores.push((sa as u8, slot));
                pending[rb].push((sb as u8, slot));
            }
            slots = slots.max(next_slot as usize);
            let (_, take) = reps[i];
            for (kind, &(_, per, base)) in kind_tiles.iter().enumerate() {
                // The orbit returns to its representative after `take`
                // applications of the turn: the tile must look the same
                // after turns * take quarter turns.
                if !(turns * take as usize).is_multiple_of(per as usize) {
                    continue;
                }
                for o in 0..per {
                    // The rules at the representative cell (the frame is
                    // the same on every cell of its orbit, turned).
                    // (A fixed piece may be fixed in a rotation past its
                    // period: any rotation showing orientation o counts.)
                    if rules
                        && !(o..4)
                            .step_by(per as usize)
                            .any(|r| puzzle.allows(reps[i].0, first_of[kind], r))
                    {
                        continue;
                    }
                    let shown: [u8; 4] = std::array::from_fn(|e| base[base_side(e, o)]);
                    if selfs[i]
                        .iter()
                        .all(|&(a, b)| fits[shown[a] as usize * labels + shown[b] as usize])
                    {
                        step.cands.push(Cand { kind, shown });
                    }
                }
            }
        }
        Plan {
            steps,
            fits,
            labels,
            slots,
            multiplicities: kind_tiles.iter().map(|&(m, _, _)| m).collect(),
        }
    }
}

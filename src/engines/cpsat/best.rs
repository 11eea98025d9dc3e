//! CP-SAT for the best board (`scramble best --method cp-sat`): every cell
//! holds one of its allowed placements and every tile lies once (a Boolean
//! per cell and placement), and a Boolean per join that may hold only when
//! the placement on one side shows the partner of the other's edge; CP-SAT
//! maximizes the joins that hold. Each call runs for a slice of time from a
//! hint (the best board so far), so the caller can stream what it finds
//! and share it with other methods.

use std::time::Duration;

use prost::Message;

use crate::board::{Placement, Solution};
use crate::puzzle::{BOTTOM, LEFT, Puzzle, RIGHT, TOP};
use crate::solve::SolveError;

use super::CpSat;
use super::pending::Waited;
use super::proto::{
    BoolArgumentProto, ConstraintProto, CpModelProto, CpObjectiveProto, CpSolverStatus,
    IntegerVariableProto, LinearConstraintProto, ObjectiveAndHint, PartialVariableAssignment,
    SatParameters,
};

/// The model of one puzzle (or of a window of a board, the rest fixed).
pub struct BestModel {
    /// Per cell, its allowed placements (tile index, rotation) and the
    /// index of the first of their variables; empty for a fixed cell.
    cells: Vec<(usize, Vec<(usize, u8)>)>,
    /// The variables of the joins, after the placements'.
    first_join: usize,
    joins: usize,
    bytes: Vec<u8>,
    ids: Vec<i64>,
    shape: crate::puzzle::Shape,
    /// The board around a window (its free cells overwritten on decode).
    context: Option<Vec<Placement>>,
    /// The joins of the model, by their cells.
    join_cells: Vec<(usize, usize)>,
}

/// One call's budget: how long, on how many workers, with which seed.
#[derive(Clone, Copy, Debug)]
pub struct Slice {
    pub time: Duration,
    pub threads: usize,
    pub seed: u64,
}

/// What one slice found.
pub struct Found {
    /// The best board of the slice (`None` if it found none).
    pub board: Option<Solution>,
    /// Whether CP-SAT proved the board optimal.
    pub optimal: bool,
}

fn bool_var() -> IntegerVariableProto {
    IntegerVariableProto {
        name: String::new(),
        domain: vec![0, 1],
    }
}

fn exactly_one(literals: Vec<i32>) -> ConstraintProto {
    ConstraintProto {
        name: String::new(),
        enforcement_literal: vec![],
        constraint: Some(super::proto::Constraint::ExactlyOne(BoolArgumentProto {
            literals,
        })),
    }
}

/// What a side shows: per edge (motif, half), the literals of the
/// placements that show it (a fixed cell: its one edge, no literal).
type Shown = std::collections::BTreeMap<(u16, crate::puzzle::Half), Vec<i32>>;

/// Join `y` => the edge the second cell shows fits the one the first
/// shows: for every edge e, y + [first shows e] - [second shows a partner
/// of e] <= 1 (a fixed side is a constant: its literal list is empty and
/// its term is 1 where it shows e).
fn join_fits(y: i32, a: &Shown, b: &Shown, a_fixed: bool, b_fixed: bool) -> Vec<ConstraintProto> {
    let mut out = Vec::new();
    for (edge, a_lits) in a {
        let b_lits = b.get(edge);
        let mut vars = vec![y];
        let mut coeffs = vec![1i64];
        let mut bound = 1i64;
        if a_fixed {
            // The first cell shows e for sure.
            bound -= 1;
        } else {
            vars.extend(a_lits);
            coeffs.extend(a_lits.iter().map(|_| 1));
        }
        match (b_fixed, b_lits) {
            (true, Some(_)) => bound += 1,
            (true, None) => {}
            (false, Some(lits)) => {
                vars.extend(lits);
                coeffs.extend(lits.iter().map(|_| -1));
            }
            (false, None) => {}
        }
        out.push(ConstraintProto {
            name: String::new(),
            enforcement_literal: vec![],
            constraint: Some(super::proto::Constraint::Linear(LinearConstraintProto {
                vars,
                coeffs,
                domain: vec![i64::MIN + 1, bound],
            })),
        });
    }
    out
}

/// What a cell shows on a side: per edge (as its partner must show it,
/// with `partner`), the literals of its placements that show it; a fixed
/// cell (`fixed`): its one edge, no literal.
fn shown_on(
    puzzle: &Puzzle,
    fixed: Option<crate::board::Placement>,
    (first, list): &(usize, Vec<(usize, u8)>),
    side: usize,
    partner: bool,
) -> Shown {
    let mut by_edge: std::collections::BTreeMap<_, Vec<i32>> = Default::default();
    let key = |e: crate::puzzle::Edge| (e.motif, if partner { e.half.partner() } else { e.half });
    match fixed {
        Some(p) => {
            if let Some(k) = puzzle.index_of(p.tile) {
                by_edge.insert(key(puzzle.tiles()[k].edge(p.rotation, side)), vec![]);
            }
        }
        None => {
            for (x, &(k, r)) in list.iter().enumerate() {
                let e = puzzle.tiles()[k].edge(r, side);
                by_edge.entry(key(e)).or_default().push((first + x) as i32);
            }
        }
    }
    by_edge
}

/// The most placement variables CP-SAT's whole-board model may have
/// (Eternity II's: 262,144). A 32x32 board's made a model that took
/// seconds to build and hand over, past any time limit, for a solve that
/// could not start: refused up front instead.
const MAX_WHOLE_VARIABLES: u64 = 1_000_000;

impl BestModel {
    /// The whole board's model.
    pub fn new(puzzle: &Puzzle) -> BestModel {
        BestModel::build(puzzle, None, &|| false).expect("never stopped")
    }

    /// Whether the whole board's model is small enough to build: at most
    /// [`MAX_WHOLE_VARIABLES`] placements, else an error that says what it
    /// would hold and what to use instead.
    pub fn fits(puzzle: &Puzzle) -> Result<(), SolveError> {
        let cells = (puzzle.rows() * puzzle.cols()) as u64;
        let variables = cells * puzzle.len() as u64 * puzzle.rotations().count() as u64;
        if variables <= MAX_WHOLE_VARIABLES {
            return Ok(());
        }
        Err(SolveError::TooLarge(format!(
            "{}: CP-SAT's whole-board model would hold {variables} placement variables, \
             more than the limit of {MAX_WHOLE_VARIABLES}; use --method backtrack, or hybrid \
             (CP-SAT on windows of the board)",
            puzzle.source().display()
        )))
    }

    /// The whole board's model, unless `stop` says so while it is built (a
    /// 32x32's takes seconds: the run's limits hold here too).
    pub fn new_until(puzzle: &Puzzle, stop: &dyn Fn() -> bool) -> Option<BestModel> {
        BestModel::build(puzzle, None, stop)
    }

    /// The model of the cells `fixed` leaves free, the others keeping
    /// `board`'s placements: the tiles of the free cells move among them,
    /// and the joins that touch a free cell count (a region repair).
    pub fn window(puzzle: &Puzzle, board: &Solution, fixed: &[bool]) -> BestModel {
        BestModel::build(puzzle, Some((board, fixed)), &|| false).expect("never stopped")
    }

    fn build(
        puzzle: &Puzzle,
        window: Option<(&Solution, &[bool])>,
        stop: &dyn Fn() -> bool,
    ) -> Option<BestModel> {
        let n = puzzle.rows() * puzzle.cols();
        let free =
            |c: usize| window.is_none_or(|(_, fixed)| !fixed.get(c).copied().unwrap_or(false));
        // The tiles that move: all, or those on the free cells.
        let mut moves = vec![window.is_none(); puzzle.len()];
        if let Some((board, _)) = window {
            for (c, p) in board.cells().iter().enumerate() {
                if free(c)
                    && let Some(k) = puzzle.index_of(p.tile)
                {
                    moves[k] = true;
                }
            }
        }
        let mut variables = Vec::new();
        let mut constraints = Vec::new();
        let mut cells = Vec::with_capacity(n);
        let mut by_tile: Vec<Vec<i32>> = vec![Vec::new(); puzzle.len()];
        for c in 0..n {
            if stop() {
                return None;
            }
            let first = variables.len();
            let mut list = Vec::new();
            if free(c) {
                for (k, lits) in by_tile.iter_mut().enumerate() {
                    if !moves[k] {
                        continue;
                    }
                    for r in puzzle.rotations() {
                        if puzzle.allows_alone(c, k, r) {
                            lits.push(variables.len() as i32);
                            variables.push(bool_var());
                            list.push((k, r));
                        }
                    }
                }
                constraints.push(exactly_one(
                    (first..variables.len()).map(|v| v as i32).collect(),
                ));
            }
            cells.push((first, list));
        }
        for (k, lits) in by_tile.into_iter().enumerate() {
            if moves[k] {
                constraints.push(exactly_one(lits));
            }
        }
        let first_join = variables.len();
        let cols = puzzle.cols();
        let mut joins = 0;
        let mut join_cells = Vec::new();
        // What a cell shows on a side: per edge, the literals of its
        // placements that show it (a fixed cell: its one edge, no literal).
        let shown = |c: usize, side: usize, partner: bool| {
            let fixed = match window {
                Some((board, _)) if !free(c) => Some(board.cells()[c]),
                _ => None,
            };
            shown_on(puzzle, fixed, &cells[c], side, partner)
        };
        for c in 0..n {
            if stop() {
                return None;
            }
            let (i, j) = (c / cols, c % cols);
            let mut pairs = Vec::new();
            if j + 1 < cols {
                pairs.push((c + 1, RIGHT, LEFT));
            }
            if i + 1 < puzzle.rows() {
                pairs.push((c + cols, BOTTOM, TOP));
            }
            for (d, side_a, side_b) in pairs {
                if !free(c) && !free(d) {
                    continue;
                }
                let y = variables.len() as i32;
                variables.push(bool_var());
                joins += 1;
                join_cells.push((c, d));
                // y => the edge d shows fits the one c shows.
                let a = shown(c, side_a, false);
                let b = shown(d, side_b, true);
                constraints.extend(join_fits(y, &a, &b, !free(c), !free(d)));
            }
        }
        let model = CpModelProto {
            name: puzzle.name().to_string(),
            variables,
            constraints,
        };
        if stop() {
            return None;
        }
        Some(BestModel {
            cells,
            first_join,
            joins,
            bytes: model.encode_to_vec(),
            ids: puzzle.tiles().iter().map(|t| t.id).collect(),
            shape: puzzle.shape(),
            context: window.map(|(board, _)| board.cells().to_vec()),
            join_cells,
        })
    }

    /// The objective (fewest broken joins) and `hint` as a solution hint.
    fn extras(&self, puzzle: &Puzzle, hint: Option<&Solution>) -> Vec<u8> {
        let objective = CpObjectiveProto {
            vars: (self.first_join..self.first_join + self.joins)
                .map(|v| v as i32)
                .collect(),
            coeffs: vec![-1; self.joins],
            offset: self.joins as f64,
        };
        // A window must beat the hint on its joins: CP-SAT then either
        // finds a better board or proves the window cannot give one (a
        // hint alone did not keep it from returning worse boards).
        let beat = match (&self.context, hint) {
            (Some(_), Some(board)) => {
                let cols = puzzle.cols();
                let broken: std::collections::BTreeSet<(usize, usize)> = board
                    .score(puzzle)
                    .map(|s| s.broken)
                    .unwrap_or_default()
                    .into_iter()
                    .map(|j| match j {
                        crate::board::Join::Right { i, j } => {
                            let c = (i - 1) * cols + j - 1;
                            (c, c + 1)
                        }
                        crate::board::Join::Down { i, j } => {
                            let c = (i - 1) * cols + j - 1;
                            (c, c + cols)
                        }
                    })
                    .collect();
                let valid = self
                    .join_cells
                    .iter()
                    .filter(|j| !broken.contains(j))
                    .count();
                Some(ConstraintProto {
                    name: String::new(),
                    enforcement_literal: vec![],
                    constraint: Some(super::proto::Constraint::Linear(LinearConstraintProto {
                        vars: (self.first_join..self.first_join + self.joins)
                            .map(|v| v as i32)
                            .collect(),
                        coeffs: vec![1; self.joins],
                        // (Past the joins there are, when the hint has them
                        // all: infeasible at once.)
                        domain: vec![valid as i64 + 1, (valid as i64 + 1).max(self.joins as i64)],
                    })),
                })
            }
            _ => None,
        };
        let solution_hint = hint.map(|board| {
            let mut hint = PartialVariableAssignment::default();
            for (c, p) in board.cells().iter().enumerate() {
                let Some((first, list)) = self.cells.get(c) else {
                    break;
                };
                for (x, &(k, r)) in list.iter().enumerate() {
                    hint.vars.push((first + x) as i32);
                    let here = puzzle.tiles()[k].id == p.tile && r == p.rotation;
                    hint.values.push(i64::from(here));
                }
            }
            hint
        });
        let mut bytes = ObjectiveAndHint {
            objective: Some(objective),
            solution_hint,
        }
        .encode_to_vec();
        if let Some(c) = beat {
            CpModelProto {
                constraints: vec![c],
                ..CpModelProto::default()
            }
            .encode(&mut bytes)
            .expect("a Vec grows");
        }
        bytes
    }

    /// The board a solution's values describe.
    fn decode(&self, values: &[i64]) -> Option<Solution> {
        let mut cells = Vec::with_capacity(self.cells.len());
        for (c, (first, list)) in self.cells.iter().enumerate() {
            if list.is_empty()
                && let Some(context) = &self.context
            {
                cells.push(context[c]);
                continue;
            }
            let x = (0..list.len()).find(|&x| values.get(first + x) == Some(&1))?;
            let (k, r) = list[x];
            cells.push(Placement {
                tile: self.ids[k],
                rotation: r,
            });
        }
        Some(Solution::shaped(cells, self.shape))
    }
}

impl CpSat {
    /// Solve `model` within `slice`, from `hint`; `stop` is asked every
    /// few milliseconds.
    pub fn improve(
        &self,
        puzzle: &Puzzle,
        model: &BestModel,
        hint: Option<&Solution>,
        slice: Slice,
        stop: &dyn Fn() -> bool,
    ) -> Result<Found, SolveError> {
        let Slice {
            time: slice,
            threads,
            seed,
        } = slice;
        let mut bytes = model.bytes.clone();
        bytes.extend(model.extras(puzzle, hint));

        let params = SatParameters {
            num_workers: Some(threads.max(1) as i32),
            max_time_in_seconds: Some(slice.as_secs_f64()),
            random_seed: Some((seed % i32::MAX as u64) as i32),
            log_search_progress: Some(false),
            catch_sigint_signal: Some(false),
            ..Default::default()
        };
        let pending = self.rt.spawn_solve(bytes, params);
        let response = match pending.wait(stop, || false) {
            Waited::Returned(Ok(r)) => r,
            Waited::Returned(Err(e)) => return Err(SolveError::Runtime(Box::new(e))),
            Waited::GaveUp => {
                return Ok(Found {
                    board: None,
                    optimal: false,
                });
            }
        };
        let status = CpSolverStatus::try_from(response.status).unwrap_or(CpSolverStatus::Unknown);
        if status == CpSolverStatus::ModelInvalid {
            return Err(SolveError::Runtime(
                format!(
                    "CP-SAT rejected the best-board model: {}",
                    response.solution_info
                )
                .into(),
            ));
        }
        Ok(Found {
            board: model.decode(&response.solution),
            optimal: status == CpSolverStatus::Optimal,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::cpsat::runtime::runtime_for_tests;

    fn seed() -> (Puzzle, Solution) {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let p = Puzzle::load(&root.join("puzzles/3x3-original")).unwrap();
        let s = crate::board::parse_seed_text(
            "[t=1,r=1] [t=9,r=3] [t=7,r=2]\n[t=4,r=2] [t=5,r=3] [t=3,r=2]\n[t=8,r=0] [t=6,r=3] [t=2,r=2]\n",
        )
        .unwrap();
        (p, s)
    }

    #[test]
    fn the_whole_model_and_every_window_find_the_full_score() {
        let Some(_) = runtime_for_tests() else {
            return;
        };
        let (p, s) = seed();
        let cp = CpSat::new().unwrap();
        let slice = Slice {
            time: Duration::from_secs(20),
            threads: 1,
            seed: 1,
        };
        let whole = BestModel::new(&p);
        let f = cp.improve(&p, &whole, None, slice, &|| false).unwrap();
        assert!(f.optimal);
        assert_eq!(f.board.unwrap().score(&p).unwrap().valid, 12);
        // Windows of a broken start (the top-left two tiles swapped) that
        // hold both cells repair it; from the solution itself nothing can
        // be better (no board).
        let mut cells = s.cells().to_vec();
        cells.swap(0, 1);
        let broken = Solution::shaped(cells, p.shape());
        assert!(broken.score(&p).unwrap().valid < 12);
        for free in [vec![0, 1], vec![0, 1, 3, 4], (0..9).collect()] {
            let fixed: Vec<bool> = (0..9).map(|c| !free.contains(&c)).collect();
            let w = BestModel::window(&p, &broken, &fixed);
            let f = cp.improve(&p, &w, Some(&broken), slice, &|| false).unwrap();
            let board = f.board.expect("a better board");
            assert_eq!(board.score(&p).unwrap().valid, 12, "{free:?}");
            for (c, &kept) in fixed.iter().enumerate() {
                if kept {
                    assert_eq!(board.cells()[c], broken.cells()[c]);
                }
            }
            let w = BestModel::window(&p, &s, &fixed);
            let f = cp.improve(&p, &w, Some(&s), slice, &|| false).unwrap();
            assert!(f.board.is_none(), "{free:?}");
        }
    }
}

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
use super::proto::{
    BoolArgumentProto, ConstraintProto, CpModelProto, CpObjectiveProto, CpSolverStatus,
    IntegerVariableProto, LinearConstraintProto, ObjectiveAndHint, PartialVariableAssignment,
    SatParameters,
};
use super::runtime::Waited;

/// The model of one puzzle, built once and solved many times.
pub struct BestModel {
    /// Per cell, its allowed placements (tile index, rotation) and the
    /// index of the first of their variables.
    cells: Vec<(usize, Vec<(usize, u8)>)>,
    /// The variables of the joins, after the placements'.
    first_join: usize,
    joins: usize,
    bytes: Vec<u8>,
    ids: Vec<i64>,
    shape: crate::puzzle::Shape,
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

impl BestModel {
    pub fn new(puzzle: &Puzzle) -> BestModel {
        let n = puzzle.rows * puzzle.cols;
        let mut variables = Vec::new();
        let mut constraints = Vec::new();
        let mut cells = Vec::with_capacity(n);
        let mut by_tile: Vec<Vec<i32>> = vec![Vec::new(); puzzle.len()];
        for c in 0..n {
            let first = variables.len();
            let mut list = Vec::new();
            for (k, lits) in by_tile.iter_mut().enumerate() {
                for r in puzzle.rotations() {
                    if puzzle.allows(c, k, r) {
                        lits.push(variables.len() as i32);
                        variables.push(bool_var());
                        list.push((k, r));
                    }
                }
            }
            constraints.push(exactly_one(
                (first..variables.len()).map(|v| v as i32).collect(),
            ));
            cells.push((first, list));
        }
        for lits in by_tile {
            constraints.push(exactly_one(lits));
        }
        let first_join = variables.len();
        let cols = puzzle.cols;
        let mut joins = 0;
        for c in 0..n {
            let (i, j) = (c / cols, c % cols);
            let mut pairs = Vec::new();
            if j + 1 < cols {
                pairs.push((c + 1, RIGHT, LEFT));
            }
            if i + 1 < puzzle.rows {
                pairs.push((c + cols, BOTTOM, TOP));
            }
            for (d, side_a, side_b) in pairs {
                let y = variables.len() as i32;
                variables.push(bool_var());
                joins += 1;
                // y => the placement on d shows the partner of a's edge:
                // for every edge e a may show, y + [a shows e] - [d shows
                // a partner of e] <= 1.
                let (fa, la) = &cells[c];
                let (fd, ld) = &cells[d];
                let mut shown: std::collections::BTreeMap<_, (Vec<i32>, Vec<i32>)> =
                    Default::default();
                for (x, &(k, r)) in la.iter().enumerate() {
                    let e = puzzle.tiles[k].edge(r, side_a);
                    shown
                        .entry((e.motif, e.half))
                        .or_default()
                        .0
                        .push((fa + x) as i32);
                }
                for (x, &(k, r)) in ld.iter().enumerate() {
                    let e = puzzle.tiles[k].edge(r, side_b);
                    // The edge of a that this one fits.
                    shown
                        .entry((e.motif, e.half.partner()))
                        .or_default()
                        .1
                        .push((fd + x) as i32);
                }
                for (a_shows, d_fits) in shown.into_values() {
                    if a_shows.is_empty() {
                        continue;
                    }
                    let mut vars = vec![y];
                    let mut coeffs = vec![1i64];
                    vars.extend(&a_shows);
                    coeffs.extend(a_shows.iter().map(|_| 1));
                    vars.extend(&d_fits);
                    coeffs.extend(d_fits.iter().map(|_| -1));
                    constraints.push(ConstraintProto {
                        name: String::new(),
                        enforcement_literal: vec![],
                        constraint: Some(super::proto::Constraint::Linear(LinearConstraintProto {
                            vars,
                            coeffs,
                            domain: vec![i64::MIN + 1, 1],
                        })),
                    });
                }
            }
        }
        let model = CpModelProto {
            name: puzzle.name.clone(),
            variables,
            constraints,
        };
        BestModel {
            cells,
            first_join,
            joins,
            bytes: model.encode_to_vec(),
            ids: puzzle.tiles.iter().map(|t| t.id).collect(),
            shape: puzzle.shape(),
        }
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
        let solution_hint = hint.map(|board| {
            let mut hint = PartialVariableAssignment::default();
            for (c, p) in board.cells().iter().enumerate() {
                let Some((first, list)) = self.cells.get(c) else {
                    break;
                };
                for (x, &(k, r)) in list.iter().enumerate() {
                    hint.vars.push((first + x) as i32);
                    let here = puzzle.tiles[k].id == p.tile && r == p.rotation;
                    hint.values.push(i64::from(here));
                }
            }
            hint
        });
        ObjectiveAndHint {
            objective: Some(objective),
            solution_hint,
        }
        .encode_to_vec()
    }

    /// The board a solution's values describe.
    fn decode(&self, values: &[i64]) -> Option<Solution> {
        let mut cells = Vec::with_capacity(self.cells.len());
        for (first, list) in &self.cells {
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

//! The CP-SAT backend: the solver-neutral [`Model`] as a `CpModelProto`,
//! solved through OR-Tools' C API, every solution enumerated by independent
//! subproblems (see [`enumerate`]).
//!
//! Nothing outside this module sees protobuf or FFI.

mod enumerate;
pub use enumerate::Limits;
pub mod proto;
pub mod runtime;
mod text;

use std::path::Path;

use crate::model::{Constraint, Lit, Model};
use crate::puzzle::Puzzle;
use crate::solve::{SolutionCallback, SolveError, SolveOptions, Solver, SolverRun};

pub use runtime::{PINNED_VERSION, RuntimeError};

use proto::{
    AllDifferentConstraintProto, BoolArgumentProto, ConstraintProto, CpModelProto,
    IntegerVariableProto, LinearConstraintProto, LinearExpressionProto, TableConstraintProto,
};

/// The CP-SAT solver backend.
pub struct CpSat {
    rt: &'static runtime::Runtime,
    /// When subproblems are split (pool size, time slice).
    pub limits: enumerate::Limits,
}

impl CpSat {
    /// Find and load the runtime (see [`runtime`] for the discovery order).
    pub fn new() -> Result<CpSat, RuntimeError> {
        Ok(CpSat {
            rt: runtime::runtime()?,
            limits: enumerate::Limits {
                pool: enumerate::DEFAULT_POOL,
                unsplit_pool: enumerate::UNSPLIT_POOL,
                slice: enumerate::DEFAULT_SLICE,
            },
        })
    }

    /// The library that was loaded.
    pub fn library_path(&self) -> &Path {
        &self.rt.path
    }
}

impl Solver for CpSat {
    fn name(&self) -> &'static str {
        "cp-sat"
    }
    fn version(&self) -> String {
        self.rt.version.clone()
    }
    fn model_name(&self) -> String {
        "table".into()
    }
    fn enumerate(
        &self,
        puzzle: &Puzzle,
        options: &SolveOptions,
        callback: &mut dyn SolutionCallback,
    ) -> Result<SolverRun, SolveError> {
        let mut model = Model::table(puzzle);
        options.symmetry.add(puzzle, &mut model);
        enumerate::enumerate(self.rt, self.limits, puzzle, &model, options, callback)
    }
}

fn expr(var: usize) -> LinearExpressionProto {
    LinearExpressionProto {
        vars: vec![var as i32],
        coeffs: vec![1],
        offset: 0,
    }
}

/// CP-SAT's literal encoding: a variable's index, or `-index - 1` for its negation.
fn lits(l: &[Lit]) -> Vec<i32> {
    l.iter()
        .map(|&l| match l {
            Lit::Pos(v) => v as i32,
            Lit::Neg(v) => -(v as i32) - 1,
        })
        .collect()
}

/// The model as a `CpModelProto`.
pub fn to_proto(model: &Model, name: &str) -> CpModelProto {
    let variables = model
        .vars
        .iter()
        .map(|v| IntegerVariableProto {
            name: v.name.clone(),
            domain: v.domain.iter().flat_map(|&(lo, hi)| [lo, hi]).collect(),
        })
        .collect();
    let constraints = model
        .constraints
        .iter()
        .map(|c| match c {
            Constraint::AllDifferent { name, vars } => ConstraintProto {
                name: name.clone(),
                enforcement_literal: vec![],
                constraint: Some(proto::Constraint::AllDiff(AllDifferentConstraintProto {
                    exprs: vars.iter().map(|&v| expr(v)).collect(),
                })),
            },
            Constraint::Table {
                name,
                vars,
                tuples,
                negated,
            } => ConstraintProto {
                name: name.clone(),
                enforcement_literal: vec![],
                constraint: Some(proto::Constraint::Table(TableConstraintProto {
                    values: tuples.to_vec(),
                    negated: *negated,
                    exprs: vars.iter().map(|&v| expr(v)).collect(),
                })),
            },
            Constraint::Linear {
                name,
                terms,
                domain,
                enforce,
            } => ConstraintProto {
                name: name.clone(),
                enforcement_literal: lits(enforce),
                constraint: Some(proto::Constraint::Linear(LinearConstraintProto {
                    vars: terms.iter().map(|&(v, _)| v as i32).collect(),
                    coeffs: terms.iter().map(|&(_, c)| c).collect(),
                    domain: domain.iter().flat_map(|&(lo, hi)| [lo, hi]).collect(),
                })),
            },
            Constraint::BoolOr { name, lits: l } => ConstraintProto {
                name: name.clone(),
                enforcement_literal: vec![],
                constraint: Some(proto::Constraint::BoolOr(BoolArgumentProto {
                    literals: lits(l),
                })),
            },
            Constraint::BoolAnd {
                name,
                lits: l,
                enforce,
            } => ConstraintProto {
                name: name.clone(),
                enforcement_literal: lits(enforce),
                constraint: Some(proto::Constraint::BoolAnd(BoolArgumentProto {
                    literals: lits(l),
                })),
            },
        })
        .collect();
    CpModelProto {
        name: name.to_string(),
        variables,
        constraints,
    }
}

/// The puzzle's CP model (with the symmetry-breaking constraints) in
/// protobuf text format, as OR-Tools prints it.
pub fn model_text(puzzle: &Puzzle, symmetry: &crate::symmetry::Symmetry) -> String {
    let mut model = Model::table(puzzle);
    symmetry.add(puzzle, &mut model);
    text::cp_model(&to_proto(&model, &puzzle.name))
}

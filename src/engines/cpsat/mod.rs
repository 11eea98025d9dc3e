//! The CP-SAT backend: the solver-neutral [`Model`] as a `CpModelProto`,
//! solved through OR-Tools' C API, every solution enumerated by independent
//! subproblems (see [`enumerate`]).
//!
//! Nothing outside this module sees protobuf or FFI.

#![warn(clippy::undocumented_unsafe_blocks)]

mod best;
mod books;
mod ceiling;
mod constraints;
mod descriptor;
mod enumerate;
mod first;
mod jobs;
pub mod kind;
mod pending;
mod policy;
pub use run::Limits;
pub(crate) mod proto;
mod run;
mod runtime;
mod slices;
mod subproblem;
mod text;

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use prost::Message;

use crate::cancel::Cancel;
use crate::model::{self, BuildError, Choice, Constraint, Lit, Model};
use crate::puzzle::Puzzle;
use crate::solve::{
    Searched, SolutionCallback, SolveError, SolveOptions, Solver, SolverRun, Split, Turns,
    search_picture_classes,
};
use crate::symmetry::{Symmetry, picture_representative, turn_representative};

pub use best::{BestModel, Found, Slice};
pub use constraints::{ConstraintsError, UserConstraints, label as constraints_label};
pub use run::Expansion;

pub use runtime::{PINNED_VERSION, RuntimeError};

use proto::{
    AllDifferentConstraintProto, BoolArgumentProto, ConstraintProto, CpModelProto,
    IntegerVariableProto, LinearConstraintProto, LinearExpressionProto, TableConstraintProto,
};

/// The CP-SAT solver backend.
#[derive(Clone)]
pub struct CpSat {
    rt: &'static runtime::Runtime,
    /// The CP formulation.
    pub encoding: Choice,
    /// Which board turns of each solution the model keeps: with `Reduce`
    /// and no symmetry breaking asked for, one turn or one picture.
    pub turns: Turns,
    /// How the enumeration is cut into subproblems (`--split`).
    pub split: Split,
    /// When subproblems are split (pool size, time slice).
    pub limits: run::Limits,
    /// The user's constraints, appended to every model (`--constraints`);
    /// they turn the turn reduction off, as `Turns::Full` does.
    pub constraints: Option<Arc<UserConstraints>>,
}

impl CpSat {
    /// Find and load the runtime (see [`runtime`] for the discovery order),
    /// with the default encoding.
    pub fn new() -> Result<CpSat, RuntimeError> {
        Ok(CpSat {
            rt: runtime::runtime()?,
            encoding: Choice::default(),
            turns: Turns::Reduce,
            split: Split::Auto,
            limits: run::Limits::default(),
            constraints: None,
        })
    }

    /// The same backend, appending `constraints` to every model.
    pub fn with_constraints(self, constraints: Option<Arc<UserConstraints>>) -> CpSat {
        CpSat {
            constraints,
            ..self
        }
    }

    /// Read a constraint file (`--constraints`) with this runtime's schema.
    pub fn read_constraints(&self, path: &Path) -> Result<UserConstraints, ConstraintsError> {
        UserConstraints::load(self.rt, path)
    }

    /// Parse constraints given as text (`origin` names them in errors).
    pub fn parse_constraints(
        &self,
        origin: &str,
        text: &str,
    ) -> Result<UserConstraints, ConstraintsError> {
        UserConstraints::parse(self.rt, origin, text)
    }

    /// Whether this backend's constraints fit the model it would build for
    /// `puzzle` with `symmetry` (every variable they name exists): the
    /// check a front end makes before solving, so a wrong name is an input
    /// error with its line.
    pub fn check_constraints(
        &self,
        puzzle: &Puzzle,
        symmetry: &Symmetry,
    ) -> Result<(), SolveError> {
        let Some(c) = &self.constraints else {
            return Ok(());
        };
        let (model, _, _) = model_for(
            puzzle,
            self.encoding,
            symmetry,
            Expansion::None,
            &Cancel::never(),
        )?;
        c.append_to(&model.vars, model.constraints.len())
            .map(drop)
            .map_err(|e| SolveError::Constraints(e.to_string()))
    }

    /// The most a solve may reduce its model: nothing with `Turns::Full`
    /// or the user's constraints (which may break a turn's symmetry), else
    /// one picture per class where the caller takes pictures
    /// (`pictures`), else one board turn.
    fn reduction(&self, pictures: bool) -> Expansion {
        most_reduced(self.turns, self.constraints.is_some(), pictures)
    }
    /// The same backend with another encoding.
    pub fn with_model(self, encoding: Choice) -> CpSat {
        CpSat { encoding, ..self }
    }

    /// The same backend, keeping the board turns `turns` says.
    pub fn with_turns(self, turns: Turns) -> CpSat {
        CpSat { turns, ..self }
    }

    /// The same backend cutting its enumeration as `split` says.
    pub fn with_split(self, split: Split) -> CpSat {
        CpSat { split, ..self }
    }

    /// The same backend with another memory ceiling (`--memory-limit`):
    /// what a run may add to its process, in bytes; `None` keeps its own.
    pub fn with_memory_limit(mut self, bytes: Option<u64>) -> CpSat {
        if let Some(bytes) = bytes {
            self.limits.memory_ceiling = bytes;
        }
        self
    }
}

/// The most a model may be reduced (see [`model_for`]): nothing when every
/// turn is searched or the user's constraints are added, else one picture
/// per class where the caller takes pictures, else one turn per class.
fn most_reduced(turns: Turns, constrained: bool, pictures: bool) -> Expansion {
    match (turns, constrained, pictures) {
        (Turns::Full, _, _) | (_, true, _) => Expansion::None,
        (Turns::Reduce, false, true) => Expansion::Pictures,
        (Turns::Reduce, false, false) => Expansion::Turns,
    }
}

/// The model CP-SAT solves for a puzzle: the encoding, the user's symmetry
/// breaking, and, with no symmetry breaking asked for, a reduction up to
/// `most` (docs/model.md): one labelled board per picture (`tiles`), and
/// one turn of each picture where a tile without a twin anchors it, when
/// that keeps fewer boards and the caller can take pictures
/// ([`takes_pictures`]), else one board turn per class (`center` or
/// `anchor`). Returns the model and how each solution it finds stands
/// for others.
pub(crate) fn model_for(
    puzzle: &Puzzle,
    encoding: Choice,
    symmetry: &Symmetry,
    most: Expansion,
    cancel: &Cancel,
) -> Result<(Model, Expansion, Symmetry), BuildError> {
    let mut m = model::build(encoding.encoding(), puzzle, cancel)?;
    let (searched, expansion) = if !symmetry.is_none() || most == Expansion::None {
        (symmetry.clone(), Expansion::None)
    } else if most == Expansion::Pictures {
        (picture_representative(puzzle), Expansion::Pictures)
    } else if let Some(rep) = turn_representative(puzzle) {
        (rep, Expansion::Turns)
    } else {
        (Symmetry::none(), Expansion::None)
    };
    searched.add(puzzle, &mut m);
    Ok((m, expansion, searched))
}

/// Whether a solve with these options searches picture classes
/// ([`search_picture_classes`]): not when it is cut into work units (whose counts
/// must add up over labelled boards).
fn takes_pictures(puzzle: &Puzzle, options: &SolveOptions) -> bool {
    options.units.is_none() && search_picture_classes(puzzle)
}

impl CpSat {
    /// A run stopped before its first solve, saying which memory
    /// allowance was in force (the build may be what passed it).
    fn stopped_while_building(&self, e: &BuildError) -> SolverRun {
        let mut run = SolverRun::stopped_while_building(e);
        let mb = self.limits.memory_ceiling / 1_000_000;
        run.stats
            .update(|s: &mut kind::Stats| s.memory_limit_mb = Some(mb));
        run
    }
}

impl Solver for CpSat {
    fn engine(&self) -> crate::solve::Engine {
        crate::solve::Engine::named(<kind::Kind as crate::solve::kind::EngineKind>::NAME)
    }
    fn version(&self) -> String {
        self.rt.version.clone()
    }
    fn searched(&self) -> Searched {
        self.name_searched()
    }
    fn has_user_constraints(&self) -> bool {
        self.constraints.is_some()
    }
    fn check(&self, puzzle: &Puzzle, symmetry: &Symmetry) -> Result<(), SolveError> {
        self.check_constraints(puzzle, symmetry)
    }
    fn model_size(&self, puzzle: &Puzzle, symmetry: &Symmetry) -> Option<model::Size> {
        let built = model_for(
            puzzle,
            self.encoding,
            symmetry,
            self.reduction(search_picture_classes(puzzle)),
            &Cancel::never(),
        );
        let (m, _, _) = built.ok()?;
        let mut size = m.size();
        if let Some(c) = &self.constraints {
            let user = c.append_to(&m.vars, m.constraints.len()).ok()?;
            size.variables += user.new_variables as u64;
            size.constraints += user.constraints as u64;
        }
        Some(size)
    }
    fn enumerate(
        &self,
        puzzle: &Puzzle,
        options: &SolveOptions,
        cancel: &Cancel,
        callback: &mut dyn SolutionCallback,
    ) -> Result<SolverRun, SolveError> {
        let start = Instant::now();
        // A solve an earlier run gave up on may still hold its memory: wait
        // for it (it was asked to stop), within this run's limits, before
        // this run's memory is counted from what the process holds.
        if !crate::cancel::settle(|| cancel.is_stopped()) {
            let e = cancel
                .check()
                .err()
                .map_or(BuildError::TimeLimit, BuildError::from);
            return Ok(self.stopped_while_building(&e));
        }
        let run_ceiling = crate::cancel::run_ceiling(self.limits.memory_ceiling);
        let built = model_for(
            puzzle,
            self.encoding,
            &options.symmetry,
            self.reduction(takes_pictures(puzzle, options)),
            &cancel.with_ceiling(run_ceiling),
        );
        let (model, expansion, searched) = match built {
            Ok(m) => m,
            Err(e @ BuildError::TooLarge { .. }) => return Err(e.into()),
            Err(e) => return Ok(self.stopped_while_building(&e)),
        };
        let user = match &self.constraints {
            Some(c) => Some(
                c.append_to(&model.vars, model.constraints.len())
                    .map_err(|e| SolveError::Constraints(e.to_string()))?,
            ),
            None => None,
        };
        let mut limits = self.limits;
        if limits.whole_slice == run::WHOLE_SLICE {
            limits.whole_slice = self.encoding.encoding().whole_model_slice();
        }
        // Range parts pay off side by side: one thread tries the whole
        // model first.
        let one_thread = options.threads <= 1 && limits.eager_cells == run::EAGER_CELLS;
        limits.lengthen_whole = self.encoding.encoding().start_in_ranges();
        limits.inprocessing = self.encoding.encoding().enumerates_with_inprocessing();
        if !self.encoding.encoding().start_in_ranges() || one_thread {
            limits.eager_cells = usize::MAX;
        }
        // One range part per thread: more parts than solves at a time pay
        // a presolve each and divide the search no better.
        if limits.range_parts == run::RANGE_PARTS {
            limits.range_parts = options.threads.clamp(2, run::RANGE_PARTS);
        }
        // From here on the ceiling is a resident size: what the process
        // held when this run started plus what the run may add.
        limits.memory_ceiling = run_ceiling;
        let run = run::Run {
            memory_start: run_ceiling.saturating_sub(self.limits.memory_ceiling),
            rt: self.rt,
            limits,
            puzzle,
            model: &model,
            options,
            split: self.split,
            cancel: cancel.clone(),
            expansion,
            searched: &searched,
            user: user.as_ref(),
        };
        let build_time = start.elapsed().as_secs_f64();
        let mut result = if options.limit.is_some() {
            first::first(&run, callback)?
        } else {
            enumerate::enumerate(&run, callback)?
        };
        let mb = self.limits.memory_ceiling / 1_000_000;
        result.stats.update(|s: &mut kind::Stats| {
            s.build_time_s = Some(build_time);
            s.memory_limit_mb = Some(mb);
        });
        model::drop_later(model);
        Ok(result)
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

/// A variable as its proto.
fn variable_proto(v: &model::IntVar) -> IntegerVariableProto {
    IntegerVariableProto {
        name: v.name.clone(),
        domain: v.domain.iter().flat_map(|&(lo, hi)| [lo, hi]).collect(),
    }
}

/// A constraint as its proto.
fn constraint_proto(c: &Constraint) -> ConstraintProto {
    match c {
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
        Constraint::ExactlyOne { name, lits: l } => ConstraintProto {
            name: name.clone(),
            enforcement_literal: vec![],
            constraint: Some(proto::Constraint::ExactlyOne(BoolArgumentProto {
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
    }
}

/// The model as a `CpModelProto`.
pub(crate) fn to_proto(model: &Model, name: &str) -> CpModelProto {
    CpModelProto {
        name: name.to_string(),
        variables: model.vars.iter().map(variable_proto).collect(),
        constraints: model.constraints.iter().map(constraint_proto).collect(),
    }
}

/// Constraints converted and encoded this many at a time, the stop
/// checked between chunks.
const ENCODE_CHUNK: usize = 1 << 14;

/// `constraints` as the bytes of a `CpModelProto` holding only them: a
/// protobuf message's repeated fields concatenate, so these bytes follow
/// the bytes of the variables to make the whole model. Encoded a chunk at a
/// time with `cancel` checked between chunks (a 16x16 `edge-boolean` model
/// takes long enough to pass a time limit otherwise), and
/// never a whole `CpModelProto` in memory.
pub(crate) fn encode_constraints(
    constraints: &[Constraint],
    cancel: &Cancel,
) -> Result<Vec<u8>, BuildError> {
    let mut out = Vec::new();
    for chunk in constraints.chunks(ENCODE_CHUNK) {
        cancel.check()?;
        let part = CpModelProto {
            constraints: chunk.iter().map(constraint_proto).collect(),
            ..CpModelProto::default()
        };
        part.encode(&mut out).expect("a Vec grows as needed");
    }
    Ok(out)
}

/// `variables` (with the model's name) as the bytes of a `CpModelProto`
/// holding only them.
pub(crate) fn encode_variables(name: &str, variables: &[model::IntVar]) -> Vec<u8> {
    CpModelProto {
        name: name.to_string(),
        variables: variables.iter().map(variable_proto).collect(),
        constraints: vec![],
    }
    .encode_to_vec()
}

/// The CP model a solve would give CP-SAT (encoding, symmetry breaking,
/// turn reduction) in protobuf text format, as OR-Tools prints it.
pub fn model_text(
    puzzle: &Puzzle,
    encoding: Choice,
    symmetry: &Symmetry,
    turns: Turns,
) -> Result<String, BuildError> {
    let (model, _, _) = model_for(
        puzzle,
        encoding,
        symmetry,
        most_reduced(turns, false, search_picture_classes(puzzle)),
        &Cancel::never(),
    )?;
    Ok(text::cp_model(&to_proto(&model, puzzle.name())))
}

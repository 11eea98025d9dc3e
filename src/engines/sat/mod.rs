//! The SAT engine: the puzzle as clauses (cnf.rs, one of four encodings of
//! the literature, docs/sat.md) solved by CaDiCaL, in process (the
//! `rustsat-cadical` crate bundles its source). Every model is a solution; the
//! enumeration blocks each model's placements and solves again, so every
//! labelled solution (or, with identical tiles, every picture) is found
//! once. Symmetry formulations are clauses too (their per-cell rule takes
//! placements out); every model is checked against their direct statement.

mod cnf;
pub mod kind;
mod search;

use std::time::Instant;

use crate::board::Solution;
use crate::cancel::Cancel;
use crate::cancel::StopToken;
use crate::model::BuildError;
use crate::puzzle::Puzzle;
use crate::solve::pool::{self, Flow, Given, Shape};
use crate::solve::{
    Engine, RunStatus, Searched, SolutionCallback, SolveError, SolveOptions, Solver, SolverRun,
    SolverStats, Stands, StopReason, search_picture_classes,
};
use crate::symmetry::{Symmetry, canonical, picture_turn_representative, turn_representative};

use search::{Effort, Event, Worker};

/// The most variables a CNF handed to CaDiCaL may have. CaDiCaL doubles
/// its per-variable tables as the clauses name new variables, one step no
/// stop interrupts; each of the run's workers does so at once. On this
/// 2-core machine the step from 4 to 8 million variables (a generated
/// 28x28) took up to 1.4 s past a time limit, that to 16 million (32x32)
/// 1.2 s, while a 24x24's 4,062,192 variables stopped within 0.25 s
/// (docs/reliability.md). A CNF past this is refused as its clauses pass
/// it, before CaDiCaL sees any, as CP-SAT refuses models past its own
/// size limit.
const MAX_SOLVER_VARIABLES: i32 = 1 << 22;

/// How the joins are matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Matching {
    /// A placement implies one of the fitting placements of each neighbour.
    Support,
    /// A placement implies the colour (edge label) of each of its joins;
    /// a join has at most one colour.
    Colour,
}

/// How "at most one" is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Amo {
    /// A binary clause per pair.
    Pairwise,
    /// Sinz's sequential counter: three clauses and one variable per
    /// literal (pairwise below five literals).
    Sequential,
}

/// The SAT encodings (`--encoding`), docs/sat.md.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Encoding {
    /// Placement variables, support clauses, pairwise at-most-one.
    Support,
    /// Placement variables, support clauses, sequential at-most-one.
    SupportSequential,
    /// Placement and colour variables, pairwise at-most-one.
    Colour,
    /// Placement and colour variables, sequential at-most-one.
    #[default]
    ColourSequential,
}

impl Encoding {
    pub const ALL: [Encoding; 4] = [
        Encoding::Support,
        Encoding::SupportSequential,
        Encoding::Colour,
        Encoding::ColourSequential,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Encoding::Support => "support",
            Encoding::SupportSequential => "support-sequential",
            Encoding::Colour => "colour",
            Encoding::ColourSequential => "colour-sequential",
        }
    }

    pub(crate) fn matching(self) -> Matching {
        match self {
            Encoding::Support | Encoding::SupportSequential => Matching::Support,
            Encoding::Colour | Encoding::ColourSequential => Matching::Colour,
        }
    }

    pub(crate) fn amo(self) -> Amo {
        match self {
            Encoding::Support | Encoding::Colour => Amo::Pairwise,
            Encoding::SupportSequential | Encoding::ColourSequential => Amo::Sequential,
        }
    }
}

impl std::fmt::Display for Encoding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Encoding {
    type Err = String;
    fn from_str(s: &str) -> Result<Encoding, String> {
        Encoding::ALL
            .into_iter()
            .find(|e| e.name() == s)
            .ok_or_else(|| {
                let names: Vec<_> = Encoding::ALL.iter().map(|e| e.name()).collect();
                format!(
                    "unknown SAT encoding {s:?}; expected one of {}",
                    names.join(", ")
                )
            })
    }
}

/// The SAT engine and its encoding.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sat {
    pub encoding: Encoding,
}

impl Sat {
    pub fn new(encoding: Encoding) -> Sat {
        Sat { encoding }
    }
}

/// The bundled CaDiCaL and its version, e.g. `CaDiCaL 2.2.1`.
fn cadical_version() -> String {
    use rustsat::solvers::Solve;
    let signature = rustsat_cadical::CaDiCaL::default().signature();
    format!(
        "CaDiCaL {}",
        signature.strip_prefix("cadical-").unwrap_or(signature)
    )
}

/// Whether the search places identical tiles as kinds (one model per
/// picture): as the backtracker does, without symmetry breaking or units.
fn kinds(puzzle: &Puzzle, symmetry: &Symmetry, units: bool) -> bool {
    symmetry.is_none() && !units && search_picture_classes(puzzle)
}

/// What the clauses search and what each model stands for: with
/// identical tiles placed as kinds, one board per picture (a picture
/// class); with the user's symmetry breaking, its boards (each itself);
/// with neither, one turn of each class (CP-SAT's own reduction, `center`
/// or `anchor`), each model standing for its turns, so that raw counts are
/// every labelled member of the classes found, as with the other engines.
/// Work units (shards, checkpoints) keep the full tree: their deliveries
/// pick the canonical turn ([`deliver`]).
fn reduction(puzzle: &Puzzle, symmetry: &Symmetry, kinds: bool, units: bool) -> (Symmetry, Stands) {
    if kinds {
        // One turn of each picture where a tile without a twin anchors it.
        return (picture_turn_representative(puzzle), Stands::PictureClass);
    }
    if !symmetry.is_none() || units {
        return (symmetry.clone(), Stands::Board);
    }
    match turn_representative(puzzle) {
        Some(rep) => (rep, Stands::Turns),
        None => (Symmetry::none(), Stands::Board),
    }
}

/// The puzzle's CNF in DIMACS, with a header naming the variables
/// (`scramble model --format dimacs`): the clauses `--solver sat` solves
/// with this encoding and symmetry (identical tiles placed as kinds where
/// it would, or one turn of each class where no symmetry is asked for).
pub fn dimacs(
    puzzle: &Puzzle,
    encoding: Encoding,
    symmetry: &Symmetry,
) -> Result<String, SolveError> {
    let kinds = kinds(puzzle, symmetry, false);
    let (searched, stands) = reduction(puzzle, symmetry, kinds, false);
    let cnf = cnf::build(
        puzzle,
        encoding,
        &searched,
        kinds,
        None,
        &crate::cancel::Cancel::never(),
    )
    .map_err(|e| match e {
        SolveError::TooLarge(why) => too_large(puzzle, encoding, &why),
        e => e,
    })?;
    Ok(cnf::dimacs(puzzle, &cnf, encoding, &searched, stands))
}

impl Sat {
    /// The run's cancel with its memory ceiling (`options.memory_limit`,
    /// the run's), and the allowance in MB. The clauses, CaDiCaL's copy of
    /// them and what it learns all grow the process: every phase stops at
    /// the ceiling.
    fn watched(cancel: &Cancel, options: &SolveOptions) -> (Cancel, Option<u64>) {
        let allowance = options
            .memory_limit
            .unwrap_or_else(crate::cancel::default_allowance);
        let ceiling = crate::cancel::run_ceiling(allowance);
        (cancel.with_ceiling(ceiling), Some(allowance / 1_000_000))
    }

    /// The clauses of `puzzle` searching `searched`, or the run a stop
    /// while building them ends as.
    fn clauses(
        &self,
        puzzle: &Puzzle,
        searched: &Symmetry,
        kinds: bool,
        cancel: &Cancel,
    ) -> Result<Result<cnf::Cnf, SolverRun>, SolveError> {
        match cnf::build(
            puzzle,
            self.encoding,
            searched,
            kinds,
            Some(MAX_SOLVER_VARIABLES),
            cancel,
        ) {
            Err(SolveError::Model(
                e @ (BuildError::Interrupted
                | BuildError::TimeLimit
                | BuildError::MemoryLimit { .. }),
            )) => Ok(Err(SolverRun::stopped_while_building(&e))),
            Err(SolveError::TooLarge(why)) => Err(too_large(puzzle, self.encoding, &why)),
            built => built.map(Ok),
        }
    }
}

impl Solver for Sat {
    fn engine(&self) -> Engine {
        Engine::named(<kind::Kind as crate::solve::kind::EngineKind>::NAME)
    }
    fn version(&self) -> String {
        cadical_version()
    }
    fn searched(&self) -> Searched {
        Searched::new(self.encoding.name())
    }
    fn exact_reports(&self) -> bool {
        true
    }
    fn enumerate(
        &self,
        puzzle: &Puzzle,
        options: &SolveOptions,
        cancel: &Cancel,
        callback: &mut dyn SolutionCallback,
    ) -> Result<SolverRun, SolveError> {
        let start = Instant::now();
        let (watched, memory_limit_mb) = Sat::watched(cancel, options);
        let cancel = &watched;
        let kinds = kinds(puzzle, &options.symmetry, options.units.is_some());
        let (searched, stands) =
            reduction(puzzle, &options.symmetry, kinds, options.units.is_some());
        let cnf = match self.clauses(puzzle, &searched, kinds, cancel)? {
            Ok(cnf) => cnf,
            Err(mut stopped) => {
                stopped
                    .stats
                    .update(|s: &mut kind::Stats| s.memory_limit_mb = memory_limit_mb);
                return Ok(stopped);
            }
        };
        let threads = options.threads.max(1);
        let (units, run) = units(&cnf, options);
        let halt = StopToken::new();
        let mut stopped = None;
        let mut broken = None;
        let shape = Shape {
            workers: threads.min(units.len()).max(1),
            bound: None,
            tick: None,
        };
        let effort: Vec<Effort> = pool::run(
            shape,
            // Only the units this run searches.
            Given::All((0..units.len()).filter(|&k| run[k])),
            |_, jobs, events| {
                let worker = Worker {
                    puzzle,
                    cnf: &cnf,
                    units: &units,
                    jobs,
                    cancel: cancel.clone(),
                    halt: halt.clone(),
                    first_only: options.limit == Some(1),
                };
                worker.go(events)
            },
            |event, _| {
                let pool::Event::Message(event) = event else {
                    return Flow::Listen;
                };
                match event {
                    Event::Model { unit, cells } => {
                        let board = Solution::shaped(cells, puzzle.shape());
                        let to = Delivery {
                            searched: &searched,
                            units: options.units.is_some(),
                            stands,
                        };
                        if let Err(e) = deliver(puzzle, &to, callback, unit, board) {
                            broken.get_or_insert(e);
                        }
                        if broken.is_some() || callback.enough() {
                            halt.stop();
                        }
                    }
                    Event::UnitDone(unit) => {
                        if options.units.is_some() {
                            callback.on_unit_done(unit);
                        }
                    }
                    Event::Stopped(why) => {
                        stopped.get_or_insert(why);
                        halt.stop();
                    }
                    Event::Failed(e) => {
                        broken.get_or_insert(e);
                        halt.stop();
                    }
                }
                Flow::Listen
            },
        );
        if let Some(e) = broken {
            return Err(e);
        }
        let status = if callback.enough() {
            RunStatus::Stopped(StopReason::Limit)
        } else {
            // A worker that stops says why; the first to stop stops the
            // rest, so its reason is the run's.
            stopped.map_or(RunStatus::Complete, |why| RunStatus::Stopped(why.into()))
        };
        let units_run = run.iter().filter(|&&r| r).count();
        Ok(SolverRun {
            answered: None,
            status,
            stats: SolverStats::of(&kind::Stats {
                wall_time_s: Some(start.elapsed().as_secs_f64()),
                workers: Some(threads),
                conflicts: Some(effort.iter().map(|e| e.conflicts).sum()),
                decisions: Some(effort.iter().map(|e| e.decisions).sum()),
                propagations: Some(effort.iter().map(|e| e.propagations).sum()),
                sat_solves: Some(effort.iter().map(|e| e.solves).sum()),
                variables: Some(cnf.vars as u64),
                clauses: Some(cnf.clauses as u64),
                memory_limit_mb,
                units: crate::solve::kind::UnitStats {
                    units: options.units.as_ref().map(|_| units.len() as u64),
                    units_run: options.units.as_ref().map(|_| units_run as u64),
                    unit_depth: options.units.as_ref().map(|_| 1),
                },
            }),
        })
    }
}

/// Where a model goes: the symmetry its clauses hold, whether the run is
/// cut into work units, and what a model stands for.
struct Delivery<'a> {
    searched: &'a Symmetry,
    units: bool,
    stands: Stands,
}

/// A CNF past the size limit: the file, what passed, and what to try (a
/// lighter encoding, unless this is already the lightest).
fn too_large(puzzle: &Puzzle, encoding: Encoding, why: &str) -> SolveError {
    let advice = match encoding {
        Encoding::ColourSequential => {
            "even in the lightest encoding (colour-sequential): solve it with --solver backtrack"
                .to_string()
        }
        other => format!(
            "in the {other} encoding: try --encoding colour-sequential (the lightest), or \
             --solver backtrack"
        ),
    };
    SolveError::TooLarge(format!("{}: {why} {advice}", puzzle.source().display()))
}

/// Hand one model to the callback, after checking it against the
/// symmetry formulation.
fn deliver(
    puzzle: &Puzzle,
    to: &Delivery,
    callback: &mut dyn SolutionCallback,
    unit: usize,
    board: Solution,
) -> Result<(), SolveError> {
    if let Some(name) = to.searched.rejected_by(puzzle, &board) {
        return Err(SolveError::Unbroken {
            formulation: name.to_string(),
            solution: board,
        });
    }
    if to.units {
        // A class's boards lie in different units (their first cells
        // differ): each unit reports only the canonical ones, standing for
        // their turns, so a class is counted in one unit, as shards and
        // checkpoints count them.
        if canonical(&board) == board {
            callback.on_solution_in(unit, board.cells(), Stands::Turns);
        }
    } else {
        callback.on_solution(board.cells(), to.stands);
    }
    Ok(())
}

/// The work units (the first cell's placements, assumed one at a time: a
/// fixed list, whatever the thread count; one unit, the whole problem, on
/// one thread without shards or checkpoints) and which of them to run.
fn units(cnf: &cnf::Cnf, options: &SolveOptions) -> (Vec<Vec<i32>>, Vec<bool>) {
    let split = options.threads > 1 || options.units.is_some();
    let units: Vec<Vec<i32>> = if split {
        cnf.cells[0].iter().map(|ch| vec![ch.var]).collect()
    } else {
        vec![Vec::new()]
    };
    let run = match &options.units {
        Some(u) => u.to_run(units.len(), |_| 1),
        None => vec![true; units.len()],
    };
    (units, run)
}

#[cfg(test)]
mod tests;

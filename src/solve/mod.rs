//! One solver interface, one solution callback, explicit outcomes.
//!
//! Every engine (CP-SAT, the backtracker, the SAT engine, the graph
//! engine) implements [`Solver`] and hands every assignment it enumerates
//! to a [`SolutionCallback`]. The
//! [`Collector`] is the callback the CLI uses: it verifies each assignment
//! independently of the solver, canonicalizes it and de-duplicates.

mod collector;
mod compact;
pub mod kind;
pub(crate) mod pool;
mod searched;
mod shard;
mod stats;
mod time;

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::board::{Placement, Solution, VerifyError};
pub use crate::cancel::{Cancel, StopToken, Stopped};
use crate::puzzle::Puzzle;
use crate::symmetry::{
    Equivalence, Symmetry, SymmetryError, labellings_per_picture, picture_turns_reduced,
};

pub use collector::{Collector, Counts, UnitCounts};
pub(crate) use collector::{Hooks, Setup};
pub use kind::{Answer, Engine};
pub use searched::Searched;
pub use shard::{MAX_SHARDS, Meta, Shard, Units};
pub use stats::{Ended, Entrant, SolverStats};
pub use time::TimeShare;

/// Which board turns of each solution a search visits. Without symmetry
/// rules, an engine may search one turn of each solution and report it as
/// standing for its four (`Reduce`); `Full` searches every turn (the full
/// tree, for node counts and formulation studies: `--full-tree`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Turns {
    #[default]
    Reduce,
    Full,
}

impl Turns {
    /// `Full` when `full_tree` (the command line's `--full-tree`).
    pub fn full_if(full_tree: bool) -> Turns {
        [Turns::Reduce, Turns::Full][full_tree as usize]
    }
}

/// What one reported board stands for. A solver uses one kind per run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stands {
    /// Itself: one labelled solution.
    Board,
    /// Its four board turns: one class under board turns.
    Turns,
    /// Every labelled solution whose picture is a turn of its picture: one
    /// picture class (the collector counts or expands it; a picture class
    /// may be reported more than once).
    PictureClass,
}

/// What the collector keeps of a run besides the exact counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Keep {
    /// Every labelled solution, class and picture class (sorted lists).
    #[default]
    All,
    /// The classes under the equivalence (a sorted list).
    Canonical,
    /// Nothing: each new class under the equivalence goes to the stream.
    Stream,
    /// Nothing: counts only.
    Count,
}

/// Whether a solver should search one board per picture and report
/// picture classes, on a puzzle with this many labellings per picture
/// (`None`: past `u128`): when each picture stands for more than the four
/// boards the turn reduction saves. The collector multiplies a picture class
/// out, or expands it lazily into its labelled boards where the caller wants
/// them (stopping with the search's limits), so the first labelled solution
/// comes as soon as the first picture. The one rule both solvers follow.
pub(crate) fn search_pictures(labellings: Option<u128>) -> bool {
    labellings.is_none_or(|l| l > 4)
}

/// [`search_pictures`] for the solvers whose picture model also keeps one
/// turn of each picture where a tile without a twin anchors it (CP-SAT's
/// and the SAT engine's; [`picture_turns_reduced`]): pictures wherever
/// that keeps fewer boards than one turn of each class.
pub(crate) fn search_picture_classes(puzzle: &Puzzle) -> bool {
    let labellings = labellings_per_picture(puzzle);
    search_pictures(labellings)
        || (labellings.is_some_and(|l| l > 1) && picture_turns_reduced(puzzle))
}

/// Receives every assignment a solver enumerates (row-major placements).
pub trait SolutionCallback {
    /// One board and what it stands for. Over one run, the labelled
    /// solutions covered by `Board` and `Turns` reports are distinct when
    /// the solver's [`Solver::exact_reports`] says so.
    fn on_solution(&mut self, cells: &[Placement], stands: Stands);
    /// One board found in work unit `unit` (see [`SolveOptions::units`]).
    fn on_solution_in(&mut self, _unit: usize, cells: &[Placement], stands: Stands) {
        self.on_solution(cells, stands);
    }
    /// Work unit `unit` is finished: every board it holds was reported.
    fn on_unit_done(&mut self, _unit: usize) {}
    /// Called between units of work (e.g. finished subproblems).
    fn on_progress(&mut self, _progress: &Progress) {}
    /// Whether the caller has all it asked for (`--limit`): the solver then
    /// stops as soon as it can, with [`StopReason::Limit`].
    fn enough(&self) -> bool {
        false
    }
}

/// How far an enumeration has got.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    pub subproblems_done: u64,
    pub subproblems_pending: u64,
    pub solutions: u64,
}

/// How an enumeration is cut into independent subproblems.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    /// Start with the first cell fixed; split deeper where a subproblem's
    /// solution pool fills or it runs long.
    Auto,
    /// One solve of the whole model; a full solution pool makes the result
    /// incomplete.
    None,
    /// Start with the first K cells fixed (row-major), then as `Auto`.
    Depth(usize),
}

impl std::str::FromStr for Split {
    type Err = String;
    fn from_str(s: &str) -> Result<Split, String> {
        match s {
            "auto" => Ok(Split::Auto),
            "none" => Ok(Split::None),
            k => k
                .parse()
                .map(Split::Depth)
                .map_err(|_| format!("expected auto, none or a number of cells, found {k:?}")),
        }
    }
}

/// What a caller asks of a solve.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    pub time_limit: Option<Duration>,
    /// What `time_limit` counts from (the command's start, so loading the
    /// puzzle and the runtime count too); `None`: the solve's own start.
    pub started: Option<Instant>,
    pub threads: usize,
    pub stop: StopToken,
    /// Symmetry-breaking constraints added to the model.
    pub symmetry: Symmetry,
    /// Run a `symmetry` that is not proven to keep a member of every class
    /// under `equivalence` (the result says so); without it such a run is
    /// refused ([`Symmetry::proven`]).
    pub allow_unproven: bool,
    /// What counts as one class in `canonical`.
    pub equivalence: Equivalence,
    /// Stop once this many classes (under `equivalence`) are found.
    pub limit: Option<usize>,
    /// What the collector keeps besides the counts.
    pub keep: Keep,
    /// Cut the search into a fixed list of work units that does not depend
    /// on the thread count, run only those [`Units`] asks for (not finished
    /// in an earlier run, owned by this shard), and report each board's
    /// unit and each finished unit (for checkpoints and shards). The
    /// solver then reports labelled boards or their turns, never pictures.
    pub units: Option<Arc<Units>>,
    /// What the run may add to its process, in bytes (`--memory-limit`);
    /// None: half the memory available at its start
    /// ([`crate::cancel::default_allowance`]). The engines that grow
    /// (CP-SAT, the SAT engine) take theirs from [`kind::Build`]; this
    /// one bounds what the run keeps of its solutions, with any engine.
    pub memory_limit: Option<u64>,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            time_limit: None,
            started: None,
            threads: 1,
            stop: StopToken::new(),
            symmetry: Symmetry::none(),
            allow_unproven: false,
            equivalence: Equivalence::Rotation,
            limit: None,
            keep: Keep::All,
            units: None,
            memory_limit: None,
        }
    }
}

impl SolveOptions {
    /// When a solve that started at `start` must end.
    pub(crate) fn deadline(&self, start: Instant) -> Option<Instant> {
        self.time_limit.map(|t| self.started.unwrap_or(start) + t)
    }

    /// Whether `puzzle` can be solved with these options' symmetry: its
    /// rules fit the puzzle's shape and, unless `allow_unproven`, they are
    /// proven to keep a member of every class under `equivalence`. The one
    /// check of a run: [`run`] makes it, and a command makes it before its
    /// first output.
    pub fn check(&self, puzzle: &Puzzle) -> Result<(), SolveError> {
        self.symmetry.check(puzzle)?;
        if !self.allow_unproven {
            self.symmetry.proven(self.equivalence)?;
        }
        Ok(())
    }

    /// What stops a solve that started at `start`: the caller's token and
    /// the deadline.
    pub(crate) fn cancel(&self, start: Instant) -> Cancel {
        Cancel::new(self.stop.clone(), self.deadline(start))
    }
}

/// Why a search ended before it was complete.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    TimeLimit,
    Interrupted,
    /// `--split none` and the solution pool filled up.
    PoolFull,
    /// `--limit`: as many classes as asked for were found.
    Limit,
    /// `merge`: some shards are missing or stopped early.
    Shards,
    /// Building a model or clauses, loading them, a solve that could not
    /// be cut smaller (CP-SAT, the SAT engine) or the solutions kept (any
    /// engine) would pass the run's memory ceiling (src/cancel.rs,
    /// src/engines/cpsat/ceiling.rs).
    MemoryLimit,
}

impl From<Stopped> for StopReason {
    fn from(why: Stopped) -> StopReason {
        match why {
            Stopped::TimeLimit => StopReason::TimeLimit,
            Stopped::Interrupted => StopReason::Interrupted,
            Stopped::MemoryLimit => StopReason::MemoryLimit,
        }
    }
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            StopReason::TimeLimit => "time limit reached",
            StopReason::Interrupted => "interrupted",
            StopReason::PoolFull => "solution pool full (use --split auto)",
            StopReason::Limit => "limit of solutions reached",
            StopReason::Shards => "shards missing or incomplete",
            StopReason::MemoryLimit => {
                "memory ceiling reached: the solver's model or clauses, a solve that cannot \
                 be cut smaller, or the solutions kept would pass it (raise it with \
                 --memory-limit MB)"
            }
        })
    }
}

/// How a backend's enumeration ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunStatus {
    /// Every solution was enumerated.
    Complete,
    /// Stopped early: the solutions reported are a subset.
    Stopped(StopReason),
    /// The solver rejected the model.
    Invalid(String),
}

/// What a backend returns after enumerating.
#[derive(Clone, Debug)]
pub struct SolverRun {
    /// The engine that answered, where the solver is made of several;
    /// `None`: the solver itself.
    pub answered: Option<Answer>,
    pub status: RunStatus,
    pub stats: SolverStats,
}

impl SolverRun {
    /// A run its solver answered itself.
    pub fn new(status: RunStatus, stats: SolverStats) -> SolverRun {
        SolverRun {
            answered: None,
            status,
            stats,
        }
    }

    /// A run stopped (time limit or Ctrl-C) while its model or clauses
    /// were built, before its search.
    pub(crate) fn stopped_while_building(e: &crate::model::BuildError) -> SolverRun {
        use crate::model::BuildError;
        let reason = match e {
            BuildError::TimeLimit => StopReason::TimeLimit,
            BuildError::MemoryLimit { .. } => StopReason::MemoryLimit,
            _ => StopReason::Interrupted,
        };
        let memory_needed_mb = match e {
            BuildError::MemoryLimit { need_mb } => *need_mb,
            _ => None,
        };
        /// What the build would have needed, the one counter of a run
        /// that never searched.
        #[derive(Serialize)]
        struct Needed {
            #[serde(skip_serializing_if = "Option::is_none")]
            memory_needed_mb: Option<u64>,
        }
        SolverRun {
            answered: None,
            status: RunStatus::Stopped(reason),
            stats: SolverStats::of(&Needed { memory_needed_mb }),
        }
    }
}

/// Errors a backend can raise (beyond an explicit outcome).
#[derive(Debug, Error)]
pub enum SolveError {
    #[error(transparent)]
    Runtime(Box<dyn std::error::Error + Send + Sync>),
    #[error(transparent)]
    Symmetry(#[from] SymmetryError),
    #[error(transparent)]
    Model(#[from] crate::model::BuildError),
    /// An option this solver does not support (an input error).
    #[error("{0}")]
    Unsupported(String),
    /// The puzzle is beyond what the solver handles (an input error).
    #[error("{0}")]
    TooLarge(String),
    /// User constraints that do not fit the model (an input error).
    #[error("{0}")]
    Constraints(String),
    #[error(
        "the solver returned a board that symmetry formulation {formulation} rules out:\n{}",
        .solution.to_seed_text()
    )]
    Unbroken {
        formulation: String,
        solution: Solution,
    },
    #[error("the solver returned an assignment that is not a solution ({reason}):\n{}", .solution.to_seed_text())]
    Unverified {
        solution: Solution,
        reason: VerifyError,
    },
}

/// A solver backend.
pub trait Solver {
    /// Which engine it is.
    fn engine(&self) -> Engine;
    /// Its engine's name, e.g. `cp-sat`.
    fn name(&self) -> &'static str {
        self.engine().name()
    }
    /// The backend's version, e.g. the OR-Tools version; scramble's own for
    /// the native solvers.
    fn version(&self) -> String {
        env!("CARGO_PKG_VERSION").into()
    }
    /// What it searches: its encoding or placement order and their
    /// variants.
    fn searched(&self) -> Searched;
    /// Whether its model carries constraints of the user's, which may
    /// remove solutions as a symmetry breaking does.
    fn has_user_constraints(&self) -> bool {
        false
    }
    /// Whether it never reports a labelled solution twice in one run (the
    /// collector then need not remember boards to count them).
    fn exact_reports(&self) -> bool {
        false
    }
    /// What it would refuse of this puzzle and symmetry before it runs
    /// (CP-SAT: the user's constraints naming a variable its model lacks):
    /// the check a command makes before its first run, so the error comes
    /// before any output.
    fn check(&self, _puzzle: &Puzzle, _symmetry: &Symmetry) -> Result<(), SolveError> {
        Ok(())
    }
    /// The size of the model it would solve, if it solves a model.
    fn model_size(&self, _puzzle: &Puzzle, _symmetry: &Symmetry) -> Option<crate::model::Size> {
        None
    }
    /// Enumerate every solution of the puzzle into `callback`, stopping
    /// when `cancel` says so: the run's one stop (the caller's token and
    /// the run's deadline), built once by [`run`] and shared with its
    /// collector.
    fn enumerate(
        &self,
        puzzle: &Puzzle,
        options: &SolveOptions,
        cancel: &Cancel,
        callback: &mut dyn SolutionCallback,
    ) -> Result<SolverRun, SolveError>;
}

/// The explicit result of a solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every solution found, at least one.
    Complete,
    /// Complete, and there is no solution.
    Infeasible,
    /// Stopped by a limit or an interrupt: the solutions are what was found.
    Incomplete(StopReason),
    /// The solver rejected the model.
    Invalid(String),
}

impl Outcome {
    pub fn is_complete(&self) -> bool {
        matches!(self, Outcome::Complete | Outcome::Infeasible)
    }
}

/// Everything `scramble solve` reports.
#[derive(Clone, Debug)]
pub struct SolveResult {
    pub solver: Engine,
    pub solver_version: String,
    /// What the engine searched (its encoding or order).
    pub model: Searched,
    /// The symmetry breaking used, e.g. `lex,tiles`.
    pub symmetry: Symmetry,
    /// Whether `symmetry` is proven to keep a member of every class under
    /// `equivalence` (if not, a complete run's counts may be too low).
    pub symmetry_proven: bool,
    /// The equivalence `canonical()` follows.
    pub equivalence: Equivalence,
    pub outcome: Outcome,
    /// Exact counts of what was found.
    pub counts: Counts,
    /// What was kept of it ([`SolveOptions::keep`]).
    pub keep: Keep,
    /// Distinct labelled solutions, sorted ([`Keep::All`] only).
    pub raw: Vec<Solution>,
    /// Canonical forms of the classes under board turns, sorted (when kept).
    pub classes: Vec<Solution>,
    /// Canonical forms of the picture classes, sorted (when kept).
    pub pictures: Vec<Solution>,
    pub wall_time: Duration,
    /// How long after the start the first solution came (none found: None).
    pub time_to_first: Option<Duration>,
    pub stats: SolverStats,
}

impl SolveResult {
    /// The canonical representatives under the chosen equivalence.
    pub fn canonical(&self) -> &[Solution] {
        self.canonical_under(self.equivalence)
    }

    /// The canonical representatives under either equivalence.
    pub fn canonical_under(&self, e: Equivalence) -> &[Solution] {
        match e {
            Equivalence::Rotation => &self.classes,
            Equivalence::Picture => &self.pictures,
        }
    }
}

/// Run a solver on a puzzle through the [`Collector`].
pub fn run(
    solver: &dyn Solver,
    puzzle: &Puzzle,
    options: &SolveOptions,
) -> Result<SolveResult, SolveError> {
    run_with(solver, puzzle, options, Hooks::default())
}

/// [`run`] with observers of the caller's (progress, a stream, work
/// units): the run's collector is built here, once, from them and the
/// options.
pub(crate) fn run_with<'p>(
    solver: &dyn Solver,
    puzzle: &'p Puzzle,
    options: &SolveOptions,
    hooks: Hooks<'p>,
) -> Result<SolveResult, SolveError> {
    options.check(puzzle)?;
    // One deadline for the run: the engine's stop and the collector's
    // count from the same start (the command's, or this one).
    let now = Instant::now();
    let options = &SolveOptions {
        started: Some(options.started.unwrap_or(now)),
        ..options.clone()
    };
    let cancel = options.cancel(now);
    // Work an earlier run abandoned (a stopped CP-SAT solve still
    // returning) may hold memory: this run's is counted once it is back
    // (a stop cuts the wait short; the engine then stops at once).
    crate::cancel::settle(|| cancel.is_stopped());
    let allowance = options
        .memory_limit
        .unwrap_or_else(crate::cancel::default_allowance);
    let setup = Setup {
        keep: options.keep,
        equivalence: options.equivalence,
        limit: options.limit,
        exact: solver.exact_reports(),
        cancel: cancel.with_ceiling(crate::cancel::run_ceiling(allowance)),
    };
    let mut collector = Collector::new(puzzle, setup, hooks);
    let start = collector.started();
    let mut run = solver.enumerate(puzzle, options, &cancel, &mut collector)?;
    if let Some(reason) = collector.cut {
        // An expansion cut short: what the solver found is a subset.
        run.status = RunStatus::Stopped(reason);
    }
    let wall_time = start.elapsed();
    if let Some((solution, reason)) = collector.rejected.take() {
        return Err(SolveError::Unverified { solution, reason });
    }
    let counts = collector.counts();
    let time_to_first = collector.time_to_first();
    let (raw, classes, pictures) = collector.into_lists();
    if options.keep == Keep::All {
        // The counts multiply out what the lists hold one by one.
        assert_eq!(
            (counts.raw, counts.classes, counts.pictures),
            (
                raw.len() as u128,
                classes.len() as u128,
                pictures.len() as u128
            )
        );
    }
    // A run that found all it was asked for stopped at its limit, whether
    // or not its engine also happened to finish the search: the same
    // outcome from every engine and every race.
    let reached = options
        .limit
        .is_some_and(|n| counts.under(options.equivalence) >= n as u128);
    let outcome = match run.status {
        RunStatus::Complete if counts.raw == 0 => Outcome::Infeasible,
        RunStatus::Complete if reached => Outcome::Incomplete(StopReason::Limit),
        RunStatus::Complete => Outcome::Complete,
        RunStatus::Stopped(r) => Outcome::Incomplete(r),
        RunStatus::Invalid(m) => Outcome::Invalid(m),
    };
    let answer = run.answered.unwrap_or_else(|| Answer {
        engine: solver.engine(),
        searched: solver.searched(),
        version: solver.version(),
    });
    Ok(SolveResult {
        solver: answer.engine,
        solver_version: answer.version,
        model: answer.searched,
        symmetry: options.symmetry.clone(),
        symmetry_proven: options.symmetry.keeps(options.equivalence).is_proven(),
        equivalence: options.equivalence,
        outcome,
        counts,
        keep: options.keep,
        raw,
        classes,
        pictures,
        wall_time,
        time_to_first,
        stats: run.stats,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_parses() {
        assert_eq!("auto".parse::<Split>(), Ok(Split::Auto));
        assert_eq!("none".parse::<Split>(), Ok(Split::None));
        assert_eq!("2".parse::<Split>(), Ok(Split::Depth(2)));
        assert!("x".parse::<Split>().is_err());
    }
}

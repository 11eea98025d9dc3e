//! One solver interface, one solution callback, explicit outcomes.
//!
//! Every backend (CP-SAT, later the native backtracker) implements [`Solver`]
//! and hands every assignment it enumerates to a [`SolutionCallback`]. The
//! [`Collector`] is the callback the CLI uses: it verifies each assignment
//! independently of the solver, canonicalizes it and de-duplicates.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;
use thiserror::Error;

use crate::board::{Placement, Solution, VerifyError};
use crate::puzzle::Puzzle;
use crate::symmetry::{
    Equivalence, Symmetry, SymmetryError, canonical, picture_canonical, pictures_are_labels,
};

/// Receives every assignment a solver enumerates (row-major placements).
pub trait SolutionCallback {
    fn on_solution(&mut self, cells: &[Placement]);
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

/// A shared flag that asks a running search to stop (Ctrl-C).
#[derive(Clone, Debug, Default)]
pub struct StopToken(Arc<AtomicBool>);

impl StopToken {
    pub fn new() -> StopToken {
        StopToken::default()
    }
    pub fn stop(&self) {
        self.0.store(true, Ordering::SeqCst);
    }
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
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
    pub threads: usize,
    pub split: Split,
    pub stop: StopToken,
    /// Symmetry-breaking constraints added to the model.
    pub symmetry: Symmetry,
    /// What counts as one class in `canonical`.
    pub equivalence: Equivalence,
    /// Stop once this many classes (under `equivalence`) are found.
    pub limit: Option<usize>,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            time_limit: None,
            threads: 1,
            split: Split::Auto,
            stop: StopToken::new(),
            symmetry: Symmetry::none(),
            equivalence: Equivalence::Rotation,
            limit: None,
        }
    }
}

/// Why a search ended before it was complete.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    TimeLimit,
    Interrupted,
    /// `--split none` and the solution pool filled up.
    PoolFull,
    /// `--limit`: as many classes as asked for were found.
    Limit,
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            StopReason::TimeLimit => "time limit reached",
            StopReason::Interrupted => "interrupted",
            StopReason::PoolFull => "solution pool full (use --split auto)",
            StopReason::Limit => "limit of solutions reached",
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

/// Statistics a backend reports; fields a backend does not have stay `None`.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SolverStats {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branches: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conflicts: Option<u64>,
    /// The solver's own wall time, summed over its solves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wall_time_s: Option<f64>,
    /// CP-SAT: the time spent building the model (before any solve).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub build_time_s: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subproblems: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subproblems_split: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_split_depth: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workers: Option<usize>,
    /// Backtracking: placements made, in total and per depth.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes_per_depth: Option<Vec<u64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes_per_second: Option<f64>,
}

/// What a backend returns after enumerating.
#[derive(Clone, Debug)]
pub struct SolverRun {
    pub status: RunStatus,
    pub stats: SolverStats,
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
    /// The puzzle is beyond what the solver handles (an input error).
    #[error("{0}")]
    TooLarge(String),
    #[error("the solver returned an assignment that is not a solution ({reason}):\n{}", .solution.to_seed_text())]
    Unverified {
        solution: Solution,
        reason: VerifyError,
    },
}

/// A solver backend.
pub trait Solver {
    /// Short name, e.g. `cp-sat`.
    fn name(&self) -> &'static str;
    /// The backend's version, e.g. the OR-Tools version.
    fn version(&self) -> String;
    /// The formulation or search order used, e.g. `table`.
    fn model_name(&self) -> String;
    /// The size of the model it would solve, if it solves a model.
    fn model_size(&self, _puzzle: &Puzzle, _symmetry: &Symmetry) -> Option<crate::model::Size> {
        None
    }
    /// Enumerate every solution of the puzzle into `callback`.
    fn enumerate(
        &self,
        puzzle: &Puzzle,
        options: &SolveOptions,
        callback: &mut dyn SolutionCallback,
    ) -> Result<SolverRun, SolveError>;
}

/// A progress observer: the progress and the distinct raw solutions so far.
type ProgressFn<'p> = Box<dyn FnMut(&Progress, usize) + 'p>;

/// The solution callback behind `scramble solve`: verifies, canonicalizes
/// (under both equivalences), de-duplicates.
pub struct Collector<'p> {
    puzzle: &'p Puzzle,
    raw: BTreeSet<Solution>,
    classes: BTreeSet<Solution>,
    pictures: BTreeSet<Solution>,
    /// [`pictures_are_labels`] of the puzzle: picture classes need no work.
    pictures_are_labels: bool,
    reported: u64,
    rejected: Option<(Solution, VerifyError)>,
    progress: Option<ProgressFn<'p>>,
    /// At most this many classes under this equivalence are kept.
    limit: Option<(usize, Equivalence)>,
}

impl<'p> Collector<'p> {
    pub fn new(puzzle: &'p Puzzle) -> Collector<'p> {
        Collector {
            puzzle,
            raw: BTreeSet::new(),
            classes: BTreeSet::new(),
            pictures: BTreeSet::new(),
            pictures_are_labels: pictures_are_labels(puzzle),
            reported: 0,
            rejected: None,
            progress: None,
            limit: None,
        }
    }

    /// Keep at most `n` classes under `equivalence`: solutions of further
    /// classes are dropped, and [`SolutionCallback::enough`] says so.
    pub fn with_limit(mut self, n: usize, equivalence: Equivalence) -> Self {
        self.limit = Some((n, equivalence));
        self
    }

    fn kept(&self, e: Equivalence) -> usize {
        match e {
            Equivalence::Rotation => self.classes.len(),
            Equivalence::Picture => self.pictures.len(),
        }
    }

    /// Also report progress (with the number of distinct raw solutions so far).
    pub fn with_progress(mut self, f: impl FnMut(&Progress, usize) + 'p) -> Self {
        self.progress = Some(Box::new(f));
        self
    }

    /// How many assignments the solver reported (duplicates included).
    pub fn reported(&self) -> u64 {
        self.reported
    }
}

impl SolutionCallback for Collector<'_> {
    fn on_solution(&mut self, cells: &[Placement]) {
        self.reported += 1;
        let s = Solution::new(cells.to_vec());
        // A repeat of a verified solution needs no second check.
        if self.raw.contains(&s) {
            return;
        }
        if let Err(reason) = s.verify(self.puzzle) {
            self.rejected.get_or_insert((s, reason));
            return;
        }
        // A class seen before has its picture class recorded already: the
        // picture canonical form is the same for every turn of a board.
        let class = canonical(&s);
        if !self.classes.contains(&class) {
            let picture = if self.pictures_are_labels {
                class.clone()
            } else {
                picture_canonical(self.puzzle, &class)
            };
            if let Some((n, e)) = self.limit {
                // A new class past the limit is not kept.
                let new = match e {
                    Equivalence::Rotation => true,
                    Equivalence::Picture => !self.pictures.contains(&picture),
                };
                if new && self.kept(e) >= n {
                    return;
                }
            }
            self.pictures.insert(picture);
            self.classes.insert(class);
        }
        self.raw.insert(s);
    }

    fn enough(&self) -> bool {
        self.limit.is_some_and(|(n, e)| self.kept(e) >= n)
    }

    fn on_progress(&mut self, progress: &Progress) {
        let n = self.raw.len();
        if let Some(f) = self.progress.as_mut() {
            f(progress, n);
        }
    }
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
    pub solver: String,
    pub solver_version: String,
    pub model: String,
    /// The symmetry breaking used, e.g. `lex,tiles`.
    pub symmetry: String,
    /// The equivalence `canonical()` follows.
    pub equivalence: Equivalence,
    pub outcome: Outcome,
    /// Distinct labelled solutions, sorted.
    pub raw: Vec<Solution>,
    /// Canonical forms of the classes under board turns, sorted.
    pub classes: Vec<Solution>,
    /// Canonical forms of the picture classes, sorted.
    pub pictures: Vec<Solution>,
    pub wall_time: Duration,
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
    run_with(solver, puzzle, options, Collector::new(puzzle))
}

/// [`run`] with a collector configured by the caller (e.g. with progress).
pub fn run_with(
    solver: &dyn Solver,
    puzzle: &Puzzle,
    options: &SolveOptions,
    mut collector: Collector<'_>,
) -> Result<SolveResult, SolveError> {
    options.symmetry.check(puzzle)?;
    if let Some(n) = options.limit {
        collector = collector.with_limit(n, options.equivalence);
    }
    let start = Instant::now();
    let run = solver.enumerate(puzzle, options, &mut collector)?;
    let wall_time = start.elapsed();
    if let Some((solution, reason)) = collector.rejected.take() {
        return Err(SolveError::Unverified { solution, reason });
    }
    let outcome = match run.status {
        RunStatus::Complete if collector.raw.is_empty() => Outcome::Infeasible,
        RunStatus::Complete => Outcome::Complete,
        RunStatus::Stopped(r) => Outcome::Incomplete(r),
        RunStatus::Invalid(m) => Outcome::Invalid(m),
    };
    Ok(SolveResult {
        solver: solver.name().to_string(),
        solver_version: solver.version(),
        model: solver.model_name(),
        symmetry: options.symmetry.name(),
        equivalence: options.equivalence,
        outcome,
        raw: collector.raw.into_iter().collect(),
        classes: collector.classes.into_iter().collect(),
        pictures: collector.pictures.into_iter().collect(),
        wall_time,
        stats: run.stats,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn collector_verifies_canonicalizes_and_deduplicates() {
        let p = Puzzle::load(Path::new("puzzles/3x3-original")).unwrap();
        let s = Solution::new(
            [
                (1, 1),
                (9, 3),
                (7, 2),
                (4, 2),
                (5, 3),
                (3, 2),
                (8, 0),
                (6, 3),
                (2, 2),
            ]
            .iter()
            .map(|&x| x.into())
            .collect(),
        );
        let mut c = Collector::new(&p);
        for t in s.turns() {
            c.on_solution(t.cells());
            c.on_solution(t.cells());
        }
        assert_eq!(c.reported(), 8);
        assert_eq!(c.raw.len(), 4);
        assert_eq!(c.classes.len(), 1);
        assert_eq!(c.pictures.len(), 1);
        assert!(c.rejected.is_none());
        let mut bad = s.cells().to_vec();
        bad.swap(0, 1);
        c.on_solution(&bad);
        assert!(c.rejected.is_some());
        assert_eq!(c.raw.len(), 4);
    }

    #[test]
    fn split_parses() {
        assert_eq!("auto".parse::<Split>(), Ok(Split::Auto));
        assert_eq!("none".parse::<Split>(), Ok(Split::None));
        assert_eq!("2".parse::<Split>(), Ok(Split::Depth(2)));
        assert!("x".parse::<Split>().is_err());
    }
}

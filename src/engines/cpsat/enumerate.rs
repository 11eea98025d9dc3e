//! Enumerating every solution with CP-SAT through independent subproblems.
//!
//! The C API has no solution callback: a solve returns its solutions in the
//! response's solution pool, and one solve with a pool big enough for
//! everything is quadratic in the number of solutions. So the enumeration is
//! cut into subproblems that fix the first cells (row-major) to every
//! placement consistent with the edges, each solved on its own with its own
//! pool, on `threads` workers. A subproblem whose pool fills up, or that runs
//! past its time slice, is split again one cell deeper; each depth learns
//! its slice from how fast its solves fill their pools (`slices`). Boards of at least
//! `eager_cells` cells start cut into a few parts by ranges of the first
//! cell's tile instead (their presolve dominates: few parts repeat little of
//! it, and every core has work from the first moment); a range part is split
//! into its placements. Every finished
//! subproblem's solutions go to the solution callback at once, so progress,
//! Ctrl-C and time limits act between subproblems.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::cancel::Cancel;
use crate::model::{BuildError, Model};
use crate::puzzle::Puzzle;
use crate::solve::pool::{self, Event, Flow, Given, Shape};
use crate::solve::{
    Progress, SolutionCallback, SolveError, SolveOptions, SolverRun, SolverStats, Split, Stands,
};

use super::books::Books;
use super::ceiling::{self, Slots};
use super::jobs::{Job, estimate, prefixes, split_job, unit_prefixes};
use super::proto::CpModelProto;
use super::runtime::Runtime;
use super::slices::Slices;
use super::subproblem::Shared;

/// Memory all concurrent CP-SAT solves of one enumeration may take
/// together, by the estimate below.
pub(crate) const MEMORY_BUDGET: u64 = 768 << 20;

/// What one CP-SAT solve takes per integer of the model (during presolve,
/// its peak): about 400 bytes measured on 16x16 `edge` (1.5 million
/// integers, 600 MB per solve) and `edge-boolean` (4 million, 1.7 GB).
pub(crate) const BYTES_PER_VALUE: u64 = 450;

/// How many subproblems to solve at once: `threads`, fewer when their
/// models would together pass [`MEMORY_BUDGET`], never less than one.
pub(crate) fn concurrent_solves(values: u64, threads: usize) -> usize {
    let each = values.saturating_mul(BYTES_PER_VALUE).max(1);
    threads.clamp(1, (MEMORY_BUDGET / each).max(1) as usize)
}

/// Solutions kept per subproblem before it is split.
pub(crate) const DEFAULT_POOL: usize = 4096;

/// Memory the solution pools of all concurrent solves may take together.
/// CP-SAT keeps each pooled solution over its presolved model (8 bytes per
/// Boolean and integer of its search: about 50 KB on a 6x6, against our
/// 132 values), so the pool is cut to fit once a response tells that size
/// (docs/benchmarks.md, "What CP-SAT holds per subproblem"). 8 MB keeps a
/// 6x6 on two threads within a 100 MB goal with a margin: the runtime's
/// 26 MB, two solves' own state (20-45 MB each) and the pools. With 16 MB
/// the-ant-trails-puzzle peaked at 90-107 MB, with 8 MB at 83-86 MB.
pub(crate) const POOL_MEMORY: u64 = 8 << 20;

/// The smallest pool the cut gives.
pub(crate) const MIN_POOL: usize = 64;

/// The pool that keeps `concurrent` pools of solutions of `values` values
/// each within [`POOL_MEMORY`]: at most `max`, at least [`MIN_POOL`].
pub(crate) fn pool_for(values: u64, concurrent: usize, max: usize) -> usize {
    let each = values
        .saturating_mul(8)
        .saturating_mul(concurrent.max(1) as u64)
        .max(1);
    ((POOL_MEMORY / each) as usize).clamp(MIN_POOL.min(max), max)
}
/// The pool of a single unsplit solve (`--split none`).
pub(crate) const UNSPLIT_POOL: usize = 1 << 20;
/// Time slice of a depth-1 subproblem before it is split; doubles per level.
pub(crate) const DEFAULT_SLICE: Duration = Duration::from_secs(2);
/// Cells fixed up front by `--split auto`: none, the whole model is tried
/// first (most puzzles finish within its slice, and one solve costs less
/// than many), and split only where it runs long or its pool fills.
pub(crate) const AUTO_DEPTH: usize = 0;
/// The first try of the whole model keeps as many solutions as one plain
/// solve (`--split none`): within its slice it is that solve, and a pool
/// that fills before its end would throw the whole try away (with 512,
/// schlaumeier-heye-1993's whole model ended within its slice and was
/// split all the same).
pub(crate) const WHOLE_POOL: usize = UNSPLIT_POOL;
/// The first try of the whole model runs this long before it is split.
pub(crate) const WHOLE_SLICE: Duration = Duration::from_millis(250);
/// Big boards start cut into this many parts by ranges of the first cell's
/// tile.
pub(crate) const RANGE_PARTS: usize = 4;
/// Boards of at least this many cells start cut into range parts instead
/// of trying the whole model first, when there is more than one thread to
/// solve the parts side by side.
pub(crate) const EAGER_CELLS: usize = 25;
/// How often the coordinator looks at the stop token and the deadline.
const POLL: Duration = Duration::from_millis(20);

/// What each solution of a reduced model stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expansion {
    /// Itself only.
    None,
    /// Its four board turns (the model keeps one turn of each class).
    Turns,
    /// Every labelled board showing its picture (the model keeps one board
    /// per picture before turns).
    Pictures,
}

impl Expansion {
    /// What a solution of the reduced model stands for.
    pub fn stands(self) -> Stands {
        match self {
            Expansion::None => Stands::Board,
            Expansion::Turns => Stands::Turns,
            Expansion::Pictures => Stands::PictureClass,
        }
    }
}

/// One enumeration: what is solved and how.
pub(crate) struct Run<'a> {
    pub rt: &'static Runtime,
    pub limits: Limits,
    pub puzzle: &'a Puzzle,
    pub model: &'a Model,
    pub options: &'a SolveOptions,
    /// How the enumeration is cut (the solver's `--split`).
    pub split: Split,
    /// Ctrl-C and when the whole enumeration must end (the time limit,
    /// counted from before the model was built).
    pub cancel: Cancel,
    /// What each solution the model finds stands for.
    pub expansion: Expansion,
    /// The process's resident size (bytes) when the run started: the
    /// ceiling is counted from it.
    pub memory_start: u64,
    /// The user's constraints for this model, appended to its bytes.
    pub user: Option<&'a super::constraints::Appended>,
}

impl Run<'_> {
    /// The model's constraints encoded for CP-SAT, within the run's time
    /// limit, Ctrl-C and memory ceiling; refused (`MemoryLimit`) when
    /// CP-SAT could not load them under the ceiling
    /// ([`ceiling::past`]), before any solve.
    pub(super) fn encode_constraints(&self) -> Result<Vec<u8>, BuildError> {
        let ceiling = self.limits.memory_ceiling;
        let cancel = self.cancel.with_ceiling(ceiling);
        let mut bytes = super::encode_constraints(&self.model.constraints, &cancel)?;
        if let Some(user) = self.user {
            bytes.extend_from_slice(&user.bytes);
        }
        if let Some(need) = ceiling::past(bytes.len(), ceiling, self.memory_start) {
            return Err(BuildError::MemoryLimit {
                need_mb: Some(need / 1_000_000),
            });
        }
        Ok(bytes)
    }

    /// The variables of the model CP-SAT gets: the model's, then the
    /// user's new ones.
    pub(super) fn variables(&self) -> usize {
        self.model.vars.len() + self.user.map_or(0, |u| u.new_variables)
    }
}

/// Limits that decide when a subproblem is split.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Solutions kept per subproblem; a full pool splits it.
    pub pool: usize,
    /// The pool of a single unsplit solve (`--split none`).
    pub unsplit_pool: usize,
    /// Time slice of a depth-1 subproblem (doubles per level); past it the
    /// subproblem is split.
    pub slice: Duration,
    /// The cells fixed up front by `--split auto`.
    pub auto_depth: usize,
    /// The pool of the whole model's first try (`--split auto`).
    pub whole_pool: usize,
    /// The time slice of the whole model's first try.
    pub whole_slice: Duration,
    /// Parts a big board starts cut into, by ranges of the first cell's tile.
    pub range_parts: usize,
    /// Whether a whole model's try whose slice ends in its presolve is
    /// tried again with twice the slice rather than split (policy.rs).
    pub lengthen_whole: bool,
    /// Boards of at least this many cells start cut into range parts
    /// (`--split auto` only).
    pub eager_cells: usize,
    /// Memory (bytes) the run may add to its process before running solves
    /// are stopped (src/engines/cpsat/ceiling.rs); the solver turns it into a
    /// resident size when the run starts. 0: the run is always past it.
    pub memory_ceiling: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            pool: DEFAULT_POOL,
            unsplit_pool: UNSPLIT_POOL,
            slice: DEFAULT_SLICE,
            auto_depth: AUTO_DEPTH,
            whole_pool: WHOLE_POOL,
            whole_slice: WHOLE_SLICE,
            range_parts: RANGE_PARTS,
            lengthen_whole: false,
            eager_cells: EAGER_CELLS,
            memory_ceiling: ceiling::default_allowance(),
        }
    }
}

pub(crate) fn enumerate(
    run: &Run,
    callback: &mut dyn SolutionCallback,
) -> Result<SolverRun, SolveError> {
    let Run {
        rt,
        limits,
        puzzle,
        model,
        options,
        ..
    } = *run;
    let constraints = match run.encode_constraints() {
        Ok(bytes) => bytes,
        Err(e) => return Ok(SolverRun::stopped_while_building(&e)),
    };
    let base = base_model(run);
    let threads = concurrent_solves(model.size().values, options.threads);
    let (initial_depth, adaptive, pool) = match run.split {
        Split::Auto => (limits.auto_depth.min(puzzle.len()), true, limits.pool),
        Split::Depth(k) => (k.min(puzzle.len()), true, limits.pool),
        Split::None => (0, false, limits.unsplit_pool),
    };
    let (queue, unit_stats) = initial_jobs(run, initial_depth, adaptive);
    let outstanding: HashMap<usize, usize> = match options.units {
        Some(_) => queue.iter().map(|j| (j.unit, 1)).collect(),
        None => HashMap::new(),
    };
    let slices = Slices::for_run(limits.slice, limits.whole_slice, model.cells.len());
    let shared = Shared {
        rt,
        constraints,
        base: &base,
        model,
        pool,
        search_sizes: Mutex::new(Vec::new()),
        first_guess: model.size().values,
        cut_pool: adaptive,
        concurrent: threads,
        limits,
        slices: Mutex::new(slices),
        stopping: AtomicBool::new(false),
        deadline: run.cancel.deadline(),
    };
    let stats = first_stats(initial_depth, threads, unit_stats);
    let mut books = Books {
        progress: Progress {
            subproblems_pending: queue.len() as u64,
            ..Progress::default()
        },
        queue,
        outstanding,
        stats,
        stop_reason: None,
        incomplete: false,
        invalid: None,
        in_flight: 0,
        slots: Slots::new(threads),
    };

    // The coordinator hands the pool's workers as many subproblems as the
    // memory ceiling's slots allow, and closes their queue when none is
    // in flight (all done, or the run stopped).
    let dispatch = |books: &mut Books, jobs: &mut dyn FnMut(Job)| {
        books.look_at_limits(run, &shared);
        if books.stop_reason.is_none() {
            while books.in_flight < books.slots.get() {
                let Some(job) = books.queue.pop_front() else {
                    break;
                };
                jobs(job);
                books.in_flight += 1;
            }
        }
        books.in_flight == 0
    };
    let mut first = Vec::new();
    let mut closed = dispatch(&mut books, &mut |job| first.push(job));
    let given = match closed {
        true => Given::All(first),
        false => Given::First(first),
    };
    let shape = Shape {
        workers: threads,
        bound: None,
        tick: Some(POLL),
    };
    pool::run(
        shape,
        given,
        |_, jobs, out| {
            while let Some(job) = jobs.next() {
                if !out.send(shared.solve(job)) {
                    break;
                }
            }
        },
        |event, jobs| {
            if closed {
                return Flow::Listen;
            }
            if let Event::Message(r) = event {
                books.take(r, run, &shared, callback);
            }
            if dispatch(&mut books, &mut |job| jobs.push(job)) {
                closed = true;
                jobs.close();
            }
            Flow::Listen
        },
    );

    let (status, stats) = books.finish();
    let Shared { constraints, .. } = shared;
    crate::model::drop_later((base, constraints));
    Ok(SolverRun { status, stats })
}

/// The model's name and variables, which each subproblem's domains narrow.
fn base_model(run: &Run) -> CpModelProto {
    CpModelProto {
        name: run.puzzle.name().to_string(),
        variables: run.model.vars.iter().map(super::variable_proto).collect(),
        constraints: vec![],
    }
}

/// The statistics before the first subproblem: the sums at 0, the workers,
/// and with fixed work units their counts (units in all, units to run,
/// cells a unit fixes).
fn first_stats(
    initial_depth: usize,
    threads: usize,
    unit_stats: Option<(u64, u64, usize)>,
) -> SolverStats {
    SolverStats {
        branches: Some(0),
        conflicts: Some(0),
        wall_time_s: Some(0.0),
        subproblems: Some(0),
        subproblems_split: Some(0),
        max_split_depth: Some(initial_depth),
        workers: Some(threads),
        units: unit_stats.map(|u| u.0),
        units_run: unit_stats.map(|u| u.1),
        unit_depth: unit_stats.map(|u| u.2),
        ..SolverStats::default()
    }
}

/// The subproblems an enumeration starts with, and with fixed work units
/// (shards, checkpoints) their counts: units in all, units to run, cells a
/// unit fixes.
fn initial_jobs(
    run: &Run,
    initial_depth: usize,
    adaptive: bool,
) -> (VecDeque<Job>, Option<(u64, u64, usize)>) {
    let (puzzle, options, limits) = (run.puzzle, run.options, run.limits);
    // Fixed work units: every unit a job of its own, split as usual; a
    // unit is finished when every part of it is. Without them, the first
    // `initial_depth` cells fixed, or on a big board (`--split auto`) a few
    // parts by ranges of the first cell's tile.
    if let Some(units) = &options.units {
        let level = unit_prefixes(puzzle);
        let to_run = units.to_run(level.len(), |k| estimate(puzzle, &level[k]));
        let stats = (
            level.len() as u64,
            to_run.iter().filter(|&&r| r).count() as u64,
            level.first().map_or(0, |p| p.len()),
        );
        let jobs = level
            .into_iter()
            .enumerate()
            .filter(|&(k, _)| to_run[k])
            .map(|(unit, prefix)| Job {
                unit,
                prefix,
                range: None,
                adaptive: true,
            })
            .collect();
        return (jobs, Some(stats));
    }
    let eager = matches!(run.split, Split::Auto)
        && puzzle.len() >= limits.eager_cells
        && initial_depth == 0;
    if eager {
        let whole = Job {
            unit: 0,
            prefix: vec![],
            range: None,
            adaptive: true,
        };
        return (split_job(puzzle, &whole, limits.range_parts).into(), None);
    }
    let jobs = prefixes(puzzle, initial_depth)
        .into_iter()
        .map(|prefix| Job {
            unit: 0,
            prefix,
            range: None,
            adaptive,
        })
        .collect();
    (jobs, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::cpsat::proto::SatParameters;

    #[test]
    fn big_models_are_solved_fewer_at_a_time() {
        // danger-puzzle's edge model (27,684 integers): every thread.
        assert_eq!(concurrent_solves(27_684, 8), 8);
        // A 16x16 edge model (1.5 million): one at a time.
        assert_eq!(concurrent_solves(1_507_584, 8), 1);
        // In between, as many as fit; never none.
        assert_eq!(concurrent_solves(500_000, 8), 3);
        assert_eq!(concurrent_solves(u64::MAX, 8), 1);
        assert_eq!(concurrent_solves(0, 0), 1);
    }

    #[test]
    fn responses_tell_the_search_model_size() {
        // What the pool cut reads: two free variables in 0..=3 are two
        // integers and their encoding's Booleans (6 in OR-Tools 9.15).
        let Some(rt) = super::super::runtime::runtime_for_tests() else {
            return;
        };
        let var = |name: &str| crate::model::IntVar {
            name: name.into(),
            domain: vec![(0, 3)],
        };
        let bytes = super::super::encode_variables("tiny", &[var("x"), var("y")]);
        let params = SatParameters {
            num_workers: Some(1),
            enumerate_all_solutions: Some(true),
            fill_additional_solutions_in_response: Some(true),
            solution_pool_size: Some(100),
            ..Default::default()
        };
        let r = rt.solve_encoded(&rt.new_env(), &bytes, &params).unwrap();
        assert_eq!(r.additional_solutions.len(), 16);
        assert_eq!(r.num_integers, 2);
        assert!(r.num_booleans > 0, "{} Booleans", r.num_booleans);
    }

    #[test]
    fn the_pool_fits_the_pool_memory() {
        // the-ant-trails-puzzle's search model, two solves at once.
        let pool = pool_for(7_422, 2, DEFAULT_POOL) as u64;
        assert_eq!(pool, 70);
        // The largest that fits.
        assert!(2 * pool * 7_422 * 8 <= POOL_MEMORY);
        assert!(2 * (pool + 1) * 7_422 * 8 > POOL_MEMORY);
        // Small models keep the limits' pool.
        assert_eq!(pool_for(30, 8, DEFAULT_POOL), DEFAULT_POOL);
        assert_eq!(pool_for(u64::MAX, 8, DEFAULT_POOL), MIN_POOL);
        assert_eq!(pool_for(1 << 30, 1, 10), 10);
        assert_eq!(pool_for(0, 0, DEFAULT_POOL), DEFAULT_POOL);
    }
}

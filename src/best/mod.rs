//! `scramble best`: an anytime search for the board with the most valid
//! joins (all tiles placed, frame, hints and turning rule kept), for
//! puzzles whose solution is unknown or out of reach (Eternity II).
//!
//! Methods (each one file): `backtrack` (breaks.rs: a row scan that may
//! break joins by a schedule, restarts, random candidate order), `depth`
//! (depth.rs: the deepest board with breaks at fixed slots, completed
//! optimally), `cp-sat`
//! (cpsat/best.rs: CP-SAT maximizing the valid joins in time slices, each
//! warm-started from the best board), and `hybrid` (both at once, sharing
//! the best board: CP-SAT repairs what the backtracker finds). Every board
//! a method reports is scored again here, independently
//! ([`Solution::score`]), and only a strictly better one is handed on, so
//! the stream of improvements never goes down.

mod breaks;
pub(crate) mod checkpoint;
mod colours;
mod depth;
mod exact;
mod fill;
mod workers;

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;
use thiserror::Error;

use crate::board::{Score, Solution, VerifyError};
use crate::engines::cpsat::{BestModel, CpSat};
use crate::puzzle::Puzzle;
use crate::solve::pool::{self, Event, Flow, Given, Outbox, Shape};
use crate::solve::{Cancel, SolveError, StopToken};

/// How `best` searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// Backtracking with allowed breaks, restarts and random order.
    Backtrack,
    /// Backtracking for the deepest board with a few breaks at fixed slots
    /// near the end, each new deepest board completed optimally.
    Depth,
    /// CP-SAT maximizing the valid joins, warm-started from the best board.
    CpSat,
    /// The backtracker on all threads but one, CP-SAT on that one, sharing
    /// the best board.
    Hybrid,
}

impl Method {
    pub fn name(self) -> &'static str {
        match self {
            Method::Backtrack => "backtrack",
            Method::Depth => "depth",
            Method::CpSat => "cp-sat",
            Method::Hybrid => "hybrid",
        }
    }
}

/// What found a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Finder {
    /// The board the run started from (a checkpoint's).
    Start,
    /// The backtracker with allowed breaks.
    Backtrack,
    /// The deepest-board backtracker.
    Depth,
    /// The complete search beside it.
    Exact,
    /// CP-SAT, on the whole board or a window of it.
    CpSat,
}

impl std::fmt::Display for Finder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Finder::Start => "start",
            Finder::Backtrack => "backtrack",
            Finder::Depth => "depth",
            Finder::Exact => "exact",
            Finder::CpSat => "cp-sat",
        })
    }
}

/// The options of a run.
#[derive(Clone, Debug)]
pub(crate) struct BestOptions {
    pub method: Method,
    pub time_limit: Option<Duration>,
    pub threads: usize,
    /// Seeds the random candidate order (thread t uses `seed + t`).
    pub seed: u64,
    pub stop: StopToken,
    /// A board to start from (a checkpoint's): the run looks for better.
    pub start: Option<Solution>,
    /// CP-SAT's time slice (it reports at the end of each).
    pub slice: Duration,
}

impl Default for BestOptions {
    fn default() -> Self {
        BestOptions {
            method: Method::Backtrack,
            time_limit: None,
            threads: 1,
            seed: 1,
            stop: StopToken::new(),
            start: None,
            slice: Duration::from_secs(10),
        }
    }
}

/// A better board, as found.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Improvement {
    /// Valid joins.
    pub score: usize,
    /// All joins (the full score).
    pub joins: usize,
    /// Seconds since the run started.
    pub time_s: f64,
    /// The method that found it.
    pub method: Finder,
    pub board: Solution,
    /// Its broken joins.
    pub broken: Vec<crate::board::Join>,
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Ended {
    /// A board with every join valid (a solution).
    Full,
    /// CP-SAT proved the best board optimal: no board has more valid joins.
    Optimal,
    TimeLimit,
    Interrupted,
}

/// The result of a run.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct BestRun {
    pub best: Option<Improvement>,
    pub improvements: usize,
    pub ended: Ended,
    /// Backtracking nodes (all threads).
    pub nodes: u64,
    pub wall_time_s: f64,
}

#[derive(Debug, Error)]
pub(crate) enum BestError {
    #[error(transparent)]
    Solve(#[from] SolveError),
    #[error(transparent)]
    Runtime(#[from] crate::engines::cpsat::RuntimeError),
    /// A method reported a board that breaks the rules (a bug).
    #[error("a board found by {method} breaks the rules: {error}")]
    Invalid { method: Finder, error: VerifyError },
    /// The start board does not fit the puzzle.
    #[error("the start board does not fit the puzzle: {0}")]
    Start(VerifyError),
}

/// The time of one region repair (the hybrid's CP-SAT).
const REPAIR_SLICE: Duration = Duration::from_secs(1);

/// Beside a complete search, the breaks search stops after this long
/// without a better board, and leaves its core to the complete search
/// (which runs on every backtracking thread from the start). On the 8x8
/// sets the breaks get close to the full score within minutes and then
/// stall (docs/log.md).
const STALL: Duration = Duration::from_secs(120);

/// The side of the window a region repair frees: on Eternity II a 4x4
/// window is mostly solved or proved unimprovable quickly on one worker,
/// a 6x6 one never was (docs/log.md).
const REPAIR_SIDE: usize = 4;

/// Which cells keep their placement in a region repair: all but a window
/// of [`REPAIR_SIDE`] cells a side around a random broken join of `board`
/// (around a random cell if none is broken).
fn window(puzzle: &Puzzle, board: &Solution, rng: &mut crate::rng::Rng) -> Vec<bool> {
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    let broken = board.score(puzzle).map(|s| s.broken).unwrap_or_default();
    let (ci, cj) = match broken.get(rng.below(broken.len().max(1))) {
        Some(crate::board::Join::Right { i, j } | crate::board::Join::Down { i, j }) => {
            (i - 1, j - 1)
        }
        None => (rng.below(rows), rng.below(cols)),
    };
    let side_r = REPAIR_SIDE.min(rows);
    let side_c = REPAIR_SIDE.min(cols);
    // A random placement of the window that holds the cell.
    let top = ci.saturating_sub(rng.below(side_r)).min(rows - side_r);
    let left = cj.saturating_sub(rng.below(side_c)).min(cols - side_c);
    (0..rows * cols)
        .map(|c| {
            let (i, j) = (c / cols, c % cols);
            !((top..top + side_r).contains(&i) && (left..left + side_c).contains(&j))
        })
        .collect()
}

/// A board found by one of the methods, on its way to the coordinator.
struct Candidate {
    board: Solution,
    method: Finder,
    optimal: bool,
}

/// What the threads of one run share: the best board so far (its breaks,
/// the board itself for CP-SAT's hints) and how to stop them.
struct Shared<'a> {
    puzzle: &'a Puzzle,
    options: &'a BestOptions,
    started: Instant,
    /// Ctrl-C and the time limit.
    cancel: Cancel,
    best_breaks: AtomicUsize,
    board: Mutex<Option<Solution>>,
    /// The run's own stop, once its coordinator is done: every worker's,
    /// the complete search's too.
    halt: StopToken,
    /// When the last better board came (ms since the start).
    last_gain: AtomicU64,
}

impl Shared<'_> {
    fn halt_all(&self) {
        self.halt.stop();
    }

    fn stopped(&self) -> bool {
        self.halt.is_stopped() || self.cancel.is_stopped()
    }

    /// The breaks stop with everything else, and, beside a complete
    /// search, when they have found nothing better for [`STALL`].
    fn breaks_stopped(&self, complete: bool) -> bool {
        self.stopped()
            || (complete
                && self.started.elapsed().as_millis() as u64
                    > self.last_gain.load(Ordering::Relaxed) + STALL.as_millis() as u64)
    }
}

/// How a run's threads are given out.
struct Plan {
    backtrackers: usize,
    cp_threads: usize,
    /// Threads of the complete search beside the breaks (0: none).
    exact_threads: usize,
}

impl Plan {
    fn new(puzzle: &Puzzle, options: &BestOptions, shared: &Shared, solved: bool) -> Plan {
        let (mut backtrackers, cp_threads) = match options.method {
            Method::Backtrack | Method::Depth => (options.threads.max(1), 0),
            Method::CpSat => (0, options.threads.max(1)),
            Method::Hybrid => (options.threads.saturating_sub(1).max(1), 1),
        };
        // With a thread to spare, one backtracker becomes a complete search
        // where its tree is within reach (exact.rs); it runs on every
        // backtracking thread, one of them shared with the breaks until
        // they stall.
        let complete = backtrackers >= 2
            && !solved
            && exact::within_reach(
                puzzle,
                options.seed,
                shared.cancel.remaining(),
                &options.stop,
            );
        let exact_threads = if complete { backtrackers } else { 0 };
        if complete {
            backtrackers -= 1;
        }
        Plan {
            backtrackers,
            cp_threads,
            exact_threads,
        }
    }
}

/// What a worker sends the coordinator.
type Msg = Result<Candidate, BestError>;
type Sender<'a> = &'a Outbox<Msg>;

/// CP-SAT's rounds: the whole board's model (`model`), or for the hybrid
/// a small model per repaired window of the best board.
fn cp_sat_worker(
    shared: &Shared,
    solver: &CpSat,
    model: Option<&BestModel>,
    threads: usize,
    tx: Sender<'_>,
) {
    let (puzzle, options) = (shared.puzzle, shared.options);
    let stopped = || shared.stopped();
    let mut round = 0u64;
    // A slice that finds nothing better is followed by one twice as long:
    // a big model's presolve alone can take a slice.
    let mut slice = options.slice;
    let repair = options.method == Method::Hybrid;
    let mut rng = crate::rng::Rng::new(options.seed);
    while !stopped() && shared.best_breaks.load(Ordering::Relaxed) > 0 {
        let hint = shared.board.lock().unwrap().clone();
        let before = shared.best_breaks.load(Ordering::Relaxed);
        // The hybrid repairs a window of the best board around a broken
        // join; CP-SAT alone searches the whole board.
        let fixed = match (&hint, repair) {
            (Some(board), true) => window(puzzle, board, &mut rng),
            _ => Vec::new(),
        };
        let whole = fixed.is_empty();
        let budget = crate::engines::cpsat::Slice {
            time: if whole { slice } else { REPAIR_SLICE },
            threads,
            seed: options.seed.wrapping_add(round),
        };
        let window = match (&hint, whole) {
            (Some(board), false) => Some(BestModel::window(puzzle, board, &fixed)),
            _ => None,
        };
        let Some(m) = window.as_ref().or(model) else {
            // The hybrid before the backtracker's first board.
            std::thread::sleep(Duration::from_millis(20));
            continue;
        };
        let found = solver.improve(puzzle, m, hint.as_ref(), budget, &stopped);
        round += 1;
        let f = match found {
            Ok(f) => f,
            Err(e) => {
                let _ = tx.send(Err(e.into()));
                break;
            }
        };
        let optimal = f.optimal && whole;
        let mut better = false;
        if let Some(board) = f.board {
            let breaks = board.score(puzzle).map_or(usize::MAX, |s| s.broken.len());
            better = breaks < before;
            if better || optimal {
                shared.best_breaks.fetch_min(breaks, Ordering::SeqCst);
                let _ = tx.send(Ok(Candidate {
                    board,
                    method: Finder::CpSat,
                    optimal,
                }));
            }
        }
        if optimal {
            break;
        }
        if !better && whole {
            slice = slice.saturating_mul(2);
        }
    }
}

/// What the coordinator has seen of the candidates.
struct Seen {
    best: Option<Improvement>,
    improvements: usize,
    optimal: bool,
}

/// Score each candidate again, keep and share the better ones (each given
/// to `on_improve`), until every worker is done; halt them all on an
/// error, a full score, a proof of optimality or a limit (looked at when
/// the workers are quiet).
fn coordinate(
    shared: &Shared,
    joins: usize,
    event: Event<Msg>,
    seen: &mut Seen,
    on_improve: &mut dyn FnMut(&Improvement),
) -> Result<(), BestError> {
    let msg = match event {
        Event::Message(m) => m,
        Event::Quiet => {
            if shared.stopped() {
                shared.halt_all();
            }
            return Ok(());
        }
    };
    let c = msg.inspect_err(|_| shared.halt_all())?;
    let score = c.board.score(shared.puzzle).map_err(|error| {
        shared.halt_all();
        BestError::Invalid {
            method: c.method,
            error,
        }
    })?;
    seen.optimal |= c.optimal;
    if seen.optimal {
        // Proved: nothing better exists, whether or not this board is
        // new.
        shared.halt_all();
    }
    if seen.best.as_ref().is_some_and(|b| b.score >= score.valid) {
        return Ok(());
    }
    let imp = Improvement {
        score: score.valid,
        joins,
        time_s: shared.started.elapsed().as_secs_f64(),
        method: c.method,
        board: c.board,
        broken: score.broken,
    };
    // Share it: the backtrackers look for fewer breaks, CP-SAT starts its
    // next slice from it.
    shared
        .best_breaks
        .fetch_min(joins - imp.score, Ordering::SeqCst);
    shared.last_gain.store(
        shared.started.elapsed().as_millis() as u64,
        Ordering::Relaxed,
    );
    *shared.board.lock().unwrap() = Some(imp.board.clone());
    on_improve(&imp);
    seen.improvements += 1;
    let full = imp.score == joins;
    seen.best = Some(imp);
    if full || seen.optimal {
        shared.halt_all();
    }
    Ok(())
}

/// What each worker of a run does.
enum Role {
    /// The backtracker with allowed breaks, on its own seed.
    Breaks(u64),
    /// The complete search, on this many threads.
    Exact(usize),
    /// CP-SAT's rounds, on this many threads.
    CpSat(usize),
}

/// Run the search; `on_improve` gets each improvement (verified) as it is
/// found, on the calling thread.
pub(crate) fn run(
    puzzle: &Puzzle,
    options: &BestOptions,
    on_improve: &mut dyn FnMut(&Improvement),
) -> Result<BestRun, BestError> {
    if options.method == Method::CpSat {
        BestModel::fits(puzzle)?;
    }
    let started = Instant::now();
    let joins = Score::joins_of(puzzle);
    let mut best: Option<Improvement> = None;
    if let Some(start) = &options.start {
        let score = start.score(puzzle).map_err(BestError::Start)?;
        best = Some(Improvement {
            score: score.valid,
            joins,
            time_s: 0.0,
            method: Finder::Start,
            board: start.clone(),
            broken: score.broken,
        });
    }
    let shared = Shared {
        puzzle,
        options,
        started,
        cancel: Cancel::new(
            options.stop.clone(),
            options.time_limit.map(|t| started + t),
        ),
        best_breaks: AtomicUsize::new(best.as_ref().map_or(usize::MAX, |b| joins - b.score)),
        board: Mutex::new(best.as_ref().map(|b| b.board.clone())),
        halt: StopToken::new(),
        last_gain: AtomicU64::new(0),
    };
    let solved = best.as_ref().is_some_and(|b| b.score >= joins);
    let plan = Plan::new(puzzle, options, &shared, solved);
    let complete = plan.exact_threads > 0;
    let cp = if plan.cp_threads > 0 {
        // CP-SAT alone solves the whole board's model; the hybrid builds a
        // small model per repaired window.
        // Built within the run's limits: stopped while building, there is
        // no model, and the workers, seeing the stop, end at once.
        let whole = match options.method {
            Method::CpSat => BestModel::new_until(puzzle, &|| shared.stopped()),
            _ => None,
        };
        Some((CpSat::new()?, whole))
    } else {
        None
    };
    let prepared = (plan.backtrackers > 0).then(|| match options.method {
        Method::Depth => depth::prepare(puzzle),
        _ => breaks::Prepared::new(puzzle),
    });
    let mut seen = Seen {
        best,
        improvements: 0,
        optimal: false,
    };
    let mut roles: Vec<Role> = (0..plan.backtrackers)
        .map(|t| Role::Breaks(options.seed.wrapping_add(t as u64)))
        .collect();
    if complete {
        roles.push(Role::Exact(plan.exact_threads));
    }
    if cp.is_some() {
        roles.push(Role::CpSat(plan.cp_threads));
    }
    let shape = Shape {
        workers: roles.len(),
        bound: None,
        tick: Some(Duration::from_millis(20)),
    };
    let shared = &shared;
    let mut result = Ok(());
    let nodes: u64 = pool::run(
        shape,
        Given::All(std::iter::empty::<()>()),
        |i, _, tx| match roles[i] {
            Role::Breaks(seed) => {
                let prepared = prepared.as_ref().expect("prepared");
                workers::breaks_worker(shared, prepared, seed, complete, tx)
            }
            Role::Exact(threads) => workers::exact_worker(shared, threads, tx),
            Role::CpSat(threads) => {
                let (solver, model) = cp.as_ref().expect("CP-SAT");
                cp_sat_worker(shared, solver, model.as_ref(), threads, tx);
                0
            }
        },
        |event, _| match coordinate(shared, joins, event, &mut seen, on_improve) {
            Ok(()) => Flow::Listen,
            Err(e) => {
                result = Err(e);
                Flow::Leave
            }
        },
    )
    .into_iter()
    .sum();
    result?;
    let ended = if seen.best.as_ref().is_some_and(|b| b.score == joins) {
        Ended::Full
    } else if seen.optimal {
        Ended::Optimal
    } else if options.stop.is_stopped() {
        Ended::Interrupted
    } else {
        Ended::TimeLimit
    };
    Ok(BestRun {
        best: seen.best,
        improvements: seen.improvements,
        ended,
        nodes,
        wall_time_s: started.elapsed().as_secs_f64(),
    })
}

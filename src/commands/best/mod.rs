//! `scramble best`: an anytime search for the board with the most valid
//! joins (all tiles placed, frame, hints and turning rule kept), for
//! puzzles whose solution is unknown or out of reach (Eternity II).
//!
//! Methods (each one file): `backtrack` (breaks.rs: a row scan that may
//! break joins by a schedule, restarts, random candidate order), `cp-sat`
//! (cpsat/best.rs: CP-SAT maximizing the valid joins in time slices, each
//! warm-started from the best board), and `hybrid` (both at once, sharing
//! the best board: CP-SAT repairs what the backtracker finds). Every board
//! a method reports is scored again here, independently
//! ([`Solution::score`]), and only a strictly better one is handed on, so
//! the stream of improvements never goes down.

mod breaks;
pub mod checkpoint;
pub(crate) mod command;
mod exact;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};

use serde::Serialize;
use thiserror::Error;

use crate::board::{Score, Solution, VerifyError};
use crate::engines::cpsat::{BestModel, CpSat};
use crate::puzzle::Puzzle;
use crate::solve::{SolveError, StopToken};

/// How `best` searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// Backtracking with allowed breaks, restarts and random order.
    Backtrack,
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
            Method::CpSat => "cp-sat",
            Method::Hybrid => "hybrid",
        }
    }
}

/// The options of a run.
#[derive(Clone, Debug)]
pub struct BestOptions {
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
pub struct Improvement {
    /// Valid joins.
    pub score: usize,
    /// All joins (the full score).
    pub joins: usize,
    /// Seconds since the run started.
    pub time_s: f64,
    /// The method that found it.
    pub method: &'static str,
    pub board: Solution,
    /// Its broken joins.
    pub broken: Vec<crate::board::Join>,
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Ended {
    /// A board with every join valid (a solution).
    Full,
    /// CP-SAT proved the best board optimal: no board has more valid joins.
    Optimal,
    TimeLimit,
    Interrupted,
}

/// The result of a run.
#[derive(Clone, Debug, Serialize)]
pub struct BestRun {
    pub best: Option<Improvement>,
    pub improvements: usize,
    pub ended: Ended,
    /// Backtracking nodes (all threads).
    pub nodes: u64,
    pub wall_time_s: f64,
}

#[derive(Debug, Error)]
pub enum BestError {
    #[error(transparent)]
    Solve(#[from] SolveError),
    #[error(transparent)]
    Runtime(#[from] crate::engines::cpsat::RuntimeError),
    /// A method reported a board that breaks the rules (a bug).
    #[error("a board found by {method} breaks the rules: {error}")]
    Invalid {
        method: &'static str,
        error: VerifyError,
    },
    /// The start board does not fit the puzzle.
    #[error("the start board does not fit the puzzle: {0}")]
    Start(VerifyError),
}

/// The time of one region repair (the hybrid's CP-SAT).
const REPAIR_SLICE: Duration = Duration::from_secs(1);

/// Beside a complete search, the breaks search stops after this long
/// without a better board, and leaves its core to the complete search
/// (which runs on every backtracking thread from the start). On the 8x8
/// sets the breaks reach 108-110 of 112 joins within 1-140 s and then
/// stall (docs/benchmarks.md).
const STALL: Duration = Duration::from_secs(120);

/// The side of the window a region repair frees: on Eternity II a 4x4
/// window is mostly solved or proved unimprovable within 0.2 s on one
/// worker, a 6x6 one ran past 3 s every time (docs/log.md).
const REPAIR_SIDE: usize = 4;

/// Which cells keep their placement in a region repair: all but a window
/// of [`REPAIR_SIDE`] cells a side around a random broken join of `board`
/// (around a random cell if none is broken).
fn window(puzzle: &Puzzle, board: &Solution, rng: &mut crate::rng::Rng) -> Vec<bool> {
    let (rows, cols) = (puzzle.rows, puzzle.cols);
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
    method: &'static str,
    optimal: bool,
}

/// Run the search; `on_improve` gets each improvement (verified) as it is
/// found, on the calling thread.
pub fn run(
    puzzle: &Puzzle,
    options: &BestOptions,
    on_improve: &mut dyn FnMut(&Improvement),
) -> Result<BestRun, BestError> {
    let started = Instant::now();
    let deadline = options.time_limit.map(|t| started + t);
    let joins = Score::joins_of(puzzle);
    let mut best: Option<Improvement> = None;
    if let Some(start) = &options.start {
        let score = start.score(puzzle).map_err(BestError::Start)?;
        best = Some(Improvement {
            score: score.valid,
            joins,
            time_s: 0.0,
            method: "start",
            board: start.clone(),
            broken: score.broken,
        });
    }
    let best_breaks = AtomicUsize::new(best.as_ref().map_or(usize::MAX, |b| joins - b.score));
    let shared_board: Mutex<Option<Solution>> = Mutex::new(best.as_ref().map(|b| b.board.clone()));
    let halt = std::sync::atomic::AtomicBool::new(false);
    // Stops the complete search (a solver of its own, with its own token).
    let exact_stop = StopToken::new();
    let halt_all = || {
        halt.store(true, Ordering::SeqCst);
        exact_stop.stop();
    };
    let stopped = || {
        halt.load(Ordering::Relaxed)
            || options.stop.is_stopped()
            || deadline.is_some_and(|d| Instant::now() >= d)
    };
    let (mut backtrackers, cp_threads) = match options.method {
        Method::Backtrack => (options.threads.max(1), 0),
        Method::CpSat => (0, options.threads.max(1)),
        Method::Hybrid => (options.threads.saturating_sub(1).max(1), 1),
    };
    // With a thread to spare, one backtracker becomes a complete search
    // where its tree is within reach (exact.rs).
    let complete = backtrackers >= 2
        && best.as_ref().is_none_or(|b| b.score < joins)
        && exact::within_reach(
            puzzle,
            options.seed,
            deadline.map(|d| d.saturating_duration_since(Instant::now())),
            &options.stop,
        );
    // The complete search runs on every backtracking thread; one of them
    // is shared with the breaks until they stall.
    let exact_threads = if complete { backtrackers } else { 0 };
    if complete {
        backtrackers -= 1;
    }
    // When the last better board came (ms since the start).
    let last_gain = std::sync::atomic::AtomicU64::new(0);
    let breaks_stopped = || {
        stopped()
            || (complete
                && started.elapsed().as_millis() as u64
                    > last_gain.load(Ordering::Relaxed) + STALL.as_millis() as u64)
    };
    let cp = if cp_threads > 0 {
        // CP-SAT alone solves the whole board's model; the hybrid builds a
        // small model per repaired window.
        let whole = (options.method == Method::CpSat).then(|| BestModel::new(puzzle));
        Some((CpSat::new()?, whole))
    } else {
        None
    };
    let prepared = (backtrackers > 0).then(|| breaks::Prepared::new(puzzle));
    let (tx, rx) = mpsc::channel::<Result<Candidate, BestError>>();
    let mut improvements = 0;
    let mut nodes = 0u64;
    let mut optimal = false;
    std::thread::scope(|s| -> Result<(), BestError> {
        let mut handles = Vec::new();
        if let Some(prepared) = &prepared {
            for t in 0..backtrackers {
                let tx = tx.clone();
                let best_breaks = &best_breaks;
                let stopped = &breaks_stopped;
                let seed = options.seed.wrapping_add(t as u64);
                handles.push(s.spawn(move || {
                    let found = move |board: Solution| {
                        let _ = tx.send(Ok(Candidate {
                            board,
                            method: "backtrack",
                            optimal: false,
                        }));
                    };
                    let shared = breaks::Shared {
                        best_breaks,
                        stop: stopped,
                        found: &found,
                    };
                    breaks::search(puzzle, prepared, seed, &shared)
                }));
            }
        }
        if complete {
            let tx = tx.clone();
            let exact_stop = &exact_stop;
            handles.push(s.spawn(move || {
                let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
                match exact::first_solution(puzzle, left, exact_stop, exact_threads) {
                    Ok((found, nodes)) => {
                        if let Some(board) = found {
                            let _ = tx.send(Ok(Candidate {
                                board,
                                method: "exact",
                                optimal: false,
                            }));
                        }
                        nodes
                    }
                    Err(e) => {
                        let _ = tx.send(Err(e.into()));
                        0
                    }
                }
            }));
        }
        if let Some((solver, model)) = &cp {
            let tx = tx.clone();
            let shared_board = &shared_board;
            let best_breaks = &best_breaks;
            let stopped = &stopped;
            let slice = options.slice;
            let seed = options.seed;
            s.spawn(move || {
                let mut round = 0u64;
                // A slice that finds nothing better is followed by one twice
                // as long: a big model's presolve alone can take a slice.
                let mut slice = slice;
                let repair = options.method == Method::Hybrid;
                let mut rng = crate::rng::Rng::new(seed);
                while !stopped() && best_breaks.load(Ordering::Relaxed) > 0 {
                    let hint = shared_board.lock().unwrap().clone();
                    let before = best_breaks.load(Ordering::Relaxed);
                    // The hybrid repairs a window of the best board around a
                    // broken join; CP-SAT alone searches the whole board.
                    let fixed = match (&hint, repair) {
                        (Some(board), true) => window(puzzle, board, &mut rng),
                        _ => Vec::new(),
                    };
                    let budget = crate::engines::cpsat::Slice {
                        time: if fixed.is_empty() {
                            slice
                        } else {
                            REPAIR_SLICE
                        },
                        threads: cp_threads,
                        seed: seed.wrapping_add(round),
                    };
                    let window = match (&hint, fixed.is_empty()) {
                        (Some(board), false) => Some(BestModel::window(puzzle, board, &fixed)),
                        _ => None,
                    };
                    let found = match (window.as_ref().or(model.as_ref()), &hint) {
                        (Some(m), hint) => {
                            solver.improve(puzzle, m, hint.as_ref(), budget, stopped)
                        }
                        // The hybrid before the backtracker's first board.
                        (None, _) => {
                            std::thread::sleep(Duration::from_millis(20));
                            continue;
                        }
                    };
                    round += 1;
                    match found {
                        Ok(f) => {
                            let mut better = false;
                            if let Some(board) = f.board {
                                let breaks =
                                    board.score(puzzle).map_or(usize::MAX, |s| s.broken.len());
                                better = breaks < before;
                                if better || (f.optimal && fixed.is_empty()) {
                                    best_breaks.fetch_min(breaks, Ordering::SeqCst);
                                    let _ = tx.send(Ok(Candidate {
                                        board,
                                        method: "cp-sat",
                                        optimal: f.optimal && fixed.is_empty(),
                                    }));
                                }
                            }
                            if f.optimal && fixed.is_empty() {
                                break;
                            }
                            if !better && fixed.is_empty() {
                                slice = slice.saturating_mul(2);
                            }
                        }
                        Err(e) => {
                            let _ = tx.send(Err(e.into()));
                            break;
                        }
                    }
                }
            });
        }
        drop(tx);
        loop {
            let msg = match rx.recv_timeout(Duration::from_millis(20)) {
                Ok(m) => m,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if stopped() {
                        halt_all();
                    }
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            };
            let c = match msg {
                Ok(c) => c,
                Err(e) => {
                    halt_all();
                    return Err(e);
                }
            };
            let score = match c.board.score(puzzle) {
                Ok(s) => s,
                Err(error) => {
                    halt_all();
                    return Err(BestError::Invalid {
                        method: c.method,
                        error,
                    });
                }
            };
            optimal |= c.optimal;
            if optimal {
                // Proved: nothing better exists, whether or not this board
                // is new.
                halt_all();
            }
            if best.as_ref().is_some_and(|b| b.score >= score.valid) {
                continue;
            }
            let imp = Improvement {
                score: score.valid,
                joins,
                time_s: started.elapsed().as_secs_f64(),
                method: c.method,
                board: c.board,
                broken: score.broken,
            };
            // Share it: the backtrackers look for fewer breaks, CP-SAT
            // starts its next slice from it.
            best_breaks.fetch_min(joins - imp.score, Ordering::SeqCst);
            last_gain.store(started.elapsed().as_millis() as u64, Ordering::Relaxed);
            *shared_board.lock().unwrap() = Some(imp.board.clone());
            on_improve(&imp);
            improvements += 1;
            let full = imp.score == joins;
            best = Some(imp);
            if full || optimal {
                halt_all();
            }
        }
        for h in handles {
            nodes += h.join().unwrap_or(0);
        }
        Ok(())
    })?;
    let ended = if best.as_ref().is_some_and(|b| b.score == joins) {
        Ended::Full
    } else if optimal {
        Ended::Optimal
    } else if options.stop.is_stopped() {
        Ended::Interrupted
    } else {
        Ended::TimeLimit
    };
    Ok(BestRun {
        best,
        improvements,
        ended,
        nodes,
        wall_time_s: started.elapsed().as_secs_f64(),
    })
}

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

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};

use serde::Serialize;
use thiserror::Error;

use crate::board::{Score, Solution, VerifyError};
use crate::cpsat::{BestModel, CpSat};
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
    Runtime(#[from] crate::cpsat::RuntimeError),
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
    let stopped = || {
        halt.load(Ordering::Relaxed)
            || options.stop.is_stopped()
            || deadline.is_some_and(|d| Instant::now() >= d)
    };
    let (backtrackers, cp_threads) = match options.method {
        Method::Backtrack => (options.threads.max(1), 0),
        Method::CpSat => (0, options.threads.max(1)),
        Method::Hybrid => (options.threads.saturating_sub(1).max(1), 1),
    };
    let cp = if cp_threads > 0 {
        Some((CpSat::new()?, BestModel::new(puzzle)))
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
                let stopped = &stopped;
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
        if let Some((solver, model)) = &cp {
            let tx = tx.clone();
            let shared_board = &shared_board;
            let best_breaks = &best_breaks;
            let stopped = &stopped;
            let slice = options.slice;
            let seed = options.seed;
            s.spawn(move || {
                let mut round = 0u64;
                while !stopped() && best_breaks.load(Ordering::Relaxed) > 0 {
                    let hint = shared_board.lock().unwrap().clone();
                    let before = best_breaks.load(Ordering::Relaxed);
                    let budget = crate::cpsat::Slice {
                        time: slice,
                        threads: cp_threads,
                        seed: seed.wrapping_add(round),
                    };
                    let found = solver.improve(puzzle, model, hint.as_ref(), budget, stopped);
                    round += 1;
                    match found {
                        Ok(f) => {
                            if let Some(board) = f.board {
                                let breaks =
                                    board.score(puzzle).map_or(usize::MAX, |s| s.broken.len());
                                if breaks < before || f.optimal {
                                    best_breaks.fetch_min(breaks, Ordering::SeqCst);
                                    let _ = tx.send(Ok(Candidate {
                                        board,
                                        method: "cp-sat",
                                        optimal: f.optimal,
                                    }));
                                }
                            }
                            if f.optimal {
                                break;
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
                        halt.store(true, Ordering::SeqCst);
                    }
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            };
            let c = match msg {
                Ok(c) => c,
                Err(e) => {
                    halt.store(true, Ordering::SeqCst);
                    return Err(e);
                }
            };
            let score = match c.board.score(puzzle) {
                Ok(s) => s,
                Err(error) => {
                    halt.store(true, Ordering::SeqCst);
                    return Err(BestError::Invalid {
                        method: c.method,
                        error,
                    });
                }
            };
            optimal |= c.optimal;
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
            *shared_board.lock().unwrap() = Some(imp.board.clone());
            on_improve(&imp);
            improvements += 1;
            let full = imp.score == joins;
            best = Some(imp);
            if full || optimal {
                halt.store(true, Ordering::SeqCst);
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

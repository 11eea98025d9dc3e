//! `--solver auto`: the engines together. For first solutions (`--limit`)
//! they race, each on its own thread with the run's limits, and the first
//! to report a board wins: its boards go to the collector (which verifies
//! them), the others are stopped. For complete enumeration and counting one
//! engine is chosen by a rule measured on the corpus (docs/benchmarks.md,
//! "The engines together"). Either way the result names the engine that
//! answered and the report lists every entrant's effort.
//!
//! A layer above the engines, since it is made of them (they never import
//! one another).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use crate::board::Placement;
use crate::engines::backtrack::Backtrack;
use crate::engines::sat::Sat;
use crate::puzzle::Puzzle;
use crate::solve::{
    Engine, Entrant, RunStatus, SolutionCallback, SolveError, SolveOptions, Solver, SolverRun,
    Stands, StopToken,
};

/// An engine that may run on a thread of its own.
pub type Entry = Box<dyn Solver + Send + Sync>;

/// The engines of `--solver auto` and what answered last.
pub struct Auto {
    /// For first solutions: the entrants, each on one thread but the last,
    /// which gets the rest of the run's threads.
    entrants: Vec<Entry>,
    /// The engine that answered the last run, its model and version.
    answered: Mutex<Option<(Engine, String, String)>>,
}

/// For complete enumeration and counting: the backtracker, the fastest
/// measured on the corpus, unless the board is past what it handles (then
/// the SAT engine).
fn complete_engine(puzzle: &Puzzle) -> Entry {
    if puzzle.len() > crate::engines::backtrack::MAX_TILES {
        Box::new(Sat::default())
    } else {
        Box::new(Backtrack::default())
    }
}

impl Auto {
    /// The portfolio: the SAT engine on one thread and the backtracker on
    /// the rest (at least one) race for first solutions.
    pub fn new() -> Auto {
        Auto::with(vec![
            Box::new(Sat::default()),
            Box::new(Backtrack::default()),
        ])
    }
}

impl Default for Auto {
    fn default() -> Self {
        Auto::new()
    }
}

impl Auto {
    /// A race of these entrants.
    pub fn with(entrants: Vec<Entry>) -> Auto {
        Auto {
            entrants,
            answered: Mutex::new(None),
        }
    }

    fn answered_by(&self, s: &dyn Solver) {
        *self.answered.lock().expect("not poisoned") =
            Some((s.engine(), s.model_name(), s.version()));
    }

    fn answered(&self) -> Option<(Engine, String, String)> {
        self.answered.lock().expect("not poisoned").clone()
    }
}

/// What an entrant tells the race.
enum Message {
    Board(usize, Vec<Placement>, Stands),
    Done(usize, Box<Result<SolverRun, SolveError>>, Duration),
}

/// An entrant's callback: its boards to the race; enough once the race
/// is decided.
struct Relay {
    index: usize,
    tx: mpsc::Sender<Message>,
    decided: Arc<AtomicBool>,
}

impl SolutionCallback for Relay {
    fn on_solution(&mut self, cells: &[Placement], stands: Stands) {
        let _ = self
            .tx
            .send(Message::Board(self.index, cells.to_vec(), stands));
    }
    fn enough(&self) -> bool {
        self.decided.load(Ordering::Relaxed)
    }
}

impl Solver for Auto {
    fn engine(&self) -> Engine {
        self.answered().map_or(Engine::Auto, |a| a.0)
    }
    fn version(&self) -> String {
        self.answered()
            .map_or_else(|| env!("CARGO_PKG_VERSION").into(), |a| a.2)
    }
    fn model_name(&self) -> String {
        self.answered().map_or_else(|| "race".into(), |a| a.1)
    }
    fn enumerate(
        &self,
        puzzle: &Puzzle,
        options: &SolveOptions,
        callback: &mut dyn SolutionCallback,
    ) -> Result<SolverRun, SolveError> {
        if options.limit.is_none() {
            let start = Instant::now();
            let complete = complete_engine(puzzle);
            let mut run = complete.enumerate(puzzle, options, callback)?;
            self.answered_by(complete.as_ref());
            run.stats.race = Some(vec![entrant(
                complete.as_ref(),
                &run,
                start.elapsed(),
                "chosen for a complete run",
            )]);
            return Ok(run);
        }
        self.race(puzzle, options, callback)
    }
}

fn entrant(s: &dyn Solver, run: &SolverRun, took: Duration, how: &str) -> Entrant {
    Entrant {
        engine: s.engine(),
        model: s.model_name(),
        ended: how.into(),
        wall_time_s: took.as_secs_f64(),
        stats: run.stats.clone(),
    }
}

impl Auto {
    /// First solutions: every entrant on its own thread; the first board
    /// decides the winner, whose boards alone reach `callback`.
    fn race(
        &self,
        puzzle: &Puzzle,
        options: &SolveOptions,
        callback: &mut dyn SolutionCallback,
    ) -> Result<SolverRun, SolveError> {
        let stop = StopToken::new();
        let decided = Arc::new(AtomicBool::new(false));
        let (tx, rx) = mpsc::channel();
        let mut winner: Option<usize> = None;
        let mut ends: Vec<Option<(Result<SolverRun, SolveError>, Duration)>> =
            (0..self.entrants.len()).map(|_| None).collect();
        std::thread::scope(|s| {
            let last = self.entrants.len() - 1;
            for (index, solver) in self.entrants.iter().enumerate() {
                let threads = if index == last {
                    options.threads.saturating_sub(last).max(1)
                } else {
                    1
                };
                let opts = SolveOptions {
                    threads,
                    stop: stop.clone(),
                    ..options.clone()
                };
                let mut relay = Relay {
                    index,
                    tx: tx.clone(),
                    decided: Arc::clone(&decided),
                };
                let tx = tx.clone();
                s.spawn(move || {
                    let start = Instant::now();
                    let run = solver.enumerate(puzzle, &opts, &mut relay);
                    let _ = tx.send(Message::Done(index, Box::new(run), start.elapsed()));
                });
            }
            drop(tx);
            let mut left = self.entrants.len();
            while left > 0 {
                // Ctrl-C reaches the entrants through the race's own stop.
                if options.stop.is_stopped() {
                    stop.stop();
                }
                let message = match rx.recv_timeout(Duration::from_millis(10)) {
                    Ok(m) => m,
                    Err(mpsc::RecvTimeoutError::Timeout) => continue,
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                };
                match message {
                    Message::Board(i, cells, stands) => {
                        if *winner.get_or_insert(i) == i && !decided.load(Ordering::Relaxed) {
                            callback.on_solution(&cells, stands);
                            if callback.enough() {
                                decided.store(true, Ordering::Relaxed);
                                stop.stop();
                            }
                        }
                    }
                    Message::Done(i, run, took) => {
                        let run = *run;
                        left -= 1;
                        // The first to finish its whole search without a
                        // board (no solution) answers too.
                        let complete = matches!(&run, Ok(r) if r.status == RunStatus::Complete);
                        if winner.is_none() && complete {
                            winner = Some(i);
                        }
                        if winner == Some(i) {
                            stop.stop();
                        }
                        ends[i] = Some((run, took));
                    }
                }
            }
        });
        self.result(ends, winner)
    }

    /// The winner's run, with every entrant's effort; without a winner,
    /// the first entrant's (all were stopped or failed).
    fn result(
        &self,
        ends: Vec<Option<(Result<SolverRun, SolveError>, Duration)>>,
        winner: Option<usize>,
    ) -> Result<SolverRun, SolveError> {
        let mut race = Vec::new();
        let mut answer = None;
        let mut error = None;
        for (i, end) in ends.into_iter().enumerate() {
            let solver = self.entrants[i].as_ref();
            let (run, took) = end.expect("every entrant ends");
            match run {
                Ok(run) => {
                    let how = if winner == Some(i) { "won" } else { "stopped" };
                    race.push(entrant(solver, &run, took, how));
                    if winner == Some(i) || (winner.is_none() && answer.is_none()) {
                        self.answered_by(solver);
                        answer = Some(run);
                    }
                }
                Err(e) => {
                    race.push(Entrant {
                        engine: solver.engine(),
                        model: solver.model_name(),
                        ended: format!("failed: {e}"),
                        wall_time_s: took.as_secs_f64(),
                        stats: Default::default(),
                    });
                    error.get_or_insert(e);
                }
            }
        }
        match answer {
            Some(mut run) => {
                run.stats.race = Some(race);
                Ok(run)
            }
            None => Err(error.expect("an entrant without a run failed")),
        }
    }
}

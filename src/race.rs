//! `--solver auto`: the engines together. For first solutions (`--limit`)
//! they race with the run's limits, and the first to report a board wins:
//! its boards go to the collector (which verifies them), the others are
//! stopped. The backtracker runs on all the run's threads from the start;
//! the other entrants join it, one thread each, after a head start in
//! which it answers most boards (docs/benchmarks.md, "SAT encodings and
//! the engines together"). For complete enumeration and counting one
//! engine is chosen by a rule measured on the corpus (the same section). Either way the result names the engine that
//! answered and the report lists every entrant's effort.
//!
//! A layer above the engines, since it is made of them (they never import
//! one another).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::board::Placement;
use crate::cancel::Cancel;
use crate::engines::backtrack::Backtrack;
use crate::engines::sat::Sat;
use crate::puzzle::Puzzle;
use crate::solve::kind::{Build, Built, EngineKind, NoArgs, not_searched_by};
use crate::solve::pool::{self, Event, Flow, Given, Jobs, Outbox, Shape};
use crate::solve::{
    Answer, Ended, Engine, Entrant, RunStatus, Searched, SolutionCallback, SolveError,
    SolveOptions, Solver, SolverRun, Stands, StopToken,
};

/// An engine that may run on a thread of its own.
pub type Entry = Box<dyn Solver + Send + Sync>;

/// The engines of `--solver auto`.
pub struct Auto {
    /// For first solutions: the entrants, each on one thread but the last,
    /// which gets all the run's threads and a head start.
    entrants: Vec<Entry>,
    /// How long the last entrant runs alone before the others start.
    head_start: Duration,
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

/// What a race that no engine answered names what it searched.
const RACE: &str = "race";

/// The race, for `crate::registry`: `--solver auto`.
pub struct Kind;

impl EngineKind for Kind {
    const NAME: &'static str = "auto";
    const ABOUT: &'static str = "the engines together: a race for first solutions (--limit), \
        the backtracker for complete runs; the result names the engine that answered";
    const COMPARED: bool = false;
    const REPORTS_SYMMETRY: bool = false;
    type Args = NoArgs;
    type Stats = NoStats;

    fn given(_: &NoArgs) -> Option<&'static str> {
        None
    }

    fn build(_: &NoArgs, _: &Build) -> Result<Vec<Built>, SolveError> {
        Ok(vec![Box::new(Auto::new())])
    }

    fn searched(text: &str) -> Result<Searched, String> {
        match text == RACE {
            true => Ok(Searched::new(RACE)),
            false => Err(not_searched_by(Self::NAME, text)),
        }
    }

    fn merge(_: Vec<NoStats>) -> NoStats {
        NoStats {}
    }
}

/// A race no engine answered has no counters of its own (its entrants'
/// are in the report's `race`).
#[derive(Default, serde::Serialize, serde::Deserialize)]
pub struct NoStats {}

/// The backtracker's head start: on the family benchmark it answers most
/// boards in less (docs/benchmarks.md, "SAT encodings and the engines together").
pub const HEAD_START: Duration = Duration::from_secs(1);

impl Auto {
    /// The portfolio: the backtracker on the run's threads, joined by the
    /// SAT engine on one thread more after [`HEAD_START`].
    pub fn new() -> Auto {
        Auto::with(
            vec![
                Box::new(Sat::default()),
                Box::new(Backtrack::first_solutions()),
            ],
            HEAD_START,
        )
    }
}

impl Default for Auto {
    fn default() -> Self {
        Auto::new()
    }
}

impl Auto {
    /// A race of these entrants, the last with a head start.
    pub fn with(entrants: Vec<Entry>, head_start: Duration) -> Auto {
        Auto {
            entrants,
            head_start,
        }
    }
}

/// `s` as the engine that answered a run.
fn answer(s: &dyn Solver) -> Answer {
    Answer {
        engine: s.engine(),
        searched: s.searched(),
        version: s.version(),
    }
}

/// What an entrant tells the race.
enum Message {
    Board(usize, Vec<Placement>, Stands),
    Done(usize, End),
}

/// How an entrant ended.
enum End {
    Ran(Box<Result<SolverRun, SolveError>>, Duration),
    /// The race was decided (or stopped) in the head start.
    NotStarted,
}

/// An entrant's callback: its boards to the race; enough once the race
/// is decided.
struct Relay<'a> {
    index: usize,
    tx: &'a Outbox<Message>,
    decided: &'a AtomicBool,
}

impl SolutionCallback for Relay<'_> {
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
    /// The race's own name: a run that an engine answered names that
    /// engine instead (`SolverRun::answered`).
    fn engine(&self) -> Engine {
        Engine::named(Kind::NAME)
    }
    fn searched(&self) -> Searched {
        Searched::new(RACE)
    }
    fn enumerate(
        &self,
        puzzle: &Puzzle,
        options: &SolveOptions,
        cancel: &Cancel,
        callback: &mut dyn SolutionCallback,
    ) -> Result<SolverRun, SolveError> {
        if options.limit.is_none() {
            let start = Instant::now();
            let complete = complete_engine(puzzle);
            let mut run = complete.enumerate(puzzle, options, cancel, callback)?;
            run.answered = Some(answer(complete.as_ref()));
            run.stats.race = Some(vec![entrant(
                complete.as_ref(),
                &run,
                start.elapsed(),
                Ended::Chosen,
            )]);
            return Ok(run);
        }
        self.race(puzzle, options, cancel, callback)
    }
}

fn entrant(s: &dyn Solver, run: &SolverRun, took: Duration, how: Ended) -> Entrant {
    Entrant {
        engine: s.engine(),
        model: s.searched(),
        ended: how,
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
        cancel: &Cancel,
        callback: &mut dyn SolutionCallback,
    ) -> Result<SolverRun, SolveError> {
        // The entrants' stop: the run's deadline, and a token of the race's
        // own, which the run's token (Ctrl-C) triggers too.
        let stop = StopToken::new();
        let own = Cancel::new(stop.clone(), cancel.deadline());
        let decided = AtomicBool::new(false);
        let mut winner: Option<usize> = None;
        let mut ends: Vec<Option<End>> = (0..self.entrants.len()).map(|_| None).collect();
        let start = Instant::now();
        let last = self.entrants.len() - 1;
        let shape = Shape {
            workers: self.entrants.len(),
            bound: None,
            tick: Some(Duration::from_millis(10)),
        };
        let entrant = |index: usize, _: &Jobs<()>, tx: &Outbox<Message>| {
            let (threads, wait) = if index == last {
                (options.threads.max(1), Duration::ZERO)
            } else {
                (1, self.head_start)
            };
            let opts = SolveOptions {
                threads,
                ..options.clone()
            };
            let mut relay = Relay {
                index,
                tx,
                decided: &decided,
            };
            while start.elapsed() < wait {
                if stop.is_stopped() {
                    tx.send(Message::Done(index, End::NotStarted));
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            let begun = Instant::now();
            let run = self.entrants[index].enumerate(puzzle, &opts, &own, &mut relay);
            tx.send(Message::Done(
                index,
                End::Ran(Box::new(run), begun.elapsed()),
            ));
        };
        pool::run(
            shape,
            Given::All(std::iter::empty()),
            entrant,
            |event, _| {
                // Ctrl-C reaches the entrants through the race's own stop.
                if cancel.token().is_stopped() {
                    stop.stop();
                }
                match event {
                    Event::Quiet => {}
                    Event::Message(Message::Board(i, cells, stands)) => {
                        if *winner.get_or_insert(i) == i && !decided.load(Ordering::Relaxed) {
                            callback.on_solution(&cells, stands);
                            if callback.enough() {
                                decided.store(true, Ordering::Relaxed);
                                stop.stop();
                            }
                        }
                    }
                    Event::Message(Message::Done(i, end)) => {
                        // The first to finish its whole search without a
                        // board (no solution) answers too.
                        let complete = matches!(&end, End::Ran(r, _)
                        if matches!(r.as_ref(), Ok(r) if r.status == RunStatus::Complete));
                        if winner.is_none() && complete {
                            winner = Some(i);
                        }
                        if winner == Some(i) {
                            stop.stop();
                        }
                        ends[i] = Some(end);
                    }
                }
                Flow::Listen
            },
        );
        self.result(ends, winner)
    }

    /// The winner's run, with every entrant's effort; without a winner,
    /// the first entrant's (all were stopped or failed).
    fn result(
        &self,
        ends: Vec<Option<End>>,
        winner: Option<usize>,
    ) -> Result<SolverRun, SolveError> {
        let mut race = Vec::new();
        let mut answered = None;
        let mut error = None;
        for (i, end) in ends.into_iter().enumerate() {
            let solver = self.entrants[i].as_ref();
            let (run, took) = match end.expect("every entrant ends") {
                End::Ran(run, took) => (*run, took),
                End::NotStarted => {
                    race.push(Entrant {
                        engine: solver.engine(),
                        model: solver.searched(),
                        ended: Ended::NotStarted,
                        wall_time_s: 0.0,
                        stats: Default::default(),
                    });
                    continue;
                }
            };
            match run {
                Ok(mut run) => {
                    let how = match winner == Some(i) {
                        true => Ended::Won,
                        false => Ended::Stopped,
                    };
                    race.push(entrant(solver, &run, took, how));
                    // Without a winner no engine answered: the run is the
                    // race's (its status and statistics the first
                    // entrant's), and the report names the race.
                    if winner == Some(i) {
                        run.answered = Some(answer(solver));
                        answered = Some(run);
                    } else if winner.is_none() && answered.is_none() {
                        answered = Some(run);
                    }
                }
                Err(e) => {
                    race.push(Entrant {
                        engine: solver.engine(),
                        model: solver.searched(),
                        ended: Ended::Failed(e.to_string()),
                        wall_time_s: took.as_secs_f64(),
                        stats: Default::default(),
                    });
                    error.get_or_insert(e);
                }
            }
        }
        match answered {
            Some(mut run) => {
                run.stats.race = Some(race);
                Ok(run)
            }
            None => Err(error.expect("an entrant without a run failed")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantOptions, Rng, plant};
    use crate::solve::{Outcome, run};

    fn planted() -> Puzzle {
        let options = PlantOptions {
            n: 4,
            motifs: 4,
            self_matching: false,
        };
        plant(&mut Rng::new(3), &options).0
    }

    /// The entrants' ends, and the engine the result names.
    fn first(auto: &Auto, threads: usize) -> (Vec<(&'static str, Ended)>, &'static str) {
        let options = SolveOptions {
            threads,
            limit: Some(1),
            ..SolveOptions::default()
        };
        let r = run(auto, &planted(), &options).unwrap();
        assert_eq!(
            r.outcome,
            Outcome::Incomplete(crate::solve::StopReason::Limit)
        );
        assert_eq!(r.counts.classes, 1);
        let race = r.stats.race.unwrap();
        let ends = race
            .into_iter()
            .map(|e| (e.engine.name(), e.ended))
            .collect();
        (ends, r.solver.name())
    }

    #[test]
    fn an_answer_within_the_head_start_leaves_the_others_unstarted() {
        let auto = Auto::with(
            vec![
                Box::new(Sat::default()),
                Box::new(Backtrack::first_solutions()),
            ],
            Duration::from_secs(3600),
        );
        for threads in [1, 2] {
            let (ends, answered) = first(&auto, threads);
            assert_eq!(ends[0], ("sat", Ended::NotStarted), "{ends:?}");
            assert_eq!(ends[1], ("backtrack", Ended::Won));
            assert_eq!(answered, "backtrack");
        }
    }

    #[test]
    fn without_a_head_start_every_entrant_runs() {
        // The SAT engine alone: it cannot lose a race of one.
        let auto = Auto::with(vec![Box::new(Sat::default())], Duration::ZERO);
        assert_eq!(first(&auto, 2), (vec![("sat", Ended::Won)], "sat"));
        let auto = Auto::with(
            vec![
                Box::new(Sat::default()),
                Box::new(Backtrack::first_solutions()),
            ],
            Duration::ZERO,
        );
        let (ends, _) = first(&auto, 1);
        assert!(
            ends.iter()
                .all(|(_, e)| matches!(e, Ended::Won | Ended::Stopped)),
            "{ends:?}"
        );
        assert_eq!(ends.iter().filter(|(_, e)| *e == Ended::Won).count(), 1);
    }
}

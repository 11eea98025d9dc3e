//! The enumeration: workers, each with its own CaDiCaL, take work units
//! (a placement of the first cell, assumed) and solve until their unit has
//! no model left, blocking each model's placements as they go; the
//! caller's thread hands every model to the callback.

use crate::solve::pool::{Jobs, Outbox};

use rustsat::solvers::{
    ControlSignal, GetInternalStats, Solve, SolveIncremental, SolverResult, Terminate,
};
use rustsat::types::{Lit, TernaryVal};
use rustsat_cadical::CaDiCaL;

use crate::board::Placement;
use crate::cancel::{Cancel, StopToken, Stopped};
use crate::puzzle::Puzzle;
use crate::solve::SolveError;

use super::cnf::Cnf;

/// What a worker tells the caller's thread.
pub(super) enum Event {
    /// A model, decoded (in the unit it was found in).
    Model { unit: usize, cells: Vec<Placement> },
    /// Every model of the unit was sent.
    UnitDone(usize),
    /// The worker stopped: its unit was not finished.
    Stopped(Stopped),
    /// CaDiCaL failed (out of memory, or an answer the binding rejects).
    Failed(SolveError),
}

/// What a worker's CaDiCaL counted, and its calls.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Effort {
    pub(super) conflicts: u64,
    pub(super) decisions: u64,
    pub(super) propagations: u64,
    pub(super) solves: u64,
}

/// Why a worker's CaDiCaL was told to stop, shared with its terminate
/// callback (which owns its own handle, so the solver can outlive the
/// worker's frame: see [`Worker::go`]).
#[derive(Clone, Default)]
struct Why(std::sync::Arc<std::sync::Mutex<Option<Stopped>>>);

impl Why {
    fn get(&self) -> Option<Stopped> {
        *self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
    fn set(&self, stop: Stopped, only_if_unset: bool) {
        let mut why = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if !only_if_unset || why.is_none() {
            *why = Some(stop);
        }
    }
}

/// CaDiCaL's terminate callback: the run's stop (Ctrl-C, the time limit)
/// and the caller's own (enough models, a worker's failure); why it
/// stopped is left in `why`.
fn watch(cancel: Cancel, halt: StopToken, why: Why) -> impl FnMut() -> ControlSignal + 'static {
    move || {
        if halt.is_stopped() {
            why.set(Stopped::Interrupted, true);
            return ControlSignal::Terminate;
        }
        // The clock is read at every call: CaDiCaL's own phases ask only
        // every 10th or 100th step of theirs (its "lucky" assignments on a
        // large CNF took seconds between two reads when every 64th call
        // read it), and a read costs tens of nanoseconds.
        if let Err(stop) = cancel.check() {
            why.set(stop, false);
            return ControlSignal::Terminate;
        }
        ControlSignal::Continue
    }
}

/// A DIMACS literal as the binding takes it (the CNF numbers its
/// variables from 1, so none is 0).
fn lit(l: i32) -> Lit {
    Lit::from_ipasir(l).expect("the CNF's literals are non-zero")
}

/// CaDiCaL's error as the run's.
fn failed(e: impl std::fmt::Display) -> SolveError {
    SolveError::Runtime(format!("CaDiCaL: {e:#}").into())
}

/// One worker's share of the run.
pub(super) struct Worker<'a> {
    pub(super) puzzle: &'a Puzzle,
    pub(super) cnf: &'a Cnf,
    /// The units' assumptions (an empty list: the whole problem).
    pub(super) units: &'a [Vec<i32>],
    pub(super) jobs: &'a Jobs<usize>,
    pub(super) cancel: Cancel,
    pub(super) halt: StopToken,
    /// Only one model is wanted (`--limit 1`).
    pub(super) first_only: bool,
}

impl Worker<'_> {
    /// Take units until none is left or the run stops.
    pub(super) fn go(&self, events: &Outbox<Event>) -> Effort {
        let why = Why::default();
        let mut sat: CaDiCaL<'static, 'static> = CaDiCaL::default();
        let mut effort = Effort::default();
        let outcome = self
            .configure(&mut sat)
            .and_then(|()| self.load(&mut sat))
            .and_then(|()| {
                sat.attach_terminator(watch(self.cancel.clone(), self.halt.clone(), why.clone()));
                self.units(&mut sat, events, &why, &mut effort.solves)
            })
            .err();
        effort.conflicts = sat.conflicts() as u64;
        effort.decisions = sat.decisions() as u64;
        effort.propagations = sat.propagations() as u64;
        match outcome {
            Some(Stop::Stopped(stop)) => {
                // Freeing a large CNF's solver takes a good part of a
                // second on Eternity II's clauses: a stopped run
                // leaves it to a thread of its own, so that the stop is
                // not held up by it.
                std::thread::spawn(move || drop(sat));
                events.send(Event::Stopped(stop));
            }
            Some(Stop::Failed(e)) => {
                events.send(Event::Failed(e));
            }
            None => {}
        }
        effort
    }

    /// CaDiCaL's options for this run. Its "lucky" phases (a few fixed
    /// assignments tried before the search) run before every solve: a
    /// run that wants many models solves thousands of times, and they
    /// made enumerating the small Legespiel puzzles slower than without
    /// (docs/sat.md). A first solution keeps them.
    fn configure(&self, sat: &mut CaDiCaL) -> Result<(), Stop> {
        // Congruence closure (gate extraction before the first search)
        // looks at the stop only between its stages: on Eternity II's
        // clauses it ran seconds past a time limit (the puzzles' clauses
        // hold no gates worth finding; docs/sat.md, "Limits"). Its light
        // preprocessing (fast elimination, backbones) before the first
        // search likewise, on a 16x16.
        for option in ["congruence", "preprocesslight"] {
            sat.set_option(option, 0)
                .map_err(|e| Stop::Failed(failed(e)))?;
        }
        if !self.first_only {
            sat.set_option("lucky", 0)
                .map_err(|e| Stop::Failed(failed(e)))?;
        }
        Ok(())
    }

    /// Hand the CNF to CaDiCaL. Millions of clauses take seconds: the
    /// run's limits hold here too.
    fn load(&self, sat: &mut CaDiCaL) -> Result<(), Stop> {
        // No `reserve` of every variable up front: on a 32x32 board that
        // one call zeroed gigabytes for seconds, past any limit; grown as
        // the clauses come, the same memory is taken between the checks
        // below (first solutions as fast either way), every 4,096 clauses
        // (16 times fewer checks let a 32x32 run past its limit).
        let mut lits = Vec::new();
        for (k, clause) in self.cnf.each_clause().enumerate() {
            if k % 4_096 == 0 {
                self.cancel.check().map_err(Stop::Stopped)?;
            }
            lits.clear();
            lits.extend(clause.iter().map(|&l| lit(l)));
            sat.add_clause_ref(lits.as_slice())
                .map_err(|e| Stop::Failed(failed(e)))?;
        }
        Ok(())
    }

    /// Take units until none is left.
    fn units(
        &self,
        sat: &mut CaDiCaL,
        events: &Outbox<Event>,
        why: &Why,
        solves: &mut u64,
    ) -> Result<(), Stop> {
        while let Some(unit) = self.jobs.next() {
            self.unit(sat, unit, events, why, solves)?;
        }
        Ok(())
    }

    /// Every model of one unit, each sent and blocked.
    fn unit(
        &self,
        sat: &mut CaDiCaL,
        unit: usize,
        events: &Outbox<Event>,
        why: &Why,
        solves: &mut u64,
    ) -> Result<(), Stop> {
        let assumptions: Vec<Lit> = self.units[unit].iter().map(|&l| lit(l)).collect();
        loop {
            self.cancel.check().map_err(Stop::Stopped)?;
            if self.halt.is_stopped() {
                return Err(Stop::Stopped(Stopped::Interrupted));
            }
            *solves += 1;
            match sat
                .solve_assumps(&assumptions)
                .map_err(|e| Stop::Failed(failed(e)))?
            {
                SolverResult::Sat => {
                    let (cells, block) = self.decode(sat).map_err(Stop::Failed)?;
                    sat.add_clause_ref(block.as_slice())
                        .map_err(|e| Stop::Failed(failed(e)))?;
                    if !events.send(Event::Model { unit, cells }) {
                        return Err(Stop::Stopped(Stopped::Interrupted));
                    }
                }
                SolverResult::Unsat => {
                    let _ = events.send(Event::UnitDone(unit));
                    return Ok(());
                }
                SolverResult::Interrupted => {
                    return Err(Stop::Stopped(why.get().unwrap_or(Stopped::Interrupted)));
                }
            }
        }
    }

    /// The model's board (identical tiles of a kind given out in cell
    /// order, each other than the kind's first in the first rotation that
    /// shows the placement's edges) and the
    /// clause that blocks its placements.
    fn decode(&self, sat: &CaDiCaL) -> Result<(Vec<Placement>, Vec<Lit>), SolveError> {
        let mut given = vec![0usize; self.cnf.pieces.len()];
        let mut cells = Vec::with_capacity(self.cnf.cells.len());
        let mut block = Vec::with_capacity(self.cnf.cells.len());
        for choices in &self.cnf.cells {
            let mut held = None;
            for ch in choices {
                if sat.lit_val(lit(ch.var)).map_err(failed)? == TernaryVal::True {
                    held = Some(ch);
                    break;
                }
            }
            let ch = held.expect("every cell holds a placement in a model");
            block.push(!lit(ch.var));
            let members = &self.cnf.pieces[ch.piece].members;
            let (rep, tile) = (members[0], members[given[ch.piece]]);
            given[ch.piece] += 1;
            let edges = |k: usize, r: u8| {
                let t = &self.puzzle.tiles()[k];
                [0, 1, 2, 3].map(|e| t.edge(r, e))
            };
            let rotation = if tile == rep {
                ch.rotation
            } else {
                let want = edges(rep, ch.rotation);
                self.puzzle
                    .rotations()
                    .find(|&r| edges(tile, r) == want)
                    .expect("a kind's members show its edges")
            };
            cells.push(Placement {
                tile: self.puzzle.tiles()[tile].id,
                rotation,
            });
        }
        Ok((cells, block))
    }
}

/// Why a worker ended before its units did.
enum Stop {
    Stopped(Stopped),
    Failed(SolveError),
}

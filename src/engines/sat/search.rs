//! The enumeration: workers, each with its own CaDiCaL, take work units
//! (a placement of the first cell, assumed) and solve until their unit has
//! no model left, blocking each model's placements as they go; the
//! caller's thread hands every model to the callback.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use crate::board::Placement;
use crate::cancel::{Cancel, StopToken, Stopped};
use crate::puzzle::Puzzle;

use super::cnf::Cnf;

/// What a worker tells the caller's thread.
pub(super) enum Event {
    /// A model, decoded (in the unit it was found in).
    Model { unit: usize, cells: Vec<Placement> },
    /// Every model of the unit was sent.
    UnitDone(usize),
    /// The worker stopped: its unit was not finished.
    Stopped(Stopped),
}

/// What a worker counted.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Effort {
    pub(super) learned: u64,
    pub(super) solves: u64,
}

/// The run's stop (Ctrl-C, the time limit) and the caller's own (enough
/// models, a worker's failure), as CaDiCaL's terminate callback sees them.
struct Watch {
    cancel: Cancel,
    halt: StopToken,
    calls: u32,
    why: Option<Stopped>,
    learned: u64,
}

impl cadical::Callbacks for Watch {
    fn terminate(&mut self) -> bool {
        if self.halt.is_stopped() {
            self.why.get_or_insert(Stopped::Interrupted);
            return true;
        }
        // The clock is read every 64th call: CaDiCaL asks once per step.
        self.calls = self.calls.wrapping_add(1);
        if self.calls.is_multiple_of(64)
            && let Err(why) = self.cancel.check()
        {
            self.why = Some(why);
            return true;
        }
        false
    }

    fn max_length(&self) -> i32 {
        i32::MAX
    }

    fn learn(&mut self, _clause: &[i32]) {
        self.learned += 1;
    }
}

/// One worker's share of the run.
pub(super) struct Worker<'a> {
    pub(super) puzzle: &'a Puzzle,
    pub(super) cnf: &'a Cnf,
    /// The units' assumptions (an empty list: the whole problem).
    pub(super) units: &'a [Vec<i32>],
    /// Which units to run.
    pub(super) run: &'a [bool],
    pub(super) next: &'a AtomicUsize,
    pub(super) cancel: Cancel,
    pub(super) halt: StopToken,
}

impl Worker<'_> {
    /// Take units until none is left or the run stops.
    pub(super) fn go(&self, events: &mpsc::Sender<Event>) -> Effort {
        let mut sat: cadical::Solver<Watch> = cadical::Solver::new();
        sat.reserve(self.cnf.vars);
        // Handing over millions of clauses takes seconds: the run's limits
        // hold here too.
        for (k, clause) in self.cnf.each_clause().enumerate() {
            if k % 65_536 == 0
                && let Err(why) = self.cancel.check()
            {
                let _ = events.send(Event::Stopped(why));
                return Effort::default();
            }
            sat.add_clause(clause.iter().copied());
        }
        sat.set_callbacks(Some(Watch {
            cancel: self.cancel.clone(),
            halt: self.halt.clone(),
            calls: 0,
            why: None,
            learned: 0,
        }));
        let mut solves = 0;
        loop {
            let unit = self.next.fetch_add(1, Ordering::Relaxed);
            if unit >= self.units.len() {
                break;
            }
            if !self.run[unit] {
                continue;
            }
            if let Err(why) = self.unit(&mut sat, unit, events, &mut solves) {
                let _ = events.send(Event::Stopped(why));
                break;
            }
        }
        Effort {
            learned: sat.get_callbacks().map_or(0, |w| w.learned),
            solves,
        }
    }

    /// Every model of one unit, each sent and blocked.
    fn unit(
        &self,
        sat: &mut cadical::Solver<Watch>,
        unit: usize,
        events: &mpsc::Sender<Event>,
        solves: &mut u64,
    ) -> Result<(), Stopped> {
        let assumptions = &self.units[unit];
        loop {
            self.cancel.check()?;
            if self.halt.is_stopped() {
                return Err(Stopped::Interrupted);
            }
            *solves += 1;
            match sat.solve_with(assumptions.iter().copied()) {
                Some(true) => {
                    let (cells, block) = self.decode(sat);
                    sat.add_clause(block);
                    if events.send(Event::Model { unit, cells }).is_err() {
                        return Err(Stopped::Interrupted);
                    }
                }
                Some(false) => {
                    let _ = events.send(Event::UnitDone(unit));
                    return Ok(());
                }
                None => {
                    let why = sat.get_callbacks().and_then(|w| w.why);
                    return Err(why.unwrap_or(Stopped::Interrupted));
                }
            }
        }
    }

    /// The model's board (identical tiles of a kind given out in cell
    /// order, each other than the kind's first in the first rotation that
    /// shows the placement's edges) and the
    /// clause that blocks its placements.
    fn decode(&self, sat: &cadical::Solver<Watch>) -> (Vec<Placement>, Vec<i32>) {
        let mut given = vec![0usize; self.cnf.pieces.len()];
        let mut cells = Vec::with_capacity(self.cnf.cells.len());
        let mut block = Vec::with_capacity(self.cnf.cells.len());
        for choices in &self.cnf.cells {
            let ch = choices
                .iter()
                .find(|ch| sat.value(ch.var) == Some(true))
                .expect("every cell holds a placement in a model");
            block.push(-ch.var);
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
        (cells, block)
    }
}

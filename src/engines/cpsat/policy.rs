//! What the enumeration does with a finished subproblem: a pure function of
//! how it ended and what the run knows, so every path is unit-tested
//! without CP-SAT (enumerate.rs carries the decision out).

use crate::solve::StopReason;

use super::ceiling::{AfterStop, Slots};

/// How a subproblem's solve ended, as the policy sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum End {
    /// Searched to the end.
    Complete,
    /// Stopped before the end (its slice, the ceiling, a limit).
    Stopped,
    /// Not started: the run was stopping.
    Skipped,
    /// CP-SAT rejected the model.
    Invalid,
}

/// A finished subproblem and the run around it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Finished {
    pub(super) end: End,
    /// Its solution pool filled up.
    pub(super) full: bool,
    /// Its time slice (not the run's limit) stopped it.
    pub(super) slice_expired: bool,
    /// The memory ceiling stopped it.
    pub(super) at_ceiling: bool,
    /// It branched or found a solution before it ended.
    pub(super) searched: bool,
    /// It may be split: adaptive, with cells left to fix.
    pub(super) can_split: bool,
    /// It is the whole model's try (`--split auto`, depth 0), in an
    /// encoding whose parts each pay about the whole model's presolve
    /// (`edge`; not `table`, whose parts presolve far faster).
    pub(super) whole: bool,
    /// The process is past the ceiling with no solve of the run running.
    pub(super) still_over: bool,
    /// The run is already stopping (a limit, Ctrl-C, an error).
    pub(super) stopping: bool,
    /// The run has a time limit.
    pub(super) has_deadline: bool,
}

/// What to do with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Next {
    /// Finished: its solutions are all of its part.
    Done,
    /// Cut into the next cell's placements, each a subproblem.
    Split,
    /// The whole model's try again, with twice the slice: its slice ended
    /// in its presolve, which every part would pay again.
    Longer,
    /// Solved again later (stopped at the ceiling before it searched, with
    /// other solves running).
    Retry,
    /// The pool of an unsplit solve filled: some solutions may be lost.
    PoolFull,
    /// The whole run stops, incomplete, for this reason.
    Stop(StopReason),
    /// Its part is not finished (the run was already stopping).
    Unfinished,
    /// CP-SAT rejected the model: the run stops with its message.
    Invalid,
}

/// The policy. A stop at the ceiling also takes a slot from `slots`.
pub(super) fn next(f: &Finished, slots: &mut Slots) -> Next {
    let after_ceiling = (f.at_ceiling && !f.stopping)
        .then(|| slots.after_stop(f.searched, f.can_split, f.still_over));
    if after_ceiling == Some(AfterStop::Retry) {
        return Next::Retry;
    }
    if f.whole && f.end == End::Stopped && f.slice_expired && !f.searched && !f.stopping {
        return Next::Longer;
    }
    let split = f.can_split
        && !f.stopping
        && match f.end {
            End::Complete => f.full,
            End::Stopped => f.slice_expired || after_ceiling == Some(AfterStop::Split),
            End::Skipped | End::Invalid => false,
        };
    if split {
        return Next::Split;
    }
    match f.end {
        End::Complete if f.full => Next::PoolFull,
        End::Complete => Next::Done,
        // One solve alone passes the ceiling before it searches, or the run
        // does with none running: nothing deeper would fit either.
        End::Stopped if after_ceiling == Some(AfterStop::Stop) => {
            Next::Stop(StopReason::MemoryLimit)
        }
        // CP-SAT's own limit (the time left) ended it, a moment before the
        // coordinator saw the deadline.
        End::Stopped if !f.stopping && f.has_deadline => Next::Stop(StopReason::TimeLimit),
        End::Stopped | End::Skipped => Next::Unfinished,
        End::Invalid => Next::Invalid,
    }
}

/// The parts of a run whose whole model is solved beside them, as the
/// coordinator sees them.
#[derive(Clone, Copy, Debug)]
pub(super) struct Race {
    /// Seconds the whole model's solve has run.
    pub(super) whole_s: f64,
    /// The share of the tree the parts have finished (a split part's
    /// share is finished with its last part), and the seconds all ended
    /// parts took, split ones included.
    pub(super) parts_done: f64,
    pub(super) parts_s: f64,
    /// Parts queued or running.
    pub(super) parts_left: usize,
    /// Solves that can run at once, the whole model's among them.
    pub(super) workers: usize,
}

/// How many times the parts' projected rest the whole model's solve may
/// run before it gives its worker to them.
const RACE_FACTOR: f64 = 2.0;

/// Whether the whole model's solve keeps its worker: until it has run
/// twice as long as the parts left would take on every worker at the pace
/// the parts have kept (their seconds per share of the tree finished).
/// On two workers, with W the whole solve and E the parts' seconds in all,
/// it is stopped at k = E/2 (the parts went on beside it):
/// the run takes W if W <= k, else k + (E - k)/2, at most 1.5 times the
/// better of W and E/2 (ski rental with the parts' own progress; a factor
/// of 1 would allow 2 times, danger-puzzle's `table` model lost 2.1x so).
/// Before any part has ended nothing is known: it keeps running.
pub(super) fn keep_whole(r: &Race) -> bool {
    if r.parts_left == 0 {
        return false;
    }
    if r.parts_done <= 0.0 {
        return true;
    }
    let left = (1.0 - r.parts_done).max(0.0);
    let rest = r.parts_s * left / r.parts_done / r.workers.max(1) as f64;
    r.whole_s < RACE_FACTOR * rest
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finished(end: End) -> Finished {
        Finished {
            end,
            full: false,
            slice_expired: false,
            at_ceiling: false,
            searched: true,
            can_split: true,
            whole: false,
            still_over: false,
            stopping: false,
            has_deadline: false,
        }
    }

    fn run(f: Finished) -> Next {
        next(&f, &mut Slots::new(2))
    }

    #[test]
    fn a_complete_part_is_done_unless_its_pool_filled() {
        assert_eq!(run(finished(End::Complete)), Next::Done);
        let full = Finished {
            full: true,
            ..finished(End::Complete)
        };
        assert_eq!(run(full), Next::Split);
        // Unsplittable (`--split none`, or every cell fixed): lost solutions.
        let unsplittable = Finished {
            can_split: false,
            ..full
        };
        assert_eq!(run(unsplittable), Next::PoolFull);
        // A stopping run splits nothing.
        assert_eq!(
            run(Finished {
                stopping: true,
                ..full
            }),
            Next::PoolFull
        );
    }

    #[test]
    fn an_expired_slice_splits_and_the_run_s_own_limit_stops() {
        let expired = Finished {
            slice_expired: true,
            ..finished(End::Stopped)
        };
        assert_eq!(run(expired), Next::Split);
        // Stopped, not by its slice, in a run with a time limit: CP-SAT's
        // own limit came first.
        let timed = Finished {
            has_deadline: true,
            ..finished(End::Stopped)
        };
        assert_eq!(run(timed), Next::Stop(StopReason::TimeLimit));
        // Without a limit, or once the run is stopping: just unfinished.
        assert_eq!(run(finished(End::Stopped)), Next::Unfinished);
        let stopping = Finished {
            stopping: true,
            ..timed
        };
        assert_eq!(run(stopping), Next::Unfinished);
        assert_eq!(run(finished(End::Skipped)), Next::Unfinished);
        assert_eq!(run(finished(End::Invalid)), Next::Invalid);
    }

    #[test]
    fn a_whole_model_still_presolving_at_its_slice_gets_a_longer_one() {
        let presolving = Finished {
            slice_expired: true,
            searched: false,
            whole: true,
            ..finished(End::Stopped)
        };
        assert_eq!(run(presolving), Next::Longer);
        // Once it has searched, or for a part, the slice splits it.
        let searched = Finished {
            searched: true,
            ..presolving
        };
        assert_eq!(run(searched), Next::Split);
        let part = Finished {
            whole: false,
            ..presolving
        };
        assert_eq!(run(part), Next::Split);
        // A run that is stopping tries nothing again.
        let stopping = Finished {
            stopping: true,
            ..presolving
        };
        assert_eq!(run(stopping), Next::Unfinished);
    }

    #[test]
    fn the_ceiling_splits_retries_or_stops_and_takes_a_slot_each_time() {
        let at_ceiling = Finished {
            at_ceiling: true,
            ..finished(End::Stopped)
        };
        let mut slots = Slots::new(3);
        // It searched: its parts start afresh, one solve fewer at a time.
        assert_eq!(next(&at_ceiling, &mut slots), Next::Split);
        assert_eq!(slots.get(), 2);
        // It had not searched, others run: again later.
        let early = Finished {
            searched: false,
            ..at_ceiling
        };
        assert_eq!(next(&early, &mut slots), Next::Retry);
        assert_eq!(slots.get(), 1);
        // Alone and not searched: nothing smaller fits.
        assert_eq!(
            next(&early, &mut slots),
            Next::Stop(StopReason::MemoryLimit)
        );
        // Past the ceiling with nothing running: the run's own memory is
        // too much for any part.
        let over = Finished {
            still_over: true,
            ..at_ceiling
        };
        assert_eq!(
            next(&over, &mut Slots::new(4)),
            Next::Stop(StopReason::MemoryLimit)
        );
        // A run already stopping does not count the ceiling.
        let mut slots = Slots::new(2);
        let stopping = Finished {
            stopping: true,
            ..at_ceiling
        };
        assert_eq!(next(&stopping, &mut slots), Next::Unfinished);
        assert_eq!(slots.get(), 2);
    }

    #[test]
    fn the_whole_model_runs_until_the_parts_left_are_shorter() {
        let race = Race {
            whole_s: 1.0,
            parts_done: 0.1,
            parts_s: 1.0,
            parts_left: 100,
            workers: 2,
        };
        // A tenth of the tree in 1 s: 9 s left, 4.5 s on two workers,
        // so the whole model may run 9 s.
        assert!(keep_whole(&race));
        assert!(keep_whole(&Race {
            whole_s: 8.9,
            ..race
        }));
        assert!(!keep_whole(&Race {
            whole_s: 9.1,
            ..race
        }));
        // Nothing finished yet: it runs; nothing left: it stops.
        assert!(keep_whole(&Race {
            parts_done: 0.0,
            parts_s: 0.0,
            whole_s: 100.0,
            ..race
        }));
        assert!(!keep_whole(&Race {
            parts_left: 0,
            ..race
        }));
    }
}

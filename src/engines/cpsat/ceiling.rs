//! A ceiling on the memory a CP-SAT run adds to its process.
//!
//! The ceiling belongs to the run, not to the process: a run reads the
//! process's resident memory when it starts, and the ceiling is that much
//! plus its allowance (half the memory available at the start unless
//! `--memory-limit` says otherwise, [`crate::cancel::default_allowance`]). So a
//! solve inside a process that already holds gigabytes (a notebook, a test
//! binary) gets the same allowance as one from the command line
//! (docs/model.md, "Memory ceiling", says why this mechanism and not
//! CP-SAT's own `max_memory_in_mb`).
//!
//! A solve's own state grows while it searches (a 16x16 `edge` subproblem
//! by half again within a minute, docs/log.md), and the slices double with
//! depth, so without a
//! ceiling a long run's memory had no bound. When the process's resident
//! memory passes the ceiling, every running solve is asked to stop and is
//! waited for (its state is freed when it returns). Then, for each:
//!
//! - one that searched and can be split is split, as if its slice had
//!   expired: its parts start with a fresh state;
//! - one that cannot (it had not searched, still presolving while another
//!   one grew, or has no cell left to fix) is solved again later if other
//!   solves were running;
//! - if it ran alone, nothing smaller would fit: the enumeration stops,
//!   incomplete (`memory_limit`), with what it found.
//!
//! Each stop also runs one solve fewer at a time from then on, so that
//! solves which together pass the ceiling end up one at a time. The first
//! solutions (`--limit`, one solve with every worker) have nothing to split
//! into: a solve stopped at the ceiling ends them as `memory_limit`.

use crate::cancel::resident_bytes;

/// What CP-SAT holds per byte of the model it is given, once it has
/// loaded and presolved it (before its search grows): the largest factor
/// measured on generated 8x8 to 16x16 boards and Eternity II with every CP
/// model (docs/log.md). The largest is taken: a model that passes this
/// check fits, where a smaller factor let a 16x16 `edge-boolean` model
/// pass its limit.
const LOAD_PER_MODEL_BYTE: u64 = 25;

/// None if CP-SAT can load a model of `model_bytes` without the process
/// passing the run's `ceiling` (what it holds now plus
/// [`LOAD_PER_MODEL_BYTE`] per byte), or else what the run would need
/// (bytes over what the process held at its start, `start`). CP-SAT does
/// not look at a stop request while it loads and presolves a large model
/// (a 16x16 `edge-boolean` model grew the process by a gigabyte,
/// unstoppable), so a model that cannot fit is not given to it.
pub(crate) fn past(model_bytes: usize, ceiling: u64, start: u64) -> Option<u64> {
    let need = (model_bytes as u64).saturating_mul(LOAD_PER_MODEL_BYTE);
    let held = resident_bytes()?;
    (held.saturating_add(need) > ceiling).then(|| held.saturating_add(need).saturating_sub(start))
}

/// Whether the process is past `ceiling`.
pub(crate) fn over(ceiling: u64) -> bool {
    resident_bytes().is_some_and(|b| b > ceiling)
}

/// Looks at the memory while one solve runs, and remembers whether it was
/// ever past the ceiling.
pub(crate) struct Watch {
    ceiling: u64,
    passed: std::cell::Cell<bool>,
}

impl Watch {
    pub(crate) fn new(ceiling: u64) -> Watch {
        Watch {
            ceiling,
            passed: std::cell::Cell::new(false),
        }
    }

    /// Whether the process is past the ceiling now.
    pub(crate) fn check(&self) -> bool {
        let over = over(self.ceiling);
        if over {
            self.passed.set(true);
        }
        over
    }

    /// Whether it was past the ceiling at any check.
    pub(crate) fn passed(&self) -> bool {
        self.passed.get()
    }
}

/// What becomes of a subproblem stopped at the ceiling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AfterStop {
    /// Split it one cell deeper, as if its slice had expired.
    Split,
    /// Solve it again, with fewer solves at once.
    Retry,
    /// Stop the enumeration: one solve alone passes the ceiling.
    Stop,
}

/// How many solves may run at once; fewer after each stop at the ceiling.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slots(usize);

impl Slots {
    pub(crate) fn new(n: usize) -> Slots {
        Slots(n.max(1))
    }

    pub(crate) fn get(self) -> usize {
        self.0
    }

    /// A subproblem was stopped at the ceiling: whether it had `searched`
    /// (branched or found a solution), `can_split` (is adaptive and leaves
    /// cells free), and whether the process is `still_over` the ceiling
    /// with no solve of the run left running (what the run holds outside
    /// its solves, its model, passes the ceiling alone: no part, however
    /// small, would fit). One slot fewer from now on.
    pub(crate) fn after_stop(
        &mut self,
        searched: bool,
        can_split: bool,
        still_over: bool,
    ) -> AfterStop {
        let alone = self.0 == 1;
        self.0 = (self.0 - 1).max(1);
        match (searched && can_split, alone) {
            _ if still_over => AfterStop::Stop,
            (true, _) => AfterStop::Split,
            (false, false) => AfterStop::Retry,
            (false, true) => AfterStop::Stop,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resident_memory_is_read_and_grows_with_touched_pages() {
        let read = resident_bytes();
        if cfg!(not(target_os = "linux")) {
            return;
        }
        let before = read.expect("VmRSS readable on Linux");
        assert!(before > 1 << 20, "{before}");
        // 64 MB written page by page must show up as resident (whatever
        // other tests free meanwhile).
        let block = std::hint::black_box(vec![1u8; 64 << 20]);
        let after = resident_bytes().unwrap();
        assert!(after >= 64 << 20, "{before} -> {after}");
        assert!(over(before / 2) && !over(u64::MAX));
        let watch = Watch::new(u64::MAX);
        assert!(!watch.check() && !watch.passed());
        let watch = Watch::new(1);
        assert!(!watch.passed() && watch.check() && watch.passed());
        drop(std::hint::black_box(block));
    }

    #[test]
    fn a_stopped_search_is_split_and_a_lone_presolve_stops_the_run() {
        let mut slots = Slots::new(2);
        // Another solve was running: retry later, one at a time from now.
        assert_eq!(slots.after_stop(false, true, false), AfterStop::Retry);
        assert_eq!(slots.get(), 1);
        // It searched: its parts start afresh.
        assert_eq!(slots.after_stop(true, true, false), AfterStop::Split);
        assert_eq!(slots.get(), 1);
        // Alone and never searched, or nothing left to split: give up.
        assert_eq!(slots.after_stop(false, true, false), AfterStop::Stop);
        assert_eq!(slots.after_stop(true, false, false), AfterStop::Stop);
        assert_eq!(Slots::new(0).get(), 1);
    }

    #[test]
    fn a_run_over_its_ceiling_with_no_solve_running_stops() {
        // Its parts would be smaller, but what the run holds besides its
        // solves already passes the ceiling.
        for slots in [1, 2, 4] {
            let mut s = Slots::new(slots);
            assert_eq!(s.after_stop(true, true, true), AfterStop::Stop);
            assert_eq!(s.after_stop(false, true, true), AfterStop::Stop);
        }
    }

    #[test]
    fn every_stop_takes_a_slot_down_to_one() {
        let mut slots = Slots::new(4);
        for want in [3, 2, 1, 1] {
            assert_eq!(slots.after_stop(true, true, false), AfterStop::Split);
            assert_eq!(slots.get(), want);
        }
    }
}

//! The enumeration coordinator's books (enumerate.rs): the queue of
//! subproblems, what is in flight, the sums of their statistics, and why
//! the run stops; each finished subproblem is taken in and the split
//! policy's answer (policy.rs) followed.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::Ordering;
use std::time::Instant;

use crate::solve::{Progress, RunStatus, SolutionCallback, SolverStats, StopReason};

use super::ceiling::{self, Slots};
use super::jobs::{Job, split_job};
use super::policy::{self, End, Finished, Next};
use super::run::Run;
use super::slices::Outcome;
use super::subproblem::{Ended, JobResult, Shared};

/// The coordinator's books: the queue, what is in flight, the sums, and
/// why it stops.
pub(super) struct Books {
    pub(super) queue: VecDeque<Job>,
    /// Per work unit, its jobs not yet ended (a split job's parts count).
    pub(super) outstanding: HashMap<usize, usize>,
    pub(super) stats: super::kind::Stats,
    pub(super) stop_reason: Option<StopReason>,
    pub(super) incomplete: bool,
    pub(super) invalid: Option<String>,
    pub(super) progress: Progress,
    pub(super) in_flight: usize,
    pub(super) slots: Slots,
    /// The whole model's solve beside its parts, if the run races them.
    pub(super) race: Option<RaceBooks>,
    /// The whole model's solve completed: every solution is in, what is
    /// still running is stopped and only handed on.
    pub(super) covered: bool,
}

/// What the coordinator knows of a race between the whole model and its
/// parts.
pub(super) struct RaceBooks {
    pub(super) started: Instant,
    /// The whole model's solve has not returned.
    pub(super) running: bool,
    pub(super) parts_done: f64,
    pub(super) parts_s: f64,
}

impl RaceBooks {
    pub(super) fn new() -> RaceBooks {
        RaceBooks {
            started: Instant::now(),
            running: true,
            parts_done: 0.0,
            parts_s: 0.0,
        }
    }
}

impl Books {
    /// The books of a run starting with `queue`.
    pub(super) fn new(
        queue: VecDeque<Job>,
        outstanding: HashMap<usize, usize>,
        stats: super::kind::Stats,
        threads: usize,
        race: bool,
    ) -> Books {
        Books {
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
            race: race.then(RaceBooks::new),
            covered: false,
        }
    }

    /// Ctrl-C or the deadline: stop every solve.
    pub(super) fn look_at_limits(&mut self, run: &Run, shared: &Shared) {
        if self.stop_reason.is_some() {
            return;
        }
        if let Err(why) = run.cancel.check() {
            self.stop_reason = Some(why.into());
            shared.stop_all();
        }
    }

    /// In a race, stop the whole model's solve once the parts left would
    /// take less than it has run (policy.rs, `keep_whole`).
    pub(super) fn referee(&mut self, shared: &Shared) {
        let Some(race) = &self.race else { return };
        if !race.running || shared.whole_stop.load(Ordering::SeqCst) {
            return;
        }
        let r = policy::Race {
            whole_s: race.started.elapsed().as_secs_f64(),
            parts_done: race.parts_done,
            parts_s: race.parts_s,
            parts_left: (self.queue.len() + self.in_flight).saturating_sub(1),
            workers: self.slots.get(),
        };
        if !policy::keep_whole(&r) {
            shared.whole_stop.store(true, Ordering::SeqCst);
        }
    }

    /// One subproblem's result: its sums, its solutions handed on, and
    /// what the split policy says comes next.
    pub(super) fn take(
        &mut self,
        r: JobResult,
        run: &Run,
        shared: &Shared,
        callback: &mut dyn SolutionCallback,
    ) {
        self.in_flight -= 1;
        let stats = &mut self.stats;
        *stats.branches.as_mut().unwrap() += r.branches;
        *stats.conflicts.as_mut().unwrap() += r.conflicts;
        *stats.wall_time_s.as_mut().unwrap() += r.wall_time;
        if !matches!(r.ended, Ended::Skipped) {
            *stats.subproblems.as_mut().unwrap() += 1;
        }
        if r.job.beside || self.covered {
            self.take_raced(r, run, shared, callback);
            return;
        }
        if let Some(race) = &mut self.race
            && !matches!(r.ended, Ended::Skipped)
        {
            race.parts_s += r.took;
        }
        // Split subproblems that ran their course tell their depth's slice
        // how fast solutions come (not the whole model's try).
        if let Some(slice) = r.slice
            && r.job.depth() > 0
            && matches!(r.ended, Ended::Complete | Ended::Stopped)
            && !r.at_ceiling
            && self.stop_reason.is_none()
        {
            shared.slices.lock().unwrap().learn(
                r.job.depth(),
                Outcome {
                    slice,
                    found: r.pooled,
                    pool: r.pool,
                    slice_expired: r.slice_expired,
                },
            );
        }
        let finished = Finished {
            end: match r.ended {
                Ended::Complete => End::Complete,
                Ended::Stopped => End::Stopped,
                Ended::Skipped => End::Skipped,
                Ended::Invalid(_) => End::Invalid,
            },
            full: r.pooled >= r.pool,
            slice_expired: r.slice_expired,
            at_ceiling: r.at_ceiling,
            searched: r.branches > 0 || !r.solutions.is_empty(),
            can_split: r.job.adaptive && r.job.prefix.len() < run.puzzle.len(),
            whole: run.limits.lengthen_whole
                && r.job.adaptive
                && r.job.depth() == 0
                && r.job.range.is_none(),
            // A stopped solve's memory is back when it returns.
            still_over: r.at_ceiling
                && self.in_flight == 0
                && ceiling::over(run.limits.memory_ceiling),
            stopping: self.stop_reason.is_some(),
            has_deadline: run.cancel.deadline().is_some(),
        };
        let next = policy::next(&finished, &mut self.slots);
        // Solutions found before a split are real: hand them on now (so a
        // time limit never loses them); the parts find them again and the
        // collector keeps each once.
        for values in &r.solutions {
            if let Some(cells) = run.model.decode(values) {
                callback.on_solution_in(r.job.unit, &cells, run.expansion.stands());
            }
        }
        self.follow(next, &r, run, shared, callback);
        self.progress.subproblems_pending = (self.queue.len() + self.in_flight) as u64;
        callback.on_progress(&self.progress);
        if self.stop_reason.is_none() && callback.enough() {
            self.stop_reason = Some(StopReason::Limit);
            shared.stop_all();
        }
    }

    /// The whole model's solve beside its parts ended, or a part did after
    /// it had completed: its solutions handed on; a complete whole solve
    /// (its pool not full) holds every solution, so the run is complete
    /// and the rest is stopped.
    fn take_raced(
        &mut self,
        r: JobResult,
        run: &Run,
        shared: &Shared,
        callback: &mut dyn SolutionCallback,
    ) {
        for values in &r.solutions {
            if let Some(cells) = run.model.decode(values) {
                callback.on_solution_in(r.job.unit, &cells, run.expansion.stands());
            }
        }
        if r.job.beside {
            if let Some(race) = &mut self.race {
                race.running = false;
            }
            match &r.ended {
                Ended::Complete if r.pooled < r.pool && self.stop_reason.is_none() => {
                    self.covered = true;
                    self.queue.clear();
                    shared.stop_all();
                }
                Ended::Invalid(m) => {
                    self.invalid.get_or_insert_with(|| m.clone());
                    self.stop_reason.get_or_insert(StopReason::Interrupted);
                    shared.stop_all();
                }
                _ => {}
            }
        }
        self.progress.subproblems_done += 1;
        self.progress.solutions += r.solutions.len() as u64;
        self.progress.subproblems_pending = (self.queue.len() + self.in_flight) as u64;
        callback.on_progress(&self.progress);
        if self.stop_reason.is_none() && !self.covered && callback.enough() {
            self.stop_reason = Some(StopReason::Limit);
            shared.stop_all();
        }
    }

    /// Do what the split policy said of a finished subproblem.
    fn follow(
        &mut self,
        next: Next,
        r: &JobResult,
        run: &Run,
        shared: &Shared,
        callback: &mut dyn SolutionCallback,
    ) {
        match next {
            Next::Retry => self.queue.push_front(r.job.clone()),
            Next::Longer => {
                shared.slices.lock().unwrap().lengthen_whole();
                self.queue.push_front(r.job.clone());
            }
            Next::Split => {
                *self.stats.subproblems_split.as_mut().unwrap() += 1;
                // Later splits go straight to placements: on boards with
                // many solutions (search, not presolve, dominates) range
                // parts measured costlier than placements (docs/log.md).
                let parts = split_job(run.puzzle, run.searched, &r.job, 0);
                self.unit_left(r.job.unit, parts.len(), callback);
                let depth = parts.iter().map(|j| j.prefix.len()).max().unwrap_or(0);
                let m = self.stats.max_split_depth.as_mut().unwrap();
                *m = (*m).max(depth);
                for job in parts.into_iter().rev() {
                    self.queue.push_front(job);
                }
            }
            _ => {
                match next {
                    Next::Done => {
                        if let Some(race) = &mut self.race {
                            race.parts_done += r.job.weight;
                        }
                        self.unit_left(r.job.unit, 0, callback)
                    }
                    Next::PoolFull => {
                        self.incomplete = true;
                        self.stop_reason.get_or_insert(StopReason::PoolFull);
                    }
                    Next::Stop(reason) => {
                        self.incomplete = true;
                        self.stop_reason = Some(reason);
                        shared.stop_all();
                    }
                    Next::Invalid => {
                        if let Ended::Invalid(m) = &r.ended {
                            self.invalid.get_or_insert_with(|| m.clone());
                        }
                        self.stop_reason.get_or_insert(StopReason::Interrupted);
                        shared.stop_all();
                    }
                    Next::Unfinished | Next::Retry | Next::Split | Next::Longer => {
                        self.incomplete = true
                    }
                }
                self.progress.subproblems_done += 1;
                self.progress.solutions += r.solutions.len() as u64;
            }
        }
    }

    /// A unit is finished when each of its jobs ended or was split into
    /// parts that are: one of `unit`'s jobs ended in `parts` new ones.
    fn unit_left(&mut self, unit: usize, parts: usize, callback: &mut dyn SolutionCallback) {
        if let Some(left) = self.outstanding.get_mut(&unit) {
            *left = *left + parts - 1;
            if *left == 0 {
                self.outstanding.remove(&unit);
                callback.on_unit_done(unit);
            }
        }
    }

    /// How the run ended (invalid, stopped: jobs left or a stop, or
    /// complete) and its statistics.
    pub(super) fn finish(self) -> (RunStatus, SolverStats) {
        let status = if let Some(m) = self.invalid {
            RunStatus::Invalid(m)
        } else if self.covered {
            RunStatus::Complete
        } else if self.incomplete || !self.queue.is_empty() {
            RunStatus::Stopped(self.stop_reason.unwrap_or(StopReason::Interrupted))
        } else {
            RunStatus::Complete
        };
        (status, SolverStats::of(&self.stats))
    }
}

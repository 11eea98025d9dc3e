//! One subproblem of an enumeration solved: its model (the prefix fixed,
//! the range cut), its pool and slice, its response read.

use std::collections::BTreeSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use prost::Message;

use crate::model::Model;

use super::ceiling::Watch;
use super::jobs::{Job, intersect};
use super::pending::Waited;
use super::proto::{CpModelProto, CpSolverStatus, SatParameters};
use super::run::{Limits, pool_for};
use super::runtime::Runtime;
use super::slices::Slices;

pub(super) enum Ended {
    /// Searched to the end.
    Complete,
    /// Stopped by its time limit (slice or global) or an interrupt.
    Stopped,
    Invalid(String),
    /// Not started: the enumeration was stopping.
    Skipped,
}

pub(super) struct JobResult {
    pub(super) job: Job,
    /// The solution pool it had.
    pub(super) pool: usize,
    pub(super) ended: Ended,
    /// Its solutions, over the model's own variables.
    pub(super) solutions: Vec<Vec<i64>>,
    /// How many solutions CP-SAT returned (more than `solutions` when the
    /// user's variables take several values on one board): what fills the
    /// pool.
    pub(super) pooled: usize,
    /// The slice it had (none without splitting or at depth 0).
    pub(super) slice: Option<Duration>,
    /// The slice (not the global limit) was what stopped it.
    pub(super) slice_expired: bool,
    /// It was stopped because the process passed the memory ceiling.
    pub(super) at_ceiling: bool,
    pub(super) branches: u64,
    pub(super) conflicts: u64,
    pub(super) wall_time: f64,
    /// Seconds from the start of its encoding to its response read: what
    /// the part cost the run (CP-SAT's own wall time leaves out loading
    /// the model, most of a `table` part's cost).
    pub(super) took: f64,
}

impl JobResult {
    /// A job not solved (the run was stopping), with the pool it had.
    fn skipped(job: Job, pool: usize) -> JobResult {
        JobResult {
            job,
            pool,
            ended: Ended::Skipped,
            solutions: vec![],
            pooled: 0,
            slice: None,
            slice_expired: false,
            at_ceiling: false,
            branches: 0,
            conflicts: 0,
            wall_time: 0.0,
            took: 0.0,
        }
    }
}

pub(super) struct Shared<'a> {
    pub(super) rt: &'static Runtime,
    /// The model's constraints, encoded once; each subproblem adds its
    /// variables (with the prefix fixed) in front.
    pub(super) constraints: Vec<u8>,
    pub(super) base: &'a CpModelProto,
    pub(super) model: &'a Model,
    /// Solutions kept per subproblem at most (the limits' pool).
    pub(super) pool: usize,
    /// The largest search model a response told of, per depth (0 before
    /// the first): a subproblem's pool is cut to fit the one of its depth,
    /// or failing that of the nearest depth above ([`pool_for`]). Deeper
    /// subproblems presolve to smaller models (the-ant-trails-puzzle: 7,422
    /// Booleans and integers whole, 2,883 with 12 cells fixed), so their
    /// pools can be bigger.
    pub(super) search_sizes: Mutex<Vec<u64>>,
    /// What the pool is cut to fit before a response tells: the values of
    /// our model's constraints, more than CP-SAT's search model on every
    /// board measured (docs/log.md).
    pub(super) first_guess: u64,
    /// Whether responses may cut the pool (not for `--split none`, whose
    /// one solve must keep everything).
    pub(super) cut_pool: bool,
    pub(super) concurrent: usize,
    pub(super) limits: Limits,
    /// The slices of split subproblems, learned from their solves.
    pub(super) slices: Mutex<Slices>,
    pub(super) stopping: AtomicBool,
    /// Stops the whole model's solve beside its parts (policy.rs,
    /// `keep_whole`).
    pub(super) whole_stop: AtomicBool,
    pub(super) deadline: Option<Instant>,
}

/// A solve that stops this close to the run's deadline was stopped by it
/// (CP-SAT's own wall limit is the time left), unless its work reached
/// its slice.
const DEADLINE_NEAR: Duration = Duration::from_millis(50);

/// How much a solve probes (CP-SAT's probing: each literal tried, what it
/// implies kept).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Probing {
    /// CP-SAT's defaults.
    Default,
    /// None where solutions are plentiful: the search finds them sooner.
    Off,
    /// This long (deterministic time) per probing pass, in the presolve and
    /// in the search: the whole model's solve ([`Limits::whole_probing`]).
    Long(Duration),
}

impl Probing {
    /// A solve of the whole model (no cell fixed, no range) probes for
    /// `whole_probing`; a part where solutions are plentiful does not probe.
    fn for_job(whole_probing: Option<Duration>, whole: bool, rich: bool) -> Self {
        match whole_probing {
            Some(d) if whole => Probing::Long(d),
            _ if rich => Probing::Off,
            _ => Probing::Default,
        }
    }
}

/// The parameters of one subproblem's solve: one worker, every solution
/// into a pool of `pool`, the run's time left as wall time and the slice
/// as deterministic time, probing as `probing` says, SAT inprocessing
/// only if `inprocessing`.
fn params(
    pool: usize,
    remaining: Option<Duration>,
    slice: Option<Duration>,
    probing: Probing,
    inprocessing: bool,
) -> SatParameters {
    let long = match probing {
        Probing::Long(d) => Some(d.as_secs_f64()),
        Probing::Default | Probing::Off => None,
    };
    SatParameters {
        num_workers: Some(1),
        enumerate_all_solutions: Some(true),
        fill_additional_solutions_in_response: Some(true),
        solution_pool_size: Some(pool as i32),
        max_time_in_seconds: remaining.map(|d| d.as_secs_f64()),
        max_deterministic_time: slice.map(|d| d.as_secs_f64()),
        log_search_progress: Some(false),
        // Ctrl-C belongs to scramble: it stops the enumeration between
        // and inside subproblems (through SolveCpStopSearch).
        catch_sigint_signal: Some(false),
        cp_model_probing_level: (probing == Probing::Off).then_some(0),
        probing_deterministic_time_limit: long,
        inprocessing_probing_dtime: long,
        use_sat_inprocessing: (!inprocessing).then_some(false),
        ..Default::default()
    }
}

impl Shared<'_> {
    /// Ask every running solve to stop (each worker passes it on within
    /// its poll) and keep new ones from starting.
    pub(super) fn stop_all(&self) {
        self.stopping.store(true, Ordering::SeqCst);
    }

    /// The solution pool of a subproblem: cut to what the searches of its
    /// depth (or the shallower ones) measured, so a pool fits in memory.
    fn pool_for(&self, job: &Job) -> usize {
        let depth = job.depth();
        let known = {
            let sizes = self.search_sizes.lock().unwrap();
            sizes[..sizes.len().min(depth + 1)]
                .iter()
                .rev()
                .find(|&&s| s > 0)
                .copied()
        };
        let pool = match known {
            _ if !self.cut_pool => self.pool,
            None => pool_for(self.first_guess, self.concurrent, self.pool),
            Some(size) => pool_for(size, self.concurrent, self.pool),
        };
        match depth {
            // The whole model's first try keeps what one plain solve keeps:
            // within its slice it is that solve.
            0 if job.adaptive || job.beside => self.limits.whole_pool,
            _ => pool,
        }
    }

    /// Each solution over the model's own variables, and how many the
    /// pool held: the user's new variables may take several values on one
    /// board, which is still one board.
    fn own_solutions(
        &self,
        response: &mut super::proto::CpSolverResponse,
    ) -> (BTreeSet<Vec<i64>>, usize) {
        let own = self.model.vars.len();
        let pooled = response.additional_solutions.len();
        let solutions: BTreeSet<Vec<i64>> = std::mem::take(&mut response.additional_solutions)
            .into_iter()
            .map(|s| s.values)
            .chain((!response.solution.is_empty()).then(|| std::mem::take(&mut response.solution)))
            .map(|mut values| {
                values.truncate(own);
                values
            })
            .collect();
        let pooled = pooled.max(solutions.len());
        (solutions, pooled)
    }

    /// Solve one subproblem on worker `w`.
    pub(super) fn solve(&self, job: Job) -> JobResult {
        let started = Instant::now();
        let depth = job.depth();
        let pool = self.pool_for(&job);
        let skipped = |job| JobResult::skipped(job, pool);
        let remaining = self
            .deadline
            .map(|d| d.saturating_duration_since(Instant::now()));
        let slice = job.adaptive.then(|| match depth {
            0 => self.slices.lock().unwrap().whole(),
            d => self.slices.lock().unwrap().get(d),
        });
        // The slice is CP-SAT's deterministic time (its work, in about
        // seconds of an unloaded machine), so where a subproblem is split
        // does not depend on the machine's load; the run's deadline stays
        // wall time.
        let mut m = CpModelProto {
            name: self.base.name.clone(),
            variables: self.base.variables.clone(),
            constraints: vec![],
        };
        for (cell, p) in self.model.cells.iter().zip(&job.prefix) {
            m.variables[cell.0].domain = vec![p.tile, p.tile];
            m.variables[cell.1].domain = vec![p.rotation as i64, p.rotation as i64];
        }
        if let Some((lo, hi)) = job.range {
            let var = &mut m.variables[self.model.cells[job.prefix.len()].0];
            var.domain = intersect(&var.domain, lo, hi);
            if var.domain.is_empty() {
                return JobResult {
                    ended: Ended::Complete,
                    ..skipped(job)
                };
            }
        }
        let mut bytes = m.encode_to_vec();
        bytes.extend_from_slice(&self.constraints);
        // Depth 0: no cell fixed, no range, the whole model.
        let rich = depth > 0 && self.slices.lock().unwrap().rich(depth);
        let probing = Probing::for_job(self.limits.whole_probing, depth == 0, rich);
        // CP-SAT's SAT inprocessing pays off only in the whole model's
        // search, and only in some encodings ([`Limits::inprocessing`]).
        let inprocessing = depth == 0 && self.limits.inprocessing;
        let params = params(pool, remaining, slice, probing, inprocessing);
        if self.stopping.load(Ordering::SeqCst) {
            return skipped(job);
        }
        let pending = self.rt.spawn_solve(bytes, params);
        let watch = Watch::new(self.limits.memory_ceiling);
        let beside = job.beside;
        let stop = || {
            self.stopping.load(Ordering::SeqCst)
                || (beside && self.whole_stop.load(Ordering::SeqCst))
        };
        let waited = pending.wait(stop, || watch.check());
        let mut response = match waited {
            Waited::Returned(Ok(r)) => r,
            Waited::Returned(Err(e)) => {
                return JobResult {
                    ended: Ended::Invalid(e.to_string()),
                    ..skipped(job)
                };
            }
            // Its presolve did not look at the stop flag: what it found is
            // lost with it (a presolve finds nothing).
            Waited::GaveUp => {
                return JobResult {
                    ended: Ended::Stopped,
                    ..skipped(job)
                };
            }
        };
        let size = (response.num_booleans + response.num_integers).max(0) as u64;
        if self.cut_pool && size > 0 {
            let mut sizes = self.search_sizes.lock().unwrap();
            if sizes.len() <= depth {
                sizes.resize(depth + 1, 0);
            }
            sizes[depth] = sizes[depth].max(size);
        }
        let status = CpSolverStatus::try_from(response.status).unwrap_or(CpSolverStatus::Unknown);
        let (solutions, pooled) = self.own_solutions(&mut response);
        let ended = match status {
            CpSolverStatus::Optimal | CpSolverStatus::Infeasible => Ended::Complete,
            CpSolverStatus::Feasible | CpSolverStatus::Unknown => Ended::Stopped,
            CpSolverStatus::ModelInvalid => Ended::Invalid(format!(
                "CP-SAT rejected the model: {}",
                response.solution_info
            )),
        };
        let at_ceiling = watch.passed() && matches!(ended, Ended::Stopped);
        // Its slice stopped it: its work reached the slice, or nothing
        // else can have (not the ceiling, and the run's deadline is not
        // near; a stop of the run is the policy's to see).
        let near_deadline = self
            .deadline
            .is_some_and(|d| d.saturating_duration_since(Instant::now()) < DEADLINE_NEAR);
        let slice_expired = slice.is_some_and(|s| {
            response.deterministic_time >= 0.99 * s.as_secs_f64() || !near_deadline
        }) && matches!(ended, Ended::Stopped)
            && !at_ceiling;
        JobResult {
            job,
            pool,
            ended,
            solutions: solutions.into_iter().collect(),
            pooled,
            slice,
            slice_expired,
            at_ceiling,
            branches: response.num_branches.max(0) as u64,
            conflicts: response.num_conflicts.max(0) as u64,
            wall_time: response.wall_time,
            took: started.elapsed().as_secs_f64(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_whole_model_probes_long_and_parts_as_their_pools_say() {
        let long = Some(Duration::from_secs(10));
        assert_eq!(
            Probing::for_job(long, true, false),
            Probing::Long(Duration::from_secs(10))
        );
        assert_eq!(Probing::for_job(long, false, false), Probing::Default);
        assert_eq!(Probing::for_job(long, false, true), Probing::Off);
        assert_eq!(Probing::for_job(None, true, false), Probing::Default);
    }

    #[test]
    fn probing_becomes_cp_sat_s_parameters() {
        let p = params(64, None, None, Probing::Long(Duration::from_secs(10)), true);
        assert_eq!(p.probing_deterministic_time_limit, Some(10.0));
        assert_eq!(p.inprocessing_probing_dtime, Some(10.0));
        assert_eq!(p.cp_model_probing_level, None);
        let p = params(64, None, None, Probing::Off, false);
        assert_eq!(p.cp_model_probing_level, Some(0));
        assert_eq!(p.probing_deterministic_time_limit, None);
        let p = params(
            64,
            None,
            Some(Duration::from_secs(2)),
            Probing::Default,
            true,
        );
        assert_eq!(
            (p.cp_model_probing_level, p.inprocessing_probing_dtime),
            (None, None)
        );
        assert_eq!(p.max_deterministic_time, Some(2.0));
        assert_eq!(p.use_sat_inprocessing, None);
        let p = params(64, None, None, Probing::Off, false);
        assert_eq!(p.use_sat_inprocessing, Some(false));
    }
}

//! One CP-SAT enumeration as its parts see it: what is solved and how
//! (`Run`), the limits that decide when a subproblem is split (`Limits`,
//! their defaults), what each solution stands for (`Expansion`), and how
//! many solves and pooled solutions fit in memory. The coordinator is
//! enumerate.rs; books.rs and subproblem.rs read these.

use std::time::Duration;

use crate::cancel::Cancel;
use crate::model::{BuildError, Model};
use crate::puzzle::Puzzle;
use crate::solve::{SolveOptions, Split, Stands};

use super::ceiling;
use super::runtime::Runtime;

/// Memory all concurrent CP-SAT solves of one enumeration may take
/// together, by the estimate below.
pub(crate) const MEMORY_BUDGET: u64 = 768 << 20;

/// What one CP-SAT solve takes per integer of the model (during presolve,
/// its peak), a little above what was measured on 16x16 `edge` and
/// `edge-boolean` models (docs/log.md).
pub(crate) const BYTES_PER_VALUE: u64 = 450;

/// How many subproblems to solve at once: `threads`, fewer when their
/// models would together pass [`MEMORY_BUDGET`], never less than one.
pub(crate) fn concurrent_solves(values: u64, threads: usize) -> usize {
    let each = values.saturating_mul(BYTES_PER_VALUE).max(1);
    threads.clamp(1, (MEMORY_BUDGET / each).max(1) as usize)
}

/// Solutions kept per subproblem before it is split.
pub(crate) const DEFAULT_POOL: usize = 4096;

/// Memory the solution pools of all concurrent solves may take together.
/// CP-SAT keeps each pooled solution over its presolved model (8 bytes per
/// Boolean and integer of its search, far more than our model's values),
/// so the pool is cut to fit once a response tells that size (docs/log.md,
/// "What CP-SAT holds per subproblem"). This keeps a 6x6 on two threads
/// within a 100 MB goal with a margin, beside the runtime and two solves'
/// own state (the figures: the same entry).
pub(crate) const POOL_MEMORY: u64 = 8 << 20;

/// The smallest pool the cut gives.
pub(crate) const MIN_POOL: usize = 64;

/// The pool that keeps `concurrent` pools of solutions of `values` values
/// each within [`POOL_MEMORY`]: at most `max`, at least [`MIN_POOL`].
pub(crate) fn pool_for(values: u64, concurrent: usize, max: usize) -> usize {
    let each = values
        .saturating_mul(8)
        .saturating_mul(concurrent.max(1) as u64)
        .max(1);
    ((POOL_MEMORY / each) as usize).clamp(MIN_POOL.min(max), max)
}
/// The pool of a single unsplit solve (`--split none`).
pub(crate) const UNSPLIT_POOL: usize = 1 << 20;
/// Time slice (CP-SAT's deterministic time) of a depth-1 subproblem before
/// it is split; doubles per level.
pub(crate) const DEFAULT_SLICE: Duration = Duration::from_secs(2);
/// Cells fixed up front by `--split auto`: none, the whole model is tried
/// first (most puzzles finish within its slice, and one solve costs less
/// than many), and split only where it runs long or its pool fills.
pub(crate) const AUTO_DEPTH: usize = 0;
/// The first try of the whole model keeps as many solutions as one plain
/// solve (`--split none`): within its slice it is that solve, and a pool
/// that fills before its end would throw the whole try away (with 512,
/// schlaumeier-heye-1993's whole model ended within its slice and was
/// split all the same).
pub(crate) const WHOLE_POOL: usize = UNSPLIT_POOL;
/// The first try of the whole model runs this long before it is split.
pub(crate) const WHOLE_SLICE: Duration = Duration::from_millis(250);
/// The probing budget (deterministic time per pass, in the presolve and in
/// the search) of a solve of the whole model (`--split none`, the first try
/// of `--split auto`, the solve beside its parts): ten times CP-SAT's
/// default. Probing with a placement fixed is what ends most corpus
/// subproblems in their presolve; given time, the whole model's probing
/// does the same once (one thread, `table`: danger-puzzle 5.2 s to 2.6 s,
/// crazy-sheep 10.2 to 3.5, the-ultimate-puzzle-2006 55 to 17; `edge`
/// and `boolean` the same or faster; docs/benchmarks.md). Split parts keep
/// the default: they end in their first probing pass.
pub(crate) const WHOLE_PROBING: Duration = Duration::from_secs(10);
/// Big boards start cut into at most this many parts by ranges of the
/// first cell's tile: one per thread up to it (two threads: danger-puzzle
/// `edge` 0.92 s as two parts against 1.52 s as four, warning-puzzle 1.18
/// against 1.11; one solve 0.88 and 2.07 s; docs/model.md).
pub(crate) const RANGE_PARTS: usize = 4;
/// Boards of at least this many cells start cut into range parts instead
/// of trying the whole model first, when there is more than one thread to
/// solve the parts side by side.
pub(crate) const EAGER_CELLS: usize = 25;

/// What each solution of a reduced model stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expansion {
    /// Itself only.
    None,
    /// Its four board turns (the model keeps one turn of each class).
    Turns,
    /// Every labelled board showing its picture (the model keeps one board
    /// per picture before turns).
    Pictures,
}

impl Expansion {
    /// What a solution of the reduced model stands for.
    pub fn stands(self) -> Stands {
        match self {
            Expansion::None => Stands::Board,
            Expansion::Turns => Stands::Turns,
            Expansion::Pictures => Stands::PictureClass,
        }
    }
}

/// One enumeration: what is solved and how.
pub(crate) struct Run<'a> {
    pub rt: &'static Runtime,
    pub limits: Limits,
    pub puzzle: &'a Puzzle,
    pub model: &'a Model,
    pub options: &'a SolveOptions,
    /// How the enumeration is cut (the solver's `--split`).
    pub split: Split,
    /// Ctrl-C and when the whole enumeration must end (the time limit,
    /// counted from before the model was built).
    pub cancel: Cancel,
    /// What each solution the model finds stands for.
    pub expansion: Expansion,
    /// The symmetry breaking the model carries: subproblems it refuses
    /// by their fixed cells alone are never made.
    pub searched: &'a crate::symmetry::Symmetry,
    /// The process's resident size (bytes) when the run started: the
    /// ceiling is counted from it.
    pub memory_start: u64,
    /// The user's constraints for this model, appended to its bytes.
    pub user: Option<&'a super::constraints::Appended>,
}

impl Run<'_> {
    /// The model's constraints encoded for CP-SAT, within the run's time
    /// limit, Ctrl-C and memory ceiling; refused (`MemoryLimit`) when
    /// CP-SAT could not load them under the ceiling
    /// ([`ceiling::past`]), before any solve.
    pub(super) fn encode_constraints(&self) -> Result<Vec<u8>, BuildError> {
        let ceiling = self.limits.memory_ceiling;
        let cancel = self.cancel.with_ceiling(ceiling);
        let mut bytes = super::encode_constraints(&self.model.constraints, &cancel)?;
        if let Some(user) = self.user {
            bytes.extend_from_slice(&user.bytes);
        }
        if let Some(need) = ceiling::past(bytes.len(), ceiling, self.memory_start) {
            return Err(BuildError::MemoryLimit {
                need_mb: Some(need / 1_000_000),
            });
        }
        Ok(bytes)
    }

    /// The variables of the model CP-SAT gets: the model's, then the
    /// user's new ones.
    pub(super) fn variables(&self) -> usize {
        self.model.vars.len() + self.user.map_or(0, |u| u.new_variables)
    }
}

/// Limits that decide when a subproblem is split.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Solutions kept per subproblem; a full pool splits it.
    pub pool: usize,
    /// The pool of a single unsplit solve (`--split none`).
    pub unsplit_pool: usize,
    /// Time slice (deterministic time) of a depth-1 subproblem (doubles per
    /// level); past it the subproblem is split.
    pub slice: Duration,
    /// The cells fixed up front by `--split auto`.
    pub auto_depth: usize,
    /// The pool of the whole model's first try (`--split auto`).
    pub whole_pool: usize,
    /// The time slice (deterministic time) of the whole model's first try.
    pub whole_slice: Duration,
    /// Parts a big board starts cut into, by ranges of the first cell's tile.
    pub range_parts: usize,
    /// The probing budget of the whole model's solve ([`WHOLE_PROBING`]);
    /// `None`: CP-SAT's default.
    pub whole_probing: Option<Duration>,
    /// Whether a whole model's try whose slice ends in its presolve is
    /// tried again with twice the slice rather than split (policy.rs).
    pub lengthen_whole: bool,
    /// Boards of at least this many cells start cut into range parts
    /// (`--split auto` only).
    pub eager_cells: usize,
    /// Whether the whole model's solve runs CP-SAT's SAT inprocessing
    /// (its default), for the encodings that search faster with it
    /// ([`crate::model::Encoding::enumerates_with_inprocessing`]); the
    /// parts never do.
    pub inprocessing: bool,
    /// Memory (bytes) the run may add to its process before running solves
    /// are stopped (src/engines/cpsat/ceiling.rs); the solver turns it into a
    /// resident size when the run starts. 0: the run is always past it.
    pub memory_ceiling: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            pool: DEFAULT_POOL,
            unsplit_pool: UNSPLIT_POOL,
            slice: DEFAULT_SLICE,
            auto_depth: AUTO_DEPTH,
            whole_pool: WHOLE_POOL,
            whole_slice: WHOLE_SLICE,
            whole_probing: Some(WHOLE_PROBING),
            range_parts: RANGE_PARTS,
            lengthen_whole: false,
            eager_cells: EAGER_CELLS,
            inprocessing: true,
            memory_ceiling: crate::cancel::default_allowance(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::cpsat::proto::SatParameters;

    #[test]
    fn big_models_are_solved_fewer_at_a_time() {
        // danger-puzzle's edge model (27,684 integers): every thread.
        assert_eq!(concurrent_solves(27_684, 8), 8);
        // A 16x16 edge model (1.5 million): one at a time.
        assert_eq!(concurrent_solves(1_507_584, 8), 1);
        // In between, as many as fit; never none.
        assert_eq!(concurrent_solves(500_000, 8), 3);
        assert_eq!(concurrent_solves(u64::MAX, 8), 1);
        assert_eq!(concurrent_solves(0, 0), 1);
    }

    #[test]
    fn responses_tell_the_search_model_size() {
        // What the pool cut reads: two free variables in 0..=3 are two
        // integers and their encoding's Booleans (6 in OR-Tools 9.15).
        let Some(rt) = super::super::runtime::runtime_for_tests() else {
            return;
        };
        let var = |name: &str| crate::model::IntVar {
            name: name.into(),
            domain: vec![(0, 3)],
        };
        let bytes = super::super::encode_variables("tiny", &[var("x"), var("y")]);
        let params = SatParameters {
            num_workers: Some(1),
            enumerate_all_solutions: Some(true),
            fill_additional_solutions_in_response: Some(true),
            solution_pool_size: Some(100),
            ..Default::default()
        };
        let r = rt.solve_encoded(&rt.new_env(), &bytes, &params).unwrap();
        assert_eq!(r.additional_solutions.len(), 16);
        assert_eq!(r.num_integers, 2);
        assert!(r.num_booleans > 0, "{} Booleans", r.num_booleans);
    }

    #[test]
    fn the_pool_fits_the_pool_memory() {
        // the-ant-trails-puzzle's search model, two solves at once.
        let pool = pool_for(7_422, 2, DEFAULT_POOL) as u64;
        assert_eq!(pool, 70);
        // The largest that fits.
        assert!(2 * pool * 7_422 * 8 <= POOL_MEMORY);
        assert!(2 * (pool + 1) * 7_422 * 8 > POOL_MEMORY);
        // Small models keep the limits' pool.
        assert_eq!(pool_for(30, 8, DEFAULT_POOL), DEFAULT_POOL);
        assert_eq!(pool_for(u64::MAX, 8, DEFAULT_POOL), MIN_POOL);
        assert_eq!(pool_for(1 << 30, 1, 10), 10);
        assert_eq!(pool_for(0, 0, DEFAULT_POOL), DEFAULT_POOL);
    }
}

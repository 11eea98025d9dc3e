//! Time slices sized to how fast subproblems find solutions. A slice is
//! CP-SAT's deterministic time (`max_deterministic_time`, about seconds of
//! an unloaded machine), so the same run splits the same way under any load.
//!
//! The C API has no solution callback, so a solve cannot be stopped when
//! its pool fills: it runs on to the end of its slice, and what it finds
//! past a full pool is lost (its parts find it again). On a board with
//! many solutions that wastes most of each slice when the pool is small
//! (docs/log.md, "What CP-SAT holds per subproblem"). So each depth
//! learns its slice from the solves that ended there: a full pool shortens
//! it by [`SHORTER`], a slice that ended with a pool less than a quarter
//! full lengthens it by [`LONGER`] (the search-dominated case, or presolve
//! took the slice). So the slices settle where a solve fills between a
//! quarter and all of its pool.
//! The slice stays within [`MIN_SLICE`] and the fixed schedule (the base
//! slice, doubled per level, longer on boards beyond 6x6). A depth that
//! has learned nothing yet starts from the schedule, or, in a rich part of
//! the tree (below), from the slice learned nearest above: its parts hold
//! fewer solutions each but find them at about the same rate.
//!
//! A depth where a pool has filled is *rich*: there, and below, solutions
//! are found faster than a presolve with probing takes (measured on the
//! the-ant-trails-puzzle, docs/log.md), so its subproblems skip probing. Probing pays
//! where solutions are rare: it does much of the search of the literal
//! encodings (docs/model.md).

use std::time::Duration;

/// The shortest slice learned: below it a solve rarely gets past its
/// presolve.
pub(crate) const MIN_SLICE: Duration = Duration::from_millis(50);

/// What a full pool does to its depth's slice.
const SHORTER: f64 = 0.7;

/// What a slice that ended with a pool less than a quarter full does to
/// its depth's slice.
const LONGER: f64 = 1.5;

/// The slice of each depth of split subproblems (depth 0, the whole
/// model's first try, has a slice of its own).
#[derive(Debug)]
pub(crate) struct Slices {
    /// The slice of a depth-1 subproblem in the fixed schedule.
    base: Duration,
    /// The board's factor on the schedule (cells / 36, rounded up).
    board: u32,
    /// The slice learned per depth (index = depth), if any.
    learned: Vec<Option<Duration>>,
    /// The shallowest depth where a pool filled.
    rich_from: Option<usize>,
    /// The slice of the whole model's try: doubled each time it ends in
    /// its presolve (policy.rs, `Next::Longer`).
    whole: Duration,
}

/// How a slice-limited solve ended.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Outcome {
    /// The slice it had.
    pub slice: Duration,
    /// Solutions it returned.
    pub found: usize,
    /// Its pool.
    pub pool: usize,
    /// Whether the slice stopped it (rather than the end of its search).
    pub slice_expired: bool,
}

impl Slices {
    pub(crate) fn new(base: Duration, cells: usize) -> Slices {
        Slices {
            base,
            board: cells.div_ceil(36).max(1) as u32,
            learned: Vec::new(),
            rich_from: None,
            whole: base,
        }
    }

    /// The slices of a run on a board of `cells`: `base` for a depth-1
    /// part, `whole` for the whole model's try.
    pub(crate) fn for_run(base: Duration, whole: Duration, cells: usize) -> Slices {
        Slices {
            whole,
            ..Slices::new(base, cells)
        }
    }

    /// The slice of the whole model's try.
    pub(crate) fn whole(&self) -> Duration {
        self.whole
    }

    /// The whole model's try ended in its presolve: the next gets twice
    /// the slice.
    pub(crate) fn lengthen_whole(&mut self) {
        self.whole = self.whole.saturating_mul(2);
    }

    /// The fixed schedule: the base slice doubled per level past 1, times
    /// the board factor (bigger boards presolve longer, or their parts
    /// would be split before they start).
    fn schedule(&self, depth: usize) -> Duration {
        let levels = depth.saturating_sub(1).min(30) as u32;
        self.base
            .saturating_mul(2u32.saturating_pow(levels))
            .saturating_mul(self.board)
    }

    /// The slice of a subproblem at `depth` (at least 1).
    pub(crate) fn get(&self, depth: usize) -> Duration {
        let own = self.learned.get(depth).copied().flatten();
        let above = || {
            let from = self.rich_from.filter(|&d| d <= depth)?;
            self.learned[from.min(self.learned.len())..depth.min(self.learned.len())]
                .iter()
                .rev()
                .find_map(|s| *s)
        };
        let schedule = self.schedule(depth);
        own.or_else(above).map_or(schedule, |s| s.min(schedule))
    }

    /// Whether subproblems at `depth` are in a rich part of the tree (see
    /// the module's note).
    pub(crate) fn rich(&self, depth: usize) -> bool {
        self.rich_from.is_some_and(|d| depth >= d)
    }

    /// Learn from a solve at `depth` that ended.
    pub(crate) fn learn(&mut self, depth: usize, o: Outcome) {
        let factor = if o.found >= o.pool {
            self.rich_from = Some(self.rich_from.map_or(depth, |d| d.min(depth)));
            SHORTER
        } else if o.slice_expired && o.found < o.pool / 4 {
            LONGER
        } else {
            return;
        };
        let next = o
            .slice
            .mul_f64(factor)
            .clamp(MIN_SLICE, self.schedule(depth).max(MIN_SLICE));
        if self.learned.len() <= depth {
            self.learned.resize(depth + 1, None);
        }
        self.learned[depth] = Some(next);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: Duration = Duration::from_secs(2);

    fn outcome(slice: Duration, found: usize, slice_expired: bool) -> Outcome {
        Outcome {
            slice,
            found,
            pool: 256,
            slice_expired,
        }
    }

    #[test]
    fn without_learning_the_schedule_holds() {
        let s = Slices::new(S, 36);
        assert_eq!(s.get(1), S);
        assert_eq!(s.get(3), 4 * S);
        // A 10x10 board: three times as long.
        assert_eq!(Slices::new(S, 100).get(2), 6 * S);
        // Deep levels saturate instead of overflowing.
        assert!(Slices::new(S, 36).get(200) >= S);
        assert!(!s.rich(1));
    }

    #[test]
    fn a_full_pool_shortens_the_slice_down_to_the_floor() {
        let mut s = Slices::new(S, 36);
        s.learn(2, outcome(s.get(2), 256, true));
        assert_eq!(s.get(2), (2 * S).mul_f64(SHORTER));
        for _ in 0..30 {
            s.learn(2, outcome(s.get(2), 300, false));
        }
        assert_eq!(s.get(2), MIN_SLICE);
    }

    #[test]
    fn an_empty_slice_lengthens_up_to_the_schedule() {
        let mut s = Slices::new(S, 36);
        s.learn(1, outcome(S / 4, 256, true));
        assert_eq!(s.get(1), (S / 4).mul_f64(SHORTER));
        s.learn(1, outcome(S / 4, 0, true));
        assert_eq!(s.get(1), (S / 4).mul_f64(LONGER));
        for _ in 0..10 {
            s.learn(1, outcome(s.get(1), 0, true));
        }
        assert_eq!(s.get(1), S);
    }

    #[test]
    fn a_sparse_slice_lengthens_and_a_fuller_one_stays() {
        let mut s = Slices::new(S, 36);
        s.learn(1, outcome(S / 2, 63, true));
        assert_eq!(s.get(1), (S / 2).mul_f64(LONGER));
        // Between a quarter and a full pool: unchanged.
        s.learn(1, outcome(S / 8, 64, true));
        assert_eq!(s.get(1), (S / 2).mul_f64(LONGER));
        s.learn(1, outcome(S / 8, 255, true));
        assert_eq!(s.get(1), (S / 2).mul_f64(LONGER));
        // A search that ended before its slice tells nothing.
        s.learn(1, outcome(S / 8, 0, false));
        assert_eq!(s.get(1), (S / 2).mul_f64(LONGER));
        assert!(!s.rich(1), "no pool filled");
    }

    #[test]
    fn a_rich_depth_starts_from_the_slice_learned_nearest_above() {
        let mut s = Slices::new(S, 36);
        // Depth 2's schedule is 2 S; a full pool there: 0.7 of it.
        s.learn(2, outcome(2 * S, 256, true));
        let short = (2 * S).mul_f64(SHORTER);
        assert_eq!(s.get(1), S, "levels above are not touched");
        assert_eq!(s.get(2), short);
        assert_eq!(s.get(5), short);
        s.learn(4, outcome(short, 0, true));
        assert_eq!(s.get(4), short.mul_f64(LONGER));
        assert_eq!(s.get(5), short.mul_f64(LONGER));
        assert_eq!(s.get(3), short);
    }

    #[test]
    fn where_no_pool_filled_each_depth_keeps_its_schedule() {
        // A search-dominated board: slices that find nothing never shorten
        // a deeper level's schedule.
        let mut s = Slices::new(S, 36);
        s.learn(1, outcome(S, 0, true));
        assert_eq!(s.get(1), S);
        assert_eq!(s.get(2), 2 * S);
        s.learn(3, outcome(S, 0, true));
        assert_eq!(s.get(3), S.mul_f64(LONGER));
        assert_eq!(s.get(4), 8 * S);
    }

    #[test]
    fn a_full_pool_makes_its_depth_and_those_below_rich() {
        let mut s = Slices::new(S, 36);
        s.learn(3, outcome(S, 255, true));
        assert!(!s.rich(3));
        s.learn(3, outcome(S, 256, false));
        assert!(!s.rich(2) && s.rich(3) && s.rich(9));
        s.learn(5, outcome(S, 256, true));
        assert!(s.rich(3), "the shallowest stays");
        s.learn(1, outcome(S, 256, true));
        assert!(s.rich(1));
    }
}

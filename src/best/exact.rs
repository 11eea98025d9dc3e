//! A complete search beside the breaks (`scramble best` with two threads or
//! more): the plain backtracker looking for a first solution, on boards
//! where it is within reach: few enough nodes per solution. The breaks
//! search climbs fast but proves nothing and rarely spends its last
//! breaks; on the 8x8 benchmark sets it stalls two to four joins short,
//! while a complete row scan finds a solution in a fraction of its tree of
//! about 1e12 nodes (turns reduced). It runs on every backtracking thread;
//! the breaks keep all but one and stop once they stall (mod.rs, `STALL`).
//! On Eternity II (about 1e36 nodes) those threads would be wasted, so it
//! only runs when Knuth's estimate of the tree says so.

use std::time::Duration;

use crate::board::Solution;
use crate::engines::backtrack::{Backtrack, Order, estimate_tree};
use crate::puzzle::Puzzle;
use crate::solve::{self, SolveError, SolveOptions, StopToken};

/// The most nodes per solution (of the full row scan, labelled pieces)
/// the complete search takes on: about a day on one thread at the row
/// scan's node rate (docs/benchmarks.md); the 8x8 sets' trees are well
/// within it.
const REACH_NODES: f64 = 1e13;

/// Probes of the estimate, and the time they may take.
const PROBES: u64 = 2000;
const PROBE_TIME: Duration = Duration::from_secs(1);

/// Whether the complete search's tree is within reach, by Knuth's
/// estimate (`seed` seeds its probes): its nodes per solution (per the
/// whole tree when no probe reached a solution) at most [`REACH_NODES`].
/// An estimate cut short by its time limit (1 s, or less when the run's
/// `time_left` is shorter) or by `stop` says no.
pub(super) fn within_reach(
    puzzle: &Puzzle,
    seed: u64,
    time_left: Option<Duration>,
    stop: &StopToken,
) -> bool {
    let probe_time = time_left.map_or(PROBE_TIME, |t| t.min(PROBE_TIME));
    reach_by_estimate(puzzle, seed, Some(probe_time), stop)
}

/// [`within_reach`] with the estimate's own time limit (none: the probes
/// run to their end, whatever the machine's speed).
fn reach_by_estimate(
    puzzle: &Puzzle,
    seed: u64,
    probe_time: Option<Duration>,
    stop: &StopToken,
) -> bool {
    let options = SolveOptions {
        time_limit: probe_time,
        stop: stop.clone(),
        ..SolveOptions::default()
    };
    match estimate_tree(puzzle, Order::Row, PROBES, seed, &options) {
        Ok(e) => e.stopped.is_none() && e.nodes.mean / e.solutions.mean.max(1.0) <= REACH_NODES,
        Err(_) => false,
    }
}

/// The first solution of the plain backtracker (row scan with restarts on
/// `threads` threads, turns reduced), or none when `stop` or the time limit ended it
/// or the tree holds none; and its nodes.
pub(super) fn first_solution(
    puzzle: &Puzzle,
    time_limit: Option<Duration>,
    stop: &StopToken,
    threads: usize,
) -> Result<(Option<Solution>, u64), SolveError> {
    let options = SolveOptions {
        time_limit,
        stop: stop.clone(),
        threads: threads.max(1),
        limit: Some(1),
        ..SolveOptions::default()
    };
    let res = solve::run(&Backtrack::new(Order::Row), puzzle, &options)?;
    let nodes = res.stats.count("nodes").unwrap_or(0);
    let first = res
        .raw
        .into_iter()
        .next()
        .or(res.classes.into_iter().next());
    Ok((first, nodes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn the_8x8_sets_are_within_reach_and_eternity_ii_is_not() {
        let stop = StopToken::new();
        let clue1 = Puzzle::load(Path::new("puzzles/eternity2/clue1.txt")).unwrap();
        // Trees of about 2e12 and 5e11 nodes (seed 1); no probe reaches a
        // solution. The probes run without a time limit: the verdict is the
        // estimate's, not the machine's speed.
        for name in ["8x8-a", "8x8-b"] {
            let p = Puzzle::load(Path::new(&format!("puzzles/eternity2/{name}.txt"))).unwrap();
            assert!(reach_by_estimate(&p, 1, None, &stop), "{name}");
        }
        let e2 = Puzzle::load(Path::new("puzzles/eternity2/eternity2.txt")).unwrap();
        assert!(!reach_by_estimate(&e2, 1, None, &stop));
        // A stop before the probes says no.
        let stopped = StopToken::new();
        stopped.stop();
        let a = Puzzle::load(Path::new("puzzles/eternity2/8x8-a.txt")).unwrap();
        assert!(!within_reach(&a, 1, None, &stopped));
        let s = first_solution(&clue1, None, &stop, 2).unwrap().0.unwrap();
        assert_eq!(s.score(&clue1).unwrap().broken.len(), 0);
    }
}

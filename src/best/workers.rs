//! What the backtracking threads of a `best` run do: the break searches
//! (breaks.rs, depth.rs) and the complete search (exact.rs), each better
//! board sent to the coordinator.

use crate::board::Solution;
use crate::puzzle::Puzzle;

use super::{Candidate, Finder, Method, Sender, Shared, breaks, depth, exact};

/// The backtracker with allowed breaks: each better board it finds; its
/// nodes.
pub(super) fn breaks_worker(
    shared: &Shared,
    prepared: &breaks::Prepared,
    seed: u64,
    complete: bool,
    tx: Sender<'_>,
) -> u64 {
    type Search = fn(&Puzzle, &breaks::Prepared, u64, &breaks::Shared) -> u64;
    let (method, search): (Finder, Search) = match shared.options.method {
        Method::Depth => (Finder::Depth, depth::search),
        _ => (Finder::Backtrack, breaks::search),
    };
    let found = move |board: Solution| {
        let _ = tx.send(Ok(Candidate {
            board,
            method,
            optimal: false,
        }));
    };
    let stop = || shared.breaks_stopped(complete);
    let breaks_shared = breaks::Shared {
        best_breaks: &shared.best_breaks,
        stop: &stop,
        found: &found,
    };
    search(shared.puzzle, prepared, seed, &breaks_shared)
}

/// The complete search: its first solution, if it finds one; its nodes.
pub(super) fn exact_worker(shared: &Shared, threads: usize, tx: Sender<'_>) -> u64 {
    let left = shared.cancel.remaining();
    match exact::first_solution(shared.puzzle, left, &shared.halt, threads) {
        Ok((found, nodes)) => {
            if let Some(board) = found {
                let _ = tx.send(Ok(Candidate {
                    board,
                    method: Finder::Exact,
                    optimal: false,
                }));
            }
            nodes
        }
        Err(e) => {
            let _ = tx.send(Err(e.into()));
            0
        }
    }
}

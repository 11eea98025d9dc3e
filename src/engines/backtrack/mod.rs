//! The native backtracking solver: a depth-first search over cells in a fixed
//! placement order, enumerating every labelled solution through the same
//! solution callback as CP-SAT.
//!
//! Design (see docs/architecture.md): every (tile, rotation) pair is an
//! *orientation* with precomputed edge codes; candidate lists are indexed by
//! the edge codes the already placed neighbours require (by one direction, or
//! by a pair of directions); used tiles are a bitmask; the search allocates
//! nothing per node. Board-level symmetry rules prune through per-cell masks
//! and are checked in full at the leaves.

/// `$body` with the const `$w` set to the words per set the search is
/// compiled for (`tables::word_bucket`).
macro_rules! by_words {
    ($words:expr, $w:ident => $body:expr) => {
        match $words {
            1 => {
                const $w: usize = 1;
                $body
            }
            2 => {
                const $w: usize = 2;
                $body
            }
            3 => {
                const $w: usize = 3;
                $body
            }
            4 => {
                const $w: usize = 4;
                $body
            }
            5 => {
                const $w: usize = 5;
                $body
            }
            6 => {
                const $w: usize = 6;
                $body
            }
            7 => {
                const $w: usize = 7;
                $body
            }
            8 => {
                const $w: usize = 8;
                $body
            }
            16 => {
                const $w: usize = 16;
                $body
            }
            32 => {
                const $w: usize = 32;
                $body
            }
            _ => {
                const $w: usize = MAX_WORDS;
                $body
            }
        }
    };
}

mod bits;
mod build;
mod core;
mod fused;
mod keys;
pub mod kind;
mod lean;
mod lists;
mod lookahead;
mod masks;
mod order;
mod parallel;
mod probe;
mod relabel;
mod restarts;
mod ring;
mod search;
mod split;
mod state;
mod tables;
mod tree;

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::cancel::{Cancel, Stopped};
use crate::puzzle::Puzzle;
use crate::solve::{
    RunStatus, Searched, SolutionCallback, SolveError, SolveOptions, Solver, SolverRun,
    SolverStats, StopReason, Turns, search_pictures,
};
use crate::symmetry::labellings_per_picture;

use bits::MAX_WORDS;
pub use order::Order;
use parallel::Run;
pub use probe::{Probe, ProbeEnd, probe};
pub use restarts::Restarts;
use tables::{Setup, Tables};
pub(crate) use tree::Sums;
pub use tree::{Mean, TreeEstimate, estimate_tree};

/// The most tiles the search handles (a 32x32 board; a power of two, so
/// cell indices can be masked into the board array).
pub(crate) const MAX_TILES: usize = 1024;

/// The revision of the tree above the work units (which placements the
/// first depths allow): a checkpoint of finished units made by another
/// revision numbers other subtrees. Raise it whenever those depths change.
/// Revision 2: the first cell of a framed board holds the smallest corner
/// piece (tables.rs, `first_of_a_closed_orbit`).
pub(crate) const UNITS_REVISION: u32 = 2;

impl Backtrack {
    /// What a checkpoint of this search's work units records as its search:
    /// the order (and full tree) and the units' revision.
    pub(crate) fn units_name(&self) -> String {
        format!("{} units r{UNITS_REVISION}", self.searched())
    }
}

/// The native backtracking solver.
#[derive(Clone, Copy, Debug)]
pub struct Backtrack {
    pub order: Order,
    /// Search one board turn of every solution and emit its four turns
    /// (docs/architecture.md, "Backtracking"); only without `--symmetry`.
    /// `Turns::Full` searches the full tree, for node-count studies.
    pub turns: Turns,
    /// How searches for the first solutions (`--limit`, without symmetry
    /// rules or work units) restart; `None`: they do not.
    pub restarts: Option<Restarts>,
    /// Searches for the first solutions (`--limit`, without work units)
    /// in the row orders check, before each descent, that the next row
    /// can still be started (docs/backtracking.md, "Lookahead").
    pub lookahead: bool,
}

impl Backtrack {
    pub fn new(order: Order) -> Backtrack {
        Backtrack {
            order,
            turns: Turns::Reduce,
            restarts: Some(Restarts::default()),
            lookahead: true,
        }
    }

    /// The same search over the full tree (every board turn searched).
    pub fn full_tree(order: Order) -> Backtrack {
        Backtrack {
            order,
            turns: Turns::Full,
            restarts: Some(Restarts::default()),
            lookahead: true,
        }
    }

    /// The search for first solutions: the row order, with restarts.
    pub fn first_solutions() -> Backtrack {
        Backtrack::new(FIRST_SOLUTIONS_ORDER)
    }
}

impl Default for Backtrack {
    fn default() -> Self {
        Backtrack::new(DEFAULT_ORDER)
    }
}

/// The default placement order (the fastest measured for complete runs,
/// docs/benchmarks.md).
pub(crate) const DEFAULT_ORDER: Order = Order::Spiral;

/// The default placement order of searches for first solutions (with
/// restarts): the spiral leaves a framed board's border to the end, where
/// few border pieces fit, and stalls there (docs/backtracking.md, "Restarts").
pub(crate) const FIRST_SOLUTIONS_ORDER: Order = Order::Row;

impl Solver for Backtrack {
    fn engine(&self) -> crate::solve::Engine {
        crate::solve::Engine::named(<kind::Kind as crate::solve::kind::EngineKind>::NAME)
    }
    fn exact_reports(&self) -> bool {
        true
    }
    fn searched(&self) -> Searched {
        self.name_searched()
    }
    fn enumerate(
        &self,
        puzzle: &Puzzle,
        options: &SolveOptions,
        cancel: &Cancel,
        callback: &mut dyn SolutionCallback,
    ) -> Result<SolverRun, SolveError> {
        fits(puzzle)?;
        let start = Instant::now();
        // Identical or rotation-symmetric tiles: search pictures (tile
        // kinds in distinct orientations) when each picture stands for more
        // labelled boards than the turn reduction saves (4); the collector
        // expands them where labelled boards are wanted.
        // Work units report labelled classes: a picture class may be found
        // in two units, so only labelled counts add up across runs.
        let kinds = self.turns == Turns::Reduce
            && options.symmetry.is_none()
            && options.units.is_none()
            && search_pictures(labellings_per_picture(puzzle));
        let setup = Setup {
            turns: self.turns,
            kinds,
            lists: false,
            lookahead: self.lookahead && options.limit.is_some() && options.units.is_none(),
        };
        let watch = Watch::new(cancel);
        let check = || watch.check();
        let stop = AtomicBool::new(check());
        let threads = options.threads.max(1);
        let restarts = self.restarts.filter(|_| {
            options.limit.is_some() && options.units.is_none() && options.symmetry.is_none()
        });
        let (mut per_depth, mut units) = (vec![0; puzzle.len()], None);
        let (mut attempts, mut complete) = (None, false);
        let stopped = stop.load(Ordering::Relaxed);
        if let Some(restarts) = restarts.filter(|_| !stopped) {
            let plan = restarts::Plan {
                puzzle,
                order: self.order,
                setup,
                restarts,
                threads,
                stop: &stop,
                check: &check,
            };
            let done = plan.run(callback);
            (per_depth, attempts, complete) = (done.per_depth, Some(done.attempts), done.complete);
        } else if !stopped {
            let t = Tables::new(puzzle, self.order, &options.symmetry, setup);
            let run = Run {
                t: &t,
                threads,
                stop: &stop,
                check: &check,
                units: options.units.as_deref(),
            };
            (per_depth, units) = by_words!(t.words, W => run.go::<W>(callback));
        }
        let total: u64 = per_depth.iter().sum();
        let elapsed = start.elapsed().as_secs_f64();
        let status = if callback.enough() {
            RunStatus::Stopped(StopReason::Limit)
        } else if complete {
            RunStatus::Complete
        } else {
            watch
                .stopped(&stop)
                .map_or(RunStatus::Complete, RunStatus::Stopped)
        };
        Ok(SolverRun {
            answered: None,
            status,
            stats: SolverStats::of(&kind::Stats {
                nodes: Some(total),
                nodes_per_depth: Some(per_depth),
                nodes_per_second: Some(if elapsed > 0.0 {
                    total as f64 / elapsed
                } else {
                    0.0
                }),
                wall_time_s: Some(elapsed),
                workers: Some(threads),
                units: crate::solve::kind::UnitStats {
                    units: units.as_ref().map(|u| u.total as u64),
                    units_run: units.as_ref().map(|u| u.run as u64),
                    unit_depth: units.as_ref().map(|u| u.depth),
                },
                attempts,
            }),
        })
    }
}

/// Whether the search handles a board this large.
fn fits(puzzle: &Puzzle) -> Result<(), SolveError> {
    if puzzle.len() > MAX_TILES {
        return Err(SolveError::TooLarge(format!(
            "{}: {} tiles; the backtracking solver handles at most {MAX_TILES} (32x32)",
            puzzle.source().display(),
            puzzle.len()
        )));
    }
    Ok(())
}

/// The run's [`Cancel`] as the search looks at it every `CHECK_EVERY`
/// nodes (the time limit counted from the solve's start), with why it
/// first said stop.
struct Watch {
    cancel: Cancel,
    why: OnceLock<Stopped>,
}

impl Watch {
    fn new(cancel: &Cancel) -> Watch {
        Watch {
            cancel: cancel.clone(),
            why: OnceLock::new(),
        }
    }

    /// Whether to stop now.
    fn check(&self) -> bool {
        match self.cancel.check() {
            Ok(()) => false,
            Err(why) => {
                let _ = self.why.set(why);
                true
            }
        }
    }

    /// Why a search that set `stop` was stopped (what [`Watch::check`]
    /// saw; else the search's own stop, asked by its caller); `None` if it
    /// was not.
    fn stopped(&self, stop: &AtomicBool) -> Option<StopReason> {
        stop.load(Ordering::Relaxed).then(|| {
            self.why
                .get()
                .map_or(StopReason::Interrupted, |&why| why.into())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Placement, Solution};
    use crate::generate::{PlantOptions, Rng, plant};
    use crate::solve::{Stands, StopToken};

    /// Every board the solver reports, in order.
    #[derive(Default)]
    struct Boards(Vec<Vec<Placement>>);
    impl SolutionCallback for Boards {
        fn on_solution(&mut self, cells: &[Placement], stands: Stands) {
            let s = Solution::new(cells.to_vec());
            match stands {
                Stands::Board => self.0.push(cells.to_vec()),
                Stands::Turns => self.0.extend(s.turns().iter().map(|t| t.cells().to_vec())),
                Stands::PictureClass => panic!("the labelled search reports no pictures"),
            }
        }
    }

    fn boards(bt: Backtrack, p: &Puzzle, threads: usize) -> (Vec<Vec<Placement>>, SolverRun) {
        let mut b = Boards::default();
        let opts = SolveOptions {
            threads,
            ..SolveOptions::default()
        };
        let run = bt.enumerate(p, &opts, &Cancel::never(), &mut b).unwrap();
        b.0.sort_by_key(|cells| {
            cells
                .iter()
                .map(|c| (c.tile, c.rotation))
                .collect::<Vec<_>>()
        });
        (b.0, run)
    }

    /// Counts the boards it gets, and stops the run (as Ctrl-C would) at
    /// the first.
    struct StopAtFirst {
        token: StopToken,
        boards: u64,
    }
    impl SolutionCallback for StopAtFirst {
        fn on_solution(&mut self, _: &[Placement], _: Stands) {
            self.boards += 1;
            self.token.stop();
        }
    }

    #[test]
    fn a_stop_is_seen_between_boards_where_every_node_is_a_board() {
        // Nine identical tiles that match every way: every node of the
        // last depth is a board (9! * 4^9 of them), so tens of thousands
        // of boards pass between two looks at the clock by nodes.
        let mut text = String::new();
        for k in 1..=9 {
            text.push_str(&format!("{k}: [[a, '='], [a, '='], [a, '='], [a, '=']]\n"));
        }
        let p = Puzzle::parse(&text, std::path::Path::new("same.yaml"), "same".into()).unwrap();
        let bt = Backtrack {
            turns: Turns::Full,
            ..Backtrack::new(Order::Row)
        };
        for threads in [1, 2] {
            let token = StopToken::new();
            let opts = SolveOptions {
                threads,
                stop: token.clone(),
                ..SolveOptions::default()
            };
            let mut cb = StopAtFirst { token, boards: 0 };
            let cancel = opts.cancel(Instant::now());
            let run = bt.enumerate(&p, &opts, &cancel, &mut cb).unwrap();
            assert!(
                matches!(run.status, RunStatus::Stopped(_)),
                "{threads} threads"
            );
            // One look per 64 boards with one thread; one per batch of
            // 256 with more (and the batches already on their way).
            let most = if threads == 1 { 64 } else { 256 * 8 };
            assert!(cb.boards <= most, "{threads} threads: {} boards", cb.boards);
        }
    }

    #[test]
    fn the_turn_reduction_reports_the_full_tree_solutions() {
        // Odd and even boards, both reductions, one and two threads.
        for (n, motifs, seed) in [
            (1, 2, 1),
            (2, 2, 2),
            (3, 3, 3),
            (3, 2, 4),
            (4, 4, 5),
            (5, 6, 6),
        ] {
            let (p, _) = plant(
                &mut Rng::new(seed),
                &PlantOptions {
                    n,
                    motifs,
                    self_matching: seed % 2 == 0,
                },
            );
            // The frame order's ring has one placed neighbour per cell: too
            // many nodes in the full tree of an unframed 5x5.
            for order in Order::ALL
                .into_iter()
                .filter(|&o| o != Order::Frame || n < 4)
            {
                let (full, full_run) = boards(Backtrack::full_tree(order), &p, 1);
                assert!(!full.is_empty());
                for threads in [1, 2] {
                    let (reduced, run) = boards(Backtrack::new(order), &p, threads);
                    assert_eq!(reduced, full, "n = {n}, {order}, {threads} threads");
                    let depth = run.stats.own::<kind::Stats>().nodes_per_depth.unwrap();
                    // The reduced tree finds one board of each four.
                    assert_eq!(*depth.last().unwrap() * 4, full.len() as u64);
                    assert!(run.stats.count("nodes") <= full_run.stats.count("nodes"));
                }
            }
        }
    }

    #[test]
    fn a_stop_before_the_start_reports_stopped() {
        let (p, _) = plant(
            &mut Rng::new(9),
            &PlantOptions {
                n: 3,
                motifs: 3,
                self_matching: false,
            },
        );
        let stop = StopToken::new();
        stop.stop();
        let opts = SolveOptions {
            stop,
            ..SolveOptions::default()
        };
        let mut b = Boards::default();
        let cancel = opts.cancel(Instant::now());
        let run = Backtrack::default()
            .enumerate(&p, &opts, &cancel, &mut b)
            .unwrap();
        assert_eq!(run.status, RunStatus::Stopped(StopReason::Interrupted));
        assert!(b.0.is_empty());
        assert_eq!(run.stats.count("nodes"), Some(0));
    }
}

//! Restarts for first-solution searches (`--limit`): the search runs on a
//! node budget that follows the Luby sequence, and each new attempt
//! searches the tiles in another seeded random order, each tile turned by a
//! random quarter (a relabelled copy of the puzzle, its boards mapped
//! back). A depth-first search stuck under an early wrong choice (a heavy
//! tail) is left after its budget instead of searched to its end; an
//! attempt that searches its whole tree has found every solution, so a run
//! with restarts still ends complete where there are fewer solutions than
//! the limit. With one thread, its attempts start with the puzzle as it
//! is; with more, the first two threads share the search of the puzzle as
//! it is, without a budget (split.rs), the third makes the one-thread
//! run's other attempts, and every other runs its own sequence of attempts
//! (a portfolio).

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::board::{Placement, Solution};
use crate::puzzle::Puzzle;
use crate::rng::Rng;
use crate::solve::pool::{self, Event, Flow, Given, Outbox, Shape};
use crate::solve::{SolutionCallback, Stands};
use crate::symmetry::{Realizer, Symmetry, canonical};

use super::Order;
use super::bits::MAX_WORDS;
use super::relabel::{Msg, relabel, send_back};
use super::search::search_below;
use super::split::{self, Split};
use super::state::CHECK_EVERY;
use super::tables::{Setup, Tables};

/// How first-solution searches restart: the Luby sequence times `unit`
/// nodes per attempt, tile orders drawn from `seed`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Restarts {
    pub seed: u64,
    /// Nodes of the shortest attempt (rounded up to a multiple of 65,536,
    /// how often the search looks at the clock).
    pub unit: u64,
}

impl Restarts {
    /// The looks at the clock (one per `CHECK_EVERY` nodes) in a unit: the
    /// unit rounded up to a whole number of them.
    fn checks(&self) -> u64 {
        self.unit.div_ceil(CHECK_EVERY as u64).max(1)
    }
}

/// The measured default unit (docs/benchmarks.md, "First solutions: restarts and the race").
pub(super) const DEFAULT_UNIT: u64 = 1 << 18;

impl Default for Restarts {
    fn default() -> Self {
        Restarts {
            seed: 1,
            unit: DEFAULT_UNIT,
        }
    }
}

/// The `i`-th term (from 1) of the Luby sequence: 1 1 2 1 1 2 4 1 1 2 ...
pub(super) fn luby(i: u64) -> u64 {
    debug_assert!(i >= 1);
    let mut i = i;
    loop {
        // The smallest k with i <= 2^k - 1.
        let k = 64 - i.leading_zeros() as u64;
        if i == (1 << k) - 1 {
            return 1 << (k - 1);
        }
        i -= (1 << (k - 1)) - 1;
    }
}

/// What one restart search is given.
pub(super) struct Plan<'a> {
    pub(super) puzzle: &'a Puzzle,
    pub(super) order: Order,
    pub(super) setup: Setup,
    pub(super) restarts: Restarts,
    pub(super) threads: usize,
    /// Set to stop every worker (the caller's stop, or enough found).
    pub(super) stop: &'a AtomicBool,
    /// The clock and Ctrl-C.
    pub(super) check: &'a (dyn Fn() -> bool + Sync),
}

/// What a restart search did.
pub(super) struct Done {
    pub(super) per_depth: Vec<u64>,
    /// Attempts started, over all workers.
    pub(super) attempts: u64,
    /// Some attempt searched its whole tree.
    pub(super) complete: bool,
}

/// What the coordinator has passed on.
#[derive(Default)]
struct Passed {
    /// The classes passed on.
    seen: HashSet<Solution>,
    /// The callback has enough. Not the stop flag: an attempt that ends
    /// its tree sets it with its last boards still on their way.
    enough: bool,
    /// Picture classes' canonical forms, built at the first one.
    realizer: Option<Realizer>,
}

impl Plan<'_> {
    /// Run the workers and hand their boards, each class once, to
    /// `callback`, until it has enough, an attempt ends its tree, or the
    /// caller stops the search.
    pub(super) fn run(&self, callback: &mut dyn SolutionCallback) -> Done {
        let threads = self.threads.max(1);
        let attempts = AtomicU64::new(0);
        let complete = AtomicBool::new(false);
        let mut per_depth = vec![0u64; self.puzzle.len()];
        let mut passed = Passed::default();
        // With two threads or more, the first two split the plain tree
        // (split.rs), counted as one attempt.
        let plain = (threads > 1).then(|| relabel(self.puzzle, None));
        let none = Symmetry::none();
        let tables = plain
            .as_ref()
            .map(|(p, back)| (Tables::new(p, self.order, &none, self.setup), back));
        let split = tables.as_ref().map(|(t, back)| {
            attempts.fetch_add(1, Ordering::Relaxed);
            by_words!(t.words, W => Split::new::<W>(t, back, self.stop, self.check))
        });
        if let Some(split) = &split {
            for (a, b) in per_depth.iter_mut().zip(&split.per_depth) {
                *a += b;
            }
            if split.is_empty() && !self.stop.load(Ordering::Relaxed) {
                complete.store(true, Ordering::Relaxed);
                self.stop.store(true, Ordering::Relaxed);
            }
        }
        let shape = Shape {
            workers: threads,
            bound: Some(2 * threads),
            tick: None,
        };
        let nodes = pool::run(
            shape,
            Given::All(std::iter::empty::<()>()),
            |k, _, tx| self.worker(k, split.as_ref(), tx, &attempts, &complete),
            |event, _| {
                if let Event::Message(msg) = event {
                    self.collect(msg, &mut passed, callback);
                }
                Flow::Listen
            },
        );
        for worker in nodes {
            for (a, b) in per_depth.iter_mut().zip(worker) {
                *a += b;
            }
        }
        Done {
            per_depth,
            attempts: attempts.into_inner(),
            complete: complete.into_inner(),
        }
    }

    /// Pass on each class the first time a worker finds it (attempts find
    /// the same boards again, each labelled and turned its own way).
    fn collect(
        &self,
        (cells, stands): Msg,
        passed: &mut Passed,
        callback: &mut dyn SolutionCallback,
    ) {
        if passed.enough {
            return;
        }
        let s = Solution::shaped(cells, self.puzzle.shape());
        let key = match stands {
            Stands::Board => s.clone(),
            Stands::Turns => canonical(&s),
            Stands::PictureClass => passed
                .realizer
                .get_or_insert_with(|| Realizer::new(self.puzzle))
                .canonical(self.puzzle, &s),
        };
        if passed.seen.insert(key) {
            callback.on_solution(s.cells(), stands);
            if callback.enough() {
                passed.enough = true;
                self.stop.store(true, Ordering::Relaxed);
            }
        }
    }

    /// Worker `k`: its share of the split plain tree, or attempts until
    /// the search stops; its nodes per depth.
    fn worker(
        &self,
        k: usize,
        split: Option<&Split<'_, '_>>,
        tx: &Outbox<Msg>,
        attempts: &AtomicU64,
        complete: &AtomicBool,
    ) -> Vec<u64> {
        let mut nodes = vec![0u64; self.puzzle.len()];
        if let Some(split) = split.filter(|_| k < split::WORKERS) {
            let t = split.tables();
            if by_words!(t.words, W => split.work::<W>(tx, self.stop, self.check, &mut nodes)) {
                complete.store(true, Ordering::Relaxed);
                self.stop.store(true, Ordering::Relaxed);
            }
            return nodes;
        }
        // With more threads than the split's, the first after it makes the
        // one-thread run's relabellings (the same draws on the same
        // budgets, from its second attempt on): more threads never need
        // more attempts than one. The others draw their own.
        let several = split.is_some();
        let stream = if several { k - split::WORKERS } else { k };
        let mut rng =
            Rng::new(self.restarts.seed ^ (stream as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let none = Symmetry::none();
        let from = if several && stream == 0 { 2 } else { 1 };
        for i in from.. {
            if self.stop.load(Ordering::Relaxed) {
                break;
            }
            attempts.fetch_add(1, Ordering::Relaxed);
            let first = !several && i == 1;
            let (puzzle, back) = relabel(self.puzzle, (!first).then_some(&mut rng));
            let t = Tables::new(&puzzle, self.order, &none, self.setup);
            let budget = luby(i).saturating_mul(self.restarts.checks());
            let attempt = Attempt {
                t: &t,
                back: &back,
                budget,
                tx,
                stop: self.stop,
                check: self.check,
            };
            let ended = by_words!(t.words, W => attempt.go::<W>(&mut nodes));
            match ended {
                Ended::Tree => {
                    complete.store(true, Ordering::Relaxed);
                    self.stop.store(true, Ordering::Relaxed);
                    break;
                }
                Ended::Budget => {}
                Ended::Stopped => break,
            }
        }
        nodes
    }
}

/// How an attempt ended.
enum Ended {
    /// It searched its whole tree.
    Tree,
    /// Its budget ran out.
    Budget,
    /// The search was stopped.
    Stopped,
}

/// One attempt: a search of a relabelled puzzle on a budget of checks
/// (one per `CHECK_EVERY` nodes).
struct Attempt<'a, 'p> {
    t: &'a Tables<'p>,
    back: &'a [(i64, u8)],
    budget: u64,
    tx: &'a Outbox<Msg>,
    stop: &'a AtomicBool,
    check: &'a (dyn Fn() -> bool + Sync),
}

impl Attempt<'_, '_> {
    fn go<const W: usize>(&self, nodes: &mut [u64]) -> Ended {
        let t = self.t;
        let checks = AtomicU64::new(0);
        let out_of_budget = AtomicBool::new(false);
        let check = || {
            if (self.check)() || self.stop.load(Ordering::Relaxed) {
                self.stop.store(true, Ordering::Relaxed);
                return true;
            }
            // Only the looks per CHECK_EVERY descents count toward the
            // attempt's budget, not those row-end checks' work asked for.
            if super::state::work_check() {
                return false;
            }
            let spent = checks.fetch_add(1, Ordering::Relaxed) + 1 >= self.budget;
            if spent {
                out_of_budget.store(true, Ordering::Relaxed);
            }
            spent
        };
        let halt = AtomicBool::new(false);
        let mut st = t.state::<W>(&halt, &check);
        let mut buf = Vec::new();
        let mut out = |cells: &[Placement]| send_back(self.back, t, self.tx, self.stop, cells);
        let finished = search_below(t, &mut st, &[], &mut buf, &mut out, self.stop);
        for (a, b) in nodes.iter_mut().zip(&st.nodes) {
            *a += b;
        }
        if finished && !halt.load(Ordering::Relaxed) {
            Ended::Tree
        } else if out_of_budget.load(Ordering::Relaxed) && !self.stop.load(Ordering::Relaxed) {
            Ended::Budget
        } else {
            Ended::Stopped
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::backtrack::Backtrack;
    use crate::generate::{PlantOptions, Rng as GenRng, plant};
    use crate::solve::{Outcome, SolveOptions, run};

    /// A planted puzzle whose tree takes many attempts of 65,536 nodes.
    fn planted(n: usize, motifs: usize, seed: u64, self_matching: bool) -> Puzzle {
        plant(
            &mut GenRng::new(seed),
            &PlantOptions {
                n,
                motifs,
                self_matching,
            },
        )
        .0
    }

    fn restarting(order: Order, seed: u64) -> Backtrack {
        Backtrack {
            restarts: Some(Restarts { seed, unit: 1 }),
            ..Backtrack::new(order)
        }
    }

    #[test]
    fn a_relabelled_puzzle_maps_back_to_the_same_solutions() {
        let p = planted(4, 3, 7, true);
        let options = SolveOptions::default();
        let plain = Backtrack {
            restarts: None,
            ..Backtrack::default()
        };
        let all = run(&plain, &p, &options).unwrap();
        for seed in 0..4 {
            let (q, back) = relabel(&p, Some(&mut Rng::new(seed)));
            let theirs = run(&plain, &q, &options).unwrap();
            let mut mapped: Vec<Solution> = theirs
                .raw
                .iter()
                .map(|s| {
                    let cells = s
                        .cells()
                        .iter()
                        .map(|c| {
                            let (tile, turn) = back[c.tile as usize];
                            Placement {
                                tile,
                                rotation: (c.rotation + turn) % 4,
                            }
                        })
                        .collect();
                    Solution::shaped(cells, p.shape())
                })
                .collect();
            mapped.sort();
            assert_eq!(mapped, all.raw, "seed {seed}");
        }
    }

    #[test]
    fn restarts_past_every_solution_end_complete_with_each_class_once() {
        // Trees of 4-8 units: one solution, and two classes of one
        // picture (a tile that shows the same edges after a half turn).
        // Two threads share the plain tree (split.rs); a third restarts
        // beside them.
        for (n, motifs, seed, threads) in [(5, 8, 1, 1), (5, 7, 1, 1), (5, 7, 1, 2), (5, 7, 1, 3)] {
            let p = planted(n, motifs, seed, true);
            let plain = Backtrack {
                restarts: None,
                ..Backtrack::default()
            };
            let all = run(&plain, &p, &SolveOptions::default()).unwrap();
            {
                let options = SolveOptions {
                    threads,
                    limit: Some(usize::MAX),
                    ..SolveOptions::default()
                };
                // Without the lookahead, which cuts these trees to a unit.
                let bt = Backtrack {
                    lookahead: false,
                    ..restarting(Order::Row, seed)
                };
                let r = run(&bt, &p, &options).unwrap();
                assert_eq!(r.outcome, Outcome::Complete);
                assert_eq!(r.counts, all.counts, "{n}x{n}, {threads} threads");
                assert_eq!(r.raw, all.raw);
                // One thread: attempts with budgets of 1, 1, 2, 1, 1, 2,
                // 4, ... units before one covers the tree. (With three, the
                // shared search may end first.)
                if threads == 1 {
                    assert!(r.stats.count("attempts").unwrap() >= 3, "{:?}", r.stats);
                }
                // Two threads: the one shared search, no restart.
                if threads == 2 {
                    assert_eq!(r.stats.count("attempts"), Some(1));
                }
            }
        }
    }

    #[test]
    fn each_class_reaches_the_collector_once() {
        // A puzzle with twins: boards of one picture class differ in
        // which twin lies where.
        let p = (1..50)
            .map(|seed| planted(3, 2, seed, false))
            .find(|p| crate::generate::tiles_with_twins(p) > 0)
            .unwrap();
        let plain = Backtrack {
            restarts: None,
            ..Backtrack::default()
        };
        let all = run(&plain, &p, &SolveOptions::default()).unwrap();
        let s = all.raw[0].clone();
        let mut same = Vec::new();
        crate::symmetry::each_same_picture(&p, &s, &mut |b| {
            same.push(b);
            true
        });
        assert!(same.len() > 1);
        let turned = s.turns()[1].clone();
        let stop = AtomicBool::new(false);
        let plan = Plan {
            puzzle: &p,
            order: Order::Row,
            setup: Setup::default(),
            restarts: Restarts::default(),
            threads: 1,
            stop: &stop,
            check: &|| false,
        };
        struct Got(Vec<Stands>);
        impl SolutionCallback for Got {
            fn on_solution(&mut self, _: &[Placement], stands: Stands) {
                self.0.push(stands);
            }
        }
        // A run reports one kind of board: each is passed on once.
        let turns = [&s, &turned, &s];
        let pictures: Vec<&Solution> = same.iter().chain([&turned]).collect();
        for (boards, stands) in [
            (&turns[..], Stands::Turns),
            (&pictures, Stands::PictureClass),
        ] {
            let (mut got, mut passed) = (Got(Vec::new()), Passed::default());
            for b in boards {
                plan.collect((b.cells().to_vec(), stands), &mut passed, &mut got);
            }
            assert_eq!(got.0, [stands]);
        }
    }

    #[test]
    fn the_luby_sequence() {
        let seq: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(seq, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }
}

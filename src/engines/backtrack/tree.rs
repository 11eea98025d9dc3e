//! Knuth's estimate of the size of the backtracker's search tree in one
//! placement order (D. E. Knuth, "Estimating the efficiency of backtrack
//! programs", Math. Comp. 29, 1975): for boards whose full search no one can
//! wait for (the meta boards, Eternity II), how many nodes it would take.
//!
//! A probe walks from the root: at each depth it lists the candidates the
//! search would try there (the same tables, frame, hints and lists as the
//! search itself), multiplies their number into its weight and follows one
//! of them uniformly at random. The weight at depth d is an unbiased
//! estimate of the nodes at depth d of the full tree; summed over the
//! depths, of the whole tree; at the last depth, of the labelled solutions.
//! Like [`super::probe`], the tree is the full one (no turn reduction),
//! labelled tiles, so it is the tree `probe` walks and any plain
//! backtracker in that order would.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::puzzle::Puzzle;
use crate::rng::Rng;
use crate::solve::Turns;
use crate::solve::{SolveError, SolveOptions, StopReason};
use crate::symmetry::Symmetry;

use super::bits::MAX_WORDS;
use super::search::search;
use super::tables::{Setup, Tables};
use super::{Order, Watch, fits};

/// A mean over probes and its standard error.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Mean {
    pub mean: f64,
    pub std_error: f64,
}

impl Mean {
    /// The 95% confidence interval (normal approximation), clipped at 0.
    pub fn interval_95(&self) -> (f64, f64) {
        let h = 1.96 * self.std_error;
        ((self.mean - h).max(0.0), self.mean + h)
    }

    /// This estimate of a count of full boards, or none when fewer than
    /// [`Mean::HITS_NEEDED`] probes (`complete_probes`) reached a full
    /// board. With none, the mean and its error are both 0 whatever the
    /// count is; with a few, the sample's error is itself a guess (Knuth's
    /// estimates are heavy-tailed: two hits on clue1 gave an interval that
    /// missed its published count by 10x), so no interval is claimed.
    pub(crate) fn if_reached(self, complete_probes: u64) -> Option<Mean> {
        (complete_probes >= Mean::HITS_NEEDED).then_some(self)
    }

    /// The probes that must reach a full board before an estimate and its
    /// 95% interval are given (the usual minimum sample for the normal
    /// approximation).
    pub const HITS_NEEDED: u64 = 30;
}

/// Sums of a sample, for its mean and standard error.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Sums {
    sum: f64,
    sum_sq: f64,
}

impl Sums {
    pub(crate) fn add(&mut self, x: f64) {
        self.sum += x;
        self.sum_sq += x * x;
    }

    /// The mean of the `n` values added, and its standard error.
    pub(crate) fn mean(&self, n: u64) -> Mean {
        if n == 0 {
            return Mean::default();
        }
        let k = n as f64;
        let mean = self.sum / k;
        let var = if n > 1 {
            ((self.sum_sq - self.sum * self.sum / k) / (k - 1.0)).max(0.0)
        } else {
            0.0
        };
        Mean {
            mean,
            std_error: (var / k).sqrt(),
        }
    }
}

/// What the probes say of the tree.
#[derive(Clone, Debug)]
pub struct TreeEstimate {
    pub order: Order,
    /// Probes made (fewer than asked when stopped).
    pub probes: u64,
    /// Why the probes stopped early, if they did.
    pub stopped: Option<StopReason>,
    /// Nodes (placements) of the whole tree.
    pub nodes: Mean,
    /// Nodes per depth (0-based), the means.
    pub nodes_per_depth: Vec<f64>,
    /// Labelled solutions (full boards).
    pub solutions: Mean,
    /// Probes that reached a full board.
    pub complete_probes: u64,
    /// The deepest any probe got (cells filled).
    pub deepest: usize,
    pub time_s: f64,
}

impl TreeEstimate {
    /// The estimate of the labelled solutions, or none when no probe
    /// reached a full board ([`Mean::if_reached`]).
    pub fn solutions_estimate(&self) -> Option<Mean> {
        self.solutions.if_reached(self.complete_probes)
    }
}

/// `probes` random probes of the full search tree of `puzzle` in `order`,
/// seeded with `seed` (the same seed gives the same estimate), within the
/// time limit and stop token of `options`.
pub fn estimate_tree(
    puzzle: &Puzzle,
    order: Order,
    probes: u64,
    seed: u64,
    options: &SolveOptions,
) -> Result<TreeEstimate, SolveError> {
    fits(puzzle)?;
    let start = Instant::now();
    let none = Symmetry::none();
    let t = Tables::new(puzzle, order, &none, Setup::turns(Turns::Full));
    let watch = Watch::new(&options.cancel(start));
    let check = || watch.check();
    let stop = AtomicBool::new(check());
    let mut rng = Rng::new(seed);
    let cells = t.cells;
    let mut per_depth = vec![Sums::default(); cells];
    let mut total = Sums::default();
    let (mut made, mut complete, mut deepest) = (0u64, 0u64, 0usize);
    by_words!(t.words, W => {
        // The walk's own stop flag: a probe lists one depth at a time and
        // never stops part way.
        let never = AtomicBool::new(false);
        let no = || false;
        let mut st = t.state::<W>(&never, &no);
        let mut prefix: Vec<u16> = Vec::with_capacity(cells);
        let mut children: Vec<u16> = Vec::new();
        let mut weights = vec![0.0f64; cells];
        while made < probes {
            if stop.load(Ordering::Relaxed) || (made % 16 == 0 && check()) {
                stop.store(true, Ordering::Relaxed);
                break;
            }
            prefix.clear();
            weights.iter_mut().for_each(|w| *w = 0.0);
            let mut weight = 1.0f64;
            for (d, w) in weights.iter_mut().enumerate() {
                st.set_prefix(&t, &prefix);
                children.clear();
                let cell = t.steps[d].cell;
                search(&t, &mut st, d, d + 1, &mut |placed| {
                    children.push(placed[cell]);
                    true
                });
                if children.is_empty() {
                    break;
                }
                weight *= children.len() as f64;
                *w = weight;
                prefix.push(children[rng.below(children.len())]);
            }
            deepest = deepest.max(prefix.len());
            if prefix.len() == cells {
                complete += 1;
            }
            for (s, &w) in per_depth.iter_mut().zip(&weights) {
                s.add(w);
            }
            total.add(weights.iter().sum());
            made += 1;
        }
    });
    let solutions = per_depth.last().map_or(Mean::default(), |s| s.mean(made));
    Ok(TreeEstimate {
        order,
        probes: made,
        stopped: watch.stopped(&stop),
        nodes: total.mean(made),
        nodes_per_depth: per_depth.iter().map(|s| s.mean(made).mean).collect(),
        solutions,
        complete_probes: complete,
        deepest,
        time_s: start.elapsed().as_secs_f64(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{FamilyOptions, PlantOptions, plant, plant_family};
    use crate::puzzle::Turning;
    use crate::solve::{self, Keep};

    #[test]
    fn the_estimate_brackets_the_full_tree() {
        let unframed = plant(
            &mut Rng::new(3),
            &PlantOptions {
                n: 4,
                motifs: 3,
                self_matching: false,
            },
        )
        .0;
        let framed = plant_family(
            &mut Rng::new(4),
            &FamilyOptions {
                rows: 4,
                cols: 5,
                frame_colours: 2,
                inner_colours: 3,
                turning: Turning::Quarter,
                hint: false,
            },
        )
        .0;
        for p in [unframed, framed] {
            for order in Order::ALL
                .into_iter()
                .filter(|&o| o != Order::Frame || p.frame().is_some())
            {
                let exact = solve::run(
                    &super::super::Backtrack::full_tree(order),
                    &p,
                    &SolveOptions {
                        keep: Keep::Count,
                        ..SolveOptions::default()
                    },
                )
                .unwrap();
                let depth = exact
                    .stats
                    .own::<crate::engines::backtrack::kind::Stats>()
                    .nodes_per_depth
                    .unwrap();
                let e = estimate_tree(&p, order, 20_000, 1, &SolveOptions::default()).unwrap();
                assert_eq!(e.probes, 20_000);
                assert_eq!(e.stopped, None);
                // The root's children are counted, not sampled.
                assert_eq!(e.nodes_per_depth[0], depth[0] as f64, "{order}");
                let nodes = depth.iter().sum::<u64>() as f64;
                assert!(
                    (e.nodes.mean - nodes).abs() <= 5.0 * e.nodes.std_error,
                    "{order}: {:?} vs {nodes}",
                    e.nodes
                );
                let sols = exact.counts.raw as f64;
                assert!(
                    (e.solutions.mean - sols).abs() <= 5.0 * e.solutions.std_error,
                    "{order}: {:?} vs {sols}",
                    e.solutions
                );
                assert!(e.complete_probes > 0 && e.deepest == p.cells());
                let claimed = (e.complete_probes >= Mean::HITS_NEEDED).then_some(e.solutions);
                assert_eq!(e.solutions_estimate(), claimed);
                // The same seed, the same estimate.
                let again = estimate_tree(&p, order, 20_000, 1, &SolveOptions::default()).unwrap();
                assert_eq!((again.nodes, again.solutions), (e.nodes, e.solutions));
            }
        }
    }

    #[test]
    fn a_stop_ends_the_probes() {
        let p = plant(
            &mut Rng::new(5),
            &PlantOptions {
                n: 5,
                motifs: 3,
                self_matching: false,
            },
        )
        .0;
        let stop = crate::solve::StopToken::new();
        stop.stop();
        let opts = SolveOptions {
            stop,
            ..SolveOptions::default()
        };
        let e = estimate_tree(&p, Order::Row, 1_000, 1, &opts).unwrap();
        assert_eq!((e.probes, e.stopped), (0, Some(StopReason::Interrupted)));
        assert_eq!(e.solutions_estimate(), None);
    }

    #[test]
    fn no_full_board_gives_no_solution_estimate() {
        // Every edge shows a+, which only a- matches: no tile fits beside
        // the first, so every probe dies at depth 1.
        let text = (1..=4)
            .map(|id| format!("{id}: [[a, '+'], [a, '+'], [a, '+'], [a, '+']]\n"))
            .collect::<String>();
        let p = Puzzle::parse(&text, std::path::Path::new("t.yaml"), "t".into()).unwrap();
        let e = estimate_tree(&p, Order::Row, 50, 1, &SolveOptions::default()).unwrap();
        assert_eq!((e.probes, e.complete_probes, e.deepest), (50, 0, 1));
        assert_eq!(e.solutions_estimate(), None);
    }
}

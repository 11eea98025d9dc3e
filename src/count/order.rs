//! The enumeration's placement order when `--order` is not given: chosen
//! by Knuth's estimate of each order's search tree.

use std::time::Instant;

use crate::engines::backtrack::{DEFAULT_ORDER, Order, estimate_tree};
use crate::puzzle::Puzzle;
use crate::solve::SolveOptions;

use super::CountOptions;

/// Probes of each order's tree when choosing.
const ORDER_PROBES: u64 = 10_000;

/// How much smaller another order's estimated tree must be to be chosen
/// over the default (the estimates of a few thousand probes are rough).
const ORDER_MARGIN: f64 = 2.0;

/// The enumeration's order when none is asked for: the default, unless
/// Knuth's estimate of another order's search tree is [`ORDER_MARGIN`]
/// times smaller (on framed boards the row scans or the frame first make
/// trees 10-100 times smaller than the spiral: docs/count.md, "Order").
/// The default's tree is estimated first: when it is smaller than the
/// nodes another order's probes walk (a probe is at most a path of the
/// board's cells), no other order can save what its estimate costs, and
/// none is estimated. Seeded by the count's seed, so shards and resumed
/// checkpoints of one count choose the same (with a time limit, a tenth
/// of it bounds the probes). Returns the order and the estimates, as a
/// note.
pub(super) fn enumeration_order(puzzle: &Puzzle, options: &CountOptions) -> (Order, String) {
    // With a time limit the choice takes at most a tenth of it.
    let start = Instant::now();
    let budget = options.time_limit.map(|t| t / 10);
    let estimate = |o: Order| {
        let solve = SolveOptions {
            time_limit: budget.map(|b| b.saturating_sub(start.elapsed())),
            stop: options.stop.clone(),
            ..SolveOptions::default()
        };
        let e = estimate_tree(puzzle, o, ORDER_PROBES, options.seed, &solve).ok()?;
        (e.probes > 0).then_some((o, e.nodes.mean))
    };
    let default = estimate(DEFAULT_ORDER);
    let probe_cost = (ORDER_PROBES * puzzle.cells() as u64) as f64;
    let small = default.is_some_and(|(_, n)| n <= probe_cost);
    let others = Order::ALL
        .iter()
        .filter(|&&o| o != DEFAULT_ORDER && !small)
        .filter_map(|&o| estimate(o));
    let sizes: Vec<(Order, f64)> = default.into_iter().chain(others).collect();
    let best = sizes
        .iter()
        .copied()
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .filter(|&(_, n)| default.is_none_or(|(_, d)| n * ORDER_MARGIN < d));
    let order = best.map_or(DEFAULT_ORDER, |b| b.0);
    let list: Vec<String> = sizes
        .iter()
        .map(|(o, n)| format!("{} {n:.2e}", o.name()))
        .collect();
    let why = match (list.is_empty(), small) {
        (true, _) => "no estimate finished".to_string(),
        (false, true) => format!(
            "estimated tree nodes {}: fewer than estimating another order walks",
            list.join(", ")
        ),
        (false, false) => format!("estimated tree nodes {}", list.join(", ")),
    };
    (order, why)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn the_order_is_chosen_by_the_estimated_trees_and_a_stop_keeps_the_default() {
        // clue1: the frame first makes a tree hundreds of times smaller
        // than the spiral (docs/count.md, "Order").
        let clue1 = Puzzle::load(Path::new("puzzles/eternity2/clue1.txt")).expect("clue1");
        let (order, why) = enumeration_order(&clue1, &CountOptions::default());
        assert_eq!(order, Order::Frame, "{why}");
        assert!(why.starts_with("estimated tree nodes "), "{why}");
        assert!(
            Order::ALL
                .iter()
                .all(|o| why.contains(&format!("{} ", o.name()))),
            "{why}"
        );
        // The same seed chooses the same.
        assert_eq!(enumeration_order(&clue1, &CountOptions::default()).1, why);
        // Stopped before it starts: no estimate, the default order.
        let stopped = CountOptions::default();
        stopped.stop.stop();
        let (order, why) = enumeration_order(&clue1, &stopped);
        assert_eq!(order, DEFAULT_ORDER);
        assert_eq!(why, "no estimate finished");
    }

    #[test]
    fn a_tree_smaller_than_the_probes_keeps_the_default_unestimated() {
        // The seed puzzle's tree is far smaller than another order's
        // probes would walk: only the default is estimated.
        let seed = Puzzle::load(Path::new("puzzles/3x3-original")).expect("seed");
        let (order, why) = enumeration_order(&seed, &CountOptions::default());
        assert_eq!(order, DEFAULT_ORDER, "{why}");
        assert!(
            why.ends_with("fewer than estimating another order walks"),
            "{why}"
        );
        let others = Order::ALL.iter().filter(|&&o| o != DEFAULT_ORDER);
        assert!(
            others
                .clone()
                .all(|o| !why.contains(&format!("{} ", o.name()))),
            "{why}"
        );
    }
}

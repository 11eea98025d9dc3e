//! A probe of the search: the first partial board that fills the first
//! `depth` cells of a placement order, the nodes it took and the time. This
//! is how the Eternity II community times its backtrackers (a row scan from
//! the bottom-left corner to depth 206), and how far a search gets on a
//! board it cannot finish.
//!
//! The probe searches the full tree (no turn reduction), labelled tiles,
//! one thread, so its node counts are those of the plain search in that
//! order, comparable with any other solver's.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::board::Partial;
use crate::puzzle::Puzzle;
use crate::solve::Turns;
use crate::solve::{SolveError, SolveOptions, StopReason};
use crate::symmetry::Symmetry;

use super::bits::MAX_WORDS;
use super::search::search;
use super::tables::{Setup, Tables};
use super::{MAX_TILES, Order, Watch, fits};

/// How a probe ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProbeEnd {
    /// A partial board of the asked depth was found.
    Reached,
    /// The whole tree was searched: no partial board has that depth.
    Exhausted,
    /// Stopped by the time limit or Ctrl-C.
    Stopped(StopReason),
}

/// What a probe found.
#[derive(Clone, Debug)]
pub struct Probe {
    pub order: Order,
    /// The depth asked for (cells to fill).
    pub depth: usize,
    pub end: ProbeEnd,
    /// Placements made, in total and per depth (0-based).
    pub nodes: u64,
    pub nodes_per_depth: Vec<u64>,
    /// The most cells any placement filled.
    pub deepest: usize,
    /// Time building the tables, and searching.
    pub build_s: f64,
    pub search_s: f64,
    /// The partial board found (with `ProbeEnd::Reached`).
    pub board: Option<Partial>,
}

impl Probe {
    /// Nodes per second of search time.
    pub fn rate(&self) -> f64 {
        if self.search_s > 0.0 {
            self.nodes as f64 / self.search_s
        } else {
            0.0
        }
    }
}

/// Search `puzzle` in `order` for the first partial board with its first
/// `depth` cells filled (1 up to the board's cells), within the time limit
/// and stop token of `options` (its other options do not apply).
pub fn probe(
    puzzle: &Puzzle,
    order: Order,
    depth: usize,
    options: &SolveOptions,
) -> Result<Probe, SolveError> {
    fits(puzzle)?;
    assert!(
        (1..=puzzle.cells()).contains(&depth),
        "a probe depth within the board"
    );
    let start = Instant::now();
    let none = Symmetry::none();
    let t = Tables::new(puzzle, order, &none, Setup::turns(Turns::Full));
    let build_s = start.elapsed().as_secs_f64();
    let watch = Watch::new(&options.cancel(start));
    let check = || watch.check();
    let stop = AtomicBool::new(check());
    let mut found: Option<Vec<u16>> = None;
    let begin = Instant::now();
    let nodes_per_depth = if stop.load(Ordering::Relaxed) {
        vec![0; t.cells]
    } else {
        by_words!(t.words, W => {
            let mut st = t.state::<W>(&stop, &check);
            search(&t, &mut st, 0, depth, &mut |placed: &[u16; MAX_TILES]| {
                found = Some(placed[..t.cells].to_vec());
                false
            });
            st.nodes
        })
    };
    let search_s = begin.elapsed().as_secs_f64();
    let board = found.map(|placed| {
        let mut cells = vec![None; t.cells];
        for s in &t.steps[..depth] {
            cells[s.cell] = Some(t.place[placed[s.cell] as usize]);
        }
        Partial::new(puzzle.rows(), puzzle.cols(), cells)
    });
    let end = match (&board, watch.stopped(&stop)) {
        (Some(_), _) => ProbeEnd::Reached,
        (None, Some(why)) => ProbeEnd::Stopped(why),
        (None, None) => ProbeEnd::Exhausted,
    };
    Ok(Probe {
        order,
        depth,
        end,
        nodes: nodes_per_depth.iter().sum(),
        deepest: nodes_per_depth
            .iter()
            .rposition(|&n| n > 0)
            .map_or(0, |d| d + 1),
        nodes_per_depth,
        build_s,
        search_s,
        board,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{FamilyOptions, PlantOptions, Rng, plant, plant_family};
    use crate::puzzle::Turning;
    use crate::solve::{self, Keep};

    /// Unframed square boards, or framed rectangles in the community's
    /// style (where the frame order suits).
    fn planted(n: usize, seed: u64, framed: bool) -> Puzzle {
        if framed {
            let o = FamilyOptions {
                rows: n,
                cols: n + 2,
                frame_colours: 2,
                inner_colours: 4,
                turning: Turning::Quarter,
                hint: seed.is_multiple_of(2),
            };
            return plant_family(&mut Rng::new(seed), &o).0;
        }
        plant(
            &mut Rng::new(seed),
            &PlantOptions {
                n,
                motifs: 3,
                self_matching: false,
            },
        )
        .0
    }

    /// The orders worth a full search of `p`: the frame order only on
    /// framed boards (its ring has one placed neighbour per cell).
    fn orders(p: &Puzzle) -> impl Iterator<Item = Order> + use<> {
        let framed = p.frame().is_some();
        Order::ALL
            .into_iter()
            .filter(move |&o| o != Order::Frame || framed)
    }

    #[test]
    fn a_probe_to_the_full_depth_finds_the_first_solution_of_that_order() {
        // Seeds 1-5: the framed seed 6 alone took most of the test's time
        // (its spiral, frame and constrained searches).
        for (seed, framed) in (1..=5).flat_map(|s| [(s, false), (s, true)]) {
            let p = planted(5, seed, framed);
            for order in orders(&p) {
                let r = probe(&p, order, p.cells(), &SolveOptions::default()).unwrap();
                assert_eq!(r.end, ProbeEnd::Reached, "{order}");
                let board = r.board.unwrap();
                assert_eq!(board.placed(), p.cells());
                assert_eq!(board.verify(&p), Ok(()));
                assert_eq!(r.deepest, p.cells());
                // The same board is the full-tree search's first solution
                // (without restarts: one search in that order).
                let opts = SolveOptions {
                    threads: 1,
                    limit: Some(1),
                    keep: Keep::All,
                    ..SolveOptions::default()
                };
                let once = super::super::Backtrack {
                    restarts: None,
                    ..super::super::Backtrack::full_tree(order)
                };
                let first = solve::run(&once, &p, &opts).unwrap();
                let cells: Vec<_> = board.cells().iter().map(|c| c.unwrap()).collect();
                assert_eq!(first.raw.first().unwrap().cells(), &cells[..], "{order}");
            }
        }
    }

    #[test]
    fn a_shallow_probe_stops_at_its_depth_and_counts_the_nodes_before() {
        for (p, order) in [false, true]
            .into_iter()
            .map(|framed| planted(6, 9, framed))
            .flat_map(|p| orders(&p).map(move |o| (p.clone(), o)))
        {
            for depth in [1, 5, 17, 30] {
                let r = probe(&p, order, depth, &SolveOptions::default()).unwrap();
                assert_eq!(r.end, ProbeEnd::Reached);
                let board = r.board.unwrap();
                assert_eq!(board.placed(), depth);
                assert_eq!(board.verify(&p), Ok(()));
                assert_eq!(r.deepest, depth);
                // Depth 1: the first candidate of the first cell.
                if depth == 1 {
                    assert_eq!(r.nodes, 1);
                }
                assert_eq!(r.nodes_per_depth[depth - 1], 1, "{order} {depth}");
                assert_eq!(r.nodes, r.nodes_per_depth.iter().sum::<u64>());
            }
        }
    }
}

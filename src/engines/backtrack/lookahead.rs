//! Lookahead for first-solution searches in the row orders (`row`,
//! `row-up`): each placement also fixes the code the cell after it in the
//! next row must show on its facing edge, so the search checks, before it
//! descends, that the next row can still be started: that a chain of free
//! orientations runs from the row's start to the cell under (or over) the
//! one just placed, each allowed in its cell, showing the code its placed
//! neighbour there requires and continuing the one before it. Tiles may
//! repeat along the chain (a relaxation), so the check is cheap and is
//! carried along the row: per depth, the set of codes the chain's last
//! cell can require of its right neighbour.
//!
//! The check never drops a board (every board's next row is such a chain),
//! so a search finds the same boards in the same order, after fewer nodes
//! (docs/backtracking.md, "Lookahead"). Complete runs do without it, so
//! their node counts stay those of the plain tree.

use super::MAX_TILES;
use super::bits::partner;
use super::bits::words;
use super::core::Core;
use super::core::toggle;
use super::order::Order;
use crate::puzzle::{BOTTOM, LEFT, RIGHT, TOP};

/// The bit of a chain set that says only "some orientation fits": the
/// last cell of a row requires nothing of a right neighbour.
const FITS: u64 = 1 << 63;

/// What a placement at one depth lets the search check.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub(super) enum Ahead {
    /// Nothing (the last row).
    #[default]
    Nothing,
    /// The next row starts at depth `below`, under (or over) the cell
    /// placed now.
    Start { below: u32 },
    /// The cell at depth `below`, under (or over) the cell placed now,
    /// continues the chain of the depth before.
    Chain { below: u32 },
}

/// What [`Lookahead::finish`] found, per depth: whether the depth is
/// checked, and the orientations after which the row can be finished.
pub(super) struct RowEnds {
    /// `W` words per depth.
    sets: Vec<u64>,
    checked: Vec<bool>,
}

impl RowEnds {
    pub(super) fn new(cells: usize, words: usize) -> RowEnds {
        RowEnds {
            sets: vec![0; cells * words],
            checked: vec![false; cells],
        }
    }

    /// The orientations allowed at `depth`, where it is checked.
    #[inline(always)]
    pub(super) fn mask<const W: usize>(&self, depth: usize) -> Option<[u64; W]> {
        self.checked[depth].then(|| words(&self.sets, depth * W))
    }

    /// Whether orientation `o` is allowed at `depth`.
    #[inline(always)]
    pub(super) fn allows<const W: usize>(&self, depth: usize, o: usize) -> bool {
        !self.checked[depth] || self.sets[depth * W + o / 64 % W] >> (o % 64) & 1 == 1
    }
}

/// The lookahead of one puzzle and row order.
pub(super) struct Lookahead {
    /// Per depth.
    at: Vec<Ahead>,
    /// The direction from a next-row cell to its placed partner.
    towards: usize,
    /// Per dense code (`words` words each): the orientations showing it
    /// on their left edge.
    by_left: Vec<u64>,
    /// Per orientation: the dense code its right neighbour must show on
    /// its left edge, as a chain-set bit ([`FITS`] where no orientation
    /// shows it).
    right: Vec<u64>,
    /// Per dense code (`words` words each): the orientations whose right
    /// neighbour must show it on its left edge.
    by_right: Vec<u64>,
    /// Cells per row (depths per row of the order).
    cols: usize,
    /// Per depth: the first of a row.
    firsts: Vec<bool>,
    /// Per depth: the codes the orientations allowed there show on their
    /// left edges.
    leftable: Vec<u64>,
}

impl Lookahead {
    /// The lookahead of `order` on `t`'s puzzle (`t.allowed` and `t.fit`
    /// built; `edges` its orientations' codes); none in the other orders,
    /// on boards of one row, or with more than 63 codes.
    pub(super) fn new(t: &Core<'_>, order: Order, edges: &[[u16; 4]]) -> Option<Lookahead> {
        let towards = match order {
            Order::Row => TOP,
            Order::RowUp => BOTTOM,
            _ => return None,
        };
        let (rows, cols) = (t.puzzle.rows(), t.puzzle.cols());
        let mut dense = std::collections::BTreeMap::new();
        for e in edges {
            let next = dense.len();
            dense.entry(e[LEFT]).or_insert(next);
        }
        if rows < 2 || dense.len() > 63 {
            return None;
        }
        let w = t.words;
        let mut by_left = vec![0u64; dense.len() * w];
        for (o, e) in edges.iter().enumerate() {
            by_left[dense[&e[LEFT]] * w + o / 64] |= 1 << (o % 64);
        }
        let right: Vec<u64> = edges
            .iter()
            .map(|e| dense.get(&partner(e[RIGHT])).map_or(FITS, |&k| 1 << k))
            .collect();
        let mut by_right = vec![0u64; dense.len() * w];
        for (o, &r) in right.iter().enumerate() {
            if r != FITS {
                by_right[r.trailing_zeros() as usize * w + o / 64] |= 1 << (o % 64);
            }
        }
        let at = (0..t.cells)
            .map(|d| match d + cols {
                below if below >= t.cells => Ahead::Nothing,
                below if d % cols == 0 => Ahead::Start {
                    below: below as u32,
                },
                below => Ahead::Chain {
                    below: below as u32,
                },
            })
            .collect();
        let leftable = (0..t.cells)
            .map(|d| {
                (0..edges.len())
                    .filter(|&o| t.allowed[d * w + o / 64] >> (o % 64) & 1 == 1)
                    .fold(0, |a, o| a | 1 << dense[&edges[o][LEFT]])
            })
            .collect();
        Some(Lookahead {
            at,
            towards,
            by_left,
            right,
            by_right,
            cols,
            firsts: (0..t.cells).map(|d| d.is_multiple_of(cols)).collect(),
            leftable,
        })
    }

    /// What the placement at `depth` lets the search check.
    #[cfg(test)]
    fn at(&self, depth: usize) -> Ahead {
        self.at[depth]
    }

    /// Whether the placement at `depth` is checked.
    #[inline(always)]
    pub(super) fn checks(&self, depth: usize) -> bool {
        self.at[depth] != Ahead::Nothing
    }

    /// After orientation `o` is placed at `depth` (with a lookahead), the
    /// codes the chain's cell in the next row can require of its right
    /// neighbour (0: the next row cannot be started), given `used` (the
    /// tiles on the board, `o`'s among them or left out by `fit`, and
    /// blocked copies). `sets` holds, per depth (`W` words each), the
    /// orientations the chain's next cell may hold, as far as its left
    /// neighbour says: read for the depth before, written for this one.
    #[inline(always)]
    pub(super) fn reach<const W: usize>(
        &self,
        t: &Core<'_>,
        used: &[u64; W],
        o: usize,
        depth: usize,
        sets: &mut [u64],
    ) -> u64 {
        let (below, chain) = match self.at[depth] {
            Ahead::Nothing => return !0,
            Ahead::Start { below } => (below as usize, false),
            Ahead::Chain { below } => (below as usize, true),
        };
        let mut cand: [u64; W] = if chain {
            words(sets, (depth - 1) * W)
        } else {
            words(&t.allowed, below * W)
        };
        let fit: [u64; W] = t.fit_of(o, self.towards);
        let mut out = 0u64;
        for w in 0..W {
            cand[w] &= fit[w] & !used[w];
            let mut bits = cand[w];
            while bits != 0 {
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                out |= self.right[w * 64 + b];
            }
        }
        if out != 0 && matches!(self.at.get(depth + 1), Some(Ahead::Chain { .. })) {
            // The next cell of the chain: allowed there, showing a code
            // this one can require.
            let mut next: [u64; W] = [0; W];
            let mut bits = out & !FITS;
            while bits != 0 {
                let k = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let set: [u64; W] = words(&self.by_left, k * W);
                for w in 0..W {
                    next[w] |= set[w];
                }
            }
            let allowed: [u64; W] = words(&t.allowed, (below + 1) * W);
            for w in 0..W {
                sets[depth * W + w] = next[w] & allowed[w];
            }
        }
        out
    }

    /// Whether `depth` is the first of a row (where [`Lookahead::finish`]
    /// runs).
    #[inline(always)]
    pub(super) fn starts_row(&self, depth: usize) -> bool {
        self.firsts[depth]
    }

    /// At `start`, with the depths before it on the board (`start` the
    /// first of a row, or where a work unit's prefix ends): per depth from
    /// `start` to the end of its row, into `rest` (`W` words each), the
    /// orientations after which the row can still be finished, as far as
    /// the right neighbour's left edge goes (every orientation at the
    /// row's last depth; depths before the one where the check stops are
    /// not checked). The same relaxation as the
    /// chain: a chain of free orientations from the cell to the row's end,
    /// each allowed in its cell and showing the code its placed partner
    /// requires, tiles possibly repeated. The sets name codes, not tiles,
    /// so they stay true while the row fills (a copy of a kind that is
    /// blocked now is freed by placing the one before it, and shows the
    /// same codes). False when the row cannot be finished at all.
    pub(super) fn finish<const W: usize>(
        &self,
        t: &Core<'_>,
        used: &[u64; W],
        placed: &[u16; MAX_TILES],
        start: usize,
        rest: &mut RowEnds,
    ) -> bool {
        const M: usize = MAX_TILES - 1;
        let end = (start - start % self.cols + self.cols).min(t.cells);
        // The codes the cell after may show on its left edge.
        let mut need = 0u64;
        for e in (start..end).rev() {
            let mut set: [u64; W] = words(&t.allowed, e * W);
            if e >= self.cols {
                let partner = placed[t.steps[e - self.cols].cell & M] as usize;
                let fit: [u64; W] = t.fit_of(partner, self.towards);
                for w in 0..W {
                    set[w] &= fit[w];
                }
            }
            let mut after = [!0u64; W];
            if e + 1 < end {
                after = [0; W];
                let mut bits = need;
                while bits != 0 {
                    let k = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let by: [u64; W] = words(&self.by_right, k * W);
                    for w in 0..W {
                        after[w] |= by[w];
                    }
                }
            }
            let mut free = [0u64; W];
            rest.checked[e] = true;
            for w in 0..W {
                rest.sets[e * W + w] = after[w];
                free[w] = set[w] & after[w] & !used[w];
            }
            // The codes the free orientations show on their left edges: a
            // test per code (few) rather than a look per orientation (on
            // boards of few colours, hundreds fit a cell).
            need = 0;
            let mut codes = self.leftable[e];
            while codes != 0 {
                let k = codes.trailing_zeros() as usize;
                codes &= codes - 1;
                let by: [u64; W] = words(&self.by_left, k * W);
                // Without a branch per word (mispredicted often).
                let mut any = 0u64;
                for w in 0..W {
                    any |= free[w] & by[w];
                }
                need |= u64::from(any != 0) << k;
            }
            if need == 0 {
                return false;
            }
            // Every code the cell's pieces can show starts the rest of the
            // row: the check stops there (a weaker relaxation, and the
            // common case on boards of few colours, where it would cost
            // more than it saves).
            if need == self.leftable[e] {
                rest.checked[start..e].fill(false);
                return true;
            }
        }
        true
    }

    /// The sets of the depths before `start`, for a search that starts
    /// there on a board holding them (a work unit's prefix): each computed
    /// with the tiles on the board at its depth, as the search that placed
    /// them would have (the prefix may reach into the next row, whose
    /// pieces the chain of an earlier depth may use). False when a depth's
    /// next row cannot be started.
    pub(super) fn replay<const W: usize>(
        &self,
        t: &Core<'_>,
        placed: &[u16; MAX_TILES],
        start: usize,
        sets: &mut [u64],
    ) -> bool {
        let mut used: [u64; W] = words(&t.start_used, 0);
        (0..start).all(|d| {
            let o = placed[t.steps[d].cell] as usize;
            toggle::<W, true>(&mut used, t, o / 64 % W, o);
            self.reach(t, &used, o, d, sets) != 0
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::Order;
    use super::super::bits::MAX_WORDS;
    use super::super::tables::{Setup, Tables};
    use super::*;
    use crate::solve::Turns;
    use crate::symmetry::Symmetry;

    fn framed(n: usize, seed: u64) -> crate::puzzle::Puzzle {
        use crate::generate::{FamilyOptions, Rng, plant_family};
        let o = FamilyOptions {
            rows: n,
            cols: n,
            frame_colours: 3,
            inner_colours: 5,
            turning: crate::puzzle::Turning::Quarter,
            hint: false,
        };
        plant_family(&mut Rng::new(seed), &o).0
    }

    #[test]
    fn row_orders_chain_each_row_below_the_one_placed() {
        let p = framed(6, 1);
        let none = Symmetry::none();
        for order in [Order::Row, Order::RowUp] {
            let setup = Setup {
                lookahead: true,
                ..Setup::turns(Turns::Reduce)
            };
            let t = Tables::new(&p, order, &none, setup);
            let look = t.look.as_ref().expect("a lookahead");
            for d in 0..36 {
                let want = match (d / 6, d % 6) {
                    (5, _) => Ahead::Nothing,
                    (_, 0) => Ahead::Start {
                        below: d as u32 + 6,
                    },
                    _ => Ahead::Chain {
                        below: d as u32 + 6,
                    },
                };
                assert_eq!(look.at(d), want, "{order}, depth {d}");
            }
        }
        // The other orders and complete runs have none.
        for (order, lookahead) in [(Order::Frame, true), (Order::Row, false)] {
            let setup = Setup {
                lookahead,
                ..Setup::turns(Turns::Reduce)
            };
            let t = Tables::new(&p, order, &none, setup);
            assert!(t.look.is_none(), "{order}");
        }
    }

    /// The row after a placed row of the planted board: `finish` keeps
    /// every orientation of the planted row and leaves out some that fit
    /// the row above but cannot lead to the row's end.
    fn finish_keeps_the_planted_row<const W: usize>(t: &Tables<'_>, planted: &[u16]) -> usize {
        let cols = t.puzzle.cols();
        let mut placed = [0u16; MAX_TILES];
        let mut used: [u64; W] = words(&t.start_used, 0);
        for d in 0..cols {
            let o = planted[d] as usize;
            placed[t.steps[d].cell] = o as u16;
            used[o / 64] |= crate::engines::backtrack::bits::tile_bits(o);
        }
        let look = t.look.as_ref().expect("a lookahead");
        let mut rest = RowEnds::new(t.cells, W);
        assert!(look.starts_row(cols) && !look.starts_row(cols + 1));
        assert!(look.finish(t, &used, &placed, cols, &mut rest));
        let mut left_out = 0;
        for d in cols..2 * cols {
            let o = planted[d] as usize;
            assert!(rest.allows::<W>(d, o), "depth {d}");
            let Some(mask) = rest.mask::<W>(d) else {
                continue;
            };
            // Candidates of the cell by the row above alone.
            let above = placed[t.steps[d - cols].cell] as usize;
            let fit: [u64; W] = t.fit_of(above, look.towards);
            for w in 0..W {
                let free = t.allowed[d * W + w] & fit[w] & !used[w];
                left_out += (free & !mask[w]).count_ones() as usize;
            }
        }
        left_out
    }

    #[test]
    fn a_row_is_finished_only_through_codes_that_lead_to_its_end() {
        use crate::generate::{FamilyOptions, Rng, plant_family};
        let none = Symmetry::none();
        let mut left_out = 0;
        for seed in 1..=4u64 {
            let o = FamilyOptions {
                rows: 5,
                cols: 6,
                frame_colours: 3,
                inner_colours: 6,
                turning: crate::puzzle::Turning::Quarter,
                hint: false,
            };
            let (p, solution) = plant_family(&mut Rng::new(seed), &o);
            for order in [Order::Row, Order::RowUp] {
                let setup = Setup {
                    lookahead: true,
                    ..Setup::turns(Turns::Full)
                };
                let t = Tables::new(&p, order, &none, setup);
                // The planted board's orientation per depth.
                let planted: Vec<u16> = (0..t.cells)
                    .map(|d| {
                        let want = solution.cells()[t.steps[d].cell];
                        t.place
                            .iter()
                            .position(|&q| q == want)
                            .expect("an orientation") as u16
                    })
                    .collect();
                left_out +=
                    by_words!(t.words, W => finish_keeps_the_planted_row::<W>(&t, &planted));
            }
        }
        assert!(left_out > 0, "finish left nothing out");
    }

    /// Boards of every kind: framed rectangles (with a fixed piece, with
    /// and without turns), unframed squares with `+`/`-` and `=` halves,
    /// and few colours (identical pieces, searched as pictures).
    fn boards() -> Vec<crate::puzzle::Puzzle> {
        use crate::generate::{FamilyOptions, PlantOptions, Rng, plant, plant_family};
        use crate::puzzle::Turning;
        let mut out = Vec::new();
        for seed in 1..=3u64 {
            for (rows, cols, frame, inner, turning, hint) in [
                (5, 5, 3, 5, Turning::Quarter, false),
                (4, 6, 2, 5, Turning::Quarter, true),
                (5, 4, 0, 6, Turning::None, false),
                (5, 5, 3, 4, Turning::Quarter, false),
            ] {
                let o = FamilyOptions {
                    rows,
                    cols,
                    frame_colours: frame,
                    inner_colours: inner,
                    turning,
                    hint,
                };
                out.push(plant_family(&mut Rng::new(seed), &o).0);
            }
            for self_matching in [false, true] {
                let o = PlantOptions {
                    n: 5,
                    motifs: 7,
                    self_matching,
                };
                out.push(plant(&mut Rng::new(seed), &o).0);
            }
        }
        out
    }

    #[test]
    fn the_lookahead_keeps_every_solution_and_only_saves_nodes() {
        use crate::engines::backtrack::Backtrack;
        use crate::solve::{SolveOptions, run};
        let mut saved = 0;
        for p in boards() {
            for order in [Order::Row, Order::RowUp] {
                let plain = Backtrack {
                    restarts: None,
                    ..Backtrack::new(order)
                };
                let all = run(&plain, &p, &SolveOptions::default()).unwrap();
                for threads in [1, 2] {
                    // Every solution (a limit past them: the lookahead is on).
                    let options = SolveOptions {
                        limit: Some(usize::MAX),
                        threads,
                        ..SolveOptions::default()
                    };
                    let run_with = |lookahead| {
                        let bt = Backtrack { lookahead, ..plain };
                        run(&bt, &p, &options).unwrap()
                    };
                    let (on, off) = (run_with(true), run_with(false));
                    let what = format!("{}, {order}, {threads} threads", p.name());
                    assert_eq!(on.raw, all.raw, "{what}");
                    assert_eq!(off.raw, all.raw, "{what}");
                    let nodes = |r: &crate::solve::SolveResult| r.stats.count("nodes").unwrap();
                    assert!(nodes(&on) <= nodes(&off), "{what}");
                    saved += nodes(&off) - nodes(&on);
                }
            }
        }
        assert!(saved > 0, "the lookahead pruned nothing");
    }

    /// Every board of one search from the root, or of searches from each
    /// work unit `depth` placements deep (with the lookahead and the
    /// frame check), as placed arrays.
    fn boards_found<const W: usize>(t: &Tables<'_>, units: Option<usize>) -> Vec<Vec<u16>> {
        use super::super::parallel::prefixes;
        use super::super::search::search;
        let stop = std::sync::atomic::AtomicBool::new(false);
        let check = || false;
        let mut st = t.state::<W>(&stop, &check);
        let mut out = Vec::new();
        let starts = match units {
            Some(want) => prefixes::<W>(t, want, &stop, &check).0,
            None => vec![Vec::new()],
        };
        for prefix in starts {
            st.set_prefix(t, &prefix);
            search(t, &mut st, prefix.len(), t.cells, &mut |placed| {
                out.push(placed[..t.cells].to_vec());
                true
            });
        }
        out.sort();
        out
    }

    #[test]
    fn a_search_from_a_unit_past_a_row_finds_the_same_boards() {
        // Units of a split that reach into the next row: the chains of the
        // prefix's earlier depths must be computed as they were placed
        // (the next row's pieces were free then).
        let none = Symmetry::none();
        let mut deep = 0;
        for p in boards() {
            for order in [Order::Row, Order::RowUp] {
                let setup = Setup {
                    lookahead: true,
                    ..Setup::turns(Turns::Full)
                };
                let t = Tables::new(&p, order, &none, setup);
                if t.look.is_none() {
                    continue;
                }
                by_words!(t.words, W => {
                    let one = boards_found::<W>(&t, None);
                    for want in [50, 2_000] {
                        let split = boards_found::<W>(&t, Some(want));
                        assert_eq!(split, one, "{}, {order}, {want} units", p.name());
                    }
                    deep += usize::from(
                        super::super::parallel::prefixes::<W>(
                            &t,
                            2_000,
                            &std::sync::atomic::AtomicBool::new(false),
                            &|| false,
                        )
                        .0
                        .first()
                        .is_some_and(|u| u.len() > t.puzzle.cols()),
                    );
                });
            }
        }
        assert!(deep > 0, "no unit reached into the next row");
    }
}

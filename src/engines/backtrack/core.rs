//! What every search reads, built once per puzzle: orientations and
//! their edge codes, the fit sets, the steps of the placement order, the
//! per-depth allowed sets. The accelerators built over them (lists.rs,
//! lookahead.rs, ring.rs) read these and are held beside them, in
//! tables.rs.

use crate::board::{Placement, Solution};
use crate::puzzle::Puzzle;
use crate::solve::{Stands, Turns};
use crate::symmetry::Symmetry;

use super::bits::{NO_COPY, tile_bits, word_bucket, words};
use super::build::{Reduce, Reduction, Step, above_sets, fit_sets, kind_tables, steps_and_allowed};
use super::order::Order;

/// What every search reads, built once per puzzle. Sets of orientations
/// (`o = tile index * 4 + rotation`) are bitsets of `words` 64-bit words,
/// stored flat.
pub(super) struct Core<'p> {
    pub(super) puzzle: &'p Puzzle,
    pub(super) cells: usize,
    pub(super) words: usize,
    /// Identical tiles are placed as kinds: only the first unplaced copy
    /// of each is a candidate, in its distinct orientations; each board
    /// stands for its picture class.
    pub(super) kinds: bool,
    /// Per tile index: the next copy of its kind ([`NO_COPY`] if none).
    pub(super) next_copy: Vec<u16>,
    /// The `used` set of an empty board: the copies still blocked.
    pub(super) start_used: Vec<u64>,
    /// Per orientation `o` and direction `d` (at `(o * 4 + d) * words`): the
    /// orientations a cell may hold when its neighbour in direction `d`
    /// holds `o`, i.e. those of other tiles whose edge `d` matches the
    /// facing edge of `o`.
    pub(super) fit: Vec<u64>,
    pub(super) steps: Vec<Step>,
    /// The depths whose cell holds a fixed piece: placed without a
    /// choice, they are not nodes.
    pub(super) fixed_depths: Vec<usize>,
    /// Per depth: the orientations allowed there (every orientation, less
    /// what the symmetry rules' pruning or the turn reduction forbid).
    pub(super) allowed: Vec<u64>,
    /// Per tile index: the orientations of larger tile indices.
    pub(super) above: Vec<u64>,
    /// The user's symmetry rules, when there are any.
    pub(super) symmetry: Option<&'p Symmetry>,
    pub(super) first_cell: usize,
    /// Per orientation: its placement.
    pub(super) place: Vec<Placement>,
    /// What each emitted board stands for: its four turns under the turn
    /// reduction, else itself.
    pub(super) stands: Stands,
}

/// What the accelerators are built from, beside the core: each
/// orientation's edge codes, and per depth the orientations allowed once
/// what only a fixed piece beside the cell forbids is left out.
pub(super) struct Sources {
    pub(super) edges: Vec<[u16; 4]>,
    pub(super) tabled: Vec<u64>,
}

impl<'p> Core<'p> {
    pub(super) fn new(
        puzzle: &'p Puzzle,
        order: Order,
        symmetry: &'p Symmetry,
        turns: Turns,
        kinds: bool,
    ) -> (Core<'p>, Sources) {
        let (rows, cols) = (puzzle.rows(), puzzle.cols());
        let cells = rows * cols;
        let nori = puzzle.len() * 4;
        let words = word_bucket(nori.div_ceil(64));
        let (edges, fit) = fit_sets(puzzle, words);
        let order_cells = order.cells(rows, cols);
        let first_cell = order_cells[0];
        let red = Reduction::new(puzzle, symmetry, first_cell, turns, kinds);
        let (steps, mut allowed, beside_fixed) =
            steps_and_allowed(puzzle, symmetry, &order_cells, words, kinds, &red);
        let (kind_of, next_copy, start_used) = kind_tables(puzzle, words, kinds);
        if red.reduce == Reduce::FirstOfOrbit {
            first_of_a_closed_orbit(
                &mut allowed,
                words,
                &order_cells,
                &red.first_orbit,
                &kind_of,
            );
        }
        let above = if red.reduce == Reduce::FirstOfOrbit {
            above_sets(puzzle, words, kinds.then_some(&kind_of[..]))
        } else {
            Vec::new()
        };
        // The key tables ignore what only a fixed piece beside a cell
        // forbids (its candidates are checked one by one): the cells beside
        // the Eternity II starter would otherwise get tables of their own,
        // each tile would lie in more than four lists, and the masks' walk
        // would be lost.
        let tabled = allowed
            .iter()
            .zip(&beside_fixed)
            .map(|(a, b)| a | b)
            .collect();
        let fixed_depths = (steps.iter().enumerate())
            .filter(|(_, s)| puzzle.hints().iter().any(|h| h.cell == s.cell))
            .map(|(d, _)| d)
            .collect();
        let core = Core {
            puzzle,
            fixed_depths,
            cells,
            kinds,
            next_copy,
            start_used,
            words,
            fit,
            steps,
            allowed,
            above,
            symmetry: (!symmetry.is_none()).then_some(symmetry),
            first_cell,
            place: (0..nori)
                .map(|o| Placement {
                    tile: puzzle.tiles()[o / 4].id,
                    rotation: (o % 4) as u8,
                })
                .collect(),
            stands: if kinds {
                Stands::PictureClass
            } else if red.reduce == Reduce::None {
                Stands::Board
            } else {
                Stands::Turns
            },
        };
        (core, Sources { edges, tabled })
    }

    /// The orientations a cell may hold when its neighbour in direction
    /// `dir` holds orientation `o`.
    #[inline(always)]
    pub(super) fn fit_of<const W: usize>(&self, o: usize, dir: usize) -> [u64; W] {
        words(&self.fit, (o * 4 + (dir & 3)) * W)
    }

    /// Hand a complete board to `out` (standing for [`Core::stands`]);
    /// boards the user's symmetry rules reject are dropped. `buf` is a
    /// reused buffer.
    pub(super) fn emit(
        &self,
        placed: &[u16],
        buf: &mut Vec<Placement>,
        out: &mut dyn FnMut(&[Placement]),
    ) {
        buf.clear();
        buf.extend(placed[..self.cells].iter().map(|&o| self.place[o as usize]));
        match self.symmetry {
            Some(sym) => {
                let s = Solution::shaped(buf.clone(), self.puzzle.shape());
                if sym.accepts(self.puzzle, &s) {
                    out(s.cells());
                }
            }
            None => out(buf),
        }
    }
}

/// Place or take back orientation `o` (in word `w`) in `used`: its tile's
/// bits flip, and with kinds (`K`, compiled apart so that the search
/// without kinds does not test it) so do the next copy's: freed on placing,
/// blocked again on taking back.
#[inline(always)]
pub(super) fn toggle<const W: usize, const K: bool>(
    used: &mut [u64; W],
    t: &Core<'_>,
    w: usize,
    o: usize,
) {
    used[w] ^= tile_bits(o);
    if K && t.kinds {
        let q = t.next_copy[o / 4];
        if q != NO_COPY {
            used[q as usize / 16 % W] ^= tile_bits(q as usize * 4);
        }
    }
}

/// The turn reduction where the first cell's orbit can only hold a few
/// tiles (a framed board's corners hold its four corner pieces): if every
/// cell of the orbit allows only tiles that the first cell allows, and
/// those are exactly as many as the orbit's cells, the orbit holds all of
/// them, so "the first tile is below the others" means "the first cell
/// holds the smallest of them". Saying so in the first cell's allowed set
/// prunes at the first placement instead of when the orbit's other cells
/// are placed (in a row scan of a framed board, two of the four corners
/// come last: up to half the tree was searched for nothing,
/// docs/benchmarks.md). `allowed` holds
/// `words` words per depth; `orbit` the other cells of the first cell's
/// orbit; `kind_of` each tile's kind (itself without kinds), which is what
/// "below" compares.
fn first_of_a_closed_orbit(
    allowed: &mut [u64],
    words: usize,
    order_cells: &[usize],
    orbit: &[usize],
    kind_of: &[usize],
) {
    let tiles_at =
        |allowed: &[u64], depth: usize| tiles_in(&allowed[depth * words..][..words], kind_of.len());
    let first = tiles_at(allowed, 0);
    let mut others: Vec<usize> = orbit.to_vec();
    others.sort_unstable();
    others.dedup();
    others.retain(|&c| c != order_cells[0]);
    let closed = first.len() == others.len() + 1
        && others.iter().all(|&c| {
            let depth = order_cells.iter().position(|&x| x == c);
            depth.is_some_and(|d| tiles_at(allowed, d).iter().all(|t| first.contains(t)))
        });
    let least = first.iter().map(|&t| kind_of[t]).min();
    let Some(least) = least.filter(|_| closed) else {
        return;
    };
    for &t in first.iter().filter(|&&t| kind_of[t] != least) {
        allowed[4 * t / 64] &= !tile_bits(4 * t);
    }
}

/// The tiles (of the first `tiles`) with an orientation in `set`.
fn tiles_in(set: &[u64], tiles: usize) -> Vec<usize> {
    (0..tiles)
        .filter(|&t| set[4 * t / 64] & tile_bits(4 * t) != 0)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Puzzle;

    /// The tiles the first cell allows.
    fn first_tiles(t: &Core) -> Vec<usize> {
        tiles_in(&t.allowed[..t.words], t.puzzle.len())
    }

    #[test]
    fn a_framed_board_starts_with_its_smallest_corner_piece() {
        let load = |p: &str| Puzzle::load(std::path::Path::new(p)).unwrap();
        let none = Symmetry::none();
        let framed = load("puzzles/eternity2/8x8-a.txt");
        // The corner pieces: two grey (frame) edges.
        let grey = framed.frame().unwrap();
        let corners: Vec<usize> = (0..framed.len())
            .filter(|&k| {
                (0..4)
                    .filter(|&d| framed.tiles()[k].edge(0, d).motif == grey)
                    .count()
                    == 2
            })
            .collect();
        assert_eq!(corners.len(), 4);
        for order in [Order::Row, Order::RowUp, Order::Frame] {
            let reduced = Core::new(&framed, order, &none, Turns::Reduce, false).0;
            assert_eq!(first_tiles(&reduced), vec![corners[0]], "{order:?}");
            // The full tree keeps every corner piece on the first cell.
            let full = Core::new(&framed, order, &none, Turns::Full, false).0;
            assert_eq!(first_tiles(&full), corners, "{order:?}");
        }
        // The spiral starts inside: its first cell's orbit is four of the
        // 36 inner cells, open to every inner piece.
        let t = Core::new(&framed, Order::Spiral, &none, Turns::Reduce, false).0;
        assert_eq!(first_tiles(&t).len(), 36);
        // A rectangle turns only by a half turn: its first corner's orbit
        // is one other corner, two cells for four corner pieces.
        let rectangle = load("puzzles/eternity2/clue2.txt");
        let t = Core::new(&rectangle, Order::Row, &none, Turns::Reduce, false).0;
        assert_eq!(first_tiles(&t).len(), 4);
        // Without a frame every tile may start.
        let open = load("puzzles/legespiel/crazy-sheep.yaml");
        let t = Core::new(&open, Order::Row, &none, Turns::Reduce, false).0;
        assert_eq!(first_tiles(&t).len(), open.len());
    }
}

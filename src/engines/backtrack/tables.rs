//! The tables the search reads, built once per puzzle: orientations and
//! their edge codes, the fit sets, the steps of the placement order, the
//! per-depth allowed sets.

use crate::board::{Placement, Solution};
use crate::puzzle::{Edge, Half, Puzzle};
use crate::solve::Stands;
use crate::symmetry::Symmetry;

use super::MAX_TILES;
use super::build::{Reduction, above_sets, fit_sets, kind_tables, steps_and_allowed};
use super::lists::Lists;
use super::lookahead::Lookahead;
use super::order::Order;
use super::ring::Ring;
use super::search::{tile_bits, words};

/// The edge code of an edge: motif * 4 + half (0 `+`, 1 `-`, 2 `=`).
pub(super) fn code(e: Edge) -> u16 {
    e.motif * 4
        + match e.half {
            Half::Plus => 0,
            Half::Minus => 1,
            Half::Same => 2,
        }
}

/// The code an adjacent edge must have (`+` and `-` swap, `=` stays):
/// bit 0 flips unless bit 1 (`=`) is set.
pub(super) fn partner(c: u16) -> u16 {
    c ^ (!c >> 1 & 1)
}

/// No next copy.
pub(super) const NO_COPY: u16 = u16::MAX;

/// The most 64-bit words a set of orientations takes (`MAX_TILES * 4` bits).
pub(super) const MAX_WORDS: usize = MAX_TILES * 4 / 64;

#[derive(Clone, Copy)]
pub(super) struct Step {
    pub(super) cell: usize,
    /// The placed neighbours: (direction from this cell, neighbour cell).
    pub(super) nbs: [(usize, usize); 4],
    pub(super) k: usize,
    /// The direction of the previous depth's cell, if it is a neighbour.
    pub(super) link: Option<usize>,
    /// The placed neighbours other than the previous depth's cell.
    pub(super) older: [(usize, usize); 4],
    pub(super) n_older: usize,
    /// The tile here must have a larger index than the tile of the first
    /// placed cell (the turn reduction on boards without a centre).
    pub(super) above_first: bool,
}

/// How the search avoids visiting every board turn of a solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Reduce {
    /// Full tree.
    None,
    /// Odd n: the centre tile has rotation 0.
    CentreRotation,
    /// Even n: the first placed cell holds the smallest tile of its orbit
    /// under board turns.
    FirstOfOrbit,
}

/// Everything the search reads, built once per puzzle. Sets of orientations
/// (`o = tile index * 4 + rotation`) are bitsets of `words` 64-bit words,
/// stored flat.
pub(super) struct Tables<'p> {
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
    /// Candidate lists, for the row-order searches (`row`, `row-up`,
    /// `frame`) on boards of more than 16 tiles without kinds. Bitsets stay faster on one-word boards, in the
    /// spiral and constrained orders and with kinds, where the lists hold
    /// many tiles already placed or blocked copies (docs/benchmarks.md).
    pub(super) lists: Option<Lists>,
    /// The next-row check of first-solution searches in the row orders
    /// (lookahead.rs).
    pub(super) look: Option<Lookahead>,
    /// The frame check of the same searches (ring.rs).
    pub(super) ring: Option<Ring>,
    /// What each emitted board stands for: its four turns under the turn
    /// reduction, else itself.
    pub(super) stands: Stands,
}

/// Word `w` of the set of bits from `bit` on.
pub(super) fn from_bit(bit: usize, w: usize) -> u64 {
    match bit.checked_sub(w * 64) {
        None => !0,
        Some(k) if k >= 64 => 0,
        Some(k) => !0 << k,
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

/// The words per set the search is compiled for: exact up to 8 (boards of
/// up to 128 tiles), then 16, 32 or 64 (the unused words stay empty).
pub(super) fn word_bucket(words: usize) -> usize {
    match words {
        0..=8 => words.max(1),
        9..=16 => 16,
        17..=32 => 32,
        _ => MAX_WORDS,
    }
}

pub(super) fn set_bit(set: &mut [u64], bit: usize) {
    set[bit / 64] |= 1 << (bit % 64);
}

/// What tables are built for, beside the puzzle, the order and the
/// symmetry breaking.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Setup {
    /// Search one board turn of each solution (the turn reduction).
    pub(super) reduce_turns: bool,
    /// Place identical tiles as kinds: each board found a new picture.
    pub(super) kinds: bool,
    /// Candidate lists whatever the board's size (the tests compare the
    /// list search with the bitset search).
    pub(super) lists: bool,
    /// Check the next row before descending, in the row orders
    /// (lookahead.rs): for first solutions.
    pub(super) lookahead: bool,
}

impl Setup {
    /// Labelled tiles, with or without the turn reduction.
    pub(super) fn turns(reduce_turns: bool) -> Setup {
        Setup {
            reduce_turns,
            ..Setup::default()
        }
    }
}

impl<'p> Tables<'p> {
    pub(super) fn new(
        puzzle: &'p Puzzle,
        order: Order,
        symmetry: &'p Symmetry,
        setup: Setup,
    ) -> Tables<'p> {
        let Setup {
            reduce_turns,
            kinds,
            lists,
            lookahead,
        } = setup;
        let (rows, cols) = (puzzle.rows(), puzzle.cols());
        let cells = rows * cols;
        let nori = puzzle.len() * 4;
        let words = word_bucket(nori.div_ceil(64));
        let (edges, fit) = fit_sets(puzzle, words);
        let order_cells = order.cells(rows, cols);
        let first_cell = order_cells[0];
        let red = Reduction::new(puzzle, symmetry, first_cell, reduce_turns, kinds);
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
        let scan = matches!(order, Order::Row | Order::RowUp | Order::Frame);
        let lists = (lists || scan && words > 1 && !kinds)
            .then(|| {
                // The key tables ignore what only a fixed piece beside a
                // cell forbids (its candidates are checked one by one):
                // the cells beside the Eternity II starter would otherwise
                // get tables of their own, each tile would lie in more
                // than four lists, and the masks' walk would be lost.
                let tabled: Vec<u64> = allowed
                    .iter()
                    .zip(&beside_fixed)
                    .map(|(a, b)| a | b)
                    .collect();
                Lists::new(&edges, partner, &steps, &allowed, &tabled, words, nori)
            })
            .flatten();
        let mut t = Tables {
            puzzle,
            cells,
            lists,
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
            look: None,
            ring: None,
        };
        // One word: boards of up to 16 tiles, solved at once.
        if lookahead && words > 1 {
            t.look = Lookahead::new(&t, order, &edges);
            if t.look.is_some() {
                t.ring = Ring::new(&t, &edges);
            }
        }
        t
    }
    /// The orientations a cell may hold when its neighbour in direction
    /// `dir` holds orientation `o`.
    #[inline(always)]
    pub(super) fn fit_of<const W: usize>(&self, o: usize, dir: usize) -> [u64; W] {
        words(&self.fit, (o * 4 + (dir & 3)) * W)
    }

    /// Hand a complete board to `out` (standing for [`Tables::stands`]);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partner_codes() {
        let e = |motif, half| code(Edge { motif, half });
        assert_eq!(partner(e(5, Half::Plus)), e(5, Half::Minus));
        assert_eq!(partner(e(5, Half::Minus)), e(5, Half::Plus));
        assert_eq!(partner(e(5, Half::Same)), e(5, Half::Same));
        assert_eq!(partner(e(0, Half::Plus)), e(0, Half::Minus));
        assert_eq!(partner(e(0, Half::Same)), e(0, Half::Same));
    }

    /// The tiles the first cell allows.
    fn first_tiles(t: &Tables) -> Vec<usize> {
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
            let reduced = Tables::new(&framed, order, &none, Setup::turns(true));
            assert_eq!(first_tiles(&reduced), vec![corners[0]], "{order:?}");
            // The full tree keeps every corner piece on the first cell.
            let full = Tables::new(&framed, order, &none, Setup::turns(false));
            assert_eq!(first_tiles(&full), corners, "{order:?}");
        }
        // The spiral starts inside: its first cell's orbit is four of the
        // 36 inner cells, open to every inner piece.
        let t = Tables::new(&framed, Order::Spiral, &none, Setup::turns(true));
        assert_eq!(first_tiles(&t).len(), 36);
        // A rectangle turns only by a half turn: its first corner's orbit
        // is one other corner, two cells for four corner pieces.
        let rectangle = load("puzzles/eternity2/clue2.txt");
        let t = Tables::new(&rectangle, Order::Row, &none, Setup::turns(true));
        assert_eq!(first_tiles(&t).len(), 4);
        // Without a frame every tile may start.
        let open = load("puzzles/legespiel/crazy-sheep.yaml");
        let t = Tables::new(&open, Order::Row, &none, Setup::turns(true));
        assert_eq!(first_tiles(&t).len(), open.len());
    }

    #[test]
    fn bit_ranges() {
        assert_eq!(from_bit(0, 0), !0);
        assert_eq!(from_bit(4, 0), !0 << 4);
        assert_eq!(from_bit(64, 0), 0);
        assert_eq!(from_bit(64, 1), !0);
        assert_eq!(from_bit(70, 1), !0 << 6);
        assert_eq!(from_bit(70, 2), !0);
    }
}

//! The tables the search reads, built once per puzzle: orientations and
//! their edge codes, the fit sets, the steps of the placement order, the
//! per-depth allowed sets.

use crate::board::{Placement, Solution};
use crate::puzzle::{Edge, Half, Puzzle};
use crate::solve::Stands;
use crate::symmetry::{Symmetry, distinct_rotation, identical_classes};

use super::MAX_TILES;
use super::lists::Lists;
use super::order::{Order, neighbours};
use super::search::{tile_bits, words};

/// The edge code of an edge: motif * 4 + half (0 `+`, 1 `-`, 2 `=`).
fn code(e: Edge) -> u16 {
    e.motif * 4
        + match e.half {
            Half::Plus => 0,
            Half::Minus => 1,
            Half::Same => 2,
        }
}

/// The code an adjacent edge must have (`+` and `-` swap, `=` stays):
/// bit 0 flips unless bit 1 (`=`) is set.
fn partner(c: u16) -> u16 {
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
    /// What each emitted board stands for: its four turns under the turn
    /// reduction, else itself.
    pub(super) stands: Stands,
}

/// Word `w` of the set of bits from `bit` on.
fn from_bit(bit: usize, w: usize) -> u64 {
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

fn set_bit(set: &mut [u64], bit: usize) {
    set[bit / 64] |= 1 << (bit % 64);
}

/// Per orientation, its four edge codes; per orientation and direction,
/// the orientations of other tiles whose facing edge fits it (`words`
/// words each).
fn fit_sets(puzzle: &Puzzle, words: usize) -> (Vec<[u16; 4]>, Vec<u64>) {
    let nori = puzzle.len() * 4;
    let ncodes = 4 * puzzle.motifs.len().max(1);
    // Per direction and code: the orientations showing that code on
    // that edge.
    let mut by_edge = vec![0u64; 4 * ncodes * words];
    let edges: Vec<[u16; 4]> = (0..nori)
        .map(|o| {
            let t = &puzzle.tiles[o / 4];
            std::array::from_fn(|d| code(t.edge((o % 4) as u8, d)))
        })
        .collect();
    for (o, e) in edges.iter().enumerate() {
        for (d, &c) in e.iter().enumerate() {
            set_bit(
                &mut by_edge[(d * ncodes + c as usize) * words..][..words],
                o,
            );
        }
    }
    // A neighbour never holds another orientation of the same tile:
    // those bits are cleared.
    let mut fit = Vec::with_capacity(nori * 4 * words);
    for (o, e) in edges.iter().enumerate() {
        for d in 0..4 {
            let at = (d * ncodes + partner(e[(d + 2) % 4]) as usize) * words;
            if words == 1 {
                // One word: a push, not a call to copy a slice.
                fit.push(by_edge[at] & !tile_bits(o));
            } else {
                let from = fit.len();
                fit.extend_from_slice(&by_edge[at..at + words]);
                fit[from + o / 64] &= !tile_bits(o);
            }
        }
    }
    (edges, fit)
}

/// With kinds, per tile: the first tile of its kind (itself without
/// kinds), and the next copy of its kind; and the copies that start
/// blocked (marked used): every copy but the first, placing a copy frees
/// the next.
fn kind_tables(puzzle: &Puzzle, words: usize, kinds: bool) -> (Vec<usize>, Vec<u16>, Vec<u64>) {
    let mut kind_of: Vec<usize> = (0..puzzle.len()).collect();
    let mut next_copy = vec![NO_COPY; puzzle.len()];
    let mut start_used = vec![0u64; words];
    if kinds {
        for class in identical_classes(puzzle) {
            let at: Vec<usize> = class
                .iter()
                .map(|&id| puzzle.index_of(id).expect("a tile of the puzzle"))
                .collect();
            for &k in &at {
                kind_of[k] = at[0];
            }
            for pair in at.windows(2) {
                next_copy[pair[0]] = pair[1] as u16;
                start_used[pair[1] / 16] |= tile_bits(pair[1] * 4);
            }
        }
    }
    (kind_of, next_copy, start_used)
}

/// Per tile, the orientations the first cell's orbit may hold when that
/// tile is at the first cell (the turn reduction's orbit rule): of tiles
/// after it, or with kinds of its kind or a later one.
fn above_sets(puzzle: &Puzzle, words: usize, kind_of: Option<&[usize]>) -> Vec<u64> {
    let nori = puzzle.len() * 4;
    let every = |w: usize| !from_bit(nori, w);
    let mut above = Vec::new();
    above.reserve(puzzle.len() * words);
    for t in 0..puzzle.len() {
        if let Some(kind_of) = kind_of {
            // Orientations of tiles of the same kind or a later one.
            let from = above.len();
            above.resize(from + words, 0);
            for (u, &k) in kind_of.iter().enumerate() {
                if k >= kind_of[t] {
                    for o in 4 * u..4 * u + 4 {
                        set_bit(&mut above[from..], o);
                    }
                }
            }
        } else {
            above.extend((0..words).map(|w| every(w) & from_bit((t + 1) * 4, w)));
        }
    }
    above
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
        } = setup;
        let shape = puzzle.shape();
        let (rows, cols) = (puzzle.rows, puzzle.cols);
        let cells = rows * cols;
        let nori = puzzle.len() * 4;
        let words = word_bucket(nori.div_ceil(64));
        let (edges, fit) = fit_sets(puzzle, words);
        let order_cells = order.cells(rows, cols);
        let first_cell = order_cells[0];
        // The cell every turn keeps in place (odd rows and columns).
        let centre = (rows % 2 == 1 && cols % 2 == 1).then_some((rows / 2) * cols + cols / 2);
        // With kinds the reductions work on pictures: the centre rule needs
        // the centre placed first (then its tile is the first copy of its
        // kind, whose rotation 0 is one fixed orientation of the picture);
        // the orbit rule compares kinds, not tiles, and admits ties. Either
        // keeps at least one turn of every picture class (the collector
        // drops repeats).
        // Only the board's own turns (its group) are reduced: none on a
        // board with a fixed piece or tiles that do not turn.
        let turns = shape.group.turns();
        let reduce = match (
            reduce_turns && symmetry.is_none() && turns.len() > 1,
            centre,
        ) {
            (false, _) => Reduce::None,
            (true, Some(c)) if kinds && first_cell != c => Reduce::None,
            (true, Some(_)) => Reduce::CentreRotation,
            (true, None) => Reduce::FirstOfOrbit,
        };
        let first_orbit: Vec<usize> = turns[1..]
            .iter()
            .map(|&k| shape.turn_cell(k, first_cell))
            .collect();
        // Under the turns the centre keeps, its rotations below 4 / |G|
        // hold one turn of each board: rotation 0 (every fourth bit), or
        // 0 and 1 under the half turn alone.
        let centre_mask = if turns.len() == 4 {
            0x1111_1111_1111_1111
        } else {
            0x3333_3333_3333_3333
        };
        let rules = puzzle.has_rules();
        let every = |w: usize| !from_bit(nori, w);
        let mut allowed = Vec::with_capacity(cells * words);
        let mut placed = vec![false; cells];
        let mut steps: Vec<Step> = Vec::with_capacity(cells);
        for &c in &order_cells {
            let prev = steps.last().map(|s| s.cell);
            let (mut nbs, mut k) = ([(0, 0); 4], 0);
            let (mut older, mut n_older, mut link) = ([(0, 0); 4], 0, None);
            for nb in neighbours(rows, cols, c).filter(|&(_, b)| placed[b]) {
                nbs[k] = nb;
                k += 1;
                if Some(nb.1) == prev {
                    link = Some(nb.0);
                } else {
                    older[n_older] = nb;
                    n_older += 1;
                }
            }
            steps.push(Step {
                cell: c,
                nbs,
                k,
                link,
                older,
                n_older,
                above_first: reduce == Reduce::FirstOfOrbit
                    && c != first_cell
                    && first_orbit.contains(&c),
            });
            let from = allowed.len();
            allowed.extend((0..words).map(every));
            let centre_rotation = reduce == Reduce::CentreRotation && Some(c) == centre;
            if centre_rotation {
                for w in &mut allowed[from..] {
                    *w &= centre_mask;
                }
            }
            if rules {
                // The frame, fixed pieces and no-turn rule: the cell's domain.
                for o in 0..nori {
                    if !puzzle.allows(c, o / 4, (o % 4) as u8) {
                        allowed[from + o / 64] &= !(1 << (o % 64));
                    }
                }
            }
            if kinds {
                // Distinct orientations only: rotations below the period.
                for (k, tile) in puzzle.tiles.iter().enumerate() {
                    for r in (0..4).filter(|&r| !distinct_rotation(puzzle, tile, r as u8)) {
                        let o = k * 4 + r;
                        allowed[from + o / 64] &= !(1 << (o % 64));
                    }
                }
            }
            if !symmetry.is_none() {
                for o in 0..nori {
                    let (tile, r) = (puzzle.tiles[o / 4].id, (o % 4) as u8);
                    if !symmetry.allows(puzzle, c, tile, r) {
                        allowed[from + o / 64] &= !(1 << (o % 64));
                    }
                }
            }
            placed[c] = true;
        }
        let (kind_of, next_copy, start_used) = kind_tables(puzzle, words, kinds);
        if reduce == Reduce::FirstOfOrbit {
            first_of_a_closed_orbit(&mut allowed, words, &order_cells, &first_orbit, &kind_of);
        }
        let above = if reduce == Reduce::FirstOfOrbit {
            above_sets(puzzle, words, kinds.then_some(&kind_of[..]))
        } else {
            Vec::new()
        };
        let scan = matches!(order, Order::Row | Order::RowUp | Order::Frame);
        let lists = (lists || scan && words > 1 && !kinds)
            .then(|| Lists::new(&edges, partner, &steps, &allowed, words, nori))
            .flatten();
        Tables {
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
                    tile: puzzle.tiles[o / 4].id,
                    rotation: (o % 4) as u8,
                })
                .collect(),
            stands: if kinds {
                Stands::PictureClass
            } else if reduce == Reduce::None {
                Stands::Board
            } else {
                Stands::Turns
            },
        }
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
        let grey = framed.frame.unwrap();
        let corners: Vec<usize> = (0..framed.len())
            .filter(|&k| {
                (0..4)
                    .filter(|&d| framed.tiles[k].edge(0, d).motif == grey)
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

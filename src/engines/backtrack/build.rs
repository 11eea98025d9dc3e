//! How the backtracker's tables (tables.rs) are built: the fit sets, the
//! board-turn reduction, the steps in placement order with what each
//! cell may hold, the kinds of identical tiles and the orbit rule's sets.

use crate::puzzle::Puzzle;
use crate::solve::Turns;
use crate::symmetry::{Symmetry, distinct_rotation, identical_classes};

use super::bits::tile_bits;
use super::bits::{NO_COPY, code, from_bit, partner, set_bit};
use super::order::neighbours;

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

/// Per orientation, its four edge codes; per orientation and direction,
/// the orientations of other tiles whose facing edge fits it (`words`
/// words each).
pub(super) fn fit_sets(puzzle: &Puzzle, words: usize) -> (Vec<[u16; 4]>, Vec<u64>) {
    let nori = puzzle.len() * 4;
    let ncodes = 4 * puzzle.motifs().len().max(1);
    // Per direction and code: the orientations showing that code on
    // that edge.
    let mut by_edge = vec![0u64; 4 * ncodes * words];
    let edges: Vec<[u16; 4]> = (0..nori)
        .map(|o| {
            let t = &puzzle.tiles()[o / 4];
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
pub(super) fn kind_tables(
    puzzle: &Puzzle,
    words: usize,
    kinds: bool,
) -> (Vec<usize>, Vec<u16>, Vec<u64>) {
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
pub(super) fn above_sets(puzzle: &Puzzle, words: usize, kind_of: Option<&[usize]>) -> Vec<u64> {
    let nori = puzzle.len() * 4;
    let every = |w: usize| !from_bit(nori, w);
    let mut above = Vec::with_capacity(puzzle.len() * words);
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

/// The board-turn reduction as the tables apply it.
pub(super) struct Reduction {
    pub(super) reduce: Reduce,
    pub(super) first_cell: usize,
    /// The cells the first one goes to under the group's other turns.
    pub(super) first_orbit: Vec<usize>,
    /// The cell every turn keeps in place (odd rows and columns).
    pub(super) centre: Option<usize>,
    /// The centre's rotations that hold one turn of each board.
    pub(super) centre_mask: u64,
}

impl Reduction {
    pub(super) fn new(
        puzzle: &Puzzle,
        symmetry: &Symmetry,
        first_cell: usize,
        search: Turns,
        kinds: bool,
    ) -> Reduction {
        let (rows, cols) = (puzzle.rows(), puzzle.cols());
        let shape = puzzle.shape();
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
            search == Turns::Reduce && symmetry.is_none() && turns.len() > 1,
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
        Reduction {
            reduce,
            first_cell,
            first_orbit,
            centre,
            centre_mask,
        }
    }
}

/// In placement order, each step (its cell and the neighbours placed
/// before it) and the orientations its cell may hold (`words` words a
/// cell): the rules, the symmetry breaking, the turn reduction and, with
/// kinds, distinct rotations only; and, in the same layout, the
/// orientations only a fixed piece beside the cell forbids (what the key
/// tables may hold while the candidates are checked against the cell's
/// set, lists.rs).
pub(super) fn steps_and_allowed(
    puzzle: &Puzzle,
    symmetry: &Symmetry,
    order_cells: &[usize],
    words: usize,
    kinds: bool,
    red: &Reduction,
) -> (Vec<Step>, Vec<u64>, Vec<u64>) {
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    let (cells, nori) = (rows * cols, puzzle.len() * 4);
    let rules = puzzle.has_rules();
    let every = |w: usize| !from_bit(nori, w);
    let mut allowed = Vec::with_capacity(cells * words);
    // Per depth: what only a fixed piece beside the cell forbids.
    let mut beside = Vec::with_capacity(cells * words);
    let mut placed = vec![false; cells];
    let mut steps: Vec<Step> = Vec::with_capacity(cells);
    for &c in order_cells {
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
            above_first: red.reduce == Reduce::FirstOfOrbit
                && c != red.first_cell
                && red.first_orbit.contains(&c),
        });
        let from = allowed.len();
        allowed.extend((0..words).map(every));
        let centre_rotation = red.reduce == Reduce::CentreRotation && Some(c) == red.centre;
        if centre_rotation {
            for w in &mut allowed[from..] {
                *w &= red.centre_mask;
            }
        }
        let mut beside_fixed = vec![0u64; words];
        if rules {
            // The frame, fixed pieces and no-turn rule: the cell's domain,
            // less what does not match a fixed piece beside it.
            for o in 0..nori {
                let (k, r) = (o / 4, (o % 4) as u8);
                if !puzzle.allows_alone(c, k, r) {
                    allowed[from + o / 64] &= !(1 << (o % 64));
                } else if !puzzle.allows(c, k, r) {
                    beside_fixed[o / 64] |= 1 << (o % 64);
                }
            }
        }
        if kinds {
            // Distinct orientations only: rotations below the period.
            for (k, tile) in puzzle.tiles().iter().enumerate() {
                for r in (0..4).filter(|&r| !distinct_rotation(puzzle, tile, r as u8)) {
                    let o = k * 4 + r;
                    allowed[from + o / 64] &= !(1 << (o % 64));
                }
            }
        }
        if !symmetry.is_none() {
            for o in 0..nori {
                let (tile, r) = (puzzle.tiles()[o / 4].id, (o % 4) as u8);
                if !symmetry.allows(puzzle, c, tile, r) {
                    allowed[from + o / 64] &= !(1 << (o % 64));
                }
            }
        }
        for (w, b) in allowed[from..].iter_mut().zip(&beside_fixed) {
            *w &= !b;
        }
        beside.extend(beside_fixed);
        placed[c] = true;
    }
    (steps, allowed, beside)
}

//! Pictures: what a board shows, the labelled boards that show the same
//! picture (identical tiles, turns of rotation-symmetric tiles), and the
//! canonical form of a picture class. All of it follows the puzzle's rules
//! (fixed pieces, turning) and its board's symmetry group.

use std::collections::{BTreeMap, HashMap};

use crate::board::{Placement, Solution};
use crate::puzzle::{Edge, Puzzle, Shape, Tile, Turning, base_side};

/// The picture a board shows: per cell (row-major), the edges it shows in the
/// directions right, top, left, bottom.
pub fn picture(puzzle: &Puzzle, s: &Solution) -> Vec<[Edge; 4]> {
    s.cells()
        .iter()
        .map(|p| {
            let t = puzzle.tile(p.tile).expect("a verified solution");
            std::array::from_fn(|d| t.edge(p.rotation, d))
        })
        .collect()
}

/// A picture of a board of this shape turned `k` quarter turns
/// counterclockwise (odd `k` on square boards only): one turn sends the cell
/// at (i, j) to (n+1-j, i), and what it showed in direction d it then shows
/// in d+1.
pub(crate) fn turn_picture<T: Copy>(shape: Shape, k: usize, p: &[[T; 4]]) -> Vec<[T; 4]> {
    let mut out = p.to_vec();
    for (c, e) in p.iter().enumerate() {
        out[shape.turn_cell(k, c)] = std::array::from_fn(|d| e[base_side(d, k as u8)]);
    }
    out
}

/// What a picture's canonical form needs, built once per puzzle: each
/// (tile, rotation)'s look (the edges it shows, numbered), and per look the
/// (tile index, rotation) pairs that show it, by tile index then rotation.
/// A canonical form then looks its cells up rather than trying every tile
/// in every rotation on every cell.
pub(crate) struct Realizer {
    /// Per tile index * 4 + rotation: its look.
    look: Vec<u32>,
    /// Per look: the pairs showing it, in the rotations the puzzle allows.
    shows: Vec<Vec<(usize, u8)>>,
    /// Per cell * 4 * tiles + tile index * 4 + rotation: the rules allow it.
    allowed: Vec<bool>,
}

impl Realizer {
    pub(crate) fn new(puzzle: &Puzzle) -> Realizer {
        let mut ids: HashMap<[Edge; 4], u32> = HashMap::new();
        let mut look = Vec::with_capacity(4 * puzzle.len());
        let mut shows: Vec<Vec<(usize, u8)>> = Vec::new();
        for (k, t) in puzzle.tiles().iter().enumerate() {
            for r in 0..4u8 {
                let shown: [Edge; 4] = std::array::from_fn(|d| t.edge(r, d));
                let next = ids.len() as u32;
                let id = *ids.entry(shown).or_insert(next);
                if id == next {
                    shows.push(Vec::new());
                }
                look.push(id);
                if puzzle.rotations().any(|a| a == r) {
                    shows[id as usize].push((k, r));
                }
            }
        }
        let allowed = (0..puzzle.cells())
            .flat_map(|c| (0..4 * puzzle.len()).map(move |x| (c, x)))
            .map(|(c, x)| puzzle.allows(c, x / 4, (x % 4) as u8))
            .collect();
        Realizer {
            look,
            shows,
            allowed,
        }
    }

    /// The smallest labelled board that shows exactly these looks: row by
    /// row, the smallest unused tile that can show the cell's look, in its
    /// smallest such rotation that the rules allow there. (Tiles that can
    /// show the same edges are identical up to rotation, so they are
    /// interchangeable and greedy is optimal; a fixed piece is allowed on
    /// its own cell only.)
    fn realize(&self, puzzle: &Puzzle, looks: &[u32]) -> Option<Solution> {
        let mut used = vec![false; puzzle.len()];
        let mut cells = Vec::with_capacity(looks.len());
        for (c, &l) in looks.iter().enumerate() {
            let &(k, r) = self.shows[l as usize].iter().find(|&&(k, r)| {
                !used[k] && self.allowed[(c * puzzle.len() + k) * 4 + r as usize]
            })?;
            used[k] = true;
            cells.push(Placement {
                tile: puzzle.tiles()[k].id,
                rotation: r,
            });
        }
        Some(Solution::shaped(cells, puzzle.shape()))
    }

    /// The canonical form of a solution's picture class: over the turns of
    /// its picture in the board's group, the smallest labelled board
    /// showing that turn. Two solutions show the same picture up to board
    /// turns exactly when these are equal.
    pub(crate) fn canonical(&self, puzzle: &Puzzle, s: &Solution) -> Solution {
        let shape = puzzle.shape();
        let placed: Vec<(usize, u8)> = s
            .cells()
            .iter()
            .map(|p| {
                (
                    puzzle.index_of(p.tile).expect("a verified solution"),
                    p.rotation,
                )
            })
            .collect();
        let mut looks = vec![0u32; placed.len()];
        shape
            .group
            .turns()
            .iter()
            .map(|&turns| {
                // A turn sends each cell's tile to its image, turned with it.
                for (c, &(k, r)) in placed.iter().enumerate() {
                    looks[shape.turn_cell(turns, c)] = self.look[4 * k + (r as usize + turns) % 4];
                }
                self.realize(puzzle, &looks)
                    .expect("a picture of this puzzle")
            })
            .min()
            .expect("the identity")
    }
}

/// Every labelled board that shows the same picture as `s` (itself
/// included), in increasing order: the identical tiles permuted among their
/// cells, and each rotation-symmetric tile in each rotation that shows the
/// same edges. There are [`labellings_per_picture`] of them.
#[cfg(test)]
pub(crate) fn same_picture(puzzle: &Puzzle, s: &Solution) -> Vec<Solution> {
    let mut out = Vec::new();
    each_same_picture(puzzle, s, &mut |b| {
        out.push(b);
        true
    });
    out
}

/// [`same_picture`] one board at a time, in the same order, until `f`
/// returns false (so a picture with astronomically many labellings can
/// give its first few).
pub(crate) fn each_same_picture(
    puzzle: &Puzzle,
    s: &Solution,
    f: &mut dyn FnMut(Solution) -> bool,
) {
    let pic = picture(puzzle, s);
    // Per cell, every (tile index, rotation) that shows its edges.
    let options: Vec<Vec<(usize, u8)>> = pic
        .iter()
        .enumerate()
        .map(|(c, shown)| {
            puzzle
                .tiles()
                .iter()
                .enumerate()
                .flat_map(|(k, t)| puzzle.rotations().map(move |r| (k, t, r)))
                .filter(|(k, t, r)| {
                    (0..4).all(|d| t.edge(*r, d) == shown[d]) && puzzle.allows(c, *k, *r)
                })
                .map(|(k, _, r)| (k, r))
                .collect()
        })
        .collect();
    let shape = puzzle.shape();
    /// Returns false once `f` asked to stop.
    fn go(
        puzzle: &Puzzle,
        shape: Shape,
        options: &[Vec<(usize, u8)>],
        used: &mut Vec<bool>,
        cells: &mut Vec<Placement>,
        f: &mut dyn FnMut(Solution) -> bool,
    ) -> bool {
        let c = cells.len();
        if c == options.len() {
            return f(Solution::shaped(cells.clone(), shape));
        }
        for &(k, r) in &options[c] {
            if !used[k] {
                used[k] = true;
                cells.push(Placement {
                    tile: puzzle.tiles()[k].id,
                    rotation: r,
                });
                let more = go(puzzle, shape, options, used, cells, f);
                cells.pop();
                used[k] = false;
                if !more {
                    return false;
                }
            }
        }
        true
    }
    go(
        puzzle,
        shape,
        &options,
        &mut vec![false; puzzle.len()],
        &mut Vec::with_capacity(pic.len()),
        f,
    );
}

/// How many labelled boards show each picture of this puzzle: the product of
/// k! over the classes of k identical tiles and, where tiles turn, of
/// 4 / period over the tiles that are not fixed; `None` past `u128`.
pub fn labellings_per_picture(puzzle: &Puzzle) -> Option<u128> {
    let perms = identical_classes(puzzle)
        .iter()
        .flat_map(|c| 2..=c.len() as u128)
        .try_fold(1u128, |a, k| a.checked_mul(k))?;
    if puzzle.turning() == Turning::None {
        return Some(perms);
    }
    puzzle
        .tiles()
        .iter()
        .filter(|t| !puzzle.hints().iter().any(|h| h.tile == t.id))
        .try_fold(perms, |a, t| a.checked_mul(4 / period(t) as u128))
}

/// The canonical form of a solution's picture class ([`Realizer::canonical`],
/// for one solution: a caller with many builds the realizer once).
pub(crate) fn picture_canonical(puzzle: &Puzzle, s: &Solution) -> Solution {
    Realizer::new(puzzle).canonical(puzzle, s)
}

/// Whether picture classes are rotation classes on this puzzle: no two tiles
/// are identical (up to the turns the rules allow) and no tile that may
/// turn shows the same edges after less than a full turn. Then one
/// labelled board shows each picture, and [`picture_canonical`] is
/// [`super::canonical`].
pub fn pictures_are_labels(puzzle: &Puzzle) -> bool {
    labellings_per_picture(puzzle) == Some(1)
}

/// The rotations that show a tile's distinct orientations, once each:
/// those below its period, but for a fixed piece the rotation it is fixed
/// in (its cell allows no other).
pub(crate) fn distinct_rotation(puzzle: &Puzzle, t: &Tile, r: u8) -> bool {
    match puzzle.hints().iter().find(|h| h.tile == t.id) {
        Some(h) => r == h.rotation,
        None => r < period(t),
    }
}

/// The smallest number of quarter turns after which a tile shows the same
/// edges again: 1 (all four edges alike), 2, or 4.
pub(crate) fn period(t: &Tile) -> u8 {
    [1u8, 2]
        .into_iter()
        .find(|&p| (0..4).all(|e| t.edges[e] == t.edges[(e + p as usize) % 4]))
        .unwrap_or(4)
}

/// Tile kinds: the tiles grouped by their edges up to the rotations the
/// rules allow, each group sorted by id, ordered by their smallest id
/// (singletons included). A fixed piece is a kind of its own: it cannot
/// trade places with its copies.
pub(crate) fn tile_kinds(puzzle: &Puzzle) -> Vec<Vec<i64>> {
    let mut by_key: BTreeMap<([Edge; 4], i64), Vec<i64>> = BTreeMap::new();
    for t in puzzle.tiles() {
        by_key.entry(kind_key(puzzle, t)).or_default().push(t.id);
    }
    let mut out: Vec<Vec<i64>> = by_key.into_values().collect();
    out.sort();
    out
}

/// What tiles of one kind share ([`tile_kinds`]): their edges in their
/// smallest allowed rotation, and a fixed piece's own id.
pub(crate) fn kind_key(puzzle: &Puzzle, t: &Tile) -> ([Edge; 4], i64) {
    let edges = puzzle
        .rotations()
        .map(|r| std::array::from_fn(|e| t.edge(r, e)))
        .min()
        .expect("rotation 0");
    let fixed = if puzzle.hints().iter().any(|h| h.tile == t.id) {
        t.id
    } else {
        i64::MIN
    };
    (edges, fixed)
}

/// Classes of identical tiles (same edges up to rotation) with two or more
/// members, each sorted by id, ordered by their smallest id.
pub(crate) fn identical_classes(puzzle: &Puzzle) -> Vec<Vec<i64>> {
    let mut out = tile_kinds(puzzle);
    out.retain(|c| c.len() > 1);
    out
}

//! The frame check of first-solution searches on framed boards: the
//! border cells not yet filled form one run of the board's outer ring
//! between two filled ones, and the frame pieces not yet placed must fill
//! it, each once, every two neighbours along the ring matching (the edges
//! facing the inside are left out: a relaxation). With few frame colours
//! the frame pieces chain in many ways, but the corners must fall on the
//! corner cells and each side must take exactly its number of pieces; once
//! a few rows are placed, the pieces left often cannot (docs/backtracking.md,
//! "The frame check").
//!
//! The check is a depth-first walk along the run, cell by cell, over the
//! states (the frame pieces taken so far, the code the next cell must
//! show), each failed state noted once: exact where few fail, and passed
//! without a verdict past [`MAX_STATES`] failed states. Interchangeable
//! frame pieces (the same frame codes everywhere) are taken in one order
//! only. Results are kept in a small table per search, keyed by the pieces
//! left (counted per group of interchangeable ones) and the two ends'
//! codes: the placements between two border cells do not change them.

use super::MAX_TILES;
use super::bits::partner;
use super::core::Core;
use crate::puzzle::{BOTTOM, LEFT, RIGHT, TOP};

/// The most failed states a walk notes before it gives up (and passes).
const MAX_STATES: usize = 4096;

/// The slots of the table of results (a power of two).
const SLOTS: usize = 1 << 14;

/// The slots of a walk's table of failed states (a power of two, four
/// times [`MAX_STATES`]).
const SEEN: usize = 4 * MAX_STATES;

/// No frame piece.
const NONE: u8 = u8::MAX;

/// What may follow at a ring position: a frame piece (its index among the
/// frame pieces) showing code `need` on the side facing the previous
/// position, after which the next position must show `next`.
#[derive(Clone, Copy, Debug)]
struct Move {
    need: u16,
    piece: u8,
    next: u16,
}

/// The run to check after a placement: ring positions `start` to
/// `start + len - 1` (modulo the ring's length) are empty, the two around
/// them filled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Run {
    start: u16,
    len: u16,
}

/// The frame check of one puzzle and placement order.
pub(super) struct Ring {
    /// The border cells, clockwise from the top-left corner.
    cycle: Vec<usize>,
    /// Per ring position: the side facing the previous position and the
    /// side facing the next.
    sides: Vec<(usize, usize)>,
    /// Per ring position: its moves, sorted by `need`.
    moves: Vec<Vec<Move>>,
    /// Per depth: the run to check after the placement there.
    at: Vec<Option<Run>>,
    /// Per tile index: its index among the frame pieces, or [`NONE`].
    piece_of: Vec<u8>,
    /// Per frame piece: the identical frame pieces of lower index (taken
    /// first).
    lower: Vec<u64>,
    /// The interchangeable frame pieces: runs of indices (first, count).
    groups: Vec<(u8, u8)>,
    /// Per orientation: its edge codes.
    edges: Vec<[u16; 4]>,
}

/// The results of checks, per search: a direct-mapped table.
pub(super) struct Memo {
    slots: Vec<(u64, u64)>,
    /// The failed states of the walk under way: (taken, stamp << 16 |
    /// need), open addressing.
    seen: Vec<(u64, u32)>,
    /// The walk under way.
    stamp: u16,
    /// Its failed states so far.
    failed: usize,
}

impl Memo {
    pub(super) fn new(on: bool) -> Memo {
        Memo {
            slots: vec![(0, 0); if on { SLOTS } else { 0 }],
            seen: vec![(0, 0); if on { SEEN } else { 0 }],
            stamp: 0,
            failed: 0,
        }
    }

    /// The slot of a state.
    fn home(taken: u64, need: u16) -> usize {
        ((taken ^ u64::from(need) << 48).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize
    }

    fn failed_before(&self, taken: u64, need: u16) -> bool {
        let tag = u32::from(self.stamp) << 16 | u32::from(need);
        let mut h = Self::home(taken, need);
        loop {
            let (k, t) = self.seen[h & (SEEN - 1)];
            if t >> 16 != u32::from(self.stamp) {
                return false;
            }
            if k == taken && t == tag {
                return true;
            }
            h += 1;
        }
    }

    /// Note a failed state; `None` past [`MAX_STATES`].
    fn fail(&mut self, taken: u64, need: u16) -> Option<()> {
        self.failed += 1;
        if self.failed > MAX_STATES {
            return None;
        }
        let tag = u32::from(self.stamp) << 16 | u32::from(need);
        let mut h = Self::home(taken, need);
        while self.seen[h & (SEEN - 1)].1 >> 16 == u32::from(self.stamp) {
            h += 1;
        }
        self.seen[h & (SEEN - 1)] = (taken, tag);
        Some(())
    }
}

/// The side of a cell facing its neighbour `to` (adjacent).
fn side(cols: usize, from: usize, to: usize) -> usize {
    match to as isize - from as isize {
        1 => RIGHT,
        -1 => LEFT,
        d if d == cols as isize => BOTTOM,
        _ => TOP,
    }
}

/// The border cells of a `rows`x`cols` board, clockwise from the
/// top-left corner.
fn cycle(rows: usize, cols: usize) -> Vec<usize> {
    let top = 0..cols;
    let right = (1..rows).map(|i| i * cols + cols - 1);
    let bottom = (0..cols - 1).rev().map(|j| (rows - 1) * cols + j);
    let left = (1..rows - 1).rev().map(|i| i * cols);
    top.chain(right).chain(bottom).chain(left).collect()
}

/// A frame piece's moves: (position, need, next).
type Signature = Vec<(usize, u16, u16)>;

/// Number the `m` frame pieces so that those with the same moves at every
/// position (interchangeable in the walk) come together, sorting each
/// position's moves by what they need; the groups' index ranges.
fn group(moves: &mut [Vec<Move>], piece_of: &mut [u8], m: usize) -> Vec<(usize, usize)> {
    let signature = |k: u8| -> Signature {
        let mut s: Signature = (0..moves.len())
            .flat_map(|q| {
                moves[q]
                    .iter()
                    .filter(move |mv| mv.piece == k)
                    .map(move |mv| (q, mv.need, mv.next))
            })
            .collect();
        s.sort_unstable();
        s
    };
    let mut by: Vec<(Signature, u8)> = (0..m as u8).map(|k| (signature(k), k)).collect();
    by.sort();
    let mut new = vec![0u8; m];
    let mut groups: Vec<(usize, usize)> = Vec::new();
    for (i, (sig, k)) in by.iter().enumerate() {
        new[*k as usize] = i as u8;
        match groups.last_mut() {
            Some(g) if by[g.0].0 == *sig => g.1 = i + 1,
            _ => groups.push((i, i + 1)),
        }
    }
    for p in piece_of.iter_mut().filter(|p| **p != NONE) {
        *p = new[*p as usize];
    }
    for v in moves.iter_mut() {
        for mv in v.iter_mut() {
            mv.piece = new[mv.piece as usize];
        }
        v.sort_by_key(|mv| (mv.need, mv.piece, mv.next));
        v.dedup_by_key(|mv| (mv.need, mv.piece, mv.next));
    }
    groups
}

impl Ring {
    /// The check for `t`'s puzzle and order (`edges` its orientations'
    /// codes): none unless the board is framed, at least 3x3, its border
    /// cells hold exactly its frame pieces (at most 64) and no frame piece
    /// fits inside.
    pub(super) fn new(t: &Core<'_>, edges: &[[u16; 4]]) -> Option<Ring> {
        let p = t.puzzle;
        let (rows, cols) = (p.rows(), p.cols());
        p.frame()?;
        if rows < 3 || cols < 3 {
            return None;
        }
        let cycle = cycle(rows, cols);
        let m = cycle.len();
        let depth_of: Vec<usize> = {
            let mut d = vec![0; t.cells];
            for (k, s) in t.steps.iter().enumerate() {
                d[s.cell] = k;
            }
            d
        };
        let w = t.words;
        let allows =
            |cell: usize, o: usize| t.allowed[depth_of[cell] * w + o / 64] >> (o % 64) & 1 == 1;
        let on_ring: Vec<bool> = (0..t.cells).map(|c| cycle.contains(&c)).collect();
        let tiles = p.len();
        let mut piece_of = vec![NONE; tiles];
        let mut frame = 0;
        for (k, piece) in piece_of.iter_mut().enumerate() {
            let ring = cycle.iter().any(|&c| (0..4).any(|r| allows(c, k * 4 + r)));
            let inside = (0..t.cells).any(|c| !on_ring[c] && (0..4).any(|r| allows(c, k * 4 + r)));
            match (ring, inside) {
                (true, true) => return None,
                (true, false) => {
                    *piece = frame as u8;
                    frame += 1;
                }
                _ => {}
            }
        }
        if frame != m || m > 64 {
            return None;
        }
        let sides: Vec<(usize, usize)> = (0..m)
            .map(|q| {
                let (prev, next) = (cycle[(q + m - 1) % m], cycle[(q + 1) % m]);
                (side(cols, cycle[q], prev), side(cols, cycle[q], next))
            })
            .collect();
        let mut moves: Vec<Vec<Move>> = (0..m)
            .map(|q| {
                let (back, ahead) = sides[q];
                (0..tiles * 4)
                    .filter(|&o| piece_of[o / 4] != NONE && allows(cycle[q], o))
                    .map(|o| Move {
                        need: edges[o][back],
                        piece: piece_of[o / 4],
                        next: partner(edges[o][ahead]),
                    })
                    .collect()
            })
            .collect();
        let groups = group(&mut moves, &mut piece_of, m);
        let lower = (0..m)
            .map(|k| {
                let &(lo, _) = groups
                    .iter()
                    .find(|g| g.0 <= k && k < g.1)
                    .expect("a group");
                (lo..k).fold(0u64, |a, j| a | 1 << j)
            })
            .collect();
        let at = Self::runs(t, &cycle);
        Some(Ring {
            cycle,
            sides,
            moves,
            at,
            piece_of,
            lower,
            groups: groups
                .iter()
                .map(|&(lo, hi)| (lo as u8, (hi - lo) as u8))
                .collect(),
            edges: edges.to_vec(),
        })
    }

    /// Per depth: the run of empty border cells after the placement there,
    /// where that placement filled a border cell and the empty ones form
    /// one run between two filled ones.
    fn runs(t: &Core<'_>, cycle: &[usize]) -> Vec<Option<Run>> {
        let m = cycle.len();
        let mut filled = vec![false; t.cells];
        let cols = t.puzzle.cols();
        t.steps
            .iter()
            .enumerate()
            .map(|(depth, s)| {
                filled[s.cell] = true;
                let empty: Vec<bool> = cycle.iter().map(|&c| !filled[c]).collect();
                let count = empty.iter().filter(|&&e| e).count();
                if !cycle.contains(&s.cell) || count == 0 {
                    return None;
                }
                // Past the first row, only the row's first placement: the
                // last one rarely fails where the next row's first does
                // not, and each is a walk (measured, docs/log.md).
                if depth >= cols && depth % cols == cols - 1 {
                    return None;
                }
                // The run starts after a filled position and goes on
                // without a gap.
                let start = (0..m).find(|&q| empty[q] && !empty[(q + m - 1) % m])?;
                let run = (0..count).all(|i| empty[(start + i) % m]);
                run.then_some(Run {
                    start: start as u16,
                    len: count as u16,
                })
            })
            .collect()
    }

    /// After the placement at `depth` (`placed` holding the board): false
    /// when the frame pieces left cannot fill the empty run of the ring.
    pub(super) fn passes(&self, placed: &[u16; MAX_TILES], depth: usize, memo: &mut Memo) -> bool {
        const M: usize = MAX_TILES - 1;
        let Some(run) = self.at[depth] else {
            return true;
        };
        let m = self.cycle.len();
        let (start, len) = (run.start as usize, run.len as usize);
        // The frame pieces on the ring's filled part.
        let mut on = 0u64;
        for i in len..m {
            let o = placed[self.cycle[(start + i) % m] & M] as usize;
            on |= 1 << (self.piece_of[o / 4] & 63);
        }
        let free = self.canonical(!on & (!0u64 >> (64 - m)));
        let before = placed[self.cycle[(start + m - 1) % m] & M] as usize;
        let after = placed[self.cycle[(start + len) % m] & M] as usize;
        let need = partner(self.edges[before][self.sides[(start + m - 1) % m].1]);
        let want = self.edges[after][self.sides[(start + len) % m].0];
        let key = (u64::from(need) << 32 | u64::from(want) << 16 | depth as u64) + 1;
        let h = (free ^ key.rotate_left(40)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 50;
        let at = h as usize & (SLOTS - 1);
        let slot = memo.slots[at];
        if slot.0 == free && slot.1 >> 1 == key {
            return slot.1 & 1 == 1;
        }
        let pass = self.walk(memo, free, start, len, need, want);
        memo.slots[at] = (free, key << 1 | u64::from(pass));
        pass
    }

    /// `free` with each group's pieces the first ones of the group.
    #[inline(always)]
    fn canonical(&self, free: u64) -> u64 {
        let mut out = 0u64;
        for &(lo, n) in &self.groups {
            let range = (!0u64 >> (64 - u32::from(n))) << lo;
            let k = (free & range).count_ones();
            if k > 0 {
                out |= !0u64 >> (64 - k) << lo;
            }
        }
        out
    }

    /// The walk along the run: can the pieces of `free` fill positions
    /// `start..start + len`, the first showing `need` towards the one
    /// before, the last requiring `want` of the one after? Depth first,
    /// each failed state noted once; past [`MAX_STATES`] of them it passes.
    fn walk(
        &self,
        memo: &mut Memo,
        free: u64,
        start: usize,
        len: usize,
        need: u16,
        want: u16,
    ) -> bool {
        memo.stamp = memo.stamp.wrapping_add(1);
        if memo.stamp == 0 {
            memo.seen.fill((0, 0));
            memo.stamp = 1;
        }
        memo.failed = 0;
        let walk = Walk {
            ring: self,
            free,
            start,
            len,
            want,
        };
        walk.from(memo, 0, 0, need).unwrap_or(true)
    }
}

/// One walk's fixed inputs.
struct Walk<'r> {
    ring: &'r Ring,
    free: u64,
    start: usize,
    len: usize,
    want: u16,
}

impl Walk<'_> {
    /// Whether positions `i..` can be filled, `taken` placed and `need`
    /// asked of position `i`; `None` once too many states failed.
    fn from(&self, memo: &mut Memo, i: usize, taken: u64, need: u16) -> Option<bool> {
        if i == self.len {
            return Some(need == self.want);
        }
        if memo.failed_before(taken, need) {
            return Some(false);
        }
        let m = self.ring.cycle.len();
        let moves = &self.ring.moves[(self.start + i) % m];
        let from = moves.partition_point(|mv| mv.need < need);
        let open = self.free & !taken;
        for mv in moves[from..].iter().take_while(|mv| mv.need == need) {
            let bit = 1u64 << mv.piece;
            if open & bit != 0
                && self.ring.lower[mv.piece as usize] & open == 0
                && self.from(memo, i + 1, taken | bit, mv.next)?
            {
                return Some(true);
            }
        }
        memo.fail(taken, need)?;
        Some(false)
    }
}

#[cfg(test)]
mod tests {
    use super::super::Order;
    use super::super::tables::{Setup, Tables};
    use super::*;
    use crate::generate::{FamilyOptions, Rng, plant_family};
    use crate::solve::Turns;
    use crate::symmetry::Symmetry;

    /// Whether some assignment of distinct pieces of `free` (frame piece
    /// indices) to ring positions `start..start + len`, each allowed there,
    /// matches both filled ends and each other: every assignment tried.
    struct Brute<'a> {
        t: &'a Tables<'a>,
        r: &'a Ring,
        depth_of: &'a [usize],
    }

    impl Brute<'_> {
        fn fills(&self, free: u64, q: usize, left: usize, prev: usize, after: usize) -> bool {
            let (t, r) = (self.t, self.r);
            let m = r.cycle.len();
            let asked = partner(r.edges[prev][r.sides[(q + m - 1) % m].1]);
            if left == 0 {
                return asked == r.edges[after][r.sides[q % m].0];
            }
            let depth = self.depth_of[r.cycle[q % m]];
            (0..t.puzzle.len() * 4).any(|o| {
                let k = r.piece_of[o / 4];
                k != NONE
                    && free >> k & 1 == 1
                    && t.allowed[depth * t.words + o / 64] >> (o % 64) & 1 == 1
                    && r.edges[o][r.sides[q % m].0] == asked
                    && self.fills(free & !(1 << k), q + 1, left - 1, o, after)
            })
        }
    }

    #[test]
    fn the_walk_agrees_with_every_assignment_and_prunes() {
        let none = Symmetry::none();
        let (mut passed, mut failed) = (0, 0);
        for (seed, rows, cols, frame) in [(1, 5, 5, 3), (2, 4, 6, 2), (3, 5, 4, 1), (4, 6, 6, 4)] {
            let o = FamilyOptions {
                rows,
                cols,
                frame_colours: frame,
                inner_colours: 4,
                turning: crate::puzzle::Turning::Quarter,
                hint: seed == 2,
            };
            let (p, _) = plant_family(&mut Rng::new(seed), &o);
            for order in [Order::Row, Order::RowUp] {
                let setup = Setup {
                    lookahead: true,
                    ..Setup::turns(Turns::Full)
                };
                let t = Tables::new(&p, order, &none, setup);
                let r = t.ring.as_ref().expect("a frame check");
                let m = r.cycle.len();
                let mut depth_of = vec![0; t.cells];
                for (d, s) in t.steps.iter().enumerate() {
                    depth_of[s.cell] = d;
                }
                let mut rng = Rng::new(seed * 31);
                let mut memo = Memo::new(true);
                for _ in 0..300 {
                    let depth = rng.below(t.cells);
                    let Some(run) = r.at[depth] else { continue };
                    let (start, len) = (run.start as usize, run.len as usize);
                    // Random distinct frame pieces on the filled part, each
                    // in an orientation its cell allows.
                    let mut placed = [0u16; MAX_TILES];
                    let mut on = 0u64;
                    let mut ok = true;
                    for i in len..m {
                        let cell = r.cycle[(start + i) % m];
                        let mut options: Vec<usize> = (0..p.len() * 4)
                            .filter(|&o| {
                                let k = r.piece_of[o / 4];
                                k != NONE
                                    && on >> k & 1 == 0
                                    && t.allowed[depth_of[cell] * t.words + o / 64] >> (o % 64) & 1
                                        == 1
                            })
                            .collect();
                        rng.shuffle(&mut options);
                        let Some(&o) = options.first() else {
                            ok = false;
                            break;
                        };
                        placed[cell] = o as u16;
                        on |= 1 << r.piece_of[o / 4];
                    }
                    if !ok {
                        continue;
                    }
                    let before = placed[r.cycle[(start + m - 1) % m]] as usize;
                    let after = placed[r.cycle[(start + len) % m]] as usize;
                    let free = !on & (!0u64 >> (64 - m));
                    let brute = Brute {
                        t: &t,
                        r,
                        depth_of: &depth_of,
                    };
                    let want = brute.fills(free, start, len, before, after);
                    // Twice: the second answer comes from the memo.
                    for _ in 0..2 {
                        assert_eq!(
                            r.passes(&placed, depth, &mut memo),
                            want,
                            "{rows}x{cols}, {order}, depth {depth}"
                        );
                    }
                    if want { passed += 1 } else { failed += 1 }
                }
            }
        }
        assert!(
            passed > 20 && failed > 20,
            "{passed} passed, {failed} failed"
        );
    }
}

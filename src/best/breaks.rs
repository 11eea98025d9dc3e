//! Backtracking for the best board (`scramble best --method backtrack`): a
//! row scan from the top-left corner that may leave joins broken, as many
//! as a schedule allows by depth, with candidates in a random order and
//! restarts: the "allowed breaks" searches of Eternity II solvers.
//!
//! Each restart looks for a board with fewer broken joins than the best so
//! far (all threads share it): its budget of breaks is the best's minus
//! one, and at cell `c` at most `budget * ((c + 1) / n)^8` of them may have
//! been spent, so the first three quarters of the board are searched almost
//! without breaks and the last rows take what is left. A restart ends after
//! its node limit (the Luby sequence times a base), so one unlucky first row
//! cannot hold the search.

use std::sync::atomic::{AtomicUsize, Ordering};

use crate::board::{Placement, Solution};
use crate::puzzle::{BOTTOM, LEFT, Puzzle, RIGHT, TOP};
use crate::rng::Rng;

/// Nodes of the first restart; restart k runs `luby(k)` times this.
const RESTART_NODES: u64 = 2_000_000;

/// The power of the break schedule: the best measured on Eternity II among
/// the powers tried (docs/log.md); much higher powers found no board in a
/// short run.
const SCHEDULE_POWER: i32 = 8;

/// An edge as a small integer: motif and half.
fn code(puzzle: &Puzzle, tile: usize, rotation: u8, side: usize) -> u16 {
    let e = puzzle.tiles()[tile].edge(rotation, side);
    e.motif * 3 + e.half as u16
}

/// The puzzle prepared for the search: every placement a cell allows (by
/// the frame, the hints and the turning rule), indexed by the two edges the
/// search asks for.
#[derive(Clone)]
pub(crate) struct Prepared {
    rows: usize,
    cols: usize,
    /// Edge codes per tile index and rotation: right, top, left, bottom.
    edges: Vec<[[u16; 4]; 4]>,
    /// The code an edge must have to fit an edge of code `c`.
    partner: Vec<u16>,
    codes: usize,
    /// Per cell: its allowed placements (tile index, rotation), keyed by
    /// the pair (left code, top code).
    by_pair: Keyed,
    /// The same placements by left code alone and by top code alone, for
    /// the placements that break one join of two.
    by_left: Keyed,
    by_top: Keyed,
    /// Per tile index: the tile before it with the same edges in some
    /// rotation, if any.
    same_before: Vec<Option<u16>>,
}

/// Per cell: placements sorted by one key, with offsets per key value.
#[derive(Clone)]
struct Keyed {
    lists: Vec<Vec<(u16, u8)>>,
    offsets: Vec<Vec<u32>>,
}

impl Keyed {
    /// `lists` sorted by `key` (a number below `keys`; the sort is stable).
    fn new(
        mut lists: Vec<Vec<(u16, u8)>>,
        keys: usize,
        key: impl Fn(&(u16, u8)) -> usize,
    ) -> Keyed {
        let offsets = lists
            .iter_mut()
            .map(|list| {
                list.sort_by_key(&key);
                let mut o = vec![0u32; keys + 1];
                for p in list.iter() {
                    o[key(p) + 1] += 1;
                }
                for x in 1..o.len() {
                    o[x] += o[x - 1];
                }
                o
            })
            .collect();
        Keyed { lists, offsets }
    }

    /// Each key's placements in a random order, then those of higher
    /// `rank` first (a stable sort).
    fn reorder(&mut self, rng: &mut Rng, rank: &dyn Fn(u16) -> usize) {
        for (list, o) in self.lists.iter_mut().zip(&self.offsets) {
            for w in o.windows(2) {
                let part = &mut list[w[0] as usize..w[1] as usize];
                for x in (1..part.len()).rev() {
                    part.swap(x, rng.below(x + 1));
                }
                part.sort_by_key(|&(k, _)| std::cmp::Reverse(rank(k)));
            }
        }
    }

    fn get(&self, c: usize, key: usize) -> &[(u16, u8)] {
        let o = &self.offsets[c];
        &self.lists[c][o[key] as usize..o[key + 1] as usize]
    }
}

impl Prepared {
    /// Every placement a cell allows by its own rules (a join beside a
    /// fixed piece may break).
    pub(crate) fn new(puzzle: &Puzzle) -> Prepared {
        Prepared::new_with(puzzle, &|_| false)
    }

    /// [`Prepared::new`], where `strict(c)` cell `c` also only holds what
    /// matches the fixed pieces beside it (its joins with them never
    /// break in the search that asks).
    pub(crate) fn new_with(puzzle: &Puzzle, strict: &dyn Fn(usize) -> bool) -> Prepared {
        let codes = puzzle.motifs().len().max(1) * 3;
        let mut partner = vec![0u16; codes];
        for (c, p) in partner.iter_mut().enumerate() {
            let (motif, half) = (c / 3, c % 3);
            // Plus (0) fits Minus (1); Same (2) fits Same.
            let other = match half {
                0 => 1,
                1 => 0,
                _ => 2,
            };
            *p = (motif * 3 + other) as u16;
        }
        let edges: Vec<[[u16; 4]; 4]> = (0..puzzle.len())
            .map(|k| {
                let mut e = [[0u16; 4]; 4];
                for r in 0..4u8 {
                    for side in [RIGHT, TOP, LEFT, BOTTOM] {
                        e[r as usize][side] = code(puzzle, k, r, side);
                    }
                }
                e
            })
            .collect();
        let cells = puzzle.rows() * puzzle.cols();
        let allowed: Vec<Vec<(u16, u8)>> = (0..cells)
            .map(|c| {
                let mut list = Vec::new();
                for k in 0..puzzle.len() {
                    for r in puzzle.rotations() {
                        if puzzle.allows_alone(c, k, r) && (!strict(c) || puzzle.allows(c, k, r)) {
                            list.push((k as u16, r));
                        }
                    }
                }
                list
            })
            .collect();
        let e = &edges;
        let side =
            |side: usize| move |&(k, r): &(u16, u8)| e[k as usize][r as usize][side] as usize;
        let (left, top) = (side(LEFT), side(TOP));
        let by_pair = Keyed::new(allowed, codes * codes, |p| left(p) * codes + top(p));
        let by_left = Keyed::new(by_pair.lists.clone(), codes, left);
        let by_top = Keyed::new(by_pair.lists.clone(), codes, top);
        let same_before = (0..edges.len())
            .map(|k| {
                (0..k)
                    .rev()
                    .find(|&j| edges[k].contains(&edges[j][0]))
                    .map(|j| j as u16)
            })
            .collect();
        Prepared {
            rows: puzzle.rows(),
            cols: puzzle.cols(),
            edges,
            partner,
            codes,
            by_pair,
            by_left,
            by_top,
            same_before,
        }
    }

    /// The same placements, each list in a random order with the tiles of
    /// higher `rank` first.
    pub(super) fn reordered(&self, rng: &mut Rng, rank: &dyn Fn(u16) -> usize) -> Prepared {
        let mut p = self.clone();
        for keyed in [&mut p.by_pair, &mut p.by_left, &mut p.by_top] {
            keyed.reorder(rng, rank);
        }
        p
    }

    /// The tile before tile index `k` with the same edges, if any.
    pub(super) fn same_before(&self, k: u16) -> Option<u16> {
        self.same_before[k as usize]
    }

    /// How many tiles the puzzle has.
    pub(super) fn tiles(&self) -> usize {
        self.edges.len()
    }

    pub(super) fn cols(&self) -> usize {
        self.cols
    }

    /// The code of side `side` of tile index `k` in rotation `r`.
    pub(super) fn edge(&self, k: u16, r: u8, side: usize) -> u16 {
        self.edges[k as usize][r as usize][side]
    }

    /// The code an edge must have to fit an edge of code `c`.
    pub(super) fn partner(&self, c: u16) -> u16 {
        self.partner[c as usize]
    }

    /// The placements of cell `c` with this left and top code.
    pub(super) fn exact(&self, c: usize, left: u16, top: u16) -> &[(u16, u8)] {
        self.by_pair
            .get(c, left as usize * self.codes + top as usize)
    }

    /// The placements of cell `c` with this left code.
    pub(super) fn with_left(&self, c: usize, left: u16) -> &[(u16, u8)] {
        self.by_left.get(c, left as usize)
    }

    /// The placements of cell `c` with this top code.
    pub(super) fn with_top(&self, c: usize, top: u16) -> &[(u16, u8)] {
        self.by_top.get(c, top as usize)
    }

    /// Every placement cell `c` allows.
    pub(super) fn all(&self, c: usize) -> &[(u16, u8)] {
        &self.by_pair.lists[c]
    }
}

/// Breaks allowed once cell `c` is placed, for `budget` breaks over `n`
/// cells: `budget * ((c + 1) / n)^power` (power [`SCHEDULE_POWER`]), so
/// the first three quarters of the board are searched almost without
/// breaks and the last rows take what is left.
fn schedule(budget: usize, n: usize, power: i32) -> Vec<usize> {
    (0..n)
        .map(|c| {
            let f = (c + 1) as f64 / n as f64;
            (budget as f64 * f.powi(power)).floor() as usize
        })
        .collect()
}

/// The Luby sequence (1, 1, 2, 1, 1, 2, 4, ...), 1-based.
pub(super) fn luby(i: u64) -> u64 {
    let mut k = 1u32;
    while (1u64 << k) - 1 < i {
        k += 1;
    }
    if (1u64 << k) - 1 == i {
        1 << (k - 1)
    } else {
        luby(i - (1u64 << (k - 1)) + 1)
    }
}

/// What one thread's search shares with the others and its caller.
pub(crate) struct Shared<'a> {
    /// The fewest broken joins found so far (by any method); `usize::MAX`
    /// before the first board.
    pub best_breaks: &'a AtomicUsize,
    /// Whether to stop.
    pub stop: &'a (dyn Fn() -> bool + Sync),
    /// Called with each board that beats the best when it was found.
    pub found: &'a (dyn Fn(Solution) + Sync),
}

impl Shared<'_> {
    /// Hand on the board `board` builds, with `breaks` broken joins, if it
    /// beats the best of all threads (which it then becomes).
    pub(super) fn offer(&self, breaks: usize, board: impl FnOnce() -> Solution) {
        let best = self.best_breaks;
        let mut current = best.load(Ordering::Relaxed);
        while breaks < current {
            match best.compare_exchange(current, breaks, Ordering::SeqCst, Ordering::Relaxed) {
                Ok(_) => {
                    (self.found)(board());
                    return;
                }
                Err(now) => current = now,
            }
        }
    }
}

/// One thread's search: restarts until stopped or a full board is found.
pub(crate) fn search(puzzle: &Puzzle, prepared: &Prepared, seed: u64, shared: &Shared) -> u64 {
    let n = prepared.rows * prepared.cols;
    let joins = crate::board::Score::joins_of(puzzle);
    let mut rng = Rng::new(seed);
    let mut nodes_total = 0u64;
    let mut restart = 1u64;
    // Before the first board: enough breaks to finish quickly.
    let first_budget = (joins / 6).max(2);
    let mut power = SCHEDULE_POWER;
    while !(shared.stop)() {
        let best = shared.best_breaks.load(Ordering::Relaxed);
        if best == 0 {
            break;
        }
        let budget = if best == usize::MAX {
            first_budget
        } else {
            best - 1
        };
        let mut s = Run {
            p: prepared,
            n,
            budget,
            allowed: schedule(budget, n, power),
            power,
            used: vec![false; puzzle.len()],
            board: vec![(0u16, 0u8); n],
            nodes: 0,
            limit: luby(restart) * RESTART_NODES,
            shift: rng.below(1 << 16),
            rng: &mut rng,
            shared,
            puzzle,
            done: false,
        };
        s.dfs(0, 0);
        nodes_total += s.nodes;
        if !s.done && shared.best_breaks.load(Ordering::Relaxed) == best {
            // The whole tree and no better board: on a board this small
            // the schedule spends its breaks too late; flatten it, down to
            // the budget on every cell (then the tree holds every board
            // with fewer breaks, and there is none).
            if power == 0 {
                break;
            }
            power /= 2;
        }
        restart += 1;
    }
    nodes_total
}

struct Run<'a, 'r> {
    p: &'a Prepared,
    n: usize,
    budget: usize,
    /// Breaks allowed once cell c is placed.
    allowed: Vec<usize>,
    /// The schedule's power.
    power: i32,
    used: Vec<bool>,
    board: Vec<(u16, u8)>,
    nodes: u64,
    limit: u64,
    /// Where each candidate list starts (a random rotation of it).
    shift: usize,
    rng: &'r mut Rng,
    shared: &'a Shared<'a>,
    puzzle: &'a Puzzle,
    done: bool,
}

impl Run<'_, '_> {
    fn edge(&self, c: usize, side: usize) -> u16 {
        let (k, r) = self.board[c];
        self.p.edges[k as usize][r as usize][side]
    }

    /// Try `list` (from a random start) with `extra` new breaks each,
    /// skipping those `skip` refuses.
    fn try_list(
        &mut self,
        c: usize,
        breaks: usize,
        list: &[(u16, u8)],
        extra: usize,
        skip: &dyn Fn(&[[u16; 4]; 4], u8) -> bool,
    ) {
        let len = list.len();
        if len == 0 {
            return;
        }
        let start = (self.shift + c * 7919) % len;
        for x in 0..len {
            if self.done {
                return;
            }
            let (k, r) = list[(start + x) % len];
            if self.used[k as usize] || skip(&self.p.edges[k as usize], r) {
                continue;
            }
            self.used[k as usize] = true;
            self.board[c] = (k, r);
            self.dfs(c + 1, breaks + extra);
            self.used[k as usize] = false;
        }
    }

    fn dfs(&mut self, c: usize, breaks: usize) {
        if self.done {
            return;
        }
        self.nodes += 1;
        if self.nodes >= self.limit || (self.nodes & 0xFFF == 0 && (self.shared.stop)()) {
            self.done = true;
            return;
        }
        if c == self.n {
            self.complete(breaks);
            return;
        }
        let cols = self.p.cols;
        let (i, j) = (c / cols, c % cols);
        let room = self.allowed[c].saturating_sub(breaks);
        let need_left = (j > 0).then(|| self.p.partner[self.edge(c - 1, RIGHT) as usize]);
        let need_top = (i > 0).then(|| self.p.partner[self.edge(c - cols, BOTTOM) as usize]);
        let all = self.p.all(c);
        match (need_left, need_top) {
            (Some(l), Some(t)) => {
                let exact = self.p.exact(c, l, t);
                self.try_list(c, breaks, exact, 0, &|_, _| false);
                if room >= 1 {
                    // One break: the left fits and the top does not, or
                    // the other way round.
                    let p = self.p;
                    let left = p.with_left(c, l);
                    let top = p.with_top(c, t);
                    self.try_list(c, breaks, left, 1, &|e, r| e[r as usize][TOP] == t);
                    self.try_list(c, breaks, top, 1, &|e, r| e[r as usize][LEFT] == l);
                }
                if room >= 2 {
                    let two = |e: &[[u16; 4]; 4], r: u8| {
                        let e = e[r as usize];
                        e[LEFT] == l || e[TOP] == t
                    };
                    self.try_list(c, breaks, all, 2, &two);
                }
            }
            (Some(l), None) => {
                let left = self.p.with_left(c, l);
                self.try_list(c, breaks, left, 0, &|_, _| false);
                if room >= 1 {
                    self.try_list(c, breaks, all, 1, &|e, r| e[r as usize][LEFT] == l);
                }
            }
            (None, Some(t)) => {
                let top = self.p.with_top(c, t);
                self.try_list(c, breaks, top, 0, &|_, _| false);
                if room >= 1 {
                    self.try_list(c, breaks, all, 1, &|e, r| e[r as usize][TOP] == t);
                }
            }
            (None, None) => {
                // The first cell: a random placement first.
                let pick = self.rng.below(all.len().max(1));
                self.shift = self.shift.wrapping_add(pick);
                self.try_list(c, breaks, all, 0, &|_, _| false);
            }
        }
    }

    /// A full board with `breaks` broken joins: hand it on if it beats the
    /// best, and tighten this restart's budget to beat it in turn.
    fn complete(&mut self, breaks: usize) {
        self.shared.offer(breaks, || {
            let cells = self
                .board
                .iter()
                .map(|&(k, r)| Placement {
                    tile: self.puzzle.tiles()[k as usize].id,
                    rotation: r,
                })
                .collect();
            Solution::shaped(cells, self.puzzle.shape())
        });
        let best = self.shared.best_breaks.load(Ordering::Relaxed);
        if best == 0 {
            self.done = true;
            return;
        }
        // Look for fewer breaks from here on.
        let budget = best.saturating_sub(1).min(self.budget);
        if budget < self.budget {
            self.budget = budget;
            self.allowed = schedule(budget, self.n, self.power);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_keeps_breaks_for_the_last_rows() {
        let s = schedule(40, 256, SCHEDULE_POWER);
        assert!(s.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(s[255], 40);
        // Three quarters of the board: 40 * 0.75^8 = 4.0 breaks at most.
        assert!(s[191] <= 4, "{}", s[191]);
        assert_eq!(s[127], 0);
    }

    #[test]
    fn one_break_lists_hold_exactly_the_placements_that_break_one_join() {
        let puzzle = Puzzle::load(std::path::Path::new("puzzles/eternity2/clue1.txt")).unwrap();
        let p = Prepared::new(&puzzle);
        let edge = |(k, r): (u16, u8), side: usize| p.edges[k as usize][r as usize][side];
        // An inner cell, every left and top code.
        let c = p.cols + 1;
        for l in 0..p.codes as u16 {
            for t in 0..p.codes as u16 {
                let mut got: Vec<(u16, u8)> = p
                    .with_left(c, l)
                    .iter()
                    .filter(|&&x| edge(x, TOP) != t)
                    .chain(p.with_top(c, t).iter().filter(|&&x| edge(x, LEFT) != l))
                    .copied()
                    .collect();
                got.sort();
                let mut want: Vec<(u16, u8)> = p
                    .all(c)
                    .iter()
                    .filter(|&&x| (edge(x, LEFT) == l) != (edge(x, TOP) == t))
                    .copied()
                    .collect();
                want.sort();
                assert_eq!(got, want, "left {l} top {t}");
                let exact: Vec<_> = p.exact(c, l, t).to_vec();
                assert!(
                    exact
                        .iter()
                        .all(|&x| edge(x, LEFT) == l && edge(x, TOP) == t)
                );
            }
        }
    }

    #[test]
    fn the_luby_sequence() {
        let got: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(got, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }
}

//! The native backtracking solver: a depth-first search over cells in a fixed
//! placement order, enumerating every labelled solution through the same
//! solution callback as CP-SAT.
//!
//! Design (see docs/architecture.md): every (tile, rotation) pair is an
//! *orientation* with precomputed edge codes; candidate lists are indexed by
//! the edge codes the already placed neighbours require (by one direction, or
//! by a pair of directions); used tiles are a bitmask; the search allocates
//! nothing per node. Board-level symmetry rules prune through per-cell masks
//! and are checked in full at the leaves.

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use serde::Serialize;

use crate::board::{Placement, Solution};
use crate::puzzle::{Edge, Half, Puzzle};
use crate::solve::{
    Progress, RunStatus, SolutionCallback, SolveError, SolveOptions, Solver, SolverRun,
    SolverStats, StopReason,
};
use crate::symmetry::Symmetry;

/// The most tiles the search handles (a 32x32 board; a power of two, so
/// cell indices can be masked into the board array).
pub const MAX_TILES: usize = 1024;

/// The order in which cells are filled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Order {
    /// Row-major.
    Row,
    /// Centre first, then spiralling outwards (Brandt et al.; Sinai).
    Spiral,
    /// Greedy: next the cell with the most placed neighbours; ties go to the
    /// cell that gives most other cells two placed neighbours, then row-major
    /// (in the spirit of Saegesser's 1,2,5,4,3,6,7,8,9 on 3x3).
    Constrained,
}

impl Order {
    pub fn name(self) -> &'static str {
        match self {
            Order::Row => "row",
            Order::Spiral => "spiral",
            Order::Constrained => "constrained",
        }
    }

    /// The cells (row-major indices) in placement order.
    pub fn cells(self, n: usize) -> Vec<usize> {
        match self {
            Order::Row => (0..n * n).collect(),
            Order::Spiral => spiral(n),
            Order::Constrained => constrained(n),
        }
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Order {
    type Err = String;
    fn from_str(s: &str) -> Result<Order, String> {
        match s {
            "row" => Ok(Order::Row),
            "spiral" => Ok(Order::Spiral),
            "constrained" => Ok(Order::Constrained),
            _ => Err(format!("expected row, spiral or constrained, found {s:?}")),
        }
    }
}

fn spiral(n: usize) -> Vec<usize> {
    let mut out = Vec::with_capacity(n * n);
    let c = (n as i64 - 1) / 2;
    let (mut i, mut j) = (c, c);
    let dirs = [(0i64, 1i64), (1, 0), (0, -1), (-1, 0)];
    let inside = |i: i64, j: i64| i >= 0 && j >= 0 && i < n as i64 && j < n as i64;
    out.push((i * n as i64 + j) as usize);
    let mut len = 1;
    let mut d = 0;
    while out.len() < n * n {
        for _ in 0..2 {
            for _ in 0..len {
                i += dirs[d].0;
                j += dirs[d].1;
                if inside(i, j) {
                    out.push((i * n as i64 + j) as usize);
                }
            }
            d = (d + 1) % 4;
        }
        len += 1;
    }
    out
}

fn neighbours(n: usize, c: usize) -> impl Iterator<Item = (usize, usize)> {
    // (direction from c, neighbour cell)
    let (i, j) = (c / n, c % n);
    [
        (j + 1 < n).then(|| (0, c + 1)),
        (i > 0).then(|| (1, c - n)),
        (j > 0).then(|| (2, c - 1)),
        (i + 1 < n).then(|| (3, c + n)),
    ]
    .into_iter()
    .flatten()
}

fn constrained(n: usize) -> Vec<usize> {
    // cnt[c]: placed neighbours of c. The key of a free cell c is (its
    // placed neighbours, the free cells with at least two placed neighbours
    // once c is placed, then the lower index).
    let cells = n * n;
    let mut placed = vec![false; cells];
    let mut cnt = vec![0usize; cells];
    let mut out = Vec::with_capacity(cells);
    for _ in 0..cells {
        let base = (0..cells).filter(|&d| !placed[d] && cnt[d] >= 2).count();
        let best = (0..cells)
            .filter(|&c| !placed[c])
            .max_by_key(|&c| {
                let gained = neighbours(n, c)
                    .filter(|&(_, d)| !placed[d] && cnt[d] == 1)
                    .count();
                let twos = base - usize::from(cnt[c] >= 2) + gained;
                (cnt[c], twos, std::cmp::Reverse(c))
            })
            .expect("a free cell");
        placed[best] = true;
        for (_, d) in neighbours(n, best) {
            cnt[d] += 1;
        }
        out.push(best);
    }
    out
}

/// The native backtracking solver.
#[derive(Clone, Copy, Debug)]
pub struct Backtrack {
    pub order: Order,
    /// Search one board turn of every solution and emit its four turns
    /// (docs/architecture.md, "Backtracking"); only without `--symmetry`.
    /// `false` searches the full tree, for node-count studies.
    pub reduce_turns: bool,
}

impl Backtrack {
    pub fn new(order: Order) -> Backtrack {
        Backtrack {
            order,
            reduce_turns: true,
        }
    }

    /// The same search over the full tree (every board turn searched).
    pub fn full_tree(order: Order) -> Backtrack {
        Backtrack {
            order,
            reduce_turns: false,
        }
    }
}

impl Default for Backtrack {
    fn default() -> Self {
        Backtrack::new(DEFAULT_ORDER)
    }
}

/// The default placement order (the fastest measured, docs/benchmarks.md).
pub const DEFAULT_ORDER: Order = Order::Spiral;

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

/// The most 64-bit words a set of orientations takes (`MAX_TILES * 4` bits).
const MAX_WORDS: usize = MAX_TILES * 4 / 64;

#[derive(Clone, Copy)]
struct Step {
    cell: usize,
    /// The placed neighbours: (direction from this cell, neighbour cell).
    nbs: [(usize, usize); 4],
    k: usize,
    /// The direction of the previous depth's cell, if it is a neighbour.
    link: Option<usize>,
    /// The placed neighbours other than the previous depth's cell.
    older: [(usize, usize); 4],
    n_older: usize,
    /// The tile here must have a larger index than the tile of the first
    /// placed cell (the turn reduction on boards without a centre).
    above_first: bool,
}

/// How the search avoids visiting every board turn of a solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reduce {
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
struct Tables<'p> {
    puzzle: &'p Puzzle,
    cells: usize,
    words: usize,
    /// Per orientation `o` and direction `d` (at `(o * 4 + d) * words`): the
    /// orientations a cell may hold when its neighbour in direction `d`
    /// holds `o`, i.e. those of other tiles whose edge `d` matches the
    /// facing edge of `o`.
    fit: Vec<u64>,
    steps: Vec<Step>,
    /// Per depth: the orientations allowed there (every orientation, less
    /// what the symmetry rules' pruning or the turn reduction forbid).
    allowed: Vec<u64>,
    /// Per tile index: the orientations of larger tile indices.
    above: Vec<u64>,
    /// The user's symmetry rules, when there are any.
    symmetry: Option<&'p Symmetry>,
    reduce: Reduce,
    first_cell: usize,
    /// Per orientation: its placement.
    place: Vec<Placement>,
    /// For emitting turns, at `k * cells + c` for k = 0..4 (empty without
    /// the turn reduction): the cell that cell c's tile moves to under k
    /// quarter turns.
    turns: Vec<usize>,
}

/// Word `w` of the set of bits from `bit` on.
fn from_bit(bit: usize, w: usize) -> u64 {
    match bit.checked_sub(w * 64) {
        None => !0,
        Some(k) if k >= 64 => 0,
        Some(k) => !0 << k,
    }
}

/// The words per set the search is compiled for: exact up to 8 (boards of
/// up to 128 tiles), then 16, 32 or 64 (the unused words stay empty).
fn word_bucket(words: usize) -> usize {
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

impl<'p> Tables<'p> {
    fn new(
        puzzle: &'p Puzzle,
        order: Order,
        symmetry: &'p Symmetry,
        reduce_turns: bool,
    ) -> Tables<'p> {
        let n = puzzle.n;
        let cells = n * n;
        let nori = puzzle.len() * 4;
        let words = word_bucket(nori.div_ceil(64));
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
        let order_cells = order.cells(n);
        let reduce = match (reduce_turns && symmetry.is_none(), n % 2) {
            (false, _) => Reduce::None,
            (true, 1) => Reduce::CentreRotation,
            (true, _) => Reduce::FirstOfOrbit,
        };
        let first_cell = order_cells[0];
        let turn = |c: usize| (n - 1 - c % n) * n + c / n;
        let first_orbit = [
            turn(first_cell),
            turn(turn(first_cell)),
            turn(turn(turn(first_cell))),
        ];
        let centre = (n / 2) * n + n / 2;
        let every = |w: usize| !from_bit(nori, w);
        let mut allowed = Vec::with_capacity(cells * words);
        let mut placed = vec![false; cells];
        let mut steps: Vec<Step> = Vec::with_capacity(cells);
        for &c in &order_cells {
            let prev = steps.last().map(|s| s.cell);
            let (mut nbs, mut k) = ([(0, 0); 4], 0);
            let (mut older, mut n_older, mut link) = ([(0, 0); 4], 0, None);
            for nb in neighbours(n, c).filter(|&(_, b)| placed[b]) {
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
            let centre_rotation = reduce == Reduce::CentreRotation && c == centre;
            if centre_rotation {
                // Rotation 0: every fourth bit.
                for w in &mut allowed[from..] {
                    *w &= 0x1111_1111_1111_1111;
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
        let mut above = Vec::new();
        if reduce == Reduce::FirstOfOrbit {
            above.reserve(puzzle.len() * words);
            for t in 0..puzzle.len() {
                above.extend((0..words).map(|w| every(w) & from_bit((t + 1) * 4, w)));
            }
        }
        Tables {
            puzzle,
            cells,
            words,
            fit,
            steps,
            allowed,
            above,
            symmetry: (!symmetry.is_none()).then_some(symmetry),
            reduce,
            first_cell,
            place: (0..nori)
                .map(|o| Placement {
                    tile: puzzle.tiles[o / 4].id,
                    rotation: (o % 4) as u8,
                })
                .collect(),
            turns: if reduce == Reduce::None {
                Vec::new()
            } else {
                // (i, j) goes to (n-1-j, i), (n-1-i, n-1-j), (j, n-1-i).
                let mut turns = Vec::with_capacity(4 * cells);
                turns.extend(0..cells);
                for k in 1..4 {
                    for i in 0..n {
                        for j in 0..n {
                            let (a, b) = match k {
                                1 => (n - 1 - j, i),
                                2 => (n - 1 - i, n - 1 - j),
                                _ => (j, n - 1 - i),
                            };
                            turns.push(a * n + b);
                        }
                    }
                }
                turns
            },
        }
    }
    /// The orientations a cell may hold when its neighbour in direction
    /// `dir` holds orientation `o`.
    #[inline(always)]
    fn fit_of<const W: usize>(&self, o: usize, dir: usize) -> [u64; W] {
        words(&self.fit, (o * 4 + (dir & 3)) * W)
    }

    /// Hand a complete board to `out`: itself, or its four turns under the
    /// turn reduction; boards the user's symmetry rules reject are dropped.
    /// `buf` is a reused buffer.
    fn emit(&self, placed: &[u16], buf: &mut Vec<Placement>, out: &mut dyn FnMut(&[Placement])) {
        let placed = &placed[..self.cells];
        if self.reduce == Reduce::None {
            buf.clear();
            buf.extend(placed.iter().map(|&o| self.place[o as usize]));
            match self.symmetry {
                Some(sym) => {
                    let s = Solution::new(buf.clone());
                    if sym.accepts(self.puzzle, &s) {
                        out(s.cells());
                    }
                }
                None => out(buf),
            }
            return;
        }
        // Turn k sends the tile of cell c to turns[k][c], k quarter turns
        // further round.
        buf.resize(self.cells, self.place[0]);
        for (k, to) in self.turns.chunks_exact(self.cells).enumerate() {
            for (&o, &dest) in placed.iter().zip(to) {
                let o = o as usize;
                buf[dest] = self.place[(o & !3) | ((o + k) & 3)];
            }
            out(buf);
        }
    }
}

/// How many nodes pass between two looks at the clock and the stop flag.
const CHECK_EVERY: u32 = 1 << 16;

/// Search state of one worker; `W` words per set of orientations.
struct State<'a, const W: usize> {
    /// Orientation per cell (row-major); indexed modulo `MAX_TILES`.
    placed: [u16; MAX_TILES],
    /// The orientations of the tiles on the board.
    used: [u64; W],
    nodes: Vec<u64>,
    budget: u32,
    stop: &'a AtomicBool,
    check: &'a (dyn Fn() -> bool + Sync),
}

impl<'a, const W: usize> State<'a, W> {
    fn new(cells: usize, stop: &'a AtomicBool, check: &'a (dyn Fn() -> bool + Sync)) -> Self {
        State {
            placed: [0; MAX_TILES],
            used: [0; W],
            nodes: vec![0; cells],
            budget: CHECK_EVERY,
            stop,
            check,
        }
    }

    /// Put a prefix (orientations for the first depths) on the board.
    fn set_prefix(&mut self, t: &Tables<'_>, prefix: &[u16]) {
        self.used = [0; W];
        for (d, &o) in prefix.iter().enumerate() {
            self.placed[t.steps[d].cell] = o;
            self.used[o as usize / 64] |= tile_bits(o as usize);
        }
    }

    /// Every `CHECK_EVERY` nodes: the clock, Ctrl-C and the other workers.
    #[cold]
    fn should_stop(&mut self) -> bool {
        self.budget = CHECK_EVERY;
        if (self.check)() {
            self.stop.store(true, Ordering::Relaxed);
        }
        self.stop.load(Ordering::Relaxed)
    }
}

/// `a &= b`, word by word.
#[inline(always)]
fn and<const W: usize>(a: &mut [u64; W], b: [u64; W]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x &= y;
    }
}

/// `a &= !b`, word by word.
#[inline(always)]
fn and_not<const W: usize>(a: &mut [u64; W], b: &[u64; W]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x &= !y;
    }
}

/// The bits of the four orientations of the tile of orientation `o`, within
/// its word.
#[inline(always)]
fn tile_bits(o: usize) -> u64 {
    0xF << ((o % 64) & !3)
}

/// `W` words of a flat bitset table from word `at`.
#[inline(always)]
fn words<const W: usize>(table: &[u64], at: usize) -> [u64; W] {
    let s = &table[at..at + W];
    std::array::from_fn(|w| s[w])
}

/// The candidates at `depth` given the board: the orientations allowed
/// there, not on the board, and showing on each side with a placed neighbour
/// the code that neighbour requires.
#[inline(always)]
fn candidates<const W: usize>(t: &Tables<'_>, st: &State<'_, W>, depth: usize) -> [u64; W] {
    const M: usize = MAX_TILES - 1;
    let step = &t.steps[depth];
    let mut cand: [u64; W] = words(&t.allowed, depth * W);
    and_not(&mut cand, &st.used);
    for &(dir, nb) in &step.nbs[..step.k] {
        and(&mut cand, t.fit_of(st.placed[nb & M] as usize, dir));
    }
    if step.above_first {
        let first = st.placed[t.first_cell & M] as usize / 4;
        and(&mut cand, words(&t.above, first * W));
    }
    cand
}

/// Depth-first search of the depths `start..limit`, with the board holding
/// the depths before `start`; `emit` gets every board that fills them.
/// Returns false when asked to stop.
fn search<const W: usize, F: FnMut(&[u16; MAX_TILES])>(
    t: &Tables<'_>,
    st: &mut State<'_, W>,
    start: usize,
    limit: usize,
    emit: &mut F,
) -> bool {
    if start == limit {
        emit(&st.placed);
        return true;
    }
    if W > 1 {
        return search_wide(t, st, start, limit, emit);
    }
    let cand = candidates(t, st, start);
    cand == [0; W] || descend(t, st, start, limit, cand, emit)
}

/// The search on boards of more than 16 tiles (several words per set),
/// where most placements have candidates at the next depth: each call
/// computes its own candidates and places them (measured faster there than
/// `descend`, docs/benchmarks.md).
fn search_wide<const W: usize, F: FnMut(&[u16; MAX_TILES])>(
    t: &Tables<'_>,
    st: &mut State<'_, W>,
    depth: usize,
    limit: usize,
    emit: &mut F,
) -> bool {
    const M: usize = MAX_TILES - 1;
    if depth == limit {
        emit(&st.placed);
        return true;
    }
    st.budget -= 1;
    if st.budget == 0 && st.should_stop() {
        return false;
    }
    let cand = candidates(t, st, depth);
    let cell = t.steps[depth].cell & M;
    let mut made = 0u64;
    let mut go = true;
    'words: for (w, mut bits) in cand.into_iter().enumerate() {
        while bits != 0 {
            let b = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            made += 1;
            let o = w * 64 + b;
            st.placed[cell] = o as u16;
            st.used[w] |= tile_bits(o);
            go = search_wide(t, st, depth + 1, limit, emit);
            st.used[w] &= !tile_bits(o);
            if !go {
                break 'words;
            }
        }
    }
    st.nodes[depth] += made;
    go
}

/// The search on boards of up to 16 tiles (one word per set): place each
/// of `cand` at `depth` in turn; every placement is a node.
///
/// The next depth's candidates are computed here, so a dead end costs no
/// call: what the older neighbours of the next cell allow is computed once,
/// and per placement only the set fitting the new tile is loaded.
fn descend<const W: usize, F: FnMut(&[u16; MAX_TILES])>(
    t: &Tables<'_>,
    st: &mut State<'_, W>,
    depth: usize,
    limit: usize,
    cand: [u64; W],
    emit: &mut F,
) -> bool {
    const M: usize = MAX_TILES - 1;
    let cell = t.steps[depth].cell & M;
    let mut made = 0u64;
    if depth + 1 == limit {
        for (w, mut bits) in cand.into_iter().enumerate() {
            while bits != 0 {
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                made += 1;
                st.placed[cell] = (w * 64 + b) as u16;
                emit(&st.placed);
            }
        }
        st.nodes[depth] += made;
        return true;
    }
    let next_step = &t.steps[depth + 1];
    let mut base: [u64; W] = words(&t.allowed, (depth + 1) * W);
    for &(dir, nb) in &next_step.older[..next_step.n_older] {
        and(&mut base, t.fit_of(st.placed[nb & M] as usize, dir));
    }
    // The turn reduction on even boards: above the first tile, which is
    // the one placed now when this is depth 0.
    let above_now = next_step.above_first && depth == 0;
    if next_step.above_first && depth > 0 {
        let first = st.placed[t.first_cell & M] as usize / 4;
        and(&mut base, words(&t.above, first * W));
    }
    // The tiles on the board stay the same while this depth's candidates
    // are tried (each is taken off again before the next).
    and_not(&mut base, &st.used);
    let link = next_step.link;
    // The next depth's candidates after placing `o` here (`fit` already
    // leaves out the other orientations of `o`'s own tile).
    let next_of = |o: usize| {
        let mut next = base;
        match link {
            Some(dir) => and(&mut next, t.fit_of(o, dir)),
            None => next[o / 64 % W] &= !tile_bits(o),
        }
        if above_now {
            and(&mut next, words(&t.above, o / 4 * W));
        }
        next
    };
    // Small boards (one word): most placements are dead ends. A first pass
    // without branches but the loop's own finds the placements that leave
    // the next depth a candidate; only those are visited.
    let mut alive = [0u64; W];
    for (w, mut bits) in cand.into_iter().enumerate() {
        while bits != 0 {
            let b = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            made += 1;
            let next = next_of(w * 64 + b);
            alive[w] |= u64::from(next != [0; W]) << b;
        }
    }
    st.nodes[depth] += made;
    st.budget = st.budget.saturating_sub(made as u32);
    if st.budget == 0 && st.should_stop() {
        return false;
    }
    for (w, mut bits) in alive.into_iter().enumerate() {
        while bits != 0 {
            let b = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let o = w * 64 + b;
            let next = next_of(o);
            st.placed[cell] = o as u16;
            st.used[w] |= tile_bits(o);
            let go = descend(t, st, depth + 1, limit, next, emit);
            st.used[w] &= !tile_bits(o);
            if !go {
                return false;
            }
        }
    }
    true
}

impl Solver for Backtrack {
    fn name(&self) -> &'static str {
        "backtrack"
    }
    fn version(&self) -> String {
        env!("CARGO_PKG_VERSION").to_string()
    }
    fn model_name(&self) -> String {
        if self.reduce_turns {
            self.order.name().to_string()
        } else {
            format!("{}+full-tree", self.order.name())
        }
    }
    fn enumerate(
        &self,
        puzzle: &Puzzle,
        options: &SolveOptions,
        callback: &mut dyn SolutionCallback,
    ) -> Result<SolverRun, SolveError> {
        if puzzle.len() > MAX_TILES {
            return Err(SolveError::TooLarge(format!(
                "{}: {} tiles; the backtracking solver handles at most {MAX_TILES} (32x32)",
                puzzle.source.display(),
                puzzle.len()
            )));
        }
        let start = Instant::now();
        let t = Tables::new(puzzle, self.order, &options.symmetry, self.reduce_turns);
        let deadline = options.time_limit.map(|d| start + d);
        let stop_token = &options.stop;
        let timed_out = AtomicBool::new(false);
        let check = || {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                timed_out.store(true, Ordering::Relaxed);
                true
            } else {
                stop_token.is_stopped()
            }
        };
        let stop = AtomicBool::new(check());
        let threads = options.threads.max(1);
        let per_depth = if stop.load(Ordering::Relaxed) {
            vec![0; t.cells]
        } else {
            let run = Run {
                t: &t,
                threads,
                stop: &stop,
                check: &check,
            };
            match t.words {
                1 => run.go::<1>(callback),
                2 => run.go::<2>(callback),
                3 => run.go::<3>(callback),
                4 => run.go::<4>(callback),
                5 => run.go::<5>(callback),
                6 => run.go::<6>(callback),
                7 => run.go::<7>(callback),
                8 => run.go::<8>(callback),
                16 => run.go::<16>(callback),
                32 => run.go::<32>(callback),
                _ => run.go::<MAX_WORDS>(callback),
            }
        };
        let total: u64 = per_depth.iter().sum();
        let elapsed = start.elapsed().as_secs_f64();
        let status = if callback.enough() {
            RunStatus::Stopped(StopReason::Limit)
        } else if stop.load(Ordering::Relaxed) {
            RunStatus::Stopped(if timed_out.load(Ordering::Relaxed) {
                StopReason::TimeLimit
            } else {
                StopReason::Interrupted
            })
        } else {
            RunStatus::Complete
        };
        Ok(SolverRun {
            status,
            stats: SolverStats {
                nodes: Some(total),
                nodes_per_depth: Some(per_depth),
                nodes_per_second: Some(if elapsed > 0.0 {
                    total as f64 / elapsed
                } else {
                    0.0
                }),
                wall_time_s: Some(elapsed),
                workers: Some(threads),
                ..SolverStats::default()
            },
        })
    }
}

/// One enumeration: the tables, the workers, and how to stop.
struct Run<'a, 'p> {
    t: &'a Tables<'p>,
    threads: usize,
    stop: &'a AtomicBool,
    check: &'a (dyn Fn() -> bool + Sync),
}

impl Run<'_, '_> {
    /// Enumerate with `W` words per bitset; returns the nodes per depth.
    fn go<const W: usize>(&self, callback: &mut dyn SolutionCallback) -> Vec<u64> {
        let t = self.t;
        let (stop, check) = (self.stop, self.check);
        if self.threads == 1 || t.cells < 2 {
            let mut st = State::<W>::new(t.cells, stop, check);
            let mut buf = Vec::new();
            let mut out = |cells: &[Placement]| {
                callback.on_solution(cells);
                if callback.enough() {
                    stop.store(true, Ordering::Relaxed);
                }
            };
            search(t, &mut st, 0, t.cells, &mut |placed: &[u16; MAX_TILES]| {
                t.emit(placed, &mut buf, &mut out)
            });
            return st.nodes;
        }
        // Split the tree a few levels deep and let the workers pull subtrees
        // from a counter.
        let (prefixes, mut per_depth) = prefixes::<W>(t, self.threads * 8, stop, check);
        let next = AtomicUsize::new(0);
        let (tx, rx) = mpsc::channel::<Vec<Placement>>();
        std::thread::scope(|scope| {
            let mut handles = Vec::new();
            for _ in 0..self.threads {
                let tx = tx.clone();
                let (next, prefixes) = (&next, &prefixes);
                handles.push(scope.spawn(move || {
                    let mut st = State::<W>::new(t.cells, stop, check);
                    let mut buf = Vec::new();
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(prefix) = prefixes.get(k) else { break };
                        if stop.load(Ordering::Relaxed) {
                            break;
                        }
                        st.set_prefix(t, prefix);
                        // The solutions of one subtree, flat.
                        let mut batch = Vec::new();
                        let mut out = |cells: &[Placement]| batch.extend_from_slice(cells);
                        search(
                            t,
                            &mut st,
                            prefix.len(),
                            t.cells,
                            &mut |placed: &[u16; MAX_TILES]| t.emit(placed, &mut buf, &mut out),
                        );
                        if tx.send(batch).is_err() {
                            break;
                        }
                    }
                    st.nodes
                }));
            }
            drop(tx);
            let mut progress = Progress {
                subproblems_pending: prefixes.len() as u64,
                ..Progress::default()
            };
            for batch in rx {
                for cells in batch.chunks(t.cells) {
                    callback.on_solution(cells);
                    progress.solutions += 1;
                }
                progress.subproblems_done += 1;
                progress.subproblems_pending -= 1;
                callback.on_progress(&progress);
                if callback.enough() {
                    stop.store(true, Ordering::Relaxed);
                }
            }
            for h in handles {
                for (a, b) in per_depth.iter_mut().zip(h.join().expect("worker")) {
                    *a += b;
                }
            }
        });
        per_depth
    }
}

/// Every consistent placement of the first depths, deep enough to give at
/// least `want` subtrees; and the nodes that took, per depth.
fn prefixes<const W: usize>(
    t: &Tables<'_>,
    want: usize,
    stop: &AtomicBool,
    check: &(dyn Fn() -> bool + Sync),
) -> (Vec<Vec<u16>>, Vec<u64>) {
    let mut st = State::<W>::new(t.cells, stop, check);
    let mut level: Vec<Vec<u16>> = vec![Vec::new()];
    let mut depth = 0;
    while depth + 1 < t.cells && level.len() < want {
        let mut next = Vec::new();
        for p in &level {
            st.set_prefix(t, p);
            let cell = t.steps[depth].cell;
            search(
                t,
                &mut st,
                depth,
                depth + 1,
                &mut |placed: &[u16; MAX_TILES]| {
                    let mut q = p.clone();
                    q.push(placed[cell]);
                    next.push(q);
                },
            );
        }
        level = next;
        depth += 1;
    }
    (level, st.nodes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantOptions, Rng, plant};
    use crate::solve::StopToken;

    /// Every board the solver reports, in order.
    #[derive(Default)]
    struct Boards(Vec<Vec<Placement>>);
    impl SolutionCallback for Boards {
        fn on_solution(&mut self, cells: &[Placement]) {
            self.0.push(cells.to_vec());
        }
    }

    fn boards(bt: Backtrack, p: &Puzzle, threads: usize) -> (Vec<Vec<Placement>>, SolverRun) {
        let mut b = Boards::default();
        let opts = SolveOptions {
            threads,
            ..SolveOptions::default()
        };
        let run = bt.enumerate(p, &opts, &mut b).unwrap();
        b.0.sort_by_key(|cells| {
            cells
                .iter()
                .map(|c| (c.tile, c.rotation))
                .collect::<Vec<_>>()
        });
        (b.0, run)
    }

    #[test]
    fn orders_visit_every_cell_once() {
        for n in 1..=8 {
            for order in [Order::Row, Order::Spiral, Order::Constrained] {
                let mut cells = order.cells(n);
                assert_eq!(cells.len(), n * n);
                if order == Order::Spiral {
                    assert_eq!(cells[0], (n - 1) / 2 * n + (n - 1) / 2);
                }
                cells.sort();
                assert_eq!(cells, (0..n * n).collect::<Vec<_>>());
            }
        }
        assert_eq!(Order::Spiral.cells(3), [4, 5, 8, 7, 6, 3, 0, 1, 2]);
        // Saegesser's 1,2,5,4,3,6,7,8,9 is 1,2,4,5,3,6,8,7,9 here.
        assert_eq!(Order::Constrained.cells(3), [0, 1, 3, 4, 2, 5, 7, 6, 8]);
    }

    /// The constrained order by its definition, recounting everything.
    fn constrained_by_definition(n: usize) -> Vec<usize> {
        let mut placed = vec![false; n * n];
        let mut out = Vec::new();
        let count =
            |placed: &[bool], c: usize| neighbours(n, c).filter(|&(_, b)| placed[b]).count();
        for _ in 0..n * n {
            let best = (0..n * n)
                .filter(|&c| !placed[c])
                .max_by_key(|&c| {
                    let mut after = placed.clone();
                    after[c] = true;
                    let twos = (0..n * n)
                        .filter(|&d| !after[d] && count(&after, d) >= 2)
                        .count();
                    (count(&placed, c), twos, std::cmp::Reverse(c))
                })
                .unwrap();
            placed[best] = true;
            out.push(best);
        }
        out
    }

    #[test]
    fn constrained_order_follows_its_definition() {
        for n in 1..=9 {
            assert_eq!(
                Order::Constrained.cells(n),
                constrained_by_definition(n),
                "n = {n}"
            );
        }
    }

    #[test]
    fn partner_codes() {
        let e = |motif, half| code(Edge { motif, half });
        assert_eq!(partner(e(5, Half::Plus)), e(5, Half::Minus));
        assert_eq!(partner(e(5, Half::Minus)), e(5, Half::Plus));
        assert_eq!(partner(e(5, Half::Same)), e(5, Half::Same));
        assert_eq!(partner(e(0, Half::Plus)), e(0, Half::Minus));
        assert_eq!(partner(e(0, Half::Same)), e(0, Half::Same));
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

    #[test]
    fn turn_tables_match_board_turns() {
        for n in 1..=5 {
            let (p, planted) = plant(
                &mut Rng::new(n as u64),
                &PlantOptions {
                    n,
                    motifs: 3,
                    self_matching: false,
                },
            );
            let sym = Symmetry::none();
            let t = Tables::new(&p, Order::Spiral, &sym, true);
            let placed: Vec<u16> = planted
                .cells()
                .iter()
                .map(|c| {
                    (p.tiles.iter().position(|x| x.id == c.tile).unwrap() * 4) as u16
                        + c.rotation as u16
                })
                .collect();
            let mut got = Vec::new();
            t.emit(&placed, &mut Vec::new(), &mut |cells| {
                got.push(cells.to_vec())
            });
            let want: Vec<Vec<Placement>> =
                planted.turns().iter().map(|s| s.cells().to_vec()).collect();
            assert_eq!(got, want, "n = {n}");
        }
    }

    #[test]
    fn the_turn_reduction_reports_the_full_tree_solutions() {
        // Odd and even boards, both reductions, one and two threads.
        for (n, motifs, seed) in [
            (1, 2, 1),
            (2, 2, 2),
            (3, 3, 3),
            (3, 2, 4),
            (4, 4, 5),
            (5, 6, 6),
        ] {
            let (p, _) = plant(
                &mut Rng::new(seed),
                &PlantOptions {
                    n,
                    motifs,
                    self_matching: seed % 2 == 0,
                },
            );
            for order in [Order::Row, Order::Spiral, Order::Constrained] {
                let (full, full_run) = boards(Backtrack::full_tree(order), &p, 1);
                assert!(!full.is_empty());
                for threads in [1, 2] {
                    let (reduced, run) = boards(Backtrack::new(order), &p, threads);
                    assert_eq!(reduced, full, "n = {n}, {order}, {threads} threads");
                    let depth = run.stats.nodes_per_depth.unwrap();
                    // The reduced tree finds one board of each four.
                    assert_eq!(*depth.last().unwrap() * 4, full.len() as u64);
                    assert!(run.stats.nodes <= full_run.stats.nodes);
                }
            }
        }
    }

    #[test]
    fn a_stop_before_the_start_reports_stopped() {
        let (p, _) = plant(
            &mut Rng::new(9),
            &PlantOptions {
                n: 3,
                motifs: 3,
                self_matching: false,
            },
        );
        let stop = StopToken::new();
        stop.stop();
        let opts = SolveOptions {
            stop,
            ..SolveOptions::default()
        };
        let mut b = Boards::default();
        let run = Backtrack::default().enumerate(&p, &opts, &mut b).unwrap();
        assert_eq!(run.status, RunStatus::Stopped(StopReason::Interrupted));
        assert!(b.0.is_empty());
        assert_eq!(run.stats.nodes, Some(0));
    }
}

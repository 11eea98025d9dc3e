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

/// The largest board the search handles (tiles are a 128-bit mask).
pub const MAX_TILES: usize = 128;

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
    let mut placed = vec![false; n * n];
    let mut out = Vec::with_capacity(n * n);
    let count = |placed: &[bool], c: usize| neighbours(n, c).filter(|&(_, b)| placed[b]).count();
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
            .expect("a free cell");
        placed[best] = true;
        out.push(best);
    }
    out
}

/// The native backtracking solver.
#[derive(Clone, Copy, Debug)]
pub struct Backtrack {
    pub order: Order,
}

impl Default for Backtrack {
    fn default() -> Self {
        Backtrack {
            order: DEFAULT_ORDER,
        }
    }
}

/// The default placement order (the fastest measured, docs/benchmarks.md).
pub const DEFAULT_ORDER: Order = Order::Spiral;

/// The edge code of an edge: motif * 3 + half.
fn code(e: Edge) -> u16 {
    e.motif * 3
        + match e.half {
            Half::Plus => 0,
            Half::Minus => 1,
            Half::Same => 2,
        }
}

/// The code an adjacent edge must have.
fn partner(c: u16) -> u16 {
    match c % 3 {
        0 => c + 1,
        1 => c - 1,
        _ => c,
    }
}

/// Candidate orientations grouped by a key, stored flat (no per-key Vec).
#[derive(Default)]
struct Csr {
    start: Vec<u32>,
    items: Vec<u16>,
}

impl Csr {
    fn build(keys: usize, entries: impl Iterator<Item = (usize, u16)>) -> Csr {
        let mut buckets: Vec<Vec<u16>> = vec![Vec::new(); keys];
        for (k, o) in entries {
            buckets[k].push(o);
        }
        let mut start = Vec::with_capacity(keys + 1);
        let mut items = Vec::new();
        for b in buckets {
            start.push(items.len() as u32);
            items.extend(b);
        }
        start.push(items.len() as u32);
        Csr { start, items }
    }
    #[inline]
    fn get(&self, k: usize) -> &[u16] {
        &self.items[self.start[k] as usize..self.start[k + 1] as usize]
    }
}

/// How a depth finds its candidates.
#[derive(Clone, Copy)]
enum Index {
    All,
    /// By the code required in direction `dir`, from the neighbour `nb`.
    One {
        dir: usize,
        nb: usize,
    },
    /// By the codes required in two directions (pair table `pair`).
    Two {
        pair: usize,
        d1: usize,
        nb1: usize,
        d2: usize,
        nb2: usize,
    },
}

struct Step {
    cell: usize,
    index: Index,
    /// Further placed neighbours to check: (direction, neighbour cell).
    rest: Vec<(usize, usize)>,
}

/// Everything the search reads, built once per puzzle.
struct Tables<'p> {
    puzzle: &'p Puzzle,
    cells: usize,
    /// Per orientation `o = tile index * 4 + rotation`: its four edge codes.
    edges: Vec<[u16; 4]>,
    ncodes: usize,
    all: Vec<u16>,
    by_dir: [Csr; 4],
    /// Pairs of directions (d1 < d2), keyed by code1 * ncodes + code2.
    by_pair: Vec<Csr>,
    steps: Vec<Step>,
    /// Per depth and orientation: allowed by the symmetry rules' pruning.
    allowed: Vec<bool>,
    symmetry: Symmetry,
}

impl<'p> Tables<'p> {
    fn new(puzzle: &'p Puzzle, order: Order, symmetry: &Symmetry) -> Tables<'p> {
        let n = puzzle.n;
        let cells = n * n;
        let nori = puzzle.len() * 4;
        let edges: Vec<[u16; 4]> = (0..nori)
            .map(|o| {
                let t = &puzzle.tiles[o / 4];
                std::array::from_fn(|d| code(t.edge((o % 4) as u8, d)))
            })
            .collect();
        let ncodes = 3 * puzzle.motifs.len().max(1);
        let by_dir: [Csr; 4] = std::array::from_fn(|d| {
            Csr::build(ncodes, (0..nori).map(|o| (edges[o][d] as usize, o as u16)))
        });
        let pairs: Vec<(usize, usize)> = (0..4)
            .flat_map(|a| ((a + 1)..4).map(move |b| (a, b)))
            .collect();
        let by_pair = pairs
            .iter()
            .map(|&(a, b)| {
                Csr::build(
                    ncodes * ncodes,
                    (0..nori).map(|o| {
                        (
                            edges[o][a] as usize * ncodes + edges[o][b] as usize,
                            o as u16,
                        )
                    }),
                )
            })
            .collect();
        let order_cells = order.cells(n);
        let mut placed = vec![false; cells];
        let mut steps = Vec::with_capacity(cells);
        for &c in &order_cells {
            let mut nbs: Vec<(usize, usize)> =
                neighbours(n, c).filter(|&(_, b)| placed[b]).collect();
            nbs.sort();
            let index = match nbs.len() {
                0 => Index::All,
                1 => Index::One {
                    dir: nbs[0].0,
                    nb: nbs[0].1,
                },
                _ => Index::Two {
                    pair: pairs
                        .iter()
                        .position(|&p| p == (nbs[0].0, nbs[1].0))
                        .expect("sorted pair"),
                    d1: nbs[0].0,
                    nb1: nbs[0].1,
                    d2: nbs[1].0,
                    nb2: nbs[1].1,
                },
            };
            let rest = nbs.iter().skip(2).copied().collect();
            steps.push(Step {
                cell: c,
                index,
                rest,
            });
            placed[c] = true;
        }
        let allowed = steps
            .iter()
            .flat_map(|s| {
                (0..nori).map(move |o| {
                    symmetry.allows(puzzle, s.cell, puzzle.tiles[o / 4].id, (o % 4) as u8)
                })
            })
            .collect();
        Tables {
            puzzle,
            cells,
            edges,
            ncodes,
            all: (0..nori as u16).collect(),
            by_dir,
            by_pair,
            steps,
            allowed,
            symmetry: symmetry.clone(),
        }
    }

    /// The orientation's code on the side facing direction `dir` from a cell
    /// whose neighbour `nb` (in direction `dir`) holds orientation `o_nb`.
    #[inline]
    fn need(&self, dir: usize, o_nb: u16) -> usize {
        partner(self.edges[o_nb as usize][(dir + 2) % 4]) as usize
    }

    fn solution(&self, placed: &[u16]) -> Solution {
        Solution::new(
            placed
                .iter()
                .map(|&o| Placement {
                    tile: self.puzzle.tiles[o as usize / 4].id,
                    rotation: (o % 4) as u8,
                })
                .collect(),
        )
    }
}

/// Search state of one worker.
struct State<'a> {
    placed: Vec<u16>,
    used: u128,
    nodes: Vec<u64>,
    total: u64,
    stop: &'a AtomicBool,
    check: &'a dyn Fn() -> bool,
}

impl<'a> State<'a> {
    fn new(cells: usize, stop: &'a AtomicBool, check: &'a dyn Fn() -> bool) -> State<'a> {
        State {
            placed: vec![0; cells],
            used: 0,
            nodes: vec![0; cells],
            total: 0,
            stop,
            check,
        }
    }

    /// Put a prefix (orientations for the first depths) on the board.
    fn set_prefix(&mut self, t: &Tables<'_>, prefix: &[u16]) {
        self.used = 0;
        for (d, &o) in prefix.iter().enumerate() {
            self.placed[t.steps[d].cell] = o;
            self.used |= 1u128 << (o / 4);
        }
    }
}

/// Statistics of a backtracking run.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Nodes {
    pub per_depth: Vec<u64>,
    pub total: u64,
}

/// Depth-first search from `depth`; `emit` gets every placement that fills
/// the cells of depths `0..limit`.
fn search(
    t: &Tables<'_>,
    st: &mut State<'_>,
    depth: usize,
    limit: usize,
    emit: &mut dyn FnMut(&Tables<'_>, &[u16]),
) {
    if depth == limit {
        emit(t, &st.placed);
        return;
    }
    let step = &t.steps[depth];
    let cands: &[u16] = match step.index {
        Index::All => &t.all,
        Index::One { dir, nb } => t.by_dir[dir].get(t.need(dir, st.placed[nb])),
        Index::Two {
            pair,
            d1,
            nb1,
            d2,
            nb2,
        } => {
            let k = t.need(d1, st.placed[nb1]) * t.ncodes + t.need(d2, st.placed[nb2]);
            t.by_pair[pair].get(k)
        }
    };
    let allowed = &t.allowed[depth * t.all.len()..(depth + 1) * t.all.len()];
    'cand: for &o in cands {
        let bit = 1u128 << (o / 4);
        if st.used & bit != 0 || !allowed[o as usize] {
            continue;
        }
        for &(dir, nb) in &step.rest {
            if t.edges[o as usize][dir] as usize != t.need(dir, st.placed[nb]) {
                continue 'cand;
            }
        }
        st.nodes[depth] += 1;
        st.total += 1;
        if st.total & 0xFFFF == 0 && (st.check)() {
            st.stop.store(true, Ordering::Relaxed);
        }
        if st.stop.load(Ordering::Relaxed) {
            return;
        }
        st.placed[step.cell] = o;
        st.used |= bit;
        search(t, st, depth + 1, limit, emit);
        st.used &= !bit;
    }
}

impl Solver for Backtrack {
    fn name(&self) -> &'static str {
        "backtrack"
    }
    fn version(&self) -> String {
        env!("CARGO_PKG_VERSION").to_string()
    }
    fn model_name(&self) -> String {
        self.order.name().to_string()
    }
    fn enumerate(
        &self,
        puzzle: &Puzzle,
        options: &SolveOptions,
        callback: &mut dyn SolutionCallback,
    ) -> Result<SolverRun, SolveError> {
        if puzzle.len() > MAX_TILES {
            return Err(SolveError::Runtime(
                format!(
                    "{}: the backtracking solver handles at most {MAX_TILES} tiles",
                    puzzle.source.display()
                )
                .into(),
            ));
        }
        let start = Instant::now();
        let t = Tables::new(puzzle, self.order, &options.symmetry);
        let deadline = options.time_limit.map(|d| start + d);
        let stop_token = options.stop.clone();
        let timed_out = AtomicBool::new(false);
        let check = || {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                timed_out.store(true, Ordering::Relaxed);
                true
            } else {
                stop_token.is_stopped()
            }
        };
        let stop = AtomicBool::new(false);
        let threads = options.threads.max(1);
        let check_symmetry = !t.symmetry.is_none();
        let mut nodes = Nodes {
            per_depth: vec![0; t.cells],
            total: 0,
        };
        if threads == 1 || t.cells < 2 {
            let mut st = State::new(t.cells, &stop, &check);
            let mut emit = |t: &Tables<'_>, placed: &[u16]| {
                let s = t.solution(placed);
                if !check_symmetry || t.symmetry.accepts(t.puzzle, &s) {
                    callback.on_solution(s.cells());
                }
            };
            search(&t, &mut st, 0, t.cells, &mut emit);
            nodes.per_depth = st.nodes;
            nodes.total = st.total;
        } else {
            // Split the tree at depth 1 (or 2 when that gives too few
            // subtrees) and let the workers pull subtrees from a counter.
            let (prefixes, prefix_nodes) = prefixes(&t, threads * 8, &stop, &check);
            nodes.per_depth = prefix_nodes;
            let next = AtomicUsize::new(0);
            let (tx, rx) = mpsc::channel::<Vec<Solution>>();
            std::thread::scope(|scope| {
                let mut handles = Vec::new();
                for _ in 0..threads {
                    let tx = tx.clone();
                    let (t, next, prefixes, stop, check) = (&t, &next, &prefixes, &stop, &check);
                    handles.push(scope.spawn(move || {
                        let mut st = State::new(t.cells, stop, check);
                        loop {
                            let k = next.fetch_add(1, Ordering::Relaxed);
                            let Some(prefix) = prefixes.get(k) else { break };
                            if stop.load(Ordering::Relaxed) {
                                break;
                            }
                            st.set_prefix(t, prefix);
                            let mut batch = Vec::new();
                            let mut emit = |t: &Tables<'_>, placed: &[u16]| {
                                let s = t.solution(placed);
                                if !check_symmetry || t.symmetry.accepts(t.puzzle, &s) {
                                    batch.push(s);
                                }
                            };
                            search(t, &mut st, prefix.len(), t.cells, &mut emit);
                            if tx.send(batch).is_err() {
                                break;
                            }
                        }
                        (st.nodes, st.total)
                    }));
                }
                drop(tx);
                let mut progress = Progress {
                    subproblems_pending: prefixes.len() as u64,
                    ..Progress::default()
                };
                for batch in rx {
                    progress.solutions += batch.len() as u64;
                    for s in &batch {
                        callback.on_solution(s.cells());
                    }
                    progress.subproblems_done += 1;
                    progress.subproblems_pending -= 1;
                    callback.on_progress(&progress);
                }
                for h in handles {
                    let (per_depth, total) = h.join().expect("worker");
                    for (a, b) in nodes.per_depth.iter_mut().zip(per_depth) {
                        *a += b;
                    }
                    nodes.total += total;
                }
            });
            nodes.total = nodes.per_depth.iter().sum();
        }
        let elapsed = start.elapsed().as_secs_f64();
        let status = if stop.load(Ordering::Relaxed) {
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
                nodes: Some(nodes.total),
                nodes_per_depth: Some(nodes.per_depth),
                nodes_per_second: Some(if elapsed > 0.0 {
                    nodes.total as f64 / elapsed
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

/// Every consistent placement of the first depths, deep enough to give at
/// least `want` subtrees; and the nodes that took, per depth.
fn prefixes(
    t: &Tables<'_>,
    want: usize,
    stop: &AtomicBool,
    check: &dyn Fn() -> bool,
) -> (Vec<Vec<u16>>, Vec<u64>) {
    let mut st = State::new(t.cells, stop, check);
    let mut level: Vec<Vec<u16>> = vec![Vec::new()];
    let mut depth = 0;
    while depth + 1 < t.cells && level.len() < want {
        let mut next = Vec::new();
        for p in &level {
            st.set_prefix(t, p);
            let mut emit = |t: &Tables<'_>, placed: &[u16]| {
                let mut q = p.clone();
                q.push(placed[t.steps[depth].cell]);
                next.push(q);
            };
            search(t, &mut st, depth, depth + 1, &mut emit);
        }
        level = next;
        depth += 1;
    }
    (level, st.nodes)
}

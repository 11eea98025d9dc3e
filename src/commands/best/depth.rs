//! The deepest board for `scramble best --method depth`: a backtracker
//! that places as many pieces as it can with a few broken joins, spent
//! only at fixed slots near the end of its fill order, and completes each
//! new deepest board by filling its empty cells optimally (a small
//! branch and bound). The break-slot searches of Eternity II's record
//! solvers work this way.
//!
//! The fill order: the rows from the top down to the last block of about
//! five sixteenths of the rows; that block's left columns row by row, then
//! the rest of it column by column (each from the top down), so every cell
//! still has its left and top neighbours placed and the breaks land in
//! one last block. The slots spread the budget over that column part: no
//! break before it, all of them by its last columns. A join between two
//! frame cells never breaks.

use crate::board::{Placement, Solution};
use crate::puzzle::{BOTTOM, LEFT, Puzzle, RIGHT, TOP};
use crate::rng::Rng;

use super::breaks::{Prepared, Shared, luby};

/// Nodes of the first restart; restart k runs `luby(k)` times this.
const RESTART_NODES: u64 = 200_000_000;

/// A board is completed when it is this close to full.
const COMPLETE_WITHIN: usize = 12;

/// Every board this close to full, and at most one cell short of the
/// deepest, is completed, not only a deepest one.
const COMPLETE_ALWAYS: usize = 10;

/// Nodes one completion may spend.
const FILL_NODES: u64 = 2_000_000;

/// A board being filled: per cell its (tile index, rotation), if any.
type Cells = Vec<Option<(u16, u8)>>;

/// Where the search goes and where it may break joins.
struct Plan {
    /// Cells in fill order.
    order: Vec<usize>,
    /// Breaks that may have been spent once `order[d]` is placed.
    allowed: Vec<usize>,
    /// Whether the join to the left (above) of a cell may break.
    left_breaks: Vec<bool>,
    top_breaks: Vec<bool>,
}

/// The fill order and the break slots of a `rows` x `cols` board with
/// `joins` joins.
fn plan(rows: usize, cols: usize, joins: usize) -> Plan {
    let n = rows * cols;
    let block = ((rows * 5 + 8) / 16).clamp(1, rows);
    let left = ((cols * 5 + 8) / 16).min(cols);
    let top_rows = rows - block;
    let mut order: Vec<usize> = (0..top_rows * cols).collect();
    for i in top_rows..rows {
        order.extend((0..left).map(|j| i * cols + j));
    }
    let columns_start = order.len();
    for j in left..cols {
        order.extend((top_rows..rows).map(|i| i * cols + j));
    }
    // The budget: about one break per 48 joins. Half of it one per column
    // at the top of the column part's first columns, the other half spread
    // evenly from there to the board's last sixteenth.
    let budget = (joins / 48).max(1);
    let height = rows - top_rows;
    let mut slots: Vec<usize> = (0..budget / 2)
        .map(|k| columns_start + height * k)
        .collect();
    let from = columns_start + height * (budget / 2) - 1;
    let to = n.saturating_sub(n / 16 + 1).max(from);
    let rest = budget - budget / 2;
    slots.extend((0..rest).map(|k| from + (to - from) * k / (rest - 1).max(1)));
    let allowed = (0..n)
        .map(|d| slots.iter().filter(|&&s| s <= d).count())
        .collect();
    let border = |c: usize| {
        let (i, j) = (c / cols, c % cols);
        i == 0 || j == 0 || i + 1 == rows || j + 1 == cols
    };
    let left_breaks = (0..n)
        .map(|c| c % cols > 0 && !(border(c) && border(c - 1)))
        .collect();
    let top_breaks = (0..n)
        .map(|c| c >= cols && !(border(c) && border(c - cols)))
        .collect();
    Plan {
        order,
        allowed,
        left_breaks,
        top_breaks,
    }
}

/// The placements of each cell; a cell whose joins with the fixed pieces
/// beside it come before the first break slot only holds what matches
/// them.
pub(crate) fn prepare(puzzle: &Puzzle) -> Prepared {
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    let plan = plan(rows, cols, crate::board::Score::joins_of(puzzle));
    let first_slot = plan
        .allowed
        .iter()
        .position(|&a| a > 0)
        .unwrap_or(rows * cols);
    let mut index = vec![0; rows * cols];
    for (d, &c) in plan.order.iter().enumerate() {
        index[c] = d;
    }
    let early = |c: usize| index[c] < first_slot;
    Prepared::new_with(puzzle, &|c| {
        let beside = [
            c.checked_sub(1),
            c.checked_sub(cols),
            Some(c + 1),
            Some(c + cols),
        ];
        early(c)
            && beside
                .into_iter()
                .flatten()
                .filter(|&o| o < rows * cols)
                .all(early)
    })
}

/// The colours whose edges must be placed at a minimum rate early, so they
/// are not left for the last block: one frame colour and two inner ones,
/// those that share the most pieces (a piece with two of them placed early
/// uses both up). On boards of [`COLOURED_FROM`] cells or more.
struct Colours {
    /// Per tile index: its edges of the chosen colours.
    edges: Vec<usize>,
    /// Per depth: the edges of the chosen colours placed by then, at least.
    ramp: Vec<usize>,
}

/// The smallest board the colour ramp applies to.
const COLOURED_FROM: usize = 100;

/// The ramp: (share of the fill order, share of the chosen colours' edges
/// placed by then), linear in between, none past the last point.
const RAMP: [(f64, f64); 6] = [
    (0.0625, 0.0),
    (0.1, 0.23),
    (0.22, 0.58),
    (0.3, 0.73),
    (0.4, 0.87),
    (0.625, 0.975),
];

impl Colours {
    fn new(puzzle: &Puzzle) -> Colours {
        let n = puzzle.rows() * puzzle.cols();
        let chosen = if n >= COLOURED_FROM {
            choose_colours(puzzle)
        } else {
            Vec::new()
        };
        let edges: Vec<usize> = puzzle
            .tiles()
            .iter()
            .map(|t| {
                (0..4)
                    .filter(|&e| chosen.contains(&t.edge(0, e).motif))
                    .count()
            })
            .collect();
        let total: usize = edges.iter().sum();
        let ramp = (0..n)
            .map(|d| {
                let x = d as f64 / n as f64;
                let share = RAMP
                    .windows(2)
                    .find(|w| x >= w[0].0 && x <= w[1].0)
                    .map_or(0.0, |w| {
                        w[0].1 + (w[1].1 - w[0].1) * (x - w[0].0) / (w[1].0 - w[0].0)
                    });
                (share * total as f64) as usize
            })
            .collect();
        Colours { edges, ramp }
    }
}

/// One frame colour and two inner colours (or three colours, without a
/// frame) such that the most pieces show two of them or more; the lowest
/// colour numbers among equals.
fn choose_colours(puzzle: &Puzzle) -> Vec<u16> {
    let frame = puzzle.frame();
    let tiles = puzzle.tiles();
    // A frame colour shows beside the grey edge of a frame piece.
    let mut frame_colours = Vec::new();
    let mut inner = Vec::new();
    for t in tiles {
        for e in 0..4 {
            let m = t.edge(0, e).motif;
            if Some(m) == frame {
                continue;
            }
            let beside_grey = frame.is_some_and(|f| {
                t.edge(0, (e + 1) % 4).motif == f || t.edge(0, (e + 3) % 4).motif == f
            });
            let list = if beside_grey {
                &mut frame_colours
            } else {
                &mut inner
            };
            if !list.contains(&m) {
                list.push(m);
            }
        }
    }
    inner.retain(|m| !frame_colours.contains(m));
    frame_colours.sort_unstable();
    inner.sort_unstable();
    let overlap = |set: &[u16]| {
        tiles
            .iter()
            .filter(|t| {
                (0..4)
                    .filter(|&e| set.contains(&t.edge(0, e).motif))
                    .count()
                    >= 2
            })
            .count()
    };
    let mut best: Option<(usize, Vec<u16>)> = None;
    let mut consider = |set: Vec<u16>| {
        let o = overlap(&set);
        if best.as_ref().is_none_or(|(b, _)| o > *b) {
            best = Some((o, set));
        }
    };
    if frame.is_some() && !frame_colours.is_empty() {
        for &f in &frame_colours {
            for (x, &a) in inner.iter().enumerate() {
                for &b in &inner[x + 1..] {
                    consider(vec![f, a, b]);
                }
            }
        }
    } else {
        for (x, &a) in inner.iter().enumerate() {
            for (y, &b) in inner.iter().enumerate().skip(x + 1) {
                for &c in &inner[y + 1..] {
                    consider(vec![a, b, c]);
                }
            }
        }
    }
    best.map(|(_, s)| s).unwrap_or_default()
}

/// One thread's search: restarts until stopped or a full board is found.
pub(crate) fn search(puzzle: &Puzzle, prepared: &Prepared, seed: u64, shared: &Shared) -> u64 {
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    let joins = crate::board::Score::joins_of(puzzle);
    let plan = plan(rows, cols, joins);
    let mut rng = Rng::new(seed);
    let mut nodes = 0u64;
    let mut restart = 1u64;
    let colours = Colours::new(puzzle);
    while !(shared.stop)()
        && shared
            .best_breaks
            .load(std::sync::atomic::Ordering::Relaxed)
            > 0
    {
        let ordered = prepared.reordered(&mut rng, &|k| colours.edges[k as usize]);
        let mut run = Run {
            p: &ordered,
            plan: &plan,
            puzzle,
            shared,
            used: vec![false; puzzle.len()],
            board: vec![None; rows * cols],
            deepest: 0,
            nodes: 0,
            limit: luby(restart) * RESTART_NODES,
            joins,
            done: false,
            deepest_board: vec![None; rows * cols],
            completed: false,
            colours: &colours,
            placed_colours: vec![0; rows * cols + 1],
        };
        run.dfs(0, 0);
        if !run.completed && run.deepest > 0 {
            // The restart's deepest board, completed as well as a short
            // fill can (a board at all, on a run too short to go deep).
            run.board = std::mem::take(&mut run.deepest_board);
            run.complete(run.deepest, FILL_NODES / 10);
        }
        nodes += run.nodes;
        restart += 1;
    }
    nodes
}

struct Run<'a> {
    p: &'a Prepared,
    plan: &'a Plan,
    puzzle: &'a Puzzle,
    shared: &'a Shared<'a>,
    used: Vec<bool>,
    board: Vec<Option<(u16, u8)>>,
    /// The deepest this restart has gone (completions happen past it).
    deepest: usize,
    nodes: u64,
    limit: u64,
    joins: usize,
    done: bool,
    /// The board at `deepest`.
    deepest_board: Vec<Option<(u16, u8)>>,
    /// Whether `deepest` has been completed.
    completed: bool,
    colours: &'a Colours,
    /// Edges of the chosen colours placed down to each depth.
    placed_colours: Vec<usize>,
}

impl Run<'_> {
    fn edge(&self, c: usize, side: usize) -> u16 {
        let (k, r) = self.board[c].expect("a placed neighbour");
        self.p.edge(k, r, side)
    }

    /// Try `list` in its order (this restart's) with `extra` breaks each,
    /// skipping those `skip` refuses and those that would leave the chosen
    /// colours behind their ramp.
    fn try_list(
        &mut self,
        d: usize,
        breaks: usize,
        list: &[(u16, u8)],
        extra: usize,
        skip: &dyn Fn(u16, u8) -> bool,
    ) {
        let c = self.plan.order[d];
        for &(k, r) in list {
            if self.done {
                return;
            }
            if self.used[k as usize] || skip(k, r) {
                continue;
            }
            let placed = self.placed_colours[d] + self.colours.edges[k as usize];
            if placed < self.colours.ramp[d] {
                continue;
            }
            self.placed_colours[d + 1] = placed;
            self.used[k as usize] = true;
            self.board[c] = Some((k, r));
            self.dfs(d + 1, breaks + extra);
            self.board[c] = None;
            self.used[k as usize] = false;
        }
    }

    fn dfs(&mut self, d: usize, breaks: usize) {
        if self.done {
            return;
        }
        self.nodes += 1;
        if self.nodes >= self.limit || (self.nodes & 0xFFF == 0 && (self.shared.stop)()) {
            self.done = true;
            return;
        }
        let n = self.plan.order.len();
        let record = d > self.deepest;
        if record {
            self.deepest = d;
            self.deepest_board.clone_from(&self.board);
            self.completed = d + COMPLETE_WITHIN >= n;
        }
        // A new deepest board is completed, and every board this close to
        // full and to the deepest (rare, and quick to fill).
        if record && self.completed {
            self.complete(d, FILL_NODES);
        } else if d + COMPLETE_ALWAYS >= n && d + 1 >= self.deepest {
            self.complete(d, FILL_NODES / 10);
        }
        if d == n {
            return;
        }
        let c = self.plan.order[d];
        let cols = self.p.cols();
        let room = self.plan.allowed[d].saturating_sub(breaks);
        let need_left = (!c.is_multiple_of(cols)).then(|| self.p.partner(self.edge(c - 1, RIGHT)));
        let need_top = (c >= cols).then(|| self.p.partner(self.edge(c - cols, BOTTOM)));
        let p = self.p;
        let (lb, tb) = (self.plan.left_breaks[c], self.plan.top_breaks[c]);
        match (need_left, need_top) {
            (Some(l), Some(t)) => {
                self.try_list(d, breaks, p.exact(c, l, t), 0, &|_, _| false);
                if room >= 1 && tb {
                    self.try_list(d, breaks, p.with_left(c, l), 1, &|k, r| {
                        p.edge(k, r, TOP) == t
                    });
                }
                if room >= 1 && lb {
                    self.try_list(d, breaks, p.with_top(c, t), 1, &|k, r| {
                        p.edge(k, r, LEFT) == l
                    });
                }
            }
            (Some(l), None) => self.try_list(d, breaks, p.with_left(c, l), 0, &|_, _| false),
            (None, Some(t)) => self.try_list(d, breaks, p.with_top(c, t), 0, &|_, _| false),
            (None, None) => self.try_list(d, breaks, p.all(c), 0, &|_, _| false),
        }
    }

    /// The board as placed down to depth `d`, its other cells filled to
    /// the most valid joins: handed on if it beats the best.
    fn complete(&mut self, d: usize, cap: u64) {
        let cells = self.plan.order[d..].to_vec();
        let filled = Fill::best(self.p, &self.board, cells, cap, self.shared.stop);
        let Some((_, board)) = filled else { return };
        let cells: Vec<Placement> = board
            .iter()
            .map(|b| {
                let (k, r) = b.expect("a full board");
                Placement {
                    tile: self.puzzle.tiles()[k as usize].id,
                    rotation: r,
                }
            })
            .collect();
        let solution = Solution::shaped(cells, self.puzzle.shape());
        let Ok(score) = solution.score(self.puzzle) else {
            return;
        };
        let breaks = self.joins - score.valid;
        let best = &self.shared.best_breaks;
        let mut current = best.load(std::sync::atomic::Ordering::Relaxed);
        while breaks < current {
            match best.compare_exchange(
                current,
                breaks,
                std::sync::atomic::Ordering::SeqCst,
                std::sync::atomic::Ordering::Relaxed,
            ) {
                Ok(_) => {
                    (self.shared.found)(solution);
                    break;
                }
                Err(now) => current = now,
            }
        }
        if breaks == 0 {
            self.done = true;
        }
    }
}

/// The empty cells of a board filled with the unused tiles to the most
/// valid joins, by branch and bound within [`FILL_NODES`].
struct Fill<'a> {
    p: &'a Prepared,
    /// The empty cells, in fill order.
    cells: Vec<usize>,
    board: Vec<Option<(u16, u8)>>,
    used: Vec<bool>,
    best: Option<(usize, Cells)>,
    nodes: u64,
    cap: u64,
    stop: &'a (dyn Fn() -> bool + Sync),
}

impl<'a> Fill<'a> {
    /// `cells`, empty on `board`, filled with the tiles not on it to the
    /// most valid joins (with the placed cells and among themselves)
    /// within `cap` nodes: (those joins, the board).
    fn best(
        p: &'a Prepared,
        board: &[Option<(u16, u8)>],
        cells: Vec<usize>,
        cap: u64,
        stop: &'a (dyn Fn() -> bool + Sync),
    ) -> Option<(usize, Cells)> {
        let mut used = vec![false; p.tiles()];
        for &(k, _) in board.iter().flatten() {
            used[k as usize] = true;
        }
        let mut fill = Fill {
            p,
            cells,
            board: board.to_vec(),
            used,
            best: None,
            nodes: 0,
            cap,
            stop,
        };
        let back: Vec<usize> = fill.cells.iter().map(|&c| fill.back(c)).collect();
        let mut possible = vec![0; back.len() + 1];
        for x in (0..back.len()).rev() {
            possible[x] = possible[x + 1] + back[x];
        }
        fill.go(0, 0, &possible);
        fill.best
    }

    /// The joins of cell `c` with placed cells and with the empty cells
    /// filled before it.
    fn back(&self, c: usize) -> usize {
        let x = self
            .cells
            .iter()
            .position(|&e| e == c)
            .expect("an empty cell");
        self.neighbours(c)
            .filter(|&(o, _)| self.board[o].is_some() || self.cells[..x].contains(&o))
            .count()
    }

    /// The cells beside `c`, with the side of `c` that faces each.
    fn neighbours(&self, c: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        let (rows, cols) = (self.board.len() / self.p.cols(), self.p.cols());
        let (i, j) = (c / cols, c % cols);
        [
            (j + 1 < cols).then(|| (c + 1, RIGHT)),
            (i > 0).then(|| (c - cols, TOP)),
            (j > 0).then(|| (c - 1, LEFT)),
            (i + 1 < rows).then(|| (c + cols, BOTTOM)),
        ]
        .into_iter()
        .flatten()
    }

    fn go(&mut self, x: usize, gained: usize, possible: &[usize]) {
        self.nodes += 1;
        if self.nodes > self.cap || (self.nodes & 0xFFF == 0 && (self.stop)()) {
            self.nodes = self.cap + 1;
            return;
        }
        if let Some((best, _)) = &self.best
            && gained + possible[x] <= *best
        {
            return;
        }
        if x == self.cells.len() {
            self.best = Some((gained, self.board.clone()));
            return;
        }
        let c = self.cells[x];
        for &(k, r) in self.p.all(c) {
            // Of identical unused tiles, only the first.
            let same = self.p.same_before(k);
            if self.used[k as usize] || same.is_some_and(|s| !self.used[s as usize]) {
                continue;
            }
            let gain = self
                .neighbours(c)
                .filter(|&(o, side)| {
                    self.board[o].is_some_and(|(ok, or)| {
                        self.p.partner(self.p.edge(k, r, side))
                            == self.p.edge(ok, or, (side + 2) % 4)
                    })
                })
                .count();
            self.used[k as usize] = true;
            self.board[c] = Some((k, r));
            self.go(x + 1, gained + gain, possible);
            self.board[c] = None;
            self.used[k as usize] = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_order_visits_every_cell_once_with_its_left_and_top_placed_first() {
        for (rows, cols) in [(16, 16), (6, 6), (6, 12), (3, 3), (1, 4)] {
            let p = plan(rows, cols, 2 * rows * cols - rows - cols);
            let mut seen = vec![false; rows * cols];
            for &c in &p.order {
                assert!(!seen[c]);
                assert!(c % cols == 0 || seen[c - 1], "{rows}x{cols}: {c}");
                assert!(c < cols || seen[c - cols], "{rows}x{cols}: {c}");
                seen[c] = true;
            }
            assert!(seen.iter().all(|&s| s));
            assert!(p.allowed.windows(2).all(|w| w[0] <= w[1]));
        }
    }

    #[test]
    fn eternity_ii_breaks_ten_joins_at_most_and_only_in_its_last_block() {
        let p = plan(16, 16, 480);
        // The last block: rows 12-16; its first five columns row by row,
        // then column 6 from row 12 down.
        assert_eq!(p.order[176..181], [176, 177, 178, 179, 180]);
        assert_eq!(p.order[201..203], [11 * 16 + 5, 12 * 16 + 5]);
        assert_eq!(p.allowed[200], 0);
        // One slot at the top of each of the first five columns, five more
        // up to the board's last sixteenth.
        assert_eq!(p.allowed[201], 1);
        assert_eq!(p.allowed[205], 1);
        assert_eq!(p.allowed[206], 2);
        assert_eq!(p.allowed[221], 5);
        assert_eq!(p.allowed[239], 10);
        assert_eq!(p.allowed[255], 10);
        // The frame's own joins never break; a frame cell's join with the
        // inside may.
        assert!(!p.top_breaks[16 * 16 - 1]);
        assert!(!p.left_breaks[16 * 16 - 1]);
        assert!(p.top_breaks[15 * 16 + 5]);
    }

    #[test]
    fn eternity_ii_s_colours_are_a_frame_colour_and_two_inner_ones_sharing_pieces() {
        let puzzle = Puzzle::load(std::path::Path::new("puzzles/eternity2/eternity2.txt")).unwrap();
        let mut names: Vec<&str> = choose_colours(&puzzle)
            .iter()
            .map(|&m| puzzle.motifs()[m as usize].as_str())
            .collect();
        names.sort_unstable();
        assert_eq!(names, ["11", "16", "4"]);
        let colours = Colours::new(&puzzle);
        assert_eq!(colours.edges.iter().sum::<usize>(), 24 + 50 + 50);
        assert!(colours.ramp.windows(2).take(160).all(|w| w[0] <= w[1]));
        assert_eq!(colours.ramp[16], 0);
        assert!(colours.ramp[159] >= 115, "{}", colours.ramp[159]);
        assert_eq!(colours.ramp[161], 0);
        // Small boards go without.
        let clue = Puzzle::load(std::path::Path::new("puzzles/eternity2/clue1.txt")).unwrap();
        assert!(Colours::new(&clue).ramp.iter().all(|&r| r == 0));
    }

    /// The fill against every way of placing the unused tiles, on the seed
    /// with four cells emptied from several boards.
    #[test]
    fn the_fill_finds_the_most_joins_the_empty_cells_can_have() {
        let puzzle = Puzzle::load(std::path::Path::new(
            "puzzles/3x3-original/input/tile_dict.yaml",
        ))
        .unwrap();
        let p = Prepared::new(&puzzle);
        let stop = || false;
        let mut rng = Rng::new(7);
        for _ in 0..20 {
            // A random full board, then four random cells emptied.
            let mut tiles: Vec<u16> = (0..9).collect();
            for x in (1..9).rev() {
                tiles.swap(x, rng.below(x + 1));
            }
            let mut board: Vec<Option<(u16, u8)>> = tiles
                .iter()
                .map(|&k| Some((k, rng.below(4) as u8)))
                .collect();
            let mut cells: Vec<usize> = (0..9).collect();
            for x in (1..9).rev() {
                cells.swap(x, rng.below(x + 1));
            }
            cells.truncate(4);
            cells.sort_unstable();
            let free: Vec<u16> = cells.iter().map(|&c| board[c].unwrap().0).collect();
            for &c in &cells {
                board[c] = None;
            }
            let (got, filled) = Fill::best(&p, &board, cells.clone(), u64::MAX, &stop).unwrap();
            // Brute force: every order of the free tiles, every rotation.
            let joins = |b: &[Option<(u16, u8)>]| {
                let mut valid = 0;
                for c in 0..9 {
                    let (k, r) = b[c].unwrap();
                    if c % 3 < 2 {
                        let (k2, r2) = b[c + 1].unwrap();
                        valid +=
                            usize::from(p.partner(p.edge(k, r, RIGHT)) == p.edge(k2, r2, LEFT));
                    }
                    if c < 6 {
                        let (k2, r2) = b[c + 3].unwrap();
                        valid +=
                            usize::from(p.partner(p.edge(k, r, BOTTOM)) == p.edge(k2, r2, TOP));
                    }
                }
                valid
            };
            let mut best = 0;
            let mut order = free.clone();
            for perm in 0..24 {
                let mut left = free.clone();
                let mut x = perm;
                for (i, o) in order.iter_mut().enumerate() {
                    *o = left.remove(x % (4 - i));
                    x /= 4 - i;
                }
                for turns in 0..256usize {
                    let mut b = board.clone();
                    for (i, &c) in cells.iter().enumerate() {
                        b[c] = Some((order[i], ((turns >> (2 * i)) & 3) as u8));
                    }
                    best = best.max(joins(&b));
                }
            }
            let placed_only = {
                // Joins among the placed cells, which the fill does not count.
                let mut valid = 0;
                for c in 0..9 {
                    if board[c].is_none() {
                        continue;
                    }
                    let (k, r) = board[c].unwrap();
                    if c % 3 < 2
                        && let Some((k2, r2)) = board[c + 1]
                    {
                        valid +=
                            usize::from(p.partner(p.edge(k, r, RIGHT)) == p.edge(k2, r2, LEFT));
                    }
                    if c < 6
                        && let Some((k2, r2)) = board[c + 3]
                    {
                        valid +=
                            usize::from(p.partner(p.edge(k, r, BOTTOM)) == p.edge(k2, r2, TOP));
                    }
                }
                valid
            };
            assert_eq!(placed_only + got, best, "{cells:?}");
            assert_eq!(joins(&filled), best);
        }
    }
}

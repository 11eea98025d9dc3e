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
use super::colours::Colours;
use super::fill::{Cells, Fill};

/// Nodes of the first restart; restart k runs `luby(k)` times this.
const RESTART_NODES: u64 = 200_000_000;

/// A board is completed when it is this close to full.
const COMPLETE_WITHIN: usize = 12;

/// Every board this close to full, and at most one cell short of the
/// deepest, is completed, not only a deepest one.
const COMPLETE_ALWAYS: usize = 10;

/// Nodes one completion may spend.
const FILL_NODES: u64 = 2_000_000;

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
    board: Cells,
    /// The deepest this restart has gone (completions happen past it).
    deepest: usize,
    nodes: u64,
    limit: u64,
    joins: usize,
    done: bool,
    /// The board at `deepest`.
    deepest_board: Cells,
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
        self.shared.offer(breaks, || solution);
        if breaks == 0 {
            self.done = true;
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
}

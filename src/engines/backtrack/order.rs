//! Placement orders: the sequence in which the search fills the cells.

use std::fmt;

use serde::Serialize;

/// The order in which cells are filled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Order {
    /// Row-major: rows from the top, each from the left.
    Row,
    /// Rows from the bottom, each from the left: the Eternity II
    /// community's row scan from the bottom-left corner.
    RowUp,
    /// The border first (clockwise from the top-left corner), then the
    /// inside row by row: on framed boards, the frame pieces first.
    Frame,
    /// Centre first, then spiralling outwards (Brandt et al.; Sinai).
    Spiral,
    /// Greedy: next the cell with the most placed neighbours; ties go to the
    /// cell that gives most other cells two placed neighbours, then row-major
    /// (in the spirit of Saegesser's 1,2,5,4,3,6,7,8,9 on 3x3).
    Constrained,
}

impl Order {
    /// Every order, in the order the CLI lists them.
    pub const ALL: [Order; 5] = [
        Order::Row,
        Order::RowUp,
        Order::Frame,
        Order::Spiral,
        Order::Constrained,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Order::Row => "row",
            Order::RowUp => "row-up",
            Order::Frame => "frame",
            Order::Spiral => "spiral",
            Order::Constrained => "constrained",
        }
    }

    /// The cells (row-major indices) of a `rows`x`cols` board in placement
    /// order.
    pub fn cells(self, rows: usize, cols: usize) -> Vec<usize> {
        match self {
            Order::Row => (0..rows * cols).collect(),
            Order::RowUp => (0..rows)
                .rev()
                .flat_map(|i| (0..cols).map(move |j| i * cols + j))
                .collect(),
            Order::Frame => frame(rows, cols),
            Order::Spiral => spiral(rows, cols),
            Order::Constrained => constrained(rows, cols),
        }
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The border ring clockwise from the top-left corner, then the inside in
/// row order.
fn frame(rows: usize, cols: usize) -> Vec<usize> {
    let at = |i: usize, j: usize| i * cols + j;
    let mut out: Vec<usize> = (0..cols).map(|j| at(0, j)).collect();
    out.extend((1..rows).map(|i| at(i, cols - 1)));
    if rows > 1 {
        out.extend((0..cols - 1).rev().map(|j| at(rows - 1, j)));
    }
    if cols > 1 {
        out.extend((1..rows - 1).rev().map(|i| at(i, 0)));
    }
    out.extend((1..rows.saturating_sub(1)).flat_map(|i| (1..cols - 1).map(move |j| at(i, j))));
    out
}

fn spiral(rows: usize, cols: usize) -> Vec<usize> {
    let (r, q) = (rows as i64, cols as i64);
    let mut out = Vec::with_capacity(rows * cols);
    let (mut i, mut j) = ((r - 1) / 2, (q - 1) / 2);
    let dirs = [(0i64, 1i64), (1, 0), (0, -1), (-1, 0)];
    let inside = |i: i64, j: i64| i >= 0 && j >= 0 && i < r && j < q;
    out.push((i * q + j) as usize);
    let mut len = 1;
    let mut d = 0;
    while out.len() < rows * cols {
        for _ in 0..2 {
            for _ in 0..len {
                i += dirs[d].0;
                j += dirs[d].1;
                if inside(i, j) {
                    out.push((i * q + j) as usize);
                }
            }
            d = (d + 1) % 4;
        }
        len += 1;
    }
    out
}

pub(super) fn neighbours(
    rows: usize,
    cols: usize,
    c: usize,
) -> impl Iterator<Item = (usize, usize)> {
    // (direction from c, neighbour cell)
    let (i, j) = (c / cols, c % cols);
    [
        (j + 1 < cols).then(|| (0, c + 1)),
        (i > 0).then(|| (1, c - cols)),
        (j > 0).then(|| (2, c - 1)),
        (i + 1 < rows).then(|| (3, c + cols)),
    ]
    .into_iter()
    .flatten()
}

fn constrained(rows: usize, cols: usize) -> Vec<usize> {
    // cnt[c]: placed neighbours of c. The key of a free cell c is (its
    // placed neighbours, the free cells with at least two placed neighbours
    // once c is placed, then the lower index).
    let cells = rows * cols;
    let mut placed = vec![false; cells];
    let mut cnt = vec![0usize; cells];
    let mut out = Vec::with_capacity(cells);
    for _ in 0..cells {
        let base = (0..cells).filter(|&d| !placed[d] && cnt[d] >= 2).count();
        let best = (0..cells)
            .filter(|&c| !placed[c])
            .max_by_key(|&c| {
                let gained = neighbours(rows, cols, c)
                    .filter(|&(_, d)| !placed[d] && cnt[d] == 1)
                    .count();
                let twos = base - usize::from(cnt[c] >= 2) + gained;
                (cnt[c], twos, std::cmp::Reverse(c))
            })
            .expect("a free cell");
        placed[best] = true;
        for (_, d) in neighbours(rows, cols, best) {
            cnt[d] += 1;
        }
        out.push(best);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_visit_every_cell_once() {
        for n in 1..=8 {
            for order in Order::ALL {
                let mut cells = order.cells(n, n);
                assert_eq!(cells.len(), n * n);
                if order == Order::Spiral {
                    assert_eq!(cells[0], (n - 1) / 2 * n + (n - 1) / 2);
                }
                cells.sort();
                assert_eq!(cells, (0..n * n).collect::<Vec<_>>());
            }
        }
        assert_eq!(Order::Spiral.cells(3, 3), [4, 5, 8, 7, 6, 3, 0, 1, 2]);
        for (r, c) in [(2, 5), (6, 12), (3, 1), (1, 4), (1, 1), (4, 2)] {
            for order in Order::ALL {
                let mut cells = order.cells(r, c);
                cells.sort();
                assert_eq!(cells, (0..r * c).collect::<Vec<_>>(), "{order} {r}x{c}");
            }
        }
        assert_eq!(Order::RowUp.cells(2, 3), [3, 4, 5, 0, 1, 2]);
        assert_eq!(
            Order::Frame.cells(4, 4),
            [0, 1, 2, 3, 7, 11, 15, 14, 13, 12, 8, 4, 5, 6, 9, 10]
        );
        assert_eq!(Order::Frame.cells(2, 3), [0, 1, 2, 5, 4, 3]);
        // Saegesser's 1,2,5,4,3,6,7,8,9 is 1,2,4,5,3,6,8,7,9 here.
        assert_eq!(Order::Constrained.cells(3, 3), [0, 1, 3, 4, 2, 5, 7, 6, 8]);
    }

    /// The constrained order by its definition, recounting everything.
    fn constrained_by_definition(n: usize) -> Vec<usize> {
        let mut placed = vec![false; n * n];
        let mut out = Vec::new();
        let count =
            |placed: &[bool], c: usize| neighbours(n, n, c).filter(|&(_, b)| placed[b]).count();
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
                Order::Constrained.cells(n, n),
                constrained_by_definition(n),
                "n = {n}"
            );
        }
    }
}

//! The board under one turn, for the dynamic programme (dp.rs): the
//! orbits of its cells, and each edge as a condition between two orbit
//! representatives' sides.

use std::collections::BTreeSet;

use crate::puzzle::{BOTTOM, LEFT, Puzzle, RIGHT, TOP, base_side};

/// Orbits of cells under `turns` quarter turns: per cell its orbit
/// (index into the representatives) and how many turns take the
/// representative to it; per orbit its representative (first in row-major
/// order) and size, in the order the programme places them: row-major, or
/// with `ring` on a framed board the frame's ring first.
pub(super) fn orbits(
    puzzle: &Puzzle,
    turns: usize,
    ring: bool,
) -> (Vec<usize>, Vec<usize>, Vec<(usize, u32)>) {
    let shape = puzzle.shape();
    let cells = puzzle.rows() * puzzle.cols();
    let mut rep = vec![usize::MAX; cells];
    let mut times = vec![0usize; cells];
    let mut reps: Vec<(usize, u32)> = Vec::new();
    for c in 0..cells {
        if rep[c] != usize::MAX {
            continue;
        }
        let (mut x, mut t) = (c, 0);
        loop {
            rep[x] = reps.len();
            times[x] = t;
            t += 1;
            x = shape.turn_cell(turns, x);
            if x == c {
                break;
            }
        }
        reps.push((c, t as u32));
    }
    // The programme's steps follow the representatives: with `ring`, on
    // a framed board the frame first, around its ring, then the interior
    // row by row (docs/count.md, "Order on a framed board").
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    let key = |c: usize| match ring && puzzle.frame().is_some() {
        true => ring_first(rows, cols, c),
        false => c,
    };
    let mut order: Vec<usize> = (0..reps.len()).collect();
    order.sort_by_key(|&i| key(reps[i].0));
    let mut new_index = vec![0; reps.len()];
    for (new, &old) in order.iter().enumerate() {
        new_index[old] = new;
    }
    for r in &mut rep {
        *r = new_index[*r];
    }
    let reps = order.iter().map(|&i| reps[i]).collect();
    (rep, times, reps)
}

/// A cell's place when the frame comes first: the ring clockwise from the
/// top left corner, then the interior in row-major order.
fn ring_first(rows: usize, cols: usize, c: usize) -> usize {
    let (i, j) = (c / cols, c % cols);
    let ring = 2 * (rows + cols) - 4;
    if i == 0 {
        j
    } else if j == cols - 1 {
        cols - 1 + i
    } else if i == rows - 1 {
        cols - 1 + rows - 1 + (cols - 1 - j)
    } else if j == 0 {
        ring - i
    } else {
        ring + c
    }
}

/// A pair of sides that must fit: (orbit, side of its representative).
pub(super) type Condition = ((usize, usize), (usize, usize));

/// Every edge of the board as a condition between two representatives'
/// sides.
pub(super) fn conditions(
    puzzle: &Puzzle,
    turns: usize,
    rep: &[usize],
    times: &[usize],
) -> BTreeSet<Condition> {
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    let cells = rows * cols;
    //     // representatives' sides: cell x at `times[x]` turns from its
    // representative shows the representative's side (e - turns * t).
    let side = |x: usize, e: usize| (rep[x], base_side(e, ((turns * times[x]) % 4) as u8));
    let mut conditions = BTreeSet::new();
    for x in 0..cells {
        let mut pairs = Vec::new();
        if x % cols + 1 < cols {
            pairs.push((side(x, RIGHT), side(x + 1, LEFT)));
        }
        if x / cols + 1 < rows {
            pairs.push((side(x, BOTTOM), side(x + cols, TOP)));
        }
        for (a, b) in pairs {
            conditions.insert((a.min(b), a.max(b)));
        }
    }
    conditions
}

#[cfg(test)]
mod tests {
    use super::ring_first;

    #[test]
    fn the_ring_comes_first_clockwise_then_the_interior_row_by_row() {
        // 3 rows, 4 columns: cells 0..12 row-major; cells 5 and 6 inside.
        let mut cells: Vec<usize> = (0..12).collect();
        cells.sort_by_key(|&c| ring_first(3, 4, c));
        assert_eq!(cells, [0, 1, 2, 3, 7, 11, 10, 9, 8, 4, 5, 6]);
    }
}

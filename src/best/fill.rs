//! The completion of a partial board for `scramble best --method depth`:
//! its empty cells filled with the unused tiles to the most valid joins,
//! by branch and bound.

use crate::puzzle::{BOTTOM, LEFT, RIGHT, TOP};

use super::breaks::Prepared;

/// A board being filled: per cell its (tile index, rotation), if any.
pub(super) type Cells = Vec<Option<(u16, u8)>>;

/// The empty cells of a board filled with the unused tiles to the most
/// valid joins, by branch and bound within [`FILL_NODES`].
pub(super) struct Fill<'a> {
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
    pub(super) fn best(
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
        // The candidates with the most valid joins first, so the first
        // board is a greedy one and the bound bites early.
        let mut candidates: Vec<(usize, u16, u8)> = Vec::new();
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
            candidates.push((gain, k, r));
        }
        candidates.sort_by_key(|&(gain, _, _)| std::cmp::Reverse(gain));
        for (gain, k, r) in candidates {
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
    use crate::puzzle::Puzzle;
    use crate::rng::Rng;

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

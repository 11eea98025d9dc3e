//! Random solvable puzzles made by planting a solution, reproducible by seed.
//!
//! A random motif and half for each interior edge pair (the partner half on
//! the other side), random border edges, then the tiles shuffled, renumbered
//! and randomly rotated. The planted solution is returned with the puzzle.

mod family;

pub use crate::rng::Rng;
pub use family::{FamilyOptions, plant_family};

use std::path::PathBuf;

use crate::board::{Placement, Solution};
use crate::puzzle::{BOTTOM, Edge, Half, LEFT, Parts, Puzzle, RIGHT, TOP, Tile};

/// Options for a planted puzzle.
#[derive(Clone, Debug)]
pub struct PlantOptions {
    pub n: usize,
    pub motifs: usize,
    /// Allow the self-matching half `=` as well as `+`/`-`.
    pub self_matching: bool,
}

/// How many tiles have an identical twin (same edges up to rotation).
pub fn tiles_with_twins(p: &Puzzle) -> usize {
    crate::symmetry::identical_classes(p)
        .iter()
        .map(Vec::len)
        .sum()
}

/// Set the edges of cell `c` (board directions) and its neighbours' facing
/// edges to partners, so the board stays solved.
fn set_cell(board: &mut [[Edge; 4]], n: usize, c: usize, edges: [Edge; 4]) {
    board[c] = edges;
    let (i, j) = (c / n, c % n);
    let partner = |e: Edge| Edge {
        motif: e.motif,
        half: e.half.partner(),
    };
    if j + 1 < n {
        board[c + 1][LEFT] = partner(edges[RIGHT]);
    }
    if i > 0 {
        board[c - n][BOTTOM] = partner(edges[TOP]);
    }
    if j > 0 {
        board[c - 1][RIGHT] = partner(edges[LEFT]);
    }
    if i + 1 < n {
        board[c + n][TOP] = partner(edges[BOTTOM]);
    }
}

/// A planted puzzle in which at least `duplicates` tiles are identical (up to
/// rotation) to another tile, the planted solution still holding; `None` if
/// `attempts` random tries could not make one.
pub fn plant_with_duplicates(
    rng: &mut Rng,
    o: &PlantOptions,
    duplicates: usize,
    attempts: usize,
) -> Option<(Puzzle, Solution)> {
    let n = o.n;
    if duplicates == 0 {
        return Some(plant(rng, o));
    }
    if duplicates > n * n {
        return None;
    }
    for _ in 0..attempts {
        let mut board = random_board(rng, o);
        // Copy a random cell's edges, turned, onto other random cells.
        for _ in 0..duplicates {
            let a = rng.below(n * n);
            let b = rng.below(n * n);
            let (ai, aj, bi, bj) = (a / n, a % n, b / n, b % n);
            if a == b || ai.abs_diff(bi) + aj.abs_diff(bj) == 1 {
                continue;
            }
            let k = rng.below(4);
            let src = board[a];
            set_cell(&mut board, n, b, std::array::from_fn(|d| src[(d + k) % 4]));
        }
        let (p, s) = shuffle(rng, o, &board);
        if tiles_with_twins(&p) >= duplicates {
            return Some((p, s));
        }
    }
    None
}

fn random_edge(rng: &mut Rng, o: &PlantOptions) -> Edge {
    let motif = rng.below(o.motifs.max(1)) as u16;
    let half = match rng.below(if o.self_matching { 3 } else { 2 }) {
        0 => Half::Plus,
        1 => Half::Minus,
        _ => Half::Same,
    };
    Edge { motif, half }
}

/// The puzzles `scramble generate --size n --motifs m --count C --seed S`
/// writes (without `--duplicates` or `--unique`), with the names of its
/// files (without `.yaml`): puzzle k comes from the k-th number of the seed's
/// generator.
pub fn planted_set(o: &PlantOptions, count: usize, seed: u64) -> Vec<(String, Puzzle)> {
    let mut master = Rng::new(seed);
    (1..=count)
        .map(|k| {
            let (mut p, _) = plant(&mut Rng::new(master.next_u64()), o);
            let name = format!("{n}x{n}-m{m}-s{seed}-{k:04}", n = o.n, m = o.motifs);
            p.set_name(name.clone());
            (name, p)
        })
        .collect()
}

/// A random puzzle with a planted solution (returned in terms of the
/// puzzle's final ids and rotations).
pub fn plant(rng: &mut Rng, o: &PlantOptions) -> (Puzzle, Solution) {
    let board = random_board(rng, o);
    shuffle(rng, o, &board)
}

/// Edges of a random solved board, cell by cell, in board directions.
fn random_board(rng: &mut Rng, o: &PlantOptions) -> Vec<[Edge; 4]> {
    let n = o.n;
    let mut board: Vec<[Edge; 4]> = (0..n * n)
        .map(|_| std::array::from_fn(|_| random_edge(rng, o)))
        .collect();
    for i in 0..n {
        for j in 0..n {
            if j + 1 < n {
                let e = board[i * n + j][RIGHT];
                board[i * n + j + 1][LEFT] = Edge {
                    motif: e.motif,
                    half: e.half.partner(),
                };
            }
            if i + 1 < n {
                let e = board[i * n + j][BOTTOM];
                board[(i + 1) * n + j][TOP] = Edge {
                    motif: e.motif,
                    half: e.half.partner(),
                };
            }
        }
    }
    board
}

/// Turn a solved board into a puzzle: cell k gets a shuffled tile id, each
/// tile stored turned back by a random rotation.
fn shuffle(rng: &mut Rng, o: &PlantOptions, board: &[[Edge; 4]]) -> (Puzzle, Solution) {
    let n = o.n;
    // Shuffle: cell k gets tile id ids[k]; store each tile turned back by a
    // random rotation r, so placing it with rotation r restores the board.
    let (tiles, cells) = scatter(rng, board, true);
    let puzzle = Puzzle::new(Parts {
        name: "planted".into(),
        title: None,
        source: PathBuf::from("<generated>"),
        rows: n,
        cols: n,
        tiles,
        motifs: (0..o.motifs.max(1))
            .map(|m| format!("m{}", m + 1))
            .collect(),
        frame: None,
        hints: Vec::new(),
        turning: Default::default(),
    })
    .expect("a planted board is a valid puzzle");
    let solution = Solution::shaped(cells, puzzle.shape());
    (puzzle, solution)
}

/// A solved board (edges per cell, board directions) as tiles: cell k gets
/// the k-th of the ids 1..=cells shuffled, each tile stored turned back by
/// a random rotation r (0 when `turn` is false), so placing it with
/// rotation r restores the board. Returns the tiles sorted by id and the
/// planted placements.
fn scatter(rng: &mut Rng, board: &[[Edge; 4]], turn: bool) -> (Vec<Tile>, Vec<Placement>) {
    let mut ids: Vec<i64> = (1..=board.len() as i64).collect();
    rng.shuffle(&mut ids);
    let mut tiles = Vec::with_capacity(board.len());
    let mut cells = Vec::with_capacity(board.len());
    for (k, edges) in board.iter().enumerate() {
        let r = if turn { rng.below(4) as u8 } else { 0 };
        // Placed with rotation r, direction e shows base edge (e - r) mod 4,
        // so base edge b must be the board edge in direction (b + r) mod 4.
        let base: [Edge; 4] = std::array::from_fn(|b| edges[(b + r as usize) % 4]);
        tiles.push(Tile {
            id: ids[k],
            edges: base,
        });
        cells.push(Placement {
            tile: ids[k],
            rotation: r,
        });
    }
    tiles.sort_by_key(|t| t.id);
    (tiles, cells)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn planted_solution_verifies_and_is_reproducible() {
        for seed in 0..50 {
            let o = PlantOptions {
                n: 1 + seed as usize % 5,
                motifs: 3,
                self_matching: seed % 2 == 0,
            };
            let (p, s) = plant(&mut Rng::new(seed), &o);
            assert_eq!(s.verify(&p), Ok(()), "seed {seed}");
            let (p2, s2) = plant(&mut Rng::new(seed), &o);
            assert_eq!(p.tiles(), p2.tiles());
            assert_eq!(s, s2);
        }
    }

    #[test]
    fn duplicates_are_made_and_the_solution_holds() {
        for seed in 0..20 {
            let o = PlantOptions {
                n: 4,
                motifs: 6,
                self_matching: false,
            };
            let (p, s) = plant_with_duplicates(&mut Rng::new(seed), &o, 3, 1000).unwrap();
            assert!(tiles_with_twins(&p) >= 3, "seed {seed}");
            assert_eq!(s.verify(&p), Ok(()));
        }
    }

    #[test]
    fn yaml_round_trips() {
        let o = PlantOptions {
            n: 3,
            motifs: 4,
            self_matching: true,
        };
        let (p, s) = plant(&mut Rng::new(7), &o);
        let q =
            Puzzle::parse(&crate::puzzle::to_yaml(&p), Path::new("g.yaml"), "g".into()).unwrap();
        assert_eq!((q.rows(), q.cols()), (3, 3));
        assert_eq!(s.verify(&q), Ok(()));
    }
}

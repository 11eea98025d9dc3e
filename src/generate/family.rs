//! Planted puzzles of the wider edge-matching family, in the Eternity II
//! community's style: rectangular boards, a grey frame (motif `0`) with its
//! own frame colours along the border, inner colours inside, every colour
//! self-matching (`=`); or Tetravex (tiles that do not turn); optionally one
//! piece of the planted solution fixed as a hint.

use std::path::PathBuf;

use super::Rng;
use crate::board::Solution;
use crate::puzzle::{BOTTOM, Edge, Half, Hint, LEFT, Parts, Puzzle, RIGHT, TOP, Turning};

/// What to plant.
#[derive(Clone, Debug)]
pub struct FamilyOptions {
    pub rows: usize,
    pub cols: usize,
    /// Colours of the joins along the frame; 0: no frame.
    pub frame_colours: usize,
    /// Colours of the other joins (at least 1).
    pub inner_colours: usize,
    pub turning: Turning,
    /// Fix one piece of the planted solution (a random cell).
    pub hint: bool,
}

/// A random puzzle of the family with a planted solution (in the puzzle's
/// final ids and rotations). Motifs are named by colour number: `0` the
/// frame, `1..` the frame colours, then the inner colours.
pub fn plant_family(rng: &mut Rng, o: &FamilyOptions) -> (Puzzle, Solution) {
    let (rows, cols) = (o.rows.max(1), o.cols.max(1));
    let framed = o.frame_colours > 0 && rows >= 2 && cols >= 2;
    let inner = o.inner_colours.max(1);
    let colour = |m: usize| Edge {
        motif: m as u16,
        half: Half::Same,
    };
    let frame_base = 1;
    let inner_base = if framed { 1 + o.frame_colours } else { 1 };
    let mut board = vec![[colour(inner_base); 4]; rows * cols];
    let on_border = |c: usize| {
        let (i, j) = (c / cols, c % cols);
        i == 0 || j == 0 || i + 1 == rows || j + 1 == cols
    };
    for c in 0..rows * cols {
        let (i, j) = (c / cols, c % cols);
        let pick = |both_border: bool, rng: &mut Rng| {
            if framed && both_border {
                colour(frame_base + rng.below(o.frame_colours))
            } else {
                colour(inner_base + rng.below(inner))
            }
        };
        if j + 1 < cols {
            // A join along the frame: both cells on the border, in the
            // border row or column.
            let along = (i == 0 || i + 1 == rows) && on_border(c) && on_border(c + 1);
            let e = pick(along, rng);
            board[c][RIGHT] = e;
            board[c + 1][LEFT] = e;
        }
        if i + 1 < rows {
            let along = (j == 0 || j + 1 == cols) && on_border(c) && on_border(c + cols);
            let e = pick(along, rng);
            board[c][BOTTOM] = e;
            board[c + cols][TOP] = e;
        }
        // The outside: grey under a frame, any inner colour without one.
        let outside = [j + 1 == cols, i == 0, j == 0, i + 1 == rows];
        for (d, out) in outside.into_iter().enumerate() {
            if out {
                board[c][d] = if framed {
                    colour(0)
                } else {
                    colour(inner_base + rng.below(inner))
                };
            }
        }
    }
    let n = rows * cols;
    let (tiles, cells) = super::scatter(rng, &board, o.turning == Turning::Quarter);
    let hints = if o.hint {
        let c = rng.below(n);
        vec![Hint {
            cell: c,
            tile: cells[c].tile,
            rotation: cells[c].rotation,
        }]
    } else {
        Vec::new()
    };
    let motifs = (0..inner_base + inner).map(|m| m.to_string()).collect();
    let puzzle = Puzzle::new(Parts {
        name: "planted".into(),
        title: None,
        source: PathBuf::from("<generated>"),
        rows,
        cols,
        tiles,
        motifs,
        frame: framed.then_some(0),
        hints,
        turning: o.turning,
    })
    .expect("a planted board is a valid puzzle");
    let solution = Solution::shaped(cells, puzzle.shape());
    (puzzle, solution)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::to_yaml;
    use std::path::Path;

    #[test]
    fn planted_family_puzzles_verify_and_read_back() {
        for seed in 0..40u64 {
            let o = FamilyOptions {
                rows: 2 + seed as usize % 4,
                cols: 2 + seed as usize % 3,
                frame_colours: (seed % 3) as usize,
                inner_colours: 1 + (seed % 4) as usize,
                turning: if seed % 5 == 0 {
                    Turning::None
                } else {
                    Turning::Quarter
                },
                hint: seed % 4 == 1,
            };
            let (p, s) = plant_family(&mut Rng::new(seed), &o);
            assert_eq!(s.verify(&p), Ok(()), "seed {seed} {o:?}");
            let text = to_yaml(&p);
            let q = Puzzle::parse(&text, Path::new("g.yaml"), "g".into())
                .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
            // The same text again (motif indices may differ, names do not).
            assert_eq!(to_yaml(&q), text);
            assert_eq!(
                (
                    q.rows(),
                    q.cols(),
                    q.frame().map(|f| q.motifs()[f as usize].clone()),
                    q.hints(),
                    q.turning()
                ),
                (
                    p.rows(),
                    p.cols(),
                    p.frame().map(|f| p.motifs()[f as usize].clone()),
                    p.hints(),
                    p.turning()
                )
            );
            assert_eq!(
                Solution::shaped(s.cells().to_vec(), q.shape()).verify(&q),
                Ok(())
            );
        }
    }
}

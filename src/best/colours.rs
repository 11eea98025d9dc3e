//! The colour ramp of `scramble best --method depth`: a few colours whose
//! edges must be placed at a minimum rate early in the fill order, so they
//! are not left for its last block (the record solvers' colour heuristic),
//! chosen from the puzzle.

use crate::puzzle::Puzzle;

/// The colours whose edges must be placed at a minimum rate early, so they
/// are not left for the last block: one frame colour and two inner ones,
/// those that share the most pieces (a piece with two of them placed early
/// uses both up). On boards of [`COLOURED_FROM`] cells or more.
pub(super) struct Colours {
    /// Per tile index: its edges of the chosen colours.
    pub(super) edges: Vec<usize>,
    /// Per depth: the edges of the chosen colours placed by then, at least.
    pub(super) ramp: Vec<usize>,
}

/// The smallest board the colour ramp applies to: Eternity II's size,
/// where it was measured; on smaller boards it kept the search shallow
/// (docs/best.md).
const COLOURED_FROM: usize = 256;

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
    pub(super) fn new(puzzle: &Puzzle) -> Colours {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}

//! Symmetry: canonical forms of solutions, picture equivalence, and the
//! symmetry-breaking formulations added to the CP model.
//!
//! Turning a solved board a quarter turn gives another solution, so every
//! answer comes in a class of four labelled solutions. The canonical form of a
//! solution is the member of its class whose row-major sequence of
//! `(tile, rotation)` is lexicographically smallest.
//!
//! Each breaking formulation is one file here implementing [`Formulation`];
//! adding one means adding a file and a line in [`ALL`]. docs/symmetry.md
//! states each in math and proves what it keeps.

mod anchor;
mod center;
mod corner;
mod lex;
mod picture_lex;
mod tiles;

use std::collections::BTreeMap;
use std::fmt;

use thiserror::Error;

use crate::board::{Placement, Solution, turn_cell, turned_at};
use crate::model::Model;
use crate::puzzle::{Edge, Puzzle, Tile, base_side};

/// The canonical representative of a solution's class under board turns.
///
/// The turns are compared cell by cell as they are read, without building
/// them (most comparisons end at the first cell); only the winner is built.
pub fn canonical(s: &Solution) -> Solution {
    let (n, cells) = (s.n(), s.cells());
    let turned = |k: usize| (0..n * n).map(move |x| turned_at(cells, n, k, x));
    let best = (1..4).fold(
        0,
        |best, k| {
            if turned(k).lt(turned(best)) { k } else { best }
        },
    );
    Solution::new(turned(best).collect())
}

/// What makes two solutions "the same" (`--equivalence rotation|picture`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, clap::ValueEnum)]
pub enum Equivalence {
    /// Labelled solutions up to whole-board turns.
    Rotation,
    /// Finished pictures up to whole-board turns: identical tiles and the
    /// turns of rotation-symmetric tiles are not told apart.
    Picture,
}

impl Equivalence {
    pub fn name(self) -> &'static str {
        match self {
            Equivalence::Rotation => "rotation",
            Equivalence::Picture => "picture",
        }
    }
}

/// The picture a board shows: per cell (row-major), the edges it shows in the
/// directions right, top, left, bottom.
pub fn picture(puzzle: &Puzzle, s: &Solution) -> Vec<[Edge; 4]> {
    s.cells()
        .iter()
        .map(|p| {
            let t = puzzle.tile(p.tile).expect("a verified solution");
            std::array::from_fn(|d| t.edge(p.rotation, d))
        })
        .collect()
}

/// A picture turned a quarter turn counterclockwise: the cell at (i, j) goes
/// to (n+1-j, i) and what it showed in direction d it now shows in d+1.
pub(crate) fn turn_picture<T: Copy>(n: usize, p: &[[T; 4]]) -> Vec<[T; 4]> {
    let mut out = p.to_vec();
    for (c, e) in p.iter().enumerate() {
        out[turn_cell(n, c)] = std::array::from_fn(|d| e[base_side(d, 1)]);
    }
    out
}

/// The smallest labelled board that shows exactly this picture: row by row,
/// the smallest unused tile id that can show the cell's edges, in its
/// smallest such rotation. (Tiles that can show the same edges are identical
/// up to rotation, so they are interchangeable and greedy is optimal.)
fn realize(puzzle: &Puzzle, pic: &[[Edge; 4]]) -> Option<Solution> {
    let mut used = vec![false; puzzle.len()];
    let mut cells = Vec::with_capacity(pic.len());
    for shown in pic {
        let (k, r) = puzzle.tiles.iter().enumerate().find_map(|(k, t)| {
            if used[k] {
                return None;
            }
            (0..4u8)
                .find(|&r| (0..4).all(|d| t.edge(r, d) == shown[d]))
                .map(|r| (k, r))
        })?;
        used[k] = true;
        cells.push(Placement {
            tile: puzzle.tiles[k].id,
            rotation: r,
        });
    }
    Some(Solution::new(cells))
}

/// Every labelled board that shows the same picture as `s` (itself
/// included), in increasing order: the identical tiles permuted among their
/// cells, and each rotation-symmetric tile in each rotation that shows the
/// same edges. There are [`labellings_per_picture`] of them.
#[cfg(test)]
pub(crate) fn same_picture(puzzle: &Puzzle, s: &Solution) -> Vec<Solution> {
    let mut out = Vec::new();
    each_same_picture(puzzle, s, &mut |b| {
        out.push(b);
        true
    });
    out
}

/// [`same_picture`] one board at a time, in the same order, until `f`
/// returns false (so a picture with astronomically many labellings can
/// give its first few).
pub(crate) fn each_same_picture(
    puzzle: &Puzzle,
    s: &Solution,
    f: &mut dyn FnMut(Solution) -> bool,
) {
    let pic = picture(puzzle, s);
    // Per cell, every (tile index, rotation) that shows its edges.
    let options: Vec<Vec<(usize, u8)>> = pic
        .iter()
        .map(|shown| {
            puzzle
                .tiles
                .iter()
                .enumerate()
                .flat_map(|(k, t)| (0..4u8).map(move |r| (k, t, r)))
                .filter(|(_, t, r)| (0..4).all(|d| t.edge(*r, d) == shown[d]))
                .map(|(k, _, r)| (k, r))
                .collect()
        })
        .collect();
    /// Returns false once `f` asked to stop.
    fn go(
        puzzle: &Puzzle,
        options: &[Vec<(usize, u8)>],
        used: &mut Vec<bool>,
        cells: &mut Vec<Placement>,
        f: &mut dyn FnMut(Solution) -> bool,
    ) -> bool {
        let c = cells.len();
        if c == options.len() {
            return f(Solution::new(cells.clone()));
        }
        for &(k, r) in &options[c] {
            if !used[k] {
                used[k] = true;
                cells.push(Placement {
                    tile: puzzle.tiles[k].id,
                    rotation: r,
                });
                let more = go(puzzle, options, used, cells, f);
                cells.pop();
                used[k] = false;
                if !more {
                    return false;
                }
            }
        }
        true
    }
    go(
        puzzle,
        &options,
        &mut vec![false; puzzle.len()],
        &mut Vec::with_capacity(pic.len()),
        f,
    );
}

/// How many labelled boards show each picture of this puzzle: the product of
/// k! over the classes of k identical tiles and of 4 / period over the
/// tiles; `None` past `u128`.
pub fn labellings_per_picture(puzzle: &Puzzle) -> Option<u128> {
    let perms = identical_classes(puzzle)
        .iter()
        .flat_map(|c| 2..=c.len() as u128)
        .try_fold(1u128, |a, k| a.checked_mul(k))?;
    puzzle
        .tiles
        .iter()
        .try_fold(perms, |a, t| a.checked_mul(4 / period(t) as u128))
}

/// The canonical form of a solution's picture class: over the four turns of
/// its picture, the smallest labelled board showing that turn. Two solutions
/// show the same picture up to board turns exactly when these are equal.
pub(crate) fn picture_canonical(puzzle: &Puzzle, s: &Solution) -> Solution {
    let n = puzzle.n;
    let mut pic = picture(puzzle, s);
    let mut best: Option<Solution> = None;
    for _ in 0..4 {
        let r = realize(puzzle, &pic).expect("a picture of this puzzle");
        if best.as_ref().is_none_or(|b| &r < b) {
            best = Some(r);
        }
        pic = turn_picture(n, &pic);
    }
    best.expect("four turns")
}

/// Whether picture classes are rotation classes on this puzzle: no two tiles
/// are identical up to rotation and no tile shows the same edges after less
/// than a full turn. Then one labelled board shows each picture, and
/// [`picture_canonical`] is [`canonical`].
pub fn pictures_are_labels(puzzle: &Puzzle) -> bool {
    identical_classes(puzzle).is_empty() && puzzle.tiles.iter().all(|t| period(t) == 4)
}

/// The canonical form under an equivalence.
pub fn canonical_under(puzzle: &Puzzle, e: Equivalence, s: &Solution) -> Solution {
    match e {
        Equivalence::Rotation => canonical(s),
        Equivalence::Picture => picture_canonical(puzzle, s),
    }
}

/// The smallest number of quarter turns after which a tile shows the same
/// edges again: 1 (all four edges alike), 2, or 4.
pub(crate) fn period(t: &Tile) -> u8 {
    [1u8, 2]
        .into_iter()
        .find(|&p| (0..4).all(|e| t.edges[e] == t.edges[(e + p as usize) % 4]))
        .unwrap_or(4)
}

/// Tile kinds: the tiles grouped by their edges up to rotation, each group
/// sorted by id, ordered by their smallest id (singletons included).
pub(crate) fn tile_kinds(puzzle: &Puzzle) -> Vec<Vec<i64>> {
    let mut by_key: BTreeMap<[Edge; 4], Vec<i64>> = BTreeMap::new();
    for t in &puzzle.tiles {
        let key = (0..4u8)
            .map(|r| std::array::from_fn(|e| t.edge(r, e)))
            .min()
            .expect("four rotations");
        by_key.entry(key).or_default().push(t.id);
    }
    let mut out: Vec<Vec<i64>> = by_key.into_values().collect();
    out.sort();
    out
}

/// Classes of identical tiles (same edges up to rotation) with two or more
/// members, each sorted by id, ordered by their smallest id.
pub(crate) fn identical_classes(puzzle: &Puzzle) -> Vec<Vec<i64>> {
    let mut out = tile_kinds(puzzle);
    out.retain(|c| c.len() > 1);
    out
}

/// For each cell of the board turned `k` quarter turns, the cell of the
/// original board its tile comes from.
pub(crate) fn turn_sources(n: usize, k: usize) -> Vec<usize> {
    let mut src: Vec<usize> = (0..n * n).collect();
    for _ in 0..k {
        let mut next = src.clone();
        for (c, &s) in src.iter().enumerate() {
            next[turn_cell(n, c)] = s;
        }
        src = next;
    }
    src
}

/// Which symmetry a formulation breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Whole-board turns.
    Board,
    /// Identical and rotation-symmetric tiles.
    Tiles,
}

/// A symmetry-breaking formulation: constraints added to the CP model.
pub trait Formulation: Sync {
    /// The name used on the command line.
    fn name(&self) -> &'static str;
    /// Which symmetry it breaks.
    fn level(&self) -> Level;
    /// One line for `--help` and reports.
    fn summary(&self) -> &'static str;
    /// Why it cannot be used on this puzzle, if it cannot.
    fn precondition(&self, puzzle: &Puzzle) -> Result<(), String>;
    /// Add its constraints to the model.
    fn add(&self, puzzle: &Puzzle, model: &mut Model);
    /// Whether a (verified) solution satisfies it: the same condition as the
    /// constraints, stated directly (the native solver filters with it).
    fn accepts(&self, puzzle: &Puzzle, s: &Solution) -> bool;
    /// Whether tile `tile` may stand in 0-based cell `cell` with `rotation`,
    /// as far as this formulation can tell from that cell alone (pruning for
    /// the native solver; never stricter than `accepts`).
    fn allows(&self, _puzzle: &Puzzle, _cell: usize, _tile: i64, _rotation: u8) -> bool {
        true
    }
}

/// Every formulation, in the order reports list them.
pub static ALL: &[&dyn Formulation] = &[
    &center::Center,
    &corner::Corner,
    &lex::Lex,
    &anchor::Anchor,
    &picture_lex::PictureLex,
    &tiles::Tiles,
];

/// Errors choosing or applying formulations.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum SymmetryError {
    #[error(
        "unknown symmetry formulation {name:?}: expected none or a comma-separated list of {known}"
    )]
    Unknown { name: String, known: String },
    #[error("symmetry formulation {name} is listed twice")]
    Repeated { name: String },
    #[error("{puzzle}: symmetry formulation {name} does not apply: {reason}")]
    Precondition {
        puzzle: String,
        name: String,
        reason: String,
    },
}

/// A combination of formulations, e.g. `lex,tiles`; empty is `none`.
#[derive(Clone, Default)]
pub struct Symmetry {
    parts: Vec<&'static dyn Formulation>,
}

impl fmt::Debug for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Symmetry({})", self.name())
    }
}

impl PartialEq for Symmetry {
    fn eq(&self, other: &Self) -> bool {
        self.name() == other.name()
    }
}

impl std::str::FromStr for Symmetry {
    type Err = SymmetryError;
    fn from_str(s: &str) -> Result<Self, SymmetryError> {
        if s.trim() == "none" {
            return Ok(Symmetry::none());
        }
        let mut parts: Vec<&'static dyn Formulation> = Vec::new();
        for name in s.split(',').map(str::trim) {
            let f =
                ALL.iter()
                    .find(|f| f.name() == name)
                    .ok_or_else(|| SymmetryError::Unknown {
                        name: name.to_string(),
                        known: ALL.iter().map(|f| f.name()).collect::<Vec<_>>().join(", "),
                    })?;
            if parts.iter().any(|p| p.name() == name) {
                return Err(SymmetryError::Repeated {
                    name: name.to_string(),
                });
            }
            parts.push(*f);
        }
        Ok(Symmetry { parts })
    }
}

impl Symmetry {
    pub fn none() -> Symmetry {
        Symmetry::default()
    }

    pub fn is_none(&self) -> bool {
        self.parts.is_empty()
    }

    pub fn parts(&self) -> &[&'static dyn Formulation] {
        &self.parts
    }

    /// The name as on the command line: `none`, `lex`, `lex,tiles`, ...
    pub fn name(&self) -> String {
        if self.parts.is_empty() {
            "none".into()
        } else {
            self.parts
                .iter()
                .map(|p| p.name())
                .collect::<Vec<_>>()
                .join(",")
        }
    }

    /// Check every part's precondition on the puzzle.
    pub fn check(&self, puzzle: &Puzzle) -> Result<(), SymmetryError> {
        for p in &self.parts {
            p.precondition(puzzle)
                .map_err(|reason| SymmetryError::Precondition {
                    puzzle: puzzle.source.display().to_string(),
                    name: p.name().to_string(),
                    reason,
                })?;
        }
        Ok(())
    }

    /// Whether a solution satisfies every part.
    pub(crate) fn accepts(&self, puzzle: &Puzzle, s: &Solution) -> bool {
        self.parts.iter().all(|p| p.accepts(puzzle, s))
    }

    /// Whether every part allows this placement in this cell.
    pub(crate) fn allows(&self, puzzle: &Puzzle, cell: usize, tile: i64, rotation: u8) -> bool {
        self.parts
            .iter()
            .all(|p| p.allows(puzzle, cell, tile, rotation))
    }

    /// Add every part's constraints to the model.
    pub fn add(&self, puzzle: &Puzzle, model: &mut Model) {
        for p in &self.parts {
            p.add(puzzle, model);
        }
    }

    /// The equivalences under which this combination is documented (and
    /// proved, docs/symmetry.md) to keep exactly one solution per class.
    pub(crate) fn exact_for(&self) -> Vec<Equivalence> {
        let name = self.name();
        let board_exact = ["center", "corner", "lex", "anchor"];
        let mut out = Vec::new();
        if board_exact.contains(&name.as_str()) {
            out.push(Equivalence::Rotation);
        }
        if EXACT_FOR_PICTURES.contains(&name.as_str()) {
            out.push(Equivalence::Picture);
        }
        out
    }
}

/// The formulation the solvers' board-turn reduction uses: `center` on odd
/// boards, `anchor` on even ones. Both keep exactly one of the four turns of
/// every solution (docs/symmetry.md), so the solutions kept, each with its
/// four turns, are all the solutions. Both only take values out of domains,
/// which CP-SAT's presolve propagates at once: `anchor` solves warning-puzzle
/// 2x to 3x faster than `corner` (an order between four tile variables) in
/// every encoding (docs/model.md).
pub(crate) fn turn_representative(puzzle: &Puzzle) -> Symmetry {
    let f: &'static dyn Formulation = if puzzle.n % 2 == 1 {
        &center::Center
    } else {
        &anchor::Anchor
    };
    Symmetry { parts: vec![f] }
}

/// The `tiles` formulation alone: exactly one labelled board per picture
/// (before board turns); [`same_picture`] gives back the others.
pub(crate) fn picture_representative() -> Symmetry {
    Symmetry {
        parts: vec![&tiles::Tiles],
    }
}

/// Combinations documented exact for picture equivalence.
pub(crate) const EXACT_FOR_PICTURES: &[&str] = &["picture-lex,tiles"];

/// The combinations `scramble symmetry-report` runs, in order.
pub(crate) fn report_combinations() -> Vec<Symmetry> {
    [
        "none",
        "center",
        "corner",
        "lex",
        "anchor",
        "picture-lex",
        "tiles",
        "center,tiles",
        "corner,tiles",
        "lex,tiles",
        "anchor,tiles",
        "picture-lex,tiles",
    ]
    .iter()
    .map(|s| s.parse().expect("known names"))
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantOptions, Rng, plant};
    use proptest::prelude::*;

    fn arb_board() -> impl Strategy<Value = Solution> {
        (1usize..=5)
            .prop_flat_map(|n| {
                (
                    Just(n),
                    Just((1..=(n * n) as i64).collect::<Vec<_>>()).prop_shuffle(),
                    proptest::collection::vec(0u8..4, n * n),
                )
            })
            .prop_map(|(_, tiles, rots)| {
                Solution::new(
                    tiles
                        .into_iter()
                        .zip(rots)
                        .map(|(tile, rotation)| Placement { tile, rotation })
                        .collect(),
                )
            })
    }

    proptest! {
        #[test]
        fn canonical_is_invariant_under_turns(s in arb_board()) {
            let c = canonical(&s);
            for t in s.turns() {
                prop_assert_eq!(canonical(&t), c.clone());
            }
        }

        #[test]
        fn canonical_is_idempotent_and_a_member(s in arb_board()) {
            let c = canonical(&s);
            prop_assert_eq!(canonical(&c), c.clone());
            prop_assert!(s.turns().contains(&c));
            prop_assert!(s.turns().iter().all(|t| &c <= t));
        }

        /// The picture canonical form is invariant under board turns, shows
        /// the same picture class, and is idempotent.
        #[test]
        fn picture_canonical_is_invariant(seed in any::<u64>(), n in 1usize..=4, motifs in 1usize..=3) {
            let (p, s) = plant(&mut Rng::new(seed), &PlantOptions { n, motifs, self_matching: true });
            let c = picture_canonical(&p, &s);
            prop_assert_eq!(c.verify(&p), Ok(()));
            for t in s.turns() {
                prop_assert_eq!(picture_canonical(&p, &t), c.clone());
            }
            prop_assert_eq!(picture_canonical(&p, &c), c.clone());
            if pictures_are_labels(&p) {
                prop_assert_eq!(canonical(&s), c.clone());
            }
            let pics: Vec<_> = (0..4).scan(picture(&p, &s), |pic, _| {
                let cur = pic.clone();
                *pic = turn_picture(n, pic);
                Some(cur)
            }).collect();
            prop_assert!(pics.contains(&picture(&p, &c)));
        }
    }

    #[test]
    fn turning_a_picture_matches_turning_the_board() {
        let (p, s) = plant(
            &mut Rng::new(3),
            &PlantOptions {
                n: 4,
                motifs: 5,
                self_matching: true,
            },
        );
        assert_eq!(turn_picture(4, &picture(&p, &s)), picture(&p, &s.turn()));
    }

    #[test]
    fn periods_and_identical_tiles() {
        let text = "1: [[a, '+'], [a, '+'], [a, '+'], [a, '+']]\n\
                    2: [[a, '+'], [b, '+'], [a, '+'], [b, '+']]\n\
                    3: [[a, '+'], [b, '+'], [c, '+'], [d, '+']]\n\
                    4: [[b, '+'], [c, '+'], [d, '+'], [a, '+']]\n";
        let p = Puzzle::parse(text, std::path::Path::new("t.yaml"), "t".into()).unwrap();
        let periods: Vec<u8> = p.tiles.iter().map(period).collect();
        assert_eq!(periods, vec![1, 2, 4, 4]);
        assert_eq!(identical_classes(&p), vec![vec![3, 4]]);
        // 2! for tiles 3 and 4, 4/1 for tile 1, 4/2 for tile 2.
        assert_eq!(labellings_per_picture(&p), Some(16));
    }

    proptest! {
        /// The labelled boards showing a solution's picture: exactly
        /// `labellings_per_picture` distinct solutions, each showing the same
        /// picture, `s` among them; and `tiles` keeps exactly one of them.
        #[test]
        fn same_picture_lists_every_labelling(
            seed in any::<u64>(),
            n in 1usize..=3,
            motifs in 1usize..=3,
            duplicates in 0usize..=4,
        ) {
            let o = PlantOptions { n, motifs, self_matching: false };
            let Some((p, s)) = crate::generate::plant_with_duplicates(
                &mut Rng::new(seed), &o, duplicates.min(n * n), 100,
            ) else {
                return Ok(());
            };
            let all = same_picture(&p, &s);
            prop_assert_eq!(Some(all.len() as u128), labellings_per_picture(&p));
            prop_assert!(all.contains(&s));
            prop_assert!(all.windows(2).all(|w| w[0] < w[1]));
            for t in &all {
                prop_assert_eq!(t.verify(&p), Ok(()));
                prop_assert_eq!(picture(&p, t), picture(&p, &s));
            }
            let kept = all.iter().filter(|t| tiles::Tiles.accepts(&p, t)).count();
            prop_assert_eq!(kept, 1);
        }
    }

    #[test]
    fn parses_combinations() {
        assert!("none".parse::<Symmetry>().unwrap().is_none());
        assert_eq!("lex,tiles".parse::<Symmetry>().unwrap().name(), "lex,tiles");
        assert!(matches!(
            "lex,lex".parse::<Symmetry>(),
            Err(SymmetryError::Repeated { .. })
        ));
        assert!(matches!(
            "spin".parse::<Symmetry>(),
            Err(SymmetryError::Unknown { .. })
        ));
    }
}

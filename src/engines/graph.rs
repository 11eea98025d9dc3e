//! The recording graph of Mason & Zhang ("A graph theoretical approach to
//! solving Scramble Squares puzzles"), and a third solver for 2x2 puzzles
//! built on their Theorem 2.1 (docs/recording-graph.md).
//!
//! G(P) has one vertex per picture (a motif and a half) and, for every
//! piece, four arcs of that piece's colour: from each picture on the piece
//! to the picture ninety degrees clockwise from it (a directed 4-cycle per
//! piece). On a 2x2 board each piece meets the centre with one corner: the
//! arc from the picture on one of the two sides at that corner to the
//! other. Theorem 2.1: for a repetition-free 2x2 puzzle (no picture twice on
//! one piece; pictures in `+` and `-` halves: with a self-matching `=`
//! picture, its own complement, the conditions reject real solutions, and
//! tests/it/graph.rs keeps such a counter-example), four arcs are the centre corners of a solution if and only
//! if they are pseudo-connected (linked through shared motifs, halves
//! ignored) and (1) have four different colours, (2) every vertex's
//! in-degree equals the out-degree of its complement, (3) every directed
//! path X -> A -> Y has Y the complement of X.

use std::time::Instant;

use crate::board::{Placement, Solution};
use crate::cancel::Cancel;
use crate::puzzle::{Edge, Half, Puzzle};
use crate::solve::kind::{Build, Built, EngineKind, NoArgs, not_searched_by, sum};
use crate::solve::{
    RunStatus, Searched, SolutionCallback, SolveError, SolveOptions, Solver, SolverRun,
    SolverStats, Stands, StopReason,
};

/// One arc of the recording graph: piece `piece` (tile index, in id
/// order), from the picture on its side `side` (at rotation 0) to the
/// picture on the side clockwise from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arc {
    pub piece: usize,
    pub side: usize,
    pub from: Edge,
    pub to: Edge,
}

/// The side clockwise from `side` (sides are right, top, left, bottom,
/// counterclockwise): right -> bottom -> left -> top -> right.
fn clockwise(side: usize) -> usize {
    (side + 3) % 4
}

/// The recording graph: its vertices (every picture on some piece) in the
/// paper's layout, and its arcs, four per piece.
#[derive(Clone, Debug)]
pub struct RecordingGraph {
    /// Rows of vertices: the `-` halves, then the `+` halves (then any
    /// self-matching `=` halves), each row by decreasing motif name.
    pub rows: Vec<Vec<Edge>>,
    pub arcs: Vec<Arc>,
}

impl RecordingGraph {
    pub fn of(puzzle: &Puzzle) -> RecordingGraph {
        let mut arcs = Vec::with_capacity(4 * puzzle.len());
        for (piece, t) in puzzle.tiles().iter().enumerate() {
            for side in 0..4 {
                arcs.push(Arc {
                    piece,
                    side,
                    from: t.edges[side],
                    to: t.edges[clockwise(side)],
                });
            }
        }
        let mut rows = Vec::new();
        for half in [Half::Minus, Half::Plus, Half::Same] {
            let mut row: Vec<Edge> = puzzle
                .tiles()
                .iter()
                .flat_map(|t| t.edges)
                .filter(|e| e.half == half)
                .collect();
            // Decreasing by motif name (then index, for equal names).
            let key = |e: &Edge| (&puzzle.motifs()[e.motif as usize], e.motif);
            row.sort_by(|a, b| key(b).cmp(&key(a)));
            row.dedup();
            if !row.is_empty() || half != Half::Same {
                rows.push(row);
            }
        }
        RecordingGraph { rows, arcs }
    }

    /// The arc of `piece` leaving its side `side`.
    pub fn arc(&self, piece: usize, side: usize) -> Arc {
        self.arcs[piece * 4 + side]
    }
}

/// The picture an adjacent edge must show.
fn complement(e: Edge) -> Edge {
    Edge {
        motif: e.motif,
        half: e.half.partner(),
    }
}

/// Whether four arcs satisfy the conditions of Theorem 2.1.
pub fn satisfies_theorem(arcs: &[Arc]) -> bool {
    // (1) four different colours.
    let mut pieces: Vec<usize> = arcs.iter().map(|a| a.piece).collect();
    pieces.sort_unstable();
    pieces.dedup();
    if pieces.len() != arcs.len() {
        return false;
    }
    // (2) in-degree of v = out-degree of its complement.
    let vertices: Vec<Edge> = arcs.iter().flat_map(|a| [a.from, a.to]).collect();
    for &v in &vertices {
        let indeg = arcs.iter().filter(|a| a.to == v).count();
        let outdeg_c = arcs.iter().filter(|a| a.from == complement(v)).count();
        if indeg != outdeg_c {
            return false;
        }
    }
    // (3) every path X -> A -> Y has Y = complement(X).
    for a in arcs {
        for b in arcs {
            if !std::ptr::eq(a, b) && a.to == b.from && b.to != complement(a.from) {
                return false;
            }
        }
    }
    pseudo_connected(arcs)
}

/// Whether the arcs form one component when pictures of the same motif
/// count as one vertex.
fn pseudo_connected(arcs: &[Arc]) -> bool {
    let mut motifs: Vec<u16> = arcs
        .iter()
        .flat_map(|a| [a.from.motif, a.to.motif])
        .collect();
    motifs.sort_unstable();
    motifs.dedup();
    let mut reached = vec![motifs[0]];
    loop {
        let before = reached.len();
        for a in arcs {
            let (x, y) = (a.from.motif, a.to.motif);
            if reached.contains(&x) && !reached.contains(&y) {
                reached.push(y);
            } else if reached.contains(&y) && !reached.contains(&x) {
                reached.push(x);
            }
        }
        if reached.len() == before {
            return reached.len() == motifs.len();
        }
    }
}

/// Why the graph solver does not cover a puzzle, if it does not.
pub fn unsupported(puzzle: &Puzzle) -> Option<String> {
    if puzzle.rows() != 2 || puzzle.cols() != 2 {
        return Some(format!(
            "the graph solver covers 2x2 puzzles only (Mason & Zhang's Theorem 2.1); this board is {}x{}",
            puzzle.rows(),
            puzzle.cols()
        ));
    }
    if puzzle.has_rules() {
        return Some(
            "the graph solver covers plain edge matching only (no frame, fixed piece or no-turn rule)"
                .into(),
        );
    }
    for t in puzzle.tiles() {
        if let Some(e) = t.edges.iter().find(|e| e.half == Half::Same) {
            return Some(format!(
                "the graph solver needs pictures in + and - halves; tile {} shows {}=, a self-matching picture (its complement is itself, and the theorem's conditions then reject real solutions: docs/recording-graph.md)",
                t.id,
                puzzle.motifs()[e.motif as usize]
            ));
        }
        for a in 0..4 {
            for b in a + 1..4 {
                if t.edges[a] == t.edges[b] {
                    let e = t.edges[a];
                    return Some(format!(
                        "the graph solver needs a repetition-free puzzle (no picture twice on one piece); tile {} shows {}{} twice",
                        t.id,
                        puzzle.motifs()[e.motif as usize],
                        e.half.symbol()
                    ));
                }
            }
        }
    }
    None
}

/// The side of each 2x2 cell (row-major) whose corner with the side
/// clockwise from it meets the centre: top-left right/bottom, top-right
/// bottom/left, bottom-left top/right, bottom-right left/top.
const CENTRE_FROM: [usize; 4] = [0, 3, 1, 2];

/// Every four-arc subgraph the theorem admits, as one side per piece.
pub fn admitted(g: &RecordingGraph) -> Vec<[usize; 4]> {
    let mut out = Vec::new();
    for code in 0..256usize {
        let sides: [usize; 4] = std::array::from_fn(|p| code >> (2 * p) & 3);
        let arcs: Vec<Arc> = (0..4).map(|p| g.arc(p, sides[p])).collect();
        if satisfies_theorem(&arcs) {
            out.push(sides);
        }
    }
    out
}

/// The boards whose centre corners are the arcs leaving `sides` (one side
/// per piece): each piece in each cell, turned so that its arc lies at
/// that cell's centre corner, kept where every edge matches.
pub fn realize(puzzle: &Puzzle, sides: &[usize; 4]) -> Vec<Solution> {
    let mut out = Vec::new();
    let mut cells = [0usize, 1, 2, 3];
    // Every assignment of pieces to cells: the 24 permutations, in
    // lexicographic order.
    loop {
        let placements: Vec<Placement> = (0..4)
            .map(|c| {
                let piece = cells[c];
                let r = (CENTRE_FROM[c] + 4 - sides[piece]) % 4;
                Placement {
                    tile: puzzle.tiles()[piece].id,
                    rotation: r as u8,
                }
            })
            .collect();
        let s = Solution::new(placements);
        if s.verify(puzzle).is_ok() {
            out.push(s);
        }
        if !next_permutation(&mut cells) {
            return out;
        }
    }
}

fn next_permutation(v: &mut [usize]) -> bool {
    let Some(i) = (0..v.len() - 1).rev().find(|&i| v[i] < v[i + 1]) else {
        return false;
    };
    let j = (i + 1..v.len())
        .rev()
        .find(|&j| v[j] > v[i])
        .expect("a larger element");
    v.swap(i, j);
    v[i + 1..].reverse();
    true
}

/// The side of each piece (indexed like the tiles) whose arc lies at the
/// centre of the 2x2 board `s`: the subgraph a solution uses.
pub fn centre_sides(puzzle: &Puzzle, s: &Solution) -> Option<[usize; 4]> {
    let mut sides = [usize::MAX; 4];
    for (c, p) in s.cells().iter().enumerate().take(4) {
        let piece = puzzle.index_of(p.tile)?;
        sides[piece] = (CENTRE_FROM[c] + 4 - p.rotation as usize % 4) % 4;
    }
    sides.iter().all(|&x| x < 4).then_some(sides)
}

/// What the graph solver names what it searched.
const SEARCHED: &str = "recording-graph";

/// The graph solver, for `crate::registry`.
pub struct Kind;

/// The graph solver's counters: the subgraphs it tried and the boards
/// they gave.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Stats {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wall_time_s: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subproblems: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
}

impl EngineKind for Kind {
    const NAME: &'static str = "graph";
    const ABOUT: &'static str =
        "Mason & Zhang's recording graph (repetition-free 2x2 puzzles only)";
    const REPORTS_SYMMETRY: bool = false;
    type Args = NoArgs;
    type Stats = Stats;

    fn given(_: &NoArgs) -> Option<&'static str> {
        None
    }

    fn build(_: &NoArgs, _: &Build) -> Result<Vec<Built>, SolveError> {
        Ok(vec![Box::new(GraphSolver)])
    }

    fn covers(puzzle: &Puzzle) -> Option<String> {
        unsupported(puzzle)
    }

    fn searched(text: &str) -> Result<Searched, String> {
        match text == SEARCHED {
            true => Ok(Searched::new(SEARCHED)),
            false => Err(not_searched_by(Self::NAME, text)),
        }
    }

    fn merge(all: Vec<Stats>) -> Stats {
        Stats {
            wall_time_s: sum(all.iter().map(|s| s.wall_time_s)),
            subproblems: sum(all.iter().map(|s| s.subproblems)),
            nodes: sum(all.iter().map(|s| s.nodes)),
        }
    }
}

/// The graph solver: the subgraphs Theorem 2.1 admits, each turned into its
/// boards.
#[derive(Clone, Copy, Debug, Default)]
pub struct GraphSolver;

impl Solver for GraphSolver {
    fn engine(&self) -> crate::solve::Engine {
        crate::solve::Engine::named(Kind::NAME)
    }
    fn searched(&self) -> Searched {
        Searched::new(SEARCHED)
    }
    fn exact_reports(&self) -> bool {
        // A board's centre corners give back its subgraph and its
        // assignment: no board comes from two.
        true
    }
    fn enumerate(
        &self,
        puzzle: &Puzzle,
        options: &SolveOptions,
        cancel: &Cancel,
        callback: &mut dyn SolutionCallback,
    ) -> Result<SolverRun, SolveError> {
        if options.units.is_some() {
            // Its 256 subgraphs are not prefixes of a search: no fixed work
            // units to skip or share.
            return Err(SolveError::Unsupported(
                "the graph solver has no work units to share (shards, checkpoints)".into(),
            ));
        }
        if let Some(why) = unsupported(puzzle) {
            return Err(SolveError::Unsupported(why));
        }
        let start = Instant::now();
        // The run's one stop (Ctrl-C and the time limit) is looked at
        // before each phase and each subgraph.
        let g = RecordingGraph::of(puzzle);
        if let Err(why) = cancel.check() {
            return Ok(stopped(why.into(), start));
        }
        let subgraphs = admitted(&g);
        let mut boards = 0u64;
        for sides in &subgraphs {
            if let Err(why) = cancel.check() {
                return Ok(stopped(why.into(), start));
            }
            for s in realize(puzzle, sides) {
                if options.symmetry.accepts(puzzle, &s) {
                    boards += 1;
                    callback.on_solution(s.cells(), Stands::Board);
                    if callback.enough() {
                        return Ok(stopped(StopReason::Limit, start));
                    }
                }
            }
        }
        Ok(SolverRun {
            answered: None,
            status: RunStatus::Complete,
            stats: SolverStats::of(&Stats {
                wall_time_s: Some(start.elapsed().as_secs_f64()),
                subproblems: Some(subgraphs.len() as u64),
                nodes: Some(boards),
            }),
        })
    }
}

fn stopped(reason: StopReason, start: Instant) -> SolverRun {
    SolverRun {
        answered: None,
        status: RunStatus::Stopped(reason),
        stats: SolverStats::of(&Stats {
            wall_time_s: Some(start.elapsed().as_secs_f64()),
            ..Stats::default()
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn four_arcs_per_piece_clockwise() {
        let p = Puzzle::load(Path::new("puzzles/legespiel/quasthoff-example.yaml")).unwrap();
        let g = RecordingGraph::of(&p);
        assert_eq!(g.arcs.len(), 16);
        // Right -> bottom -> left -> top -> right.
        let t = &p.tiles()[0];
        assert_eq!(g.arc(0, 0).to, t.edges[3]);
        assert_eq!(g.arc(0, 3).to, t.edges[2]);
        assert_eq!(g.arc(0, 1).to, t.edges[0]);
        assert!(
            g.rows[0]
                .iter()
                .all(|e| e.half == crate::puzzle::Half::Minus)
        );
    }

    #[test]
    fn a_planted_puzzle_through_the_theorem() {
        // The first repetition-free planted 2x2: its solutions are exactly
        // the boards of the admitted subgraphs, each subgraph its own.
        let mut rng = crate::generate::Rng::new(3);
        let o = crate::generate::PlantOptions {
            n: 2,
            motifs: 4,
            self_matching: false,
        };
        let (p, planted) = std::iter::repeat_with(|| crate::generate::plant(&mut rng, &o))
            .find(|(p, _)| unsupported(p).is_none())
            .unwrap();
        let r = crate::solve::run(&GraphSolver, &p, &SolveOptions::default()).unwrap();
        assert!(r.raw.contains(&planted));
        let bt = crate::solve::run(
            &crate::engines::backtrack::Backtrack::default(),
            &p,
            &SolveOptions::default(),
        )
        .unwrap();
        assert_eq!(r.raw, bt.raw);
        let g = RecordingGraph::of(&p);
        let mut used: Vec<[usize; 4]> = bt
            .raw
            .iter()
            .map(|s| centre_sides(&p, s).unwrap())
            .collect();
        used.sort();
        used.dedup();
        let mut admitted = admitted(&g);
        admitted.sort();
        assert_eq!(admitted, used);
    }

    #[test]
    fn a_time_limit_stops_the_graph_solver() {
        // A deadline already past: stopped by it, not by a run to the end.
        let mut rng = crate::generate::Rng::new(3);
        let o = crate::generate::PlantOptions {
            n: 2,
            motifs: 4,
            self_matching: false,
        };
        let (p, _) = std::iter::repeat_with(|| crate::generate::plant(&mut rng, &o))
            .find(|(p, _)| unsupported(p).is_none())
            .unwrap();
        let options = SolveOptions {
            time_limit: Some(std::time::Duration::ZERO),
            ..SolveOptions::default()
        };
        let r = crate::solve::run(&GraphSolver, &p, &options).unwrap();
        assert_eq!(
            r.outcome,
            crate::solve::Outcome::Incomplete(StopReason::TimeLimit)
        );
        assert!(r.raw.is_empty());
    }

    #[test]
    fn other_boards_and_repetitions_are_refused() {
        let seed = Puzzle::load(Path::new("puzzles/3x3-original")).unwrap();
        assert!(unsupported(&seed).unwrap().contains("this board is 3x3"));
        let rep = Puzzle::parse(
            "1: [[a, '+'], [a, '+'], [b, '-'], [c, '+']]\n2: [[a, '-'], [b, '+'], [c, '-'], [d, '+']]\n3: [[a, '+'], [b, '-'], [c, '+'], [d, '-']]\n4: [[b, '+'], [c, '-'], [d, '+'], [a, '-']]\n",
            Path::new("r.yaml"),
            "r".into(),
        )
        .unwrap();
        assert!(unsupported(&rep).unwrap().contains("tile 1 shows a+ twice"));
    }
}

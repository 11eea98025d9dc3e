//! The puzzle as clauses: one placement variable per (cell, piece,
//! rotation) a cell may hold, each cell holding exactly one, each piece
//! placed as often as the puzzle has it, and the joins matched by one of
//! two encodings (docs/sat.md): support clauses between the placements of
//! neighbouring cells, or colour variables on every inner join.

use std::collections::HashMap;

use crate::cancel::Cancel;
use crate::puzzle::{BOTTOM, Edge, LEFT, Puzzle, RIGHT, TOP};
use crate::solve::SolveError;
use crate::symmetry::{Clauses, Symmetry, distinct_rotation, tile_kinds};

use super::{Amo, Encoding, Matching};

/// The most literals a CNF may hold (about 1 GB of clauses): past it the
/// build is refused before it fills memory.
const MAX_LITERALS: usize = 250_000_000;

/// One placement a cell may hold: its variable, the piece and the
/// rotation of the piece's representative tile.
#[derive(Clone, Copy, Debug)]
pub(super) struct Choice {
    pub(super) var: i32,
    pub(super) piece: usize,
    pub(super) rotation: u8,
}

/// What is placed: a tile, or (searching pictures) a kind of identical
/// tiles, placed as often as it has members.
#[derive(Clone, Debug)]
pub(super) struct Piece {
    /// Tile indices, the first the representative whose rotations the
    /// placement variables name.
    pub(super) members: Vec<usize>,
}

/// A CNF over DIMACS variables 1..=vars, clauses flat and 0-terminated.
#[derive(Clone, Debug, Default)]
pub(crate) struct Cnf {
    pub(super) vars: i32,
    pub(super) literals: Vec<i32>,
    pub(super) clauses: usize,
    /// Per cell (row-major), the placements it may hold.
    pub(super) cells: Vec<Vec<Choice>>,
    pub(super) pieces: Vec<Piece>,
    /// The colour variables: (first variable, join, label) in order.
    pub(super) colours: Vec<(i32, String, Edge)>,
    /// The most variables the CNF may have (none: no bound).
    pub(super) max_vars: Option<i32>,
}

impl Cnf {
    fn var(&mut self) -> i32 {
        self.vars += 1;
        self.vars
    }

    fn clause(&mut self, lits: &[i32]) -> Result<(), SolveError> {
        if let Some(most) = self.max_vars.filter(|&most| self.vars > most) {
            return Err(SolveError::TooLarge(format!(
                "the clauses would have more than the limit of {most} variables (CaDiCaL \
                 grows its tables for them in steps no stop interrupts)"
            )));
        }
        if self.literals.len() + lits.len() > MAX_LITERALS {
            return Err(SolveError::TooLarge(format!(
                "the clauses pass {MAX_LITERALS} literals"
            )));
        }
        self.literals.extend_from_slice(lits);
        self.literals.push(0);
        self.clauses += 1;
        Ok(())
    }

    /// The clauses, each without its 0.
    pub(super) fn each_clause(&self) -> impl Iterator<Item = &[i32]> {
        self.literals.split(|&l| l == 0).take(self.clauses)
    }

    /// At most one of `lits`.
    fn at_most_one(&mut self, lits: &[i32], amo: Amo) -> Result<(), SolveError> {
        if amo == Amo::Pairwise || lits.len() <= 4 {
            for (a, &x) in lits.iter().enumerate() {
                for &y in &lits[a + 1..] {
                    self.clause(&[-x, -y])?;
                }
            }
            return Ok(());
        }
        self.at_most(lits, 1)
    }

    /// At most `k` of `lits`: Sinz's sequential counter, `s[i][j]` = at
    /// least j+1 of the first i+1 literals hold.
    pub(super) fn at_most(&mut self, lits: &[i32], k: usize) -> Result<(), SolveError> {
        let n = lits.len();
        if n <= k {
            return Ok(());
        }
        if k == 0 {
            for &x in lits {
                self.clause(&[-x])?;
            }
            return Ok(());
        }
        let mut prev: Vec<i32> = Vec::new();
        for (i, &x) in lits[..n - 1].iter().enumerate() {
            let s: Vec<i32> = (0..k).map(|_| self.var()).collect();
            self.clause(&[-x, s[0]])?;
            if i == 0 {
                for &sj in &s[1..] {
                    self.clause(&[-sj])?;
                }
            } else {
                for j in 0..k {
                    self.clause(&[-prev[j], s[j]])?;
                    if j > 0 {
                        self.clause(&[-x, -prev[j - 1], s[j]])?;
                    }
                }
                self.clause(&[-x, -prev[k - 1]])?;
            }
            prev = s;
        }
        self.clause(&[-lits[n - 1], -prev[k - 1]])
    }
}

/// The pieces: every tile, or (searching pictures) every kind.
fn pieces(puzzle: &Puzzle, kinds: bool) -> Vec<Piece> {
    if !kinds {
        return (0..puzzle.len())
            .map(|k| Piece { members: vec![k] })
            .collect();
    }
    tile_kinds(puzzle)
        .into_iter()
        .map(|ids| Piece {
            members: ids
                .iter()
                .map(|&id| puzzle.index_of(id).expect("a tile of the puzzle"))
                .collect(),
        })
        .collect()
}

/// Build the CNF of `puzzle`: `kinds` places identical tiles as kinds in
/// their distinct rotations (one model per picture); `symmetry`'s per-cell
/// rule removes placements and the rest of it is written as clauses.
pub(crate) fn build(
    puzzle: &Puzzle,
    encoding: Encoding,
    symmetry: &Symmetry,
    kinds: bool,
    max_vars: Option<i32>,
    cancel: &Cancel,
) -> Result<Cnf, SolveError> {
    let mut cnf = Cnf {
        pieces: pieces(puzzle, kinds),
        max_vars,
        ..Cnf::default()
    };
    let mut by_piece: Vec<Vec<i32>> = vec![Vec::new(); cnf.pieces.len()];
    for c in 0..puzzle.cells() {
        let mut choices = Vec::new();
        for (p, piece) in cnf.pieces.iter().enumerate() {
            let rep = piece.members[0];
            let tile = &puzzle.tiles()[rep];
            for r in puzzle.rotations() {
                let shown = !kinds || distinct_rotation(puzzle, tile, r);
                if shown && puzzle.allows(c, rep, r) && symmetry.allows(puzzle, c, tile.id, r) {
                    choices.push(Choice {
                        var: 0,
                        piece: p,
                        rotation: r,
                    });
                }
            }
        }
        for ch in &mut choices {
            cnf.vars += 1;
            ch.var = cnf.vars;
            by_piece[ch.piece].push(ch.var);
        }
        cnf.cells.push(choices);
    }
    stop_here(cancel)?;
    for c in 0..cnf.cells.len() {
        stop_here(cancel)?;
        let lits: Vec<i32> = cnf.cells[c].iter().map(|ch| ch.var).collect();
        cnf.clause(&lits)?;
        cnf.at_most_one(&lits, encoding.amo())?;
    }
    for (p, lits) in by_piece.iter().enumerate() {
        stop_here(cancel)?;
        let m = cnf.pieces[p].members.len();
        if m == 1 {
            cnf.clause(lits)?;
            cnf.at_most_one(lits, encoding.amo())?;
        } else {
            cnf.at_most(lits, m)?;
        }
    }
    stop_here(cancel)?;
    for (c, d, out, into) in joins(puzzle) {
        match encoding.matching() {
            Matching::Support => support(&mut cnf, puzzle, (c, out), (d, into))?,
            Matching::Colour => colour(&mut cnf, puzzle, (c, out), (d, into), encoding.amo())?,
        }
        stop_here(cancel)?;
    }
    if !symmetry.is_none() {
        let mut sink = Sink::new(&mut cnf, puzzle);
        symmetry.clauses(puzzle, &mut sink);
        sink.finish()?;
    }
    Ok(cnf)
}

/// The CNF as the symmetry formulations write to it: placements by tile
/// id, "cell holds tile" variables made when first asked for, and the
/// first clause past the size limit kept as the error.
struct Sink<'a> {
    cnf: &'a mut Cnf,
    puzzle: &'a Puzzle,
    /// (cell, tile id, rotation) -> its placement variable; made when
    /// first asked for (formulations whose rule is per cell ask nothing,
    /// and on a 32x32 board the map alone took seconds).
    placed: Option<HashMap<(usize, i64, u8), i32>>,
    holds: HashMap<(usize, i64), Option<i32>>,
    failed: Option<SolveError>,
}

impl<'a> Sink<'a> {
    fn new(cnf: &'a mut Cnf, puzzle: &'a Puzzle) -> Sink<'a> {
        Sink {
            cnf,
            puzzle,
            placed: None,
            holds: HashMap::new(),
            failed: None,
        }
    }

    /// Every placement's variable. Symmetry breaking places tiles, never
    /// kinds: each piece is one tile.
    fn placements(cnf: &Cnf, puzzle: &Puzzle) -> HashMap<(usize, i64, u8), i32> {
        let mut placed = HashMap::new();
        for (c, choices) in cnf.cells.iter().enumerate() {
            for ch in choices {
                if let [k] = cnf.pieces[ch.piece].members[..] {
                    placed.insert((c, puzzle.tiles()[k].id, ch.rotation), ch.var);
                }
            }
        }
        placed
    }

    fn finish(self) -> Result<(), SolveError> {
        self.failed.map_or(Ok(()), Err)
    }
}

impl Clauses for Sink<'_> {
    fn placed(&mut self, cell: usize, tile: i64, rotation: u8) -> Option<i32> {
        let (cnf, puzzle) = (&*self.cnf, self.puzzle);
        self.placed
            .get_or_insert_with(|| Sink::placements(cnf, puzzle))
            .get(&(cell, tile, rotation))
            .copied()
    }

    fn held(&mut self) -> &mut HashMap<(usize, i64), Option<i32>> {
        &mut self.holds
    }

    fn var(&mut self) -> i32 {
        self.cnf.var()
    }

    fn clause(&mut self, lits: &[i32]) {
        if self.failed.is_none()
            && let Err(e) = self.cnf.clause(lits)
        {
            self.failed = Some(e);
        }
    }
}

/// A build stopped by the run's time limit or Ctrl-C.
fn stop_here(cancel: &Cancel) -> Result<(), SolveError> {
    Ok(cancel.check().map_err(crate::model::BuildError::from)?)
}

/// Every inner join: (cell, neighbour, the cell's side, the neighbour's).
fn joins(puzzle: &Puzzle) -> Vec<(usize, usize, usize, usize)> {
    let cols = puzzle.cols();
    let mut out = Vec::new();
    for c in 0..puzzle.cells() {
        if c % cols + 1 < cols {
            out.push((c, c + 1, RIGHT, LEFT));
        }
        if c + cols < puzzle.cells() {
            out.push((c, c + cols, BOTTOM, TOP));
        }
    }
    out
}

/// The edge a placement shows on side `d`.
fn shown(puzzle: &Puzzle, cnf: &Cnf, ch: &Choice, d: usize) -> Edge {
    puzzle.tiles()[cnf.pieces[ch.piece].members[0]].edge(ch.rotation, d)
}

/// Support clauses, both ways: a placement implies one of the
/// neighbour's placements whose edge fits it.
fn support(
    cnf: &mut Cnf,
    puzzle: &Puzzle,
    (c, out): (usize, usize),
    (d, into): (usize, usize),
) -> Result<(), SolveError> {
    for (a, side, b, other) in [(c, out, d, into), (d, into, c, out)] {
        let mut fitting: HashMap<Edge, Vec<i32>> = HashMap::new();
        for ch in &cnf.cells[b] {
            let e = shown(puzzle, cnf, ch, other);
            fitting.entry(e).or_default().push(ch.var);
        }
        let mut clause = Vec::new();
        for k in 0..cnf.cells[a].len() {
            let ch = cnf.cells[a][k];
            let e = shown(puzzle, cnf, &ch, side);
            let want = Edge {
                motif: e.motif,
                half: e.half.partner(),
            };
            clause.clear();
            clause.push(-ch.var);
            clause.extend(fitting.get(&want).into_iter().flatten());
            cnf.clause(&clause)?;
        }
    }
    Ok(())
}

/// Colour variables on the join: each placement implies the label its
/// edge gives the join (as the first cell shows it), a label implies a
/// placement showing it on each side, at most one label holds; a label
/// only one side can show rules its placements out.
fn colour(
    cnf: &mut Cnf,
    puzzle: &Puzzle,
    (c, out): (usize, usize),
    (d, into): (usize, usize),
    amo: Amo,
) -> Result<(), SolveError> {
    let mut first: HashMap<Edge, Vec<i32>> = HashMap::new();
    for ch in &cnf.cells[c] {
        first
            .entry(shown(puzzle, cnf, ch, out))
            .or_default()
            .push(ch.var);
    }
    let mut second: HashMap<Edge, Vec<i32>> = HashMap::new();
    for ch in &cnf.cells[d] {
        let e = shown(puzzle, cnf, ch, into);
        let label = Edge {
            motif: e.motif,
            half: e.half.partner(),
        };
        second.entry(label).or_default().push(ch.var);
    }
    let mut labels: Vec<Edge> = first.keys().chain(second.keys()).copied().collect();
    labels.sort();
    labels.dedup();
    let join = format!("{}-{}", cell_name(puzzle, c), cell_name(puzzle, d));
    let mut ys = Vec::new();
    for label in labels {
        let (a, b) = (first.get(&label), second.get(&label));
        if a.is_none() || b.is_none() {
            for &x in a.into_iter().chain(b).flatten() {
                cnf.clause(&[-x])?;
            }
            continue;
        }
        let y = cnf.var();
        cnf.colours.push((y, join.clone(), label));
        for &x in a.into_iter().chain(b).flatten() {
            cnf.clause(&[-x, y])?;
        }
        // And back: a colour needs a placement on each side showing it.
        for side in [a, b].into_iter().flatten() {
            let mut clause = vec![-y];
            clause.extend_from_slice(side);
            cnf.clause(&clause)?;
        }
        ys.push(y);
    }
    cnf.at_most_one(&ys, amo)
}

/// `(i,j)`, 1-based.
fn cell_name(puzzle: &Puzzle, c: usize) -> String {
    format!("({},{})", c / puzzle.cols() + 1, c % puzzle.cols() + 1)
}

/// The CNF as DIMACS text, with a comment header naming the placement
/// and colour variables (the rest are the at-most encodings' counters and
/// the symmetry formulations' auxiliaries).
pub(crate) fn dimacs(
    puzzle: &Puzzle,
    cnf: &Cnf,
    encoding: Encoding,
    symmetry: &Symmetry,
    stands: crate::solve::Stands,
) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "c scramble {} CNF of {} ({}x{}), encoding {}",
        env!("CARGO_PKG_VERSION"),
        puzzle.name(),
        puzzle.rows(),
        puzzle.cols(),
        encoding.name()
    );
    if !symmetry.is_none() {
        let _ = writeln!(s, "c symmetry breaking {symmetry} (docs/symmetry.md)");
    }
    s.push_str(match stands {
        crate::solve::Stands::Board => "c each model is one labelled solution\n",
        crate::solve::Stands::Turns => {
            "c each model is one board turn of a class of solutions (the symmetry breaking \
             above: no --symmetry asked for); its turns are the others\n"
        }
        crate::solve::Stands::PictureClass if symmetry.is_none() => {
            "c identical pieces share one variable per cell and rotation (a kind) and show only \
             their distinct rotations: each model is one picture (board turns included)\n"
        }
        crate::solve::Stands::PictureClass => {
            "c identical pieces share one variable per cell and rotation (a kind) and show only \
             their distinct rotations, and the anchor above keeps one board turn of each picture: \
             each model is one picture class\n"
        }
    });
    s.push_str("c placement variables: v cell(i,j) tile rotation\n");
    for (c, choices) in cnf.cells.iter().enumerate() {
        for ch in choices {
            let members = &cnf.pieces[ch.piece].members;
            let tile = puzzle.tiles()[members[0]].id;
            let kind = if members.len() > 1 {
                format!(" (a kind of {})", members.len())
            } else {
                String::new()
            };
            let _ = writeln!(
                s,
                "c v {} {} {tile}{kind} {}",
                ch.var,
                cell_name(puzzle, c),
                ch.rotation
            );
        }
    }
    if !cnf.colours.is_empty() {
        s.push_str(
            "c colour variables: y join label (motif and half as the first cell shows it)\n",
        );
        for (y, join, label) in &cnf.colours {
            let _ = writeln!(
                s,
                "c y {y} {join} {}{}",
                puzzle.motifs()[label.motif as usize],
                label.half.symbol()
            );
        }
    }
    let _ = writeln!(s, "p cnf {} {}", cnf.vars, cnf.clauses);
    for clause in cnf.each_clause() {
        for l in clause {
            let _ = write!(s, "{l} ");
        }
        s.push_str("0\n");
    }
    s
}

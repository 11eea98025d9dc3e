//! The collector: verifies every report independently of the solver, counts
//! labelled solutions, classes under board turns and picture classes
//! exactly, and keeps what the caller asked for ([`Keep`]).
//!
//! What a report stands for ([`Stands`]) is multiplied out rather than
//! expanded, unless the caller wants the labelled boards or classes
//! themselves. Deduplication uses the kept lists when there are any, a
//! [`CompactSet`](super::compact::CompactSet) otherwise, and nothing where the solver promises no
//! repeats ([`super::Solver::exact_reports`]).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use super::compact::{Codec, Tally};
use super::{Cancel, Keep, Progress, SolutionCallback, Stands, StopReason};
use crate::board::{Placement, Solution, VerifyError};
use crate::puzzle::Puzzle;
use crate::symmetry::{
    Equivalence, Realizer, canonical, each_same_picture, labellings_per_picture, picture,
    pictures_are_labels, turn_picture,
};

/// Exact counts of what a run found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Counts {
    /// Labelled solutions.
    pub raw: u128,
    /// Classes of labelled solutions under board turns.
    pub classes: u128,
    /// Picture classes (pictures up to board turns).
    pub pictures: u128,
}

impl Counts {
    /// The number of classes under an equivalence.
    pub fn under(&self, e: Equivalence) -> u128 {
        match e {
            Equivalence::Rotation => self.classes,
            Equivalence::Picture => self.pictures,
        }
    }
}

/// A progress observer: the progress and the classes (under the
/// equivalence) so far.
type ProgressFn<'p> = Box<dyn FnMut(&Progress, u128) + 'p>;

/// A stream observer: each new class under the equivalence, as found.
type StreamFn<'p> = Box<dyn FnMut(&Solution) + 'p>;

/// What one work unit's boards add up to: labelled solutions, classes,
/// and the picture weight (see [`Hooks::with_units`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UnitCounts {
    pub raw: u128,
    pub classes: u128,
    /// Over the labelled boards: how many board turns leave each one's
    /// picture as it is, summed. The picture classes of any set of whole
    /// units are this sum over |G| x the labellings per picture (G the
    /// board's group of turns).
    pub picture_weight: u128,
}

/// Receives each finished work unit's counts.
type UnitFn<'p> = Box<dyn FnMut(usize, UnitCounts) + 'p>;

/// What a caller adds to a run's collector: where progress, each new
/// class and each finished work unit go. A run builds its collector once,
/// from these and its options ([`super::run_with`]).
#[derive(Default)]
pub(crate) struct Hooks<'p> {
    progress: Option<ProgressFn<'p>>,
    stream: Option<StreamFn<'p>>,
    units: Option<UnitFn<'p>>,
}

impl<'p> Hooks<'p> {
    /// Also report progress.
    pub(crate) fn with_progress(mut self, f: impl FnMut(&Progress, u128) + 'p) -> Self {
        self.progress = Some(Box::new(f));
        self
    }

    /// Hand each new class (under the equivalence, canonical form) to `f`
    /// as soon as it is known to be new.
    pub(crate) fn with_stream(mut self, f: impl FnMut(&Solution) + 'p) -> Self {
        self.stream = Some(Box::new(f));
        self
    }

    /// Hand each finished work unit's counts to `f` (see
    /// `SolveOptions::units`; the solver reports labelled boards or their
    /// turns, never twice). Labelled counts add up over units; picture
    /// classes, deduplicated within one run, do not, so each unit also
    /// gets its picture weight, which does.
    pub(crate) fn with_units(mut self, f: impl FnMut(usize, UnitCounts) + 'p) -> Self {
        self.units = Some(Box::new(f));
        self
    }
}

/// How a run's collector counts and keeps: what to keep, the equivalence,
/// the limit, whether the solver promises no repeats, and what stops a
/// long expansion (the run's Ctrl-C and deadline).
pub(crate) struct Setup {
    pub(crate) keep: Keep,
    pub(crate) equivalence: Equivalence,
    pub(crate) limit: Option<usize>,
    pub(crate) exact: bool,
    /// Expanding a picture class into its labelled boards (which may be
    /// astronomically many) stops on it, as the search itself does; the
    /// run is then incomplete. Its memory ceiling also stops the run
    /// when what is kept of the solutions passes it.
    pub(crate) cancel: Cancel,
}

impl Default for Setup {
    /// Everything kept, classes under board turns, no limit, no stop.
    fn default() -> Setup {
        Setup {
            keep: Keep::All,
            equivalence: Equivalence::Rotation,
            limit: None,
            exact: false,
            cancel: Cancel::never(),
        }
    }
}

/// The solution callback behind every run: verifies, counts, canonicalizes,
/// de-duplicates, keeps or streams.
pub struct Collector<'p> {
    puzzle: &'p Puzzle,
    shape: crate::puzzle::Shape,
    codec: Codec,
    equivalence: Equivalence,
    /// The solver reports no labelled board twice.
    exact: bool,
    raw: Tally,
    classes: Tally,
    pictures: Tally,
    /// Labelled boards per picture (None past `u128`).
    labellings: Option<u128>,
    /// The picture classes' canonical forms (`None`: they are the
    /// rotation classes).
    realizer: Option<Realizer>,
    reported: u64,
    pub(super) rejected: Option<(Solution, VerifyError)>,
    progress: Option<ProgressFn<'p>>,
    stream: Option<StreamFn<'p>>,
    /// Per unfinished work unit, what its boards added; and where a
    /// finished unit's counts go.
    units: Option<(HashMap<usize, UnitCounts>, UnitFn<'p>)>,
    /// At most this many classes under the equivalence are counted.
    limit: Option<usize>,
    /// When the run started (when the collector was built), and how long
    /// after it the first solution came.
    started: Instant,
    first: Option<Duration>,
    /// What stops a long expansion (Ctrl-C, the deadline), and why one
    /// was cut short: the counts are then a subset.
    cancel: Cancel,
    pub(super) cut: Option<StopReason>,
}

impl<'p> Collector<'p> {
    /// The collector of a run starting now, counting and keeping as
    /// `setup` says, its observers `hooks`.
    pub(crate) fn new(puzzle: &'p Puzzle, setup: Setup, hooks: Hooks<'p>) -> Collector<'p> {
        let Setup {
            keep,
            equivalence,
            limit,
            exact,
            cancel,
        } = setup;
        let rotation = equivalence == Equivalence::Rotation;
        let (raw, classes, pictures) = match keep {
            Keep::All => (true, true, true),
            Keep::Canonical => (false, rotation, !rotation),
            Keep::Stream | Keep::Count => (false, false, false),
        };
        Collector {
            puzzle,
            shape: puzzle.shape(),
            codec: Codec::new(puzzle),
            equivalence,
            exact,
            raw: Tally::new(raw),
            classes: Tally::new(classes),
            pictures: Tally::new(pictures),
            labellings: labellings_per_picture(puzzle),
            realizer: (!pictures_are_labels(puzzle)).then(|| Realizer::new(puzzle)),
            reported: 0,
            rejected: None,
            progress: hooks.progress,
            stream: hooks.stream,
            units: hooks.units.map(|f| (HashMap::new(), f)),
            limit,
            started: Instant::now(),
            first: None,
            cancel,
            cut: None,
        }
    }

    /// When the run started: its time limit counts from here.
    pub(super) fn started(&self) -> Instant {
        self.started
    }

    /// Whether to stop now (and why, in `cut`).
    fn must_stop(&mut self) -> bool {
        if self.cut.is_none() {
            self.cut = self.cancel.check().err().map(StopReason::from);
        }
        self.cut.is_some()
    }

    /// How long after the start the first solution came.
    pub(crate) fn time_to_first(&self) -> Option<Duration> {
        self.first
    }

    /// How many reports the solver made (repeats included).
    #[cfg(test)]
    pub(crate) fn reported(&self) -> u64 {
        self.reported
    }

    pub fn counts(&self) -> Counts {
        Counts {
            raw: self.raw.count,
            classes: self.classes.count,
            pictures: self.pictures.count,
        }
    }

    /// The kept lists (labelled, classes, pictures), sorted; empty where
    /// not kept.
    pub(super) fn into_lists(self) -> (Vec<Solution>, Vec<Solution>, Vec<Solution>) {
        (self.raw.list(), self.classes.list(), self.pictures.list())
    }

    /// Whether the caller needs labelled boards or classes themselves (so
    /// a picture class must be expanded into them).
    fn wants_labelled(&self) -> bool {
        self.raw.kept.is_some()
            || self.classes.kept.is_some()
            || (self.equivalence == Equivalence::Rotation
                && (self.stream.is_some() || self.limit.is_some()))
    }

    fn at_limit(&self) -> bool {
        self.limit
            .is_some_and(|n| self.counts().under(self.equivalence) >= n as u128)
    }

    fn emit(&mut self, s: &Solution) {
        if let Some(f) = self.stream.as_mut() {
            f(s);
        }
    }

    /// A class not seen before: its picture class, the limit, the stream.
    /// Returns false when the limit turns it away.
    fn new_class(&mut self, class: Solution, dedup: bool) -> bool {
        let picture = self
            .realizer
            .as_ref()
            .map(|r| r.canonical(self.puzzle, &class));
        let new_picture = match &picture {
            None => true,
            Some(pc) => !self.pictures.seen_before(pc, true, &self.codec),
        };
        let rotation = self.equivalence == Equivalence::Rotation;
        if (rotation || new_picture) && self.at_limit() {
            return false;
        }
        if new_picture {
            let dedup_pictures = picture.is_some();
            let pc = picture.unwrap_or_else(|| class.clone());
            if !rotation {
                self.emit(&pc);
            }
            self.pictures.add(pc, dedup_pictures, &self.codec);
        }
        if rotation {
            self.emit(&class);
        }
        self.classes.add(class, dedup, &self.codec);
        true
    }

    /// A labelled board standing for itself.
    fn board(&mut self, s: Solution) {
        let dedup = !self.exact;
        if self.raw.seen_before(&s, dedup, &self.codec) {
            return;
        }
        let class = canonical(&s);
        // A class comes as up to four boards: always deduplicated.
        if !self.classes.seen_before(&class, true, &self.codec) && !self.new_class(class, true) {
            return;
        }
        self.raw.add(s, dedup, &self.codec);
    }

    /// A labelled board standing for its four turns.
    fn turns(&mut self, s: Solution, dedup: bool) {
        let class = canonical(&s);
        if self.classes.seen_before(&class, dedup, &self.codec) || !self.new_class(class, dedup) {
            return;
        }
        for t in s.turns() {
            self.raw.add(t, false, &self.codec);
        }
        if self.first.is_none() {
            self.first = Some(self.started.elapsed());
        }
    }

    /// How many of the board's turns (its group) leave the picture of `s`
    /// as it is (1, 2 or 4).
    fn fixed_turns(&self, s: &Solution) -> u128 {
        let shape = self.puzzle.shape();
        let first = picture(self.puzzle, s);
        shape
            .group
            .turns()
            .iter()
            .filter(|&&k| k == 0 || turn_picture(shape, k, &first) == first)
            .count() as u128
    }

    fn picture_class(&mut self, s: Solution) {
        if self.wants_labelled() && self.must_stop() {
            return;
        }
        let pc = match &self.realizer {
            Some(r) => r.canonical(self.puzzle, &s),
            None => canonical(&s),
        };
        if self.pictures.seen_before(&pc, true, &self.codec) {
            return;
        }
        if self.wants_labelled() {
            // Every class of the picture class holds a board showing this
            // picture: its labellings, each standing for its turns. Two of
            // them are turns of each other only where a turn leaves the
            // picture as it is. Lazily: under --limit only the first few
            // are needed, and the time limit and Ctrl-C cut it short.
            // (Without identical tiles, a picture is its labelling, and a
            // picture class reported twice is caught by its classes.)
            let dedup = self.realizer.is_none() || self.fixed_turns(&s) > 1;
            let puzzle = self.puzzle;
            let mut boards = 0u32;
            each_same_picture(puzzle, &s, &mut |b| {
                self.turns(b, dedup);
                boards = boards.wrapping_add(1);
                !self.at_limit() && (!boards.is_multiple_of(256) || !self.must_stop())
            });
            return;
        }
        if self.at_limit() {
            return;
        }
        let fixed = self.fixed_turns(&s);
        let labellings = self.labellings.unwrap_or(u128::MAX);
        // |G| / fixed distinct pictures, each shown by `labellings` boards,
        // |G| boards per class (G the board's group of turns).
        let order = self.puzzle.group().order() as u128;
        let raw = (order / fixed).saturating_mul(labellings);
        self.raw.count = self.raw.count.saturating_add(raw);
        self.classes.count = self.classes.count.saturating_add(raw / order);
        if self.equivalence == Equivalence::Picture {
            self.emit(&pc);
        }
        self.pictures.add(pc, true, &self.codec);
    }
}

impl SolutionCallback for Collector<'_> {
    fn on_solution(&mut self, cells: &[Placement], stands: Stands) {
        self.reported += 1;
        let s = Solution::shaped(cells.to_vec(), self.shape);
        if let Err(reason) = s.verify(self.puzzle) {
            self.rejected.get_or_insert((s, reason));
            return;
        }
        match stands {
            Stands::Board => self.board(s),
            Stands::Turns => self.turns(s, !self.exact),
            Stands::PictureClass => self.picture_class(s),
        }
        if self.first.is_none() && self.raw.count > 0 {
            self.first = Some(self.started.elapsed());
        }
        // What is kept (the lists, the sets that catch repeats) grows with
        // every engine: past the run's ceiling the run stops with it.
        if self.reported.is_multiple_of(256) && self.cut.is_none() && self.cancel.past_ceiling() {
            self.cut = Some(StopReason::MemoryLimit);
        }
    }

    fn on_solution_in(&mut self, unit: usize, cells: &[Placement], stands: Stands) {
        let before = self.counts();
        self.on_solution(cells, stands);
        let after = self.counts();
        if self.units.is_none() || after.raw == before.raw {
            return;
        }
        // Turns leaving the picture as it is, per labelled board reported.
        let fixed = self.fixed_turns(&Solution::shaped(cells.to_vec(), self.shape));
        if let Some((per, _)) = self.units.as_mut() {
            let c = per.entry(unit).or_default();
            c.raw += after.raw - before.raw;
            c.classes += after.classes - before.classes;
            c.picture_weight += fixed * (after.raw - before.raw);
        }
    }

    fn on_unit_done(&mut self, unit: usize) {
        if let Some((per, f)) = self.units.as_mut() {
            f(unit, per.remove(&unit).unwrap_or_default());
        }
    }

    fn enough(&self) -> bool {
        self.at_limit() || self.cut.is_some()
    }

    fn on_progress(&mut self, progress: &Progress) {
        let n = self.counts().under(self.equivalence);
        if let Some(f) = self.progress.as_mut() {
            f(progress, n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cancel::StopToken;
    use std::path::Path;

    fn seed() -> (Puzzle, Solution) {
        let p = Puzzle::load(Path::new("puzzles/3x3-original")).unwrap();
        let s = Solution::new(
            [
                (1, 1),
                (9, 3),
                (7, 2),
                (4, 2),
                (5, 3),
                (3, 2),
                (8, 0),
                (6, 3),
                (2, 2),
            ]
            .iter()
            .map(|&x| x.into())
            .collect(),
        );
        (p, s)
    }

    #[test]
    fn collector_verifies_canonicalizes_and_deduplicates() {
        let (p, s) = seed();
        let mut c = Collector::new(&p, Setup::default(), Hooks::default());
        for t in s.turns() {
            c.on_solution(t.cells(), Stands::Board);
            c.on_solution(t.cells(), Stands::Board);
        }
        assert_eq!(c.reported(), 8);
        assert_eq!(
            c.counts(),
            Counts {
                raw: 4,
                classes: 1,
                pictures: 1
            }
        );
        assert!(c.rejected.is_none());
        let mut bad = s.cells().to_vec();
        bad.swap(0, 1);
        c.on_solution(&bad, Stands::Board);
        assert!(c.rejected.is_some());
        assert_eq!(c.counts().raw, 4);
    }

    #[test]
    fn an_expansion_stops_with_the_search() {
        // Each picture of the-ant-trails stands for about 4e15 labelled
        // boards: expanding one ends only at the deadline or the stop.
        let p = Puzzle::load(Path::new("puzzles/legespiel/the-ant-trails-puzzle.yaml")).unwrap();
        let mut found = crate::solve::run(
            &crate::engines::backtrack::Backtrack::default(),
            &p,
            &crate::solve::SolveOptions {
                keep: Keep::Canonical,
                equivalence: Equivalence::Picture,
                limit: Some(1),
                ..Default::default()
            },
        )
        .unwrap();
        let s = found.pictures.pop().unwrap();
        for (stop, deadline, why) in [
            (
                false,
                Some(Duration::from_millis(50)),
                StopReason::TimeLimit,
            ),
            (true, None, StopReason::Interrupted),
        ] {
            let token = StopToken::new();
            let setup = |keep| Setup {
                keep,
                exact: true,
                cancel: Cancel::new(token.clone(), deadline.map(|d| Instant::now() + d)),
                ..Setup::default()
            };
            let mut c = Collector::new(&p, setup(Keep::Count), Hooks::default());
            c.on_solution(s.cells(), Stands::PictureClass);
            if stop {
                token.stop();
                c.on_solution(s.cells(), Stands::PictureClass);
            }
            // Keep::Count multiplies pictures out: nothing to cut.
            assert_eq!(c.cut, None);
            assert!(c.counts().raw > 1_000_000_000_000);
            let mut c = Collector::new(&p, setup(Keep::Canonical), Hooks::default());
            c.on_solution(s.cells(), Stands::PictureClass);
            assert_eq!(c.cut, Some(why));
            assert!(c.enough());
            assert_eq!(c.counts().pictures, if stop { 0 } else { 1 });
            assert_eq!(c.counts().raw, 4 * c.counts().classes);
        }
    }

    #[test]
    fn every_keep_counts_the_same() {
        let (p, s) = seed();
        for keep in [Keep::All, Keep::Canonical, Keep::Stream, Keep::Count] {
            for e in [Equivalence::Rotation, Equivalence::Picture] {
                for stands in [Stands::Board, Stands::Turns, Stands::PictureClass] {
                    let mut streamed = Vec::new();
                    let setup = Setup {
                        keep,
                        equivalence: e,
                        ..Setup::default()
                    };
                    let hooks = Hooks::default().with_stream(|s| streamed.push(s.clone()));
                    let mut c = Collector::new(&p, setup, hooks);
                    for t in s.turns() {
                        c.on_solution(t.cells(), stands);
                    }
                    let counts = c.counts();
                    let (raw, classes, pictures) = c.into_lists();
                    let want = Counts {
                        raw: 4,
                        classes: 1,
                        pictures: 1,
                    };
                    assert_eq!(counts, want, "{keep:?} {e:?} {stands:?}");
                    assert_eq!(streamed, [canonical(&s)], "{keep:?} {e:?} {stands:?}");
                    let kept = |k: bool, n: usize| if k { n } else { 0 };
                    let all = keep == Keep::All;
                    let canon = keep == Keep::Canonical;
                    let rot = e == Equivalence::Rotation;
                    assert_eq!(raw.len(), kept(all, 4));
                    assert_eq!(classes.len(), kept(all || canon && rot, 1));
                    assert_eq!(pictures.len(), kept(all || canon && !rot, 1));
                }
            }
        }
    }
}

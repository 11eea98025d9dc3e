//! The state of one search: the board, the tiles on it, the nodes per
//! depth, the lookahead's and the frame check's memory, and how often the
//! clock is read (built by `Tables::state`).

use std::sync::atomic::{AtomicBool, Ordering};

use super::MAX_TILES;
use super::bits::words;
use super::core::{Core, toggle};
use super::lookahead::RowEnds;
use super::ring::Memo;

/// How many nodes (descents in the list search) pass between two looks at
/// the clock and the stop flag.
pub(super) const CHECK_EVERY: u32 = 1 << 16;

/// What one check of a row's end (the lookahead's `finish`) counts for
/// against [`CHECK_EVERY`] in [`State::work`]: it walks the rest of the
/// row, orders of magnitude longer than a descent. Counted only with the
/// descents, a run of checks that all failed would read the clock seconds
/// apart on a 16x16.
pub(super) const FINISH_COST: u32 = 256;

thread_local! {
    /// Set while a look at the clock is made for the work of row-end
    /// checks rather than for [`CHECK_EVERY`] descents ([`work_check`]).
    static WORK_CHECK: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether the look at the clock being made is one that row-end checks'
/// work asked for: the restarts' budgets, counted in looks per
/// [`CHECK_EVERY`] descents, leave it out, so that an attempt searches as
/// many nodes as before.
pub(super) fn work_check() -> bool {
    WORK_CHECK.with(|w| w.get())
}

/// What a search calls with every board that fills its depths: false
/// stops the search. Dynamic, so each search is compiled once per word
/// count rather than once per caller too (the build's time; it is called
/// on full boards only, never per node).
pub(super) type Emit<'e> = dyn FnMut(&[u16; MAX_TILES]) -> bool + 'e;

/// The descents left before a look at the clock, and the look (the masks'
/// walks, lean.rs and fused.rs).
pub(super) struct Clock<'c> {
    pub(super) budget: u32,
    pub(super) look: &'c mut dyn FnMut() -> bool,
}

/// Search state of one worker; `W` words per set of orientations.
pub(super) struct State<'a, const W: usize> {
    /// Orientation per cell (row-major); indexed modulo `MAX_TILES`.
    pub(super) placed: [u16; MAX_TILES],
    /// The orientations of the tiles on the board.
    pub(super) used: [u64; W],
    pub(super) nodes: Vec<u64>,
    /// With a lookahead, per depth (`W` words each): the orientations the
    /// next row's chain may continue with (lookahead.rs).
    pub(super) sets: Vec<u64>,
    /// With a lookahead, per depth (`W` words each): the orientations
    /// after which the row can still be finished ([`Lookahead::finish`]).
    ///
    /// [`Lookahead::finish`]: super::lookahead::Lookahead::finish
    pub(super) rest: RowEnds,
    /// With a frame check, its results so far (ring.rs).
    pub(super) memo: Memo,
    pub(super) budget: u32,
    /// The work left before the next look at the clock for row-end checks
    /// ([`FINISH_COST`] each).
    pub(super) work: u32,
    pub(super) stop: &'a AtomicBool,
    pub(super) check: &'a (dyn Fn() -> bool + Sync),
}

impl<'a, const W: usize> State<'a, W> {
    /// Put a prefix (orientations for the first depths) on the board.
    pub(super) fn set_prefix(&mut self, t: &Core<'_>, prefix: &[u16]) {
        self.used = words(&t.start_used, 0);
        for (d, &o) in prefix.iter().enumerate() {
            self.placed[t.steps[d].cell] = o;
            toggle::<W, true>(&mut self.used, t, o as usize / 64, o as usize);
        }
    }

    /// Add a loop's nodes per depth (indexed by depth) over `depths`.
    pub(super) fn add_nodes(&mut self, depths: std::ops::Range<usize>, nodes: &[u64]) {
        add_nodes(&mut self.nodes, depths, nodes);
    }

    /// One descent spent from `budget` (a loop's copy of `self.budget`);
    /// when it runs out, a look at the clock ([`State::should_stop`]) and a
    /// new budget. True when the search must stop.
    #[inline(always)]
    pub(super) fn spend(&mut self, budget: &mut u32) -> bool {
        *budget -= 1;
        if *budget != 0 {
            return false;
        }
        let stop = self.should_stop();
        *budget = self.budget;
        stop
    }

    /// One row-end check's work spent ([`FINISH_COST`]); when the work
    /// runs out, a look at the clock that the restarts' budgets do not
    /// count ([`work_check`]). True when the search must stop.
    #[inline]
    pub(super) fn spend_work(&mut self) -> bool {
        if self.work > FINISH_COST {
            self.work -= FINISH_COST;
            return false;
        }
        self.work = CHECK_EVERY;
        WORK_CHECK.with(|w| w.set(true));
        let stop = should_stop(self.stop, self.check);
        WORK_CHECK.with(|w| w.set(false));
        stop
    }

    /// Every `CHECK_EVERY` nodes: the clock, Ctrl-C and the other workers.
    #[cold]
    pub(super) fn should_stop(&mut self) -> bool {
        self.budget = CHECK_EVERY;
        should_stop(self.stop, self.check)
    }
}

/// Add `nodes` (per depth) to `counted` over `depths`.
pub(super) fn add_nodes(counted: &mut [u64], depths: std::ops::Range<usize>, nodes: &[u64]) {
    for (a, b) in counted[depths.clone()].iter_mut().zip(&nodes[depths]) {
        *a += b;
    }
}

/// The clock, Ctrl-C and the other workers: whether to stop (telling the
/// other workers when the check says so).
#[cold]
pub(super) fn should_stop(stop: &AtomicBool, check: &(dyn Fn() -> bool + Sync)) -> bool {
    if check() {
        stop.store(true, Ordering::Relaxed);
    }
    stop.load(Ordering::Relaxed)
}

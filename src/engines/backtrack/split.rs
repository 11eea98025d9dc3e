//! The plain tree of a first-solution search with two threads or more:
//! the puzzle as given, cut a few levels deep into many small subtrees
//! that the first two workers take in order. Both then work near the front
//! of the one depth-first order, so a board whose first solution lies deep
//! in that order (a tree with few solutions) is reached in about half the
//! time of one thread; the other workers restart (restarts.rs).
//!
//! Many units keep the two workers close together in the order: the
//! fewer the units, the more of the work before the first solution lies
//! in the unit that holds it, searched by one worker alone
//! (docs/benchmarks.md, "Two threads on one tree").

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crate::solve::pool::Outbox;

use crate::board::Placement;

use super::parallel::prefixes;
use super::relabel::{Msg, send_back};
use super::search::search_below;
use super::tables::Tables;

/// Subtrees per worker of the split.
pub(super) const UNITS_PER_WORKER: usize = 256;

/// The workers that split the plain tree (the first ones).
pub(super) const WORKERS: usize = 2;

/// The plain tree cut into units, shared by its workers.
pub(super) struct Split<'a, 'p> {
    t: &'a Tables<'p>,
    /// Per tile number of `t`'s puzzle: the original tile and turn.
    back: &'a [(i64, u8)],
    units: Vec<Vec<u16>>,
    next: AtomicUsize,
    done: AtomicUsize,
    /// The nodes that cutting the tree took, per depth.
    pub(super) per_depth: Vec<u64>,
}

impl<'a, 'p> Split<'a, 'p> {
    /// The units of `t`'s tree (at least [`UNITS_PER_WORKER`] per
    /// worker, where the tree has them).
    pub(super) fn new<const W: usize>(
        t: &'a Tables<'p>,
        back: &'a [(i64, u8)],
        stop: &AtomicBool,
        check: &(dyn Fn() -> bool + Sync),
    ) -> Self {
        let (units, per_depth) = prefixes::<W>(t, WORKERS * UNITS_PER_WORKER, stop, check);
        Split {
            t,
            back,
            units,
            next: AtomicUsize::new(0),
            done: AtomicUsize::new(0),
            per_depth,
        }
    }

    /// The tables of the plain tree.
    pub(super) fn tables(&self) -> &'a Tables<'p> {
        self.t
    }

    /// Whether the tree has no unit at all (no board).
    pub(super) fn is_empty(&self) -> bool {
        self.units.is_empty()
    }

    /// One worker: units in order until none is left or the search stops,
    /// its nodes added to `nodes`. True when this worker ended the last
    /// unit of the tree (every board has been sent).
    pub(super) fn work<const W: usize>(
        &self,
        tx: &Outbox<Msg>,
        stop: &AtomicBool,
        check: &(dyn Fn() -> bool + Sync),
        nodes: &mut [u64],
    ) -> bool {
        let t = self.t;
        let mut st = t.state::<W>(stop, check);
        let mut buf = Vec::new();
        let mut last = false;
        while let Some(prefix) = self.units.get(self.next.fetch_add(1, Ordering::Relaxed)) {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let mut out = |cells: &[Placement]| send_back(self.back, t, tx, stop, cells);
            let ended = search_below(t, &mut st, prefix, &mut buf, &mut out, stop);
            if !ended || stop.load(Ordering::Relaxed) {
                break;
            }
            if self.done.fetch_add(1, Ordering::Relaxed) + 1 == self.units.len() {
                last = true;
                break;
            }
        }
        for (a, b) in nodes.iter_mut().zip(&st.nodes) {
            *a += b;
        }
        last
    }
}

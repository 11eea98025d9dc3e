//! The parallel driver: one worker, or the tree split a few levels deep
//! into subtrees that the workers of the job pool take in turn.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::board::Placement;
use crate::solve::pool::{self, Event, Flow, Given, Jobs, Outbox, Shape};
use crate::solve::{Progress, SolutionCallback, Units};

use super::MAX_TILES;
use super::search::{search, search_below};
use super::state::{State, should_stop};
use super::tables::Tables;

/// One enumeration: the tables, the workers, and how to stop.
pub(super) struct Run<'a, 'p> {
    pub(super) t: &'a Tables<'p>,
    pub(super) threads: usize,
    pub(super) stop: &'a AtomicBool,
    pub(super) check: &'a (dyn Fn() -> bool + Sync),
    /// Fixed work units, some skipped (see `SolveOptions::units`).
    pub(super) units: Option<&'a Units>,
}

/// How a run was cut into fixed work units.
pub(super) struct UnitInfo {
    /// Units in all (every shard's).
    pub(super) total: usize,
    /// Units this run searched (or was to search).
    pub(super) run: usize,
    /// Cells each unit fixes.
    pub(super) depth: usize,
}

/// Work units when they must not depend on the thread count: the subtrees
/// at the first depth with at least this many.
pub(crate) const UNITS: usize = 4096;

impl Run<'_, '_> {
    /// One worker: subtrees (their indices in `prefixes`) taken from
    /// `jobs` until none is left or the search stops, its boards sent in
    /// batches; returns its nodes per depth.
    fn worker<const W: usize>(
        &self,
        jobs: &Jobs<usize>,
        prefixes: &[Vec<u16>],
        outbox: &Outbox<Msg>,
    ) -> Vec<u64> {
        let t = self.t;
        let (stop, check) = (self.stop, self.check);
        let mut st = t.state::<W>(stop, check);
        let mut buf = Vec::new();
        // The first boards go at once (the first solution is
        // not held back), then batches double up to BATCH.
        let mut full = t.cells;
        let mut batch = Vec::with_capacity(full);
        while let Some(k) = jobs.next() {
            let prefix = &prefixes[k];
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let mut out = |cells: &[Placement]| {
                batch.extend_from_slice(cells);
                if batch.len() >= full {
                    full = (2 * full).min(BATCH * t.cells);
                    let boards = std::mem::replace(&mut batch, Vec::with_capacity(full));
                    if !outbox.send(Msg::Boards(k, boards)) {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            };
            search_below(t, &mut st, prefix, &mut buf, &mut out, stop);
            if !batch.is_empty() {
                let boards = std::mem::take(&mut batch);
                if !outbox.send(Msg::Boards(k, boards)) {
                    break;
                }
            }
            // A subtree cut short by a stop is not finished.
            if stop.load(Ordering::Relaxed) || !outbox.send(Msg::Done(k)) {
                break;
            }
        }
        st.nodes
    }

    /// Hand a worker's boards or finished subtree to the callback; stop
    /// the workers when it has enough.
    fn collect(&self, msg: Msg, callback: &mut dyn SolutionCallback, progress: &mut Progress) {
        match msg {
            Msg::Boards(k, boards) => {
                for cells in boards.chunks(self.t.cells) {
                    callback.on_solution_in(k, cells, self.t.stands);
                    progress.solutions += 1;
                }
                // The clock after each batch: the workers wait on the
                // collector while it works, and look at the clock only
                // between nodes.
                should_stop(self.stop, self.check);
            }
            Msg::Done(k) => {
                callback.on_unit_done(k);
                progress.subproblems_done += 1;
                progress.subproblems_pending -= 1;
                callback.on_progress(progress);
            }
        }
        if callback.enough() {
            self.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Enumerate with `W` words per bitset; returns the nodes per depth,
    /// and the work units when asked for.
    pub(super) fn go<const W: usize>(
        &self,
        callback: &mut dyn SolutionCallback,
    ) -> (Vec<u64>, Option<UnitInfo>) {
        let t = self.t;
        let (stop, check) = (self.stop, self.check);
        if self.units.is_none() && (self.threads == 1 || t.cells < 2) {
            let mut st = t.state::<W>(stop, check);
            let mut buf = Vec::new();
            let mut boards = 0u32;
            let mut out = |cells: &[Placement]| {
                callback.on_solution(cells, t.stands);
                if callback.enough() {
                    stop.store(true, Ordering::Relaxed);
                }
                // The clock between boards too: where nearly every node is
                // a board, what the callback does with each (canonical
                // forms, pictures) dwarfs the nodes between two looks.
                boards += 1;
                if boards.is_multiple_of(BOARDS_PER_LOOK) {
                    should_stop(stop, check);
                }
            };
            search_below(t, &mut st, &[], &mut buf, &mut out, stop);
            return (st.nodes, None);
        }
        // Split the tree a few levels deep and let the workers pull subtrees
        // from a counter. Many small subtrees (32 a thread) balance the
        // load and let the first solution come from any of them (measured
        // on the Ant Trails puzzle, docs/log.md).
        let want = match self.units {
            Some(_) => UNITS,
            None => self.threads * 32,
        };
        let (prefixes, mut per_depth) = prefixes::<W>(t, want, stop, check);
        // Which units to search: with shards, by an estimate of each
        // unit's work (its subtree two levels down; not counted as nodes).
        let to_run = self.units.map(|u| {
            let mut probe = t.state::<W>(stop, check);
            u.to_run(prefixes.len(), |k| estimate(t, &mut probe, &prefixes[k]))
        });
        let info = to_run.as_ref().map(|r| UnitInfo {
            total: prefixes.len(),
            run: r.iter().filter(|&&x| x).count(),
            depth: prefixes.first().map_or(0, |p| p.len()),
        });
        let skip = to_run.as_deref();
        let skipped = skip.map_or(0, |s| s.iter().filter(|&&x| !x).count());
        let mut progress = Progress {
            subproblems_done: skipped as u64,
            subproblems_pending: (prefixes.len() - skipped) as u64,
            ..Progress::default()
        };
        // Bounded: workers wait while the collector catches up, so memory
        // stays bounded however many solutions a subtree holds.
        let shape = Shape {
            workers: self.threads,
            bound: Some(2 * self.threads),
            tick: None,
        };
        let nodes = pool::run(
            shape,
            // Only the units this run searches.
            Given::All((0..prefixes.len()).filter(|&k| skip.is_none_or(|s| s[k]))),
            |_, jobs, out| self.worker::<W>(jobs, &prefixes, out),
            |event, _| {
                if let Event::Message(msg) = event {
                    self.collect(msg, callback, &mut progress);
                }
                Flow::Listen
            },
        );
        for worker in nodes {
            for (a, b) in per_depth.iter_mut().zip(worker) {
                *a += b;
            }
        }
        (per_depth, info)
    }
}

/// The estimated work of the subtree below `prefix`: its nodes two levels
/// down.
fn estimate<const W: usize>(t: &Tables<'_>, st: &mut State<'_, W>, prefix: &[u16]) -> u64 {
    let from = prefix.len();
    let to = (from + 2).min(t.cells);
    if from >= to {
        return 1;
    }
    st.set_prefix(t, prefix);
    let mut leaves = 0u64;
    search(t, st, from, to, &mut |_: &[u16; MAX_TILES]| {
        leaves += 1;
        true
    });
    leaves
}

/// Boards per message from a worker to the collector.
const BATCH: usize = 256;

/// Boards between two looks at the clock in a one-thread enumeration.
const BOARDS_PER_LOOK: u32 = 64;

/// What a worker sends: solutions of subtree k (flat, row-major boards),
/// or that it finished subtree k.
enum Msg {
    Boards(usize, Vec<Placement>),
    Done(usize),
}

/// Every consistent placement of the first depths, deep enough to give at
/// least `want` subtrees; and the nodes that took, per depth.
pub(super) fn prefixes<const W: usize>(
    t: &Tables<'_>,
    want: usize,
    stop: &AtomicBool,
    check: &(dyn Fn() -> bool + Sync),
) -> (Vec<Vec<u16>>, Vec<u64>) {
    let mut st = t.state::<W>(stop, check);
    let mut level: Vec<Vec<u16>> = vec![Vec::new()];
    let mut depth = 0;
    while depth + 1 < t.cells && level.len() < want {
        let mut next = Vec::new();
        for p in &level {
            st.set_prefix(t, p);
            let cell = t.steps[depth].cell;
            search(
                t,
                &mut st,
                depth,
                depth + 1,
                &mut |placed: &[u16; MAX_TILES]| {
                    let mut q = p.clone();
                    q.push(placed[cell]);
                    next.push(q);
                    true
                },
            );
        }
        level = next;
        depth += 1;
    }
    (level, st.nodes)
}

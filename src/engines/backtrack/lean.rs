//! The masks' walk when each tile lies in at most four lists (one per
//! turn), as on Eternity II's and the 8x8 sets' row scans. A depth's
//! candidates are the set bits of its list's mask as it is entered (at the
//! few depths with checks past the key lists, those that pass them), so
//! its nodes are counted once per descent; per node the walk only takes a bit,
//! reads its entry and the next list's mask, and descends when that holds
//! a tile other than this one. A tile's four masks are updated without a
//! loop. The last depth is not descended into: its candidates are the
//! boards, emitted from the depth before, so the loop over the others
//! never asks whether a depth is the last.
//! Same nodes, same boards in the same order as masks.rs.

use super::MAX_TILES;
use super::core::Core;
use super::lists::Lists;
use super::masks::{Avail, Masks, entry, slot};
use super::state::{CHECK_EVERY, Emit, State, add_nodes, should_stop};

/// Depth-first search of the depths `start..limit` (`start < limit`), with
/// the board holding the depths before `start`; `emit` gets every board
/// that fills them. Returns false when asked to stop. `st.used` is read,
/// not changed: the masks stand for it.
pub(super) fn search<const W: usize>(
    t: &Core<'_>,
    l: &Lists,
    m: &Masks,
    st: &mut State<'_, W>,
    start: usize,
    limit: usize,
    emit: &mut Emit<'_>,
) -> bool {
    const M: usize = MAX_TILES - 1;
    let mut avail = m.start(&st.used);
    let first = t.first_cell & M;
    let h = l.hot[start & M];
    let at = l.first_list(&st.placed, start);
    if m.full[slot(at)] == 0 && l.starts[at + 1] > l.starts[at] {
        // A long list (the first cell's): entry by entry, each placement
        // searched below.
        let mut nodes = 0;
        let mut go = true;
        for p in l.starts[at]..l.starts[at + 1] {
            let o = l.entries[p as usize].o as usize;
            if st.used[o / 64 % W] >> (o % 64) & 1 != 0
                || h.checks && !l.passes(t, &st.placed, &l.cold[start], start, o, first)
            {
                continue;
            }
            nodes += 1;
            st.placed[h.cell as usize & M] = o as u16;
            if start + 1 == limit {
                go = emit(&st.placed);
            } else {
                m.quads.take(&mut avail, o / 4);
                go = walk(t, l, m, st, &avail, start + 1, limit, emit);
                m.quads.give(&mut avail, o / 4);
            }
            if !go {
                break;
            }
        }
        st.nodes[start] += nodes;
        return go;
    }
    walk(t, l, m, st, &avail, start, limit, emit)
}

/// A depth left for the one below it: its remaining candidates (bits of
/// the list starting at `base`), its next depth's key ([`Lists::next`])
/// and the tile it placed.
#[derive(Clone, Copy, Default)]
struct Frame {
    rem: u64,
    base: u32,
    nbase: u32,
    nmask: u32,
    tile: u32,
}

/// The candidates of `r` (bits of the list from `b`) that pass the checks
/// of `depth` past the key lists (few depths have any: the corners under
/// the turn reduction, hinted neighbours).
#[inline(never)]
fn checked(
    t: &Core<'_>,
    l: &Lists,
    m: &Masks,
    placed: &[u16; MAX_TILES],
    depth: usize,
    r: u64,
    b: u32,
) -> u64 {
    let first = t.first_cell & (MAX_TILES - 1);
    let (mut x, mut pass) = (r, 0);
    while x != 0 {
        let k = x.trailing_zeros();
        x &= x - 1;
        let o = entry(m, b + k).o as usize;
        if l.passes(t, placed, &l.cold[depth], depth, o, first) {
            pass |= 1 << k;
        }
    }
    pass
}

/// The walk of the masks over the depths `start..limit` (masks are built
/// only where each tile lies in at most four lists), the masks in `avail`
/// holding the board (read, not changed: the walk changes its own copy).
#[allow(clippy::too_many_arguments)]
pub(super) fn walk<const W: usize>(
    t: &Core<'_>,
    l: &Lists,
    m: &Masks,
    st: &mut State<'_, W>,
    avail: &Avail,
    start: usize,
    limit: usize,
    emit: &mut Emit<'_>,
) -> bool {
    // The loop itself is compiled once, not once per word count and
    // caller (the test build's time): it reads no set of `W` words, and
    // calls `emit` only on full boards.
    let (stop, check) = (st.stop, st.check);
    let mut clock = Clock {
        budget: st.budget,
        look: &mut || should_stop(stop, check),
    };
    let go = run(
        t,
        l,
        m,
        &mut st.placed,
        &mut clock,
        &mut st.nodes,
        avail,
        start..limit,
        emit,
    );
    st.budget = clock.budget;
    go
}

/// Emit the boards of the last depth's candidates `r` (bits of the list
/// from `b`) at `cell`, counting each as a node; false when asked to stop.
#[inline(never)]
fn boards(
    m: &Masks,
    placed: &mut [u16; MAX_TILES],
    cell: u16,
    b: u32,
    r: u64,
    nodes: &mut u64,
    emit: &mut dyn FnMut(&[u16; MAX_TILES]) -> bool,
) -> bool {
    let mut x = r;
    while x != 0 {
        let k = x.trailing_zeros();
        x &= x - 1;
        *nodes += 1;
        placed[cell as usize & (MAX_TILES - 1)] = entry(m, b + k).o;
        if !emit(placed) {
            return false;
        }
    }
    true
}

/// The descents left before a look at the clock, and the look.
struct Clock<'c> {
    budget: u32,
    look: &'c mut dyn FnMut() -> bool,
}

/// Per depth of `depths`: its cell and whether it checks past the key
/// lists.
fn per_depth(l: &Lists, depths: std::ops::Range<usize>) -> ([u16; MAX_TILES], [bool; MAX_TILES]) {
    let (mut cell, mut checks) = ([0u16; MAX_TILES], [false; MAX_TILES]);
    for d in depths {
        (cell[d], checks[d]) = (l.hot[d].cell, l.hot[d].checks);
    }
    (cell, checks)
}

/// [`walk`] on the parts of the state it uses. The board and the masks
/// are copied into the walk's frame: addressed from the stack pointer,
/// they take no register of their own, and the caller's masks are left as
/// they came. `below` holds what each depth under the current one resumes
/// with.
#[allow(clippy::too_many_arguments)]
fn run(
    t: &Core<'_>,
    l: &Lists,
    m: &Masks,
    out: &mut [u16; MAX_TILES],
    clock: &mut Clock<'_>,
    counted: &mut [u64],
    avail: &Avail,
    depths: std::ops::Range<usize>,
    emit: &mut dyn FnMut(&[u16; MAX_TILES]) -> bool,
) -> bool {
    const M: usize = MAX_TILES - 1;
    let (start, limit) = (depths.start, depths.end);
    let q = &*m.quads;
    let mut board = *out;
    let mut masks: Avail = *avail;
    let (placed, avail) = (&mut board, &mut masks);
    let mut below = [Frame::default(); MAX_TILES];
    let (cell, checks) = per_depth(l, start..limit);
    let mut nodes = [0u64; MAX_TILES];
    let mut budget = clock.budget;
    let last = limit - 1;
    let mut d = start;
    let at = l.first_list(placed, d);
    let (mut r, mut b) = (avail[slot(at)], m.starts[slot(at)]);
    if checks[d & M] {
        r = checked(t, l, m, placed, d, r, b);
    }
    nodes[d & M] += r.count_ones() as u64;
    let (mut nb, mut nm) = match d < last {
        true => l.next(placed, d + 1).parts(),
        false => (0, 0),
    };
    let mut go = true;
    if start == last {
        // One depth: each candidate is a board.
        nodes[d & M] -= r.count_ones() as u64;
        go = boards(m, placed, cell[d & M], b, r, &mut nodes[d & M], emit);
        r = 0;
    }
    loop {
        if r == 0 {
            if d == start {
                break;
            }
            d -= 1;
            let f = below[d & M];
            (r, b, nb, nm) = (f.rem, f.base, f.nbase, f.nmask);
            q.give(avail, f.tile as usize);
            continue;
        }
        let k = r.trailing_zeros();
        r &= r - 1;
        let e = entry(m, b + k);
        let at = slot((nb + (e.key as u32 & nm)) as usize);
        // The next depth's candidates, but this tile's: taken from the
        // mask read before the take, so that the next depth need not wait
        // for the take's writes.
        let a = avail[at];
        if a == 0 {
            continue;
        }
        let tile = e.o as usize / 4;
        let mut r1 = a & !q.bits_in(tile, at);
        if r1 == 0 {
            // The next list held only this tile.
            continue;
        }
        placed[cell[d & M] as usize & M] = e.o;
        if checks[(d + 1) & M] {
            r1 = checked(t, l, m, placed, d + 1, r1, m.starts[at]);
            if r1 == 0 {
                continue;
            }
        }
        // The clock is read every `CHECK_EVERY` descents.
        budget -= 1;
        if budget == 0 {
            budget = CHECK_EVERY;
            if (clock.look)() {
                go = false;
                break;
            }
        }
        if d + 1 == last {
            // The last depth's candidates are boards: no descent.
            let (c, n) = (cell[last & M], &mut nodes[last & M]);
            go = boards(m, placed, c, m.starts[at], r1, n, emit);
            if !go {
                break;
            }
            continue;
        }
        q.take(avail, tile);
        below[d & M] = Frame {
            rem: r,
            base: b,
            nbase: nb,
            nmask: nm,
            tile: tile as u32,
        };
        d += 1;
        (r, b) = (r1, m.starts[at]);
        nodes[d & M] += r1.count_ones() as u64;
        (nb, nm) = l.next(placed, d + 1).parts();
    }
    if !go {
        // The nodes counted on entering the depths but not reached (the
        // masks are the walk's copy: nothing to give back).
        nodes[d & M] -= r.count_ones() as u64;
        for e in start..d {
            nodes[e & M] -= below[e & M].rem.count_ones() as u64;
        }
    }
    clock.budget = budget;
    add_nodes(counted, depths, &nodes);
    *out = board;
    go
}

#[cfg(test)]
mod tests {
    use super::super::tables::{Setup, Tables};
    use crate::solve::Turns;
    use std::sync::atomic::AtomicBool;

    use super::super::Order;
    use super::super::search::search;
    use super::*;
    use crate::generate::{FamilyOptions, Rng, plant_family};
    use crate::puzzle::Turning;
    use crate::symmetry::Symmetry;

    /// The boards of `depth` cells a search emits up to its `stop`-th,
    /// when it is stopped, and its nodes per depth.
    fn stopped(t: &Tables<'_>, depth: usize, stop: usize) -> (Vec<Vec<u16>>, Vec<u64>) {
        let flag = AtomicBool::new(false);
        let check = || false;
        let mut st = t.state::<2>(&flag, &check);
        let mut boards = Vec::new();
        let go = search(t, &mut st, 0, depth, &mut |p: &[u16; MAX_TILES]| {
            boards.push(p[..t.cells].to_vec());
            boards.len() < stop
        });
        assert_eq!(go, boards.len() < stop);
        (boards, st.nodes)
    }

    #[test]
    fn a_stopped_lean_walk_counts_the_nodes_the_masks_walk_counts() {
        let mut stops = 0;
        for seed in 0..4u64 {
            let o = FamilyOptions {
                rows: 4 + seed as usize % 2,
                cols: 6,
                frame_colours: 2,
                inner_colours: 5 + seed as usize % 3,
                turning: Turning::Quarter,
                hint: seed == 3,
            };
            let (p, _) = plant_family(&mut Rng::new(seed), &o);
            let none = Symmetry::none();
            for order in [Order::Row, Order::RowUp] {
                for reduce in [false, true] {
                    let lean = Tables::new(&p, order, &none, Setup::turns(Turns::full_if(!reduce)));
                    let mut walked =
                        Tables::new(&p, order, &none, Setup::turns(Turns::full_if(!reduce)));
                    // The same lists walked by the list loop.
                    let l = walked.lists.as_mut().expect("lists");
                    assert!(l.masks.take().is_some(), "masks");
                    for depth in [lean.cells / 2, lean.cells] {
                        for stop in [1, 5] {
                            let a = stopped(&lean, depth, stop);
                            let what = format!("seed {seed} {order} {reduce} {depth} {stop}");
                            assert_eq!(a, stopped(&walked, depth, stop), "{what}");
                            stops += (a.0.len() == stop) as usize;
                        }
                    }
                }
            }
        }
        assert!(stops > 20, "{stops} stopped searches");
    }
}

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
//! Same nodes, same boards in the same order as masks.rs. On 16-wide row
//! scans (Eternity II) [`walk`] hands the depths to the same loop fused
//! per depth (fused.rs).

use super::MAX_TILES;
use super::core::Core;
use super::fused;
use super::lists::Lists;
use super::masks::{Avail, Masks, entry, slot};
use super::state::{CHECK_EVERY, Clock, Emit, State, add_nodes, should_stop};

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
    let (board, nodes, depths) = (&mut st.placed, &mut st.nodes, start..limit);
    // A 16-wide row scan takes the fused walk, the others this file's.
    let go = match fused::fits(l, depths.clone()) {
        Some(f) => fused::run(f, t, l, m, board, &mut clock, nodes, avail, depths, emit),
        None => run(t, l, m, board, &mut clock, nodes, avail, depths, emit),
    };
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

/// [`walk`] on the parts of the state it uses (as [`fused::run`]). The board and the masks
/// are copied into the walk's frame: addressed from the stack pointer,
/// they take no register of their own, and the caller's masks are left as
/// they came. `below` holds what each depth under the current one resumes
/// with.
#[allow(clippy::too_many_arguments)]
pub(super) fn run(
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
    let (cell, checks) = l.per_depth(start..limit);
    let mut nodes = [0u64; MAX_TILES];
    let mut budget = clock.budget;
    let last = limit - 1;
    let mut d = start;
    let at = l.first_list(placed, d);
    let (mut r, mut b) = (avail[slot(at)], m.starts[slot(at)]);
    if checks[d & M] {
        r = l.checked(t, m, placed, d, r, b);
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
            r1 = l.checked(t, m, placed, d + 1, r1, m.starts[at]);
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

    /// What a search found: how many boards, a hash of them in their
    /// order, the first ten, and its nodes per depth.
    type Found = (usize, u64, Vec<Vec<u16>>, Vec<u64>);

    /// The boards of `depth` cells a search emits up to its `stop`-th,
    /// when it is stopped, and its nodes per depth (`W` words of
    /// orientations).
    fn stopped<const W: usize>(t: &Tables<'_>, depth: usize, stop: usize) -> Found {
        use std::hash::{DefaultHasher, Hasher};
        let flag = AtomicBool::new(false);
        let check = || false;
        let mut st = t.state::<W>(&flag, &check);
        let (mut n, mut hash, mut boards) = (0, DefaultHasher::new(), Vec::new());
        let go = search(t, &mut st, 0, depth, &mut |p: &[u16; MAX_TILES]| {
            n += 1;
            p[..t.cells].iter().for_each(|&o| hash.write_u16(o));
            if boards.len() < 10 {
                boards.push(p[..t.cells].to_vec());
            }
            n < stop
        });
        assert_eq!(go, n < stop);
        (n, hash.finish(), boards, st.nodes)
    }

    /// Both masks' walks: lean.rs's on 6-wide boards, the fused one on
    /// 16-wide row scans (shallow there: the full trees are large; fused.rs
    /// compares the two walks deeper).
    #[test]
    fn a_stopped_lean_or_fused_walk_counts_the_nodes_the_list_walk_counts() {
        let (mut stops, mut fused) = (0, 0);
        for seed in 0..8u64 {
            let (rows, cols) = match seed < 4 {
                true => (4 + seed as usize % 2, 6),
                false => (3, 16),
            };
            let o = FamilyOptions {
                rows,
                cols,
                frame_colours: 2,
                inner_colours: 5 + seed as usize % 3,
                turning: Turning::Quarter,
                hint: seed % 4 == 3,
            };
            let (p, _) = plant_family(&mut Rng::new(seed), &o);
            let none = Symmetry::none();
            for order in [Order::Row, Order::RowUp] {
                for reduce in [false, true] {
                    let lean = Tables::new(&p, order, &none, Setup::turns(Turns::full_if(!reduce)));
                    let mut walked =
                        Tables::new(&p, order, &none, Setup::turns(Turns::full_if(!reduce)));
                    let l = lean.lists.as_ref().expect("lists");
                    let fits = fused::fits(l, 1..lean.cells).is_some();
                    assert_eq!(fits, cols == 16 && order == Order::Row, "seed {seed}");
                    fused += fits as usize;
                    // The same lists walked by the list loop.
                    let l = walked.lists.as_mut().expect("lists");
                    assert!(l.masks.take().is_some(), "masks");
                    let (half, all) = (lean.cells / 2, lean.cells);
                    let runs = match cols {
                        6 => vec![(half, 1), (half, 5), (all, 1), (all, 5)],
                        _ => vec![(5, usize::MAX), (20, 1), (20, 5)],
                    };
                    for (depth, stop) in runs {
                        let (a, b) = match cols {
                            6 => (
                                stopped::<2>(&lean, depth, stop),
                                stopped::<2>(&walked, depth, stop),
                            ),
                            _ => (
                                stopped::<3>(&lean, depth, stop),
                                stopped::<3>(&walked, depth, stop),
                            ),
                        };
                        assert_eq!(a, b, "seed {seed} {order} {reduce} {depth} {stop}");
                        stops += (a.0 == stop) as usize;
                    }
                }
            }
        }
        assert!(
            stops > 40 && fused == 8,
            "{stops} stopped searches, {fused} fused"
        );
    }
}

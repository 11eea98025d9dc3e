//! The search loop: depth-first over the steps of the placement order, with
//! bitset candidate sets of `W` 64-bit words.
//!
//! The word loops index (`for w in 0..W`) rather than zip or enumerate
//! arrays: built without cross-unit inlining (the test profile's
//! `lto = "off"`), the iterator adapters stayed calls and halved the node
//! rate (and `copy_from_slice` stayed a call to memmove); index loops are
//! inlined under every profile.
#![allow(clippy::needless_range_loop, clippy::manual_memcpy)]

use std::sync::atomic::{AtomicBool, Ordering};

use super::MAX_TILES;
use super::bits::{tile_bits, words};
use super::core::toggle;
use super::lean;
use super::lists;
use super::state::{Emit, State};
use super::tables::Tables;
use crate::board::Placement;

/// Whether `a` has a bit set: an OR of its words (an array comparison
/// with zero is a call to memcmp past 32 bytes, which showed in profiles).
#[inline(always)]
fn any<const W: usize>(a: &[u64; W]) -> bool {
    let mut or = 0;
    for w in 0..W {
        or |= a[w];
    }
    or != 0
}

/// `a &= b`, word by word.
#[inline(always)]
fn and<const W: usize>(a: &mut [u64; W], b: [u64; W]) {
    for w in 0..W {
        a[w] &= b[w];
    }
}

/// `a &= !b`, word by word.
#[inline(always)]
fn and_not<const W: usize>(a: &mut [u64; W], b: &[u64; W]) {
    for w in 0..W {
        a[w] &= !b[w];
    }
}

/// The candidates at `depth` given the board: the orientations allowed
/// there, not on the board, and showing on each side with a placed neighbour
/// the code that neighbour requires.
#[inline(always)]
fn candidates<const W: usize>(t: &Tables<'_>, st: &State<'_, W>, depth: usize) -> [u64; W] {
    const M: usize = MAX_TILES - 1;
    let step = &t.steps[depth];
    let mut cand: [u64; W] = words(&t.allowed, depth * W);
    and_not(&mut cand, &st.used);
    // Unrolled by the number of placed neighbours (most cells have two):
    // a loop over `nbs[..k]` measured slower (docs/log.md).
    let fit = |k: usize| {
        let (dir, nb) = step.nbs[k];
        t.fit_of::<W>(st.placed[nb & M] as usize, dir)
    };
    match step.k {
        0 => {}
        1 => and(&mut cand, fit(0)),
        2 => {
            and(&mut cand, fit(0));
            and(&mut cand, fit(1));
        }
        k => {
            for j in 0..k {
                and(&mut cand, fit(j));
            }
        }
    }
    if step.above_first {
        let first = st.placed[t.first_cell & M] as usize / 4;
        and(&mut cand, words(&t.above, first * W));
    }
    cand
}

/// Depth-first search of the depths `start..limit`, with the board holding
/// the depths before `start`; `emit` gets every board that fills them, and
/// stops the search at once by returning false. Returns false when asked to
/// stop. A fixed piece is placed without a choice: the nodes are the
/// candidates of the other depths (as the Eternity II community's solvers
/// count them).
pub(super) fn search<const W: usize>(
    t: &Tables<'_>,
    st: &mut State<'_, W>,
    start: usize,
    limit: usize,
    emit: &mut Emit<'_>,
) -> bool {
    let fixed = t
        .fixed_depths
        .iter()
        .filter(|&&d| (start..limit).contains(&d));
    let kept: Vec<(usize, u64)> = fixed.map(|&d| (d, st.nodes[d])).collect();
    let go = walk_depths(t, st, start, limit, emit);
    for (d, n) in kept {
        st.nodes[d] = n;
    }
    go
}

/// [`search`], each depth's candidates counted.
fn walk_depths<const W: usize>(
    t: &Tables<'_>,
    st: &mut State<'_, W>,
    start: usize,
    limit: usize,
    emit: &mut Emit<'_>,
) -> bool {
    if start == limit {
        return emit(&st.placed);
    }
    // The lookahead's sets of the depths on the board (a work unit's
    // prefix); a prefix whose next row cannot be started has no boards.
    if let Some(look) = &t.look
        && (!look.replay::<W>(t, &st.placed, start, &mut st.sets)
            || !look.finish(t, &st.used, &st.placed, start, &mut st.rest))
    {
        return true;
    }
    // And the frame check of the prefix's placements (each a relaxation of
    // the board as it is now).
    if let Some(ring) = &t.ring
        && !(0..start).all(|d| ring.passes(&st.placed, d, &mut st.memo))
    {
        return true;
    }
    if let Some(l) = &t.lists {
        // Masks exist only where each tile lies in at most four lists
        // (Eternity II, the 8x8 sets; masks.rs): elsewhere a walk of masks
        // searched at about half the list loop's rate on a planted 7x7
        // with 14 motifs (docs/log.md has the figures).
        // The lookahead (first solutions) walks the lists.
        return match &l.masks {
            _ if t.look.is_some() => lists::search::<W, true>(
                t,
                l,
                t.look.as_ref(),
                t.ring.as_ref(),
                st,
                start,
                limit,
                emit,
            ),
            Some(m) => lean::search(t, l, m, st, start, limit, emit),
            None => lists::search::<W, false>(t, l, None, None, st, start, limit, emit),
        };
    }
    if W > 1 || t.kinds {
        return match (t.kinds, t.look.is_some()) {
            (true, true) => search_wide::<W, true, true>(t, st, start, limit, emit),
            (true, false) => search_wide::<W, true, false>(t, st, start, limit, emit),
            // Without kinds, the row orders walk the lists (the lookahead
            // needs at most 63 codes, the lists 256): the bitset search
            // is not compiled with the check.
            (false, _) => search_wide::<W, false, false>(t, st, start, limit, emit),
        };
    }
    let cand = candidates(t, st, start);
    !any(&cand) || descend(t, st, start, limit, cand, emit)
}

/// Search the subtree below `prefix` (put on the board first), each full
/// board handed to `out` as placements (through `buf`), until `stop` is
/// set. False when the search was stopped.
pub(super) fn search_below<const W: usize>(
    t: &Tables<'_>,
    st: &mut State<'_, W>,
    prefix: &[u16],
    buf: &mut Vec<Placement>,
    out: &mut dyn FnMut(&[Placement]),
    stop: &AtomicBool,
) -> bool {
    st.set_prefix(t, prefix);
    search(
        t,
        st,
        prefix.len(),
        t.cells,
        &mut |placed: &[u16; MAX_TILES]| {
            t.emit(placed, buf, out);
            !stop.load(Ordering::Relaxed)
        },
    )
}

/// The spiral and constrained search on boards of more than 16 tiles
/// (several words per set), where most placements have candidates at the
/// next depth: each call computes its own candidates and places them
/// (measured faster there than `descend` and than the lists,
/// docs/benchmarks.md).
fn search_wide<const W: usize, const K: bool, const LOOK: bool>(
    t: &Tables<'_>,
    st: &mut State<'_, W>,
    depth: usize,
    limit: usize,
    emit: &mut Emit<'_>,
) -> bool {
    const M: usize = MAX_TILES - 1;
    if depth == limit {
        return emit(&st.placed);
    }
    st.budget -= 1;
    if st.budget == 0 && st.should_stop() {
        return false;
    }
    let mut cand = candidates(t, st, depth);
    // The lookahead of the placement above, checked only where it has
    // candidates here (most placements deep in the tree have none).
    if LOOK
        && any(&cand)
        && let Some(look) = t.look.as_ref()
    {
        if depth > 0 && look.checks(depth - 1) {
            let o = st.placed[t.steps[depth - 1].cell & M] as usize;
            if look.reach(t, &st.used, o, depth - 1, &mut st.sets) == 0 {
                return true;
            }
        }
        if look.starts_row(depth) {
            if st.spend_work() {
                return false;
            }
            if !look.finish(t, &st.used, &st.placed, depth, &mut st.rest) {
                return true;
            }
        }
        if let Some(ring) = &t.ring
            && depth > 0
            && !ring.passes(&st.placed, depth - 1, &mut st.memo)
        {
            return true;
        }
        if let Some(mask) = st.rest.mask::<W>(depth) {
            and(&mut cand, mask);
        }
    }
    let cell = t.steps[depth].cell & M;
    let mut made = 0u64;
    let mut go = true;
    'words: for w in 0..W {
        let mut bits = cand[w];
        while bits != 0 {
            let b = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            made += 1;
            let o = w * 64 + b;
            st.placed[cell] = o as u16;
            toggle::<W, K>(&mut st.used, t, w, o);
            go = search_wide::<W, K, LOOK>(t, st, depth + 1, limit, emit);
            toggle::<W, K>(&mut st.used, t, w, o);
            if !go {
                break 'words;
            }
        }
    }
    st.nodes[depth] += made;
    go
}

/// The search on boards of up to 16 tiles (one word per set): place each
/// of `cand` at `depth` in turn; every placement is a node.
///
/// The next depth's candidates are computed here, so a dead end costs no
/// call: what the older neighbours of the next cell allow is computed once,
/// and per placement only the set fitting the new tile is loaded.
fn descend<const W: usize>(
    t: &Tables<'_>,
    st: &mut State<'_, W>,
    depth: usize,
    limit: usize,
    cand: [u64; W],
    emit: &mut Emit<'_>,
) -> bool {
    const M: usize = MAX_TILES - 1;
    let cell = t.steps[depth].cell & M;
    let mut made = 0u64;
    if depth + 1 == limit {
        for w in 0..W {
            let mut bits = cand[w];
            while bits != 0 {
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                made += 1;
                st.placed[cell] = (w * 64 + b) as u16;
                if !emit(&st.placed) {
                    st.nodes[depth] += made;
                    return false;
                }
            }
        }
        st.nodes[depth] += made;
        return true;
    }
    let next_step = &t.steps[depth + 1];
    let mut base: [u64; W] = words(&t.allowed, (depth + 1) * W);
    for &(dir, nb) in &next_step.older[..next_step.n_older] {
        and(&mut base, t.fit_of(st.placed[nb & M] as usize, dir));
    }
    // The turn reduction on even boards: above the first tile, which is
    // the one placed now when this is depth 0.
    let above_now = next_step.above_first && depth == 0;
    if next_step.above_first && depth > 0 {
        let first = st.placed[t.first_cell & M] as usize / 4;
        and(&mut base, words(&t.above, first * W));
    }
    // The tiles on the board stay the same while this depth's candidates
    // are tried (each is taken off again before the next).
    and_not(&mut base, &st.used);
    let link = next_step.link;
    // The next depth's candidates after placing `o` here (`fit` already
    // leaves out the other orientations of `o`'s own tile).
    let next_of = |o: usize| {
        let mut next = base;
        match link {
            Some(dir) => and(&mut next, t.fit_of(o, dir)),
            None => next[o / 64 % W] &= !tile_bits(o),
        }
        if above_now {
            and(&mut next, words(&t.above, o / 4 * W));
        }
        next
    };
    // Small boards (one word): most placements are dead ends. A first pass
    // without branches but the loop's own finds the placements that leave
    // the next depth a candidate; only those are visited.
    let mut alive = [0u64; W];
    for w in 0..W {
        let mut bits = cand[w];
        while bits != 0 {
            let b = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            made += 1;
            let next = next_of(w * 64 + b);
            alive[w] |= u64::from(any(&next)) << b;
        }
    }
    st.nodes[depth] += made;
    st.budget = st.budget.saturating_sub(made as u32);
    if st.budget == 0 && st.should_stop() {
        return false;
    }
    for w in 0..W {
        let mut bits = alive[w];
        while bits != 0 {
            let b = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let o = w * 64 + b;
            let next = next_of(o);
            st.placed[cell] = o as u16;
            st.used[w] |= tile_bits(o);
            let go = descend(t, st, depth + 1, limit, next, emit);
            st.used[w] &= !tile_bits(o);
            if !go {
                return false;
            }
        }
    }
    true
}

/// Every board a search of the whole tree emits, in order, and the nodes
/// per depth; then the boards below each placement of the first `split`
/// depths, searched one prefix at a time (as work units are): what two
/// searches of one tree must agree on.
#[cfg(test)]
pub(super) fn walk_tree<const W: usize>(
    t: &Tables<'_>,
    split: usize,
) -> (Vec<Vec<u16>>, Vec<u64>, Vec<Vec<u16>>) {
    let stop = AtomicBool::new(false);
    let check = || false;
    let mut st = t.state::<W>(&stop, &check);
    let mut boards = Vec::new();
    let mut out = |p: &[u16; MAX_TILES]| {
        boards.push(p[..t.cells].to_vec());
        true
    };
    assert!(search(t, &mut st, 0, t.cells, &mut out));
    assert_eq!(st.used[..], t.start_used[..W], "the board is cleared");
    let split = split.min(t.cells);
    let cells: Vec<usize> = t.steps[..split].iter().map(|s| s.cell).collect();
    let mut prefixes: Vec<Vec<u16>> = Vec::new();
    let mut prefix = |p: &[u16; MAX_TILES]| {
        prefixes.push(cells.iter().map(|&c| p[c]).collect());
        true
    };
    assert!(search(t, &mut st, 0, split, &mut prefix));
    let mut below = Vec::new();
    for p in &prefixes {
        st.set_prefix(t, p);
        let mut out = |p: &[u16; MAX_TILES]| {
            below.push(p[..t.cells].to_vec());
            true
        };
        assert!(search(t, &mut st, split, t.cells, &mut out));
    }
    (boards, st.nodes, below)
}

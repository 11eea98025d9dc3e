//! The lean walk (lean.rs) fused: each depth is a function of its own, the
//! depth a constant in it, calling the next depth's function by name (as
//! the Eternity II community's generated backtrackers fuse their cells).
//! build.rs writes the functions from `fused_depth.rs.in`; every fourth is
//! out of line and the three after it are inlined into it. On a 16-wide
//! row scan the next key past the first row and column is read at
//! constant offsets: the cell above is a constant, and the tables are
//! fixed-size copies indexed without bounds checks. The depths on the
//! stack are the call stack's frames, not an explicit stack.
//!
//! Taken by `lean::walk` where [`fits`]; same nodes per depth, same boards
//! in the same order as lean.rs.

use std::ops::Range;

use super::MAX_TILES;
use super::core::Core;
use super::keys::Entry;
use super::lists::{Lists, NEED};
use super::masks::{Avail, MAX_ENTRIES, MAX_LISTS, Masks, Quads, entry, slot};
use super::state::{CHECK_EVERY, Clock, add_nodes};

/// The width of the row scans the generated key reads are written for.
const WIDTH: usize = 16;
const M: usize = MAX_TILES - 1;

/// One depth's function: the walk below it, given its candidates `r`
/// (bits of the list from `b`); false when asked to stop.
type Step = fn(&mut Ctx<'_>, u64, u32) -> bool;

/// What every depth reads: the walk's state, addressed at constant
/// offsets.
struct Ctx<'c> {
    t: &'c Core<'c>,
    l: &'c Lists,
    m: &'c Masks,
    entries: &'c [Entry; MAX_ENTRIES],
    starts: &'c [u32; MAX_LISTS],
    quads: &'c Quads,
    placed: [u16; MAX_TILES],
    avail: Avail,
    nodes: [u64; MAX_TILES],
    /// Per depth: its cell, whether it checks past the key lists and the
    /// offset of its key table.
    cell: [u16; MAX_TILES],
    checks: [bool; MAX_TILES],
    table: [u32; MAX_TILES],
    need: &'c [u16; NEED],
    budget: u32,
    look: &'c mut dyn FnMut() -> bool,
    last: usize,
    emit: &'c mut dyn FnMut(&[u16; MAX_TILES]) -> bool,
}

/// That the fused walk takes some depths of some lists ([`fits`]), and
/// the codes it reads.
pub(super) struct Fits<'l>(&'l [u16; NEED]);

/// Whether the fused walk takes the depths `depths` (more than one) of
/// `l`'s lists: a row scan 16 wide, each key past the first row and
/// column given by the previous cell and the cell above's bottom edge.
pub(super) fn fits(l: &Lists, depths: Range<usize>) -> Option<Fits<'_>> {
    let row_scan = depths.len() > 1
        && depths.end <= MAX_TILES
        && (depths.start + 1..depths.end).all(|d| {
            let h = l.hot[d];
            d < WIDTH
                || d.is_multiple_of(WIDTH)
                || h.a_link && usize::from(h.b) == d - WIDTH && h.b_edge == 3
        });
    l.padded_need.as_deref().filter(|_| row_scan).map(Fits)
}

/// The fused walk of the depths `depths` where it [`fits`], with the same
/// arguments and results as `lean::run`.
#[allow(clippy::too_many_arguments)]
pub(super) fn run(
    fits: Fits<'_>,
    t: &Core<'_>,
    l: &Lists,
    m: &Masks,
    out: &mut [u16; MAX_TILES],
    clock: &mut Clock<'_>,
    counted: &mut [u64],
    avail: &Avail,
    depths: Range<usize>,
    emit: &mut dyn FnMut(&[u16; MAX_TILES]) -> bool,
) -> bool {
    let start = depths.start;
    let at = l.first_list(out, start);
    let (mut r, b) = (avail[slot(at)], m.starts[slot(at)]);
    if l.hot[start & M].checks {
        r = l.checked(t, m, out, start, r, b);
    }
    let (cell, checks) = l.per_depth(depths.clone());
    let mut table = [0; MAX_TILES];
    for (x, h) in table.iter_mut().zip(l.hot.iter()) {
        *x = h.table;
    }
    let mut c = Ctx {
        t,
        l,
        m,
        entries: &m.entries,
        starts: &m.starts,
        quads: &m.quads,
        placed: *out,
        avail: *avail,
        nodes: [0; MAX_TILES],
        cell,
        checks,
        table,
        need: fits.0,
        budget: clock.budget,
        look: &mut *clock.look,
        last: depths.end - 1,
        emit,
    };
    let go = STEPS[start & M](&mut c, r, b);
    clock.budget = c.budget;
    add_nodes(counted, depths, &c.nodes);
    *out = c.placed;
    go
}

/// Emit the boards of depth `d`'s candidates `r` (bits of the list from
/// `b`), counting each as a node; false when asked to stop.
#[inline(never)]
fn boards(c: &mut Ctx<'_>, d: usize, b: u32, r: u64) -> bool {
    let mut x = r;
    while x != 0 {
        let k = x.trailing_zeros();
        x &= x - 1;
        c.nodes[d & M] += 1;
        c.placed[usize::from(c.cell[d & M]) & M] = entry(c.m, b + k).o;
        if !(c.emit)(&c.placed) {
            return false;
        }
    }
    true
}

include!(concat!(env!("OUT_DIR"), "/fused_walk.rs"));

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::super::Order;
    use super::super::lean;
    use super::super::search::search;
    use super::super::tables::{Setup, Tables};
    use super::*;
    use crate::generate::{FamilyOptions, Rng, plant_family};
    use crate::puzzle::Turning;
    use crate::solve::Turns;
    use crate::symmetry::Symmetry;

    /// What one walk found: its boards, its nodes per depth, whether it
    /// ran to its end.
    type Walked = (Vec<Vec<u16>>, Vec<u64>, bool);

    /// The walk of `depths` from the board `prefix` (its first
    /// `depths.start` cells), by the fused walk or lean.rs's, stopped at
    /// its `stop`-th board or its `looks`-th look at the clock.
    fn walk(
        t: &Tables<'_>,
        prefix: &[u16],
        depths: Range<usize>,
        fused: bool,
        stop: usize,
        looks: usize,
    ) -> Walked {
        let l = t.lists.as_ref().expect("lists");
        let m = l.masks.as_ref().expect("masks");
        let flag = AtomicBool::new(false);
        let check = || false;
        let st = t.state::<3>(&flag, &check);
        let mut avail = m.start(&st.used);
        let mut placed = [0; MAX_TILES];
        for d in 0..depths.start {
            let o = prefix[usize::from(l.hot[d].cell)];
            placed[usize::from(l.hot[d].cell)] = o;
            m.quads.take(&mut avail, usize::from(o) / 4);
        }
        let mut seen = 0;
        let mut clock = Clock {
            budget: CHECK_EVERY,
            look: &mut || {
                seen += 1;
                seen == looks
            },
        };
        let mut nodes = vec![0; t.cells];
        let mut boards = Vec::new();
        let mut emit = |p: &[u16; MAX_TILES]| {
            boards.push(p[..t.cells].to_vec());
            boards.len() < stop
        };
        let go = match fused {
            true => {
                let f = fits(l, depths.clone()).expect("fits");
                run(
                    f,
                    t,
                    l,
                    m,
                    &mut placed,
                    &mut clock,
                    &mut nodes,
                    &avail,
                    depths,
                    &mut emit,
                )
            }
            false => lean::run(
                t,
                l,
                m,
                &mut placed,
                &mut clock,
                &mut nodes,
                &avail,
                depths,
                &mut emit,
            ),
        };
        (boards, nodes, go)
    }

    /// The first board of `depth` cells a search finds.
    fn first(t: &Tables<'_>, depth: usize) -> Vec<u16> {
        let flag = AtomicBool::new(false);
        let check = || false;
        let mut st = t.state::<3>(&flag, &check);
        let mut board = Vec::new();
        search(t, &mut st, 0, depth, &mut |p: &[u16; MAX_TILES]| {
            board = p.to_vec();
            false
        });
        board
    }

    /// On 3x16 boards (three words of orientations).
    #[test]
    fn the_fused_walk_finds_what_the_lean_walk_finds_and_stops_where_it_stops() {
        let (mut by_looks, mut by_boards, mut ended) = (0, 0, 0);
        for seed in 0..4u64 {
            let o = FamilyOptions {
                rows: 3,
                cols: WIDTH,
                frame_colours: 2 + seed as usize % 2,
                inner_colours: 6 + seed as usize % 3,
                turning: Turning::Quarter,
                hint: seed >= 2,
            };
            let (p, _) = plant_family(&mut Rng::new(seed), &o);
            for reduce in [false, true] {
                let none = Symmetry::none();
                let t = Tables::new(&p, Order::Row, &none, Setup::turns(Turns::full_if(!reduce)));
                for start in [1, 17, 20] {
                    let prefix = first(&t, start);
                    for end in [start + 2, 33, 40, t.cells] {
                        for (stop, looks) in [(1, 3), (5, 3), (usize::MAX, 1), (usize::MAX, 3)] {
                            let a = walk(&t, &prefix, start..end, true, stop, looks);
                            let what =
                                format!("seed {seed} {reduce} {start}..{end} {stop} {looks}");
                            assert_eq!(
                                a,
                                walk(&t, &prefix, start..end, false, stop, looks),
                                "{what}"
                            );
                            by_boards += (a.0.len() == stop) as usize;
                            by_looks += (!a.2 && a.0.len() < stop) as usize;
                            ended += a.2 as usize;
                        }
                    }
                }
            }
        }
        assert!(
            by_looks > 20 && by_boards > 20 && ended > 20,
            "{by_looks} {by_boards} {ended}"
        );
    }
}

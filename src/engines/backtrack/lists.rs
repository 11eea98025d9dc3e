//! The row-order searches (`row`, `row-up`, `frame`) on boards of more than
//! 16 tiles (without tile kinds): candidate lists indexed by the codes the placed neighbours require,
//! walked by a loop over explicit per-depth positions (the shape of the
//! plain C reference, ../shared/reference/fastref.c).
//!
//! Each step of the placement order reads one table, chosen by the
//! directions of (at most) two of its placed neighbours: the list under
//! the key (code required on one side, code required on the other) holds
//! exactly the orientations showing both, in increasing order, so the
//! candidates and the nodes are those of the bitset search. A missing
//! neighbour requires the wildcard code, under which every orientation is
//! listed too. The per-depth allowed sets (the frame, fixed pieces, the
//! turn reduction) are built into the lists: a border cell's lists hold
//! only frame pieces turned to face out. Further placed neighbours (a
//! third or fourth), the tiles on the board and the rule that the turn
//! reduction puts on the first tile are checked per candidate. A placement whose next list is empty is a dead
//! end found without descending.

use super::MAX_TILES;
use super::bits::MAX_WORDS;
use super::bits::tile_bits;
use super::build::Step;
use super::core::Core;
use super::keys::{Cold, Entry, Hot, KeyTables, MAX_DOMAINS, dense_codes};
use super::lookahead::Lookahead;
use super::masks::{Masks, entry};
use super::ring::Ring;
use super::state::{Emit, State};

/// How the next depth's key is completed by the orientation placed now.
#[derive(Clone, Copy, Default)]
pub(super) struct Next {
    /// The offset in `starts` that the older neighbours give.
    base: usize,
    /// All ones when the candidate's [`Entry::key`] completes it (the
    /// next cell's link is this one), else 0.
    mask: u32,
}

impl Next {
    /// The base and the mask.
    #[inline(always)]
    pub(super) fn parts(self) -> (u32, u32) {
        (self.base as u32, self.mask)
    }
}

/// The length of [`Lists::need`] for the largest board.
pub(super) const NEED: usize = MAX_TILES * 4 * 8;

/// The lists of one puzzle and placement order.
pub(super) struct Lists {
    /// Per orientation `o` and edge `e` (at `o * 8 + e`): the code a
    /// neighbour touching edge `e` must show on its facing edge; at
    /// `o * 8 + WILD_EDGE` the wildcard.
    need: Vec<u16>,
    /// Per orientation `o` and edge `e` (at `o * 4 + e`): its code.
    code: Vec<u16>,
    /// `need` times the number of codes plus one (the wildcard is the
    /// last): the row of a key table.
    pub(super) need_row: Vec<u32>,
    /// Per key table: `span * span` lists, laid out one after the other in
    /// `entries`: list `i` is `starts[i]..starts[i + 1]`.
    pub(super) starts: Vec<u32>,
    /// Candidates, list after list.
    pub(super) entries: Vec<Entry>,
    /// Per depth (indexed modulo `MAX_TILES`).
    pub(super) hot: Box<[Hot; MAX_TILES]>,
    pub(super) cold: Vec<Cold>,
    /// The lists' availability masks, where every list the walk descends
    /// into is short enough (masks.rs).
    pub(super) masks: Option<Masks>,
    /// With masks, `need` padded to the largest board's length: indexed
    /// modulo [`NEED`], read without a bounds check (fused.rs).
    pub(super) padded_need: Option<Box<[u16; NEED]>>,
}

impl Lists {
    /// The lists for `steps`, given each orientation's edge codes and the
    /// per-depth allowed sets (`words` words each) and the sets the key
    /// tables hold (`tabled`, each a superset: a depth where they differ
    /// checks its candidates against its allowed set); none when the
    /// puzzle has more than [`MAX_SPAN`] codes.
    pub(super) fn new(
        edges: &[[u16; 4]],
        partner: impl Fn(u16) -> u16,
        steps: &[Step],
        allowed: &[u64],
        tabled: &[u64],
        words: usize,
        nori: usize,
    ) -> Option<Lists> {
        let (code, need, wild) = dense_codes(edges, partner)?;
        let span = wild + 1;
        let mut keys = KeyTables {
            allowed: tabled,
            exact: allowed,
            words,
            nori,
            max_domains: MAX_DOMAINS.min((1 << 18) / (span * span)),
            domains: Vec::new(),
            pairs: Vec::new(),
            variants: Vec::new(),
        };
        let mut hot = Box::new([Hot::default(); MAX_TILES]);
        let mut cold = Vec::with_capacity(steps.len());
        for (depth, s) in steps.iter().enumerate() {
            let (h, c) = keys.step(steps, depth, s);
            hot[depth] = h;
            cold.push(c);
        }
        let (starts, entries) = keys.fill(&code, &need, wild, &mut hot[..steps.len()]);
        let masks = Masks::new(&starts, &entries, span, nori / 4, steps);
        let padded_need = (masks.is_some() && need.len() <= NEED).then(|| {
            let mut p = Box::new([0; NEED]);
            p[..need.len()].copy_from_slice(&need);
            p
        });
        Some(Lists {
            need_row: need.iter().map(|&c| c as u32 * span as u32).collect(),
            need,
            code,
            starts,
            entries,
            hot,
            cold,
            masks,
            padded_need,
        })
    }

    /// How the key at `depth` is completed, given the board before the
    /// depth before.
    #[inline(always)]
    pub(super) fn next(&self, placed: &[u16; MAX_TILES], depth: usize) -> Next {
        const M: usize = MAX_TILES - 1;
        let h = self.hot[depth & M];
        let kb = self.need[placed[h.b as usize & M] as usize * 8 + h.b_edge as usize] as usize;
        let base = h.table as usize + kb;
        if h.a_link {
            Next { base, mask: !0 }
        } else {
            let ka = self.need_row[placed[h.a as usize & M] as usize * 8 + h.a_edge as usize];
            Next {
                base: base + ka as usize,
                mask: 0,
            }
        }
    }

    /// The list of the search's first depth `d`, given the board: the
    /// link's code, placed before the search, is looked up there.
    pub(super) fn first_list(&self, placed: &[u16; MAX_TILES], d: usize) -> usize {
        const M: usize = MAX_TILES - 1;
        let h = self.hot[d & M];
        let key = match h.a_link {
            true => self.need_row[placed[h.a as usize & M] as usize * 8 + h.a_edge as usize],
            false => 0,
        };
        let e = Entry {
            key: key as u16,
            o: 0,
        };
        self.list(self.next(placed, d), e)
    }

    /// The list at a depth after `e` was placed at the depth before.
    #[inline(always)]
    pub(super) fn list(&self, n: Next, e: Entry) -> usize {
        n.base + (e.key as u32 & n.mask) as usize
    }

    /// The start and end in `entries` of the candidates at a depth after
    /// `e` was placed at the depth before.
    #[inline(always)]
    fn range(&self, n: Next, e: Entry) -> (u32, u32) {
        let at = self.list(n, e);
        (self.starts[at], self.starts[at + 1])
    }

    /// Per depth of `depths`: its cell and whether it checks past the key
    /// lists.
    pub(super) fn per_depth(
        &self,
        depths: std::ops::Range<usize>,
    ) -> ([u16; MAX_TILES], [bool; MAX_TILES]) {
        let (mut cell, mut checks) = ([0u16; MAX_TILES], [false; MAX_TILES]);
        for d in depths {
            (cell[d], checks[d]) = (self.hot[d].cell, self.hot[d].checks);
        }
        (cell, checks)
    }

    /// The candidates of `r` (bits of the list from `b` in `m`) that pass
    /// the checks of `depth` past the key lists (few depths have any: the
    /// corners under the turn reduction, hinted neighbours).
    #[inline(never)]
    pub(super) fn checked(
        &self,
        t: &Core<'_>,
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
            if self.passes(t, placed, &self.cold[depth], depth, o, first) {
                pass |= 1 << k;
            }
        }
        pass
    }

    /// Whether orientation `o` at `depth` passes the checks past the key
    /// lists: the allowed set, the turn reduction, the further neighbours.
    /// (One copy for every word count: it runs only where a depth has
    /// such checks.)
    #[inline(never)]
    pub(super) fn passes(
        &self,
        t: &Core<'_>,
        placed: &[u16; MAX_TILES],
        s: &Cold,
        depth: usize,
        o: usize,
        first: usize,
    ) -> bool {
        const M: usize = MAX_TILES - 1;
        let w = t.words;
        let bit = |set: &[u64], at: usize| set[at * w + o / 64] >> (o % 64) & 1 != 0;
        (!s.restricted || bit(&t.allowed, depth))
            && (!s.above_first || bit(&t.above, placed[first] as usize / 4))
            && s.extra[..s.n_extra].iter().all(|&(cell, facing, dir)| {
                self.code[o * 4 + dir] == self.need[placed[cell & M] as usize * 8 + facing]
            })
    }
}

/// Place or take back orientation `o` in `used`.
#[inline(always)]
fn toggle(used: &mut [u64; MAX_WORDS], o: usize) {
    used[o / 64 % MAX_WORDS] ^= tile_bits(o);
}

/// Depth-first search of the depths `start..limit` (`start < limit`), with
/// the board holding the depths before `start`; `emit` gets every board
/// that fills them. Returns false when asked to stop. With `LOOK` (the
/// lists have a lookahead), a placement whose next row cannot be started,
/// or after which its own row cannot be finished, is a dead end too, and
/// so is one after which the frame check (`ring`) fails.
#[allow(clippy::too_many_arguments)]
pub(super) fn search<const W: usize, const LOOK: bool>(
    t: &Core<'_>,
    l: &Lists,
    look: Option<&Lookahead>,
    ring: Option<&Ring>,
    st: &mut State<'_, W>,
    start: usize,
    limit: usize,
    emit: &mut Emit<'_>,
) -> bool {
    const M: usize = MAX_TILES - 1;
    let (mut pos, mut end) = ([0u32; MAX_TILES], [0u32; MAX_TILES]);
    let mut nodes = [0u64; MAX_TILES];
    let mut used = [0u64; MAX_WORDS];
    used[..W].copy_from_slice(&st.used);
    let (mut budget, first) = (st.budget, t.first_cell & M);
    // Per depth d: `Lists::next` of depth d + 1.
    let mut next = [Next::default(); MAX_TILES];
    // The sets of the depths before `start`: `search::search` replayed them
    // (the caller gives a lookahead and a frame check only with `LOOK`).
    let mut d = start;
    let at = l.first_list(&st.placed, d);
    (pos[d], end[d]) = (l.starts[at], l.starts[at + 1]);
    if d + 1 < limit {
        next[d] = l.next(&st.placed, d + 1);
    }
    let mut go = true;
    // The current depth's position, end, next key and step live in
    // registers; the arrays hold those of the depths below.
    let (mut p, mut q) = (pos[d], end[d]);
    let mut nx = next[d];
    let mut h = l.hot[d & M];
    loop {
        if p == q {
            if d == start {
                break;
            }
            d -= 1;
            (p, q, nx, h) = (pos[d & M], end[d & M], next[d & M], l.hot[d & M]);
            let o = st.placed[h.cell as usize & M] as usize;
            toggle(&mut used, o);
            continue;
        }
        let e = l.entries[p as usize];
        let o = e.o as usize;
        p += 1;
        if used[o / 64 % MAX_WORDS] >> (o % 64) & 1 != 0 {
            continue;
        }
        if h.checks && !l.passes(t, &st.placed, &l.cold[d], d, o, first) {
            continue;
        }
        // The row can still be finished after `o` (lookahead.rs).
        if LOOK && !st.rest.allows::<W>(d, o) {
            continue;
        }
        nodes[d & M] += 1;
        st.placed[h.cell as usize & M] = o as u16;
        if d + 1 == limit {
            if !emit(&st.placed) {
                go = false;
                break;
            }
            continue;
        }
        let (p1, q1) = l.range(nx, e);
        if p1 == q1 {
            continue;
        }
        if let Some(look) = look.filter(|l| l.checks(d)) {
            // `o`'s tile is not in `used` yet: `fit` leaves it out.
            let now: [u64; W] = std::array::from_fn(|w| used[w]);
            if look.reach(t, &now, o, d, &mut st.sets) == 0 {
                continue;
            }
        }
        if LOOK
            && let Some(ring) = ring
            && !ring.passes(&st.placed, d, &mut st.memo)
        {
            continue;
        }
        if let Some(look) = look.filter(|l| l.starts_row(d + 1)) {
            if st.spend_work() {
                go = false;
                break;
            }
            let mut now: [u64; W] = std::array::from_fn(|w| used[w]);
            now[o / 64 % W] |= tile_bits(o);
            if !look.finish(t, &now, &st.placed, d + 1, &mut st.rest) {
                continue;
            }
        }
        // The clock is read every `CHECK_EVERY` descents: between two,
        // at most the current lists' dead ends are placed.
        if st.spend(&mut budget) {
            go = false;
            break;
        }
        toggle(&mut used, o);
        (pos[d & M], end[d & M], next[d & M]) = (p, q, nx);
        d += 1;
        (p, q, h) = (p1, q1, l.hot[d & M]);
        if d + 1 < limit {
            nx = l.next(&st.placed, d + 1);
        }
    }
    if !go {
        // Take the board's placements below `start` back off `used`.
        while d > start {
            d -= 1;
            let o = st.placed[l.hot[d & M].cell as usize & M] as usize;
            toggle(&mut used, o);
        }
    }
    st.used.copy_from_slice(&used[..W]);
    st.budget = budget;
    st.add_nodes(start..limit, &nodes);
    go
}

#[cfg(test)]
mod tests {
    use super::super::Order;
    use super::super::search::walk_tree;
    use super::super::tables::{Setup, Tables};
    use crate::generate::{PlantOptions, Rng, plant};
    use crate::solve::Turns;
    use crate::symmetry::{Symmetry, report_combinations};

    fn walk(t: &Tables<'_>) -> (Vec<Vec<u16>>, Vec<u64>, Vec<Vec<u16>>) {
        walk_tree::<1>(t, 2)
    }

    #[test]
    fn the_lists_visit_what_the_bitsets_visit() {
        // Tiles of these unframed boards lie in more than four lists: no
        // masks (masks.rs checks them on framed family boards).
        let mut boards = 0;
        for seed in 1..=4 {
            for n in 2..=4 {
                let (p, _) = plant(
                    &mut Rng::new(seed * 10 + n as u64),
                    &PlantOptions {
                        n,
                        motifs: n + 1 + seed as usize % 2,
                        self_matching: seed % 2 == 0,
                    },
                );
                let rules: Vec<Symmetry> = std::iter::once(Symmetry::none())
                    .chain(report_combinations())
                    .filter(|s| s.check(&p).is_ok())
                    .collect();
                // The frame order's ring has one placed neighbour per cell:
                // billions of nodes in the full tree of an unframed 4x4.
                for order in Order::ALL
                    .into_iter()
                    .filter(|&o| o != Order::Frame || n < 4)
                {
                    for reduce in [false, true] {
                        for sym in &rules {
                            let bits =
                                Tables::new(&p, order, sym, Setup::turns(Turns::full_if(!reduce)));
                            assert!(bits.lists.is_none(), "one-word boards use bitsets");
                            let setup = Setup {
                                lists: true,
                                ..Setup::turns(Turns::full_if(!reduce))
                            };
                            let lists = Tables::new(&p, order, sym, setup);
                            assert!(lists.lists.as_ref().is_some_and(|l| l.masks.is_none()));
                            let (a, b) = (walk(&bits), walk(&lists));
                            let what = format!("seed {seed}, {n}x{n}, {order}, {}", sym.name());
                            assert_eq!(a, b, "{what}, reduce {reduce}");
                            boards += a.0.len();
                        }
                    }
                }
            }
        }
        assert!(boards > 1000, "{boards} boards");
    }

    #[test]
    fn row_order_uses_lists_unless_the_codes_are_too_many() {
        let none = Symmetry::none();
        let board = |motifs| {
            plant(
                &mut Rng::new(1),
                &PlantOptions {
                    n: 12,
                    motifs,
                    self_matching: false,
                },
            )
            .0
        };
        let (few, many) = (board(20), board(200));
        assert!(
            Tables::new(&few, Order::Row, &none, Setup::turns(Turns::Reduce))
                .lists
                .is_some()
        );
        assert!(
            Tables::new(&few, Order::Spiral, &none, Setup::turns(Turns::Reduce))
                .lists
                .is_none()
        );
        assert!(
            Tables::new(&many, Order::Row, &none, Setup::turns(Turns::Reduce))
                .lists
                .is_none()
        );
    }
}

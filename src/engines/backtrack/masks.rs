//! The candidate lists walked through availability masks: per list, one
//! 64-bit word whose bit `k` says that the list's `k`-th entry belongs to a
//! tile not on the board. Placing a tile clears its bits in every list that
//! holds it (a handful of words), taking it back sets them again; a depth's
//! candidates are then the set bits of one word, taken lowest first, so
//! the walk reads no tile that is on the board, and a placement whose next
//! list has nothing left is a dead end found without descending (the list
//! loop of lists.rs finds only the empty lists so; it reads each tile
//! already placed). Entries come in the same order, so the candidates, the
//! nodes and the boards are those of the list loop and of the bitsets.
//!
//! Every list must hold at most 64 entries, but for the one that both
//! missing neighbours key (the first depth's): a step at the search's
//! start walks it entry by entry, as the list loop does (boards of over 64
//! pieces without frame or turns, as Tetravex's, where each tile lies in
//! four lists). Puzzles past the
//! tables' fixed sizes ([`MAX_LISTS`] lists, [`MAX_ENTRIES`] entries) keep
//! the list loop, and so do those where a tile lies in more than four
//! lists: no masks are built there.
//!
//! The masks are walked only where each tile lies in at most four lists
//! (Eternity II, the 8x8 sets), by the leaner walk of lean.rs.
//! Where tiles lie in more lists (a planted 7x7 with 14 motifs,
//! danger-puzzle) a general walk of the masks measured slower than the
//! list loop, so the list loop runs there (search.rs; the figures are in
//! docs/log.md).

use super::MAX_TILES;
use super::build::Step;
use super::keys::Entry;

/// Where a tile's entries sit: one list and its bits there.
#[derive(Clone, Copy, Default)]
pub(super) struct Member {
    list: u32,
    bits: u64,
}

/// The masks of one puzzle's lists.
pub(super) struct Masks {
    /// Per list: the bits of all its entries (0 for a long list); past the
    /// lists, a spare word that the padding members point at.
    pub(super) full: Box<Avail>,
    /// How many tiles the puzzle has.
    tiles: usize,
    /// The lists' starts and entries (copies of `Lists::starts` and
    /// `Lists::entries` in tables of a fixed size, read without bounds
    /// checks; walking the lists' own vectors instead measured slower,
    /// docs/log.md).
    pub(super) starts: Box<[u32; MAX_LISTS]>,
    pub(super) entries: Box<[Entry; MAX_ENTRIES]>,
    /// Per tile, the lists it lies in and its bits there, four per tile
    /// (padded with the spare word): a table of a fixed size, read without
    /// bounds checks, as `starts` and `entries` are.
    pub(super) quads: Box<Quads>,
}

/// Four members per tile (padded with the spare word).
pub(super) struct Quads([[Member; 4]; MAX_TILES]);

impl Quads {
    /// Clear (take) or set (give back) the bits of `tile` (unrolled: a
    /// loop over the four measured more instructions per node).
    #[inline(always)]
    pub(super) fn take(&self, avail: &mut Avail, tile: usize) {
        let [a, b, c, d] = &self.0[tile & (MAX_TILES - 1)];
        avail[slot(a.list as usize)] &= !a.bits;
        avail[slot(b.list as usize)] &= !b.bits;
        avail[slot(c.list as usize)] &= !c.bits;
        avail[slot(d.list as usize)] &= !d.bits;
    }

    #[inline(always)]
    pub(super) fn give(&self, avail: &mut Avail, tile: usize) {
        let [a, b, c, d] = &self.0[tile & (MAX_TILES - 1)];
        avail[slot(a.list as usize)] |= a.bits;
        avail[slot(b.list as usize)] |= b.bits;
        avail[slot(c.list as usize)] |= c.bits;
        avail[slot(d.list as usize)] |= d.bits;
    }

    /// The bits of `tile` in list `at`, without reading the masks.
    #[inline(always)]
    pub(super) fn bits_in(&self, tile: usize, at: usize) -> u64 {
        let of = |m: &Member| std::hint::select_unpredictable(m.list as usize == at, m.bits, 0);
        let [a, b, c, d] = &self.0[tile & (MAX_TILES - 1)];
        of(a) | of(b) | of(c) | of(d)
    }
}

/// The most entries the lists may hold for the masks.
pub(super) const MAX_ENTRIES: usize = 1 << 15;

/// The entry `at` of the lists.
#[inline(always)]
pub(super) fn entry(m: &Masks, at: u32) -> Entry {
    m.entries[at as usize & (MAX_ENTRIES - 1)]
}

/// The most lists the masks are kept for: a fixed size, so that an index
/// masked to it needs no bounds check.
pub(super) const MAX_LISTS: usize = 1 << 13;

/// The masks of every list, as the walk changes them.
pub(super) type Avail = [u64; MAX_LISTS];

/// `at` within [`Avail`].
#[inline(always)]
pub(super) fn slot(at: usize) -> usize {
    at & (MAX_LISTS - 1)
}

impl Masks {
    /// The masks of `starts`/`entries` (lists of `span * span` per key
    /// table, the wildcard code last), or none when a list other than the
    /// both-wildcard one holds more than 64 entries, a step past the first
    /// has no placed neighbour, or a tile lies in more than four lists.
    pub(super) fn new(
        starts: &[u32],
        entries: &[Entry],
        span: usize,
        tiles: usize,
        steps: &[Step],
    ) -> Option<Masks> {
        if steps.iter().skip(1).any(|s| s.k == 0) {
            return None;
        }
        let wild = span - 1;
        let n = starts.len() - 1;
        if n >= MAX_LISTS || entries.len() > MAX_ENTRIES {
            return None;
        }
        let mut full = Box::new([0u64; MAX_LISTS]);
        let mut per: Vec<Vec<Member>> = vec![Vec::new(); tiles];
        for (i, w) in starts.windows(2).enumerate() {
            let len = (w[1] - w[0]) as usize;
            let key = i % (span * span);
            if len > 64 {
                if key != wild * span + wild {
                    return None;
                }
                continue;
            }
            full[i] = if len == 64 { !0 } else { (1u64 << len) - 1 };
            for k in 0..len {
                let tile = entries[w[0] as usize + k].o as usize / 4;
                let bit = 1u64 << k;
                match per[tile].iter_mut().find(|m| m.list == i as u32) {
                    Some(m) => m.bits |= bit,
                    None => per[tile].push(Member {
                        list: i as u32,
                        bits: bit,
                    }),
                }
            }
        }
        // Walked only four members to a tile (lean.rs): past that the list
        // loop is faster (docs/log.md), so no masks are built.
        if per.iter().any(|m| m.len() > 4) {
            return None;
        }
        let spare = Member {
            list: n as u32,
            bits: 0,
        };
        let mut quads = Box::new(Quads([[spare; 4]; MAX_TILES]));
        for (tile, m) in per.iter().enumerate() {
            quads.0[tile][..m.len()].copy_from_slice(m);
        }
        Some(Masks {
            full,
            tiles,
            starts: {
                let mut a = Box::new([0; MAX_LISTS]);
                a[..n].copy_from_slice(&starts[..n]);
                a
            },
            entries: {
                let mut a = Box::new([Entry { key: 0, o: 0 }; MAX_ENTRIES]);
                a[..entries.len()].copy_from_slice(entries);
                a
            },
            quads,
        })
    }

    /// The masks with the tiles of `used` (orientation bits, a tile's four
    /// together) taken.
    pub(super) fn start<const W: usize>(&self, used: &[u64; W]) -> Box<Avail> {
        let mut avail = self.full.clone();
        for (w, &word) in used.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let o = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if o.is_multiple_of(4) && o / 4 < self.tiles {
                    self.quads.take(&mut avail, o / 4);
                }
            }
        }
        avail
    }
}

#[cfg(test)]
mod tests {
    use super::super::Order;
    use super::super::search::walk_tree;
    use super::super::tables::{Setup, Tables};
    use super::*;
    use crate::generate::{FamilyOptions, PlantOptions, Rng, plant, plant_family};
    use crate::puzzle::{Puzzle, Turning};
    use crate::solve::Turns;
    use crate::symmetry::Symmetry;

    /// The search with the masks (the lean walk, lean.rs, where they are
    /// built; else the list loop) and with the same lists without masks: the same
    /// boards in the same order and the same nodes per depth. Returns the
    /// number of boards and whether the lean walk ran.
    fn same_walks(p: &Puzzle, order: Order, reduce: bool) -> (usize, bool) {
        let none = Symmetry::none();
        let tables = || Tables::new(p, order, &none, Setup::turns(Turns::full_if(!reduce)));
        let (masked, mut plain) = (tables(), tables());
        let lists = masked
            .lists
            .as_ref()
            .expect("a row order on a large board has lists");
        let lean = lists.masks.is_some();
        plain.lists.as_mut().expect("lists").masks = None;
        assert_eq!(masked.words, 2, "boards of 17 to 32 tiles");
        let a = walk_tree::<2>(&masked, 3);
        assert_eq!(
            a,
            walk_tree::<2>(&plain, 3),
            "{order}, reduce {reduce}, lists"
        );
        (a.0.len(), lean)
    }

    #[test]
    fn the_lean_walk_runs_where_each_tile_is_in_four_lists() {
        // Not on the 5x5 with the turn reduction: its centre cell's
        // lists hold the centre's turns only, a fifth list for some tiles.
        for n in [5, 6] {
            let o = FamilyOptions {
                rows: n,
                cols: n,
                frame_colours: 2,
                inner_colours: 6,
                turning: Turning::Quarter,
                hint: false,
            };
            let (p, _) = plant_family(&mut Rng::new(3), &o);
            let none = Symmetry::none();
            for order in [Order::Row, Order::RowUp] {
                for reduce in [false, true] {
                    let t = Tables::new(&p, order, &none, Setup::turns(Turns::full_if(!reduce)));
                    let m = t.lists.as_ref().and_then(|l| l.masks.as_ref());
                    let lean = n == 6 || !reduce;
                    assert_eq!(m.is_some(), lean, "{n}x{n} {order} {reduce}");
                }
            }
        }
    }

    #[test]
    fn the_masks_walk_what_the_lists_walk_on_the_family() {
        let (mut boards, mut leans) = (0, 0);
        for seed in 0..12u64 {
            let (rows, cols) = [(5, 5), (4, 5), (5, 4), (4, 6)][seed as usize % 4];
            let o = FamilyOptions {
                rows,
                cols,
                frame_colours: [2, 3, 1][seed as usize % 3],
                inner_colours: 6 + seed as usize % 3,
                turning: match seed % 4 {
                    3 => Turning::None,
                    _ => Turning::Quarter,
                },
                hint: seed % 3 == 1,
            };
            let (p, _) = plant_family(&mut Rng::new(seed), &o);
            // The frame order places the whole ring first: its full tree
            // is too large past 4x5 or with one frame colour.
            let orders: &[Order] = match rows * cols <= 20 && o.frame_colours > 1 {
                true => &[Order::Row, Order::RowUp, Order::Frame],
                false => &[Order::Row, Order::RowUp],
            };
            for &order in orders {
                for reduce in [false, true] {
                    let (n, lean) = same_walks(&p, order, reduce);
                    boards += n;
                    leans += lean as usize;
                }
            }
        }
        assert!(boards > 100, "{boards} boards");
        assert!(leans > 10, "{leans} searches by the lean walk");
    }

    #[test]
    fn a_long_first_list_is_walked_entry_by_entry() {
        // A 5x13 without frame or turns (as Tetravex): the first cell's
        // list holds all 65 tiles, past a mask's 64 bits, while each tile lies
        // in four lists (the first cell's, the first row's, the first
        // column's, the others'), so the masks are built and their first
        // step walks that list entry by entry.
        let o = FamilyOptions {
            rows: 5,
            cols: 13,
            frame_colours: 0,
            inner_colours: 40,
            turning: Turning::None,
            hint: false,
        };
        let (p, _) = plant_family(&mut Rng::new(11), &o);
        let none = Symmetry::none();
        let tables = || Tables::new(&p, Order::Row, &none, Setup::turns(Turns::Full));
        let (masked, mut plain) = (tables(), tables());
        let l = masked.lists.as_ref().expect("lists");
        let m = l.masks.as_ref().expect("masks: each tile in four lists");
        let at = l.first_list(&[0; MAX_TILES], 0);
        assert_eq!(l.starts[at + 1] - l.starts[at], 65);
        assert_eq!(m.full[slot(at)], 0, "a long list has no mask");
        plain.lists.as_mut().expect("lists").masks = None;
        // The boards (the planted one, and any other) and the nodes per
        // depth, the same with the masks as with the list loop.
        let first = |t: &Tables<'_>| {
            let stop = std::sync::atomic::AtomicBool::new(false);
            let check = || false;
            let mut st = t.state::<5>(&stop, &check);
            let mut boards = Vec::new();
            let mut out = |b: &[u16; MAX_TILES]| {
                boards.push(b[..t.cells].to_vec());
                true
            };
            super::super::search::search(t, &mut st, 0, t.cells, &mut out);
            (boards, st.nodes)
        };
        assert_eq!(masked.words, 5, "65 tiles' orientations in five words");
        let (boards, nodes) = first(&masked);
        assert!(!boards.is_empty(), "the planted board");
        assert!(nodes[0] > 1, "the first list walked past one entry");
        assert_eq!((boards, nodes), first(&plain));
    }

    #[test]
    fn an_unframed_board_keeps_the_list_loop() {
        // Unframed 5x5: the first cell's list holds all 100 orientations,
        // and tiles lie in more than four lists, so the masks are not
        // walked (search.rs): the list loop runs, as without them.
        let (p, _) = plant(
            &mut Rng::new(5),
            &PlantOptions {
                n: 5,
                motifs: 9,
                self_matching: false,
            },
        );
        let none = Symmetry::none();
        let t = Tables::new(&p, Order::Row, &none, Setup::turns(Turns::Full));
        let l = t.lists.as_ref().expect("lists");
        let first = l.starts.windows(2).map(|w| w[1] - w[0]).max();
        assert_eq!(first, Some(100));
        let (n, lean) = same_walks(&p, Order::Row, false);
        assert!(n >= 4 && !lean, "{n} boards, lean {lean}");
        assert!(same_walks(&p, Order::RowUp, true).0 >= 1);
    }
}

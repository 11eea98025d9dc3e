//! The tables a search reads: the core (core.rs) and the accelerators
//! built over it where they pay (the candidate lists of the row orders,
//! the lookahead and the frame check of first solutions). The core is
//! what the accelerators read; they never read this struct back.

use std::ops::Deref;
use std::sync::atomic::AtomicBool;

use crate::puzzle::Puzzle;
use crate::solve::Turns;
use crate::symmetry::Symmetry;

use super::MAX_TILES;
use super::bits::words;
use super::core::Core;
use super::lists::Lists;
use super::lookahead::{Lookahead, RowEnds};
use super::order::Order;
use super::ring::{Memo, Ring};
use super::state::{CHECK_EVERY, State};

/// The core and its accelerators.
pub(super) struct Tables<'p> {
    pub(super) core: Core<'p>,
    /// Candidate lists, for the row-order searches (`row`, `row-up`,
    /// `frame`) on boards of more than 16 tiles without kinds. Bitsets stay faster on one-word boards, in the
    /// spiral and constrained orders and with kinds, where the lists hold
    /// many tiles already placed or blocked copies (docs/benchmarks.md).
    pub(super) lists: Option<Lists>,
    /// The next-row check of first-solution searches in the row orders
    /// (lookahead.rs).
    pub(super) look: Option<Lookahead>,
    /// The frame check of the same searches (ring.rs).
    pub(super) ring: Option<Ring>,
}

impl<'p> Deref for Tables<'p> {
    type Target = Core<'p>;

    fn deref(&self) -> &Core<'p> {
        &self.core
    }
}

/// What tables are built for, beside the puzzle, the order and the
/// symmetry breaking.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Setup {
    /// Search one board turn of each solution (the turn reduction) or all.
    pub(super) turns: Turns,
    /// Place identical tiles as kinds: each board found a new picture.
    pub(super) kinds: bool,
    /// Candidate lists whatever the board's size (the tests compare the
    /// list search with the bitset search).
    pub(super) lists: bool,
    /// Check the next row before descending, in the row orders
    /// (lookahead.rs): for first solutions.
    pub(super) lookahead: bool,
}

impl Setup {
    /// Labelled tiles, with or without the turn reduction.
    pub(super) fn turns(turns: Turns) -> Setup {
        Setup {
            turns,
            ..Setup::default()
        }
    }
}

impl<'p> Tables<'p> {
    pub(super) fn new(
        puzzle: &'p Puzzle,
        order: Order,
        symmetry: &'p Symmetry,
        setup: Setup,
    ) -> Tables<'p> {
        let Setup {
            turns,
            kinds,
            lists,
            lookahead,
        } = setup;
        let (core, sources) = Core::new(puzzle, order, symmetry, turns, kinds);
        let nori = puzzle.len() * 4;
        let (words, steps) = (core.words, &core.steps);
        let scan = matches!(order, Order::Row | Order::RowUp | Order::Frame);
        let lists = (lists || scan && words > 1 && !kinds)
            .then(|| {
                let partner = super::bits::partner;
                Lists::new(
                    &sources.edges,
                    partner,
                    steps,
                    &core.allowed,
                    &sources.tabled,
                    words,
                    nori,
                )
            })
            .flatten();
        // One word: boards of up to 16 tiles, solved at once.
        let look = (lookahead && words > 1)
            .then(|| Lookahead::new(&core, order, &sources.edges))
            .flatten();
        let ring = look.as_ref().and_then(|_| Ring::new(&core, &sources.edges));
        Tables {
            core,
            lists,
            look,
            ring,
        }
    }

    /// A fresh search state over these tables.
    pub(super) fn state<'a, const W: usize>(
        &self,
        stop: &'a AtomicBool,
        check: &'a (dyn Fn() -> bool + Sync),
    ) -> State<'a, W> {
        let look = self.look.is_some();
        State {
            placed: [0; MAX_TILES],
            used: words(&self.start_used, 0),
            nodes: vec![0; self.cells],
            sets: vec![0; if look { self.cells * W } else { 0 }],
            rest: RowEnds::new(if look { self.cells } else { 0 }, W),
            memo: Memo::new(self.ring.is_some()),
            budget: CHECK_EVERY,
            work: CHECK_EVERY,
            stop,
            check,
        }
    }
}

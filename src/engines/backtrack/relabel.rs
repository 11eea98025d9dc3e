//! The puzzle relabelled for a restart (its tiles in a random order, each
//! turned at random), and its boards sent back in the original tiles: what
//! the restarts and the shared plain tree (split.rs) both send.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::board::Placement;
use crate::puzzle::{Puzzle, Tile, Turning};
use crate::rng::Rng;
use crate::solve::Stands;
use crate::solve::pool::Outbox;

use super::core::Core;

/// A copy of `puzzle` with its tiles in a random order, numbered 0, 1, ...
/// in that order, each (where tiles turn and it is not a fixed piece)
/// turned by a random quarter; and, per new number, the original tile and
/// the turn to add to a rotation to get back. Without `rng`, the tiles keep
/// their order and turns (only their numbers change).
pub(super) fn relabel(puzzle: &Puzzle, mut rng: Option<&mut Rng>) -> (Puzzle, Vec<(i64, u8)>) {
    let mut order: Vec<usize> = (0..puzzle.len()).collect();
    if let Some(rng) = rng.as_deref_mut() {
        rng.shuffle(&mut order);
    }
    let mut back = Vec::with_capacity(order.len());
    let mut tiles = Vec::with_capacity(order.len());
    for (new, &k) in order.iter().enumerate() {
        let t = &puzzle.tiles()[k];
        let fixed = puzzle.hints().iter().any(|h| h.tile == t.id);
        let turn = match rng.as_deref_mut() {
            Some(rng) if !fixed && puzzle.turning() == Turning::Quarter => rng.below(4) as u8,
            _ => 0,
        };
        tiles.push(Tile {
            id: new as i64,
            edges: std::array::from_fn(|e| t.edge(turn, e)),
        });
        back.push((t.id, turn));
    }
    let new_id = |id: i64| back.iter().position(|&(o, _)| o == id).expect("a tile") as i64;
    let hints = puzzle
        .hints()
        .iter()
        .map(|h| crate::puzzle::Hint {
            tile: new_id(h.tile),
            ..*h
        })
        .collect();
    let mut parts = puzzle.clone().into_parts();
    parts.tiles = tiles;
    parts.hints = hints;
    let relabelled = Puzzle::new(parts).expect("a relabelled puzzle keeps its rules");
    (relabelled, back)
}

/// A worker's message: a board (original tiles) and what it stands for.
pub(super) type Msg = (Vec<Placement>, Stands);

/// Send a board of a relabelled puzzle (`back` per tile number: the
/// original tile and the turn to add), in the original tiles, stopping the
/// search when nobody listens any more.
pub(super) fn send_back(
    back: &[(i64, u8)],
    t: &Core<'_>,
    tx: &Outbox<Msg>,
    stop: &AtomicBool,
    cells: &[Placement],
) {
    let board = cells
        .iter()
        .map(|p| {
            let (tile, turn) = back[p.tile as usize];
            Placement {
                tile,
                rotation: (p.rotation + turn) % 4,
            }
        })
        .collect();
    if !tx.send((board, t.stands)) {
        stop.store(true, Ordering::Relaxed);
    }
}

//! Counting pictures without enumerating them: a dynamic programme over the
//! board (docs/count.md).
//!
//! A picture assigns every cell a tile kind in one of its distinct
//! orientations. The programme places one cell after another and keeps, per
//! partial board, only what the rest of the board can see of it: the edges
//! still waiting for a neighbour (the frontier) and how many tiles of each
//! kind are left. Partial boards that agree on both have the same
//! completions, so they merge into one state holding their number.
//!
//! The same programme counts the pictures a board turn leaves unchanged
//! (for Burnside's lemma): such a picture is fixed by its cells' orbit
//! representatives, each orbit of `d` cells takes `d` tiles of its kind, and
//! every edge of the board becomes a condition between two representatives'
//! sides.

use std::collections::BTreeSet;
use std::hash::{BuildHasherDefault, Hasher};

use std::sync::atomic::{AtomicUsize, Ordering};

use hashbrown::HashMap;
use hashbrown::hash_map::Entry;
use thiserror::Error;

use crate::puzzle::{Edge, Puzzle, base_side};

use super::orbits::{conditions, orbits};
use crate::symmetry::{period, tile_kinds};

/// Why a count did not finish.
#[derive(Debug, Error, PartialEq, Eq)]
pub(crate) enum DpError {
    /// The state does not fit the 128-bit key.
    #[error(
        "the dynamic programme's state needs {bits} bits, more than 128 ({kinds} tile kinds, \
         {labels} edge labels, {slots} open edges)"
    )]
    TooWide {
        bits: u32,
        kinds: usize,
        labels: usize,
        slots: usize,
    },
    /// More states than allowed.
    #[error(
        "the dynamic programme needs to hold more than {max} states at step {step} of {steps} \
         (about {mb} MB); raise --max-states or count by enumeration or estimate"
    )]
    TooManyStates {
        max: usize,
        step: usize,
        steps: usize,
        mb: usize,
    },
    /// A time limit or an interrupt.
    #[error("stopped at step {step} of {steps}")]
    Stopped { step: usize, steps: usize },
    /// A count past `u128`.
    #[error("a count passed 2^128")]
    Overflow,
}

/// What one programme found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct DpRun {
    /// Pictures left unchanged by the turn.
    pub count: u128,
    /// The most states held at once (a step's input and output).
    pub peak_states: usize,
}

/// Bounds on one programme.
pub(crate) struct Limits<'a> {
    /// The most states held at once: a step's input and its output.
    pub max_states: usize,
    /// Whether to stop (time limit or interrupt); polled often.
    pub stop: &'a (dyn Fn() -> bool + Sync),
    /// Threads (each owns a share of the tables).
    pub threads: usize,
}

/// Approximate bytes per state while a step runs (two tables of 32-byte
/// entries at hashbrown's load factor).
const BYTES_PER_STATE: usize = 80;

/// One distinct orientation of a tile kind, as the cell shows it.
#[derive(Clone, Copy, Debug)]
struct Cand {
    kind: usize,
    shown: [u8; 4],
}

/// One orbit representative's placement step.
#[derive(Debug, Default)]
struct Step {
    /// Cells in its orbit: tiles of the kind it takes.
    take: u32,
    /// Orientations allowed (fixed by the orbit's stabilizer, meeting
    /// conditions among its own sides).
    cands: Vec<Cand>,
    /// (side, slot): the side must fit the label waiting in the slot, which
    /// is then freed.
    checks: Vec<(u8, u8)>,
    /// (side, slot): the side's label waits in the slot for a later step.
    stores: Vec<(u8, u8)>,
}

/// The compiled programme for one turn.
pub(super) struct Programme {
    steps: Vec<Step>,
    /// fits[a * labels + b]: labels a and b may touch.
    fits: Vec<bool>,
    labels: usize,
    label_bits: u32,
    /// Per kind: the bit offset and mask of its remaining-count field.
    kind_shift: Vec<u32>,
    kind_mask: Vec<u128>,
    start: u128,
}

/// The number of pictures of `puzzle` that `turns` counterclockwise board
/// turns leave unchanged (`turns` = 0: all pictures).
pub(crate) fn pictures_fixed_by(
    puzzle: &Puzzle,
    turns: usize,
    limits: &Limits<'_>,
) -> Result<DpRun, DpError> {
    let p = Programme::new(puzzle, turns % 4)?;
    p.run(limits)
}

/// Where a state's key keeps what: slot labels, then each kind's
/// remaining count; and the first state's key.
struct KeyLayout {
    label_bits: u32,
    kind_shift: Vec<u32>,
    kind_mask: Vec<u128>,
    start: u128,
}

impl KeyLayout {
    fn new(
        kind_tiles: &[(u32, u8, [u8; 4])],
        labels: usize,
        slots: usize,
    ) -> Result<KeyLayout, DpError> {
        // The key: slot labels, then each kind's remaining count.
        let label_bits = bits_for(labels.saturating_sub(1) as u32);
        let mut shift = label_bits * slots as u32;
        let mut kind_shift = Vec::new();
        let mut kind_mask = Vec::new();
        let mut start = 0u128;
        for &(mult, _, _) in kind_tiles {
            let b = bits_for(mult);
            kind_shift.push(shift);
            kind_mask.push((1u128 << b) - 1);
            if shift + b <= 128 {
                start |= (mult as u128) << shift;
            }
            shift += b;
        }
        if shift > 128 {
            return Err(DpError::TooWide {
                bits: shift,
                kinds: kind_tiles.len(),
                labels,
                slots,
            });
        }
        Ok(KeyLayout {
            label_bits,
            kind_shift,
            kind_mask,
            start,
        })
    }
}

impl Programme {
    /// The programme of `turns`: on a framed board the frame's ring first
    /// where its state fits 128 bits (its frontier is longer while the
    /// ring is open), else row-major.
    pub(super) fn new(puzzle: &Puzzle, turns: usize) -> Result<Programme, DpError> {
        match Programme::ordered(puzzle, turns, true) {
            Err(DpError::TooWide { .. }) if puzzle.frame().is_some() => {
                Programme::ordered(puzzle, turns, false)
            }
            other => other,
        }
    }

    fn ordered(puzzle: &Puzzle, turns: usize, ring: bool) -> Result<Programme, DpError> {
        let (rows, cols) = (puzzle.rows(), puzzle.cols());
        // Quarter turns only on square boards (the callers follow the group).
        assert!(turns.is_multiple_of(2) || rows == cols);
        // Edge labels and which pairs fit.
        let mut edges: Vec<Edge> = puzzle.tiles().iter().flat_map(|t| t.edges).collect();
        edges.sort();
        edges.dedup();
        let labels = edges.len();
        let label = |e: Edge| edges.binary_search(&e).expect("an edge of the puzzle") as u8;
        let fits: Vec<bool> = edges
            .iter()
            .flat_map(|&a| edges.iter().map(move |&b| a.fits(b)))
            .collect();
        // Tile kinds: multiplicity and distinct orientations.
        let kinds = tile_kinds(puzzle);
        let kind_tiles: Vec<(u32, u8, [u8; 4])> = kinds
            .iter()
            .map(|class| {
                let t = puzzle.tile(class[0]).expect("a tile of the puzzle");
                (class.len() as u32, period(t), t.edges.map(label))
            })
            .collect();
        // A kind's first tile, for the rules' domains (every tile of a kind
        // is allowed where the first is: the rules look at shown edges and
        // rotations, and a fixed piece is a kind of its own).
        let first_of: Vec<usize> = kinds
            .iter()
            .map(|class| puzzle.index_of(class[0]).expect("a tile of the puzzle"))
            .collect();
        let rules = puzzle.has_rules();
        let (rep, times, reps) = orbits(puzzle, turns, ring);
        let conditions = conditions(puzzle, turns, &rep, &times);
        // Steps, with slots for labels that wait.
        let mut steps: Vec<Step> = reps
            .iter()
            .map(|&(_, take)| Step {
                take,
                ..Step::default()
            })
            .collect();
        let mut selfs: Vec<Vec<(usize, usize)>> = vec![Vec::new(); reps.len()];
        let mut waiting: Vec<Vec<(usize, usize, usize)>> = vec![Vec::new(); reps.len()];
        for &((ra, sa), (rb, sb)) in &conditions {
            if ra == rb {
                selfs[ra].push((sa, sb));
            } else {
                waiting[ra].push((sa, rb, sb));
            }
        }
        let mut free: BTreeSet<u8> = BTreeSet::new();
        let mut next_slot = 0u8;
        let mut pending: Vec<Vec<(u8, u8)>> = vec![Vec::new(); reps.len()];
        let mut slots = 0usize;
        for (i, step) in steps.iter_mut().enumerate() {
            step.checks = std::mem::take(&mut pending[i]);
            for &(_, slot) in &step.checks {
                free.insert(slot);
            }
            for &(sa, rb, sb) in &waiting[i] {
                let slot = match free.pop_first() {
                    Some(s) => s,
                    None => {
                        next_slot += 1;
                        next_slot - 1
                    }
                };
                step.stores.push((sa as u8, slot));
                pending[rb].push((sb as u8, slot));
            }
            slots = slots.max(next_slot as usize);
            let (_, take) = reps[i];
            for (kind, &(_, per, base)) in kind_tiles.iter().enumerate() {
                // The orbit returns to its representative after `take`
                // applications of the turn: the tile must look the same
                // after turns * take quarter turns.
                if !(turns * take as usize).is_multiple_of(per as usize) {
                    continue;
                }
                for o in 0..per {
                    // The rules at the representative cell (the frame is
                    // the same on every cell of its orbit, turned).
                    // (A fixed piece may be fixed in a rotation past its
                    // period: any rotation showing orientation o counts.)
                    if rules
                        && !(o..4)
                            .step_by(per as usize)
                            .any(|r| puzzle.allows(reps[i].0, first_of[kind], r))
                    {
                        continue;
                    }
                    let shown: [u8; 4] = std::array::from_fn(|e| base[base_side(e, o)]);
                    if selfs[i]
                        .iter()
                        .all(|&(a, b)| fits[shown[a] as usize * labels + shown[b] as usize])
                    {
                        step.cands.push(Cand { kind, shown });
                    }
                }
            }
        }
        let key = KeyLayout::new(&kind_tiles, labels, slots)?;
        Ok(Programme {
            steps,
            fits,
            labels,
            label_bits: key.label_bits,
            kind_shift: key.kind_shift,
            kind_mask: key.kind_mask,
            start: key.start,
        })
    }

    fn run(&self, limits: &Limits<'_>) -> Result<DpRun, DpError> {
        let mut cur: Vec<States> = (0..SHARDS).map(|_| States::default()).collect();
        cur[shard_of(self.start)].insert(self.start, 1);
        let mut peak = 1;
        let total = self.steps.len();
        let owners = limits.threads.clamp(1, SHARDS);
        for i in 0..total {
            // A step holds its input's states and its output's: both count.
            let held: usize = cur.iter().map(|t| t.len()).sum();
            let states = AtomicUsize::new(held);
            let cur_ref = &cur;
            let states_ref = &states;
            // Each thread reads every state and keeps the successors that
            // fall in its own shards, so no two threads touch one table.
            let parts: Vec<Result<Vec<States>, DpError>> = std::thread::scope(|scope| {
                let handles: Vec<_> = (0..owners)
                    .map(|t| {
                        scope.spawn(move || self.step(i, t, owners, cur_ref, states_ref, limits))
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("a programme thread"))
                    .collect()
            });
            let mut next: Vec<States> = (0..SHARDS).map(|_| States::default()).collect();
            for (t, part) in parts.into_iter().enumerate() {
                for (k, table) in part?.into_iter().enumerate() {
                    next[k * owners + t] = table;
                }
            }
            peak = peak.max(states.load(Ordering::Relaxed));
            cur = next;
        }
        let count = cur
            .iter()
            .flat_map(|t| t.values())
            .try_fold(0u128, |a, &c| a.checked_add(c));
        Ok(DpRun {
            count: count.ok_or(DpError::Overflow)?,
            peak_states: peak,
        })
    }

    /// Step `i` for thread `t` of `owners`: the successors of every state
    /// in `cur` that fall in the shards `t`, `t + owners`, ...
    fn step(
        &self,
        i: usize,
        t: usize,
        owners: usize,
        cur: &[States],
        states: &AtomicUsize,
        limits: &Limits<'_>,
    ) -> Result<Vec<States>, DpError> {
        let total = self.steps.len();
        let too_many = || DpError::TooManyStates {
            max: limits.max_states,
            step: i + 1,
            steps: total,
            mb: ((limits.max_states * BYTES_PER_STATE) >> 20).max(1),
        };
        let mut mine: Vec<States> = (t..SHARDS)
            .step_by(owners)
            .map(|_| States::default())
            .collect();
        let mut seen = 0usize;
        for (&key, &count) in cur.iter().flat_map(|table| table.iter()) {
            seen += 1;
            if seen % 4096 == 1 {
                if (limits.stop)() {
                    return Err(DpError::Stopped {
                        step: i,
                        steps: total,
                    });
                }
                if states.load(Ordering::Relaxed) > limits.max_states {
                    return Err(too_many());
                }
            }
            let mut overflow = false;
            let mut added = 0;
            self.successors(i, key, |new| {
                let sh = shard_of(new);
                if sh % owners != t {
                    return;
                }
                match mine[sh / owners].entry(new) {
                    Entry::Occupied(mut e) => match e.get().checked_add(count) {
                        Some(v) => *e.get_mut() = v,
                        None => overflow = true,
                    },
                    Entry::Vacant(e) => {
                        e.insert(count);
                        added += 1;
                    }
                }
            });
            if overflow {
                return Err(DpError::Overflow);
            }
            states.fetch_add(added, Ordering::Relaxed);
        }
        if states.load(Ordering::Relaxed) > limits.max_states {
            return Err(too_many());
        }
        Ok(mine)
    }
}

/// Tables per step: many small ones, so that no single table's growth
/// (which copies it) takes long, and threads can own disjoint shards.
const SHARDS: usize = 64;

/// The shard of a key (a hash independent of the tables' own).
fn shard_of(key: u128) -> usize {
    let x = (key as u64) ^ ((key >> 64) as u64).rotate_left(17);
    (x.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 58) as usize
}

impl Programme {
    /// The number of placement steps (orbit representatives).
    pub(super) fn len(&self) -> usize {
        self.steps.len()
    }

    /// The state before any placement.
    pub(super) fn start(&self) -> u128 {
        self.start
    }

    /// Calls `f` with every state that placing step `i` in one allowed
    /// orientation can reach from `key`.
    #[inline]
    pub(super) fn successors(&self, i: usize, key: u128, mut f: impl FnMut(u128)) {
        let step = &self.steps[i];
        let lb = self.label_bits;
        let label_mask = (1u128 << lb) - 1;
        let take = step.take as u128;
        // The slots this step frees, cleared so equal futures merge.
        let clear = step
            .checks
            .iter()
            .fold(0u128, |m, &(_, s)| m | (label_mask << (lb * s as u32)));
        'cand: for c in &step.cands {
            let shift = self.kind_shift[c.kind];
            if (key >> shift) & self.kind_mask[c.kind] < take {
                continue;
            }
            for &(side, slot) in &step.checks {
                let waiting = ((key >> (lb * slot as u32)) & label_mask) as usize;
                if !self.fits[waiting * self.labels + c.shown[side as usize] as usize] {
                    continue 'cand;
                }
            }
            let mut new = (key & !clear) - (take << shift);
            for &(side, slot) in &step.stores {
                new |= (c.shown[side as usize] as u128) << (lb * slot as u32);
            }
            f(new);
        }
    }
}

/// Bits to store values up to `max`.
fn bits_for(max: u32) -> u32 {
    32 - max.leading_zeros()
}

type States = HashMap<u128, u128, BuildHasherDefault<KeyHasher>>;

/// A fast, deterministic hash of a 128-bit key (murmur3's finalizer).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, x: u64) {
        let mut h = self.0 ^ x;
        h = (h ^ (h >> 33)).wrapping_mul(0xff51_afd7_ed55_8ccd);
        h = (h ^ (h >> 33)).wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        self.0 = h ^ (h >> 33);
    }
    fn write_u128(&mut self, x: u128) {
        self.write_u64(x as u64 ^ ((x >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn never() -> bool {
        false
    }

    fn limits() -> Limits<'static> {
        Limits {
            max_states: 10_000_000,
            stop: &never,
            threads: 2,
        }
    }

    fn corpus(name: &str) -> Puzzle {
        Puzzle::load(Path::new(&format!("puzzles/legespiel/{name}.yaml"))).expect("corpus")
    }

    #[test]
    fn counts_pictures_and_fixed_pictures_of_a_corpus_puzzle() {
        // der-sternenhimmel: 28 picture classes (expected.tsv).
        let p = corpus("der-sternenhimmel");
        let all = pictures_fixed_by(&p, 0, &limits()).unwrap().count;
        let half = pictures_fixed_by(&p, 2, &limits()).unwrap().count;
        let quarter = pictures_fixed_by(&p, 1, &limits()).unwrap().count;
        assert_eq!((all + half + 2 * quarter) / 4, 28);
    }

    #[test]
    fn a_state_past_128_bits_is_refused() {
        let p = corpus("danger-puzzle");
        // 36 distinct tiles fit; the refusal is tested on the arithmetic.
        assert!(Programme::new(&p, 0).is_ok());
        assert_eq!(bits_for(0), 0);
        assert_eq!(bits_for(1), 1);
        assert_eq!(bits_for(5), 3);
    }

    #[test]
    fn a_stop_is_honoured_and_a_state_cap_is_an_error() {
        let p = corpus("danger-puzzle");
        let yes = || true;
        let stopped = pictures_fixed_by(
            &p,
            0,
            &Limits {
                max_states: 10,
                stop: &yes,
                threads: 2,
            },
        );
        assert!(matches!(stopped, Err(DpError::Stopped { step: 0, .. })));
        let capped = pictures_fixed_by(
            &p,
            0,
            &Limits {
                max_states: 10,
                stop: &never,
                threads: 2,
            },
        );
        assert!(matches!(
            capped,
            Err(DpError::TooManyStates { max: 10, .. })
        ));
    }

    #[test]
    fn the_cap_counts_a_step_s_input_and_output_together() {
        // Under a cap of exactly the most states held at once (a step's
        // input and output) the count goes through; one less and it fails.
        let p = corpus("der-sternenhimmel");
        let run = pictures_fixed_by(&p, 0, &limits()).unwrap();
        let cap = |max_states| Limits {
            max_states,
            stop: &never,
            threads: 2,
        };
        assert_eq!(
            pictures_fixed_by(&p, 0, &cap(run.peak_states)).unwrap(),
            run
        );
        assert!(matches!(
            pictures_fixed_by(&p, 0, &cap(run.peak_states - 1)),
            Err(DpError::TooManyStates { .. })
        ));
    }
}

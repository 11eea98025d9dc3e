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

use std::hash::{BuildHasherDefault, Hasher};

use std::sync::atomic::{AtomicUsize, Ordering};

use hashbrown::HashMap;
use hashbrown::hash_map::Entry;
use thiserror::Error;

use crate::puzzle::Puzzle;

use super::plan::Plan;

/// Why a count did not finish.
#[derive(Debug, Error, PartialEq)]
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
    /// A time limit or an interrupt, while evaluating at roots of unity.
    #[error("stopped after {done} of {of} evaluations")]
    StoppedEvaluating { done: u64, of: u64 },
    /// Too many points of roots of unity to evaluate at.
    #[error(
        "the programme at roots of unity needs {points:.3e} evaluations (more than 2^48): \
         too many tile kinds"
    )]
    TooManyPoints { points: f64 },
    /// Too few primes below 2^30 have roots of unity of every order the
    /// kinds need.
    #[error("too few primes below 2^30 are 1 modulo {modulus}, the roots of unity the kinds need")]
    NoPrimes { modulus: u64 },
    /// A count past `u128`.
    #[error("a count passed 2^128")]
    Overflow,
    /// Residues modulo several primes that join to no number within the
    /// proven bound.
    #[error("the residues modulo the primes disagree with the bound on the count: a bug")]
    Inconsistent,
}

impl DpError {
    /// Whether a time limit or an interrupt stopped it.
    pub(crate) fn is_stop(&self) -> bool {
        matches!(
            self,
            DpError::Stopped { .. } | DpError::StoppedEvaluating { .. }
        )
    }
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

/// The compiled programme for one turn: its plan and where a state's
/// 128-bit key keeps what.
pub(super) struct Programme {
    plan: Plan,
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
    fn new(multiplicities: &[u32], labels: usize, slots: usize) -> Result<KeyLayout, DpError> {
        // The key: slot labels, then each kind's remaining count.
        let label_bits = bits_for(labels.saturating_sub(1) as u32);
        let mut shift = label_bits * slots as u32;
        let mut kind_shift = Vec::new();
        let mut kind_mask = Vec::new();
        let mut start = 0u128;
        for &mult in multiplicities {
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
                kinds: multiplicities.len(),
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
        let plan = Plan::new(puzzle, turns, ring);
        let key = KeyLayout::new(&plan.multiplicities, plan.labels, plan.slots)?;
        Ok(Programme {
            plan,
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
        let total = self.plan.steps.len();
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
        let total = self.plan.steps.len();
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
        self.plan.steps.len()
    }

    /// The state before any placement.
    pub(super) fn start(&self) -> u128 {
        self.start
    }

    /// Calls `f` with every state that placing step `i` in one allowed
    /// orientation can reach from `key`.
    #[inline]
    pub(super) fn successors(&self, i: usize, key: u128, mut f: impl FnMut(u128)) {
        let step = &self.plan.steps[i];
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
                if !self.plan.fits[waiting * self.plan.labels + c.shown[side as usize] as usize] {
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

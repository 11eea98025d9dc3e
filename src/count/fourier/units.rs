//! The points of one prime cut into work units, runs of lane batches that
//! the threads take one at a time. With a checkpoint each unit is a fixed
//! number of batches and its transformed sum is recorded when it ends, so
//! a stopped count resumes where it stopped: the sums of finished units are
//! added up, the others evaluated.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Mutex;

use super::super::checkpoint::Checkpoint;

/// Lane batches per unit without a checkpoint (a take of a thread).
const TAKE_BATCHES: u64 = 8;

/// Lane batches per unit with a checkpoint: 32,768 points, a few seconds
/// of two threads on the-ant-trails-puzzle's grid (four in the unit
/// tests, so that small puzzles have several units to stop between).
const UNIT_BATCHES: u64 = if cfg!(test) { 4 } else { 4096 };

/// Bits of a unit's index in its checkpoint key; above them the prime's
/// index among the run's, and above that the board turn's programme.
const UNIT_BITS: u32 = 36;
const PRIME_BITS: u32 = 8;

/// The checkpoint's name for this method's search: the grid decides the
/// points and the primes.
pub(crate) fn search(grid: u32) -> String {
    format!("fourier grid {grid}")
}

/// One prime's units.
pub(super) struct Units<'a> {
    per_unit: u64,
    batches: u64,
    /// Key of unit 0 in the checkpoint.
    base: usize,
    /// Finished units' sums (of earlier runs).
    earlier: HashMap<u64, u64>,
    checkpoint: Option<&'a Mutex<Checkpoint>>,
}

impl<'a> Units<'a> {
    /// The units of `batches` lane batches, for the programme of `turns`
    /// and the `prime`-th prime of the run.
    pub(super) fn new(
        batches: u64,
        turns: usize,
        prime: usize,
        checkpoint: Option<&'a Mutex<Checkpoint>>,
    ) -> Units<'a> {
        let per_unit = match checkpoint {
            Some(_) => UNIT_BATCHES,
            None => TAKE_BATCHES,
        };
        let base = (turns << (UNIT_BITS + PRIME_BITS)) | (prime << UNIT_BITS);
        let count = batches.div_ceil(per_unit);
        let earlier = checkpoint.map_or_else(HashMap::new, |c| {
            let c = c.lock().unwrap();
            (0..count)
                .filter_map(|u| Some((u, c.get(base + u as usize)?[0] as u64)))
                .collect()
        });
        Units {
            per_unit,
            batches,
            base,
            earlier,
            checkpoint,
        }
    }

    /// How many units there are.
    pub(super) fn count(&self) -> u64 {
        self.batches.div_ceil(self.per_unit)
    }

    /// The lane batches of `unit`.
    pub(super) fn batches(&self, unit: u64) -> Range<u64> {
        unit * self.per_unit..((unit + 1) * self.per_unit).min(self.batches)
    }

    /// The sum an earlier run recorded for `unit`, if it finished it.
    pub(super) fn earlier(&self, unit: u64) -> Option<u64> {
        self.earlier.get(&unit).copied()
    }

    /// The batches the earlier runs finished.
    pub(super) fn batches_earlier(&self) -> u64 {
        self.earlier
            .keys()
            .map(|&u| self.batches(u).count() as u64)
            .sum()
    }

    /// Records `unit`'s sum.
    pub(super) fn finish(&self, unit: u64, sum: u64) {
        if let Some(c) = self.checkpoint {
            c.lock()
                .unwrap()
                .record(self.base + unit as usize, [sum as u128, 0, 0]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_cover_the_batches_once_and_keys_do_not_meet() {
        let u = Units::new(20, 0, 0, None);
        assert_eq!(u.count(), 3);
        let all: Vec<u64> = (0..u.count()).flat_map(|k| u.batches(k)).collect();
        assert_eq!(all, (0..20).collect::<Vec<_>>());
        let keys = |turns, prime| Units::new(1 << 20, turns, prime, None).base;
        let last_unit = (1u64 << UNIT_BITS) - 1;
        assert!(keys(0, 0) + (last_unit as usize) < keys(0, 1));
        assert!(keys(0, (1 << PRIME_BITS) - 1) < keys(1, 0));
        assert!(keys(3, 255) + (last_unit as usize) < usize::MAX);
    }
}

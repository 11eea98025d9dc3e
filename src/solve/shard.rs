//! Shards: one run cut into `N` deterministic shares (`--shard I/N`, or a
//! Slurm job array's task), each solving only the work units it owns.
//! Units go to shards by an estimate of their work (longest first, each to
//! the least loaded shard), so every shard computes the same assignment
//! from the same estimates, whatever machine it runs on.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

/// Share `index` (0-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

/// The most shards a run may be cut into.
pub const MAX_SHARDS: usize = 100_000;

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("expected I/N with 0 <= I < N (e.g. 0/4), found {s:?}");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        Shard::new(index, count).ok_or_else(bad)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    pub fn new(index: usize, count: usize) -> Option<Shard> {
        ((1..=MAX_SHARDS).contains(&count) && index < count).then_some(Shard { index, count })
    }

    /// The shard of a Slurm job array's task, from the variables Slurm
    /// sets: `SLURM_ARRAY_TASK_ID` minus `SLURM_ARRAY_TASK_MIN` (0 if
    /// unset) of `SLURM_ARRAY_TASK_COUNT`. The array must be a contiguous
    /// range (`--array=0-3`, any throttle).
    pub fn from_slurm(var: impl Fn(&str) -> Option<String>) -> Result<Shard, String> {
        let num = |name: &str| -> Result<Option<usize>, String> {
            match var(name) {
                None => Ok(None),
                Some(v) => v
                    .trim()
                    .parse()
                    .map(Some)
                    .map_err(|_| format!("{name}={v:?} is not a number")),
            }
        };
        let (Some(id), Some(count)) = (num("SLURM_ARRAY_TASK_ID")?, num("SLURM_ARRAY_TASK_COUNT")?)
        else {
            return Err(
                "--shard without I/N reads SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT, \
                 which are not set (not a Slurm array task): give --shard I/N"
                    .into(),
            );
        };
        let min = num("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
        let max = num("SLURM_ARRAY_TASK_MAX")?;
        if num("SLURM_ARRAY_TASK_STEP")?.is_some_and(|s| s != 1)
            || max.is_some_and(|m| m.checked_sub(min) != count.checked_sub(1))
        {
            return Err(format!(
                "the Slurm array is not a contiguous range A-B ({count} tasks from {min} to \
                 {}): give --shard I/N",
                max.map_or("?".into(), |m| m.to_string())
            ));
        }
        id.checked_sub(min)
            .and_then(|i| Shard::new(i, count))
            .ok_or_else(|| {
                format!(
                    "Slurm array task {id} (first {min}, {count} tasks) is not in a \
                     contiguous range: use --array=A-B, or give --shard I/N"
                )
            })
    }

    /// The shard each unit goes to, given each unit's estimated work:
    /// units by decreasing estimate (ties by index), each to the shard with
    /// the least estimated work so far (ties: the lowest shard).
    pub fn owners(count: usize, estimates: &[u64]) -> Vec<usize> {
        let mut order: Vec<usize> = (0..estimates.len()).collect();
        order.sort_by_key(|&k| (std::cmp::Reverse(estimates[k]), k));
        let mut load: BTreeSet<(u128, usize)> = (0..count.max(1)).map(|s| (0, s)).collect();
        let mut owner = vec![0; estimates.len()];
        for k in order {
            let (l, s) = load.pop_first().expect("at least one shard");
            owner[k] = s;
            // At least 1 per unit, so shards with no estimated work still
            // share units of estimate zero.
            load.insert((l + u128::from(estimates[k].max(1)), s));
        }
        owner
    }

    /// Which of the units with these estimates this shard owns.
    pub fn owned(&self, estimates: &[u64]) -> Vec<bool> {
        Shard::owners(self.count, estimates)
            .into_iter()
            .map(|s| s == self.index)
            .collect()
    }
}

/// What a shard's output records about it, so that `scramble merge` joins
/// only shares of one run, and what it needs to count picture classes
/// over all of them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meta {
    /// [`Meta::FORMAT`].
    pub format: String,
    pub index: usize,
    pub count: usize,
    /// The puzzle's fingerprint (board size, every tile's id and edges).
    pub fingerprint: String,
    /// The options that decide what is found and kept.
    pub options: String,
    /// scramble's version: the work units are only the same for the same
    /// search.
    pub version: String,
    /// What the run kept.
    pub keep: super::Keep,
    /// Over the labelled solutions of this shard's finished units: how
    /// many board turns leave each one's picture as it is, summed. Over
    /// every shard, this over `picture_divisor` is the picture classes.
    pub picture_weight: u128,
    /// 4 x the labelled solutions per picture (0: past 2^128).
    pub picture_divisor: u128,
}

impl Meta {
    pub const FORMAT: &'static str = "scramble-shard/1";

    /// What shard `shard` of a run on `puzzle` with `options` (the ones
    /// that decide what is found), keeping `keep`, records, with the
    /// picture weight of its finished units.
    pub(crate) fn new(
        shard: Shard,
        puzzle: &crate::puzzle::Puzzle,
        options: String,
        keep: super::Keep,
        picture_weight: u128,
    ) -> Meta {
        Meta {
            format: Meta::FORMAT.into(),
            index: shard.index,
            count: shard.count,
            fingerprint: puzzle.fingerprint(),
            options,
            version: env!("CARGO_PKG_VERSION").into(),
            keep,
            picture_weight,
            picture_divisor: crate::symmetry::labellings_per_picture(puzzle)
                .and_then(|l| l.checked_mul(puzzle.group().order() as u128))
                .unwrap_or(0),
        }
    }
}

/// Work units of a run (see `SolveOptions::units`): a fixed list that does
/// not depend on the thread count, of which these are skipped.
#[derive(Clone, Debug, Default)]
pub struct Units {
    /// Finished in an earlier run (a checkpoint).
    pub done: BTreeSet<usize>,
    /// Only the units this shard owns are run.
    pub shard: Option<Shard>,
}

impl Units {
    /// Units finished earlier.
    pub fn done(done: BTreeSet<usize>) -> Units {
        Units { done, shard: None }
    }

    /// The units of one shard.
    pub fn shard(shard: Shard) -> Units {
        Units {
            done: BTreeSet::new(),
            shard: Some(shard),
        }
    }

    /// Which units to run, given every unit's estimated work (computed
    /// only when sharded: `estimate` is called once per unit then).
    pub(crate) fn to_run(&self, units: usize, estimate: impl FnMut(usize) -> u64) -> Vec<bool> {
        let mut run = match self.shard {
            Some(s) => s.owned(&(0..units).map(estimate).collect::<Vec<_>>()),
            None => vec![true; units],
        };
        for &k in &self.done {
            if let Some(r) = run.get_mut(k) {
                *r = false;
            }
        }
        run
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn shards_parse() {
        assert_eq!("0/4".parse(), Ok(Shard { index: 0, count: 4 }));
        assert_eq!(" 3 / 4 ".parse(), Ok(Shard { index: 3, count: 4 }));
        for bad in ["4/4", "1/0", "x/2", "1", "-1/2", "1/200000"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn slurm_variables_give_the_shard() {
        let env = |pairs: &[(&str, &str)]| {
            let m: HashMap<String, String> = pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            move |k: &str| m.get(k).cloned()
        };
        let ids = [
            ("SLURM_ARRAY_TASK_ID", "2"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert_eq!(
            Shard::from_slurm(env(&ids)),
            Ok(Shard { index: 2, count: 4 })
        );
        let from_one = [
            ("SLURM_ARRAY_TASK_ID", "4"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
        ];
        assert_eq!(
            Shard::from_slurm(env(&from_one)),
            Ok(Shard { index: 3, count: 4 })
        );
        assert!(Shard::from_slurm(env(&[])).unwrap_err().contains("not set"));
        let holes = [
            ("SLURM_ARRAY_TASK_ID", "9"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
        ];
        assert!(Shard::from_slurm(env(&holes)).is_err());
        let step = [
            ("SLURM_ARRAY_TASK_ID", "2"),
            ("SLURM_ARRAY_TASK_COUNT", "2"),
            ("SLURM_ARRAY_TASK_STEP", "2"),
        ];
        assert!(Shard::from_slurm(env(&step)).is_err());
        // --array=2,5: two tasks, not a range.
        let list = [
            ("SLURM_ARRAY_TASK_ID", "2"),
            ("SLURM_ARRAY_TASK_COUNT", "2"),
            ("SLURM_ARRAY_TASK_MIN", "2"),
            ("SLURM_ARRAY_TASK_MAX", "5"),
        ];
        assert!(
            Shard::from_slurm(env(&list))
                .unwrap_err()
                .contains("contiguous")
        );
    }

    #[test]
    fn every_unit_has_one_owner_and_work_is_balanced() {
        // One heavy unit and many light ones: the heavy one is alone.
        let mut est = vec![1u64; 30];
        est[7] = 30;
        let owners = Shard::owners(2, &est);
        assert_eq!(owners[7], 0);
        assert_eq!(owners.iter().filter(|&&s| s == 0).count(), 1);
        // Each unit in exactly one shard, for any count.
        for n in 1..6 {
            let est: Vec<u64> = (0..50).map(|k| (k * 7919 % 97) as u64).collect();
            let owned: Vec<Vec<bool>> = (0..n)
                .map(|i| Shard::new(i, n).unwrap().owned(&est))
                .collect();
            for k in 0..est.len() {
                assert_eq!(owned.iter().filter(|o| o[k]).count(), 1, "unit {k}");
            }
            // Longest-first greedy: no shard exceeds the mean by more than
            // the biggest unit.
            let total: u64 = est.iter().map(|&e| e.max(1)).sum();
            let max = *est.iter().max().unwrap();
            for o in &owned {
                let load: u64 = (0..est.len())
                    .filter(|&k| o[k])
                    .map(|k| est[k].max(1))
                    .sum();
                assert!(load <= total / n as u64 + max, "{load} of {total}");
            }
        }
    }

    #[test]
    fn done_units_are_skipped() {
        let u = Units::done([1, 3].into());
        assert_eq!(u.to_run(4, |_| 0), [true, false, true, false]);
        let s = Units::shard(Shard::new(1, 2).unwrap());
        let run = s.to_run(4, |k| [5, 1, 1, 5][k]);
        assert_eq!(run, [false, false, true, true]);
    }
}

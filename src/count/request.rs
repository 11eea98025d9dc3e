//! What a caller asks of a count (the command line's options, the Python
//! package's keywords), checked and completed for one puzzle into the
//! [`CountOptions`] the methods run with: the one place that decides the
//! methods (auto or given), the probes and the checkpoint's order.

use std::path::PathBuf;
use std::time::Duration;

use crate::engines::backtrack::Order;
use crate::puzzle::Puzzle;
use crate::solve::StopToken;
use crate::solve::kind::each_once;

use super::{CheckBudget, CountOptions, Method, auto_methods, check_checkpoint};

/// Probes per tree of the estimate without a time limit.
const DEFAULT_PROBES: u64 = 100_000;

/// The default cap on states per step of the dynamic programme (about
/// 3 GB).
pub const DEFAULT_MAX_STATES: usize = 40_000_000;

/// A count as asked for, before the puzzle decides the rest.
#[derive(Clone, Debug)]
pub struct CountRequest {
    /// The methods, in order (a repeat runs once); empty: auto, dp and
    /// enumerate in the order the counting benchmark favours for the
    /// puzzle, the second a check of the first on a budget, then an
    /// estimate if neither finishes.
    pub methods: Vec<Method>,
    /// The whole count's time limit, shared among its methods.
    pub time_limit: Option<Duration>,
    pub threads: usize,
    pub stop: StopToken,
    /// dp: the most states one step may hold.
    pub max_states: usize,
    /// fourier: the grid of points (0: the default; another number an
    /// independent computation of the same count).
    pub fourier_grid: u32,
    /// estimate: probes per tree; `None`: 100,000, or with a time limit as
    /// many as the estimate's share of it allows.
    pub probes: Option<u64>,
    /// estimate: the random seed.
    pub seed: u64,
    /// enumerate: the file of finished work units, resumed from.
    pub checkpoint: Option<PathBuf>,
    /// enumerate: the placement order (`None`: the count chooses, or the
    /// checkpoint's).
    pub order: Option<Order>,
}

impl Default for CountRequest {
    fn default() -> Self {
        CountRequest {
            methods: Vec::new(),
            time_limit: None,
            threads: 1,
            stop: StopToken::new(),
            max_states: DEFAULT_MAX_STATES,
            fourier_grid: 0,
            probes: None,
            seed: 1,
            checkpoint: None,
            order: None,
        }
    }
}

impl CountRequest {
    /// The options of this count of `puzzle`; a usage error where the
    /// request contradicts itself (a checkpoint or an order without the
    /// method that keeps it) or its checkpoint belongs to another count.
    pub fn options(&self, puzzle: &Puzzle) -> Result<CountOptions, String> {
        let auto = self.methods.is_empty();
        let mut methods = if auto {
            auto_methods(puzzle)
        } else {
            each_once(&self.methods)
        };
        if self.fourier_grid != 0 && !methods.contains(&Method::Fourier) {
            return Err(
                "--fourier-grid is the programme at roots of unity's: add --method fourier".into(),
            );
        }
        let (checkpoint_by, order) = match &self.checkpoint {
            Some(path) => check_checkpoint(path, puzzle, self.order, &methods, self.fourier_grid)?,
            None => (Method::Enumerate, self.order),
        };
        // A checkpoint asks for the method that keeps it, an order for the
        // enumeration: under auto each takes the check's place where the
        // rules left it out.
        let checkpointed = self.checkpoint.is_some().then_some(checkpoint_by);
        let ordered = self.order.is_some().then_some(Method::Enumerate);
        for wanted in [checkpointed, ordered].into_iter().flatten() {
            if methods.contains(&wanted) {
                continue;
            }
            if auto {
                methods.truncate(1);
                methods.push(wanted);
                continue;
            }
            let exists = self.checkpoint.as_ref().is_some_and(|p| p.exists());
            return Err(match wanted {
                Method::Fourier => {
                    "this --checkpoint records the programme at roots of unity: \
                     add --method fourier"
                }
                _ if checkpointed.is_some() && exists => {
                    "this --checkpoint records the enumeration: add --method enumerate"
                }
                _ if checkpointed.is_some() => {
                    "--checkpoint records the enumeration or the programme at roots of \
                     unity: add --method enumerate or --method fourier"
                }
                _ => "--order is the enumeration's placement order: add --method enumerate",
            }
            .into());
        }
        Ok(CountOptions {
            methods,
            check: auto.then(CheckBudget::default),
            estimate_if_unfinished: auto,
            time_limit: self.time_limit,
            threads: self.threads.max(1),
            stop: self.stop.clone(),
            max_states: self.max_states,
            fourier_grid: self.fourier_grid,
            probes: self.probes.unwrap_or(DEFAULT_PROBES),
            probes_fill_time: self.probes.is_none() && self.time_limit.is_some(),
            seed: self.seed,
            checkpoint: self.checkpoint.clone(),
            checkpoint_by,
            shard: None,
            order,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed() -> Puzzle {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        Puzzle::load(&root.join("puzzles/3x3-original")).unwrap()
    }

    #[test]
    fn no_methods_is_auto_with_its_check_and_estimate() {
        let o = CountRequest::default().options(&seed()).unwrap();
        assert_eq!(o.methods, auto_methods(&seed()));
        assert!(o.check.is_some() && o.estimate_if_unfinished);
        assert_eq!(o.probes, DEFAULT_PROBES);
        assert!(!o.probes_fill_time);
    }

    #[test]
    fn a_checkpoint_under_auto_goes_to_the_method_that_keeps_it() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let ants =
            Puzzle::load(&root.join("puzzles/legespiel/the-ant-trails-puzzle.yaml")).unwrap();
        assert_eq!(auto_methods(&ants), [Method::Fourier, Method::Dp]);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("units.json");
        let r = CountRequest {
            checkpoint: Some(path.clone()),
            ..CountRequest::default()
        };
        // A new file: the first method, which keeps checkpoints.
        let o = r.options(&ants).unwrap();
        assert_eq!(o.methods, [Method::Fourier, Method::Dp]);
        assert_eq!(o.checkpoint_by, Method::Fourier);
        // An enumeration's file: the enumeration is the check, and keeps it.
        let search = crate::engines::backtrack::Backtrack::new(Order::Row).units_name();
        super::super::checkpoint::Checkpoint::open(&path, &ants, &search)
            .unwrap()
            .write();
        let o = r.options(&ants).unwrap();
        assert_eq!(o.methods, [Method::Fourier, Method::Enumerate]);
        assert_eq!(o.checkpoint_by, Method::Enumerate);
        assert_eq!(o.order, Some(Order::Row));
        // Given methods must hold the file's.
        let given = CountRequest {
            methods: vec![Method::Fourier],
            ..r.clone()
        };
        assert!(
            given
                .options(&ants)
                .unwrap_err()
                .contains("add --method enumerate")
        );
        // A file of the programme at roots of unity.
        std::fs::remove_file(&path).unwrap();
        let fourier = CountRequest {
            methods: vec![Method::Dp, Method::Fourier],
            ..r.clone()
        };
        assert_eq!(
            fourier.options(&ants).unwrap().checkpoint_by,
            Method::Fourier
        );
        let search = crate::count::fourier::checkpoint_search(0);
        super::super::checkpoint::Checkpoint::open(&path, &ants, &search)
            .unwrap()
            .write();
        let enumerate = CountRequest {
            methods: vec![Method::Enumerate],
            ..r.clone()
        };
        assert!(
            enumerate
                .options(&ants)
                .unwrap_err()
                .contains("add --method fourier")
        );
        // Another grid is another computation.
        let other_grid = CountRequest {
            methods: vec![Method::Fourier],
            fourier_grid: 1,
            ..r
        };
        assert!(
            other_grid
                .options(&ants)
                .unwrap_err()
                .contains("another search (fourier grid 0")
        );
    }

    #[test]
    fn given_methods_run_once_each_without_a_check() {
        let r = CountRequest {
            methods: vec![Method::Enumerate, Method::Dp, Method::Enumerate],
            time_limit: Some(Duration::from_secs(5)),
            ..CountRequest::default()
        };
        let o = r.options(&seed()).unwrap();
        assert_eq!(o.methods, vec![Method::Enumerate, Method::Dp]);
        assert!(o.check.is_none() && !o.estimate_if_unfinished);
        // Without a number of probes, a time limit fills the share.
        assert!(o.probes_fill_time);
    }

    #[test]
    fn an_option_of_one_method_needs_that_method() {
        let dp = vec![Method::Dp];
        let ordered = CountRequest {
            methods: dp.clone(),
            order: Some(Order::Row),
            ..CountRequest::default()
        };
        assert!(ordered.options(&seed()).unwrap_err().contains("--order"));
        let checkpointed = CountRequest {
            methods: dp,
            checkpoint: Some("units.json".into()),
            ..CountRequest::default()
        };
        assert!(
            checkpointed
                .options(&seed())
                .unwrap_err()
                .contains("--checkpoint")
        );
        let gridded = CountRequest {
            methods: vec![Method::Dp],
            fourier_grid: 1,
            ..CountRequest::default()
        };
        assert!(
            gridded
                .options(&seed())
                .unwrap_err()
                .contains("--fourier-grid")
        );
        let fourier = CountRequest {
            methods: vec![Method::Fourier],
            fourier_grid: 1,
            ..CountRequest::default()
        };
        assert_eq!(fourier.options(&seed()).unwrap().fourier_grid, 1);
    }
}

//! The backtracker as the commands know it: its options (`--order`, the
//! restarts of first-solution runs), its statistics, its name for what it
//! searched.

use clap::Args;
use serde::{Deserialize, Serialize};

use super::{Backtrack, DEFAULT_ORDER, FIRST_SOLUTIONS_ORDER, Order, Restarts};
use crate::solve::kind::{Build, Built, EngineKind, UnitStats, not_searched_by, sum};
use crate::solve::{Searched, SolveError, Turns};

/// The backtracker, for `crate::registry`.
pub struct Kind;

/// The backtracker's options.
#[derive(Clone, Debug, Default, Args)]
pub struct BacktrackArgs {
    /// Placement order of the backtracking solver (default: spiral, the
    /// fastest measured for complete runs; row with --limit).
    #[arg(long, value_enum)]
    pub order: Option<Order>,
    /// Backtracking with --limit: search once, in the one order, instead of
    /// restarting on a growing node budget with the tiles in a new random
    /// order each time (docs/backtracking.md, "Restarts").
    #[arg(long)]
    pub no_restarts: bool,
    /// Backtracking restarts: the nodes of the shortest attempt (the Luby
    /// sequence times this). Default: 262144.
    #[arg(long, value_name = "NODES", value_parser = crate::solve::kind::positive)]
    pub restart_unit: Option<u64>,
    /// Backtracking restarts: the seed of the tile orders. Default: 1.
    #[arg(long, value_name = "N")]
    pub restart_seed: Option<u64>,
    /// Backtracking with --limit in the row orders: do not check, before
    /// each descent, that the next row can still be started
    /// (docs/backtracking.md, "Lookahead").
    #[arg(long)]
    pub no_lookahead: bool,
}

impl BacktrackArgs {
    /// The first option of first-solution runs given, if any.
    pub fn restarts_given(&self) -> Option<&'static str> {
        if self.no_restarts {
            Some("--no-restarts")
        } else if self.restart_unit.is_some() {
            Some("--restart-unit")
        } else if self.restart_seed.is_some() {
            Some("--restart-seed")
        } else if self.no_lookahead {
            Some("--no-lookahead")
        } else {
            None
        }
    }

    /// The backtracker these options ask for.
    pub fn solver(&self, turns: Turns, first_solutions: bool) -> Backtrack {
        let default = match first_solutions {
            true => FIRST_SOLUTIONS_ORDER,
            false => DEFAULT_ORDER,
        };
        let mut bt = Backtrack {
            turns,
            ..Backtrack::new(self.order.unwrap_or(default))
        };
        if first_solutions {
            bt.restarts = (!self.no_restarts).then(|| {
                let d = Restarts::default();
                Restarts {
                    seed: self.restart_seed.unwrap_or(d.seed),
                    unit: self.restart_unit.unwrap_or(d.unit),
                }
            });
            bt.lookahead = !self.no_lookahead;
        }
        bt
    }
}

/// The backtracker's counters.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wall_time_s: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workers: Option<usize>,
    /// Placements made, in total and per depth.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes_per_depth: Option<Vec<u64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes_per_second: Option<f64>,
    #[serde(flatten)]
    pub units: UnitStats,
    /// With restarts (first solutions): the attempts started, over all
    /// workers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attempts: Option<u64>,
}

/// The suffix of a full-tree run's name.
const FULL_TREE: &str = "+full-tree";

impl Backtrack {
    /// What it searched: its order, and `+full-tree`.
    pub(super) fn name_searched(&self) -> Searched {
        match self.turns {
            Turns::Full => Searched::new(format!("{}{FULL_TREE}", self.order.name())),
            Turns::Reduce => Searched::new(self.order.name()),
        }
    }
}

impl EngineKind for Kind {
    const NAME: &'static str = "backtrack";
    const ABOUT: &'static str = "the native backtracking search";
    type Args = BacktrackArgs;
    type Stats = Stats;

    fn given(args: &BacktrackArgs) -> Option<&'static str> {
        match args.order {
            Some(_) => Some("--order"),
            None => args.restarts_given(),
        }
    }

    fn build(args: &BacktrackArgs, build: &Build) -> Result<Vec<Built>, SolveError> {
        if let (Some(flag), false) = (args.restarts_given(), build.first_solutions) {
            return Err(SolveError::Unsupported(format!(
                "{flag} applies to first-solution runs only: add --limit N"
            )));
        }
        Ok(vec![Box::new(
            args.solver(build.turns, build.first_solutions),
        )])
    }

    fn searched(text: &str) -> Result<Searched, String> {
        let order = text.strip_suffix(FULL_TREE).unwrap_or(text);
        match Order::ALL.iter().any(|o| o.name() == order) {
            true => Ok(Searched::new(text)),
            false => Err(not_searched_by(Self::NAME, text)),
        }
    }

    /// Work summed; the nodes of the levels every shard searched to find
    /// its units counted once; no unit counts (one run has none).
    fn merge(all: Vec<Stats>) -> Stats {
        let depth = all.iter().find_map(|s| s.units.unit_depth).unwrap_or(0);
        let per_depth = all.iter().fold(None::<Vec<u64>>, |acc, s| {
            let Some(v) = &s.nodes_per_depth else {
                return acc;
            };
            Some(match acc {
                None => v.clone(),
                Some(mut a) => {
                    for (d, (x, y)) in a.iter_mut().zip(v).enumerate() {
                        if d >= depth {
                            *x += y;
                        }
                    }
                    a
                }
            })
        });
        let nodes = per_depth.as_ref().map(|v| v.iter().sum::<u64>());
        let wall = sum(all.iter().map(|s| s.wall_time_s));
        Stats {
            wall_time_s: wall,
            workers: all.first().and_then(|s| s.workers),
            nodes,
            nodes_per_depth: per_depth,
            nodes_per_second: nodes
                .zip(wall)
                .map(|(n, w)| if w > 0.0 { n as f64 / w } else { 0.0 }),
            units: UnitStats::default(),
            attempts: sum(all.iter().map(|s| s.attempts)),
        }
    }
}

//! CP-SAT as the commands know it: its options (`--model`, `--split`), its
//! statistics, its name for what it searched (the model, and the label of
//! the user's constraints).

use std::sync::Arc;

use clap::Args;
use serde::{Deserialize, Serialize};

use super::CpSat;
use crate::model::Choice;
use crate::solve::kind::{
    Build, Built, Constraints, EngineKind, UnitStats, each_once, max, not_searched_by, sum,
};
use crate::solve::{Searched, SolveError, Split};

/// CP-SAT, for `crate::registry`.
pub struct Kind;

/// CP-SAT's options.
#[derive(Clone, Debug, Default, Args)]
pub struct CpSatArgs {
    /// A CP formulation for CP-SAT: table, edge, boolean or edge-boolean
    /// (docs/model.md); repeat the option to run several (compare, bench,
    /// symmetry-report), e.g. --model table --model edge. Default: edge,
    /// the fastest measured.
    #[arg(long = "model", value_name = "NAME")]
    pub models: Vec<Choice>,
    /// How to cut the enumeration into subproblems (CP-SAT only): auto
    /// (default), none, or the number of cells fixed up front.
    #[arg(long, value_name = "auto|none|K")]
    pub split: Option<Split>,
}

impl CpSatArgs {
    /// The models asked for, or the default one; each once, in order.
    pub fn chosen(&self) -> Vec<Choice> {
        let mut out = each_once(&self.models);
        if out.is_empty() {
            out.push(Choice::default());
        }
        out
    }
}

/// CP-SAT's counters, summed over its solves.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branches: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conflicts: Option<u64>,
    /// The solver's own wall time, summed over its solves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wall_time_s: Option<f64>,
    /// The time spent building the model (before any solve).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub build_time_s: Option<f64>,
    /// The memory (MB) the run could add to its process before its solves
    /// were stopped (`--memory-limit`, or the default derived from the
    /// memory available at the start).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_limit_mb: Option<u64>,
    /// What the run would have needed (MB over what the process held at
    /// its start) to load its model, when that passed the limit and the
    /// model was not handed over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_needed_mb: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subproblems: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subproblems_split: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_split_depth: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workers: Option<usize>,
    #[serde(flatten)]
    pub units: UnitStats,
}

impl CpSat {
    /// What it searched: its model, and `+` the label of the user's
    /// constraints.
    pub(super) fn name_searched(&self) -> Searched {
        match &self.constraints {
            Some(c) => Searched::new(format!("{}+{}", self.encoding.name(), c.label())),
            None => Searched::new(self.encoding.name()),
        }
    }
}

impl EngineKind for Kind {
    const NAME: &'static str = "cp-sat";
    const ABOUT: &'static str = "OR-Tools CP-SAT through its C API";
    const TAKES_CONSTRAINTS: bool = true;
    type Args = CpSatArgs;
    type Stats = Stats;

    fn given(args: &CpSatArgs) -> Option<&'static str> {
        if !args.models.is_empty() {
            Some("--model")
        } else if args.split.is_some() {
            Some("--split")
        } else {
            None
        }
    }

    fn build(args: &CpSatArgs, build: &Build) -> Result<Vec<Built>, SolveError> {
        let runtime = |e: super::RuntimeError| SolveError::Runtime(Box::new(e));
        let cp = CpSat::new()
            .map_err(runtime)?
            .with_turns(build.turns)
            .with_memory_limit(build.memory_limit)
            .with_split(args.split.unwrap_or(Split::Auto));
        let own = match build.constraints {
            Some((path, how)) => Some((
                Arc::new(
                    cp.read_constraints(path)
                        .map_err(|e| SolveError::Constraints(e.to_string()))?,
                ),
                how,
            )),
            None => None,
        };
        let mut out: Vec<Built> = Vec::new();
        for m in args.chosen() {
            let plain = cp.clone().with_model(m);
            match &own {
                None => out.push(Box::new(plain)),
                Some((c, Constraints::Within)) => {
                    out.push(Box::new(plain.with_constraints(Some(c.clone()))))
                }
                Some((c, Constraints::Beside)) => {
                    out.push(Box::new(plain.clone()));
                    out.push(Box::new(plain.with_constraints(Some(c.clone()))));
                }
            }
        }
        Ok(out)
    }

    fn searched(text: &str) -> Result<Searched, String> {
        let model = text.split_once('+').map_or(text, |(m, _)| m);
        match model.parse::<Choice>() {
            Ok(_) => Ok(Searched::new(text)),
            Err(_) => Err(not_searched_by(Self::NAME, text)),
        }
    }

    /// Work summed; the model's build and the memory ceiling the largest.
    fn merge(all: Vec<Stats>) -> Stats {
        Stats {
            branches: sum(all.iter().map(|s| s.branches)),
            conflicts: sum(all.iter().map(|s| s.conflicts)),
            wall_time_s: sum(all.iter().map(|s| s.wall_time_s)),
            build_time_s: max(all.iter().map(|s| s.build_time_s)),
            memory_limit_mb: max(all.iter().map(|s| s.memory_limit_mb)),
            memory_needed_mb: max(all.iter().map(|s| s.memory_needed_mb)),
            subproblems: sum(all.iter().map(|s| s.subproblems)),
            subproblems_split: sum(all.iter().map(|s| s.subproblems_split)),
            max_split_depth: max(all.iter().map(|s| s.max_split_depth)),
            workers: all.first().and_then(|s| s.workers),
            units: UnitStats::default(),
        }
    }
}

//! The SAT engine as the commands know it: its option (`--encoding`), its
//! statistics, its name for what it searched.

use clap::Args;
use serde::{Deserialize, Serialize};

use super::{Encoding, Sat};
use crate::solve::kind::{
    Build, Built, EngineKind, UnitStats, each_once, max, not_searched_by, sum,
};
use crate::solve::{Searched, SolveError};

/// The SAT engine, for `crate::registry`.
pub struct Kind;

/// The SAT engine's options.
#[derive(Clone, Debug, Default, Args)]
pub struct SatArgs {
    /// The SAT encoding (--solver sat): support, support-sequential, colour
    /// or colour-sequential (docs/sat.md); repeat the option to run several
    /// (compare, bench, symmetry-report). Default: colour-sequential, the
    /// fastest measured.
    #[arg(long = "encoding", value_name = "NAME")]
    pub encodings: Vec<Encoding>,
}

impl SatArgs {
    /// The engines asked for, or the default one; each once, in order.
    pub fn solvers(&self) -> Vec<Sat> {
        let mut out = each_once(&self.encodings);
        if out.is_empty() {
            out.push(Encoding::default());
        }
        out.into_iter().map(Sat::new).collect()
    }
}

/// The SAT engine's counters: the CNF's variables and clauses, the
/// solver's calls (one per model found and one per finished unit), and
/// CaDiCaL's conflicts, decisions and propagations.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conflicts: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wall_time_s: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workers: Option<usize>,
    #[serde(flatten)]
    pub units: UnitStats,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variables: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clauses: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sat_solves: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decisions: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub propagations: Option<u64>,
    /// What a run could add to its process (`--memory-limit`, or half
    /// the memory available at its start).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_limit_mb: Option<u64>,
}

impl EngineKind for Kind {
    const NAME: &'static str = "sat";
    const ABOUT: &'static str = "CaDiCaL on the puzzle's clauses (in process)";
    type Args = SatArgs;
    type Stats = Stats;

    fn given(args: &SatArgs) -> Option<&'static str> {
        (!args.encodings.is_empty()).then_some("--encoding")
    }

    fn build(args: &SatArgs, _: &Build) -> Result<Vec<Built>, SolveError> {
        Ok(args
            .solvers()
            .into_iter()
            .map(|s| Box::new(s) as Built)
            .collect())
    }

    fn searched(text: &str) -> Result<Searched, String> {
        match text.parse::<Encoding>() {
            Ok(e) => Ok(Searched::new(e.name())),
            Err(_) => Err(not_searched_by(Self::NAME, text)),
        }
    }

    /// Work summed; the CNF's size is each shard's.
    fn merge(all: Vec<Stats>) -> Stats {
        Stats {
            conflicts: sum(all.iter().map(|s| s.conflicts)),
            wall_time_s: sum(all.iter().map(|s| s.wall_time_s)),
            workers: all.first().and_then(|s| s.workers),
            units: UnitStats::default(),
            variables: max(all.iter().map(|s| s.variables)),
            clauses: max(all.iter().map(|s| s.clauses)),
            sat_solves: sum(all.iter().map(|s| s.sat_solves)),
            decisions: sum(all.iter().map(|s| s.decisions)),
            propagations: sum(all.iter().map(|s| s.propagations)),
            memory_limit_mb: max(all.iter().map(|s| s.memory_limit_mb)),
        }
    }
}

//! What a backend reports of its effort, and of each engine of a race.

use serde::{Deserialize, Serialize};

use super::{Engine, Searched};

/// Statistics a backend reports; fields a backend does not have stay `None`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SolverStats {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branches: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conflicts: Option<u64>,
    /// The solver's own wall time, summed over its solves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wall_time_s: Option<f64>,
    /// CP-SAT: the time spent building the model (before any solve).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub build_time_s: Option<f64>,
    /// CP-SAT: the memory (MB) the run could add to its process before
    /// its solves were stopped (`--memory-limit`, or the default derived
    /// from the memory available at the start).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_limit_mb: Option<u64>,
    /// CP-SAT: what the run would have needed (MB over what the process
    /// held at its start) to load its model, when that passed the limit
    /// and the model was not handed over.
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
    /// Backtracking: placements made, in total and per depth.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes_per_depth: Option<Vec<u64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes_per_second: Option<f64>,
    /// With work units (`SolveOptions::units`): how many in all, how many
    /// this run searched, and how many cells each fixes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub units: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub units_run: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit_depth: Option<usize>,
    /// Backtracking with restarts (first solutions): the attempts started,
    /// over all workers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attempts: Option<u64>,
    /// SAT: the CNF's variables and clauses, the solver's calls (one per
    /// model found and one per finished unit), and CaDiCaL's decisions and
    /// propagations (its conflicts are `conflicts`).
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
    /// `--solver auto`: every engine that ran, and how it ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub race: Option<Vec<Entrant>>,
}

/// One engine of a `--solver auto` run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "SavedEntrant")]
pub struct Entrant {
    pub engine: Engine,
    pub model: Searched,
    /// `won`, `stopped`, `chosen for a complete run`, `not started (...)`
    /// (the race ended within the head start) or `failed: why`.
    pub ended: String,
    pub wall_time_s: f64,
    pub stats: SolverStats,
}

/// An entrant as a saved report writes it: its model by name, read back
/// with its engine.
#[derive(Deserialize)]
struct SavedEntrant {
    engine: Engine,
    model: String,
    ended: String,
    wall_time_s: f64,
    stats: SolverStats,
}

impl TryFrom<SavedEntrant> for Entrant {
    type Error = String;
    fn try_from(s: SavedEntrant) -> Result<Entrant, String> {
        Ok(Entrant {
            model: Searched::read(s.engine, &s.model)?,
            engine: s.engine,
            ended: s.ended,
            wall_time_s: s.wall_time_s,
            stats: s.stats,
        })
    }
}

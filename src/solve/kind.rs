//! What an engine says of itself to the commands: its name, its own
//! command-line options (a clap `Args` struct of its folder), how its runs
//! are built from them, its own statistics and how shards' statistics
//! join, and how a saved report's name of what it searched reads back.
//! `crate::registry` lists the engines, one line each, and serves every
//! command that builds engines; nothing else names them.

use std::path::Path;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::{Searched, SolveError, Solver, Turns};
use crate::puzzle::Puzzle;

/// An engine by its name: what `--solver` takes and what a result says
/// solved it (`cp-sat`, `backtrack`, ...). The core lists no engine: each
/// names itself, and `crate::registry` holds the one list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Engine(&'static str);

impl Engine {
    /// The engine called `name`.
    pub const fn named(name: &'static str) -> Engine {
        Engine(name)
    }

    /// Its name, as `--solver` takes it, e.g. `cp-sat`.
    pub fn name(self) -> &'static str {
        self.0
    }

    /// The engine a saved report names: the names read are kept once
    /// each for the life of the process (a handful: the engines').
    pub fn read(name: &str) -> Engine {
        use std::collections::BTreeSet;
        use std::sync::Mutex;
        static NAMES: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());
        let mut names = NAMES.lock().unwrap_or_else(|e| e.into_inner());
        match names.get(name) {
            Some(n) => Engine(n),
            None => {
                let n: &'static str = Box::leak(name.to_string().into_boxed_str());
                names.insert(n);
                Engine(n)
            }
        }
    }
}

impl std::fmt::Display for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl Serialize for Engine {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0)
    }
}

impl<'de> Deserialize<'de> for Engine {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Engine, D::Error> {
        Ok(Engine::read(&String::deserialize(d)?))
    }
}

/// Who answered a run made of several engines (a race): that engine, what
/// it searched and its version, which the result names instead of the
/// race's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub engine: Engine,
    pub searched: Searched,
    pub version: String,
}

/// One run of an engine, ready to solve on any thread.
pub type Built = Box<dyn Solver + Send + Sync>;

/// What a command asks of the engines it builds, beside their own options.
#[derive(Clone, Debug, Default)]
pub struct Build<'a> {
    /// The board turns each solve searches (`--full-tree`, or a study
    /// that needs the full tree).
    pub turns: Turns,
    /// Runs for first solutions (`--limit`) rather than complete ones.
    pub first_solutions: bool,
    /// The memory ceiling in bytes (`--memory-limit`), for the engines
    /// that watch one.
    pub memory_limit: Option<u64>,
    /// The user's constraints (`--constraints FILE`), for the engines with
    /// a model to add them to, and how.
    pub constraints: Option<(&'a Path, Constraints)>,
}

/// How the user's constraints join an engine's runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Constraints {
    /// Every run with them (solve).
    Within,
    /// Every run twice: as it is, and with them (bench).
    Beside,
}

/// An engine's options when it has none of its own.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct NoArgs {}

/// An engine as the commands know it. Implemented in the engine's folder.
pub trait EngineKind: 'static {
    /// Its name, as `--solver` takes it.
    const NAME: &'static str;
    /// One line on it for `--solver`'s help.
    const ABOUT: &'static str;
    /// Whether `compare` runs it on every puzzle it covers.
    const COMPARED: bool = true;
    /// Whether `symmetry-report` can run the formulations with it.
    const REPORTS_SYMMETRY: bool = true;
    /// Whether it adds the user's constraints ([`Build::constraints`]) to
    /// its runs; an engine that does not ignores them, and a command that
    /// runs no such engine refuses them.
    const TAKES_CONSTRAINTS: bool = false;
    /// Its own command-line options.
    type Args: clap::Args + clap::FromArgMatches + Send + Sync + 'static;
    /// Its own statistics ([`super::SolverStats::of`]).
    type Stats: Serialize + DeserializeOwned + Default;

    /// The first of its own options given, if any: a command refuses it
    /// when this engine does not run.
    fn given(args: &Self::Args) -> Option<&'static str>;

    /// Its runs: one per variant its options ask for (each model, each
    /// encoding), in order.
    fn build(args: &Self::Args, build: &Build) -> Result<Vec<Built>, SolveError>;

    /// Why it does not cover this puzzle, if it does not (`compare` then
    /// leaves it out).
    fn covers(_puzzle: &Puzzle) -> Option<String> {
        None
    }

    /// What a saved report of its run names what it searched, read back;
    /// a name it never writes is refused.
    fn searched(text: &str) -> Result<Searched, String>;

    /// The statistics of shards' runs, as one run's.
    fn merge(all: Vec<Self::Stats>) -> Self::Stats;
}

/// The values given, each once, in the order given (an option repeated,
/// e.g. `--model table --model table`).
pub fn each_once<T: PartialEq + Copy>(given: &[T]) -> Vec<T> {
    let mut out: Vec<T> = Vec::new();
    for v in given {
        if !out.contains(v) {
            out.push(*v);
        }
    }
    out
}

/// A whole number of at least 1 (`--restart-unit`, `--limit`, `--probes`, ...).
pub fn positive(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(0) => Err("must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!(
            "expected a whole number of at least 1, found {s:?}"
        )),
    }
}

/// What a run over work units (`SolveOptions::units`) counts of them: how
/// many in all, how many it searched, and how many cells each fixes. An
/// engine that cuts its search into units flattens this into its
/// statistics; a merge of shards has none (one run has no units).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct UnitStats {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub units: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub units_run: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit_depth: Option<usize>,
}

/// A name that no engine writes for what it searched.
pub fn not_searched_by(engine: &str, text: &str) -> String {
    format!("{text:?} is not a model of the {engine} solver")
}

/// Counters summed over shards (`None` where no shard has one).
pub fn sum<T: std::iter::Sum<T>>(all: impl IntoIterator<Item = Option<T>>) -> Option<T> {
    let v: Vec<T> = all.into_iter().flatten().collect();
    (!v.is_empty()).then(|| v.into_iter().sum())
}

/// The largest over shards (`None` where no shard has one).
pub fn max<T: PartialOrd>(all: impl IntoIterator<Item = Option<T>>) -> Option<T> {
    all.into_iter()
        .flatten()
        .reduce(|a, b| if b > a { b } else { a })
}

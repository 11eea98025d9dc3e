//! The options several commands share (clap derive), each with what it
//! turns into: pictures, the backtracker, CP models, user constraints, the
//! symmetry opt-in, limits, shards and fixed pieces.

use super::*;

/// How pictures are drawn.
#[derive(Debug, Args)]
pub struct PictureArgs {
    /// Draw the tiles from their data even where the puzzle has tile images
    /// (1.png ... N.png beside its YAML).
    #[arg(long)]
    pub no_images: bool,
}

impl PictureArgs {
    /// The puzzle's tile images, unless asked not to use them.
    pub fn images(&self, p: &Puzzle) -> Result<Option<TileImages>, ImageError> {
        if self.no_images {
            Ok(None)
        } else {
            TileImages::find(p)
        }
    }
}

/// `--full-tree`: which board turns each solve searches (solve, compare,
/// bench).
#[derive(Debug, Args)]
pub struct TurnsArgs {
    /// Search every board turn of every solution instead of one turn each
    /// (for node-count and formulation studies; the solutions are the
    /// same).
    #[arg(long)]
    pub full_tree: bool,
}

impl TurnsArgs {
    /// The board turns each solve searches.
    pub(crate) fn turns(&self) -> Turns {
        Turns::full_if(self.full_tree)
    }
}

/// The engines a command runs (`--solvers`, each once, in order), with
/// every engine's own options checked against them: an option of an
/// engine the list leaves out is refused.
pub(crate) fn engines_named(
    named: &[Engine],
    own: &crate::registry::EngineArgs,
) -> Result<Vec<Engine>, CliError> {
    let kinds = crate::solve::kind::each_once(named);
    if kinds.is_empty() {
        return Err(CliError::Usage(
            "--solvers: name at least one solver".into(),
        ));
    }
    match own.misplaced(&kinds) {
        Some((flag, engine)) => Err(left_out(flag, engine)),
        None => Ok(kinds),
    }
}

/// `--constraints FILE`: the user's CP-SAT constraints (solve,
/// symmetry-report, bench).
#[derive(Debug, Args)]
pub struct ConstraintsArgs {
    /// Append the constraints in FILE to the CP model (CP-SAT only): a
    /// `CpModelProto` fragment in protobuf text format whose `variables`
    /// name the model's variables it uses (as `scramble model` prints
    /// them) and declare new ones (docs/python.md, "Constraints of your
    /// own"). The solve then searches every board turn (no turn reduction).
    #[arg(long, value_name = "FILE")]
    pub constraints: Option<PathBuf>,
}

impl ConstraintsArgs {
    /// The file, if one is given (one of the command's inputs), and how it
    /// joins the engines' runs; refused unless one of `running` takes
    /// constraints (`listed`: `running` is a `--solvers` list, else solve's
    /// one `--solver`).
    pub(crate) fn given(
        &self,
        how: crate::solve::kind::Constraints,
        running: &[Engine],
        listed: bool,
    ) -> Result<Option<(&Path, crate::solve::kind::Constraints)>, CliError> {
        let Some(path) = &self.constraints else {
            return Ok(None);
        };
        if !running
            .iter()
            .any(|e| crate::registry::takes_constraints(*e))
        {
            let names: Vec<_> = crate::registry::all()
                .filter(|e| crate::registry::takes_constraints(*e))
                .map(|e| e.name())
                .collect();
            let names = names.join(" or ");
            return Err(match listed {
                false => CliError::Usage(format!("--constraints applies to --solver {names} only")),
                true => left_out("--constraints", &names),
            });
        }
        reads(path);
        Ok(Some((path, how)))
    }
}

/// `--allow-unproven-symmetry` (solve, compare, bench).
#[derive(Debug, Args)]
pub struct UnprovenArgs {
    /// Run a --symmetry combination that is not proven to keep a member of
    /// every class (e.g. center,lex: each keeps one member of a class, not
    /// the same one, so together they can keep none). The report marks
    /// the result unproven: its counts may be too low. Without this, such
    /// a combination is refused (docs/symmetry.md, "Which combinations are
    /// exact").
    #[arg(long)]
    pub allow_unproven_symmetry: bool,
}

impl UnprovenArgs {
    /// The one check every command makes before it solves: a usage error
    /// for an unproven combination unless it was allowed.
    pub(crate) fn check<'a>(
        &self,
        symmetries: impl IntoIterator<Item = &'a Symmetry>,
        e: Equivalence,
    ) -> Result<(), CliError> {
        if self.allow_unproven_symmetry {
            return Ok(());
        }
        for s in symmetries {
            s.proven(e).map_err(SolveError::from)?;
        }
        Ok(())
    }
}

/// `--force`: the one overwrite rule (docs/reliability.md, "Promises"):
/// no command replaces a file that exists, or writes into a non-empty
/// folder scramble did not make, unless asked.
#[derive(Debug, Args)]
pub struct ForceArgs {
    /// Replace output files that exist (and, with solve --out, write into
    /// a non-empty folder scramble did not make). Without it such an
    /// output is refused before any work.
    #[arg(long)]
    pub force: bool,
}

impl ForceArgs {
    /// Make this the rule of the command running on this thread.
    pub(crate) fn apply(&self) {
        OVERWRITE.with(|o| o.set(self.force));
    }
}

thread_local! {
    /// Whether the command running on this thread may replace files
    /// ([`ForceArgs::apply`]; reset by [`super::run`]).
    pub(super) static OVERWRITE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Limits shared by the commands that solve.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The command's time limit: it ends within it (and the fraction of a
    /// second stopping takes) and reports what was found. A command that
    /// runs several solves one after another (compare: one per solver and
    /// puzzle; symmetry-report: one per row) gives each an equal share of
    /// the time left, so one that ends early leaves its time to the rest.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time_limit: Option<Duration>,
    /// Threads (subproblems or subtrees solved in parallel; default: the
    /// number of cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    #[command(flatten)]
    pub memory: MemoryArgs,
}

/// `--memory-limit MB`: the memory ceiling of CP-SAT and the SAT engine
/// (the commands that solve, and bench).
#[derive(Debug, Args)]
pub struct MemoryArgs {
    /// CP-SAT and the SAT engine (the backtracker's memory is fixed): stop
    /// their solves when the run has added MB megabytes to the process's
    /// resident memory (default: half the memory available when the run
    /// starts, at least 256, reported as memory_limit_mb; what the process
    /// held before the run does not count). A CP-SAT solve that searched
    /// is then cut smaller; one that cannot be, or a SAT run, ends the run
    /// as `memory_limit` (docs/model.md, "Memory ceiling").
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(1..=MAX_MEMORY_MB))]
    pub memory_limit: Option<u64>,
}

/// The largest `--memory-limit` (a petabyte): beyond any machine, and its
/// bytes fit a `u64`.
const MAX_MEMORY_MB: u64 = 1_000_000_000;

impl MemoryArgs {
    /// The ceiling in bytes, if one is given.
    pub(super) fn bytes(&self) -> Option<u64> {
        self.memory_limit.map(|m| m.saturating_mul(1_000_000))
    }
}

impl RunArgs {
    /// Solve options with these limits (and defaults otherwise).
    pub(super) fn options(&self, stop: &StopToken) -> SolveOptions {
        SolveOptions {
            time_limit: self.time_limit,
            threads: self
                .threads
                .map(|t| t as usize)
                .unwrap_or_else(default_threads),
            stop: stop.clone(),
            memory_limit: self.memory.bytes(),
            ..SolveOptions::default()
        }
    }
}

/// `--shard [I/N]`: a share given, or read from a Slurm array task.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShardArg {
    Given(crate::solve::Shard),
    /// `--shard` alone: `SLURM_ARRAY_TASK_ID` of `SLURM_ARRAY_TASK_COUNT`.
    Slurm,
}

impl std::str::FromStr for ShardArg {
    type Err = String;
    fn from_str(s: &str) -> Result<ShardArg, String> {
        if s == "slurm" {
            Ok(ShardArg::Slurm)
        } else {
            s.parse().map(ShardArg::Given)
        }
    }
}

impl ShardArg {
    /// The shard, reading Slurm's variables if it was not given.
    pub(super) fn resolve(self) -> Result<crate::solve::Shard, CliError> {
        match self {
            ShardArg::Given(s) => Ok(s),
            ShardArg::Slurm => crate::solve::Shard::from_slurm(|k| std::env::var(k).ok())
                .map_err(|e| CliError::Usage(format!("--shard: {e}"))),
        }
    }
}

/// A whole number of at least 1 (`--limit`, `--probes`, ...).
pub(crate) use crate::solve::kind::positive as parse_positive;

pub(super) fn parse_seconds(s: &str) -> Result<Duration, String> {
    let v: f64 = s
        .parse()
        .map_err(|_| format!("expected a number of seconds, found {s:?}"))?;
    if !(v.is_finite() && v > 0.0) {
        return Err(format!("must be a positive number of seconds, found {s}"));
    }
    Duration::try_from_secs_f64(v).map_err(|e| e.to_string())
}

/// Fixed pieces given on the command line (`--hint`), added to those the
/// puzzle file fixes.
#[derive(Clone, Debug, Default, Args)]
pub struct HintArgs {
    /// Fix a piece: TILE@SQUARE/TURNS in the Eternity II community's
    /// notation (square I8: row letter from the top, column number; turns
    /// clockwise), TILE@I,J/R in scramble's ((i, j) 1-based, R
    /// counterclockwise quarter turns), or a preset: eternity2 (the starter
    /// piece 139@I8/2) or eternity2-clues (the starter and the four clue
    /// pieces). Repeatable.
    #[arg(long = "hint", value_name = "SPEC")]
    pub hints: Vec<String>,
}

/// An engine's option given while `--solvers` leaves the engine out
/// (bench, symmetry-report).
pub(crate) fn left_out(option: &str, engine: &str) -> CliError {
    CliError::Usage(format!(
        "{option} applies to the {engine} solver, which --solvers leaves out"
    ))
}

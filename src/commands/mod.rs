//! The commands: one folder or file per subcommand, holding its clap
//! `Args`, its run, its text and JSON output and its shard merge
//! (docs/architecture.md). Here: the command list, what every command
//! shares (errors and exit codes, puzzle loading, printing), and the shared
//! options (options.rs). `main.rs` only parses, installs the Ctrl-C handler
//! and maps errors to exit codes.

pub(crate) mod bench;
pub(crate) mod best;
pub(crate) mod compare;
mod convert;
pub mod count;
mod examples;
mod generate;
mod graph;
pub(crate) mod merge;
mod model;
mod options;
mod probe;
mod render;
pub(crate) mod report;
mod shards;
pub(crate) mod solve;
pub(crate) mod symmetry_report;

pub use bench::command::{BenchArgs, GenerateSpec};
pub use best::BestArgs;
pub use compare::command::{CompareArgs, Compared, compared};
pub use convert::ConvertArgs;
pub use count::CountArgs;
pub use generate::{GenerateArgs, TurnsArg as GenerateTurns, generated};
pub use graph::GraphArgs;
pub use merge::command::MergeArgs;
pub use model::ModelArgs;
pub use options::*;
pub use probe::ProbeArgs;
pub use render::RenderArgs;
pub use solve::{Format as SolveFormat, SolveArgs, Solved, solved};
pub use symmetry_report::command::{ReportArgs, Reported, reported};

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};
use thiserror::Error;

use crate::commands::solve::folder::FolderError;
use crate::engines::backtrack::{Backtrack, DEFAULT_ORDER, Order};
use crate::engines::cpsat::{self, RuntimeError};
use crate::engines::sat::Encoding as SatEncoding;
use crate::model::Choice;
use crate::puzzle::{Puzzle, PuzzleError};
use crate::render::images::{ImageError, TileImages};
use crate::render::{Report, svg};
use crate::solve::{Engine, Hooks, Outcome, SolveError, SolveOptions, StopToken, Turns};
use crate::symmetry::{Equivalence, Symmetry};

/// Exit codes (documented in README.md).
pub mod exit {
    /// Solved, or proven to have no solution.
    pub(crate) const OK: u8 = 0;
    /// Stopped by a limit or an interrupt: the output is incomplete.
    pub(crate) const INCOMPLETE: u8 = 1;
    /// Bad usage or bad input (clap also exits 2 on usage errors).
    pub(crate) const INPUT: u8 = 2;
    /// The solver runtime is missing or failed, or rejected the model.
    pub(crate) const SOLVER: u8 = 3;
    /// Interrupted twice: stopped at once.
    pub const INTERRUPTED: u8 = 130;
}

#[derive(Debug, Parser)]
#[command(
    name = "scramble",
    version,
    about = "Solve and study edge-matching puzzles such as Scramble Squares",
    after_help = "Examples:
  scramble solve puzzles/3x3-original                    every solution, by CP-SAT
  scramble solve puzzles/eternity2/clue1.txt --solver backtrack --limit 1
  scramble count puzzles/legespiel/der-sternenhimmel.yaml
  scramble compare puzzles/legespiel                     CP-SAT against the backtracker
  scramble generate --size 4 --out generated/            a puzzle with (mostly) one answer
  scramble render puzzles/3x3-original --output seed.svg

Every command has --help; docs/cli.md is the full reference."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Enumerate every solution of a puzzle with OR-Tools CP-SAT (or the
    /// backtracker, --solver backtrack), or the first N (--limit N).
    #[command(after_help = examples::SOLVE)]
    Solve(SolveArgs),
    /// Run every symmetry-breaking formulation on puzzles and check that each
    /// keeps exactly one solution per class (exit 1 if a documented-exact one
    /// does not).
    #[command(after_help = examples::SYMMETRY_REPORT)]
    SymmetryReport(ReportArgs),
    /// Solve puzzles with both CP-SAT and backtracking and check that the
    /// canonical solution sets are identical (exit 1 if not).
    #[command(after_help = examples::COMPARE)]
    Compare(CompareArgs),
    /// Count labelled solutions, classes and picture classes exactly by two
    /// independent methods (or estimate them, saying so); exit 1 if the
    /// methods disagree or none finishes.
    #[command(after_help = examples::COUNT)]
    Count(CountArgs),
    /// Write random solvable puzzles made by planting a solution.
    #[command(after_help = examples::GENERATE)]
    Generate(GenerateArgs),
    /// Draw the unsolved tiles, or a solution, as SVG or PNG.
    #[command(after_help = examples::RENDER)]
    Render(RenderArgs),
    /// Write a puzzle in the other format: YAML (with its rule keys), or
    /// the Eternity II community's piece file where that format can say it.
    #[command(after_help = examples::CONVERT)]
    Convert(ConvertArgs),
    /// Draw the recording graph of a puzzle (Mason & Zhang): one vertex per
    /// picture, four arcs per piece, as SVG, PNG or DOT.
    #[command(after_help = examples::GRAPH)]
    Graph(GraphArgs),
    /// Run puzzles x solvers x symmetry formulations, with progress, one row
    /// per run, a summary and a plot; exit 1 if two runs disagree.
    #[command(after_help = examples::BENCH)]
    Bench(BenchArgs),
    /// Time the backtracking search: the first partial board with the first
    /// N cells of a placement order filled, the nodes and the node rate
    /// (exit 1 if stopped by the time limit or Ctrl-C first).
    #[command(after_help = examples::PROBE)]
    Probe(ProbeArgs),
    /// Print the CP model CP-SAT would get (protobuf text format, variables
    /// named), without solving.
    #[command(after_help = examples::MODEL)]
    Model(ModelArgs),
    /// The board with the most valid joins (all pieces placed, frame and
    /// hints kept), searched until --time-limit, Ctrl-C or a full board;
    /// each improvement printed as found (exit 1 unless full or proved
    /// optimal).
    #[command(after_help = examples::BEST)]
    Best(BestArgs),
    /// Join the outputs of sharded runs (`--shard I/N`, e.g. a Slurm job
    /// array) into what one unsharded run prints; exit 1 if a shard is
    /// missing or stopped early.
    #[command(after_help = examples::MERGE)]
    Merge(MergeArgs),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    Text,
    Json,
    Csv,
    Markdown,
}

/// Errors of the commands, each with its exit code.
#[derive(Debug, Error)]
pub enum CliError {
    #[error(transparent)]
    Puzzle(#[from] PuzzleError),
    #[error("{path}: {message}")]
    Output { path: PathBuf, message: String },
    #[error("{0}")]
    Usage(String),
    #[error(transparent)]
    Folder(#[from] FolderError),
    #[error(transparent)]
    Images(#[from] ImageError),
    #[error(transparent)]
    Runtime(#[from] RuntimeError),
    #[error(transparent)]
    Solve(#[from] SolveError),
    #[error(transparent)]
    Merge(#[from] crate::commands::shards::MergeError),
    #[error(transparent)]
    Constraints(#[from] cpsat::ConstraintsError),
}

/// What kind of failure an error is: the user's input (exit code 2, the
/// Python package's `InputError`) or the solver (exit code 3,
/// `SolverError`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorClass {
    Input,
    Solver,
}

impl CliError {
    pub fn exit_code(&self) -> u8 {
        match self.class() {
            ErrorClass::Input => exit::INPUT,
            ErrorClass::Solver => exit::SOLVER,
        }
    }

    pub fn class(&self) -> ErrorClass {
        match self {
            CliError::Puzzle(_)
            | CliError::Output { .. }
            | CliError::Usage(_)
            | CliError::Folder(_)
            | CliError::Images(_)
            | CliError::Merge(_)
            | CliError::Constraints(_) => ErrorClass::Input,
            CliError::Solve(
                SolveError::Symmetry(_)
                | SolveError::TooLarge(_)
                | SolveError::Unsupported(_)
                | SolveError::Constraints(_),
            ) => ErrorClass::Input,
            CliError::Solve(SolveError::Model(crate::model::BuildError::TooLarge { .. })) => {
                ErrorClass::Input
            }
            CliError::Runtime(_) | CliError::Solve(_) => ErrorClass::Solver,
        }
    }
}

/// A command's options for `puzzles` with every other option the command
/// line's default, as clap gives them (for a caller in this process, which
/// then sets what it asks for).
fn defaults<A: clap::Args + clap::FromArgMatches>(name: &'static str, puzzles: Vec<PathBuf>) -> A {
    let cmd = A::augment_args(clap::Command::new(name).no_binary_name(true));
    let argv = std::iter::once(std::ffi::OsString::from("--"))
        .chain(puzzles.into_iter().map(PathBuf::into_os_string));
    let m = cmd
        .try_get_matches_from(argv)
        .expect("puzzle paths alone are a whole command line");
    A::from_arg_matches(&m).expect("the defaults parse")
}

/// Run a parsed command; returns the exit code.
pub fn run(cli: Cli, stop: StopToken) -> Result<u8, CliError> {
    INPUTS.with(|i| i.borrow_mut().clear());
    options::OVERWRITE.with(|o| o.set(false));
    match cli.command {
        Command::Solve(args) => solve::run(&args, stop),
        Command::SymmetryReport(args) => symmetry_report::command::run(&args, stop),
        Command::Compare(args) => compare::command::run(&args, stop),
        Command::Count(args) => count::run(&args, stop),
        Command::Generate(args) => generate::run(&args, stop),
        Command::Render(args) => render::run(&args),
        Command::Convert(args) => convert::run(&args),
        Command::Graph(args) => graph::run(&args, stop),
        Command::Bench(args) => bench::command::run(&args, stop),
        Command::Merge(args) => merge::command::run(&args),
        Command::Probe(args) => probe::run(&args, stop),
        Command::Model(args) => model::run(&args),
        Command::Best(args) => best::run(&args, stop),
    }
}

fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

/// Load a puzzle (YAML, puzzle folder or piece file) and fix the pieces
/// `--hint` names.
pub fn load_puzzle(path: &Path, hints: &HintArgs) -> Result<Puzzle, CliError> {
    let puzzle = load_plain(path)?;
    if hints.hints.is_empty() {
        return Ok(puzzle);
    }
    let mut fixed = Vec::new();
    for spec in &hints.hints {
        let h = crate::puzzle::pieces::parse_hints(spec, puzzle.rows(), puzzle.cols()).map_err(
            |message| PuzzleError::Rule {
                path: path.to_path_buf(),
                line: None,
                message,
            },
        )?;
        fixed.extend(h);
    }
    Ok(puzzle.with_hints(&fixed)?)
}

/// Warn on stderr of edges nothing can meet (at most [`LONELY_SHOWN`],
/// then how many more): the answer is still computed, as the file says.
fn warn_lonely(puzzle: &Puzzle) {
    // A planted puzzle's outer edges are drawn at random and may meet
    // nothing by design: no typo to warn of in a file scramble generated.
    if puzzle
        .title()
        .is_some_and(|t| t.starts_with(generate::TITLE))
    {
        return;
    }
    let lonely = puzzle.lonely_edges();
    for l in lonely.iter().take(LONELY_SHOWN) {
        eprintln!("warning: {l}");
    }
    if lonely.len() > LONELY_SHOWN {
        eprintln!(
            "warning: {}: {} more edges match no edge of another tile",
            puzzle.source().display(),
            lonely.len() - LONELY_SHOWN
        );
    }
}

/// The lonely edges named one by one before the rest are counted.
const LONELY_SHOWN: usize = 5;

/// Load a puzzle as its file says, noting the file as an input ([`reads`]).
fn load_plain(path: &Path) -> Result<Puzzle, CliError> {
    let puzzle = Puzzle::load(path)?;
    warn_lonely(&puzzle);
    if let Ok(file) = crate::puzzle::resolve(path) {
        reads(&file);
    }
    Ok(puzzle)
}

/// Load every puzzle first, so bad input fails before any solving. A
/// folder that is not itself a puzzle folder stands for the puzzles in it
/// ([`puzzles_in`]).
fn load_all(paths: &[PathBuf], hints: &HintArgs) -> Result<Vec<(String, Puzzle)>, CliError> {
    let mut files = Vec::new();
    for p in paths {
        files.extend(puzzles_in(p)?);
    }
    files
        .iter()
        .map(|p| load_puzzle(p, hints).map(|z| (p.display().to_string(), z)))
        .collect()
}

/// The puzzles a path names for the commands that take many: the path
/// itself, unless it is a folder that is not a puzzle folder; then, sorted
/// by name, its YAML and piece files (`.yaml`, `.yml`, `.txt`) and the
/// puzzle folders in it. A folder holding none of them is an error.
pub(crate) fn puzzles_in(path: &Path) -> Result<Vec<PathBuf>, CliError> {
    if !path.is_dir() || crate::puzzle::resolve(path).is_ok() {
        return Ok(vec![path.to_path_buf()]);
    }
    let entries = std::fs::read_dir(path).map_err(|source| PuzzleError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let mut found: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            if p.is_dir() {
                return crate::puzzle::resolve(p).is_ok();
            }
            let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("");
            ["yaml", "yml", "txt"].contains(&ext.to_ascii_lowercase().as_str())
        })
        .collect();
    found.sort();
    if found.is_empty() {
        return Err(CliError::Usage(format!(
            "{}: holds no puzzle: neither input/tile_dict.yaml (a puzzle folder) nor .yaml, .yml or .txt files",
            path.display()
        )));
    }
    Ok(found)
}

thread_local! {
    /// Where [`print`] writes on this thread while [`run_captured`] runs.
    static CAPTURE: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Run a command line (the arguments after the program name) exactly as
/// the binary does, with what it prints to standard output returned instead:
/// (exit code, output). For front ends in the same process (the Python
/// package, python/); clap's own messages (`--help`, a bad option) are usage
/// errors. The JSON Lines stream (`--format jsonl`) is refused: it writes as
/// it goes.
pub fn run_captured(args: &[String], stop: StopToken) -> Result<(u8, String), CliError> {
    let argv = std::iter::once("scramble".to_string()).chain(args.iter().cloned());
    let cli = Cli::try_parse_from(argv).map_err(|e| CliError::Usage(e.to_string()))?;
    if matches!(&cli.command, Command::Solve(a) if a.format == solve::Format::Jsonl) {
        return Err(CliError::Usage(
            "--format jsonl streams to standard output: use json here".into(),
        ));
    }
    CAPTURE.with(|c| *c.borrow_mut() = Some(String::new()));
    let result = run(cli, stop);
    let out = CAPTURE.with(|c| c.borrow_mut().take()).unwrap_or_default();
    result.map(|code| (code, out))
}

/// Print to standard output (or to [`run_captured`]'s buffer); a closed
/// pipe (e.g. `| head`) is not an error worth a message.
fn print(text: &str) -> Result<(), CliError> {
    let captured = CAPTURE.with(|c| match c.borrow_mut().as_mut() {
        Some(buf) => {
            buf.push_str(text);
            true
        }
        None => false,
    });
    if captured {
        return Ok(());
    }
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(stdout_error(&e)),
        _ => Ok(()),
    }
}

/// The extension of output file `path` (lower case), which must be one
/// of `allowed`.
fn output_kind(path: &Path, allowed: &[&str]) -> Result<String, CliError> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    if allowed.contains(&ext.as_str()) {
        Ok(ext)
    } else {
        let names: Vec<String> = allowed.iter().map(|e| format!(".{e}")).collect();
        Err(CliError::Output {
            path: path.to_path_buf(),
            message: format!("the output must be a {} file", names.join(" or ")),
        })
    }
}

/// Standard output could not be written (a full disk, say): an error, not
/// a quiet exit, since the user would not see that the output is short.
pub(crate) fn stdout_error(e: &std::io::Error) -> CliError {
    CliError::Output {
        path: PathBuf::from("standard output"),
        message: format!("cannot write: {e}"),
    }
}

thread_local! {
    /// The files the command running on this thread reads (puzzles, a
    /// solution, constraints, shards): [`write_file`] writes over none.
    static INPUTS: std::cell::RefCell<Vec<PathBuf>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Names as a sentence lists them: `a`, `a and b`, `a, b and c`.
pub(crate) fn and_list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Note a file this command reads, so that no output of it replaces it.
pub(crate) fn reads(path: &Path) {
    if let Ok(p) = path.canonicalize() {
        INPUTS.with(|i| i.borrow_mut().push(p));
    }
}

/// Write a file the user named: to a temporary name beside it, then rename,
/// so a failure never leaves a half-written file; never over a directory or
/// one of the command's own inputs ([`reads`]).
pub(crate) fn write_file(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    writable(path)?;
    crate::files::write_whole(path, bytes).map_err(|e| CliError::Output {
        path: path.to_path_buf(),
        message: format!("cannot write: {e}"),
    })
}

/// What [`write_file`] refuses, checked before the work that ends with
/// the write (a bench's or a best run's output files): also a file that
/// exists, unless `--force` ([`ForceArgs`]).
pub(crate) fn writable(path: &Path) -> Result<(), CliError> {
    rewritable(path)?;
    if path.is_file() && !options::OVERWRITE.with(|o| o.get()) {
        return Err(CliError::Output {
            path: path.to_path_buf(),
            message: "already exists (--force replaces it)".into(),
        });
    }
    Ok(())
}

/// [`writable`] for a checkpoint, which is read and rewritten on purpose:
/// everything but the overwrite rule.
pub(crate) fn rewritable(path: &Path) -> Result<(), CliError> {
    let err = |message: String| CliError::Output {
        path: path.to_path_buf(),
        message,
    };
    if path.is_dir() {
        return Err(err("is a directory".into()));
    }
    if let Ok(target) = path.canonicalize()
        && INPUTS.with(|i| i.borrow().contains(&target))
    {
        return Err(err(
            "is an input of this command; not overwritten (name another output file)".into(),
        ));
    }
    if path.file_name().is_none() {
        return Err(err("not a file name".into()));
    }
    crate::files::can_write_in(path).map_err(|e| err(format!("cannot write: {e}")))
}

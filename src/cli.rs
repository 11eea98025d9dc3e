//! Command-line options (typed, clap derive) and the commands behind them.
//! `main.rs` only parses, installs the Ctrl-C handler and maps errors to
//! exit codes.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};
use thiserror::Error;

use crate::backtrack::{Backtrack, DEFAULT_ORDER, Order};
use crate::cpsat::{self, CpSat, RuntimeError};
use crate::model::Choice;
use crate::puzzle::{Puzzle, PuzzleError};
use crate::render::folder::{self, FolderError};
use crate::render::images::{ImageError, TileImages};
use crate::render::{self, Report, svg};
use crate::solve::{self, Collector, Outcome, SolveError, SolveOptions, Split, StopToken};
use crate::symmetry::{Equivalence, Symmetry};

/// Exit codes (documented in README.md).
pub mod exit {
    /// Solved, or proven to have no solution.
    pub const OK: u8 = 0;
    /// Stopped by a limit or an interrupt: the output is incomplete.
    pub const INCOMPLETE: u8 = 1;
    /// Bad usage or bad input (clap also exits 2 on usage errors).
    pub const INPUT: u8 = 2;
    /// The solver runtime is missing or failed, or rejected the model.
    pub const SOLVER: u8 = 3;
    /// Interrupted twice: stopped at once.
    pub const INTERRUPTED: u8 = 130;
}

#[derive(Debug, Parser)]
#[command(
    name = "scramble",
    version,
    about = "Solve and study edge-matching puzzles such as Scramble Squares"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Enumerate every solution of a puzzle with OR-Tools CP-SAT.
    Solve(SolveArgs),
    /// Run every symmetry-breaking formulation on puzzles and check that each
    /// keeps exactly one solution per class (exit 1 if a documented-exact one
    /// does not).
    SymmetryReport(ReportArgs),
    /// Solve puzzles with both CP-SAT and backtracking and check that the
    /// canonical solution sets are identical (exit 1 if not).
    Compare(CompareArgs),
    /// Write random solvable puzzles made by planting a solution.
    Generate(GenerateArgs),
    /// Draw the unsolved tiles, or a solution, as SVG or PNG.
    Render(RenderArgs),
    /// Run puzzles x solvers x symmetry formulations, with progress, one row
    /// per run, a summary and a plot; exit 1 if two runs disagree.
    Bench(BenchArgs),
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Puzzle directories or YAML files.
    pub puzzles: Vec<PathBuf>,
    /// Also bench generated puzzles: the ones `scramble generate --size SIZE
    /// --motifs MOTIFS --count COUNT --seed SEED` writes (repeatable).
    #[arg(long, value_name = "SIZE,MOTIFS,COUNT,SEED")]
    pub generate: Vec<GenerateSpec>,
    /// Solvers, comma-separated.
    #[arg(
        long,
        value_name = "LIST",
        default_value = "cp-sat,backtrack",
        value_delimiter = ','
    )]
    pub solvers: Vec<SolverKind>,
    #[command(flatten)]
    pub models: ModelsArgs,
    /// A symmetry formulation (see `solve --symmetry`); repeat the option to
    /// compare several, e.g. --symmetry none --symmetry lex,tiles.
    #[arg(long, value_name = "LIST")]
    pub symmetry: Vec<Symmetry>,
    /// What counts as one class.
    #[arg(long, value_name = "rotation|picture", default_value = "rotation")]
    pub equivalence: Equivalence,
    /// Runs of each solver on each puzzle and formulation.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub repeat: u32,
    #[command(flatten)]
    pub backtrack: BacktrackArgs,
    /// Stop each run after S seconds (it then counts as incomplete).
    #[arg(long, value_name = "S", value_parser = parse_seconds)]
    pub time_limit: Option<Duration>,
    /// Threads per run (default 1: times are per core).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: u32,
    /// Write one CSV row per run to FILE.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write one JSON object per line per run to FILE.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write an SVG plot of time per puzzle by solver (log scale) to FILE.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
}

/// `--generate SIZE,MOTIFS,COUNT,SEED`.
#[derive(Clone, Copy, Debug)]
pub struct GenerateSpec {
    pub size: usize,
    pub motifs: usize,
    pub count: usize,
    pub seed: u64,
}

impl std::str::FromStr for GenerateSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<GenerateSpec, String> {
        let parts: Vec<&str> = s.split(',').map(str::trim).collect();
        let bad = || format!("expected SIZE,MOTIFS,COUNT,SEED (e.g. 3,4,10000,1), found {s:?}");
        if parts.len() != 4 {
            return Err(bad());
        }
        let num = |k: usize| parts[k].parse::<u64>().map_err(|_| bad());
        let spec = GenerateSpec {
            size: num(0)? as usize,
            motifs: num(1)? as usize,
            count: num(2)? as usize,
            seed: num(3)?,
        };
        if !(1..=11).contains(&spec.size) || !(1..=1000).contains(&spec.motifs) {
            return Err(format!("{s:?}: SIZE must be 1 to 11 and MOTIFS 1 to 1000"));
        }
        if !(1..=1_000_000).contains(&spec.count) {
            return Err(format!("{s:?}: COUNT must be 1 to 1000000"));
        }
        Ok(spec)
    }
}

#[derive(Debug, Args)]
pub struct RenderArgs {
    /// A puzzle directory or YAML file.
    pub puzzle: PathBuf,
    /// A solution to draw: the JSON of `scramble solve --format json`, or
    /// the seed text format (`-` reads standard input). Without it, the
    /// unsolved tiles are drawn.
    #[arg(long, value_name = "FILE|-")]
    pub solution: Option<PathBuf>,
    /// Which solution of the file (1-based).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub index: u32,
    /// Output file: .svg or .png.
    #[arg(short = 'o', long = "output", value_name = "OUT.svg|OUT.png")]
    pub output: PathBuf,
    #[command(flatten)]
    pub pictures: PictureArgs,
}

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// Puzzle directories or YAML files.
    #[arg(required = true)]
    pub puzzles: Vec<PathBuf>,
    /// Symmetry breaking for both solvers (see `solve --symmetry`).
    #[arg(long, value_name = "LIST", default_value = "none")]
    pub symmetry: Symmetry,
    /// What counts as one class.
    #[arg(long, value_name = "rotation|picture", default_value = "rotation")]
    pub equivalence: Equivalence,
    #[command(flatten)]
    pub backtrack: BacktrackArgs,
    #[command(flatten)]
    pub models: ModelsArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Board side n (n x n tiles).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=32))]
    pub size: u32,
    /// Number of motifs.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub motifs: u32,
    /// Number of puzzles.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub count: u32,
    /// Random seed: the same seed gives the same puzzles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// At least this many tiles identical (up to rotation) to another tile.
    #[arg(long, default_value_t = 0)]
    pub duplicates: u32,
    /// Use self-matching halves `=` too.
    #[arg(long)]
    pub self_matching: bool,
    /// Keep only puzzles with exactly one solution: one finished picture up
    /// to board turns (checked with the backtracking solver).
    #[arg(long)]
    pub unique: bool,
    /// Output folder (created if missing; existing files are never overwritten).
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    Text,
    Json,
    Csv,
    Markdown,
}

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Puzzle directories or YAML files.
    #[arg(required = true)]
    pub puzzles: Vec<PathBuf>,
    #[command(flatten)]
    pub models: ModelsArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SolverKind {
    /// OR-Tools CP-SAT through its C API.
    #[value(name = "cp-sat")]
    CpSat,
    /// The native backtracking search.
    Backtrack,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

#[derive(Debug, Args)]
pub struct SolveArgs {
    /// A puzzle directory (with input/tile_dict.yaml) or a YAML file.
    pub puzzle: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// The solver.
    #[arg(long, value_enum, default_value_t = SolverKind::CpSat)]
    pub solver: SolverKind,
    #[command(flatten)]
    pub backtrack: BacktrackArgs,
    /// Print every raw solution, not only one per class.
    #[arg(long)]
    pub all: bool,
    /// How to cut the enumeration into subproblems: auto, none, or the
    /// number of cells fixed up front.
    #[arg(long, value_name = "auto|none|K", default_value = "auto")]
    pub split: Split,
    #[command(flatten)]
    pub run: RunArgs,
    /// The CP formulation (CP-SAT only): table, edge, boolean or
    /// edge-boolean (docs/model.md). Default: edge, the fastest measured.
    #[arg(long, value_name = "NAME", default_value = crate::model::DEFAULT)]
    pub model: Choice,
    /// Write the CP model (protobuf text format) to FILE before solving.
    #[arg(long, value_name = "FILE")]
    pub dump_model: Option<PathBuf>,
    /// Symmetry breaking added to the model: none, or a comma-separated list
    /// of center, corner, lex, anchor, picture-lex, tiles (docs/symmetry.md).
    #[arg(long, value_name = "LIST", default_value = "none")]
    pub symmetry: Symmetry,
    /// What counts as one class: rotation (labelled solutions up to board
    /// turns) or picture (finished pictures up to board turns).
    #[arg(long, value_name = "rotation|picture", default_value = "rotation")]
    pub equivalence: Equivalence,
    /// Also write the pictures (SVG and PNG), texts, solutions.json and an
    /// index.html into DIR (made if missing).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// With --out: write into a non-empty folder that scramble did not make.
    #[arg(long, requires = "out")]
    pub force: bool,
    #[command(flatten)]
    pub pictures: PictureArgs,
}

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

/// Options of the backtracking solver, shared by solve and compare.
#[derive(Debug, Args)]
pub struct BacktrackArgs {
    /// Placement order of the backtracking solver (default: spiral, the
    /// fastest measured).
    #[arg(long, value_name = "row|spiral|constrained")]
    pub order: Option<Order>,
    /// Backtracking: search every board turn of every solution instead of
    /// one turn each (for node-count studies; the solutions are the same).
    #[arg(long)]
    pub full_tree: bool,
}

impl BacktrackArgs {
    /// Whether any backtracking option was given.
    pub fn given(&self) -> bool {
        self.order.is_some() || self.full_tree
    }

    pub fn solver(&self) -> Backtrack {
        let order = self.order.unwrap_or(DEFAULT_ORDER);
        if self.full_tree {
            Backtrack::full_tree(order)
        } else {
            Backtrack::new(order)
        }
    }
}

/// `--model`, repeatable: the CP formulations to run (CP-SAT only).
#[derive(Debug, Args)]
pub struct ModelsArgs {
    /// A CP formulation for CP-SAT: table, edge, boolean or edge-boolean
    /// (docs/model.md); repeat the option to run several, e.g. --model
    /// table --model edge. Default: edge, the fastest measured.
    #[arg(long = "model", value_name = "NAME")]
    pub models: Vec<Choice>,
}

impl ModelsArgs {
    /// The models asked for, or the default one; each once, in order.
    pub fn chosen(&self) -> Vec<Choice> {
        let mut out: Vec<Choice> = Vec::new();
        for m in &self.models {
            if !out.contains(m) {
                out.push(*m);
            }
        }
        if out.is_empty() {
            out.push(Choice::default());
        }
        out
    }

    /// One CP-SAT backend per model.
    fn solvers(&self, full_tree: bool) -> Result<Vec<CpSat>, CliError> {
        let cp = CpSat::new()?.with_full_tree(full_tree);
        Ok(self
            .chosen()
            .into_iter()
            .map(|m| cp.clone().with_model(m))
            .collect())
    }
}

/// Limits shared by the commands that solve.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Stop each solve after this many seconds and report what was found.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time_limit: Option<Duration>,
    /// Threads (subproblems or subtrees solved in parallel; default: the
    /// number of cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
}

impl RunArgs {
    /// Solve options with these limits (and defaults otherwise).
    fn options(&self, stop: &StopToken) -> SolveOptions {
        SolveOptions {
            time_limit: self.time_limit,
            threads: self
                .threads
                .map(|t| t as usize)
                .unwrap_or_else(default_threads),
            stop: stop.clone(),
            ..SolveOptions::default()
        }
    }
}

fn parse_seconds(s: &str) -> Result<Duration, String> {
    let v: f64 = s
        .parse()
        .map_err(|_| format!("expected a number of seconds, found {s:?}"))?;
    if !(v.is_finite() && v > 0.0) {
        return Err(format!("must be a positive number of seconds, found {s}"));
    }
    Duration::try_from_secs_f64(v).map_err(|e| e.to_string())
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
}

impl CliError {
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Puzzle(_)
            | CliError::Output { .. }
            | CliError::Usage(_)
            | CliError::Folder(_)
            | CliError::Images(_) => exit::INPUT,
            CliError::Solve(SolveError::Symmetry(_)) => exit::INPUT,
            CliError::Solve(SolveError::Model(crate::model::BuildError::TooLarge { .. })) => {
                exit::INPUT
            }
            CliError::Runtime(_) | CliError::Solve(_) => exit::SOLVER,
        }
    }
}

/// Run a parsed command; returns the exit code.
pub fn run(cli: Cli, stop: StopToken) -> Result<u8, CliError> {
    match cli.command {
        Command::Solve(args) => solve_command(&args, stop),
        Command::SymmetryReport(args) => report_command(&args, stop),
        Command::Compare(args) => compare_command(&args, stop),
        Command::Generate(args) => generate_command(&args),
        Command::Render(args) => render_command(&args),
        Command::Bench(args) => bench_command(&args, stop),
    }
}

fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

fn solve_command(args: &SolveArgs, stop: StopToken) -> Result<u8, CliError> {
    let puzzle = Puzzle::load(&args.puzzle)?;
    args.symmetry.check(&puzzle).map_err(SolveError::from)?;
    // Refuse a bad output folder or bad tile images before solving.
    let images = match &args.out {
        Some(dir) => {
            folder::check(dir, args.force)?;
            args.pictures.images(&puzzle)?
        }
        None => None,
    };
    if let Some(path) = &args.dump_model {
        let text = cpsat::model_text(
            &puzzle,
            args.model,
            &args.symmetry,
            args.backtrack.full_tree,
        )
        .map_err(SolveError::from)?;
        write_file(path, text.as_bytes())?;
    }
    let solver: Box<dyn solve::Solver> = match args.solver {
        SolverKind::CpSat => {
            if args.backtrack.order.is_some() {
                return Err(CliError::Usage(
                    "--order applies to --solver backtrack only".into(),
                ));
            }
            Box::new(
                CpSat::new()?
                    .with_model(args.model)
                    .with_full_tree(args.backtrack.full_tree),
            )
        }
        SolverKind::Backtrack => Box::new(args.backtrack.solver()),
    };
    let options = SolveOptions {
        split: args.split,
        symmetry: args.symmetry.clone(),
        equivalence: args.equivalence,
        ..args.run.options(&stop)
    };
    let show_progress = std::io::stderr().is_terminal();
    let collector = Collector::new(&puzzle).with_progress(move |p, found| {
        if show_progress {
            eprint!(
                "\r{} subproblems done, {} pending, {} solutions   ",
                p.subproblems_done, p.subproblems_pending, found
            );
        }
    });
    let result = solve::run_with(solver.as_ref(), &puzzle, &options, collector);
    if show_progress {
        eprint!("\r\x1b[K");
    }
    let result = result?;
    let path = args.puzzle.display().to_string();
    let report = Report {
        path: &path,
        puzzle: &puzzle,
        result: &result,
        all: args.all,
    };
    let text = match args.format {
        Format::Text => render::text::render(&report),
        Format::Json => render::json::render(&report),
    };
    if let Some(dir) = &args.out {
        let files = folder::files(&report, images.as_ref()).map_err(FolderError::from)?;
        folder::write(dir, &files, args.force)?;
        eprintln!(
            "wrote {} files to {} (open {})",
            files.len(),
            dir.display(),
            dir.join("index.html").display()
        );
    }
    let mut out = std::io::stdout().lock();
    // A closed pipe (e.g. `| head`) is not an error worth a message.
    let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
    Ok(match &result.outcome {
        Outcome::Complete | Outcome::Infeasible => exit::OK,
        Outcome::Incomplete(_) => exit::INCOMPLETE,
        Outcome::Invalid(_) => exit::SOLVER,
    })
}

fn report_command(args: &ReportArgs, stop: StopToken) -> Result<u8, CliError> {
    // Load every puzzle first: bad input fails before any solving.
    let puzzles = args
        .puzzles
        .iter()
        .map(|p| Puzzle::load(p).map(|z| (p.display().to_string(), z)))
        .collect::<Result<Vec<_>, _>>()?;
    // The full tree: the `none` row is the plain model, the baseline every
    // formulation is compared with.
    let solvers = args.models.solvers(true)?;
    let base = args.run.options(&stop);
    let combos = crate::symmetry::report_combinations();
    let mut rows = Vec::new();
    'puzzles: for (label, puzzle) in &puzzles {
        for solver in &solvers {
            if stop.is_stopped() {
                break 'puzzles;
            }
            rows.extend(crate::experiment::run(
                solver, puzzle, label, &combos, &base,
            )?);
        }
    }
    let text = match args.format {
        ReportFormat::Text => crate::experiment::text(&rows),
        ReportFormat::Json => crate::experiment::json(&rows),
        ReportFormat::Csv => crate::experiment::csv(&rows),
        ReportFormat::Markdown => crate::experiment::markdown(&rows),
    };
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
    let incomplete = stop.is_stopped()
        || rows
            .iter()
            .any(|r| r.not_applicable.is_none() && !r.complete);
    Ok(if rows.iter().any(|r| r.contradicts_docs) || incomplete {
        exit::INCOMPLETE
    } else {
        exit::OK
    })
}

fn compare_command(args: &CompareArgs, stop: StopToken) -> Result<u8, CliError> {
    let puzzles = args
        .puzzles
        .iter()
        .map(|p| Puzzle::load(p).map(|z| (p.display().to_string(), z)))
        .collect::<Result<Vec<_>, _>>()?;
    for (_, p) in &puzzles {
        args.symmetry.check(p).map_err(SolveError::from)?;
    }
    let cps = args.models.solvers(args.backtrack.full_tree)?;
    let bt = args.backtrack.solver();
    let mut solvers: Vec<&dyn solve::Solver> =
        cps.iter().map(|c| c as &dyn solve::Solver).collect();
    solvers.push(&bt);
    let options = SolveOptions {
        symmetry: args.symmetry.clone(),
        equivalence: args.equivalence,
        ..args.run.options(&stop)
    };
    let mut rows = Vec::new();
    let mut disagreements = Vec::new();
    for (label, puzzle) in &puzzles {
        if stop.is_stopped() {
            break;
        }
        let (r, d) = crate::compare::compare(&solvers, puzzle, label, &options)?;
        rows.extend(r);
        disagreements.extend(d);
    }
    let text = match args.format {
        ReportFormat::Text | ReportFormat::Markdown => crate::compare::text(&rows, &disagreements),
        ReportFormat::Json => crate::compare::json(&rows, &disagreements),
        ReportFormat::Csv => crate::compare::csv(&rows),
    };
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
    for d in &disagreements {
        eprintln!("disagreement on {}: {}", d.puzzle, d.message);
    }
    let incomplete = stop.is_stopped() || rows.iter().any(|r| !r.complete);
    Ok(if !disagreements.is_empty() || incomplete {
        exit::INCOMPLETE
    } else {
        exit::OK
    })
}

fn generate_command(args: &GenerateArgs) -> Result<u8, CliError> {
    use crate::generate::{PlantOptions, Rng, plant_with_duplicates, to_yaml};
    let (n, m) = (args.size as usize, args.motifs as usize);
    if args.duplicates as usize > n * n {
        return Err(CliError::Usage(format!(
            "--duplicates {} is more than the {} tiles of a {n}x{n} board",
            args.duplicates,
            n * n
        )));
    }
    let names: Vec<PathBuf> = (1..=args.count)
        .map(|k| {
            args.out
                .join(format!("{n}x{n}-m{m}-s{}-{k:04}.yaml", args.seed))
        })
        .collect();
    if let Some(existing) = names.iter().find(|p| p.exists()) {
        return Err(CliError::Output {
            path: existing.clone(),
            message: "already exists; scramble generate never overwrites files".into(),
        });
    }
    std::fs::create_dir_all(&args.out).map_err(|e| CliError::Output {
        path: args.out.clone(),
        message: format!("cannot create the folder: {e}"),
    })?;
    let options = PlantOptions {
        n,
        motifs: m,
        self_matching: args.self_matching,
    };
    let mut master = Rng::new(args.seed);
    let bt = Backtrack::default();
    for (k, path) in names.iter().enumerate() {
        let mut rng = Rng::new(master.next_u64());
        let mut tries = 0;
        let (mut puzzle, planted) = loop {
            tries += 1;
            if tries > 10_000 {
                return Err(CliError::Usage(format!(
                    "no puzzle found for #{} after 10000 tries: relax --duplicates or --unique, or use more motifs",
                    k + 1
                )));
            }
            let Some((p, s)) =
                plant_with_duplicates(&mut rng, &options, args.duplicates as usize, 100)
            else {
                continue;
            };
            if args.unique {
                // One finished picture up to board turns: with identical
                // tiles there are always several labelled classes.
                let r = solve::run(&bt, &p, &SolveOptions::default())?;
                if r.pictures.len() != 1 {
                    continue;
                }
            }
            break (p, s);
        };
        puzzle.title = Some(format!(
            "generated by scramble generate --size {n} --motifs {m} --seed {} (#{}){}{}",
            args.seed,
            k + 1,
            if args.duplicates > 0 {
                format!(" --duplicates {}", args.duplicates)
            } else {
                String::new()
            },
            if args.unique { " --unique" } else { "" }
        ));
        let mut text = to_yaml(&puzzle);
        let planted_line: Vec<String> = planted.cells().iter().map(|p| p.to_string()).collect();
        text = text.replacen(
            '\n',
            &format!(
                "\n# board: {n}x{n}\n# planted: {}\n",
                planted_line.join(" ")
            ),
            1,
        );
        write_file(path, text.as_bytes())?;
    }
    println!("wrote {} puzzles to {}", names.len(), args.out.display());
    Ok(exit::OK)
}

fn bench_command(args: &BenchArgs, stop: StopToken) -> Result<u8, CliError> {
    use crate::bench;
    use crate::generate::{PlantOptions, planted_set};
    // Everything is loaded and checked before the first run.
    let mut puzzles = args
        .puzzles
        .iter()
        .map(|p| Puzzle::load(p).map(|z| (p.display().to_string(), z)))
        .collect::<Result<Vec<_>, _>>()?;
    for g in &args.generate {
        let o = PlantOptions {
            n: g.size,
            motifs: g.motifs,
            self_matching: false,
        };
        puzzles.extend(planted_set(&o, g.count, g.seed));
    }
    if puzzles.is_empty() {
        return Err(CliError::Usage(
            "nothing to bench: give puzzles or --generate SIZE,MOTIFS,COUNT,SEED".into(),
        ));
    }
    let mut kinds: Vec<SolverKind> = Vec::new();
    for k in &args.solvers {
        if !kinds.contains(k) {
            kinds.push(*k);
        }
    }
    if kinds.is_empty() {
        return Err(CliError::Usage(
            "--solvers: name at least one solver".into(),
        ));
    }
    let cps = if kinds.contains(&SolverKind::CpSat) {
        args.models.solvers(args.backtrack.full_tree)?
    } else {
        if !args.models.models.is_empty() {
            return Err(CliError::Usage(
                "--model applies to the cp-sat solver, which --solvers leaves out".into(),
            ));
        }
        Vec::new()
    };
    let bt = args.backtrack.solver();
    let solvers: Vec<&dyn solve::Solver> = kinds
        .iter()
        .flat_map(|k| match k {
            SolverKind::CpSat => cps.iter().map(|c| c as &dyn solve::Solver).collect(),
            SolverKind::Backtrack => vec![&bt as &dyn solve::Solver],
        })
        .collect();
    let symmetries = if args.symmetry.is_empty() {
        vec![Symmetry::none()]
    } else {
        args.symmetry.clone()
    };
    let plan = bench::Plan {
        puzzles: &puzzles,
        solvers: &solvers,
        symmetries: &symmetries,
        repeat: args.repeat as usize,
        options: SolveOptions {
            time_limit: args.time_limit,
            threads: args.threads as usize,
            equivalence: args.equivalence,
            stop: stop.clone(),
            ..SolveOptions::default()
        },
    };
    let total = plan.total();
    let terminal = std::io::stderr().is_terminal();
    let bar = terminal.then(|| {
        let bar = indicatif::ProgressBar::new(total as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} runs  {msg}  [{elapsed_precise} < {eta_precise}]",
            )
            .expect("a valid template"),
        );
        bar
    });
    let started = std::time::Instant::now();
    let mut last_line = started;
    let result = bench::run(&plan, &mut |run, done, total| {
        if let Some(bar) = &bar {
            bar.set_position(done as u64);
            bar.set_message(format!("{} {} {}", run.puzzle, run.solver, run.symmetry));
        } else if last_line.elapsed().as_secs_f64() >= 1.0 || done == total {
            last_line = std::time::Instant::now();
            eprintln!(
                "bench: {done}/{total} runs ({:.0}%), {:.1} s",
                100.0 * done as f64 / total as f64,
                started.elapsed().as_secs_f64()
            );
        }
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let result = result?;
    if let Some(path) = &args.csv {
        write_file(path, bench::csv(&result.runs).as_bytes())?;
    }
    if let Some(path) = &args.json {
        write_file(path, bench::json_lines(&result.runs).as_bytes())?;
    }
    if let Some(path) = &args.plot {
        write_file(path, bench_plot(&puzzles, &result.runs).as_bytes())?;
    }
    let summary = bench::summary(&result.runs);
    let mut text = format!(
        "{} puzzles, {} runs in {}\n",
        puzzles.len(),
        result.runs.len(),
        bench::seconds(result.wall_time_s)
    );
    text.push_str(&bench::summary_text(&summary));
    for k in &result.skipped {
        text.push_str(&format!(
            "skipped {} with {}: {}\n",
            k.puzzle, k.symmetry, k.reason
        ));
    }
    for d in &result.disagreements {
        text.push_str(&format!(
            "DISAGREEMENT on {} ({}): {}",
            d.puzzle, d.symmetry, d.message
        ));
        if !d.message.ends_with('\n') {
            text.push('\n');
        }
    }
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
    Ok(if !result.disagreements.is_empty() || result.stopped {
        exit::INCOMPLETE
    } else {
        exit::OK
    })
}

/// Time per puzzle, one series per solver, model and formulation; repeats
/// by their median.
fn bench_plot(puzzles: &[(String, Puzzle)], runs: &[crate::bench::Run]) -> String {
    use crate::render::plot::{Series, time_per_puzzle};
    use std::collections::BTreeMap;
    let index: BTreeMap<&str, usize> = puzzles
        .iter()
        .enumerate()
        .map(|(k, (label, _))| (label.as_str(), k))
        .collect();
    let mut groups: BTreeMap<String, BTreeMap<usize, Vec<f64>>> = BTreeMap::new();
    for r in runs {
        groups
            .entry(format!(
                "{} ({}), symmetry {}",
                r.solver, r.model, r.symmetry
            ))
            .or_default()
            .entry(index[r.puzzle.as_str()])
            .or_default()
            .push(r.wall_time_s);
    }
    let series: Vec<Series> = groups
        .into_iter()
        .map(|(name, by_puzzle)| Series {
            name,
            points: by_puzzle
                .into_iter()
                .map(|(i, mut t)| {
                    t.sort_by(f64::total_cmp);
                    (i, t[t.len() / 2])
                })
                .collect(),
        })
        .collect();
    time_per_puzzle(
        "scramble bench: wall time per puzzle",
        puzzles.len(),
        &series,
    )
}

fn render_command(args: &RenderArgs) -> Result<u8, CliError> {
    let puzzle = Puzzle::load(&args.puzzle)?;
    let ext = args
        .output
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    if ext != "svg" && ext != "png" {
        return Err(CliError::Output {
            path: args.output.clone(),
            message: "the output must be an .svg or a .png file".into(),
        });
    }
    let images = args.pictures.images(&puzzle)?;
    let svg = match &args.solution {
        None => svg::unsolved_picture(&puzzle, images.as_ref()),
        Some(path) => {
            let s = read_solution(path, args.index as usize)?;
            s.verify(&puzzle).map_err(|e| CliError::Output {
                path: path.clone(),
                message: format!("not a solution of {}: {e}", puzzle.source.display()),
            })?;
            svg::solution_picture(&puzzle, &s, images.as_ref())
        }
    };
    let bytes = if ext == "png" {
        render::png::from_svg(&svg).map_err(FolderError::from)?
    } else {
        svg.into_bytes()
    };
    write_file(&args.output, &bytes)?;
    Ok(exit::OK)
}

/// Solution `index` (1-based) of a JSON report or a seed-format text.
fn read_solution(path: &Path, index: usize) -> Result<crate::board::Solution, CliError> {
    let err = |message: String| CliError::Output {
        path: path.to_path_buf(),
        message,
    };
    let text = if path == Path::new("-") {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
            .map_err(|e| err(format!("cannot read standard input: {e}")))?;
        s
    } else {
        std::fs::read_to_string(path).map_err(|e| err(format!("cannot read: {e}")))?
    };
    let boards: Vec<crate::board::Solution> = if text.trim_start().starts_with('{') {
        let v: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| err(format!("invalid JSON: {e}")))?;
        let list = v["solutions"].as_array().ok_or_else(|| {
            err("no \"solutions\" list: expected the JSON of scramble solve".into())
        })?;
        list.iter()
            .map(|s| {
                serde_json::from_value::<Vec<(i64, u8)>>(s.clone())
                    .map(|cells| {
                        crate::board::Solution::new(cells.into_iter().map(Into::into).collect())
                    })
                    .map_err(|e| {
                        err(format!(
                            "a solution is not a list of [tile, rotation] pairs: {e}"
                        ))
                    })
            })
            .collect::<Result<_, _>>()?
    } else {
        crate::board::parse_seed_boards(&text)
    };
    let count = boards.len();
    boards.into_iter().nth(index - 1).ok_or_else(|| {
        err(format!(
            "has {count} solution(s); --index {index} is out of range"
        ))
    })
}

/// Write a file the user named: to a temporary name beside it, then rename,
/// so a failure never leaves a half-written file.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    let err = |message: String| CliError::Output {
        path: path.to_path_buf(),
        message,
    };
    if path.is_dir() {
        return Err(err("is a directory".into()));
    }
    let name = path
        .file_name()
        .ok_or_else(|| err("not a file name".into()))?;
    let tmp = path.with_file_name(format!(
        ".{}.tmp-{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    std::fs::write(&tmp, bytes).map_err(|e| err(format!("cannot write: {e}")))?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        err(format!("cannot write: {e}"))
    })
}

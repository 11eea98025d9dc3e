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
    /// Draw the unsolved tiles, or a solution, as SVG.
    Render(RenderArgs),
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
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Board side n (n x n tiles).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=11))]
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
        write_file(path, cpsat::model_text(&puzzle, &args.symmetry).as_bytes())?;
    }
    let solver: Box<dyn solve::Solver> = match args.solver {
        SolverKind::CpSat => {
            if args.backtrack.given() {
                return Err(CliError::Usage(
                    "--order and --full-tree apply to --solver backtrack only".into(),
                ));
            }
            Box::new(CpSat::new()?)
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
    let solver = CpSat::new()?;
    let base = args.run.options(&stop);
    let combos = crate::symmetry::report_combinations();
    let mut rows = Vec::new();
    for (label, puzzle) in &puzzles {
        if stop.is_stopped() {
            break;
        }
        rows.extend(crate::experiment::run(
            &solver, puzzle, label, &combos, &base,
        )?);
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
    let cp = CpSat::new()?;
    let bt = args.backtrack.solver();
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
        let (r, d) = crate::compare::compare(&[&cp, &bt], puzzle, label, &options)?;
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

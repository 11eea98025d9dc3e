//! `scramble solve`: every solution of one puzzle, as text, JSON or JSON
//! Lines (streamed), or only their counts; optionally a folder of pictures.

pub(crate) mod folder;
pub(crate) mod json;
pub(crate) mod merge;
pub(crate) mod text;

use std::cell::RefCell;

use super::*;
use crate::solve::kind::{Build, Built, Constraints};
use crate::solve::{Keep, Shard};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
    /// JSON Lines: one line per new class as soon as it is found, then a
    /// summary line.
    Jsonl,
    /// The Eternity II community's board notation (`.et2`, what
    /// Eternity2Puzzles.jl loads): per square the piece number and its
    /// clockwise quarter turns; one board per shown solution, a blank line
    /// between boards.
    Et2,
}

#[derive(Debug, Args)]
pub struct SolveArgs {
    /// A puzzle directory (with input/tile_dict.yaml), YAML file or piece file.
    pub puzzle: PathBuf,
    #[command(flatten)]
    pub hints: HintArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// The solver.
    #[arg(long, value_parser = crate::registry::parser(), default_value = "cp-sat")]
    pub solver: Engine,
    #[command(flatten)]
    pub engines: crate::registry::EngineArgs,
    #[command(flatten)]
    pub turns: TurnsArgs,
    /// Print every raw solution, not only one per class.
    #[arg(long)]
    pub all: bool,
    /// Count only: keep no solutions (a compact set of about one byte per
    /// cell per class where repeats must be caught), print the counts.
    #[arg(long, conflicts_with_all = ["all", "out"])]
    pub count: bool,
    #[command(flatten)]
    pub run: RunArgs,
    /// Stop once N classes (under --equivalence) are found; CP-SAT then
    /// solves for one class at a time with all its workers instead of
    /// enumerating (fast for a first solution, slow for many).
    #[arg(long, value_name = "N", value_parser = crate::commands::parse_positive)]
    pub limit: Option<u64>,
    #[command(flatten)]
    pub constraints: ConstraintsArgs,
    /// Write the CP model (protobuf text format) to FILE before solving.
    #[arg(long, value_name = "FILE")]
    pub dump_model: Option<PathBuf>,
    /// Symmetry breaking added to the model: none, or a comma-separated list
    /// of center, corner, lex, anchor, picture-lex, tiles (docs/symmetry.md).
    #[arg(long, value_name = "LIST", default_value = "none")]
    pub symmetry: Symmetry,
    #[command(flatten)]
    pub unproven: UnprovenArgs,
    /// What counts as one class: rotation (labelled solutions up to board
    /// turns) or picture (finished pictures up to board turns).
    #[arg(long, value_enum, default_value_t = Equivalence::Rotation)]
    pub equivalence: Equivalence,
    /// Also write the pictures (SVG and PNG), texts, solutions.json and an
    /// index.html into DIR (made if missing).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Replace the --dump-model file if it exists, and with --out write
    /// into a non-empty folder that scramble did not make.
    #[arg(long)]
    pub force: bool,
    /// With --out: pictures and texts of at most N solutions (all of them
    /// are in solutions.json); each PNG takes tens of milliseconds.
    #[arg(
        long = "pictures",
        value_name = "N",
        default_value_t = 100,
        requires = "out"
    )]
    pub max_pictures: usize,
    #[command(flatten)]
    pub pictures: PictureArgs,
    /// Solve only share I of N (0-based) of the puzzle's work units, for a
    /// cluster job array; `--shard` alone reads SLURM_ARRAY_TASK_ID and
    /// SLURM_ARRAY_TASK_COUNT. Needs --format json or jsonl; `scramble
    /// merge` joins the shards' outputs (docs/distributed.md).
    #[arg(long, value_name = "I/N", num_args = 0..=1, default_missing_value = "slurm")]
    pub shard: Option<ShardArg>,
}

/// Why a shard cannot run with these options, if it cannot: its counts and
/// lists must join exactly with the other shards'.
fn shard_conflict(args: &SolveArgs) -> Option<&'static str> {
    if args.format == Format::Text {
        Some("a shard's output is read by `scramble merge`: add --format json or jsonl")
    } else if args.limit.is_some() {
        Some("--limit stops one run at N classes, which shards cannot share")
    } else if args.out.is_some() {
        Some("--out draws one run's solutions: draw the merged result instead")
    } else if args.cp_sat().split.is_some() {
        Some("a shard's work units are its split: leave out --split")
    } else if !args.symmetry.is_none()
        || args.turns.full_tree
        || args.constraints.constraints.is_some()
    {
        Some(
            "shards count classes that lie in one shard each: only with the solver's own \
             turn reduction (no --symmetry, --full-tree or --constraints)",
        )
    } else {
        None
    }
}

impl SolveArgs {
    /// The options of `scramble solve PUZZLE`: every default as the
    /// command line gives it (a caller in this process then sets what it
    /// asks for).
    pub fn of(puzzle: PathBuf) -> SolveArgs {
        super::defaults("solve", vec![puzzle])
    }

    /// CP-SAT's own options: its model is what `--dump-model` writes, and
    /// its split is what a shard's work units replace.
    fn cp_sat(&self) -> &crate::engines::cpsat::kind::CpSatArgs {
        self.engines.get().expect("CP-SAT is registered")
    }
}

/// The options' own conflicts, refused before anything is loaded; the
/// shard this run is, if it is one.
fn usage(args: &SolveArgs) -> Result<Option<Shard>, CliError> {
    if let Some((flag, engine)) = args.engines.misplaced(&[args.solver]) {
        return Err(CliError::Usage(format!(
            "{flag} applies to --solver {engine} only"
        )));
    }
    args.constraints
        .given(Constraints::Within, &[args.solver], false)?;
    let jsonl = args.format == Format::Jsonl;
    if jsonl && (args.all || args.count || args.out.is_some()) {
        return Err(CliError::Usage(
            "--format jsonl streams one solution per class: not with --all, --count or --out"
                .into(),
        ));
    }
    match args.shard {
        Some(a) => {
            if let Some(why) = shard_conflict(args) {
                return Err(CliError::Usage(format!("--shard: {why}")));
            }
            Ok(Some(a.resolve()?))
        }
        None => Ok(None),
    }
}

/// The engine the options ask for, with its own configuration; the
/// user's constraints read and checked against the model, and the model
/// dumped (`--dump-model`), before anything is solved.
fn engine(args: &SolveArgs, puzzle: &Puzzle) -> Result<Built, CliError> {
    let build = Build {
        turns: args.turns.turns(),
        first_solutions: args.limit.is_some(),
        memory_limit: args.run.memory.bytes(),
        constraints: args
            .constraints
            .given(Constraints::Within, &[args.solver], false)?,
    };
    // Without constraints to check against it, the model is written
    // before the engine is built (it needs no runtime).
    let dump = || -> Result<(), CliError> {
        if let Some(path) = &args.dump_model {
            let model = args.cp_sat().chosen()[0];
            let text = cpsat::model_text(puzzle, model, &args.symmetry, args.turns.turns())
                .map_err(SolveError::from)?;
            write_file(path, text.as_bytes())?;
        }
        Ok(())
    };
    if build.constraints.is_none() {
        dump()?;
    }
    let mut built = args.engines.build(args.solver, &build)?;
    if built.len() != 1 {
        return Err(CliError::Usage(format!(
            "solve runs one model of --solver {}: compare or bench run several",
            args.solver
        )));
    }
    let solver = built.remove(0);
    // The user's constraints, checked against the model before anything
    // is written.
    solver.check(puzzle, &args.symmetry)?;
    if build.constraints.is_some() {
        dump()?;
    }
    Ok(solver)
}

/// The report in the format asked for; a shard's says what it is.
fn output(
    args: &SolveArgs,
    report: &Report,
    options: &SolveOptions,
    shard: Option<Shard>,
    picture_weight: u128,
) -> String {
    let (puzzle, result) = (report.puzzle, report.result);
    let meta = shard.map(|s| {
        let decides = format!(
            "solver={} model={} symmetry={} equivalence={} keep={:?} all={}",
            result.solver,
            result.model,
            result.symmetry,
            result.equivalence.name(),
            options.keep,
            args.all
        );
        crate::solve::Meta::new(s, puzzle, decides, options.keep, picture_weight)
    });
    let extra = crate::commands::solve::json::Extra {
        shard: meta.as_ref(),
        cut_from: report.cut_from,
        ..Default::default()
    };
    let head = crate::commands::solve::json::Head::of(report);
    match args.format {
        Format::Text => crate::commands::solve::text::render(report),
        Format::Json => crate::commands::solve::json::render_with(&head, result, args.all, &extra),
        Format::Jsonl => crate::commands::solve::json::summary_line(&head, result, &extra),
        Format::Et2 => report
            .shown()
            .iter()
            .map(crate::board::et2)
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

/// The pictures of `solve --out`, written whole into `dir`; false when
/// Ctrl-C or the time limit stopped the drawing (nothing is written).
fn draw(
    args: &SolveArgs,
    dir: &Path,
    report: &Report,
    images: Option<&TileImages>,
    options: &SolveOptions,
    started: std::time::Instant,
    stop: &StopToken,
) -> Result<bool, CliError> {
    let shown = report.shown().len();
    // Said before the drawing starts: it can take minutes.
    if shown > args.max_pictures {
        eprintln!(
            "drawing the first {} of {shown} solutions (all are in solutions.json; --pictures N for more)",
            args.max_pictures
        );
    } else {
        eprintln!("drawing {shown} solutions");
    }
    // Ctrl-C and the time limit also stop the drawing.
    let deadline = options.deadline(started);
    let keep_going =
        || !stop.is_stopped() && deadline.is_none_or(|d| std::time::Instant::now() < d);
    let (files, cut) =
        folder::files(report, images, args.max_pictures, &keep_going).map_err(FolderError::from)?;
    folder::write(dir, &files, args.force)?;
    let partial = if cut {
        " (partial: drawing was stopped by Ctrl-C or --time-limit; the solutions listed are all in solutions.json)"
    } else if !report.result.outcome.is_complete() {
        " (partial: the search was stopped; what it found)"
    } else {
        ""
    };
    eprintln!(
        "wrote {} files to {}{partial} (open {})",
        files.len(),
        dir.display(),
        dir.join("index.html").display()
    );
    Ok(!cut)
}

/// The time a limited or stopped run has to write its report after its
/// search ends, within the promised second past the limit.
const OUTPUT_GRACE: std::time::Duration = std::time::Duration::from_millis(600);

/// Lists shorter than this are always written whole.
const ALWAYS_LISTED: usize = 2_000;

/// Cut the kept lists of a run with a time limit, or stopped by Ctrl-C,
/// to what can be written before its deadline (or the stop) plus
/// [`OUTPUT_GRACE`]: the cost of one board is measured by writing a sample
/// in both formats, and four times that is allowed per board (the text or
/// JSON, the --out folder, the writes). Returns how many solutions the
/// listed one held when it is cut; the counts stay whole.
fn cut_lists(
    result: &mut crate::solve::SolveResult,
    all: bool,
    options: &SolveOptions,
    started: std::time::Instant,
) -> Option<usize> {
    use std::time::Instant;
    let held = if all {
        result.raw.len()
    } else {
        result.canonical().len()
    };
    let stopped = matches!(
        result.outcome,
        Outcome::Incomplete(crate::solve::StopReason::Interrupted)
    );
    let end = match (options.deadline(started), stopped) {
        (_, true) => Instant::now(),
        (Some(d), false) => d,
        (None, false) => return None,
    } + OUTPUT_GRACE;
    if held <= ALWAYS_LISTED {
        return None;
    }
    let list = if all { &result.raw } else { result.canonical() };
    let sample = &list[..ALWAYS_LISTED.min(list.len())];
    let clock = Instant::now();
    let mut bytes = 0;
    for s in sample {
        bytes += s.to_seed_text().len() + serde_json::to_string(s).map_or(0, |j| j.len());
    }
    let per_board = clock.elapsed().as_secs_f64() / sample.len() as f64 * 4.0;
    std::hint::black_box(bytes);
    let left = end.saturating_duration_since(Instant::now()).as_secs_f64();
    let fits = ((left / per_board.max(1e-9)) as usize).max(ALWAYS_LISTED);
    if fits >= held {
        return None;
    }
    for l in [&mut result.raw, &mut result.classes, &mut result.pictures] {
        l.truncate(fits);
    }
    Some(held)
}

/// The exit code of a finished solve.
fn exit_code(outcome: &Outcome) -> u8 {
    match outcome {
        Outcome::Complete | Outcome::Infeasible => exit::OK,
        // What was asked for: not a failure.
        Outcome::Incomplete(crate::solve::StopReason::Limit) => exit::OK,
        Outcome::Incomplete(_) => exit::INCOMPLETE,
        Outcome::Invalid(_) => exit::SOLVER,
    }
}

/// What a solve needs once its options are checked and its engine
/// built: the puzzle, the tile images of `--out`, the engine, the run's
/// options and the shard it is, if one.
struct Prepared {
    puzzle: Puzzle,
    images: Option<TileImages>,
    solver: Built,
    options: SolveOptions,
    shard: Option<Shard>,
}

/// Every check `scramble solve` makes before it solves, in order, and
/// what they leave ready.
fn prepare(
    args: &SolveArgs,
    stop: &StopToken,
    started: std::time::Instant,
) -> Result<Prepared, CliError> {
    let shard = usage(args)?;
    let jsonl = args.format == Format::Jsonl;
    let puzzle = load_puzzle(&args.puzzle, &args.hints)?;
    // Refuse a bad output folder or bad tile images before solving.
    let images = match &args.out {
        Some(dir) => {
            folder::check(dir, args.force)?;
            args.pictures.images(&puzzle)?
        }
        None => None,
    };
    let solver = engine(args, &puzzle)?;
    let options = SolveOptions {
        symmetry: args.symmetry.clone(),
        allow_unproven: args.unproven.allow_unproven_symmetry,
        equivalence: args.equivalence,
        limit: args.limit.map(|n| n as usize),
        keep: if args.count {
            Keep::Count
        } else if jsonl {
            Keep::Stream
        } else if args.all {
            Keep::All
        } else {
            Keep::Canonical
        },
        started: Some(started),
        units: shard.map(|s| std::sync::Arc::new(crate::solve::Units::shard(s))),
        ..args.run.options(stop)
    };
    options.check(&puzzle)?;
    Ok(Prepared {
        puzzle,
        images,
        solver,
        options,
        shard,
    })
}

/// A solve's result with what its report says of it.
pub struct Solved {
    path: String,
    puzzle: Puzzle,
    result: crate::solve::SolveResult,
    all: bool,
    /// The exit code `scramble solve` ends with.
    pub exit_code: u8,
}

impl serde::Serialize for Solved {
    /// The report, as `--format json` writes it.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let report = Report {
            path: &self.path,
            puzzle: &self.puzzle,
            result: &self.result,
            all: self.all,
            cut_from: None,
        };
        json::serialize(&report, s)
    }
}

/// A solve for a caller in this process that takes its report as data
/// (the Python package): the checks and the run of `scramble solve
/// --format json`, without output, progress or files (not with `--out`,
/// `--shard`, `--dump-model` or another format).
pub fn solved(args: &SolveArgs, stop: StopToken) -> Result<Solved, CliError> {
    let started = std::time::Instant::now();
    let writes = [
        ("--out", args.out.is_some()),
        ("--shard", args.shard.is_some()),
        ("--dump-model", args.dump_model.is_some()),
        ("--format", args.format != Format::Json),
    ];
    if let Some((option, _)) = writes.iter().find(|(_, given)| *given) {
        return Err(CliError::Usage(format!(
            "{option}: a solve that hands back its report writes no output; the command line \
             (`scramble.run`) takes it"
        )));
    }
    let p = prepare(args, &stop, started)?;
    let result = crate::solve::run(p.solver.as_ref(), &p.puzzle, &p.options)
        .map_err(|e| unsupported(args, e))?;
    Ok(Solved {
        path: args.puzzle.display().to_string(),
        exit_code: exit_code(&result.outcome),
        puzzle: p.puzzle,
        result,
        all: args.all,
    })
}

/// A solver that does not cover this puzzle says why; the message names
/// the file.
fn unsupported(args: &SolveArgs, e: SolveError) -> CliError {
    match e {
        SolveError::Unsupported(why) => {
            CliError::Usage(format!("{}: {why}", args.puzzle.display()))
        }
        e => e.into(),
    }
}

pub(super) fn run(args: &SolveArgs, stop: StopToken) -> Result<u8, CliError> {
    let started = std::time::Instant::now();
    options::OVERWRITE.with(|o| o.set(args.force));
    let jsonl = args.format == Format::Jsonl;
    let Prepared {
        puzzle,
        images,
        solver,
        options,
        shard,
    } = prepare(args, &stop, started)?;
    // A write error of the JSON Lines stream (declared before the collector
    // that borrows it).
    let failed: RefCell<Option<std::io::Error>> = RefCell::new(None);
    let show_progress = std::io::stderr().is_terminal();
    let mut hooks = Hooks::default().with_progress(move |p, found| {
        if show_progress {
            eprint!(
                "\r{} subproblems done, {} pending, {} classes   ",
                p.subproblems_done, p.subproblems_pending, found
            );
        }
    });
    // JSON Lines: each new class written and flushed at once; a closed
    // pipe (`| head`) stops the search and ends quietly, any other write
    // error (a full disk) stops it and is reported.
    if jsonl {
        let mut k = 0u64;
        let (failed, stop) = (&failed, stop.clone());
        hooks = hooks.with_stream(move |s| {
            if failed.borrow().is_some() {
                return;
            }
            k += 1;
            let line = crate::commands::solve::json::solution_line(k, s);
            let mut out = std::io::stdout().lock();
            if let Err(e) = out.write_all(line.as_bytes()).and_then(|_| out.flush()) {
                *failed.borrow_mut() = Some(e);
                stop.stop();
            }
        });
    }
    // A shard: the picture weight of its finished units.
    let picture_weight = std::rc::Rc::new(std::cell::Cell::new(0u128));
    if shard.is_some() {
        let w = std::rc::Rc::clone(&picture_weight);
        hooks = hooks.with_units(move |_, c| w.set(w.get() + c.picture_weight));
    }
    let result = crate::solve::run_with(solver.as_ref(), &puzzle, &options, hooks);
    if show_progress {
        eprint!("\r\x1b[K");
    }
    let mut result = result.map_err(|e| unsupported(args, e))?;
    let cut_from = cut_lists(&mut result, args.all, &options, started);
    match failed.into_inner() {
        Some(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(exit::OK),
        Some(e) => return Err(super::stdout_error(&e)),
        None => {}
    }
    let path = args.puzzle.display().to_string();
    let report = Report {
        path: &path,
        puzzle: &puzzle,
        result: &result,
        all: args.all,
        cut_from,
    };
    let text = output(args, &report, &options, shard, picture_weight.get());
    let drawing_stopped = match &args.out {
        Some(dir) => !draw(
            args,
            dir,
            &report,
            images.as_ref(),
            &options,
            started,
            &stop,
        )?,
        None => false,
    };
    print(&text)?;
    if drawing_stopped {
        return Ok(exit::INCOMPLETE);
    }
    Ok(exit_code(&result.outcome))
}

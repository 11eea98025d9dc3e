//! `scramble compare`: CP-SAT (per model), the backtracker and the SAT
//! engine (per encoding) on the same puzzles, canonical sets checked
//! identical.

use crate::commands::*;

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// Puzzle directories, YAML files or piece files.
    #[arg(required = true)]
    pub puzzles: Vec<PathBuf>,
    #[command(flatten)]
    pub hints: HintArgs,
    /// Symmetry breaking for both solvers (see `solve --symmetry`).
    #[arg(long, value_name = "LIST", default_value = "none")]
    pub symmetry: Symmetry,
    #[command(flatten)]
    pub unproven: UnprovenArgs,
    /// What counts as one class.
    #[arg(long, value_enum, default_value_t = Equivalence::Rotation)]
    pub equivalence: Equivalence,
    #[command(flatten)]
    pub backtrack: BacktrackArgs,
    #[command(flatten)]
    pub models: ModelsArgs,
    #[command(flatten)]
    pub encodings: EncodingsArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
    #[command(flatten)]
    pub run: RunArgs,
}

pub(crate) fn run(args: &CompareArgs, stop: StopToken) -> Result<u8, CliError> {
    let started = std::time::Instant::now();
    let puzzles = load_all(&args.puzzles, &args.hints)?;
    for (_, p) in &puzzles {
        args.symmetry.check(p).map_err(SolveError::from)?;
    }
    args.unproven.check([&args.symmetry], args.equivalence)?;
    let cps = args
        .models
        .solvers(args.backtrack.turns(), &args.run.memory)?;
    let bt = args.backtrack.solver();
    let mut solvers: Vec<&dyn crate::solve::Solver> =
        cps.iter().map(|c| c as &dyn crate::solve::Solver).collect();
    solvers.push(&bt);
    let sats = args.encodings.solvers();
    solvers.extend(sats.iter().map(|s| s as &dyn crate::solve::Solver));
    let options = SolveOptions {
        symmetry: args.symmetry.clone(),
        allow_unproven: args.unproven.allow_unproven_symmetry,
        equivalence: args.equivalence,
        ..args.run.options(&stop)
    };
    let graph = crate::engines::graph::GraphSolver;
    // The graph solver joins on the puzzles it covers (2x2, no picture
    // twice on a piece).
    let with_graph = |p: &Puzzle| crate::engines::graph::unsupported(p).is_none();
    let runs = puzzles
        .iter()
        .map(|(_, p)| solvers.len() + usize::from(with_graph(p)))
        .sum();
    // --time-limit is the whole comparison's, shared among its runs.
    let mut time = crate::solve::TimeShare::new(args.run.time_limit, started, runs);
    let options = SolveOptions {
        time_limit: None,
        ..options
    };
    let mut rows = Vec::new();
    let mut verdicts = Vec::new();
    for (label, puzzle) in &puzzles {
        if stop.is_stopped() {
            break;
        }
        let mut these = solvers.clone();
        if with_graph(puzzle) {
            these.push(&graph);
        }
        let c = crate::commands::compare::compare(&these, puzzle, label, &options, &mut time)?;
        rows.extend(c.rows);
        verdicts.push((label.clone(), c.verdict));
    }
    let text = match args.format {
        ReportFormat::Text | ReportFormat::Markdown => {
            crate::commands::compare::render::text(&rows, &verdicts)
        }
        ReportFormat::Json => crate::commands::compare::render::json(&rows, &verdicts),
        ReportFormat::Csv => crate::commands::compare::render::csv(&rows),
    };
    print(&text)?;
    let disagreements = crate::commands::compare::disagreements(&verdicts);
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

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
    pub turns: TurnsArgs,
    /// Every engine's own options: each model (--model) and encoding
    /// (--encoding) runs as a solver of its own.
    #[command(flatten)]
    pub engines: crate::registry::EngineArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
    #[command(flatten)]
    pub run: RunArgs,
}

impl CompareArgs {
    /// The options of `scramble compare PUZZLE...`: every default as the
    /// command line gives it (a caller in this process then sets what it
    /// asks for).
    pub fn of(puzzles: Vec<PathBuf>) -> CompareArgs {
        crate::commands::defaults("compare", puzzles)
    }
}

/// A comparison's runs and verdicts, and the exit code `scramble compare`
/// ends with; serialized, the report `--format json` writes.
pub struct Compared {
    rows: Vec<crate::commands::compare::Run>,
    verdicts: Vec<(String, crate::commands::compare::Verdict)>,
    pub exit_code: u8,
}

impl serde::Serialize for Compared {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        crate::commands::compare::render::serialize(&self.rows, &self.verdicts, s)
    }
}

pub(crate) fn run(args: &CompareArgs, stop: StopToken) -> Result<u8, CliError> {
    let c = compared(args, stop)?;
    let text = match args.format {
        ReportFormat::Text | ReportFormat::Markdown => {
            crate::commands::compare::render::text(&c.rows, &c.verdicts)
        }
        ReportFormat::Json => crate::commands::compare::render::json(&c.rows, &c.verdicts),
        ReportFormat::Csv => crate::commands::compare::render::csv(&c.rows),
    };
    print(&text)?;
    for d in crate::commands::compare::disagreements(&c.verdicts) {
        eprintln!("disagreement on {}: {}", d.puzzle, d.message);
    }
    Ok(c.exit_code)
}

/// The comparison `scramble compare` runs, without its output (the
/// Python package takes it as data).
pub fn compared(args: &CompareArgs, stop: StopToken) -> Result<Compared, CliError> {
    let started = std::time::Instant::now();
    let puzzles = load_all(&args.puzzles, &args.hints)?;
    let options = SolveOptions {
        symmetry: args.symmetry.clone(),
        allow_unproven: args.unproven.allow_unproven_symmetry,
        equivalence: args.equivalence,
        ..args.run.options(&stop)
    };
    for (_, p) in &puzzles {
        options.check(p)?;
    }
    let build = crate::solve::kind::Build {
        turns: args.turns.turns(),
        memory_limit: args.run.memory.bytes(),
        ..Default::default()
    };
    // Each engine compare runs, with its runs, built once; a puzzle gets
    // those that cover it.
    let mut built = Vec::new();
    for engine in crate::registry::all() {
        if crate::registry::compared_on(engine, None) {
            built.push((engine, args.engines.build(engine, &build)?));
        }
    }
    let runs = puzzles
        .iter()
        .map(|(_, p)| {
            built
                .iter()
                .filter(|(e, _)| crate::registry::compared_on(*e, Some(p)))
                .map(|(_, b)| b.len())
                .sum::<usize>()
        })
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
        let these: Vec<&dyn crate::solve::Solver> = built
            .iter()
            .filter(|(e, _)| crate::registry::compared_on(*e, Some(puzzle)))
            .flat_map(|(_, b)| b.iter().map(|s| s.as_ref() as &dyn crate::solve::Solver))
            .collect();
        let c = crate::commands::compare::compare(&these, puzzle, label, &options, &mut time)?;
        rows.extend(c.rows);
        verdicts.push((label.clone(), c.verdict));
    }
    let disagree = !crate::commands::compare::disagreements(&verdicts).is_empty();
    let incomplete = stop.is_stopped() || rows.iter().any(|r| !r.complete);
    Ok(Compared {
        rows,
        verdicts,
        exit_code: if disagree || incomplete {
            exit::INCOMPLETE
        } else {
            exit::OK
        },
    })
}

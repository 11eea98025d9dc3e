//! `scramble symmetry-report`: every symmetry formulation on puzzles, per
//! CP model, with verdicts.

use crate::commands::*;

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Puzzle directories, YAML files or piece files.
    #[arg(required = true)]
    pub puzzles: Vec<PathBuf>,
    #[command(flatten)]
    pub hints: HintArgs,
    #[command(flatten)]
    pub models: ModelsArgs,
    /// The combinations to report, e.g. --symmetry center,lex --symmetry
    /// anchor (repeat the option; proven or not, each gets its verdicts).
    /// The `none` run always comes first: it is the reference. Default:
    /// each formulation alone and with tiles.
    #[arg(long, value_name = "LIST", conflicts_with = "constraints_only")]
    pub symmetry: Vec<Symmetry>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub constraints: ConstraintsArgs,
    /// With --constraints: the built-in symmetry breaking the constraints
    /// are added to (default none), as `scramble model --symmetry` and the
    /// Python package's `cp_model(symmetry=...)` build it.
    #[arg(long, value_name = "LIST", requires = "constraints")]
    pub constraints_symmetry: Option<Symmetry>,
    /// With --constraints: run only the plain model (the reference) and the
    /// constraints, not every built-in formulation.
    #[arg(long, requires = "constraints")]
    pub constraints_only: bool,
}

pub(crate) fn run(args: &ReportArgs, stop: StopToken) -> Result<u8, CliError> {
    let started = std::time::Instant::now();
    let puzzles = load_all(&args.puzzles, &args.hints)?;
    // The full tree: the `none` row is the plain model, the baseline every
    // formulation is compared with.
    let solvers = args.models.solvers(true, &args.run.memory)?;
    // The user's formulation: the same backends with the constraints.
    let own_symmetry = args.constraints_symmetry.clone().unwrap_or_default();
    let own: Vec<(CpSat, String)> = match solvers.first() {
        Some(first) => match args.constraints.load(first)? {
            Some(c) => {
                let name = match own_symmetry.is_none() {
                    true => format!("constraints:{}", c.label()),
                    false => format!("{}+constraints:{}", own_symmetry.name(), c.label()),
                };
                solvers
                    .iter()
                    .map(|s| (s.clone().with_constraints(Some(c.clone())), name.clone()))
                    .collect()
            }
            None => Vec::new(),
        },
        None => Vec::new(),
    };
    for (_, puzzle) in &puzzles {
        for (cp, _) in &own {
            if own_symmetry.check(puzzle).is_ok() {
                cp.check_constraints(puzzle, &own_symmetry)?;
            }
        }
    }
    let base = args.run.options(&stop);
    let combos = if args.constraints_only {
        vec![Symmetry::none()]
    } else if args.symmetry.is_empty() {
        crate::symmetry::report_combinations()
    } else {
        let given = args.symmetry.iter().filter(|s| !s.is_none()).cloned();
        std::iter::once(Symmetry::none()).chain(given).collect()
    };
    // --time-limit is the whole report's, shared among its rows.
    let per_run = combos.len() + usize::from(!own.is_empty());
    let mut time = crate::solve::TimeShare::new(
        args.run.time_limit,
        started,
        puzzles.len() * solvers.len() * per_run,
    );
    let base = SolveOptions {
        time_limit: None,
        ..base
    };
    let mut rows = Vec::new();
    'puzzles: for (label, puzzle) in &puzzles {
        for (k, solver) in solvers.iter().enumerate() {
            if stop.is_stopped() {
                break 'puzzles;
            }
            let own = own
                .get(k)
                .map(|(cp, name)| crate::commands::symmetry_report::Own {
                    solver: cp,
                    symmetry: own_symmetry.clone(),
                    name: name.clone(),
                });
            rows.extend(crate::commands::symmetry_report::run(
                solver,
                puzzle,
                label,
                &combos,
                &base,
                own.as_ref(),
                &mut time,
            )?);
        }
    }
    let text = match args.format {
        ReportFormat::Text => crate::commands::symmetry_report::render::text(&rows),
        ReportFormat::Json => crate::commands::symmetry_report::render::json(&rows),
        ReportFormat::Csv => crate::commands::symmetry_report::render::csv(&rows),
        ReportFormat::Markdown => crate::commands::symmetry_report::render::markdown(&rows),
    };
    print(&text)?;
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

//! `scramble symmetry-report`: every symmetry formulation on puzzles, per
//! CP model, with verdicts.

use crate::commands::*;
use crate::solve::Solver;

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Puzzle directories, YAML files or piece files.
    #[arg(required = true)]
    pub puzzles: Vec<PathBuf>,
    #[command(flatten)]
    pub hints: HintArgs,
    /// The engines that run every combination, comma-separated: cp-sat
    /// (each --model), sat (each --encoding; the formulations as clauses)
    /// and backtrack (the formulations as filters).
    #[arg(
        long,
        value_name = "LIST",
        default_value = "cp-sat",
        value_delimiter = ','
    )]
    pub solvers: Vec<Engine>,
    #[command(flatten)]
    pub models: ModelsArgs,
    #[command(flatten)]
    pub encodings: EncodingsArgs,
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
    /// Accepted as by the other commands, and changes nothing here: the
    /// report runs proven and unproven combinations alike, each with its
    /// verdicts.
    #[arg(long)]
    pub allow_unproven_symmetry: bool,
}

pub(crate) fn run(args: &ReportArgs, stop: StopToken) -> Result<u8, CliError> {
    let started = std::time::Instant::now();
    let puzzles = load_all(&args.puzzles, &args.hints)?;
    let engines = engines(args)?;
    // The user's formulation: CP-SAT's backends with the constraints.
    let own_symmetry = args.constraints_symmetry.clone().unwrap_or_default();
    let cps: Vec<&CpSat> = engines.iter().filter_map(Entry::cp_sat).collect();
    let own: Vec<(CpSat, String)> = match cps.first().map(|cp| args.constraints.load(cp)) {
        Some(loaded) => match loaded? {
            Some(c) => {
                let name = match own_symmetry.is_none() {
                    true => format!("constraints:{}", c.label()),
                    false => format!("{}+constraints:{}", own_symmetry.name(), c.label()),
                };
                cps.iter()
                    .map(|s| ((*s).clone().with_constraints(Some(c.clone())), name.clone()))
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
    let runs = engines.len() * combos.len() + own.len();
    let mut time = crate::solve::TimeShare::new(args.run.time_limit, started, puzzles.len() * runs);
    let base = SolveOptions {
        time_limit: None,
        ..base
    };
    let mut rows = Vec::new();
    'puzzles: for (label, puzzle) in &puzzles {
        // The user's constraints go with each CP-SAT engine in turn.
        let mut own_each = own.iter();
        for entry in &engines {
            if stop.is_stopped() {
                break 'puzzles;
            }
            let own = entry
                .cp_sat()
                .and_then(|_| own_each.next())
                .map(|(cp, name)| crate::commands::symmetry_report::Own {
                    solver: cp,
                    symmetry: own_symmetry.clone(),
                    name: name.clone(),
                });
            rows.extend(crate::commands::symmetry_report::run(
                entry.solver(),
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

/// One engine of the report.
enum Entry {
    CpSat(CpSat),
    Sat(Sat),
    Backtrack(Backtrack),
}

impl Entry {
    fn cp_sat(&self) -> Option<&CpSat> {
        match self {
            Entry::CpSat(cp) => Some(cp),
            _ => None,
        }
    }

    fn solver(&self) -> &dyn Solver {
        match self {
            Entry::CpSat(s) => s,
            Entry::Sat(s) => s,
            Entry::Backtrack(s) => s,
        }
    }
}

/// The engines asked for, in order, each with its models or encodings;
/// an option for an engine the list leaves out refused.
fn engines(args: &ReportArgs) -> Result<Vec<Entry>, CliError> {
    let mut kinds: Vec<Engine> = Vec::new();
    for &k in &args.solvers {
        if matches!(k, Engine::Graph | Engine::Auto) {
            return Err(CliError::Usage(format!(
                "--solvers {}: symmetry-report runs cp-sat, sat and backtrack",
                k.name()
            )));
        }
        if !kinds.contains(&k) {
            kinds.push(k);
        }
    }
    if kinds.is_empty() {
        return Err(CliError::Usage(
            "--solvers: name at least one solver".into(),
        ));
    }
    if !kinds.contains(&Engine::CpSat) {
        if !args.models.models.is_empty() {
            return Err(left_out("--model", "cp-sat"));
        }
        if args.constraints.constraints.is_some() {
            return Err(left_out("--constraints", "cp-sat"));
        }
    }
    if !kinds.contains(&Engine::Sat) && !args.encodings.encodings.is_empty() {
        return Err(left_out("--encoding", "sat"));
    }
    let mut out = Vec::new();
    for k in kinds {
        match k {
            // The full tree: the `none` row is the plain model, the
            // baseline every formulation is compared with.
            Engine::CpSat => out.extend(
                args.models
                    .solvers(Turns::Full, &args.run.memory)?
                    .into_iter()
                    .map(Entry::CpSat),
            ),
            Engine::Sat => out.extend(args.encodings.solvers().into_iter().map(Entry::Sat)),
            _ => out.push(Entry::Backtrack(Backtrack::default())),
        }
    }
    Ok(out)
}

//! `scramble symmetry-report`: every symmetry formulation on puzzles, per
//! CP model, with verdicts.

use crate::commands::*;
use crate::solve::kind::{Build, Built, Constraints};

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
        default_value = crate::commands::symmetry_report::DEFAULT_SOLVERS,
        value_delimiter = ',',
        value_parser = crate::registry::parser()
    )]
    pub solvers: Vec<Engine>,
    /// Every engine's own options: each model (--model) and encoding
    /// (--encoding) runs as a solver of its own.
    #[command(flatten)]
    pub engines: crate::registry::EngineArgs,
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

impl ReportArgs {
    /// The options of `scramble symmetry-report PUZZLE...`: every default
    /// as the command line gives it (a caller in this process then sets
    /// what it asks for).
    pub fn of(puzzles: Vec<PathBuf>) -> ReportArgs {
        crate::commands::defaults("symmetry-report", puzzles)
    }
}

/// A symmetry report's rows and the exit code `scramble symmetry-report`
/// ends with; serialized, the rows `--format json` writes.
pub struct Reported {
    rows: Vec<crate::commands::symmetry_report::Row>,
    pub exit_code: u8,
}

impl serde::Serialize for Reported {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.rows.serialize(s)
    }
}

pub(crate) fn run(args: &ReportArgs, stop: StopToken) -> Result<u8, CliError> {
    let r = reported(args, stop)?;
    let rows = &r.rows;
    let text = match args.format {
        ReportFormat::Text => crate::commands::symmetry_report::render::text(rows),
        ReportFormat::Json => crate::commands::symmetry_report::render::json(rows),
        ReportFormat::Csv => crate::commands::symmetry_report::render::csv(rows),
        ReportFormat::Markdown => crate::commands::symmetry_report::render::markdown(rows),
    };
    print(&text)?;
    Ok(r.exit_code)
}

/// The report `scramble symmetry-report` makes, without its output (the
/// Python package takes it as data).
pub fn reported(args: &ReportArgs, stop: StopToken) -> Result<Reported, CliError> {
    let started = std::time::Instant::now();
    let puzzles = load_all(&args.puzzles, &args.hints)?;
    let (engines, own) = engines(args)?;
    let own_symmetry = args.constraints_symmetry.clone().unwrap_or_default();
    for (_, puzzle) in &puzzles {
        for (cp, _) in own.iter().flatten() {
            if own_symmetry.check(puzzle).is_ok() {
                cp.check(puzzle, &own_symmetry)?;
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
    let runs = engines.len() * combos.len() + own.iter().flatten().count();
    let mut time = crate::solve::TimeShare::new(args.run.time_limit, started, puzzles.len() * runs);
    let base = SolveOptions {
        time_limit: None,
        ..base
    };
    let mut rows = Vec::new();
    'puzzles: for (label, puzzle) in &puzzles {
        // The user's constraints go with each run of an engine that takes
        // them, in turn.
        for (solver, own) in engines.iter().zip(&own) {
            if stop.is_stopped() {
                break 'puzzles;
            }
            let own = own
                .as_ref()
                .map(|(cp, name)| crate::commands::symmetry_report::Own {
                    solver: cp.as_ref(),
                    symmetry: own_symmetry.clone(),
                    name: name.clone(),
                });
            rows.extend(crate::commands::symmetry_report::run(
                solver.as_ref(),
                puzzle,
                label,
                &combos,
                &base,
                own.as_ref(),
                &mut time,
            )?);
        }
    }
    let incomplete = stop.is_stopped()
        || rows
            .iter()
            .any(|r| r.not_applicable.is_none() && !r.complete);
    let exit_code = if rows.iter().any(|r| r.contradicts_docs) || incomplete {
        exit::INCOMPLETE
    } else {
        exit::OK
    };
    Ok(Reported { rows, exit_code })
}

/// The runs of the engines asked for, in order, each model or encoding
/// a run of its own; beside each, its run with the user's constraints and
/// that formulation's name, where its engine takes them. An option for an
/// engine the list leaves out is refused.
type Runs = (Vec<Built>, Vec<Option<(Built, String)>>);

fn engines(args: &ReportArgs) -> Result<Runs, CliError> {
    let kinds = engines_named(&args.solvers, &args.engines)?;
    if let Some(k) = kinds
        .iter()
        .find(|k| !crate::registry::reports_symmetry(**k))
    {
        let names: Vec<_> = crate::registry::all()
            .filter(|e| crate::registry::reports_symmetry(*e))
            .map(|e| e.name())
            .collect();
        return Err(CliError::Usage(format!(
            "--solvers {k}: symmetry-report runs {}",
            crate::commands::and_list(&names)
        )));
    }
    // The full tree: the `none` row is the plain model, the baseline every
    // formulation is compared with.
    let plain = Build {
        turns: Turns::Full,
        memory_limit: args.run.memory.bytes(),
        ..Default::default()
    };
    let own = args.constraints.given(Constraints::Within, &kinds, true)?;
    let own_symmetry = args.constraints_symmetry.clone().unwrap_or_default();
    let name = own.map(|(path, _)| {
        let label = crate::engines::cpsat::constraints_label(path);
        match own_symmetry.is_none() {
            true => format!("constraints:{label}"),
            false => format!("{}+constraints:{label}", own_symmetry.name()),
        }
    });
    let (mut runs, mut owns) = (Vec::new(), Vec::new());
    for k in kinds {
        let these = args.engines.build(k, &plain)?;
        let mine = match (own, &name) {
            (Some(c), Some(name)) if crate::registry::takes_constraints(k) => {
                let with = Build {
                    constraints: Some(c),
                    ..plain.clone()
                };
                let built = args.engines.build(k, &with)?;
                built.into_iter().map(|b| Some((b, name.clone()))).collect()
            }
            _ => these.iter().map(|_| None).collect::<Vec<_>>(),
        };
        runs.extend(these);
        owns.extend(mine);
    }
    Ok((runs, owns))
}

//! `scramble symmetry-report`: every symmetry formulation on puzzles, per
//! CP model, with verdicts.

use super::*;

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Puzzle directories or YAML files.
    #[arg(required = true)]
    pub puzzles: Vec<PathBuf>,
    #[command(flatten)]
    pub hints: HintArgs,
    #[command(flatten)]
    pub models: ModelsArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
    #[command(flatten)]
    pub run: RunArgs,
}

pub(super) fn run(args: &ReportArgs, stop: StopToken) -> Result<u8, CliError> {
    let puzzles = load_all(&args.puzzles, &args.hints)?;
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
        ReportFormat::Text => crate::render::experiment::text(&rows),
        ReportFormat::Json => crate::render::experiment::json(&rows),
        ReportFormat::Csv => crate::render::experiment::csv(&rows),
        ReportFormat::Markdown => crate::render::experiment::markdown(&rows),
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

//! `scramble model`: the CP model CP-SAT would get for a puzzle (any
//! formulation, any built-in symmetry breaking), in protobuf text format,
//! without solving: for reading, and for the Python package's `cp_model()`,
//! which parses it into an OR-Tools `CpModel` (docs/python.md). Or, with
//! `--format dimacs`, the clauses the SAT engine solves, for any SAT solver.

use super::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ModelFormat {
    /// CP-SAT's CpModelProto in protobuf text format.
    Proto,
    /// The SAT engine's CNF in DIMACS, a comment header naming the
    /// placement and colour variables (with --encoding).
    Dimacs,
}

#[derive(Debug, Args)]
pub struct ModelArgs {
    /// A puzzle directory (with input/tile_dict.yaml), YAML file or piece file.
    pub puzzle: PathBuf,
    #[command(flatten)]
    pub hints: HintArgs,
    /// The CP formulation: table, edge, boolean or edge-boolean
    /// (docs/model.md).
    #[arg(long, value_name = "NAME", default_value = crate::model::DEFAULT)]
    pub model: Choice,
    /// Symmetry breaking added to the model: none, or a comma-separated list
    /// of center, corner, lex, anchor, picture-lex, tiles (docs/symmetry.md).
    #[arg(long, value_name = "LIST", default_value = "none")]
    pub symmetry: Symmetry,
    /// Leave out the turn reduction (one board turn of each solution, as a
    /// solve uses): the model then has every labelled solution.
    #[arg(long)]
    pub full_tree: bool,
    /// What to write: the CP model (proto) or the SAT engine's clauses
    /// (dimacs).
    #[arg(long, value_enum, default_value_t = ModelFormat::Proto)]
    pub format: ModelFormat,
    /// With --format dimacs: the SAT encoding (support, support-sequential,
    /// colour or colour-sequential; default colour-sequential).
    #[arg(long, value_name = "NAME")]
    pub encoding: Option<SatEncoding>,
    /// Write the model to FILE instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub force: ForceArgs,
}

pub(super) fn run(args: &ModelArgs) -> Result<u8, CliError> {
    args.force.apply();
    let puzzle = load_puzzle(&args.puzzle, &args.hints)?;
    args.symmetry.check(&puzzle).map_err(SolveError::from)?;
    let text = match args.format {
        ModelFormat::Proto => {
            if args.encoding.is_some() {
                return Err(CliError::Usage(
                    "--encoding applies to --format dimacs only".into(),
                ));
            }
            cpsat::model_text(
                &puzzle,
                args.model,
                &args.symmetry,
                Turns::full_if(args.full_tree),
            )
            .map_err(SolveError::from)?
        }
        ModelFormat::Dimacs => {
            if args.full_tree {
                return Err(CliError::Usage(
                    "--full-tree applies to --format proto only: the clauses have every \
                     labelled solution"
                        .into(),
                ));
            }
            crate::engines::sat::dimacs(&puzzle, args.encoding.unwrap_or_default(), &args.symmetry)?
        }
    };
    match &args.out {
        Some(path) => write_file(path, text.as_bytes())?,
        None => print(&text)?,
    }
    Ok(exit::OK)
}

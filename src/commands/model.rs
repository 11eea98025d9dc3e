//! `scramble model`: the CP model CP-SAT would get for a puzzle (any
//! formulation, any built-in symmetry breaking), in protobuf text format,
//! without solving: for reading, and for the Python package's `cp_model()`,
//! which parses it into an OR-Tools `CpModel` (docs/python.md).

use super::*;

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
    /// Write the model to FILE instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

pub(super) fn run(args: &ModelArgs) -> Result<u8, CliError> {
    let puzzle = load_puzzle(&args.puzzle, &args.hints)?;
    args.symmetry.check(&puzzle).map_err(SolveError::from)?;
    let text = cpsat::model_text(&puzzle, args.model, &args.symmetry, args.full_tree)
        .map_err(SolveError::from)?;
    match &args.out {
        Some(path) => write_file(path, text.as_bytes())?,
        None => print(&text)?,
    }
    Ok(exit::OK)
}

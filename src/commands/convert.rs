//! `scramble convert`: a puzzle in the other format: a piece file (or any
//! puzzle) as YAML, or a puzzle as the community's piece file where that
//! format can say it.

use super::*;

#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// A puzzle directory (with input/tile_dict.yaml), YAML file or piece file.
    pub puzzle: PathBuf,
    #[command(flatten)]
    pub hints: HintArgs,
    /// Output file: .yaml (scramble's format, with its rule keys) or .txt
    /// (the community's piece file). Never overwritten unless --force.
    #[arg(short = 'o', long = "output", value_name = "OUT.yaml|OUT.txt")]
    pub output: PathBuf,
    /// Replace the output file if it exists.
    #[arg(long)]
    pub force: bool,
}

pub(super) fn run(args: &ConvertArgs) -> Result<u8, CliError> {
    options::OVERWRITE.with(|o| o.set(args.force));
    let puzzle = load_puzzle(&args.puzzle, &args.hints)?;
    let ext = output_kind(&args.output, &["yaml", "yml", "txt"])?;
    if args.output.exists() && !args.force {
        return Err(CliError::Output {
            path: args.output.clone(),
            message: "already exists (--force replaces it)".into(),
        });
    }
    let text = if ext == "txt" {
        crate::puzzle::pieces::to_text(&puzzle).map_err(|why| CliError::Output {
            path: args.output.clone(),
            message: format!(
                "{} cannot be written as a piece file: {why}",
                args.puzzle.display()
            ),
        })?
    } else {
        let mut p = puzzle.clone();
        if p.title().is_none() {
            p.set_title(Some(format!(
                "converted by scramble from {}",
                args.puzzle.display()
            )));
        }
        crate::puzzle::to_yaml(&p)
    };
    // The written file reads back as the same puzzle (a check of the
    // writers, before the user relies on the file).
    let back = Puzzle::read(&text, &args.output, puzzle.name().to_string())?;
    if back.fingerprint() != puzzle.fingerprint() {
        return Err(CliError::Output {
            path: args.output.clone(),
            message: "the converted puzzle does not read back the same; nothing written".into(),
        });
    }
    write_file(&args.output, text.as_bytes())?;
    eprintln!("wrote the puzzle to {}", args.output.display());
    Ok(exit::OK)
}

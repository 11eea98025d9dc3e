//! `scramble graph`: the recording graph of a puzzle (Mason & Zhang) as
//! SVG, PNG or DOT, optionally with a solution's centre corners highlighted.

use super::*;

#[derive(Debug, Args)]
pub struct GraphArgs {
    /// A puzzle directory (with input/tile_dict.yaml), YAML file or piece file.
    pub puzzle: PathBuf,
    /// Output file: .svg, .png or .dot.
    #[arg(short = 'o', long = "output", value_name = "OUT.svg|OUT.png|OUT.dot")]
    pub output: PathBuf,
    /// Highlight the arcs solution K (1-based, in the order `scramble
    /// solve` lists the classes) uses: on a 2x2 board, the corner of each
    /// piece that meets the centre.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..))]
    pub solution: Option<u32>,
    #[command(flatten)]
    pub force: ForceArgs,
}

pub(super) fn run(args: &GraphArgs, stop: StopToken) -> Result<u8, CliError> {
    args.force.apply();
    let puzzle = super::load_plain(&args.puzzle)?;
    let ext = output_kind(&args.output, &["svg", "png", "dot"])?;
    let g = crate::engines::graph::RecordingGraph::of(&puzzle);
    let highlight = match args.solution {
        None => None,
        Some(k) => {
            if !puzzle.is_plain_square() || puzzle.rows() != 2 {
                return Err(CliError::Usage(format!(
                    "{}: --solution highlights the centre corners of a 2x2 board of plain edge matching; this board is {}x{}",
                    args.puzzle.display(),
                    puzzle.rows(),
                    puzzle.cols()
                )));
            }
            let options = SolveOptions {
                keep: crate::solve::Keep::Canonical,
                stop,
                ..SolveOptions::default()
            };
            let r = crate::solve::run(
                &crate::engines::backtrack::Backtrack::default(),
                &puzzle,
                &options,
            )?;
            let found = r.canonical();
            let s = found.get(k as usize - 1).ok_or_else(|| {
                CliError::Usage(format!(
                    "{}: has {} solution class(es); --solution {k} is out of range",
                    args.puzzle.display(),
                    found.len()
                ))
            })?;
            crate::engines::graph::centre_sides(&puzzle, s)
        }
    };
    let bytes = match ext.as_str() {
        "dot" => crate::render::graph::dot(&puzzle, &g, &highlight).into_bytes(),
        "png" => crate::render::png::from_svg(&crate::render::graph::svg(&puzzle, &g, &highlight))
            .map_err(FolderError::from)?,
        _ => crate::render::graph::svg(&puzzle, &g, &highlight).into_bytes(),
    };
    write_file(&args.output, &bytes)?;
    eprintln!("wrote the recording graph to {}", args.output.display());
    Ok(exit::OK)
}

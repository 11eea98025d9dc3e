//! `scramble render`: the unsolved tiles or a solution as SVG or PNG.

use super::*;

#[derive(Debug, Args)]
pub struct RenderArgs {
    /// A puzzle directory (with input/tile_dict.yaml), YAML file or piece file.
    pub puzzle: PathBuf,
    #[command(flatten)]
    pub hints: HintArgs,
    /// A solution to draw: the JSON of `scramble solve --format json`, or
    /// the seed text format (`-` reads standard input). Without it, the
    /// unsolved tiles are drawn.
    #[arg(long, value_name = "FILE|-")]
    pub solution: Option<PathBuf>,
    /// Which solution of the file (1-based).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub index: u32,
    /// Output file: .svg or .png.
    #[arg(short = 'o', long = "output", value_name = "OUT.svg|OUT.png")]
    pub output: PathBuf,
    #[command(flatten)]
    pub pictures: PictureArgs,
    #[command(flatten)]
    pub force: ForceArgs,
}

pub(super) fn run(args: &RenderArgs) -> Result<u8, CliError> {
    args.force.apply();
    let puzzle = load_puzzle(&args.puzzle, &args.hints)?;
    let ext = output_kind(&args.output, &["svg", "png"])?;
    let images = args.pictures.images(&puzzle)?;
    let svg = match &args.solution {
        None => svg::unsolved_picture(&puzzle, images.as_ref()),
        Some(path) => {
            let s = read_solution(path, args.index as usize)?;
            let cells = s.cells().len();
            let s = s.reshaped(puzzle.shape()).ok_or_else(|| CliError::Output {
                path: path.clone(),
                message: format!(
                    "a board of {cells} cells is not a solution of the {}x{} board of {}",
                    puzzle.rows(),
                    puzzle.cols(),
                    puzzle.source().display()
                ),
            })?;
            s.verify(&puzzle).map_err(|e| CliError::Output {
                path: path.clone(),
                message: format!("not a solution of {}: {e}", puzzle.source().display()),
            })?;
            svg::solution_picture(&puzzle, &s, images.as_ref())
        }
    };
    let bytes = if ext == "png" {
        crate::render::png::from_svg(&svg).map_err(FolderError::from)?
    } else {
        svg.into_bytes()
    };
    write_file(&args.output, &bytes)?;
    eprintln!("wrote the picture to {}", args.output.display());
    Ok(exit::OK)
}

/// Solution `index` (1-based) of a JSON report or a seed-format text.
fn read_solution(path: &Path, index: usize) -> Result<crate::board::Solution, CliError> {
    let err = |message: String| CliError::Output {
        path: match path == Path::new("-") {
            true => PathBuf::from("standard input"),
            false => path.to_path_buf(),
        },
        message,
    };
    let text = if path == Path::new("-") {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
            .map_err(|e| err(format!("cannot read standard input: {e}")))?;
        s
    } else {
        super::reads(path);
        std::fs::read_to_string(path).map_err(|e| err(format!("cannot read: {e}")))?
    };
    let boards = crate::board::parse_saved(&text).map_err(err)?;
    let count = boards.len();
    if count == 0 {
        return Err(err(
            "holds no board: expected the JSON of scramble solve, seed text lines such as \
             [t=1,r=1] [t=9,r=3] [t=7,r=2], or an .et2 board"
                .into(),
        ));
    }
    boards.into_iter().nth(index - 1).ok_or_else(|| {
        err(format!(
            "has {count} solution(s); --index {index} is out of range"
        ))
    })
}

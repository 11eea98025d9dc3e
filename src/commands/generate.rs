//! `scramble generate`: random solvable puzzles by planting a solution.

use crate::puzzle::{Turning, to_yaml};
use crate::solve::Keep;

use super::*;

#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Board side n (n x n tiles); or --rows and --cols.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=32),
          required_unless_present_all = ["rows", "cols"], conflicts_with_all = ["rows", "cols"])]
    pub size: Option<u32>,
    /// Board rows (with --cols): a rectangle, in the family's style
    /// (self-matching colours).
    #[arg(long, requires = "cols", value_parser = clap::value_parser!(u32).range(1..=32))]
    pub rows: Option<u32>,
    /// Board columns (with --rows).
    #[arg(long, requires = "rows", value_parser = clap::value_parser!(u32).range(1..=32))]
    pub cols: Option<u32>,
    /// Number of motifs (for framed and other family puzzles: the colours
    /// of the inner joins). Default: twice the board's longer side, the
    /// fewest that mostly give one answer (measured on 3x3 to 6x6 boards:
    /// fewer motifs give tens to thousands of classes, more make the
    /// puzzle easy).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub motifs: Option<u32>,
    /// A grey frame in the Eternity II community's style (motif `0` on the
    /// outside), with this many colours on the joins along the border.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub frame_colours: u32,
    /// `none`: tiles never turn (Tetravex).
    #[arg(long, value_enum, default_value = "quarter")]
    pub turns: TurnsArg,
    /// Fix one piece of the planted solution on its cell (a hint).
    #[arg(long)]
    pub hint: bool,
    /// Number of puzzles.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub count: u32,
    /// Random seed: the same seed gives the same puzzles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// At least this many tiles identical (up to rotation) to another tile.
    #[arg(long, default_value_t = 0)]
    pub duplicates: u32,
    /// Use self-matching halves `=` too.
    #[arg(long)]
    pub self_matching: bool,
    /// Keep only puzzles with exactly one solution: one finished picture up
    /// to board turns (checked with the backtracking solver).
    #[arg(long)]
    pub unique: bool,
    /// Output folder (created if missing; files in it that exist are
    /// replaced only with --force).
    #[arg(long)]
    pub out: PathBuf,
    #[command(flatten)]
    pub force: ForceArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TurnsArg {
    Quarter,
    None,
}

impl GenerateArgs {
    /// A puzzle of the family (rectangle, frame, no turns or a hint)
    /// rather than a Scramble Squares board.
    fn family(&self) -> bool {
        self.rows.is_some() || self.frame_colours > 0 || self.turns == TurnsArg::None || self.hint
    }

    /// The motifs asked for, or the default for a `rows` x `cols` board.
    fn motif_count(&self, rows: usize, cols: usize) -> u32 {
        self.motifs.unwrap_or(2 * rows.max(cols) as u32)
    }

    /// The options as the puzzle's title repeats them.
    fn described(&self, k: usize, motifs: u32) -> String {
        let mut out = String::from(TITLE);
        match (self.size, self.rows, self.cols) {
            (Some(n), _, _) => out.push_str(&format!(" --size {n}")),
            (_, Some(r), Some(c)) => out.push_str(&format!(" --rows {r} --cols {c}")),
            _ => {}
        }
        out.push_str(&format!(" --motifs {motifs} --seed {} (#{k})", self.seed));
        if self.frame_colours > 0 {
            out.push_str(&format!(" --frame-colours {}", self.frame_colours));
        }
        if self.turns == TurnsArg::None {
            out.push_str(" --turns none");
        }
        if self.hint {
            out.push_str(" --hint");
        }
        if self.duplicates > 0 {
            out.push_str(&format!(" --duplicates {}", self.duplicates));
        }
        if self.unique {
            out.push_str(" --unique");
        }
        out
    }
}

/// The options that contradict each other or the board.
fn check(args: &GenerateArgs, rows: usize, cols: usize, family: bool) -> Result<(), CliError> {
    if family && (args.duplicates > 0 || args.self_matching) {
        return Err(CliError::Usage(
            "--duplicates and --self-matching are for Scramble Squares boards; \
             framed, rectangular, no-turn and hinted puzzles use self-matching colours"
                .into(),
        ));
    }
    if args.frame_colours > 0 && (rows < 2 || cols < 2) {
        return Err(CliError::Usage(format!(
            "--frame-colours: a frame needs at least 2 rows and 2 columns, not {rows}x{cols}"
        )));
    }
    if args.duplicates as usize > rows * cols {
        return Err(CliError::Usage(format!(
            "--duplicates {} is more than the {} tiles of a {rows}x{cols} board",
            args.duplicates,
            rows * cols
        )));
    }
    Ok(())
}

/// How the title of every puzzle scramble generates starts.
pub(super) const TITLE: &str = "generated by scramble generate";

/// Whether `puzzle` has exactly one finished picture up to the board's
/// turns (its own group; with identical tiles there are always several
/// labelled classes). The search stops at the second picture and keeps
/// none, so a puzzle with astronomically many answers costs no memory. A
/// stop request (Ctrl-C) ends the command.
fn unique(bt: &Backtrack, puzzle: &Puzzle, stop: &StopToken) -> Result<bool, CliError> {
    let options = SolveOptions {
        equivalence: Equivalence::Picture,
        limit: Some(2),
        keep: Keep::Count,
        threads: 1,
        stop: stop.clone(),
        ..SolveOptions::default()
    };
    let r = crate::solve::run(bt, puzzle, &options)?;
    match r.outcome {
        Outcome::Complete | Outcome::Infeasible => Ok(r.counts.pictures == 1),
        Outcome::Incomplete(crate::solve::StopReason::Limit) => Ok(false),
        Outcome::Incomplete(why) => Err(CliError::Usage(format!(
            "stopped while checking that a puzzle has one answer ({why}): nothing more written"
        ))),
        Outcome::Invalid(e) => Err(CliError::Solve(SolveError::Runtime(e.into()))),
    }
}

pub(super) fn run(args: &GenerateArgs, stop: StopToken) -> Result<u8, CliError> {
    let names = generated(args, stop)?;
    print(&format!(
        "wrote {} puzzle{} to {}\n",
        names.len(),
        if names.len() == 1 { "" } else { "s" },
        args.out.display()
    ))?;
    Ok(exit::OK)
}

/// The puzzles `scramble generate` writes, written; their files, in
/// order (the Python package loads them).
pub fn generated(args: &GenerateArgs, stop: StopToken) -> Result<Vec<PathBuf>, CliError> {
    use crate::generate::{FamilyOptions, PlantOptions, Rng, plant_family, plant_with_duplicates};
    // The command line's parser holds these rules too; a caller in this
    // process builds the options itself.
    let (rows, cols) = match (args.size, args.rows, args.cols) {
        (Some(n), None, None) => (n as usize, n as usize),
        (None, Some(r), Some(c)) => (r as usize, c as usize),
        _ => {
            return Err(CliError::Usage(
                "give --size N, or --rows and --cols (not both)".into(),
            ));
        }
    };
    let motifs = args.motif_count(rows, cols);
    let (n, m) = (rows, motifs as usize);
    let family = args.family();
    check(args, rows, cols, family)?;
    let mut kind = String::new();
    if args.frame_colours > 0 {
        kind.push_str(&format!("-f{}", args.frame_colours));
    }
    if args.turns == TurnsArg::None {
        kind.push_str("-t0");
    }
    if args.hint {
        kind.push_str("-h");
    }
    let names: Vec<PathBuf> = (1..=args.count)
        .map(|k| {
            args.out.join(format!(
                "{rows}x{cols}-m{m}{kind}-s{}-{k:04}.yaml",
                args.seed
            ))
        })
        .collect();
    args.force.apply();
    if let Some(existing) = names.iter().find(|p| p.exists() && !args.force.force) {
        return Err(CliError::Output {
            path: existing.clone(),
            message: "already exists (--force replaces it)".into(),
        });
    }
    std::fs::create_dir_all(&args.out).map_err(|e| CliError::Output {
        path: args.out.clone(),
        message: format!("cannot create the folder: {e}"),
    })?;
    let options = PlantOptions {
        n,
        motifs: m,
        self_matching: args.self_matching,
    };
    let family_options = FamilyOptions {
        rows,
        cols,
        frame_colours: args.frame_colours as usize,
        inner_colours: m,
        turning: match args.turns {
            TurnsArg::Quarter => Turning::Quarter,
            TurnsArg::None => Turning::None,
        },
        hint: args.hint,
    };
    let mut master = Rng::new(args.seed);
    let bt = Backtrack::default();
    for (k, path) in names.iter().enumerate() {
        let mut rng = Rng::new(master.next_u64());
        let mut tries = 0;
        let (mut puzzle, planted) = loop {
            tries += 1;
            if tries > 10_000 {
                return Err(CliError::Usage(format!(
                    "no puzzle found for #{} after 10000 tries: relax --duplicates or --unique, or use more motifs",
                    k + 1
                )));
            }
            let made = if family {
                Some(plant_family(&mut rng, &family_options))
            } else {
                plant_with_duplicates(&mut rng, &options, args.duplicates as usize, 100)
            };
            let Some((p, s)) = made else {
                continue;
            };
            if args.unique && !unique(&bt, &p, &stop)? {
                continue;
            }
            break (p, s);
        };
        puzzle.set_title(Some(args.described(k + 1, motifs)));
        let mut text = to_yaml(&puzzle);
        let planted_line: Vec<String> = planted.cells().iter().map(|p| p.to_string()).collect();
        text = text.replacen(
            '\n',
            &format!(
                "\n# board: {rows}x{cols}\n# planted: {}\n",
                planted_line.join(" ")
            ),
            1,
        );
        write_file(path, text.as_bytes())?;
    }
    Ok(names)
}

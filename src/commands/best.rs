//! `scramble best`: the board with the most valid joins, searched until the
//! time limit, Ctrl-C or a full board, each improvement printed as it comes
//! (text, or JSON Lines), the best board drawn with its broken joins marked
//! and written in the community's notation; `--checkpoint` resumes.

use crate::best::{self, BestOptions, Improvement, Method};
use crate::commands::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BestFormat {
    Text,
    /// JSON Lines: one line per improvement (score, joins, time_s, method,
    /// board, broken), then a summary line.
    Jsonl,
}

#[derive(Debug, Args)]
pub struct BestArgs {
    /// A puzzle directory (with input/tile_dict.yaml), YAML file or piece file.
    pub puzzle: PathBuf,
    #[command(flatten)]
    pub hints: HintArgs,
    /// The search: backtrack (allowed breaks, restarts), depth (the
    /// deepest board with breaks at fixed slots, its last cells filled
    /// optimally: the one for Eternity II), cp-sat (maximize the valid
    /// joins, warm-started) or hybrid (both, sharing the best board).
    #[arg(long, value_enum, default_value_t = Method::Backtrack)]
    pub method: Method,
    #[command(flatten)]
    pub run: RunArgs,
    /// Seed of the random candidate order.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// CP-SAT's time slice in seconds: it reports and restarts from the
    /// best board after each.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, default_value = "10")]
    pub slice: Duration,
    #[arg(long, value_enum, default_value_t = BestFormat::Text)]
    pub format: BestFormat,
    /// Start from the board in FILE if it exists, and keep the best board
    /// there (rewritten at each improvement).
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Draw the best board, its broken joins marked, to FILE.svg.
    #[arg(long, value_name = "FILE.svg")]
    pub svg: Option<PathBuf>,
    /// Write the best board in the community's notation (.et2: piece number
    /// and clockwise turns per square) to FILE.
    #[arg(long, value_name = "FILE")]
    pub et2: Option<PathBuf>,
    #[command(flatten)]
    pub force: ForceArgs,
}

fn line(imp: &Improvement) -> String {
    let mut v = serde_json::to_value(imp).expect("serializable");
    if let Some(o) = v.as_object_mut() {
        o.insert("type".into(), "improvement".into());
    }
    format!("{v}\n")
}

/// The run's closing report: a JSON line, or the best board in words.
fn summary(args: &BestArgs, puzzle: &Puzzle, result: &best::BestRun) -> String {
    let ended = match result.ended {
        best::Ended::Full => "full score (a solution)",
        best::Ended::Optimal => "optimal (proved by CP-SAT)",
        best::Ended::TimeLimit => "time limit",
        best::Ended::Interrupted => "interrupted",
    };
    match args.format {
        BestFormat::Jsonl => {
            let v = serde_json::json!({
                "type": "summary",
                "puzzle": puzzle.name(),
                "method": args.method.name(),
                "score": result.best.as_ref().map(|b| b.score),
                "joins": crate::board::Score::joins_of(puzzle),
                "ended": result.ended,
                "improvements": result.improvements,
                "nodes": result.nodes,
                "wall_time_s": result.wall_time_s,
            });
            format!("{v}\n")
        }
        BestFormat::Text => match &result.best {
            Some(b) => {
                let broken: Vec<String> = b.broken.iter().map(|j| j.to_string()).collect();
                format!(
                    "best: {} of {} joins ({}; {} improvements, {:.3} s)\n{}{}",
                    b.score,
                    b.joins,
                    ended,
                    result.improvements,
                    result.wall_time_s,
                    b.board.to_seed_text(),
                    if broken.is_empty() {
                        String::new()
                    } else {
                        format!("broken joins: {}\n", broken.join(" "))
                    }
                )
            }
            None => format!("best: no board found ({ended})\n"),
        },
    }
}

pub(crate) fn run(args: &BestArgs, stop: StopToken) -> Result<u8, CliError> {
    args.force.apply();
    // Its CP-SAT methods solve small windows and the board's model once,
    // without the enumeration's ceiling: the option would do nothing.
    if args.run.memory.memory_limit.is_some() {
        return Err(CliError::Usage(
            "--memory-limit applies to the CP-SAT enumeration (solve, compare, \
             symmetry-report, bench), not to best"
                .into(),
        ));
    }
    let puzzle = load_puzzle(&args.puzzle, &args.hints)?;
    if let Some(svg) = &args.svg {
        output_kind(svg, &["svg"])?;
    }
    for path in args.svg.iter().chain(&args.et2) {
        writable(path)?;
    }
    if let Some(path) = &args.checkpoint {
        rewritable(path)?;
    }
    let start = match &args.checkpoint {
        Some(path) => {
            best::checkpoint::load(path, &puzzle).map_err(|e| CliError::Usage(e.to_string()))?
        }
        None => None,
    };
    let base = args.run.options(&stop);
    let options = BestOptions {
        method: args.method,
        time_limit: args.run.time_limit,
        threads: base.threads,
        seed: args.seed,
        stop: stop.clone(),
        start: start.clone(),
        slice: args.slice,
    };
    if start.is_some() && args.format == BestFormat::Text {
        eprintln!(
            "best: resuming from {}",
            args.checkpoint.as_ref().expect("a checkpoint").display()
        );
    }
    let mut write_error = None;
    let result = best::run(&puzzle, &options, &mut |imp| {
        let text = match args.format {
            BestFormat::Jsonl => line(imp),
            BestFormat::Text => format!(
                "{} of {} joins after {:.3} s ({})\n",
                imp.score, imp.joins, imp.time_s, imp.method
            ),
        };
        let _ = print(&text);
        if let Some(path) = &args.checkpoint
            && let Err(e) = best::checkpoint::save(path, &puzzle, &imp.board, imp.score)
        {
            write_error.get_or_insert(e);
        }
    })
    .map_err(|e| match e {
        best::BestError::Solve(s) => CliError::Solve(s),
        best::BestError::Runtime(r) => CliError::Runtime(r),
        other => CliError::Solve(SolveError::Runtime(Box::new(other))),
    })?;
    // The report first: a file that cannot be written is an error, but
    // the best board is on standard output.
    let text = summary(args, &puzzle, &result);
    print(&text)?;
    if let Some(b) = &result.best {
        if let Some(path) = &args.svg {
            write_file(path, svg::scored(&puzzle, &b.board, &b.broken).as_bytes())?;
        }
        if let Some(path) = &args.et2 {
            write_file(path, crate::board::et2(&b.board).as_bytes())?;
        }
    }
    if let Some(e) = write_error {
        return Err(CliError::Output {
            path: e.path,
            message: e.message,
        });
    }
    // As every command's: a run that a limit or Ctrl-C ended is incomplete
    // (its best board is printed and written all the same).
    Ok(match result.ended {
        best::Ended::Full | best::Ended::Optimal => exit::OK,
        best::Ended::TimeLimit | best::Ended::Interrupted => exit::INCOMPLETE,
    })
}

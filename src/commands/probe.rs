//! `scramble probe`: how far and how fast the backtracking search gets: the
//! first partial board with the first N cells of a placement order filled,
//! the nodes it took and the node rate (the Eternity II community's way of
//! timing a backtracker); or, with `--estimate`, how large the whole tree
//! is (Knuth's estimate from random probes).

use serde_json::json;

use crate::engines::backtrack::{self, ProbeEnd};
use crate::solve::StopReason;

use super::*;

#[derive(Debug, Args)]
pub struct ProbeArgs {
    /// A puzzle directory (with input/tile_dict.yaml), YAML file or piece file.
    pub puzzle: PathBuf,
    #[command(flatten)]
    pub hints: HintArgs,
    /// Cells to fill, in placement order (default: the whole board, i.e.
    /// the first solution of the full tree in that order).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub depth: Option<u32>,
    /// Instead: estimate the size of the whole search tree in that order
    /// (nodes, nodes per depth, labelled solutions) from N random probes
    /// (Knuth's estimator; the full tree, as the depth search walks it).
    #[arg(long, value_name = "N", conflicts_with = "depth",
          value_parser = crate::commands::parse_positive)]
    pub estimate: Option<u64>,
    /// Seed of the random probes (the same seed gives the same estimate).
    #[arg(long, default_value_t = 1, requires = "estimate")]
    pub seed: u64,
    /// Placement order (default: spiral). `row-up` is the community's row
    /// scan from the bottom-left corner.
    #[arg(long, value_enum)]
    pub order: Option<Order>,
    /// Stop after this many seconds and report how deep the search got.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time_limit: Option<Duration>,
    #[arg(long, value_enum, default_value = "text")]
    pub format: ProbeFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ProbeFormat {
    Text,
    Json,
}

pub(super) fn run(args: &ProbeArgs, stop: StopToken) -> Result<u8, CliError> {
    let puzzle = load_puzzle(&args.puzzle, &args.hints)?;
    let cells = puzzle.cells();
    let depth = args.depth.map_or(cells, |d| d as usize);
    if depth > cells {
        return Err(CliError::Usage(format!(
            "--depth {depth}: {} has {cells} cells",
            args.puzzle.display()
        )));
    }
    let order = args.order.unwrap_or(DEFAULT_ORDER);
    let options = SolveOptions {
        time_limit: args.time_limit,
        stop,
        ..SolveOptions::default()
    };
    if let Some(probes) = args.estimate {
        return estimate(args, &puzzle, order, probes, &options);
    }
    let r = backtrack::probe(&puzzle, order, depth, &options)?;
    if let Some(board) = &r.board {
        // Independently of the search: the partial board is valid.
        board.verify(&puzzle).map_err(|e| {
            SolveError::Unsupported(format!("the probe's board does not verify: {e}"))
        })?;
    }
    let end = match r.end {
        ProbeEnd::Reached => "reached",
        ProbeEnd::Exhausted => "exhausted",
        ProbeEnd::Stopped(why) => stop_name(why),
    };
    let text = match args.format {
        ProbeFormat::Json => json_line(
            args,
            &puzzle,
            order,
            json!({
                "depth": depth,
                "end": end,
                "nodes": r.nodes,
                "deepest": r.deepest,
                "build_time_s": r.build_s,
                "search_time_s": r.search_s,
                "nodes_per_second": r.rate(),
                "nodes_per_depth": r.nodes_per_depth,
                "partial": r.board,
            }),
        ),
        ProbeFormat::Text => {
            let mut out = format!(
                "puzzle: {} ({})\norder: {}, depth {depth} of {cells}\n",
                args.puzzle.display(),
                puzzle.describe_board(),
                order.name()
            );
            let what = match r.end {
                ProbeEnd::Reached => format!("reached depth {depth}"),
                ProbeEnd::Exhausted => format!("no partial board of depth {depth} exists"),
                ProbeEnd::Stopped(_) => format!(
                    "stopped ({}) before depth {depth}; deepest {}",
                    end.replace('_', " "),
                    r.deepest
                ),
            };
            out.push_str(&format!(
                "{what}: {} nodes in {:.3} s ({:.2} M nodes/s; tables {:.3} s)\n",
                r.nodes,
                r.search_s,
                r.rate() / 1e6,
                r.build_s
            ));
            if let Some(b) = &r.board {
                out.push_str(&b.to_seed_text());
            }
            out
        }
    };
    print(&text)?;
    Ok(match r.end {
        ProbeEnd::Stopped(_) => exit::INCOMPLETE,
        _ => exit::OK,
    })
}

/// One JSON line: the keys both reports start with (the puzzle, its board,
/// the order), then `fields`.
fn json_line(args: &ProbeArgs, puzzle: &Puzzle, order: Order, fields: serde_json::Value) -> String {
    let mut v = json!({
        "puzzle": args.puzzle.display().to_string(),
        "rows": puzzle.rows(),
        "cols": puzzle.cols(),
        "board": puzzle.describe_board(),
        "order": order.name(),
    });
    if let (Some(v), serde_json::Value::Object(f)) = (v.as_object_mut(), fields) {
        v.extend(f);
    }
    format!("{v}\n")
}

/// A stop as the JSON reports name it.
fn stop_name(why: StopReason) -> &'static str {
    match why {
        StopReason::TimeLimit => "time_limit",
        _ => "interrupted",
    }
}

/// `--estimate`: Knuth's estimate of the whole tree.
fn estimate(
    args: &ProbeArgs,
    puzzle: &Puzzle,
    order: Order,
    probes: u64,
    options: &SolveOptions,
) -> Result<u8, CliError> {
    let e = backtrack::estimate_tree(puzzle, order, probes, args.seed, options)?;
    let end = e.stopped.map_or("complete", stop_name);
    let sols = e.solutions_estimate();
    let text = match args.format {
        ProbeFormat::Json => json_line(
            args,
            puzzle,
            order,
            json!({
                "probes": e.probes,
                "seed": args.seed,
                "end": end,
                "nodes": e.nodes.mean,
                "nodes_std_error": e.nodes.std_error,
                // None where no probe reached a full board (see
                // `solutions_estimate`): null, not a count of 0.
                "solutions": sols.map(|m| m.mean),
                "solutions_std_error": sols.map(|m| m.std_error),
                "solutions_interval_95": sols.map(|m| {
                    let (lo, hi) = m.interval_95();
                    [lo, hi]
                }),
                "complete_probes": e.complete_probes,
                "deepest": e.deepest,
                "time_s": e.time_s,
                "nodes_per_depth": e.nodes_per_depth,
            }),
        ),
        ProbeFormat::Text => {
            let mut out = format!(
                "puzzle: {} ({})\norder: {}, Knuth's estimate of the full tree from {} probes (seed {}){}\n",
                args.puzzle.display(),
                puzzle.describe_board(),
                order.name(),
                e.probes,
                args.seed,
                match e.stopped {
                    Some(why) => format!(", stopped early: {why}"),
                    None => String::new(),
                }
            );
            let solutions = match sols {
                None => "no estimate (no probe reached a full board)".to_string(),
                Some(m) => format!(
                    "{:.3e} (standard error {:.2e}; {} probes reached a full board)",
                    m.mean, m.std_error, e.complete_probes
                ),
            };
            out.push_str(&format!(
                "nodes: {:.3e} (standard error {:.2e})\nlabelled solutions: {solutions}\ndeepest probe: {} of {} cells; {:.3} s\n",
                e.nodes.mean,
                e.nodes.std_error,
                e.deepest,
                puzzle.cells(),
                e.time_s
            ));
            out
        }
    };
    print(&text)?;
    Ok(match e.stopped {
        Some(_) => exit::INCOMPLETE,
        None => exit::OK,
    })
}

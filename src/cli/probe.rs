//! `scramble probe`: how far and how fast the backtracking search gets: the
//! first partial board with the first N cells of a placement order filled,
//! the nodes it took and the node rate (the Eternity II community's way of
//! timing a backtracker).

use serde_json::json;

use crate::backtrack::{self, ProbeEnd};
use crate::solve::StopReason;

use super::*;

#[derive(Debug, Args)]
pub struct ProbeArgs {
    /// A puzzle directory, YAML file or piece file.
    pub puzzle: PathBuf,
    #[command(flatten)]
    pub hints: HintArgs,
    /// Cells to fill, in placement order (default: the whole board, i.e.
    /// the first solution of the full tree in that order).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub depth: Option<u32>,
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
        ProbeEnd::Stopped(StopReason::TimeLimit) => "time_limit",
        ProbeEnd::Stopped(_) => "interrupted",
    };
    let text = match args.format {
        ProbeFormat::Json => {
            let v = json!({
                "puzzle": args.puzzle.display().to_string(),
                "rows": puzzle.rows,
                "cols": puzzle.cols,
                "board": puzzle.describe_board(),
                "order": order.name(),
                "depth": depth,
                "end": end,
                "nodes": r.nodes,
                "deepest": r.deepest,
                "build_time_s": r.build_s,
                "search_time_s": r.search_s,
                "nodes_per_second": r.rate(),
                "nodes_per_depth": r.nodes_per_depth,
                "partial": r.board,
            });
            format!("{v}\n")
        }
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

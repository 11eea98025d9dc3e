//! `scramble merge`: join the outputs of sharded runs into what one
//! unsharded run prints (docs/distributed.md).

use crate::commands::merge::{self, BenchMerged, Format, Merged};
use crate::commands::shards::list;
use crate::commands::solve::json::{Extra, Head};
use crate::commands::*;

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shard outputs, one file per shard: of `solve --shard I/N
    /// --format json|jsonl`, or of `bench --shard I/N`.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Bench shards only: the files `bench` would write.
    #[command(flatten)]
    pub outputs: crate::commands::bench::command::BenchFiles,
}

pub(crate) fn run(args: &MergeArgs) -> Result<u8, CliError> {
    for f in &args.files {
        crate::commands::reads(f);
    }
    args.outputs.writable()?;
    let merged = merge::merge(&args.files)?;
    if !matches!(merged, Merged::Bench(_)) && args.outputs.any() {
        return Err(CliError::Usage(
            "--csv, --json and --plot are for bench shards; these are solve or count shards".into(),
        ));
    }
    let m = match merged {
        Merged::Solve(m) => m,
        Merged::Bench(b) => return run_bench(args, &b),
        Merged::Count(c) => return run_count(&c),
    };
    let head = Head {
        path: &m.puzzle,
        title: m.title.as_deref(),
        board: m.board,
        tiles: m.tiles,
        facts: m.facts.clone(),
    };
    let extra = Extra {
        shard: None,
        shards_missing: &m.missing,
        shards_incomplete: &m.incomplete,
        cut_from: None,
    };
    let text = match m.format {
        Format::Json => crate::commands::solve::json::render_with(&head, &m.result, m.all, &extra),
        Format::Jsonl => {
            let mut out = String::new();
            for (k, s) in m.result.canonical().iter().enumerate() {
                out.push_str(&crate::commands::solve::json::solution_line(
                    k as u64 + 1,
                    s,
                ));
            }
            out.push_str(&crate::commands::solve::json::summary_line(
                &head, &m.result, &extra,
            ));
            out
        }
    };
    print(&text)?;
    warn(&m.missing, &m.incomplete);
    Ok(match &m.result.outcome {
        Outcome::Complete | Outcome::Infeasible => exit::OK,
        Outcome::Invalid(_) => exit::SOLVER,
        Outcome::Incomplete(_) => exit::INCOMPLETE,
    })
}

/// Bench shards: the text, files and exit code of one unsharded bench.
fn run_bench(args: &MergeArgs, m: &BenchMerged) -> Result<u8, CliError> {
    let labels: Vec<&str> = m.puzzles.iter().map(String::as_str).collect();
    let written = crate::commands::bench::command::finish(&args.outputs, &labels, &m.bench);
    warn(&m.missing, &m.stopped);
    written?;
    Ok(crate::commands::bench::command::exit_code(&m.bench))
}

/// Count shards: the JSON report of one unsharded `count --method
/// enumerate`.
fn run_count(report: &crate::count::CountReport) -> Result<u8, CliError> {
    let text = crate::render::json::to_string(report) + "\n";
    print(&text)?;
    warn(&report.shards_missing, &report.shards_incomplete);
    Ok(crate::commands::count::exit_code(report))
}

/// Name the shards missing and those stopped early on stderr.
fn warn(missing: &[usize], stopped: &[usize]) {
    if !missing.is_empty() {
        eprintln!(
            "merge: INCOMPLETE: shards {} missing (run them, then merge again)",
            list(missing)
        );
    }
    if !stopped.is_empty() {
        eprintln!(
            "merge: INCOMPLETE: shards {} stopped early (run them again)",
            list(stopped)
        );
    }
}

//! `scramble count`: exact counts by independent methods that check each
//! other, or an estimate that says it is one (docs/count.md).

use crate::commands::*;
use crate::count::{self, CountRequest, DEFAULT_MAX_STATES, Method};

pub(crate) mod merge;
pub mod text;

#[derive(Debug, Args)]
pub struct CountArgs {
    /// A puzzle directory (with input/tile_dict.yaml), YAML file or piece file.
    pub puzzle: PathBuf,
    #[command(flatten)]
    pub hints: HintArgs,
    /// A counting method: dp (a dynamic programme over the board with
    /// Burnside's lemma), enumerate (backtracking, counting without
    /// storing), estimate (Knuth's random probes, not exact) or auto; repeat
    /// to run several. Default: auto, dp and enumerate in the order the
    /// counting benchmark favours for the puzzle, the second a check of the
    /// first on a budget (ten times its time, at least 10 s), then an
    /// estimate if neither finishes (docs/count.md, "Which method when").
    #[arg(long = "method", value_enum, value_name = "METHOD")]
    pub methods: Vec<MethodArg>,
    /// Which class count the last line gives: rotation (labelled solutions
    /// up to board turns) or picture (pictures up to board turns). All
    /// three counts are always reported.
    #[arg(long, value_enum, default_value_t = Equivalence::Rotation)]
    pub equivalence: Equivalence,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CountFormat::Text)]
    pub format: CountFormat,
    /// The whole count's time limit: the methods run one after another,
    /// each with an equal share of the time left (one that ends early
    /// leaves its time to the next; a share is kept for the estimate run
    /// when nothing exact finishes). The count ends within the limit and a
    /// fraction of a second, with what it found.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time_limit: Option<Duration>,
    /// Threads for enumerate (default: the number of cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// dp: the most states one step may hold (about 80 bytes each); past
    /// it the method gives up with a clear message.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_STATES as u64,
          value_parser = crate::commands::parse_positive)]
    pub max_states: u64,
    /// fourier: which grid of roots of unity to evaluate at. 0 (the
    /// default) keeps the first kind of the fewest tiles fixed; another
    /// number keeps another such kind fixed and works modulo other
    /// primes: an independent computation of the same count.
    #[arg(long, value_name = "N", default_value_t = 0,
          value_parser = clap::value_parser!(u32).range(0..100))]
    pub fourier_grid: u32,
    /// estimate: random probes per tree (one tree per turn of the board's
    /// group: on a square board three, all pictures and those a half and a
    /// quarter turn leave unchanged; two on a rectangle; one where a fixed
    /// piece allows no turn).
    /// Default: 100,000, or with --time-limit as many as the estimate's
    /// share of the time allows.
    #[arg(long, value_name = "N", value_parser = crate::commands::parse_positive)]
    pub probes: Option<u64>,
    /// estimate: the random seed (the same seed gives the same estimate).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// enumerate or fourier (the first of the methods that keeps one, or
    /// the one that made FILE): record finished work units in FILE (JSON,
    /// rewritten at most once a second) and skip those it already holds, so
    /// a stopped count resumes where it was.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Count only share I of N (0-based) of the enumeration's work units
    /// (enumerate only, JSON), for a cluster job array; `--shard` alone
    /// reads SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT. `scramble
    /// merge` joins the shards' reports.
    #[arg(long, value_name = "I/N", num_args = 0..=1, default_missing_value = "slurm",
          conflicts_with = "checkpoint")]
    pub shard: Option<ShardArg>,
    /// enumerate: the backtracker's placement order (default: spiral,
    /// unless Knuth's estimate finds another order's tree at least twice
    /// smaller: on framed boards the row scans or the frame first). A
    /// checkpoint and the shards of one count belong to one order.
    #[arg(long, value_enum)]
    pub order: Option<Order>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CountFormat {
    Text,
    Json,
}

pub(crate) fn run(args: &CountArgs, stop: StopToken) -> Result<u8, CliError> {
    let shard = match args.shard {
        Some(a) => {
            if args.methods.iter().any(|&m| m != MethodArg::Enumerate) {
                return Err(CliError::Usage(
                    "--shard: only --method enumerate is cut into work units".into(),
                ));
            }
            if args.format != CountFormat::Json {
                return Err(CliError::Usage(
                    "--shard: a shard's report is read by `scramble merge`: add --format json"
                        .into(),
                ));
            }
            Some(a.resolve()?)
        }
        None => None,
    };
    let puzzle = load_puzzle(&args.puzzle, &args.hints)?;
    let default = args.methods.is_empty() || args.methods.contains(&MethodArg::Auto);
    if default && args.methods.iter().any(|&m| m != MethodArg::Auto) {
        return Err(CliError::Usage(
            "--method auto chooses the methods: give it alone".into(),
        ));
    }
    let request = CountRequest {
        methods: args.methods.iter().filter_map(|m| m.method()).collect(),
        time_limit: args.time_limit,
        threads: args
            .threads
            .map(|t| t as usize)
            .unwrap_or_else(default_threads),
        stop: stop.clone(),
        max_states: usize::try_from(args.max_states).unwrap_or(usize::MAX),
        fourier_grid: args.fourier_grid,
        probes: args.probes,
        seed: args.seed,
        checkpoint: args.checkpoint.clone(),
        order: args.order,
    };
    if let Some(path) = &args.checkpoint {
        rewritable(path)?;
    }
    let options = request.options(&puzzle).map_err(CliError::Usage)?;
    let report = match shard {
        Some(s) => count::count_shard(&puzzle, s, &options),
        None => count::count(&puzzle, &options),
    };
    let text = match args.format {
        CountFormat::Text => text::text(&report, args.equivalence),
        CountFormat::Json => crate::render::json::to_string(&report) + "\n",
    };
    print(&text)?;
    Ok(exit_code(&report))
}

/// `--method`: a counting method, or `auto`, which chooses them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MethodArg {
    Dp,
    Enumerate,
    Fourier,
    Estimate,
    Auto,
}

impl MethodArg {
    fn method(self) -> Option<Method> {
        match self {
            MethodArg::Dp => Some(Method::Dp),
            MethodArg::Enumerate => Some(Method::Enumerate),
            MethodArg::Fourier => Some(Method::Fourier),
            MethodArg::Estimate => Some(Method::Estimate),
            MethodArg::Auto => None,
        }
    }
}

/// The exit code of a count report (of one run or merged shards).
pub(crate) fn exit_code(report: &crate::count::CountReport) -> u8 {
    if let Some(d) = &report.disagreement {
        eprintln!("disagreement on {}: {d}", report.puzzle);
    }
    if report.is_exact() {
        exit::OK
    } else {
        exit::INCOMPLETE
    }
}

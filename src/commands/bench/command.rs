//! `scramble bench`: the grid puzzle x solver x model x formulation x
//! repeat, with progress, rows, a summary and a plot.

use crate::commands::*;

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Puzzle directories, YAML files or piece files.
    pub puzzles: Vec<PathBuf>,
    #[command(flatten)]
    pub hints: HintArgs,
    /// Also bench generated puzzles: the ones `scramble generate --size SIZE
    /// --motifs MOTIFS --count COUNT --seed SEED` writes (repeatable).
    #[arg(long, value_name = "SIZE,MOTIFS,COUNT,SEED")]
    pub generate: Vec<GenerateSpec>,
    /// Solvers, comma-separated.
    #[arg(
        long,
        value_name = "LIST",
        default_value = "cp-sat,backtrack",
        value_delimiter = ',',
        value_parser = crate::registry::parser()
    )]
    pub solvers: Vec<Engine>,
    /// Every engine's own options: each model (--model) and encoding
    /// (--encoding) runs as a solver of its own.
    #[command(flatten)]
    pub engines: crate::registry::EngineArgs,
    /// A symmetry formulation (see `solve --symmetry`); repeat the option to
    /// compare several, e.g. --symmetry none --symmetry lex,tiles.
    #[arg(long, value_name = "LIST")]
    pub symmetry: Vec<Symmetry>,
    #[command(flatten)]
    pub unproven: UnprovenArgs,
    /// What counts as one class.
    #[arg(long, value_enum, default_value_t = Equivalence::Rotation)]
    pub equivalence: Equivalence,
    /// Runs of each solver on each puzzle and formulation.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub repeat: u32,
    #[command(flatten)]
    pub turns: TurnsArgs,
    /// With cp-sat: also run every CP model with these constraints
    /// appended, as a model of its own (named MODEL+FILE) beside the plain
    /// one (see `solve --constraints`).
    #[command(flatten)]
    pub constraints: ConstraintsArgs,
    /// The whole bench's time limit: each run gets an equal share of the
    /// time left among the runs left (one that ends early leaves its time
    /// to the rest); a run stopped by its share counts as incomplete. The
    /// bench ends within the limit and the fraction of a second stopping
    /// takes.
    #[arg(long, value_name = "S", value_parser = parse_seconds)]
    pub time_limit: Option<Duration>,
    /// Threads per run (default 1: times are per core).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: u32,
    #[command(flatten)]
    pub memory: crate::commands::MemoryArgs,
    #[command(flatten)]
    pub files: BenchFiles,
    /// Run only share I of N (0-based) of the grid, for a cluster job
    /// array, and print it as JSON for `scramble merge`, which prints what
    /// one run would and writes --csv, --json and --plot. The grid is cut
    /// by puzzle x formulation, balanced by estimated work; `--shard` alone
    /// reads SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT.
    #[arg(long, value_name = "I/N", num_args = 0..=1, default_missing_value = "slurm",
          conflicts_with_all = ["csv", "json", "plot"])]
    pub shard: Option<ShardArg>,
}

/// The files a bench writes besides its text (`bench`, and `merge` of
/// bench shards).
#[derive(Debug, Args)]
pub struct BenchFiles {
    /// Write one CSV row per run to FILE.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write one JSON object per line per run to FILE.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write an SVG plot of time per puzzle by solver (log scale) to FILE.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    #[command(flatten)]
    pub force: ForceArgs,
}

impl BenchFiles {
    /// Whether any file is asked for.
    pub(crate) fn any(&self) -> bool {
        self.csv.is_some() || self.json.is_some() || self.plot.is_some()
    }

    /// What writing them would refuse ([`writable`]), before the runs.
    pub(crate) fn writable(&self) -> Result<(), CliError> {
        self.force.apply();
        for path in self.csv.iter().chain(&self.json).chain(&self.plot) {
            writable(path)?;
        }
        Ok(())
    }
}

/// Print a finished bench's text, then write its files (the same for one
/// run and for a merge of shards): a file that cannot be written is an
/// error, but the report is on standard output first.
pub(crate) fn finish(
    files: &BenchFiles,
    labels: &[&str],
    result: &crate::commands::bench::Bench,
) -> Result<(), CliError> {
    print(&text(labels, result))?;
    write_files(files, labels, result)
}

/// Write a finished bench's files.
fn write_files(
    files: &BenchFiles,
    labels: &[&str],
    result: &crate::commands::bench::Bench,
) -> Result<(), CliError> {
    use crate::commands::bench;
    if let Some(path) = &files.csv {
        write_file(
            path,
            crate::commands::bench::render::csv(&result.runs).as_bytes(),
        )?;
    }
    if let Some(path) = &files.json {
        write_file(
            path,
            crate::commands::bench::render::json_lines(&result.runs).as_bytes(),
        )?;
    }
    if let Some(path) = &files.plot {
        let series = bench::time_series(labels, &result.runs);
        let svg = crate::commands::bench::plot::time_per_puzzle(
            "scramble bench: wall time per puzzle",
            labels,
            &series,
        );
        write_file(path, svg.as_bytes())?;
    }
    Ok(())
}

/// The text of a finished bench.
fn text(labels: &[&str], result: &crate::commands::bench::Bench) -> String {
    use crate::commands::bench;
    let summary = bench::summary(&result.runs);
    let plural = |k: usize| if k == 1 { "" } else { "s" };
    let (p, r) = (labels.len(), result.runs.len());
    let mut text = format!(
        "{p} puzzle{}, {r} run{} in {}\n",
        plural(p),
        plural(r),
        crate::commands::bench::render::seconds(result.wall_time_s)
    );
    text.push_str(&crate::commands::bench::render::summary_text(&summary));
    for k in &result.skipped {
        let by = k
            .solver
            .as_ref()
            .map(|s| format!(" (solver {s})"))
            .unwrap_or_default();
        text.push_str(&format!(
            "skipped {} with {}{by}: {}\n",
            k.puzzle, k.symmetry, k.reason
        ));
    }
    for d in &result.disagreements {
        text.push_str(&format!(
            "DISAGREEMENT on {} ({}): {}",
            d.puzzle,
            d.symmetry.as_deref().unwrap_or("none"),
            d.message
        ));
        if !d.message.ends_with('\n') {
            text.push('\n');
        }
    }
    text
}

/// The exit code of a finished bench.
pub(crate) fn exit_code(result: &crate::commands::bench::Bench) -> u8 {
    if !result.disagreements.is_empty() || result.stopped {
        exit::INCOMPLETE
    } else {
        exit::OK
    }
}

/// `--generate SIZE,MOTIFS,COUNT,SEED`.
#[derive(Clone, Copy, Debug)]
pub struct GenerateSpec {
    pub size: usize,
    pub motifs: usize,
    pub count: usize,
    pub seed: u64,
}

impl std::str::FromStr for GenerateSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<GenerateSpec, String> {
        let parts: Vec<&str> = s.split(',').map(str::trim).collect();
        let bad = || format!("expected SIZE,MOTIFS,COUNT,SEED (e.g. 3,4,10000,1), found {s:?}");
        if parts.len() != 4 {
            return Err(bad());
        }
        let num = |k: usize| parts[k].parse::<u64>().map_err(|_| bad());
        let spec = GenerateSpec {
            size: num(0)? as usize,
            motifs: num(1)? as usize,
            count: num(2)? as usize,
            seed: num(3)?,
        };
        if !(1..=11).contains(&spec.size) || !(1..=1000).contains(&spec.motifs) {
            return Err(format!("{s:?}: SIZE must be 1 to 11 and MOTIFS 1 to 1000"));
        }
        if !(1..=1_000_000).contains(&spec.count) {
            return Err(format!("{s:?}: COUNT must be 1 to 1000000"));
        }
        Ok(spec)
    }
}

/// What a bench shard's output records of its run.
fn shard_meta(
    args: &BenchArgs,
    s: crate::solve::Shard,
    solvers: &[&dyn crate::solve::Solver],
    symmetries: &[Symmetry],
    puzzles: &[(String, Puzzle)],
) -> crate::commands::bench::ShardMeta {
    use crate::commands::bench;
    let names: Vec<String> = solvers
        .iter()
        .map(|v| format!("{}:{}", v.name(), v.searched()))
        .collect();
    let sym: Vec<String> = symmetries.iter().map(|y| y.name()).collect();
    bench::ShardMeta {
        format: bench::ShardMeta::FORMAT.into(),
        index: s.index,
        count: s.count,
        fingerprint: bench::batch_fingerprint(puzzles),
        options: format!(
            "solvers={} symmetry={} equivalence={} repeat={} time_limit={:?} threads={} memory_limit_mb={:?}",
            names.join(","),
            sym.join(";"),
            args.equivalence.name(),
            args.repeat,
            args.time_limit,
            args.threads,
            args.memory.memory_limit
        ),
        version: env!("CARGO_PKG_VERSION").into(),
    }
}

/// Run the grid, showing its progress on standard error: a bar on a
/// terminal, else a line a second.
fn run_showing_progress(
    plan: &crate::commands::bench::Plan,
) -> Result<crate::commands::bench::Bench, crate::solve::SolveError> {
    let total = plan.total();
    let terminal = std::io::stderr().is_terminal();
    let bar = terminal.then(|| {
        let bar = indicatif::ProgressBar::new(total as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} runs  {msg}  [{elapsed_precise} < {eta_precise}]",
            )
            .expect("a valid template"),
        );
        bar
    });
    let started = std::time::Instant::now();
    let mut last_line = started;
    let result = crate::commands::bench::run(plan, &mut |run, done, total| {
        if let Some(bar) = &bar {
            bar.set_position(done as u64);
            bar.set_message(format!("{} {} {}", run.puzzle, run.solver, run.symmetry));
        } else if last_line.elapsed().as_secs_f64() >= 1.0 || done == total {
            last_line = std::time::Instant::now();
            eprintln!(
                "bench: {done}/{total} runs ({:.0}%), {:.1} s",
                100.0 * done as f64 / total as f64,
                started.elapsed().as_secs_f64()
            );
        }
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    result
}

pub(crate) fn run(args: &BenchArgs, stop: StopToken) -> Result<u8, CliError> {
    use crate::commands::bench;
    use crate::generate::{PlantOptions, planted_set};
    // Everything is loaded and checked before the first run.
    let mut puzzles = load_all(&args.puzzles, &args.hints)?;
    for g in &args.generate {
        let o = PlantOptions {
            n: g.size,
            motifs: g.motifs,
            self_matching: false,
        };
        puzzles.extend(planted_set(&o, g.count, g.seed));
    }
    if puzzles.is_empty() {
        return Err(CliError::Usage(
            "nothing to bench: give puzzles or --generate SIZE,MOTIFS,COUNT,SEED".into(),
        ));
    }
    args.files.writable()?;
    let kinds = engines_named(&args.solvers, &args.engines)?;
    let build = crate::solve::kind::Build {
        turns: args.turns.turns(),
        memory_limit: args.memory.bytes(),
        constraints: args.constraints.given(
            crate::solve::kind::Constraints::Beside,
            &kinds,
            true,
        )?,
        ..Default::default()
    };
    let mut built = Vec::new();
    for &k in &kinds {
        built.extend(args.engines.build(k, &build)?);
    }
    let solvers: Vec<&dyn crate::solve::Solver> = built
        .iter()
        .map(|s| s.as_ref() as &dyn crate::solve::Solver)
        .collect();
    let symmetries = if args.symmetry.is_empty() {
        vec![Symmetry::none()]
    } else {
        args.symmetry.clone()
    };
    args.unproven.check(&symmetries, args.equivalence)?;
    // Constraints that name a variable some model lacks are refused before
    // the first run.
    for solver in &solvers {
        for (_, puzzle) in &puzzles {
            for sym in symmetries.iter().filter(|s| s.check(puzzle).is_ok()) {
                solver.check(puzzle, sym)?;
            }
        }
    }
    let shard = args.shard.map(|s| s.resolve()).transpose()?;
    let mut plan = bench::Plan {
        puzzles: &puzzles,
        solvers: &solvers,
        symmetries: &symmetries,
        repeat: args.repeat as usize,
        options: SolveOptions {
            time_limit: args.time_limit,
            threads: args.threads as usize,
            equivalence: args.equivalence,
            allow_unproven: args.unproven.allow_unproven_symmetry,
            stop: stop.clone(),
            memory_limit: args.memory.bytes(),
            ..SolveOptions::default()
        },
        groups: None,
    };
    let shard_meta = shard.map(|s| {
        plan.groups = Some(s.owned(&plan.group_estimates()));
        shard_meta(args, s, &solvers, &symmetries, &puzzles)
    });
    let result = run_showing_progress(&plan)?;
    if let Some(meta) = shard_meta {
        let out = crate::commands::bench::ShardOutput {
            shard: meta,
            puzzles: puzzles.iter().map(|(l, _)| l.clone()).collect(),
            bench: result,
        };
        let mut text = crate::render::json::to_string(&out);
        text.push('\n');
        print(&text)?;
        return Ok(if out.bench.stopped {
            exit::INCOMPLETE
        } else {
            exit::OK
        });
    }
    let labels: Vec<&str> = puzzles.iter().map(|(l, _)| l.as_str()).collect();
    finish(&args.files, &labels, &result)?;
    Ok(exit_code(&result))
}

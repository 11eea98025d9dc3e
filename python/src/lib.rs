//! `scramble._native`: the library behind the CLI, called in-process from
//! Python (python/py/scramble/ wraps it; docs/python.md).
//!
//! The entry points, all thin:
//! - [`solve`] and [`count`]: the library's solve and count with typed
//!   options read from the call's keywords (keywords.rs) and the report
//!   handed back as Python objects (to_py.rs), no text on the way;
//! - [`run`]: a command line run exactly as the binary runs it
//!   (`scramble::commands::run_captured`), for the commands and options
//!   that write files or text;
//! - [`svg`] / [`png`]: a board drawn by scramble's renderer;
//! - the exception types, raised by the error's class with its message.
//!
//! Searches run on a thread of their own without the GIL; Ctrl-C (SIGINT
//! in a notebook) stops them cleanly ([`in_background`]).

mod keywords;
mod to_py;

use std::path::{Path, PathBuf};
use std::time::Duration;

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyKeyboardInterrupt};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use scramble::board::{Placement, Solution};
use scramble::commands::{
    CliError, CompareArgs, ErrorClass, ForceArgs, GenerateArgs, GenerateTurns, HintArgs,
    ReportArgs, RunArgs, SolveArgs, SolveFormat, run_captured,
};
use scramble::count::{CountRequest, Method};
use scramble::puzzle::Puzzle;
use scramble::registry::EngineArgs;
use scramble::solve::StopToken;

use keywords::Keywords;

create_exception!(
    _native,
    ScrambleError,
    PyException,
    "An error scramble reports."
);
create_exception!(
    _native,
    InputError,
    ScrambleError,
    "Bad input (a puzzle file, an option, an output path): the CLI's exit code 2."
);
create_exception!(
    _native,
    SolverError,
    ScrambleError,
    "The solver failed or is missing (the CP-SAT runtime): the CLI's exit code 3."
);

/// The Python exception for an error: the same message, the class by
/// the error's own.
fn to_py(e: CliError) -> PyErr {
    let message = e.to_string();
    match e.class() {
        ErrorClass::Input => InputError::new_err(message),
        ErrorClass::Solver => SolverError::new_err(message),
    }
}

/// `work` on a thread of its own, the GIL released; this thread looks for
/// signals every 50 ms and, on KeyboardInterrupt, stops the work (its
/// token), waits for it to end and raises.
fn in_background<T: Send + 'static>(
    py: Python<'_>,
    work: impl FnOnce(StopToken) -> T + Send + 'static,
) -> PyResult<T> {
    let stop = StopToken::new();
    let (tx, mut rx) = std::sync::mpsc::channel();
    let worker = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let _ = tx.send(work(stop));
        })
    };
    loop {
        // The receiver goes into the GIL-free wait and comes back out (it
        // is not Sync, so it cannot be borrowed there).
        let (got, back) = py.detach(move || (rx.recv_timeout(Duration::from_millis(50)), rx));
        rx = back;
        match got {
            Ok(result) => {
                let _ = worker.join();
                return Ok(result);
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                let _ = worker.join();
                return Err(ScrambleError::new_err(
                    "the search thread ended without a result",
                ));
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
        }
        if let Err(e) = py.check_signals() {
            stop.stop();
            py.detach(|| {
                let _ = worker.join();
            });
            if e.is_instance_of::<PyKeyboardInterrupt>(py) {
                return Err(PyKeyboardInterrupt::new_err(
                    "interrupted: the search was stopped",
                ));
            }
            return Err(e);
        }
    }
}

/// Run `args` (a command line without the program name) in-process; returns
/// (exit code, standard output).
#[pyfunction]
fn run(py: Python<'_>, args: Vec<String>) -> PyResult<(u8, String)> {
    in_background(py, move |stop| run_captured(&args, stop))?.map_err(to_py)
}

/// The options of solve the command line alone takes (they write files
/// or text): named in the error, with where to find them.
const COMMAND_LINE_ONLY: &[&str] = &[
    "format",
    "out",
    "force",
    "pictures",
    "dump_model",
    "shard",
    "tiles",
    "no_images",
];

/// `solve`'s options from the call's keywords, every other one the
/// command line's default.
fn solve_args(path: &str, hints: Vec<String>, kw: &mut Keywords) -> PyResult<SolveArgs> {
    let mut a = SolveArgs::of(PathBuf::from(path));
    a.format = SolveFormat::Json;
    a.hints = hint_keywords(hints, kw)?;
    if let Some(name) = kw.text("solver")? {
        a.solver = engine_named("solve", "solver", &name)?;
    }
    a.all = kw.flag("all")?;
    a.count = kw.flag("count")?;
    a.limit = kw.number("limit", 1, u64::MAX)?;
    run_keywords(kw, &mut a.run)?;
    class_keywords(kw, &mut a.symmetry, &mut a.equivalence)?;
    a.unproven.allow_unproven_symmetry = kw.flag("allow_unproven_symmetry")?;
    a.turns.full_tree = kw.flag("full_tree")?;
    a.constraints.constraints = kw.text("constraints")?.map(PathBuf::from);
    a.engines = engine_keywords("solve", kw)?;
    Ok(a)
}

/// The registered engine `name`, the value of option `option`.
fn engine_named(call: &str, option: &str, name: &str) -> PyResult<scramble::solve::Engine> {
    scramble::registry::named(name).ok_or_else(|| {
        let names: Vec<_> = scramble::registry::all().map(|e| e.name()).collect();
        InputError::new_err(format!(
            "{call}: {option}: {name:?} is not one of {}",
            names.join(", ")
        ))
    })
}

/// The symmetry breaking and what counts as one class (solve, compare).
fn class_keywords(
    kw: &mut Keywords,
    symmetry: &mut scramble::symmetry::Symmetry,
    equivalence: &mut scramble::symmetry::Equivalence,
) -> PyResult<()> {
    if let Some(s) = kw.parsed("symmetry")? {
        *symmetry = s;
    }
    if let Some(e) = kw.choice("equivalence")? {
        *equivalence = e;
    }
    Ok(())
}

/// `work` on a thread of its own ([`in_background`]), its report handed
/// back as Python objects with the exit code its command would end with.
fn handed_back<'py, T: serde::Serialize + Send + 'static>(
    py: Python<'py>,
    work: impl FnOnce(StopToken) -> Result<T, CliError> + Send + 'static,
    exit_code: impl FnOnce(&T) -> u8,
) -> PyResult<(Bound<'py, PyAny>, u8)> {
    let report = in_background(py, work)?.map_err(to_py)?;
    Ok((to_py::to_py(py, &report)?, exit_code(&report)))
}

/// The puzzle's fixed pieces: those it was loaded with and any `hint`
/// keyword's (one `--hint` each).
fn hint_keywords(mut hints: Vec<String>, kw: &mut Keywords) -> PyResult<HintArgs> {
    hints.extend(kw.texts("hint")?);
    Ok(HintArgs { hints })
}

/// The limits every command that solves takes.
fn run_keywords(kw: &mut Keywords, run: &mut RunArgs) -> PyResult<()> {
    run.time_limit = kw.seconds("time_limit")?;
    run.threads = kw.number("threads", 1, 1024)?.map(|t| t as u32);
    run.memory.memory_limit = kw.number("memory_limit", 1, 1_000_000_000)?;
    Ok(())
}

/// The engines' own options from the keywords left; any keyword left
/// after them is refused.
fn engine_keywords(call: &str, kw: &mut Keywords) -> PyResult<EngineArgs> {
    let (engines, left) = EngineArgs::from_keywords(&kw.rest()?)
        .map_err(|e| InputError::new_err(format!("{call}: {e}")))?;
    match left.first() {
        None => Ok(engines),
        Some(name) if COMMAND_LINE_ONLY.contains(&name.as_str()) => {
            Err(InputError::new_err(format!(
                "{call}: {name}: an option of the command line alone (it writes files or \
                 text): scramble.run(\"{call}\", ...) takes it"
            )))
        }
        Some(name) => Err(InputError::new_err(format!(
            "{call}: {name}: no such option"
        ))),
    }
}

/// Solve the puzzle at `path` (with `hints` fixed) as `scramble solve`
/// does, its options the keywords of `options`; returns (the report as
/// `--format json` has it, the exit code the command would end with).
#[pyfunction]
#[pyo3(signature = (path, hints, options=None))]
fn solve<'py>(
    py: Python<'py>,
    path: &str,
    hints: Vec<String>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<(Bound<'py, PyAny>, u8)> {
    let mut kw = Keywords::new("solve", options)?;
    let args = solve_args(path, hints, &mut kw)?;
    kw.finish()?;
    handed_back(
        py,
        move |stop| scramble::commands::solved(&args, stop),
        |s| s.exit_code,
    )
}

/// Compare the engines on the puzzle at `path` as `scramble compare`
/// does, its options the keywords of `options`; returns (the report as
/// `--format json` has it, the exit code the command would end with).
#[pyfunction]
#[pyo3(signature = (path, hints, options=None))]
fn compare<'py>(
    py: Python<'py>,
    path: &str,
    hints: Vec<String>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<(Bound<'py, PyAny>, u8)> {
    let mut kw = Keywords::new("compare", options)?;
    let mut a = CompareArgs::of(vec![PathBuf::from(path)]);
    a.hints = hint_keywords(hints, &mut kw)?;
    class_keywords(&mut kw, &mut a.symmetry, &mut a.equivalence)?;
    a.unproven.allow_unproven_symmetry = kw.flag("allow_unproven_symmetry")?;
    a.turns.full_tree = kw.flag("full_tree")?;
    run_keywords(&mut kw, &mut a.run)?;
    a.engines = engine_keywords("compare", &mut kw)?;
    handed_back(
        py,
        move |stop| scramble::commands::compared(&a, stop),
        |c| c.exit_code,
    )
}

/// Every symmetry formulation on the puzzle at `path` with verdicts, as
/// `scramble symmetry-report` makes it, its options the keywords of
/// `options`; returns (the rows as `--format json` has them, the exit code
/// the command would end with).
#[pyfunction]
#[pyo3(signature = (path, hints, options=None))]
fn symmetry_report<'py>(
    py: Python<'py>,
    path: &str,
    hints: Vec<String>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<(Bound<'py, PyAny>, u8)> {
    let mut kw = Keywords::new("symmetry_report", options)?;
    let mut a = ReportArgs::of(vec![PathBuf::from(path)]);
    a.hints = hint_keywords(hints, &mut kw)?;
    let solvers = kw.texts("solvers")?;
    if !solvers.is_empty() {
        a.solvers = solvers
            .iter()
            .flat_map(|s| s.split(','))
            .map(|name| engine_named("symmetry_report", "solvers", name))
            .collect::<PyResult<_>>()?;
    }
    a.symmetry = kw
        .texts("symmetry")?
        .iter()
        .map(|s| option("symmetry_report", "symmetry", s))
        .collect::<PyResult<_>>()?;
    a.constraints.constraints = kw.text("constraints")?.map(PathBuf::from);
    a.constraints_symmetry = kw.parsed("constraints_symmetry")?;
    a.constraints_only = kw.flag("constraints_only")?;
    a.allow_unproven_symmetry = kw.flag("allow_unproven_symmetry")?;
    run_keywords(&mut kw, &mut a.run)?;
    a.engines = engine_keywords("symmetry_report", &mut kw)?;
    handed_back(
        py,
        move |stop| scramble::commands::reported(&a, stop),
        |r| r.exit_code,
    )
}

/// Generate puzzles into folder `out` as `scramble generate` does, its
/// options the keywords of `options`; returns the files written.
#[pyfunction]
#[pyo3(signature = (out, options=None))]
fn generate<'py>(
    py: Python<'py>,
    out: PathBuf,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Vec<PathBuf>> {
    let mut kw = Keywords::new("generate", options)?;
    let size = |kw: &mut Keywords, name| Ok::<_, PyErr>(kw.number(name, 1, 32)?.map(|n| n as u32));
    let args = GenerateArgs {
        size: size(&mut kw, "size")?,
        rows: size(&mut kw, "rows")?,
        cols: size(&mut kw, "cols")?,
        motifs: kw.number("motifs", 1, 1000)?.map(|n| n as u32),
        frame_colours: kw.number("frame_colours", 0, 1000)?.unwrap_or(0) as u32,
        turns: kw.choice("turns")?.unwrap_or(GenerateTurns::Quarter),
        hint: kw.flag("hint")?,
        count: kw.number("count", 1, 1_000_000)?.unwrap_or(1) as u32,
        seed: kw.number("seed", 0, u64::MAX)?.unwrap_or(1),
        duplicates: kw.number("duplicates", 0, u32::MAX.into())?.unwrap_or(0) as u32,
        self_matching: kw.flag("self_matching")?,
        unique: kw.flag("unique")?,
        out,
        force: ForceArgs {
            force: kw.flag("force")?,
        },
    };
    kw.finish()?;
    in_background(py, move |stop| scramble::commands::generated(&args, stop))?.map_err(to_py)
}

/// Count the solutions of the puzzle at `path` as `scramble count` does;
/// returns (the report as `--format json` has it, the exit code: 0 for an
/// exact count the methods agree on, else 1).
#[pyfunction]
#[pyo3(signature = (path, hints, options=None))]
fn count<'py>(
    py: Python<'py>,
    path: &str,
    hints: Vec<String>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<(Bound<'py, PyAny>, u8)> {
    let mut kw = Keywords::new("count", options)?;
    let mut methods = Vec::new();
    let names = kw.texts("method")?;
    if names.len() > 1 && names.iter().any(|n| n == "auto") {
        return Err(InputError::new_err(
            "count: method: auto chooses the methods: give it alone",
        ));
    }
    for name in names {
        if name != "auto" {
            methods.push(
                <Method as clap::ValueEnum>::from_str(&name, false).map_err(|_| {
                    InputError::new_err(format!(
                        "count: method: {name:?} is not one of dp, enumerate, fourier, estimate, auto"
                    ))
                })?,
            );
        }
    }
    let request = CountRequest {
        methods,
        time_limit: kw.seconds("time_limit")?,
        threads: kw.number("threads", 1, 1024)?.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            |t| t as usize,
        ),
        max_states: kw
            .number("max_states", 1, u64::MAX)?
            .map_or(CountRequest::default().max_states, |n| {
                usize::try_from(n).unwrap_or(usize::MAX)
            }),
        probes: kw.number("probes", 1, u64::MAX)?,
        seed: kw.number("seed", 0, u64::MAX)?.unwrap_or(1),
        checkpoint: kw.text("checkpoint")?.map(PathBuf::from),
        order: kw.choice("order")?,
        ..CountRequest::default()
    };
    // Which count the text's last line gives: the report has them all.
    let _ = kw.choice::<scramble::symmetry::Equivalence>("equivalence")?;
    let hints = hint_keywords(hints, &mut kw)?;
    kw.finish()?;
    let puzzle = load(path, hints.hints)?;
    handed_back(
        py,
        move |stop| {
            let options = CountRequest { stop, ..request }
                .options(&puzzle)
                .map_err(CliError::Usage)?;
            Ok(scramble::count::count(&puzzle, &options))
        },
        |report| u8::from(!report.is_exact()),
    )
}

/// `text` parsed as the command line parses an option's value; an
/// [`InputError`] naming the option otherwise.
fn option<T: std::str::FromStr>(call: &str, name: &str, text: &str) -> PyResult<T>
where
    T::Err: std::fmt::Display,
{
    text.parse()
        .map_err(|e| InputError::new_err(format!("{call}: {name}: {text:?}: {e}")))
}

/// The CP model a solve would give CP-SAT (`scramble model`), in protobuf
/// text format: formulation `model`, symmetry breaking `symmetry`, every
/// labelled solution when `full_tree` (else the solve's turn reduction).
#[pyfunction]
#[pyo3(signature = (path, hints, model, symmetry, full_tree))]
fn model_text(
    path: &str,
    hints: Vec<String>,
    model: &str,
    symmetry: &str,
    full_tree: bool,
) -> PyResult<String> {
    let puzzle = load(path, hints)?;
    let model = option("cp_model", "model", model)?;
    let symmetry: scramble::symmetry::Symmetry = option("cp_model", "symmetry", symmetry)?;
    let solve_error = |e: scramble::solve::SolveError| to_py(CliError::Solve(e));
    symmetry.check(&puzzle).map_err(|e| solve_error(e.into()))?;
    let turns = scramble::solve::Turns::full_if(full_tree);
    scramble::engines::cpsat::model_text(&puzzle, model, &symmetry, turns)
        .map_err(|e| solve_error(e.into()))
}

/// The clauses the SAT engine solves (`scramble model --format dimacs`)
/// with `encoding` and `symmetry`, in DIMACS with its header.
#[pyfunction]
fn dimacs(path: &str, hints: Vec<String>, encoding: &str, symmetry: &str) -> PyResult<String> {
    let puzzle = load(path, hints)?;
    let encoding = option("dimacs", "encoding", encoding)?;
    let symmetry: scramble::symmetry::Symmetry = option("dimacs", "symmetry", symmetry)?;
    let solve_error = |e: scramble::solve::SolveError| to_py(CliError::Solve(e));
    symmetry.check(&puzzle).map_err(|e| solve_error(e.into()))?;
    scramble::engines::sat::dimacs(&puzzle, encoding, &symmetry).map_err(solve_error)
}

/// The puzzle at `path` with `hints` fixed, loaded as the CLI loads it.
fn load(path: &str, hints: Vec<String>) -> PyResult<Puzzle> {
    scramble::commands::load_puzzle(Path::new(path), &HintArgs { hints }).map_err(to_py)
}

/// A board from rows of (tile, rotation), checked against the puzzle.
fn board(puzzle: &Puzzle, rows: Vec<Vec<(i64, u8)>>) -> PyResult<Solution> {
    let shape = puzzle.shape();
    let cells: Vec<Placement> = rows
        .iter()
        .flatten()
        .map(|&(tile, rotation)| Placement { tile, rotation })
        .collect();
    if rows.len() != puzzle.rows() || rows.iter().any(|r| r.len() != puzzle.cols()) {
        return Err(InputError::new_err(format!(
            "a board of {} rows of {} (tile, rotation) pairs was expected",
            puzzle.rows(),
            puzzle.cols()
        )));
    }
    if cells.iter().any(|p| p.rotation > 3) {
        return Err(InputError::new_err("a rotation is 0, 1, 2 or 3"));
    }
    if let Some(p) = cells.iter().find(|p| puzzle.tile(p.tile).is_none()) {
        return Err(InputError::new_err(format!(
            "tile {} is not in the puzzle",
            p.tile
        )));
    }
    Ok(Solution::shaped(cells, shape))
}

/// SVG of the puzzle at `path`: `rows` drawn as a board, or the unsolved
/// tiles when `rows` is None.
#[pyfunction]
#[pyo3(signature = (path, hints, rows=None))]
fn svg(path: &str, hints: Vec<String>, rows: Option<Vec<Vec<(i64, u8)>>>) -> PyResult<String> {
    let puzzle = load(path, hints)?;
    Ok(match rows {
        Some(rows) => scramble::render::svg::solution(&puzzle, &board(&puzzle, rows)?),
        None => scramble::render::svg::unsolved(&puzzle),
    })
}

/// PNG bytes of what [`svg`] draws.
#[pyfunction]
#[pyo3(signature = (path, hints, rows=None))]
fn png<'py>(
    py: Python<'py>,
    path: &str,
    hints: Vec<String>,
    rows: Option<Vec<Vec<(i64, u8)>>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let text = svg(path, hints, rows)?;
    let bytes = scramble::render::png::from_svg(&text)
        .map_err(|e| ScrambleError::new_err(e.to_string()))?;
    Ok(PyBytes::new(py, &bytes))
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(count, m)?)?;
    m.add_function(wrap_pyfunction!(compare, m)?)?;
    m.add_function(wrap_pyfunction!(symmetry_report, m)?)?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    m.add_function(wrap_pyfunction!(model_text, m)?)?;
    m.add_function(wrap_pyfunction!(dimacs, m)?)?;
    m.add_function(wrap_pyfunction!(svg, m)?)?;
    m.add_function(wrap_pyfunction!(png, m)?)?;
    m.add("ScrambleError", m.py().get_type::<ScrambleError>())?;
    m.add("InputError", m.py().get_type::<InputError>())?;
    m.add("SolverError", m.py().get_type::<SolverError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

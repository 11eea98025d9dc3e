//! `scramble._native`: the library behind the CLI, called in-process from
//! Python (python/py/scramble/ wraps it; docs/python.md).
//!
//! Three entry points, all thin:
//! - [`run`]: a command line run exactly as the binary runs it
//!   (`scramble::commands::run_captured`), so options, validation, messages and
//!   results are the CLI's own; the GIL is released while it runs and
//!   Ctrl-C (SIGINT in a notebook) stops the search cleanly;
//! - [`svg`] / [`png`]: a board drawn by scramble's renderer;
//! - the exception types, raised with the CLI's messages.

use std::path::Path;
use std::time::Duration;

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyKeyboardInterrupt};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use scramble::board::{Placement, Solution};
use scramble::commands::{CliError, HintArgs, run_captured};
use scramble::puzzle::Puzzle;
use scramble::solve::StopToken;

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

/// The Python exception for a CLI error: the same message, the class by
/// its exit code.
fn to_py(e: CliError) -> PyErr {
    let message = e.to_string();
    match e.exit_code() {
        2 => InputError::new_err(message),
        3 => SolverError::new_err(message),
        _ => ScrambleError::new_err(message),
    }
}

/// Run `args` (a command line without the program name) in-process; returns
/// (exit code, standard output). The search runs on a thread of its own
/// without the GIL; this thread looks for signals every 50 ms and, on
/// KeyboardInterrupt, stops the search, waits for it to end and raises.
#[pyfunction]
fn run(py: Python<'_>, args: Vec<String>) -> PyResult<(u8, String)> {
    let stop = StopToken::new();
    let (tx, mut rx) = std::sync::mpsc::channel();
    let worker = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let _ = tx.send(run_captured(&args, stop));
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
                return result.map_err(to_py);
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
    m.add_function(wrap_pyfunction!(svg, m)?)?;
    m.add_function(wrap_pyfunction!(png, m)?)?;
    m.add("ScrambleError", m.py().get_type::<ScrambleError>())?;
    m.add("InputError", m.py().get_type::<InputError>())?;
    m.add("SolverError", m.py().get_type::<SolverError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

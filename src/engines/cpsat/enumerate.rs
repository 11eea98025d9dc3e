//! Enumerating every solution with CP-SAT through independent subproblems.
//!
//! The C API has no solution callback: a solve returns its solutions in the
//! response's solution pool, and one solve with a pool big enough for
//! everything is quadratic in the number of solutions. So the enumeration is
//! cut into subproblems that fix the first cells (row-major) to every
//! placement consistent with the edges, each solved on its own with its own
//! pool, on `threads` workers. A subproblem whose pool fills up, or that runs
//! past its time slice, is split again one cell deeper; each depth learns
//! its slice from how fast its solves fill their pools (`slices`). Boards of at least
//! `eager_cells` cells start cut into a few parts by ranges of the first
//! cell's tile instead (their presolve dominates: few parts repeat little of
//! it, and every core has work from the first moment); a range part is split
//! into its placements. Every finished
//! subproblem's solutions go to the solution callback at once, so progress,
//! Ctrl-C and time limits act between subproblems.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::solve::pool::{self, Event, Flow, Given, Shape};
use crate::solve::{SolutionCallback, SolveError, SolverRun, Split};

use super::books::Books;
use super::jobs::{Job, estimate, prefixes, share, split_job, unit_prefixes};
use super::proto::CpModelProto;
use super::run::{Run, concurrent_solves};
use super::slices::Slices;
use super::subproblem::Shared;

/// How often the coordinator looks at the stop token and the deadline.
const POLL: Duration = Duration::from_millis(20);

pub(crate) fn enumerate(
    run: &Run,
    callback: &mut dyn SolutionCallback,
) -> Result<SolverRun, SolveError> {
    let Run {
        rt,
        limits,
        puzzle,
        model,
        options,
        ..
    } = *run;
    let constraints = match run.encode_constraints() {
        Ok(bytes) => bytes,
        Err(e) => return Ok(SolverRun::stopped_while_building(&e)),
    };
    let base = base_model(run);
    let threads = concurrent_solves(model.size().values, options.threads);
    let (initial_depth, adaptive, pool) = match run.split {
        Split::Auto => (limits.auto_depth.min(puzzle.len()), true, limits.pool),
        Split::Depth(k) => (k.min(puzzle.len()), true, limits.pool),
        Split::None => (0, false, limits.unsplit_pool),
    };
    let (queue, unit_stats) = initial_jobs(run, initial_depth, adaptive, threads);
    let race = queue.front().is_some_and(|j| j.beside);
    let outstanding: HashMap<usize, usize> = match options.units {
        Some(_) => queue.iter().map(|j| (j.unit, 1)).collect(),
        None => HashMap::new(),
    };
    let slices = Slices::for_run(limits.slice, limits.whole_slice, model.cells.len());
    let shared = Shared {
        rt,
        constraints,
        base: &base,
        model,
        pool,
        search_sizes: Mutex::new(Vec::new()),
        first_guess: model.size().values,
        cut_pool: adaptive,
        concurrent: threads,
        limits,
        slices: Mutex::new(slices),
        stopping: AtomicBool::new(false),
        whole_stop: AtomicBool::new(false),
        deadline: run.cancel.deadline(),
    };
    let stats = first_stats(initial_depth, threads, unit_stats);
    let mut books = Books::new(queue, outstanding, stats, threads, race);

    // The coordinator hands the pool's workers as many subproblems as the
    // memory ceiling's slots allow, and closes their queue when none is
    // in flight (all done, or the run stopped).
    let dispatch = |books: &mut Books, jobs: &mut dyn FnMut(Job)| {
        books.look_at_limits(run, &shared);
        books.referee(&shared);
        if books.stop_reason.is_none() {
            while books.in_flight < books.slots.get() {
                let Some(job) = books.queue.pop_front() else {
                    break;
                };
                jobs(job);
                books.in_flight += 1;
            }
        }
        books.in_flight == 0
    };
    let mut first = Vec::new();
    let mut closed = dispatch(&mut books, &mut |job| first.push(job));
    let given = match closed {
        true => Given::All(first),
        false => Given::First(first),
    };
    let shape = Shape {
        workers: threads,
        bound: None,
        tick: Some(POLL),
    };
    pool::run(
        shape,
        given,
        |_, jobs, out| {
            while let Some(job) = jobs.next() {
                if !out.send(shared.solve(job)) {
                    break;
                }
            }
        },
        |event, jobs| {
            if closed {
                return Flow::Listen;
            }
            if let Event::Message(r) = event {
                books.take(r, run, &shared, callback);
            }
            if dispatch(&mut books, &mut |job| jobs.push(job)) {
                closed = true;
                jobs.close();
            }
            Flow::Listen
        },
    );

    let (status, stats) = books.finish();
    let Shared { constraints, .. } = shared;
    crate::model::drop_later((base, constraints));
    Ok(SolverRun::new(status, stats))
}

/// The model's name and variables, which each subproblem's domains narrow.
fn base_model(run: &Run) -> CpModelProto {
    CpModelProto {
        name: run.puzzle.name().to_string(),
        variables: run.model.vars.iter().map(super::variable_proto).collect(),
        constraints: vec![],
    }
}

/// The statistics before the first subproblem: the sums at 0, the workers,
/// and with fixed work units their counts (units in all, units to run,
/// cells a unit fixes).
fn first_stats(
    initial_depth: usize,
    threads: usize,
    unit_stats: Option<(u64, u64, usize)>,
) -> super::kind::Stats {
    super::kind::Stats {
        branches: Some(0),
        conflicts: Some(0),
        wall_time_s: Some(0.0),
        subproblems: Some(0),
        subproblems_split: Some(0),
        max_split_depth: Some(initial_depth),
        workers: Some(threads),
        units: crate::solve::kind::UnitStats {
            units: unit_stats.map(|u| u.0),
            units_run: unit_stats.map(|u| u.1),
            unit_depth: unit_stats.map(|u| u.2),
        },
        ..Default::default()
    }
}

/// The subproblems an enumeration starts with, and with fixed work units
/// (shards, checkpoints) their counts: units in all, units to run, cells a
/// unit fixes. With `--split auto` and two solves or more at a time, the
/// whole model is solved beside its first cell's placements (a race,
/// policy.rs, `keep_whole`) rather than tried first on its own.
fn initial_jobs(
    run: &Run,
    initial_depth: usize,
    adaptive: bool,
    threads: usize,
) -> (VecDeque<Job>, Option<(u64, u64, usize)>) {
    let (puzzle, options, limits) = (run.puzzle, run.options, run.limits);
    // Fixed work units: every unit a job of its own, split as usual; a
    // unit is finished when every part of it is. Without them, the first
    // `initial_depth` cells fixed, or on a big board (`--split auto`) a few
    // parts by ranges of the first cell's tile.
    if let Some(units) = &options.units {
        let level = unit_prefixes(puzzle);
        let to_run = units.to_run(level.len(), |k| estimate(puzzle, &level[k]));
        let stats = (
            level.len() as u64,
            to_run.iter().filter(|&&r| r).count() as u64,
            level.first().map_or(0, |p| p.len()),
        );
        let weight = share(1.0, level.len());
        let jobs = level
            .into_iter()
            .enumerate()
            .filter(|&(k, _)| to_run[k])
            .map(|(unit, prefix)| Job {
                unit,
                prefix,
                range: None,
                adaptive: true,
                beside: false,
                weight,
            })
            .collect();
        return (jobs, Some(stats));
    }
    let eager = matches!(run.split, Split::Auto)
        && puzzle.len() >= limits.eager_cells
        && initial_depth == 0;
    if eager {
        let whole = Job::whole();
        return (
            split_job(puzzle, run.searched, &whole, limits.range_parts).into(),
            None,
        );
    }
    if matches!(run.split, Split::Auto) && initial_depth == 0 && threads >= 2 {
        let whole = Job::whole();
        let parts = split_job(puzzle, run.searched, &whole, 0);
        let beside = Job {
            adaptive: false,
            beside: true,
            ..whole
        };
        return (std::iter::once(beside).chain(parts).collect(), None);
    }
    let prefixes = prefixes(puzzle, run.searched, initial_depth);
    let weight = share(1.0, prefixes.len());
    let jobs = prefixes
        .into_iter()
        .map(|prefix| Job {
            unit: 0,
            prefix,
            range: None,
            adaptive,
            beside: false,
            weight,
        })
        .collect();
    (jobs, None)
}

//! How each counting method runs (the dynamic programme, the enumeration
//! with its checkpoint and shards, the estimate) and what it reports;
//! mod.rs runs them in turn and compares their counts.

use super::*;

pub(super) fn run_method(
    puzzle: &Puzzle,
    method: Method,
    labellings: Option<u128>,
    options: &CountOptions,
) -> MethodResult {
    let start = Instant::now();
    let cancel = Cancel::new(options.stop.clone(), options.time_limit.map(|d| start + d));
    let stopped = || cancel.is_stopped();
    let mut r = MethodResult {
        method,
        status: Status::Failed,
        message: None,
        counts: None,
        fixed: None,
        estimate: None,
        nodes: None,
        time_s: 0.0,
        shard_weight: None,
    };
    match method {
        Method::Dp | Method::Fourier => {
            by_programme_result(puzzle, labellings, options, &stopped, &mut r)
        }
        Method::Enumerate => match by_enumeration(puzzle, labellings, options) {
            Ok((status, counts, nodes, message, weight)) => {
                r.status = status;
                r.counts = counts;
                r.nodes = nodes;
                r.message = message;
                r.shard_weight = weight;
            }
            Err(e) => r.message = Some(e),
        },
        Method::Estimate => match by_estimate(puzzle, labellings, options, &stopped) {
            Ok((e, trees)) => {
                r.status = Status::Estimated;
                if options.probes_fill_time {
                    r.message = Some("probed until its share of the time limit ended".into());
                } else if e.pictures.probes < trees * options.probes {
                    r.message = Some(format!(
                        "stopped after {} of {} probes",
                        e.pictures.probes,
                        trees * options.probes
                    ));
                }
                r.estimate = Some(e);
            }
            // The estimate walks the programme's tree, so it needs its
            // state too; the backtracker's tree has none.
            Err(e) if e.too_wide() => {
                r.message = Some(format!(
                    "{e}; `scramble probe PUZZLE --estimate N` estimates the backtracking \
                     tree instead (its labelled full boards, every board turn searched)"
                ))
            }
            Err(e) => r.message = Some(e.to_string()),
        },
    }
    r.time_s = start.elapsed().as_secs_f64();
    r
}

/// The programme's counts (dp or fourier) into `r`, with fourier's
/// checkpoint opened before and written after.
fn by_programme_result(
    puzzle: &Puzzle,
    labellings: Option<u128>,
    options: &CountOptions,
    stop: &(dyn Fn() -> bool + Sync),
    r: &mut MethodResult,
) {
    let keeps = options
        .checkpoint
        .as_ref()
        .filter(|_| options.checkpoint_by == r.method);
    let checkpoint = match keeps {
        Some(path) => {
            let search = fourier::checkpoint_search(options.fourier_grid);
            match checkpoint::Checkpoint::open(path, puzzle, &search) {
                Ok(c) => Some(Mutex::new(c)),
                Err(e) => {
                    r.message = Some(e.to_string());
                    return;
                }
            }
        }
        None => None,
    };
    let before = checkpoint
        .as_ref()
        .map_or(0, |c| c.lock().unwrap().done().count());
    let result = by_programme(
        puzzle,
        r.method,
        labellings,
        options,
        stop,
        checkpoint.as_ref(),
    );
    let mut notes = Vec::new();
    match result {
        Ok((counts, fixed)) => {
            r.status = Status::Complete;
            r.counts = Some(counts);
            r.fixed = Some(fixed);
        }
        Err(e) => {
            let stopped = match &e {
                CountError::Dp(e) | CountError::Partial { error: e, .. } => e.is_stop(),
                _ => false,
            };
            if stopped {
                r.status = Status::Stopped;
            }
            notes.push(match &e {
                _ if stopped && options.stop.is_stopped() => format!("interrupted ({e})"),
                _ if stopped => format!("time limit reached ({e})"),
                _ if e.too_wide() => format!("{e}; count by enumeration instead"),
                _ => e.to_string(),
            });
        }
    }
    if let Some(c) = checkpoint {
        let mut c = c.into_inner().unwrap();
        c.write();
        if let Some(e) = c.write_error.take() {
            r.status = Status::Failed;
            r.counts = None;
            notes.push(e.to_string());
        }
        notes.push(format!(
            "{} work units done, {before} of them in earlier runs; {:.0} s in all runs",
            c.done().count(),
            c.seconds()
        ));
        if r.status == Status::Stopped {
            notes.push("run again to resume".into());
        }
    }
    r.message = notes_text(notes);
}

/// Which method keeps `path` as its checkpoint for `puzzle`, and the
/// order to count in: an existing file says (the programme at roots of
/// unity's, or the enumeration's in the order it was made in, unless an
/// order is asked for); a new one goes to the first of `methods` that keeps
/// one, else to the enumeration. The order is the one asked for, else an
/// existing enumeration checkpoint's (`None`: the count chooses). An error
/// where the file belongs to another count.
pub(crate) fn check_checkpoint(
    path: &std::path::Path,
    puzzle: &Puzzle,
    order: Option<Order>,
    methods: &[Method],
    grid: u32,
) -> Result<(Method, Option<Order>), String> {
    let made_by = checkpoint::Checkpoint::search_of(path);
    let fourier = fourier::checkpoint_search(grid);
    let by_fourier = match &made_by {
        _ if order.is_some() => false,
        Some(search) => search.starts_with("fourier"),
        None => {
            !path.exists()
                && methods.iter().find(|m| keeps_checkpoint(**m)) == Some(&Method::Fourier)
        }
    };
    if by_fourier {
        return checkpoint::Checkpoint::open(path, puzzle, &fourier)
            .map(|_| (Method::Fourier, None))
            .map_err(|e| e.to_string());
    }
    let order = order.or_else(|| {
        Order::ALL
            .into_iter()
            .find(|&o| Some(Backtrack::new(o).units_name()) == made_by)
    });
    if order.is_none() && !path.exists() {
        return Ok((Method::Enumerate, None));
    }
    // A present file made by no order this build knows: opening it in the
    // default order reports what made it.
    let search = Backtrack::new(order.unwrap_or(DEFAULT_ORDER)).units_name();
    checkpoint::Checkpoint::open(path, puzzle, &search)
        .map(|_| (Method::Enumerate, order))
        .map_err(|e| e.to_string())
}

/// Whether `method` can keep a checkpoint.
fn keeps_checkpoint(method: Method) -> bool {
    matches!(method, Method::Enumerate | Method::Fourier)
}

/// What the enumeration found: status, counts (lower bounds if stopped),
/// nodes, a note, and in a shard its picture weight and the nodes above
/// its units.
type Enumerated = (
    Status,
    Option<Counts>,
    Option<u64>,
    Option<String>,
    Option<(u128, u64)>,
);

/// Counts by enumeration with the backtracker: one board per picture class,
/// counted, none stored; with a checkpoint, in fixed work units of which
/// the finished ones are recorded and skipped on the next run.
fn by_enumeration(
    puzzle: &Puzzle,
    labellings: Option<u128>,
    options: &CountOptions,
) -> Result<Enumerated, String> {
    let solver = Backtrack::new(options.order.unwrap_or(DEFAULT_ORDER));
    let mut o = SolveOptions {
        time_limit: options.time_limit,
        threads: options.threads,
        stop: options.stop.clone(),
        equivalence: Equivalence::Picture,
        keep: Keep::Count,
        ..SolveOptions::default()
    };
    let keeps = options
        .checkpoint
        .as_ref()
        .filter(|_| options.checkpoint_by == Method::Enumerate);
    let checkpoint = match keeps {
        Some(path) => Some(RefCell::new(
            checkpoint::Checkpoint::open(path, puzzle, &solver.units_name())
                .map_err(|e| e.to_string())?,
        )),
        None => None,
    };
    let mut hooks = Hooks::default();
    // With a checkpoint: what the finished units (of every run) add up to.
    let total = RefCell::new(UnitCounts::default());
    if let Some(shard) = options.shard {
        o.units = Some(Arc::new(solve::Units::shard(shard)));
        hooks = hooks.with_units(|_, counts| {
            total.borrow_mut().picture_weight += counts.picture_weight;
        });
    }
    let mut skipped = 0;
    let mut earlier = UnitCounts::default();
    if let Some(c) = &checkpoint {
        let done: BTreeSet<usize> = c.borrow().done().collect();
        skipped = done.len();
        earlier = c.borrow().counted();
        *total.borrow_mut() = earlier;
        o.units = Some(Arc::new(solve::Units::done(done)));
        hooks = hooks.with_units(|unit, counts| {
            let mut t = total.borrow_mut();
            t.raw += counts.raw;
            t.classes += counts.classes;
            t.picture_weight += counts.picture_weight;
            c.borrow_mut().finish(unit, counts);
        });
    }
    let res = solve::run_with(&solver, puzzle, &o, hooks).map_err(|e| e.to_string())?;
    let own: crate::engines::backtrack::kind::Stats = res.stats.own();
    let mut notes = Vec::new();
    let mut counts = Some(res.counts);
    if let Some(c) = &checkpoint {
        let mut c = c.borrow_mut();
        c.write();
        if let Some(e) = c.write_error.take() {
            return Err(e.to_string());
        }
        let of = own
            .units
            .units
            .map_or(String::new(), |n| format!(" of {n}"));
        notes.push(format!(
            "{}{of} work units done, {skipped} of them in earlier runs; {:.0} s in all runs",
            c.done().count(),
            c.seconds()
        ));
        // Every unit finished: the counts are the units' sums. Stopped:
        // this run's finds and the earlier runs' units (lower bounds).
        let t = *total.borrow();
        let per = labellings
            .and_then(|l| l.checked_mul(puzzle.group().order() as u128))
            .ok_or("labelled solutions past 2^128: a checkpoint cannot hold them")?;
        counts = Some(if res.outcome.is_complete() {
            if t.picture_weight % per != 0 {
                return Err(format!(
                    "picture weight {} is not a multiple of {per}: a bug",
                    t.picture_weight
                ));
            }
            Counts {
                raw: t.raw,
                classes: t.classes,
                pictures: t.picture_weight / per,
            }
        } else {
            Counts {
                raw: res.counts.raw + earlier.raw,
                classes: res.counts.classes + earlier.classes,
                pictures: res.counts.pictures.max(t.picture_weight / per),
            }
        });
    }
    let nodes = own.nodes;
    let weight = options.shard.map(|_| {
        let depth = own.units.unit_depth.unwrap_or(0);
        let above = own
            .nodes_per_depth
            .as_ref()
            .map_or(0, |v| v.iter().take(depth).sum());
        (total.borrow().picture_weight, above)
    });
    Ok(match res.outcome {
        Outcome::Complete | Outcome::Infeasible => {
            (Status::Complete, counts, nodes, notes_text(notes), weight)
        }
        Outcome::Incomplete(reason) => {
            notes.insert(0, reason.to_string());
            if keeps.is_some() {
                notes.push("run again to resume".into());
            }
            (Status::Stopped, counts, nodes, notes_text(notes), weight)
        }
        Outcome::Invalid(m) => (Status::Failed, None, nodes, Some(m), weight),
    })
}

fn notes_text(notes: Vec<String>) -> Option<String> {
    (!notes.is_empty()).then(|| notes.join("; "))
}

/// Why a method could not count.
#[derive(Debug, thiserror::Error)]
enum CountError {
    #[error(transparent)]
    Dp(#[from] DpError),
    #[error("{error} (done: {half} pictures fixed by a half turn, {quarter} by a quarter turn)")]
    Partial {
        error: DpError,
        half: u128,
        quarter: u128,
    },
    #[error("labelled solutions past 2^128: only picture classes can be counted")]
    TooManyLabellings,
    #[error("Burnside's sum {0} is not a multiple of 4: a bug in the programme")]
    NotDivisible(u128),
}

impl CountError {
    /// The programme's state does not fit its key: no programme at all.
    fn too_wide(&self) -> bool {
        matches!(
            self,
            CountError::Dp(DpError::TooWide { .. })
                | CountError::Partial {
                    error: DpError::TooWide { .. },
                    ..
                }
        )
    }
}

/// The three counts from the pictures and the pictures each turn fixes,
/// each counted by `method`'s programme: the dynamic programme or the
/// programme at roots of unity.
fn by_programme(
    puzzle: &Puzzle,
    method: Method,
    labellings: Option<u128>,
    options: &CountOptions,
    stop: &(dyn Fn() -> bool + Sync),
    checkpoint: Option<&Mutex<checkpoint::Checkpoint>>,
) -> Result<(Counts, Fixed), CountError> {
    let limits = Limits {
        max_states: options.max_states,
        stop,
        threads: options.threads,
    };
    let grid = options.fourier_grid;
    let fixed_by = |turns| match method {
        Method::Fourier => fourier::pictures_fixed_by(puzzle, turns, &limits, grid, checkpoint),
        _ => pictures_fixed_by(puzzle, turns, &limits),
    };
    // The turn-fixed pictures first: their programmes are small (a quarter
    // or half of the board), and known even when the full one fails.
    // Only the board's own turns (its group) count: a rectangle has the
    // half turn alone, a board with a fixed piece or unturnable tiles none.
    let order = puzzle.group().order();
    let none = || dp::DpRun {
        count: 0,
        peak_states: 0,
    };
    let quarter = if order == 4 { fixed_by(1)? } else { none() };
    let half = if order >= 2 { fixed_by(2)? } else { none() };
    let all = fixed_by(0).map_err(|e| CountError::Partial {
        error: e,
        half: half.count,
        quarter: quarter.count,
    })?;
    let raw = labellings
        .and_then(|l| l.checked_mul(all.count))
        .ok_or(CountError::TooManyLabellings)?;
    // Board turns act freely on labelled boards: every class has |G|.
    let order = order as u128;
    if raw % order != 0 {
        return Err(CountError::NotDivisible(raw));
    }
    // Burnside: classes = mean over the group's turns of the pictures
    // fixed; the quarter turn and its inverse fix the same pictures.
    let sum = all
        .count
        .checked_add(half.count)
        .and_then(|s| s.checked_add(quarter.count.checked_mul(2)?))
        .ok_or(DpError::Overflow)?;
    if sum % order != 0 {
        return Err(CountError::NotDivisible(sum));
    }
    Ok((
        Counts {
            raw,
            classes: raw / order,
            pictures: sum / order,
        },
        Fixed {
            pictures: all.count,
            half_turn: half.count,
            quarter_turn: quarter.count,
            peak_states: all
                .peak_states
                .max(half.peak_states)
                .max(quarter.peak_states),
        },
    ))
}

/// Knuth estimates of the pictures and of the pictures each turn fixes,
/// combined like [`by_programme`]; with the number of trees probed (one per turn
/// of the board's group but the quarter turn's inverse: 3, 2 or 1).
fn by_estimate(
    puzzle: &Puzzle,
    labellings: Option<u128>,
    options: &CountOptions,
    stop: &dyn Fn() -> bool,
) -> Result<(Estimates, u64), CountError> {
    let mut rng = Rng::new(options.seed);
    let order = puzzle.group().order();
    let trees: u32 = match order {
        4 => 3,
        2 => 2,
        _ => 1,
    };
    // Filling the time: each tree gets an even share of what is left.
    let fill = options
        .probes_fill_time
        .then_some(options.time_limit)
        .flatten();
    let start = Instant::now();
    let mut done = 0u32;
    let mut est = |turns| -> Result<Estimate, CountError> {
        let p = Programme::new(puzzle, turns)?;
        let Some(limit) = fill else {
            return Ok(estimate::knuth(&p, options.probes, &mut rng, stop));
        };
        let left = limit.saturating_sub(start.elapsed());
        let deadline = Instant::now() + left / (trees - done);
        done += 1;
        let tree_stop = || stop() || Instant::now() >= deadline;
        Ok(estimate::knuth(&p, u64::MAX, &mut rng, &tree_stop))
    };
    let all = est(0)?;
    let l = labellings.ok_or(CountError::TooManyLabellings)? as f64;
    // Burnside over the board's own group, as in [`by_programme`].
    let pictures = match order {
        4 => {
            let half = est(2)?;
            let quarter = est(1)?;
            all.combine(0.25, half, 0.25).combine(1.0, quarter, 0.5)
        }
        2 => all.combine(0.5, est(2)?, 0.5),
        _ => all.scaled(1.0),
    };
    let estimates = Estimates {
        raw: all.scaled(l),
        classes: all.scaled(l / order as f64),
        pictures,
    };
    Ok((estimates, u64::from(trees)))
}

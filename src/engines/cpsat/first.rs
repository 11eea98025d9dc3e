//! The first solutions (`--limit N`): one solve per class instead of an
//! enumeration.
//!
//! Enumerating makes CP-SAT keep every solution (`enumerate_all_solutions`),
//! which weakens its presolve and pins it to one worker. Asking for a few
//! classes is a different job: each round solves the model for one solution
//! with full presolve and all the workers, hands the solution's class to the
//! callback, and forbids the boards found (a clause per board: some cell
//! differs) before the next round. The rounds end when the callback has
//! enough, when the model has no solution left (then the enumeration is
//! complete), or at the time limit or Ctrl-C.

use std::time::Instant;

use super::kind::Stats;
use crate::board::Solution;
use crate::cancel::{Cancel, Stopped};
use crate::model::{BIG, Constraint, IntVar, Lit};
use crate::solve::{
    RunStatus, SolutionCallback, SolveError, SolverRun, SolverStats, Stands, StopReason,
};

use super::ceiling::Watch;
use super::pending::{Waited, own_limit_margin};
use super::proto::{CpSolverStatus, SatParameters};
use super::run::{Expansion, Run};

pub(crate) fn first(
    run: &Run,
    callback: &mut dyn SolutionCallback,
) -> Result<SolverRun, SolveError> {
    let Run {
        puzzle,
        model,
        options,
        expansion,
        ..
    } = *run;
    let threads = options.threads.max(1);
    // The model is encoded once; each round appends the clauses that
    // forbid the boards found so far (and their variables) to its bytes.
    let constraints = match run.encode_constraints() {
        Ok(bytes) => bytes,
        Err(e) => return Ok(SolverRun::stopped_while_building(&e)),
    };
    let variables = super::encode_variables(puzzle.name(), &model.vars);
    let mut forbidden = Forbidden {
        first_var: run.variables(),
        vars: vec![],
        constraints: vec![],
    };
    let mut stats = Stats {
        branches: Some(0),
        conflicts: Some(0),
        wall_time_s: Some(0.0),
        subproblems: Some(0),
        workers: Some(threads),
        ..Stats::default()
    };
    let stopped = |stats: &Stats| {
        Ok(SolverRun::new(
            RunStatus::Stopped(StopReason::Limit),
            SolverStats::of(&stats),
        ))
    };
    if callback.enough() {
        return stopped(&stats);
    }
    // CP-SAT's own time limit ends the rounds a little before the run's
    // deadline, so that the last one returns, with its statistics, in time;
    // the deadline itself stops it if it does not.
    let own = run.cancel.until(
        run.cancel
            .deadline()
            .map(|d| d - own_limit_margin(d.saturating_duration_since(Instant::now()))),
    );
    let round = Round {
        run,
        variables: &variables,
        constraints: &constraints,
        threads,
        own: &own,
    };
    loop {
        if let Err(why) = own.check() {
            return Ok(SolverRun::new(
                RunStatus::Stopped(why.into()),
                SolverStats::of(&stats),
            ));
        }
        let Some((response, past_ceiling)) = round.solve(&forbidden)? else {
            // Stopped and not back in time (in its presolve, or slow to
            // wind down): its statistics are lost with it, so the sums are
            // not known. The loop says why it stopped.
            stats.branches = None;
            stats.conflicts = None;
            continue;
        };
        if let (Some(b), Some(c)) = (stats.branches.as_mut(), stats.conflicts.as_mut()) {
            *b += response.num_branches.max(0) as u64;
            *c += response.num_conflicts.max(0) as u64;
        }
        *stats.wall_time_s.as_mut().unwrap() += response.wall_time;
        *stats.subproblems.as_mut().unwrap() += 1;
        match ended(&response, past_ceiling) {
            Some(Ended::Run(status)) => {
                return Ok(SolverRun::new(status, SolverStats::of(&stats)));
            }
            Some(Ended::Stopped) => match why_stopped(&own) {
                Some(why) => {
                    return Ok(SolverRun::new(
                        RunStatus::Stopped(why.into()),
                        SolverStats::of(&stats),
                    ));
                }
                None => continue,
            },
            None => {}
        }
        let Some(cells) = model.decode(&response.solution) else {
            return Ok(SolverRun::new(
                RunStatus::Invalid("CP-SAT returned a short solution".into()),
                SolverStats::of(&stats),
            ));
        };
        // The puzzle's own shape: a rectangle turns by half turns only, and
        // a board with fixed pieces or unturned tiles not at all.
        let found = Solution::shaped(cells, puzzle.shape());
        // Every turn of a solution is one; the model may admit any of them
        // unless it keeps one board per class, so all are forbidden (one
        // board per picture: the others show other pictures).
        let (stands, blocked) = match expansion {
            Expansion::Pictures => (Stands::PictureClass, vec![found.clone()]),
            Expansion::Turns | Expansion::None => (Stands::Turns, found.turns().to_vec()),
        };
        callback.on_solution(found.cells(), stands);
        if callback.enough() {
            return stopped(&stats);
        }
        for s in &blocked {
            forbidden.forbid(&model.cells, s);
        }
    }
}

/// How a round that found no solution ends the search.
enum Ended {
    Run(RunStatus),
    /// Stopped by the time limit or Ctrl-C: the loop says which.
    Stopped,
}

/// What CP-SAT's answer to a round means: none when it found a solution.
fn ended(response: &super::proto::CpSolverResponse, past_ceiling: bool) -> Option<Ended> {
    match CpSolverStatus::try_from(response.status).unwrap_or(CpSolverStatus::Unknown) {
        CpSolverStatus::Infeasible => Some(Ended::Run(RunStatus::Complete)),
        CpSolverStatus::ModelInvalid => Some(Ended::Run(RunStatus::Invalid(format!(
            "CP-SAT rejected the model: {}",
            response.solution_info
        )))),
        // One solve with every worker: nothing smaller to split into.
        CpSolverStatus::Unknown if past_ceiling => {
            Some(Ended::Run(RunStatus::Stopped(StopReason::MemoryLimit)))
        }
        CpSolverStatus::Unknown => Some(Ended::Stopped),
        CpSolverStatus::Feasible | CpSolverStatus::Optimal => None,
    }
}

/// Why a round that CP-SAT ended unfinished ends the run: the run's stop,
/// or else its time limit when it has one. CP-SAT may end a little before
/// its limit (it stops when the next step might pass it, judged by the
/// longest gap between its looks at the clock, long on a loaded machine):
/// another round would only be given up at the deadline, unread. None:
/// neither, so another round may run.
fn why_stopped(own: &Cancel) -> Option<Stopped> {
    match own.check() {
        Err(why) => Some(why),
        Ok(()) => own.deadline().map(|_| Stopped::TimeLimit),
    }
}

/// One round: the model with what the rounds before forbade, solved for
/// one solution with every worker.
struct Round<'a> {
    run: &'a Run<'a>,
    variables: &'a [u8],
    constraints: &'a [u8],
    threads: usize,
    /// The run's stop with CP-SAT's own time limit, a little before the
    /// run's deadline.
    own: &'a Cancel,
}

impl Round<'_> {
    /// CP-SAT's answer and whether the run passed its memory ceiling; none
    /// when the solve was stopped and did not come back in time.
    fn solve(
        &self,
        forbidden: &Forbidden,
    ) -> Result<Option<(super::proto::CpSolverResponse, bool)>, SolveError> {
        let mut bytes = Vec::with_capacity(self.variables.len() + self.constraints.len());
        bytes.extend_from_slice(self.variables);
        bytes.extend_from_slice(&super::encode_variables("", &forbidden.vars));
        bytes.extend_from_slice(self.constraints);
        let extra =
            super::encode_constraints(&forbidden.constraints, &Cancel::never()).expect("no limit");
        bytes.extend_from_slice(&extra);
        let params = SatParameters {
            num_workers: Some(self.threads as i32),
            max_time_in_seconds: self.own.remaining().map(|r| r.as_secs_f64()),
            log_search_progress: Some(false),
            catch_sigint_signal: Some(false),
            // Probing pays for itself when every solution is searched, not
            // for one: without it the first solution of the-ant-trails-puzzle
            // comes sooner (docs/log.md).
            cp_model_probing_level: Some(0),
            ..Default::default()
        };
        let pending = self.run.rt.spawn_solve(bytes, params);
        let watch = Watch::new(self.run.limits.memory_ceiling);
        match pending.wait(|| self.run.cancel.is_stopped(), || watch.check()) {
            Waited::Returned(r) => {
                let response = r.map_err(|e| SolveError::Runtime(Box::new(e)))?;
                Ok(Some((response, watch.passed())))
            }
            Waited::GaveUp => Ok(None),
        }
    }
}

/// What the rounds so far added to the model: variables numbered from
/// `first_var` on, and constraints.
struct Forbidden {
    first_var: usize,
    vars: Vec<IntVar>,
    constraints: Vec<Constraint>,
}

impl Forbidden {
    /// A clause that `board` violates: some cell differs (`cells` are the
    /// model's tile and rotation variables).
    fn forbid(&mut self, cells: &[(usize, usize)], board: &Solution) {
        let k = self.constraints.len();
        let mut clause = Vec::with_capacity(2 * board.cells().len());
        for (c, (&(t, r), p)) in cells.iter().zip(board.cells()).enumerate() {
            for (var, value) in [(t, p.tile), (r, p.rotation as i64)] {
                let name = format!("forbid_{k}_{c}_{var}");
                let differs = Lit::Pos(self.first_var + self.vars.len());
                self.vars.push(IntVar {
                    name: name.clone(),
                    domain: vec![(0, 1)],
                });
                self.constraints.push(Constraint::Linear {
                    name,
                    terms: vec![(var, 1)],
                    domain: vec![(-BIG, value - 1), (value + 1, BIG)],
                    enforce: vec![differs],
                });
                clause.push(differs);
            }
        }
        self.constraints.push(Constraint::BoolOr {
            name: format!("forbid_{k}"),
            lits: clause,
        });
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::cancel::StopToken;

    #[test]
    fn a_round_ended_early_by_cp_sat_s_own_limit_ends_the_run() {
        // CP-SAT gave up before the deadline: the time limit, not a round
        // that would be given up unread at the deadline.
        let later = Instant::now() + Duration::from_secs(60);
        let own = Cancel::new(StopToken::new(), Some(later));
        assert_eq!(why_stopped(&own), Some(Stopped::TimeLimit));
        // Asked to stop: that is the reason, deadline or not.
        own.token().stop();
        assert_eq!(why_stopped(&own), Some(Stopped::Interrupted));
        let never = Cancel::never();
        assert_eq!(why_stopped(&never), None);
        never.token().stop();
        assert_eq!(why_stopped(&never), Some(Stopped::Interrupted));
    }
}

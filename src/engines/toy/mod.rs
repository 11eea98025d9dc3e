//! A toy engine, built only in tests: the plainest depth-first search (row
//! by row, every unused tile in every turn the rules allow, the symmetry
//! formulations checked on whole boards). It is here to show what adding
//! an engine takes: this folder, its `mod` line and one line of
//! `crate::registry` (the house test holds that), and that every command
//! that builds engines then runs it (the tests below).

use serde::{Deserialize, Serialize};

use crate::board::{Placement, Solution};
use crate::cancel::Cancel;
use crate::puzzle::Puzzle;
use crate::solve::kind::{Build, Built, EngineKind, not_searched_by, sum};
use crate::solve::{
    Engine, RunStatus, Searched, SolutionCallback, SolveError, SolveOptions, Solver, SolverRun,
    SolverStats, Stands,
};

/// The toy engine, for `crate::registry`.
pub struct Kind;

/// Its one option.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct ToyArgs {
    /// The toy engine (tests only): try the tiles from the last one.
    #[arg(long)]
    pub toy_backwards: bool,
}

/// Its counters.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placements: Option<u64>,
}

/// The toy engine.
#[derive(Clone, Copy, Debug)]
pub struct Toy {
    backwards: bool,
}

impl EngineKind for Kind {
    const NAME: &'static str = "toy";
    const ABOUT: &'static str = "a plain depth-first search (tests only)";
    type Args = ToyArgs;
    type Stats = Stats;

    fn given(args: &ToyArgs) -> Option<&'static str> {
        args.toy_backwards.then_some("--toy-backwards")
    }

    fn build(args: &ToyArgs, _: &Build) -> Result<Vec<Built>, SolveError> {
        Ok(vec![Box::new(Toy {
            backwards: args.toy_backwards,
        })])
    }

    fn covers(puzzle: &Puzzle) -> Option<String> {
        (puzzle.len() > 9).then(|| "the toy engine covers at most 9 tiles".into())
    }

    fn searched(text: &str) -> Result<Searched, String> {
        match text {
            "plain" | "backwards" => Ok(Searched::new(text)),
            _ => Err(not_searched_by(Self::NAME, text)),
        }
    }

    fn merge(all: Vec<Stats>) -> Stats {
        Stats {
            placements: sum(all.iter().map(|s| s.placements)),
        }
    }
}

impl Solver for Toy {
    fn engine(&self) -> Engine {
        Engine::named(Kind::NAME)
    }
    fn searched(&self) -> Searched {
        Searched::new(if self.backwards { "backwards" } else { "plain" })
    }
    fn enumerate(
        &self,
        puzzle: &Puzzle,
        options: &SolveOptions,
        cancel: &Cancel,
        callback: &mut dyn SolutionCallback,
    ) -> Result<SolverRun, SolveError> {
        if let Some(why) = Kind::covers(puzzle) {
            return Err(SolveError::TooLarge(why));
        }
        if options.units.is_some() {
            return Err(SolveError::Unsupported(
                "the toy engine has no work units".into(),
            ));
        }
        let mut order: Vec<usize> = (0..puzzle.len()).collect();
        if self.backwards {
            order.reverse();
        }
        let mut walk = Walk {
            puzzle,
            options,
            order,
            cancel: cancel.clone(),
            board: Vec::new(),
            used: vec![false; puzzle.len()],
            placements: 0,
            stopped: None,
        };
        walk.dfs(callback);
        let status = match (walk.stopped, callback.enough()) {
            (_, true) => RunStatus::Stopped(crate::solve::StopReason::Limit),
            (Some(why), false) => RunStatus::Stopped(why.into()),
            (None, false) => RunStatus::Complete,
        };
        Ok(SolverRun {
            answered: None,
            status,
            stats: SolverStats::of(&Stats {
                placements: Some(walk.placements),
            }),
        })
    }
}

struct Walk<'a> {
    puzzle: &'a Puzzle,
    options: &'a SolveOptions,
    order: Vec<usize>,
    cancel: crate::cancel::Cancel,
    board: Vec<(usize, u8)>,
    used: Vec<bool>,
    placements: u64,
    stopped: Option<crate::cancel::Stopped>,
}

impl Walk<'_> {
    /// Whether tile `k` turned `r` fits cell `c` beside what is placed.
    fn fits(&self, c: usize, k: usize, r: u8) -> bool {
        let tiles = self.puzzle.tiles();
        let cols = self.puzzle.cols();
        let me = &tiles[k];
        let left = (!c.is_multiple_of(cols)).then(|| self.board[c - 1]);
        let top = (c >= cols).then(|| self.board[c - cols]);
        self.puzzle.why_not(c, k, r).is_none()
            && left.is_none_or(|(l, lr)| tiles[l].edge(lr, 0).fits(me.edge(r, 2)))
            && top.is_none_or(|(t, tr)| tiles[t].edge(tr, 3).fits(me.edge(r, 1)))
    }

    fn dfs(&mut self, callback: &mut dyn SolutionCallback) {
        if self.stopped.is_some() || callback.enough() {
            return;
        }
        if let Err(why) = self.cancel.check() {
            self.stopped = Some(why);
            return;
        }
        let c = self.board.len();
        if c == self.puzzle.len() {
            let cells: Vec<Placement> = self
                .board
                .iter()
                .map(|&(k, r)| Placement {
                    tile: self.puzzle.tiles()[k].id,
                    rotation: r,
                })
                .collect();
            let s = Solution::shaped(cells, self.puzzle.shape());
            if self.options.symmetry.accepts(self.puzzle, &s) {
                callback.on_solution(s.cells(), Stands::Board);
            }
            return;
        }
        for i in 0..self.order.len() {
            let k = self.order[i];
            for r in 0..4u8 {
                if self.used[k] || !self.fits(c, k, r) {
                    continue;
                }
                self.placements += 1;
                self.used[k] = true;
                self.board.push((k, r));
                self.dfs(callback);
                self.board.pop();
                self.used[k] = false;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use crate::commands::{Cli, run};
    use crate::solve::StopToken;

    fn runs(args: &[&str]) -> u8 {
        let cli = Cli::try_parse_from(std::iter::once("scramble").chain(args.iter().copied()))
            .unwrap_or_else(|e| panic!("{args:?}: {e}"));
        run(cli, StopToken::new()).unwrap_or_else(|e| panic!("{args:?}: {e}"))
    }

    fn seed() -> String {
        concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/3x3-original").into()
    }

    #[test]
    fn every_command_that_builds_engines_runs_the_toy_engine() {
        let seed = seed();
        let s = seed.as_str();
        assert_eq!(runs(&["solve", s, "--solver", "toy", "--count"]), 0);
        assert_eq!(
            runs(&[
                "solve",
                s,
                "--solver",
                "toy",
                "--toy-backwards",
                "--limit",
                "1"
            ]),
            0
        );
        // compare: the toy engine joins on the puzzles it covers and agrees.
        assert_eq!(runs(&["compare", s, "--threads", "1"]), 0);
        assert_eq!(
            runs(&["compare", s, "--threads", "1", "--symmetry", "lex"]),
            0
        );
        assert_eq!(runs(&["bench", s, "--solvers", "toy,backtrack"]), 0);
        assert_eq!(
            runs(&[
                "symmetry-report",
                s,
                "--solvers",
                "toy",
                "--symmetry",
                "center"
            ]),
            0
        );
    }

    #[test]
    fn its_option_is_refused_for_another_engine() {
        let seed = seed();
        let cli = Cli::try_parse_from([
            "scramble",
            "solve",
            &seed,
            "--solver",
            "backtrack",
            "--toy-backwards",
        ])
        .unwrap();
        let e = run(cli, StopToken::new()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--toy-backwards applies to --solver toy only"
        );
    }
}

//! Every engine by name: the one list. Each line registers an engine's
//! [`EngineKind`] (in its folder: its name, its own options, how its runs
//! are built, its statistics); the commands that build engines (solve,
//! bench, compare, symmetry-report) take every engine's options through
//! [`EngineArgs`], `--solver` through [`parser`], and build, read back and
//! merge through this module. Adding an engine is its folder and one line
//! of [`ENGINES`].

use std::any::Any;
use std::marker::PhantomData;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{ArgMatches, Command, FromArgMatches};

use crate::puzzle::Puzzle;
use crate::solve::kind::{Build, Built, EngineKind};
use crate::solve::{Engine, Searched, SolveError, SolverStats};

/// The engines, in the order reports and `--help` list them.
static ENGINES: &[&dyn Kind] = &[
    &Registered::<crate::engines::cpsat::kind::Kind>::NEW,
    &Registered::<crate::engines::backtrack::kind::Kind>::NEW,
    &Registered::<crate::engines::sat::kind::Kind>::NEW,
    &Registered::<crate::engines::graph::Kind>::NEW,
    &Registered::<crate::race::Kind>::NEW,
    #[cfg(test)]
    &Registered::<crate::engines::toy::Kind>::NEW,
];

/// An engine's options as one value among the others'.
type Options = Box<dyn Any + Send + Sync>;

/// An [`EngineKind`] behind a pointer: what the list holds.
trait Kind: Sync {
    fn name(&self) -> &'static str;
    fn about(&self) -> &'static str;
    fn compared(&self) -> bool;
    fn reports_symmetry(&self) -> bool;
    fn takes_constraints(&self) -> bool;
    fn augment(&self, cmd: Command) -> Command;
    fn parse(&self, m: &ArgMatches) -> Result<Options, clap::Error>;
    fn given(&self, options: &Options) -> Option<&'static str>;
    fn build(&self, options: &Options, build: &Build) -> Result<Vec<Built>, SolveError>;
    fn covers(&self, puzzle: &Puzzle) -> Option<String>;
    fn searched(&self, text: &str) -> Result<Searched, String>;
    fn merge(&self, all: &[&SolverStats]) -> SolverStats;
}

struct Registered<K>(PhantomData<fn() -> K>);

impl<K> Registered<K> {
    const NEW: Registered<K> = Registered(PhantomData);
}

impl<K: EngineKind> Registered<K> {
    fn own(options: &Options) -> &K::Args {
        options
            .downcast_ref()
            .expect("each engine's options are parsed by its own entry")
    }
}

impl<K: EngineKind> Kind for Registered<K> {
    fn name(&self) -> &'static str {
        K::NAME
    }
    fn about(&self) -> &'static str {
        K::ABOUT
    }
    fn compared(&self) -> bool {
        K::COMPARED
    }
    fn reports_symmetry(&self) -> bool {
        K::REPORTS_SYMMETRY
    }
    fn takes_constraints(&self) -> bool {
        K::TAKES_CONSTRAINTS
    }
    fn augment(&self, cmd: Command) -> Command {
        <K::Args as clap::Args>::augment_args(cmd)
    }
    fn parse(&self, m: &ArgMatches) -> Result<Options, clap::Error> {
        Ok(Box::new(K::Args::from_arg_matches(m)?))
    }
    fn given(&self, options: &Options) -> Option<&'static str> {
        K::given(Self::own(options))
    }
    fn build(&self, options: &Options, build: &Build) -> Result<Vec<Built>, SolveError> {
        K::build(Self::own(options), build)
    }
    fn covers(&self, puzzle: &Puzzle) -> Option<String> {
        K::covers(puzzle)
    }
    fn searched(&self, text: &str) -> Result<Searched, String> {
        K::searched(text)
    }
    fn merge(&self, all: &[&SolverStats]) -> SolverStats {
        SolverStats::of(&K::merge(all.iter().map(|s| s.own()).collect()))
    }
}

/// The entry of `engine`, if it is registered.
fn entry(engine: Engine) -> Option<&'static dyn Kind> {
    ENGINES.iter().copied().find(|k| k.name() == engine.name())
}

/// The engines, in order.
pub fn all() -> impl Iterator<Item = Engine> {
    ENGINES.iter().map(|k| Engine::named(k.name()))
}

/// Whether `compare` runs `engine`: on every puzzle it covers (`None`:
/// on some puzzle).
pub fn compared_on(engine: Engine, puzzle: Option<&Puzzle>) -> bool {
    entry(engine).is_some_and(|k| k.compared() && puzzle.is_none_or(|p| k.covers(p).is_none()))
}

/// Whether `symmetry-report` can run the formulations with `engine`.
pub fn reports_symmetry(engine: Engine) -> bool {
    entry(engine).is_some_and(|k| k.reports_symmetry())
}

/// Whether `engine` adds the user's constraints to its runs.
pub fn takes_constraints(engine: Engine) -> bool {
    entry(engine).is_some_and(|k| k.takes_constraints())
}

/// `--solver NAME`'s parser: the registered names, each with its line of
/// help.
pub fn parser() -> impl TypedValueParser<Value = Engine> {
    PossibleValuesParser::new(
        ENGINES
            .iter()
            .map(|k| PossibleValue::new(k.name()).help(k.about())),
    )
    .map(|name: String| all().find(|e| e.name() == name).expect("a possible value"))
}

/// The engine named `name`, if one is registered.
pub fn named(name: &str) -> Option<Engine> {
    all().find(|e| e.name() == name)
}

/// What a saved report of `engine` names what it searched, read back by
/// its engine.
pub fn read_searched(engine: Engine, text: &str) -> Result<Searched, String> {
    match entry(engine) {
        Some(k) => k.searched(text),
        None => Err(format!("{engine:?} is not a solver of this scramble")),
    }
}

/// Shards' statistics of one engine's runs, joined as its engine says.
pub fn merge_stats(engine: Engine, all: &[&SolverStats]) -> SolverStats {
    match entry(engine) {
        Some(k) => k.merge(all),
        None => SolverStats::default(),
    }
}

/// Every engine's own options, as a command line gave them (flattened
/// into each command that builds engines).
pub struct EngineArgs(Vec<Options>);

impl std::fmt::Debug for EngineArgs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let given: Vec<_> = ENGINES
            .iter()
            .zip(&self.0)
            .filter_map(|(k, o)| k.given(o))
            .collect();
        f.debug_tuple("EngineArgs").field(&given).finish()
    }
}

impl FromArgMatches for EngineArgs {
    fn from_arg_matches(m: &ArgMatches) -> Result<EngineArgs, clap::Error> {
        ENGINES
            .iter()
            .map(|k| k.parse(m))
            .collect::<Result<_, _>>()
            .map(EngineArgs)
    }
    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = EngineArgs::from_arg_matches(m)?;
        Ok(())
    }
}

impl clap::Args for EngineArgs {
    fn augment_args(cmd: Command) -> Command {
        ENGINES.iter().fold(cmd, |c, k| k.augment(c))
    }
    fn augment_args_for_update(cmd: Command) -> Command {
        EngineArgs::augment_args(cmd)
    }
}

impl EngineArgs {
    /// Every engine's options from keywords (a caller in this process, the
    /// Python package): a keyword is an option's long name with `_` for
    /// `-` (`no_restarts`), its values texts (several: a repeated option;
    /// a switch's `true` or `false`). Each engine parses its own by its
    /// own definition, so values are checked as on the command line.
    /// Returns the options and the keywords no engine takes.
    pub fn from_keywords(
        keywords: &[(String, Vec<String>)],
    ) -> Result<(EngineArgs, Vec<String>), String> {
        let mut taken = vec![false; keywords.len()];
        let mut all = Vec::with_capacity(ENGINES.len());
        for k in ENGINES {
            let cmd = k.augment(Command::new(k.name()).no_binary_name(true));
            let mut argv = Vec::new();
            for (i, (name, values)) in keywords.iter().enumerate() {
                let long = name.replace('_', "-");
                let Some(arg) = cmd.get_arguments().find(|a| a.get_long() == Some(&long)) else {
                    continue;
                };
                taken[i] = true;
                let switch = matches!(arg.get_action(), clap::ArgAction::SetTrue);
                for v in values {
                    match (switch, v.as_str()) {
                        (true, "true") => argv.push(format!("--{long}")),
                        (true, "false") => {}
                        (true, _) => return Err(format!("{name}: expected True or False")),
                        (false, _) => argv.extend([format!("--{long}"), v.clone()]),
                    }
                }
            }
            let m = cmd
                .try_get_matches_from(argv)
                .map_err(|e| e.render().to_string().trim().to_string())?;
            all.push(k.parse(&m).map_err(|e| e.to_string())?);
        }
        let left = keywords
            .iter()
            .zip(taken)
            .filter(|(_, t)| !t)
            .map(|((name, _), _)| name.clone())
            .collect();
        Ok((EngineArgs(all), left))
    }

    /// One engine's own options, typed (a command's use of a feature that
    /// is that engine's own, e.g. CP-SAT's models for `--dump-model`).
    pub fn get<A: 'static>(&self) -> Option<&A> {
        self.0.iter().find_map(|o| o.downcast_ref())
    }

    /// The first option given to an engine that is not among `running`,
    /// with that engine's name.
    pub fn misplaced(&self, running: &[Engine]) -> Option<(&'static str, &'static str)> {
        ENGINES
            .iter()
            .zip(&self.0)
            .filter(|(k, _)| !running.iter().any(|e| e.name() == k.name()))
            .find_map(|(k, o)| k.given(o).map(|flag| (flag, k.name())))
    }

    /// `engine`'s runs for these options.
    pub fn build(&self, engine: Engine, build: &Build) -> Result<Vec<Built>, SolveError> {
        let i = ENGINES
            .iter()
            .position(|k| k.name() == engine.name())
            .ok_or_else(|| SolveError::Unsupported(format!("no solver named {engine}")))?;
        ENGINES[i].build(&self.0[i], build)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[arg(long, value_parser = parser(), default_value = "cp-sat")]
        solver: Engine,
        #[command(flatten)]
        engines: EngineArgs,
    }

    #[test]
    fn every_engine_s_options_parse_and_belong_to_it() {
        let cli = Cli::parse_from([
            "x",
            "--solver",
            "sat",
            "--order",
            "row",
            "--encoding",
            "colour",
        ]);
        assert_eq!(cli.solver.name(), "sat");
        let bt: &crate::engines::backtrack::kind::BacktrackArgs = cli.engines.get().unwrap();
        assert_eq!(bt.order, Some(crate::engines::backtrack::Order::Row));
        assert_eq!(
            cli.engines.misplaced(&[cli.solver]),
            Some(("--order", "backtrack"))
        );
        let both = [cli.solver, Engine::named("backtrack")];
        assert_eq!(cli.engines.misplaced(&both), None);
        assert!(Cli::try_parse_from(["x", "--solver", "nope"]).is_err());
    }

    #[test]
    fn keywords_give_the_options_the_command_line_gives() {
        let words = |pairs: &[(&str, &[&str])]| -> Vec<(String, Vec<String>)> {
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.iter().map(|s| s.to_string()).collect()))
                .collect()
        };
        let given = words(&[
            ("model", &["table", "edge"]),
            ("no_restarts", &["true"]),
            ("no_lookahead", &["false"]),
            ("order", &["row"]),
            ("colour", &["red"]),
        ]);
        let (from_words, left) = EngineArgs::from_keywords(&given).unwrap();
        assert_eq!(left, vec!["colour".to_string()]);
        let cli = Cli::parse_from([
            "x",
            "--model",
            "table",
            "--model",
            "edge",
            "--no-restarts",
            "--order",
            "row",
        ]);
        assert_eq!(format!("{from_words:?}"), format!("{:?}", cli.engines));
        let bt: &crate::engines::backtrack::kind::BacktrackArgs = from_words.get().unwrap();
        assert!(bt.no_restarts && !bt.no_lookahead);
        let cp: &crate::engines::cpsat::kind::CpSatArgs = from_words.get().unwrap();
        use crate::model::Choice;
        assert!(cp.models == [Choice::Table, Choice::Edge]);
        // Values are checked by the engine's own definition.
        let bad = EngineArgs::from_keywords(&words(&[("restart_unit", &["0"])])).unwrap_err();
        assert!(bad.contains("restart-unit"), "{bad}");
        let bad = EngineArgs::from_keywords(&words(&[("no_restarts", &["yes"])])).unwrap_err();
        assert!(bad.contains("no_restarts: expected True or False"), "{bad}");
        // Nothing given: every engine's defaults.
        let (none, left) = EngineArgs::from_keywords(&[]).unwrap();
        assert!(left.is_empty());
        assert_eq!(
            format!("{none:?}"),
            format!("{:?}", Cli::parse_from(["x"]).engines)
        );
    }

    #[test]
    fn every_engine_reads_back_what_it_writes_and_no_other_s() {
        let written = [
            ("cp-sat", "edge"),
            ("cp-sat", "edge-boolean+mine.yaml"),
            ("backtrack", "row-up+full-tree"),
            ("backtrack", "spiral"),
            ("sat", "colour-sequential"),
            ("graph", "recording-graph"),
            ("auto", "race"),
        ];
        for (engine, text) in written {
            let e = Engine::named(engine);
            assert_eq!(read_searched(e, text), Ok(Searched::new(text)), "{engine}");
        }
        for (engine, text) in [
            ("cp-sat", "spiral"),
            ("backtrack", "spiral+edge"),
            ("backtrack", ""),
            ("graph", "edge"),
            ("auto", "edge"),
            ("sat", ""),
            ("nope", "edge"),
        ] {
            assert!(
                read_searched(Engine::named(engine), text).is_err(),
                "{engine} {text:?}"
            );
        }
    }
}

//! What an engine's run searched, as its result names it: a CP encoding and
//! the user's constraints, a placement order and the full tree, a SAT
//! encoding. Engines say it ([`Solver::searched`](super::Solver::searched)),
//! results and race entrants carry it, reports print it (`edge+mine.yaml`,
//! `spiral+full-tree`) and a shard's report is read back to it.
//!
//! The core layer cannot name the engines' own option types, so the
//! backtracker's order and the SAT engine's encoding are kept by the names
//! those types give them; the engine tells the variants apart.

use std::cmp::Ordering;
use std::fmt;

use crate::model::Choice;

use super::{Engine, Turns};

/// What a run searched.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Searched {
    /// CP-SAT's model: its encoding, and the label of the user's
    /// constraints file appended to it (`--constraints`).
    Cp {
        encoding: Choice,
        constraints: Option<String>,
    },
    /// The backtracker: its placement order (by name, e.g. `spiral`), and
    /// whether it walked every board turn of each solution (`--full-tree`).
    Backtrack { order: String, turns: Turns },
    /// The SAT engine: its encoding (by name, e.g. `colour-sequential`).
    Sat { encoding: String },
    /// The recording graph of 2x2 boards.
    Graph,
    /// A race in which no engine has answered.
    Race,
}

/// The suffix of a backtracker's full-tree run.
const FULL_TREE: &str = "+full-tree";

impl Searched {
    /// Whether the model carries constraints of the user's, which may
    /// remove solutions as a symmetry breaking does.
    pub fn has_user_constraints(&self) -> bool {
        matches!(
            self,
            Searched::Cp {
                constraints: Some(_),
                ..
            }
        )
    }

    /// What `engine`'s report names `text` (as [`Searched`]'s `Display`
    /// writes it), read back from a saved report.
    pub fn read(engine: Engine, text: &str) -> Result<Searched, String> {
        let bad = || format!("{text:?} is not a model of the {engine} solver");
        match engine {
            Engine::CpSat => {
                let (name, constraints) = match text.split_once('+') {
                    Some((name, label)) => (name, Some(label.to_string())),
                    None => (text, None),
                };
                Ok(Searched::Cp {
                    encoding: name.parse()?,
                    constraints,
                })
            }
            Engine::Backtrack => {
                let (order, turns) = match text.strip_suffix(FULL_TREE) {
                    Some(order) => (order, Turns::Full),
                    None => (text, Turns::Reduce),
                };
                match order.is_empty() || order.contains('+') {
                    true => Err(bad()),
                    false => Ok(Searched::Backtrack {
                        order: order.to_string(),
                        turns,
                    }),
                }
            }
            Engine::Sat if !text.is_empty() && !text.contains('+') => Ok(Searched::Sat {
                encoding: text.to_string(),
            }),
            Engine::Graph if text == "recording-graph" => Ok(Searched::Graph),
            Engine::Auto if text == "race" => Ok(Searched::Race),
            _ => Err(bad()),
        }
    }
}

impl fmt::Display for Searched {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Searched::Cp {
                encoding,
                constraints,
            } => match constraints {
                Some(label) => write!(f, "{}+{label}", encoding.name()),
                None => f.write_str(encoding.name()),
            },
            Searched::Backtrack { order, turns } => match turns {
                Turns::Full => write!(f, "{order}{FULL_TREE}"),
                Turns::Reduce => f.write_str(order),
            },
            Searched::Sat { encoding } => f.write_str(encoding),
            Searched::Graph => f.write_str("recording-graph"),
            Searched::Race => f.write_str("race"),
        }
    }
}

/// Reports list runs in the order of these names.
impl Ord for Searched {
    fn cmp(&self, other: &Searched) -> Ordering {
        self.to_string().cmp(&other.to_string())
    }
}

impl PartialOrd for Searched {
    fn partial_cmp(&self, other: &Searched) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl serde::Serialize for Searched {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_reads_back_what_it_writes() {
        let all = [
            (
                Engine::CpSat,
                Searched::Cp {
                    encoding: Choice::Edge,
                    constraints: None,
                },
            ),
            (
                Engine::CpSat,
                Searched::Cp {
                    encoding: Choice::EdgeBoolean,
                    constraints: Some("mine.yaml".into()),
                },
            ),
            (
                Engine::Backtrack,
                Searched::Backtrack {
                    order: "row-up".into(),
                    turns: Turns::Full,
                },
            ),
            (
                Engine::Backtrack,
                Searched::Backtrack {
                    order: "spiral".into(),
                    turns: Turns::Reduce,
                },
            ),
            (
                Engine::Sat,
                Searched::Sat {
                    encoding: "colour-sequential".into(),
                },
            ),
            (Engine::Graph, Searched::Graph),
            (Engine::Auto, Searched::Race),
        ];
        for (engine, s) in all {
            assert_eq!(Searched::read(engine, &s.to_string()), Ok(s));
        }
        let written: Vec<String> = [
            Searched::Cp {
                encoding: Choice::Table,
                constraints: Some("c.yaml".into()),
            },
            Searched::Backtrack {
                order: "frame".into(),
                turns: Turns::Full,
            },
        ]
        .iter()
        .map(ToString::to_string)
        .collect();
        assert_eq!(written, ["table+c.yaml", "frame+full-tree"]);
    }

    #[test]
    fn a_model_of_another_engine_is_refused() {
        for (engine, text) in [
            (Engine::CpSat, "spiral"),
            (Engine::Backtrack, "spiral+edge"),
            (Engine::Backtrack, ""),
            (Engine::Graph, "edge"),
            (Engine::Auto, "edge"),
            (Engine::Sat, ""),
        ] {
            assert!(Searched::read(engine, text).is_err(), "{engine} {text:?}");
        }
    }

    #[test]
    fn only_a_constraints_file_is_the_users() {
        let cp = |c: Option<&str>| Searched::Cp {
            encoding: Choice::Edge,
            constraints: c.map(String::from),
        };
        assert!(cp(Some("c.yaml")).has_user_constraints());
        assert!(!cp(None).has_user_constraints());
        assert!(!Searched::Graph.has_user_constraints());
    }

    #[test]
    fn runs_sort_by_their_names() {
        let mut v = [
            Searched::Sat {
                encoding: "support".into(),
            },
            Searched::Cp {
                encoding: Choice::Table,
                constraints: None,
            },
            Searched::Backtrack {
                order: "row".into(),
                turns: Turns::Reduce,
            },
        ];
        v.sort();
        let names: Vec<String> = v.iter().map(ToString::to_string).collect();
        assert_eq!(names, ["row", "support", "table"]);
    }
}

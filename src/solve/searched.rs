//! What an engine's run searched, as its result names it: a CP encoding and
//! the user's constraints (`edge+mine.yaml`), a placement order and the
//! full tree (`spiral+full-tree`), a SAT encoding (`colour-sequential`).
//! Engines say it ([`Solver::searched`](super::Solver::searched)), results
//! and race entrants carry it, reports print it and sort runs by it. The
//! words are the engine's own: a saved report's is read back by its engine
//! (`EngineKind::searched`, through `crate::registry`), which refuses a
//! name it does not write.

use serde::{Deserialize, Serialize};

/// What a run searched, by the name its engine gives it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Searched(String);

impl Searched {
    /// The name an engine gives what it searched.
    pub fn new(name: impl Into<String>) -> Searched {
        Searched(name.into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for Searched {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_sort_by_their_names() {
        let mut v = [
            Searched::new("support"),
            Searched::new("table"),
            Searched::new("row"),
        ];
        v.sort();
        let names: Vec<String> = v.iter().map(ToString::to_string).collect();
        assert_eq!(names, ["row", "support", "table"]);
        assert_eq!(serde_json::to_string(&v[0]).unwrap(), r#""row""#);
    }
}

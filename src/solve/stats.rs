//! What a backend reports of its effort, and of each engine of a race.
//!
//! Each engine keeps its counters in a typed struct of its own and hands
//! them over as [`SolverStats::of`]: the fields it serialised, in its own
//! order, which the report writes as they are and a saved report reads back
//! as they were. The core names no engine's counter; a report that sets
//! engines side by side reads a counter by its name ([`SolverStats::count`]),
//! an engine (or a study built on one) reads its own struct back
//! ([`SolverStats::own`]).

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Engine, Searched};

/// Statistics a backend reports: its own fields, and a race's entrants.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SolverStats {
    /// The engine's own counters, as it serialised them.
    #[serde(flatten)]
    own: Fields,
    /// `--solver auto`: every engine that ran, and how it ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub race: Option<Vec<Entrant>>,
}

impl SolverStats {
    /// An engine's counters: the fields `own` serialises to (an object;
    /// `None` fields skipped as it says).
    pub fn of<T: Serialize>(own: &T) -> SolverStats {
        // Through the text, which keeps the struct's field order (a
        // `Value`'s map would sort them).
        let own = serde_json::to_string(own)
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_default();
        SolverStats { own, race: None }
    }

    /// The engine's counters read back as its own struct (fields it does
    /// not know, or of the wrong kind, are left at their defaults).
    pub fn own<T: DeserializeOwned + Default>(&self) -> T {
        let map: serde_json::Map<String, Value> = self.own.0.iter().cloned().collect();
        serde_json::from_value(Value::Object(map)).unwrap_or_default()
    }

    /// The counters changed by `f`, on the engine's own struct.
    pub fn update<T: Serialize + DeserializeOwned + Default>(&mut self, f: impl FnOnce(&mut T)) {
        let mut own: T = self.own();
        f(&mut own);
        self.own = SolverStats::of(&own).own;
    }

    /// A whole-number counter by its name (`nodes`, `branches`,
    /// `conflicts`, `memory_limit_mb`, ...), for reports that set engines
    /// side by side.
    pub fn count(&self, name: &str) -> Option<u64> {
        self.field(name).and_then(Value::as_u64)
    }

    /// A counter's value by its name.
    pub fn field(&self, name: &str) -> Option<&Value> {
        self.own.0.iter().find(|(k, _)| k == name).map(|(_, v)| v)
    }
}

/// An engine's fields in the order it wrote them.
#[derive(Clone, Debug, Default, PartialEq)]
struct Fields(Vec<(String, Value)>);

impl Serialize for Fields {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

impl<'de> Deserialize<'de> for Fields {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Fields, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Fields;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an engine's statistics")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut m: A) -> Result<Fields, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = m.next_entry::<String, Value>()? {
                    out.push((k, v));
                }
                Ok(Fields(out))
            }
        }
        d.deserialize_map(Visit)
    }
}

/// How an entrant of a race ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ended {
    /// Its board came first.
    Won,
    /// The race was decided by another entrant and this one stopped.
    Stopped,
    /// Chosen alone for a complete run.
    Chosen,
    /// The race was decided (or stopped) in the head start.
    NotStarted,
    /// It raised an error.
    Failed(String),
}

impl std::fmt::Display for Ended {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ended::Won => f.write_str("won"),
            Ended::Stopped => f.write_str("stopped"),
            Ended::Chosen => f.write_str("chosen for a complete run"),
            Ended::NotStarted => f.write_str("not started (the race ended within the head start)"),
            Ended::Failed(why) => write!(f, "failed: {why}"),
        }
    }
}

impl std::str::FromStr for Ended {
    type Err = String;
    fn from_str(s: &str) -> Result<Ended, String> {
        Ok(match s {
            "won" => Ended::Won,
            "stopped" => Ended::Stopped,
            "chosen for a complete run" => Ended::Chosen,
            _ if s.starts_with("not started") => Ended::NotStarted,
            _ => match s.strip_prefix("failed: ") {
                Some(why) => Ended::Failed(why.to_string()),
                None => return Err(format!("{s:?} is not how a race entrant ends")),
            },
        })
    }
}

impl Serialize for Ended {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Ended {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Ended, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

/// One engine of a `--solver auto` run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entrant {
    pub engine: Engine,
    pub model: Searched,
    pub ended: Ended,
    pub wall_time_s: f64,
    pub stats: SolverStats,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default, Debug, PartialEq, Serialize, Deserialize)]
    struct Mine {
        #[serde(skip_serializing_if = "Option::is_none")]
        zeta: Option<u64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        alpha: Option<f64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        per_depth: Option<Vec<u64>>,
    }

    #[test]
    fn an_engine_s_fields_keep_their_order_and_read_back() {
        let mine = Mine {
            zeta: Some(7),
            alpha: Some(0.5),
            per_depth: None,
        };
        let stats = SolverStats::of(&mine);
        let text = serde_json::to_string(&stats).unwrap();
        assert_eq!(text, r#"{"zeta":7,"alpha":0.5}"#);
        let back: SolverStats = serde_json::from_str(&text).unwrap();
        assert_eq!(back, stats);
        assert_eq!(back.own::<Mine>(), mine);
        assert_eq!(back.count("zeta"), Some(7));
        assert_eq!(back.count("alpha"), None);
        let mut changed = back;
        changed.update(|m: &mut Mine| m.per_depth = Some(vec![1, 2]));
        assert_eq!(
            serde_json::to_string(&changed).unwrap(),
            r#"{"zeta":7,"alpha":0.5,"per_depth":[1,2]}"#
        );
    }

    #[test]
    fn an_entrant_s_end_reads_back() {
        for e in [
            Ended::Won,
            Ended::Stopped,
            Ended::Chosen,
            Ended::NotStarted,
            Ended::Failed("no".into()),
        ] {
            assert_eq!(e.to_string().parse::<Ended>(), Ok(e));
        }
        assert!("lost".parse::<Ended>().is_err());
    }
}

//! Reading the puzzle YAML through serde: one seeded visitor ([`Read`])
//! runs a [`Node`] reader for the map, each id, tile, edge, motif and half.
//! A check fails inside the visitor of the node it is about, so
//! serde_yaml's error carries that node's line and column; the typed
//! [`Problem`] is left in a cell beside it (serde's error type only takes
//! text), and [`Problem::at`] makes the [`PuzzleError`].

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::fmt;
use std::path::PathBuf;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::puzzle::{Half, PuzzleError};

/// What is wrong, and where in the file's structure.
#[derive(Debug)]
pub(super) enum Problem {
    NotAMap {
        found: String,
    },
    BadId {
        id: String,
    },
    DuplicateId {
        id: i64,
    },
    EdgeCount {
        id: i64,
        found: String,
    },
    BadEdge {
        id: i64,
        edge: usize,
        found: String,
    },
    UnknownHalf {
        id: i64,
        edge: usize,
        half: String,
    },
    /// A rule key (`rows`, `cols`, `frame`, `turns`, `hints`) with a bad value.
    Rule {
        message: String,
    },
}

impl Problem {
    /// The error for this problem in file `path` at `place` (line, column).
    pub(super) fn at(self, path: PathBuf, place: Option<(usize, usize)>) -> PuzzleError {
        match self {
            Problem::NotAMap { found } => PuzzleError::NotAMap { path, found },
            Problem::BadId { id } => PuzzleError::BadId { path, id, place },
            Problem::DuplicateId { id } => PuzzleError::DuplicateId { path, id, place },
            Problem::EdgeCount { id, found } => PuzzleError::EdgeCount {
                path,
                id,
                found,
                place,
            },
            Problem::BadEdge { id, edge, found } => PuzzleError::BadEdge {
                path,
                id,
                edge,
                found,
                place,
            },
            Problem::UnknownHalf { id, edge, half } => PuzzleError::UnknownHalf {
                path,
                id,
                edge,
                half,
                place,
            },
            Problem::Rule { message } => PuzzleError::Rule {
                path,
                line: place.map(|p| p.0),
                message,
            },
        }
    }
}

/// A tile's four edges as read: (motif name, half).
pub(super) type RawTile = [(String, Half); 4];

/// Leave `p` in the cell and fail (the message is for serde_yaml only).
fn fail<E: de::Error, T>(cell: &RefCell<Option<Problem>>, p: Problem) -> Result<T, E> {
    let message = format!("{p:?}");
    *cell.borrow_mut() = Some(p);
    Err(E::custom(message))
}

/// A node as its reader met it, when it is not a container the reader
/// reads itself: its own text (a scalar's text; for anything else, its
/// description), whether it was a string or a number, whether it was a
/// number, and how a person would name it ("the number 7", "a list of 3
/// items").
struct Seen {
    text: String,
    textual: bool,
    number: bool,
    described: String,
}

impl Seen {
    /// A node named by its description alone (a list, a map, a tag).
    fn described(d: String) -> Seen {
        Seen {
            text: d.clone(),
            textual: false,
            number: false,
            described: d,
        }
    }
}

/// A reader of one YAML node. Lists, maps and empty nodes it does not read
/// itself, and every scalar, go to [`Node::seen`].
trait Node: Sized {
    type Out;
    fn seen<E: de::Error>(self, s: Seen) -> Result<Self::Out, E>;
    fn list<'de, A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Out, A::Error> {
        let mut n = 0;
        while seq.next_element::<IgnoredAny>()?.is_some() {
            n += 1;
        }
        self.seen(Seen::described(format!("a list of {n} items")))
    }
    fn map<'de, A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Out, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        self.seen(Seen::described("a map".into()))
    }
    /// `~`, or an empty document.
    fn empty<E: de::Error>(self) -> Result<Self::Out, E> {
        self.seen(Seen {
            text: "~".into(),
            textual: false,
            number: false,
            described: "nothing".into(),
        })
    }
}

/// The seed and visitor that run a [`Node`] reader on a node.
struct Read<N>(N);

impl<'de, N: Node> DeserializeSeed<'de> for Read<N> {
    type Value = N::Out;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<N::Out, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, N: Node> Visitor<'de> for Read<N> {
    type Value = N::Out;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a puzzle: a map of tile id -> 4 edges of [motif, half]")
    }
    fn visit_unit<E: de::Error>(self) -> Result<N::Out, E> {
        self.0.empty()
    }
    fn visit_none<E: de::Error>(self) -> Result<N::Out, E> {
        self.0.empty()
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<N::Out, E> {
        self.0.seen(Seen {
            text: v.to_string(),
            textual: false,
            number: false,
            described: format!("the boolean {v}"),
        })
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<N::Out, E> {
        self.number(v.to_string())
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<N::Out, E> {
        self.number(v.to_string())
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<N::Out, E> {
        // As YAML wrote it: `1.0` stays a float (not the id 1).
        self.number(format!("{v:?}"))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<N::Out, E> {
        self.0.seen(Seen {
            text: v.to_string(),
            textual: true,
            number: false,
            described: format!("the string {v:?}"),
        })
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<N::Out, A::Error> {
        self.0.list(seq)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<N::Out, A::Error> {
        self.0.map(map)
    }
    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<N::Out, A::Error> {
        let (IgnoredAny, v) = data.variant::<IgnoredAny>()?;
        de::VariantAccess::newtype_variant::<IgnoredAny>(v)?;
        self.0.seen(Seen::described("a tagged value".into()))
    }
}

impl<N: Node> Read<N> {
    fn number<E: de::Error>(self, text: String) -> Result<N::Out, E> {
        self.0.seen(Seen {
            described: format!("the number {text}"),
            text,
            textual: true,
            number: true,
        })
    }
}

/// A motif: the text of a string or a number (never fails; the edge judges
/// anything else).
enum Scalar {
    Text(String),
    Other(String),
}

struct Motif;

impl Node for Motif {
    type Out = Scalar;
    fn seen<E: de::Error>(self, s: Seen) -> Result<Scalar, E> {
        Ok(if s.textual {
            Scalar::Text(s.text)
        } else {
            Scalar::Other(s.text)
        })
    }
}

/// A fixed piece as the file gives it: a tile, its cell `[i, j]` (1-based,
/// row from the top) and its rotation (counterclockwise quarter turns).
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct HintSpec {
    pub(super) tile: i64,
    pub(super) cell: (usize, usize),
    pub(super) rotation: u8,
}

/// What a file says: its tiles in file order, and the optional rule keys.
#[derive(Debug, Default)]
pub(super) struct Doc {
    pub(super) tiles: Vec<(i64, RawTile)>,
    pub(super) rows: Option<usize>,
    pub(super) cols: Option<usize>,
    pub(super) frame: Option<String>,
    pub(super) turns: Option<crate::puzzle::Turning>,
    pub(super) hints: Vec<HintSpec>,
}

/// The rule keys a file may hold beside its tiles.
const RULE_KEYS: [&str; 5] = ["rows", "cols", "frame", "turns", "hints"];

/// Read the whole file: a map of tile id -> four edges, in file order, and
/// the rule keys.
pub(super) fn doc<'de, D: de::Deserializer<'de>>(
    problem: &RefCell<Option<Problem>>,
    d: D,
) -> Result<Doc, D::Error> {
    Read(DocSeed { problem }).deserialize(d)
}

struct DocSeed<'a> {
    problem: &'a RefCell<Option<Problem>>,
}

impl Node for DocSeed<'_> {
    type Out = Doc;
    fn seen<E: de::Error>(self, s: Seen) -> Result<Self::Out, E> {
        fail(self.problem, Problem::NotAMap { found: s.described })
    }
    /// An empty document, or one of comments only: no tiles.
    fn empty<E: de::Error>(self) -> Result<Self::Out, E> {
        Ok(Doc::default())
    }
    fn map<'de, A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Out, A::Error> {
        let mut seen = BTreeSet::new();
        let mut out = Doc::default();
        while let Some(key) = map.next_key_seed(Read(Id {
            problem: self.problem,
            seen: &mut seen,
        }))? {
            match key {
                Key::Tile(id) => {
                    let tile = map.next_value_seed(Read(TileSeed {
                        problem: self.problem,
                        id,
                    }))?;
                    out.tiles.push((id, tile));
                }
                Key::Rule(name) => {
                    let size = |v: usize| {
                        if v == 0 {
                            fail(
                                self.problem,
                                Problem::Rule {
                                    message: format!(
                                        "{name}: a board needs at least one {}",
                                        if name == "rows" { "row" } else { "column" }
                                    ),
                                },
                            )
                        } else {
                            Ok(Some(v))
                        }
                    };
                    match name {
                        "rows" => out.rows = size(map.next_value::<usize>()?)?,
                        "cols" => out.cols = size(map.next_value::<usize>()?)?,
                        "frame" => {
                            out.frame = Some(match map.next_value_seed(Read(Motif))? {
                                Scalar::Text(t) => t,
                                Scalar::Other(found) => fail(
                                    self.problem,
                                    Problem::Rule {
                                        message: format!(
                                            "frame: expected a motif name, found {found}"
                                        ),
                                    },
                                )?,
                            })
                        }
                        "turns" => {
                            let t = map.next_value::<String>()?;
                            out.turns = Some(match t.as_str() {
                                "quarter" => crate::puzzle::Turning::Quarter,
                                "none" => crate::puzzle::Turning::None,
                                _ => fail(
                                    self.problem,
                                    Problem::Rule {
                                        message: format!(
                                            "turns: expected \"quarter\" or \"none\", found {t:?}"
                                        ),
                                    },
                                )?,
                            })
                        }
                        _ => out.hints = map.next_value::<Vec<HintSpec>>()?,
                    }
                }
            }
        }
        Ok(out)
    }
}

/// A key of the top-level map: a tile id, or a rule key.
enum Key {
    Tile(i64),
    Rule(&'static str),
}

/// A tile id (an integer not seen before) or a rule key not seen before.
struct Id<'a> {
    problem: &'a RefCell<Option<Problem>>,
    seen: &'a mut BTreeSet<i64>,
}

impl Node for Id<'_> {
    type Out = Key;
    fn seen<E: de::Error>(self, s: Seen) -> Result<Key, E> {
        let key = s.text;
        if !s.number
            && let Some(&name) = RULE_KEYS.iter().find(|&&k| k == key)
        {
            // Each rule key is marked seen as one of the smallest i64s (no
            // tile id a person writes).
            let mark = RULE_KEYS.iter().position(|&k| k == name).unwrap_or(0) as i64;
            if !self.seen.insert(i64::MIN + mark) {
                return fail(
                    self.problem,
                    Problem::Rule {
                        message: format!("{name} is given twice"),
                    },
                );
            }
            return Ok(Key::Rule(name));
        }
        // Integer numbers only: YAML's 1.5 or 1e3, and a quoted '12', are
        // not ids.
        match key.parse::<i64>().ok().filter(|_| s.number) {
            None => fail(self.problem, Problem::BadId { id: key }),
            Some(id) if !self.seen.insert(id) => fail(self.problem, Problem::DuplicateId { id }),
            Some(id) => Ok(Key::Tile(id)),
        }
    }
}

/// A tile's value: a list of exactly four edges.
struct TileSeed<'a> {
    problem: &'a RefCell<Option<Problem>>,
    id: i64,
}

impl Node for TileSeed<'_> {
    type Out = RawTile;
    fn list<'de, A: SeqAccess<'de>>(self, mut seq: A) -> Result<RawTile, A::Error> {
        let mut edges = Vec::with_capacity(4);
        let mut count = 0;
        while count < 4 {
            let next = seq.next_element_seed(Read(EdgeSeed {
                problem: self.problem,
                id: self.id,
                edge: count + 1,
            }))?;
            let Some(edge) = next else { break };
            edges.push(edge);
            count += 1;
        }
        while seq.next_element::<IgnoredAny>()?.is_some() {
            count += 1;
        }
        match <RawTile>::try_from(edges) {
            Ok(tile) if count == 4 => Ok(tile),
            _ => self.seen(Seen::described(format!("{count} edges"))),
        }
    }
    fn seen<E: de::Error>(self, s: Seen) -> Result<RawTile, E> {
        let (id, found) = (self.id, s.described);
        fail(self.problem, Problem::EdgeCount { id, found })
    }
}

/// One edge: `[motif, half]`.
struct EdgeSeed<'a> {
    problem: &'a RefCell<Option<Problem>>,
    id: i64,
    /// 1-based: right, top, left, bottom.
    edge: usize,
}

impl Node for EdgeSeed<'_> {
    type Out = (String, Half);
    fn list<'de, A: SeqAccess<'de>>(self, mut seq: A) -> Result<(String, Half), A::Error> {
        let motif = seq.next_element_seed(Read(Motif))?;
        let half = match motif {
            Some(_) => seq.next_element_seed(Read(HalfSeed {
                problem: self.problem,
                id: self.id,
                edge: self.edge,
            }))?,
            None => None,
        };
        let mut count = usize::from(motif.is_some()) + usize::from(half.is_some());
        while seq.next_element::<IgnoredAny>()?.is_some() {
            count += 1;
        }
        let found = match (motif, half) {
            (Some(Scalar::Text(m)), Some(h)) if count == 2 => return Ok((m, h)),
            (Some(Scalar::Other(found)), _) if count == 2 => format!("motif {found}"),
            _ => format!("a list of {count} items"),
        };
        self.seen(Seen::described(found))
    }
    fn seen<E: de::Error>(self, s: Seen) -> Result<(String, Half), E> {
        let (id, edge, found) = (self.id, self.edge, s.described);
        fail(self.problem, Problem::BadEdge { id, edge, found })
    }
}

/// A half: `+`, `-` or `=`.
struct HalfSeed<'a> {
    problem: &'a RefCell<Option<Problem>>,
    id: i64,
    edge: usize,
}

impl Node for HalfSeed<'_> {
    type Out = Half;
    fn seen<E: de::Error>(self, s: Seen) -> Result<Half, E> {
        match Half::parse(&s.text) {
            Some(h) => Ok(h),
            None => fail(
                self.problem,
                Problem::UnknownHalf {
                    id: self.id,
                    edge: self.edge,
                    half: s.text,
                },
            ),
        }
    }
}

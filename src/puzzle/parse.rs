//! The puzzle file through serde: seeded visitors for the map, each tile and
//! each edge. A check fails inside the visitor of the node it is about, so
//! serde_yaml's error carries that node's line and column; the typed
//! [`Problem`] is left in a cell beside it (serde's error type only takes
//! text), and [`Problem::at`] makes the [`PuzzleError`].

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::fmt;
use std::path::PathBuf;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::{Half, PuzzleError};

/// What is wrong, and where in the file's structure.
#[derive(Debug)]
pub(super) enum Problem {
    NotAMap { found: String },
    BadId { id: String },
    DuplicateId { id: i64 },
    EdgeCount { id: i64, found: String },
    BadEdge { id: i64, edge: usize, found: String },
    UnknownHalf { id: i64, edge: usize, half: String },
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

/// A YAML node as a person would name it, for "found ...".
struct Found(String);

impl<'de> de::Deserialize<'de> for Found {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Found, D::Error> {
        d.deserialize_any(FoundVisitor)
    }
}

struct FoundVisitor;

impl<'de> Visitor<'de> for FoundVisitor {
    type Value = Found;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any YAML node")
    }
    fn visit_unit<E>(self) -> Result<Found, E> {
        Ok(Found("nothing".into()))
    }
    fn visit_bool<E>(self, v: bool) -> Result<Found, E> {
        Ok(Found(format!("the boolean {v}")))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Found, E> {
        Ok(Found(format!("the number {v}")))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Found, E> {
        Ok(Found(format!("the number {v}")))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Found, E> {
        Ok(Found(format!("the number {v}")))
    }
    fn visit_str<E>(self, v: &str) -> Result<Found, E> {
        Ok(Found(format!("the string {v:?}")))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Found, A::Error> {
        let mut n = 0;
        while seq.next_element::<IgnoredAny>()?.is_some() {
            n += 1;
        }
        Ok(Found(format!("a list of {n} items")))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Found, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Found("a map".into()))
    }
    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<Found, A::Error> {
        let (IgnoredAny, v) = data.variant::<IgnoredAny>()?;
        de::VariantAccess::newtype_variant::<IgnoredAny>(v)?;
        Ok(Found("a tagged value".into()))
    }
}

/// A scalar as its text (a motif name or a half), or what it is instead.
enum Scalar {
    Text(String),
    Other(String),
}

/// Checks a scalar inside its own visitor, so an error carries the
/// scalar's line and column.
trait Check: Sized {
    type Out;
    fn check<E: de::Error>(self, s: Scalar) -> Result<Self::Out, E>;
}

/// A visitor that hands any node to a [`Check`] as a [`Scalar`].
struct Checked<C>(C);

impl<'de, C: Check> Visitor<'de> for Checked<C> {
    type Value = C::Out;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a scalar")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<C::Out, E> {
        self.0.check(Scalar::Text(v.to_string()))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<C::Out, E> {
        self.0.check(Scalar::Text(v.to_string()))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<C::Out, E> {
        self.0.check(Scalar::Text(v.to_string()))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<C::Out, E> {
        self.0.check(Scalar::Text(v.to_string()))
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<C::Out, E> {
        self.0.check(Scalar::Other(v.to_string()))
    }
    fn visit_unit<E: de::Error>(self) -> Result<C::Out, E> {
        self.0.check(Scalar::Other("~".into()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<C::Out, A::Error> {
        let found = FoundVisitor.visit_seq(seq)?;
        self.0.check(Scalar::Other(found.0))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<C::Out, A::Error> {
        let found = FoundVisitor.visit_map(map)?;
        self.0.check(Scalar::Other(found.0))
    }
    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<C::Out, A::Error> {
        let found = FoundVisitor.visit_enum(data)?;
        self.0.check(Scalar::Other(found.0))
    }
}

/// A motif: any scalar's text (never fails; the edge judges the rest).
struct Motif;

impl Check for Motif {
    type Out = Scalar;
    fn check<E: de::Error>(self, s: Scalar) -> Result<Scalar, E> {
        Ok(s)
    }
}

impl<'de> DeserializeSeed<'de> for Motif {
    type Value = Scalar;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Scalar, D::Error> {
        d.deserialize_any(Checked(self))
    }
}

/// A node that must be a list: the list goes to [`ListOnly::list`], any
/// other node, named as a person would, to [`ListOnly::other`] (inside
/// this node's visitor, so an error carries its place).
trait ListOnly: Sized {
    type Out;
    fn list<'de, A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Out, A::Error>;
    fn other<E: de::Error>(self, found: String) -> Result<Self::Out, E>;
}

/// The visitor of a [`ListOnly`] node.
struct Listed<L>(L);

impl<'de, L: ListOnly> Visitor<'de> for Listed<L> {
    type Value = L::Out;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<L::Out, A::Error> {
        self.0.list(seq)
    }
    fn visit_unit<E: de::Error>(self) -> Result<L::Out, E> {
        self.0.other(FoundVisitor.visit_unit::<E>()?.0)
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<L::Out, E> {
        self.0.other(FoundVisitor.visit_bool::<E>(v)?.0)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<L::Out, E> {
        self.0.other(FoundVisitor.visit_i64::<E>(v)?.0)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<L::Out, E> {
        self.0.other(FoundVisitor.visit_u64::<E>(v)?.0)
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<L::Out, E> {
        self.0.other(FoundVisitor.visit_f64::<E>(v)?.0)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<L::Out, E> {
        self.0.other(FoundVisitor.visit_str::<E>(v)?.0)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<L::Out, A::Error> {
        let found = FoundVisitor.visit_map(map)?;
        self.0.other(found.0)
    }
    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<L::Out, A::Error> {
        let found = FoundVisitor.visit_enum(data)?;
        self.0.other(found.0)
    }
}

/// The whole file: a map of tile id -> four edges, in file order.
pub(super) struct Doc<'a> {
    pub problem: &'a RefCell<Option<Problem>>,
}

impl<'de> DeserializeSeed<'de> for Doc<'_> {
    type Value = Vec<(i64, RawTile)>;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Doc<'_> {
    type Value = Vec<(i64, RawTile)>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a map of tile id -> 4 edges")
    }
    /// An empty document, or one of comments only.
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(vec![])
    }
    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(vec![])
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        while let Some(id) = map.next_key_seed(Id {
            problem: self.problem,
            seen: &mut seen,
        })? {
            let tile = map.next_value_seed(TileSeed {
                problem: self.problem,
                id,
            })?;
            out.push((id, tile));
        }
        Ok(out)
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
        self.not_a_map(FoundVisitor.visit_bool::<E>(v)?)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        self.not_a_map(FoundVisitor.visit_i64::<E>(v)?)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        self.not_a_map(FoundVisitor.visit_u64::<E>(v)?)
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        self.not_a_map(FoundVisitor.visit_f64::<E>(v)?)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        self.not_a_map(FoundVisitor.visit_str::<E>(v)?)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        let found = FoundVisitor.visit_seq(seq)?;
        self.not_a_map(found)
    }
    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<Self::Value, A::Error> {
        let found = FoundVisitor.visit_enum(data)?;
        self.not_a_map(found)
    }
}

impl Doc<'_> {
    fn not_a_map<E: de::Error>(&self, found: Found) -> Result<Vec<(i64, RawTile)>, E> {
        fail(self.problem, Problem::NotAMap { found: found.0 })
    }
}

/// A tile id: an integer not seen before.
struct Id<'a> {
    problem: &'a RefCell<Option<Problem>>,
    seen: &'a mut BTreeSet<i64>,
}

impl<'de> DeserializeSeed<'de> for Id<'_> {
    type Value = i64;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<i64, D::Error> {
        d.deserialize_any(Checked(self))
    }
}

impl Check for Id<'_> {
    type Out = i64;
    fn check<E: de::Error>(self, s: Scalar) -> Result<i64, E> {
        let (Scalar::Text(key) | Scalar::Other(key)) = s;
        // Integers only: YAML's 1.5 or 1e3 are not ids.
        match key.parse::<i64>().ok().filter(|_| !key.starts_with('+')) {
            None => fail(self.problem, Problem::BadId { id: key }),
            Some(id) if !self.seen.insert(id) => fail(self.problem, Problem::DuplicateId { id }),
            Some(id) => Ok(id),
        }
    }
}

/// A tile's value: a list of exactly four edges.
struct TileSeed<'a> {
    problem: &'a RefCell<Option<Problem>>,
    id: i64,
}

impl<'de> DeserializeSeed<'de> for TileSeed<'_> {
    type Value = RawTile;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<RawTile, D::Error> {
        d.deserialize_any(Listed(self))
    }
}

impl ListOnly for TileSeed<'_> {
    type Out = RawTile;
    fn list<'de, A: SeqAccess<'de>>(self, mut seq: A) -> Result<RawTile, A::Error> {
        let mut edges = Vec::with_capacity(4);
        let mut count = 0;
        while count < 4 {
            let next = seq.next_element_seed(EdgeSeed {
                problem: self.problem,
                id: self.id,
                edge: count + 1,
            })?;
            let Some(edge) = next else { break };
            edges.push(edge);
            count += 1;
        }
        while seq.next_element::<IgnoredAny>()?.is_some() {
            count += 1;
        }
        match <RawTile>::try_from(edges) {
            Ok(tile) if count == 4 => Ok(tile),
            _ => self.other(format!("{count} edges")),
        }
    }
    fn other<E: de::Error>(self, found: String) -> Result<RawTile, E> {
        fail(self.problem, Problem::EdgeCount { id: self.id, found })
    }
}

/// One edge: `[motif, half]`.
struct EdgeSeed<'a> {
    problem: &'a RefCell<Option<Problem>>,
    id: i64,
    /// 1-based: right, top, left, bottom.
    edge: usize,
}

impl<'de> DeserializeSeed<'de> for EdgeSeed<'_> {
    type Value = (String, Half);
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(String, Half), D::Error> {
        d.deserialize_any(Listed(self))
    }
}

impl ListOnly for EdgeSeed<'_> {
    type Out = (String, Half);
    fn list<'de, A: SeqAccess<'de>>(self, mut seq: A) -> Result<(String, Half), A::Error> {
        let motif = seq.next_element_seed(Motif)?;
        let half = match motif {
            Some(_) => seq.next_element_seed(HalfSeed {
                problem: self.problem,
                id: self.id,
                edge: self.edge,
            })?,
            None => None,
        };
        let mut count = usize::from(motif.is_some()) + usize::from(half.is_some());
        while seq.next_element::<IgnoredAny>()?.is_some() {
            count += 1;
        }
        match (motif, half) {
            _ if count != 2 => self.other(format!("a list of {count} items")),
            (Some(Scalar::Text(m)), Some(h)) => Ok((m, h)),
            (Some(Scalar::Other(found)), _) => self.other(format!("motif {found}")),
            _ => self.other(format!("a list of {count} items")),
        }
    }
    fn other<E: de::Error>(self, found: String) -> Result<(String, Half), E> {
        let (id, edge) = (self.id, self.edge);
        fail(self.problem, Problem::BadEdge { id, edge, found })
    }
}

/// A half: `+`, `-` or `=`.
struct HalfSeed<'a> {
    problem: &'a RefCell<Option<Problem>>,
    id: i64,
    edge: usize,
}

impl<'de> DeserializeSeed<'de> for HalfSeed<'_> {
    type Value = Half;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Half, D::Error> {
        d.deserialize_any(Checked(self))
    }
}

impl Check for HalfSeed<'_> {
    type Out = Half;
    fn check<E: de::Error>(self, s: Scalar) -> Result<Half, E> {
        let (Scalar::Text(text) | Scalar::Other(text)) = s;
        match Half::parse(&text) {
            Some(h) => Ok(h),
            None => fail(
                self.problem,
                Problem::UnknownHalf {
                    id: self.id,
                    edge: self.edge,
                    half: text,
                },
            ),
        }
    }
}

//! User constraints (`--constraints FILE`, and the Python package's
//! `CpModelOf.solve()`): a `CpModelProto` fragment in CP-SAT's text format,
//! appended to the model scramble builds.
//!
//! The fragment is a model of its own: its `variables` are the ones its
//! constraints use, its constraints refer to them by their index in the
//! fragment (as in any `CpModelProto`). A variable named like one of the
//! model's (`tile_1_1`, `rotation_2_3`, ...: the names `scramble model` and
//! `--dump-model` print) is that variable; given a domain too, the model's
//! variable is restricted to it. Any other variable is new and needs a
//! domain. Only `variables` and `constraints` may be set (and `name`).
//!
//! The schema is the runtime's own: cp_model.proto as the loaded
//! libortools holds it, read with prost-reflect, so every constraint CP-SAT
//! 9.15 knows can be written.

use std::collections::HashMap;
use std::sync::OnceLock;

use prost::Message;
use prost_reflect::{DescriptorPool, DynamicMessage, MessageDescriptor, ReflectMessage, Value};
use thiserror::Error;

use super::runtime::Runtime;
use super::text::{line_of, top_level_fields};
use crate::model::IntVar;

/// A user constraint file that cannot be used, with where.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("{origin}{}: {message}", line.map(|l| format!(":{l}")).unwrap_or_default())]
pub struct ConstraintsError {
    /// The file (or what the text came from).
    pub origin: String,
    /// 1-based line, where one can be told.
    pub line: Option<usize>,
    pub message: String,
}

/// Fields that hold a variable index (or a literal: `-index - 1` for the
/// negation), by message and field name, in cp_model.proto 9.15.
const VARIABLE_FIELDS: &[(&str, &str)] = &[
    ("ConstraintProto", "enforcement_literal"),
    ("BoolArgumentProto", "literals"),
    ("LinearExpressionProto", "vars"),
    ("LinearConstraintProto", "vars"),
    ("ElementConstraintProto", "index"),
    ("ElementConstraintProto", "target"),
    ("ElementConstraintProto", "vars"),
    ("TableConstraintProto", "vars"),
    ("AutomatonConstraintProto", "vars"),
    ("CircuitConstraintProto", "literals"),
    ("RoutesConstraintProto", "literals"),
    ("ReservoirConstraintProto", "active_literals"),
    ("ListOfVariablesProto", "vars"),
    ("InverseConstraintProto", "f_direct"),
    ("InverseConstraintProto", "f_inverse"),
];

/// Fields that hold the index of an interval constraint.
const INTERVAL_FIELDS: &[(&str, &str)] = &[
    ("NoOverlapConstraintProto", "intervals"),
    ("NoOverlap2DConstraintProto", "x_intervals"),
    ("NoOverlap2DConstraintProto", "y_intervals"),
    ("CumulativeConstraintProto", "intervals"),
];

const PACKAGE: &str = "operations_research.sat.";

/// cp_model.proto as the runtime holds it.
fn pool(rt: &Runtime) -> Result<&'static DescriptorPool, String> {
    static POOL: OnceLock<Result<DescriptorPool, String>> = OnceLock::new();
    POOL.get_or_init(|| {
        let bytes = rt.cp_model_descriptor.as_ref().map_err(Clone::clone)?;
        let mut pool = DescriptorPool::new();
        pool.decode_file_descriptor_proto(bytes.as_slice())
            .map_err(|e| format!("cp_model.proto of the runtime does not decode: {e}"))?;
        Ok(pool)
    })
    .as_ref()
    .map_err(|e| format!("cannot read constraint files: {e}"))
}

fn message(pool: &DescriptorPool, name: &str) -> Result<MessageDescriptor, String> {
    pool.get_message_by_name(&format!("{PACKAGE}{name}"))
        .ok_or_else(|| format!("cp_model.proto of the runtime has no {name}"))
}

/// A fragment variable.
#[derive(Clone, Debug)]
struct Declared {
    name: String,
    domain: Vec<i64>,
    line: Option<usize>,
}

/// A parsed constraint file, to be appended to models.
#[derive(Clone, Debug)]
pub struct UserConstraints {
    origin: String,
    variables: Vec<Declared>,
    /// Each constraint with its line.
    constraints: Vec<(DynamicMessage, Option<usize>)>,
    /// Descriptors of CpModelProto, IntegerVariableProto, ConstraintProto.
    model: MessageDescriptor,
    variable: MessageDescriptor,
    constraint: MessageDescriptor,
}

/// What a fragment adds to one model, ready to append to its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Appended {
    /// A `CpModelProto` holding only the new variables and the constraints
    /// (protobuf's repeated fields concatenate: these bytes follow the
    /// model's own).
    pub bytes: Vec<u8>,
    /// Variables it adds after the model's.
    pub new_variables: usize,
    /// Constraints it adds after the model's.
    pub constraints: usize,
}

/// Every variable and interval a constraint of the file names is one the
/// file declares: else the constraint's line and what is wrong.
fn check_references(
    constraints: &[(DynamicMessage, Option<usize>)],
    declared: usize,
) -> Result<(), (Option<usize>, String)> {
    let fragment_constraints = constraints.len();
    for (k, (c, line)) in constraints.iter().enumerate() {
        let mut bad_var = None;
        let mut bad_interval = None;
        let mut c = c.clone();
        remap(
            &mut c,
            &mut |v| {
                if v >= declared {
                    bad_var.get_or_insert(v);
                }
                Some(v)
            },
            &mut |i| {
                if i >= fragment_constraints {
                    bad_interval.get_or_insert(i);
                }
                i
            },
        );
        if let Some(v) = bad_var {
            return Err((
                *line,
                format!(
                    "constraint {k} uses variable {v}, but the file declares {} variables (a constraint file names the model's variables it uses in its own `variables`)",
                    declared
                ),
            ));
        }
        if let Some(i) = bad_interval {
            return Err((
                *line,
                format!(
                    "constraint {k} uses interval {i}, but the file has {fragment_constraints} constraints"
                ),
            ));
        }
    }
    Ok(())
}

impl UserConstraints {
    /// Parse `text` (from `origin`, named in errors) with the runtime's
    /// schema.
    pub(crate) fn parse(rt: &Runtime, origin: &str, text: &str) -> Result<Self, ConstraintsError> {
        let err = |line: Option<usize>, message: String| ConstraintsError {
            origin: origin.to_string(),
            line,
            message,
        };
        let pool = pool(rt).map_err(|m| err(None, m))?;
        let model = message(pool, "CpModelProto").map_err(|m| err(None, m))?;
        let variable = message(pool, "IntegerVariableProto").map_err(|m| err(None, m))?;
        let constraint = message(pool, "ConstraintProto").map_err(|m| err(None, m))?;
        let parsed = DynamicMessage::parse_text_format(model.clone(), text).map_err(|e| {
            use miette::Diagnostic;
            let at = e
                .labels()
                .and_then(|mut l| l.next())
                .map(|l| line_of(text, l.offset()));
            err(at, format!("not a CpModelProto in text format: {e}"))
        })?;
        let tops = top_level_fields(text);
        let line_of_nth = |field: &str, k: usize| {
            tops.iter()
                .filter(|(f, _)| f == field)
                .nth(k)
                .map(|&(_, l)| l)
        };
        for (field, _) in parsed.fields() {
            if !matches!(field.name(), "variables" | "constraints" | "name") {
                return Err(err(
                    line_of_nth(field.name(), 0),
                    format!(
                        "`{}` cannot be appended to scramble's model: a constraint file has only `variables` and `constraints`",
                        field.name()
                    ),
                ));
            }
        }
        let list = |name: &str| match parsed.get_field_by_name(name).as_deref() {
            Some(Value::List(items)) => items
                .iter()
                .filter_map(|v| v.as_message().cloned())
                .collect(),
            _ => Vec::new(),
        };
        let mut variables = Vec::new();
        let mut names: HashMap<String, usize> = HashMap::new();
        for (k, v) in list("variables").into_iter().enumerate() {
            let line = line_of_nth("variables", k);
            let name = match v.get_field_by_name("name").as_deref() {
                Some(Value::String(s)) => s.clone(),
                _ => String::new(),
            };
            let domain: Vec<i64> = match v.get_field_by_name("domain").as_deref() {
                Some(Value::List(d)) => d.iter().filter_map(Value::as_i64).collect(),
                _ => Vec::new(),
            };
            if !domain.len().is_multiple_of(2) || domain.chunks(2).any(|p| p[0] > p[1]) {
                return Err(err(
                    line,
                    format!(
                        "variable {k} ({name:?}): a domain is pairs of bounds [lo, hi, ...] with lo <= hi"
                    ),
                ));
            }
            if !name.is_empty()
                && let Some(first) = names.insert(name.clone(), k)
            {
                return Err(err(
                    line,
                    format!("variable {name:?} is declared twice (variables {first} and {k})"),
                ));
            }
            variables.push(Declared { name, domain, line });
        }
        let constraints: Vec<_> = list("constraints")
            .into_iter()
            .enumerate()
            .map(|(k, c)| (c, line_of_nth("constraints", k)))
            .collect();
        check_references(&constraints, variables.len()).map_err(|(line, m)| err(line, m))?;
        Ok(UserConstraints {
            origin: origin.to_string(),
            variables,
            constraints,
            model,
            variable,
            constraint,
        })
    }

    /// Read and parse a constraint file.
    pub(crate) fn load(rt: &Runtime, path: &std::path::Path) -> Result<Self, ConstraintsError> {
        let origin = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| ConstraintsError {
            origin: origin.clone(),
            line: None,
            message: format!("cannot read: {e}"),
        })?;
        UserConstraints::parse(rt, &origin, &text)
    }

    /// Where the constraints came from.
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// A short name for reports: the file's name without its folder.
    pub fn label(&self) -> String {
        label(std::path::Path::new(&self.origin))
    }

    /// How many constraints the file has.
    pub fn len(&self) -> usize {
        self.constraints.len()
    }

    /// Whether the file has no constraint.
    pub fn is_empty(&self) -> bool {
        self.constraints.is_empty()
    }

    /// The fragment for a model with these variables and `model_constraints`
    /// constraints: its variables resolved by name, its indices moved to the
    /// model's numbering.
    pub(crate) fn append_to(
        &self,
        vars: &[IntVar],
        model_constraints: usize,
    ) -> Result<Appended, ConstraintsError> {
        let by_name: HashMap<&str, usize> = vars
            .iter()
            .enumerate()
            .map(|(k, v)| (v.name.as_str(), k))
            .collect();
        let mut index = Vec::with_capacity(self.variables.len());
        let mut new_vars = Vec::new();
        let mut restrictions = Vec::new();
        for (k, d) in self.variables.iter().enumerate() {
            match by_name.get(d.name.as_str()) {
                Some(&at) if !d.name.is_empty() => {
                    index.push(at as i64);
                    if !d.domain.is_empty() {
                        restrictions.push(self.restriction(at, &d.domain));
                    }
                }
                _ if d.domain.is_empty() => {
                    return Err(ConstraintsError {
                        origin: self.origin.clone(),
                        line: d.line,
                        message: match d.name.as_str() {
                            "" => format!("variable {k} has neither a name nor a domain"),
                            name => format!(
                                "unknown variable {name:?}: the model has no variable of that name ({}), and a new variable needs a domain",
                                sample_names(vars)
                            ),
                        },
                    });
                }
                _ => {
                    index.push((vars.len() + new_vars.len()) as i64);
                    let mut v = DynamicMessage::new(self.variable.clone());
                    if !d.name.is_empty() {
                        v.set_field_by_name("name", Value::String(d.name.clone()));
                    }
                    v.set_field_by_name(
                        "domain",
                        Value::List(d.domain.iter().map(|&x| Value::I64(x)).collect()),
                    );
                    new_vars.push(Value::Message(v));
                }
            }
        }
        let mut constraints: Vec<Value> = self
            .constraints
            .iter()
            .map(|(c, _)| {
                let mut c = c.clone();
                remap(
                    &mut c,
                    &mut |v| index.get(v).copied().map(|x| x as usize),
                    &mut |i| i + model_constraints,
                );
                Value::Message(c)
            })
            .collect();
        let count = constraints.len() + restrictions.len();
        constraints.extend(restrictions.into_iter().map(Value::Message));
        let new_variables = new_vars.len();
        let mut m = DynamicMessage::new(self.model.clone());
        m.set_field_by_name("variables", Value::List(new_vars));
        m.set_field_by_name("constraints", Value::List(constraints));
        Ok(Appended {
            bytes: m.encode_to_vec(),
            new_variables,
            constraints: count,
        })
    }

    /// `linear { vars: [var] coeffs: [1] domain: domain }`.
    fn restriction(&self, var: usize, domain: &[i64]) -> DynamicMessage {
        let linear_desc = self
            .constraint
            .get_field_by_name("linear")
            .and_then(|f| f.kind().as_message().cloned())
            .expect("ConstraintProto has `linear`");
        let mut linear = DynamicMessage::new(linear_desc);
        linear.set_field_by_name("vars", Value::List(vec![Value::I32(var as i32)]));
        linear.set_field_by_name("coeffs", Value::List(vec![Value::I64(1)]));
        linear.set_field_by_name(
            "domain",
            Value::List(domain.iter().map(|&x| Value::I64(x)).collect()),
        );
        let mut c = DynamicMessage::new(self.constraint.clone());
        c.set_field_by_name("linear", Value::Message(linear));
        c
    }
}

/// A few of the model's variable names, for an error message.
fn sample_names(vars: &[IntVar]) -> String {
    let mut names: Vec<&str> = vars.iter().take(3).map(|v| v.name.as_str()).collect();
    if vars.len() > 3 {
        names.push("...");
    }
    format!("it has {}", names.join(", "))
}

/// Rewrite every variable index (`var`, given an index, returns its new
/// one) and interval index (`interval`) in `m`, literals keeping their sign.
/// An index `var` has no answer for is left as it is.
fn remap(
    m: &mut DynamicMessage,
    var: &mut dyn FnMut(usize) -> Option<usize>,
    interval: &mut dyn FnMut(usize) -> usize,
) {
    let message = m.descriptor().name().to_string();
    for (field, value) in m.fields_mut() {
        let key = (message.as_str(), field.name());
        let is_var = VARIABLE_FIELDS.contains(&key);
        let is_interval = INTERVAL_FIELDS.contains(&key);
        let map = |x: &mut Value,
                   var: &mut dyn FnMut(usize) -> Option<usize>,
                   interval: &mut dyn FnMut(usize) -> usize| {
            if let Value::I32(i) = x {
                if is_var {
                    let (v, negated) = if *i < 0 {
                        ((-(*i as i64) - 1) as usize, true)
                    } else {
                        (*i as usize, false)
                    };
                    if let Some(n) = var(v) {
                        *i = if negated { -(n as i32) - 1 } else { n as i32 };
                    }
                } else if is_interval && *i >= 0 {
                    *i = interval(*i as usize) as i32;
                }
            }
        };
        match value {
            Value::Message(inner) => remap(inner, var, interval),
            Value::List(items) => {
                for x in items {
                    match x {
                        Value::Message(inner) => remap(inner, var, interval),
                        x => map(x, var, interval),
                    }
                }
            }
            x => map(x, var, interval),
        }
    }
}

/// The short name reports give a constraints file: its name without its
/// folder (the whole path where it has none).
pub fn label(path: &std::path::Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |f| f.to_string_lossy().into(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::cpsat::runtime::runtime_for_tests;

    /// Integer fields under ConstraintProto that hold numbers, not indices.
    const NUMBER_FIELDS: &[&str] = &[
        "LinearExpressionProto.coeffs",
        "LinearExpressionProto.offset",
        "LinearConstraintProto.coeffs",
        "LinearConstraintProto.domain",
        "ReservoirConstraintProto.min_level",
        "ReservoirConstraintProto.max_level",
        "RoutesConstraintProto.tails",
        "RoutesConstraintProto.heads",
        "RoutesConstraintProto.demands",
        "RoutesConstraintProto.capacity",
        "AutomatonConstraintProto.starting_state",
        "AutomatonConstraintProto.final_states",
        "AutomatonConstraintProto.transition_tail",
        "AutomatonConstraintProto.transition_head",
        "AutomatonConstraintProto.transition_label",
        "TableConstraintProto.values",
        "CircuitConstraintProto.tails",
        "CircuitConstraintProto.heads",
    ];

    /// Every integer field a constraint can hold is classified: a variable
    /// index, an interval index, or a number. A field this module does not
    /// know (a new release of cp_model.proto) fails here, not silently.
    #[test]
    fn every_integer_field_of_a_constraint_is_classified() {
        let Some(rt) = runtime_for_tests() else {
            return;
        };
        let pool = pool(rt).unwrap();
        let mut seen = std::collections::BTreeSet::new();
        let mut todo = vec![message(pool, "ConstraintProto").unwrap()];
        let mut unknown = Vec::new();
        while let Some(m) = todo.pop() {
            if !seen.insert(m.full_name().to_string()) {
                continue;
            }
            for f in m.fields() {
                use prost_reflect::Kind;
                match f.kind() {
                    Kind::Message(inner) => todo.push(inner),
                    Kind::Int32 | Kind::Int64 | Kind::Sint32 | Kind::Sint64 => {
                        let key = (m.name(), f.name());
                        let known = VARIABLE_FIELDS.contains(&key)
                            || INTERVAL_FIELDS.contains(&key)
                            || NUMBER_FIELDS.contains(&format!("{}.{}", key.0, key.1).as_str());
                        if !known {
                            unknown.push(format!("{}.{}", key.0, key.1));
                        }
                    }
                    _ => {}
                }
            }
        }
        assert!(unknown.is_empty(), "unclassified: {unknown:?}");
    }

    fn var(name: &str) -> IntVar {
        IntVar {
            name: name.into(),
            domain: vec![(0, 3)],
        }
    }

    #[test]
    fn names_resolve_and_indices_move_to_the_models_numbering() {
        let Some(rt) = runtime_for_tests() else {
            return;
        };
        let text = r#"
            variables { name: "rotation_2_2" }
            variables { name: "x" domain: [0, 1] }
            variables { name: "tile_1_1" domain: [1, 1] }
            constraints {
              enforcement_literal: [-2]
              linear { vars: [0, 2] coeffs: [1, 1] domain: [2, 2] }
            }
            constraints { interval { start { offset: 0 } end { offset: 1 } size { offset: 1 } } }
            constraints { no_overlap { intervals: [1] } }
        "#;
        let c = UserConstraints::parse(rt, "t.txt", text).unwrap();
        assert_eq!(c.len(), 3);
        let vars = [var("tile_1_1"), var("rotation_1_1"), var("rotation_2_2")];
        let a = c.append_to(&vars, 10).unwrap();
        assert_eq!(a.new_variables, 1);
        // Three constraints and tile_1_1's restriction to [1, 1].
        assert_eq!(a.constraints, 4);
        let m = DynamicMessage::decode(c.model.clone(), a.bytes.as_slice()).unwrap();
        let text = m.to_text_format();
        // x is variable 3 (after the model's three); `not x` is -4.
        assert!(
            text.contains(r#"variables:[{name:"x",domain:[0,1]}]"#),
            "{text}"
        );
        assert!(text.contains("enforcement_literal:[-4]"), "{text}");
        assert!(text.contains("vars:[2,0]"), "{text}");
        // The interval is the model's constraint 10 + 1.
        assert!(text.contains("intervals:[11]"), "{text}");
        assert!(
            text.contains("linear{vars:[0],coeffs:[1],domain:[1,1]}"),
            "{text}"
        );
    }

    #[test]
    fn bad_files_are_refused_with_their_line() {
        let Some(rt) = runtime_for_tests() else {
            return;
        };
        let cases = [
            (
                "variables { name: \"a\" }\nconstraints { linear { vars: [1] } }",
                2,
                "uses variable 1",
            ),
            (
                "\n\nconstraints { linear { varz: [0] } }",
                3,
                "not a CpModelProto",
            ),
            (
                "variables { name: \"a\" }\n\nobjective { vars: [0] }",
                3,
                "`objective` cannot",
            ),
            (
                "variables { name: \"a\" domain: [2, 1] }",
                1,
                "pairs of bounds",
            ),
            (
                "variables { name: \"a\" }\nvariables { name: \"a\" }",
                2,
                "declared twice",
            ),
            (
                "constraints { no_overlap { intervals: [3] } }",
                1,
                "uses interval 3",
            ),
        ];
        for (text, line, message) in cases {
            let e = UserConstraints::parse(rt, "f.txt", text).unwrap_err();
            assert_eq!(e.line, Some(line), "{text}: {e}");
            assert!(e.to_string().contains(message), "{text}: {e}");
            assert!(e.to_string().starts_with(&format!("f.txt:{line}: ")), "{e}");
        }
        let c = UserConstraints::parse(rt, "f.txt", "\nvariables { name: \"tile_9_9\" }").unwrap();
        let e = c.append_to(&[var("tile_1_1")], 1).unwrap_err();
        assert_eq!(e.line, Some(2));
        assert!(e.message.contains("unknown variable \"tile_9_9\""), "{e}");
    }
}

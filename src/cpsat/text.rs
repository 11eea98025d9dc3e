//! Protobuf text format for the `CpModelProto` messages scramble builds, so
//! people can read the formulation (`scramble solve --dump-model FILE`).

use std::fmt::Write;

use super::proto::{Constraint, CpModelProto, LinearExpressionProto};

fn list<T: std::fmt::Display>(v: &[T]) -> String {
    let items: Vec<String> = v.iter().map(|x| x.to_string()).collect();
    format!("[{}]", items.join(", "))
}

fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn exprs(out: &mut String, indent: &str, es: &[LinearExpressionProto]) {
    for e in es {
        let _ = write!(
            out,
            "{indent}exprs {{ vars: {} coeffs: {}",
            list(&e.vars),
            list(&e.coeffs)
        );
        if e.offset != 0 {
            let _ = write!(out, " offset: {}", e.offset);
        }
        out.push_str(" }\n");
    }
}

/// Text format of a model; tables print one tuple per line.
pub(crate) fn cp_model(m: &CpModelProto) -> String {
    let mut out = String::new();
    if !m.name.is_empty() {
        let _ = writeln!(out, "name: {}", quote(&m.name));
    }
    for v in &m.variables {
        let _ = writeln!(
            out,
            "variables {{ name: {} domain: {} }}",
            quote(&v.name),
            list(&v.domain)
        );
    }
    for c in &m.constraints {
        out.push_str("constraints {\n");
        if !c.name.is_empty() {
            let _ = writeln!(out, "  name: {}", quote(&c.name));
        }
        if !c.enforcement_literal.is_empty() {
            let _ = writeln!(
                out,
                "  enforcement_literal: {}",
                list(&c.enforcement_literal)
            );
        }
        match &c.constraint {
            Some(Constraint::AllDiff(a)) => {
                out.push_str("  all_diff {\n");
                exprs(&mut out, "    ", &a.exprs);
                out.push_str("  }\n");
            }
            Some(Constraint::Table(t)) => {
                out.push_str("  table {\n");
                exprs(&mut out, "    ", &t.exprs);
                let arity = t.exprs.len().max(1);
                out.push_str("    values: [\n");
                let rows: Vec<String> = t
                    .values
                    .chunks(arity)
                    .map(|row| {
                        let items: Vec<String> = row.iter().map(|x| x.to_string()).collect();
                        format!("      {}", items.join(", "))
                    })
                    .collect();
                out.push_str(&rows.join(",\n"));
                out.push_str("\n    ]\n");
                if t.negated {
                    out.push_str("    negated: true\n");
                }
                out.push_str("  }\n");
            }
            Some(Constraint::Linear(l)) => {
                let _ = writeln!(
                    out,
                    "  linear {{ vars: {} coeffs: {} domain: {} }}",
                    list(&l.vars),
                    list(&l.coeffs),
                    list(&l.domain)
                );
            }
            Some(Constraint::BoolOr(b)) => {
                let _ = writeln!(out, "  bool_or {{ literals: {} }}", list(&b.literals));
            }
            Some(Constraint::BoolAnd(b)) => {
                let _ = writeln!(out, "  bool_and {{ literals: {} }}", list(&b.literals));
            }
            Some(Constraint::ExactlyOne(b)) => {
                let _ = writeln!(out, "  exactly_one {{ literals: {} }}", list(&b.literals));
            }
            None => {}
        }
        out.push_str("}\n");
    }
    out
}

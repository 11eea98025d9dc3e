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

/// The 1-based line of byte `offset` in `text`.
pub(super) fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// The top-level field names of a text-format message, in order, with
/// their lines: an identifier outside every `{}`, `<>` and `[]` that a `:`,
/// `{` or `<` follows (strings and `#` comments skipped).
pub(super) fn top_level_fields(text: &str) -> Vec<(String, usize)> {
    // Tokens: identifiers (with their line) and single punctuation marks.
    enum Token {
        Word(String, usize),
        Mark(char),
    }
    let mut tokens = Vec::new();
    let mut line = 1;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' => line += 1,
            '#' => {
                for d in chars.by_ref() {
                    if d == '\n' {
                        line += 1;
                        break;
                    }
                }
            }
            '"' | '\'' => {
                let mut escaped = false;
                for d in chars.by_ref() {
                    if d == '\n' {
                        line += 1;
                    }
                    if escaped {
                        escaped = false;
                    } else if d == '\\' {
                        escaped = true;
                    } else if d == c {
                        break;
                    }
                }
                tokens.push(Token::Mark('"'));
            }
            c if c.is_alphanumeric() || c == '_' || c == '-' || c == '.' => {
                let mut word = String::from(c);
                while let Some(&d) = chars.peek() {
                    if d.is_alphanumeric() || d == '_' || d == '.' {
                        word.push(d);
                        chars.next();
                    } else {
                        break;
                    }
                }
                tokens.push(Token::Word(word, line));
            }
            c if c.is_whitespace() => {}
            c => tokens.push(Token::Mark(c)),
        }
    }
    let mut out = Vec::new();
    let mut depth = 0i32;
    for (k, t) in tokens.iter().enumerate() {
        match t {
            Token::Mark('{' | '<' | '[') => depth += 1,
            Token::Mark('}' | '>' | ']') => depth -= 1,
            Token::Word(w, l) if depth == 0 => {
                if let Some(Token::Mark(':' | '{' | '<')) = tokens.get(k + 1) {
                    out.push((w.clone(), *l));
                }
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_level_fields_are_found_with_their_lines() {
        let text = "name: \"x { y\"\n# constraints {\nvariables { name: \"a\" domain: [0, 1] }\nvariables <name: 'b'>\n\nconstraints {\n  linear { vars: 0 }\n}\nconstraints { bool_or { literals: [0, -2] } }";
        let got = top_level_fields(text);
        let want = [
            ("name", 1),
            ("variables", 3),
            ("variables", 4),
            ("constraints", 6),
            ("constraints", 9),
        ];
        let got: Vec<(&str, usize)> = got.iter().map(|(w, l)| (w.as_str(), *l)).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn lines_count_from_one() {
        assert_eq!(line_of("ab\ncd", 0), 1);
        assert_eq!(line_of("ab\ncd", 3), 2);
        assert_eq!(line_of("ab\ncd", 99), 2);
    }
}

//! The house rules a test can hold (DEVELOPERS.md, docs/architecture.md):
//! every module imports only the modules above it in the layers' order,
//! outside its unit tests. (`unsafe` outside `cpsat` and a block without
//! its SAFETY note are the compiler's and clippy's to refuse: src/lib.rs.)

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The layers, top first, as docs/architecture.md draws them: a module may
/// import those before it.
const LAYERS: &[&str] = &[
    "puzzle",
    "board",
    "model",
    "symmetry",
    "rng",
    "files",
    "generate",
    "solve",
    "cpsat",
    "backtrack",
    "graph",
    "count",
    "report",
    "best",
    "experiment",
    "compare",
    "bench",
    "merge",
    "render",
    "cli",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The text of a file without its unit tests (the `#[cfg(test)] mod`,
/// last in the file by the house's habit) and without comments.
fn code(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let end = (0..lines.len())
        .find(|&k| {
            lines[k].trim() == "#[cfg(test)]"
                && lines
                    .get(k + 1)
                    .is_some_and(|n| n.trim_start().starts_with("mod "))
        })
        .unwrap_or(lines.len());
    lines[..end]
        .iter()
        .map(|l| match l.find("//") {
            Some(c) => &l[..c],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The modules a piece of code names as `crate::m`, with `crate::{a, b}`
/// read as both.
fn imported(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // The top-level names of the group.
            let mut depth = 0;
            let mut start = true;
            for (k, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => start = true,
                    c if start && !c.is_whitespace() => {
                        out.insert(ident(&group[k..]));
                        start = false;
                    }
                    _ => {}
                }
            }
        } else {
            out.insert(ident(rest));
        }
    }
    out.retain(|m| !m.is_empty());
    out
}

#[test]
fn every_module_imports_only_those_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let rank = |m: &str| LAYERS.iter().position(|l| *l == m);
    let mut wrong = Vec::new();
    let mut seen = BTreeSet::new();
    for f in &files {
        let rel = f.strip_prefix(&src).unwrap();
        let top = rel.iter().next().unwrap().to_string_lossy();
        let module = top.trim_end_matches(".rs").to_string();
        if module == "lib" || module == "main" {
            continue;
        }
        let Some(mine) = rank(&module) else {
            wrong.push(format!(
                "src/{}: module {module} is not in LAYERS",
                rel.display()
            ));
            continue;
        };
        seen.insert(module.clone());
        for m in imported(&code(&std::fs::read_to_string(f).unwrap())) {
            match rank(&m) {
                Some(r) if r > mine => wrong.push(format!(
                    "src/{}: {module} imports {m}, a layer below it",
                    rel.display()
                )),
                Some(_) => {}
                None => wrong.push(format!(
                    "src/{}: crate::{m} is not a module in LAYERS",
                    rel.display()
                )),
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // Every layer still exists: the list is not allowed to rot.
    let missing: Vec<_> = LAYERS.iter().filter(|l| !seen.contains(**l)).collect();
    assert!(missing.is_empty(), "LAYERS names no module: {missing:?}");
}

#[test]
fn the_import_reader_sees_groups_and_skips_tests_and_comments() {
    let text = "use crate::board::Solution;\n\
                // crate::cli in a comment\n\
                use crate::{model::Model, symmetry::{a, b}, puzzle};\n\
                fn f() { crate::solve::run(); } // and crate::render here\n\
                #[cfg(test)]\n\
                mod tests {\n    use crate::generate::plant;\n}\n";
    let got: Vec<String> = imported(&code(text)).into_iter().collect();
    assert_eq!(got, ["board", "model", "puzzle", "solve", "symmetry"]);
}

//! The house rules a test can hold (DEVELOPERS.md, docs/architecture.md):
//! every module imports only the modules above it in the layers' order,
//! outside its unit tests, and no two files of one folder import each
//! other, however indirectly. (`unsafe` outside `cpsat` and a block without
//! its SAFETY note are the compiler's and clippy's to refuse: src/lib.rs.)

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The layers, top first, as docs/architecture.md draws them: a module may
/// import those before it.
const LAYERS: &[&str] = &[
    "cancel", "puzzle", "board", "model", "symmetry", "rng", "files", "generate", "solve",
    "engines", "race", "registry", "count", "best", "render", "commands",
];

/// The folders whose children are siblings: an engine never imports
/// another engine, and a command another command, except as listed in
/// [`COMMAND_USES`].
const SIBLINGS: &[&str] = &["engines", "commands"];

/// What one command may take from another: the shard merge joins each
/// command's own merge; compare, bench and symmetry-report share their
/// report rows (commands/report.rs), and every command's merge shares the
/// shards' plumbing (commands/shards.rs).
const COMMAND_USES: &[(&str, &str)] = &[
    ("merge", "solve"),
    ("merge", "count"),
    ("merge", "bench"),
    ("merge", "shards"),
    ("solve", "shards"),
    ("count", "shards"),
    ("bench", "shards"),
    ("compare", "report"),
    ("bench", "report"),
    ("symmetry_report", "report"),
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

/// Where a file's unit tests start (the `#[cfg(test)] mod`, last in the
/// file by the house's habit): the line index, or the number of lines.
fn tests_start(lines: &[&str]) -> usize {
    (0..lines.len())
        .find(|&k| {
            lines[k].trim() == "#[cfg(test)]"
                && lines
                    .get(k + 1)
                    .is_some_and(|n| n.trim_start().starts_with("mod "))
        })
        .unwrap_or(lines.len())
}

/// The text of a file without its unit tests (the `#[cfg(test)] mod`,
/// last in the file by the house's habit) and without comments.
fn code(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let end = tests_start(&lines);
    lines[..end]
        .iter()
        .map(|l| match l.find("//") {
            Some(c) => &l[..c],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The module paths a piece of code names as `crate::m` (two segments,
/// `m::n`, where `m` is a folder of siblings), with groups
/// (`crate::{a, b::{c, d}}`) read as every path they hold.
fn imported(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        let mut paths = Vec::new();
        expand(&code[at + "crate::".len()..], String::new(), &mut paths);
        for p in paths {
            let segs: Vec<&str> = p.split("::").filter(|s| !s.is_empty()).collect();
            let Some(first) = segs.first() else { continue };
            let keep = match segs.get(1) {
                Some(s)
                    if SIBLINGS.contains(first)
                        && s.starts_with(|c: char| c.is_ascii_lowercase()) =>
                {
                    2
                }
                _ => 1,
            };
            out.insert(segs[..keep].join("::"));
        }
    }
    out.retain(|m| !m.is_empty() && m != "self");
    out
}

/// The paths that `text` (what follows a `crate::` or a group's `{`) names
/// after `prefix`, groups expanded; returns how much of `text` it read.
fn expand(text: &str, prefix: String, out: &mut Vec<String>) -> usize {
    let ident = |s: &str| -> usize {
        s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(s.len())
    };
    let mut path = prefix;
    let mut k = 0;
    loop {
        let rest = &text[k..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut j = 0;
            loop {
                let item = &group[j..];
                let lead = item.len() - item.trim_start().len();
                j += lead;
                if group[j..].starts_with('}') {
                    return k + 1 + j + 1;
                }
                j += expand(&group[j..], path.clone(), out);
                let after = &group[j..];
                j += after.len() - after.trim_start().len();
                match group[j..].chars().next() {
                    Some(',') => j += 1,
                    Some('}') => return k + 1 + j + 1,
                    _ => return k + 1 + j,
                }
            }
        }
        let n = ident(rest);
        path.push_str(&rest[..n]);
        k += n;
        if text[k..].starts_with("::") {
            path.push_str("::");
            k += 2;
        } else {
            // `as` renames and the like end the path here.
            while k < text.len()
                && !text[k..].starts_with([',', '}', ';'])
                && !text[k..].starts_with(char::is_whitespace)
            {
                k += 1;
            }
            out.push(path);
            return k;
        }
    }
}

/// What is wrong with a file of `module` (and of its `child`, the sibling
/// it belongs to in a folder of siblings) importing `m`, if anything.
fn wrong_import(src: &Path, module: &str, child: Option<&str>, m: &str) -> Option<String> {
    let rank = |m: &str| LAYERS.iter().position(|l| *l == m);
    let (top, second) = match m.split_once("::") {
        Some((t, s)) => (t, Some(s)),
        None => (m, None),
    };
    let Some(theirs) = rank(top) else {
        return Some(format!("crate::{m} is not a module in LAYERS"));
    };
    if theirs > rank(module).unwrap() {
        return Some(format!("{module} imports {m}, a layer below it"));
    }
    let (Some(mine), Some(other)) = (child, second) else {
        return None;
    };
    // Items of the folder's own mod.rs (`commands::CliError`) are shared.
    let is_sibling =
        src.join(top).join(other).is_dir() || src.join(top).join(format!("{other}.rs")).is_file();
    if top != module || mine == other || !is_sibling {
        return None;
    }
    if top == "commands" && COMMAND_USES.contains(&(mine, other)) {
        return None;
    }
    Some(format!("{module}::{mine} imports its sibling {m}"))
}

#[test]
fn every_module_imports_only_those_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut wrong = Vec::new();
    let mut seen = BTreeSet::new();
    for f in &files {
        let rel = f.strip_prefix(&src).unwrap();
        let parts: Vec<String> = rel
            .iter()
            .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
            .collect();
        let module = parts[0].clone();
        if module == "lib" || module == "main" {
            continue;
        }
        if !LAYERS.contains(&module.as_str()) {
            wrong.push(format!(
                "src/{}: module {module} is not in LAYERS",
                rel.display()
            ));
            continue;
        }
        seen.insert(module.clone());
        let child = parts
            .get(1)
            .filter(|c| *c != "mod" && SIBLINGS.contains(&module.as_str()));
        for m in imported(&code(&std::fs::read_to_string(f).unwrap())) {
            if let Some(w) = wrong_import(&src, &module, child.map(String::as_str), &m) {
                wrong.push(format!("src/{}: {w}", rel.display()));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // Every layer still exists: the list is not allowed to rot.
    let missing: Vec<_> = LAYERS.iter().filter(|l| !seen.contains(**l)).collect();
    assert!(missing.is_empty(), "LAYERS names no module: {missing:?}");
}

#[test]
fn siblings_are_told_apart() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let engine = |m| wrong_import(&src, "engines", Some("cpsat"), m);
    assert_eq!(engine("engines::cpsat"), None);
    assert!(engine("engines::backtrack").is_some());
    assert!(engine("commands::count").is_some(), "a layer below");
    let command = |c, m| wrong_import(&src, "commands", Some(c), m);
    assert_eq!(command("merge", "commands::bench"), None);
    assert_eq!(command("bench", "commands::CliError"), None);
    assert!(command("bench", "commands::count").is_some());
    assert_eq!(
        imported("use crate::{engines::cpsat::CpSat, commands::{count, x}};"),
        BTreeSet::from([
            "engines::cpsat".to_string(),
            "commands::count".into(),
            "commands::x".into()
        ])
    );
}

/// A file's module path (`src/engines/cpsat/run.rs`: engines, cpsat,
/// run; a folder's `mod.rs` is the folder).
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts.last().is_some_and(|l| l == "mod" || l == "lib") {
        parts.pop();
    }
    parts
}

/// The modules a file's code names, resolved: `crate::` paths from the
/// root, `super::` ones from the file's parent (`self::` ones, in a
/// folder's mod.rs, from the folder), each cut to the longest prefix that
/// is a module of `modules`.
fn named_modules(
    code: &str,
    me: &[String],
    is_folder: bool,
    modules: &BTreeSet<Vec<String>>,
) -> BTreeSet<Vec<String>> {
    let mut out = BTreeSet::new();
    let here: Vec<String> = if is_folder {
        me.to_vec()
    } else {
        me[..me.len().saturating_sub(1)].to_vec()
    };
    let mut starts = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        starts.push((at + "crate::".len(), Vec::new()));
    }
    for (at, _) in code.match_indices("super::") {
        // Only the first of a run of `super::`s starts a path.
        if code[..at].ends_with("super::") {
            continue;
        }
        let mut base = here.clone();
        let mut k = at;
        while code[k..].starts_with("super::") {
            k += "super::".len();
            if k > at + "super::".len() {
                base.pop();
            }
        }
        starts.push((k, base));
    }
    if is_folder {
        for (at, _) in code.match_indices("self::") {
            starts.push((at + "self::".len(), me.to_vec()));
        }
    }
    for (at, base) in starts {
        let mut paths = Vec::new();
        expand(&code[at..], String::new(), &mut paths);
        for p in paths {
            let mut m = base.clone();
            for seg in p.split("::").filter(|s| !s.is_empty()) {
                let mut next = m.clone();
                next.push(seg.to_string());
                if !modules.contains(&next) {
                    break;
                }
                m = next;
            }
            out.insert(m);
        }
    }
    out
}

/// The import circles among the children of each folder: per folder, the
/// children that reach each other (a strongly connected set of two or
/// more), named as paths.
fn circles(edges: &BTreeSet<(Vec<String>, String, String)>) -> Vec<String> {
    let folders: BTreeSet<&Vec<String>> = edges.iter().map(|(f, _, _)| f).collect();
    let mut found = Vec::new();
    for folder in folders {
        let next = |a: &str| -> Vec<&str> {
            edges
                .iter()
                .filter(|(f, x, _)| f == folder && x == a)
                .map(|(_, _, y)| y.as_str())
                .collect()
        };
        let nodes: BTreeSet<&str> = edges
            .iter()
            .filter(|(f, _, _)| f == folder)
            .flat_map(|(_, x, y)| [x.as_str(), y.as_str()])
            .collect();
        // What each child reaches, by a walk from it.
        let reach = |from: &str| -> BTreeSet<&str> {
            let mut seen = BTreeSet::new();
            let mut todo = next(from);
            while let Some(n) = todo.pop() {
                if seen.insert(n) {
                    todo.extend(next(n));
                }
            }
            seen
        };
        let mut done = BTreeSet::new();
        for &a in &nodes {
            if done.contains(a) {
                continue;
            }
            let from_a = reach(a);
            let circle: Vec<&str> = nodes
                .iter()
                .copied()
                .filter(|&b| from_a.contains(b) && reach(b).contains(a))
                .collect();
            if circle.len() > 1 {
                done.extend(circle.iter().copied());
                found.push(format!("src/{}: {}", folder.join("/"), circle.join(" -> ")));
            }
        }
    }
    found
}

#[test]
fn no_folder_has_an_import_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let rels: Vec<PathBuf> = files
        .iter()
        .map(|f| f.strip_prefix(&src).unwrap().to_path_buf())
        .collect();
    let modules: BTreeSet<Vec<String>> = rels.iter().map(|r| module_of(r)).collect();
    let mut edges = BTreeSet::new();
    for (f, rel) in files.iter().zip(&rels) {
        let me = module_of(rel);
        let is_folder = rel.ends_with("mod.rs") || rel.ends_with("lib.rs");
        let text = code(&std::fs::read_to_string(f).unwrap());
        for them in named_modules(&text, &me, is_folder, &modules) {
            // Where the two part: a child of their common folder each.
            let common = me.iter().zip(&them).take_while(|(a, b)| a == b).count();
            if let (Some(a), Some(b)) = (me.get(common), them.get(common)) {
                edges.insert((me[..common].to_vec(), a.clone(), b.clone()));
            }
        }
    }
    let found = circles(&edges);
    assert!(found.is_empty(), "import circles:\n{}", found.join("\n"));
}

#[test]
fn the_circle_finder_sees_circles_and_nothing_else() {
    let e = |f: &[&str], a: &str, b: &str| {
        (
            f.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            a.to_string(),
            b.to_string(),
        )
    };
    let line = BTreeSet::from([e(&["x"], "a", "b"), e(&["x"], "b", "c"), e(&[], "x", "y")]);
    assert!(circles(&line).is_empty());
    let mut round = line.clone();
    round.insert(e(&["x"], "c", "a"));
    assert_eq!(circles(&round), ["src/x: a -> b -> c"]);
    let modules = BTreeSet::from([
        vec!["e".to_string()],
        vec!["e".into(), "p".into()],
        vec!["e".into(), "q".into()],
        vec!["r".into()],
    ]);
    let me = vec!["e".to_string(), "p".into()];
    let code = "use super::q::Thing;\nuse super::super::r::{a, b};\nuse crate::e::{p, q};";
    let got = named_modules(code, &me, false, &modules);
    let want = BTreeSet::from([
        vec!["e".to_string(), "q".into()],
        vec!["e".into(), "p".into()],
        vec!["r".into()],
    ]);
    assert_eq!(got, want);
}

#[test]
fn the_import_reader_sees_groups_and_skips_tests_and_comments() {
    let text = "use crate::board::Solution;\n\
                // crate::commands in a comment\n\
                use crate::{model::Model, symmetry::{a, b}, puzzle};\n\
                fn f() { crate::solve::run(); } // and crate::render here\n\
                #[cfg(test)]\n\
                mod tests {\n    use crate::generate::plant;\n}\n";
    let got: Vec<String> = imported(&code(text)).into_iter().collect();
    assert_eq!(got, ["board", "model", "puzzle", "solve", "symmetry"]);
}

/// The text with string and character literals blanked (their braces are
/// not code) and comments dropped, lines kept.
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut k = 0;
    while k < chars.len() {
        let c = chars[k];
        let next = chars.get(k + 1).copied();
        if c == '/' && next == Some('/') {
            while k < chars.len() && chars[k] != '\n' {
                k += 1;
            }
        } else if c == 'r' && next == Some('#') && chars.get(k + 2) == Some(&'"') {
            // r#"..."#
            k += 3;
            while k < chars.len() && !(chars[k] == '"' && chars.get(k + 1) == Some(&'#')) {
                out.push(if chars[k] == '\n' { '\n' } else { ' ' });
                k += 1;
            }
            k += 2;
        } else if c == '"' {
            k += 1;
            while k < chars.len() && chars[k] != '"' {
                if chars[k] == '\\' {
                    k += 1;
                }
                if chars.get(k) == Some(&'\n') {
                    out.push('\n');
                }
                k += 1;
            }
            k += 1;
        } else if c == '\'' && chars.get(k + 2) == Some(&'\'') {
            k += 3; // 'x'
        } else if c == '\'' && next == Some('\\') {
            k += 2;
            while k < chars.len() && chars[k] != '\'' {
                k += 1;
            }
            k += 1; // '\n', '\u{..}'
        } else {
            out.push(c);
            k += 1;
        }
    }
    out
}

/// Each function of a file (outside its unit tests): name and lines.
fn function_lengths(text: &str) -> Vec<(String, usize)> {
    let code = code_only(text);
    let lines: Vec<&str> = code.lines().collect();
    let end = tests_start(&lines);
    let mut out = Vec::new();
    for k in 0..end {
        let Some(at) = lines[k].find("fn ") else {
            continue;
        };
        let before = lines[k][..at].trim();
        let words_ok = before.split_whitespace().all(|w| {
            ["pub", "const", "unsafe", "async", "extern"].contains(&w) || w.starts_with("pub(")
        });
        if !words_ok {
            continue;
        }
        let name: String = lines[k][at + 3..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let (mut depth, mut opened) = (0i32, false);
        for (j, line) in lines.iter().enumerate().take(end).skip(k) {
            if !opened && line.trim_end().ends_with(';') && !line.contains('{') {
                break; // a declaration without a body
            }
            for c in line.chars() {
                match c {
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            if opened && depth <= 0 {
                out.push((name.clone(), j - k + 1));
                break;
            }
        }
    }
    out
}

/// Most functions fit in 120 lines and files in about 600 (DEVELOPERS.md);
/// none kept longer today.
const MAX_FUNCTION: usize = 120;
const MAX_FILE: usize = 620;

#[test]
fn functions_and_files_stay_short() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut long = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let rel = f.strip_prefix(&src).unwrap().display().to_string();
        let n = text.lines().count();
        if n > MAX_FILE {
            long.push(format!("src/{rel}: {n} lines"));
        }
        for (name, len) in function_lengths(&text) {
            if len > MAX_FUNCTION {
                long.push(format!("src/{rel}: fn {name}, {len} lines"));
            }
        }
    }
    assert!(long.is_empty(), "too long:\n{}", long.join("\n"));
}

#[test]
fn the_length_reader_sees_bodies_not_strings() {
    let text = "fn a() {\n    let s = \"}}}\";\n    let c = '{';\n}\n\
                pub(crate) fn b(x: u8) -> u8 {\n    // }\n    x\n}\n\
                fn decl();\n";
    assert_eq!(
        function_lengths(text),
        [("a".to_string(), 4), ("b".to_string(), 4)]
    );
}

/// Adding an engine is its folder, its `mod` line and one line of the
/// registry: the toy engine (src/engines/toy/, built only in tests, whose
/// unit tests run it through every command that builds engines) is named
/// nowhere else.
#[test]
fn an_engine_is_its_folder_and_one_registry_line() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut outside = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(&src).unwrap();
        if rel.starts_with("engines/toy") {
            continue;
        }
        let text = std::fs::read_to_string(f).unwrap();
        let names_it = |l: &&str| ["toy::", "mod toy", "Toy"].iter().any(|w| l.contains(w));
        for line in text.lines().filter(names_it) {
            outside.push(format!("{}: {}", rel.display(), line.trim()));
        }
    }
    assert_eq!(
        outside,
        [
            "engines/mod.rs: pub mod toy;",
            "registry.rs: &Registered::<crate::engines::toy::Kind>::NEW,",
        ],
        "the toy engine is named outside its folder and its two lines"
    );
    assert!(src.join("engines/toy/mod.rs").exists());
}

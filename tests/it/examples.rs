//! Every documented example runs: the command lines of README.md and
//! docs/cli.md (their `sh` blocks) and the examples each `--help` page ends
//! with. Each runs in a fresh folder holding the checkout's puzzles, in
//! order (an example may read what the one before it wrote); a command
//! that takes `--time-limit` gets one of half a second, so that an example
//! searching for an hour checks its arguments, its start and its stop in
//! half a second. Every example must end as a run does, 0 or 1 (stopped by the
//! limit), never as a usage or input error.

use std::path::{Path, PathBuf};

use crate::common::cmd;

/// The subcommands that take `--time-limit`.
const TIMED: [&str; 7] = [
    "solve",
    "count",
    "compare",
    "symmetry-report",
    "bench",
    "best",
    "probe",
];

/// The command lines of a Markdown file's `sh` blocks (continuations
/// joined, comments dropped).
fn markdown_commands(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_block = false;
    let mut line = String::new();
    for raw in text.lines() {
        if raw.trim_start().starts_with("```") {
            in_block = raw.trim_start() == "```sh";
            continue;
        }
        if !in_block {
            continue;
        }
        let part = raw.split(" #").next().unwrap_or("").trim_end();
        match part.strip_suffix('\\') {
            Some(head) => line.push_str(head),
            None => {
                line.push_str(part);
                out.push(std::mem::take(&mut line));
            }
        }
    }
    out
}

/// The example lines of a `--help` page: after `Examples:`, each line
/// starting with `scramble`, without its trailing description.
fn help_commands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Examples:"))
        .filter_map(|l| l.trim_start().strip_prefix("scramble "))
        .map(|l| format!("scramble {}", l.split("  ").next().unwrap_or("").trim()))
        .collect()
}

/// A placeholder such as PUZZLE, FILE or `gen6/P`, or an option list in
/// brackets: a synopsis, not a command.
fn is_synopsis(words: &[&str]) -> bool {
    words.iter().any(|w| {
        w.contains('[')
            || w.contains("...")
            || w.split('/').any(|part| {
                !part.is_empty() && part.chars().all(|c| c.is_ascii_uppercase() || c == '_')
            })
    })
}

/// One scramble invocation: its arguments, whether its standard input is
/// the output of the invocation before it (`|`), and the file its
/// standard output goes to (`>`).
#[derive(Debug, PartialEq)]
struct Invocation {
    args: Vec<String>,
    piped: bool,
    to: Option<String>,
}

/// The scramble invocations of one command line: the parts of `&&` and
/// `|` that run scramble, until a part that does not (a pipe into another
/// program, or a synopsis).
fn invocations(line: &str) -> Vec<Invocation> {
    let mut out = Vec::new();
    for step in line.split("&&") {
        for (k, part) in step.split('|').enumerate() {
            let words: Vec<&str> = part.split_whitespace().collect();
            let Some(first) = words.first() else { break };
            if !(first == &"scramble" || first.ends_with("/scramble")) || is_synopsis(&words) {
                break;
            }
            let (args, to) = match words.iter().position(|w| *w == ">") {
                Some(k) => (&words[1..k], words.get(k + 1).map(|s| s.to_string())),
                None => (&words[1..], None),
            };
            out.push(Invocation {
                args: args.iter().map(|s| s.to_string()).collect(),
                piped: k > 0,
                to,
            });
        }
    }
    out
}

/// `args` with globs expanded in `dir` and the time limit at most half a
/// second (14 of the 72 examples run to it: 7 s of the suite less than
/// with a second).
fn prepared(args: &[String], dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for a in args {
        match a.split_once('*') {
            Some((head, tail)) => {
                let (folder, prefix) = match head.rsplit_once('/') {
                    Some((f, p)) => (dir.join(f), p.to_string()),
                    None => (dir.to_path_buf(), head.to_string()),
                };
                let mut found: Vec<String> = std::fs::read_dir(&folder)
                    .map(|r| {
                        r.filter_map(|e| e.ok())
                            .map(|e| e.file_name().to_string_lossy().into_owned())
                            .filter(|n| n.starts_with(&prefix) && n.ends_with(tail))
                            .map(|n| match head.rsplit_once('/') {
                                Some((f, _)) => format!("{f}/{n}"),
                                None => n,
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                found.sort();
                assert!(
                    !found.is_empty(),
                    "{a}: nothing matches in {}",
                    dir.display()
                );
                out.extend(found);
            }
            None => out.push(a.clone()),
        }
    }
    if TIMED.contains(&out[0].as_str()) {
        match out.iter().position(|w| w == "--time-limit") {
            Some(k) => out[k + 1] = "0.5".into(),
            None => out.extend(["--time-limit".into(), "0.5".into()]),
        }
    }
    out
}

/// A fresh folder with the checkout's puzzles in it.
fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let puzzles = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles");
    std::os::unix::fs::symlink(puzzles, dir.path().join("puzzles")).unwrap();
    dir
}

/// Run each command line in order in one fresh folder.
fn run_all(source: &str, lines: &[String]) -> usize {
    let dir = workspace();
    let mut ran = 0;
    for line in lines {
        let mut before: Vec<u8> = Vec::new();
        for Invocation { args, piped, to } in invocations(line) {
            let args = prepared(&args, dir.path());
            let mut c = cmd();
            c.args(&args).current_dir(dir.path());
            if piped {
                c.write_stdin(std::mem::take(&mut before));
            }
            let out = c.output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                matches!(out.status.code(), Some(0 | 1)),
                "{source}: `{line}` ran as {args:?} and exited {:?}: {err}",
                out.status.code()
            );
            assert!(!err.contains("panicked"), "{source}: {line}: {err}");
            if let Some(to) = to {
                std::fs::write(dir.path().join(to), &out.stdout).unwrap();
            }
            before = out.stdout;
            ran += 1;
        }
    }
    ran
}

fn doc(name: &str) -> (PathBuf, String) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    (path, text)
}

#[test]
fn every_command_line_of_readme_and_the_cli_reference_runs() {
    if !crate::common::has_cpsat() {
        return;
    }
    for name in ["README.md", "docs/cli.md"] {
        let (_, text) = doc(name);
        let lines = markdown_commands(&text);
        let ran = run_all(name, &lines);
        assert!(ran >= 10, "{name}: only {ran} examples found");
    }
}

#[test]
fn every_help_page_has_examples_that_run() {
    if !crate::common::has_cpsat() {
        return;
    }
    let top = cmd().arg("--help").output().unwrap();
    let top = String::from_utf8(top.stdout).unwrap();
    // Each page's examples in a folder of their own, as a reader of that
    // page would run them.
    run_all("--help", &help_commands(&top));
    let subcommands: Vec<String> = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        // A name starts at the second column; a wrapped description deeper.
        .filter(|l| !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|c| c != "help")
        .collect();
    assert!(subcommands.len() >= 13, "{subcommands:?}");
    for sub in &subcommands {
        let help = cmd().args([sub.as_str(), "--help"]).output().unwrap();
        let help = String::from_utf8(help.stdout).unwrap();
        let examples = help_commands(&help);
        assert!(
            !examples.is_empty(),
            "`scramble {sub} --help` has no examples"
        );
        run_all(&format!("{sub} --help"), &examples);
    }
}

#[test]
fn help_pages_wrap_to_the_terminal() {
    for sub in ["solve", "count", "bench"] {
        let help = cmd()
            .args([sub, "--help"])
            .env("COLUMNS", "80")
            .output()
            .unwrap();
        let help = String::from_utf8(help.stdout).unwrap();
        let widest = help.lines().map(|l| l.chars().count()).max().unwrap();
        assert!(widest <= 100, "`{sub} --help`: a line of {widest} columns");
    }
}

#[test]
fn the_extraction_reads_continuations_pipes_and_synopses() {
    let md =
        "```sh\nscramble a b \\\n  c # note\nscramble PUZZLE --x\n```\n```\nscramble no\n```\n";
    assert_eq!(
        markdown_commands(md),
        vec!["scramble a b   c", "scramble PUZZLE --x"]
    );
    assert!(invocations("scramble PUZZLE --x").is_empty());
    let inv = invocations("scramble model x --out y && cadical y");
    let args: Vec<String> = ["model", "x", "--out", "y"].map(String::from).into();
    let want = Invocation {
        args,
        piped: false,
        to: None,
    };
    assert_eq!(inv, vec![want]);
    let inv = invocations("scramble solve p --format json > s.json");
    assert_eq!(inv[0].to.as_deref(), Some("s.json"));
    let inv = invocations("scramble solve p | scramble render p --solution - | head");
    assert_eq!(inv.len(), 2);
    assert!(inv[1].piped);
    let help = "Usage\n\nExamples:\n  scramble solve p        what it does\n";
    assert_eq!(help_commands(help), vec!["scramble solve p"]);
}

//! `scramble render` end to end (pictures from the tile data); more in
//! tests/it/pictures.rs.

use crate::common;

use common::{cmd, seed};
use predicates::prelude::*;

#[test]
fn renders_a_solution_from_json_text_or_stdin_and_the_unsolved_tiles() {
    let dir = tempfile::tempdir().unwrap();
    let json = cmd()
        .args([
            "solve",
            seed().to_str().unwrap(),
            "--solver",
            "backtrack",
            "--format",
            "json",
        ])
        .output()
        .unwrap()
        .stdout;
    let text = cmd()
        .args(["solve", seed().to_str().unwrap(), "--solver", "backtrack"])
        .output()
        .unwrap()
        .stdout;
    std::fs::write(dir.path().join("s.json"), &json).unwrap();
    std::fs::write(dir.path().join("s.txt"), &text).unwrap();
    let mut outs = Vec::new();
    for (name, src) in [("a.svg", "s.json"), ("b.svg", "s.txt")] {
        cmd()
            .args(["render", seed().to_str().unwrap(), "--solution"])
            .arg(dir.path().join(src))
            .arg("-o")
            .arg(dir.path().join(name))
            .assert()
            .success();
        outs.push(std::fs::read_to_string(dir.path().join(name)).unwrap());
    }
    cmd()
        .args(["render", seed().to_str().unwrap(), "--solution", "-", "-o"])
        .arg(dir.path().join("c.svg"))
        .write_stdin(json)
        .assert()
        .success();
    outs.push(std::fs::read_to_string(dir.path().join("c.svg")).unwrap());
    assert!(
        outs.windows(2).all(|w| w[0] == w[1]),
        "same picture from every source"
    );
    assert_eq!(outs[0].matches("<polygon").count(), 36);
    assert!(outs[0].contains(">r=1</text>"));
    cmd()
        .args(["render", seed().to_str().unwrap(), "-o"])
        .arg(dir.path().join("u.svg"))
        .assert()
        .success();
    assert!(
        std::fs::read_to_string(dir.path().join("u.svg"))
            .unwrap()
            .contains(">9</text>")
    );
}

#[test]
fn bad_solutions_and_outputs_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "[t=1,r=0] [t=2,r=0] [t=3,r=0]\n[t=4,r=0] [t=5,r=0] [t=6,r=0]\n[t=7,r=0] [t=8,r=0] [t=9,r=0]\n").unwrap();
    let out = dir.path().join("x.svg");
    cmd()
        .args(["render", seed().to_str().unwrap(), "--solution"])
        .arg(&bad)
        .arg("-o")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("bad.txt: not a solution"))
        .stderr(predicate::str::contains("does not fit"));
    assert!(!out.exists());
    cmd()
        .args(["render", seed().to_str().unwrap(), "--solution"])
        .arg(&bad)
        .args(["--index", "2", "-o"])
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "has 1 solution(s); --index 2 is out of range",
        ));
    cmd()
        .args(["render", seed().to_str().unwrap(), "-o"])
        .arg(dir.path().join("x.gif"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "x.gif: the output must be a .svg or .png file",
        ));
}

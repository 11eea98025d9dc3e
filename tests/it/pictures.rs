//! Pictures: the SVG snapshot of the seed solution, PNG sizes,
//! composition from tile images checked pixel by pixel, `solve --out` and its
//! safety rules, and index.html loaded in headless Chromium.

use crate::common;

use std::path::{Path, PathBuf};

use common::{cmd, corpus, seed};
use predicates::prelude::*;
use resvg::tiny_skia::{self, Color, Pixmap};
use scramble::board::parse_seed_text;
use scramble::puzzle::Puzzle;
use scramble::render::{png, svg};

const SEED_SOLUTION: &str =
    "[t=1,r=1] [t=9,r=3] [t=7,r=2]\n[t=4,r=2] [t=5,r=3] [t=3,r=2]\n[t=8,r=0] [t=6,r=3] [t=2,r=2]\n";

#[test]
fn seed_solution_svg_snapshot() {
    let p = Puzzle::load(&seed()).unwrap();
    let s = parse_seed_text(SEED_SOLUTION).unwrap();
    let got = svg::solution(&p, &s);
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/snapshots/seed_solution.svg");
    // SCRAMBLE_UPDATE_SNAPSHOTS=1 writes the new picture (review its diff).
    if std::env::var_os("SCRAMBLE_UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&file, &got).unwrap();
    }
    let want = std::fs::read_to_string(&file).unwrap();
    assert!(
        got.trim_end() == want.trim_end(),
        "the seed solution's SVG differs from {} (SCRAMBLE_UPDATE_SNAPSHOTS=1 rewrites it):\n{got}",
        file.display()
    );
}

/// Width and height attributes of one of our SVGs.
fn svg_size(svg: &str) -> (f32, f32) {
    let attr = |name: &str| -> f32 {
        let k = svg.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        svg[k..k + svg[k..].find('"').unwrap()].parse().unwrap()
    };
    (attr("width"), attr("height"))
}

fn decode(path: &Path) -> Pixmap {
    Pixmap::decode_png(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn pngs_decode_with_the_size_of_their_svg() {
    let dir = tempfile::tempdir().unwrap();
    let sol = dir.path().join("s.txt");
    std::fs::write(&sol, SEED_SOLUTION).unwrap();
    for (name, with_solution) in [("u", false), ("s", true)] {
        for ext in ["svg", "png"] {
            let mut c = cmd();
            c.args(["render", seed().to_str().unwrap(), "-o"])
                .arg(dir.path().join(format!("{name}.{ext}")));
            if with_solution {
                c.arg("--solution").arg(&sol);
            }
            c.assert().success();
        }
        let svg = std::fs::read_to_string(dir.path().join(format!("{name}.svg"))).unwrap();
        let (w, h) = svg_size(&svg);
        let pix = decode(&dir.path().join(format!("{name}.png")));
        assert_eq!((pix.width(), pix.height()), png::size_of(w, h), "{name}");
        assert_eq!(pix.width(), (w * png::SCALE) as u32);
    }
    // Deterministic: the same bytes again.
    let again = dir.path().join("again.png");
    cmd()
        .args(["render", seed().to_str().unwrap(), "--solution"])
        .arg(&sol)
        .arg("-o")
        .arg(&again)
        .assert()
        .success();
    assert_eq!(
        std::fs::read(&again).unwrap(),
        std::fs::read(dir.path().join("s.png")).unwrap()
    );
}

/// The colour of the mark on edge `e` (0 right, 1 top, 2 left, 3 bottom) of
/// the image of tile `t`.
fn mark(t: i64, e: usize) -> (u8, u8, u8) {
    (20 * t as u8 + 5, 50 * e as u8 + 30, 200)
}

/// A copy of the seed puzzle whose folder holds tile images 1.png ... 9.png
/// (`side` pixels): white, with a distinct square mark in the middle of
/// each edge.
fn puzzle_with_images(root: &Path, side: u32) -> PathBuf {
    let dir = root.join("imaged");
    let input = dir.join("input");
    std::fs::create_dir_all(&input).unwrap();
    std::fs::copy(
        seed().join("input/tile_dict.yaml"),
        input.join("tile_dict.yaml"),
    )
    .unwrap();
    let q = side as f32 / 4.0;
    for t in 1..=9 {
        let mut pix = Pixmap::new(side, side).unwrap();
        pix.fill(Color::WHITE);
        for (e, (x, y)) in [
            (3.0 * q, 1.5 * q),
            (1.5 * q, 0.0),
            (0.0, 1.5 * q),
            (1.5 * q, 3.0 * q),
        ]
        .into_iter()
        .enumerate()
        {
            let (r, g, b) = mark(t, e);
            let mut paint = tiny_skia::Paint::default();
            paint.set_color_rgba8(r, g, b, 255);
            pix.fill_rect(
                tiny_skia::Rect::from_xywh(x, y, q, q).unwrap(),
                &paint,
                tiny_skia::Transform::identity(),
                None,
            );
        }
        pix.save_png(input.join(format!("{t}.png"))).unwrap();
    }
    dir
}

#[test]
fn solutions_are_composed_from_tile_images_turned_counterclockwise() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = puzzle_with_images(tmp.path(), 40);
    let sol = tmp.path().join("s.txt");
    std::fs::write(&sol, SEED_SOLUTION).unwrap();
    let out = tmp.path().join("s.png");
    cmd()
        .arg("render")
        .arg(&dir)
        .arg("--solution")
        .arg(&sol)
        .arg("-o")
        .arg(&out)
        .assert()
        .success();
    let pix = decode(&out);
    let s = parse_seed_text(SEED_SOLUTION).unwrap();
    // Board geometry: a 20-unit margin, 100 units per tile, png::SCALE px
    // per unit. The middle of each side of each cell must show the mark of
    // the tile's base edge (d - r) mod 4.
    let at = |i: usize, j: usize, (dx, dy): (f32, f32)| {
        let x = ((20.0 + j as f32 * 100.0 + dx) * png::SCALE) as u32;
        let y = ((20.0 + i as f32 * 100.0 + dy) * png::SCALE) as u32;
        let c = pix.pixel(x, y).unwrap();
        (c.red(), c.green(), c.blue())
    };
    let near = |a: (u8, u8, u8), b: (u8, u8, u8)| {
        a.0.abs_diff(b.0) <= 2 && a.1.abs_diff(b.1) <= 2 && a.2.abs_diff(b.2) <= 2
    };
    let sides = [(87.5, 50.0), (50.0, 12.5), (12.5, 50.0), (50.0, 87.5)];
    for i in 0..3 {
        for j in 0..3 {
            let pl = s.at(i, j);
            for (d, &offset) in sides.iter().enumerate() {
                let base = (d + 4 - pl.rotation as usize) % 4;
                let want = mark(pl.tile, base);
                let got = at(i, j, offset);
                assert!(
                    near(got, want),
                    "cell ({}, {}) side {d}: tile {} r={} should show its edge {base} {want:?}, found {got:?}",
                    i + 1,
                    j + 1,
                    pl.tile,
                    pl.rotation
                );
            }
            // The centre is the white of the image.
            assert_eq!(at(i, j, (62.0, 62.0)), (255, 255, 255));
        }
    }
    // --no-images draws the tile art instead.
    let art = tmp.path().join("art.svg");
    cmd()
        .arg("render")
        .arg(&dir)
        .args(["--no-images", "-o"])
        .arg(&art)
        .assert()
        .success();
    assert!(
        !std::fs::read_to_string(&art)
            .unwrap()
            .contains("data:image/png")
    );
}

#[test]
fn bad_tile_images_are_named() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = puzzle_with_images(tmp.path(), 40);
    let input = dir.join("input");
    let render = || {
        cmd()
            .arg("render")
            .arg(&dir)
            .arg("-o")
            .arg(tmp.path().join("x.svg"))
            .assert()
    };
    // Not square.
    Pixmap::new(40, 30)
        .unwrap()
        .save_png(input.join("4.png"))
        .unwrap();
    render().code(2).stderr(predicate::str::contains(
        "4.png: is 40x30 pixels; tile images must be square",
    ));
    // Another size.
    Pixmap::new(30, 30)
        .unwrap()
        .save_png(input.join("4.png"))
        .unwrap();
    render()
        .code(2)
        .stderr(predicate::str::contains("4.png: is 30x30 pixels but"))
        .stderr(predicate::str::contains("1.png is 40x40"));
    // Missing.
    std::fs::remove_file(input.join("4.png")).unwrap();
    cmd()
        .arg("solve")
        .arg(&dir)
        .args(["--solver", "backtrack", "--out"])
        .arg(tmp.path().join("o"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "4.png: cannot read the image of tile 4",
        ));
    assert!(!tmp.path().join("x.svg").exists());
    assert!(!tmp.path().join("o").exists());
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn solve_out_writes_the_folder_and_keeps_other_folders_safe() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let run = |args: &[&str], dir: &Path| {
        let mut c = cmd();
        c.arg("solve")
            .arg(seed())
            .args(["--solver", "backtrack"])
            .args(args)
            .arg("--out")
            .arg(dir);
        c.assert()
    };
    run(&[], &out).success();
    assert_eq!(
        names(&out),
        [
            ".scramble-output",
            "1.png",
            "1.svg",
            "1.txt",
            "index.html",
            "solutions.json",
            "unsolved.png",
            "unsolved.svg"
        ]
    );
    assert_eq!(
        std::fs::read_to_string(out.join("1.txt")).unwrap(),
        SEED_SOLUTION
    );
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("solutions.json")).unwrap()).unwrap();
    assert_eq!(json["raw_count"], 4);
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(html.contains(r#"<img src="1.svg""#) && html.contains(r#"<img src="unsolved.svg""#));
    // Again, with every raw solution: ours, so rewritten.
    run(&["--all"], &out).success();
    assert!(names(&out).contains(&"4.png".to_string()));
    // And back: files of the previous run that this one does not write go.
    run(&[], &out).success();
    assert!(!out.join("4.png").exists());
    assert!(!names(&out).iter().any(|n| n.contains(".tmp-")));

    // A folder that is not ours and not empty: refused before solving,
    // untouched; --force writes into it and keeps the other files.
    let theirs = tmp.path().join("theirs");
    std::fs::create_dir(&theirs).unwrap();
    std::fs::write(theirs.join("notes.txt"), "mine").unwrap();
    std::fs::write(theirs.join("1.txt"), "also mine").unwrap();
    run(&[], &theirs)
        .code(2)
        .stderr(predicate::str::contains("not made by scramble"))
        .stderr(predicate::str::contains("--force"));
    assert_eq!(names(&theirs), ["1.txt", "notes.txt"]);
    assert_eq!(
        std::fs::read_to_string(theirs.join("1.txt")).unwrap(),
        "also mine"
    );
    run(&["--force"], &theirs).success();
    assert_eq!(
        std::fs::read_to_string(theirs.join("notes.txt")).unwrap(),
        "mine"
    );
    assert_eq!(
        std::fs::read_to_string(theirs.join("1.txt")).unwrap(),
        SEED_SOLUTION
    );
    // A file is not a folder; nothing is written beside it.
    let file = tmp.path().join("file");
    std::fs::write(&file, "x").unwrap();
    run(&[], &file)
        .code(2)
        .stderr(predicate::str::contains("is not a folder"));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "x");
    assert_eq!(names(tmp.path()), ["file", "out", "theirs"]);
}

/// Headless Chromium: Debian's package, installed by scripts/test; `None`
/// (after saying so, see `common::missing`) when it is not installed.
fn chromium() -> Option<PathBuf> {
    for c in ["/usr/bin/chromium", "/usr/bin/chromium-browser"] {
        if Path::new(c).is_file() {
            return Some(c.into());
        }
    }
    common::missing(
        "headless Chromium",
        "no /usr/bin/chromium",
        "`apt-get install chromium` (scripts/test does it)",
    );
    None
}

fn loaded_in_chromium(chromium: &Path, page: &Path) -> String {
    let profile = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--allow-file-access-from-files",
            "--virtual-time-budget=10000",
            "--dump-dom",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap();
    let dom = String::from_utf8_lossy(&out.stdout).into_owned();
    let k = dom.find("data-loaded=\"").unwrap_or_else(|| {
        panic!(
            "no data-loaded in the page Chromium loaded:\n{dom}\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let rest = &dom[k + 13..];
    rest[..rest.find('"').unwrap()].to_string()
}

#[test]
fn index_html_loads_every_picture_in_headless_chromium() {
    let Some(chromium) = chromium() else { return };
    let tmp = tempfile::tempdir().unwrap();
    // The seed puzzle (one class) and one with several (12 of crazy-sheep's
    // 220 drawn: its default 100 took 10 CPU-s to draw in the test build),
    // from images and from tile art.
    let imaged = puzzle_with_images(tmp.path(), 40);
    for (k, puzzle) in [seed(), corpus().join("crazy-sheep.yaml"), imaged]
        .iter()
        .enumerate()
    {
        let out = tmp.path().join(format!("out{k}"));
        cmd()
            .arg("solve")
            .arg(puzzle)
            .args(["--solver", "backtrack", "--pictures", "12", "--out"])
            .arg(&out)
            .assert()
            .success();
        let pictures = names(&out).iter().filter(|n| n.ends_with(".svg")).count();
        assert!(pictures >= 2);
        let page = out.canonicalize().unwrap().join("index.html");
        assert_eq!(
            loaded_in_chromium(&chromium, &page),
            format!("{pictures}/{pictures}"),
            "{}",
            puzzle.display()
        );
    }
    // The check can fail: a missing picture is seen.
    let out = tmp.path().join("out0");
    std::fs::remove_file(out.join("1.svg")).unwrap();
    assert_eq!(
        loaded_in_chromium(&chromium, &out.canonicalize().unwrap().join("index.html")),
        "1/2"
    );
}

#[test]
fn out_draws_at_most_the_pictures_asked_for_and_says_so() {
    // quadromino-haba has 10,752 classes: drawing all would take minutes.
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let run = cmd()
        .args([
            "solve",
            corpus().join("quadromino-haba.yaml").to_str().unwrap(),
        ])
        .args(["--solver", "backtrack", "--out", out.to_str().unwrap()])
        .args(["--pictures", "3"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0));
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.contains("drawing the first 3 of 10752 solutions"),
        "{err}"
    );
    for k in 1..=3 {
        for ext in ["svg", "png", "txt"] {
            assert!(out.join(format!("{k}.{ext}")).is_file(), "{k}.{ext}");
        }
    }
    assert!(!out.join("4.svg").exists());
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(index.contains("The first 3 of 10752 solutions"));
    assert!(index.contains("data-pictures=\"3\""));
    // solutions.json holds them all.
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("solutions.json")).unwrap()).unwrap();
    assert_eq!(json["solutions"].as_array().unwrap().len(), 10752);
}

/// `solve --out` drawing thousands of pictures (minutes of work), stopped
/// after the solve by Ctrl-C (`interrupt`) or by the `extra` options: the
/// result is printed, nothing is written.
fn stopped_while_drawing(extra: &[&str], interrupt: bool) {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("scramble"))
        .args([
            "solve",
            corpus().join("quadromino-haba.yaml").to_str().unwrap(),
        ])
        .args(["--solver", "backtrack", "--out", out.to_str().unwrap()])
        .args(["--pictures", "20000"])
        .args(extra)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The first line of stderr comes as the drawing begins: the interrupt
    // follows it, whatever the machine's speed.
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut first = String::new();
    std::io::BufRead::read_line(&mut stderr, &mut first).unwrap();
    assert!(first.starts_with("drawing "), "{first}");
    if interrupt {
        common::interrupt(&child);
    }
    // The rest of stderr beside stdout (a full pipe would block the child).
    let rest = std::thread::spawn(move || {
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
        rest
    });
    let run = child.wait_with_output().unwrap();
    let err = first + &rest.join().unwrap();
    assert_eq!(run.status.code(), Some(1), "{err}");
    // What was found is written, and said to be partial: every solution
    // in solutions.json, the pictures drawn before the stop.
    assert!(err.contains("partial: drawing was stopped"), "{err}");
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("solutions.json")).unwrap()).unwrap();
    assert_eq!(json["raw_count"], 43008);
    assert!(out.join("index.html").is_file());
    let pngs = std::fs::read_dir(&out)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension() == Some("png".as_ref()))
        .count();
    assert!(pngs < 20000, "{pngs} pictures: drawing was not stopped");
    assert!(String::from_utf8_lossy(&run.stdout).contains("raw solutions: 43008"));
}

#[test]
fn ctrl_c_while_drawing_writes_what_was_drawn() {
    stopped_while_drawing(&[], true);
}

#[test]
fn the_time_limit_covers_drawing() {
    stopped_while_drawing(&["--time-limit", "1"], false);
}

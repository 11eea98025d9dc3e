//! The Eternity II community's plain-text piece files, and its notation
//! for squares and turns.
//!
//! A file is an optional `rows cols` line, then one piece a line: four
//! colour numbers clockwise from the bottom (bottom, left, top, right).
//! Pieces are numbered from 1 in line order; colour 0 is the grey frame;
//! colours match the same colour. scramble reads each colour as a
//! self-matching (`=`) motif named by its number, and the piece's edges in
//! its own order (right, top, left, bottom): the file's fourth, third,
//! second and first numbers.
//!
//! The community turns pieces clockwise and names squares by row letter
//! from the top and column number (I8: row 9, column 8). Those are
//! translated here at the edge of the program and never used inside it.

use std::path::Path;

use super::{Edge, Half, Hint, Puzzle, PuzzleError, Tile, Turning};

/// Whether a file is a piece file: its name ends in `.txt`, or every line
/// that is not blank or a `#` comment is whitespace-separated whole numbers
/// (a YAML puzzle has `:` on every tile line).
pub(crate) fn is_piece_file(path: &Path, text: &str) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("txt"))
        || looks_like_pieces(text)
}

fn looks_like_pieces(text: &str) -> bool {
    let mut lines = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .peekable();
    lines.peek().is_some()
        && lines.all(|l| {
            l.split_whitespace()
                .all(|w| w.bytes().all(|b| b.is_ascii_digit()))
        })
}

/// Parse a piece file; `file` names it in errors.
pub(crate) fn parse(text: &str, file: &Path, name: String) -> Result<Puzzle, PuzzleError> {
    let bad = |line: usize, message: String| PuzzleError::Rule {
        path: file.to_path_buf(),
        line: Some(line),
        message,
    };
    let mut header: Option<(usize, usize, usize)> = None;
    let mut pieces: Vec<([u32; 4], usize)> = Vec::new();
    for (x, raw) in text.lines().enumerate() {
        let line = x + 1;
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = l.split_whitespace().collect();
        let numbers: Vec<u32> = words
            .iter()
            .map(|w| {
                w.parse::<u32>().map_err(|_| {
                    bad(
                        line,
                        format!("{w:?} is not a colour number (a whole number, 0 for the frame)"),
                    )
                })
            })
            .collect::<Result<_, _>>()?;
        match numbers[..] {
            [r, c] if header.is_none() && pieces.is_empty() => {
                if r == 0 || c == 0 {
                    return Err(bad(line, format!("a board of {r}x{c} has no cells")));
                }
                header = Some((r as usize, c as usize, line));
            }
            [a, b, c, d] => pieces.push(([a, b, c, d], line)),
            _ => {
                return Err(bad(
                    line,
                    format!(
                        "expected a piece (four colour numbers: bottom, left, top, right){}, found {} numbers",
                        if header.is_none() && pieces.is_empty() {
                            " or a `rows cols` header"
                        } else {
                            ""
                        },
                        numbers.len()
                    ),
                ));
            }
        }
    }
    if pieces.is_empty() {
        return Err(PuzzleError::Empty {
            path: file.to_path_buf(),
        });
    }
    let (rows, cols) = match header {
        Some((r, c, line)) if r * c != pieces.len() => {
            return Err(bad(
                line,
                format!(
                    "the header says {r}x{c} = {} pieces, the file has {}",
                    r * c,
                    pieces.len()
                ),
            ));
        }
        Some((r, c, _)) => (r, c),
        None => {
            let n = pieces.len().isqrt();
            if n * n != pieces.len() {
                return Err(PuzzleError::NotSquare {
                    path: file.to_path_buf(),
                    count: pieces.len(),
                });
            }
            (n, n)
        }
    };
    // Motifs named by colour number, in order of first appearance in the
    // file (so the same file always gives the same indices).
    let mut colours: Vec<u32> = Vec::new();
    let mut motif = |c: u32| -> u16 {
        match colours.iter().position(|&x| x == c) {
            Some(m) => m as u16,
            None => {
                colours.push(c);
                (colours.len() - 1) as u16
            }
        }
    };
    let mut tiles = Vec::with_capacity(pieces.len());
    for (k, (c, _)) in pieces.iter().enumerate() {
        // File order bottom, left, top, right; scramble's right, top, left, bottom.
        let edges = [c[3], c[2], c[1], c[0]].map(|x| Edge {
            motif: motif(x),
            half: Half::Same,
        });
        tiles.push(Tile {
            id: k as i64 + 1,
            edges,
        });
    }
    let frame = colours.iter().position(|&c| c == 0).map(|m| m as u16);
    let lines: Vec<usize> = pieces.iter().map(|p| p.1).collect();
    let puzzle = Puzzle {
        name,
        title: None,
        source: file.to_path_buf(),
        rows,
        cols,
        tiles,
        motifs: colours.iter().map(|c| c.to_string()).collect(),
        frame,
        hints: Vec::new(),
        turning: Turning::Quarter,
    };
    puzzle.check_frame(&|id| lines.get((id - 1) as usize).copied())?;
    Ok(puzzle)
}

/// A square in the community's notation (`I8`: row letter from the top,
/// column number from the left) as a row-major cell of a `rows`x`cols`
/// board; `None` if it is not one.
pub fn square(name: &str, rows: usize, cols: usize) -> Option<usize> {
    let mut chars = name.chars();
    let letter = chars.next()?.to_ascii_uppercase();
    if !letter.is_ascii_uppercase() {
        return None;
    }
    let i = (letter as u8 - b'A') as usize;
    let j: usize = chars.as_str().parse().ok()?;
    (i < rows && (1..=cols).contains(&j)).then(|| i * cols + j - 1)
}

/// Clockwise quarter turns (the community's) as counterclockwise ones
/// (scramble's), and back: the same map.
pub fn turns_other_way(r: u8) -> u8 {
    (4 - r % 4) % 4
}

/// Eternity II's starter piece: 139 on I8, turned 2 clockwise.
const STARTER: &str = "139@I8/2";
/// The clue puzzles' pieces of the 16x16 board, with the starter.
const CLUES: [&str; 5] = [STARTER, "181@N3/3", "255@C14/3", "249@N14/0", "208@C3/3"];

/// Fixed pieces from a command-line spec, for a board of `rows` x `cols`:
/// `TILE@SQUARE/TURNS` in the community's notation (square `I8`, turns
/// clockwise), `TILE@I,J/R` in scramble's ((i, j) 1-based, r
/// counterclockwise), or a preset: `eternity2` (the starter piece) or
/// `eternity2-clues` (the starter and the four clue pieces). The message
/// says what is wrong.
pub fn parse_hints(spec: &str, rows: usize, cols: usize) -> Result<Vec<Hint>, String> {
    let specs: Vec<&str> = match spec {
        "eternity2" => vec![STARTER],
        "eternity2-clues" => CLUES.to_vec(),
        one => vec![one],
    };
    specs
        .into_iter()
        .map(|s| parse_hint(s, rows, cols))
        .collect()
}

fn parse_hint(spec: &str, rows: usize, cols: usize) -> Result<Hint, String> {
    let usage = || {
        format!(
            "--hint {spec:?}: expected TILE@SQUARE/TURNS (the community's: 139@I8/2, turns clockwise), TILE@I,J/R (scramble's: 139@9,8/2, r counterclockwise), eternity2 or eternity2-clues"
        )
    };
    let (tile, rest) = spec.split_once('@').ok_or_else(usage)?;
    let (place, turns) = rest.split_once('/').ok_or_else(usage)?;
    let tile: i64 = tile.trim().parse().map_err(|_| usage())?;
    let turns: u8 = turns.trim().parse().map_err(|_| usage())?;
    if turns > 3 {
        return Err(format!("--hint {spec:?}: {turns} turns: must be 0..3"));
    }
    let outside = || format!("--hint {spec:?}: {place} is not a square of the {rows}x{cols} board");
    let (cell, rotation) = match place.split_once(',') {
        Some((i, j)) => {
            let i: usize = i.trim().parse().map_err(|_| usage())?;
            let j: usize = j.trim().parse().map_err(|_| usage())?;
            (super::cell_at(rows, cols, i, j).ok_or_else(outside)?, turns)
        }
        None if place.starts_with(|c: char| c.is_ascii_alphabetic()) => (
            square(place.trim(), rows, cols).ok_or_else(outside)?,
            turns_other_way(turns),
        ),
        None => return Err(usage()),
    };
    Ok(Hint {
        cell,
        tile,
        rotation,
    })
}

/// A piece file's text for a puzzle the format can say: a `rows cols` line,
/// then each tile in id order as bottom, left, top, right. Refused (with
/// the reason) when the puzzle has a `+`/`-` motif or a motif that is not a
/// number, tile ids other than 1, 2, ..., fixed pieces or tiles that do not
/// turn, or a colour 0 that is not its frame (the format reads colour 0 as
/// the frame).
pub fn to_text(p: &Puzzle) -> Result<String, String> {
    if !p.hints.is_empty() {
        return Err("a piece file cannot fix pieces (give them with --hint)".into());
    }
    if p.turning == Turning::None {
        return Err("a piece file's pieces always turn".into());
    }
    let frame_name = p.frame.map(|f| p.motifs[f as usize].as_str());
    if frame_name.is_some_and(|f| f.parse::<u32>() != Ok(0)) {
        return Err(format!(
            "the frame motif {:?} is not colour 0",
            frame_name.unwrap_or_default()
        ));
    }
    let mut out = format!("{} {}\n", p.rows, p.cols);
    for (k, t) in p.tiles.iter().enumerate() {
        if t.id != k as i64 + 1 {
            return Err(format!(
                "tile ids must be 1, 2, ... in order (pieces are numbered by line); found {}",
                t.id
            ));
        }
        let mut nums = Vec::with_capacity(4);
        for d in [3, 2, 1, 0] {
            let e = t.edges[d];
            let name = &p.motifs[e.motif as usize];
            if e.half != Half::Same {
                return Err(format!(
                    "tile {}: motif {name:?} has halves; piece files only have colours",
                    t.id
                ));
            }
            let colour: u32 = name
                .parse()
                .map_err(|_| format!("tile {}: motif {name:?} is not a colour number", t.id))?;
            if colour == 0 && p.frame.is_none() {
                return Err("colour 0 would read as a frame, which this puzzle has not".into());
            }
            nums.push(colour.to_string());
        }
        out.push_str(&nums.join(" "));
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(text: &str) -> Result<Puzzle, PuzzleError> {
        parse(text, Path::new("p.txt"), "p".into())
    }

    #[test]
    fn squares_and_turns() {
        assert_eq!(square("I8", 16, 16), Some(8 * 16 + 7));
        assert_eq!(square("a1", 2, 2), Some(0));
        assert_eq!(square("Q1", 16, 16), None);
        assert_eq!(square("A17", 16, 16), None);
        assert_eq!(square("A0", 16, 16), None);
        assert_eq!(turns_other_way(1), 3);
        assert_eq!(turns_other_way(0), 0);
        assert_eq!(turns_other_way(2), 2);
    }

    const TWO: &str = "2 2\n0 0 1 2\n0 2 1 0\n2 0 0 1\n1 0 0 2\n";

    #[test]
    fn reads_edges_in_scramble_order() {
        let p = parse_str(TWO).unwrap();
        assert_eq!((p.rows, p.cols), (2, 2));
        assert_eq!(p.frame.map(|f| p.motifs[f as usize].as_str()), Some("0"));
        // Piece 1 is "0 0 1 2": bottom 0, left 0, top 1, right 2.
        let t = &p.tiles[0];
        let name = |d: usize| p.motifs[t.edges[d].motif as usize].clone();
        assert_eq!([name(0), name(1), name(2), name(3)], ["2", "1", "0", "0"]);
        assert!(t.edges.iter().all(|e| e.half == Half::Same));
        assert_eq!(to_text(&p).unwrap(), TWO);
    }

    #[test]
    fn rejects_bad_files_with_their_line() {
        let cases: &[(&str, &str)] = &[
            (
                "2 2\n0 0 1 2\n",
                "p.txt:1: the header says 2x2 = 4 pieces, the file has 1",
            ),
            ("2 2\n0 0 1 x\n", "p.txt:2: \"x\" is not a colour number"),
            ("2 2\n0 0 1\n", "p.txt:2: expected a piece"),
            ("0 0 1 2\n0 2 1 0\n", "2 tiles is not a square"),
            (
                "2 2\n0 0 1 2\n0 2 1 0\n2 0 0 1\n1 0 2 2\n",
                "3 corner pieces",
            ),
            (
                "2 2\n0 0 1 2\n0 2 1 0\n2 0 0 1\n0 1 0 2\n",
                "p.txt:5: tile 4 has 2 frame edges (0) on opposite sides",
            ),
        ];
        for (text, want) in cases {
            let err = parse_str(text).unwrap_err().to_string();
            assert!(err.contains(want), "{text:?}: {err}");
        }
    }

    #[test]
    fn hints_in_both_notations_and_presets() {
        let h = parse_hints("139@I8/1", 16, 16).unwrap();
        assert_eq!(
            h,
            [Hint {
                cell: 8 * 16 + 7,
                tile: 139,
                rotation: 3
            }]
        );
        assert_eq!(parse_hints("139@9,8/3", 16, 16).unwrap(), h);
        assert_eq!(parse_hints("eternity2", 16, 16).unwrap()[0].rotation, 2);
        assert_eq!(parse_hints("eternity2-clues", 16, 16).unwrap().len(), 5);
        for (bad, want) in [
            ("139", "expected TILE@SQUARE/TURNS"),
            ("139@Z8/1", "not a square of the 16x16 board"),
            ("139@17,1/1", "not a square"),
            ("139@I8/4", "must be 0..3"),
            ("x@I8/1", "expected"),
        ] {
            let e = parse_hints(bad, 16, 16).unwrap_err();
            assert!(e.contains(want), "{bad}: {e}");
        }
    }

    #[test]
    fn recognizes_piece_files() {
        assert!(looks_like_pieces(TWO));
        assert!(looks_like_pieces("# c\n\n1 2 3 4\n"));
        assert!(!looks_like_pieces(
            "1: [[a, '+'], [b, '-'], [a, '='], [c, '+']]\n"
        ));
        assert!(!looks_like_pieces(""));
    }
}

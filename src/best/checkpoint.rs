//! Checkpoints of `scramble best`: the best board so far, so a long run
//! resumes from it (`--checkpoint FILE`). JSON, rewritten whole (a temporary
//! file renamed over it, `files::write_whole`) at each improvement.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::board::{Placement, Solution};
use crate::files::CheckpointError;
use crate::puzzle::Puzzle;

const FORMAT: &str = "scramble-best-checkpoint/1";

#[derive(Debug, Serialize, Deserialize)]
struct File {
    format: String,
    puzzle: String,
    /// A hash of the board size, the rules and every tile.
    fingerprint: String,
    score: usize,
    joins: usize,
    /// The board, row-major (tile, rotation).
    board: Vec<Placement>,
}

/// The board a checkpoint holds for `puzzle` (`None` if the file does not
/// exist), checked against the puzzle.
pub(crate) fn load(path: &Path, puzzle: &Puzzle) -> Result<Option<Solution>, CheckpointError> {
    let err = |message: String| CheckpointError {
        path: path.to_path_buf(),
        message,
    };
    let bytes = match std::fs::read(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(err(format!("cannot read: {e}"))),
        Ok(b) => b,
    };
    let f: File =
        serde_json::from_slice(&bytes).map_err(|e| err(format!("not a best checkpoint: {e}")))?;
    if f.format != FORMAT {
        return Err(err(format!("format {:?}, expected {FORMAT:?}", f.format)));
    }
    if f.fingerprint != puzzle.fingerprint() {
        return Err(err(format!(
            "made for another puzzle ({}), not {}; remove it or name another file",
            f.puzzle,
            puzzle.name()
        )));
    }
    let board = Solution::shaped(f.board, puzzle.shape());
    let score = board
        .score(puzzle)
        .map_err(|e| err(format!("its board does not fit the puzzle: {e}")))?;
    if score.valid != f.score {
        return Err(err(format!(
            "it says {} valid joins, its board has {}",
            f.score, score.valid
        )));
    }
    Ok(Some(board))
}

/// Write `board` (with `score` valid joins) as the checkpoint.
pub(crate) fn save(
    path: &Path,
    puzzle: &Puzzle,
    board: &Solution,
    score: usize,
) -> Result<(), CheckpointError> {
    let file = File {
        format: FORMAT.into(),
        puzzle: puzzle.name().to_string(),
        fingerprint: puzzle.fingerprint(),
        score,
        joins: crate::board::Score::joins_of(puzzle),
        board: board.cells().to_vec(),
    };
    let mut text = serde_json::to_string(&file).expect("serializable");
    text.push('\n');
    crate::files::write_whole(path, text.as_bytes()).map_err(|e| CheckpointError {
        path: path.to_path_buf(),
        message: format!("cannot write: {e}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checkpoint_round_trips_and_refuses_another_puzzle() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let p = Puzzle::load(&root.join("puzzles/3x3-original")).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("best.json");
        assert!(load(&path, &p).unwrap().is_none());
        let board = crate::board::parse_seed_text(
            "[t=1,r=1] [t=9,r=3] [t=7,r=2]\n[t=4,r=2] [t=5,r=3] [t=3,r=2]\n[t=8,r=0] [t=6,r=3] [t=2,r=2]\n",
        )
        .unwrap();
        save(&path, &p, &board, 12).unwrap();
        assert_eq!(load(&path, &p).unwrap(), Some(board.clone()));
        let other = Puzzle::load(&root.join("puzzles/legespiel/crazy-sheep.yaml")).unwrap();
        let e = load(&path, &other).unwrap_err();
        assert!(e.message.contains("another puzzle"), "{e}");
        // A score that does not match its board is refused.
        save(&path, &p, &board, 11).unwrap();
        assert!(load(&path, &p).unwrap_err().message.contains("says 11"));
    }
}

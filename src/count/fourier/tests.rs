//! The programme at roots of unity against the dynamic programme, which
//! counts the kinds in its state: the same numbers of pictures, and of
//! pictures each turn fixes, on corpus puzzles and generated ones with
//! alike tiles, frames and self-matching edges.

use std::path::Path;

use super::*;
use crate::count::dp;
use crate::generate::{FamilyOptions, plant_family};
use crate::generate::{PlantOptions, Rng, plant_with_duplicates};
use crate::puzzle::Turning;

fn never() -> bool {
    false
}

fn limits() -> Limits<'static> {
    Limits {
        max_states: 10_000_000,
        stop: &never,
        threads: 2,
    }
}

/// Both programmes on every turn of the board's group.
fn agree(p: &Puzzle) -> [u128; 3] {
    let turns: &[usize] = match p.group().order() {
        4 => &[0, 1, 2],
        2 => &[0, 2],
        _ => &[0],
    };
    let mut out = [0; 3];
    for (i, &t) in turns.iter().enumerate() {
        let by_dp = dp::pictures_fixed_by(p, t, &limits()).unwrap().count;
        // Two grids: another kind fixed where two have the fewest tiles,
        // and other primes.
        for grid in [0, 1] {
            let by_roots = pictures_fixed_by(p, t, &limits(), grid, None)
                .unwrap()
                .count;
            assert_eq!(by_roots, by_dp, "{}: turns {t}, grid {grid}", p.name());
        }
        out[i] = by_dp;
    }
    out
}

/// Points of the grid for `p`'s pictures (the tests keep to small grids).
fn points(p: &Puzzle) -> u64 {
    Grid::new(&narrowest_plan(p, 0).multiplicities, 0).map_or(u64::MAX, |g| g.points)
}

#[test]
fn corpus_puzzles_count_alike() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/legespiel");
    for name in [
        "der-sternenhimmel",
        "space-web",
        "quadromino-haba",
        "nob-s-arrows",
    ] {
        let p = Puzzle::load(&dir.join(format!("{name}.yaml"))).unwrap();
        let [all, ..] = agree(&p);
        assert!(all > 0, "{name} has pictures");
    }
}

#[test]
fn generated_puzzles_with_alike_tiles_count_alike() {
    let (mut tested, mut fixed) = (0, 0);
    for seed in 0..60u64 {
        let o = PlantOptions {
            n: 3 + (seed % 2) as usize,
            motifs: 1 + (seed % 3) as usize,
            self_matching: seed % 4 < 2,
        };
        let mut rng = Rng::new(seed);
        let Some((p, _)) = plant_with_duplicates(&mut rng, &o, 4, 50) else {
            continue;
        };
        if points(&p) > 4096 {
            continue;
        }
        let counts = agree(&p);
        assert!(counts[0] > 0, "a planted puzzle has a picture");
        tested += 1;
        fixed += (counts[1] + counts[2] > 0) as usize;
    }
    assert!(tested >= 30, "{tested}");
    assert!(fixed >= 1, "{fixed}");
}

#[test]
fn framed_family_boards_count_alike() {
    for seed in 0..6u64 {
        let o = FamilyOptions {
            rows: 4,
            cols: 4 + (seed % 2) as usize,
            frame_colours: 1 + (seed % 2) as usize,
            inner_colours: 2,
            turning: if seed % 3 == 2 {
                Turning::None
            } else {
                Turning::Quarter
            },
            hint: seed == 4,
        };
        let (p, _) = plant_family(&mut Rng::new(seed), &o);
        let [all, ..] = agree(&p);
        assert!(all > 0);
    }
}

#[test]
fn a_count_past_one_prime_is_joined_from_several() {
    // One motif on a 4x4: 2.7e9 pictures, past one prime below 2^30.
    let o = PlantOptions {
        n: 4,
        motifs: 1,
        self_matching: false,
    };
    let (p, _) = plant_with_duplicates(&mut Rng::new(39), &o, 4, 50).unwrap();
    let plan = narrowest_plan(&p, 0);
    let frontier = Frontier::compile(&plan, &limits()).unwrap();
    let bits = bound::log2_count_bound(&frontier, &plan.multiplicities, &never).unwrap();
    let count = pictures_fixed_by(&p, 0, &limits(), 0, None).unwrap().count;
    assert!(count > 1 << 30, "{count}");
    assert!((count as f64).log2() <= bits, "{count} within 2^{bits}");
    assert_eq!(
        count,
        dp::pictures_fixed_by(&p, 0, &limits()).unwrap().count
    );
}

#[test]
fn the_bound_holds_and_is_near() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/legespiel");
    let p = Puzzle::load(&dir.join("crazy-sheep.yaml")).unwrap();
    let plan = narrowest_plan(&p, 0);
    let frontier = Frontier::compile(&plan, &limits()).unwrap();
    let bits = bound::log2_count_bound(&frontier, &plan.multiplicities, &never).unwrap();
    let count = dp::pictures_fixed_by(&p, 0, &limits()).unwrap().count as f64;
    assert!(
        count.log2() <= bits && bits < count.log2() + 40.0,
        "{count} 2^{bits}"
    );
}

#[test]
fn too_many_kinds_are_refused_and_a_stop_is_honoured() {
    let e2 = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/eternity2/8x8-a.txt");
    let p = Puzzle::load(&e2).unwrap();
    assert!(matches!(
        pictures_fixed_by(&p, 0, &limits(), 0, None),
        Err(DpError::TooManyPoints { .. })
    ));
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/legespiel");
    let p = Puzzle::load(&dir.join("crazy-sheep.yaml")).unwrap();
    let yes = || true;
    let stopped = pictures_fixed_by(
        &p,
        0,
        &Limits {
            max_states: 1000,
            stop: &yes,
            threads: 2,
        },
        0,
        None,
    );
    assert!(stopped.unwrap_err().is_stop());
    // Stopped while evaluating: the compile's look at the clock passes.
    let calls = AtomicU64::new(0);
    let later = || calls.fetch_add(1, Ordering::Relaxed) > 1000;
    let stopped = pictures_fixed_by(
        &p,
        0,
        &Limits {
            max_states: 1_000_000,
            stop: &later,
            threads: 1,
        },
        0,
        None,
    );
    assert!(matches!(stopped, Err(DpError::StoppedEvaluating { .. })));
    let capped = pictures_fixed_by(
        &p,
        0,
        &Limits {
            max_states: 5,
            stop: &never,
            threads: 1,
        },
        0,
        None,
    );
    assert!(matches!(capped, Err(DpError::TooManyStates { .. })));
}

#[test]
fn boards_of_the_ant_trails_tiles_count_alike() {
    // The puzzle nobody has counted, in parts the dynamic programme
    // finishes: boards of 9 to 16 of its tiles, drawn at random.
    use crate::puzzle::Parts;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/legespiel");
    let ants = Puzzle::load(&dir.join("the-ant-trails-puzzle.yaml")).unwrap();
    let mut rng = Rng::new(7);
    let mut pictures = 0;
    for (rows, cols) in [(3, 3), (3, 4), (4, 3), (2, 6), (4, 4), (3, 5)] {
        let mut tiles = ants.tiles().to_vec();
        for i in 0..tiles.len() {
            let j = i + rng.below(tiles.len() - i);
            tiles.swap(i, j);
        }
        tiles.truncate(rows * cols);
        let part = Puzzle::new(Parts {
            name: format!("ants-{rows}x{cols}"),
            title: None,
            source: ants.source().to_path_buf(),
            rows,
            cols,
            tiles,
            motifs: ants.motifs().to_vec(),
            frame: None,
            hints: Vec::new(),
            turning: Turning::Quarter,
        })
        .unwrap();
        pictures += agree(&part)[0];
    }
    assert!(pictures > 1000, "{pictures}");
}

#[test]
fn a_stopped_count_resumes_from_its_checkpoint_to_the_same_number() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/legespiel");
    let p = Puzzle::load(&dir.join("nob-s-arrows.yaml")).unwrap();
    // 256 points, 32 lane batches per prime, 8 units of 4 batches.
    assert_eq!(points(&p), 256);
    let whole = pictures_fixed_by(&p, 0, &limits(), 0, None).unwrap().count;
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("c.json");
    let open = || Mutex::new(Checkpoint::open(&path, &p, &checkpoint_search(0)).unwrap());
    // The stop's polls in a whole run: the bound's, then one per lane batch.
    let polls = |checkpoint: Option<&Mutex<Checkpoint>>| {
        let calls = AtomicU64::new(0);
        let counting = || {
            calls.fetch_add(1, Ordering::Relaxed);
            false
        };
        let counted = Limits {
            max_states: 1_000_000,
            stop: &counting,
            threads: 1,
        };
        let n = pictures_fixed_by(&p, 0, &counted, 0, checkpoint)
            .unwrap()
            .count;
        assert_eq!(n, whole);
        calls.into_inner()
    };
    let all = polls(None);
    // Stopped while evaluating the last prime's last two units.
    let calls = AtomicU64::new(0);
    let later = || calls.fetch_add(1, Ordering::Relaxed) + 8 >= all;
    let stopping = Limits {
        max_states: 1_000_000,
        stop: &later,
        threads: 1,
    };
    let first = open();
    let stopped = pictures_fixed_by(&p, 0, &stopping, 0, Some(&first));
    let Err(DpError::StoppedEvaluating { done, .. }) = stopped else {
        panic!("{stopped:?}");
    };
    assert!(done > 0, "some units ended before the stop");
    let mut first = first.into_inner().unwrap();
    let units = first.done().count();
    assert!(units >= 6, "{units}");
    first.write();
    assert!(first.write_error.is_none());
    // The next run starts from those units and ends with the same count.
    let second = open();
    assert_eq!(second.lock().unwrap().done().count(), units);
    let resumed = pictures_fixed_by(&p, 0, &limits(), 0, Some(&second));
    assert_eq!(resumed.unwrap().count, whole);
    assert!(second.lock().unwrap().done().count() > units);
    // Every unit's sum read back from the file, none evaluated again:
    // none of the 32 lane batches per prime polls the stop.
    let mut second = second.into_inner().unwrap();
    second.write();
    let third = open();
    assert!(polls(Some(&third)) + 32 <= all);
}

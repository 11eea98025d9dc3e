"""The Python package against the CLI and the corpus: install,
solve, count, render, exceptions, the GIL and interruption. Run by
scripts/test-python (and so by scripts/test)."""

import json
import os
import sys
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

import scramble

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT / "puzzles" / "3x3-original"
CORPUS = ROOT / "puzzles" / "legespiel"
E2 = ROOT / "puzzles" / "eternity2"
# The CLI built beside the package: the release build, or the one named by
# SCRAMBLE_CLI (scripts/test builds with the test profile, target/ci).
CLI = Path(os.environ.get("SCRAMBLE_CLI") or ROOT / "target" / "release" / "scramble")


def boards():
    """The board size ("3x3") of each puzzle in the corpus' expected.tsv."""
    return {
        f[0]: f[1]
        for f in (line.split("\t") for line in (CORPUS / "expected.tsv").read_text().splitlines())
        if len(f) > 1 and not f[0].startswith("#")
    }


def expected():
    """Rows of the corpus' expected.tsv with every count known and within
    an enumeration's reach (the-ant-trails-puzzle's 1e34 labelled
    solutions, counted by the programme at roots of unity, are not)."""
    rows = []
    for line in (CORPUS / "expected.tsv").read_text().splitlines():
        if line.startswith("#") or line.startswith("file\t") or not line.strip():
            continue
        f = line.split("\t")
        if all(x.isdigit() for x in f[2:5]) and int(f[2]) < 2**64:
            rows.append((f[0], int(f[2]), int(f[3]), int(f[4])))
    return rows


def without_times(d):
    """A JSON report without what changes from run to run."""
    if isinstance(d, dict):
        return {
            k: without_times(v)
            for k, v in d.items()
            # memory_limit_mb: half the memory available when the run
            # starts, which other programs change; subproblems: on two
            # threads the whole model races its parts, and which ends first
            # decides how many parts ran.
            if not (
                k.endswith("_s")
                or k
                in (
                    "nodes_per_second",
                    "branches",
                    "conflicts",
                    "memory_limit_mb",
                    "subproblems",
                )
            )
        }
    if isinstance(d, list):
        return [without_times(x) for x in d]
    return d


def test_the_seed_puzzle_has_four_solutions_one_class():
    r = scramble.load(SEED).solve()
    assert r.complete and r.outcome == "complete"
    assert r.counts == {"raw": 4, "classes": 1, "pictures": 1}
    assert r.solutions == [[[(1, 1), (9, 3), (7, 2)], [(4, 2), (5, 3), (3, 2)], [(8, 0), (6, 3), (2, 2)]]]
    assert r.exit_code == 0


@pytest.mark.parametrize("options", [["--solver", "backtrack", "--all"], ["--model", "table"], []])
def test_a_solve_reports_what_the_cli_reports(options):
    """The same command line through Python and through the binary: the
    same report, apart from times and solver statistics."""
    cli = subprocess.run(
        [str(CLI), "solve", str(SEED), "--format", "json", *options],
        check=True,
        capture_output=True,
        text=True,
    )
    code, out = scramble.run("solve", str(SEED), "--format", "json", *options)
    assert code == 0
    ours, theirs = without_times(json.loads(out)), without_times(json.loads(cli.stdout))
    ours.pop("solver_stats", None)
    theirs.pop("solver_stats", None)
    assert ours == theirs


def test_solve_and_count_hand_back_the_cli_report_as_objects():
    """solve and count call the library: their reports come back as Python
    objects, equal to what the binary writes as JSON."""
    for options, flags in [({"solver": "backtrack", "all": True}, ["--solver", "backtrack", "--all"]),
                           ({"model": "table", "count": True}, ["--model", "table", "--count"]),
                           ({}, [])]:
        r = scramble.load(SEED).solve(**options)
        cli = subprocess.run([str(CLI), "solve", str(SEED), "--format", "json", *flags],
                             check=True, capture_output=True, text=True)
        ours, theirs = without_times(r.data), without_times(json.loads(cli.stdout))
        ours.pop("solver_stats", None)
        theirs.pop("solver_stats", None)
        assert ours == theirs, options
    c = scramble.load(SEED).count(method=["dp", "enumerate"], threads=1)
    cli = subprocess.run([str(CLI), "count", str(SEED), "--format", "json", "--method", "dp",
                          "--method", "enumerate", "--threads", "1"],
                         check=True, capture_output=True, text=True)
    assert without_times(c.data) == without_times(json.loads(cli.stdout))


def test_counts_past_64_bits_come_back_whole(tmp_path):
    """Sixteen identical tiles whose edges all meet: every placement is a
    solution, 16! * 4^16 of them (past 2^64), counted by the programme."""
    (tmp_path / "same.yaml").write_text(
        "".join(f"{t}: [[a, '='], [a, '='], [a, '='], [a, '=']]\n" for t in range(1, 17)))
    import math
    c = scramble.load(tmp_path / "same.yaml").count(method="dp")
    assert c.counts["raw"] == math.factorial(16) * 4 ** 16 > 2 ** 64
    assert c.counts["pictures"] == 1 and c.exit_code == 0


def test_keywords_are_checked_by_name_and_type():
    p = scramble.load(SEED)
    cases = [
        ({"time_limit": "soon"}, "time_limit: expected a number of seconds"),
        ({"time_limit": -1}, "time_limit"),
        ({"threads": 0}, "threads: expected a whole number from 1 to 1024"),
        ({"limit": True}, "limit: expected a whole number, not a bool"),
        ({"all": "yes"}, "all: expected True or False"),
        ({"equivalence": "mirror"}, "equivalence: \"mirror\" is not one of rotation, picture"),
        ({"symmetry": "sideways"}, "symmetry"),
        ({"split": "sometimes"}, "split"),
        ({"order": "row"}, "--order applies to --solver backtrack only"),
        ({"out": "pictures"}, "out: an option of the command line alone"),
        ({"colour": "red"}, "colour: no such option"),
    ]
    for options, message in cases:
        with pytest.raises(scramble.InputError, match=message):
            p.solve(**options)
    with pytest.raises(scramble.InputError, match="auto chooses the methods: give it alone"):
        p.count(method=["auto", "dp"])
    with pytest.raises(scramble.InputError, match="method: \"guess\" is not one of"):
        p.count(method="guess")
    with pytest.raises(scramble.InputError, match="--order is the enumeration's placement order"):
        p.count(method="dp", order="row")
    with pytest.raises(scramble.InputError, match="seed: no such option"):
        p.solve(seed=3)
    # None leaves an option out, as False does a switch; an engine's own
    # switches are bools too.
    assert p.solve(time_limit=None, all=False, model=None).complete
    r = p.solve(solver="backtrack", limit=1, no_restarts=True, no_lookahead=False)
    assert r.counts["classes"] == 1
    # A hint keyword adds fixed pieces, as --hint does.
    hinted = p.solve(hint="1@1,1/1", all=True)
    assert hinted.counts["raw"] == 1 and hinted.raw_solutions[0][0][0] == (1, 1)
    with pytest.raises(scramble.InputError, match="no_restarts: expected True or False"):
        p.solve(solver="backtrack", limit=1, no_restarts="yes")


def test_keyword_options_are_the_cli_options():
    p = scramble.load(SEED)
    r = p.solve(solver="backtrack", order="row", all=True, threads=1, time_limit=30)
    assert r.data["solver"] == "backtrack" and r.data["model"] == "row"
    assert len(r.solutions) == 1 and len(r.raw_solutions) == 4
    assert p.solve(model=["boolean"]).data["model"] == "boolean"


def test_a_memory_limit_stops_cp_sat_and_says_so():
    """memory_limit (MB) is what a CP-SAT run may add to the process; every
    run adds more than 1 MB, and CP-SAT finds no first solution of
    meta-10x10 in minutes, so only the ceiling can end this search."""
    r = scramble.load(E2 / "meta-10x10.txt").solve(memory_limit=1, limit=1)
    assert (r.outcome, r.data["stopped_by"], r.complete) == ("incomplete", "memory_limit", False)
    assert scramble.load(SEED).solve(memory_limit=100000).complete


def test_a_process_holding_more_than_the_ceiling_still_solves():
    """The ceiling counts what the run adds, not what the process already
    holds: a notebook with 1.5 GB of data solves as the CLI does."""
    held = bytearray(1500 * 1024 * 1024)
    for i in range(0, len(held), 4096):
        held[i] = 1
    try:
        r = scramble.load(SEED).solve()
        assert (r.outcome, r.counts["raw"], r.counts["classes"]) == ("complete", 4, 1)
        cli = json.loads(
            subprocess.run(
                [str(CLI), "solve", str(SEED), "--format", "json"],
                capture_output=True, text=True, check=True,
            ).stdout
        )
        assert cli["raw_count"] == r.counts["raw"] and cli["classes_count"] == r.counts["classes"]
    finally:
        del held


def test_every_corpus_count_matches_expected_tsv():
    rows = expected()
    assert len(rows) > 80
    for name, raw, classes, pictures in rows:
        c = scramble.load(CORPUS / name).count(method="enumerate", threads=2)
        assert c.counts == {"raw": raw, "classes": classes, "pictures": pictures}, name


def test_an_estimate_says_what_it_knows():
    # Full boards of the-ant-trails-puzzle are common enough for probes.
    c = scramble.load(CORPUS / "the-ant-trails-puzzle.yaml").count(
        method="estimate", probes=100000
    )
    assert c.counts is None and c.exit_code == 1
    lo, hi = c.estimate["classes"]["interval_95"]
    assert 0 <= lo < c.estimate["classes"]["mean"] < hi
    assert "no exact count; estimated classes" in repr(c)
    # clue2's are far too rare for a thousand: no estimate, and it says so.
    c = scramble.load(E2 / "clue2.txt").count(method="estimate", probes=1000)
    assert c.estimate["classes"]["interval_95"] is None
    assert "no estimate: none of 1000 probes reached a full board" in repr(c)
    # An exact count has no estimate.
    c = scramble.load(SEED).count()
    assert c.estimate is None and "'classes': 1" in repr(c)


def test_solvers_agree_on_some_corpus_puzzles():
    # The first twelve 3x3 boards: what is under test is the three
    # engines' options and results through the bindings (the Rust suite
    # checks every engine on the whole corpus; a 6x6 here took 15 s).
    size = boards()
    small = [r for r in expected() if size[r[0]] == "3x3"][:12]
    assert len(small) == 12
    for name, raw, classes, pictures in small:
        p = scramble.load(CORPUS / name)
        for opts in ({"solver": "backtrack"}, {"solver": "cp-sat", "model": "edge"},
                     {"solver": "sat", "encoding": "support"}):
            r = p.solve(**opts)
            assert r.counts == {"raw": raw, "classes": classes, "pictures": pictures}, (name, opts)


def test_compare_gives_the_cli_verdict():
    r = scramble.load(SEED).compare(model=["edge", "table"])
    assert r.agree is True and r.exit_code == 0
    assert r.verdict["verdict"] == "agree" and r.verdict["classes"] == 1
    assert [(x["solver"], x["model"]) for x in r.rows] == [
        ("cp-sat", "edge"), ("cp-sat", "table"), ("backtrack", "spiral"),
        ("sat", "colour-sequential")]
    assert "agree: 4 runs, the same 1 class>" in repr(r)
    assert "<table>" in r._repr_html_()
    # clue1's billions of solutions: nothing finishes, so nothing is known.
    r = scramble.load(E2 / "clue1.txt").compare(time_limit=0.5, threads=1)
    assert r.agree is None and r.exit_code == 1
    assert r.verdict["verdict"] == "unfinished" and r.verdict["compared"] == 0
    assert r.verdict["unfinished"] == ["cp-sat edge", "backtrack spiral", "sat colour-sequential"]
    assert "not all compared" in repr(r)


def test_a_disagreement_shows_its_own_message():
    # No two solvers disagree on a real puzzle (that would be a bug), so
    # the report is the JSON `compare` writes for one, by hand.
    message = "cp-sat edge: 2 classes; backtrack row: 1 class\n"
    data = {"rows": [], "agree": False,
            "verdicts": [{"puzzle": "p", "verdict": "disagree", "message": message}],
            "disagreements": [{"puzzle": "p", "message": message}]}
    r = scramble.CompareResult(data, 3)
    assert r.agree is False and r.disagreements == [message]
    assert repr(r) == ("<scramble.CompareResult p: DISAGREEMENT: "
                       "cp-sat edge: 2 classes; backtrack row: 1 class>")
    assert "DISAGREEMENT: cp-sat edge" in r._repr_html_()


def test_family_puzzles_and_hints_load_and_solve():
    clue = scramble.load(E2 / "clue1.txt")
    r = clue.solve(solver="backtrack", limit=1)
    assert r.counts["classes"] >= 1
    cnf = clue.dimacs(encoding="support")
    assert cnf.startswith("c scramble ") and "\np cnf " in cnf
    # The race names its winner; the report lists both entrants.
    auto = clue.solve(solver="auto", limit=1)
    assert auto.data["solver"] in ("sat", "backtrack")
    assert [e["engine"] for e in auto.data["solver_stats"]["race"]] == ["sat", "backtrack"]
    board = r.solutions[0]
    assert (r.data["rows"], r.data["cols"]) == (6, 6)
    assert len(board) == 6 and all(len(row) == 6 for row in board)
    assert clue.svg(board).startswith("<svg")
    hinted = scramble.load(E2 / "eternity2.txt", hints=["eternity2"])
    assert hinted.hints == ["eternity2"]


def test_generate_makes_solvable_puzzles(tmp_path):
    ps = scramble.generate(tmp_path, size=3, motifs=4, count=2, seed=5)
    assert len(ps) == 2
    for p in ps:
        assert p.solve(solver="backtrack").counts["raw"] > 0
    # The same files as the binary writes for the same options, each
    # family included; nothing else in the folder is returned.
    (tmp_path / "mine.txt").write_text("not a puzzle")
    for options, flags in [({"size": 4, "frame_colours": 2, "motifs": 3, "seed": 7},
                            ["--size", "4", "--frame-colours", "2", "--motifs", "3", "--seed", "7"]),
                           ({"rows": 3, "cols": 5, "turns": "none", "hint": True},
                            ["--rows", "3", "--cols", "5", "--turns", "none", "--hint"]),
                           ({"size": 3, "duplicates": 2, "count": 3},
                            ["--size", "3", "--duplicates", "2", "--count", "3"])]:
        ours = scramble.generate(tmp_path / "py", **options)
        subprocess.run([str(CLI), "generate", *flags, "--out", str(tmp_path / "cli")], check=True,
                       capture_output=True)
        for p in ours:
            assert Path(p.path).read_text() == (tmp_path / "cli" / Path(p.path).name).read_text()
    assert {Path(p.path).name for p in scramble.generate(tmp_path, size=2, seed=9)} == {
        "2x2-m4-s9-0001.yaml"}
    with pytest.raises(scramble.InputError, match="--rows and --cols \\(not both\\)"):
        scramble.generate(tmp_path, size=3, rows=3, cols=3)
    with pytest.raises(scramble.InputError, match="already exists"):
        scramble.generate(tmp_path, size=2, seed=9)


def test_pictures_for_jupyter_and_png():
    p = scramble.load(SEED)
    assert p._repr_svg_().startswith("<svg")
    r = p.solve()
    svg = r._repr_svg_()
    assert svg.startswith("<svg") and svg == p.svg(r.solutions[0])
    png = r.png()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert p.png()[:8] == b"\x89PNG\r\n\x1a\n"


def test_errors_are_typed_and_carry_the_cli_messages(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("1: [[a, +], [b, -], [c, +]]\n")
    with pytest.raises(scramble.InputError) as e:
        scramble.load(bad)
    assert "bad.yaml:1:" in str(e.value) and "4 edges" in str(e.value)
    with pytest.raises(scramble.InputError, match="no-such-file"):
        scramble.load(tmp_path / "no-such-file.yaml")
    with pytest.raises(scramble.InputError, match="solver: \"nope\" is not one of cp-sat"):
        scramble.load(SEED).solve(solver="nope")
    with pytest.raises(scramble.InputError, match="jsonl streams"):
        scramble.run("solve", str(SEED), "--format", "jsonl")
    with pytest.raises(scramble.InputError, match="rows"):
        scramble.load(SEED).svg([[(1, 0)]])
    with pytest.raises(scramble.InputError, match="tile 99"):
        scramble.load(SEED).svg([[(99, 0)] * 3] * 3)
    assert issubclass(scramble.InputError, scramble.ScrambleError)
    assert issubclass(scramble.SolverError, scramble.ScrambleError)
    # The same message as the binary's (which prefixes "error: ").
    cli = subprocess.run([str(CLI), "solve", str(bad)], capture_output=True, text=True)
    assert cli.returncode == 2
    with pytest.raises(scramble.InputError) as e:
        scramble.load(bad).solve()
    assert cli.stderr.strip() == f"error: {e.value}"


def test_a_missing_runtime_is_a_solver_error(tmp_path, monkeypatch):
    """In a fresh process: SCRAMBLE_CPSAT_LIB naming nothing."""
    env = dict(os.environ, SCRAMBLE_CPSAT_LIB=str(tmp_path / "missing.so"))
    code = (
        "import scramble\n"
        f"try:\n    scramble.load({str(SEED)!r}).solve()\n"
        "except scramble.SolverError as e:\n    print('SolverError', e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.startswith("SolverError") and "missing.so" in out.stdout, out


def test_the_gil_is_released_while_searching():
    """Another Python thread keeps running during a one-second search."""
    ticks = 0
    done = threading.Event()

    def tick():
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            time.sleep(0.001)

    t = threading.Thread(target=tick)
    t.start()
    try:
        r = scramble.load(E2 / "eternity2.txt").solve(solver="backtrack", time_limit=1, threads=1)
    finally:
        done.set()
        t.join()
    assert r.outcome.startswith("incomplete")
    assert ticks > 100, ticks


def test_ctrl_c_stops_the_search_cleanly():
    """SIGINT during an endless search: KeyboardInterrupt soon after, and the
    process can solve again."""
    p = scramble.load(E2 / "eternity2.txt")
    # Python's own handler, as in a notebook: a process started in the
    # background by a shell without job control inherits SIGINT ignored,
    # and Python then installs no handler, so the signal would never come.
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            p.solve(solver="backtrack", threads=2)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, before)
    # The search is endless: that it returned at all is the stop.
    assert threading.active_count() == 1
    assert scramble.load(SEED).solve().counts["raw"] == 4


def test_cp_sat_runs_beside_ortools_own_python_api():
    """A notebook imports OR-Tools' CP-SAT too: both use one library."""
    from ortools.sat.python import cp_model

    m = cp_model.CpModel()
    x = m.new_int_var(0, 3, "x")
    m.add(x == 2)
    s = cp_model.CpSolver()
    assert s.solve(m) == cp_model.OPTIMAL
    assert scramble.load(SEED).solve(model=["table"]).counts["raw"] == 4


def count_with_ortools(m):
    """Every solution of an OR-Tools model, counted by OR-Tools itself."""
    from ortools.sat.python import cp_model

    class Counter(cp_model.CpSolverSolutionCallback):
        def __init__(self):
            super().__init__()
            self.n = 0

        def on_solution_callback(self):
            self.n += 1

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    c = Counter()
    solver.solve(m, c)
    return c.n


@pytest.mark.parametrize("model", ["table", "edge", "boolean", "edge-boolean"])
def test_every_cp_model_comes_as_an_ortools_model_with_handles(model):
    m = scramble.load(SEED).cp_model(model=model)
    assert sorted(m.tile) == [(i, j) for i in (1, 2, 3) for j in (1, 2, 3)]
    assert sorted(m.rotation) == sorted(m.tile)
    # The full tree: all four labelled solutions, found by OR-Tools itself.
    assert count_with_ortools(m.model) == 4
    # A constraint of the user's own, on scramble's variables: tile 1 top
    # left leaves the one solution that scramble reports as canonical.
    m.model.add(m.tile[(1, 1)] == 1)
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    assert solver.solve(m.model) == cp_model.OPTIMAL
    assert solver.value(m.rotation[(1, 1)]) == 1
    assert solver.value(m.tile[(3, 3)]) == 2 and solver.value(m.rotation[(3, 3)]) == 2
    assert count_with_ortools(m.model) == 1


def test_a_model_with_symmetry_breaking_keeps_one_solution_per_class():
    m = scramble.load(CORPUS / "der-sternenhimmel.yaml").cp_model(model="table", symmetry="lex")
    # der-sternenhimmel: 224 labelled solutions, 56 classes (expected.tsv).
    assert count_with_ortools(m.model) == 56


def turned(board):
    """The counterclockwise board turn: (i, j) -> (n+1-j, i), rotation + 1."""
    n = len(board)
    out = [[None] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            t, r = board[i][j]
            out[n - 1 - j][i] = (t, (r + 1) % 4)
    return out


def canonical(board):
    """The smallest of the four turns, row-major (tile, rotation)."""
    turns = [board]
    for _ in range(3):
        turns.append(turned(turns[-1]))
    return min(tuple(c for row in b for c in row) for b in turns)


def verdict_of(all_boards, keep):
    """The verdict computed here from the full set of labelled solutions:
    (classes lost, duplicates kept) by the boards `keep` accepts."""
    classes = {canonical(b) for b in all_boards}
    kept = [b for b in all_boards if keep(b)]
    kept_classes = {canonical(b) for b in kept}
    return len(classes - kept_classes), len(kept) - len(kept_classes)


def corpus_sample(board, every):
    """Every `every`-th corpus puzzle of this board ("3x3") with known
    counts."""
    rows = []
    for line in (CORPUS / "expected.tsv").read_text().splitlines():
        f = line.split("\t")
        if len(f) > 4 and f[1] == board and f[2].isdigit():
            rows.append(f[0])
    return rows[::every]


@pytest.mark.parametrize("file", corpus_sample("3x3", 10))
def test_user_constraints_get_the_right_verdicts_on_the_corpus(file):
    """On a sample of the 3x3 corpus: a right formulation of the user's own
    (the centre cell's rotation is 0) and one wrong on purpose (the top-left
    cell's rotation is 0), each handed back through OR-Tools' API; scramble's
    verdicts equal the ones computed here from every labelled solution."""
    p = scramble.load(CORPUS / file)
    boards = p.solve(full_tree=True, all=True).raw_solutions
    for cell, name in (((2, 2), "centre"), ((1, 1), "corner")):
        m = p.cp_model()
        m.model.add(m.rotation[cell] == 0)
        report = m.report(name=name)
        i, j = cell
        lost, duplicates = verdict_of(boards, lambda b: b[i - 1][j - 1][1] == 0)
        assert (report.lost, report.duplicates) == (lost, duplicates), (file, name)
        assert report.exact == (lost == 0 and duplicates == 0)
        assert report.own["formulation"] == f"constraints:{name}.txt"
        # The same model solved: the boards the constraint accepts.
        r = m.solve(name=name, all=True)
        assert sorted(map(str, r.raw_solutions)) == sorted(
            str(b) for b in boards if b[i - 1][j - 1][1] == 0)


def test_the_centre_rule_is_exact_where_the_builtin_center_is():
    """The seed puzzle: the user's centre rule has the built-in `center`'s
    verdict (all formulations reported side by side)."""
    m = scramble.load(SEED).cp_model()
    m.model.add(m.rotation[(2, 2)] == 0)
    report = m.report(all_formulations=True)
    builtin = [r for r in report.rows if r["formulation"] == "center"][0]
    assert report.own["rotation"] == builtin["rotation"] == {"verdict": "exact"}
    assert report.rotation == "exact" and report.picture == "exact"
    assert "<table>" in report._repr_html_()


def test_new_variables_and_reified_constraints_are_handed_back():
    """A new Boolean reified on scramble's variables, and a free integer:
    each board still counts once."""
    m = scramble.load(SEED).cp_model(model="boolean")
    b = m.model.new_bool_var("b")
    m.model.add(m.tile[(1, 1)] == 1).only_enforce_if(b)
    m.model.add(m.tile[(1, 1)] != 1).only_enforce_if(~b)
    m.model.add_bool_or([b])
    m.model.new_int_var(0, 9, "free")
    r = m.solve(all=True)
    assert r.counts["raw"] == 1
    assert r.raw_solutions[0][0][0] == (1, 1)


def test_a_model_that_cannot_be_handed_back_is_an_input_error():
    p = scramble.load(SEED)
    m = p.cp_model()
    m.model.minimize(m.tile[(1, 1)])
    with pytest.raises(scramble.InputError, match="objective"):
        m.solve()
    m = p.cp_model()
    m.model.new_int_var(0, 1, "tile_1_1")
    with pytest.raises(scramble.InputError, match="name of one of the model's"):
        m.solve()
    m = p.cp_model()
    m.model.proto.constraints[0].clear_name()
    m.model.proto.constraints[0].name = "changed"
    with pytest.raises(scramble.InputError, match="changed"):
        m.report()
    with pytest.raises(scramble.InputError, match="full-tree"):
        p.cp_model(full_tree=False).solve()


def test_constraints_text_is_what_the_cli_takes(tmp_path):
    """The text a model hands back is a --constraints file: the CLI gives
    the same report for it."""
    m = scramble.load(SEED).cp_model(model="table")
    m.model.add(m.rotation[(2, 2)] == 0)
    path = tmp_path / "mine.txt"
    path.write_text(m.constraints_text())
    out = subprocess.run(
        [str(CLI), "solve", str(SEED), "--model", "table", "--constraints", str(path), "--format", "json"],
        check=True, capture_output=True, text=True).stdout
    assert without_times(json.loads(out)) == without_times(m.solve(name="mine").data)

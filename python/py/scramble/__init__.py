"""scramble from Python: load, generate, solve, count and draw edge-matching
puzzles with the same options and results as the ``scramble`` command line
(docs/python.md).

    import scramble
    p = scramble.load("puzzles/3x3-original")
    r = p.solve()                 # CP-SAT, every solution up to board turns
    r.counts                      # {'raw': 4, 'classes': 1, 'pictures': 1}
    r.solutions[0]                # rows of (tile, rotation)
    r                             # in Jupyter: the first solution, drawn

Every keyword option is the CLI option of the same name (``time_limit=5`` is
``--time-limit 5``, ``all=True`` is ``--all``, a list repeats the option).
The calls go to the library directly: keywords are read as typed values
and reports come back as Python objects; the options that write files or
text (``out``, ``format``, ...) are :func:`run`'s, which runs any command
line as the binary does. Searches run
without the GIL; Ctrl-C (a notebook's interrupt) stops them and raises
KeyboardInterrupt. Errors are :class:`InputError` (bad input, the CLI's exit
code 2) and :class:`SolverError` (exit code 3), with the CLI's messages.
"""

from __future__ import annotations

import html
import importlib.util
import os
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

from . import _native
from ._native import InputError, ScrambleError, SolverError

__all__ = [
    "Puzzle",
    "Result",
    "CountResult",
    "CompareResult",
    "CpModelOf",
    "Report",
    "load",
    "generate",
    "run",
    "ScrambleError",
    "InputError",
    "SolverError",
]
__version__ = _native.__version__

Board = List[List[Tuple[int, int]]]


def _use_this_pythons_ortools() -> None:
    """Point scramble at the ``ortools`` package of this Python (the one a
    notebook's own CP-SAT models use), unless SCRAMBLE_CPSAT_LIB says
    otherwise. Without ortools here, scramble looks where the CLI looks."""
    if os.environ.get("SCRAMBLE_CPSAT_LIB"):
        return
    spec = importlib.util.find_spec("ortools")
    if spec is None or not spec.submodule_search_locations:
        return
    lib = Path(list(spec.submodule_search_locations)[0]) / ".libs" / "libortools.so.9"
    if lib.is_file():
        os.environ["SCRAMBLE_CPSAT_LIB"] = str(lib)


_use_this_pythons_ortools()


def run(*args: str) -> Tuple[int, str]:
    """Run a scramble command line in this process, as the binary would:
    ``run("count", "puzzles/3x3-original")`` returns (exit code, output)."""
    return _native.run([str(a) for a in args])


class Puzzle:
    """A puzzle file (YAML, puzzle folder or the community's piece file) with
    optional fixed pieces (``hints``, in the CLI's ``--hint`` notation)."""

    def __init__(self, path: os.PathLike | str, hints: Sequence[str] = ()):
        self.path = str(path)
        self.hints = list(hints)
        # Load now, so a bad file fails here with the CLI's message.
        self._svg = _native.svg(self.path, self.hints, None)

    def solve(self, **options: Any) -> "Result":
        """Solve as ``scramble solve`` does, with its options as keywords
        (solver, model, order, symmetry, equivalence, all, limit,
        time_limit, threads, ...)."""
        data, code = _native.solve(self.path, self.hints, options)
        return Result(self, data, code)

    def count(self, **options: Any) -> "CountResult":
        """Count as ``scramble count`` does (method, order, time_limit,
        threads, checkpoint, ...)."""
        data, code = _native.count(self.path, self.hints, options)
        return CountResult(data, code)

    def compare(self, **options: Any) -> "CompareResult":
        """Solve with CP-SAT, the backtracker and the SAT engine as
        ``scramble compare`` does, and say whether their canonical solution
        sets agree (model or encoding, a list for several; order, symmetry,
        equivalence, time_limit, threads, ...)."""
        data, code = _native.compare(self.path, self.hints, options)
        return CompareResult(data, code)

    def cp_model(self, model: str = "edge", symmetry: str = "none", full_tree: bool = True) -> "CpModelOf":
        """The CP model scramble gives CP-SAT (``scramble model``), as an
        OR-Tools ``CpModel`` with handles to its variables. ``full_tree``
        (the default) leaves out the turn reduction, so the model has every
        labelled solution; add constraints with OR-Tools' own API."""
        from ortools.sat.python import cp_model as ortools_cp_model

        text = _native.model_text(self.path, self.hints, model, symmetry, full_tree)
        m = ortools_cp_model.CpModel()
        if not m.proto.parse_text_format(text):
            raise ScrambleError("OR-Tools could not parse scramble's model text")
        return CpModelOf(m, self, model, symmetry, full_tree)

    def dimacs(self, encoding: str = "colour-sequential", symmetry: str = "none") -> str:
        """The clauses the SAT engine solves (``scramble model --format
        dimacs``), for any SAT solver: DIMACS text whose comment header
        names the placement and colour variables (docs/sat.md)."""
        return _native.dimacs(self.path, self.hints, encoding, symmetry)

    def svg(self, board: Optional[Board] = None) -> str:
        """The tiles (or ``board``, rows of (tile, rotation)) as SVG."""
        return _native.svg(self.path, self.hints, board)

    def png(self, board: Optional[Board] = None) -> bytes:
        """The same picture as PNG bytes."""
        return _native.png(self.path, self.hints, board)

    def _repr_svg_(self) -> str:
        return self._svg

    def __repr__(self) -> str:
        hints = f", hints={self.hints!r}" if self.hints else ""
        return f"scramble.load({self.path!r}{hints})"


def load(path: os.PathLike | str, hints: Sequence[str] = ()) -> Puzzle:
    """Load a puzzle as the CLI does; :class:`InputError` names the file and
    line of anything wrong."""
    return Puzzle(path, hints)


def generate(out: Optional[os.PathLike | str] = None, **options: Any) -> List[Puzzle]:
    """Generate puzzles as ``scramble generate`` does (size, rows, cols,
    motifs, frame_colours, turns, count, seed, duplicates, unique, ...) into
    folder ``out`` (a new temporary folder when None); returns them."""
    folder = Path(out) if out is not None else Path(tempfile.mkdtemp(prefix="scramble-"))
    return [Puzzle(p) for p in _native.generate(folder, options)]


class Result:
    """What ``scramble solve --format json`` reports, as attributes; the
    whole report is ``data``."""

    def __init__(self, puzzle: Puzzle, data: Dict[str, Any], exit_code: int):
        self.puzzle = puzzle
        self.data = data
        self.exit_code = exit_code
        cols = data["cols"]

        def rows(board: List[List[int]]) -> Board:
            return [[(t, r) for t, r in board[i : i + cols]] for i in range(0, len(board), cols)]

        #: The canonical forms reported (one per class), each as rows of
        #: (tile, rotation).
        self.solutions: List[Board] = [rows(b) for b in data.get("solutions", [])]
        #: Every labelled solution (``all=True`` only; else empty).
        self.raw_solutions: List[Board] = [rows(b) for b in data.get("raw_solutions", [])]

    @property
    def counts(self) -> Dict[str, int]:
        d = self.data
        return {"raw": d["raw_count"], "classes": d["classes_count"], "pictures": d["pictures_count"]}

    @property
    def outcome(self) -> str:
        return self.data["outcome"]

    @property
    def complete(self) -> bool:
        return bool(self.data["complete"])

    @property
    def stats(self) -> Dict[str, Any]:
        return self.data.get("solver_stats", {})

    def svg(self, k: int = 0) -> str:
        return self.puzzle.svg(self.solutions[k])

    def png(self, k: int = 0) -> bytes:
        return self.puzzle.png(self.solutions[k])

    def _repr_svg_(self) -> Optional[str]:
        return self.svg(0) if self.solutions else None

    def __repr__(self) -> str:
        return (
            f"<scramble.Result {self.data['puzzle']}: {self.outcome}, "
            f"{self.counts}, {self.data['solver']} {self.data['model']}>"
        )


class CountResult:
    """What ``scramble count --format json`` reports; ``counts`` is None when
    no exact method finished (then see ``estimate``)."""

    def __init__(self, data: Dict[str, Any], exit_code: int):
        self.data = data
        self.exit_code = exit_code

    @property
    def counts(self) -> Optional[Dict[str, int]]:
        return self.data.get("counts")

    @property
    def methods(self) -> List[Dict[str, Any]]:
        return self.data["methods"]

    @property
    def estimate(self) -> Optional[Dict[str, Dict[str, Any]]]:
        """Knuth's estimate, if ``method="estimate"`` ran: per count
        (``raw``, ``classes``, ``pictures``) its ``mean``, ``std_error``,
        ``probes``, ``complete_probes`` and ``interval_95`` (``[low, high]``,
        or None where no probe reached a full board: no estimate then)."""
        for m in self.methods:
            if m.get("estimate") is not None:
                return m["estimate"]
        return None

    def __repr__(self) -> str:
        name = self.data["puzzle"]
        if self.counts is not None:
            return f"<scramble.CountResult {name}: {self.counts}>"
        e = self.estimate
        if e is None:
            return f"<scramble.CountResult {name}: no exact count>"
        c = e["classes"]
        if c["interval_95"] is None:
            return (
                f"<scramble.CountResult {name}: no exact count; no estimate: none of "
                f"{c['probes']} probes reached a full board>"
            )
        lo, hi = c["interval_95"]
        return (
            f"<scramble.CountResult {name}: no exact count; estimated classes "
            f"{c['mean']:.3e} (95% interval {lo:.3e} to {hi:.3e})>"
        )


class CompareResult:
    """What ``scramble compare --format json`` reports: ``rows`` (one per
    run), ``verdict`` (``agree``; ``disagree``, with the first difference
    as ``message``; or ``unfinished``, with the runs that did not finish)
    and ``agree``: True when every run finished with the same canonical
    set, False when two finished runs differ (see ``disagreements``),
    None when some runs did not finish (not known)."""

    def __init__(self, data: Dict[str, Any], exit_code: int):
        self.data = data
        self.exit_code = exit_code

    @property
    def rows(self) -> List[Dict[str, Any]]:
        return self.data["rows"]

    @property
    def verdict(self) -> Dict[str, Any]:
        return self.data["verdicts"][0]

    @property
    def agree(self) -> Optional[bool]:
        return self.data["agree"]

    @property
    def disagreements(self) -> List[str]:
        return [d["message"] for d in self.data["disagreements"]]

    def _repr_html_(self) -> str:
        cols = ("solver", "model", "raw", "canonical", "complete", "wall_time_s")
        head = "".join(f"<th>{h}</th>" for h in cols)
        body = "".join(
            "<tr>" + "".join(f"<td>{html.escape(str(r[c]))}</td>" for c in cols) + "</tr>"
            for r in self.rows)
        return f"<table><tr>{head}</tr>{body}</table><p>{html.escape(self._verdict_text())}</p>"

    def _verdict_text(self) -> str:
        v = self.verdict
        if v["verdict"] == "agree":
            s = "" if v["classes"] == 1 else "es"
            return f"agree: {v['runs']} runs, the same {v['classes']} class{s}"
        if v["verdict"] == "disagree":
            return "DISAGREEMENT: " + v["message"].strip()
        return (f"not all compared: {', '.join(v['unfinished'])} did not finish; "
                f"{v['compared']} finished runs compared")

    def __repr__(self) -> str:
        return f"<scramble.CompareResult {self.verdict['puzzle']}: {self._verdict_text()}>"


class CpModelOf:
    """An OR-Tools ``CpModel`` of a puzzle, with its variables by name:
    ``tile[(i, j)]`` and ``rotation[(i, j)]`` per cell ((i, j) 1-based, row
    i from the top), and every variable of the encoding in ``variables``
    (``h_1_1``, ... as ``scramble model`` names them; docs/model.md).

    Add constraints (and variables) with OR-Tools' API on ``model``, then
    hand them back: :meth:`solve` enumerates every solution of the model
    with scramble's split, collector and verification, :meth:`report` gives
    the verdict against the plain model. Both send scramble what was added,
    as ``--constraints`` does (:meth:`constraints_text`)."""

    def __init__(self, model: Any, puzzle: Optional["Puzzle"] = None, encoding: str = "edge",
                 symmetry: str = "none", full_tree: bool = True):
        self.model = model
        self.puzzle = puzzle
        self.encoding = encoding
        self.symmetry = symmetry
        self.full_tree = full_tree
        proto = model.proto
        # What scramble built, to tell the user's additions from it.
        self._base_variables = [(v.name, list(v.domain)) for v in proto.variables]
        self._base_constraints = [str(c) for c in proto.constraints]
        self.variables: Dict[str, Any] = {}
        for k, v in enumerate(proto.variables):
            if v.name:
                self.variables[v.name] = model.get_int_var_from_proto_index(k)
        self.tile: Dict[Tuple[int, int], Any] = {}
        self.rotation: Dict[Tuple[int, int], Any] = {}
        for name, var in self.variables.items():
            kind, _, cell = name.partition("_")
            parts = cell.split("_")
            if kind in ("tile", "rotation") and len(parts) == 2 and all(p.isdigit() for p in parts):
                getattr(self, kind)[(int(parts[0]), int(parts[1]))] = var

    def constraints_text(self) -> str:
        """What was added to the model since scramble built it, as a
        ``--constraints`` file: the model's variables by name (with a domain
        where it was narrowed), the new variables, the new constraints."""
        from ortools.sat.python import cp_model as ortools_cp_model

        proto = self.model.proto
        n, c = len(self._base_variables), len(self._base_constraints)
        if len(proto.variables) < n or len(proto.constraints) < c or any(
            str(proto.constraints[k]) != self._base_constraints[k] for k in range(c)
        ):
            raise InputError("the model's own variables or constraints were removed or changed: "
                             "scramble takes added constraints only")
        set_fields = [f for f in ("objective", "floating_point_objective", "solution_hint")
                      if getattr(proto, "has_" + f)()]
        set_fields += [f for f in ("assumptions", "search_strategy") if len(getattr(proto, f))]
        if set_fields:
            raise InputError(f"the model has `{set_fields[0]}` set: scramble enumerates every "
                             "solution and takes added variables and constraints only")
        base_names = {name for name, _ in self._base_variables}
        fragment = ortools_cp_model.CpModel().proto
        for k, v in enumerate(proto.variables):
            out = fragment.variables.add()
            if k < n:
                name, domain = self._base_variables[k]
                out.name = name
                if list(v.domain) != domain:
                    out.domain.extend(list(v.domain))
            else:
                if v.name in base_names:
                    raise InputError(f"new variable {v.name!r} has the name of one of the "
                                     "model's: give it another")
                out.copy_from(v)
        for k in range(c, len(proto.constraints)):
            out = fragment.constraints.add()
            out.copy_from(proto.constraints[k])
            # Interval indices count the fragment's constraints only.
            for kind, fields in (("no_overlap", ["intervals"]), ("cumulative", ["intervals"]),
                                 ("no_overlap_2d", ["x_intervals", "y_intervals"])):
                if getattr(out, "has_" + kind)():
                    for f in fields:
                        values = getattr(getattr(out, kind), f)
                        for i in range(len(values)):
                            values[i] = values[i] - c
        return str(fragment)

    def _with_constraints_file(self, call: Any, name: str) -> Any:
        if self.puzzle is None:
            raise ScrambleError("this model was not built by Puzzle.cp_model()")
        if not self.full_tree:
            raise InputError("scramble solves user constraints on the full-tree model: "
                             "build it with cp_model(full_tree=True)")
        text = self.constraints_text()
        with tempfile.TemporaryDirectory(prefix="scramble-") as tmp:
            if not name or "/" in name or name.startswith("."):
                raise InputError(f"name {name!r}: give a plain file name (it labels the reports)")
            path = Path(tmp) / f"{name}.txt"
            path.write_text(text)
            return call(str(path))

    def solve(self, name: str = "constraints", **options: Any) -> "Result":
        """Every solution of this model (with what was added), through
        scramble's enumeration, as :meth:`Puzzle.solve` returns them;
        ``name`` labels the model in the report (``edge+NAME.txt``)."""
        puzzle = self.puzzle
        return self._with_constraints_file(lambda path: puzzle.solve(
            model=self.encoding, symmetry=self.symmetry, constraints=path, **options), name)

    def report(self, name: str = "constraints", all_formulations: bool = False,
               **options: Any) -> "Report":
        """The verdict of this model against the plain model (``scramble
        symmetry-report --constraints``): every class kept exactly once,
        or how many classes it loses and how many duplicates it keeps.
        ``all_formulations=True`` adds the built-in formulations' rows;
        ``name`` labels the row (``constraints:NAME.txt``)."""
        puzzle = self.puzzle

        def call(path: str) -> "Report":
            rows, code = _native.symmetry_report(puzzle.path, puzzle.hints, dict(
                options, model=self.encoding, constraints=path,
                constraints_symmetry=self.symmetry, constraints_only=not all_formulations))
            return Report(rows, code)

        return self._with_constraints_file(call, name)

    def __repr__(self) -> str:
        return f"<scramble.CpModelOf {len(self.variables)} named variables, {len(self.model.proto.constraints)} constraints>"


def _verdict_text(v: Dict[str, Any]) -> str:
    if v.get("verdict") == "exact":
        return "exact"
    if v.get("verdict") == "wrong":
        parts = []
        if v.get("lost"):
            parts.append(f"loses {v['lost']} classes")
        if v.get("duplicates"):
            parts.append(f"keeps {v['duplicates']} duplicates")
        return ", ".join(parts)
    return "unknown (incomplete)"


class Report:
    """A ``symmetry-report``: ``rows`` as the CLI's JSON; ``own`` is the row
    of the user's constraints; ``rotation`` and ``picture`` its verdicts as
    text (``exact``, ``loses 2 classes``, ``keeps 3 duplicates``), ``lost``
    and ``duplicates`` (under board turns) as numbers."""

    def __init__(self, rows: List[Dict[str, Any]], exit_code: int):
        self.rows = rows
        self.exit_code = exit_code
        own = [r for r in rows if "constraints:" in r["formulation"]]
        self.own: Optional[Dict[str, Any]] = own[-1] if own else None

    @property
    def rotation(self) -> str:
        return _verdict_text(self.own["rotation"]) if self.own else "unknown (incomplete)"

    @property
    def picture(self) -> str:
        return _verdict_text(self.own["picture"]) if self.own else "unknown (incomplete)"

    @property
    def exact(self) -> bool:
        return self.rotation == "exact"

    @property
    def lost(self) -> int:
        return int(self.own["rotation"].get("lost", 0)) if self.own else 0

    @property
    def duplicates(self) -> int:
        return int(self.own["rotation"].get("duplicates", 0)) if self.own else 0

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{h}</th>" for h in
                       ("puzzle", "model", "formulation", "raw", "classes", "rotation", "picture"))
        body = "".join(
            "<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in (
                r["puzzle"], r["model"], r["formulation"], r["raw"], r["classes"],
                _verdict_text(r["rotation"]), _verdict_text(r["picture"]))) + "</tr>"
            for r in self.rows)
        return f"<table><tr>{head}</tr>{body}</table>"

    def __repr__(self) -> str:
        return f"<scramble.Report {self.own['formulation'] if self.own else '-'}: {self.rotation}>"

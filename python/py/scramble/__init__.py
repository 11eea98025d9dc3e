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
Searches run without the GIL; Ctrl-C (a notebook's interrupt) stops them and
raises KeyboardInterrupt. Errors are :class:`InputError` (bad input, the CLI's
exit code 2) and :class:`SolverError` (exit code 3), with the CLI's messages.
"""

from __future__ import annotations

import importlib.util
import json
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
    "CpModelOf",
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


def _flags(options: Dict[str, Any]) -> List[str]:
    """Keyword options as CLI flags: ``time_limit=5`` -> ``--time-limit 5``."""
    out: List[str] = []
    for key, value in options.items():
        flag = "--" + key.replace("_", "-")
        if value is None or value is False:
            continue
        if value is True:
            out.append(flag)
        elif isinstance(value, (list, tuple)):
            for v in value:
                out += [flag, str(v)]
        else:
            out += [flag, str(value)]
    return out


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

    def _args(self) -> List[str]:
        return [self.path] + _flags({"hint": self.hints})

    def solve(self, **options: Any) -> "Result":
        """Solve as ``scramble solve`` does, with its options as keywords
        (solver, model, order, symmetry, equivalence, all, limit,
        time_limit, threads, ...)."""
        code, out = run("solve", *self._args(), "--format", "json", *_flags(options))
        return Result(self, json.loads(out), code)

    def count(self, **options: Any) -> "CountResult":
        """Count as ``scramble count`` does (method, order, time_limit,
        threads, checkpoint, ...)."""
        code, out = run("count", *self._args(), "--format", "json", *_flags(options))
        return CountResult(json.loads(out), code)

    def cp_model(self, model: str = "edge", symmetry: str = "none", full_tree: bool = True) -> "CpModelOf":
        """The CP model scramble gives CP-SAT (``scramble model``), as an
        OR-Tools ``CpModel`` with handles to its variables. ``full_tree``
        (the default) leaves out the turn reduction, so the model has every
        labelled solution; add constraints with OR-Tools' own API."""
        from ortools.sat.python import cp_model as ortools_cp_model

        flags = ["--model", model, "--symmetry", symmetry] + (["--full-tree"] if full_tree else [])
        _, text = run("model", *self._args(), *flags)
        m = ortools_cp_model.CpModel()
        if not m.proto.parse_text_format(text):
            raise ScrambleError("OR-Tools could not parse scramble's model text")
        return CpModelOf(m)

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
    run("generate", *_flags(options), "--out", str(folder))
    files = sorted(p for p in folder.iterdir() if p.suffix in (".yaml", ".txt"))
    return [Puzzle(p) for p in files]


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
    no exact method finished (then see ``data['estimate']``)."""

    def __init__(self, data: Dict[str, Any], exit_code: int):
        self.data = data
        self.exit_code = exit_code

    @property
    def counts(self) -> Optional[Dict[str, int]]:
        return self.data.get("counts")

    @property
    def methods(self) -> List[Dict[str, Any]]:
        return self.data["methods"]

    def __repr__(self) -> str:
        return f"<scramble.CountResult {self.data['puzzle']}: {self.counts}>"


class CpModelOf:
    """An OR-Tools ``CpModel`` of a puzzle, with its variables by name:
    ``tile[(i, j)]`` and ``rotation[(i, j)]`` per cell ((i, j) 1-based, row
    i from the top), and every variable of the encoding in ``variables``
    (``h_1_1``, ... as ``scramble model`` names them; docs/model.md)."""

    def __init__(self, model: Any):
        self.model = model
        self.variables: Dict[str, Any] = {}
        for k, v in enumerate(model.proto.variables):
            if v.name:
                self.variables[v.name] = model.get_int_var_from_proto_index(k)
        self.tile: Dict[Tuple[int, int], Any] = {}
        self.rotation: Dict[Tuple[int, int], Any] = {}
        for name, var in self.variables.items():
            kind, _, cell = name.partition("_")
            parts = cell.split("_")
            if kind in ("tile", "rotation") and len(parts) == 2 and all(p.isdigit() for p in parts):
                getattr(self, kind)[(int(parts[0]), int(parts[1]))] = var

    def __repr__(self) -> str:
        return f"<scramble.CpModelOf {len(self.variables)} named variables, {len(self.model.proto.constraints)} constraints>"

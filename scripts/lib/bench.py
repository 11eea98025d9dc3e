"""What the benchmark scripts share: where things are, running scramble and
reading its report, medians, a baseline build of another revision, the
one A/B loop (`Case` and `alternate`: every variant measured in turn on
each case, side by side in one run) and Markdown tables. Imported by the scripts beside it (scripts/ab and the
bench-* scripts): `sys.path.insert(0, os.path.join(os.path.dirname(
os.path.abspath(__file__)), "lib"))`, then `import bench`.
"""
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.join(ROOT, "target", "release", "scramble")
CORPUS = os.path.join(ROOT, "puzzles", "legespiel")
ETERNITY2 = os.path.join(ROOT, "puzzles", "eternity2")
# Baseline builds of other revisions, one worktree each (ignored by git).
BASELINES = os.path.join(ROOT, ".ab")
# The Python CP-SAT yardsticks (the shared reference folder).
CP_FORMULATIONS = os.path.join(ROOT, "..", "shared", "reference", "cp_formulations.py")
# The formulations the Python yardstick has (cp_formulations.py --models).
YARDSTICK_MODELS = ("table", "edge", "boolean")


def venv_python():
    """The Python of .cpsat/venv, made with OR-Tools (the pinned version)
    and PyYAML if it lacks them: what the Python yardsticks run on."""
    venv = os.path.join(ROOT, ".cpsat", "venv")
    py = os.path.join(venv, "bin", "python")
    ok = os.path.exists(py) and subprocess.run(
        [py, "-c", "import ortools, yaml"], capture_output=True).returncode == 0
    if not ok:
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        subprocess.run([os.path.join(venv, "bin", "pip"), "install", "--quiet",
                        "ortools==9.15.6755", "pyyaml"], check=True)
    return py


def median(xs):
    """The median of the numbers in `xs` (None left out), or None."""
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def run(binary, *args, check=True):
    """Run scramble with `args`; its standard output."""
    r = subprocess.run([binary, *map(str, args)], capture_output=True, text=True)
    if check and r.returncode != 0:
        raise SystemExit(f"{binary} {' '.join(map(str, args))}: exit {r.returncode}\n{r.stderr}")
    return r.stdout


def run_peak(binary, *args):
    """Run scramble with `args`: its standard output and its own peak
    resident memory in MB (from the kernel's accounts of that one child)."""
    proc = subprocess.Popen([binary, *map(str, args)], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    out = proc.stdout.read()
    proc.stdout.close()
    _, _, usage = os.wait4(proc.pid, 0)
    proc.returncode = 0  # reaped above
    return out, usage.ru_maxrss / 1024


def report(binary, *args, check=True):
    """Run scramble with `args` and `--format json`; its report."""
    return json.loads(run(binary, *args, "--format", "json", check=check))


def generate(binary, out, size, motifs, seed, *extra):
    """A planted puzzle (`scramble generate`) written into folder `out`;
    its path."""
    os.makedirs(out, exist_ok=True)
    run(binary, "generate", "--size", size, "--motifs", motifs, "--seed", seed, "--out", out, *extra)
    return os.path.join(out, sorted(os.listdir(out))[0])


def baseline(rev_or_bin):
    """A scramble binary: `rev_or_bin` itself when it is one, else the
    release build of that git revision, made once in a worktree under
    .ab/ (a fresh build takes minutes)."""
    if os.path.isfile(rev_or_bin) and os.access(rev_or_bin, os.X_OK):
        return rev_or_bin
    sha = subprocess.run(["git", "rev-parse", "--short", rev_or_bin], cwd=ROOT,
                         capture_output=True, text=True)
    if sha.returncode != 0:
        raise SystemExit(f"{rev_or_bin}: neither a binary nor a git revision")
    tree = os.path.join(BASELINES, sha.stdout.strip())
    exe = os.path.join(tree, "target", "release", "scramble")
    if not os.path.exists(exe):
        if not os.path.isdir(tree):
            subprocess.run(["git", "worktree", "add", "--detach", tree, sha.stdout.strip()],
                           cwd=ROOT, check=True, capture_output=True)
        print(f"building {rev_or_bin} in {tree} ...", file=sys.stderr, flush=True)
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=tree, check=True)
    return exe


def table(header, rows):
    """A Markdown table: a header row and rows of cells."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


class Case:
    """One thing measured: `measure(variant)` gives {metric: value} and,
    optionally, under "same", what every variant must agree on (the nodes
    of a search)."""

    def __init__(self, label, measure):
        self.label, self.measure = label, measure


def alternate(cases, variants, rounds, progress=True):
    """The A/B loop of every benchmark script: each case measured `rounds`
    times with every variant of `variants` ([(name, variant)]: a binary, a
    binary with options, a reference program), the variants in turn and
    the one that goes first turning with each round and case, so none
    always runs on a cooler machine. `rounds` is a number, or {name:
    rounds} where some variants run fewer times (a slow yardstick).
    Returns [(case, {name: [metrics, in round order]})]; a case whose
    variants disagree on "same" stops the run."""
    return list(alternating(cases, variants, rounds, progress))


def alternating(cases, variants, rounds, progress=False):
    """`alternate`, each case's (case, runs) given as soon as it is
    measured (for tables printed row by row)."""
    if isinstance(rounds, int):
        rounds = {name: rounds for name, _ in variants}
    for k, case in enumerate(cases):
        runs = {name: [] for name, _ in variants}
        for r in range(max(rounds.values(), default=0)):
            shift = (k + r) % len(variants)
            for name, variant in variants[shift:] + variants[:shift]:
                if r < rounds[name]:
                    runs[name].append(case.measure(variant))
        same = {repr(m.get("same")) for ms in runs.values() for m in ms
                if isinstance(m, dict) and "same" in m}
        if len(same) > 1:
            raise SystemExit(f"{case.label}: the variants disagree: {sorted(same)}")
        if progress:
            print(f"{case.label}: done", file=sys.stderr, flush=True)
        yield case, runs


def medians(runs, metric):
    """{name: the median of `metric` over that variant's rounds}."""
    return {name: median(m.get(metric) for m in ms) for name, ms in runs.items()}

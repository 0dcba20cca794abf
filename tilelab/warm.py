"""Build every cache once, so a class's first run is fast: ``python -m tilelab.warm`` (``make warm``).

What is cached, and where:

* **pattern databases** for the sliding-puzzle solvers (8-puzzle: 2 tables, instant; 15-puzzle:
  the 6-6-3 split: 32 MiB in memory, 5 MB on disk, minutes to build) -- in :func:`tilelab.sliding.pdb.cache_dir`
  (``$TILELAB_CACHE_DIR``, else ``$XDG_CACHE_HOME/tilelab``, else ``~/.cache/tilelab``);
* **numba machine code** of the hot kernels (2048 bitboard AI, sliding IDA*, match-3) -- numba's
  own cache: ``__pycache__`` next to the package's sources when writable, else ``$NUMBA_CACHE_DIR``
  (set it before Python starts), else numba's per-user cache.

Warm tasks live in a registry (:data:`TASKS`): this module registers every task of the package
with :func:`warm_task`; the engines never import it (they import only the standard library and
numpy), so the tasks that build engine caches live here, on the tooling side. Each task returns
a one-line description of what it built or found.

>>> @warm_task("doctest-example", "a task that builds nothing")
... def _example() -> str:
...     return "nothing to build"
>>> [r.name for r in warm(["doctest-example"], out=None)]
['doctest-example']
>>> del TASKS["doctest-example"]
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Sequence

__all__ = ["TASKS", "WarmResult", "WarmTask", "list_tasks", "main", "peak_rss_mib", "warm", "warm_task"]


@dataclass(frozen=True)
class WarmTask:
    """One cache to build: a name, what it is, the function that builds it, and whether it is slow."""

    name: str
    description: str
    build: Callable[[], str]
    slow: bool = False


@dataclass(frozen=True)
class WarmResult:
    """What one task did: its message, seconds taken, peak memory so far (MiB), or the error."""

    name: str
    message: str
    seconds: float
    peak_rss_mib: float
    ok: bool = True


TASKS: dict[str, WarmTask] = {}


def warm_task(name: str, description: str, *, slow: bool = False) -> Callable[[Callable[[], str]], Callable[[], str]]:
    """Register ``build`` as the warm task ``name`` (``slow=True``: skipped by ``--quick``)."""

    def register(build: Callable[[], str]) -> Callable[[], str]:
        if name in TASKS and TASKS[name].build is not build:
            raise ValueError(f"two warm tasks called {name!r}; pick another name")
        TASKS[name] = WarmTask(name, description, build, slow)
        return build

    return register


def list_tasks() -> list[WarmTask]:
    """Every registered warm task, in the order they run (slow ones last)."""
    return sorted(TASKS.values(), key=lambda task: task.slow)


def peak_rss_mib() -> float:
    """Peak resident memory of this process so far, in MiB (0 where the OS does not say).

    >>> peak_rss_mib() > 0
    True
    """
    try:
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    except (ImportError, AttributeError, OSError):  # Windows; Pyodide (no resource, or no getrusage)
        return 0.0
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def warm(
    names: Iterable[str] | None = None,
    *,
    quick: bool = False,
    out: Callable[[str], None] | None = print,
) -> list[WarmResult]:
    """Run the warm tasks (all, or ``names``; ``quick`` skips the slow ones) and report each.

    A failing task is reported and the others still run.
    """
    tasks = list_tasks()
    if names is not None:
        wanted = list(names)
        unknown = [n for n in wanted if n not in TASKS]
        if unknown:
            raise ValueError(f"unknown warm task(s) {unknown}; known: {sorted(TASKS)}")
        tasks = [TASKS[n] for n in wanted]
    elif quick:
        tasks = [t for t in tasks if not t.slow]
    results = []
    for task in tasks:
        start = time.perf_counter()
        try:
            message, ok = task.build(), True
        except Exception as exc:  # report it and go on with the other caches
            message, ok = f"FAILED: {type(exc).__name__}: {exc}", False
        result = WarmResult(task.name, message, time.perf_counter() - start, peak_rss_mib(), ok)
        results.append(result)
        if out is not None:
            out(f"{task.name:<16} {result.seconds:7.1f} s  peak {result.peak_rss_mib:6.0f} MiB  {message}")
    return results


# ------------------------------------------------------------------------------- built-in tasks
def _numba_cache_files(functions: Sequence[object]) -> tuple[str, int]:
    """Where numba caches these functions, and how many cache files are there."""
    paths = set()
    for f in functions:
        cache = getattr(f, "_cache", None)
        path = getattr(cache, "_cache_path", None)
        if path:
            paths.add(Path(path))
    if not paths:
        return "(no numba: nothing to compile)", 0
    count = sum(1 for p in paths if p.is_dir() for f in p.iterdir() if f.suffix in (".nbi", ".nbc"))
    return ", ".join(sorted(str(p) for p in paths)), count


def _numba_task(run: Callable[[], Sequence[object]], modules: Sequence[str]) -> str:
    from tilelab.jit import HAVE_NUMBA

    mods = [importlib.import_module(m) for m in modules]
    funcs = [v for m in mods for v in vars(m).values() if hasattr(v, "_cache") and hasattr(v, "py_func")]
    where, before = _numba_cache_files(funcs)
    run()
    where, after = _numba_cache_files(funcs)
    if not HAVE_NUMBA:
        return "numba is off (TILELAB_NO_JIT or not installed): nothing to compile"
    return f"{after - before} new numba cache files ({after} in all) in {where}"


def _pdb_task(rows: int, cols: int) -> str:
    from tilelab.sliding import pdb

    cached = pdb.is_cached(rows, cols)
    db = pdb.pattern_database(rows, cols, progress=(rows, cols) == (4, 4) and sys.stderr.isatty())
    path = pdb.cache_path(rows, cols, db.patterns)
    verb = "found" if cached else "built"
    size = f"{db.nbytes / 2**20:.1f} MiB" if db.nbytes >= 2**20 else f"{db.nbytes / 1024:.0f} KiB"
    return f"{verb} {rows}x{cols} pattern database ({size} in memory) at {path}"


@warm_task("pdb-3x3", "8-puzzle pattern database (2 tables, under a second)")
def _warm_pdb_3x3() -> str:
    return _pdb_task(3, 3)


@warm_task("numba-sliding", "compile the sliding-puzzle IDA* and heuristics")
def _warm_sliding() -> str:
    def run() -> list:
        from tilelab.sliding import shuffle, solve

        p = shuffle(3, 3, rng=1)
        q = shuffle(4, 4, rng=1, method="walk", steps=40)
        return [solve(p), solve(p, heuristic="linear-conflict"), solve(q, heuristic="linear-conflict", budget=50_000)]

    return _numba_task(run, ["tilelab.sliding.fast.idastar", "tilelab.sliding.pdb"])


@warm_task("numba-2048", "compile the 2048 bitboard, expectimax and Monte Carlo players")
def _warm_2048() -> str:
    def run() -> list:
        from tilelab.game2048 import CornerPlayer, Expectimax, MonteCarloPlayer, play_game, replay

        boards = replay(play_game(CornerPlayer(), rng=1))[:-1:40]
        expecti, monte = Expectimax(nodes_per_move=300), MonteCarloPlayer(rollouts=2, rng=0)
        return [expecti(b) for b in boards] + [monte(b) for b in boards[:3]]

    return _numba_task(run, ["tilelab.game2048.fast.bitboard", "tilelab.game2048.ai", "tilelab.game2048.expectimax"])


@warm_task("2048-td", "lessons 2 and 6: check the shipped n-tuple nets, compile TD training and search")
def _warm_td() -> str:
    """Load (and checksum) the lesson's net and the strong net, then run each numba kernel once so it is cached."""
    from tilelab.game2048 import Board
    from tilelab.game2048.learning.ntuple_net import NTupleNetwork
    from tilelab.game2048.learning.ntuple_players import TDExpectimax, TDPlayer, lesson_network, strong_network

    net, strong = lesson_network(), strong_network()
    board = Board.parse("2 2 . .\n. . . .\n. . . .\n. . . 4")
    for each in (net, strong):  # float32 tables and compact ones: each compiles its own copy of the kernels
        TDPlayer(each)(board)
        TDExpectimax(each, depth=2, table_bits=10)(board)
    NTupleNetwork([(0, 1, 2, 3)]).train(2, rng=0)
    return (f"{net.name} net OK ({net.memory_bytes / 2**20:.2f} MiB, {net.training['games']:,} training games); "
            f"strong net OK ({strong.memory_bytes / 2**20:.0f} MiB, {strong.training['games']:,} training games)")


@warm_task("numba-match3", "compile the match-3 fast paths (moves, dead boards, cascades)")
def _warm_match3() -> str:
    def run() -> list:
        import numpy as np

        from tilelab.match3.fast.plain import is_dead_fast, swap_fast, legal_moves_fast
        from tilelab.match3.generate import new_board

        board = new_board(8, 8, 6, rng=0)
        moves = legal_moves_fast(board)
        a, b = moves[0]
        return [moves, is_dead_fast(board), swap_fast(board, a, b, rng=np.random.default_rng(0))]

    return _numba_task(run, ["tilelab.match3.fast.plain"])


@warm_task("pdb-4x4", "15-puzzle pattern database, 6-6-3 split (32 MiB in memory, 5 MB on disk; minutes to build)", slow=True)
def _warm_pdb_4x4() -> str:
    return _pdb_task(4, 4)


# ------------------------------------------------------------------------------------ command line
def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tilelab.warm [--quick] [--list] [TASK ...]``; exit status 1 if a task failed."""
    parser = argparse.ArgumentParser(prog="python -m tilelab.warm", description="Build every tilelab cache once.")
    parser.add_argument("tasks", nargs="*", help="only these tasks (default: all)")
    parser.add_argument("--quick", action="store_true", help="skip the slow tasks (the 15-puzzle pattern database)")
    parser.add_argument("--list", action="store_true", help="list the tasks and exit")
    args = parser.parse_args(argv)
    if args.list:
        for task in list_tasks():
            print(f"{task.name:<16} {'(slow) ' if task.slow else ''}{task.description}")
        return 0
    from tilelab.sliding.pdb import cache_dir

    print(f"tilelab cache dir: {cache_dir()}   numba cache dir override: {os.environ.get('NUMBA_CACHE_DIR') or '(none)'}")
    start = time.perf_counter()
    try:
        results = warm(args.tasks or None, quick=args.quick)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"done in {time.perf_counter() - start:.1f} s; peak memory {peak_rss_mib():.0f} MiB")
    return 0 if all(r.ok for r in results) else 1


if __name__ == "__main__":
    # Run the imported module's main, not this __main__ copy's: code that registers more tasks with
    # ``tilelab.warm.warm_task`` registers into ``tilelab.warm.TASKS``, a different dict from ``__main__.TASKS``.
    from tilelab.warm import main as _main

    sys.exit(_main())

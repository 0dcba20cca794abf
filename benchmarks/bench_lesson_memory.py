"""Each lesson's kernel memory, run top to bottom: the figures a hub's per-student limit is sized from.

    python benchmarks/bench_lesson_memory.py               # every lesson, with the numba caches as they are
    python benchmarks/bench_lesson_memory.py --cold 02 06a  # these lessons with empty numba caches (first run)

Runs each lesson as the lesson tests do (``tests/lessonrun.py``: nbclient, a fresh kernel) and prints the
kernel's peak resident memory (VmHWM), the wall-clock seconds of the run, and the kernel's CPU seconds, against
the budget of ``tests/lessonrun.py`` (``KERNEL_BUDGET_MIB``). ``--cold`` gives each lesson an empty numba cache
(``NUMBA_CACHE_DIR``): what a kernel costs where the caches were not warmed (``make warm``) first.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.lessonrun import KERNEL_BUDGET_MIB, NOTEBOOKS, run_lesson  # noqa: E402

CPU = "__import__('resource').getrusage(__import__('resource').RUSAGE_SELF)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("lessons", nargs="*", help="lesson prefixes (default: every lesson)")
    parser.add_argument("--cold", action="store_true", help="an empty numba cache for each lesson")
    args = parser.parse_args(argv)
    stems = [p.stem for p in sorted(NOTEBOOKS.glob("*.ipynb"))]
    if args.lessons:
        stems = [s for s in stems if any(s.startswith(prefix) for prefix in args.lessons)]
    print(f"{time.strftime('%Y-%m-%d')}, {platform.node() or 'this machine'}: {os.cpu_count()} cores, "
          f"numba caches {'empty' if args.cold else 'as they are'}; budget {KERNEL_BUDGET_MIB} MiB", flush=True)
    print(f"{'lesson':<28} {'peak MiB':>8} {'wall s':>7} {'CPU s':>6}")
    worst = 0.0
    for stem in stems:
        if args.cold:
            os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="tilelab-cold-numba-")
        try:
            ran = run_lesson(stem, fetch=[f"{CPU}.ru_utime + {CPU}.ru_stime"], warm=not args.cold)
            print(f"{stem:<28} {ran.peak_mib:8.0f} {ran.seconds:7.1f} {list(ran.values())[0]:6.1f}", flush=True)
            worst = max(worst, ran.peak_mib)
        except AssertionError as exc:  # over the budget (or a cell raised): say so and go on
            print(f"{stem:<28} {str(exc)[:200]}", flush=True)
            worst = float("inf")
    return 0 if worst <= KERNEL_BUDGET_MIB else 1


if __name__ == "__main__":
    sys.exit(main())

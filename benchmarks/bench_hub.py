"""A class on a real JupyterHub on this machine: N students at once log in, pull the course, run a lesson.

    python benchmarks/bench_hub.py                          # N = 1, 5, 10 on 04c, 05c and 02b (about 30 min)
    python benchmarks/bench_hub.py --students 1 5 10 20 --lessons 02b
    python benchmarks/bench_hub.py --save benchmarks/results/bench_hub.json

JupyterHub (PyPI) with configurable-http-proxy (npm), configured by ``docs/jupyterhub_config.py`` (only what a
test machine needs changed: a local process per student, a self-signed certificate, free ports;
``tests/hubrun.py``). Run it as root: each student is a Unix account made for the run (useradd, removed after).
The caches are built once into a shared folder (``python -m tilelab.warm`` with ``TILELAB_CACHE_DIR`` and
``NUMBA_CACHE_DIR`` there), as the sample's administrator does; each student's server copies the compiled code
from it when it starts. For each lesson and each N, all N students at the same moment: log in through the login
page over HTTPS (PAM checks the password), start their server, open the nbgitpuller link
(the course from a local git repository: this machine has no internet), open the lesson and run every code cell
over the kernel's websocket. Per student: seconds to log in, to pull, to the first output and to the last cell
(from pressing Run All), peak memory of server plus kernel, CPU seconds of both. For the run: the machine's used
memory before and at its peak. A lesson per kind of class day: sliding (04c, the heaviest sliding lesson),
match-3 (05c) and 2048 AI (02b, the strong player's board).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from baseline import head_commit  # noqa: E402  (benchmarks/baseline.py)
from tests.hubrun import Hub, course_repository, run_class  # noqa: E402

#: A lesson per kind of class day, by its number: the heaviest of its kind (docs/hub.md's kernel table)
DAYS = {"04c": "sliding", "05c": "match-3", "02b": "2048 AI"}


def lesson_file(prefix: str) -> str:
    """The notebook name in ``notebooks/`` that starts with ``prefix`` (``02b`` -> ``02b_2048_heuristics.ipynb``)."""
    found = sorted(p.name for p in (ROOT / "notebooks").glob(f"{prefix.removesuffix('.ipynb')}*.ipynb"))
    if len(found) != 1:
        raise SystemExit(f"no single lesson starts with {prefix!r}: {found}")
    return found[0]


def day(lesson: str) -> str:
    return next((name for prefix, name in DAYS.items() if lesson.startswith(prefix)), lesson)


def shared_caches(folder: Path) -> Path:
    """``folder`` with ``cache/`` (pattern databases) and ``numba/`` (compiled code), built by ``tilelab.warm``."""
    env = dict(os.environ, TILELAB_CACHE_DIR=str(folder / "cache"), NUMBA_CACHE_DIR=str(folder / "numba"))
    tick = time.perf_counter()
    folder.mkdir(parents=True, exist_ok=True)  # run from there: the installed tilelab, the one the students run
    subprocess.run([sys.executable, "-m", "tilelab.warm"], env=env, cwd=folder, check=True, capture_output=True,
                   timeout=3600)
    print(f"shared caches in {folder} ({time.perf_counter() - tick:.0f} s to build or check)", flush=True)
    return folder


def summary(run, n: int) -> dict:
    """One row: medians and worst cases over the students of one run."""
    students = run.students
    failed = [f"{s.name}: {s.errors[0]}" for s in students if s.errors]
    firsts = [s.first_output for s in students if s.first_output is not None]
    lasts = [s.last_cell for s in students if s.last_cell is not None]
    peaks, kernels, cpus = list(run.peak_mib.values()), list(run.kernel_peak_mib.values()), list(run.cpu_s.values())
    return {"lesson": run.lesson, "day": day(run.lesson), "students": n, "failed": failed,
            "login_s": statistics.median(s.login for s in students),
            "pull_s": statistics.median(s.pull for s in students),
            "first_output_s": {"median": statistics.median(firsts), "max": max(firsts)},
            "last_cell_s": {"median": statistics.median(lasts), "max": max(lasts)},
            "server_plus_kernel_mib": {"median": statistics.median(peaks), "max": max(peaks)},
            "kernel_mib": {"median": statistics.median(kernels), "max": max(kernels)},
            "cpu_s_per_student": {"median": statistics.median(cpus), "max": max(cpus)},
            "machine_before_mib": run.machine_before_mib, "machine_peak_mib": run.machine_peak_mib,
            "machine_added_mib": run.machine_peak_mib - run.machine_before_mib, "seconds": run.seconds}


def print_row(row: dict) -> None:
    print(f"{row['day']:>8} {row['students']:>3}  login {row['login_s']:5.1f}  pull {row['pull_s']:5.1f}  "
          f"first output {row['first_output_s']['median']:5.1f} (max {row['first_output_s']['max']:5.1f})  "
          f"last cell {row['last_cell_s']['median']:6.1f} (max {row['last_cell_s']['max']:6.1f})  "
          f"server+kernel {row['server_plus_kernel_mib']['median']:4.0f} MiB (max "
          f"{row['server_plus_kernel_mib']['max']:4.0f})  CPU {row['cpu_s_per_student']['median']:5.1f} s  "
          f"machine +{row['machine_added_mib'] / 1024:4.1f} GiB"
          + (f"  FAILED {len(row['failed'])}: {row['failed'][0]}" if row["failed"] else ""), flush=True)


def sizing(rows: list[dict], students: int = 30) -> list[str]:
    """What ``students`` at once need, per class day: from the largest N measured of each lesson."""
    lines = []
    for prefix, name in DAYS.items():
        mine = [r for r in rows if r["lesson"].startswith(prefix) and not r["failed"]]
        if not mine:
            continue
        row = max(mine, key=lambda r: r["students"])
        memory = students * row["server_plus_kernel_mib"]["max"] / 1024
        cpu = students * row["cpu_s_per_student"]["median"]
        lines.append(f"{name:>8}: {students} students at once need about {memory:.1f} GiB (each student's worst "
                     f"server+kernel at N={row['students']}) and {cpu:.0f} CPU seconds for one Run All each "
                     f"({cpu / 8:.0f} s on 8 cores, {cpu / 16:.0f} s on 16)")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, nargs="+", default=[1, 5, 10])
    parser.add_argument("--lessons", nargs="+", default=list(DAYS), help="lessons by number (default: 04c 05c 02b)")
    parser.add_argument("--shared", type=Path, default=None,
                        help="the shared caches' folder (default: a folder in tilelab's cache, kept between runs)")
    parser.add_argument("--save", type=Path, default=None, help="write the rows as JSON here")
    args = parser.parse_args(argv)
    lessons = [lesson_file(name) for name in args.lessons]

    from tilelab.sliding.pdb import cache_dir

    shared = shared_caches(args.shared or cache_dir() / "hub-bench-shared")
    root = Path(tempfile.mkdtemp(prefix="tilelab-hub-bench-"))
    repo, branch = course_repository(root / "repos" / "tilelab")
    print(f"{time.strftime('%Y-%m-%d')}, commit {head_commit()}, {platform.node() or 'this machine'}: "
          f"{os.cpu_count()} cores, {os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.0f} GiB",
          flush=True)
    hub = Hub(root / "hub", shared=shared).start()
    # stopped (SIGTERM): the hub stops every student's server as it goes
    signal.signal(signal.SIGTERM, lambda *_: (hub.stop(), shutil.rmtree(root, ignore_errors=True), os._exit(143)))
    rows: list[dict] = []
    try:
        for lesson in lessons:
            for n in args.students:
                names = [f"s{Path(lesson).stem[:3]}n{n}i{i}".replace("_", "") for i in range(n)]  # Unix names
                run = asyncio.run(run_class(hub, names, repo, branch, lesson))
                rows.append(summary(run, n))
                print_row(rows[-1])
    finally:
        hub.stop()
        shutil.rmtree(root, ignore_errors=True)
    for line in sizing(rows):
        print(line)
    if args.save:
        args.save.write_text(json.dumps({"date": time.strftime("%Y-%m-%d"), "commit": head_commit(),
                                         "cores": os.cpu_count(), "rows": rows}, indent=1) + "\n")
    return 0 if all(not r["failed"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())

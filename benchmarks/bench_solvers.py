"""Benchmark the sliding-puzzle solvers (lesson 4). A script, not a test.

Prints, measured in one run:
  1. IDA* nodes per second: the numba kernel vs the same kernel as plain Python vs the
     readable recursive reference, on the same seeded 8-puzzles (ratios side by side);
  2. nodes and seconds per board for each heuristic on seeded 8-puzzles (IDA* and A*);
  3. the 6-6-3 pattern database's build time and size (built fresh in a temporary directory);
  4. Korf's 100 15-puzzle instances solved optimally with IDA* + that database;
  5. the human strategy on 20x20 boards;
  6. the IDA* kernel of ``--baseline REV`` (that revision's ``tilelab/sliding/fast/idastar.py``, loaded from git) against
     today's on the first ``--baseline-korf`` of Korf's instances with the database, taking turns instance by
     instance: the same nodes and solutions, and the ratio of CPU seconds.

Usage: .venv/bin/python benchmarks/bench_solvers.py [--korf N] [--no-build] [--baseline REV] [--baseline-korf N]
(--no-build uses the cached database instead of timing a fresh build; --baseline '' skips part 6.)
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

import numpy as np

from baseline import module_at  # benchmarks/baseline.py
from tilelab.jit import HAVE_NUMBA
from tilelab.sliding import korf100, shuffle
from tilelab.sliding import pdb as pdbmod
from tilelab.sliding.fast.idastar import FastIDAStar
from tilelab.sliding.heuristics import HEURISTICS
from tilelab.sliding.human import human_moves, parberry_bound
from tilelab.sliding.search import astar_reference, idastar_reference
from tilelab.sliding.space import distance

DEFAULT_BASELINE = "555a08b"  # the IDA* kernel while numba still counted references to its arrays
EIGHT_SEEDS = range(20)
RATE_INSTANCES = range(3)
RATE_NODES = 100_000


def conditions() -> str:
    load = os.getloadavg() if hasattr(os, "getloadavg") else ("?",)
    return (f"{time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}; {os.cpu_count()} CPUs; "
            f"load average {', '.join(f'{x:.1f}' for x in load)}; numba {'on' if HAVE_NUMBA else 'OFF'}; "
            f"python {sys.version.split()[0]}")


def nodes_per_second() -> None:
    print(f"\n== 1. IDA* nodes/s, Manhattan, Korf instances 1-{len(RATE_INSTANCES)}, "
          f"first {RATE_NODES:,} nodes of each (same nodes for all three) ==")
    boards = [korf100()[i].board for i in RATE_INSTANCES]
    FastIDAStar(boards[0], "manhattan").run(max_nodes=10)  # compile / load the kernel first
    rows = []
    for label, runner in (
        ("numba kernel", lambda b: FastIDAStar(b, "manhattan").run(max_nodes=RATE_NODES)),
        ("kernel as Python", lambda b: FastIDAStar(b, "manhattan", jit=False).run(max_nodes=RATE_NODES)),
        ("readable reference", lambda b: idastar_reference(b, HEURISTICS["manhattan"], max_nodes=RATE_NODES)),
    ):
        start = time.perf_counter()
        nodes = sum(runner(b).nodes for b in boards)
        seconds = time.perf_counter() - start
        rows.append((label, nodes, seconds, nodes / seconds))
    fast = rows[0][3]
    for label, nodes, seconds, rate in rows:
        print(f"  {label:20s} {nodes:9,d} nodes {seconds:8.3f} s {rate:12,.0f} nodes/s  numba is {fast / rate:6.1f}x")
    db = pdbmod.pattern_database(4, 4, build=False)
    if db is not None:
        start = time.perf_counter()
        nodes = sum(FastIDAStar(b, "pdb", db).run(max_nodes=10 * RATE_NODES).nodes for b in boards)
        print(f"  numba kernel + PDB   {nodes:9,d} nodes {time.perf_counter() - start:8.3f} s "
              f"{nodes / (time.perf_counter() - start):12,.0f} nodes/s (cached 6-6-3)")


def heuristics_on_8_puzzles() -> None:
    print(f"\n== 2. 8-puzzles ({len(EIGHT_SEEDS)} uniform seeded boards): mean per board ==")
    boards = [shuffle(3, 3, rng=s) for s in EIGHT_SEEDS]
    truth = [distance(b) for b in boards]
    db = pdbmod.pattern_database(3, 3, progress=False)
    print(f"  mean optimal length {statistics.mean(truth):.2f}")
    print(f"  {'heuristic':16s} {'h(start)':>9s} {'IDA* nodes':>11s} {'IDA* ms':>8s} {'max ms':>7s} {'A* nodes':>9s} {'A* ms':>8s}")
    for name in ("misplaced", "manhattan", "linear-conflict", "pdb"):
        FastIDAStar(boards[0], name, db if name == "pdb" else None).run()  # warm up
        ida_nodes, ida_times, a_nodes, a_times, h0 = [], [], [], [], []
        h = db.value if name == "pdb" else HEURISTICS[name]
        for b, d in zip(boards, truth):
            run = FastIDAStar(b, name, db if name == "pdb" else None).run()
            assert len(run.moves) == d
            ida_nodes.append(run.nodes)
            ida_times.append(run.seconds)
            start = time.perf_counter()
            out = astar_reference(b, h)
            a_times.append(time.perf_counter() - start)
            a_nodes.append(out.nodes)
            h0.append(h(b))
        print(f"  {name:16s} {statistics.mean(h0):9.2f} {statistics.mean(ida_nodes):11,.0f} "
              f"{1000 * statistics.mean(ida_times):8.2f} {1000 * max(ida_times):7.1f} "
              f"{statistics.mean(a_nodes):9,.0f} {1000 * statistics.mean(a_times):8.1f}")


def build_database(fresh: bool) -> pdbmod.PatternDatabase:
    print("\n== 3. 15-puzzle pattern database (6-6-3, mirrored lookup) ==")
    if fresh:
        with tempfile.TemporaryDirectory() as tmp:
            os.environ["TILELAB_CACHE_DIR"] = tmp
            start = time.perf_counter()
            db = pdbmod.pattern_database(4, 4, progress=False)
            built = time.perf_counter() - start
            size = pdbmod.cache_path(4, 4, db.patterns).stat().st_size
            del os.environ["TILELAB_CACHE_DIR"]
        print(f"  built in {built:.1f} s (BFS {db.build_seconds:.1f} s); tables {db.nbytes / 2**20:.1f} MiB "
              f"in memory, {size / 2**20:.1f} MiB compressed on disk")
        for g, pattern in enumerate(db.patterns):
            hist = db.histogram(g)
            print(f"  pattern {pattern}: {int(hist.sum()):,} placements, max {len(hist) - 1}, "
                  f"mean {float(np.average(np.arange(len(hist)), weights=hist)):.2f}")
    else:
        start = time.perf_counter()
        db = pdbmod.pattern_database(4, 4)
        print(f"  loaded from {pdbmod.cache_dir()} in {time.perf_counter() - start:.2f} s (build not timed)")
    return db


def korf(db: pdbmod.PatternDatabase, count: int) -> None:
    print(f"\n== 4. Korf's 100 instances (first {count}), IDA* + 6-6-3 PDB ==")
    instances = korf100()[:count]
    FastIDAStar(instances[0].board, "pdb", db).run(max_nodes=10)  # compile / load
    times, nodes, wrong = [], [], []
    print(f"  {'#':>3s} {'opt':>4s} {'found':>5s} {'nodes':>12s} {'seconds':>8s}  (Korf 1985 Manhattan nodes)")
    for inst in instances:
        run = FastIDAStar(inst.board, "pdb", db).run()
        if len(run.moves) != inst.optimal or not inst.board.play_all(run.moves).is_goal():
            wrong.append(inst.number)
        times.append(run.seconds)
        nodes.append(run.nodes)
        print(f"  {inst.number:3d} {inst.optimal:4d} {len(run.moves):5d} {run.nodes:12,d} {run.seconds:8.3f}  "
              f"({inst.korf_nodes:,})", flush=True)
    print(f"  solved {len(instances) - len(wrong)}/{len(instances)} at the published optimal length"
          + (f"; WRONG: {wrong}" if wrong else ""))
    print(f"  seconds: median {statistics.median(times):.3f}, mean {statistics.mean(times):.3f}, "
          f"max {max(times):.2f}, total {sum(times):.1f}")
    print(f"  nodes: median {statistics.median(nodes):,.0f}, mean {statistics.mean(nodes):,.0f}, "
          f"rate {sum(nodes) / sum(times):,.0f} nodes/s")


def human() -> None:
    print("\n== 5. Human strategy ==")
    for side in (10, 20, 30):
        times, lengths = [], []
        for seed in range(5):
            board = shuffle(side, side, rng=seed)
            start = time.perf_counter()
            moves = human_moves(board)
            times.append(time.perf_counter() - start)
            lengths.append(len(moves))
            assert board.play_all(moves).is_goal()
        print(f"  {side}x{side}: median {statistics.median(times):.3f} s, max {max(times):.3f} s; "
              f"mean {statistics.mean(lengths):,.0f} moves (Parberry bound {parberry_bound(side, side):,})")


def against_baseline(db: pdbmod.PatternDatabase, rev: str, count: int) -> None:
    """Today's IDA* kernel and ``rev``'s on the same instances, taking turns: nodes, solutions, CPU seconds."""
    print(f"\n== 6. IDA* + 6-6-3 PDB, Korf's instances 1-{count}: today's kernel vs {rev}'s, taking turns ==")
    old = module_at(rev, "tilelab/sliding/fast/idastar.py", "fast_baseline")
    if old is None:
        return
    instances = korf100()[:count]
    for module in (old, None):
        (module.FastIDAStar if module else FastIDAStar)(instances[0].board, "pdb", db).run(max_nodes=10)
    totals = {"today": [0, 0.0], rev: [0, 0.0]}
    same = True
    for inst in instances:
        runs = {}
        for label, solver in (("today", FastIDAStar), (rev, old.FastIDAStar)):
            tick = time.process_time()
            runs[label] = solver(inst.board, "pdb", db).run()
            totals[label][1] += time.process_time() - tick
            totals[label][0] += runs[label].nodes
        same &= runs["today"].nodes == runs[rev].nodes and list(runs["today"].moves) == list(runs[rev].moves)
    (new_nodes, new_s), (old_nodes, old_s) = totals["today"], totals[rev]
    print(f"  today   {new_nodes:12,d} nodes {new_s:7.2f} s {new_nodes / new_s:12,.0f} nodes/s")
    print(f"  {rev:7s} {old_nodes:12,d} nodes {old_s:7.2f} s {old_nodes / old_s:12,.0f} nodes/s")
    print(f"  today is {old_s / new_s:.2f}x as fast; same nodes and solutions: {'yes' if same else 'NO'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--korf", type=int, default=100, help="how many of Korf's instances (default 100)")
    parser.add_argument("--no-build", action="store_true", help="load the cached database, do not time a build")
    parser.add_argument("--baseline", default=DEFAULT_BASELINE, help="git revision of the old IDA* kernel ('' skips)")
    parser.add_argument("--baseline-korf", type=int, default=30, help="instances for the comparison (default 30)")
    args = parser.parse_args()
    print("conditions at start:", conditions())
    start = time.perf_counter()
    nodes_per_second()
    heuristics_on_8_puzzles()
    db = build_database(fresh=not args.no_build)
    korf(db, args.korf)
    human()
    if args.baseline:
        against_baseline(db, args.baseline, args.baseline_korf)
    print(f"\ntotal {time.perf_counter() - start:.0f} s; conditions at end: {conditions()}")


if __name__ == "__main__":
    main()

"""2048 wall-clock budget: does ``ms_per_move=T`` hold, quiet and with one busy process per core?

Per-move thinking time p50/p95/max over ``--moves`` moves of seeded games for ``Expectimax(ms_per_move=T)``
and ``TDExpectimax(lesson_network(), ms_per_move=T)``, first on the machine as it is ("quiet": no busy
processes of ours), then with one ``python -c 'while True: pass'`` per core started here and killed at the
end. Targets (issue 23): p95 <= 1.2 T and max <= 2 T in both.

Each move also records why it was slow, so a long move can be blamed: its CPU time (the search's own
work), ``stall`` = wall - CPU (time the process waited for a core), involuntary context switches, page
faults, and the machine's *steal* time during the move (ticks the hypervisor ran someone else on our
virtual cores; from /proc/stat, Linux only). A move that is over 2 T with CPU time under T waited for a
core: no program can end its move while it is not running.

    python benchmarks/bench_2048_deadline.py                          # 1000 moves x 2 players x 2 loads
    python benchmarks/bench_2048_deadline.py --moves 200 --loads busy --players expectimax
    python benchmarks/bench_2048_deadline.py --json benchmarks/results/bench_2048_deadline.json
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tilelab.game2048 import Expectimax, play_game  # noqa: E402


def steal_ticks() -> int:
    """Steal ticks of all cores so far (0 where /proc/stat is missing)."""
    try:
        with open("/proc/stat") as f:
            fields = f.readline().split()
        return int(fields[8])
    except (OSError, IndexError, ValueError):
        return 0


TICK_MS = 1e3 / os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 10.0


class Busy:
    """One ``python -c 'while True: pass'`` per core for a ``with`` block; each is killed (by its pid) at the end."""

    def __init__(self, count: int | None = None) -> None:
        self.count = count or os.cpu_count() or 1
        self.procs: list[subprocess.Popen] = []

    def __enter__(self) -> "Busy":
        self.procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(self.count)]
        time.sleep(1.0)  # let them reach full speed
        return self

    def __exit__(self, *exc: Any) -> None:
        for proc in self.procs:
            proc.kill()
        for proc in self.procs:
            proc.wait(timeout=10)


class Timed:
    """A player wrapped to record, per move: wall and CPU ms, context switches, page faults, steal, depth."""

    def __init__(self, player: Any) -> None:
        self.player = player
        self.name = getattr(player, "name", "player")
        self.rows: list[tuple[float, ...]] = []

    def __call__(self, board: Any) -> Any:
        steal, usage = steal_ticks(), resource.getrusage(resource.RUSAGE_SELF)
        cpu, tick = time.process_time(), time.perf_counter()
        direction = self.player(board)
        wall = 1e3 * (time.perf_counter() - tick)
        cpu = 1e3 * (time.process_time() - cpu)
        after = resource.getrusage(resource.RUSAGE_SELF)
        depth = getattr(getattr(self.player, "last", None), "depth", 0)
        self.rows.append((wall, cpu, after.ru_nivcsw - usage.ru_nivcsw, after.ru_majflt - usage.ru_majflt,
                          after.ru_minflt - usage.ru_minflt, (steal_ticks() - steal) * TICK_MS, depth))
        return direction


def move_rows(make_player: Callable[[], Any], count: int) -> np.ndarray:
    """Per-move rows (see :class:`Timed`) of ``count`` moves of seeded games, after a short untimed warm-up."""
    player = make_player()
    _play(player, 10_000, 5)  # compile and calibrate before timing
    timed, seed = Timed(player), 0
    while len(timed.rows) < count:
        _play(timed, seed, count - len(timed.rows))
        seed += 1
    return np.array(timed.rows)


def _play(player: Any, seed: int, max_moves: int) -> None:
    """One seeded game."""
    play_game(player, max_moves=max_moves, rng=seed)


def summary(rows: np.ndarray, ms: float) -> dict:
    wall, cpu = rows[:, 0], rows[:, 1]
    slow = rows[wall > 2 * ms]
    return {
        "moves_played": len(rows), "p50": float(np.percentile(wall, 50)), "p95": float(np.percentile(wall, 95)),
        "max": float(wall.max()), "mean": float(wall.mean()), "over_1.2T": int((wall > 1.2 * ms).sum()),
        "over_2T": int((wall > 2 * ms).sum()), "cpu_p95": float(np.percentile(cpu, 95)), "cpu_max": float(cpu.max()),
        "stall_max": float((wall - cpu).max()), "depth_mean": float(rows[:, 6].mean()),
        "steal_ms_total": float(rows[:, 5].sum()), "major_faults": int(rows[:, 3].sum()),
        "slowest": [dict(zip(("wall", "cpu", "invol_switches", "major_faults", "minor_faults", "steal_ms", "depth"),
                             map(float, r))) for r in rows[np.argsort(-wall)[:3]]],
        "over_2T_moves": [dict(zip(("wall", "cpu", "steal_ms"), map(float, r[[0, 1, 5]]))) for r in slow[:10]],
    }


def _autogroup() -> str:
    """Whether Linux groups processes by session when sharing the cores (then our own busy processes take their
    share from us, not from other sessions' programs)."""
    try:
        return Path("/proc/sys/kernel/sched_autogroup_enabled").read_text().strip()
    except OSError:
        return "unknown"


def players(ms: float, which: list[str]) -> dict[str, Callable[[], Any]]:
    from tilelab.game2048.learning.ntuple_players import TDExpectimax, lesson_network

    net = lesson_network()
    made = {"expectimax": lambda: Expectimax(ms_per_move=ms), "td-expectimax": lambda: TDExpectimax(net, ms_per_move=ms)}
    return {name: made[name] for name in which}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ms", type=float, default=50.0)
    parser.add_argument("--moves", type=int, default=1000)
    parser.add_argument("--players", default="expectimax,td-expectimax")
    parser.add_argument("--loads", default="quiet,busy")
    parser.add_argument("--json", default="", help="write the figures here")
    parser.add_argument("--note", default="", help="what else ran on the machine (saved with the figures)")
    args = parser.parse_args()
    ms = args.ms
    made = players(ms, args.players.split(","))
    out: dict = {"ms_per_move": ms, "cores": os.cpu_count(), "loadavg_start": os.getloadavg(),
                 "autogroup": _autogroup(), "busy": "one `python -c 'while True: pass'` per core, in this session",
                 "note": args.note, "runs": {}}
    print(f"== deadline: ms_per_move={ms:g}, {args.moves} moves each; target p95 <= {1.2 * ms:g} ms, max <= {2 * ms:g} ms")
    print(f"{'player':<15} {'load':<6} {'p50':>6} {'p95':>6} {'max':>6} {'>1.2T':>5} {'>2T':>4} {'cpu p95':>7} "
          f"{'cpu max':>7} {'stall':>6} {'steal':>6} {'depth':>5} loadavg  (ms; stall = wall - CPU of the worst move, "
          "steal = hypervisor steal summed over the run)")
    for load in args.loads.split(","):
        for name, make in made.items():
            if load == "busy":
                with Busy():
                    rows = move_rows(make, args.moves)
                    loadavg = os.getloadavg()[0]
            else:
                rows = move_rows(make, args.moves)
                loadavg = os.getloadavg()[0]
            s = summary(rows, ms)
            s["loadavg"] = loadavg
            out["runs"][f"{name} / {load}"] = s
            print(f"{name:<15} {load:<6} {s['p50']:>6.1f} {s['p95']:>6.1f} {s['max']:>6.1f} {s['over_1.2T']:>5} "
                  f"{s['over_2T']:>4} {s['cpu_p95']:>7.1f} {s['cpu_max']:>7.1f} {s['stall_max']:>6.1f} "
                  f"{s['steal_ms_total']:>6.0f} {s['depth_mean']:>5.2f} {loadavg:.1f}", flush=True)
            for r in s["slowest"][:1]:
                print(f"    slowest move: {r}")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()

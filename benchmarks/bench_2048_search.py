"""2048 search: nodes per second of the compiled expectimax, and whether a wall-clock budget holds.

Two parts, each printed as ratios side by side plus absolute figures:

1. **Speed** -- ``search_bits`` at depths 3-5 on 20 fixed positions (from one seeded game), timed by
   the process's CPU clock (best of ``--reps``), so other programs on the machine matter less.
   Compared with the search as it was before the speed work (``--baseline REV``: that revision's
   ``expectimax.py`` is loaded from git; same tree, so the node counts must be identical and the
   values too), and with the readable search (plain Python, the reference) at depth 2 without cutoff.
   Then ``TDExpectimax`` (the lesson net at the leaves) against the TD search of ``--td-baseline REV``,
   also taking turns search by search.
2. **Deadline** -- per-move thinking time p50/p95/max over ``--moves`` moves of real games with
   ``Expectimax(ms_per_move=T)`` and ``TDExpectimax(lesson net, ms_per_move=T)``, on a quiet machine and
   with one busy process per core (spawned here, each stopping by itself after ``--busy-seconds``).
   With ``--baseline`` also the old clock budget (node cap from a measured rate) under the same load.

    python benchmarks/bench_2048_search.py                  # everything (about 6 minutes)
    python benchmarks/bench_2048_search.py --skip-deadline  # speed only (about 30 s)
    python benchmarks/bench_2048_search.py --skip-deadline --reps 7 --runs 5  # median and range of 5 runs
    python benchmarks/bench_2048_search.py --skip-deadline --baseline 952645a  # the one kernel against the two before
    python benchmarks/bench_2048_search.py --moves 200 --ms 50 --json benchmarks/results/bench_2048_search.json

The deadline part here is the short version; ``benchmarks/bench_2048_deadline.py`` runs the issue's 1,000 moves
quiet and loaded and says, for each slow move, whether it waited for a core.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tilelab.game2048 import Direction, Expectimax, play_game  # noqa: E402
from tilelab.game2048.ai import evaluate, expectimax_values  # noqa: E402
from tilelab.game2048.fast.bitrows import DIRECTION_NAMES
from tilelab.game2048.fast.bitboard import from_bitboard
from tilelab.game2048 import expectimax as fast  # noqa: E402
from baseline import module_at  # noqa: E402  (benchmarks/baseline.py)

# 20 positions, every 150th board of one seeded game of Expectimax(nodes_per_move=20_000) (seed 2026)
POSITIONS = (
    0x7653543214101010, 0x8643752164315100, 0x9752752164122201, 0xA642652143211012, 0xA876224502340021,
    0xA965765242002010, 0xA943875276324310, 0xB532833072104000, 0xB501954174104310, 0xB320A31030103210,
    0xB711A71064201232, 0xB921A72233211001, 0xB941A83375224111, 0xB952A84287406421, 0xC851476223620123,
    0xC930852064203311, 0xCA53732133011000, 0xCA41861272115200, 0xCA75974230002001, 0xCA21981085116330,
)
DEFAULT_BASELINE = "205486e^"  # the search before the speed and deadline work


# ---------------------------------------------------------------------------------- part 1: speed
def load_baseline(rev: str):
    """That revision's expectimax module, imported under another name (None if git cannot give it)."""
    return module_at(rev, "tilelab/game2048/expectimax.py", "expectimax_baseline")


def time_searches(module, depth: int, reps: int) -> tuple[int, float, list]:
    """Total nodes, summed best-of-``reps`` CPU seconds, and each position's values, at one depth."""
    return time_side_by_side([module], depth, reps)[0]


def time_side_by_side(modules: list, depth: int, reps: int) -> list[tuple[int, float, list]]:
    """:func:`time_searches` for several modules at once, taking turns search by search (see :func:`take_turns`)."""
    tables = [module.SearchTables() for module in modules]
    for module, table in zip(modules, tables):
        module.search_bits(POSITIONS[0], 2, table)  # compile / load the cache
    return take_turns([lambda bits, m=module, t=table: m.search_bits(bits, depth, t)
                       for module, table in zip(modules, tables)], reps)


def take_turns(searches: list, reps: int) -> list[tuple[int, float, list]]:
    """Each ``search(bits)`` on the 20 positions, taking turns search by search (A B A B ...), so that a burst of
    load on the shared machine hits all of them alike: total nodes, summed best-of-``reps`` CPU seconds, values."""
    out = [[0, 0.0, []] for _ in searches]
    for bits in POSITIONS:
        best = [math.inf] * len(searches)
        results: list = [None] * len(searches)
        for _ in range(reps):
            for i, search in enumerate(searches):
                tick = time.process_time()
                results[i] = search(bits)
                best[i] = min(best[i], time.process_time() - tick)
        for i, result in enumerate(results):
            out[i][0] += result.nodes
            out[i][1] += best[i]
            out[i][2].append(result.values)
    return [(n, secs, values) for n, secs, values in out]


def speed(depths: list[int], reps: int, baseline, runs: int = 1) -> dict:
    """:func:`speed_run` ``runs`` times; with a baseline, each depth's median, lowest and highest speed-up."""
    out: dict = {"runs": [speed_run(depths, reps, baseline, k, runs) for k in range(runs)]}
    out["depths"] = {depth: median_row([run["depths"][depth] for run in out["runs"]]) for depth in depths}
    if baseline is not None and runs > 1:
        print(f"\n== speed over {runs} runs: median (lowest - highest)")
        for depth, row in out["depths"].items():
            print(f"depth {depth}: {row['nodes_per_s'] / 1e6:.1f} M nodes/s, {row['speedup']:.2f}x "
                  f"({row['speedup_low']:.2f} - {row['speedup_high']:.2f}) the old kernel; same tree and values in "
                  f"every run: {'yes' if row['same_tree_and_values'] else 'NO'}")
    out["reference"] = reference_agreement()
    return out


def median_row(rows: list[dict]) -> dict:
    """One depth over several runs: the run with the median speed-up (by new nodes/s without a baseline), and the
    lowest and highest speed-up.

    >>> rows = [{"nodes": 5, "nodes_per_s": r, "speedup": s, "same_tree_and_values": True} for r, s in
    ...         [(1.0, 1.9), (2.0, 2.1), (3.0, 1.8)]]
    >>> row = median_row(rows); (row["speedup"], row["speedup_low"], row["speedup_high"], row["runs"])
    (1.9, 1.8, 2.1, 3)
    """
    key = "speedup" if all("speedup" in row for row in rows) else "nodes_per_s"
    ordered = sorted(rows, key=lambda row: row[key])
    out = dict(ordered[(len(ordered) - 1) // 2], runs=len(rows))
    if key == "speedup":
        out.update(speedup_low=ordered[0]["speedup"], speedup_high=ordered[-1]["speedup"],
                   same_tree_and_values=all(row["same_tree_and_values"] for row in rows))
    return out


def speed_run(depths: list[int], reps: int, baseline, k: int = 0, runs: int = 1) -> dict:
    """One run: every depth, new and old taking turns."""
    out: dict = {"depths": {}}
    print(f"\n== speed{f' (run {k + 1} of {runs})' if runs > 1 else ''}: 20 fixed positions, cutoff 1e-4, table "
          f"2**20, best of {reps} per position, new and old taking turns search by search (CPU time)")
    head = f"{'depth':>5} {'nodes':>10} {'new M/s':>9} {'ms/search':>10}"
    print(head + (f"  {'old M/s':>8} {'old ms':>8} {'x faster':>8} same" if baseline else ""))
    for depth in depths:
        row: dict = {}
        turns = max(reps, 3 * reps if depth <= 3 else reps)  # small searches: more turns, the noise is larger
        if baseline is None:
            (nodes, secs, values), = time_side_by_side([fast], depth, turns)
        else:
            (nodes, secs, values), (old_nodes, old_secs, old_values) = time_side_by_side([fast, baseline], depth, turns)
        row.update(nodes=nodes, seconds=secs, nodes_per_s=nodes / secs, reps=turns)
        line = f"{depth:>5} {nodes:>10} {nodes / secs / 1e6:>9.2f} {1e3 * secs / len(POSITIONS):>10.2f}"
        if baseline is not None:
            same = old_nodes == nodes and all(
                np.array_equal(np.array(a), np.array(b), equal_nan=True) for a, b in zip(values, old_values))
            row.update(old_nodes=old_nodes, old_seconds=old_secs, old_nodes_per_s=old_nodes / old_secs,
                       speedup=old_secs / secs, same_tree_and_values=bool(same))
            line += (f"  {old_nodes / old_secs / 1e6:>8.2f} {1e3 * old_secs / len(POSITIONS):>8.2f} "
                     f"{old_secs / secs:>8.2f} {'yes' if same else 'NO'}")
        print(line, flush=True)
        out["depths"][depth] = row
    return out


def reference_agreement(depth: int = 2, count: int = 4) -> dict:
    """The readable search against the compiled one without cutoff: same values, and how much slower."""
    tables = fast.SearchTables()
    worst, ref_nodes, ref_secs, fast_nodes, fast_secs = 0.0, 0, 0.0, 0, 0.0
    for bits in POSITIONS[-count:]:  # the fullest boards: the readable search is slow
        board = from_bitboard(bits)
        calls = [0]

        def counted(b, _calls=calls):
            _calls[0] += 1
            return evaluate(b)

        tick = time.process_time()
        plain = expectimax_values(board, depth, counted)
        ref_secs += time.process_time() - tick
        ref_nodes += calls[0]
        tick = time.process_time()
        result = fast.search_bits(bits, depth, tables, cutoff=0.0)
        fast_secs += time.process_time() - tick
        fast_nodes += result.nodes
        for code, value in enumerate(result.values):
            name = DIRECTION_NAMES[code]
            mine = next((v for d, v in plain.items() if d.name == name), math.nan)
            if not (math.isnan(value) and math.isnan(mine)):
                worst = max(worst, abs(value - mine) / max(abs(mine), 1.0))
    print(f"\n== reference: readable expectimax_values vs search_bits, depth {depth}, cutoff 0, {count} positions")
    print(f"readable {ref_nodes / ref_secs:>12,.0f} boards/s   compiled {fast_nodes / fast_secs:>14,.0f} nodes/s   "
          f"ratio {fast_nodes / fast_secs / (ref_nodes / ref_secs):,.0f}x   largest relative difference {worst:.1e}")
    return {"depth": depth, "positions": count, "readable_boards_per_s": ref_nodes / ref_secs,
            "compiled_nodes_per_s": fast_nodes / fast_secs, "max_relative_difference": worst}


def load_old_ntuple(rev: str):
    """That revision's ntuple.py (the TD search before the one kernel), imported under another name, or None."""
    return module_at(rev, "tilelab/game2048/ntuple.py", "ntuple_baseline")


def td_searches(modules: list, net, depth: int) -> list:
    """One ``TDExpectimax(net, depth=depth).search`` per module (each module's own network class), compiled."""
    searches = []
    for module in modules:
        player = module.TDExpectimax(module.NTupleNetwork(net.tuples, net.weights), depth=depth)
        player.search(POSITIONS[0], 2)  # compile / load the cache
        searches.append(lambda bits, p=player: p.search(bits, depth))
    return searches


def td_speed(depths: list[int], reps: int, rev: str) -> dict:
    """TDExpectimax nodes/s now (the one kernel, V at its leaves) against ``rev``'s own TD kernel, taking turns
    search by search like the main comparison."""
    from tilelab.game2048.learning import ntuple_players

    old = load_old_ntuple(rev)
    if old is None:
        return {}
    net = ntuple_players.lesson_network()
    out: dict = {"baseline": rev, "depths": {}}
    print(f"\n== TD speed: TDExpectimax(lesson net).search, 20 positions, cutoff 1e-3, best of {reps} (CPU time), "
          "taking turns")
    print(f"{'depth':>5} {'nodes':>9} {'new M/s':>8} {'old M/s':>8} {'new/old':>8} same")
    for depth in depths:
        (nodes, secs, values), (old_nodes, old_secs, old_values) = take_turns(td_searches([ntuple, old], net, depth),
                                                                              reps)
        same = old_nodes == nodes and all(np.array_equal(np.array(a), np.array(b), equal_nan=True)
                                          for a, b in zip(values, old_values))
        print(f"{depth:>5} {nodes:>9} {nodes / secs / 1e6:>8.2f} {old_nodes / old_secs / 1e6:>8.2f} "
              f"{old_secs / secs:>8.2f} {'yes' if same else 'NO'}", flush=True)
        out["depths"][depth] = {"nodes": nodes, "seconds": secs, "old_nodes": old_nodes, "old_seconds": old_secs,
                                "speedup": old_secs / secs, "same_tree_and_values": bool(same)}
    return out


# ---------------------------------------------------------------------------------- part 2: deadline
def _spin(seconds: float) -> None:
    """A busy process: burn one core until ``seconds`` have passed, then stop by itself."""
    end = time.monotonic() + seconds
    x = 0
    while time.monotonic() < end:
        x = (x * 1103515245 + 12345) & 0xFFFFFFFF


class Busy:
    """One spinning process per core for the duration of a ``with`` block (each also stops by itself)."""

    def __init__(self, seconds: float, count: int | None = None) -> None:
        self.seconds, self.count = seconds, count or os.cpu_count() or 1
        self.procs: list[mp.Process] = []

    def __enter__(self) -> "Busy":
        ctx = mp.get_context("spawn")
        self.procs = [ctx.Process(target=_spin, args=(self.seconds,), daemon=True) for _ in range(self.count)]
        for proc in self.procs:
            proc.start()
        time.sleep(0.5)
        return self

    def __exit__(self, *exc) -> None:
        for proc in self.procs:
            if proc.is_alive():
                proc.terminate()
            proc.join(timeout=5)


class _Timed:
    """A player wrapped to record each move's wall-clock and CPU time (ms): a stall shows as wall >> CPU."""

    def __init__(self, player) -> None:
        self.player, self.name = player, getattr(player, "name", "player")
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def __call__(self, board):
        tick, cpu = time.perf_counter(), time.process_time()
        direction = self.player(board)
        self.wall.append(1e3 * (time.perf_counter() - tick))
        self.cpu.append(1e3 * (time.process_time() - cpu))
        return direction


def move_times(make_player, moves: int) -> tuple[list[float], list[float]]:
    """Wall and CPU thinking time (ms) of ``moves`` moves of seeded games (new games until there are enough)."""
    player = make_player()
    play_game(player, rng=10_000, max_moves=3)  # compile and calibrate before timing
    timed, seed = _Timed(player), 0
    while len(timed.wall) < moves:
        play_game(timed, rng=seed, max_moves=moves - len(timed.wall))
        seed += 1
    return timed.wall, timed.cpu


def summary(times: list[float], cpu: list[float], ms: float) -> dict:
    a, c = np.array(times), np.array(cpu)
    stalled = a - c  # time the process was not running (waiting for a core) during the move
    return {"moves": len(a), "p50": float(np.percentile(a, 50)), "p95": float(np.percentile(a, 95)),
            "max": float(a.max()), "mean": float(a.mean()), "over_1.2T": int((a > 1.2 * ms).sum()),
            "over_2T": int((a > 2 * ms).sum()), "cpu_p95": float(np.percentile(c, 95)), "cpu_max": float(c.max()),
            "stall_max": float(stalled.max())}


class _OldClockPlayer:
    """The clock budget as it was (node cap from a measured rate), on the baseline module's search."""

    name = "expectimax-old-clock"

    def __init__(self, module, ms: float) -> None:
        self.module, self.tables = module, module.SearchTables()
        self.budget = module.Budget(ms_per_move=ms)

    def __call__(self, board):
        from tilelab.game2048.fast.bitrows import DIRECTION_NAMES
        from tilelab.game2048.fast.bitboard import to_bitboard
        bits = to_bitboard(board)
        result = self.module.deepen(lambda d, limit: self.module.search_bits(bits, d, self.tables, node_limit=limit),
                                    self.budget)
        return Direction[DIRECTION_NAMES[result.best]]


def deadline(ms: float, moves: int, busy_seconds: float, baseline) -> dict:
    from tilelab.game2048.learning.ntuple_players import TDExpectimax, lesson_network

    net = lesson_network()
    players = {"expectimax": lambda: Expectimax(ms_per_move=ms),
               "td-expectimax": lambda: TDExpectimax(net, ms_per_move=ms)}
    if baseline is not None:
        players["expectimax (before)"] = lambda: _OldClockPlayer(baseline, ms)
    out: dict = {"ms_per_move": ms, "cores": os.cpu_count(), "runs": {}}
    print(f"\n== deadline: ms_per_move={ms:g}, {moves} moves each; target p95 <= {1.2 * ms:g} ms, max <= {2 * ms:g} ms")
    print(f"{'player':<22} {'load':<7} {'p50':>7} {'p95':>7} {'max':>7} {'mean':>7} {'>1.2T':>6} {'>2T':>5} "
          f"{'cpu p95':>7} {'cpu max':>7} {'stall':>7}  loadavg   (ms; stall = longest wall - CPU)")
    for load in ("quiet", "busy"):
        for name, make in players.items():
            if load == "busy":
                with Busy(busy_seconds):
                    times, cpu = move_times(make, moves)
            else:
                times, cpu = move_times(make, moves)
            s = summary(times, cpu, ms)
            s["loadavg"] = os.getloadavg()[0]
            out["runs"][f"{name} / {load}"] = s
            print(f"{name:<22} {load:<7} {s['p50']:>7.1f} {s['p95']:>7.1f} {s['max']:>7.1f} {s['mean']:>7.1f} "
                  f"{s['over_1.2T']:>6} {s['over_2T']:>5} {s['cpu_p95']:>7.1f} {s['cpu_max']:>7.1f} "
                  f"{s['stall_max']:>7.1f}  {s['loadavg']:.1f}", flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depths", default="3,4,5")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--runs", type=int, default=1, help="the speed part this many times (median, range)")
    parser.add_argument("--baseline", default=DEFAULT_BASELINE, help="git revision of the old search ('' for none)")
    parser.add_argument("--ms", type=float, default=50.0)
    parser.add_argument("--moves", type=int, default=1000)
    parser.add_argument("--busy-seconds", type=float, default=240.0, help="each busy process stops after this")
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--skip-deadline", action="store_true")
    parser.add_argument("--json", default="", help="write the figures here")
    parser.add_argument("--td-baseline", default="952645a", help="git revision of the TD search before the one "
                        "kernel ('' to skip the TD speed part)")
    parser.add_argument("--td-depths", default="2,3,4")
    parser.add_argument("--note", default="", help="what else ran on the machine, saved with the figures")
    args = parser.parse_args()
    if args.runs < 1 or args.reps < 1:
        parser.error(f"--runs and --reps must be at least 1 (got --runs {args.runs}, --reps {args.reps})")
    baseline = load_baseline(args.baseline) if args.baseline else None
    results: dict = {"machine": {"cores": os.cpu_count(), "loadavg_start": os.getloadavg(), "note": args.note}}
    if not args.skip_speed:
        results["speed"] = speed([int(d) for d in args.depths.split(",")], args.reps, baseline, args.runs)
        if args.td_baseline:
            results["td_speed"] = td_speed([int(d) for d in args.td_depths.split(",")], args.reps, args.td_baseline)
    if not args.skip_deadline:
        results["deadline"] = deadline(args.ms, args.moves, args.busy_seconds, baseline)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()

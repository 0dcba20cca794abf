"""Benchmark: learned 2048 players (n-tuple network + TD) against lesson 2b's expectimax, same seeds.

1. ``TDPlayer`` (1-ply greedy on the learned value) over ``--games`` seeded games: rate of reaching
   2048 / 4096 / 8192 / 16384 / 32768 with 95% Wilson intervals, median score, ms per move;
2. ``TDExpectimax`` (expectimax with the learned value at the leaves) at a *true* wall-clock budget
   (``--ms``, default 50 ms per move) over ``--search-games`` games, and lesson 2b's heuristic
   ``Expectimax`` at the same wall-clock budget on the same seeds; ms per move actually spent.
3. ``TDExpectimax`` at a fixed search depth (``--depth 2,3``) over ``--depth-games`` games: the same
   game on any machine, and the ms per move it actually spent.

Every finished game is saved at once to ``--out``; ``--resume`` goes on. 100 games at a true 50 ms per
move are ~ 100 x 10,000+ moves x 50 ms = 14+ hours of one core: quote the sample you could afford.

    python benchmarks/bench_2048_learning.py --net benchmarks/results/td_classroom_td0.npz --games 200
    python benchmarks/bench_2048_learning.py --games 0 --search-games 4 --ms 50
    python benchmarks/bench_2048_learning.py --net benchmarks/results/td_wu-yeh_tc.npz --games 0 \
        --depth 2 --depth-games 100 --out benchmarks/results/bench_2048_learning_wuyeh_tc.json --resume
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from tilelab.game2048 import Expectimax, play_game
from tilelab.game2048.learning.ntuple_net import NTupleNetwork
from tilelab.game2048.learning.ntuple_players import TDExpectimax, TDPlayer
from tilelab.match3.stats import wilson_interval

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_NET = ROOT / "benchmarks" / "results" / "td_classroom_td0.npz"
DEFAULT_OUT = ROOT / "benchmarks" / "results" / "bench_2048_learning.json"
MILESTONES = (2048, 4096, 8192, 16384, 32768)
SEED_BASE = 1000  # the same seeds as benchmarks/bench_2048_ai.py


def summarise(games: list[dict]) -> dict:
    """Rates with 95% Wilson intervals, median score and mean thinking time per move."""
    n = len(games)
    if not n:
        return {"games": 0}
    moves = sum(g["moves"] for g in games)
    out = {"games": n, "median_score": statistics.median(g["score"] for g in games),
           "ms_per_move": sum(g["ms_per_move"] * g["moves"] for g in games) / max(moves, 1), "moves": moves}
    for tile in MILESTONES:
        k = sum(g["max_tile"] >= tile for g in games)
        lo, hi = wilson_interval(k, n)
        out[f"reach_{tile}"] = {"rate": k / n, "wilson95": [lo, hi], "count": k}
    return out


def play(setting: str, player, seed: int) -> dict:
    tick = time.perf_counter()
    record = play_game(player, rng=seed)
    return {"setting": setting, "seed": seed, "score": record.score, "max_tile": record.max_tile,
            "moves": record.moves_played, "ms_per_move": record.ms_per_move, "seconds": time.perf_counter() - tick}


def save(path: Path, data: dict) -> None:
    names = sorted({g["setting"] for g in data["games"]})
    data["summary"] = {name: summarise([g for g in data["games"] if g["setting"] == name]) for name in names}
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1))
    tmp.replace(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--net", type=Path, default=DEFAULT_NET)
    parser.add_argument("--games", type=int, default=200, help="1-ply TDPlayer games")
    parser.add_argument("--search-games", type=int, default=0, help="games per player at --ms wall clock")
    parser.add_argument("--ms", type=float, default=50.0)
    parser.add_argument("--depth", default="", help="comma-separated fixed depths for TDExpectimax, e.g. 2,3")
    parser.add_argument("--depth-games", type=int, default=0, help="games per --depth setting")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--only", default="", help="play only settings whose name contains this text")
    args = parser.parse_args(argv)
    net = NTupleNetwork.load(args.net)
    print(f"{net}", flush=True)
    data = json.loads(args.out.read_text()) if args.resume and args.out.exists() else {"games": []}
    data["net"] = {"path": str(args.net.relative_to(ROOT)) if args.net.is_relative_to(ROOT) else str(args.net),
                   "name": net.name, "trained_games": net.training["games"],
                   "training_seconds": net.training["seconds"], "memory_bytes": net.memory_bytes}
    data["machine"] = {"python": sys.version.split()[0], "platform": platform.platform(), "cpus": os.cpu_count(),
                       "note": "2-core machine shared with other jobs: times are upper bounds"}
    done = {(g["setting"], g["seed"]) for g in data["games"]}
    plan = [("td-1ply", lambda: TDPlayer(net), args.games)]
    plan += [(f"td-expectimax-{args.ms:g}ms", lambda: TDExpectimax(net, ms_per_move=args.ms), args.search_games),
             (f"heuristic-expectimax-{args.ms:g}ms", lambda: Expectimax(ms_per_move=args.ms), args.search_games)]
    for depth in (int(d) for d in args.depth.split(",") if d.strip()):
        plan.append((f"td-expectimax-depth{depth}", lambda d=depth: TDExpectimax(net, depth=d), args.depth_games))
    for setting, make, count in plan:
        if args.only not in setting:
            continue
        for seed in range(SEED_BASE, SEED_BASE + count):
            if (setting, seed) in done:
                continue
            game = play(setting, make(), seed)
            data["games"].append(game)
            save(args.out, data)
            print(f"  {setting:>28} seed {seed}: score {game['score']:>7} max {game['max_tile']:>5} "
                  f"moves {game['moves']:>5} {game['ms_per_move']:.2f} ms/move", flush=True)
    save(args.out, data)
    print(f"{'player':>28} {'games':>5} {'median':>8} " + " ".join(f"{t:>17}" for t in MILESTONES) + "  ms/move")
    for name, s in data["summary"].items():
        cells = " ".join(f"{100 * s[f'reach_{t}']['rate']:5.1f}% [{100 * s[f'reach_{t}']['wilson95'][0]:3.0f},"
                         f"{100 * s[f'reach_{t}']['wilson95'][1]:3.0f}]" for t in MILESTONES)
        print(f"{name:>28} {s['games']:>5} {s['median_score']:>8.0f} {cells} {s['ms_per_move']:8.2f}")
    print(f"saved {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark: TD self-play training of the 4 x 6-tuple net, the fused trainer against the plain one, in turns.

    python benchmarks/bench_2048_training.py                 # 5 rounds, 20 games each, on two states
    python benchmarks/bench_2048_training.py --save          # also write benchmarks/results/bench_2048_training.json

``tilelab.game2048.learning.ntuple_kernels.train_games`` (each afterstate's feature indices worked out once, every weight
and learning-rate sum a move reads asked for before the first is used) against ``train_games_plain`` (the same
loop written with the small kernels), on two states of the temporal-coherence net:

* **fresh**: all weights 0, as training starts (the tables touched are few and stay in the caches);
* **the shipped net** (``tilelab/data/ntuple-strong.npz``; labelled by its training games: ``203k`` in the saved
  run, made while the 203,000-game net was shipped), its learning-rate sums restarted (0), as in the middle of
  the 91% run: 800 MB of tables read at random.

Each round gives both trainers the same copy of the state and the same seed, one after the other (which first
alternates), checks that they end with the same weights, sums, xorshift state and game scores, and times them
(CPU seconds). Printed: moves a second of each and the speed-up, per round and as median (lowest - highest).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

from tilelab.game2048.fast.bitrows import row_tables
from tilelab.game2048.fast.bitrows import U64
from tilelab.game2048.learning.ntuple_compact import STRONG_NET, load_network
from tilelab.game2048.learning.ntuple_net import NTupleNetwork
from tilelab.game2048.learning.ntuple_kernels import train_games, train_games_plain

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "results" / "bench_2048_training.json"
TRAINERS: dict[str, Callable[..., Any]] = {"fused": train_games, "plain": train_games_plain}


def one_run(train: Callable[..., Any], net: NTupleNetwork, games: int, seed: int) -> tuple[int, float, str]:
    """``games`` TC games by ``train`` from a copy of ``net`` (sums 0): moves, CPU seconds, a digest of the end."""
    t = row_tables()
    weights = net.weights.copy()
    e_sum, a_sum = np.zeros_like(weights), np.zeros_like(weights)
    e_sum.fill(0)  # touch every page now, not on the clock
    a_sum.fill(0)
    results = [np.zeros(games, np.int64) for _ in range(3)]
    tick = time.process_time()
    state = train(games, U64(seed), 1.0, True, 0.1, weights, e_sum, a_sum, *net.layout,
                  t.left, t.right, t.score, *results)
    seconds = time.process_time() - tick
    digest = hashlib.sha256(weights.tobytes() + e_sum.tobytes() + a_sum.tobytes() + results[0].tobytes()
                            + int(state).to_bytes(8, "little")).hexdigest()
    return int(results[2].sum()), seconds, digest


def compare(label: str, net: NTupleNetwork, games: int, rounds: int) -> dict[str, Any]:
    """Both trainers, in turns, ``rounds`` times on ``net``: per-round moves a second and the speed-up."""
    for train in TRAINERS.values():
        one_run(train, net, 1, 1)  # compile or load the cache
    rows = []
    for r in range(rounds):
        order = list(TRAINERS) if r % 2 == 0 else list(reversed(TRAINERS))
        runs = {name: one_run(TRAINERS[name], net, games, 1000 + r) for name in order}
        same = runs["fused"][0] == runs["plain"][0] and runs["fused"][2] == runs["plain"][2]
        if not same:
            raise SystemExit(f"{label}, round {r + 1}: the two trainers ended differently; the fused one is wrong")
        speed = {name: moves / seconds for name, (moves, seconds, _) in runs.items()}
        rows.append({"moves": runs["fused"][0], "fused": speed["fused"], "plain": speed["plain"],
                     "speedup": speed["fused"] / speed["plain"]})
        print(f"  {label:<6} round {r + 1}: {runs['fused'][0]:>9,} moves  fused {speed['fused'] / 1e3:7.0f}k/s  "
              f"plain {speed['plain'] / 1e3:7.0f}k/s  {speed['fused'] / speed['plain']:5.2f}x  same end: {same}",
              flush=True)
    ups = [row["speedup"] for row in rows]
    summary = {"games_per_round": games, "rounds": rows, "median_speedup": statistics.median(ups),
               "lowest_speedup": min(ups), "highest_speedup": max(ups),
               "median_fused_moves_per_s": statistics.median(row["fused"] for row in rows),
               "median_plain_moves_per_s": statistics.median(row["plain"] for row in rows)}
    print(f"{label}: fused {summary['median_fused_moves_per_s'] / 1e3:.0f}k moves/s, plain "
          f"{summary['median_plain_moves_per_s'] / 1e3:.0f}k: {summary['median_speedup']:.2f}x "
          f"({summary['lowest_speedup']:.2f} - {summary['highest_speedup']:.2f}), the same games and weights "
          f"in every round", flush=True)
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=20, help="games a round on the shipped net")
    parser.add_argument("--fresh-games", type=int, default=200, help="games a round from all-zero weights")
    parser.add_argument("--save", action="store_true", help=f"write {OUT.relative_to(ROOT)}")
    args = parser.parse_args(argv)
    out = {"fresh": compare("fresh", NTupleNetwork.wu_yeh(), args.fresh_games, args.rounds)}
    shipped = load_network(STRONG_NET)
    label = f"{shipped.training['games'] // 1000}k"
    out[label] = compare(label, shipped, args.games, args.rounds)
    if args.save:
        OUT.write_text(json.dumps(out, indent=1) + "\n")
        print(f"saved {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

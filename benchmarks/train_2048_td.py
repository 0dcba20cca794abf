"""Train an n-tuple network for 2048 by TD learning (seeded, resumable) and save weights + curve + timing.

    python benchmarks/train_2048_td.py --net classroom --games 50000            # the lesson's 4-tuple net
    python benchmarks/train_2048_td.py --net wu-yeh --games 200000 --minutes 60  # the 4 x 6-tuple net
    python benchmarks/train_2048_td.py --net classroom --games 100000 --resume  # go on from the saved file
    python benchmarks/train_2048_td.py --net wu-yeh --method tc --games 643000 --restart-at 348000 --resume
        # the recipe of the 91% net: temporal coherence, every learning rate restarted at 1 at 348,000 games

Weights go to ``benchmarks/results/td_<net>_<method>.npz`` (checked format, see
``tilelab.game2048.learning``; large nets are gitignored) and the learning curve + timing to the
``.json`` beside it; temporal-coherence runs also save their accumulators (3 x the weights' size) so a
resumed run continues exactly. ``--minutes`` stops after the block running at that time (the file is saved after
every block, so a stopped run loses at most one block). ``--ship PATH`` also writes a compressed copy
(e.g. into ``tilelab/data``) for the lesson.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

from tilelab.game2048.learning.ntuple_net import CLASSROOM_TUPLES, WU_YEH_TUPLES, NTupleNetwork

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
NETS = {"classroom": CLASSROOM_TUPLES, "wu-yeh": WU_YEH_TUPLES}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--net", choices=sorted(NETS), default="classroom")
    parser.add_argument("--games", type=int, default=50_000, help="total training games (resume counts old ones)")
    parser.add_argument("--method", choices=("td0", "tc"), default="td0")
    parser.add_argument("--alpha", type=float, default=None, help="default 0.1 for td0, 1.0 for tc")
    parser.add_argument("--seed", type=int, default=2014)
    parser.add_argument("--block", type=int, default=1000, help="games per learning-curve point")
    parser.add_argument("--minutes", type=float, default=None, help="stop after this much wall-clock time")
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--restart-coherence", action="store_true",
                        help="resume TC from a file saved without its accumulators (every rate restarts at 1)")
    parser.add_argument("--restart-at", type=int, action="append", default=[], metavar="GAMES",
                        help="TC: restart every learning rate at 1 (zero both sums) when the net has trained this many "
                             "games; once per file, recorded in its training record (repeat the option for more)")
    parser.add_argument("--expect", type=Path, default=None, metavar="JSON",
                        help="a saved run's .json (e.g. benchmarks/results/td_wu-yeh_tc-long.json): say after each "
                             "block whether this run repeats it exactly (same seed and settings give the same games)")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--ship", type=Path, default=None, help="also save a compressed copy here")
    parser.add_argument("--progress", action="store_true", help="tqdm progress bar")
    args = parser.parse_args(argv)
    alpha = args.alpha if args.alpha is not None else (0.1 if args.method == "td0" else 1.0)
    if args.restart_at and (args.method != "tc" or min(args.restart_at) < 1):
        parser.error("--restart-at GAMES needs --method tc and GAMES >= 1")
    out = args.out or RESULTS / f"td_{args.net}_{args.method}.npz"
    if args.expect is not None and args.expect.resolve() == out.with_suffix(".json").resolve():
        parser.error(f"--expect {args.expect} is the file this run writes its curve to; give another --out")
    if args.resume and out.exists():
        net = NTupleNetwork.load(out)
        print(f"resuming {net}", flush=True)
        seed = None
    else:
        net = NTupleNetwork(NETS[args.net], name=args.net)
        seed = args.seed
    print(f"{net.name}: {len(net.weights):,} weights = {net.memory_bytes / 2**20:.1f} MiB "
          f"({'+ 2 x that for TC accumulators' if args.method == 'tc' else 'float32'})", flush=True)
    expected = expected_curve(args.expect)
    start = time.perf_counter()
    while net.training["games"] < args.games:
        if args.minutes is not None and time.perf_counter() - start > 60 * args.minutes:
            print("time limit reached", flush=True)
            break
        trained = net.training["games"]
        restart = trained in args.restart_at and trained not in net.training.get("restarts", [])
        if restart:
            net.e_sum = net.a_sum = None  # every rate back at 1 (the sums start again from 0)
            net.training["restarts"] = [*net.training.get("restarts", []), trained]
            print(f"  learning rates restarted at {trained:,} games", flush=True)
        n = min(args.block, args.games - trained, *(at - trained for at in args.restart_at if at > trained))
        (point,) = net.train(n, rng=seed, alpha=alpha, method=args.method, block=args.block, progress=args.progress,
                             restart_coherence=args.restart_coherence or restart)
        seed = None
        print(f"  games {point.games:>8,}  mean score {point.mean_score:>9,.0f}  2048 rate {point.reach_2048:6.1%}  "
              f"max tile {point.max_tile:>6}  {point.block / point.seconds:7.0f} games/s  "
              f"total {net.training['seconds'] / 60:6.1f} min{compare(point, expected)}", flush=True)
        net.save(out, compress=net.memory_bytes < 50 * 2**20)
        summary = {"net": net.name, "tuples": [list(t) for t in net.tuples], "weights": len(net.weights),
                   "memory_bytes": net.memory_bytes, "method": args.method, "alpha": alpha,
                   "seed": net.training["seed"], "games": net.training["games"],
                   "training_seconds": net.training["seconds"], "restarts": net.training.get("restarts", []),
                   "curve": net.training["curve"],
                   "machine": {"python": sys.version.split()[0], "platform": platform.platform(),
                               "cpus": os.cpu_count(),
                               "note": "2-core machine shared with other jobs (nice 10): times are upper bounds"}}
        tmp = out.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(summary, indent=1))
        tmp.replace(out.with_suffix(".json"))
    if args.ship:
        net.save(args.ship, compress=True, training_state=False)
        print(f"shipped {args.ship} ({args.ship.stat().st_size / 2**20:.2f} MiB)")
    print(f"saved {out}; trained {net.training['games']:,} games in {net.training['seconds'] / 60:.1f} min")
    return 0


def expected_curve(path: Path | None) -> dict[int, tuple]:
    """A saved run's learning curve, by games trained: (block, mean score, 2048 rate, max tile)."""
    if path is None:
        return {}
    try:
        curve = json.loads(Path(path).read_text())["curve"]
        return {p["games"]: (p["block"], p["mean_score"], p["reach_2048"], p["max_tile"]) for p in curve}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise SystemExit(f"--expect {path}: not a training run's .json with a learning curve ({exc})") from None


def compare(point, expected: dict[int, tuple]) -> str:
    """``"  = saved run"`` when this block is exactly the saved run's, what differs when not, "" past its end."""
    if point.games not in expected:
        return ""
    mine = (point.block, point.mean_score, point.reach_2048, point.max_tile)
    if mine == expected[point.games]:
        return "  = saved run"
    return f"  DIFFERS from the saved run (mean score {expected[point.games][1]:,.3f} there, {point.mean_score:,.3f} here)"


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark: the fast 2048 engine and the AI players, printed side by side in one run.

1. fast (bitboard) engine vs the readable engine: moves per second, and the ratio;
2. batch random play (numpy, many games at once): moves per second;
3. the simple players (random, greedy, corner, Monte-Carlo) on seeded games;
4. expectimax at the classroom node budget (``--nodes``, default 150,000 nodes per move: deterministic,
   same seed same game on any machine; about 6 ms a move here) over ``--games`` seeded games:
   % reaching 2048 / 4096 / 8192 / 16384, median score, ms and moves per second;
5. a deeper "research" node budget (``--research-nodes``) on a smaller sample (``--research-games``);
6. optionally expectimax at a true wall-clock budget (``--ms``, e.g. 50: iterative deepening to a deadline,
   so results depend on the machine and its load) over ``--ms-games`` games.

Setting names say the budget: ``expectimax-150k-nodes``, ``expectimax-50ms`` (wall clock).
Every finished game is written at once to ``--out`` (JSON), so a long run can be stopped at any time
and continued with ``--resume``; the lesson plots that file. A game that reaches 16384 lasts about
8,000 moves, so 100 games at a true 50 ms a move take about 11 core-hours: use ``--ms-games`` to fit
your time and quote the sample size.

    python benchmarks/bench_2048_ai.py --games 100 --workers 2
    python benchmarks/bench_2048_ai.py --games 0 --simple-games 0 --research-games 0 --ms 50 --ms-games 10 \
        --skip-engine --resume --out benchmarks/results/bench_2048_ai_50ms.json
    python benchmarks/bench_2048_ai.py --quick          # a few minutes: engine figures, small games
    python benchmarks/bench_2048_ai.py --games 0 --simple-games 0 --depth-games 6 --terms-games 6 \
        --out benchmarks/results/bench_2048_ai_lesson.json   # the lesson's depth and heuristic-term runs
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

import numpy as np

from tilelab.game2048 import CornerPlayer, Expectimax, GreedyPlayer, MonteCarloPlayer, RandomPlayer, play, play_game
from tilelab.game2048.fast import bitboard as bb
from tilelab.game2048.expectimax import DEFAULT_WEIGHTS

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "benchmarks" / "results" / "bench_2048_ai.json"
MILESTONES = (2048, 4096, 8192, 16384, 32768)
SEED_BASE = 1000  # games use seeds SEED_BASE, SEED_BASE + 1, ...
TERMS = ("empty", "merges", "monotonicity", "smoothness", "sum")
# each heuristic term alone, then all of them, then all but one: what each term buys
TERM_SETS = tuple((t,) for t in TERMS) + (TERMS,) + tuple(tuple(x for x in TERMS if x != t) for t in TERMS)


# ---------------------------------------------------------------------------------- engine speed
def sample_boards(n: int, seed: int = 0) -> list[int]:
    """Bitboards met in seeded random games (realistic positions, not uniform noise)."""
    rng = np.random.default_rng(seed)
    boards: list[int] = []
    while len(boards) < n:
        result = bb.play_random_batch(64, rng=int(rng.integers(1 << 31)), max_moves=int(rng.integers(1, 200)))
        boards += [int(b) for b in result.boards]
    return boards[:n]


def engine_speed(seconds: float = 1.5) -> dict:
    boards = sample_boards(2000)
    readable = [bb.from_bitboard(b) for b in boards]
    directions = ("up", "down", "left", "right")
    moves, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for board in readable[:500]:
            play(board, directions[moves % 4])
            moves += 1
    readable_rate = moves / (time.perf_counter() - start)
    bb.move_bits(boards[0], 0)  # compile
    moves, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for bits in boards:
            bb.move_bits(bits, moves & 3)
            moves += 1
    call_rate = moves / (time.perf_counter() - start)
    bb.random_game_bits(rng=0)  # compile
    moves, start, seed = 0, time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        moves += bb.random_game_bits(rng=seed)[2]
        seed += 1
    # a random game tries all 4 directions per move to find the legal ones: 4 moves computed per move played
    inner_rate = 4 * moves / (time.perf_counter() - start)
    return {"readable_moves_per_s": readable_rate, "bitboard_call_moves_per_s": call_rate,
            "bitboard_inner_moves_per_s": inner_rate}


def batch_speed(games: int = 100_000) -> dict:
    out = {}
    for engine in bb.ENGINES:
        bb.play_random_batch(100, rng=0, engine=engine)  # compile / warm up
        start = time.perf_counter()
        result = bb.play_random_batch(games, rng=1, engine=engine)
        elapsed = time.perf_counter() - start
        out[engine] = {"games": games, "moves": result.total_moves, "seconds": elapsed,
                       "moves_per_s": result.total_moves / elapsed, "median_score": float(np.median(result.scores)),
                       "max_tile": int(result.max_tiles.max())}
    return out


# ---------------------------------------------------------------------------------- games
def make_player(spec: dict):
    kind = spec["kind"]
    if kind == "random":
        return RandomPlayer(rng=spec["seed"])
    if kind == "greedy":
        return GreedyPlayer()
    if kind == "corner":
        return CornerPlayer()
    if kind == "monte-carlo":
        return MonteCarloPlayer(rollouts=spec["rollouts"], rng=spec["seed"])
    if kind == "expectimax":
        return Expectimax(ms_per_move=spec["ms"])
    if kind == "expectimax-nodes":
        return Expectimax(nodes_per_move=spec["nodes"])
    if kind == "expectimax-depth":
        weights = DEFAULT_WEIGHTS.only(*spec["terms"]) if "terms" in spec else DEFAULT_WEIGHTS
        return Expectimax(depth=spec["depth"], weights=weights)
    raise ValueError(f"unknown player kind {kind!r}")


def play_one(spec: dict) -> dict:
    """Play one seeded game for ``spec`` (run in a worker process)."""
    start = time.perf_counter()
    record = play_game(make_player(spec), rng=spec["seed"])
    wall = time.perf_counter() - start
    return {"setting": spec["setting"], "seed": spec["seed"], "score": record.score, "max_tile": record.max_tile,
            "moves": record.moves_played, "ms_per_move": record.ms_per_move, "seconds": wall}


def summarise(games: list[dict]) -> dict:
    if not games:
        return {"games": 0}
    scores = [g["score"] for g in games]
    moves = sum(g["moves"] for g in games)
    think = sum(g["ms_per_move"] * g["moves"] for g in games) / 1e3
    out = {"games": len(games), "median_score": statistics.median(scores), "mean_score": statistics.fmean(scores),
           "moves": moves, "ms_per_move": 1e3 * think / max(moves, 1), "moves_per_s": moves / max(think, 1e-9)}
    for tile in MILESTONES:
        out[f"reach_{tile}"] = sum(g["max_tile"] >= tile for g in games) / len(games)
    return out


def load(path: Path) -> dict:
    if path.exists():
        return json.loads(path.read_text())
    return {}


def save(path: Path, data: dict) -> None:
    """Write the results (with a fresh summary per setting) atomically: a stopped run loses nothing."""
    names = sorted({g["setting"] for g in data.get("games", [])})
    data["summary"] = {name: summarise([g for g in data["games"] if g["setting"] == name]) for name in names}
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1))
    tmp.replace(path)


def run_games(specs: list[dict], data: dict, out: Path, workers: int) -> None:
    done = {(g["setting"], g["seed"]) for g in data.setdefault("games", [])}
    todo = [s for s in specs if (s["setting"], s["seed"]) not in done]
    if not todo:
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(play_one, spec) for spec in todo]
        for future in as_completed(futures):
            game = future.result()
            data["games"].append(game)
            data["games"].sort(key=lambda g: (g["setting"], g["seed"]))
            save(out, data)
            print(f"  {game['setting']:>16} seed {game['seed']}: score {game['score']:>7} max {game['max_tile']:>5} "
                  f"moves {game['moves']:>5} {game['ms_per_move']:.1f} ms/move", flush=True)


def nodes_name(nodes: int) -> str:
    """The setting name of a node budget: ``expectimax-150k-nodes``."""
    return f"expectimax-{nodes // 1000}k-nodes" if nodes % 1000 == 0 else f"expectimax-{nodes}-nodes"


def settings(args: argparse.Namespace) -> dict[str, list[dict]]:
    seeds = lambda n: range(SEED_BASE, SEED_BASE + n)  # noqa: E731
    simple = {
        "random": [{"kind": "random", "seed": s} for s in seeds(args.simple_games)],
        "greedy": [{"kind": "greedy", "seed": s} for s in seeds(args.simple_games)],
        "corner": [{"kind": "corner", "seed": s} for s in seeds(args.simple_games)],
        nodes_name(args.nodes): [{"kind": "expectimax-nodes", "nodes": args.nodes, "seed": s} for s in seeds(args.games)],
        f"monte-carlo-{args.rollouts}": [{"kind": "monte-carlo", "rollouts": args.rollouts, "seed": s}
                                         for s in seeds(args.mc_games)],
        nodes_name(args.research_nodes): [{"kind": "expectimax-nodes", "nodes": args.research_nodes, "seed": s}
                                          for s in seeds(args.research_games)],
    }
    if args.ms and args.ms_games:
        simple[f"expectimax-{args.ms:g}ms"] = [{"kind": "expectimax", "ms": args.ms, "seed": s}
                                               for s in seeds(args.ms_games)]
    for depth in range(1, args.max_depth + 1):
        simple[f"depth-{depth}"] = [{"kind": "expectimax-depth", "depth": depth, "seed": s}
                                    for s in seeds(args.depth_games)]
    for terms in TERM_SETS:
        simple["terms:" + "+".join(terms)] = [{"kind": "expectimax-depth", "depth": args.terms_depth,
                                               "terms": list(terms), "seed": s} for s in seeds(args.terms_games)]
    for name, specs in simple.items():
        for spec in specs:
            spec["setting"] = name
    return simple


def print_table(data: dict, names: list[str]) -> None:
    print(f"{'player':>18} {'games':>5} {'median':>8} {'2048':>6} {'4096':>6} {'8192':>6} {'16384':>6} "
          f"{'ms/move':>8} {'moves/s':>8}")
    for name in names:
        s = summarise([g for g in data.get("games", []) if g["setting"] == name])
        if not s["games"]:
            continue
        print(f"{name:>18} {s['games']:>5} {s['median_score']:>8.0f} {100 * s['reach_2048']:>5.0f}% "
              f"{100 * s['reach_4096']:>5.0f}% {100 * s['reach_8192']:>5.0f}% {100 * s['reach_16384']:>5.0f}% "
              f"{s['ms_per_move']:>8.2f} {s['moves_per_s']:>8.0f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="expectimax games at the classroom node budget")
    parser.add_argument("--nodes", type=int, default=150_000, help="classroom budget, nodes per move")
    parser.add_argument("--research-games", type=int, default=12)
    parser.add_argument("--research-nodes", type=int, default=450_000)
    parser.add_argument("--ms", type=float, default=0, help="also play at a true wall-clock budget (ms per move)")
    parser.add_argument("--ms-games", type=int, default=0, help="games at the wall-clock budget --ms")
    parser.add_argument("--simple-games", type=int, default=100, help="games for random, greedy, corner")
    parser.add_argument("--mc-games", type=int, default=10)
    parser.add_argument("--rollouts", type=int, default=20)
    parser.add_argument("--depth-games", type=int, default=0, help="games per fixed depth 1..--max-depth")
    parser.add_argument("--max-depth", type=int, default=3)
    parser.add_argument("--terms-games", type=int, default=0, help="games per heuristic-term setting")
    parser.add_argument("--terms-depth", type=int, default=2)
    parser.add_argument("--workers", type=int, default=1, help="games played in parallel processes")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--resume", action="store_true", help="keep finished games from --out and go on")
    parser.add_argument("--skip-engine", action="store_true", help="do not re-measure the engine speed")
    parser.add_argument("--quick", action="store_true", help="tiny sample (about a minute)")
    args = parser.parse_args(argv)
    if args.quick:
        # tiny budgets: a full game at the classroom budget takes about a minute, so quick mode plays
        # 5,000-node games and two 2 ms wall-clock games
        args.games, args.research_games, args.simple_games, args.mc_games = 2, 0, 10, 1
        args.rollouts, args.nodes, args.ms, args.ms_games = 3, 5_000, 2, 2
        if args.out == DEFAULT_OUT:
            args.out = Path(os.environ.get("TMPDIR", "/tmp")) / "bench_2048_ai_quick.json"

    data = load(args.out) if args.resume else {}
    data["machine"] = {"python": sys.version.split()[0], "platform": platform.platform(), "cpus": os.cpu_count(),
                       "note": "2-core machine shared with other jobs: times are upper bounds"}
    measured = "engine" in data and all(e in data.get("batch", {}) for e in bb.ENGINES)
    if not (args.skip_engine and measured):
        print("== fast engine vs readable engine (moves per second)")
        data["engine"] = engine_speed()
        data["batch"] = batch_speed()
        save(args.out, data)
    e, b = data["engine"], data["batch"]
    print(f"  readable play():              {e['readable_moves_per_s']:>12,.0f} moves/s")
    print(f"  bitboard move_bits() (Python):{e['bitboard_call_moves_per_s']:>12,.0f} moves/s "
          f"= {e['bitboard_call_moves_per_s'] / e['readable_moves_per_s']:.1f}x")
    print(f"  bitboard inside numba:        {e['bitboard_inner_moves_per_s']:>12,.0f} moves/s "
          f"= {e['bitboard_inner_moves_per_s'] / e['readable_moves_per_s']:.0f}x  (aim >= 50x)")
    for engine, r in b.items():
        print(f"== batch random play ({engine}): {r['games']:,} games, {r['moves']:,} moves in {r['seconds']:.1f} s = "
              f"{r['moves_per_s']:,.0f} moves/s (aim >= 1,000,000)")

    plan = settings(args)
    for name, specs in plan.items():
        if specs:
            print(f"== {name}: {len(specs)} seeded games (seeds {SEED_BASE}..{SEED_BASE + len(specs) - 1})", flush=True)
            run_games(specs, data, args.out, args.workers)
    save(args.out, data)
    print("== summary (aims at the classroom budget: 2048 in 100%, 4096 >= 80%, 8192 >= 30%)")
    print_table(data, list(plan))
    print(f"results saved to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

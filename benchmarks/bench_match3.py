"""Benchmark: resolve one valid swap (with its cascades) and list all valid moves.

Seeded 8x8 and 9x9 boards with 6 kinds: the readable reference and the fast path side by side,
then the same with special candies on, and the peer engine tile-match-gym's ``Board.move``
(8x8, 6 colours, its specials on) measured in this same run. The peer lives in its own venv,
``benchmarks/.peers/venv`` (created and ``pip install tile-match-gym`` on first run; gitignored;
never a tilelab dependency), and runs in a subprocess (``peer_tile_match_gym.py``), which also
counts swaps where tile-match-gym leaves a match the player made uncleared (it clears only the
lowest level of matches per step). Results go to ``benchmarks/results/bench_match3.json``.

    .venv/bin/python benchmarks/bench_match3.py [--boards 200] [--no-peer]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

import numpy as np

from tilelab.jit import HAVE_NUMBA
from tilelab.match3 import legal_moves, new_board, swap, swap_fast, legal_moves_fast
from tilelab.match3.fast.plain import list_moves, swap_array
from tilelab.match3.special_reshuffle import reshuffle_specials
from tilelab.match3.special_rules import swap_specials, legal_moves_specials
from tilelab.match3.fast.specials import (combo_code, list_special_moves, swap_specials_array, swap_specials_fast,
                                          legal_moves_specials_fast)

HERE = Path(__file__).resolve().parent
PEER_VENV = HERE / ".peers" / "venv"
RESULTS = HERE / "results" / "bench_match3.json"


def median_us(calls: list[Callable[[], object]], repeat: int) -> float:
    """Median over every call (each timed ``repeat`` times, best kept) in microseconds."""
    times = []
    for call in calls:
        best = min(_time(call) for _ in range(repeat))
        times.append(best)
    return statistics.median(times) * 1e6


def _time(call: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    call()
    return time.perf_counter() - t0


def bench(side: int, kinds: int, n_boards: int, seed: int) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    boards = [new_board(side, side, kinds, rng=rng) for _ in range(n_boards)]
    moves = [legal_moves(b)[int(rng.integers(len(legal_moves(b))))] for b in boards]
    grids = [b.to_array() for b in boards]
    out = np.empty((2 * side * side, 4), np.int64)

    def ref_swap(b, m, i):
        return lambda: swap(b, *m, rng=i)

    def api_swap(b, m, i):
        return lambda: swap_fast(b, *m, rng=i)

    def kernel_swap(g, m, i):
        generator = np.random.default_rng(i)  # made outside the timed call
        return lambda: swap_array(g.copy(), m[0], m[1], kinds, rng=generator)

    # the same seed per board: the fast and reference paths resolve the very same cascade
    for i, (b, m) in enumerate(zip(boards, moves)):
        fast = swap_fast(b, *m, rng=i)
        slow = swap(b, *m, rng=i)
        assert (fast.legal, fast.board, fast.score, fast.cascades) == (slow.legal, slow.board, slow.score, slow.cascades)
        assert legal_moves(b) == legal_moves_fast(b)
    return {
        "swap_ref": median_us([ref_swap(b, m, i) for i, (b, m) in enumerate(zip(boards, moves))], 3),
        "swap_api": median_us([api_swap(b, m, i) for i, (b, m) in enumerate(zip(boards, moves))], 5),
        "swap_kernel": median_us([kernel_swap(g, m, i) for i, (g, m) in enumerate(zip(grids, moves))], 5),
        "moves_ref": median_us([(lambda b=b: legal_moves(b)) for b in boards], 3),
        "moves_api": median_us([(lambda b=b: legal_moves(b)) for b in boards], 5),
        "moves_kernel": median_us([(lambda g=g: list_moves(g, out)) for g in grids], 5),
        "cascades": float(np.mean([swap_fast(b, *m, rng=i).cascades for i, (b, m) in enumerate(zip(boards, moves))])),
    }


def specials_positions(n: int, seed: int) -> list:
    """``n`` (board, move, seed) positions from seeded games played with specials on."""
    from tilelab.match3 import new_special_board

    rng = np.random.default_rng(seed)
    board = new_special_board(8, 8, 6, rng=seed)
    out = []
    while len(out) < n:
        moves = legal_moves_specials_fast(board)
        if not moves:
            board = reshuffle_specials(board, rng=rng)
            continue
        m = moves[int(rng.integers(len(moves)))]
        out.append((board, m, len(out)))
        board = swap_specials_fast(board, *m, rng=len(out))[1]
    return out


def bench_specials(n: int, seed: int) -> dict[str, float]:
    positions = specials_positions(n, seed)
    for b, m, i in positions:  # same seed: both paths resolve the very same cascade
        slow = swap_specials(b, *m, rng=i)
        assert swap_specials_fast(b, *m, rng=i) == (slow.legal, slow.board, slow.score, slow.cascades)
    arrays = [(b.to_arrays(), m, i) for b, m, i in positions]
    out = np.empty((128, 4), np.int64)

    def kernel(g, s, m, i):
        generator = np.random.default_rng(i)  # made outside the timed call, as for the plain kernel
        code = combo_code(s, m[0][0], m[0][1], m[1][0], m[1][1])
        return lambda: swap_specials_array(g.copy(), s.copy(), m[0], m[1], 6, rng=generator, combo=code)

    return {
        "swap_kernel": median_us([kernel(g, s, m, i) for (g, s), m, i in arrays], 5),
        "moves_kernel": median_us([(lambda g=g, s=s: list_special_moves(g, s, out)) for (g, s), _, _ in arrays], 5),
        "swap_ref": median_us([(lambda b=b, m=m, i=i: swap_specials(b, *m, rng=i)) for b, m, i in positions], 3),
        "swap_fast": median_us([(lambda b=b, m=m, i=i: swap_specials_fast(b, *m, rng=i)) for b, m, i in positions], 5),
        "moves_ref": median_us([(lambda b=b: legal_moves_specials(b)) for b, _, _ in positions], 3),
        "moves_fast": median_us([(lambda b=b: legal_moves_specials_fast(b)) for b, _, _ in positions], 5),
        "specials_on_board": float(np.mean([sum(s != 0 for row in b.specials for s in row) for b, _, _ in positions])),
    }


def peer(n: int, seed: int, games: int) -> dict | None:
    """tile-match-gym in its own venv and a subprocess; None when it cannot be installed."""
    python = PEER_VENV / "bin" / "python"
    try:
        if not python.exists():
            subprocess.run([sys.executable, "-m", "venv", str(PEER_VENV)], check=True)
            subprocess.run([str(python), "-m", "pip", "install", "-q", "tile-match-gym"], check=True)
        out = subprocess.run([str(python), str(HERE / "peer_tile_match_gym.py"), str(n), str(seed), str(games)],
                             check=True, capture_output=True, text=True).stdout
    except (subprocess.CalledProcessError, OSError) as error:
        print(f"  tile-match-gym not measured: {error}")
        return None
    return json.loads(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--no-peer", action="store_true", help="skip tile-match-gym")
    parser.add_argument("--peer-games", type=int, default=10, help="200-swap games for the lowest-level count")
    args = parser.parse_args()
    results: dict = {"numba": HAVE_NUMBA, "boards": args.boards}
    # compile (or load from the numba cache) before timing
    warm = new_board(8, 8, 6, rng=0)
    swap_fast(warm, *legal_moves(warm)[0], rng=0)
    print(f"numba: {'on' if HAVE_NUMBA else 'off (pure Python kernels)'}; {args.boards} seeded boards per size;"
          " median per call, best of a few repeats")
    for side in (8, 9):
        r = bench(side, 6, args.boards, args.seed)
        print(f"\n{side}x{side}, 6 kinds (mean {r['cascades']:.2f} cascade steps per swap)")
        print(f"  {'':28}{'reference':>12}{'fast API':>12}{'kernel':>12}{'ref/fast':>10}")
        print(f"  {'swap + cascades':28}{r['swap_ref']:>10.1f}us{r['swap_api']:>10.1f}us"
              f"{r['swap_kernel']:>10.1f}us{r['swap_ref'] / r['swap_api']:>9.1f}x")
        print(f"  {'list all valid moves':28}{r['moves_ref']:>10.1f}us{r['moves_api']:>10.1f}us"
              f"{r['moves_kernel']:>10.1f}us{r['moves_ref'] / r['moves_api']:>9.1f}x")
        results[f"plain_{side}x{side}"] = r
    warm_board, warm_move, _ = specials_positions(1, 0)[0]
    swap_specials_fast(warm_board, *warm_move, rng=0)  # compile the specials kernels
    s = bench_specials(args.boards, args.seed)
    results["specials_8x8"] = s
    print(f"\n8x8, 6 kinds, specials ON (positions from seeded games; {s['specials_on_board']:.1f} specials on the board)")
    print(f"  {'':28}{'reference':>12}{'fast API':>12}{'kernel':>12}{'ref/fast':>10}")
    print(f"  {'swap + cascades + blasts':28}{s['swap_ref']:>10.1f}us{s['swap_fast']:>10.1f}us"
          f"{s['swap_kernel']:>10.1f}us{s['swap_ref'] / s['swap_fast']:>9.1f}x")
    print(f"  {'list all valid moves':28}{s['moves_ref']:>10.1f}us{s['moves_fast']:>10.1f}us"
          f"{s['moves_kernel']:>10.1f}us{s['moves_ref'] / s['moves_fast']:>9.1f}x")
    if not args.no_peer:
        p = peer(args.boards, args.seed, args.peer_games)
        if p is not None:
            results["tile_match_gym"] = p
            missed = sum(g["missed"] for g in p["lowest_level"])
            swaps = sum(g["swaps"] for g in p["lowest_level"])
            print(f"\ntile-match-gym {p['version']} Board.move, 8x8, 6 colours, its specials on (same run, own venv)")
            print(f"  median {p['move_us_median']:.1f}us per swap -> our fast API with specials is "
                  f"{p['move_us_median'] / s['swap_fast']:.1f}x quicker (kernel {p['move_us_median'] / s['swap_kernel']:.0f}x), "
                  f"our reference {p['move_us_median'] / s['swap_ref']:.2f}x")
            results["ratios"] = {"gym_over_fast_api": p["move_us_median"] / s["swap_fast"],
                                 "gym_over_kernel": p["move_us_median"] / s["swap_kernel"],
                                 "gym_over_reference": p["move_us_median"] / s["swap_ref"],
                                 "reference_over_fast_api": s["swap_ref"] / s["swap_fast"]}
            print(f"  lowest-level-only bug: {missed} of {swaps} swaps left a match the player made uncleared")
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=1) + "\n")
    print(f"\nsaved {RESULTS.relative_to(HERE.parent)}")


if __name__ == "__main__":
    main()

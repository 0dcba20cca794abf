"""Benchmark: resolve one valid swap (with its cascades) and list all valid moves.

Seeded 8x8 boards with 6 kinds (and 9x9 for comparison with a public Python engine that takes
about 53 ms per swap and 351 ms to list moves on 9x9). Prints median times of the readable
reference and the fast path side by side, and their ratio, all measured in this run.

    .venv/bin/python benchmarks/bench_match3.py [--boards 200]
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Callable

import numpy as np

from tilelab._jit import HAVE_NUMBA
from tilelab.match3 import new_board, swap, swap_fast, valid_moves, valid_moves_reference
from tilelab.match3.fast import list_moves, swap_array

PUBLIC_ENGINE_MS = {"swap": 53.0, "moves": 351.0}  # quoted in issue 5, 9x9


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
    boards = [new_board(side, side, kinds, rng) for _ in range(n_boards)]
    moves = [valid_moves(b)[int(rng.integers(len(valid_moves(b))))] for b in boards]
    grids = [b.to_array() for b in boards]
    out = np.empty((2 * side * side, 4), np.int64)

    def ref_swap(b, m, i):
        return lambda: swap(b, *m, rng=i)

    def api_swap(b, m, i):
        return lambda: swap_fast(b, *m, rng=i)

    def kernel_swap(g, m, i):
        generator = np.random.default_rng(i)  # made outside the timed call
        return lambda: swap_array(g.copy(), m[0], m[1], kinds, generator)

    # the same seed per board: the fast and reference paths resolve the very same cascade
    for i, (b, m) in enumerate(zip(boards, moves)):
        fast = swap_fast(b, *m, rng=i)
        slow = swap(b, *m, rng=i)
        assert fast == (slow.valid, slow.board, slow.score, slow.cascades)
        assert valid_moves(b) == valid_moves_reference(b)
    return {
        "swap_ref": median_us([ref_swap(b, m, i) for i, (b, m) in enumerate(zip(boards, moves))], 3),
        "swap_api": median_us([api_swap(b, m, i) for i, (b, m) in enumerate(zip(boards, moves))], 5),
        "swap_kernel": median_us([kernel_swap(g, m, i) for i, (g, m) in enumerate(zip(grids, moves))], 5),
        "moves_ref": median_us([(lambda b=b: valid_moves_reference(b)) for b in boards], 3),
        "moves_api": median_us([(lambda b=b: valid_moves(b)) for b in boards], 5),
        "moves_kernel": median_us([(lambda g=g: list_moves(g, out)) for g in grids], 5),
        "cascades": float(np.mean([swap_fast(b, *m, rng=i)[3] for i, (b, m) in enumerate(zip(boards, moves))])),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    # compile (or load from the numba cache) before timing
    warm = new_board(8, 8, 6, 0)
    swap_fast(warm, *valid_moves(warm)[0], rng=0)
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
        if side == 9:
            print(f"  public Python engine (issue 5): swap {PUBLIC_ENGINE_MS['swap']:.0f} ms, moves "
                  f"{PUBLIC_ENGINE_MS['moves']:.0f} ms -> fast API is "
                  f"{PUBLIC_ENGINE_MS['swap'] * 1e3 / r['swap_api']:.0f}x and "
                  f"{PUBLIC_ENGINE_MS['moves'] * 1e3 / r['moves_api']:.0f}x quicker (quoted, not re-measured)")


if __name__ == "__main__":
    main()

"""Benchmark: what checking a special board's colours a second time cost the special-candy engine (issue 36).

``find_groups`` asks a :class:`SpecialBoard` for its colours at every cascade step. They used to come back as
``Board(grid, kinds)``, which checks every cell again (2.4 times per swap, 3.5 per ``Game.play``), while
``SpecialBoard.with_cells`` checked nothing. Now ``with_cells`` checks the cells it changes, so every special
board is valid, and the colours go through ``Board.trusted``. This script puts the two side by side in one
run: the *before* way is the old ``colours``/``with_cells``/``swapped`` put back on the class for its turn, the
*after* way the shipped one; they take turns, round by round, on the same seeded positions, and each keeps its
best time. It prints full-board checks per call and the time ratio after/before.

    .venv/bin/python benchmarks/bench_match3_colours.py [--swaps 2000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import time
from contextlib import contextmanager
from typing import Callable, Iterator

import numpy as np

import tilelab.match3.board as board_module
from tilelab.match3.board import EMPTY, Board
from tilelab.match3.game import Game, SpecialRules
from tilelab.match3.special_board import BOMB, PRIMED, SpecialBoard
from tilelab.match3.special_rules import find_groups, is_dead_specials


def colours_checked(self: SpecialBoard) -> Board:
    """The old ``SpecialBoard.colours``: every cell checked again by ``Board(...)``."""
    grid = tuple(tuple(k if s not in (BOMB, PRIMED) else EMPTY for k, s in zip(kr, sr))
                 for kr, sr in zip(self.grid, self.specials))
    return Board(grid, self.kinds)


def with_cells_unchecked(self: SpecialBoard, changes: dict) -> SpecialBoard:
    """The old ``SpecialBoard.with_cells``: nothing checked."""
    grid = [list(row) for row in self.grid]
    spec = [list(row) for row in self.specials]
    for (r, c), (k, s) in changes.items():
        grid[r][c], spec[r][c] = k, s
    return SpecialBoard.trusted(tuple(map(tuple, grid)), tuple(map(tuple, spec)), self.kinds)


def swapped_old(self: SpecialBoard, a, b) -> SpecialBoard:
    return self.with_cells({a: (self[b], self.special_code(b)), b: (self[a], self.special_code(a))})


@contextmanager
def before() -> Iterator[None]:
    """The engine as it was: the old three methods on the class, for the length of the block."""
    shipped = {name: SpecialBoard.__dict__[name] for name in ("colours", "with_cells", "swapped")}
    SpecialBoard.colours, SpecialBoard.with_cells, SpecialBoard.swapped = (  # type: ignore[method-assign]
        colours_checked, with_cells_unchecked, swapped_old)
    try:
        yield
    finally:
        for name, method in shipped.items():
            setattr(SpecialBoard, name, method)


@contextmanager
def after() -> Iterator[None]:
    yield


@contextmanager
def counting(counts: list[int]) -> Iterator[None]:
    """Count the full-board checks (``check_grid``) run inside the block."""
    real = board_module.check_grid
    board_module.check_grid = lambda *args: counts.append(1) or real(*args)  # type: ignore[assignment]
    try:
        yield
    finally:
        board_module.check_grid = real


def positions(n: int, seed: int) -> list[tuple[SpecialBoard, tuple]]:
    """``n`` positions of one seeded 8x8, 6-kind special game, each with the random legal swap played there."""
    game = Game(8, 8, 6, rules="specials", rng=seed)
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        moves = game.legal_moves()
        move = moves[int(rng.integers(len(moves)))]
        out.append((game.board, move))
        game.play(move)
    return out


def workloads(pairs: list[tuple[SpecialBoard, tuple]]) -> dict[str, tuple[int, Callable[[], object]]]:
    rules = SpecialRules()
    plays = pairs[: max(1, len(pairs) // 10)]

    def swap() -> None:
        for board, move in pairs:
            rules.swap(board, *move, rng=0)

    def play() -> None:
        game = Game(8, 8, 6, rules="specials", rng=0)
        for board, move in plays:
            game.board = board
            game.play(move)

    def groups() -> None:
        for board, _ in pairs:
            find_groups(board)

    def dead() -> None:
        for board, _ in plays:
            is_dead_specials(board)

    return {"SpecialRules.swap": (len(pairs), swap), "Game.play": (len(plays), play),
            "find_groups": (len(pairs), groups), "is_dead_specials": (len(plays), dead)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--swaps", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    work = workloads(positions(args.swaps, args.seed))
    ways = {"before": before, "after": after}
    checks = {}
    for way, block in ways.items():
        for name, (n, run) in work.items():
            counts: list[int] = []
            with block(), counting(counts):
                run()
            checks[way, name] = len(counts) / n
    best = {(way, name): float("inf") for way in ways for name in work}
    for r in range(args.rounds):
        for name, (n, run) in work.items():
            for way in (("before", "after") if r % 2 else ("after", "before")):
                with ways[way]():
                    t0 = time.perf_counter()
                    run()
                    best[way, name] = min(best[way, name], (time.perf_counter() - t0) / n)
    print(f"8x8, 6 kinds, specials on: {args.swaps} seeded positions, best of {args.rounds} rounds taken in turns")
    print(f"{'per call':20s} {'checks before':>13s} {'after':>6s} {'before µs':>10s} {'after µs':>9s} {'after/before':>13s}")
    for name in work:
        b, a = best["before", name], best["after", name]
        print(f"{name:20s} {checks['before', name]:13.2f} {checks['after', name]:6.2f} "
              f"{b * 1e6:10.1f} {a * 1e6:9.1f} {a / b:13.3f}")


if __name__ == "__main__":
    main()

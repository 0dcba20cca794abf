"""Benchmark (counts, not times): the work behind one 2048 key press and one match-3 swap with special candies.

cProfile counts every call a widget makes, from the browser's event to the drawing: per key press (2048, the
arrow keys in turn on a seeded game) and per swap (match-3 with specials on, two clicks on the first legal move
of each board). The rows show the calls the issue named as repeated work (parsing a move, re-checking what the
engine made, recomputing ``over``, ``combo_of``/``refill_source`` twice, the neighbour check in the widget and
the engine) and the totals. With ``--before PATH`` (an older checkout of tilelab, e.g. a ``git worktree``) the
same walk runs there in a subprocess and both columns print side by side, with their ratio.

    .venv/bin/python benchmarks/bench_walks.py [--before /path/to/older/tilelab] [--presses 40] [--swaps 20]

Counts depend on the seed and the boards, not on the machine: run it on a busy machine too.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import subprocess
import sys
from collections import Counter
from pathlib import Path

KEYS = ("ArrowLeft", "ArrowDown", "ArrowRight", "ArrowUp")
#: (row label, how a profiled function is recognised: its name, and a piece of its file's path or "" for any)
WATCH_2048 = [
    ("Direction.parse", "parse", "game2048/board.py"),
    ("Direction(text): a word looked up", "__call__", "/enum.py"),
    ("Direction._missing_ (letters, arrows)", "_missing_", "game2048/board.py"),
    ("as_board", "as_board", "game2048/board.py"),
    ("isinstance (all callers)", "<built-in method builtins.isinstance>", ""),
    ("Game.over (property)", "over", "game2048/game.py"),
    ("is_over (board scan)", "is_over", "game2048/rules.py"),
    ("check_p_four", "check_p_four", "game2048/board.py"),
    ("spawn_outcomes", "spawn_outcomes", "game2048/chance.py"),
]
WATCH_MATCH3 = [
    ("neighbours", "neighbours", "match3/board.py"),
    ("combo_of", "combo_of", "match3/special_rules.py"),
    ("refill_source", "refill_source", "match3/cascade.py"),
    ("check_special_swap", "check_special_swap", "match3/special_board.py"),
    ("is_valid_special_swap", "is_valid_special_swap", "match3/special_rules.py"),
    ("legal_with (the legality rule, given the combo)", "legal_with", "match3/special_rules.py"),
    ("isinstance (all callers)", "<built-in method builtins.isinstance>", ""),
]


def _counts(profile: cProfile.Profile) -> Counter:
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    counts: Counter = Counter()
    for (filename, _, name), (_, calls, *_rest) in stats.items():
        path = filename.replace(os.sep, "/")
        counts[(path, name)] += calls
        counts[("TOTAL", "")] += calls
        if "/tilelab/" in path and "/widgets/" not in path:
            counts[("ENGINE", "")] += calls
    return counts


def _rows(counts: Counter, watch: list[tuple[str, str, str]], per: int) -> dict[str, float]:
    rows = {}
    for label, name, where in watch:
        rows[label] = sum(n for (path, fn), n in counts.items() if fn == name and where in path) / per
    rows["calls into the engines (tilelab, widgets left out)"] = counts[("ENGINE", "")] / per
    rows["all calls (drawing on a fake canvas included)"] = counts[("TOTAL", "")] / per
    return rows


def walk_2048(presses: int) -> dict[str, float]:
    from tilelab.widgets.game2048 import Game2048Widget
    from tilelab.widgets.testing import FakeMultiCanvas, press_key

    widget = Game2048Widget(rng=3, canvas=FakeMultiCanvas(3, 400, 400), raise_errors=True, animate=False,
                            new_game=True, key="bench-walks")
    for key in KEYS:  # warm: first calls import and cache
        press_key(widget, key)
    profile = cProfile.Profile()
    done = 0
    while done < presses:
        for key in KEYS:
            profile.enable()
            press_key(widget, key)
            profile.disable()
            done += 1
            if widget.game.over:
                widget.new_game()
    return _rows(_counts(profile), WATCH_2048, presses)


def walk_match3(swaps: int) -> dict[str, float]:
    from tilelab.widgets.match3 import Match3Widget
    from tilelab.widgets.testing import FakeMultiCanvas, click

    px = 50
    widget = Match3Widget(7, 7, 5, rng=2, cell_px=px, frame_ms=0, canvas=FakeMultiCanvas(3, 7 * px, 7 * px),
                          raise_errors=True, specials=True, new_game=True, key="bench-walks")

    def clicks() -> list[tuple[float, float]]:
        return [(c * px + px / 2, r * px + px / 2) for r, c in widget.game.legal_moves()[0]]

    for x, y in clicks():  # warm
        click(widget, x, y)
    profile = cProfile.Profile()
    for _ in range(swaps):
        where = clicks()  # the move is chosen outside the count: only the two clicks are measured
        profile.enable()
        for x, y in where:
            click(widget, x, y)
        profile.disable()
    return _rows(_counts(profile), WATCH_MATCH3, swaps)


def measure(presses: int, swaps: int) -> dict[str, dict[str, float]]:
    return {"2048 key press": walk_2048(presses), "match-3 swap, specials on": walk_match3(swaps)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, help="an older tilelab checkout to compare with")
    parser.add_argument("--presses", type=int, default=40)
    parser.add_argument("--swaps", type=int, default=20)
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # the subprocess's output
    args = parser.parse_args()
    now = measure(args.presses, args.swaps)
    if args.json:
        print(json.dumps(now))
        return
    before = None
    if args.before is not None:
        env = {**os.environ, "PYTHONPATH": str(args.before.resolve())}
        run = subprocess.run([sys.executable, __file__, "--json", "--presses", str(args.presses), "--swaps",
                              str(args.swaps)], env=env, capture_output=True, text=True, check=True)
        before = json.loads(run.stdout.strip().splitlines()[-1])
    for walk, rows in now.items():
        print(f"\n{walk}: calls per {'key press' if '2048' in walk else 'swap'}")
        head = f"{'':52} {'before':>9} {'now':>9} {'now/before':>10}" if before else f"{'':52} {'now':>9}"
        print(head)
        for label, value in rows.items():
            if before:
                old = before[walk].get(label, float("nan"))
                ratio = f"{value / old:10.2f}" if old else f"{'-':>10}"
                print(f"{label:52} {old:9.1f} {value:9.1f} {ratio}")
            else:
                print(f"{label:52} {value:9.1f}")


if __name__ == "__main__":
    main()

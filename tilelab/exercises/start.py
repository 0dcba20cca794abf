"""Warm-up exercises for ``00_start_here``: how a self-checking exercise feels.

>>> from tilelab.exercises import check
>>> check("largest_tile", lambda rows: max(max(row) for row in rows)).passed
True
>>> r = check("largest_tile", lambda rows: max(rows[0]))
>>> r.passed, r.counterexample is not None
(False, True)
"""

from __future__ import annotations

import os

import numpy as np

from tilelab.exercises import Result, checker, first_counterexample
from tilelab.exercises.allow import BOARD_2048, NUMPY

#: What the warm-up answers may use: a Board built from the rows and read cell by cell, numpy. The
#: board's own queries (``max_tile``, ``empty_cells``, ``tiles``) do the exercises' job, so they are not on it.
ALLOW = (BOARD_2048, NUMPY)


def _random_rows(count: int, seed: int = 2048) -> list[tuple[tuple[int, ...], ...]]:
    """Seeded 4x4 boards as tuples of rows (0 = empty), the smallest first."""
    rng = np.random.default_rng(seed)
    boards = [((0, 0, 0, 0),) * 4, ((2, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 4))]
    for _ in range(count):
        exps = rng.integers(0, 12, size=(4, 4))
        grid = np.where(exps == 0, 0, 2 ** exps.astype(np.int64))
        boards.append(tuple(tuple(int(v) for v in row) for row in grid))
    return boards


def _largest(rows: tuple[tuple[int, ...], ...]) -> int:
    return max(max(row) for row in rows)


def _empty(rows: tuple[tuple[int, ...], ...]) -> int:
    return sum(1 for row in rows for v in row if v == 0)


@checker("largest_tile", allow=ALLOW)
def check_largest_tile(answer) -> Result:
    """``answer(rows) -> int``: the largest tile on a 2048 board given as rows (0 = empty)."""
    return first_counterexample("largest_tile", answer, _largest, _random_rows(500))


@checker("count_empty", allow=ALLOW)
def check_count_empty(answer) -> Result:
    """``answer(rows) -> int``: how many empty cells a 2048 board has (where a new tile may spawn)."""
    return first_counterexample("count_empty", answer, _empty, _random_rows(500))


# ----------------------------------------------------------------------------- the course map

#: The lessons in order, with their game and big idea (titles and times are read from the lessons).
COURSE = (
    ("01a_2048_merge", "2048", "one swipe = slide + merge; a tile merges once; four directions from one"),
    ("01b_2048_chance", "2048", "where new tiles appear: chance as data, expected values"),
    ("02_2048_ai", "2048", "expectimax, what makes a board \"good\""),
    ("03a_sliding_parity", "sliding puzzle", "inversions and parity: why half of all arrangements are unsolvable"),
    ("03b_sliding_shuffles", "sliding puzzle", "fair shuffles: random walks versus uniform deals"),
    ("04a_sliding_search", "sliding puzzle", "BFS, A*, IDA*: searching for the shortest solution"),
    ("04b_sliding_heuristics", "sliding puzzle", "admissible heuristics, pattern databases, the human strategy"),
    ("05a_match3_dispel", "match-3", "finding runs, groups, cascades and why they end"),
    ("05b_match3_dead_boards", "match-3", "dealing without ready matches, dead boards, reshuffles"),
    ("05c_match3_specials", "match-3", "special candies: striped, wrapped, colour bombs"),
    ("05d_match3_bugs", "match-3", "bugs in published match-3 code: CheckDispel, RemoveCandys, lowest-first clearing"),
    ("06_2048_learning", "2048", "a player that learns from its own games (TD learning, n-tuple networks)"),
)


def lesson_header(path: "os.PathLike[str] | str") -> tuple[str, str]:
    """A lesson's title and stated time (``"about N minutes"``), read from its first cell; ``"?"`` if missing."""
    import json
    import re

    try:
        with open(path, encoding="utf-8") as handle:
            first = "".join(json.load(handle)["cells"][0]["source"])
    except (OSError, ValueError, KeyError, IndexError):
        return "?", "?"
    title = next((line.lstrip("# ").strip() for line in first.splitlines() if line.startswith("#")), "?")
    title = re.sub(r"^Lesson\s+\S+\s*[·—:-]\s*", "", title)
    time = re.search(r"\*\*Time:?\*\*:?\s*(about\s+\d+(?:\s*[-–]\s*\d+)?\s*min\w*)", first, re.I)
    return title, time.group(1) if time else "?"


def course_map(folder: "os.PathLike[str] | str | None" = None) -> str:
    """The course map as a Markdown table; each lesson's title and time come from its own first cell.

    Shows the table in a notebook and returns its text. ``folder`` holds the lessons (default: the
    working directory, where Jupyter runs a notebook, else ``notebooks/`` beside the package).
    """
    from pathlib import Path

    here = Path(folder) if folder is not None else Path.cwd()
    if folder is None and not (here / f"{COURSE[0][0]}.ipynb").exists():
        here = Path(__file__).resolve().parents[2] / "notebooks"
    rows = ["| lesson | game | the big idea | time |", "|---|---|---|---|"]
    for stem, game, idea in COURSE:
        title, minutes = lesson_header(here / f"{stem}.ipynb")
        rows.append(f"| [{stem[:3].rstrip('_')} · {title}]({stem}.ipynb) | {game} | {idea} | {minutes} |")
    text = "\n".join(rows)
    try:
        from IPython import get_ipython
        from IPython.display import Markdown, display

        if get_ipython() is not None:
            display(Markdown(text))
    except ImportError:
        pass
    return text

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

from tilelab.exercises import Result, case_seed, checker, first_counterexample
from tilelab.exercises.allow import BOARD_2048, NUMPY

#: What the warm-up answers may use: a Board built from the rows and read cell by cell, numpy. The
#: board's own queries (``max_tile``, ``empty_cells``, ``tiles``) do the exercises' job, so they are not on it.
ALLOW = (BOARD_2048, NUMPY)


#: The board sizes of the random cases: mostly the usual 4x4, and 3x3, 5x5 and 6x6 (the widget's ``size``), so an
#: answer that assumes 16 cells does not pass.
SIZES = (4, 3, 4, 5, 4, 6)


def _random_rows(count: int, seed: int = 2048) -> list[tuple[tuple[int, ...], ...]]:
    """Seeded boards of :data:`SIZES` as tuples of rows (0 = empty), the smallest first (the grader's seed mixed in
    inside :func:`tilelab.exercises.hidden_cases`)."""
    rng = np.random.default_rng(case_seed(seed))
    boards = [((0, 0, 0),) * 3, ((0, 0, 0, 0),) * 4, ((2, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 4))]
    for i in range(count):
        size = SIZES[i % len(SIZES)]
        exps = rng.integers(0, 12, size=(size, size))
        grid = np.where(exps == 0, 0, 2 ** exps.astype(np.int64))
        boards.append(tuple(tuple(int(v) for v in row) for row in grid))
    return sorted(boards, key=len)  # stable: the hand-made boards first within their size


def _largest(rows: tuple[tuple[int, ...], ...]) -> int:
    return max(max(row) for row in rows)


def _empty(rows: tuple[tuple[int, ...], ...]) -> int:
    return sum(1 for row in rows for v in row if v == 0)


def _picture(rows: tuple[tuple[int, ...], ...]) -> str:
    """The rows drawn as the lesson prints a board (``.`` for an empty cell), for a message's picture.

    >>> print(_picture(((2, 0), (0, 16))))
     2  .
     . 16
    """
    width = max(len(str(v)) for row in rows for v in row)
    return "\n".join(" ".join(("." if v == 0 else str(v)).rjust(width) for v in row) for row in rows)


@checker("largest_tile", allow=ALLOW)
def check_largest_tile(answer) -> Result:
    """``answer(rows) -> int``: the largest tile on a 2048 board given as rows (0 = empty)."""
    return first_counterexample("largest_tile", answer, _largest, _random_rows(500), show=_picture)


@checker("count_empty", allow=ALLOW)
def check_count_empty(answer) -> Result:
    """``answer(rows) -> int``: how many empty cells a 2048 board has (where a new tile may spawn).

    >>> print(check_count_empty(lambda rows: 0))
    [NOT YET] count_empty: on the board below you returned 0, expected 9
    . . .
    . . .
    . . .
    >>> check_count_empty(lambda rows: 16 - sum(1 for row in rows for v in row if v)).counterexample
    ((0, 0, 0), (0, 0, 0), (0, 0, 0))
    """
    return first_counterexample("count_empty", answer, _empty, _random_rows(500), show=_picture)


# ----------------------------------------------------------------------------- the course map

#: The lessons in order, with their game and big idea (titles and times are read from the lessons).
COURSE = (
    ("01a_2048_merge", "2048", "one swipe = slide + merge; a tile merges once; four directions from one"),
    ("01b_2048_chance", "2048", "where new tiles appear: chance as data, telling a real difference from luck"),
    ("01c_2048_bugs", "2048", "winning, game over and bugs in published code"),
    ("02a_2048_expectimax", "2048", "expectimax: chance nodes, by hand and as a recursion"),
    ("02b_2048_heuristics", "2048", "what makes a board \"good\", and players compared"),
    ("03a_sliding_parity", "sliding puzzle", "inversions and parity: why half of all arrangements are unsolvable"),
    ("03b_sliding_reachable", "sliding puzzle", "breadth-first search: every reachable board, the parity rule checked on every arrangement"),
    ("03c_sliding_shuffles", "sliding puzzle", "fair shuffles: random walks versus uniform deals"),
    ("04a_sliding_search", "sliding puzzle", "BFS and A*: searching for the shortest solution"),
    ("04b_sliding_idastar", "sliding puzzle", "IDA* with almost no memory, and linear conflict written by you"),
    ("04c_sliding_heuristics", "sliding puzzle", "pattern databases: a stronger heuristic built by breadth-first search"),
    ("04d_sliding_human", "sliding puzzle", "weighted A*, the human strategy, a route finder's bugs and their fix"),
    ("05a_match3_dispel", "match-3", "finding runs, groups, cascades and how long they last"),
    ("05b_match3_dead_boards", "match-3", "dealing without ready matches, dead boards, reshuffles"),
    ("05c_match3_specials", "match-3", "special candies: striped, wrapped, colour bombs"),
    ("05d_match3_bugs", "match-3", "bugs in published match-3 code: CheckDispel, RemoveCandys, lowest-first clearing"),
    ("06a_2048_learning", "2048", "learning to play: afterstates, n-tuple networks and the TD(0) update"),
    ("06b_2048_training", "2048", "a player that learns from its own games: the learner's loop, trained live and measured"),
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


_GAMES = {"2048": "2048", "sliding": "sliding puzzle", "match3": "match-3"}  # the game named in a lesson's file name


def course_map(folder: "os.PathLike[str] | str | None" = None) -> str:
    """The course map as Markdown, read from the lessons themselves, so a new or split lesson shows up by itself.

    One row per lesson file (``NN?_game_*.ipynb``; 00 itself left out): its number and title and stated time
    from its first cell, its game from its file name, and the lessons it **builds on**: those its first cell's
    "**You need:**" sentence names ("lesson 1a", "lessons 5a and 5b"; "lesson 02" means every part of 02) that
    come before it. Under the table, each game's track in the order to take it. Shows the map in a notebook and
    returns its text. ``folder`` holds the lessons (default: the working directory, where Jupyter runs a
    notebook, else ``notebooks/`` beside the package).

    >>> text = course_map()
    >>> "| [01a · " in text and "**2048:** 01a →" in text
    True
    """
    import json
    import re
    from pathlib import Path

    pattern = "[0-9][0-9]*_*.ipynb"
    here = Path(folder) if folder is not None else Path.cwd()
    if folder is None and not any(here.glob(pattern)):
        here = Path(__file__).resolve().parents[2] / "notebooks"
    paths = [p for p in sorted(here.glob(pattern)) if not p.name.startswith("00")]

    def label(stem: str) -> tuple[int, str]:
        """(lesson number, part letter) of "04a_sliding_search": (4, "a")."""
        number, letter = re.fullmatch(r"(\d+)([a-z]?)", stem.split("_")[0]).groups()
        return int(number), letter

    def name(key: tuple[int, str]) -> str:
        return f"{key[0]:02d}{key[1]}"

    def needs(path: Path, own: tuple[int, str], known: list[tuple[int, str]]) -> list[tuple[int, str]]:
        """The earlier lessons the "You need" sentence of the lesson's first cell names."""
        try:
            with open(path, encoding="utf-8") as handle:
                first = "".join(json.load(handle)["cells"][0]["source"])
        except (OSError, ValueError, KeyError, IndexError):
            return []
        said = re.search(r"\*\*You need:?\*\*:?(.*?)(?:\n\s*\n|\*\*|$)", first, re.S | re.I)
        found: list[tuple[int, str]] = []
        for group in re.findall(r"\blessons?\s+(\d+[a-z]?(?:\s*(?:,|and|or|&)\s*\d+[a-z]?)*)", said.group(1) if said else ""):
            for number, letter in re.findall(r"(\d+)([a-z]?)", group):
                wanted = (int(number), letter)
                parts = [k for k in known if k == wanted] or [k for k in known if k[0] == wanted[0] and not letter]
                found += [k for k in parts if k < own and k not in found]
        return sorted(found)

    keys = [label(p.stem) for p in paths]
    rows = ["| lesson | game | builds on | time |", "|---|---|---|---|"]
    tracks: dict[str, list[str]] = {}
    for path, key in zip(paths, keys):
        title, minutes = lesson_header(path)
        game = _GAMES.get(path.stem.split("_")[1], path.stem.split("_")[1])
        before = ", ".join(name(k) for k in needs(path, key, keys)) or "nothing"
        rows.append(f"| [{name(key)} · {title}]({path.name}) | {game} | {before} | {minutes} |")
        tracks.setdefault(game, []).append(name(key))
    text = "\n".join(rows + ["", "Each game's lessons in the order to take them (the games in any order):", ""]
                     + [f"- **{game}:** " + " → ".join(track) for game, track in tracks.items()])
    try:
        from IPython import get_ipython
        from IPython.display import Markdown, display

        if get_ipython() is not None:
            display(Markdown(text))
    except ImportError:
        pass
    return text

"""What a board says and sounds after a move, for students who cannot see the canvas (or like to hear it).

Everything here is computed from the engine's :class:`~tilelab.protocol.Turn` and the board after it; no
rule lives here. :func:`describe_2048`, :func:`describe_sliding` and :func:`describe_match3` give the sentence a
screen reader announces from the board's ``aria-live`` region (what the move did, the score, then the rows);
:func:`sound_kind` names the short tone a move gives when the board's Sound toggle is on, and :data:`SOUNDS`
holds those tones as tiny WAV files made here with numpy (nothing is downloaded).

>>> from tilelab.game2048 import Board, Game
>>> game = Game(board=Board([[2, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]]), rng=1)
>>> turn = game.play("left")
>>> stuck = Game(board=Board([[2, 0], [0, 0]]), rng=0).play("left")
>>> sound_kind(turn), sound_kind(stuck)
('merge', 'refused')
>>> describe_2048(turn, game.board, game.score).split(". ")[0]
'slid left: two 2s merged into 4; a 2 appeared at row 3 column 1'
"""

from __future__ import annotations

import io
import wave
from collections import Counter
from typing import Any, Sequence

import numpy as np

__all__ = ["SOUNDS", "SOUND_KINDS", "candy_name", "describe_2048", "describe_match3", "describe_sliding",
           "plain_text", "rows_text", "sound_kind", "tone"]

#: The three sounds a board can make: a move, a merge or match (points scored), a refused move.
SOUND_KINDS = ("move", "merge", "refused")


def sound_kind(turn: Any) -> str:
    """Which sound a Turn gives: ``"refused"`` (nothing changed), ``"merge"`` (it scored) or ``"move"``.

    A 2048 merge and a match-3 match both score; a slide or a plain swipe scores nothing.
    """
    if not turn:
        return "refused"
    return "merge" if turn.score > 0 else "move"


def tone(notes: Sequence[float], ms: float, *, rate: int = 16000, volume: float = 0.25) -> bytes:
    """A WAV file (16-bit mono) playing ``notes`` (Hz) one after another, ``ms`` in all, each faded in and out.

    >>> data = tone((440,), 50)
    >>> data[:4], len(data) > 44
    (b'RIFF', True)
    """
    if not notes or ms <= 0:
        raise ValueError(f"a tone needs at least one note and a positive length, got notes={notes!r}, ms={ms!r}")
    per_note = max(1, int(rate * ms / 1000 / len(notes)))
    t = np.arange(per_note) / rate
    fade = np.minimum(1.0, np.minimum(np.arange(per_note), np.arange(per_note)[::-1]) / (0.004 * rate))
    wave_form = np.concatenate([np.sin(2 * np.pi * f * t) * fade for f in notes])
    samples = (wave_form * volume * 32767).astype("<i2")
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(samples.tobytes())
    return buffer.getvalue()


#: The tones, made once at import (about 1-3 kB each): a short tick, two notes rising, a low buzz.
SOUNDS: dict[str, bytes] = {
    "move": tone((880,), 40),
    "merge": tone((659.3, 987.8), 110),
    "refused": tone((155.6, 146.8), 120),
}


def plain_text(html_text: str) -> str:
    """A caption's words without its markup (a picture's text alternative).

    >>> plain_text("<b>A*</b> step 3 &middot; 5 boards")
    'A* step 3 · 5 boards'
    """
    import html
    import re

    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", html_text)).split())


def _place(row: int, col: int) -> str:
    return f"row {row + 1} column {col + 1}"


def _count_word(n: int) -> str:
    return {1: "one", 2: "two", 3: "three", 4: "four"}.get(n, str(n))


def rows_text(grid: Sequence[Sequence[Any]], name: Any = str) -> str:
    """The rows of a board read aloud: ``"row 1: 2, blank, 4; row 2: ..."`` (``name`` turns a cell into words)."""
    return "; ".join(f"row {r + 1}: " + ", ".join(name(v) for v in row) for r, row in enumerate(grid))


def _plural(value: Any) -> str:
    return f"{value}s"


def describe_2048(turn: Any, board: Any, score: int, *, best: int | None = None, refused: str = "") -> str:
    """What a 2048 Turn did, the score and the rows, as one announcement.

    ``turn`` is what :meth:`tilelab.game2048.Game.play` returned; ``board`` the board after it; ``refused`` says
    why nothing moved when the reason is not the board (the game waiting at the win).
    """
    direction = getattr(turn.move, "value", turn.move)
    if not turn:
        said = refused or f"cannot slide {direction}: no tile can move that way"
    else:
        merges = Counter(m.value for m in turn.events.moves if m.merged)  # two TileMoves per merge
        merged = [f"two {_plural(v // 2)} merged into {v}" + (f" ({merges[v] // 2} times)" if merges[v] > 2 else "")
                  for v in sorted(merges)]
        parts = [f"slid {direction}"]
        said = parts[0] + (": " + ", ".join(merged) if merged else ": no merge")
        if turn.chance:
            spawn = turn.chance[0][0]
            said += f"; a {spawn.value} appeared at {_place(*spawn.cell)}"
    tail = f"score {score}" + (f" (+{turn.score})" if turn.score else "") + (f", best {best}" if best is not None else "")
    if turn.won:
        tail += ", you reached the target"
    if turn.over:
        tail += ", game over: no move is left"
    return f"{said}. {tail}. {rows_text(board.grid, lambda v: str(v) if v else 'blank')}."


def describe_sliding(turn: Any, board: Any, moves: int | None = None, *, refused: str = "") -> str:
    """What a sliding-puzzle Turn did (``refused``: why nothing moved), the move count and the rows."""
    if not turn or turn.events is None:
        said = refused or "that tile cannot slide: only tiles in the blank's row or column move"
    else:
        slide = turn.events
        tiles = list(slide.tiles)
        names = ", ".join(str(t) for t in tiles)
        said = f"slid {'tile' if len(tiles) == 1 else 'tiles'} {names} {slide.direction}"
        if turn.won:
            said += ": solved"
    tail = f"{moves} moves" if moves is not None else ""
    grid = board.grid
    rows = rows_text(grid, lambda v: str(v) if v else "blank")
    return f"{said}. {tail + '. ' if tail else ''}{rows}."


def candy_name(kind: int) -> str:
    """A candy's name in words (its shape name; each kind has its own), ``"hole"`` for an empty cell."""
    from tilelab.match3.candies import candy_style

    if kind < 0:
        return "hole"
    return str(candy_style(kind).name)


def describe_match3(turn: Any, board: Any, score: int) -> str:
    """What a match-3 Turn did (matched, cascades, or swapped back), the score and the rows."""
    result = turn.events
    if result is None:
        said = "those two candies cannot swap: pick two side by side"
    else:
        a, b = result.a, result.b
        swap = f"swapped {_place(*a)} with {_place(*b)}"
        if not turn:
            said = f"{swap}: no match, swapped back"
        else:
            groups = sum(len(step.groups) for step in result.steps)
            said = (f"{swap}: {groups} {'match' if groups == 1 else 'matches'} cleared"
                    + (f" in {result.cascades} cascades" if result.cascades > 1 else ""))
    tail = f"score {score}" + (f" (+{turn.score})" if turn.score else "")
    if turn.reshuffle is not None:
        tail += ", no move was left: the board was dealt again"
    rows = rows_text(board.grid, candy_name)
    return f"{said}. {tail}. {rows}."

"""Seeded, recorded 2048 games: :func:`play_game` plays one game with any player and returns a
:class:`GameRecord` (score, max tile, moves, each move's thinking time, the directions and spawns),
which saves to JSON and :func:`replay` rebuilds board by board.

A player is any ``board -> Direction`` callable (:data:`Player`); the players themselves live in
:mod:`tilelab.game2048.ai` (:mod:`tilelab.game2048` is the public face of both).

>>> from tilelab.game2048 import legal_moves
>>> record = play_game(lambda board: legal_moves(board)[0], rng=1, max_moves=10)
>>> record.moves_played, record.seed, replay(GameRecord.from_json(record.to_json()))[-1] == record.final_board
(10, 1, True)
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from tilelab.randomness import RngLike
from tilelab.game2048.board import DEFAULT_P_FOUR, Board, Direction
from tilelab.game2048.game import Game
from tilelab.game2048.chance import Spawn

__all__ = ["Player", "GameRecord", "replay", "play_game"]

#: A player: any callable that looks at a board and names its move.
Player = Callable[[Board], Direction]


@dataclass
class GameRecord:
    """One played game: enough to replay it exactly (start, directions, spawns) plus its results."""

    player: str
    seed: int | None
    size: int
    p_four: float
    start: Board
    directions: list[Direction] = field(default_factory=list)
    spawns: list[Spawn] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)  # thinking time of each move
    score: int = 0
    final_board: Board | None = None

    @property
    def moves_played(self) -> int:
        """Number of moves played (the word every Game uses)."""
        return len(self.directions)

    @property
    def max_tile(self) -> int:
        """Largest tile on the final board."""
        return (self.final_board or self.start).max_tile

    @property
    def ms_per_move(self) -> float:
        """Mean thinking time per move in milliseconds."""
        return 1e3 * float(np.mean(self.seconds)) if self.seconds else 0.0

    def reached(self, tile: int) -> bool:
        """True when the game made a tile of at least ``tile``."""
        return self.max_tile >= tile

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": "tilelab.game2048.record", "version": 1, "player": self.player, "seed": self.seed,
            "size": self.size, "p_four": self.p_four, "start": [list(r) for r in self.start.grid],
            "directions": "".join(d.name[0] for d in self.directions),
            "spawns": [[s.cell[0], s.cell[1], s.value] for s in self.spawns],
            "seconds": [round(s, 6) for s in self.seconds], "score": self.score, "max_tile": self.max_tile,
            "moves": self.moves_played,
        }

    def to_json(self) -> str:
        """The record as JSON text (directions as one letter each: U D L R)."""
        return json.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "GameRecord":
        """Rebuild a record from :meth:`to_dict`; every field is checked and the game replayed (ValueError if not)."""
        from tilelab.inputs import short_repr

        if not isinstance(data, dict) or data.get("format") != "tilelab.game2048.record":
            raise ValueError("not a tilelab 2048 game record (missing format 'tilelab.game2048.record')")
        if type(data.get("version")) is not int or data["version"] != 1:
            raise ValueError(f"game record version {short_repr(data.get('version'))} is not supported (expected 1)")
        missing = [k for k in ("player", "seed", "size", "p_four", "start", "directions", "spawns", "seconds", "score")
                   if k not in data]
        if missing:
            raise ValueError(f"the game record is missing the field {missing[0]!r}")
        letters = {"U": Direction.UP, "D": Direction.DOWN, "L": Direction.LEFT, "R": Direction.RIGHT}
        if not isinstance(data["directions"], str):
            raise ValueError(f"the record's 'directions' must be a string of U, D, L, R, not {short_repr(data['directions'])}")
        try:
            directions = [letters[ch] for ch in data["directions"]]
        except KeyError as exc:
            raise ValueError(f"unknown direction letter {exc.args[0]!r} in the record; use U, D, L, R") from None
        if not isinstance(data["player"], str):
            raise ValueError(f"the record's 'player' must be a string, not {short_repr(data['player'])}")
        seed, size, score = data["seed"], data["size"], data["score"]
        if seed is not None and (not _is_count(seed)):
            raise ValueError(f"the record's 'seed' must be null or a whole number >= 0, not {short_repr(seed)}")
        if not _is_count(size):
            raise ValueError(f"the record's 'size' must be a whole number, not {short_repr(size)}")
        if not _is_count(score):
            raise ValueError(f"the record's 'score' must be a whole number >= 0, not {short_repr(score)}")
        spawns, seconds = data["spawns"], data["seconds"]
        if not isinstance(spawns, list) or not all(
            isinstance(x, list) and len(x) == 3 and all(_is_count(v) for v in x) for x in spawns
        ):
            raise ValueError("the record's 'spawns' must be a list of [row, col, value] whole numbers")
        if not isinstance(seconds, list) or not all(
            isinstance(t, (int, float)) and not isinstance(t, bool) and math.isfinite(t) and t >= 0 for t in seconds
        ):
            raise ValueError("the record's 'seconds' must be a list of thinking times >= 0")
        if len(seconds) not in (0, len(directions)):
            raise ValueError(f"the record has {len(directions)} moves but {len(seconds)} thinking times")
        try:
            start = Board(data["start"])
            record = cls(data["player"], seed, size, data["p_four"], start, directions,
                         [Spawn((r, c), v) for r, c, v in spawns], [float(t) for t in seconds], score)
            if start.size != size:
                raise ValueError(f"the record's size is {size} but its start board is {start.size}x{start.size}")
            boards = replay(record)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"the game record does not replay: {exc}") from None
        record.final_board = boards[-1]
        for key, value in (("moves", record.moves_played), ("max_tile", record.max_tile)):
            if key in data and data[key] != value:
                raise ValueError(f"the record says {key}={short_repr(data[key])} but its replay gives {value}")
        return record

    @classmethod
    def from_json(cls, text: str) -> "GameRecord":
        """Read a record back; it is replayed on the way in, so a corrupt record raises ValueError."""
        if not isinstance(text, (str, bytes, bytearray)):
            raise TypeError(f"GameRecord.from_json expects JSON text, got {type(text).__name__}")
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
            raise ValueError(f"not a game record: the text is not valid JSON ({type(exc).__name__})") from None
        try:
            return cls.from_dict(data)
        except RecursionError:
            raise ValueError("not a game record: nested too deeply") from None


def _is_count(value: object) -> bool:
    """A whole number >= 0 read from JSON (bool and float are not counts)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def replay(record: GameRecord) -> list[Board]:
    """Every board of a recorded game, start first, rebuilt from its directions and spawns.

    Raises ValueError if the record does not replay (a move that changes nothing, a spawn on a
    taken cell, or a different final score).
    """
    if len(record.spawns) != len(record.directions):
        raise ValueError(f"{len(record.directions)} moves but {len(record.spawns)} spawns: each move spawns once")
    game = Game(size=record.size, p_four=record.p_four, board=record.start)
    boards = [game.board]
    for i, (direction, spawned) in enumerate(zip(record.directions, record.spawns)):
        if not game.play(direction, spawn=False):
            raise ValueError(f"move {i} ({direction.name}) changes nothing on its board: the record is corrupt")
        game.spawn(spawned)
        boards.append(game.board)
    if game.score != record.score:
        raise ValueError(f"the replay scores {game.score}, the record says {record.score}")
    return boards


def _spawned(chance: tuple[tuple[Any, float], ...]) -> Spawn:
    """The one spawn a changing move's Turn holds (its chance step)."""
    (spawn, _probability), = chance
    if not isinstance(spawn, Spawn):
        raise TypeError(f"a 2048 turn spawns a Spawn, not {type(spawn).__name__}")
    return spawn


def _player_name(player: Any) -> str:
    return str(getattr(player, "name", None) or getattr(player, "__name__", None) or type(player).__name__)


def play_game(player: Player, *, rng: RngLike = None, size: int = 4,
              p_four: float = DEFAULT_P_FOUR, max_moves: int | None = None,
              until_tile: int | None = None) -> GameRecord:
    """Play one game with ``player`` (any ``board -> Direction`` callable); same seed, same spawns.

    Spawns come from ``Game(size, p_four=p_four, rng=rng)`` (``rng``: a seed or a numpy
    Generator), so the same player on the same seed plays the same game. Stops
    when the game is over, after ``max_moves``, or once ``until_tile`` is made. Each move's thinking
    time is recorded (it is the only thing that varies run to run).

    >>> from tilelab.game2048.ai import GreedyPlayer
    >>> record = play_game(GreedyPlayer(), rng=1, max_moves=20)
    >>> record.moves_played, record.score, record.final_board.max_tile, len(record.spawns)
    (20, 132, 32, 20)
    >>> play_game(GreedyPlayer(), rng=1, max_moves=20).directions == record.directions   # same seed, same game
    True
    """
    if max_moves is not None and (isinstance(max_moves, bool) or not isinstance(max_moves, int) or max_moves < 0):
        raise ValueError(f"max_moves must be None or an int >= 0, got {max_moves!r}")
    game = Game(size=size, p_four=p_four, rng=rng)
    record = GameRecord(_player_name(player), game.seed, size, float(p_four), game.board)
    while not game.over and (max_moves is None or record.moves_played < max_moves):
        if until_tile is not None and game.board.max_tile >= until_tile:
            break
        board = game.board
        tick = time.perf_counter()
        direction = player(board)
        record.seconds.append(time.perf_counter() - tick)
        try:
            direction = Direction.parse(direction)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"the player returned {direction!r}, not a direction: {exc}") from None
        turn = game.play(direction)
        if not turn:
            raise ValueError(f"the player chose {direction.name}, which changes nothing on\n{board}")
        record.directions.append(direction)
        record.spawns.append(_spawned(turn.chance))
    record.score = game.score
    record.final_board = game.board
    return record

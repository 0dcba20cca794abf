"""The 2048 session: :class:`Game` with score, win, undo to any depth and exact JSON save/load.

Part of the readable engine (:mod:`tilelab.game2048` is its public face).
"""

from __future__ import annotations

from typing import Any, Mapping, NamedTuple, SupportsInt, cast

import numpy as np

from tilelab.inputs import is_int, short_repr
from tilelab.protocol import (
    SessionBase, Turn, dump_json, generator_from_state, jsonable, rng_state_to_save, saved_fields, saved_rng_state,
)
from tilelab.randomness import RngLike, seeded_generator
from tilelab.game2048.board import (
    BIG_TILE, Board, BoardLike, DEFAULT_P_FOUR, DEFAULT_SIZE, DEFAULT_TARGET, Direction, DirectionLike,
    JSON_FORMAT, JSON_VERSION, MAX_SIZE, MIN_SIZE, START_TILES, as_board, check_p_four, check_size,
)
from tilelab.game2048.rules import MoveResult, is_over, legal_moves, play_parsed
from tilelab.game2048.chance import Spawn, sample_outcome, spawn_outcomes

__all__ = [
    "Game",
]


def _is_int(value: object) -> bool:
    """True for a Python or numpy integer, not a bool (the saved-game checks read plain JSON ints)."""
    return is_int(value)


# --------------------------------------------------------------------------------------------
# Game: a session with score, win, undo and save/load
# --------------------------------------------------------------------------------------------
class _Snapshot(NamedTuple):
    board: Board
    score: int
    won: bool
    moves_played: int
    rng_state: Mapping[str, Any]  # the Generator's bit_generator.state


def _check_target(target: object) -> int:
    if not _is_int(target):
        raise TypeError(f"target must be an int power of two such as 2048, got {type(target).__name__}")
    t = int(cast(SupportsInt, target))  # an Integral (checked above)
    if t < BIG_TILE or t & (t - 1):
        raise ValueError(f"target={target} is not reachable; pick a power of two >= 4, e.g. 2048")
    return t


def _as_spawn(outcome: object) -> Spawn:
    """``outcome`` as a Spawn, from a Spawn or a pair ``((row, col), value)``; TypeError naming it otherwise."""
    try:
        cell, value = cast("tuple[Any, Any]", outcome)  # unpacking checks the shape
        r, c = cell
    except (TypeError, ValueError):
        raise TypeError(f"outcome must be a Spawn((row, col), value), e.g. Spawn((0, 1), 2), not {short_repr(outcome)}") from None
    if not all(_is_int(v) for v in (r, c, value)):
        raise TypeError(f"outcome must be a Spawn((row, col), value) of ints, not {short_repr(outcome)}")
    return Spawn((int(r), int(c)), int(value))


_jsonable = jsonable  # one converter for every game's saved random state (tilelab.protocol)


_generator_from_state = generator_from_state  # one loader for every game's saved random state


_FIELDS = ("format", "version", "size", "target", "p_four", "seed", "board", "score", "won", "moves_played", "rng",
           "history")  #: a save's fields, exactly
_STEP_FIELDS = ("board", "score", "won", "moves_played", "rng")  #: an undo step's fields, exactly


def _saved(data: dict[str, Any], key: str, where: str = "") -> Any:
    if key not in data:
        raise ValueError(f"saved game is missing the field {where}{key!r}")
    return data[key]


def _saved_count(data: dict[str, Any], key: str, where: str = "") -> int:
    """A saved score or move count: an int >= 0 (3.7, -1, True and "3" are refused, not rounded)."""
    value = _saved(data, key, where)
    if not (type(value) is int or _is_int(value)) or value < 0:
        raise ValueError(f"saved game field {where}{key!r} must be a whole number >= 0, not {short_repr(value)}")
    return int(value)


def _saved_bool(data: dict[str, Any], key: str, where: str = "") -> bool:
    value = _saved(data, key, where)
    if not isinstance(value, bool):  # "false" is a non-empty string: bool("false") would be True
        raise ValueError(f"saved game field {where}{key!r} must be true or false, not {short_repr(value)}")
    return value


def _saved_board(data: dict[str, Any], key: str, size: int, where: str = "") -> Board:
    try:
        board = Board(_saved(data, key, where))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"saved game field {where}{key!r} is not a board: {exc}") from None
    if board.size != size:
        raise ValueError(f"saved game field {where}{key!r} is {board.size}x{board.size} but the game's size is {size}")
    return board


def potential(board: Board) -> int:
    """What building every tile on ``board`` out of 2s would score: the sum of ``v * (log2(v) - 1)``.

    A merge of two ``v`` adds ``2v`` to it, exactly what the merge scores; a spawned 2 adds 0 and a
    spawned 4 adds 4. So a game's score is never more than its board's potential, and potential minus
    score never goes down from one position to the next (what a save's loader checks).

    >>> potential(Board([[4, 8], [0, 2]])), potential(Board.empty(2))
    (20, 0)
    """
    return sum(v * (v.bit_length() - 2) for row in board.grid for v in row if v)


def _check_position(snap: _Snapshot, target: int, where: str) -> None:
    """One saved position's fields against each other (ValueError naming them)."""
    board = snap.board
    if snap.score > potential(board):
        raise ValueError(f"saved game field {where}'score' is {short_repr(snap.score)}, more than merging up the tiles "
                         f"of {where}'board' can score ({potential(board)}): score only comes from merges")
    if snap.moves_played and not board.tile_sum:
        raise ValueError(f"saved game field {where}'board' is empty but {where}'moves_played' is {snap.moves_played}: "
                         "a move needs tiles, and tiles never leave the board (they merge)")
    if target > BIG_TILE and board.max_tile >= target and not snap.won:
        raise ValueError(f"saved game field {where}'won' is false but {where}'board' holds a {board.max_tile} tile, "
                         f"at least the target {target}: a game is won once a merge makes the target")


class Game(SessionBase):
    """A game of 2048: board, score, win, game over, undo and JSON save/load.

    Randomness comes only from the game's own numpy Generator (``rng=``, a seed or a Generator):
    same seed, same game.
    :meth:`undo` restores the random state too, so replaying the same swipe brings the same
    spawn -- undo cannot be used to fish for a better tile.

    >>> g = Game(size=4, rng=19)
    >>> print(g.board)
    . . . .
    . . 2 .
    . . . .
    . . 2 .
    >>> turn = g.play("up")
    >>> bool(turn), turn.score, g.score, turn.chance
    (True, 4, 4, ((Spawn(cell=(1, 1), value=2), 0.06),))
    >>> print(g.board)
    . . 4 .
    . 2 . .
    . . . .
    . . . .
    >>> g.undo(), bool(g.play("up"))   # the same spawn again
    (True, True)
    >>> print(g.board)
    . . 4 .
    . 2 . .
    . . . .
    . . . .
    >>> Game.from_json(g.to_json()).board == g.board
    True
    """

    def __init__(
        self,
        size: int = DEFAULT_SIZE,
        target: int = DEFAULT_TARGET,
        p_four: float = DEFAULT_P_FOUR,
        *,
        rng: RngLike = None,
        board: BoardLike | None = None,
        keep_playing: bool = True,
    ) -> None:
        self.target = _check_target(target)
        self.p_four = check_p_four(p_four)
        #: False: once the target is made, moves wait (the original game's "You win!" screen) until this is set
        #: True ("Keep going"). True (the default for code): play straight on past the target.
        self.keep_playing = bool(keep_playing)
        #: the seed the game was made from: a fresh one from OS entropy when none was given, so it can be replayed
        self._rng, self.seed = seeded_generator(rng)
        if board is not None:
            start = as_board(board)
            if size != DEFAULT_SIZE and size != start.size:
                raise ValueError(f"size={size} but the given board is {start.size}x{start.size}; drop size or match it")
            self.size = start.size
        else:
            self.size = check_size(size)
        self._history: list[_Snapshot] = []
        self.last_move: MoveResult | None = None  #: what the last play() did (for animation)
        self.last_spawn: Spawn | None = None  #: the tile the last play() spawned
        self._start(None if board is None else as_board(board))

    def _start(self, board: Board | None) -> None:
        self.score = 0
        self.moves_played = 0
        self._history.clear()
        self.last_move = None
        self.last_spawn = None
        if board is None:
            self.board = Board.empty(self.size)
            for _ in range(START_TILES):
                self.spawn()
            self.last_spawn = None
        else:
            self.board = board
        self.won = self.board.max_tile >= self.target

    def restart(self) -> None:
        """A new game with the same settings; the random generator carries on (no re-seeding)."""
        self._start(None)

    # -- state -----------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        """True when no swipe changes the board."""
        return is_over(self.board)

    @property
    def rng(self) -> np.random.Generator:
        """The game's random generator (spawns draw from it)."""
        return self._rng

    def legal_moves(self) -> list[Direction]:
        """Directions that would change the board now."""
        return legal_moves(self.board)

    def spawn_outcomes(self) -> list[tuple[Spawn, float]]:
        """Every spawn that may follow, with its probability, for the current board."""
        return spawn_outcomes(self.board, self.p_four)

    def chance_outcomes(self) -> list[tuple[Spawn, float]]:
        """The chance step the OpenSpiel way: every spawn that may come next, with its probability.

        The one readable rule (:func:`~tilelab.game2048.chance.spawn_outcomes`); :meth:`play` samples it.
        """
        return self.spawn_outcomes()

    @property
    def waiting(self) -> bool:
        """True while the win shows and moves wait (``won`` and not ``keep_playing``)."""
        return self.won and not self.keep_playing

    # -- actions ---------------------------------------------------------------------------
    def spawn(self, outcome: Spawn | None = None) -> Spawn:
        """The chance step: place ``outcome`` or, by default, sample one from :meth:`spawn_outcomes`.

        :meth:`play` calls this after every move that changed the board; call it yourself after
        ``play(direction, spawn=False)`` to choose the spawn (e.g. to replay a recorded game).
        """
        if outcome is not None:
            outcome = _as_spawn(outcome)
        outcomes = self.spawn_outcomes()
        if not outcomes:
            raise ValueError("the board is full: nothing can spawn")
        if outcome is None:
            chosen: Spawn = sample_outcome(outcomes, self._rng)
        else:
            chosen = outcome
            if chosen not in {s for s, _ in outcomes}:
                raise ValueError(
                    f"{outcome!r} cannot happen here; pick one of game.spawn_outcomes() (an empty cell, value 2 or 4)"
                )
        self._place(chosen)
        return chosen

    def apply_chance(self, outcome: Spawn) -> Spawn:
        """The chance step with a chosen outcome (one of :meth:`chance_outcomes`): place that spawn.

        After ``play(direction, spawn=False)`` the game waits at its chance node, as an OpenSpiel
        state does; ``apply_chance`` resolves it (``spawn(outcome)`` under the protocol's name).
        """
        return self.spawn(outcome)

    def _place(self, chosen: Spawn) -> None:
        self.board = self.board.with_tile(chosen.cell, chosen.value)
        self.last_spawn = chosen

    def _snapshot(self) -> _Snapshot:
        return _Snapshot(self.board, self.score, self.won, self.moves_played, self._rng.bit_generator.state)

    def play(self, direction: DirectionLike, *, spawn: bool = True) -> Turn[Direction, MoveResult]:
        """Swipe; when the board changed add the score, spawn a tile; returns the :class:`Turn`.

        The Turn holds the move's events (``turn.events``: every tile's move), the score gained,
        the spawn with its probability (``turn.chance``) and ``over``/``won``; it counts as True
        when the board changed. A swipe that changes nothing returns a Turn that counts as False
        and leaves everything (random state too) as is.
        """
        direction = Direction.parse(direction)  # the one check: a word from code; a key or a swipe gave a Direction
        if self.waiting:  # the win shows: moves wait for keep_playing, as in the original game
            return Turn(direction, False, None, 0, (), self.over, self.won)
        result = play_parsed(self.board, direction)  # the game's own board, the direction parsed above
        if not result.changed:
            return Turn(result.direction, False, result, 0, (), self.over, self.won)
        self._history.append(self._snapshot())
        self.board = result.board
        self.score += result.score
        self.moves_played += 1
        self.last_move = result
        self.last_spawn = None
        if any(m.merged and m.value >= self.target for m in result.moves):
            self.won = True
        chance: tuple[tuple[Spawn, float], ...] = ()
        if spawn:
            outcomes = self.chance_outcomes()
            chosen: Spawn = sample_outcome(outcomes, self._rng)
            self._place(chosen)
            chance = ((chosen, next(p for outcome, p in outcomes if outcome == chosen)),)
        return Turn(result.direction, True, result, result.score, chance, self.over, self.won)

    def hint(self, nodes: int | None = None) -> Direction | None:
        """A good swipe for the current board: expectimax with a node budget (same board, same hint).

        ``nodes`` defaults to the AI's own budget; None when the game is over. Compiles the AI on
        its first call (a few seconds on a fresh machine).
        """
        if self.over:
            return None
        from tilelab.game2048.ai import Expectimax

        return Expectimax(nodes_per_move=nodes, p_four=self.p_four)(self.board)

    def undo(self) -> bool:
        """Take back the last move (and its spawn, and the random draws); False if none is left."""
        if not self._history:
            return False
        snap = self._history.pop()
        self.board, self.score, self.won, self.moves_played = snap.board, snap.score, snap.won, snap.moves_played
        self._rng.bit_generator.state = snap.rng_state
        self.last_move = None
        self.last_spawn = None
        return True

    # -- save / load -----------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Everything needed to continue exactly: settings, board, score, random state, undo history."""
        return {
            "format": JSON_FORMAT,
            "version": JSON_VERSION,
            "size": self.size,
            "target": self.target,
            "p_four": self.p_four,
            "seed": self.seed,
            "board": [list(row) for row in self.board.grid],
            "score": self.score,
            "won": self.won,
            "moves_played": self.moves_played,
            "keep_playing": self.keep_playing,
            "rng": rng_state_to_save(self._rng),
            "history": [
                {
                    "board": [list(row) for row in s.board.grid],
                    "score": s.score,
                    "won": s.won,
                    "moves_played": s.moves_played,
                    "rng": _jsonable(s.rng_state),
                }
                for s in self._history
            ],
        }

    def to_json(self) -> str:
        """The game as a JSON string; :meth:`from_json` restores it, random state included."""
        return dump_json(self.to_dict())

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Game":
        """Rebuild a game saved by :meth:`to_dict`; every field is checked, alone and against the others."""
        if not isinstance(data, dict) or data.get("format") != JSON_FORMAT:
            raise ValueError(f"not a saved 2048 game: expected a JSON object with format={JSON_FORMAT!r}")
        version = data.get("version")
        if type(version) is not int or version != JSON_VERSION:  # True and 1.0 are not the version 1
            raise ValueError(f"saved game version {short_repr(version)} is not supported (expected {JSON_VERSION})")
        saved_fields(data, _FIELDS, optional=("keep_playing",))  # older saves have no keep_playing
        size = _saved(data, "size")
        if not _is_int(size) or not MIN_SIZE <= size <= MAX_SIZE:
            raise ValueError(f"saved game field 'size' must be an int from {MIN_SIZE} to {MAX_SIZE}, not {short_repr(size)}")
        board = _saved_board(data, "board", size)
        try:
            p_four = _saved(data, "p_four")
            if type(p_four) is not float:  # a save writes a float; 1 would come back as 1.0
                raise ValueError(f"p_four must be written as a decimal number such as 0.1, not {short_repr(p_four)}")
            game = cls(size=size, target=_saved(data, "target"), p_four=p_four, rng=0, board=board)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"saved game settings are invalid: {exc}") from None
        seed = _saved(data, "seed")
        if seed is not None and (not _is_int(seed) or seed < 0):
            raise ValueError(f"saved game field 'seed' must be null or a whole number >= 0, not {short_repr(seed)}")
        game.seed = seed
        game._rng = _generator_from_state(_saved(data, "rng"))
        game.score = _saved_count(data, "score")
        game.won = _saved_bool(data, "won")
        game.moves_played = _saved_count(data, "moves_played")
        game.keep_playing = _saved_bool(data, "keep_playing") if "keep_playing" in data else True  # older saves
        if game.won and board.max_tile < game.target:
            raise ValueError(f"saved game says won but no tile reaches the target {game.target}")
        history = _saved(data, "history")
        if not isinstance(history, list):
            raise ValueError(f"saved game field 'history' must be a list, not {type(history).__name__}")
        if len(history) > game.moves_played:
            raise ValueError(f"saved game has {len(history)} undo steps but only {game.moves_played} moves played")
        for i, snap in enumerate(history):
            where = f"history[{i}]."
            saved_fields(snap, _STEP_FIELDS, where)
            moves = _saved_count(snap, "moves_played", where)
            if moves != game.moves_played - len(history) + i:
                raise ValueError(f"saved game field {where}'moves_played' is {moves}, expected "
                                 f"{game.moves_played - len(history) + i} (one move per undo step)")
            game._history.append(_Snapshot(
                _saved_board(snap, "board", size, where), _saved_count(snap, "score", where),
                _saved_bool(snap, "won", where), moves,
                saved_rng_state(_saved(snap, "rng", where), f"{where}rng"),
            ))
        now = _Snapshot(game.board, game.score, game.won, game.moves_played, {})
        for i, snap in enumerate([*game._history, now]):
            _check_position(snap, game.target, f"history[{i}]." if i < len(game._history) else "")
        later = [*game._history[1:], now]
        for i, (snap, after) in enumerate(zip(game._history, later)):
            if snap.score > after.score or (snap.won and not after.won):
                raise ValueError(f"saved game history[{i}] has score {snap.score} (won {snap.won}) but the next "
                                 f"position has {after.score} (won {after.won}): score and won never go back")
            if snap.board.tile_sum > after.board.tile_sum or snap.board.max_tile > after.board.max_tile:
                raise ValueError(f"saved game field history[{i}].'board' has tiles summing to {snap.board.tile_sum} "
                                 f"(largest {snap.board.max_tile}) but the next position's board sums to "
                                 f"{after.board.tile_sum} (largest {after.board.max_tile}): merges keep the sum and "
                                 "spawns add to it, so neither ever goes down")
            if potential(snap.board) - snap.score > potential(after.board) - after.score:
                raise ValueError(f"saved game fields history[{i}].'score' and the next position's 'score' differ by "
                                 f"{after.score - snap.score}, more than the merges between the two boards can score")
        return game

    def __repr__(self) -> str:
        state = "over" if self.over else ("won" if self.won else "playing")
        return f"<Game {self.size}x{self.size} score={self.score} moves={self.moves_played} {state}>"

    def __str__(self) -> str:
        return f"{self.board}\nscore {self.score}" + ("  (won)" if self.won else "") + ("  (game over)" if self.over else "")

"""``check_game(factory)``: the conformance check every tilelab game passes, and any game of your own can run.

Gymnasium checks an environment with ``check_env``; OpenSpiel plays random games through every state. This is
the same for the :class:`~tilelab.protocol.GameProtocol` shape the three games share: it plays ``games`` seeded
random games of ``moves`` legal moves each and checks, on every one, that

- a game is ``over`` exactly when ``legal_moves()`` is empty, and ``play`` accepts every move it lists;
- ``play(move)`` returns a :class:`~tilelab.protocol.Turn` that counts as true exactly when the move changed the
  game, with chance outcomes whose probabilities lie in (0, 1], and ``chance_outcomes()`` sums to 1 (or is empty);
- ``undo()`` takes back every move, to any depth, and then says False;
- ``to_json()`` / ``from_json()`` restore the game exactly, and the loaded game goes on with the same random draws;
- the same seed and the same moves give the same game (no hidden randomness).

It raises :class:`GameCheckError` naming the first game, move and check that failed.

>>> from tilelab.sliding import Game
>>> check_game(lambda seed: Game(3, rng=seed), games=5)
5
"""

from __future__ import annotations

import json
import math
from typing import Any, Callable

import numpy as np

__all__ = ["GameCheckError", "check_game"]


class GameCheckError(AssertionError):
    """A game broke the shared protocol: the message says which game, which move and what went wrong."""


def _default_state(game: Any) -> str:
    """Everything a game is, as comparable text: its JSON without the undo history, and its board."""
    data = json.loads(game.to_json())
    if isinstance(data, dict):
        data.pop("history", None)
    return json.dumps(data, sort_keys=True) + "\n" + str(getattr(game, "board", ""))


def _require(condition: bool, where: str, what: str) -> None:
    if not condition:
        raise GameCheckError(f"{where}: {what}")


def _check_shape(game: Any) -> None:
    for name in ("play", "legal_moves", "undo", "to_json", "chance_outcomes"):
        _require(callable(getattr(game, name, None)), type(game).__name__, f"has no method {name}()")
    _require(callable(getattr(type(game), "from_json", None)), type(game).__name__, "has no classmethod from_json()")
    _require(isinstance(game.rng, np.random.Generator), type(game).__name__, "game.rng is not a numpy Generator")
    _require(isinstance(game.over, bool), type(game).__name__, "game.over is not a bool")


def _check_turn(turn: Any, before: str, after: str, where: str) -> None:
    from tilelab.protocol import Turn

    _require(isinstance(turn, Turn), where, f"play() returned {type(turn).__name__}, not a Turn")
    _require(bool(turn) == turn.changed == (before != after), where,
             f"the Turn says changed={turn.changed} but the game {'did' if before != after else 'did not'} change")
    for outcome, p in turn.chance:
        _require(0.0 < p <= 1.0, where, f"chance outcome {outcome!r} has probability {p}, outside (0, 1]")


def _check_chance(game: Any, where: str) -> None:
    outcomes = game.chance_outcomes()
    if outcomes:
        total = math.fsum(p for _, p in outcomes)
        _require(abs(total - 1.0) < 1e-9, where, f"chance_outcomes() adds up to {total}, not 1")
        _require(all(0.0 < p <= 1.0 for _, p in outcomes), where, "chance_outcomes() lists a probability outside (0, 1]")


def _play(game: Any, move: Any, where: str) -> Any:
    """``game.play(move)`` for a move ``legal_moves()`` listed: raising on it fails the check."""
    try:
        return game.play(move)
    except Exception as exc:  # noqa: BLE001 - any exception on a listed move is the game's fault
        raise GameCheckError(f"{where}: play({move!r}) raised {type(exc).__name__} ({exc}), yet legal_moves() "
                             "listed that move") from exc


def _legal(game: Any, where: str) -> list[Any]:
    """``legal_moves()``, checked against ``over``: a game is over exactly when it lists no legal move."""
    legal = list(game.legal_moves())
    _require(bool(game.over) == (not legal), where,
             f"game.over is {game.over} but legal_moves() lists {len(legal)} moves: a game is over exactly when "
             "no move is legal")
    return legal


def _playthrough(factory: Callable[[int], Any], seed: int, max_moves: int, state: Callable[[Any], str]) -> Any:
    game = factory(seed)
    chooser = np.random.default_rng(seed)
    states = [state(game)]
    for step in range(max_moves):
        where = f"game {seed}, move {step + 1}"
        legal = _legal(game, where)
        if not legal:
            break
        _check_chance(game, where)
        move = legal[int(chooser.integers(len(legal)))]
        before = states[-1]
        turn = _play(game, move, where)
        after = state(game)
        _check_turn(turn, before, after, where)
        if turn:
            states.append(after)
    return game, states


def check_game(factory: Callable[[int], Any], *, games: int = 200, max_moves: int = 12,
               state: Callable[[Any], str] = _default_state) -> int:
    """Play ``games`` seeded random games of up to ``max_moves`` moves from ``factory(seed)`` and check the shared
    protocol; returns ``games``.

    ``factory`` makes a fresh game from a seed (``lambda seed: Game(rng=seed)``); ``state`` turns a game into
    comparable text (default: its JSON without the undo history). Raises :class:`GameCheckError`.
    """
    _check_shape(factory(0))
    for seed in range(games):
        game, states = _playthrough(factory, seed, max_moves, state)
        where = f"game {seed}"
        _require(state(game) == states[-1], where, "the game changed without a move")
        again, _ = _playthrough(factory, seed, max_moves, state)
        _require(state(again) == states[-1], where, "the same seed and moves gave another game (hidden randomness?)")
        saved = game.to_json()
        loaded = type(game).from_json(saved)
        _require(loaded.to_json() == saved, where, "from_json(to_json()) does not give the same JSON back")
        legal = _legal(game, where)
        if legal:  # the loaded game goes on with the same random draws
            _play(game, legal[0], where), _play(loaded, legal[0], f"{where} (loaded)")
            _require(state(loaded) == state(game), where, "the loaded game went on differently (random state lost?)")
            _require(bool(game.undo()) and bool(loaded.undo()), where, "undo() refused the move just played")
        for depth, expected in enumerate(reversed(states[:-1]), 1):
            _require(bool(game.undo()) and bool(loaded.undo()), where, f"undo() stopped after {depth - 1} moves")
            _require(state(game) == expected == state(loaded), where, f"undo() {depth} deep is not the earlier game")
        _require(not game.undo() and not loaded.undo(), where, "undo() past the first move did not say False")
    return games

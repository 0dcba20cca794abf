"""The session protocol the three games share: ``play(move) -> Turn``, undo, hint, save/load.

``tilelab.game2048.Game``, ``tilelab.sliding.Game`` and ``tilelab.match3.Game`` have one shape
(:class:`GameProtocol`), as every OpenSpiel game has the same State: a widget or a player written
against it works with any of them. Standard library and numpy only (engines import this module).

A :class:`Turn` is what one ``play`` did, as data: the engine's events (to animate), the score
gained, every chance outcome drawn with its probability, and whether the game is now over or won.
It is a frozen dataclass, generic over the game's move type and events (``Turn[Direction, MoveResult]``),
and counts as true when the move changed the board: ``if game.play("up"):``.

Every game also exposes its chance step the OpenSpiel way: ``chance_outcomes()`` lists what may happen
next with its probability, and ``play`` samples one of them with the game's own generator.

>>> t = Turn("up", True, score=4)
>>> bool(t), t.score, Turn("up", False).changed
(True, 4, False)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Generic, Iterable, Protocol, Sequence, TypeVar, runtime_checkable

import numpy as np

from tilelab.inputs import short_repr

__all__ = [
    "GameProtocol", "MAX_SAVE_CHARS", "SAVED_BIT_GENERATOR", "SessionBase", "Turn", "check_saved_header", "dump_json",
    "generator_from_state", "jsonable", "load_json", "rng_state_to_save", "saved_fields", "saved_rng_state",
]


MoveT = TypeVar("MoveT")
EventsT = TypeVar("EventsT")


@dataclass(frozen=True)
class Turn(Generic[MoveT, EventsT]):
    """What one ``Game.play`` did, as data; it counts as true when the move changed the game.

    ``move`` is the game's own move type (a 2048 :class:`~tilelab.game2048.board.Direction`, a sliding
    :class:`~tilelab.sliding.moves.Move`, a match-3 :class:`~tilelab.match3.board.Swap`), parsed once;
    ``events`` is the engine's result (a 2048 ``MoveResult``, a sliding ``Slide``, a match-3 ``SwapResult``),
    None when nothing moved; ``score`` the points gained; ``chance`` every chance outcome drawn with its
    probability (``((outcome, p), ...)``: the 2048 spawn, the match-3 refills); ``over`` and ``won`` the game's
    state after the move; ``reshuffle`` (match-3) the board dealt again when the swap left it dead.

    >>> t = Turn("up", True, score=4, chance=[("a", 0.5), ("b", 0.25)])
    >>> bool(t), t.score, t.probability, Turn("up", False).changed
    (True, 4, 0.125, False)
    """

    move: MoveT
    changed: bool
    events: EventsT | None = None
    score: int = 0
    chance: tuple[tuple[Any, float], ...] = ()
    over: bool = False
    won: bool = False
    reshuffle: Any = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "changed", bool(self.changed))
        object.__setattr__(self, "score", int(self.score))
        object.__setattr__(self, "chance", tuple(self.chance))
        object.__setattr__(self, "over", bool(self.over))
        object.__setattr__(self, "won", bool(self.won))

    def __bool__(self) -> bool:
        return self.changed

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Turn):
            return NotImplemented
        return (self.move, self.changed, self.events, self.score, self.chance, self.over, self.won,
                self.reshuffle) == (other.move, other.changed, other.events, other.score, other.chance, other.over,
                                    other.won, other.reshuffle)

    def __hash__(self) -> int:
        return hash((type(self), self.changed, self.score, self.chance, self.over, self.won))

    def __repr__(self) -> str:
        chance = ", ".join(f"{o!r} p={p:.3g}" for o, p in self.chance[:3])
        if len(self.chance) > 3:
            chance += f", ... ({len(self.chance)} outcomes)"
        extra = f", reshuffle={self.reshuffle is not None}" if self.reshuffle is not None else ""
        return (f"Turn(move={self.move!r}, changed={self.changed}, score={self.score}, chance=[{chance}], "
                f"over={self.over}, won={self.won}{extra})")

    @property
    def probability(self) -> float:
        """The probability of this turn's chance outcomes together (1.0 when nothing was drawn)."""
        p = 1.0
        for _outcome, q in self.chance:
            p *= q
        return p


@runtime_checkable
class GameProtocol(Protocol):
    """The shape every tilelab game session has (2048, sliding, match-3)."""

    seed: int | None

    @property
    def rng(self) -> np.random.Generator: ...

    @property
    def over(self) -> bool: ...

    def play(self, move: Any) -> Turn[Any, Any]: ...

    def legal_moves(self) -> list[Any]: ...

    def chance_outcomes(self) -> list[tuple[Any, float]]: ...

    def undo(self) -> bool: ...

    def hint(self) -> Any: ...

    def to_json(self) -> str: ...


class SessionBase:
    """What the three ``Game`` classes share word for word: the undo stack's size and loading from JSON.

    A subclass keeps its snapshots in ``self._history`` and defines ``from_dict``.
    """

    _history: list[Any]

    @property
    def can_undo(self) -> bool:
        """True when there is a move to take back."""
        return bool(self._history)

    def play_all(self, moves: Iterable[Any]) -> list[Turn[Any, Any]]:
        """Play each move in turn and return the Turns (``play`` is one move; ``play_all`` a sequence)."""
        play = getattr(self, "play")
        return [play(move) for move in moves]

    @property
    def undo_depth(self) -> int:
        """How many moves ``undo`` can take back."""
        return len(self._history)

    @classmethod
    def from_dict(cls, data: Any) -> Any:  # pragma: no cover - every game defines its own
        raise NotImplementedError

    @classmethod
    def from_json(cls, text: str) -> Any:
        """Rebuild a game saved by ``to_json``; it continues with exactly the same chance outcomes."""
        data = load_json(text, "Game")
        try:
            return cls.from_dict(data)
        except RecursionError:
            raise ValueError("saved game is nested too deeply to be a game; pass the text from game.to_json()") from None


# ------------------------------------------------------------------ saving and loading


def jsonable(state: Any) -> Any:
    """A numpy bit generator's state (nested dicts, arrays, numpy ints) as plain JSON values."""
    if isinstance(state, dict):
        return {k: jsonable(v) for k, v in state.items()}
    if isinstance(state, np.ndarray):
        return state.tolist()
    if isinstance(state, np.integer):
        return int(state)
    return state


#: The one bit generator a saved game may name: PCG64, what a seed gives (``numpy.random.default_rng``).
#: Other bit generators' state setters trust their input (MT19937 reads ``key[pos]`` unchecked: a
#: crafted ``pos`` crashes Python or draws from stray memory), so a save naming one is refused.
SAVED_BIT_GENERATOR = "PCG64"
_PCG64_FIELDS = ("bit_generator", "state", "has_uint32", "uinteger")
_PCG64_LIMITS = {"state": 1 << 128, "inc": 1 << 128, "has_uint32": 2, "uinteger": 1 << 32}


def _state_int(value: Any, name: str, field: str) -> int:
    """One integer field of a saved PCG64 state, in range; ValueError naming it."""
    limit = _PCG64_LIMITS[name]
    if type(value) is not int or not 0 <= value < limit:  # bools, floats (1.5 would be truncated), strings
        span = "0 or 1" if limit == 2 else f"a whole number from 0 to 2**{limit.bit_length() - 1} - 1"
        raise ValueError(f"saved random state {field!r} is damaged: {name!r} must be {span}, not {short_repr(value)}")
    return value


def saved_rng_state(state: Any, field: str = "rng") -> dict[str, Any]:
    """A saved PCG64 bit-generator state checked field by field, as a fresh dict (ValueError naming the fault).

    Exactly the fields numpy writes: ``bit_generator`` ("PCG64"), ``state`` (``state`` and an odd
    ``inc``, each below 2**128), ``has_uint32`` (0 or 1) and ``uinteger`` (below 2**32).

    >>> state = np.random.default_rng(1).bit_generator.state
    >>> saved_rng_state(state) == state
    True
    >>> saved_rng_state({**state, "has_uint32": 7})
    Traceback (most recent call last):
    ValueError: saved random state 'rng' is damaged: 'has_uint32' must be 0 or 1, not 7
    """
    if not isinstance(state, dict):
        raise ValueError(f"saved random state {field!r} must be an object (game.rng.bit_generator.state), "
                         f"not {short_repr(state)}")
    name = state.get("bit_generator")
    if name != SAVED_BIT_GENERATOR:
        raise ValueError(f"saved random state {field!r} names the bit generator {short_repr(name)}; a saved game draws "
                         f"from {SAVED_BIT_GENERATOR} (what numpy.random.default_rng gives), the only one tilelab loads")
    if set(state) != set(_PCG64_FIELDS):
        missing, extra = sorted(set(_PCG64_FIELDS) - set(state)), sorted(map(str, set(state) - set(_PCG64_FIELDS)))
        raise ValueError(f"saved random state {field!r} is damaged: "
                         + "; ".join([f"missing {missing}"] * bool(missing) + [f"unknown {short_repr(extra)}"] * bool(extra))
                         + f"; a PCG64 state has exactly {list(_PCG64_FIELDS)}")
    core = state["state"]
    if not isinstance(core, dict) or set(core) != {"state", "inc"}:
        raise ValueError(f"saved random state {field!r} is damaged: 'state' must be an object with exactly "
                         f"'state' and 'inc', not {short_repr(core)}")
    inc = _state_int(core["inc"], "inc", field)
    if not inc & 1:
        raise ValueError(f"saved random state {field!r} is damaged: a PCG64 increment 'inc' is always odd, not {short_repr(inc)}")
    return {"bit_generator": SAVED_BIT_GENERATOR,
            "state": {"state": _state_int(core["state"], "state", field), "inc": inc},
            "has_uint32": _state_int(state["has_uint32"], "has_uint32", field),
            "uinteger": _state_int(state["uinteger"], "uinteger", field)}


def generator_from_state(state: Any, field: str = "rng") -> np.random.Generator:
    """A numpy Generator continuing exactly from a saved PCG64 state (:func:`saved_rng_state` checks it).

    >>> g = np.random.default_rng(5)
    >>> h = generator_from_state(jsonable(g.bit_generator.state))
    >>> int(h.integers(1000)) == int(g.integers(1000))
    True
    """
    bit_generator = np.random.PCG64(0)  # a fixed seed: no OS entropy is read for a state about to be replaced
    bit_generator.state = saved_rng_state(state, field)  # type: ignore[assignment]  # numpy types it as a TypedDict
    return np.random.Generator(bit_generator)


def rng_state_to_save(generator: np.random.Generator) -> dict[str, Any]:
    """The generator's state as a save writes it; ValueError unless it is a PCG64 (the only kind a save loads).

    >>> rng_state_to_save(np.random.default_rng(1))["bit_generator"]
    'PCG64'
    """
    state = generator.bit_generator.state
    if state.get("bit_generator") != SAVED_BIT_GENERATOR:
        raise ValueError(f"this game draws from {short_repr(state.get('bit_generator'))}, which a save cannot hold; "
                         f"start the game with rng=<a seed> or rng=numpy.random.default_rng(...) ({SAVED_BIT_GENERATOR})")
    return dict(jsonable(state))


#: The longest save text tilelab writes or reads, checked before parsing (as numpy's ``max_header_size``
#: bounds what ``numpy.load`` parses): a 2048 game of 100,000 moves with its undo history is 29 MB, and
#: a sliding game's or a match-3 game's own limits keep theirs smaller.
MAX_SAVE_CHARS = 64 * 2**20


def dump_json(data: Any) -> str:
    """``json.dumps(data)``, refused (ValueError) past :data:`MAX_SAVE_CHARS`: a save is never written unreadable."""
    text = json.dumps(data)
    if len(text) > MAX_SAVE_CHARS:
        raise ValueError(f"this game's save would be {len(text) / 2**20:.0f} MB, past MAX_SAVE_CHARS = "
                         f"{MAX_SAVE_CHARS / 2**20:.0f} MB, the most tilelab reads back; its undo history is the bulk: "
                         "start a new game to save a shorter one")
    return text


def load_json(text: Any, what: str) -> Any:
    """``json.loads(text)`` with a ValueError that says what was expected (texts past MAX_SAVE_CHARS are not parsed)."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise TypeError(f"{what}.from_json expects a JSON string, got {type(text).__name__}")
    if len(text) > MAX_SAVE_CHARS:
        raise ValueError(f"the text is {len(text) / 2**20:.0f} MB, past MAX_SAVE_CHARS = {MAX_SAVE_CHARS / 2**20:.0f} "
                         "MB, more than any save tilelab writes; pass the text from game.to_json()")
    try:
        return json.loads(text, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON ({exc.msg} at position {exc.pos}); pass the text from game.to_json()") from None
    except (RecursionError, UnicodeDecodeError) as exc:
        raise ValueError(f"not a saved game ({type(exc).__name__}); pass the text from game.to_json()") from None
    except ValueError as exc:
        if isinstance(exc, _DuplicateKey):
            raise
        # CPython refuses integers past sys.get_int_max_str_digits() (4300 digits): no save holds one
        raise ValueError("not a saved game: it holds a number too long for any field of a game (thousands of "
                         "digits); pass the text from game.to_json()") from None


class _DuplicateKey(ValueError):
    """A save text names one key twice in an object (JSON allows it; a save never does)."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``dict(pairs)``, refused when a key comes twice (``json.loads`` would keep the last silently)."""
    found = dict(pairs)
    if len(found) != len(pairs):
        seen: set[str] = set()
        twice = next(key for key, _ in pairs if key in seen or seen.add(key))  # type: ignore[func-returns-value]
        raise _DuplicateKey(f"the saved game names the field {short_repr(twice)} twice, so one of its values "
                                "would be dropped; pass the text from game.to_json(), which names each field once")
    return found


def check_saved_header(data: Any, fmt: str, version: int) -> dict[str, Any]:
    """``data`` if it is a saved game of format ``fmt`` and this ``version``; ValueError naming the problem."""
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise ValueError(f"not a saved game of this kind: expected a JSON object with format={fmt!r}")
    saved = data.get("version")
    if type(saved) is not int or saved != version:  # True and 1.0 are not the version 1
        raise ValueError(f"saved game version {short_repr(saved)} is not supported (expected {version})")
    return data


def saved_fields(data: Any, fields: Sequence[str], where: str = "", optional: Sequence[str] = ()) -> dict[str, Any]:
    """``data`` if it is an object holding exactly ``fields`` (what ``to_dict`` writes), and perhaps some of
    ``optional`` (fields older saves lack); ValueError naming a missing or an unknown one. numpy reads a ``.npy``
    header the same way: its exact keys or an error, so a save that loads holds nothing the game would drop.

    >>> saved_fields({"a": 1, "b": 2}, ("a", "b"))
    {'a': 1, 'b': 2}
    >>> saved_fields({"a": 1, "c": 3}, ("a", "b"), "history[0].")
    Traceback (most recent call last):
    ValueError: saved game is missing the field history[0].'b'
    """
    if not isinstance(data, dict):
        raise ValueError(f"saved game field {where.rstrip('.') or 'game'} must be an object, not {short_repr(data)}")
    missing = [key for key in fields if key not in data]
    if missing:
        more = f" (and {len(missing) - 1} more: {missing[1:]})" if len(missing) > 1 else ""
        raise ValueError(f"saved game is missing the field {where}{missing[0]!r}{more}")
    if len(data) != len(fields):
        unknown = [key for key in data if key not in fields and key not in optional]
        if unknown:
            raise ValueError(f"saved game has an unknown field {where}{short_repr(unknown[0])}: a save holds exactly "
                             f"{[*fields, *optional]} there, so this is not a save tilelab wrote")
    return data


def saved_field(data: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str = "") -> Any:
    """``data[key]`` checked to be of ``kind`` (bools are not ints); ValueError naming the field."""
    if key not in data:
        raise ValueError(f"saved game is missing the field {where}{key!r}")
    value = data[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
        names = " or ".join(k.__name__ for k in kinds)
        raise ValueError(f"saved game field {where}{key!r} must be {names}, not {short_repr(value)}")
    if isinstance(value, int) and not isinstance(value, bool) and value < 0:
        raise ValueError(f"saved game field {where}{key!r} must be >= 0, not {value}")
    return value

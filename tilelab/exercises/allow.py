"""What an exercise's answer may call: allow-lists, written as the public names a lesson uses.

An allow-list is a tuple of *specs*; :func:`resolve` turns it into the code objects the watch
(:mod:`tilelab.exercises.watch`) lets the answer call. A spec is

- ``"module:name"``: a function (its code), a property (its getter), a compiled kernel or a cache
  (the Python function inside);
- ``"module:Class"``: the class's *own machinery*: every ``__dunder__`` method (building, comparing,
  hashing, printing, indexing, iterating) and ``_repr_*_`` of the tilelab classes in its MRO, never a
  named method;
- ``"module:Class[name other ...]"``: that machinery and the named members (methods, properties,
  class methods), looked up along the MRO; ``"module:Class[*]"``: every member;
- a :class:`Kit` (a named group of specs, shown to the student by its label), or an object itself.

>>> from tilelab.game2048 import Board
>>> codes = resolve(("tilelab.game2048:Board[grid]",))
>>> Board.grid.fget.__code__ in codes, Board.empty_cells.__code__ in codes, Board.__getitem__.__code__ in codes
(True, False, True)
"""

from __future__ import annotations

import importlib
import types
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

from tilelab.exercises.code_kinds import TILELAB, code_of, kind_of

__all__ = ["Kit", "resolve", "describe", "BOARD_2048", "PUZZLE", "MATCH3_BOARD", "NUMPY"]

_DISPLAY = ("_repr_html_", "_repr_svg_", "_repr_png_", "_repr_markdown_", "_repr_mimebundle_", "_repr_pretty_",
            "_ipython_display_", "_missing_", "_generate_next_value_")


@dataclass(frozen=True)
class Kit:
    """A named group of allow specs (``label`` is what a refusal message tells the student)."""

    label: str
    specs: tuple[Any, ...]


def _load(spec: str) -> tuple[Any, str, tuple[str, ...] | None]:
    """``"module:Qual.name[members]"`` -> (object, member name or "", members or None)."""
    module_name, _, rest = spec.partition(":")
    members: tuple[str, ...] | None = None
    if rest.endswith("]") and "[" in rest:
        rest, _, inside = rest[:-1].partition("[")
        members = tuple(inside.split())
    obj: Any = importlib.import_module(module_name)
    parts = rest.split(".")
    for i, part in enumerate(parts):
        if isinstance(obj, type) and i == len(parts) - 1:
            return obj, part, members  # an attribute of a class: looked up statically (a property stays one)
        obj = getattr(obj, part)
    return obj, "", members


def _class_member(cls: type, name: str) -> Any:
    for klass in cls.__mro__:
        if name in vars(klass):
            return vars(klass)[name]
    raise AttributeError(f"{cls.__qualname__} has no member {name!r}")


def _with_nested(code: types.CodeType) -> Iterator[types.CodeType]:
    """A function's code and the code defined inside it (generator expressions, lambdas, inner functions)."""
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _with_nested(const)


def _codes_of_member(value: Any) -> Iterator[types.CodeType]:
    if isinstance(value, property):
        for f in (value.fget, value.fset, value.fdel):
            if f is not None and (code := code_of(f)) is not None:
                yield from _with_nested(code)
    elif (code := code_of(value)) is not None:
        yield from _with_nested(code)


def _tilelab_classes(cls: type) -> list[type]:
    return [k for k in cls.__mro__ if k.__module__.split(".")[0] == "tilelab"]


def _machinery(cls: type) -> Iterator[types.CodeType]:
    """Dunder methods and display hooks of the tilelab classes in ``cls``'s MRO."""
    for klass in _tilelab_classes(cls):
        for name, value in vars(klass).items():
            if (name.startswith("__") and name.endswith("__")) or name in _DISPLAY:
                yield from _codes_of_member(value)


def _everything(cls: type) -> Iterator[types.CodeType]:
    for klass in _tilelab_classes(cls):
        for value in vars(klass).values():
            yield from _codes_of_member(value)


def _expand(spec: Any) -> Iterator[types.CodeType]:
    if isinstance(spec, Kit):
        for inner in spec.specs:
            yield from _expand(inner)
        return
    if isinstance(spec, str):
        obj, member, members = _load(spec)
        if member:
            value = _class_member(obj, member)
            if isinstance(value, type):
                yield from _machinery(value)
            else:
                yield from _codes_of_member(value)
                if not any(True for _ in _codes_of_member(value)):
                    raise ValueError(f"allow spec {spec!r} names no Python code")
            return
        spec = obj
        if members is not None:
            if not isinstance(obj, type):
                raise ValueError(f"allow spec {spec!r}: [members] only follow a class")
            yield from _machinery(obj)
            if members == ("*",):
                yield from _everything(obj)
            else:
                for name in members:
                    yield from _codes_of_member(_class_member(obj, name))
            return
    if isinstance(spec, type):
        yield from _machinery(spec)
        return
    codes = list(_codes_of_member(spec))
    if not codes:
        raise ValueError(f"allow spec {spec!r} names no Python code")
    yield from codes


def resolve(specs: Iterable[Any]) -> frozenset[types.CodeType]:
    """The code objects of tilelab's that ``specs`` allow (other code is never judged, so it is left out)."""
    return frozenset(code for spec in specs for code in _expand(spec) if kind_of(code) == TILELAB)


def _label(spec: str) -> str:
    """``"m:Board[empty_cells tiles]"`` -> ``"Board.empty_cells, Board.tiles"``; ``"m:Slide[*]"`` -> ``"Slide"``."""
    rest = spec.partition(":")[2]
    name, _, members = rest.partition("[")
    owner = name.rsplit(".", 1)[-1] if "." not in name else name
    members = members.rstrip("]").split()
    if not members or members == ["*"]:
        return owner.rsplit(".", 1)[-1] if "." in owner and owner.split(".")[0][:1].islower() else owner
    return ", ".join(f"{owner}.{m}" for m in members)


def describe(specs: Iterable[Any]) -> str:
    """The allow-list in a few words for a message: kits by their labels, other specs by their names.

    >>> describe((NUMPY, "tilelab.sliding:manhattan", "tilelab.sliding.search:children"))
    'numpy, manhattan, children'
    >>> describe(("tilelab.game2048:Board[empty_cells]", "tilelab.game2048:MoveResult[*]"))
    'Board.empty_cells, MoveResult'
    """
    words: list[str] = []
    for spec in specs:
        if isinstance(spec, Kit):
            word = spec.label
        elif isinstance(spec, str):
            word = _label(spec)
        else:
            word = getattr(spec, "__name__", type(spec).__name__)
        if word and not word.startswith("_") and word not in words:
            words.append(word)
    return ", ".join(words)


# ---------------------------------------------------------------------------- kits the exercises share
#: numpy and the standard library are never judged (they are not tilelab): this kit only names them.
NUMPY = Kit("numpy", ())

#: A 2048 board: build it (``Board(grid)``, ``Board.parse``), read its cells, print it. Not its queries
#: (``empty_cells``, ``max_tile``, ``tile_map``, ``tile_sum``): 00's exercises ask for those.
BOARD_2048 = Kit("Board (build it, read its cells)", (
    "tilelab.game2048:Board[grid size cells to_array parse from_array empty with_tile transpose mirror]",
    "tilelab.game2048:Direction[parse delta opposite]",
))

#: A sliding puzzle: build it, read it, print it, and look at the tiles next to the blank.
PUZZLE = Kit("Board (build it, read it)", (
    "tilelab.sliding:Board[goal parse from_grid tiles rows cols shape cell_count blank blank_index at position grid "
    "is_goal to_svg]",
))

#: A match-3 board: build it, read its cells, swap two cells, print it.
MATCH3_BOARD = Kit("Board (build it, read it, swap two cells)", (
    "tilelab.match3:Board[rows cols cells on_board is_full picture counts with_cells swapped parse to_array "
    "from_array]",
))

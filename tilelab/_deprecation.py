"""Older names, retired politely: each one warns (a DeprecationWarning naming its new name and the
release it goes in) and still works until then. Standard library only; every engine may use it.

Every older name is registered in :data:`RENAMED` (old -> new), the list ``docs/vocabulary.md``
prints and a test holds to it; nothing is kept forever because a test pins its identity.

>>> import warnings
>>> def slide(x): return x + 1
>>> old = renamed(slide, "demo.push", "demo.slide")
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     old(1), str(caught[0].message)
(2, 'demo.push is deprecated and goes in tilelab 0.3.0; use demo.slide')
"""

from __future__ import annotations

import functools
import importlib
import sys
import warnings
from typing import Any, Callable, TypeVar

REMOVED_IN = "0.3.0"  #: the release in which every name below goes

#: every older name -> its new name (qualified as a reader would import or call it)
RENAMED: dict[str, str] = {}

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")


def message(old: str, new: str) -> str:
    """The one wording of a deprecation: the old name, when it goes, the new name."""
    return f"{old} is deprecated and goes in tilelab {REMOVED_IN}; use {new}"


def warn(old: str, new: str, stacklevel: int = 3) -> None:
    """Warn that ``old`` is deprecated in favour of ``new`` (stacklevel 3: the caller of the old name)."""
    warnings.warn(message(old, new), DeprecationWarning, stacklevel=stacklevel)


def renamed_keyword(where: str, new: str, value: T, old: str, older: T) -> T:
    """The value a call got as keyword ``new``, or as its older name ``old`` (which warns); both is a TypeError.

    The one place a renamed keyword is read (``seed=`` for ``rng=``, ``rows=`` for ``grid=``, ...).

    >>> renamed_keyword("demo", "grid", [[2]], "rows", None)
    [[2]]
    """
    if older is None:
        return value
    warn(f"{where}({old}=...)", f"{where}({new}=...)")
    if value is not None:
        raise TypeError(f"{where}: give it once, as {new}= ({old}= is its older name)")
    return older


def register(old: str, new: str) -> None:
    """Record ``old -> new`` in :data:`RENAMED` (done at import for every older name)."""
    RENAMED[old] = new


def renamed(function: F, old: str, new: str) -> F:
    """``function`` under its older name: the same call, with a DeprecationWarning first."""
    register(old, new)

    @functools.wraps(function)
    def older_name(*args: Any, **kwargs: Any) -> Any:
        warn(old, new)
        return function(*args, **kwargs)

    older_name.__doc__ = f"Deprecated: {message(old, new)}."
    older_name.__name__ = old.rsplit(".", 1)[-1]
    older_name.__qualname__ = older_name.__name__
    return older_name  # type: ignore[return-value]


def _resolve(target: str) -> Any:
    module, _, name = target.partition(":")
    value: Any = importlib.import_module(module)
    for part in filter(None, name.split(".")):
        value = getattr(value, part)
    return value


def moved(module: str, names: dict[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for a module whose names moved: ``names`` maps old -> "new.module:name".

    The new module is imported by name only when an old name is used, so the old module depends on nothing.
    """
    present = vars(sys.modules[module]) if module in sys.modules else {}
    names = {old: target for old, target in names.items() if old not in present}  # still imported there: not moved
    for old, target in names.items():
        register(f"{module}.{old}", target.replace(":", "."))

    def __getattr__(name: str) -> Any:
        target = names.get(name)
        if target is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        warn(f"{module}.{name}", target.replace(":", "."))
        return _resolve(target)

    def __dir__() -> list[str]:  # the names that live here; older ones stay out of sight (tools list dir())
        return sorted(vars(sys.modules[module]))

    return __getattr__, __dir__

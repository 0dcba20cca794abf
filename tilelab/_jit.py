"""Optional numba compilation with a pure-Python fallback.

The fast engines (2048 bitboard AI, sliding-puzzle IDA* and pattern databases) decorate their
inner loops with :func:`njit`. With numba installed the loops compile to machine code (cached on
disk); without it, or with the environment variable ``TILELAB_NO_JIT=1``, the very same functions
run as plain Python -- slower, same answers. Tests run both ways.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any, Callable, TypeVar, overload

try:  # pragma: no cover - exercised by whichever way the environment is set up
    if os.environ.get("TILELAB_NO_JIT", "") not in ("", "0"):
        raise ImportError("TILELAB_NO_JIT is set")
    import numba as _numba

    HAVE_NUMBA = True
except ImportError:  # pragma: no cover
    _numba = None
    HAVE_NUMBA = False


F = TypeVar("F", bound=Callable[..., Any])


@overload
def njit(func: F, /) -> F: ...
@overload
def njit(**options: Any) -> Callable[[F], F]: ...
def njit(*args: Any, **kwargs: Any) -> Any:  # the type checker sees the function's own signature, kept
    """``numba.njit(cache=True)`` when numba is available, else the function unchanged.

    Use bare (``@njit``) or with options (``@njit(inline="always")``). The original Python
    function is always reachable as ``f.py_func``, so tests can compare the two.

    >>> @njit
    ... def add(a, b):
    ...     return a + b
    >>> add(2, 3), add.py_func(2, 3)
    (5, 5)
    """
    if args and callable(args[0]) and len(args) == 1 and not kwargs:
        return njit()(args[0])

    def decorate(func: Callable) -> Callable:
        if HAVE_NUMBA:
            # Cache compiled code on disk, except for functions with no source file (a notebook
            # cell, a doctest), which numba cannot cache.
            has_file = not func.__code__.co_filename.startswith("<")
            return _numba.njit(**{"cache": has_file, **kwargs})(func)
        func.py_func = func  # type: ignore[attr-defined]
        return func

    return decorate


def py_func(func: F) -> F:
    """The plain Python function behind a compiled one (the function itself when numba is off).

    >>> @njit
    ... def twice(x):
    ...     return 2 * x
    >>> py_func(twice)(4), py_func(py_func(twice)) is py_func(twice)
    (8, True)
    """
    plain: F = getattr(func, "py_func", func)
    return plain


def _monotonic_py(buffer: Any = None) -> float:
    """Seconds on the clock of :func:`time.perf_counter` (the pure-Python fallback; ``buffer`` unused)."""
    return time.perf_counter()


CLOCK_MONOTONIC = 1  # Linux's id of the clock time.perf_counter reads

if HAVE_NUMBA and sys.platform.startswith("linux"):  # pragma: no branch - one way per machine
    from numba import types as _types

    _clock_gettime = _types.ExternalFunction("clock_gettime", _types.int32(_types.int32, _types.intp))

    @_numba.njit(cache=True)
    def monotonic(buffer) -> float:  # type: ignore[misc]
        """``time.perf_counter()`` from compiled code, about 40 ns: libc's clock_gettime, no GIL, no Python.

        ``buffer`` is an int64 array of at least 2 (the C call writes seconds and nanoseconds there).
        Compiled code cannot be interrupted, so a search with a deadline must look at the clock itself.
        """
        _clock_gettime(CLOCK_MONOTONIC, buffer.ctypes.data)
        return buffer[0] + buffer[1] * 1e-9

elif HAVE_NUMBA:  # pragma: no cover - other systems: through the interpreter (about 1 us a call)

    @_numba.njit(cache=True)
    def monotonic(buffer) -> float:  # type: ignore[misc]
        """``time.perf_counter()`` from compiled code (through object mode; ``buffer`` unused)."""
        with _numba.objmode(now="float64"):
            now = time.perf_counter()
        return now

else:  # pragma: no cover
    monotonic = _monotonic_py  # type: ignore[assignment]
    monotonic.py_func = _monotonic_py  # type: ignore[attr-defined]


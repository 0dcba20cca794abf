"""Optional numba compilation with a pure-Python fallback.

The fast engines (2048 bitboard AI, sliding-puzzle IDA* and pattern databases) decorate their
inner loops with :func:`njit`. With numba installed the loops compile to machine code (cached on
disk); without it, or with the environment variable ``TILELAB_NO_JIT=1``, the very same functions
run as plain Python -- slower, same answers. Tests run both ways.
"""

from __future__ import annotations

import os
from typing import Any, Callable

try:  # pragma: no cover - exercised by whichever way the environment is set up
    if os.environ.get("TILELAB_NO_JIT", "") not in ("", "0"):
        raise ImportError("TILELAB_NO_JIT is set")
    import numba as _numba

    HAVE_NUMBA = True
except ImportError:  # pragma: no cover
    _numba = None
    HAVE_NUMBA = False


def njit(*args: Any, **kwargs: Any) -> Callable:
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

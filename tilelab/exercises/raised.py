"""What a check tells a student whose answer crashed: the error, and the line of their own code that raised it."""

from __future__ import annotations

import sysconfig
import traceback
from pathlib import Path

__all__ = ["raised_text"]

#: Code that is not the student's: tilelab itself, Python's standard library and installed packages.
_NOT_THEIRS = tuple({Path(__file__).resolve().parents[1],
                     *(Path(sysconfig.get_paths()[k]).resolve() for k in ("stdlib", "purelib", "platlib"))})
#: Sources of compiled extensions (Cython): numpy's frames name them relative to numpy, never the student's.
_COMPILED = (".pyx", ".pxd", ".pxi")


def _theirs(filename: str) -> bool:
    """Whether ``filename`` holds the student's code (a notebook cell, a script of theirs, a doctest)."""
    if filename.startswith("<"):
        return not filename.startswith("<frozen")  # <frozen ...>: Python's own start-up code
    if filename.endswith(_COMPILED):
        return False
    try:
        path = Path(filename).resolve()
    except (OSError, ValueError):
        return True
    return not any(path.is_relative_to(folder) for folder in _NOT_THEIRS)


def raised_text(exc: BaseException) -> str:
    """``Type: message``, then the line of the student's own code where it happened (the last such line).

    >>> def answer(board):
    ...     return board[9]
    >>> try:
    ...     answer([1, 2])
    ... except IndexError as exc:
    ...     raised_text(exc)
    'IndexError: list index out of range (line 2: return board[9])'
    """
    text = traceback.format_exception_only(type(exc), exc)[-1].strip()
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if _theirs(f.filename)]
    if not frames:
        return text
    last = frames[-1]
    line = (last.line or "").strip()
    return f"{text} (line {last.lineno}{': ' + line if line else ''})"

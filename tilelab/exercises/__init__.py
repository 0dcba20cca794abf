"""Self-checking exercises: one pattern for every lesson.

A lesson asks the student to write a function, then calls ``check(name, function)``. The checker
runs it against the package's reference on many cases (often every case) and shows the first
counterexample, or a green "passed". A checker never raises for a wrong or crashing answer: it
reports it, so a lesson notebook always runs top to bottom.

An answer must be the student's own work: each checker names the package functions that do the
exercise's job (the readable one, its fast twin, any reference), and an answer that calls one of them
does not pass ("this calls tilelab's slide_row: write your own"). tilelab's own tests check the
checkers with known-good answers inside :func:`allow_package_calls`.

Every result looks the same: a green or red box with a short message (at most
:data:`MESSAGE_LIMIT` characters) and, when the checker has one, the smallest counterexample drawn
as an aligned monospace picture.

>>> from tilelab.exercises import Result, first_counterexample
>>> first_counterexample("double", lambda x: 2 * x, lambda x: x + x, [1, 2, 3])
[PASSED] double: passed on all 3 cases
>>> r = first_counterexample("double", lambda x: x * x, lambda x: x + x, [0, 2, 3])
>>> r.passed, r.counterexample
(False, 3)
"""

from __future__ import annotations

import contextlib
import functools
import html
import importlib
import os
import sys
import traceback
import types
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Sequence

__all__ = [
    "MESSAGE_LIMIT", "Result", "allow_package_calls", "check", "checker", "first_counterexample",
    "list_exercises", "package_calls", "report", "report_json", "reset_results", "results",
]

#: A check's message stays short enough to read at a glance (the picture comes on top of it).
MESSAGE_LIMIT = 300

# Modules that register checkers; imported on first use so that `check` finds every exercise.
_LESSON_MODULES = (
    "tilelab.exercises.start",
    "tilelab.exercises.game2048",
    "tilelab.exercises.game2048_ai",
    "tilelab.exercises.game2048_learning",
    "tilelab.exercises.sliding",
    "tilelab.exercises.solvers",
    "tilelab.exercises.match3",
    "tilelab.exercises.match3_specials",
)

_CHECKERS: dict[str, Callable[..., "Result"]] = {}

# For each exercise, the package functions that do its job ("module:name" or the objects themselves).
_FORBIDDEN: dict[str, tuple[Any, ...]] = {}

# >0 inside ``allow_package_calls()`` (tilelab's own tests check the checkers with package answers).
_ALLOW_PACKAGE_CALLS = 0

# The latest result of every exercise checked in this kernel (for ``report`` and teachers' grading).
_RESULTS: dict[str, "Result"] = {}


@dataclass(frozen=True)
class Result:
    """What a checker found: passed or not, a short message, the first counterexample and its picture."""

    name: str
    passed: bool
    message: str
    counterexample: Any = None
    picture: str | None = None  #: the counterexample drawn in monospace (a board, a row), or None

    def __post_init__(self) -> None:
        if len(self.message) > MESSAGE_LIMIT:  # a safety net: checkers keep their messages short
            object.__setattr__(self, "message", self.message[: MESSAGE_LIMIT - 1].rstrip() + "…")

    def __bool__(self) -> bool:
        return self.passed

    def __str__(self) -> str:
        mark = "PASSED" if self.passed else "NOT YET"
        text = f"[{mark}] {self.name}: {self.message}"
        return f"{text}\n{self.picture}" if self.picture else text

    __repr__ = __str__

    def _repr_html_(self) -> str:
        colour, background, mark = (
            ("#1b7f3b", "#eef7f0", "&#10004; passed") if self.passed else ("#b3261e", "#fbeeed", "&#10008; not yet")
        )
        body = html.escape(self.message).replace("\n", "<br>")
        picture = (
            f'<pre style="font-family:monospace;line-height:1.25;margin:6px 0 0 0;background:transparent">'
            f"{html.escape(self.picture)}</pre>" if self.picture else ""
        )
        return (
            f'<div style="border-left:6px solid {colour};background:{background};padding:6px 10px;'
            f'margin:4px 0;font-family:sans-serif;color:#1f1f1f"><b style="color:{colour}">{mark}</b> '
            f"<code>{html.escape(self.name)}</code><br>{body}{picture}</div>"
        )


def checker(
    name: str, *, forbid: Sequence[Any] = ()
) -> Callable[[Callable[..., Result]], Callable[..., Result]]:
    """Register ``func`` as the checker for exercise ``name`` (used by the lesson modules).

    ``forbid`` names the package functions that do the exercise's job, as ``"module:name"`` strings
    (resolved when first needed) or the functions themselves: an answer that calls one does not pass.
    """

    def register(func: Callable[..., Result]) -> Callable[..., Result]:
        if name in _CHECKERS and _CHECKERS[name] is not func:
            raise ValueError(f"two checkers registered for exercise {name!r}")
        _CHECKERS[name] = func
        _FORBIDDEN[name] = tuple(forbid)
        return func

    return register


def _load_all() -> None:
    for module in _LESSON_MODULES:
        importlib.import_module(module)


def list_exercises() -> list[str]:
    """Names of every exercise that ``check`` knows."""
    _load_all()
    return sorted(_CHECKERS)


def check(name: str, answer: Any, *args: Any, **kwargs: Any) -> Result:
    """Check the student's ``answer`` for exercise ``name`` and return a :class:`Result`.

    An answer that calls a package function doing the exercise's job does not pass:

    >>> from tilelab.game2048 import slide_row
    >>> check("2048.row_score", lambda row: slide_row(row).score)  # doctest: +ELLIPSIS
    [NOT YET] 2048.row_score: this calls tilelab's slide_row: write your own ...
    """
    _load_all()
    if name not in _CHECKERS:
        known = ", ".join(sorted(_CHECKERS)) or "none"
        raise ValueError(f"no exercise called {name!r}; known exercises: {known}")
    forbidden = _resolve(_FORBIDDEN.get(name, ()))
    called = None if _ALLOW_PACKAGE_CALLS else _static_calls(answer, forbidden)
    if called is not None:
        result = _delegated(name, called)
    else:
        try:
            with _watch(forbidden) as seen:
                result = _CHECKERS[name](answer, *args, **kwargs)
        except Exception as exc:  # the student's code crashed: report it, do not break the notebook
            tb = traceback.format_exception_only(type(exc), exc)[-1].strip()
            result = Result(name, False, f"your code raised {tb}")
        if seen:
            result = _delegated(name, seen[0])
    _RESULTS.pop(name, None)  # latest result last, so the report follows the order of work
    _RESULTS[name] = result
    return result


def _delegated(name: str, function: Any) -> Result:
    label = getattr(function, "__name__", "a package function")
    return Result(
        name, False,
        f"this calls tilelab's {label}: write your own version (building it is the exercise). "
        "Other package functions are fine.",
    )


@contextlib.contextmanager
def allow_package_calls() -> Iterator[None]:
    """Let answers call the package's own functions (for tilelab's tests of the checkers).

    >>> from tilelab.game2048 import slide_row
    >>> with allow_package_calls():
    ...     check("2048.row_score", lambda row: slide_row(row).score).passed
    True
    """
    global _ALLOW_PACKAGE_CALLS
    _ALLOW_PACKAGE_CALLS += 1
    try:
        yield
    finally:
        _ALLOW_PACKAGE_CALLS -= 1


def package_calls(name: str) -> list[str]:
    """The package functions an answer to exercise ``name`` may not call (``module.name``).

    >>> package_calls("2048.row_score")[:1]
    ['tilelab.game2048.rules.slide_row']
    """
    _load_all()
    if name not in _CHECKERS:
        raise ValueError(f"no exercise called {name!r}")
    return [f"{getattr(f, '__module__', '?')}.{getattr(f, '__name__', '?')}" for f in _resolve(_FORBIDDEN[name])]


@functools.lru_cache(maxsize=None)
def _resolve_one(spec: str) -> tuple[Any, ...]:
    module, _, attr = spec.partition(":")
    obj = getattr(importlib.import_module(module), attr)
    return (obj,)


def _resolve(specs: Sequence[Any]) -> tuple[Any, ...]:
    out: list[Any] = []
    for spec in specs:
        out.extend(_resolve_one(spec) if isinstance(spec, str) else (spec,))
    return tuple(out)


def _python_function(obj: Any) -> types.FunctionType | None:
    """The plain Python function behind ``obj`` (a function, a numba dispatcher's py_func, a method)."""
    for candidate in (obj, getattr(obj, "py_func", None), getattr(obj, "__func__", None),
                      getattr(obj, "__wrapped__", None)):
        if isinstance(candidate, types.FunctionType):
            return candidate
    return None


def _is_forbidden(value: Any, forbidden: tuple[Any, ...]) -> Any:
    """The forbidden function ``value`` is (or wraps), else None."""
    try:
        hit = any(value is f for f in forbidden)
    except Exception:
        return None
    if hit:
        return value
    if isinstance(value, functools.partial):
        return _is_forbidden(value.func, forbidden)
    py = _python_function(value)
    if py is not None:
        for f in forbidden:
            if py is f or py is _python_function(f):
                return f
    return None


_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _student_code(code: types.CodeType) -> bool:
    """True for code that is not tilelab's own (a notebook cell, a student's module)."""
    return not os.path.abspath(code.co_filename).startswith(_PACKAGE_DIR + os.sep)


def _static_calls(answer: Any, forbidden: tuple[Any, ...], depth: int = 0, seen: set | None = None) -> Any:
    """The first forbidden function the answer's code names (directly or through its own helpers)."""
    if not forbidden or depth > 6:
        return None
    seen = set() if seen is None else seen
    if id(answer) in seen:
        return None
    seen.add(id(answer))
    hit = _is_forbidden(answer, forbidden)
    if hit is not None:
        return hit
    if isinstance(answer, functools.partial):
        return _static_calls(answer.func, forbidden, depth + 1, seen)
    if isinstance(answer, type):
        for value in vars(answer).values():
            value = getattr(value, "__func__", value)
            if isinstance(value, (types.FunctionType, property)):
                for f in (value.fget, value.fset) if isinstance(value, property) else (value,):
                    if f is not None and (found := _static_calls(f, forbidden, depth + 1, seen)) is not None:
                        return found
        return None
    function = _python_function(answer) or _python_function(getattr(answer, "__call__", None))
    if function is None or not _student_code(function.__code__):
        return None
    scope = dict(vars(__import__("builtins")))
    scope.update(function.__globals__)
    for cell in function.__closure__ or ():
        try:
            contents = cell.cell_contents
        except ValueError:
            continue
        if (found := _static_calls(contents, forbidden, depth + 1, seen)) is not None:
            return found
    for code in _codes(function.__code__):
        for word in code.co_names:
            if word in scope:
                value = scope[word]
                if (found := _is_forbidden(value, forbidden)) is not None:
                    return found
                if isinstance(value, types.ModuleType) and value.__name__.startswith("tilelab"):
                    for f in forbidden:  # tilelab.game2048.slide_row(...) through a module
                        if getattr(f, "__name__", None) in code.co_names:
                            return f
                if callable(value) and not isinstance(value, types.ModuleType):
                    if (found := _static_calls(value, forbidden, depth + 1, seen)) is not None:
                        return found
    return None


def _codes(code: types.CodeType) -> Iterator[types.CodeType]:
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _codes(const)


@contextlib.contextmanager
def _watch(forbidden: tuple[Any, ...]) -> Iterator[list[Any]]:
    """Record every call of a forbidden function made straight from the student's code while checking."""
    seen: list[Any] = []
    codes = {}
    for f in forbidden:
        py = _python_function(f)
        if py is not None:
            codes[py.__code__] = f
    if not codes or _ALLOW_PACKAGE_CALLS:
        yield seen
        return

    def hook(frame: types.FrameType, event: str, arg: Any) -> None:
        if event == "call" and frame.f_code in codes and not seen:
            caller = frame.f_back
            if caller is not None and _student_code(caller.f_code):
                seen.append(codes[frame.f_code])

    previous = sys.getprofile()
    sys.setprofile(hook)
    try:
        yield seen
    finally:
        sys.setprofile(previous)


def results() -> dict[str, Result]:
    """The latest :class:`Result` of every exercise checked in this kernel, oldest first.

    >>> reset_results(); _ = check("count_empty", lambda rows: 0)
    >>> {name: r.passed for name, r in results().items()}
    {'count_empty': False}
    """
    return dict(_RESULTS)


def reset_results() -> None:
    """Forget every recorded result (a fresh start for :func:`report`)."""
    _RESULTS.clear()


def report_json() -> str:
    """The recorded results as JSON: a list of ``{"exercise", "passed", "message"}`` (for grading).

    >>> reset_results(); _ = check("count_empty", lambda rows: sum(r.count(0) for r in rows))
    >>> report_json()  # doctest: +ELLIPSIS
    '[{"exercise": "count_empty", "passed": true, "message": "passed on all ... cases"}]'
    """
    import json

    rows = [{"exercise": r.name, "passed": r.passed, "message": r.message} for r in _RESULTS.values()]
    return json.dumps(rows, ensure_ascii=False)


def _report_text(rows: list[Result]) -> str:
    passed = sum(r.passed for r in rows)
    lines = [f"Exercises checked in this notebook: {passed} of {len(rows)} passed"]
    width = max((len(r.name) for r in rows), default=0)
    for r in rows:
        first = r.message.splitlines()[0] if r.message else ""
        lines.append(f"  {'PASSED ' if r.passed else 'NOT YET'}  {r.name:<{width}}  {first}")
    if not rows:
        lines.append("  (none yet: run the exercise cells first)")
    return "\n".join(lines)


def _report_html(rows: list[Result]) -> str:
    passed = sum(r.passed for r in rows)
    body = "".join(
        f'<tr><td style="color:{"#1b7f3b" if r.passed else "#b3261e"};padding:2px 8px">'
        f'{"&#10004; passed" if r.passed else "&#10008; not yet"}</td>'
        f"<td style=\"padding:2px 8px\"><code>{html.escape(r.name)}</code></td>"
        f'<td style="padding:2px 8px">{html.escape(r.message.splitlines()[0] if r.message else "")}</td></tr>'
        for r in rows
    ) or '<tr><td colspan="3">none yet: run the exercise cells first</td></tr>'
    return (
        f'<div style="font-family:sans-serif"><b>Exercises checked in this notebook: {passed} of '
        f"{len(rows)} passed</b><table>{body}</table></div>"
    )


def report() -> None:
    """Show which exercises were checked in this kernel and whether they passed.

    In a notebook the summary is a small HTML table; elsewhere it is printed as text.

    >>> reset_results(); _ = check("count_empty", lambda rows: 0); report()  # doctest: +ELLIPSIS
    Exercises checked in this notebook: 0 of 1 passed
      NOT YET  count_empty  on ... you returned 0, expected ...
    """
    rows = list(_RESULTS.values())
    if _in_notebook():
        from IPython.display import HTML, display

        display(HTML(_report_html(rows)))
    else:
        print(_report_text(rows))


def _in_notebook() -> bool:
    """True inside a Jupyter kernel (a front end that shows HTML)."""
    import sys

    if "IPython" not in sys.modules:
        return False
    from IPython import get_ipython

    shell = get_ipython()
    return shell is not None and type(shell).__name__ == "ZMQInteractiveShell"


def first_counterexample(
    name: str,
    answer: Callable[..., Any],
    reference: Callable[..., Any],
    cases: Iterable[Any],
    *,
    star: bool = False,
    equal: Callable[[Any, Any], bool] | None = None,
    show: Callable[[Any], str] = repr,
) -> Result:
    """Run ``answer`` and ``reference`` on every case; report the first case where they differ.

    ``star=True`` calls ``f(*case)`` instead of ``f(case)``; ``equal`` compares the two answers
    (default ``==``); ``show`` formats a case: a one-line text goes into the message, a text of
    several lines (a board) becomes the result's monospace picture. Put the smallest cases first.
    """
    same = equal or (lambda a, b: a == b)
    pictures: dict[int, str] = {}

    def on(case: Any) -> str:
        shown = show(case).strip("\n")
        if "\n" in shown:
            pictures[id(case)] = shown
            return "on the board below "
        return f"on {shown} "

    n = 0
    for case in cases:
        n += 1
        want = reference(*case) if star else reference(case)
        try:
            got = answer(*case) if star else answer(case)
        except Exception as exc:
            err = traceback.format_exception_only(type(exc), exc)[-1].strip()
            return Result(name, False, f"{on(case)}your code raised {err}", case, pictures.get(id(case)))
        if not same(got, want):
            return Result(
                name, False, f"{on(case)}you returned {got!r}, expected {want!r}", case, pictures.get(id(case))
            )
    return Result(name, True, f"passed on all {n} cases")

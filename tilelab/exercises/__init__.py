"""Self-checking exercises: one pattern for every lesson.

A lesson asks the student to write a function, then calls ``check(name, function)``. The checker
runs it against the package's reference on many cases (often every case) and shows the first
counterexample, or a green "passed". A checker never raises for a wrong or crashing answer: it
reports it, so a lesson notebook always runs top to bottom.

>>> from tilelab.exercises import Result, first_counterexample
>>> first_counterexample("double", lambda x: 2 * x, lambda x: x + x, [1, 2, 3])
Result(name='double', passed=True, message='passed on all 3 cases', counterexample=None)
>>> r = first_counterexample("double", lambda x: x * x, lambda x: x + x, [0, 2, 3])
>>> r.passed, r.counterexample
(False, 3)
"""

from __future__ import annotations

import html
import importlib
import traceback
from dataclasses import dataclass
from typing import Any, Callable, Iterable

__all__ = [
    "Result", "check", "checker", "first_counterexample", "list_exercises", "report", "report_json",
    "reset_results", "results",
]

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

# The latest result of every exercise checked in this kernel (for ``report`` and teachers' grading).
_RESULTS: dict[str, "Result"] = {}


@dataclass(frozen=True)
class Result:
    """What a checker found: passed or not, a message, and the first counterexample."""

    name: str
    passed: bool
    message: str
    counterexample: Any = None

    def __bool__(self) -> bool:
        return self.passed

    def __str__(self) -> str:
        mark = "PASSED" if self.passed else "NOT YET"
        return f"[{mark}] {self.name}: {self.message}"

    def _repr_html_(self) -> str:
        colour, mark = ("#1b7f3b", "&#10004; passed") if self.passed else ("#b3261e", "&#10008; not yet")
        body = html.escape(self.message).replace("\n", "<br>")
        return (
            f'<div style="border-left:6px solid {colour};padding:6px 10px;margin:4px 0;'
            f'font-family:sans-serif"><b style="color:{colour}">{mark}</b> '
            f"<code>{html.escape(self.name)}</code><br>{body}</div>"
        )


def checker(name: str) -> Callable[[Callable[..., Result]], Callable[..., Result]]:
    """Register ``func`` as the checker for exercise ``name`` (used by the lesson modules)."""

    def register(func: Callable[..., Result]) -> Callable[..., Result]:
        if name in _CHECKERS and _CHECKERS[name] is not func:
            raise ValueError(f"two checkers registered for exercise {name!r}")
        _CHECKERS[name] = func
        return func

    return register


def _load_all() -> None:
    for module in _LESSON_MODULES:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:  # a lesson module that does not exist yet
            if exc.name != module:
                raise


def list_exercises() -> list[str]:
    """Names of every exercise that ``check`` knows."""
    _load_all()
    return sorted(_CHECKERS)


def check(name: str, answer: Any, *args: Any, **kwargs: Any) -> Result:
    """Check the student's ``answer`` for exercise ``name`` and return a :class:`Result`."""
    _load_all()
    if name not in _CHECKERS:
        known = ", ".join(sorted(_CHECKERS)) or "none"
        raise ValueError(f"no exercise called {name!r}; known exercises: {known}")
    try:
        result = _CHECKERS[name](answer, *args, **kwargs)
    except Exception as exc:  # the student's code crashed: report it, do not break the notebook
        tb = traceback.format_exception_only(type(exc), exc)[-1].strip()
        result = Result(name, False, f"your code raised {tb}")
    _RESULTS.pop(name, None)  # latest result last, so the report follows the order of work
    _RESULTS[name] = result
    return result


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
    (default ``==``); ``show`` formats a case for the message.
    """
    same = equal or (lambda a, b: a == b)

    def on(case: Any) -> str:
        shown = show(case).strip("\n")
        return f"on\n{shown}\n" if "\n" in shown else f"on {shown} "

    n = 0
    for case in cases:
        n += 1
        want = reference(*case) if star else reference(case)
        try:
            got = answer(*case) if star else answer(case)
        except Exception as exc:
            err = traceback.format_exception_only(type(exc), exc)[-1].strip()
            return Result(name, False, f"{on(case)}your code raised {err}", case)
        if not same(got, want):
            return Result(
                name, False, f"{on(case)}you returned {got!r}, expected {want!r}", case
            )
    return Result(name, True, f"passed on all {n} cases")

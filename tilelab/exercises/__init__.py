"""Self-checking exercises: one pattern for every lesson.

A lesson asks the student to write a function, then calls ``check(name, function)``. The checker
runs it against the package's reference on many cases (often every case) and shows the first
counterexample, or a green "passed". A checker never raises for a wrong or crashing answer: it
reports it, so a lesson notebook always runs top to bottom.

An answer must be the student's own work. Each exercise has an *allow-list* (see
:mod:`tilelab.exercises.allow`): building and reading boards, numpy, the helpers the exercise offers.
While the checker runs, a watch (:mod:`tilelab.exercises.watch`) sees every tilelab function the
answer's code calls, directly or through its own helpers; any that is not on the list (public or
private, a method reached through an object, a compiled twin) is delegation, and the answer does
not pass. Naming a class is not calling its methods. An answer that switches the watch off does not
pass either, and every check stops after a time limit (:data:`TIME_LIMIT` seconds unless the
exercise sets its own) with a kind "took longer than" result. tilelab's own tests check the checkers
with the package's answers inside :func:`allow_package_calls`.

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
import decimal
import functools
import html
import importlib
import numbers
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Sequence

from tilelab.exercises.allow import describe, resolve
from tilelab.exercises.code_kinds import TILELAB, code_of, kind_of, qualified
from tilelab.exercises.watch import TIME_LIMIT, Watch
from tilelab.exercises.raised import raised_text

__all__ = [
    "MESSAGE_LIMIT", "TIME_LIMIT", "Result", "allowed_calls", "allowed_code", "as_real",
    "case_seed", "cases_cache", "check", "checker",
    "counting", "equals_anything", "first_counterexample", "hidden_cases", "list_exercises", "package_calls", "report", "report_json", "reset_results",
    "results", "side_by_side", "time_limit",
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
    "tilelab.exercises.sliding_bfs",
    "tilelab.exercises.solvers",
    "tilelab.exercises.blank_route",
    "tilelab.exercises.match3",
    "tilelab.exercises.match3_specials",
)


@dataclass(frozen=True)
class _Exercise:
    func: Callable[..., "Result"]
    allow: tuple[Any, ...]
    seconds: float | None
    prepare: Callable[[], Any] | None = None
    job: tuple[str, ...] = ()


_EXERCISES: dict[str, _Exercise] = {}
_ALLOWED: dict[str, frozenset] = {}  # resolved allow-lists, by exercise

# >0 inside ``allow_package_calls()`` (tilelab's own tests check the checkers with package answers).
_ALLOW_PACKAGE_CALLS = 0

# The latest result of every exercise checked in this kernel (for ``report`` and teachers' grading).
_RESULTS: dict[str, "Result"] = {}

# Seconds every check may take while ``time_limit`` is in force (None: each exercise's own limit).
_LIMIT: list[float] = []

# The watch of the check running now (innermost last): checkers count calls through it (see ``counting``).
_ACTIVE: list[Watch] = []
#: The case a running check last handed the answer, and how to show it: named in the message if time runs out.
_TRYING: list[tuple[Any, Callable[[Any], str]]] = []

# Seeds of the hidden cases a grader draws (innermost last; see ``hidden_cases``).
_HIDDEN: list[int] = []


@dataclass(frozen=True)
class Result:
    """What a checker found: passed or not, a short message, the first counterexample and its picture.

    ``reason`` says why an answer did not pass when it is not a wrong value: ``"raised"``,
    ``"delegated"`` (it called a tilelab function the exercise does not allow; ``counterexample`` is
    that function's ``module.name``), ``"switched-off"`` (it switched the watch off) or ``"too-slow"``.
    """

    name: str
    passed: bool
    message: str
    counterexample: Any = None
    picture: str | None = None  #: the counterexample drawn in monospace (a board, a row), or None
    reason: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if len(self.message) > MESSAGE_LIMIT:  # a safety net: checkers keep their messages short
            object.__setattr__(self, "message", self.message[: MESSAGE_LIMIT - 1].rstrip() + "…")
        if self.picture is not None:
            object.__setattr__(self, "picture", self.picture.strip("\n") or None)

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
    name: str, *, allow: Sequence[Any] = (), seconds: float | None = TIME_LIMIT,
    prepare: Callable[[], Any] | None = None, job: Sequence[str] = (),
) -> Callable[[Callable[..., Result]], Callable[..., Result]]:
    """Register ``func`` as the checker for exercise ``name`` (used by the lesson modules).

    ``allow`` lists what the answer may call (see :mod:`tilelab.exercises.allow`); any other tilelab
    function it calls is delegation. ``seconds`` bounds the check once its cases are ready (None: no
    limit, for answers that are data, not code, whose checks the caller sizes). ``prepare`` builds and
    caches the checker's cases before the watch starts (the package's own work, bounded by itself).
    ``job`` names the package's own versions of what the exercise asks for, ``"module:name"``, the one
    with the answer's signature first (see :func:`package_calls`; refusing needs no list: the allow-list
    refuses every other tilelab function).
    """

    def register(func: Callable[..., Result]) -> Callable[..., Result]:
        if name in _EXERCISES and _EXERCISES[name].func is not func:
            raise ValueError(f"two checkers registered for exercise {name!r}")
        _EXERCISES[name] = _Exercise(func, tuple(allow), seconds, prepare, tuple(job))
        return func

    return register


def _load_all() -> None:
    for module in _LESSON_MODULES:
        importlib.import_module(module)


def list_exercises() -> list[str]:
    """Names of every exercise that ``check`` knows."""
    _load_all()
    return sorted(_EXERCISES)


def _exercise(name: str) -> _Exercise:
    _load_all()
    if not isinstance(name, str) or name not in _EXERCISES:
        known = ", ".join(sorted(_EXERCISES)) or "none"
        raise ValueError(f"no exercise called {name!r}; known exercises: {known}")
    return _EXERCISES[name]


def _allowed(name: str) -> frozenset:
    if name not in _ALLOWED:
        _ALLOWED[name] = resolve(_EXERCISES[name].allow)
    return _ALLOWED[name]


def allowed_code(name: str) -> frozenset:
    """The code objects of tilelab's that an answer to exercise ``name`` may call (the grader reads them too)."""
    _exercise(name)
    return _allowed(name)


def allowed_calls(name: str) -> str:
    """What an answer to exercise ``name`` may call from tilelab, in a few words.

    >>> allowed_calls("sliding.is_solvable")
    'Board (build it, read it), inversions, numpy'
    """
    return describe(_exercise(name).allow)


def package_calls(name: str) -> list[str]:
    """The package's own versions of what exercise ``name`` asks for, as ``module.name`` (an answer calling one is
    refused, like any tilelab function off the exercise's allow-list); empty when the package has none.

    >>> package_calls("sliding.inversions")
    ['tilelab.sliding.inversions']
    """
    return [spec.replace(":", ".") for spec in _exercise(name).job]


def check(name: str, answer: Any, *args: Any, **kwargs: Any) -> Result:
    """Check the student's ``answer`` for exercise ``name`` and return a :class:`Result` (truthy when passed).

    An answer that calls a tilelab function the exercise does not allow does not pass:

    >>> from tilelab.game2048 import slide_row
    >>> check("2048.row_score", lambda row: slide_row(row).score)  # doctest: +ELLIPSIS
    [NOT YET] 2048.row_score: this calls tilelab's slide_row, which does this exercise's job: leave that call...
    """
    exercise = _exercise(name)
    if exercise.prepare is not None:
        exercise.prepare()
    judge = not _ALLOW_PACKAGE_CALLS
    seconds = _LIMIT[-1] if _LIMIT else exercise.seconds
    watch = Watch(_allowed(name) if judge else frozenset(), seconds, judge=judge)
    result: Result | None = None
    handed = _tilelab_answer(answer, watch.allowed) if judge else None
    if handed is not None:  # the answer *is* a function of tilelab's: the checker would call it from tilelab
        return _record(name, _delegated(name, handed, exercise.allow))
    _ACTIVE.append(watch)
    _TRYING.clear()
    try:
        with watch:
            try:
                result = exercise.func(answer, *args, **kwargs)
            except Exception as exc:  # the student's code crashed: report it, do not break the notebook
                tb = raised_text(exc)
                result = Result(name, False, f"your code raised {tb}", reason="raised")
    finally:
        _ACTIVE.remove(watch)
    if watch.switched_off is not None:
        result = _switched_off(name, watch.switched_off)
    elif watch.delegated is not None:
        result = _delegated(name, watch.delegated, exercise.allow)
    elif watch.timed_out:
        result = _too_slow(name, watch.seconds, _TRYING[-1] if _TRYING else None)
    elif not isinstance(result, Result):  # pragma: no cover - a checker always returns one
        result = Result(name, False, "the check did not finish", reason="raised")
    return _record(name, result)


def _record(name: str, result: Result) -> Result:
    _RESULTS.pop(name, None)  # latest result last, so the report follows the order of work
    _RESULTS[name] = result
    return result


def _tilelab_answer(answer: Any, allowed: frozenset) -> str | None:
    """``module.name`` of the tilelab function an answer is (or wraps, or calls as an object), if not allowed."""
    if not callable(answer) or isinstance(answer, type):
        return None
    code = code_of(answer) or code_of(getattr(type(answer), "__call__", None))
    if code is None or kind_of(code) != TILELAB or code in allowed:
        return None
    return qualified(code)


def _delegated(name: str, function: str, allow: Sequence[Any]) -> Result:
    short = function.rsplit(".", 1)[-1] if "." in function else function
    owner = function.rsplit(".", 2)
    label = f"{owner[-2]}.{short}" if len(owner) == 3 and owner[-2][:1].isupper() else short
    offered = describe(allow)
    job = short in {spec.rsplit(":", 1)[-1] for spec in _exercise(name).job}  # the package's answer to this exercise
    why = "which does this exercise's job" if job else "which this exercise does not offer"
    return Result(
        name, False,
        f"this calls tilelab's {label}, {why}: leave that call out and write those steps in your own code. "
        + (f"Here you may use {offered}." if offered else "Here you may use numpy and plain Python."),
        function, reason="delegated",
    )


def _switched_off(name: str, what: str) -> Result:
    return Result(
        name, False,
        f"your code calls {what}, which switches off (or escapes) the check's watch on what it calls, so the "
        "check cannot tell the work is yours. Take that line out and run the cell again; to debug, call your "
        "function directly, outside check().", what, reason="switched-off",
    )


def _too_slow(name: str, seconds: float | None, trying: tuple[Any, Callable[[Any], str]] | None = None) -> Result:
    limit = f"{seconds:g} s" if seconds is not None else "its time"
    where, picture = "", None
    if trying is not None:  # the case the answer was working on when the time ran out
        text, picture = _shown(*trying)
        where = f" while your code worked on {text}"
    return Result(
        name, False,
        f"the check took longer than {limit}, so it stopped{where}. Does a loop never end, or a search visit far "
        "more than it needs? Try your function on one small case first, then run the check again.",
        seconds, picture, reason="too-slow",
    )


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Give every check inside the block ``seconds`` instead of its exercise's own limit (a slow machine, a test).

    >>> import time
    >>> with time_limit(0.5):
    ...     check("count_empty", lambda rows: time.sleep(60)).reason
    'too-slow'
    """
    if not seconds > 0:
        raise ValueError(f"seconds must be a positive number, got {seconds!r}")
    _LIMIT.append(float(seconds))
    try:
        yield
    finally:
        _LIMIT.pop()


def case_seed(seed: int) -> int | list[int]:
    """The seed a checker draws its random cases from: its own ``seed``, mixed with the grader's inside
    :func:`hidden_cases` (for ``numpy.random.default_rng``).

    >>> case_seed(7)
    7
    >>> with hidden_cases(12345):
    ...     case_seed(7)
    [7, 12345]
    """
    return [seed, _HIDDEN[-1]] if _HIDDEN else seed


def cases_cache(maxsize: int = 1) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Cache a case set that draws from :func:`case_seed`: the public sets (``maxsize`` argument lists) for
    good, so the lessons' self-checks stay fast, and inside :func:`hidden_cases` the set of the current
    hidden seed (one at a time, so memory stays bounded). ``cache_clear()`` empties both.

    >>> built = []
    >>> @cases_cache()
    ... def boards():
    ...     built.append(case_seed(1))
    ...     return len(built)
    >>> boards(), boards()
    (1, 1)
    >>> with hidden_cases(5):
    ...     boards(), boards()
    (2, 2)
    >>> boards(), built
    (1, [1, [1, 5]])
    """

    def wrap(build: Callable[..., Any]) -> Callable[..., Any]:
        public = functools.lru_cache(maxsize=maxsize)(build)

        @functools.lru_cache(maxsize=1)
        def hidden(seed: int, *args: Any, **kwargs: Any) -> Any:
            return build(*args, **kwargs)

        @functools.wraps(build)
        def cached(*args: Any, **kwargs: Any) -> Any:
            return hidden(_HIDDEN[-1], *args, **kwargs) if _HIDDEN else public(*args, **kwargs)

        def cache_clear() -> None:
            public.cache_clear()
            hidden.cache_clear()

        cached.cache_clear = cache_clear  # type: ignore[attr-defined]
        return cached

    return wrap


@contextlib.contextmanager
def hidden_cases(seed: int) -> Iterator[None]:
    """Checks inside the block draw their random cases from ``seed`` too (the grader's, drawn at grading time:
    cases nobody saw before; the grader refuses any answer that uses this)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative int, got {seed!r}")
    _HIDDEN.append(seed)
    try:
        yield
    finally:
        _HIDDEN.pop()


@contextlib.contextmanager
def counting(*functions: Any, record: bool = False) -> Iterator[dict[str, Any]]:
    """Count the answer's calls of some allowed tilelab functions while a check runs (for checkers).

    Yields a dict ``{"calls": n}`` that grows as the answer calls any of ``functions`` (the answer's
    own calls, not tilelab's calls inside them; a generator counts once, when it starts). With
    ``record=True`` it also lists each call's first argument under ``"args"``, in order. Outside a
    check nothing is counted.
    """
    if not _ACTIVE:
        yield {"calls": 0, "args": []} if record else {"calls": 0}
        return
    with _ACTIVE[-1].count(resolve(functions), record) as tally:
        yield tally


def as_real(value: Any) -> float | None:
    """``value`` as a float when it is a real number (int, float, Fraction, Decimal, numpy's), else None.

    >>> from fractions import Fraction
    >>> as_real(Fraction(1, 4)), as_real(True), as_real("0.25"), as_real(float("nan"))
    (0.25, None, None, None)
    """
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, decimal.Decimal)):
        return None
    if type(value).__module__ == "numpy" and type(value).__name__ == "bool_":  # pragma: no cover
        return None
    try:
        out = float(value)
    except (TypeError, ValueError, OverflowError, decimal.InvalidOperation):
        return None
    return None if out != out else out


_NOTHING = object()


def equals_anything(value: Any) -> bool:
    """True when ``value`` says it equals a brand-new object: an answer whose ``==`` is always true, not a value.

    >>> class Yes:
    ...     def __eq__(self, other): return True
    >>> equals_anything(Yes()), equals_anything(16), equals_anything([0, 2])
    (True, False, False)
    """
    try:
        said = value == _NOTHING
    except Exception:  # noqa: BLE001 - a value that cannot be compared equals nothing
        return False
    return said is True or (type(said).__module__ == "numpy" and type(said).__name__ == "bool_" and bool(said))


@contextlib.contextmanager
def allow_package_calls() -> Iterator[None]:
    """Let answers call the package's own functions (for tilelab's tests of the checkers; not exported).

    It changes only this kernel's self-check: a graded answer that names it (or any name of this module but
    ``check`` and its report) scores 0 (:mod:`tilelab.teach.grading.source` reads the code outside the kernel).

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


def side_by_side(*panels: tuple[str, str]) -> str:
    """Monospace pictures next to each other, each under its title (a check's picture of two or more boards).

    >>> print(side_by_side(("board", "0.\\n12"), ("yours", "..\\n12")))
    board  yours
    0.     ..
    12     12
    """
    blocks = [[title, *picture.splitlines()] for title, picture in panels]
    width = [max(len(line) for line in block) for block in blocks]
    height = max(len(block) for block in blocks)
    lines = []
    for i in range(height):
        cells = [(block[i] if i < len(block) else "").ljust(w) for block, w in zip(blocks, width)]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def _shown(case: Any, show: Callable[[Any], str]) -> tuple[str, str | None]:
    """How a message names a case: ``(text, None)`` for a one-line case, ``("the board below", picture)`` else."""
    shown = show(case).strip("\n")
    return ("the board below", shown) if "\n" in shown else (shown, None)


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
        text, picture = _shown(case, show)
        if picture is not None:
            pictures[id(case)] = picture
        return f"on {text} "

    n = 0
    for case in cases:
        n += 1
        want = reference(*case) if star else reference(case)
        _TRYING[:] = [(case, show)]
        try:
            got = answer(*case) if star else answer(case)
        except Exception as exc:
            err = raised_text(exc)
            return Result(name, False, f"{on(case)}your code raised {err}", case, pictures.get(id(case)), "raised")
        if equals_anything(got):
            return Result(name, False, f"{on(case)}you returned a {type(got).__name__} that says it equals anything: "
                          f"return the value itself (here {want!r})", case, pictures.get(id(case)))
        if not same(got, want):
            return Result(name, False, f"{on(case)}{_difference(got, want)}", case, pictures.get(id(case)))
    return Result(name, True, f"passed on all {n} cases")


def _set_text(items: set[Any] | frozenset[Any]) -> str:
    """A set in sorted order (by its text when its items do not compare), so two sets read side by side."""
    try:
        ordered = sorted(items)
    except TypeError:
        ordered = sorted(items, key=repr)
    return "{" + ", ".join(map(repr, ordered)) + "}" if items else "set()"


def _difference(got: Any, want: Any) -> str:
    """What a wrong answer returned and what was expected; for two sets, first what is extra and what is missing.

    >>> _difference({(0, 2), (0, 0), (0, 1), (1, 1)}, {(0, 1), (0, 0), (0, 2)})
    'you returned (1, 1) too many: {(0, 0), (0, 1), (0, 2), (1, 1)}, expected {(0, 0), (0, 1), (0, 2)}'
    >>> _difference(3, 4)
    'you returned 3, expected 4'
    """
    if not (isinstance(got, (set, frozenset)) and isinstance(want, (set, frozenset))):
        return f"you returned {got!r}, expected {want!r}"
    extra, missing = got - want, want - got
    said = [f"{_set_text(part)[1:-1]} {word}" for part, word in ((extra, "too many"), (missing, "missing"))
            if part and got & want]
    head = f"you returned {' and '.join(said)}: " if said else "you returned "
    return f"{head}{_set_text(got)}, expected {_set_text(want)}"

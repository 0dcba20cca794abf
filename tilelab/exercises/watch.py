"""The watch behind every self-check: what an answer calls, whether it switches the watch off, how long it takes.

:func:`tilelab.exercises.check` runs the checker (and so the student's answer) inside a :class:`Watch`.

**Delegation** is decided at run time, by what the answer calls. Code is sorted by where it lives:
*tilelab* (this package), *neutral* (the standard library, installed packages such as numpy, code
made by ``exec`` or ``dataclasses``, and the watch's own modules) and *the student's* (notebook cells,
doctests, a student's own files: everything else; :mod:`tilelab.exercises.code_kinds` sorts them). A call into tilelab counts when the nearest caller that is not
neutral is the student's code: the answer called it, directly, through its own helpers, or through
``map``, ``sorted``, ``functools`` and the like. Calls that tilelab makes inside tilelab (the
checker's reference, an allowed function's own helpers) do not count. Such a call is fine when the
function is on the exercise's allow-list and delegation otherwise: public or private, a method
reached through an object, a property, a compiled twin. Naming a class is not calling it.

Two ways to see the calls, the same verdicts:

- Python 3.12 and later (the browser edition too): :mod:`sys.monitoring`. A function's start is
  reported once and then switched off for code that never needs judging (neutral code, allowed
  functions, the student's functions once seen); CALL events in the student's own code (only there)
  show the callables that run without a Python frame: a numba-compiled kernel, an ``lru_cache`` hit.
  An answer costs about what it costs unwatched.
- Python 3.10 and 3.11: a profile hook (:func:`sys.setprofile`, and :func:`threading.setprofile` for
  threads the answer starts) on every call, which makes call-heavy Python 5-10 times slower. Compiled
  kernels and caches make no call event there, so the names each function of the student's that runs
  uses (its globals, its closure, the attributes it names on modules and classes it uses) are looked
  up once, and a kernel or cache of tilelab's it can reach that way is delegation.

**Switching the watch off** does not pass: calling ``sys.setprofile``, ``sys.settrace``, threading's
or :mod:`sys.monitoring`'s switches, :mod:`signal`'s, or starting another process or a raw thread.

**Time.** Every check has a limit (:data:`TIME_LIMIT` seconds unless an exercise sets its own; the
browser's limits are :data:`BROWSER_FACTOR` times longer). In CPython's main thread on Linux and macOS
a ``SIGALRM`` timer interrupts anything that runs Python code or sleeps (and rings again every quarter
second should the answer swallow it); on other systems a watchdog thread interrupts the main thread
the way Ctrl-C does. Where neither can (the browser: no signals, no threads; a check run from another
thread) the watch reads the clock as calls happen and, on 3.12 and later, at loop turns in the
student's code. What nothing in-process can cut short is one call into C that never returns to Python
(a ``time.sleep(3600)`` in the browser, a huge numpy operation): the check ends when that call does,
and reports the time it took.

What no in-process watch stops (``docs/grading.md`` says so too): an answer that reads the checker's frames
(``sys._getframe``), patches tilelab's modules, or calls C through ``ctypes``.

>>> import math
>>> w = Watch(allowed=frozenset(), seconds=5)
>>> with w:
...     _ = math.sqrt(2)
>>> w.delegated, w.switched_off, w.timed_out
(None, None, False)
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
import types
from typing import Any, Callable, Iterator, Iterable

from tilelab.exercises.code_kinds import (
    FILE_KINDS, IMPORTING, NEUTRAL, PLAIN_CALLABLES, RAW_THREADS, STUDENT, SUSPICIOUS, SWITCHES, SWITCH_CODES, TILELAB,
    kind_of_file, native_tilelab, qualified,
)

__all__ = ["BROWSER_FACTOR", "TIME_LIMIT", "TimeUp", "Watch"]

#: Seconds a check may take unless its exercise sets another limit.
TIME_LIMIT = 60.0
#: The browser kernel runs Python 5-30 times slower than CPython: its limits are this many times longer.
BROWSER_FACTOR = 10.0

_THIS_FILE = os.path.abspath(__file__)
IN_BROWSER = sys.platform == "emscripten"


class TimeUp(BaseException):
    """Raised into a check whose time is up (a BaseException, so ``except Exception`` does not swallow it)."""


class _Stop(BaseException):
    """Raised into the answer once the check's verdict is known (it called the package, or switched the watch off)."""


class Watch:
    """Watch one check: calls into tilelab that are not ``allowed``, the watch switched off, the clock.

    ``allowed`` holds the code objects of the tilelab functions the answer may call; ``judge=False``
    only times the check and counts (tilelab's own tests of the checkers with package answers).
    ``seconds=None`` sets no limit. After the ``with`` block: :attr:`delegated` (``module.name`` of the
    first tilelab function the answer called that it may not), :attr:`switched_off` (what it called to
    switch the watch off), :attr:`timed_out` and :attr:`elapsed`. A :class:`TimeUp`, or the stop raised
    into the answer once the verdict is known, is swallowed by the ``with`` block.
    """

    def __init__(self, allowed: Iterable[types.CodeType] = frozenset(), seconds: float | None = TIME_LIMIT, *,
                 judge: bool = True) -> None:
        self.allowed = frozenset(allowed)
        self.judge = judge
        self.seconds = None if seconds is None else float(seconds) * (BROWSER_FACTOR if IN_BROWSER else 1.0)
        self.delegated: str | None = None
        self.switched_off: str | None = None
        self.timed_out = False
        self.elapsed = 0.0
        self.backend = ""  #: "monitoring" or "profile": how the calls were seen
        self._allowed_ids = {id(code) for code in self.allowed}
        self._keep: list[types.CodeType] = []
        self._deadline = float("inf")
        self._state = [False, 256]  # [closing, calls until the clock is read again]
        self._student: set[int] = set()  # ids of the student's code objects seen running (kept alive below)
        self._student_codes: list[types.CodeType] = []
        self._counted: dict[int, dict[str, int]] = {}  # id(code) -> tally (see count)
        self._generator_starts: dict[int, int] = {}  # id(code) -> f_lasti of a generator's first resumption
        self._thread = threading.get_ident()
        self._alarm: Any = None
        self._backend: _Monitoring | _Profile | None = None

    # ------------------------------------------------------------------ verdicts
    def _from_student(self, frame: types.FrameType) -> bool:
        """Whether the nearest caller of ``frame`` that is not neutral code is the student's (not tilelab's)."""
        caller = frame.f_back
        while caller is not None:
            kind = kind_of_file(caller.f_code.co_filename)
            if kind != NEUTRAL:
                return kind == STUDENT
            caller = caller.f_back
        return threading.get_ident() != self._thread  # a thread the answer started

    def _crossing(self, frame: types.FrameType, code: types.CodeType) -> None:
        """A call into tilelab code not on the allow-list: delegation when the student's code made it."""
        if code.co_name in IMPORTING:  # importing a module of tilelab (or a name it loads lazily) is no call
            self._allowed_ids.add(id(code))
            self._keep.append(code)
            return
        if code in self.allowed:  # equal code from a fresh import of tilelab (as a grader makes): remember its id
            self._allowed_ids.add(id(code))
            self._keep.append(code)
            return
        if self._from_student(frame):
            self._stop_delegated(code)

    def _stop_delegated(self, code: types.CodeType) -> None:
        if self.delegated is None and self.switched_off is None:
            self.delegated = qualified(code)
        self._stop()

    def _stop_switched(self, what: str) -> None:
        if self.switched_off is None:
            self.switched_off = what
        self._stop()

    def _stop(self) -> None:
        """Stop the answer now that the verdict is known (in the checking thread: another one just goes on)."""
        if threading.get_ident() == self._thread:
            raise _Stop

    def _time_up(self) -> None:
        if threading.get_ident() != self._thread:
            return  # a thread the answer started: the checking thread is stopped, and the verdict with it
        if not self.timed_out:
            self.timed_out = True
            if self._backend is not None:
                self._backend.escalate()
        raise TimeUp

    def _tick(self) -> None:
        """Read the clock every 256 calls (where no alarm can interrupt the check)."""
        state = self._state
        state[1] -= 1
        if state[1] <= 0:
            state[1] = 256
            if not state[0] and time.perf_counter() > self._deadline:
                self._time_up()

    def _count(self, frame: types.FrameType, code: types.CodeType) -> None:
        """A counted function was called by the answer: one more (a generator counts when it starts)."""
        if code.co_flags & 0x20:  # CO_GENERATOR: the profile hook sees every resumption, count the first only
            start = self._generator_starts.setdefault(id(code), frame.f_lasti)
            if frame.f_lasti != start:
                return
        tally = self._counted[id(code)]
        tally["calls"] += 1
        if "args" in tally and code.co_argcount:  # record the first argument (the board a search expands)
            tally["args"].append(frame.f_locals.get(code.co_varnames[0]))

    def _first_sight(self, frame: types.FrameType, code: types.CodeType) -> bool:
        """The student's function runs for the first time in this check. True when the backend watches its calls."""
        self._student.add(id(code))
        self._student_codes.append(code)
        return False

    @contextlib.contextmanager
    def count(self, codes: Iterable[types.CodeType], record: bool = False) -> Iterator[dict[str, Any]]:
        """Count the answer's calls of these (allowed) functions while the block runs: yields ``{"calls": n}``.

        ``record=True`` also keeps each call's first argument, in order, under ``"args"``.
        """
        tally: dict[str, Any] = {"calls": 0, "args": []} if record else {"calls": 0}
        codes = list(codes)
        self._keep.extend(codes)
        for code in codes:
            self._counted[id(code)] = tally
        if self._backend is not None:
            self._backend.refresh()
        try:
            yield tally
        finally:
            for code in codes:
                self._counted.pop(id(code), None)

    # ------------------------------------------------------------------ set up and take down
    def __enter__(self) -> "Watch":
        self._start = time.perf_counter()
        if self.seconds is not None:
            self._deadline = self._start + self.seconds
        alarm = self.seconds is not None and self._start_alarm()
        timed = self.seconds is not None and not alarm
        self._backend = _Monitoring.start(self, timed) or _Profile.start(self, timed)
        self.backend = self._backend.name
        return self

    def __exit__(self, kind: Any, exc: Any, tb: Any) -> bool:
        self._state[0] = True
        if self._backend is not None:
            self._backend.stop()
        self._stop_alarm()
        self.elapsed = time.perf_counter() - self._start
        if isinstance(exc, TimeUp):
            self.timed_out = True
        if isinstance(exc, KeyboardInterrupt) and self._alarm == "fired":  # pragma: no cover - no SIGALRM
            self.timed_out = True  # the watchdog's interrupt, not the user's
            return True
        if self.seconds is not None and self.elapsed > self.seconds:
            self.timed_out = True  # one long call into C that nothing could interrupt: reported all the same
        return isinstance(exc, (TimeUp, _Stop))

    def _start_alarm(self) -> bool:
        """Arm a timer that interrupts the check at its deadline; False where none can (the browser, other threads)."""
        if IN_BROWSER or threading.current_thread() is not threading.main_thread() or self.seconds is None:
            return False
        if hasattr(signal, "setitimer") and hasattr(signal, "SIGALRM"):
            def ring(signum: int, frame: Any) -> None:
                if not self._state[0]:
                    self._time_up()

            self._old_handler = signal.signal(signal.SIGALRM, ring)
            self._old_timer = signal.setitimer(signal.ITIMER_REAL, self.seconds, 0.25)
            self._alarm = "signal"
            return True
        import _thread  # pragma: no cover - systems without SIGALRM (Windows)

        def interrupt() -> None:  # pragma: no cover
            if not self._state[0]:
                self._alarm = "fired"
                _thread.interrupt_main()

        timer = threading.Timer(self.seconds, interrupt)  # pragma: no cover
        timer.daemon = True
        timer.start()
        self._alarm = timer
        return True

    def _stop_alarm(self) -> None:
        if self._alarm == "signal":
            signal.setitimer(signal.ITIMER_REAL, 0)
            # None: the handler was set outside Python (it cannot be put back): the default one then
            signal.signal(signal.SIGALRM, signal.SIG_DFL if self._old_handler is None else self._old_handler)
            delay, interval = self._old_timer
            if delay:  # someone else's timer (pytest-timeout, say) goes on with the time it had left
                signal.setitimer(signal.ITIMER_REAL, max(1e-3, delay - (time.perf_counter() - self._start)), interval)
        elif isinstance(self._alarm, threading.Timer):  # pragma: no cover - systems without SIGALRM
            self._alarm.cancel()


class _Profile:
    """Python 3.10/3.11 (or no free monitoring tool): a profile hook on every call, in every thread the answer starts."""

    name = "profile"

    def __init__(self, watch: Watch, timed: bool) -> None:
        self.watch = watch
        self.hook = self._make_hook(timed)

    @classmethod
    def start(cls, watch: Watch, timed: bool) -> "_Profile":
        self = cls(watch, timed)
        self.previous = sys.getprofile()
        self.previous_threads = getattr(threading, "_profile_hook", None)
        threading.setprofile(self.hook)  # type: ignore[arg-type]
        sys.setprofile(self.hook)  # type: ignore[arg-type]
        return self

    def refresh(self) -> None:
        pass

    def escalate(self) -> None:
        """Time is up, and an ``except`` may swallow what was raised: raise again at every line of the student's."""
        w = self.watch

        def line(frame: types.FrameType, event: str, arg: Any) -> Any:
            if event == "line" and not w._state[0]:
                raise TimeUp
            return line

        def trace(frame: types.FrameType, event: str, arg: Any) -> Any:
            if w._state[0] or kind_of_file(frame.f_code.co_filename) != STUDENT:
                return None
            frame.f_trace_lines = True
            return line

        self.previous_trace = sys.gettrace()
        self.traced_thread = threading.get_ident()
        frame = sys._getframe(1)
        while frame is not None:
            if kind_of_file(frame.f_code.co_filename) == STUDENT:
                frame.f_trace, frame.f_trace_lines = line, True
            frame = frame.f_back
        sys.settrace(trace)

    def stop(self) -> None:
        try:
            sys.setprofile(self.previous)
        except TypeError:  # a profiler written in C (cProfile, %prun) is not a function: it switches itself back on
            sys.setprofile(None)
            self.previous.enable()
        threading.setprofile(self.previous_threads)  # type: ignore[arg-type]
        if hasattr(self, "previous_trace") and threading.get_ident() == self.traced_thread:
            sys.settrace(self.previous_trace)

    def _make_hook(self, timed: bool) -> Callable[[types.FrameType, str, Any], None]:
        """The profile function: a closure over plain locals, since it runs on every call and return."""
        w = self.watch
        kinds, allowed_ids, student, counted, state = FILE_KINDS, w._allowed_ids, w._student, w._counted, w._state
        suspicious, switch_codes, judge = SUSPICIOUS, SWITCH_CODES, w.judge

        def hook(frame: types.FrameType, event: str, arg: Any) -> None:
            if event == "call":
                code = frame.f_code
                kind = kinds.get(code.co_filename)
                if kind is None:
                    kind = kind_of_file(code.co_filename)
                if kind == TILELAB:
                    back = frame.f_back
                    if back is None or kinds.get(back.f_code.co_filename) != TILELAB:  # else tilelab calls itself
                        if counted and id(code) in counted:
                            w._count(frame, code)
                        if judge and id(code) not in allowed_ids and not state[0]:
                            w._crossing(frame, code)
                elif kind == STUDENT:
                    if id(code) not in student and not state[0]:
                        self._first_sight(frame, code)
                elif id(code) in switch_codes and not state[0] and w._from_student(frame):
                    w._stop_switched(switch_codes[id(code)])
            elif event == "c_call":
                if id(arg) in suspicious and not state[0]:
                    self._suspect(frame, arg)
            else:
                return
            if timed:
                w._tick()

        return hook

    def _suspect(self, frame: types.FrameType, arg: Any) -> None:
        """A call of a C function that switches the watch off or escapes it: from whom?"""
        if frame.f_code.co_filename == __file__ or os.path.abspath(frame.f_code.co_filename) == _THIS_FILE:
            return  # the watch itself (its alarm, its last resort against an endless loop)
        kind = kind_of_file(frame.f_code.co_filename)
        if id(arg) in SWITCHES and kind != TILELAB:
            self.watch._stop_switched(SWITCHES[id(arg)])
        elif id(arg) in RAW_THREADS and kind == STUDENT:
            self.watch._stop_switched(RAW_THREADS[id(arg)])

    def _first_sight(self, frame: types.FrameType, code: types.CodeType) -> None:
        w = self.watch
        w._first_sight(frame, code)
        if w.judge:
            for native in _reachable_native(frame, code):
                if native not in w.allowed:
                    w._stop_delegated(native)


def _reachable_native(frame: types.FrameType, code: types.CodeType) -> list[types.CodeType]:
    """Compiled kernels and caches of tilelab's that ``code`` reaches by name (the profile backend only).

    Looked up: the names ``code`` (and the functions and comprehensions nested in it) reads as globals,
    its closure's values, and the attributes it names on the modules and classes among those, a few
    levels deep (``tilelab.game2048.rules.slide_memo``). Only callables that run without a Python call
    are reported: every other call is seen as it happens.
    """
    names: set[str] = set()
    stack = [code]
    while stack:
        c = stack.pop()
        names.update(c.co_names)
        stack.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
    values: list[Any] = []
    scope = frame.f_globals
    builtins = scope.get("__builtins__", {})
    builtins = vars(builtins) if isinstance(builtins, types.ModuleType) else builtins
    for name in names:
        if name in scope:
            values.append(scope[name])
        elif name in builtins:
            values.append(builtins[name])
    if code.co_freevars:
        local = frame.f_locals
        values.extend(local[name] for name in code.co_freevars if name in local)
    found: list[types.CodeType] = []
    seen: set[int] = set()
    for _ in range(4):  # module.module.module.name
        more: list[Any] = []
        for value in values:
            if id(value) in seen:
                continue
            seen.add(id(value))
            native = native_tilelab(value)
            if native is not None:
                found.append(native)
            elif isinstance(value, (types.ModuleType, type)):
                spaces = [vars(value)] if isinstance(value, types.ModuleType) else [vars(k) for k in value.__mro__]
                for name in names:
                    for space in spaces:
                        if name in space:
                            more.append(space[name])
                            break
        values = more
    return found


class _Monitoring:
    """Python 3.12+: :mod:`sys.monitoring`, with events switched off wherever nothing needs judging."""

    name = "monitoring"

    def __init__(self, watch: Watch, tool: int, timed: bool) -> None:
        m = sys.monitoring  # type: ignore[attr-defined]
        self.watch = watch
        self.tool = tool
        self.timed = timed
        self.codes: list[types.CodeType] = []
        self.local = m.events.CALL | (m.events.JUMP if timed else 0)
        self.turns = 0
        m.register_callback(tool, m.events.PY_START, self._make_start())
        m.register_callback(tool, m.events.CALL, self._make_call())
        if timed:
            m.register_callback(tool, m.events.JUMP, self._on_jump)
        m.restart_events()  # locations switched off by an earlier check (another exercise's allow-list)
        m.set_events(tool, m.events.PY_START)

    @classmethod
    def start(cls, watch: Watch, timed: bool) -> "_Monitoring | None":
        monitoring = getattr(sys, "monitoring", None)
        if monitoring is None:
            return None
        for tool in (2, 3, 4, 5):  # the profiler's id, else any free one
            try:
                monitoring.use_tool_id(tool, "tilelab-check")
            except ValueError:
                continue
            return cls(watch, tool, timed)
        return None  # every id is taken: the profile hook does the work

    def refresh(self) -> None:
        sys.monitoring.restart_events()  # type: ignore[attr-defined]

    def escalate(self) -> None:
        """Time is up, and an ``except`` may swallow what was raised: raise again at every line of the student's."""
        m = sys.monitoring  # type: ignore[attr-defined]
        state = self.watch._state

        def line(code: types.CodeType, number: int) -> Any:
            if not state[0]:
                raise TimeUp
            return None

        m.register_callback(self.tool, m.events.LINE, line)
        for code in self.codes:
            m.set_local_events(self.tool, code, self.local | m.events.LINE)

    def stop(self) -> None:
        m = sys.monitoring  # type: ignore[attr-defined]
        m.set_events(self.tool, 0)
        for code in self.codes:
            m.set_local_events(self.tool, code, 0)
        for event in (m.events.PY_START, m.events.CALL, m.events.JUMP, m.events.LINE):
            m.register_callback(self.tool, event, None)
        m.free_tool_id(self.tool)

    def _make_start(self) -> Callable[[types.CodeType, int], Any]:
        w = self.watch
        kinds, allowed_ids, counted, state, judge = FILE_KINDS, w._allowed_ids, w._counted, w._state, w.judge
        disable, getframe, timed, switch_codes = sys.monitoring.DISABLE, sys._getframe, self.timed, SWITCH_CODES  # type: ignore[attr-defined]

        def on_start(code: types.CodeType, offset: int) -> Any:
            if state[0]:
                return None
            kind = kinds.get(code.co_filename)
            if kind is None:
                kind = kind_of_file(code.co_filename)
            if timed:
                w._tick()
            if kind == TILELAB:
                key = id(code)
                if key in counted:
                    frame = getframe(1)
                    back = frame.f_back
                    if back is None or kinds.get(back.f_code.co_filename) != TILELAB:
                        w._count(frame, code)
                    return None
                if not judge or key in allowed_ids:
                    return disable
                frame = getframe(1)
                back = frame.f_back
                if back is None or kinds.get(back.f_code.co_filename) != TILELAB:
                    w._crossing(frame, code)
                    if key in allowed_ids:
                        return disable
                return None
            if kind == STUDENT:
                if id(code) not in w._student:
                    w._first_sight(getframe(1), code)
                    if judge or timed:
                        sys.monitoring.set_local_events(self.tool, code, self.local)  # type: ignore[attr-defined]
                        self.codes.append(code)
                return disable
            if id(code) in switch_codes:
                if w._from_student(getframe(1)):
                    w._stop_switched(switch_codes[id(code)])
                return None
            return disable

        return on_start

    def _make_call(self) -> Callable[[types.CodeType, int, Any, Any], Any]:
        w = self.watch
        state, suspicious, plain, judge = w._state, SUSPICIOUS, PLAIN_CALLABLES, w.judge
        disable = sys.monitoring.DISABLE  # type: ignore[attr-defined]

        def on_call(code: types.CodeType, offset: int, callable_: Any, arg0: Any) -> Any:
            if state[0]:
                return None
            if id(callable_) in suspicious:
                what = suspicious[id(callable_)]
                if not what.startswith("_thread."):  # raw threads are followed here: monitoring sees every thread
                    w._stop_switched(what)
                return None
            if isinstance(callable_, plain):
                return disable  # Python callees are judged when they start; builtins are nobody's answer
            if judge:
                native = native_tilelab(callable_)
                if native is not None and native not in w.allowed:
                    w._stop_delegated(native)
            return None

        return on_call

    def _on_jump(self, code: types.CodeType, source: int, target: int) -> Any:
        self.turns += 1
        if not self.turns & 1023 and not self.watch._state[0] and time.perf_counter() > self.watch._deadline:
            self.watch._time_up()
        return None

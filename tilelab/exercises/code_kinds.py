"""Whose code runs, for the watch behind every self-check (:mod:`tilelab.exercises.watch`): tilelab's, neutral or the student's.

Code is sorted by the file it lives in: *tilelab* (this package), *neutral* (the standard library,
installed packages such as numpy, code made by ``exec`` or ``dataclasses``, and the watch's own modules)
and *the student's* (notebook cells, doctests, a student's own files: everything else). Also here: the
Python code behind a callable (:func:`code_of`), tilelab's compiled kernels and caches that run without a
Python call (:func:`native_tilelab`), and the calls that would switch a watch off (:data:`SUSPICIOUS`,
:data:`SWITCH_CODES`).

>>> kind_of(kind_of.__code__) == NEUTRAL, kind_of(os.path.join.__code__) == NEUTRAL
(True, True)
"""

from __future__ import annotations

import functools
import os
import signal
import sys
import sysconfig
import threading
import types
from typing import Any, Iterable

__all__ = ["FILE_KINDS", "IMPORTING", "NEUTRAL", "PLAIN_CALLABLES", "RAW_THREADS", "STUDENT", "SUSPICIOUS", "SWITCHES",
           "SWITCH_CODES", "TILELAB", "code_of", "kind_of", "kind_of_file", "native_tilelab", "qualified"]

NEUTRAL, TILELAB, STUDENT = 0, 1, 2

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: The watch's own code (its alarm, its callbacks, this sorting) is no one's answer: neutral.
_WATCH_FILES = frozenset(os.path.join(os.path.dirname(os.path.abspath(__file__)), name)
                         for name in ("watch.py", "code_kinds.py"))


def _neutral_dirs() -> tuple[str, ...]:
    """Folders whose code is neither tilelab's nor the student's: the standard library and installed packages."""
    found = set()
    try:
        paths = sysconfig.get_paths()
    except Exception:  # noqa: BLE001 - an odd platform; the folders on sys.path still say it
        paths = {}
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        path = paths.get(key)
        if path:
            found.add(os.path.abspath(path))
    for path in sys.path:  # site-packages of virtual environments, a zipped standard library
        if path and ("site-packages" in path or "dist-packages" in path or path.endswith(".zip")):
            found.add(os.path.abspath(path))
    found.add(os.path.abspath(os.path.dirname(os.__file__)))
    return tuple(sorted(p + os.sep for p in found))


_NEUTRAL_DIRS = _neutral_dirs()
_STUDENT_PSEUDO_FILES = ("<doctest", "<ipython-input", "<stdin>", "<console>", "<input>")


@functools.lru_cache(maxsize=4096)
def _kind_of_file(filename: str) -> int:
    if filename.startswith("<"):
        return STUDENT if filename.startswith(_STUDENT_PSEUDO_FILES) else NEUTRAL  # <string>, <frozen ...>
    path = os.path.abspath(filename)
    if path in _WATCH_FILES:
        return NEUTRAL  # the watch's own code (its alarm, its callbacks) is no one's answer
    if path.startswith(_PACKAGE_DIR + os.sep):
        return TILELAB
    if path.startswith(_NEUTRAL_DIRS):
        return NEUTRAL
    return STUDENT


#: co_filename -> kind: a plain dict, read directly by the watch's hooks on every call they see
FILE_KINDS: dict[str, int] = {}


def kind_of_file(filename: str) -> int:
    """:func:`kind_of` for a code object's ``co_filename`` (remembered in :data:`FILE_KINDS`)."""
    kind = FILE_KINDS.get(filename)
    if kind is None:
        kind = FILE_KINDS[filename] = _kind_of_file(filename)
    return kind


def kind_of(code: types.CodeType) -> int:
    """Whose code this is: :data:`TILELAB`, :data:`NEUTRAL` (standard library, installed packages) or :data:`STUDENT`.

    >>> from tilelab.exercises.allow import resolve
    >>> kind_of(resolve.__code__) == TILELAB, kind_of(os.path.join.__code__) == NEUTRAL
    (True, True)
    """
    return kind_of_file(code.co_filename)


def code_of(obj: Any) -> types.CodeType | None:
    """The Python code behind a callable: a function, a method, a property's getter, a numba kernel, a cache.

    >>> code_of(functools.lru_cache(maxsize=2)(kind_of)) is kind_of.__code__
    True
    """
    for _ in range(8):  # unwrap layers: bound method -> function, partial -> func, cache -> wrapped, ...
        if isinstance(obj, (types.ModuleType, type)) or obj is None:
            return None
        if isinstance(obj, types.FunctionType):
            return obj.__code__
        if isinstance(obj, types.CodeType):
            return obj
        if isinstance(obj, property):
            obj = obj.fget
        elif isinstance(obj, (classmethod, staticmethod, types.MethodType)):
            obj = obj.__func__
        elif isinstance(obj, functools.partial):
            obj = obj.func
        elif getattr(obj, "py_func", None) is not None:  # a numba dispatcher
            obj = obj.py_func
        elif getattr(obj, "__wrapped__", None) is not None:  # functools.lru_cache, functools.wraps
            obj = obj.__wrapped__
        else:
            return None
    return None


PLAIN_CALLABLES = (types.FunctionType, types.BuiltinFunctionType, types.MethodType, type, types.MethodWrapperType,
                    types.WrapperDescriptorType, types.MethodDescriptorType, types.ClassMethodDescriptorType)


def native_tilelab(obj: Any) -> types.CodeType | None:
    """The tilelab code a callable runs *without a Python call event* (numba kernel, cache hit), else None."""
    if isinstance(obj, (*PLAIN_CALLABLES, types.ModuleType)):
        return None
    if not (getattr(obj, "py_func", None) is not None or isinstance(obj, functools.partial)
            or type(obj).__name__ == "_lru_cache_wrapper"):
        return None
    code = code_of(obj)
    return code if code is not None and kind_of(code) == TILELAB else None


# ---------------------------------------------------------------------------- what switches a watch off
_KEEP: list[Any] = []  # the switches stay alive, so their ids stay theirs


def _ids(module: Any, names: Iterable[str], prefix: str) -> dict[int, str]:
    out = {}
    for name in names:
        obj = getattr(module, name, None)
        if obj is not None:
            out[id(obj)] = f"{prefix}.{name}"
            _KEEP.append(obj)
    return out


def _switches() -> dict[int, str]:
    """``id`` of every C function that switches a watch off or escapes it, with its name for the message."""
    out = _ids(sys, ("setprofile", "settrace", "_setprofileallthreads", "_settraceallthreads"), "sys")
    if hasattr(sys, "monitoring"):
        out.update(_ids(sys.monitoring, ("use_tool_id", "free_tool_id", "clear_tool_id", "register_callback",
                                         "set_events", "set_local_events", "restart_events"), "sys.monitoring"))
    out.update(_ids(signal, ("signal", "setitimer", "alarm", "pthread_sigmask", "set_wakeup_fd", "siginterrupt",
                             "pthread_kill"), "signal"))
    out.update(_ids(os, ("fork", "forkpty", "system", "posix_spawn", "posix_spawnp", "execv", "execve", "kill",
                         "killpg"), "os"))
    for module_name, names in (("_posixsubprocess", ("fork_exec",)), ("_winapi", ("CreateProcess",))):
        try:
            out.update(_ids(__import__(module_name), names, "subprocess"))
        except ImportError:  # Windows has no _posixsubprocess, the others no _winapi
            pass
    return out


SWITCHES = _switches()
#: Starting a thread in C directly: the profile hook would not follow it (``threading.Thread`` is followed).
RAW_THREADS = _ids(__import__("_thread"), ("start_new_thread", "start_joinable_thread", "start_new"), "_thread")
#: Every C function whose call from the answer switches the watch off or escapes it, by id, with its name.
SUSPICIOUS = {**SWITCHES, **RAW_THREADS}


def _switch_codes() -> dict[int, str]:
    """Python functions that switch a watch off (threading's hooks) or start a process, by the id of their code.

    The process starters matter where only the student's own lines are watched (Python 3.12+): the C call
    that forks is made inside the standard library.
    """
    found = {f"threading.{name}": getattr(threading, name, None)
             for name in ("setprofile", "settrace", "setprofile_all_threads", "settrace_all_threads")}
    found["os.spawn"] = getattr(os, "_spawnvef", None)
    try:  # the browser's Python has these modules but cannot start a process: nothing to watch there
        import multiprocessing.process
        import subprocess

        found["subprocess"] = getattr(subprocess.Popen, "_execute_child", None)
        found["multiprocessing"] = multiprocessing.process.BaseProcess.start
    except ImportError:  # pragma: no cover
        pass
    out = {}
    for name, function in found.items():
        code = code_of(function)
        if code is not None:
            out[id(code)] = name
            _KEEP.append(code)
    return out


SWITCH_CODES = _switch_codes()


#: Code run by importing, never a call of the answer's: a module's body, a package's lazy ``__getattr__``/``__dir__``.
IMPORTING = frozenset({"<module>", "__getattr__", "__dir__"})


def qualified(code: types.CodeType) -> str:
    """``module.qualname`` of tilelab code, for messages (``tilelab.game2048.rules.slide_row``)."""
    path = os.path.abspath(code.co_filename)
    module = os.path.relpath(path, os.path.dirname(_PACKAGE_DIR))
    module = module[:-3] if module.endswith(".py") else module
    module = module.replace(os.sep, ".").removesuffix(".__init__")
    return f"{module}.{getattr(code, 'co_qualname', None) or _qualname_310(module, code)}"


def _qualname_310(module: str, code: types.CodeType) -> str:
    """Python 3.10's code objects have no ``co_qualname``: find the class that holds the function, if any."""
    space = vars(sys.modules[module]) if module in sys.modules else {}
    for value in list(space.values()):
        if isinstance(value, type) and value.__module__ == module:
            for name, member in vars(value).items():
                member = member.fget if isinstance(member, property) else member
                if code_of(member) is code:
                    return f"{value.__qualname__}.{name}"
    return code.co_name

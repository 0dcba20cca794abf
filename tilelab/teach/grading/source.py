"""The grader reads the student's code: what it names and what it does, decided outside the student's kernel.

The self-check a lesson runs (``check(...)``) lives in the student's kernel, so the student's code can reach it.
Before a grade counts, the grading process reads the source of every cell the student wrote or changed (the
answer cells, edited cells, added cells) and refuses an exercise's point when that code

* names a tilelab function the exercise does not allow (its allow-list, :mod:`tilelab.exercises.allow`), or a
  private tilelab name, or anything of :mod:`tilelab.exercises` except ``check``, ``report`` and ``results``;
* reaches around the code it shows: ``exec``, ``eval``, ``compile``, ``__import__``, ``globals``/``vars``/``locals``,
  ``getattr``/``setattr``/``delattr`` with a computed name (or ``setattr``/``delattr`` on tilelab), ``get_ipython``
  (and so every ``%magic`` and ``!command``), the modules ``sys``, ``inspect``, ``ctypes``, ``gc``, ``importlib``,
  ``threading``, ``signal``, ``pickle``... , ``functools.partial``/``singledispatch``/``wraps``,
  ``operator.call``/``methodcaller``/``attrgetter``, ``os.environ``/``os._exit``, or attributes such as
  ``__code__``, ``__globals__``, ``__dict__``, ``__wrapped__``, ``f_back``;
* rebinds ``check``, or writes or deletes an attribute of anything tilelab (``tilelab.exercises.check = ...``,
  ``E._ALLOW_PACKAGE_CALLS = 1``).

A refusal of the first kind costs the exercise the cell belongs to (the next graded test after it); it is made
for code an answer can run (inside a function, a lambda or a class, or bound by an assignment) in answer cells
and cells the student added, not for a name used at the top level (printing what the package says) nor in the
lesson's own cells the student changed (the lessons invite that). One of the other kinds costs every exercise
graded after the cell, wherever it is, since such code can change what every later check does. Cells the
student left as the lesson wrote them are only read for the names they import.

>>> cells = [Cell("from tilelab.sliding import Board, inversions", edited=False),
...          Cell("def my_inversions(p):\\n    return inversions(p)", edited=True),
...          Cell("_result = _check('sliding.inversions', my_inversions)", test="test-sliding-inversions")]
>>> refusals(cells)["test-sliding-inversions"]  # doctest: +ELLIPSIS
'cell 2, line 2: names tilelab.sliding.inversions, which this exercise (sliding.inversions) does not allow...'
"""

from __future__ import annotations

import ast
import importlib
import types
from dataclasses import dataclass
from typing import Any, Iterable

from tilelab.exercises import allowed_calls, allowed_code, list_exercises
from tilelab.exercises.code_kinds import TILELAB, code_of, kind_of

#: Built-in names that run or reach code the grader cannot read.
FORBIDDEN_NAMES = frozenset({
    "exec", "eval", "compile", "__import__", "globals", "vars", "locals", "breakpoint", "get_ipython",
    "__builtins__", "__loader__", "__spec__", "In", "Out", "_ih", "_oh", "_i", "_ii", "_iii", "exit", "quit",
})

#: Modules whose use reaches the interpreter, other frames, threads or signals (or loads code the grader cannot read).
FORBIDDEN_MODULES = frozenset({
    "sys", "inspect", "ctypes", "gc", "importlib", "threading", "_thread", "multiprocessing", "concurrent",
    "asyncio", "signal", "builtins", "pickle", "marshal", "dill", "cloudpickle", "copyreg", "code", "codeop",
    "runpy", "types", "atexit", "faulthandler", "trace", "tracemalloc", "subprocess", "IPython", "ipykernel",
    "traitlets", "zmq", "weakref", "_ctypes", "cffi", "numba", "dis", "imp", "pkgutil", "sched", "socket",
})

#: Names of standard modules that call a function for you from library code (the watch would miss the caller).
FORBIDDEN_MEMBERS = frozenset({
    "functools.partial", "functools.partialmethod", "functools.singledispatch", "functools.singledispatchmethod",
    "functools.wraps", "functools.update_wrapper", "functools.reduce", "functools.cached_property",
    "operator.call", "operator.methodcaller", "operator.attrgetter", "os.environ", "os.putenv", "os.unsetenv",
    "os._exit", "os.system", "os.fork", "os.kill", "os.popen", "os.execv", "os.execve", "os.execl", "os.execlp",
    "os.execvp", "os.spawnl", "os.spawnv", "os.posix_spawn", "os.killpg", "os.abort", "itertools.starmap",
})

#: Attributes that reach a function's code, globals, frames or class internals.
FORBIDDEN_ATTRIBUTES = frozenset({
    "__code__", "__globals__", "__dict__", "__wrapped__", "__builtins__", "__class__", "__bases__", "__mro__",
    "__subclasses__", "__getattribute__", "__closure__", "__func__", "__self__", "__module__", "__import__",
    "__loader__", "__spec__", "__defaults__", "__kwdefaults__", "__setattr__", "__delattr__", "__reduce__",
    "__reduce_ex__", "__call__", "__get__", "__set_name__", "__init_subclass__", "__class_getitem__",
    "f_back", "f_globals", "f_locals", "f_builtins", "f_code", "gi_frame", "gi_code", "cr_frame", "ag_frame",
    "tb_frame", "tb_next", "co_code", "__traceback__", "run_cell", "user_ns", "user_global_ns",
})

#: What an answer may use from :mod:`tilelab.exercises`: the self-check and its summary.
EXERCISE_NAMES = frozenset({"check", "report", "results", "allowed_calls", "package_calls", "list_exercises"})


@dataclass(frozen=True)
class Cell:
    """One code cell of a submitted notebook, as the grader sees it.

    ``edited``: the student wrote or changed it (answer cells, added cells, changed lesson cells); ``lesson``: it is
    one of the lesson's own cells (changed or not: only what reaches around the check is refused there, since the
    lessons invite students to change their demonstrations); ``test``: the ``grade_id`` of a read-only graded test
    cell (its source restored from the gradebook), else "".
    """

    source: str
    edited: bool = True
    test: str = ""
    lesson: bool = False


@dataclass(frozen=True)
class Refusal:
    cell: int      #: 1-based number of the code cell
    line: int
    reason: str
    tamper: bool   #: True: reaches around the check (costs every later exercise), False: a name off the allow-list

    def __str__(self) -> str:
        return f"cell {self.cell}, line {self.line}: {self.reason}"


def exercise_of_test(source: str) -> str | None:
    """The exercise a graded test cell checks: the name in its first ``_check("name", ...)`` call."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("_check", "check")
                and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            return node.args[0].value
    return None


def python_source(source: str) -> tuple[str, bool]:
    """``source`` as plain Python (IPython's ``%magic`` and ``!shell`` lines turned into calls), and whether it had any."""
    try:
        from IPython.core.inputtransformer2 import TransformerManager
    except ImportError:  # pragma: no cover - IPython comes with every kernel
        return source, False
    try:
        plain = TransformerManager().transform_cell(source)
    except Exception:  # noqa: BLE001 - not IPython either: parsed as it is (and refused if it does not parse)
        return source, False
    return plain, plain.rstrip() != source.rstrip() and "get_ipython()" in plain and "get_ipython" not in source


def _resolve(path: str) -> tuple[bool, Any]:
    """The object a dotted path names (importing modules as needed): (found, object)."""
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except Exception:  # noqa: BLE001 - not a module (or one that fails to import): try a shorter prefix
            continue
        try:
            for part in parts[cut:]:
                obj = getattr(obj, part)
        except AttributeError:
            return False, None
        return True, obj
    return False, None


class _Reader(ast.NodeVisitor):
    """Reads one cell: the names it binds to modules and objects (``env``) and what it refuses."""

    def __init__(self, env: dict[str, str], exercise: str | None, allowed: frozenset, check: bool,
                 names: bool = True):
        self.env, self.exercise, self.allowed, self.check = env, exercise, allowed, check
        self.names = names  # judge tilelab names against the allow-list (not in the lesson's own cells)
        self.depth = 0      # > 0 inside a function, lambda or class: code an answer can run
        self.binding = False  # inside the value of a top-level assignment: what a name is bound to
        self.found: list[tuple[int, str, bool]] = []

    # ------------------------------------------------------------------ what a name or an attribute chain means
    def _path(self, node: ast.AST) -> str | None:
        if isinstance(node, ast.Name):
            return self.env.get(node.id)
        if isinstance(node, ast.Attribute):
            base = self._path(node.value)
            return f"{base}.{node.attr}" if base is not None else None
        return None

    def _refuse(self, node: ast.AST, reason: str, tamper: bool = True) -> None:
        if not self.check:
            return
        if not tamper and not (self.names and (self.depth or self.binding)):
            return  # naming a function at the top level (an import, a comparison printed) is not an answer
        self.found.append((getattr(node, "lineno", 0), reason, tamper))

    def _judge_path(self, node: ast.AST, path: str) -> None:
        top = path.split(".")[0]
        if top in FORBIDDEN_MODULES:
            self._refuse(node, f"uses the module {top}, which reaches around the check")
            return
        if any(path == m or path.startswith(m + ".") for m in FORBIDDEN_MEMBERS):
            self._refuse(node, f"uses {path}, which reaches outside the notebook (the process, its environment)"
                         if top == "os" else f"uses {path}, which calls functions for your code where the check "
                         "cannot see it")
            return
        if top != "tilelab":
            return
        parts = path.split(".")
        if any(p.startswith("_") for p in parts):
            self._refuse(node, f"uses tilelab's private name {path}")
            return
        if parts[:2] == ["tilelab", "exercises"] and len(parts) > 2:
            found, obj = _resolve(path)
            if not (found and isinstance(obj, types.ModuleType)) and parts[-1] not in EXERCISE_NAMES:
                self._refuse(node, f"uses {path}: an answer may use only check() (and its report) from "
                             "tilelab.exercises")
            elif found and isinstance(obj, types.ModuleType) and parts[2] != "allow":
                self._refuse(node, f"uses the checker's module {path}")
            return
        if self.exercise is None:
            return
        found, obj = _resolve(path)
        if not found or isinstance(obj, (types.ModuleType, type)):
            return  # a module or a class may be named (calling a method is judged by what the method is)
        code = code_of(obj)
        if code is not None and kind_of(code) == TILELAB and code not in self.allowed:
            offered = allowed_calls(self.exercise)
            self._refuse(node, f"names {path}, which this exercise ({self.exercise}) does not allow: leave it out "
                         f"and write those steps in your own code" + (f" (here you may use {offered})" if offered else ""),
                         tamper=False)

    # ------------------------------------------------------------------ imports bind names
    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._judge_path(node, alias.name)
            if alias.asname:
                self._bind(node, alias.asname, alias.name)
            else:
                top = alias.name.split(".")[0]
                self._bind(node, top, top)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level:
            self._refuse(node, "a relative import")
            return
        for alias in node.names:
            if alias.name == "*":
                self._judge_path(node, node.module or "")
                if (node.module or "").split(".")[0] == "tilelab":
                    self._refuse(node, f"imports everything from {node.module}: import the names you use",
                                 tamper=False)
                continue
            path = f"{node.module}.{alias.name}"
            self._judge_path(node, path)
            self._bind(node, alias.asname or alias.name, path)

    def _bind(self, node: ast.AST, name: str, path: str | None) -> None:
        if name == "check" and path != "tilelab.exercises.check":
            self._refuse(node, "rebinds check: the grade comes from tilelab's own check")
        if path is None:
            self.env.pop(name, None)
        else:
            self.env[name] = path

    # ------------------------------------------------------------------ names, attributes, calls
    def visit_Name(self, node: ast.Name) -> None:
        if node.id in FORBIDDEN_NAMES:
            self._refuse(node, f"uses {node.id}, which runs or reaches code the grader cannot read")
        elif isinstance(node.ctx, ast.Load):
            if node.id in self.env:
                self._judge_path(node, self.env[node.id])
        else:
            self._bind(node, node.id, None)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if node.attr in FORBIDDEN_ATTRIBUTES:
            self._refuse(node, f"uses the attribute {node.attr}, which reaches around the code it shows")
        path = self._path(node)
        if not isinstance(node.ctx, ast.Load):
            base = self._path(node.value)
            if base is not None and base.split(".")[0] == "tilelab":
                self._refuse(node, f"writes {base}.{node.attr}: tilelab's attributes are not the answer's to change")
        elif path is not None:
            self._judge_path(node, path)
            return  # the chain is judged as a whole (its prefixes are modules on the way)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        if isinstance(node.func, ast.Name) and node.func.id in ("getattr", "setattr", "delattr", "hasattr"):
            name = node.args[1] if len(node.args) > 1 else None
            literal = isinstance(name, ast.Constant) and isinstance(name.value, str)
            if not literal:
                self._refuse(node, f"{node.func.id} with a computed name: write the attribute out")
            elif name.value in FORBIDDEN_ATTRIBUTES or (name.value.startswith("__") and node.func.id != "hasattr"):
                self._refuse(node, f"{node.func.id}(..., {name.value!r}) reaches around the code it shows")
            elif node.args:
                base = self._path(node.args[0])
                if base is not None:
                    if node.func.id in ("setattr", "delattr") and base.split(".")[0] == "tilelab":
                        self._refuse(node, f"{node.func.id} on {base}: tilelab's attributes are not the answer's")
                    else:
                        self._judge_path(node, f"{base}.{name.value}")
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        self.binding = True
        try:
            self.generic_visit(node)
        finally:
            self.binding = False
        path = self._path(node.value)
        if path is not None:  # an alias (``f = tilelab.sliding.inversions``) is judged wherever it is used
            for target in node.targets:
                if isinstance(target, ast.Name):
                    self.env[target.id] = path

    # ------------------------------------------------------------------ definitions bind names
    def _define(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        self._bind(node, node.name, None)
        self.depth += 1
        try:
            self.generic_visit(node)
        finally:
            self.depth -= 1

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _define

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self.depth += 1
        try:
            self.generic_visit(node)
        finally:
            self.depth -= 1

    def visit_Global(self, node: ast.Global) -> None:
        if "check" in node.names:
            self._refuse(node, "rebinds check: the grade comes from tilelab's own check")

    visit_Nonlocal = visit_Global


def refusals(cells: Iterable[Cell]) -> dict[str, str]:
    """Why each graded test (by ``grade_id``) may not count, from the code of the cells before it; {} when all may.

    Each value is the first refusal that costs that test, as ``cell N, line L: reason``.
    """
    cells = list(cells)
    tests = [(i, c.test, exercise_of_test(c.source)) for i, c in enumerate(cells) if c.test]
    known = set(list_exercises())
    env: dict[str, str] = {}
    out: dict[str, Refusal] = {}
    tampered: Refusal | None = None

    def first(test: str, refusal: Refusal) -> None:  # the earliest line that costs the test is its reason
        key = (refusal.cell, refusal.line, not refusal.tamper)
        if test not in out or key < (out[test].cell, out[test].line, not out[test].tamper):
            out[test] = refusal

    for i, cell in enumerate(cells):
        if cell.test:
            if tampered is not None:
                first(cell.test, tampered)
            continue
        owner = next(((gid, name) for j, gid, name in tests if j > i), (None, None))
        exercise = owner[1] if owner[1] in known else None
        allowed = allowed_code(exercise) if exercise is not None else frozenset()
        source, magic = python_source(cell.source)
        reader = _Reader(env, exercise, allowed, check=cell.edited, names=not cell.lesson)
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue  # it does not run either: nothing to judge, its test reports what is missing
        if magic and cell.edited:
            reader.found.append((1, "uses an IPython magic or shell command (%, !), which runs code the grader "
                                    "cannot read", True))
        reader.visit(tree)
        for line, reason, tamper in sorted(reader.found, key=lambda found: found[0]):
            refusal = Refusal(i + 1, line, reason, tamper)
            if tamper:
                tampered = tampered or refusal
            elif owner[0] is not None:
                first(owner[0], refusal)
    return {test: str(refusal) for test, refusal in out.items()}

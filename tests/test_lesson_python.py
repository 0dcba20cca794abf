"""The Python a lesson asks is the Python it says (issue 41).

Each lesson's core code (code cells not tagged ``deeper``, ``solution`` or ``teacher``, before its first "Going
deeper" heading) is read with :mod:`ast`, and the features beyond functions, lists, dicts, sets and loops are
listed: recursion (a function reaching itself through calls, directly or through another), ``nonlocal``,
generators (``yield``), comprehensions, classes, exceptions (``try``/``raise``), ``lambda``, and the modules
``heapq``, ``itertools``, ``collections`` and ``numpy``. Every feature must be named in the "You need" of the
lesson or of an earlier lesson on its track (00 starts every track), and every feature named anywhere is taught
in 00's "Python you will meet". Running it prints the table (``python tests/test_lesson_python.py``).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
TRACKS = {
    "2048": ["00", "01a", "01b", "01c", "02a", "02b", "06a", "06b"],
    "sliding": ["00", "03a", "03b", "03c", "04a", "04b", "04c", "04d"],
    "match-3": ["00", "05a", "05b", "05c", "05d"],
}
#: feature -> the words that name it in a "You need" line (lower case)
NAMES = {
    "recursion": ("recursion", "recursive"),
    "nonlocal": ("nonlocal",),
    "generators": ("generators", "yield"),
    "comprehensions": ("comprehension",),
    "classes": ("class",),
    "exceptions": ("exception",),
    "lambda": ("lambda",),
    "heapq": ("heapq",),
    "itertools": ("itertools",),
    "collections": ("collections",),
    "numpy": ("numpy",),
    "unpacking": ("unpacking",),
    "booleans as numbers": ("booleans as numbers",),
    "format specs": ("format spec",),
    "conditional expressions": ("conditional expression",),
    "chained comparisons": ("chained comparison",),
    "star arguments": ("star argument", "`*args`"),
    "bit shifts": ("bit shift",),
    # built-ins and methods a first-year course may not have reached (readers met each without a word)
    "divmod": ("`divmod`",),
    "dict.get": ("`.get`", "`dict.get`"),
    "setdefault": ("`setdefault`", "`.setdefault`"),
    "infinity": ("`math.inf`", "infinity"),
    "any/all": ("`any`", "`all`"),
    "next": ("`next`",),
    "map": ("`map`",),
    "zip": ("`zip`",),
    "enumerate": ("`enumerate`",),
}
#: the built-in functions (called by name) and methods (called on a value) behind the features above
BUILTIN_CALLS = {"divmod": "divmod", "any": "any/all", "all": "any/all", "next": "next", "map": "map", "zip": "zip",
                 "enumerate": "enumerate"}
METHOD_CALLS = {"get": "dict.get", "setdefault": "setdefault"}
MODULES = ("heapq", "itertools", "collections", "numpy")
HIDDEN = {"deeper", "solution", "teacher"}
PRIMER = "## Python you will meet"


def lesson(number: str) -> Path:
    (path,) = NOTEBOOKS.glob(f"{number}_*.ipynb")
    return path


def core_sources(nb: nbformat.NotebookNode) -> list[str]:
    out = []
    for cell in nb.cells:
        if cell.cell_type == "markdown" and cell.source.lstrip().startswith("## Going deeper"):
            break
        if cell.cell_type == "code" and not HIDDEN & set(cell.metadata.get("tags", [])):
            out.append("\n".join("" if line.lstrip().startswith(("%", "!")) else line
                                 for line in cell.source.splitlines()))
    return out


def _module_of(node: ast.expr) -> str | None:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _is_truth(node: ast.expr) -> bool:
    """A comparison, ``and``/``or``, ``not`` or ``bool(...)``: a True or False a reader may not expect to add up."""
    return (isinstance(node, (ast.Compare, ast.BoolOp)) or isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)
            or isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "bool")


def _syntax(node: ast.AST) -> set[str]:
    """The plainer-looking features one node uses (each trips a first-year reader who has not met it)."""
    found = set()
    if isinstance(node, (ast.For, ast.comprehension)) and isinstance(node.target, (ast.Tuple, ast.List)):
        found.add("unpacking")
    elif isinstance(node, ast.Assign) and any(isinstance(t, (ast.Tuple, ast.List)) for t in node.targets):
        found.add("unpacking")
    elif isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add) and _is_truth(node.value):
        found.add("booleans as numbers")
    elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "sum" and node.args
          and isinstance(node.args[0], (ast.GeneratorExp, ast.ListComp)) and _is_truth(node.args[0].elt)):
        found.add("booleans as numbers")
    elif isinstance(node, ast.FormattedValue) and node.format_spec is not None:
        found.add("format specs")
    elif isinstance(node, ast.IfExp):
        found.add("conditional expressions")
    elif isinstance(node, ast.Compare) and len(node.ops) > 1:
        found.add("chained comparisons")
    elif isinstance(node, ast.Call) and any(isinstance(a, ast.Starred) for a in node.args):
        found.add("star arguments")
    elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.RShift, ast.LShift)):
        found.add("bit shifts")
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in BUILTIN_CALLS:
        found.add(BUILTIN_CALLS[node.func.id])
    elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in METHOD_CALLS
          and _module_of(node.func) not in ("np", "numpy")):
        found.add(METHOD_CALLS[node.func.attr])
    elif isinstance(node, ast.Attribute) and node.attr == "inf" and _module_of(node) in ("math", "np", "numpy"):
        found.add("infinity")
    elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "float" and node.args
          and isinstance(node.args[0], ast.Constant) and str(node.args[0].value).lower().lstrip("+-") == "inf"):
        found.add("infinity")
    return found


def features(sources: list[str]) -> set[str]:
    """The features of :data:`NAMES` that the code uses."""
    found: set[str] = set()
    calls: dict[str, set[str]] = {}
    for source in sources:
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                calls.setdefault(node.name, set()).update(
                    n.func.id for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name))
            found |= {
                ast.Nonlocal: {"nonlocal"}, ast.Yield: {"generators"}, ast.YieldFrom: {"generators"},
                ast.ListComp: {"comprehensions"}, ast.SetComp: {"comprehensions"}, ast.DictComp: {"comprehensions"},
                ast.GeneratorExp: {"comprehensions"}, ast.ClassDef: {"classes"}, ast.Try: {"exceptions"},
                ast.Raise: {"exceptions"}, ast.Lambda: {"lambda"},
            }.get(type(node), set())
            found |= _syntax(node)
            if isinstance(node, ast.Import):
                found |= {a.name.split(".")[0] for a in node.names} & set(MODULES)
            elif isinstance(node, ast.ImportFrom) and node.module:
                found |= {node.module.split(".")[0]} & set(MODULES)
            elif isinstance(node, ast.Attribute) and _module_of(node) in ("np", "numpy", "heapq", "itertools"):
                found.add("numpy" if _module_of(node) in ("np", "numpy") else _module_of(node))
    for start in calls:  # recursion: a function that reaches itself
        seen, todo = set(), list(calls[start])
        while todo:
            name = todo.pop()
            if name == start:
                found.add("recursion")
                break
            if name in calls and name not in seen:
                seen.add(name)
                todo.extend(calls[name])
    return found


def you_need(nb: nbformat.NotebookNode) -> str:
    """The lesson's "You need" paragraph, lower case, with its "No ..." sentences left out."""
    match = re.search(r"\*\*You need:\*\*(.*?)(?:\n\n|$)", nb.cells[0].source, re.S)
    assert match, "the first cell has a '**You need:**' paragraph"
    return re.sub(r"(?:^|(?<=[.;:]))\s*no\b[^.;]*", " ", match.group(1).lower())


def named(text: str) -> set[str]:
    return {f for f, words in NAMES.items() if any(w in text for w in words)}


def primer() -> str:
    nb = nbformat.read(lesson("00"), as_version=4)
    cells = [c.source for c in nb.cells if c.cell_type == "markdown"]
    start = next(i for i, s in enumerate(cells) if s.startswith(PRIMER))
    out = [cells[start]]
    for s in cells[start + 1:]:
        if s.startswith("## "):
            break
        out.append(s)
    return "\n".join(out).lower()


def table() -> dict[str, tuple[set[str], dict[str, str]]]:
    """lesson -> (features used, {feature: the lesson whose "You need" names it first on the track})."""
    out = {}
    for track in TRACKS.values():
        for i, number in enumerate(track):
            nb = nbformat.read(lesson(number), as_version=4)
            used = features(core_sources(nb))
            where = {}
            for earlier in reversed(track[: i + 1]):
                for f in named(you_need(nbformat.read(lesson(earlier), as_version=4))):
                    where[f] = earlier
            out[number] = (used, where)
    return out


ALL = sorted({n for t in TRACKS.values() for n in t})


@pytest.mark.parametrize("number", ALL)
def test_the_core_uses_only_the_python_its_track_names(number: str) -> None:
    used, where = table()[number]
    missing = sorted(used - set(where))
    assert not missing, (f"{number}'s core code uses {missing}, named in no 'You need' of it or of an earlier "
                         "lesson on its track: name it (00's 'Python you will meet' teaches it) or write it plainer")


def test_every_feature_a_lesson_names_is_taught_in_00() -> None:
    text = primer()
    for number in ALL:
        for f in named(you_need(nbformat.read(lesson(number), as_version=4))):
            assert any(w in text for w in NAMES[f]), f"{number} names {f}, which 00's '{PRIMER}' does not teach"


def test_the_detector_sees_each_feature() -> None:
    code = '''
import heapq, itertools
from collections import deque
import numpy as np
class A:
    pass
def even(n):
    return n == 0 or odd(n - 1)
def odd(n):
    return n != 0 and even(n - 1)
def outer():
    x = 0
    def inner():
        nonlocal x
        yield from range(3)
    try:
        raise ValueError
    except ValueError:
        pass
    return sorted([i for i in range(3)], key=lambda i: -i), np.zeros(2)
a, b = 1, 2
hits = sum(x == 2 for x in (a, b))
print(f"{hits:4d}", max(*(a, b)), a if 0 < a < b else b, a >> 1)
q, r = divmod(7, 2)
seen = {}
seen.setdefault(q, []).append(seen.get(r, math.inf))
print(any(map(bool, [0])), all([]), next(iter(zip([1], [2]))), list(enumerate("ab")))
'''
    assert features([code]) == set(NAMES)
    assert features(["def f(n):\n    return [n]\n", "print(f(2))"]) == set()  # a call from outside is no recursion
    assert named(you_need(nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(
        "**You need:** loops, lambda. No numpy, no classes.")]))) == {"lambda"}


if __name__ == "__main__":
    for number, (used, where) in table().items():
        print(f"{number:4} " + ", ".join(f"{f} ({where.get(f, 'NOT NAMED')})" for f in sorted(used)))

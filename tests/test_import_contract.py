"""One import path per name (issue 36): the package's layers hold, no module re-exports another's names, no private
name crosses a module, and no two modules import each other (directly or round a loop, lazy imports included).

Every check reads the source (``ast``), so it sees imports inside functions as well as at the top of a file.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "tilelab"

#: Modules that gather other modules' public names for the lessons, as a package ``__init__`` does.
PUBLIC_FACES: set[str] = set()


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@lru_cache(maxsize=None)
def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


@lru_cache(maxsize=None)
def tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def is_package(module: str) -> bool:
    return modules()[module].name == "__init__.py"


@lru_cache(maxsize=None)
def defined(module: str) -> frozenset[str]:
    """Names a module defines itself: functions, classes, assignments at its top level (and in its if/try blocks)."""
    names: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
            elif isinstance(node, (ast.If, ast.Try)):
                visit(node.body)
                visit(node.orelse)
                for handler in getattr(node, "handlers", []):
                    visit(handler.body)

    visit(tree(modules()[module]).body)
    return frozenset(names)


def imports(path: Path) -> list[tuple[ast.ImportFrom, str]]:
    """Every ``from tilelab... import`` a file runs (top level or lazy), with the imported module's full name."""
    found = []
    type_only = {id(n) for block in ast.walk(tree(path)) if isinstance(block, ast.If)
                 and isinstance(block.test, ast.Name) and block.test.id == "TYPE_CHECKING" for n in ast.walk(block)}
    for node in ast.walk(tree(path)):
        if id(node) in type_only:  # ``if TYPE_CHECKING:`` imports are for the type checker, never run
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and node.module.startswith("tilelab"):
            found.append((node, node.module))
    return found


def sources() -> list[Path]:
    return [*modules().values(), *sorted((ROOT / "tests").rglob("*.py")), *sorted((ROOT / "benchmarks").glob("*.py"))]


# ------------------------------------------------------------------ the layers (import-linter)
def test_the_layers_hold():
    """widgets over exercises and plots over engines over the shared helpers; no engine imports another."""
    lint = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which("lint-imports")
    if lint is None:
        pytest.skip("import-linter is not installed (pip install -e '.[test]')")
    run = subprocess.run([lint, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]


# ------------------------------------------------------------------ one path per name
def test_no_private_name_crosses_a_module():
    crossing = [f"{module_name(path)}:{node.lineno} imports {mod}.{alias.name}"
                for path in modules().values() for node, mod in imports(path) if mod != module_name(path)
                for alias in node.names if alias.name.startswith("_") and not alias.name.startswith("__")]
    assert crossing == [], "a helper used by another module gets a public name in its own module:\n" + "\n".join(crossing)


@lru_cache(maxsize=None)
def _private_names(module: str) -> frozenset[str]:
    """The ``_private`` names a module itself defines or sets: functions, classes, attributes, variables, arguments."""
    found: set[str] = set()
    for node in ast.walk(tree(modules()[module])):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            found.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            found.add(node.id)
        elif isinstance(node, ast.arg):
            found.add(node.arg)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):  # a name given as text (setattr, slots)
            found.add(node.value)
    return frozenset(n for n in found if n.startswith("_") and not n.startswith("__"))


def test_no_private_attribute_crosses_a_module():
    """``Board._trusted(...)`` or ``net._cells`` reaches into another module's object as surely as an import does.

    A subclass or mixin may use its own ``self._name`` (inherited from another module); any other object's private
    attribute that only another tilelab module defines is a crossing: give it a public name.
    """
    everywhere = frozenset().union(*(_private_names(m) for m in modules()))
    crossing = []
    for module, path in modules().items():
        for node in ast.walk(tree(path)):
            if not (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")):
                continue
            if node.attr.endswith("_") or node.attr in _private_names(module) or node.attr not in everywhere:
                continue  # IPython's _repr_*_, this module's own, or not tilelab's (sys._getframe, namedtuple._replace)
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                continue
            crossing.append(f"{module}:{node.lineno} uses {ast.unparse(node)}")
    assert crossing == [], "another module's private attribute gets a public name:\n" + "\n".join(crossing)


#: Where a test reaches a private name on purpose, and why.
REACHES_IN_ON_PURPOSE = {("test_exercises_game2048.py", "_cells"): "a dishonest answer writing the storage its check guards",
                         ("test_exercises_watch.py", "_ALLOW_PACKAGE_CALLS"): "a dishonest answer setting the watch's flag"}


def test_tests_and_benchmarks_use_public_names():
    """A test or a benchmark reaches tilelab as a lesson does: no private module, name or attribute of tilelab's."""
    files = [*sorted((ROOT / "tests").rglob("*.py")), *sorted((ROOT / "benchmarks").glob("*.py"))]
    sources = {path: ast.parse(path.read_text(encoding="utf-8")) for path in files}
    own = {n.id if isinstance(n, ast.Name) else n.attr if isinstance(n, ast.Attribute) else n.name
           for source in sources.values() for n in ast.walk(source)
           if isinstance(n, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
           or isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
           or isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store) and ast.unparse(n.value) == "self"}  # the tests' own
    private = frozenset().union(*(_private_names(m) for m in modules())) - own
    found = []
    for path, source in sources.items():
        for node in ast.walk(source):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("tilelab"):
                names = [*node.module.split("."), *(alias.name for alias in node.names)]
            elif isinstance(node, ast.Import):
                names = [part for alias in node.names if alias.name.startswith("tilelab") for part in alias.name.split(".")]
            elif isinstance(node, ast.Attribute) and node.attr in private and (path.name, node.attr) not in REACHES_IN_ON_PURPOSE:
                names = [node.attr]
            else:
                continue
            found += [f"{path.relative_to(ROOT)}:{node.lineno} {name}" for name in names
                      if name.startswith("_") and not name.startswith(("__", "_jupyter", "_load_jupyter")) and not name.endswith("_")]
    assert found == [], "a test uses what a lesson would: give the name a public home, or test through one:\n" + "\n".join(found)


def test_every_name_is_imported_from_the_module_that_defines_it():
    """No caller (package, tests, benchmarks) goes through a module that only passes a name on.

    A package's ``__init__`` is its public face: code outside the package may import from it.
    """
    wrong = []
    for path in sources():
        here = module_name(path) if path.is_relative_to(PACKAGE) else ""
        for node, mod in imports(path):
            if mod not in modules():
                continue
            for alias in node.names:
                name = alias.name
                if f"{mod}.{name}" in modules() or name in defined(mod):
                    continue
                if (is_package(mod) or mod in PUBLIC_FACES) and not here.startswith(mod + "."):
                    continue
                wrong.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {name} from {mod}, which does not define it")
    assert wrong == [], "\n".join(wrong)


def test_no_module_re_exports_another_modules_names():
    """``__all__`` lists what a module defines (a package ``__init__`` gathers its submodules' names)."""
    facades = []
    for module, path in modules().items():
        if is_package(module) or module in PUBLIC_FACES:
            continue
        for node in tree(path).body:
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
                listed = {e.value for e in ast.walk(node.value) if isinstance(e, ast.Constant) and isinstance(e.value, str)}
                foreign = sorted(listed - defined(module))
                if foreign:
                    facades.append(f"{module}.__all__ lists names it does not define: {foreign}")
    assert facades == [], "\n".join(facades)


# ------------------------------------------------------------------ no cycles
def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {m: set() for m in modules()}
    for module, path in modules().items():
        for node, mod in imports(path):
            targets = {mod} | {f"{mod}.{a.name}" for a in node.names}
            for target in targets & set(modules()):
                if target != module and not (is_package(target) and module.startswith(target + ".")):
                    graph[module].add(target)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycle():
    """Lazy imports count: a loop made to work by importing inside a function is still a loop."""
    assert _cycles(_graph()) == []


def _hidden_edges() -> dict[str, set[str]]:
    """The imports :func:`imports` leaves out: ``if TYPE_CHECKING:`` blocks and ``import_module("tilelab...")``."""
    hidden: dict[str, set[str]] = {m: set() for m in modules()}
    for module, path in modules().items():
        for node in ast.walk(tree(path)):
            targets: set[str] = set()
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and node.module.startswith("tilelab"):
                targets = {node.module} | {f"{node.module}.{a.name}" for a in node.names}
            elif (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module"
                  and node.args and isinstance(node.args[0], ast.Constant) and str(node.args[0].value).startswith("tilelab")):
                targets = {str(node.args[0].value)}
            hidden[module] |= {t for t in targets & set(modules())
                               if t != module and not (is_package(t) and module.startswith(t + "."))}
    return hidden


def test_no_import_cycle_even_through_type_only_or_by_name_imports():
    """A loop hidden in ``if TYPE_CHECKING:`` or behind ``import_module("...")`` (as sliding core -> moves -> svg
    -> core was, for methods retired in 0.3.0) is still a loop for a reader."""
    graph = _graph()
    for module, targets in _hidden_edges().items():
        graph[module] |= targets
    assert _cycles(graph) == []


def test_a_module_inside_a_package_never_imports_that_package_whole():
    """``import tilelab.sliding as engine`` inside ``tilelab.sliding`` is the same loop through the package face."""
    whole = [f"{module}:{node.lineno} imports {alias.name}" for module, path in modules().items()
             for node in ast.walk(tree(path)) if isinstance(node, ast.Import) for alias in node.names
             if alias.name != "tilelab" and alias.name in modules() and module.startswith(alias.name + ".")]
    assert whole == [], "\n".join(whole)


def test_a_module_inside_a_package_never_imports_its_own_package_face():
    """(A name the package ``__init__`` defines itself is fine: that is where it lives.)"""
    inward = [f"{module}:{node.lineno} imports {alias.name} from {mod}"
              for module, path in modules().items() for node, mod in imports(path)
              if mod in modules() and is_package(mod) and module.startswith(mod + ".")
              for alias in node.names if alias.name not in defined(mod) and f"{mod}.{alias.name}" not in modules()]
    assert inward == [], "\n".join(inward)

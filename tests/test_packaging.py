"""The project's own promises: pure engines, Binder and pip environments in step."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENGINE_PACKAGES = ("game2048", "sliding", "match3")
UI_LIBRARIES = {"ipywidgets", "ipycanvas", "matplotlib", "IPython", "PIL"}
# Engines may import the standard library, numpy and tilelab itself; numba only via tilelab.jit.
ALLOWED_THIRD_PARTY = {"numpy", "tilelab"}
# ... but not tilelab's tooling: the tooling imports the engines, never the other way round.
TOOLING = ("tilelab.warm", "tilelab.teach", "tilelab.widgets", "tilelab.plots", "tilelab.exercises", "tilelab.results")


def _engine_files() -> list[Path]:
    files = []
    for name in ENGINE_PACKAGES:
        pkg = ROOT / "tilelab" / name
        files += sorted(pkg.rglob("*.py")) if pkg.is_dir() else []
        single = ROOT / "tilelab" / f"{name}.py"
        files += [single] if single.exists() else []
    return files


def _imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def _imported_modules(path: Path) -> set[str]:
    """Every module an engine file names: its imports (``from a import b`` also names ``a.b``) and
    the dotted names in strings that spell a tilelab module (what ``importlib.import_module`` would load)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names |= {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and re.fullmatch(
                r"tilelab(\.\w+)+(:\w+)?", node.value):
            names.add(node.value.split(":")[0])
    return names


def _tooling(names: set[str]) -> list[str]:
    return sorted(n for n in names if any(n == t or n.startswith(t + ".") for t in TOOLING))


def test_engine_modules_exist():
    assert _engine_files(), "no engine modules found under tilelab/"


@pytest.mark.parametrize("path", _engine_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_engine_imports_only_stdlib_and_numpy(path: Path):
    roots = _imported_roots(path)
    foreign = {r for r in roots if r not in sys.stdlib_module_names and r not in ALLOWED_THIRD_PARTY}
    assert not foreign, f"{path.name} imports {sorted(foreign)}: engines import only stdlib + numpy"
    tooling = _tooling(_imported_modules(path))
    assert not tooling, f"{path.name} imports tilelab tooling {tooling}: engines never import {', '.join(TOOLING)}"


def test_importing_engines_loads_no_ui_library():
    # every engine module, not just the packages: a module the package does not import is checked too
    modules = [".".join(p.relative_to(ROOT).with_suffix("").parts) for p in _engine_files()]
    modules = [m.removesuffix(".__init__") for m in modules]
    code = (
        "import sys\n"
        + "".join(f"import {m}\n" for m in modules)
        + f"print(sorted(m for m in sys.modules if m.split('.')[0] in {sorted(UI_LIBRARIES)!r}"
        + f" or m.startswith({TOOLING!r})))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", f"importing the engines loaded {out.stdout.strip()}"


def test_the_import_rule_catches_a_ui_import(tmp_path: Path):
    bad = tmp_path / "bad.py"
    bad.write_text("import numpy\nfrom matplotlib import pyplot\n")
    assert "matplotlib" in _imported_roots(bad)


def test_the_import_rule_catches_tooling_imports(tmp_path: Path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import numpy\nfrom tilelab import warm\nimport tilelab.teach.site\n"
        "def later():\n    from tilelab.plots.solvers import plot_search_step\n"
        "TASKS = ('tilelab.exercises.sliding', 'tilelab.results:record')\n"
        "from tilelab.sliding.core import Board\nfrom tilelab import inputs\n"
        "HELP = 'see tilelab.widgets for the boards'\n"  # prose, not a module name
    )
    found = _tooling(_imported_modules(bad))
    assert {"tilelab.exercises.sliding", "tilelab.plots.solvers", "tilelab.results", "tilelab.teach.site",
            "tilelab.warm"} <= set(found)
    assert not [n for n in found if "widgets" in n or "sliding.core" in n or "inputs" in n]


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~ \[;]", requirement.strip(), maxsplit=1)[0].lower()


def _pyproject_requirements() -> dict[str, str]:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = meta["dependencies"] + meta["optional-dependencies"]["lab"]
    # environment markers (numba's "not in the browser") have no conda spelling: compare what comes before
    return {_name(r): r.split(";")[0].replace(" ", "") for r in reqs}


def _conda_requirements() -> dict[str, str]:
    deps: dict[str, str] = {}
    in_deps = False
    for line in (ROOT / "environment.yml").read_text().splitlines():
        if line.startswith("dependencies:"):
            in_deps = True
        elif in_deps and line.strip().startswith("- "):
            spec = line.strip()[2:].strip()
            deps[_name(spec)] = spec.replace(" ", "")
        elif in_deps and line and not line.startswith(" "):
            in_deps = False
    deps.pop("python", None)
    deps.pop("pip", None)
    return deps


def test_environment_yml_matches_pyproject():
    assert _conda_requirements() == _pyproject_requirements()


def test_numba_is_skipped_in_the_browser_only():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    numba = [r for r in meta["dependencies"] if _name(r) == "numba"]
    assert len(numba) == 1 and numba[0].split(";")[1].replace(" ", "").replace('"', "'") == \
        "sys_platform!='emscripten'", f"numba must carry the marker sys_platform != 'emscripten', got {numba}"


def test_environment_yml_python_floor_matches_pyproject():
    floor = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    assert f"python{floor}" in (ROOT / "environment.yml").read_text().replace(" ", "")


def test_binder_installs_the_package():
    post = (ROOT / "postBuild").read_text()
    assert "pip install --no-deps -e ." in post


def test_as_generator_refuses_junk_with_a_clear_error():
    from tilelab.randomness import as_generator

    with pytest.raises(ValueError, match="non-negative"):
        as_generator(-1)
    with pytest.raises(TypeError, match="seed"):
        as_generator("42")
    with pytest.raises(TypeError):
        as_generator(True)


def test_readme_commands_are_makefile_targets_that_bootstrap_the_venv():
    readme = (ROOT / "README.md").read_text()
    makefile = (ROOT / "Makefile").read_text()
    for target in ("lab", "test"):
        assert f"make {target}" in readme
        assert re.search(rf"^{target}: \$\(STAMP\)", makefile, re.M), f"make {target} must bootstrap .venv"
    assert "jupyter lab $(LAB_DIR)/" in makefile and "--allow-root" in makefile
    assert "LAB_DIR := $(if $(TEACHER),notebooks,student)" in makefile  # the student editions by default
    assert "make test" in (ROOT / ".ci" / "run").read_text()

"""numba's disk cache of tilelab's compiled functions goes stale when any module they may call changes."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tilelab import jit

pytestmark = pytest.mark.skipif(not jit.HAVE_NUMBA, reason="about numba's disk cache")

HELPER = "from tilelab.jit import njit\n\n\n@njit\ndef helper():\n    return {}\n"
OUTER = "from tilelab.jit import njit\nfrom tilelab.probe.a import helper\n\n\n@njit\ndef outer():\n    return helper() + 10\n"
RUN = ("import json; from {module} import outer; value = outer(); "
       "print(json.dumps([value, sum(outer.stats.cache_hits.values()), type(outer._cache._impl.locator).__name__]))")


@pytest.fixture
def package(tmp_path: Path) -> Path:
    """A copy of tilelab's top-level modules, a subpackage ``probe`` (``b.outer`` calls ``a.helper``, another file)
    and a sibling subpackage ``other``."""
    root = tmp_path / "src"
    for sub in ("probe", "other"):
        (root / "tilelab" / sub).mkdir(parents=True)
        (root / "tilelab" / sub / "__init__.py").write_text("")
    for module in Path(jit.__file__).parent.glob("*.py"):
        shutil.copy(module, root / "tilelab" / module.name)
    (root / "tilelab" / "probe" / "a.py").write_text(HELPER.format(1))
    (root / "tilelab" / "probe" / "b.py").write_text(OUTER)
    (root / "tilelab" / "other" / "c.py").write_text("X = 1\n")
    (root / "student.py").write_text(OUTER)  # a module outside the package
    return root


def run(root: Path, module: str = "tilelab.probe.b") -> tuple[int, int, str]:
    """In a fresh process: ``outer()``, how many compiled versions came from the disk cache, the cache locator."""
    env = {k: v for k, v in os.environ.items() if k not in ("TILELAB_NO_JIT", "PYTHONPATH")}
    done = subprocess.run([sys.executable, "-c", RUN.format(module=module)], cwd=root, env={**env, "PYTHONPATH": str(root)},
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    value, hits, locator = json.loads(done.stdout.strip().splitlines()[-1])
    return value, hits, locator


def test_an_edited_helper_in_another_file_is_compiled_afresh(package):
    assert run(package)[:2] == (11, 0)  # compiled, then saved
    assert run(package)[:2] == (11, 1)  # nothing changed: from the disk cache
    (package / "tilelab" / "probe" / "a.py").write_text(HELPER.format(2))
    assert run(package)[:2] == (12, 0)  # numba alone would load the stale 11 here (outer's own file is unchanged)
    assert run(package)[:2] == (12, 1)


def test_only_its_own_subpackage_and_the_top_level_modules_count(package):
    run(package)
    (package / "tilelab" / "other" / "c.py").write_text("X = 2\n")  # another subpackage: the cache still serves
    value, hits, locator = run(package)
    assert (value, hits) == (11, 1) and locator.startswith("Tilelab")
    with open(package / "tilelab" / "inputs.py", "a") as module:  # a top-level module: compiled afresh
        module.write("\n# edited\n")
    assert run(package)[:2] == (11, 0)


def test_functions_outside_the_package_are_cached_as_numba_does(package):
    value, hits, locator = run(package, "student")
    assert value == 11 and not locator.startswith("Tilelab")
    assert jit.install_cache_stamp() is True  # installed once, however often it is called
    from numba.core import caching
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl")
    assert sum(getattr(cls, "_tilelab_stamp", False) for cls in impl._locator_classes) == len(
        [cls for cls in impl._locator_classes if not getattr(cls, "_tilelab_stamp", False)])

"""tilelab's wheel, and data-only wheels, built by ``pip wheel`` from a staged copy of the checkout.

The student repository carries tilelab's wheel (``make student``); the browser edition loads it and two data-only
wheels beside it (``make lite``).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

from tilelab.teach.lite_fetch import LiteBuildError, run

_STAGED = ("pyproject.toml", "README.md", "tilelab", "jupyter-config")  # what ``pip wheel`` builds tilelab from
_IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.nbi", "*.nbc")
#: Zip timestamps of the wheels (``SOURCE_DATE_EPOCH``): the same checkout gives the same bytes.
_WHEEL_EPOCH = "315532800"
#: The pyproject of a data-only wheel the browser edition loads beside tilelab (the saved results, matplotlib's
#: font list): one package folder and the files it carries, built by ``pip wheel`` like tilelab's own.
DATA_PROJECT = """\
[build-system]
requires = ["setuptools>=77"]
build-backend = "setuptools.build_meta"

[project]
name = "{name}"
version = "{version}"
description = "{description}"
license = "MIT"
requires-python = ">=3.10"

[tool.setuptools.packages.find]
include = ["{top}*"]
namespaces = true

[tool.setuptools.package-data]
"{package}" = {patterns}
"""


def data_project(name: str, description: str, package: str, patterns: list[str]) -> str:
    """The pyproject.toml of a data-only wheel: ``package`` (dotted) carrying the files matching ``patterns``.

    >>> print(data_project("x-data", "d", "x.data", ["*.json"]).splitlines()[-1])
    "x.data" = ["*.json"]
    """
    import tilelab

    return DATA_PROJECT.format(name=name, version=tilelab.__version__, description=description,
                               top=package.split(".")[0], package=package, patterns=json.dumps(patterns))


def pip_wheel(project: Path, out_dir: Path, what: str) -> Path:
    """Build ``project`` (a folder with a ``pyproject.toml``) into one wheel in ``out_dir`` with ``pip wheel``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    before = set(out_dir.glob("*.whl"))
    env = {**os.environ, "SOURCE_DATE_EPOCH": _WHEEL_EPOCH, "PIP_NO_INPUT": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", str(out_dir), str(project)],
         f"pip wheel ({what})", env=env, timeout=1800)
    made = sorted(set(out_dir.glob("*.whl")) - before) or sorted(out_dir.glob("*.whl"))
    if len(made) != 1:
        raise LiteBuildError(f"pip wheel ({what}) wrote {[p.name for p in made]}, expected one wheel")
    return made[0]


def build_tilelab_wheel(out_dir: Path, repo_root: Path | None = None) -> Path:
    """``tilelab-VERSION-py3-none-any.whl`` built by ``pip wheel`` from a copy of the checkout, in ``out_dir``.

    The lock gives its dependencies in the browser (:data:`TILELAB_DEPENDS`; numba's environment marker leaves it
    out there).
    """
    with tempfile.TemporaryDirectory(prefix="tilelab-wheel-") as tmp:
        return pip_wheel(stage_tilelab(Path(tmp) / "tilelab-src", repo_root), Path(out_dir), "tilelab")


def stage_tilelab(dest: Path, repo_root: Path | None = None) -> Path:
    """A copy of what tilelab's wheel is built from (``pyproject.toml``, ``README.md``, ``tilelab/``,
    ``jupyter-config/``; no caches) at ``dest``: the build writes nothing into the checkout."""
    import tilelab

    repo_root = Path(repo_root) if repo_root is not None else Path(tilelab.__file__).resolve().parents[1]
    dest.mkdir(parents=True)
    for name in _STAGED:
        source = repo_root / name
        if source.is_dir():
            shutil.copytree(source, dest / name, ignore=_IGNORED)
        elif source.is_file():
            shutil.copy2(source, dest / name)
    return dest

"""Files a reader can hold (issues 20 and 36): a module over about 600 lines is a smell to split by concept (moving
its callers with it, never leaving a facade behind); past 800 lines it is a defect. The lite build's split
(downloads, launch links) keeps its older import path to the very same objects."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "tilelab"
LIMIT = 800  #: "about 600" is the smell; this is where it becomes a defect


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_module_is_short(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= LIMIT, (f"{path.relative_to(PACKAGE.parent)} has {lines} lines: split it by concept and import "
                            "each name from its new home (no facade)")


@pytest.mark.parametrize("part, names", [
    ("tilelab.teach.lite_fetch", ["cache_dir", "cached_file", "lock_files", "fetch_wheel", "LiteBuildError",
                                  "PYODIDE_VERSION", "WHEEL_TRANSPORT"]),
    ("tilelab.teach.links", ["check_repo", "check_branch", "lesson_links", "lesson_url", "print_links"]),
])
def test_lite_split_keeps_the_old_import_path(part: str, names: list[str]) -> None:
    lite = importlib.import_module("tilelab.teach.lite")
    module = importlib.import_module(part)
    for name in names:
        assert getattr(lite, name) is getattr(module, name), f"tilelab.teach.lite.{name} is not {part}.{name}"

"""Modules split along their seams (issues 20 and 36): each name has one home and one import path; the older
paths that splits and re-exports left behind warn, name the new home, and still give the very same object until
they go (``tilelab._deprecation.REMOVED_IN``); rendering loads lazily."""

from __future__ import annotations

import importlib
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from tilelab._deprecation import REMOVED_IN, RENAMED

ROOT = Path(__file__).resolve().parents[1]

#: older module paths that only forward, each to the modules its code now lives in
OLDER_MODULES = {
    "tilelab.game2048.core": ["tilelab.game2048.board", "tilelab.game2048.rules", "tilelab.game2048.chance",
                              "tilelab.game2048.game"],
    "tilelab.match3.core": ["tilelab.match3.board", "tilelab.match3.matches", "tilelab.match3.cascade",
                            "tilelab.match3.moves"],
    "tilelab.match3.specials": ["tilelab.match3.special_board", "tilelab.match3.special_rules",
                                "tilelab.match3.special_reshuffle"],
}


def _older_paths() -> list[str]:
    """Every older module path: each module registers its older names when it is imported, so import them all."""
    import pkgutil

    import tilelab

    for found in pkgutil.walk_packages(tilelab.__path__, "tilelab."):
        if not found.name.startswith("tilelab.teach"):
            importlib.import_module(found.name)
    return sorted(old for old, new in RENAMED.items() if "(" not in old and "=" not in old)


@pytest.mark.parametrize("old", sorted(OLDER_MODULES))
def test_an_older_module_forwards_every_name_with_a_warning(old):
    module = importlib.import_module(old)
    for new in OLDER_MODULES[old]:
        part = importlib.import_module(new)
        for name in getattr(part, "__all__", []):
            if f"{old}.{name}" not in RENAMED:
                continue
            with pytest.warns(DeprecationWarning, match=rf"{old}\.{name} is deprecated and goes in tilelab {REMOVED_IN}"):
                value = getattr(module, name)
            assert value is getattr(part, name), f"{old}.{name} is not {new}.{name}"


def test_every_older_path_warns_and_gives_the_new_object():
    paths = _older_paths()
    assert len(paths) > 100
    for old in paths:
        module, _, name = old.rpartition(".")
        new_module, _, new_name = RENAMED[old].rpartition(".")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            value = getattr(importlib.import_module(module), name)
        new = getattr(importlib.import_module(new_module), new_name)
        if getattr(value, "__wrapped__", None) is new:  # an older function name: calling it warns
            assert caught == [] and "deprecated" in value.__doc__, old
            continue
        assert [w.category for w in caught] == [DeprecationWarning], old
        assert RENAMED[old] in str(caught[0].message), old
        assert value is new, old


def test_a_missing_name_on_an_older_module_is_an_attribute_error():
    import tilelab.match3.core as core

    with pytest.raises(AttributeError, match="no_such_name"):
        core.no_such_name  # noqa: B018


def test_2048_palette_is_imported_only_when_a_board_is_drawn():
    code = ("import sys, tilelab.game2048 as g\n"
            "assert 'tilelab.game2048.palette' not in sys.modules, 'palette imported by the engine'\n"
            "g.Board.parse('2 .\\n. 4')._repr_html_()\n"
            "assert 'tilelab.game2048.palette' in sys.modules\n")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, timeout=120)

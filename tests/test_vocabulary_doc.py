"""docs/vocabulary.md is the reference for tilelab's words (issue 36): its signatures are the code's; the names
retired in 0.3.0 are listed in CHANGELOG.md, whose newest release is the package's version."""

from __future__ import annotations

import importlib
import inspect
import re
import sys
from pathlib import Path

import pytest

import tilelab

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "vocabulary.md"


def _resolve(dotted: str):
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            value = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for part in parts[cut:]:
            value = getattr(value, part)
        return value
    raise ImportError(dotted)


def _signatures() -> list[tuple[str, str]]:
    text = DOC.read_text(encoding="utf-8")
    block = text.split("## Public signatures", 1)[1].split("```text", 1)[1].split("```", 1)[0]
    found = []
    for line in block.strip().splitlines():
        name, params = re.fullmatch(r"([\w.]+)\((.*)\)", line.strip()).groups()
        found.append((name, params))
    return found


@pytest.mark.parametrize("name, params", _signatures(), ids=[n for n, _ in _signatures()])
def test_each_listed_signature_is_the_codes(name, params):
    value = _resolve(name)
    signature = inspect.signature(value.__init__ if inspect.isclass(value) else value)
    parameters = [p for p in signature.parameters.values() if not (inspect.isclass(value) and p.name == "self")]
    shown = []
    star = False
    for p in parameters:
        if p.kind is p.KEYWORD_ONLY and not star:
            shown.append("*")
            star = True
        if p.kind is p.VAR_POSITIONAL:
            star = True
        text = p.name
        if p.default is not p.empty:
            default = p.default
            text += "=" + (f"<{default.__name__.lstrip('_')}>" if callable(default) and not inspect.isclass(default)
                           else f"<{default.name.upper()}>" if hasattr(default, "name") and hasattr(default, "specials")
                           else repr(default))
        shown.append(text)
    assert ", ".join(shown) == params, f"{name}: the code says ({', '.join(shown)})"


def test_the_package_docstring_links_the_vocabulary():
    assert "docs/vocabulary.md" in tilelab.__doc__


def test_the_changelog_newest_release_is_the_package_version():
    if sys.version_info >= (3, 11):
        import tomllib
    else:
        import tomli as tomllib
    newest = re.search(r"^## (\S+)", (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"), re.M).group(1)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert newest == tilelab.__version__ == project

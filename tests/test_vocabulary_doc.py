"""docs/vocabulary.md is the reference for tilelab's words (issue 36): its signatures are the code's, and its list of
older names is exactly the list of names that still work with a DeprecationWarning."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import pytest

import tilelab
from tilelab._deprecation import REMOVED_IN, RENAMED

DOC = Path(__file__).resolve().parents[1] / "docs" / "vocabulary.md"
START, END = "<!-- renamed:start -->", "<!-- renamed:end -->"


def _import_everything() -> None:
    """Every module registers its older names when imported."""
    for found in pkgutil.walk_packages(tilelab.__path__, "tilelab."):
        if not found.name.startswith("tilelab.teach"):
            importlib.import_module(found.name)


def rename_table() -> str:
    """The rename list as docs/vocabulary.md prints it (``python -m tests.test_vocabulary_doc`` rewrites it)."""
    _import_everything()
    rows = [f"| `{old}` | `{new}` |" for old, new in sorted(RENAMED.items())]
    return "\n".join(["| older name | new name |", "|---|---|", *rows])


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


def test_the_rename_list_is_every_older_name():
    text = DOC.read_text(encoding="utf-8")
    listed = text[text.index(START) + len(START):text.index(END)].strip()
    assert listed == rename_table(), "run `python -m tests.test_vocabulary_doc` to rewrite the list"
    assert f"**{REMOVED_IN.rsplit('.', 1)[0]}" in text or REMOVED_IN in text


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


if __name__ == "__main__":  # rewrite the rename list in docs/vocabulary.md
    text = DOC.read_text(encoding="utf-8")
    head, rest = text.split(START, 1)
    DOC.write_text(head + START + "\n" + rename_table() + "\n" + END + rest.split(END, 1)[1], encoding="utf-8")

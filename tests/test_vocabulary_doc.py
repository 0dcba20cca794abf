"""docs/vocabulary.md is the reference for tilelab's words (issue 36): its signatures are the code's, and its list of
older names is exactly the list of names that still work with a DeprecationWarning."""

from __future__ import annotations

import ast
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


WARNED_START, WARNED_END = "<!-- warned:start -->", "<!-- warned:end -->"


def _text(node: ast.expr) -> str:
    """A warn() argument as a reader sees it: an f-string's fields become ``<field>``."""
    if isinstance(node, ast.Constant):
        return str(node.value)
    if isinstance(node, ast.JoinedStr):
        return "".join(_text(v) if isinstance(v, ast.Constant) else f"<{ast.unparse(v.value)}>" for v in node.values)
    return f"<{ast.unparse(node)}>"


def warned_table() -> str:
    """Every older method, keyword and use that warns through ``tilelab._deprecation`` (``warn``, ``renamed_keyword``;
    read from the source)."""
    rows = set()
    for path in sorted(Path(tilelab.__file__).parent.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            module = ".".join(path.relative_to(Path(tilelab.__file__).parent.parent).with_suffix("").parts)
            if node.func.id == "warn" and len(node.args) >= 2 and module != "tilelab._deprecation":
                rows.add(f"| `{_text(node.args[0])}` | `{_text(node.args[1])}` | `{module}` |")
            elif node.func.id == "renamed_keyword" and len(node.args) == 5 and module != "tilelab._deprecation":
                where, new, old = _text(node.args[0]), _text(node.args[1]), _text(node.args[3])
                rows.add(f"| `{where}({old}=...)` | `{where}({new}=...)` | `{module}` |")
            elif node.func.id == "rng_or_seed" and len(node.args) == 3:  # it warns for its caller's seed=
                where = _text(node.args[2])
                rows.add(f"| `{where}(seed=...)` | `{where}(rng=...)` | `{module}` |")
    return "\n".join(["| older use | write instead | warned in |", "|---|---|---|", *sorted(rows)])


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


def test_every_older_method_keyword_and_use_is_listed():
    text = DOC.read_text(encoding="utf-8")
    listed = text[text.index(WARNED_START) + len(WARNED_START):text.index(WARNED_END)].strip()
    assert listed == warned_table(), "run `python -m tests.test_vocabulary_doc` to rewrite the list"


def test_an_older_use_warns_naming_its_replacement_and_the_release():
    from tilelab._deprecation import warn

    with pytest.warns(DeprecationWarning, match=rf"old\.name is deprecated and goes in tilelab {REMOVED_IN}; use new\.name"):
        warn("old.name", "new.name", stacklevel=2)


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
    text = head + START + "\n" + rename_table() + "\n" + END + rest.split(END, 1)[1]
    head, rest = text.split(WARNED_START, 1)
    text = head + WARNED_START + "\n" + warned_table() + "\n" + WARNED_END + rest.split(WARNED_END, 1)[1]
    DOC.write_text(text, encoding="utf-8")

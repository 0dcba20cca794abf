"""Files a reader can hold (issues 20, 36 and 45): no module of the package is over 650 lines; one past it is split by
concept (moving its callers with it, never leaving a facade behind). The lite build's split (downloads, launch
links) keeps its older import path to the very same objects."""

from __future__ import annotations

from pathlib import Path


PACKAGE = Path(__file__).resolve().parents[1] / "tilelab"
LIMIT = 650  #: lines a module may have


def test_no_module_is_over_the_limit():
    sizes = {str(path.relative_to(PACKAGE.parent)): len(path.read_text(encoding="utf-8").splitlines())
             for path in sorted(PACKAGE.rglob("*.py"))}
    assert len(sizes) > 50  # the package was found
    too_long = {name: lines for name, lines in sizes.items() if lines > LIMIT}
    assert too_long == {}, (f"modules over {LIMIT} lines: {too_long}; split each by concept and import every name "
                            "from its new home (no facade)")

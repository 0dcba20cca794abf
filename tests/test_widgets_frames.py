"""A stepper's stored frames (tilelab.widgets.frames): its mimebundle carries the bounded set of frames beside the
live widget, and the page made from them shows each frame's caption as text and as the picture's alt text."""

from __future__ import annotations

import base64
from html.parser import HTMLParser

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from tilelab.game2048 import Board, legal_moves  # noqa: E402
from tilelab.game2048.tree import expectimax_tree  # noqa: E402
from tilelab.sliding import manhattan, shuffle  # noqa: E402
from tilelab.sliding.trace import astar_trace, bfs_trace  # noqa: E402
from tilelab.widgets.access import plain_text  # noqa: E402
from tilelab.widgets.frames import FRAMES_MIME, PAGE_FRAMES_ENV, shown_steps, stepper_html  # noqa: E402
from tilelab.widgets.search_stepper import SearchStepper, step_summary  # noqa: E402

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


class Page(HTMLParser):
    """The figures of a stepper page: (sequence, hidden, alt, picture bytes, caption text) each."""

    def __init__(self) -> None:
        super().__init__()
        self.figures: list[dict] = []
        self.buttons: list[str] = []
        self._in: str | None = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = dict(attrs)
        if tag == "figure":
            self.figures.append({"seq": int(a["data-seq"]), "hidden": "hidden" in a, "caption": ""})
        elif tag == "img":
            assert a["src"].startswith("data:image/png;base64,"), "a frame is inside the page, never fetched"
            self.figures[-1].update(alt=a["alt"], png=base64.b64decode(a["src"].split(",", 1)[1]))
        elif tag in ("figcaption", "button"):
            self._in = tag
            if tag == "button":
                self.buttons.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == self._in:
            self._in = None

    def handle_data(self, data: str) -> None:
        if self._in == "figcaption":
            self.figures[-1]["caption"] += data
        elif self._in == "button":
            self.buttons[-1] += data


@pytest.fixture(autouse=True)
def for_the_website(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lessons executed for the website (TILELAB_PAGE_FRAMES=1): the only time steppers store their frames."""
    monkeypatch.setenv(PAGE_FRAMES_ENV, "1")


def _bundle(stepper) -> dict:
    bundle = stepper._repr_mimebundle_()
    return bundle[0] if isinstance(bundle, tuple) else bundle


def test_a_students_kernel_renders_no_frames(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without TILELAB_PAGE_FRAMES a stepper's output is the widget and its still picture: no frame is drawn."""
    import tilelab.widgets.search_stepper as module
    from tilelab.sliding import Board as SlidingBoard

    board = SlidingBoard.parse("1 2 3\n4 5 6\n7 . 8")
    monkeypatch.delenv(PAGE_FRAMES_ENV)
    drawn = []
    monkeypatch.setattr(module, "frame_png", lambda fig, dpi: drawn.append(fig) or b"")
    data = _bundle(SearchStepper({"A*": astar_trace(board, manhattan)}))
    assert FRAMES_MIME not in data and "image/png" in data and drawn == []
    monkeypatch.setenv(PAGE_FRAMES_ENV, "0")
    assert FRAMES_MIME not in _bundle(SearchStepper({"A*": astar_trace(board, manhattan)})) and drawn == []
    monkeypatch.setenv(PAGE_FRAMES_ENV, "1")
    assert FRAMES_MIME in _bundle(SearchStepper({"A*": astar_trace(board, manhattan)})) and drawn


@pytest.mark.parametrize("total, limit", [(1, 2), (2, 2), (5, 40), (39, 40), (41, 40), (402, 13), (921, 13)])
def test_shown_steps_are_bounded_even_and_keep_first_and_last(total: int, limit: int) -> None:
    steps, every = shown_steps(total, limit)
    assert len(steps) <= limit and steps[0] == 0 and steps[-1] == total - 1
    assert steps == sorted(set(steps))
    assert all(b - a == every for a, b in zip(steps[:-2], steps[1:-1]))  # evenly spaced, the last may be closer
    assert (len(steps) == total) == (total <= limit)


def test_stored_frames_that_are_not_frames_are_refused() -> None:
    with pytest.raises(ValueError, match="re-run the stepper's cell"):
        stepper_html({"title": "x", "sequences": [{"name": "BFS"}]})


def test_shown_steps_refuse_nonsense() -> None:
    with pytest.raises(ValueError, match="at least one step"):
        shown_steps(0)
    with pytest.raises(ValueError, match="limit of 2"):
        shown_steps(10, 1)


def test_search_stepper_bundle_carries_the_bounded_frames_and_captions(monkeypatch: pytest.MonkeyPatch) -> None:
    import tilelab.widgets.search_stepper as module

    monkeypatch.setattr(module, "MAX_FRAMES", 8)  # 4 frames a search: quick, and BFS has more steps than that
    board = shuffle(3, 3, rng=4, method="walk", steps=6)
    traces = {"BFS": bfs_trace(board), "A*": astar_trace(board, manhattan)}
    assert len(traces["BFS"].steps) > 4
    stepper = SearchStepper(traces)
    data = _bundle(stepper)
    assert WIDGET_VIEW in data and "image/png" in data  # JupyterLab's widget and the still picture stay
    assert "text/html" not in data, "JupyterLab would show it before the still picture in an untrusted notebook"
    page = Page()
    page.feed(stepper_html(data[FRAMES_MIME]))
    for s, (name, trace) in enumerate(traces.items()):
        steps, every = shown_steps(len(trace.steps), 4)
        figures = [f for f in page.figures if f["seq"] == s]
        assert len(figures) == len(steps)
        for k, (figure, step) in enumerate(zip(figures, steps)):
            caption = plain_text(step_summary(name, trace, step))
            assert figure["alt"] == caption and caption in " ".join(figure["caption"].split())
            assert figure["png"].startswith(b"\x89PNG")
            assert f"frame {k + 1} of {len(steps)}" in figure["caption"]
            if every > 1:
                assert "step shown" in figure["caption"]
    assert [f["hidden"] for f in page.figures].count(False) == 1 and not page.figures[0]["hidden"]
    assert len({f["png"] for f in page.figures}) == len(page.figures)  # each frame its own picture
    assert [" ".join(b.split()) for b in page.buttons] == ["« first", "◀ back", "▶ play", "next ▶", "last »"]
    assert data[FRAMES_MIME] == stepper.page_frames(), "the same frames give the same output (no churn on re-run)"


def test_tree_stepper_bundle_carries_every_frame_when_few() -> None:
    from tilelab.widgets.expectimax_tree import TreeStepper

    tree = expectimax_tree(Board.parse("8 4\n2 ."), 1, evaluate=lambda b: 1.0 if legal_moves(b) else 0.0)
    stepper = TreeStepper(tree, step=3)
    data = _bundle(stepper)
    page = Page()
    page.feed(stepper_html(data[FRAMES_MIME]))
    assert len(page.figures) == len(tree.steps) + 1  # events 0..n, all kept (fewer than MAX_FRAMES)
    assert [f["alt"] for f in page.figures] == [plain_text(tree.describe(k)) for k in range(len(tree.steps) + 1)]
    assert "step shown" not in stepper_html(data[FRAMES_MIME])
    assert [k for k, f in enumerate(page.figures) if not f["hidden"]] == [3], "the page opens where the widget was"
    assert WIDGET_VIEW in data and base64.b64decode(data["image/png"]) == stepper.image.value

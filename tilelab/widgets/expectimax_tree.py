"""Step through an expectimax search on a tiny board: a slider and buttons over the search's events.

The tree comes from :func:`tilelab.game2048.tree.expectimax_tree` (pure data); each step is drawn by
:func:`tilelab.plots.game2048_ai.plot_expectimax_tree` into a PNG shown in an ``ipywidgets.Image``,
so the stepper works in JupyterLab, in classic Notebook and in a saved notebook (no kernel-side
canvas needed). ``TreeStepper(tree).show(k)`` jumps to event ``k``.
"""

from __future__ import annotations

import base64
import html
import io
from typing import Any

import ipywidgets as widgets
import matplotlib.pyplot as plt

from tilelab.game2048.tree import ExpectimaxTree
from tilelab.plots.game2048_ai import plot_expectimax_tree
from tilelab.widgets.frames import (FRAMES_MIME, MAX_FRAMES, TitledImage, frame_png, frames_data, page_frames_wanted,
                                     still_sequence)

__all__ = ["TreeStepper"]

PAGE_DPI = 72  # the stored page's frames: 1,000 px wide, readable, about 30 KB each


class TreeStepper(widgets.VBox):
    """◀ / ▶ buttons and a slider over the events of an :class:`ExpectimaxTree`, with the picture and a caption.

    >>> from tilelab.game2048 import Board
    >>> from tilelab.game2048.tree import expectimax_tree
    >>> s = TreeStepper(expectimax_tree(Board.parse("8 4\\n2 ."), 1, evaluate=lambda b: 1.0))
    >>> s.slider.max, s.step
    (14, 14)
    >>> s.show(1); s.caption.value
    '<b>step 1: visit the max node (we move) reached by the root</b>'
    """

    def __init__(self, tree: ExpectimaxTree, step: int | None = None) -> None:
        if not isinstance(tree, ExpectimaxTree):
            raise TypeError(f"tree must be an ExpectimaxTree (from expectimax_tree(...)), got {type(tree).__name__}")
        self.tree = tree
        last = len(tree.steps)
        self.slider = widgets.IntSlider(value=0, min=0, max=last, description="step",
                                        continuous_update=False, layout=widgets.Layout(width="420px"))
        self.back = widgets.Button(description="◀", layout=widgets.Layout(width="48px"), tooltip="previous event")
        self.forward = widgets.Button(description="▶", layout=widgets.Layout(width="48px"), tooltip="next event")
        self.caption = widgets.HTML()
        self.image = TitledImage(format="png")
        self.back.on_click(lambda _b: self.show(self.slider.value - 1))
        self.forward.on_click(lambda _b: self.show(self.slider.value + 1))
        self.slider.observe(lambda change: self._draw(change["new"]), names="value")
        super().__init__([widgets.HBox([self.back, self.slider, self.forward]), self.caption, self.image])
        self.show(last if step is None else step)
        if self.slider.value == 0:  # the slider did not move, so nothing has been drawn yet
            self._draw(0)

    @property
    def step(self) -> int:
        """The event shown now (0 = nothing searched yet)."""
        return int(self.slider.value)

    def show(self, step: int) -> None:
        """Jump to event ``step`` (clamped to the first and last event)."""
        self.slider.value = max(0, min(int(step), self.slider.max))

    def _draw(self, step: int) -> None:
        fig = plot_expectimax_tree(self.tree, step)
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=90)
        plt.close(fig)
        self.image.tooltip = self.tree.describe(step)  # the frame's text alternative (its title)
        self.image.value = buffer.getvalue()
        self.caption.value = f"<b>{self.tree.describe(step)}</b>"

    def page_frames(self) -> dict[str, Any]:
        """The frames the course website steps through (:mod:`tilelab.widgets.frames`): at most
        ``MAX_FRAMES`` of its events, evenly spaced, for the course website (no kernel there)."""
        sequence = still_sequence("expectimax", self.slider.max + 1, MAX_FRAMES,
                                  lambda step: (frame_png(plot_expectimax_tree(self.tree, step), PAGE_DPI),
                                                f"<b>{html.escape(self.tree.describe(step))}</b>"))
        return frames_data("expectimax tree stepper", [sequence], "tree", step=self.step)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The widget, plus the current picture and a line for viewers without a kernel (GitHub, nbviewer)."""
        bundle = super()._repr_mimebundle_(**kwargs)
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})
        if isinstance(data, dict):
            data = dict(data)
            data["text/plain"] = f"TreeStepper (step {self.step} of {self.slider.max}): run this cell to step"
            data["image/png"] = base64.b64encode(self.image.value).decode("ascii")
            if page_frames_wanted():  # executed for the website, which steps through them (JupyterLab ignores them)
                data[FRAMES_MIME] = self.page_frames()
        return (data, metadata) if isinstance(bundle, tuple) else data

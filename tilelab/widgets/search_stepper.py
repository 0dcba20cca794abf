"""Step through a search: BFS, A* or IDA* on an 8-puzzle, one expanded board at a time.

The stepper holds search traces (:mod:`tilelab.sliding.trace`, pure data) and draws the chosen
step with :func:`tilelab.plots.solvers.plot_search_step` (the board being expanded, the open and
closed sets on a g/h map, IDA*'s bound, the next boards in line). Buttons, a slider and a play
button choose the step; a menu switches between searches.

>>> from tilelab.sliding import Board, manhattan
>>> from tilelab.sliding.trace import astar_trace, bfs_trace
>>> from tilelab.widgets.testing import click_button
>>> start = Board.parse('1 2 3\\n4 . 6\\n7 5 8')
>>> stepper = SearchStepper({"BFS": bfs_trace(start), "A*": astar_trace(start, manhattan)})
>>> click_button(stepper, "next ▶"); stepper.step
1
>>> stepper.choose("A*"); stepper.step, stepper.caption.value.startswith("<b>A*</b>")
(0, True)
"""

from __future__ import annotations

import base64
import html
import io
from typing import Any, Mapping

import ipywidgets as widgets

from tilelab.sliding.trace import SearchTrace
from tilelab.widgets.access import plain_text
from tilelab.widgets.frames import (FRAMES_MIME, MAX_FRAMES, TitledImage, frame_png, frames_data, page_frames_wanted,
                                     still_sequence)

__all__ = ["SearchStepper", "step_summary"]

PLAY_INTERVAL_MS = 700
DPI = 90  # 12.5 x 4.2 inches: about 1,100 px wide, readable on a laptop


def step_summary(name: str, trace: SearchTrace, step: int) -> str:
    """One line (HTML) about a step: the counts a student should watch.

    >>> from tilelab.sliding import Board, manhattan
    >>> from tilelab.sliding.trace import idastar_trace
    >>> t = idastar_trace(Board.parse('1 2\\n. 3'), manhattan)
    >>> step_summary("IDA*", t, 0)
    '<b>IDA*</b> step 1 of 2: g = 0, h = 1, f = 1, bound 1 &middot; open 1, closed 0 &middot; path 1 board'
    """
    s = trace.steps[step]
    parts = [f"<b>{html.escape(name)}</b> step {step + 1} of {len(trace.steps)}: g = {s.g}"]
    if trace.method != "bfs":
        parts[0] += f", h = {s.h}, f = {s.f}"
    if s.bound is not None:
        parts[0] += f", bound {s.bound}"
    parts.append(f"open {len(s.open):,}, closed {s.closed_count:,}")
    parts.append(f"path {len(s.path)} board" + ("s" if len(s.path) != 1 else ""))
    line = " &middot; ".join(parts)
    if s.board.is_goal():
        line += f" &middot; <b>goal reached: {len(trace.moves)} moves</b>"
    elif step == len(trace.steps) - 1 and trace.found:
        line += f" &middot; <b>the next child is the goal: {len(trace.moves)} moves</b>"
    return line


class SearchStepper:
    """Buttons, a slider and a picture to walk through one or more search traces.

    ``traces`` is one :class:`~tilelab.sliding.trace.SearchTrace` or a mapping ``name -> trace``
    (a menu switches between them). ``step`` is the step shown (0-based); ``show(k)`` moves
    there. Display the stepper as the last expression of a cell.
    """

    def __init__(self, traces: SearchTrace | Mapping[str, SearchTrace], *, step: int = 0) -> None:
        if isinstance(traces, SearchTrace):
            traces = {traces.method: traces}
        if not traces or not all(isinstance(t, SearchTrace) for t in traces.values()):
            raise TypeError("give a SearchTrace or a dict of name -> SearchTrace (from tilelab.sliding.trace)")
        empty = [name for name, t in traces.items() if not t.steps]
        if empty:
            raise ValueError(f"the traces {empty} have no steps (the start is the goal): pick another board")
        self.traces = dict(traces)
        self.name = next(iter(self.traces))
        self.menu = widgets.Dropdown(options=list(self.traces), value=self.name, description="search",
                                     layout=widgets.Layout(width="180px"))
        self.slider = widgets.IntSlider(0, 0, 0, description="step", continuous_update=False,
                                        layout=widgets.Layout(width="420px"))
        self.play = widgets.Play(interval=PLAY_INTERVAL_MS, min=0, max=0, description="play")
        widgets.jslink((self.play, "value"), (self.slider, "value"))
        buttons = [("⏮ first", lambda: self.show(0)), ("◀ back", lambda: self.show(self.step - 1)),
                   ("next ▶", lambda: self.show(self.step + 1)), ("last ⏭", lambda: self.show(self.last))]
        self.buttons = []
        for label, action in buttons:
            button = widgets.Button(description=label, layout=widgets.Layout(width="90px"))
            button.on_click(lambda _b, act=action: act())
            self.buttons.append(button)
        self.caption = widgets.HTML()
        self.image = TitledImage(format="png", layout=widgets.Layout(max_width="100%", height="auto"))
        self.menu.observe(lambda change: self.choose(change["new"]), names="value")
        self.slider.observe(lambda change: self.show(change["new"]), names="value")
        controls = widgets.HBox([self.menu, *self.buttons])
        self.widget = widgets.VBox([controls, widgets.HBox([self.play, self.slider]), self.caption, self.image])
        self._shown: tuple[str, int] | None = None
        self.choose(self.name, step)

    # ---- state
    @property
    def trace(self) -> SearchTrace:
        """The trace being shown."""
        return self.traces[self.name]

    @property
    def step(self) -> int:
        """The step shown (0-based)."""
        return self.slider.value

    @property
    def last(self) -> int:
        """The last step of the current trace."""
        return len(self.trace.steps) - 1

    # ---- actions (also the button handlers)
    def choose(self, name: str, step: int = 0) -> None:
        """Show the search called ``name``, from ``step``."""
        if name not in self.traces:
            raise ValueError(f"no search called {name!r}; choose one of {list(self.traces)}")
        self.name = name
        if self.menu.value != name:
            self.menu.value = name  # calls choose again through the observer, harmlessly
        self.slider.max = self.play.max = self.last
        self.show(step, force=True)

    def show(self, step: int, force: bool = False) -> None:
        """Draw step ``step`` (clamped to the trace's steps)."""
        step = max(0, min(int(step), self.last))
        if self.slider.value != step:
            self.slider.value = step  # the observer calls show(step) again
            return
        if not force and self._shown == (self.name, step):
            return
        self._shown = (self.name, step)
        self.caption.value = step_summary(self.name, self.trace, step)
        self.image.tooltip = plain_text(self.caption.value)  # the frame's text alternative (its title)
        self.image.value = self.png()

    def png(self) -> bytes:
        """The current step drawn as PNG bytes."""
        import matplotlib.pyplot as plt

        from tilelab.plots.solvers import plot_search_step

        fig = plot_search_step(self.trace, self.step)
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=DPI)
        plt.close(fig)  # never also shown by the inline backend
        return buffer.getvalue()

    def page_frames(self) -> dict[str, Any]:
        """The frames the course website steps through (:mod:`tilelab.widgets.frames`): at most
        ``MAX_FRAMES`` frames over all searches, evenly spaced, for the course website (no kernel there)."""
        from tilelab.plots.solvers import plot_search_step

        limit = max(2, MAX_FRAMES // len(self.traces))
        sequences = [still_sequence(name, len(trace.steps), limit,
                                    lambda step, n=name, t=trace: (frame_png(plot_search_step(t, step), DPI),
                                                                   step_summary(n, t, step)))
                     for name, trace in self.traces.items()]
        return frames_data(f"search stepper: {', '.join(self.traces)}", sequences,
                           sequence=list(self.traces).index(self.name), step=self.step)

    # ---- display
    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        bundle = self.widget._repr_mimebundle_(**kwargs)
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})
        if isinstance(data, dict):  # a still picture for viewers without a kernel
            data = dict(data)
            data["text/plain"] = f"SearchStepper ({', '.join(self.traces)}): run this cell to step"
            data["image/png"] = base64.b64encode(self.image.value).decode("ascii")
            if page_frames_wanted():  # executed for the website, which steps through them (JupyterLab ignores them)
                data[FRAMES_MIME] = self.page_frames()
        return (data, metadata) if isinstance(bundle, tuple) else data

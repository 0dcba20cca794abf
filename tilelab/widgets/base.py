"""The base every playable tilelab board builds on.

A board is an ipycanvas ``MultiCanvas`` (layer 0: background, 1: pieces, 2: overlay -- the top layer
also receives mouse and key events) inside an ipywidgets ``VBox`` with a status line, a toolbar and an
``Output`` where callback errors are shown. Subclasses translate input into engine calls and draw
from engine state; no game rules live here.

Animation never blocks the kernel: :meth:`BoardWidget.animate` sends every frame, with the pauses
between them, to the browser in one batch (``hold_canvas`` + ``canvas.sleep``); the browser plays the
batches in order while the kernel is already free for the next key. Input is applied to the engine in
the order it arrives, once each; when input comes faster than the animations, the next move is drawn
without animation so the picture never lags behind more than one animation.
"""

from __future__ import annotations

import math
import sys
import time
import traceback
from contextlib import contextmanager, nullcontext
from typing import Any, Callable, ContextManager, Iterator, Sequence

import ipywidgets as widgets
from ipycanvas import MultiCanvas, hold_canvas

__all__ = ["BoardWidget", "fit_font_size", "ARROW_KEYS"]

#: Keys that mean a direction, as the browser names them (``KeyboardEvent.key``).
ARROW_KEYS = {
    "ArrowUp": "up", "ArrowDown": "down", "ArrowLeft": "left", "ArrowRight": "right",
    "w": "up", "s": "down", "a": "left", "d": "right",
    "W": "up", "S": "down", "A": "left", "D": "right",
    "k": "up", "j": "down", "h": "left", "l": "right",
}

BACKGROUND, PIECES, OVERLAY = 0, 1, 2


def fit_font_size(text: str, box_width: float, box_height: float, *, max_size: float | None = None,
                  char_width: float = 0.62) -> int:
    """Largest font size (px) at which ``text`` fits a box, assuming ``char_width`` em per character.

    >>> fit_font_size("2", 100, 100)
    55
    >>> fit_font_size("2048", 100, 100)
    36
    >>> fit_font_size("131072", 100, 100) < fit_font_size("2048", 100, 100)
    True
    """
    chars = max(1, len(str(text)))
    by_width = 0.9 * box_width / (chars * char_width)
    by_height = 0.55 * box_height
    size = min(by_width, by_height, max_size if max_size is not None else math.inf)
    return max(6, int(size))


class BoardWidget:
    """A playable board: canvas layers, status line, toolbar, error output; input routed to hooks.

    Override :meth:`redraw` (draw the whole state), and any of :meth:`on_key`, :meth:`on_click`,
    :meth:`on_drag`. Pass ``canvas=`` a fake (see :mod:`tilelab.widgets.testing`) to test headless.
    """

    #: Pixels the pointer must travel between press and release to count as a drag, not a click.
    drag_threshold: float = 12.0

    def __init__(self, width: int, height: int, *, layers: int = 3, canvas: Any = None,
                 raise_errors: bool = False) -> None:
        self.width = int(width)
        self.height = int(height)
        self.canvas = canvas if canvas is not None else MultiCanvas(layers, width=self.width, height=self.height)
        self.n_layers = layers
        #: Re-raise callback errors instead of showing them (the headless tests set this).
        self.raise_errors = raise_errors
        self.status = widgets.HTML(value="")
        self.toolbar = widgets.HBox([], layout=widgets.Layout(flex_flow="row wrap"))
        self.output = widgets.Output()
        canvas_view = self.canvas if isinstance(self.canvas, widgets.Widget) else widgets.HTML("")
        if isinstance(self.canvas, widgets.Widget):
            self.canvas.layout.width = f"{self.width}px"
            self.canvas.layout.height = f"{self.height}px"
            self.canvas.tabbable = True  # lets the canvas take keyboard focus
        self.widget = widgets.VBox([self.status, canvas_view, self.toolbar, self.output])
        self._press: tuple[float, float] | None = None
        self._animation_end = 0.0
        self._tickers: list[widgets.Play] = []
        self._connect()

    # ----------------------------------------------------------------- wiring
    def _connect(self) -> None:
        c = self.canvas
        c.on_key_down(self._guard(self._handle_key_down))
        c.on_mouse_down(self._guard(self._handle_mouse_down))
        c.on_mouse_up(self._guard(self._handle_mouse_up))
        c.on_mouse_out(self._guard(self._handle_mouse_out))
        c.on_touch_start(self._guard(self._handle_touch_start))
        c.on_touch_end(self._guard(self._handle_touch_end))
        c.on_client_ready(self._guard(self.redraw))

    def _guard(self, func: Callable[..., Any]) -> Callable[..., Any]:
        """Wrap a callback so its errors are shown in :attr:`output` (or re-raised in tests)."""

        def guarded(*args: Any, **kwargs: Any) -> Any:
            try:
                return func(*args, **kwargs)
            except Exception:
                if self.raise_errors:
                    raise
                self._show_error()
                return None

        guarded.__name__ = getattr(func, "__name__", "callback")
        guarded.__wrapped__ = func  # type: ignore[attr-defined]
        return guarded

    def _show_error(self) -> None:
        with self.output:
            try:
                from IPython import get_ipython

                ip = get_ipython()
            except ImportError:  # pragma: no cover - IPython always comes with ipywidgets
                ip = None
            if ip is not None:
                ip.showtraceback()
            else:
                traceback.print_exc(file=sys.stdout)

    # ------------------------------------------------------- raw event handlers
    def _handle_key_down(self, key: str, shift: bool = False, ctrl: bool = False, meta: bool = False) -> None:
        if ctrl or meta:  # leave browser and JupyterLab shortcuts alone
            return
        if key == "Escape":
            self.release_keyboard()
            return
        self.on_key(key)

    def _handle_mouse_down(self, x: float, y: float) -> None:
        self._press = (float(x), float(y))

    def _handle_mouse_up(self, x: float, y: float) -> None:
        if self._press is None:
            return
        x0, y0 = self._press
        self._press = None
        if math.hypot(x - x0, y - y0) >= self.drag_threshold:
            self.on_drag(x0, y0, float(x), float(y))
        else:
            self.on_click(x0, y0)

    def _handle_mouse_out(self, x: float, y: float) -> None:
        self._press = None

    def _handle_touch_start(self, touches: Sequence[Sequence[float]]) -> None:
        if touches:
            self._handle_mouse_down(*touches[0][:2])

    def _handle_touch_end(self, touches: Sequence[Sequence[float]]) -> None:
        if touches:
            self._handle_mouse_up(*touches[0][:2])

    def release_keyboard(self) -> None:
        """Hand the keyboard back to the notebook (the board's answer to Escape).

        A focused ipycanvas canvas swallows every key, Tab and Shift-Enter included; moving the focus
        to the first toolbar button lets the notebook's own keys work again.
        """
        buttons = [w for w in self.toolbar.children if isinstance(w, widgets.Button)]
        if buttons:
            buttons[0].focus()
        elif isinstance(self.canvas, widgets.DOMWidget):
            self.canvas.blur()

    # ------------------------------------------------------------ hooks to override
    def redraw(self) -> None:
        """Draw the whole state (also called when a browser view connects or reconnects)."""

    def on_key(self, key: str) -> None:
        """A key went down while the canvas had focus (``key`` as the browser names it)."""

    def on_click(self, x: float, y: float) -> None:
        """The pointer went down and up at about the same place."""

    def on_drag(self, x0: float, y0: float, x1: float, y1: float) -> None:
        """The pointer went down at (x0, y0) and up at (x1, y1), at least ``drag_threshold`` away."""

    # --------------------------------------------------------------- drawing tools
    def layer(self, index: int) -> Any:
        """Canvas layer ``index`` (0 background, 1 pieces, 2 overlay; -1 the top)."""
        return self.canvas[index]

    def hold(self) -> ContextManager[None]:
        """Batch every drawing command inside the ``with`` block into one message to the browser."""
        if isinstance(self.canvas, MultiCanvas):
            return hold_canvas()
        return nullcontext()

    def pause(self, ms: float) -> None:
        """Inside :meth:`hold`: the browser waits ``ms`` before the next commands; the kernel does not."""
        if ms > 0:
            self.layer(0).sleep(ms)

    def animating(self) -> bool:
        """True while the browser is (by our clock) still playing the last animation we sent."""
        return time.monotonic() < self._animation_end

    def animation_ms(self, ms: float) -> float:
        """``ms``, or 0 when the previous animation is still playing (input outran the animation)."""
        return 0.0 if self.animating() else float(ms)

    def animate(self, frames: Sequence[Callable[[], None]], ms_per_frame: float) -> bool:
        """Send ``frames`` (functions that draw one frame) as one batch, ``ms_per_frame`` apart.

        Returns True if it animated, False if it only drew the last frame because the previous
        animation was still playing. The kernel never waits.
        """
        if not frames:
            return False
        busy = self.animating()
        with self.hold():
            if busy or ms_per_frame <= 0:
                frames[-1]()
            else:
                for i, frame in enumerate(frames):
                    frame()
                    if i < len(frames) - 1:
                        self.pause(ms_per_frame)
        if not busy and ms_per_frame > 0:
            self._animation_end = time.monotonic() + (len(frames) - 1) * ms_per_frame / 1000.0
        return not busy and ms_per_frame > 0

    def draw_banner(self, title: str, subtitle: str = "", *, colour: str = "rgba(238, 228, 218, 0.73)",
                    text_colour: str = "#776e65", layer: int = OVERLAY) -> None:
        """Cover the board with a translucent banner (win, game over, solved...)."""
        c = self.layer(layer)
        c.clear()
        c.fill_style = colour
        c.fill_rect(0, 0, self.width, self.height)
        c.fill_style = text_colour
        c.text_align = "center"
        c.text_baseline = "middle"
        size = fit_font_size(title, self.width * 0.9, self.height * 0.25, max_size=self.width / 8)
        c.font = f"bold {size}px 'Clear Sans', 'Helvetica Neue', Arial, sans-serif"
        c.fill_text(title, self.width / 2, self.height * (0.42 if subtitle else 0.5))
        if subtitle:
            small = fit_font_size(subtitle, self.width * 0.9, self.height * 0.12, max_size=self.width / 18)
            c.font = f"{small}px 'Clear Sans', 'Helvetica Neue', Arial, sans-serif"
            c.fill_text(subtitle, self.width / 2, self.height * 0.58)

    def clear_banner(self, layer: int = OVERLAY) -> None:
        """Remove whatever the overlay layer shows."""
        self.layer(layer).clear()

    # -------------------------------------------------------------------- widgets
    def add_button(self, description: str, callback: Callable[[], None], *, tooltip: str = "",
                   icon: str = "", width: str | None = None) -> widgets.Button:
        """Add a toolbar button; ``callback()`` runs on click with errors shown, not swallowed."""
        button = widgets.Button(description=description, tooltip=tooltip or description, icon=icon,
                                layout=widgets.Layout(width=width) if width else widgets.Layout())
        guarded = self._guard(callback)
        button.on_click(lambda _b: guarded())
        self.toolbar.children = (*self.toolbar.children, button)
        return button

    def add_control(self, control: widgets.Widget) -> widgets.Widget:
        """Add any widget (dropdown, toggle, slider) to the toolbar."""
        self.toolbar.children = (*self.toolbar.children, control)
        return control

    def add_ticker(self, interval_ms: int, callback: Callable[[], None], *, playing: bool = False) -> widgets.Play:
        """A browser-driven clock: while ``ticker.playing``, ``callback()`` runs every ``interval_ms``.

        Built on a hidden ``ipywidgets.Play``, so the kernel is never blocked waiting for time to pass
        (timers, idle hints, "AI plays"). Start and stop it with ``ticker.playing = True/False``.
        """
        ticker = widgets.Play(value=0, min=0, max=10**9, step=1, interval=int(interval_ms),
                              repeat=True, playing=playing, layout=widgets.Layout(display="none"))
        guarded = self._guard(callback)
        ticker.observe(lambda change: guarded(), names="value")
        self._tickers.append(ticker)
        self.widget.children = (*self.widget.children, ticker)
        return ticker

    def set_status(self, html: str) -> None:
        """Replace the status line (score, moves, messages) above the board."""
        self.status.value = html

    @contextmanager
    def errors_shown(self) -> Iterator[None]:
        """``with board.errors_shown(): ...`` runs code with errors shown in the board's output."""
        try:
            yield
        except Exception:
            if self.raise_errors:
                raise
            self._show_error()

    # ------------------------------------------------------------------- display
    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        self.redraw()
        return self.widget._repr_mimebundle_(**kwargs)

    def close(self) -> None:
        """Stop every ticker and close the widgets (frees the browser views)."""
        for ticker in self._tickers:
            ticker.playing = False
        self.widget.close()

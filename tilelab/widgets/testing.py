"""Drive a board headless: a recording fake canvas and the events ipycanvas would send.

>>> from tilelab.widgets.base import BoardWidget
>>> class Echo(BoardWidget):
...     def __init__(self, **kw):
...         self.keys = []
...         super().__init__(40, 40, **kw)
...     def on_key(self, key):
...         self.keys.append(key)
...     def redraw(self):
...         self.layer(1).fill_text("hi", 20, 20)
>>> board = Echo(canvas=FakeMultiCanvas(3, 40, 40), raise_errors=True)
>>> press_key(board, "ArrowLeft"); press_key(board, "a", ctrl=True)
>>> board.keys
['ArrowLeft']
>>> client_ready(board); board.canvas[1].texts()
['hi']
"""

from __future__ import annotations

from collections import deque
from typing import Any, Callable

__all__ = [
    "MAX_CALLS", "FakeCanvas", "FakeMultiCanvas", "press_key", "click", "drag", "touch_swipe",
    "client_ready", "tick", "click_button", "find_button", "fresh_kernel",
]


#: The most recent drawing calls a fake canvas keeps (the oldest are dropped): a fuzz run of 10,000 events
#: stays at a few megabytes instead of gigabytes. A board's redraw makes a few hundred calls.
MAX_CALLS = 20_000


class FakeCanvas:
    """Records drawing calls and property sets, in order, as ``(name, args)`` tuples (the last :data:`MAX_CALLS`).

    >>> canvas = FakeCanvas()
    >>> for i in range(MAX_CALLS + 5):
    ...     canvas.fill_rect(i, 0, 1, 1)
    >>> len(canvas.calls), canvas.calls[0], canvas.dropped
    (20000, ('fill_rect', (5, 0, 1, 1)), 5)
    """

    def __init__(self, width: int = 0, height: int = 0) -> None:
        object.__setattr__(self, "calls", deque(maxlen=MAX_CALLS))
        object.__setattr__(self, "_made", 0)
        object.__setattr__(self, "width", width)
        object.__setattr__(self, "height", height)
        object.__setattr__(self, "_handlers", {})

    def __setattr__(self, name: str, value: Any) -> None:
        self._record(name, (value,))
        object.__setattr__(self, name, value)

    def _record(self, name: str, args: tuple[Any, ...]) -> None:
        self.calls.append((name, args))
        object.__setattr__(self, "_made", self._made + 1)

    @property
    def dropped(self) -> int:
        """How many of the oldest calls were dropped to keep :data:`MAX_CALLS`."""
        return self._made - len(self.calls)

    def __getattr__(self, name: str) -> Callable[..., None]:
        if name.startswith("__"):
            raise AttributeError(name)
        if name.startswith("on_"):
            return lambda callback, remove=False: self._handlers.setdefault(name, []).append(callback)

        def record(*args: Any, **kwargs: Any) -> None:
            self._record(name, args + tuple(kwargs.values()))

        return record

    # ---- queries for tests
    def names(self) -> list[str]:
        """Names of the calls made, in order."""
        return [name for name, _ in self.calls]

    def count(self, name: str) -> int:
        """How many times ``name`` was called (or set)."""
        return sum(1 for n, _ in self.calls if n == name)

    def texts(self) -> list[str]:
        """Every string drawn with ``fill_text`` since the last ``clear`` (among the calls kept)."""
        out: list[str] = []
        for name, args in self.calls:
            if name == "clear":
                out = []
            elif name == "fill_text":
                out.append(str(args[0]))
        return out

    def reset(self) -> None:
        """Forget the recorded calls."""
        self.calls.clear()
        object.__setattr__(self, "_made", 0)


class FakeMultiCanvas(FakeCanvas):
    """Stands in for ``ipycanvas.MultiCanvas``: layers are :class:`FakeCanvas`; the top one gets events."""

    def __init__(self, n_canvases: int = 3, width: int = 400, height: int = 400) -> None:
        super().__init__(width, height)
        object.__setattr__(self, "layers", [FakeCanvas(width, height) for _ in range(n_canvases)])

    def __getitem__(self, index: int) -> FakeCanvas:
        return self.layers[index]

    def handlers(self, event: str) -> list[Callable[..., Any]]:
        """Callbacks registered for ``event`` (e.g. ``"on_key_down"``)."""
        return list(self._handlers.get(event, []))

    def fire(self, event: str, *args: Any) -> None:
        """Call every handler of ``event`` as ipycanvas would."""
        for handler in self.handlers(event):
            handler(*args)

    def sleeps(self) -> list[float]:
        """Pauses sent to the browser (``sleep(ms)`` on any layer), in order."""
        return [float(args[0]) for layer in self.layers for name, args in layer.calls if name == "sleep"]

    def reset(self) -> None:
        """Forget the recorded calls of every layer."""
        super().reset()
        for layer in self.layers:
            layer.reset()


def _canvas(board: Any) -> FakeMultiCanvas:
    canvas = board.canvas
    if not isinstance(canvas, FakeMultiCanvas):
        raise TypeError("build the board with canvas=FakeMultiCanvas(...) to drive it headless")
    return canvas


def press_key(board: Any, key: str, *, shift: bool = False, ctrl: bool = False, meta: bool = False) -> None:
    """A key goes down on the focused canvas (``key`` as the browser names it, e.g. "ArrowUp")."""
    _canvas(board).fire("on_key_down", key, shift, ctrl, meta)


def click(board: Any, x: float, y: float) -> None:
    """The mouse goes down and up at (x, y)."""
    canvas = _canvas(board)
    canvas.fire("on_mouse_down", x, y)
    canvas.fire("on_mouse_up", x, y)


def drag(board: Any, x0: float, y0: float, x1: float, y1: float) -> None:
    """The mouse goes down at (x0, y0), moves, and goes up at (x1, y1)."""
    canvas = _canvas(board)
    canvas.fire("on_mouse_down", x0, y0)
    canvas.fire("on_mouse_move", (x0 + x1) / 2, (y0 + y1) / 2)
    canvas.fire("on_mouse_up", x1, y1)


def touch_swipe(board: Any, x0: float, y0: float, x1: float, y1: float) -> None:
    """A finger touches at (x0, y0) and lifts at (x1, y1)."""
    canvas = _canvas(board)
    canvas.fire("on_touch_start", [(x0, y0)])
    canvas.fire("on_touch_end", [(x1, y1)])


def client_ready(board: Any) -> None:
    """A browser view (re)connects and asks for a full redraw."""
    _canvas(board).fire("on_client_ready")


def tick(ticker: Any, times: int = 1) -> None:
    """Advance a board's ticker (a hidden ``ipywidgets.Play``) as the browser clock would."""
    for _ in range(times):
        ticker.value = ticker.value + 1


def find_button(board: Any, description: str) -> Any:
    """The toolbar button whose label is ``description`` (ValueError listing the labels if none)."""
    buttons = [w for w in _walk(board.widget) if hasattr(w, "on_click") and hasattr(w, "description")]
    for button in buttons:
        if button.description == description:
            return button
    labels = sorted({b.description for b in buttons})
    raise ValueError(f"no button {description!r}; buttons: {labels}")


def click_button(board: Any, description: str) -> None:
    """Click the button labelled ``description``."""
    find_button(board, description).click()


def _walk(widget: Any) -> list[Any]:
    found = [widget]
    for child in getattr(widget, "children", ()):
        found += _walk(child)
    return found


def fresh_kernel() -> None:
    """Forget every live board and best score, as a restarted kernel would (test isolation)."""
    import sys

    from tilelab.widgets.base import LIVE_BOARDS

    LIVE_BOARDS.clear()
    for module, name in (("tilelab.widgets.game2048", "BEST_SCORES"), ("tilelab.widgets.sliding", "SESSION_BEST"),
                         ("tilelab.widgets.match3", "BEST_SCORES")):
        table = getattr(sys.modules.get(module), name, None)
        if table is not None:
            table.clear()

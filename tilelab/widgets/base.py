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

from tilelab.widgets.page import SAVED_NOTE, page_helper

__all__ = ["BoardWidget", "fit_font_size", "ARROW_KEYS", "board_key", "current_cell_id", "LIVE_BOARDS", "UNDO_KEYS",
           "CONFIRM_MOVES"]

#: Keys that mean a direction, as the browser names them (``KeyboardEvent.key``).
ARROW_KEYS = {
    "ArrowUp": "up", "ArrowDown": "down", "ArrowLeft": "left", "ArrowRight": "right",
    "w": "up", "s": "down", "a": "left", "d": "right",
    "W": "up", "S": "down", "A": "left", "D": "right",
    "k": "up", "j": "down", "h": "left", "l": "right",
}

#: Keys that take back a move on every board.
UNDO_KEYS = ("u", "U", "Backspace")

BACKGROUND, PIECES, OVERLAY = 0, 1, 2

#: The least height the status line takes (two lines): a short message never moves the board; a long
#: one (narrow screens) makes the line grow rather than be cut.
STATUS_HEIGHT = "2.9em"
#: Narrowest width (px) a board shrinks to before the output area scrolls sideways.
MIN_BOARD_PX = 300

#: The boards alive in this kernel, by :func:`board_key`: re-running a board's cell finds its game here.
LIVE_BOARDS: dict[tuple, "BoardWidget"] = {}


def current_cell_id() -> str | None:
    """The id of the notebook cell running now (JupyterLab sends it with each execution), else None.

    >>> current_cell_id() is None      # no kernel, no cell
    True
    """
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython always comes with ipywidgets
        return None
    shell = get_ipython()
    kernel = getattr(shell, "kernel", None)
    if kernel is None or not hasattr(kernel, "get_parent"):
        return None
    try:
        parent = kernel.get_parent("shell")
    except TypeError:  # pragma: no cover - older ipykernel: get_parent() without a channel
        parent = kernel.get_parent()
    cell = (parent or {}).get("metadata", {}).get("cellId")
    return str(cell) if cell else None


def board_key(kind: str, *parts: Any, key: Any = None) -> tuple | None:
    """Where a board lives: its kind, its shape/seed ``parts`` and ``key`` (default: the running cell).

    Two boards with the same key are "the same board created again" (a re-run cell); without a key
    and outside a notebook cell there is nothing to resume (None).

    >>> board_key("2048", 4, 7, key="lesson-1")
    ('2048', 'lesson-1', 4, 7)
    >>> board_key("2048", 4, 7) is None      # no cell and no key: a fresh board
    True
    """
    where = key if key is not None else current_cell_id()
    if where is None:
        return None
    return (kind, where, *(_hashable(p) for p in parts))


def _hashable(value: Any) -> Any:
    try:
        hash(value)
    except TypeError:
        return repr(value)
    if hasattr(value, "bit_generator"):  # a numpy Generator: boards sharing it are not "the same"
        return ("rng", id(value))
    return value


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


#: Text on a board's banner (win, game over, reshuffle...): 5.2:1 at worst over the translucent default banner on any
#: 2048 tile or match-3 candy, the black one included (WCAG AA asks 4.5:1; tests/test_widgets_access.py checks).
BANNER_TEXT = "#3b332d"

#: Moves after which New game asks once before dropping the game (a short game just goes).
CONFIRM_MOVES = 10


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
        # the status line is two lines high at least (short messages come and go without moving the
        # board) and grows to fit a longer one at narrow widths instead of cutting it off
        self.status = widgets.HTML(value="", layout=widgets.Layout(
            min_height=STATUS_HEIGHT, height="auto", overflow="visible", width="100%", margin="0"))
        #: Where Escape parks the keyboard (see :meth:`release_keyboard`): focusable, invisible, inert.
        self.keyboard_park = widgets.Button(description="", tooltip="the notebook has the keyboard: click the board to play",
                                            layout=widgets.Layout(width="1px", height="1px", padding="0", margin="0",
                                                                  border="0", overflow="hidden"))
        # the toolbar wraps and is never wider than the board (flex rows of compact controls)
        self.toolbar = widgets.HBox([], layout=widgets.Layout(
            flex_flow="row wrap", width="100%", max_width=f"{max(self.width, MIN_BOARD_PX)}px",
            align_items="center"))
        self.output = widgets.Output()
        #: What the last move did, the score and the rows, for screen readers (see :meth:`announce`): the page
        #: script makes it a polite ``aria-live`` region, and CSS hides it from the eye (the canvas shows it).
        self.announcer = widgets.HTML(value="", layout=widgets.Layout(width="1px", height="1px", overflow="hidden",
                                                                      margin="0"))
        self.announcer.add_class("tilelab-announce")
        #: The one control for sounds: off by default (see :meth:`set_sound`); subclasses put it in the toolbar.
        self.sound_toggle = widgets.ToggleButton(value=False, description="Sound", icon="volume-up",
                                                 tooltip="a short sound for a move, a merge or match, a refused move",
                                                 layout=widgets.Layout(width="auto"))
        self.sound_toggle.observe(lambda change: self.set_sound(change["new"]), names="value")
        #: The player of the move sounds, made when sound is first turned on (an ipywidgets ``Audio``).
        self.sound: widgets.Audio | None = None
        #: The kind of the last sound played (``"move"``, ``"merge"``, ``"refused"``), None before any.
        self.last_sound: str | None = None
        self._sound_flip = False
        canvas_view = self.canvas if isinstance(self.canvas, widgets.Widget) else widgets.HTML("")
        if isinstance(self.canvas, widgets.Widget):
            # CSS size follows the output area (never wider than drawn, never below MIN_BOARD_PX);
            # the drawing keeps its pixel size and ipycanvas maps pointer events through the scale
            self.canvas.layout.width = "100%"
            self.canvas.layout.max_width = f"{self.width}px"
            self.canvas.layout.min_width = f"{min(self.width, MIN_BOARD_PX)}px"
            self.canvas.layout.height = "auto"
            self.canvas.tabbable = True  # lets the canvas take keyboard focus
        #: The page-side helpers every board needs (see :data:`BOARD_STYLE` and :data:`BOARD_SCRIPT`).
        self.page_helper = page_helper()
        #: "run this cell to play", seen only on a board drawn from saved widget state (see :data:`SAVED_NOTE`)
        self.saved_note = widgets.HTML(value=SAVED_NOTE, layout=widgets.Layout(margin="0"))
        self.widget = widgets.VBox([self.status, canvas_view, self.announcer, self.toolbar, self.keyboard_park, self.output,
                                    self.page_helper, self.saved_note], layout=widgets.Layout(
            width="100%", max_width=f"{max(self.width, MIN_BOARD_PX) + 4}px"))
        self.widget.add_class("tilelab-board")
        self.key: tuple | None = None  # set by :meth:`register`
        self._press: tuple[float, float] | None = None
        self._confirming: tuple[str, int] | None = None
        self._animation_end = 0.0
        self._tickers: list[widgets.Play] = []
        self._connect()

    # ----------------------------------------------------------------- wiring
    def _connect(self) -> None:
        c = self.canvas
        c.on_key_down(self.guard(self._handle_key_down))
        c.on_mouse_down(self.guard(self._handle_mouse_down))
        c.on_mouse_up(self.guard(self._handle_mouse_up))
        c.on_mouse_out(self.guard(self._handle_mouse_out))
        c.on_touch_start(self.guard(self._handle_touch_start))
        c.on_touch_end(self.guard(self._handle_touch_end))
        c.on_client_ready(self.guard(self.redraw))

    def guard(self, func: Callable[..., Any]) -> Callable[..., Any]:
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
        if key == "Tab":  # moves the focus on (the page script lets it through): never a move
            return
        self.on_key(key)

    def _handle_mouse_down(self, x: float, y: float) -> None:
        self._press = (float(x), float(y))
        self.on_press(float(x), float(y))

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
        if self._press is not None:
            self._press = None
            self.on_cancel()

    def _handle_touch_start(self, touches: Sequence[Sequence[float]]) -> None:
        if touches:
            self._handle_mouse_down(*touches[0][:2])

    def _handle_touch_end(self, touches: Sequence[Sequence[float]]) -> None:
        if touches:
            self._handle_mouse_up(*touches[0][:2])

    def focus_board(self) -> None:
        """Give the keyboard to the board (after an on-screen button, arrow keys move tiles again)."""
        if isinstance(self.canvas, widgets.DOMWidget):
            self.canvas.focus()

    def release_keyboard(self) -> None:
        """Hand the keyboard back to the notebook (the board's answer to Escape, when no page script ran).

        Normally :data:`BOARD_SCRIPT` answers Escape in the browser by focusing the board's cell, so
        Enter edits it and the kernel never sees the key. Without it (a viewer that runs no
        JavaScript) the kernel gets Escape and this fallback runs.
        A focused ipycanvas canvas swallows every key, Tab and Shift-Enter included. The focus moves
        to a tiny button with no action at the board's bottom edge: still inside the cell, so the
        notebook's own keys (Shift-Enter...) work again, and unlike a toolbar button, Enter presses nothing.
        """
        self.keyboard_park.focus()

    # ------------------------------------------------------------ hooks to override
    def redraw(self) -> None:
        """Draw the whole state (also called when a browser view connects or reconnects)."""

    def on_key(self, key: str) -> None:
        """A key went down while the canvas had focus (``key`` as the browser names it)."""

    def on_press(self, x: float, y: float) -> None:
        """The pointer went down (before we know click or drag): draw instant feedback here."""

    def on_cancel(self) -> None:
        """The pointer left the board while pressed: undo what :meth:`on_press` drew."""

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
        return self.animation_left_ms() > 0.0

    def animation_left_ms(self) -> float:
        """Milliseconds the browser still plays the last animation we sent, by our clock (0 once it is done)."""
        return max(0.0, (self._animation_end - time.monotonic()) * 1000.0)

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
                    text_colour: str = BANNER_TEXT, layer: int = OVERLAY) -> None:
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
        # "auto" width: each button as wide as its label, so a row holds more and wraps compactly
        button = widgets.Button(description=description, tooltip=tooltip or description, icon=icon,
                                layout=widgets.Layout(width=width or "auto", padding="0 10px"))
        guarded = self.guard(callback)

        def clicked(_button: widgets.Button) -> None:
            guarded()
            self.focus_board()  # the keyboard goes back to the board, not the notebook

        button.on_click(clicked)
        self.toolbar.children = (*self.toolbar.children, button)
        return button

    def add_control(self, control: widgets.Widget) -> widgets.Widget:
        """Add any widget (dropdown, toggle, slider) to the toolbar; toggles hand focus back to the board."""
        if isinstance(control, (widgets.ToggleButton, widgets.ToggleButtons)):
            control.observe(lambda _change: self.focus_board(), names="value")
        self.toolbar.children = (*self.toolbar.children, control)
        return control

    def add_ticker(self, interval_ms: int, callback: Callable[[], None], *, playing: bool = False) -> widgets.Play:
        """A browser-driven clock: while ``ticker.playing``, ``callback()`` runs every ``interval_ms``.

        Built on a hidden ``ipywidgets.Play``, so the kernel is never blocked waiting for time to pass
        (timers, idle hints, "AI plays"). Start and stop it with ``ticker.playing = True/False``.
        """
        ticker = widgets.Play(value=0, min=0, max=10**9, step=1, interval=int(interval_ms),
                              repeat=True, playing=playing, layout=widgets.Layout(display="none"))
        guarded = self.guard(callback)
        ticker.observe(lambda change: guarded(), names="value")
        self._tickers.append(ticker)
        self.widget.children = (*self.widget.children, ticker)
        return ticker

    def set_status(self, html: str) -> None:
        """Replace the status line (score, moves, messages) above the board: two lines high, more if needed."""
        # ipywidgets' HTML content is one 28 px line high; this div lets a second line show in the area
        self.status.value = f'<div style="line-height:1.35;white-space:normal">{html}</div>'

    # ------------------------------------------------------ screen reader and sound
    def announce(self, text: str) -> None:
        """Say ``text`` (what a move did, the score, the rows) through the board's ``aria-live`` region."""
        import html

        self.announcer.value = html.escape(text)

    @property
    def announcement(self) -> str:
        """The text the board announced last (plain text)."""
        import html

        return html.unescape(self.announcer.value)

    def add_sound_toggle(self) -> widgets.Widget:
        """Put the Sound toggle (off by default) in the toolbar."""
        return self.add_control(self.sound_toggle)

    @property
    def sound_on(self) -> bool:
        """True when moves make sounds (the Sound toggle)."""
        return bool(self.sound_toggle.value)

    def set_sound(self, on: bool) -> None:
        """Turn the move sounds on or off (the Sound toggle does this; so can code)."""
        on = bool(on)
        if self.sound_toggle.value != on:
            self.sound_toggle.value = on  # observed: comes back here once
            return
        if on and self.sound is None:
            self.sound = widgets.Audio(value=b"", format="wav", autoplay=True, loop=False, controls=False,
                                       layout=widgets.Layout(width="0px", height="0px", margin="0"))
            self.widget.children = (*self.widget.children, self.sound)

    def play_sound(self, kind: str) -> str | None:
        """Play the ``kind`` tone (see :data:`tilelab.widgets.access.SOUNDS`) when sound is on; the kind or None."""
        from tilelab.widgets.access import SOUNDS

        if kind not in SOUNDS:
            raise ValueError(f"no sound {kind!r}; the sounds are {sorted(SOUNDS)}")
        if not self.sound_on or self.sound is None:
            return None
        # the same bytes twice would not change the widget's value (no sound): every other one gets one more
        # silent sample, which players ignore
        self._sound_flip = not self._sound_flip
        self.sound.value = SOUNDS[kind] + (b"\0\0" if self._sound_flip else b"")
        self.last_sound = kind
        return kind

    def after_turn(self, turn: Any, description: str) -> None:
        """After a move is drawn: announce ``description`` and play the Turn's sound (when on)."""
        from tilelab.widgets.access import sound_kind

        self.announce(description)
        self.play_sound(sound_kind(turn))

    @contextmanager
    def errors_shown(self) -> Iterator[None]:
        """``with board.errors_shown(): ...`` runs code with errors shown in the board's output."""
        try:
            yield
        except Exception:
            if self.raise_errors:
                raise
            self._show_error()

    def confirm_drop(self, moves: int, action: str = "New game") -> bool:
        """True when a game of ``moves`` moves may be dropped now; a long one asks once first.

        The first click on ``action`` in a game past :data:`CONFIRM_MOVES` moves only says what it
        would drop (in the status line) and returns False; a second click goes ahead. Any move in
        between cancels the question.
        """
        if moves < CONFIRM_MOVES or getattr(self, "_confirming", None) == (action, moves):
            self._confirming = None
            return True
        self._confirming = (action, moves)
        return False

    def cancel_confirm(self) -> None:
        """Forget a pending "press again" question (the player went on playing)."""
        self._confirming = None

    # ------------------------------------------------------------------- resume
    @staticmethod
    def previous(key: tuple | None, resume: bool = True) -> "BoardWidget | None":
        """The live board created earlier with ``key`` (a re-run cell), to resume from; None if none."""
        if key is None or not resume:
            return None
        return LIVE_BOARDS.get(key)

    def register(self, key: tuple | None) -> None:
        """Become the board for ``key``; an older board there is retired (its views are gone anyway)."""
        self.key = key
        if key is None:
            return
        old = LIVE_BOARDS.get(key)
        LIVE_BOARDS[key] = self
        if old is not None and old is not self:
            old._retire()

    def _retire(self) -> None:
        for ticker in self._tickers:
            ticker.playing = False
        self.widget.close()

    # ------------------------------------------------------------------- display
    def picture(self) -> Any:
        """A still picture of the board (PIL image) for stored outputs; None if this board has none."""
        return None

    def fallback_text(self) -> str:
        """One line for viewers without widgets (plain-text output)."""
        return f"{type(self).__name__}: run this cell to play"

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        self.redraw()
        bundle = self.widget._repr_mimebundle_(**kwargs)
        return add_fallback(bundle, self.picture(), self.fallback_text())

    def close(self) -> None:
        """Stop every ticker and close the widgets (frees the browser views); the game is not resumed."""
        if self.key is not None and LIVE_BOARDS.get(self.key) is self:
            del LIVE_BOARDS[self.key]
        self._retire()


def png_bytes(image: Any) -> bytes:
    """PNG bytes of a PIL image."""
    import io

    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def add_fallback(bundle: Any, image: Any, text: str) -> Any:
    """Add a picture and a "run this cell to play" line to a widget's mimebundle.

    Viewers without a live kernel (GitHub, nbviewer, JupyterLab before the cell runs) cannot draw the
    widget: they show ``text/html`` (picture + line) or ``image/png`` instead, never the ``VBox(...)`` repr.
    """
    import base64
    import html

    data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})
    if not isinstance(data, dict):
        return bundle
    data = dict(data)
    data["text/plain"] = text
    if image is not None:
        encoded = base64.b64encode(png_bytes(image)).decode("ascii")
        data["image/png"] = encoded
        data["text/html"] = (
            '<div class="tilelab-board-still" style="font-family:sans-serif">'
            f'<img alt="{html.escape(text)}" src="data:image/png;base64,{encoded}" '
            f'style="max-width:100%;width:{image.width}px;height:auto;display:block"/>'
            f'<div style="font-size:14px;margin-top:4px">&#9654; {html.escape(text)}</div></div>'
        )
    return (data, metadata) if isinstance(bundle, tuple) else data

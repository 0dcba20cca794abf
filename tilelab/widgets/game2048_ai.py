"""The lesson-1 2048 board with an AI at the controls: "AI plays", a speed slider, a thinking panel.

The board itself is :class:`~tilelab.widgets.game2048.Game2048Widget` (used as it is: the AI presses
its ``play(direction)`` like a student would). Autoplay runs on the board's *ticker*, a hidden
``ipywidgets.Play`` counting in the browser: each tick asks the AI for one move, so the kernel is
never blocked and a key, a click on "Undo" or switching the AI off works at any moment. Ticks that
arrive while the AI was still thinking (a slow machine, a high speed) are dropped, never queued up.

The thinking panel shows what the search saw for the current board: each direction's expected
value (as a bar, best move highlighted), the depth, the nodes searched and the time.
"""

from __future__ import annotations

import html
import math
import time
from typing import Any, Callable

import ipywidgets as widgets

from tilelab.randomness import RngLike
from tilelab.game2048 import Board, Direction, Expectimax, Game
from tilelab.widgets.game2048 import Game2048Widget

__all__ = ["Game2048AIWidget", "thinking_html"]

ARROWS = {Direction.UP: "↑", Direction.DOWN: "↓", Direction.LEFT: "←", Direction.RIGHT: "→"}
MIN_SPEED, MAX_SPEED, DEFAULT_SPEED = 1, 20, 4  # AI moves per second
MS_PER_SECOND = 1000.0
LATE_TICK_FRACTION = 0.5  # a tick sooner than this share of the interval after the last move is dropped
BAR_PX = 120


def thinking_html(values: dict[Direction, float], chosen: Direction | None, *, depth: int = 0, nodes: int = 0,
                  ms: float = 0.0, note: str = "") -> str:
    """The thinking panel as HTML: one row per direction with its expected value and a bar.

    Bars are scaled between the worst and the best legal move, so the differences that decide
    show even when all values are large. Illegal moves show a dash.

    >>> text = thinking_html({Direction.LEFT: 10.0, Direction.UP: 4.0}, Direction.LEFT, depth=3)
    >>> "10" in text and "depth 3" in text and text.count("<tr") == 4
    True
    """
    rows = []
    finite = [v for v in values.values() if math.isfinite(v)]
    low, high = (min(finite), max(finite)) if finite else (0.0, 0.0)
    for direction in (Direction.UP, Direction.DOWN, Direction.LEFT, Direction.RIGHT):
        value = values.get(direction)
        best = direction == chosen
        style = "font-weight:bold;color:#1b7f3b" if best else "color:#444"
        if value is None:
            cell, bar = "&mdash;", ""
        else:
            share = 1.0 if high == low else (value - low) / (high - low)
            width = int(8 + (BAR_PX - 8) * share)
            colour = "#1b7f3b" if best else "#bbada0"
            cell = f"{value:,.0f}"
            bar = f'<div style="width:{width}px;height:10px;background:{colour};border-radius:3px"></div>'
        rows.append(
            f'<tr style="{style}"><td style="font-size:18px;padding-right:6px">{ARROWS[direction]}</td>'
            f'<td style="text-align:right;padding-right:8px;font-family:monospace">{cell}</td><td>{bar}</td></tr>'
        )
    effort = f"depth {depth} &middot; {nodes:,} nodes &middot; {ms:.0f} ms" if depth else ""
    extra = f"<div>{html.escape(note)}</div>" if note else ""
    return (
        '<div style="font-family:sans-serif;font-size:13px;min-width:230px">'
        "<b>Thinking</b> <span style=\"color:#888\">(expected value of each move)</span>"
        f'<table style="margin-top:4px">{"".join(rows)}</table>'
        f'<div style="color:#888">{effort}</div>{extra}</div>'
    )


class Game2048AIWidget:
    """A 2048 board the AI can play: "AI plays" toggle, speed slider, "AI move", "Hint", thinking panel.

    ``player`` is any ``board -> Direction`` callable (default ``Expectimax(ms_per_move=50)``); when
    it exposes ``think(board)`` (as :class:`~tilelab.game2048.Expectimax` does) the panel shows each
    direction's value. Play by hand at any time; the AI carries on from whatever board it finds.
    Randomness is ``rng=`` (a seed or a numpy Generator).
    """

    def __init__(self, *, rng: RngLike = None,
                 player: Callable[[Board], Direction] | None = None, game: Game | None = None, ms_per_move: float = 50, speed: int = DEFAULT_SPEED,
                 canvas: Any = None, raise_errors: bool = False, **board_options: Any) -> None:
        if not MIN_SPEED <= speed <= MAX_SPEED:
            raise ValueError(f"speed must be {MIN_SPEED}..{MAX_SPEED} moves per second, got {speed!r}")
        self.board_widget = Game2048Widget(rng=rng, game=game, canvas=canvas, raise_errors=raise_errors,
                                    **board_options)
        self.player = player if player is not None else Expectimax(ms_per_move=ms_per_move)
        self.thinking = widgets.HTML(value=thinking_html({}, None, note="press Hint or AI move"))
        self.ai_toggle = widgets.ToggleButton(value=False, description="AI plays", icon="play",
                                              tooltip="let the AI play, one move per tick")
        self.speed = widgets.IntSlider(value=speed, min=MIN_SPEED, max=MAX_SPEED, description="moves/s",
                                       continuous_update=False, layout=widgets.Layout(width="260px"))
        self.board_widget.add_control(self.ai_toggle)
        self.board_widget.add_button("AI move", self.ai_move, tooltip="the AI plays one move")
        self.board_widget.add_button("Hint", self.hint, tooltip="show what the AI thinks of each move")
        self.board_widget.add_control(self.speed)
        self.ticker = self.board_widget.add_ticker(self._interval_ms(), self._on_tick)
        self.ai_toggle.observe(self.board_widget.guard(lambda change: self.set_autoplay(change["new"])), names="value")
        self.speed.observe(self.board_widget.guard(lambda change: self.set_speed(change["new"])), names="value")
        self.widget = widgets.HBox([self.board_widget.widget, self.thinking],
                                   layout=widgets.Layout(align_items="flex-start", flex_flow="row wrap"))  # narrow: panel below
        self._last_move_end = -math.inf
        self.ai_moves = 0
        self.dropped_ticks = 0

    # ------------------------------------------------------------------ state
    @property
    def game(self) -> Game:
        """The game on the board."""
        return self.board_widget.game

    @property
    def playing(self) -> bool:
        """True while the AI plays by itself."""
        return bool(self.ticker.playing)

    def _interval_ms(self) -> int:
        return int(MS_PER_SECOND / self.speed.value)

    # ------------------------------------------------------------------ actions
    def set_autoplay(self, on: bool) -> None:
        """Start or stop the AI playing by itself (the toggle does this)."""
        on = bool(on) and not self.game.over
        self.ticker.playing = on
        if self.ai_toggle.value != on:
            self.ai_toggle.value = on
        self.ai_toggle.icon = "pause" if on else "play"

    def set_speed(self, moves_per_second: int) -> None:
        """AI moves per second while autoplaying."""
        if self.speed.value != moves_per_second:
            self.speed.value = moves_per_second
        self.ticker.interval = self._interval_ms()

    def think(self) -> Direction | None:
        """Ask the player about the current board and show its thinking; returns its choice."""
        board = self.game.board
        if self.game.over:
            self.thinking.value = thinking_html({}, None, note="game over")
            return None
        think = getattr(self.player, "think", None)
        if think is None:
            start = time.perf_counter()
            choice = self.player(board)
            ms = 1e3 * (time.perf_counter() - start)
            self.thinking.value = thinking_html({}, choice, note=f"chose {choice.name.lower()} in {ms:.0f} ms")
            return choice
        thought = think(board)
        self.thinking.value = thinking_html(thought.values, thought.direction, depth=thought.depth,
                                            nodes=thought.nodes, ms=thought.ms)
        return thought.direction

    def hint(self) -> Direction | None:
        """Show the AI's view of the current board without moving."""
        return self.think()

    def ai_move(self) -> bool:
        """The AI plays one move on the board (animated like a key press); False if it could not."""
        if self.board_widget.banner == "won":  # the AI keeps playing after 2048
            self.board_widget.keep_playing()
        choice = self.think()
        moved = choice is not None and self.board_widget.play(choice)
        if moved:
            self.ai_moves += 1
        if self.game.over:
            self.set_autoplay(False)
        self._last_move_end = time.monotonic()
        return moved

    def _on_tick(self) -> None:
        if not self.ticker.playing:
            return
        since = (time.monotonic() - self._last_move_end) * MS_PER_SECOND
        if since < LATE_TICK_FRACTION * self.ticker.interval:
            self.dropped_ticks += 1  # this tick waited while the AI thought: skip it, do not pile up
            return
        self.ai_move()

    def new_game(self) -> None:
        """Start a new game (autoplay stops)."""
        self.set_autoplay(False)
        self.board_widget.new_game()
        self.thinking.value = thinking_html({}, None, note="new game")

    # ------------------------------------------------------------------ display
    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        from tilelab.widgets.base import add_fallback

        self.board_widget.redraw()
        # no score: after a kernel restart the cell deals a new game, so a saved number would not hold
        text = "2048 board with an AI, as it was when this cell ran: run this cell to play or press AI plays"
        return add_fallback(self.widget._repr_mimebundle_(**kwargs), self.board_widget.picture(), text)

    def close(self) -> None:
        """Stop autoplay and close the widgets."""
        self.set_autoplay(False)
        self.board_widget.close()
        self.widget.close()

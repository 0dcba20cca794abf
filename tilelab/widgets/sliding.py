"""A playable sliding puzzle: numbers or a picture, click, drag or arrow keys, Hint, Solve, Undo.

Input in (key, click, drag, touch) -> :meth:`tilelab.sliding.Game.play` -> animate the Turn's
:class:`Slide` event. The session -- the move counter (``count_moves``'s rule), undo, the
Hint/Solve plan, save/load -- is the :class:`~tilelab.sliding.Game` in ``board.game``; the board
holds no rules of its own. ``cell_at`` (pixel -> cell) and the picture helpers are pure
functions, tested without a browser.

>>> from tilelab.widgets.testing import FakeMultiCanvas, press_key
>>> board = SlidingWidget(3, rng=1, canvas=FakeMultiCanvas(3, 300, 300), raise_errors=True)
>>> print(board.board)
7 . 1
4 2 5
8 6 3
>>> press_key(board, "ArrowUp")          # the tile below the blank moves up
>>> print(board.board)
7 2 1
4 . 5
8 6 3
>>> board.move_count, board.moves_played
(MoveCount(single=1, multi=1), 1)
>>> press_key(board, "u"); board.move_count   # u or Backspace takes the move back
MoveCount(single=0, multi=0)
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable

import ipywidgets as widgets

from tilelab.randomness import RngLike, as_generator
from tilelab.sliding import METHODS, MoveCount, Board, Slide, Turn, play
from tilelab.sliding.game import (
    Game,
)
from tilelab.widgets.access import describe_sliding, rows_text
from tilelab.widgets.base import (
    ARROW_KEYS,
    PIECES,
    UNDO_KEYS,
    BoardWidget,
    board_key,
)
from tilelab.widgets.sliding_draw import (
    FRAMES_PER_SLIDE,
    MS_PER_FRAME,
    SlidingDrawing,
)
from tilelab.widgets.sliding_pictures import (
    board_picture,
    cell_at,
    clock_text,
    drag_direction,
    GAP,
    generated_picture,
    load_picture,
    TILE_DONE_COLOUR,
)
from tilelab.widgets.sliding_solve import (
    SlidingSolving,
    SOLVE_SPEED,
    SOLVE_SPEEDS,
)

__all__ = ["SIZES", "SlidingWidget", "Record"]


SIZES = ((3, 3), (4, 4), (5, 5), (6, 6))
LEGEND = ("<span style='font-family:sans-serif;font-size:12px;color:#555'>"
          "<span style='color:{done}'>&#9632;</span> darker tile: already in its home cell</span>")

#: Best results per board size in this Python session: (rows, cols) -> Record (games solved unaided).
SESSION_BEST: dict[tuple[int, int], "Record"] = {}


@dataclass(frozen=True)
class Record:
    """A finished game: moves in both metrics and seconds."""

    single: int
    multi: int
    seconds: float


# ----------------------------------------------------------------------------- the board


class SlidingWidget(SlidingSolving, SlidingDrawing, BoardWidget):
    """The sliding puzzle to play in a notebook.

    Click a tile in the blank's row or column to slide it (with the tiles between); drag a tile
    towards the blank; or press an arrow key to move the blank's neighbour that way. ``picture``
    is ``None`` (numbers), ``"generated"``, or a photo (path, bytes, PIL image or array).

    Randomness is ``rng=`` (a seed or a numpy Generator).
    Re-running the cell that made the board resumes the game in progress (same size and seed, in
    the same kernel); ``new_game=True`` (or ``resume=False``) deals a new one, as Shuffle does.
    Hint and Solve follow one plan: an optimal solution when the search finds one within
    ``PLAN_SECONDS``, else the human strategy (the status line says which). A game finished with
    a hint or Solve is not a best record.
    """

    kind = "sliding"

    def __init__(
        self,
        rows: int = 4,
        cols: int | None = None,
        *,
        rng: RngLike = None,
        picture: Any = None,
        method: str = "uniform",
        px: int = 400,
        canvas: Any = None,
        raise_errors: bool = False,
        clock: Callable[[], float] = time.monotonic,
        new_game: bool = False,
        resume: bool = True,
        key: Any = None,
    ) -> None:
        cols = rows if cols is None else cols
        if method not in METHODS:
            raise ValueError(f"method must be one of {list(METHODS)}, got {method!r}")
        where = board_key(self.kind, rows, cols, rng, key=key)
        previous = self.previous(where, resume and not new_game)
        #: The session: puzzle, move counter, undo, Hint/Solve plan, save/load (``board.game.to_json()``).
        self.game: Game = previous.game if previous is not None else Game(rows, cols, rng=as_generator(rng),
                                                                          method=method)
        self.clock = clock
        self.started: float | None = None
        self.finished: float | None = None
        self.solved_by_player = False
        self.used_solve = False
        self.used_hint = False
        self.show_numbers = True
        self.hint_tile: int | None = None
        self._message = ""
        self._picture_source: Any = None
        self._pieces: dict[int, Any] = {}
        self._piece_size = 0
        self._solving: list[int] = []
        width = int(px)
        height = int(round(px * rows / cols)) if rows != cols else int(px)
        super().__init__(width, height, canvas=canvas, raise_errors=raise_errors)
        self.legend = widgets.HTML(value=LEGEND.format(done=TILE_DONE_COLOUR),
                                   layout=widgets.Layout(margin="0 0 2px 0"))
        children = list(self.widget.children)
        children.insert(2, self.legend)  # right under the board
        self.widget.children = tuple(children)
        # a click on a tile slides it: the click that gives the board the keyboard slides nothing (BOARD_SCRIPT)
        self.widget.add_class("tilelab-focus-first")
        self._build_toolbar(rows, cols)
        if picture is not None:
            self.use_picture(picture)
        self.resumed = previous is not None
        if previous is not None:
            self._resume_from(previous)
        else:
            self._reset_clock()  # the game dealt its board already
            self.redraw()
        self.register(where)

    def _resume_from(self, old: "SlidingWidget") -> None:
        """Carry on the game ``old`` (the board this cell made before) was playing."""
        self.method_picker.value = old.method
        self.finished = old.finished
        self.started = None if old.started is None else self.clock() - old.elapsed()
        if old.finished is not None and self.started is not None:
            self.finished = self.started + old.elapsed()
        self.solved_by_player, self.used_solve, self.used_hint = old.solved_by_player, old.used_solve, old.used_hint
        if old._picture_source is not None and self._picture_source is None:
            self._picture_source = old._picture_source
        self.show_numbers = self.numbers_box.value = old.show_numbers
        self.mode_picker.value = old.mode_picker.value
        self._piece_mode = getattr(old, "_piece_mode", "numbers")
        self._message = "Your game goes on (new_game=True or Shuffle starts over)."
        if self.started is not None and self.finished is None:
            self.timer.playing = True
        if self.finished is not None:
            self._finish_banner()
        self.redraw()

    # ------------------------------------------------------------------ controls
    def _build_toolbar(self, rows: int, cols: int) -> None:
        options = [(f"{r}x{c}", (r, c)) for r, c in SIZES]
        if (rows, cols) not in SIZES:
            options.append((f"{rows}x{cols}", (rows, cols)))
        self.size_picker = widgets.Dropdown(options=options, value=(rows, cols), description="Size",
                                            layout=widgets.Layout(width="130px"))
        self.size_picker.style.description_width = "32px"
        self.size_picker.observe(lambda ch: self.guard(self._on_size)(ch["new"]), names="value")
        self.method_picker = widgets.Dropdown(options=list(METHODS), value=self.method,
                                              layout=widgets.Layout(width="130px"),
                                              tooltip="how Shuffle mixes the board")
        self.method_picker.observe(lambda ch: setattr(self, "method", ch["new"]), names="value")
        self.add_control(self.size_picker)
        self.add_button("Shuffle", self.shuffle_board, icon="random",
                        tooltip="deal a new shuffled board (a long game asks once)")
        self.add_control(self.method_picker)
        self.undo_button = self.add_button("Undo", self.undo, icon="undo", tooltip="take back the last move (u)")
        self.add_button("Hint", self.show_hint, icon="lightbulb-o", tooltip="which tile to slide next")
        self.solve_button = self.add_button("Solve", self.toggle_solve, icon="magic",
                                            tooltip="watch the puzzle solve itself (press again to stop)")
        self.speed = widgets.IntSlider(value=SOLVE_SPEED, min=SOLVE_SPEEDS[0], max=SOLVE_SPEEDS[1],
                                       description="moves/s", continuous_update=False,
                                       layout=widgets.Layout(width="230px"), tooltip="Solve's speed")
        self.speed.style.description_width = "56px"
        self.speed.observe(lambda ch: self.guard(self._on_speed)(ch["new"]), names="value")
        self.numbers_box = widgets.Checkbox(value=True, description="show numbers", indent=False,
                                            layout=widgets.Layout(width="120px"))
        self.numbers_box.observe(lambda ch: self.guard(self.set_show_numbers)(ch["new"]), names="value")
        self.mode_picker = widgets.ToggleButtons(options=["numbers", "picture"], value="numbers",
                                                 style={"button_width": "82px"})
        self.mode_picker.observe(lambda ch: self.guard(self._on_mode)(ch["new"]), names="value")
        self.upload = widgets.FileUpload(accept="image/*", multiple=False, description="Your picture")
        self.upload.observe(lambda ch: self.guard(self._on_upload)(ch["new"]), names="value")
        self.add_control(self.mode_picker)
        self.add_control(self.numbers_box)
        self.add_control(self.upload)
        self.add_control(self.speed)
        self.add_sound_toggle()
        self.timer = self.add_ticker(1000, self._update_status)
        self.solve_ticker = self.add_ticker(self._solve_interval(), self._solve_step)

    def _on_size(self, shape: tuple[int, int]) -> None:
        if getattr(self, "_switching", False):  # set_game shows another game's size: no new deal
            return
        self.new_game(*shape)

    def _on_mode(self, mode: str) -> None:
        if mode == "picture" and self._picture_source is None:
            self._picture_source = generated_picture()
        self._pieces = {}
        self._piece_mode = mode
        self.redraw()

    def _on_upload(self, value: Any) -> None:
        files = list(value.values()) if isinstance(value, dict) else list(value)
        if files:
            self.use_picture(bytes(files[-1]["content"]))

    # ------------------------------------------------------------------ state changes
    @property
    def board(self) -> Board:
        """The board now (``widget.game.board``); set it to play another position."""
        return self.game.board

    @board.setter
    def board(self, board: Board) -> None:
        self.set_game(Game(board=board, rng=self.game.rng, method=self.game.method))

    @property
    def move_count(self) -> MoveCount:
        """Moves in both metrics, as :func:`tilelab.sliding.count_moves` counts them (``board.game.move_count``)."""
        return self.game.move_count

    @property
    def moves_played(self) -> int:
        """Moves played, tile by tile (``board.game.moves_played``)."""
        return self.game.moves_played

    @property
    def rng(self) -> Any:
        return self.game.rng

    @property
    def method(self) -> str:
        """How Shuffle mixes the board (the game's ``method``)."""
        return self.game.method

    @method.setter
    def method(self, method: str) -> None:
        if method not in METHODS:
            raise ValueError(f"method must be one of {list(METHODS)}, got {method!r}")
        self.game.method = method

    def set_game(self, game: Game) -> None:
        """Show and play another :class:`tilelab.sliding.Game` (e.g. one loaded with ``Game.from_json``)."""
        self.stop_solve()
        if game.board.shape != self.board.shape:
            self._pieces = {}
        self.game = game
        self._reset_clock()
        if self.size_picker.value != game.board.shape:
            options = [o[1] for o in self.size_picker.options]
            if game.board.shape not in options:
                self.size_picker.options = [*self.size_picker.options, (f"{game.board.rows}x{game.board.cols}",
                                                                        game.board.shape)]
            self._switching = True
            try:
                self.size_picker.value = game.board.shape
            finally:
                self._switching = False
        self.redraw()

    @property
    def rows(self) -> int:
        return self.board.rows

    @property
    def cols(self) -> int:
        return self.board.cols

    @property
    def picture_mode(self) -> bool:
        return getattr(self, "_piece_mode", "numbers") == "picture"

    def use_picture(self, source: Any) -> None:
        """Play with a picture: ``"generated"`` or a photo (path, bytes, PIL image, array)."""
        self._picture_source = generated_picture() if isinstance(source, str) and source == "generated" else load_picture(source)
        self._pieces = {}
        if self.mode_picker.value != "picture":
            self.mode_picker.value = "picture"  # redraws through _on_mode
        else:
            self._piece_mode = "picture"
            self.redraw()

    def set_show_numbers(self, show: bool) -> None:
        """Show the numbers on picture tiles (they always show in number mode)."""
        self.show_numbers = bool(show)
        if self.numbers_box.value != self.show_numbers:
            self.numbers_box.value = self.show_numbers
        self.redraw()

    def new_game(self, rows: int | None = None, cols: int | None = None) -> None:
        """A freshly shuffled board (size unchanged unless given)."""
        rows = self.rows if rows is None else rows
        cols = self.cols if cols is None else cols
        if (rows, cols) != self.board.shape:
            self._pieces = {}
        if self.size_picker.value != (rows, cols):
            self.size_picker.value = (rows, cols)  # calls back into new_game once
            return
        self._new_deal(rows, cols)

    def shuffle_board(self) -> None:
        """The Shuffle button: deal a new board (never the solved one); a long game asks once first."""
        self.stop_solve()
        if self.finished is None and not self.confirm_drop(self.move_count.single, "Shuffle"):
            self._say(f"This game has {self.move_count.single} moves: press Shuffle again to drop it.")
            return
        self._new_deal()

    def _new_deal(self, rows: int | None = None, cols: int | None = None) -> None:
        self.stop_solve()
        self.cancel_confirm()
        self.game.restart(rows, cols)
        self._reset_clock()
        self.redraw()

    def _reset_clock(self) -> None:
        self.started = self.finished = None
        self.solved_by_player = False
        self.used_solve = self.used_hint = False
        self.hint_tile = None
        self._message = ""
        self.timer.playing = False
        self.clear_banner()

    def undo(self) -> bool:
        """Take back the last move (``u`` or Backspace); a solved board becomes playable again."""
        self.stop_solve()
        if not self.game.undo():
            self._say("Nothing to undo.")
            return False
        self.hint_tile = None
        self._message = ""
        if self.finished is not None:  # the clock goes on from where it stopped
            self.started = self.clock() - self.elapsed()
            self.finished = None
            self.timer.playing = True
        self.redraw()
        self.announce(f"took back the last move. {rows_text(self.board.grid, lambda v: str(v) if v else 'blank')}.")
        return True

    def elapsed(self) -> float:
        """Seconds since the first move (frozen when solved)."""
        if self.started is None:
            return 0.0
        end = self.finished if self.finished is not None else self.clock()
        return end - self.started

    # ------------------------------------------------------------------ input
    def on_key(self, key: str) -> None:
        if key in UNDO_KEYS:
            self.undo()
            return
        direction = ARROW_KEYS.get(key)
        if direction is None:
            return
        self.stop_solve()
        self.play(direction)  # the game reads the direction (the blank's neighbour that way slides), once

    def on_click(self, x: float, y: float) -> None:
        cell = self.cell_at(x, y)
        if cell is None:
            return
        self.stop_solve()
        tile = self.board.at(*cell)
        if tile in self.board.legal_moves():
            self.play(tile)
        elif tile != 0:
            self._say(f"Tile {tile} is not in the blank's row or column.")
            self.announce(f"Tile {tile} is not in the blank's row or column: only those tiles slide.")
            self.play_sound("refused")

    def on_drag(self, x0: float, y0: float, x1: float, y1: float) -> None:
        direction = drag_direction(x0, y0, x1, y1)
        self.stop_solve()
        cell = self.cell_at(x0, y0)
        if cell is not None:
            tile = self.board.at(*cell)
            if tile in self.board.legal_moves():
                if play(self.board, tile).direction == direction:
                    self.play(tile)
                return
        # a swipe that did not start on a movable tile: move the blank's neighbour that way
        self.play(direction)

    def cell_at(self, x: float, y: float) -> tuple[int, int] | None:
        """The cell under pixel ``(x, y)`` on this board."""
        return cell_at(x, y, self.rows, self.cols, self.width, self.height)

    # ------------------------------------------------------------------ moves
    def play(self, move: int | str, *, animate: bool = True, by_player: bool = True,
             ms_per_frame: float = MS_PER_FRAME) -> Turn | None:
        """Play ``move`` (a tile, or a direction word) in the game (it counts), animate the Turn's event.

        Returns the game's Turn (true when a tile moved), or None when the solved board waits for a new game.
        """
        if self.finished is not None:
            return None
        if by_player:
            self._message = ""  # a message stays until the next move
        self.cancel_confirm()
        turn = self.game.play(move)
        if not turn or turn.events is None:
            if by_player:
                self.after_turn(turn, describe_sliding(turn, self.board, self.move_count.single, refused=(
                    f"nothing slides {move}: the blank is at that edge" if isinstance(move, str) else "")))
            return turn
        event: Slide = turn.events
        if self.started is None:
            self.started = self.clock()
            self.timer.playing = True
        self.hint_tile = None
        if animate:
            self._animate_events([event], FRAMES_PER_SLIDE, ms_per_frame)
        else:
            self.redraw()
        if turn.won:
            self._finish(by_player)
        else:
            self._update_status()
        if by_player:
            self.after_turn(turn, describe_sliding(turn, self.board, self.move_count.single))
        return turn

    def _finish(self, by_player: bool) -> None:
        self.finished = self.clock()
        self.timer.playing = False
        seconds = self.elapsed()
        self.solved_by_player = by_player and not self.used_solve
        record = Record(self.move_count.single, self.move_count.multi, seconds)
        shape = self.board.shape
        best = SESSION_BEST.get(shape)
        unaided = self.solved_by_player and not self.used_hint
        new_best = unaided and (best is None or (record.single, record.seconds) < (best.single, best.seconds))
        if new_best:
            SESSION_BEST[shape] = record
        self._new_best = new_best and best is not None
        if self.used_solve:
            self._message = "Solved by the Solve button: not a record. Shuffle for a new game."
        elif self.used_hint:
            self._message = "Solved with hints: well done! Records count games solved without hints."
        self._finish_banner()
        self._update_status()

    def _finish_banner(self) -> None:
        seconds = self.elapsed()
        if self.solved_by_player:
            subtitle = f"{self.move_count.single} moves ({self.move_count.multi} multi-tile) in {clock_text(seconds)}"
            title = "New best!" if getattr(self, "_new_best", False) else "Solved!"
        else:
            title, subtitle = "Solved", "by the Solve button"
        with self.hold():
            if self.picture_mode and 0 in self._pieces:  # the picture is whole again
                x0, y0, cell = self._geometry()
                r, c = self.board.blank
                side = cell - GAP
                self.layer(PIECES).draw_image(self._pieces[0], x0 + c * cell + GAP / 2, y0 + r * cell + GAP / 2, side, side)
            self.draw_banner(title, subtitle, colour="rgba(255, 255, 255, 0.78)", text_colour="#12507c")

    # ------------------------------------------------------------------ stored outputs
    def picture(self) -> Any:
        """The board as a PIL image (what notebooks show before the cell runs)."""
        source = self._picture_source if self.picture_mode else None
        return board_picture(self.board, self.width, self.height, picture=source,
                             show_numbers=self.show_numbers or source is None)

    def fallback_text(self) -> str:
        return (f"{self.rows}x{self.cols} sliding puzzle: run this cell to play "
                "(click a tile in the blank's row or column, or use the arrow keys)")

    # ------------------------------------------------------------------ status
    def _say(self, message: str) -> None:
        """Show ``message`` under the counters until the next move or button (short, one line)."""
        self._message = message
        self._update_status()

    def _update_status(self) -> None:
        best = SESSION_BEST.get(self.board.shape)
        best_text = (
            f"best {self.rows}x{self.cols}: {best.single} moves, {clock_text(best.seconds)}"
            if best else f"no {self.rows}x{self.cols} record yet"
        )
        message = self._message
        parts = [  # always plural: "moves" / "multi-tile moves" is what readers (and the browser tests) look for
            f"<b>{self.move_count.single}</b> moves (tile by tile)",
            f"<b>{self.move_count.multi}</b> multi-tile moves",
            f"time <b>{clock_text(self.elapsed())}</b>",
            best_text,
        ]
        html = " &middot; ".join(parts)
        html += f"<br><i>{message}</i>" if message else "<br>&nbsp;"
        self.set_status(f"<span style='font-family:sans-serif;font-size:13px;line-height:1.35'>{html}</span>")

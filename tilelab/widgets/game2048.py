"""A playable 2048 board: keys, swipes and buttons; animated from the engine's move orders.

The widget holds no rules: it turns input into :meth:`Game.play` calls and animates what the move
reported (each tile's source, destination and merge, then the spawn). A whole animation -- slide
(~100 ms), merge pop, new-tile fade-in -- goes to the browser as one batch with pauses inside, so
the kernel never waits; a key pressed while a move still plays is applied at once, in order, and
drawn without animation, so fast play never lags or loses a key.

Pure helpers (:class:`Geometry` with ``cell_at`` and ``swipe``, :func:`direction_for_key`) are
tested without a browser; :func:`draw_board` draws any board on any canvas (the AI board reuses it).

>>> from tilelab.widgets.testing import FakeMultiCanvas, press_key
>>> board = Game2048Widget(rng=19, canvas=FakeMultiCanvas(3, 400, 400), raise_errors=True)
>>> print(board.game.board)
. . . .
. . 2 .
. . . .
. . 2 .
>>> press_key(board, "ArrowUp")
>>> board.game.score, board.canvas[1].texts()
(4, ['4', '2'])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

import ipywidgets as widgets

from tilelab.game2048 import Board, Direction, Game, TileMove
from tilelab.protocol import Turn
from tilelab.randomness import RngLike
from tilelab.game2048.board import DEFAULT_P_FOUR
from tilelab.game2048.palette import BLANK_COLOR, BOARD_COLOR, INK_TEXT, font_fraction, tile_style
from tilelab.widgets.access import describe_2048, rows_text
from tilelab.widgets.base import ARROW_KEYS, BACKGROUND, PIECES, UNDO_KEYS, BoardWidget, board_key
from tilelab.widgets.pictures import bold_font, rgb

__all__ = [
    "BEST_SCORES",
    "DEFAULT_WORDS",
    "Game2048Widget",
    "Geometry",
    "KEY_DIRECTIONS",
    "banner_of",
    "direction_for_key",
    "draw_board",
    "draw_tile",
    "move_frames",
]

BOARD_PX = 400  #: default side of the board in pixels
GAP_FRACTION = 0.12  #: gap between cells as a fraction of a cell (the original: 15 px to 106 px)
CORNER_FRACTION = 0.05  #: tile corner radius as a fraction of a tile
MS_PER_FRAME = 20
SLIDE_FRAMES = 5  #: 5 x 20 ms: the ~100 ms slide
POP_SCALES = (1.12, 1.2, 1.1, 1.0)  #: a merged tile grows and settles (the "pop")
APPEAR_SCALES = (0.25, 0.5, 0.75, 1.0)  #: a new tile grows in while it fades in
FONT = "'Clear Sans', 'Helvetica Neue', Arial, sans-serif"
WIN_COLOUR = "rgba(237, 194, 46, 0.6)"  # ink text 5.2:1 at worst (over a dark tile); 0.5 gave 4.3:1
LOSE_COLOUR = "rgba(238, 228, 218, 0.73)"
KEEP_PLAYING_KEYS = ("Enter", "Escape", " ")
#: The status line's "+8" after a merge: 5.4:1 on white (the original's #8f7a66 is 4.1:1, below WCAG AA's 4.5:1).
GAIN_COLOUR = "#7a6655"

#: Best score per (board size, target) in this kernel: survives re-run cells and new games.
BEST_SCORES: dict[tuple[int, int], int] = {}

#: Word tiles (the Swift walkthrough's idea of labels instead of numbers): seeds growing to a world.
DEFAULT_WORDS = {
    2: "seed", 4: "sprout", 8: "leaf", 16: "twig", 32: "bush", 64: "tree", 128: "grove",
    256: "wood", 512: "forest", 1024: "valley", 2048: "world", 4096: "planet", 8192: "star",
}


#: The swipe each key means (arrows, WASD, vim hjkl), parsed once here: a key press looks its Direction up.
KEY_DIRECTIONS = {key: Direction.parse(word) for key, word in ARROW_KEYS.items()}


def banner_of(over: bool, waiting: bool) -> str | None:
    """The banner a 2048 board shows: "over", "won" (the game waits at the win) or None.

    >>> banner_of(True, False), banner_of(False, True), banner_of(False, False)
    ('over', 'won', None)
    """
    return "over" if over else ("won" if waiting else None)


def direction_for_key(key: str) -> Direction | None:
    """The swipe a key means (arrows, WASD, vim hjkl), or None.

    >>> direction_for_key("ArrowLeft"), direction_for_key("k"), direction_for_key("x")
    (Direction.LEFT, Direction.UP, None)
    """
    return KEY_DIRECTIONS.get(key)


@dataclass(frozen=True)
class Geometry:
    """Where cells sit on the canvas: ``size`` cells in ``px`` pixels with gaps between them.

    >>> g = Geometry(4, 400)
    >>> g.cell_at(10, 10), g.cell_at(395, 150), g.cell_at(-1, 5)
    ((0, 0), (1, 3), None)
    >>> g.swipe(100, 100, 300, 140), g.swipe(100, 300, 110, 100)
    (Direction.RIGHT, Direction.UP)
    """

    size: int
    px: float = BOARD_PX

    @property
    def gap(self) -> float:
        """Pixels between two cells (and around the board)."""
        return self.px / (self.size / GAP_FRACTION + self.size + 1)

    @property
    def tile(self) -> float:
        """A tile's side in pixels."""
        return self.gap / GAP_FRACTION

    def origin(self, row: float, col: float) -> tuple[float, float]:
        """Top-left pixel (x, y) of a cell; fractional rows and cols interpolate (animation)."""
        step = self.tile + self.gap
        return self.gap + col * step, self.gap + row * step

    def cell_at(self, x: float, y: float) -> tuple[int, int] | None:
        """The (row, col) under pixel (x, y) (gaps belong to the nearest cell), or None off the board."""
        if not (0 <= x < self.px and 0 <= y < self.px):
            return None
        step = self.tile + self.gap
        col = min(self.size - 1, max(0, int((x - self.gap / 2) // step)))
        row = min(self.size - 1, max(0, int((y - self.gap / 2) // step)))
        return row, col

    @staticmethod
    def swipe(x0: float, y0: float, x1: float, y1: float) -> Direction | None:
        """The direction of a drag from (x0, y0) to (x1, y1): its longer axis wins (None if still)."""
        dx, dy = x1 - x0, y1 - y0
        if dx == 0 and dy == 0:
            return None
        if abs(dx) >= abs(dy):
            return Direction.RIGHT if dx > 0 else Direction.LEFT
        return Direction.DOWN if dy > 0 else Direction.UP


# ------------------------------------------------------------------ drawing (any canvas)
def _rounded_rect(canvas: Any, x: float, y: float, w: float, h: float, radius: float) -> None:
    canvas.begin_path()
    canvas.move_to(x + radius, y)
    canvas.arc_to(x + w, y, x + w, y + h, radius)
    canvas.arc_to(x + w, y + h, x, y + h, radius)
    canvas.arc_to(x, y + h, x, y, radius)
    canvas.arc_to(x, y, x + w, y, radius)
    canvas.close_path()
    canvas.fill()


def draw_tile(
    canvas: Any, geometry: Geometry, row: float, col: float, value: int, *,
    label: str | None = None, scale: float = 1.0, alpha: float = 1.0,
) -> None:
    """Draw one tile (or a blank cell for 0) at a possibly fractional (row, col), scaled about its centre."""
    x, y = geometry.origin(row, col)
    side = geometry.tile * scale
    offset = (geometry.tile - side) / 2
    background, text_colour = tile_style(value)
    canvas.global_alpha = alpha
    canvas.fill_style = background
    _rounded_rect(canvas, x + offset, y + offset, side, side, CORNER_FRACTION * side)
    if value:
        text = str(value) if label is None else label
        canvas.fill_style = text_colour
        canvas.font = f"bold {max(6, int(font_fraction(value, text) * side))}px {FONT}"
        canvas.text_align = "center"
        canvas.text_baseline = "middle"
        canvas.fill_text(text, x + geometry.tile / 2, y + geometry.tile / 2)
    if alpha != 1.0:
        canvas.global_alpha = 1.0


def draw_background(canvas: Any, geometry: Geometry) -> None:
    """The board frame and its empty cells."""
    canvas.clear()
    canvas.fill_style = BOARD_COLOR
    _rounded_rect(canvas, 0, 0, geometry.px, geometry.px, CORNER_FRACTION * geometry.tile)
    canvas.fill_style = BLANK_COLOR
    for r in range(geometry.size):
        for c in range(geometry.size):
            x, y = geometry.origin(r, c)
            _rounded_rect(canvas, x, y, geometry.tile, geometry.tile, CORNER_FRACTION * geometry.tile)


def draw_board(canvas: Any, board: Board, geometry: Geometry | None = None, *,
               words: Mapping[int, str] | None = None, background: Any = None) -> Geometry:
    """Draw every tile of ``board`` on ``canvas`` (cleared first); the frame too if ``background`` is given."""
    geometry = geometry or Geometry(board.size, getattr(canvas, "width", BOARD_PX) or BOARD_PX)
    if background is not None:
        draw_background(background, geometry)
    canvas.clear()
    for (r, c), value in board.tile_map().items():
        draw_tile(canvas, geometry, r, c, value, label=_label(value, words))
    return geometry


def _label(value: int, words: Mapping[int, str] | None) -> str | None:
    return words.get(value) if words else None


def move_frames(
    canvas: Any, geometry: Geometry, moves: tuple[TileMove, ...], board: Board, spawn: Any = None,
    *, words: Mapping[int, str] | None = None,
) -> list[Callable[[], None]]:
    """Frames (functions drawing one picture each) for a move: slide, then merge pop and spawn fade-in.

    ``moves`` are the engine's move orders in board cells; ``board`` is the position after the
    move and spawn. The last frame draws ``board`` exactly.
    """
    merged_at = {m.destination for m in moves if m.merged}
    spawn_cell = None if spawn is None else tuple(spawn.cell)

    def slide(t: float) -> Callable[[], None]:
        def frame() -> None:
            canvas.clear()
            for m in moves:
                (r0, c0), (r1, c1) = m.source, m.destination
                draw_tile(canvas, geometry, r0 + (r1 - r0) * t, c0 + (c1 - c0) * t, m.start_value,
                          label=_label(m.start_value, words))
        return frame

    def settle(k: int) -> Callable[[], None]:
        def frame() -> None:
            canvas.clear()
            for (r, c), value in board.tile_map().items():
                if (r, c) == spawn_cell:
                    draw_tile(canvas, geometry, r, c, value, label=_label(value, words),
                              scale=APPEAR_SCALES[k], alpha=APPEAR_SCALES[k])
                else:
                    scale = POP_SCALES[k] if (r, c) in merged_at else 1.0
                    draw_tile(canvas, geometry, r, c, value, label=_label(value, words), scale=scale)
        return frame

    frames = [slide((i + 1) / SLIDE_FRAMES) for i in range(SLIDE_FRAMES)]
    frames += [settle(k) for k in range(len(POP_SCALES))]
    return frames


# ------------------------------------------------------------------ the widget
class Game2048Widget(BoardWidget):
    """A playable 2048 board (``.widget`` is what the notebook shows; the object displays itself).

    Input: arrow keys, WASD, vim hjkl (keys reach the canvas in JupyterLab once it has focus),
    mouse or touch swipes, and the on-screen arrow buttons. ``u``/Backspace undo; Enter keeps
    playing after a win. ``words=True`` (or a ``{value: label}`` dict) shows word tiles.
    Wrap it to add controls: ``.game``, :meth:`play`, :meth:`new_game`, :meth:`undo`, ``add_button``.

    Randomness is ``rng=`` (a seed or a numpy Generator).
    Re-running the cell that made the board resumes the game in progress (same size and seed, in
    the same kernel); ``new_game=True`` (or ``resume=False``) starts over. ``key=`` names the board
    when the same game should continue from another cell. The best score stays for the kernel.
    """

    kind = "2048"

    def __init__(
        self, size: int = 4, *, rng: RngLike = None, game: Game | None = None,
        words: bool | Mapping[int, str] | None = None, target: int = 2048, p_four: float = DEFAULT_P_FOUR,
        px: int = BOARD_PX, animate: bool = True, canvas: Any = None, raise_errors: bool = False,
        new_game: bool = False, resume: bool = True, key: Any = None,
    ) -> None:
        where = None if game is not None else board_key(self.kind, size, rng, target, p_four, key=key)
        previous = self.previous(where, resume and not new_game)
        if previous is not None:
            game = previous.game  # the game in progress carries on (its random state too)
        self.game = game if game is not None else Game(size=size, target=target, p_four=p_four, rng=rng)
        if previous is None:  # the original game's pause: moves wait at the first win until "Keep playing"
            self.game.keep_playing = self.game.won
        self.resumed = previous is not None
        self.geometry = Geometry(self.game.size, px)
        self.words: dict[int, str] | None = None
        if words is True:
            self.words = dict(DEFAULT_WORDS)
        elif words:
            self.words = {int(k): str(v) for k, v in dict(words).items()}
        self.show_words = self.words is not None
        self.animate_moves = animate
        self._best_key = (self.game.size, self.game.target)
        self.best = max(self.game.score, BEST_SCORES.get(self._best_key, 0))
        if previous is not None:
            self.show_words = previous.show_words and self.words is not None
        super().__init__(px, px, layers=3, canvas=canvas, raise_errors=raise_errors)
        self._build_toolbar()
        self.register(where)
        self.redraw()

    # ----------------------------------------------------------------- controls
    def _build_toolbar(self) -> None:
        for label, direction in (("←", Direction.LEFT), ("↑", Direction.UP), ("↓", Direction.DOWN), ("→", Direction.RIGHT)):
            self.add_button(label, lambda d=direction: self.play(d), tooltip=f"swipe {direction.value}", width="40px")
        self.undo_button = self.add_button("Undo", self.undo, tooltip="take back the last move (u)", icon="undo")
        self.add_button("New game", self.ask_new_game, tooltip="start again (a long game asks once)", icon="refresh")
        self.keep_button = self.add_button("Keep playing", self.keep_playing, tooltip="go on after winning (Enter)")
        self.keep_button.layout.display = "none"
        if self.words is not None:
            toggle = widgets.ToggleButton(value=self.show_words, description="Words", tooltip="show tiles as words")
            toggle.observe(self.guard(lambda change: self.set_words(change["new"])), names="value")
            self.words_toggle = self.add_control(toggle)
        self.add_sound_toggle()

    # ----------------------------------------------------------------- actions
    def play(self, direction: Direction | str) -> Any:
        """Swipe once: :meth:`Game.play`, then animate the Turn (its tile moves, then its spawn).

        Returns the game's Turn (True when the board changed). While the win shows, the game makes
        moves wait for :meth:`keep_playing` (``Game.keep_playing``, as in the original game).
        """
        waiting = self.game.waiting
        turn = self.game.play(direction)  # the game parses a word once; a key already gave a Direction
        if not turn:
            self.after_turn(turn, describe_2048(turn, self.game.board, self.game.score, best=self.best, refused=(
                "the game waits at the win: press Enter or Keep playing to go on" if waiting else "")))
            return turn
        self.cancel_confirm()
        self._note_best()
        result = turn.events
        spawn = turn.chance[0][0] if turn.chance else None
        frames = move_frames(self.layer(PIECES), self.geometry, result.moves, self.game.board, spawn,
                             words=self._words())
        if self.animate_moves:
            self.animate(frames, MS_PER_FRAME)
        else:
            with self.hold():
                frames[-1]()
        self._after_move(turn)
        self.after_turn(turn, describe_2048(turn, self.game.board, self.game.score, best=self.best))
        return turn

    def undo(self) -> bool:
        """Take back the last move (the random state too: replaying it spawns the same tile)."""
        if not self.game.undo():
            return False
        if not self.game.won:  # undone past the win: the next win pauses again
            self.game.keep_playing = False
        self.redraw()
        self.announce(f"took back the last move. score {self.game.score}. "
                      f"{rows_text(self.game.board.grid, lambda v: str(v) if v else 'blank')}.")
        return True

    def ask_new_game(self) -> None:
        """The New game button: a new game, after asking once when this one has many moves."""
        if not self.game.over and not self.confirm_drop(self.game.moves_played):
            self._show_status(self.banner,
                              note=f"this game has {self.game.moves_played} moves: press New game again to drop it")
            return
        self.new_game()

    def new_game(self) -> None:
        """Start a new game with the same settings (the best score stays)."""
        self.cancel_confirm()
        self.game.restart()
        self.game.keep_playing = False
        self.redraw()

    def keep_playing(self) -> None:
        """Dismiss the win banner and go on toward bigger tiles (``Game.keep_playing``)."""
        if self.game.waiting:
            self.game.keep_playing = True
            self.keep_button.layout.display = "none"
            self.clear_banner()
            self._show_status(self.banner)

    def set_game(self, game: Game) -> None:
        """Show and play another :class:`Game` (same size or not)."""
        self.game = game
        self.geometry = Geometry(game.size, self.width)
        game.keep_playing = game.keep_playing or game.won
        self._best_key = (game.size, game.target)
        self.best = max(game.score, BEST_SCORES.get(self._best_key, 0))
        self._note_best()
        self.redraw()

    @property
    def board(self) -> Board:
        """The board now (``widget.game.board``), as on every game's widget."""
        return self.game.board

    @board.setter
    def board(self, board: Board) -> None:
        """Play on from ``board``: a new :class:`Game` there with this game's target, odds and randomness."""
        self.set_game(Game(size=board.size, target=self.game.target, p_four=self.game.p_four, rng=self.game.rng,
                           board=board))

    def _note_best(self) -> None:
        self.best = max(self.best, self.game.score, BEST_SCORES.get(self._best_key, 0))
        BEST_SCORES[self._best_key] = self.best

    def set_words(self, on: bool) -> None:
        """Show word tiles (``True``) or numbers."""
        self.show_words = bool(on) and self.words is not None
        self.redraw()

    def _words(self) -> dict[int, str] | None:
        return self.words if self.show_words else None

    # ----------------------------------------------------------------- stored outputs
    def picture(self) -> Any:
        """The board as a PIL image (for notebooks viewed without a kernel)."""
        return board_picture(self.game.board, self.geometry.px, words=self._words())

    def fallback_text(self) -> str:
        # no score or best: after a kernel restart the cell deals a new game, so a saved number would not hold
        return "2048 board, as it was when this cell ran: run this cell to play (arrow keys after clicking the board)"

    # ----------------------------------------------------------------- input hooks
    def on_key(self, key: str) -> None:
        direction = direction_for_key(key)
        if direction is not None:
            self.play(direction)
        elif key in UNDO_KEYS:
            self.undo()
        elif key in KEEP_PLAYING_KEYS:
            self.keep_playing()

    def on_drag(self, x0: float, y0: float, x1: float, y1: float) -> None:
        direction = self.geometry.swipe(x0, y0, x1, y1)
        if direction is not None:
            self.play(direction)

    # ----------------------------------------------------------------- drawing
    def redraw(self) -> None:
        """Draw everything from the game's state: frame, tiles, banner, status."""
        with self.hold():
            draw_board(self.layer(PIECES), self.game.board, self.geometry, words=self._words(),
                       background=self.layer(BACKGROUND))
            self.clear_banner()
            banner = self.banner
            self._update_banner(banner)
        self._show_status(banner)

    @property
    def banner(self) -> str | None:
        """None, "won" (the game waits at the win) or "over": read from the game, never kept here."""
        return banner_of(self.game.over, self.game.waiting)

    def _after_move(self, turn: Turn) -> None:
        banner = banner_of(turn.over, self.game.waiting)  # the turn says whether the game is over: no new scan
        if banner is not None:  # else nothing to draw: no extra message per move
            with self.hold():
                self._update_banner(banner)
        self._show_status(banner, turn.score)

    def _update_banner(self, banner: str | None) -> None:
        if banner == "over":
            self.draw_banner("Game over!", "Undo or start a New game", colour=LOSE_COLOUR)
        elif banner == "won":
            self.draw_banner("You win!", "Keep playing, or start a New game", colour=WIN_COLOUR,
                             text_colour=INK_TEXT)
        else:
            self.clear_banner()
        self.keep_button.layout.display = "" if banner == "won" else "none"

    def _show_status(self, banner: str | None, gained: int = 0, note: str = "") -> None:
        plus = f' <span style="color:{GAIN_COLOUR}">+{gained}</span>' if gained else ""
        state = ""
        if banner == "won":
            state = " &middot; <b>you win!</b>"
        elif banner == "over":
            state = " &middot; <b>game over</b>"
        self.set_status(
            f'<span style="font-family:sans-serif;font-size:15px">score <b>{self.game.score}</b>{plus}'
            f" &nbsp; best <b>{self.best}</b> &nbsp; moves {self.game.moves_played}{state}</span>"
            + (f'<br><i style="font-family:sans-serif;font-size:13px">{note}</i>' if note else "")
        )


def board_picture(board: Board, px: int = BOARD_PX, *, words: Mapping[int, str] | None = None) -> Any:
    """A 2048 board drawn with Pillow in the widget's colours (stored outputs, reports).

    >>> from tilelab.game2048 import Board
    >>> board_picture(Board([[2, 0], [0, 4]]), 200).size
    (200, 200)
    """
    from PIL import Image, ImageDraw

    geometry = Geometry(board.size, px)
    image = Image.new("RGB", (int(px), int(px)), "white")
    draw = ImageDraw.Draw(image)
    radius = CORNER_FRACTION * geometry.tile
    draw.rounded_rectangle((0, 0, px - 1, px - 1), radius=radius, fill=rgb(BOARD_COLOR))
    tiles = board.tile_map()
    for r in range(board.size):
        for c in range(board.size):
            x, y = geometry.origin(r, c)
            value = tiles.get((r, c), 0)
            background, text_colour = tile_style(value)
            draw.rounded_rectangle((x, y, x + geometry.tile, y + geometry.tile), radius=radius,
                                   fill=rgb(background if value else BLANK_COLOR))
            if value:
                text = _label(value, words) or str(value)
                size = max(6, int(font_fraction(value, text) * geometry.tile))
                draw.text((x + geometry.tile / 2, y + geometry.tile / 2), text, fill=rgb(text_colour),
                          font=bold_font(size), anchor="mm")
    return image

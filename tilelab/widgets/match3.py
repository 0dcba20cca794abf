"""A playable match-3 board: click a candy then a neighbour (or drag it), watch the cascade.

Input in (click, drag, touch, keys) -> :meth:`tilelab.match3.Game.play` -> animate the Turn: the
swap, each cascade step (flash the matched groups, clear, fall, refill) and the reshuffle the
game made if the board was left dead. Score, moves, dead boards, reshuffles, hints, undo and
save/load are the :class:`~tilelab.match3.Game`'s (``board.game``), under the rules object it
was given (plain or with specials); the board holds no rules of its own. Candies have a colour
*and* a shape each (:mod:`tilelab.match3.candies`).

>>> from tilelab.widgets.testing import FakeMultiCanvas, click, press_key
>>> board = Match3Widget(4, 5, 3, rng=7, canvas=FakeMultiCanvas(3, 250, 200), raise_errors=True)
>>> print(board.board)
12200
20220
00112
12212
>>> board.legal_moves()[:2]
[((0, 0), (1, 0)), ((0, 1), (1, 1))]
>>> click(board, 25, 25); click(board, 25, 75)    # (0, 0) then (1, 0): 1 2 2 -> 2 2 2
>>> board.moves_played, board.score > 0, board.score == board.game.score
(1, True, True)
>>> press_key(board, "u"); board.moves_played, board.score    # u or Backspace takes the swap back
(0, 0)
"""

from __future__ import annotations

import math
from typing import Any

import ipywidgets as widgets

from tilelab.randomness import RngLike
from tilelab.match3 import Board, Cell, Move, SwapResult, Turn
from tilelab.match3.game import Game, Rules, as_rules
from tilelab.widgets.access import candy_name, describe_match3
from tilelab.widgets.base import ARROW_KEYS, OVERLAY, UNDO_KEYS, BoardWidget, board_key
from tilelab.widgets.match3_draw import (
    board_picture,
    cell_at,
    CELL_PX,
    drag_target,
    IDLE_HINT_S,
    Match3Drawing,
    MS_PER_FRAME,
    SELECT_COLOUR,
    TICK_MS,
)

__all__ = ["Match3Widget"]


#: Best score per (rows, cols, kinds) in this kernel: survives re-run cells and new games.
BEST_SCORES: dict[tuple[int, int, int], int] = {}


class Match3Widget(Match3Drawing, BoardWidget):
    """Match-3 in the notebook: swap neighbours, cascades step by step, hints, reshuffles."""

    def __init__(
        self,
        rows: int = 8,
        cols: int = 8,
        kinds: int = 6,
        *,
        rng: RngLike = None,
        cell_px: int | None = None,
        px: int | None = None,
        frame_ms: float = MS_PER_FRAME,
        idle_hint_s: float = IDLE_HINT_S,
        canvas: Any = None,
        raise_errors: bool = False,
        new_game: bool = False,
        resume: bool = True,
        key: Any = None,
        specials: bool = False,
        rules: Rules | str | None = None,
    ) -> None:
        where = board_key("match3", rows, cols, kinds, rng, key=key)
        previous = self.previous(where, resume and not new_game)
        self.rows, self.cols, self.kinds = rows, cols, kinds
        if px is not None and cell_px is not None and cell_px != px // cols:
            raise ValueError(f"px={px} (the board's width) and cell_px={cell_px} disagree; pass one of them")
        #: Pixels per cell (``px=`` gives the whole board's width instead).
        self.cell_px = int(cell_px if cell_px is not None else (px // cols if px is not None else CELL_PX))
        #: Milliseconds per animation frame; 0 draws results at once (no animation).
        self.frame_ms = float(frame_ms)
        self.idle_hint_s = float(idle_hint_s)
        #: The session: board, score, moves, rules (plain or with specials), undo, hints, save/load.
        self.game = Game(rows, cols, kinds, rules=as_rules(specials if rules is None else rules),
                         rng=rng)
        self.selected: Cell | None = None
        #: The keyboard's cell (arrow keys move it; Enter or Space picks its candy); None until a key is used.
        self.cursor: Cell | None = None
        self.hint_move: tuple[Cell, Cell] | None = None
        self.last_result: SwapResult | None = None
        self.message = ""
        self.idle_s = 0.0
        #: Stages still to show in step mode: (title, board, marks) each.
        self.stages: list[tuple[str, Board, dict]] = []
        #: Points of the shown cascade not yet shown (step mode shows them as each match is shown).
        self.pending_score = 0
        self._hint_queued = False
        self.best = BEST_SCORES.get((rows, cols, kinds), 0)
        self.resumed = previous is not None
        if previous is not None:  # re-run cell: the game in progress goes on (its rules too)
            previous._flush_pending()
            self.game = previous.game
            self.message = "your game goes on (New game starts over)"
        super().__init__(cols * self.cell_px, rows * self.cell_px, canvas=canvas, raise_errors=raise_errors)
        self._build_toolbar()
        self.register(where)
        self.redraw()
        self._update_status()

    # ------------------------------------------------------------------ toolbar
    def _build_toolbar(self) -> None:
        self.add_button("New game", self.ask_new_game, icon="refresh", tooltip="deal a new board (a long game asks once)")
        self.undo_button = self.add_button("Undo", self.undo, icon="undo", tooltip="take back the last swap (u)")
        self.add_button("Hint", self.show_hint, icon="lightbulb-o", tooltip="show a move (plain rules: the largest immediate score; specials: a combination first, else the lowest move)")
        self.step_toggle = widgets.ToggleButton(value=False, description="Step mode", icon="pause",
                                                tooltip="walk each cascade one stage at a time")
        self.step_toggle.observe(lambda change: self.guard(self._on_step_mode)(change["new"]), names="value")
        self.add_control(self.step_toggle)
        self.next_button = self.add_button("Next step", self.next_step, icon="step-forward",
                                           tooltip="show the next stage of the cascade")
        self.next_button.disabled = True
        self.specials_toggle = widgets.ToggleButton(value=self.specials, description="Specials", icon="star",
                                                    tooltip="special candies on/off (starts a new game)")
        self.specials_toggle.observe(lambda change: self.guard(self._on_specials)(change["new"]), names="value")
        self.add_control(self.specials_toggle)
        self.add_sound_toggle()
        self.ticker = self.add_ticker(TICK_MS, self._tick, playing=True)

    def _on_specials(self, on: bool) -> None:
        """Turn special candies on or off: a new game under the other rules object."""
        if bool(on) != self.specials:
            self.game.restart(rules=bool(on))
        self.new_game(deal=False)
        self.message = f"new game, specials {'on' if on else 'off'}"
        self._update_status()

    # ------------------------------------------------------------------ the game's state, shown
    @property
    def board(self) -> Any:
        """The board now (``board.game.board``)."""
        return self.game.board

    @board.setter
    def board(self, board: Any) -> None:
        self.game.board = board

    @property
    def specials(self) -> bool:
        """True when the game's rules have special candies (striped, wrapped, colour bombs)."""
        return self.game.rules.specials

    @property
    def rng(self) -> Any:
        return self.game.rng

    @property
    def score(self) -> int:
        """The score shown: the game's, less the points of cascade steps step mode has not shown yet."""
        return self.game.score - self.pending_score

    @property
    def moves_played(self) -> int:
        """The moves played (``board.game.moves_played``)."""
        return self.game.moves_played

    @property
    def last_cascades(self) -> int:
        return self.game.last_cascades

    @property
    def best_cascades(self) -> int:
        return self.game.best_cascades

    def set_game(self, game: Game) -> None:
        """Show and play another :class:`tilelab.match3.Game` of this size (e.g. ``Game.from_json(text)``)."""
        if (game.rows, game.cols) != (self.rows, self.cols):
            raise ValueError(f"this board shows {self.rows}x{self.cols} games; the game is {game.rows}x{game.cols}")
        self.game = game
        self.kinds = game.kinds
        if self.specials_toggle.value != game.rules.specials:
            self.specials_toggle.value = game.rules.specials  # the toggle follows, no new deal (same rules)
        self.new_game(deal=False)
        self.message = "game loaded"
        self._update_status()

    @property
    def step_mode(self) -> bool:
        return bool(self.step_toggle.value)

    @step_mode.setter
    def step_mode(self, on: bool) -> None:
        self.step_toggle.value = bool(on)

    def _on_step_mode(self, on: bool) -> None:
        if not on:
            self.stages.clear()
            self._flush_pending()
            self.next_button.disabled = True
            self.redraw()
        self._update_status()

    # ------------------------------------------------------------------ game actions
    def ask_new_game(self) -> None:
        """The New game button: a new deal, after asking once when the game has many moves."""
        if not self.confirm_drop(self.moves_played):
            self.message = f"this game has {self.moves_played} moves: press New game again to drop it"
            self._update_status()
            return
        self.new_game()

    def new_game(self, deal: bool = True) -> None:
        """Deal a new board; score, moves and cascade counters start again."""
        if deal:
            self.game.restart()
        self.cancel_confirm()
        self.pending_score = 0
        self._hint_queued = False
        self.selected = self.hint_move = self.last_result = None
        self.stages.clear()
        self.message = "new game"
        self.idle_s = 0.0
        self.clear_banner()
        self.redraw()
        self._update_status()

    def legal_moves(self) -> list[tuple[Cell, Cell]]:
        """The legal swaps on the current board (``board.game.legal_moves()``)."""
        return self.game.legal_moves()

    def undo(self) -> bool:
        """Take back the last swap (``u`` or Backspace): board, score and random state."""
        if self.busy():
            self.stages.clear()  # an undo during a shown cascade skips the rest of it
            self.next_button.disabled = True
            self._animation_end = 0.0
        self.pending_score = 0
        undone = self.game.undo()
        self.message = "swap taken back" if undone else "nothing to undo"
        if undone:
            self.selected = self.hint_move = None
        self.redraw()
        self._update_status()
        return undone

    def busy(self) -> bool:
        """True while a cascade is still being shown (animation playing or step-mode stages left)."""
        return bool(self.stages) or self.animating()

    def play(self, move: Move | Cell, b: Cell | None = None) -> Turn | None:
        """Swap two neighbouring candies as the player would (``play((a, b))`` or ``play(a, b)``, as
        :meth:`tilelab.match3.Game.play` takes them); the game's :class:`~tilelab.match3.Turn`, or None if ignored (busy).

        The engine resolves the whole cascade at once, so the board's state is always final
        and consistent; only the pictures lag behind while they play.
        """
        if self.busy():
            self.message = "wait for the cascade to finish" if self.stages else self.message
            self._update_status()
            return None
        before = self.board
        turn = self.game.play(move, b)  # raises ValueError (nothing changed) for cells that are not neighbours
        self.idle_s = 0.0
        self.selected = None
        self.hint_move = None
        self.cancel_confirm()
        result = turn.events
        self.last_result = result
        if not turn:
            self.message = "no match: swapped back"
            self._show_invalid(before, result)
            self._update_status()
            self.after_turn(turn, describe_match3(turn, self.board, self.game.score))
            return turn
        if self.step_mode:  # each match's points are shown when Next step shows it
            self.pending_score += turn.score
        else:
            self._note_best()
        self.message = f"+{turn.score}" + (f" (cascade x{result.cascades})" if result.cascades > 1 else "")
        shuffled = None
        if turn.reshuffle is not None:
            shuffled = turn.reshuffle.board
            self.message += f" -- {turn.reshuffle.message}"
        if self.step_mode:
            self._queue_stages(before, result, shuffled)
        else:
            self._animate_result(before, result, shuffled)
        self._update_status()
        self.after_turn(turn, describe_match3(turn, self.board, self.game.score))
        return turn

    def show_hint(self) -> tuple[Cell, Cell] | None:
        """Outline the game's hint (:meth:`tilelab.match3.Game.hint`: the rules' stated rule).

        Asked while a cascade is still shown it is answered, never dropped: the game's board is
        already final, so the hint is chosen at once and its outline sent to play right after the
        cascade's last frame. In step mode it waits for the last Next step.
        """
        if self.stages:
            self._hint_queued = True
            self.message = "hint coming when the cascade ends"
            self._update_status()
            return None
        if self.animating():
            self.hint_move = self.game.hint()
            with self.hold():  # the browser plays this batch after the cascade: wait out its frames
                self.pause(self.animation_left_ms() + self.frame_ms)
                self._draw_overlay()
            self.message = "hint coming when the cascade ends: try the outlined swap" if self.hint_move else "no moves left"
            self._update_status()
            return self.hint_move
        self._hint_queued = False
        self.hint_move = self.game.hint()
        self._draw_overlay()
        self.message = "try the outlined swap" if self.hint_move else "no moves left"
        self._update_status()
        return self.hint_move

    def next_step(self) -> None:
        """Step mode: show the next stage of the cascade (match, clear, fall, refill)."""
        if not self.stages:
            return
        title, board, marks = self.stages.pop(0)
        marks = dict(marks)
        gained = int(marks.pop("score", 0))
        if gained:
            self.pending_score -= gained
            self._note_best()
        self._paint_board(board, **marks)
        self.message = title
        if not self.stages:
            self.next_button.disabled = True
            self.layer(OVERLAY).clear()
            self.redraw()
            if self._hint_queued:
                self.show_hint()
                return
        self._update_status()

    def _tick(self) -> None:
        """Once a second (browser clock): a queued hint once the cascade is over; after a few idle
        seconds, a hint."""
        if self._hint_queued and not self.busy():
            self.show_hint()
            return
        if self.busy() or self.hint_move is not None:
            return
        self.idle_s += TICK_MS / 1000.0
        if self.idle_s >= self.idle_hint_s:
            self.show_hint()

    # ------------------------------------------------------------------ input
    def cell_at(self, x: float, y: float) -> Cell | None:
        return cell_at(x, y, self.rows, self.cols, self.cell_px)

    def on_key(self, key: str) -> None:
        """Keys alone play: arrows move a cursor, Enter or Space picks the candy under it, then an arrow swaps
        the picked candy with its neighbour that way (Enter or Space again drops the pick); u takes back."""
        if key in UNDO_KEYS:
            self.undo()
            return
        word = ARROW_KEYS.get(key)
        if word is not None:
            self._key_arrow(word)
        elif key in ("Enter", " "):
            self._key_pick()

    def _key_arrow(self, word: str) -> None:
        dr, dc = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}[word]
        if self.busy():
            return
        if self.cursor is None:  # the first key shows the cursor where the player will start
            self.cursor = self.selected or (self.rows // 2, self.cols // 2)
        elif self.selected is not None:
            target = (self.selected[0] + dr, self.selected[1] + dc)
            if not self.board.on_board(target):
                self.announce(f"no candy {word} of {_cell_words(self.selected, self.board)}: pick another way")
                self.play_sound("refused")
                return
            first, self.selected = self.selected, None
            self.cursor = target
            self.play(first, target)
            return
        else:
            self.cursor = (min(self.rows - 1, max(0, self.cursor[0] + dr)),
                           min(self.cols - 1, max(0, self.cursor[1] + dc)))
        self._draw_overlay()
        self.announce(_cell_words(self.cursor, self.board))

    def _key_pick(self) -> None:
        if self.busy():
            return
        if self.cursor is None:
            self.cursor = (self.rows // 2, self.cols // 2)
        if self.selected == self.cursor:
            self.selected = None
            self.announce(f"dropped {_cell_words(self.cursor, self.board)}")
        else:
            self.selected = self.cursor
            self.announce(f"picked {_cell_words(self.cursor, self.board)}: an arrow key swaps it that way")
        self._draw_overlay()

    def on_click(self, x: float, y: float) -> None:
        cell = self.cell_at(x, y)
        if cell is None or self.busy():
            return
        self.idle_s = 0.0
        if self.selected is None:
            self.selected = cell
        elif self.selected == cell:
            self.selected = None
        else:
            try:  # the engine checks the pair, once: it refuses two cells that are not neighbours
                self.play(self.selected, cell)
                return
            except ValueError:
                self.selected = cell  # not a neighbour: select the new candy instead
        self._draw_overlay()

    def on_press(self, x: float, y: float) -> None:
        """Ring the pressed candy at once (the click itself arrives with the release, a round trip later)."""
        cell = self.cell_at(x, y)
        if cell is None or cell == self.selected or self.busy():
            return
        with self.hold():
            self._ring(self.layer(OVERLAY), [cell], SELECT_COLOUR)

    def on_cancel(self) -> None:
        self._draw_overlay()

    def on_drag(self, x0: float, y0: float, x1: float, y1: float) -> None:
        cell = self.cell_at(x0, y0)
        if cell is None or self.busy() or not (math.isfinite(x1) and math.isfinite(y1)):
            return
        target = drag_target(cell, x0, y0, x1, y1)
        if self.board.on_board(target):
            self.selected = None
            self.play(cell, target)

    def _queue_stages(self, before: Board, result: SwapResult, shuffled: Board | None) -> None:
        """Step mode: every stage of the cascade waits for the "Next step" button."""
        self.stages = [("swapped", result.swapped, {})]
        for step in result.steps:
            cells = sorted(set().union(*(g.cells for g in step.groups)))
            shapes = ", ".join(g.shape for g in step.groups)
            self.stages += [
                (f"step {step.index}: matched {shapes} (+{step.score})", step.before,
                 {"matched": cells, "score": step.score}),
                *[(f"step {step.index}: {act.special} at {act.cell} goes off", step.before,
                   {"outline": sorted(act.cells)}) for act in self.game.rules.activations(step)],
                (f"step {step.index}: cleared", step.cleared, {}),
                (f"step {step.index}: candies fell", step.fallen, {}),
                (f"step {step.index}: refilled from the top", step.board, {}),
            ]
        if shuffled is not None:
            self.stages.append(("no moves left, shuffling", shuffled, {}))
        self.next_button.disabled = False
        self._paint_board(before)
        self.next_step()

    # ------------------------------------------------------------------ status
    def _flush_pending(self) -> None:
        """Show points still waiting for their step (step mode left, or the board resumed elsewhere)."""
        if self.pending_score:
            self.pending_score = 0
            self._note_best()

    def _note_best(self) -> None:
        self.best = max(self.best, self.score, BEST_SCORES.get((self.rows, self.cols, self.kinds), 0))
        BEST_SCORES[(self.rows, self.cols, self.kinds)] = self.best

    def picture(self) -> Any:
        """The board as a PIL image (what notebooks show before the cell runs)."""
        return board_picture(self.board, self.cell_px)

    def fallback_text(self) -> str:
        # no score: after a kernel restart the cell deals a new game, so a saved number would not hold
        return (f"{self.rows}x{self.cols} match-3 board, as it was when this cell ran: run this cell to play "
                "(click a candy, then a neighbour)")

    def _update_status(self) -> None:
        step = " &middot; <b>step mode</b>: press Next step" if self.stages else ""
        message = f" &middot; {self.message}" if self.message else ""
        self.set_status(
            f"<b>Score</b> {self.score} &middot; <b>Moves</b> {self.moves_played} &middot; "
            f"<b>Cascade</b> x{self.last_cascades} (best x{self.best_cascades}){message}{step}"
        )

    def close(self) -> None:
        self.ticker.playing = False
        super().close()


def _cell_words(cell: Cell, board: Any) -> str:
    """``"row 2 column 3: triangle"``: a cell and its candy, read aloud."""
    return f"row {cell[0] + 1} column {cell[1] + 1}: {candy_name(board[cell])}"

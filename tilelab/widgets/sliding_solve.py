"""The sliding board's Hint and Solve buttons: both follow the plan of :meth:`tilelab.sliding.Game.plan`.

:class:`SlidingSolving` is a mixin of :class:`tilelab.widgets.sliding.SlidingWidget`. No search
lives here: the plan (an optimal solution within ``PLAN_SECONDS``, else the human strategy) is the
game's; the mixin shows its first move (Hint) or plays it tile by tile on a browser clock (Solve).
"""

from __future__ import annotations

from typing import Any

from tilelab.sliding import Board
from tilelab.sliding.game import Game, Plan
from tilelab.widgets.sliding_draw import FRAMES_PER_SLIDE, MS_PER_FRAME

__all__ = ["PREPARING", "SOLVE_SPEED", "SOLVE_SPEEDS", "SlidingSolving"]

SOLVE_SPEEDS = (1, 20)  # Solve plays this many moves per second (slider range)
SOLVE_SPEED = 3  # default: slow enough to follow each tile
PREPARING = "Preparing the solver... (the first hint on a new machine takes a few seconds)"


class SlidingSolving:
    """Hint and Solve on the sliding board (a mixin: it asks the game for the plan and plays it)."""

    game: Game
    board: Board
    hint_tile: int | None
    used_hint: bool
    used_solve: bool
    finished: Any
    solve_button: Any
    solve_ticker: Any
    speed: Any
    _solving: list[int]

    def _solve_interval(self) -> int:
        return int(1000 / max(1, self.speed.value))

    def _on_speed(self, _value: int) -> None:
        self.solve_ticker.interval = self._solve_interval()

    def plan(self) -> Plan:
        """``(moves, optimal)``: the solution Hint and Solve follow (:meth:`tilelab.sliding.Game.plan`).

        Before the first plan of a board size (compiling, building the 8-puzzle database: seconds
        on a fresh machine) the status line says "Preparing the solver..." at once.
        """
        if not self.game.over and not self.game.solver_ready:
            self._say(PREPARING)  # sent to the browser now, before the kernel gets busy
        return self.game.plan()

    def show_hint(self) -> int | None:
        """Outline the tile to slide next: the first move of the plan Solve would play."""
        self.stop_solve()
        if self.board.is_goal():
            self._say("Already solved: press Shuffle for a new board.")
            return None
        plan = self.plan()
        if not plan.moves:
            self._say("No hint found: try Solve.")
            return None
        tile = plan.moves[0]
        self.hint_tile = tile
        self.used_hint = True
        with self.hold():
            self._draw_hint()
        self._say(f"Hint: slide {tile} ({plan.describe()}).")
        return tile

    def solution(self) -> list[int]:
        """The moves Solve will play from here (see :meth:`plan`)."""
        return list(self.plan()[0])

    @property
    def solving(self) -> bool:
        """True while Solve is playing its moves."""
        return bool(self._solving)

    def toggle_solve(self) -> list[int]:
        """The Solve button: start solving, or stop if Solve is already playing."""
        if self.solving:
            self.stop_solve()
            self._say("Solve stopped: your turn.")
            return []
        return self.auto_solve()

    def auto_solve(self) -> list[int]:
        """Solve the board before your eyes, ``speed`` moves a second (the PuzzleProject's "auto-complete").

        Returns the moves it will play; the browser clock plays them one by one and the move
        counter counts as the tiles move. Any key, click or button stops it.
        """
        if self.board.is_goal():
            self._say("Already solved: press Shuffle for a new board.")
            return []
        plan = self.plan()
        moves = plan.moves
        self.used_solve = True
        self.hint_tile = None
        self._solving = list(moves)
        self.solve_button.description = "Stop"
        self.solve_button.icon = "stop"
        self._say(f"Solving ({plan.describe()}).")
        self.solve_ticker.interval = self._solve_interval()
        self.solve_ticker.playing = True
        return list(moves)

    def stop_solve(self) -> None:
        """Stop Solve where it is (the board stays playable)."""
        if not self._solving and not self.solve_ticker.playing:
            return
        self._solving = []
        self.solve_ticker.playing = False
        self.solve_button.description = "Solve"
        self.solve_button.icon = "magic"

    def _solve_step(self) -> None:
        """One tick of Solve: slide the next tile (animated within the tick)."""
        if not self._solving or self.finished is not None:
            self.stop_solve()
            return
        tile = self._solving.pop(0)
        ms = min(MS_PER_FRAME * 2, 0.6 * self.solve_ticker.interval / FRAMES_PER_SLIDE)
        self.play(tile, by_player=False, ms_per_frame=ms)
        if not self._solving:
            self.stop_solve()

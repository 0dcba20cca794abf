"""Watching the strong learned player in JupyterLab: the shipped net loads, "AI plays" plays legal moves by
itself with the 3-deep search on that net, and the canvas follows the engine."""

from __future__ import annotations

import pytest

from browserlab import BoardView, board_on_tab, close_previous
from test_browser_2048_ai import assert_pixels_match

pytestmark = pytest.mark.browser

SEED = 2048
SETUP = close_previous("strong") + f"""
from tilelab.game2048 import Game
from tilelab.game2048.ntuple import TDExpectimax
from tilelab.game2048.palette import BLANK_COLOR, tile_style
from tilelab.widgets.game2048_td import Game2048TDWidget
strong = Game2048TDWidget.strong(seed={SEED}, speed=8)
choices = []
_think = strong.think
def _record_think():
    before = strong.game.to_json()
    choice = _think()
    choices.append((before, None if choice is None else choice.value))
    return choice
strong.think = _record_think

def board_state():
    g, geo = strong.game, strong.board.geometry
    values = sorted({{v for row in g.board.rows for v in row}})
    return {{"rows": [list(r) for r in g.board.rows], "score": g.score, "moves": g.moves_played,
            "ai_moves": strong.ai_moves, "playing": strong.playing, "banner": strong.board.banner,
            "gap": geo.gap, "tile": geo.tile, "note": strong.last_note, "trained": strong.net.training["games"],
            "searcher": isinstance(strong.player, TDExpectimax) and strong.player.budget.depth == 3,
            "colours": {{str(v): (tile_style(v)[0] if v else BLANK_COLOR) for v in values}}}}

def replay_choices():
    # each decision replayed on a copy of the game it saw: the move must be legal and land where the board is
    out = []
    for before, direction in choices:
        g = Game.from_json(before)
        legal = [d.value for d in g.legal_moves()]
        moved = direction is not None and g.play(direction)
        out.append({{"legal": direction in legal, "moved": bool(moved),
                     "rows": [list(r) for r in g.board.rows]}})
    return out
"""


@pytest.fixture
def strong(board_lab: dict, notebook_dir) -> BoardView:
    return board_on_tab(board_lab, notebook_dir, "game2048_strong.ipynb", [SETUP, "strong"])


def state(view: BoardView) -> dict:
    return view.lab.kernel_json("board_state()")


def test_strong_player_plays_its_own_moves_and_the_canvas_follows(strong: BoardView) -> None:
    lab = strong.lab
    strong.click_button("AI plays")
    lab.wait_for(lambda: state(strong)["ai_moves"] >= 8, 90, "the strong player to play eight moves by itself")
    strong.click_button("AI plays")
    final = lab.wait_for(lambda: (lambda s: s if not s["playing"] else None)(state(strong)), 15, "autoplay to stop")
    replays = lab.kernel_json("replay_choices()")
    assert final["searcher"], "the strong board does not search 3 moves deep on its net"
    assert replays and all(r["legal"] for r in replays if r["moved"])
    played = [r for r in replays if r["moved"]]
    assert len(played) == final["ai_moves"] == final["moves"]
    assert played[-1]["rows"] == final["rows"], "the board is not the engine's result of the last move"
    assert f"{final['trained']:,} training games" in final["note"], final["note"]
    assert_pixels_match(strong, final)

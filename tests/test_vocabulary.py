"""One vocabulary across the three games (issue 20, section 2): the rules stated in tilelab's
package docstring, each checked here."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import tilelab
import tilelab.game2048 as g2048
import tilelab.game2048.fast.bitboard as bitboard
import tilelab.match3 as m3
import tilelab.match3.fast.plain as m3_fast
import tilelab.match3.moves as m3_moves
import tilelab.sliding as sliding


# ------------------------------------------------------------------ same name, same object
@pytest.mark.parametrize("package", [g2048, m3, sliding])
def test_a_package_name_is_the_object_of_the_module_that_defines_it(package):
    import importlib

    for name in package.__all__:
        value = getattr(package, name)
        home = getattr(value, "__module__", None)
        if home and home.startswith(package.__name__ + ".") and name in vars(importlib.import_module(home)):
            assert getattr(importlib.import_module(home), name) is value, f"{package.__name__}.{name}"


def test_match3_compiled_twins_carry_the_fast_suffix():
    assert m3.legal_moves is m3_moves.legal_moves and m3.is_dead is m3_moves.is_dead
    assert m3.legal_moves_fast is m3_fast.legal_moves_fast and m3.is_dead_fast is m3_fast.is_dead_fast
    board = m3.stable_board(7, 7, 5, rng=3)
    assert m3.legal_moves(board) == m3.legal_moves_fast(board)
    assert m3.is_dead(board) == m3.is_dead_fast(board)


def test_every_fast_twin_has_its_plain_name_and_the_convention_is_stated():
    for package in (m3, g2048, sliding):
        for name in dir(package):
            if name.endswith("_fast") and not name.startswith("_") and not inspect.ismodule(getattr(package, name)):
                assert hasattr(package, name[: -len("_fast")]), f"{package.__name__}.{name} has no readable twin"
    for word in ("_fast", "_bits", "_reference", "engine=", "legal_moves", "px=", "rng"):
        assert word in tilelab.__doc__, f"the package docstring does not state the {word!r} rule"


# ------------------------------------------------------------------ legal_moves everywhere
def test_legal_moves_is_the_one_name_in_every_engine_and_game():
    board = g2048.Board.parse("2 2 . .\n. . . .\n. . . .\n. . . 4")
    assert g2048.legal_moves(board) == g2048.Game(board=board, rng=0).legal_moves()
    board = sliding.Board.parse("1 2 3\n4 . 5\n6 7 8")
    assert sliding.legal_moves(board) == board.legal_moves() == (2, 4, 5, 7)
    assert list(sliding.Game(board=board).legal_moves()) == [2, 4, 5, 7]
    candies = m3.stable_board(6, 6, 5, rng=1)
    assert m3.legal_moves(candies) == m3.Game(board=candies, rng=0).legal_moves()
    with pytest.raises(TypeError, match="Board"):
        sliding.legal_moves([[1, 2], [3, 0]])


# ------------------------------------------------------------------ rng= everywhere
ENTRY_POINTS = {
    "game2048.Game": lambda rng: g2048.Game(rng=rng).board,
    "game2048.spawn": lambda rng: g2048.spawn(g2048.Board.empty(4), rng=rng),
    "bitboard.spawn_bits": lambda rng: bitboard.spawn_bits(0, rng=rng),
    "sliding.Game": lambda rng: sliding.Game(3, 3, rng=rng).board,
    "sliding.shuffle": lambda rng: sliding.shuffle(3, 3, rng=rng),
    "sliding.random_walk": lambda rng: sliding.random_walk(sliding.Board.goal(3, 3), 20, rng=rng),
    "sliding.random_board": lambda rng: sliding.random_board(3, 3, rng=rng),
    "match3.Game": lambda rng: m3.Game(6, 6, 4, rng=rng).board,
    "match3.new_board": lambda rng: m3.new_board(5, 5, 4, rng=rng),
    "match3.stable_board": lambda rng: m3.stable_board(5, 5, 4, rng=rng),
    "match3.refill": lambda rng: m3.refill(m3.Board.parse("...\n012\n120"), rng=rng),
    "match3.new_special_board": lambda rng: m3.new_special_board(4, 4, 4, rng=rng),
    "match3.reshuffle": lambda rng: m3.reshuffle(m3.Board.parse("0101\n1010\n0101\n1010", 3), rng=rng),
}


@pytest.mark.parametrize("name", sorted(ENTRY_POINTS))
def test_every_engine_entry_point_takes_rng_as_a_seed_or_a_generator(name):
    run = ENTRY_POINTS[name]
    by_seed, by_generator = run(7), run(np.random.default_rng(7))
    assert repr(by_seed) == repr(by_generator), f"{name}: rng=7 and rng=default_rng(7) differ"


@pytest.mark.parametrize("function", [g2048.spawn, bitboard.spawn_bits, sliding.shuffle, sliding.random_walk,
                                      m3.new_board, m3.stable_board, m3.refill, m3.swap, m3.resolve, m3.cascade_step,
                                      m3.reshuffle, m3.new_special_board, m3.swap_specials, m3.reshuffle_specials])
def test_rng_parameters_are_typed(function):
    annotation = inspect.signature(function).parameters["rng"].annotation
    assert annotation is not inspect.Parameter.empty and "object" not in str(annotation), (function, annotation)
    assert any(word in str(annotation) for word in ("RngLike", "Generator", "RefillSource")), (function, annotation)


@pytest.mark.parametrize("game_type", [g2048.Game, sliding.Game, m3.Game])
def test_a_game_made_without_a_seed_records_the_one_it_drew_and_replays(game_type):
    game = game_type()
    assert isinstance(game.seed, int) and game.seed > 2**32  # a SeedSequence's entropy, not a small default
    assert str(game_type(rng=game.seed).board) == str(game.board)
    assert game_type(rng=np.random.default_rng(3)).seed is None  # a Generator's seed is not known


# ------------------------------------------------------------------ px= on every board
def _boards():
    from tilelab.widgets.game2048 import Game2048Widget
    from tilelab.widgets.game2048_ai import Game2048AIWidget
    from tilelab.widgets.match3 import Match3Widget
    from tilelab.widgets.sliding import SlidingWidget

    return [("2048", lambda px: Game2048Widget(rng=1, px=px)),
            ("2048 AI", lambda px: Game2048AIWidget(rng=1, px=px).board_widget),
            ("sliding", lambda px: SlidingWidget(3, rng=1, px=px)),
            ("match-3", lambda px: Match3Widget(8, 8, 5, rng=1, px=px))]


@pytest.mark.parametrize("px", [260, 410])
def test_every_board_widget_takes_px_for_its_width(px):
    pytest.importorskip("ipycanvas")
    for name, make in _boards():
        board = make(px)
        assert px - 8 <= board.width <= px, f"{name}: px={px} gave a {board.width}-pixel board"


# ------------------------------------------------------------------ one text picture for match-3
def test_plain_and_special_match3_boards_read_the_same_pictures():
    board = m3.new_board(4, 5, 4, rng=2)
    special = m3.SpecialBoard.from_board(board)
    assert m3.SpecialBoard.parse(str(board)) == special  # the compact plain picture
    assert m3.Board.parse(str(special)) == board  # the spaced special picture, no specials on it
    with pytest.raises(ValueError, match="'-'"):
        m3.Board.parse("0 1- 2\n1 2 0")  # a special mark is refused by name on a plain board


# ------------------------------------------------------------------ rows, cols, size, grid, cell_count: one meaning each
def _positions():
    """One board of each kind, with its expected grid (rows of cells)."""
    return [("2048 Board", g2048.Board.parse("2 . 4\n. 8 .\n. . 2")),
            ("sliding Board", sliding.Board.goal(3, 4)),
            ("match-3 Board", m3.stable_board(4, 6, 5, rng=3)),
            ("match-3 SpecialBoard", m3.new_special_board(5, 4, 4, rng=3))]


def _plain(board, word):
    """``board.word`` (called when it is a method), or None when the board has no such word."""
    if not hasattr(type(board), word):
        return None
    value = getattr(board, word)
    return value() if callable(value) else value


@pytest.mark.parametrize("name, board", _positions(), ids=[n for n, _ in _positions()])
def test_rows_cols_size_grid_and_cell_count_mean_one_thing_in_every_game(name, board):
    grid = board.grid
    assert isinstance(grid, tuple) and all(isinstance(row, tuple) for row in grid), f"{name}: grid is rows of cells"
    height, width = len(grid), len(grid[0])
    rows, cols, size, cells = (_plain(board, w) for w in ("rows", "cols", "size", "cell_count"))
    assert rows in (None, height) and cols in (None, width), f"{name}: rows/cols are counts"
    assert size is None or size == height == width, f"{name}: size is the side of a square board"
    assert cells in (None, height * width), f"{name}: cell_count is rows * cols"
    assert (rows, cols) != (None, None) or size is not None, f"{name}: the board says how big it is"
    tiles = _plain(board, "tiles")
    assert tiles is None or (isinstance(tiles, tuple) and list(tiles) == [v for row in grid for v in row]), \
        f"{name}: tiles is the cells row by row"


def test_generated_picture_takes_rng():
    pytest.importorskip("PIL")
    from tilelab.widgets.sliding_pictures import generated_picture

    assert np.array_equal(generated_picture(24, rng=2), generated_picture(24, rng=2))
    assert np.array_equal(generated_picture(24, 2), generated_picture(24, rng=np.random.default_rng(2)))


# ------------------------------------------------------------------ widget.board is the position on every widget
def test_every_board_widget_shows_its_game_board_as_board():
    pytest.importorskip("ipycanvas")
    from tilelab.widgets.game2048 import Game2048Widget
    from tilelab.widgets.game2048_ai import Game2048AIWidget
    from tilelab.widgets.match3 import Match3Widget
    from tilelab.widgets.sliding import SlidingWidget

    for widget in (Game2048Widget(rng=1), SlidingWidget(3, rng=1), Match3Widget(6, 6, 4, rng=1)):
        assert widget.board is widget.game.board
    two = Game2048Widget(rng=1)
    start = g2048.Board.parse("2 2 .\n. . .\n. . 4")
    two.board = start  # play on from a chosen board: a new game there, same target and odds
    assert two.board == start and two.game.moves_played == 0 and two.game.size == 3
    ai = Game2048AIWidget(rng=1)
    assert ai.board_widget.board is ai.game.board


# ------------------------------------------------------------------ moves_played: a count; moves: a sequence
def test_every_game_counts_its_moves_as_moves_played():
    games = [g2048.Game(rng=2), sliding.Game(3, rng=2), m3.Game(6, 6, 4, rng=2)]
    for game in games:
        played = 0
        for _ in range(5):
            legal = list(game.legal_moves())
            if not legal:
                break
            played += bool(game.play(legal[0]))
        assert isinstance(game.moves_played, int), type(game).__module__
        if isinstance(game, sliding.Game):  # tile by tile; one play may slide several tiles
            assert game.moves_played == game.move_count.single >= played
        else:
            assert game.moves_played == played, type(game).__module__


def test_the_widgets_count_moves_played():
    pytest.importorskip("ipycanvas")
    from tilelab.widgets.match3 import Match3Widget
    from tilelab.widgets.sliding import SlidingWidget

    candy, tiles = Match3Widget(6, 6, 4, rng=1), SlidingWidget(3, rng=1)
    candy.play(*candy.legal_moves()[0])
    tiles.game.play(tiles.board.legal_moves()[0])
    assert (candy.moves_played, tiles.moves_played) == (candy.game.moves_played, tiles.game.moves_played) != (0, 0)


# ------------------------------------------------------------------ one name per thing: the names retired in 0.3.0 are gone
def _older_uses():
    goal = sliding.Board.goal(2, 2)
    board = g2048.Board.parse("2 .\n. 4")
    candy = m3.Game(5, 5, 4, rng=1)
    return {
        "game2048.move": lambda: g2048.move,
        "match3.valid_moves": lambda: m3.valid_moves,
        "match3.is_dead_reference": lambda: m3.is_dead_reference,
        "Game(seed=)": lambda: g2048.Game(seed=1),
        "sliding.Game(seed=)": lambda: sliding.Game(3, seed=1),
        "match3.Game(seed=)": lambda: m3.Game(5, 5, 4, seed=1),
        "sliding.Game(puzzle=)": lambda: sliding.Game(puzzle=goal),
        "Board(rows=)": lambda: g2048.Board(rows=[[2, 0], [0, 4]]),
        "2048 Board.rows": lambda: board.rows,
        "2048 Board.tiles()": lambda: board.tiles(),
        "Board.size": lambda: goal.size,
        "Board.move": lambda: goal.move("left"),
        "Board.play(tiles)": lambda: goal.play([3]),
        "Board.legal_tiles": lambda: goal.legal_tiles(),
        "Board.slide_segment": lambda: goal.slide_segment(3),
        "Board.grid()": lambda: goal.grid(),
        "match3 Game.moves": lambda: candy.moves,
        "sliding Game.moves": lambda: sliding.Game(3, rng=1).moves,
        "int(turn)": lambda: int(candy.play(candy.legal_moves()[0])),
        "sum(turns)": lambda: sum([g2048.Game(rng=1).play("left")]),
        "bitboard.ROW_MASK": lambda: bitboard.ROW_MASK,
        "contest(seed=)": lambda: __import__("tilelab.exercises.game2048_ai", fromlist=["contest"]).contest(
            None, 1, seed=1),
    }


@pytest.mark.parametrize("module", ["game2048/core.py", "match3/core.py", "match3/specials.py", "_deprecation.py"])
def test_an_older_module_is_gone(module):
    """(Looked up as files: an editable install elsewhere may still serve the old module to ``import``.)"""
    from pathlib import Path

    assert not (Path(tilelab.__file__).parent / module).exists()


@pytest.mark.parametrize("older", sorted(_older_uses()))
def test_an_older_name_is_gone(older):
    with pytest.raises((AttributeError, ImportError, TypeError)):
        _older_uses()[older]()


@pytest.mark.parametrize("letter", list("udlrUDLR"))
def test_a_single_letter_is_a_key_and_never_a_direction(letter):
    """``d`` is right on WASD and ``l`` right on hjkl: the engines refuse single letters, only the widgets read keys."""
    with pytest.raises(ValueError):
        g2048.Direction.parse(letter)
    with pytest.raises(ValueError):
        sliding.parse_move(sliding.Board.goal(3, 3), letter)


# ------------------------------------------------------------------ every widget plays a move with play(move) -> Turn
def test_every_board_widget_plays_a_move_with_play_and_returns_the_games_turn():
    pytest.importorskip("ipycanvas")
    from tilelab.protocol import Turn
    from tilelab.widgets.game2048 import Game2048Widget
    from tilelab.widgets.match3 import Match3Widget
    from tilelab.widgets.sliding import SlidingWidget

    for widget in (Game2048Widget(rng=1, new_game=True), SlidingWidget(3, rng=1, new_game=True),
                   Match3Widget(6, 6, 4, rng=1, new_game=True)):
        move = widget.game.legal_moves()[0]
        turn = widget.play(move)
        assert isinstance(turn, Turn) and turn and turn.move is not None, type(widget).__name__
        assert widget.game.moves_played >= 1, type(widget).__name__
    assert not hasattr(SlidingWidget, "slide")


# ------------------------------------------------------------------ one word per thing in every public signature
def _public_callables():
    for package in (g2048, m3, sliding):
        for name in package.__all__:
            value = getattr(package, name)
            for member in [value, *vars(value).values()] if inspect.isclass(value) else [value]:
                if callable(member) and not inspect.isclass(member) or inspect.isclass(member):
                    try:
                        yield f"{package.__name__}.{name}", inspect.signature(member)
                    except (TypeError, ValueError):
                        continue


def test_no_public_signature_says_puzzle_seed_or_valid():
    """The position is ``board`` in every game, randomness ``rng``, a legal move ``legal`` (a record's ``seed`` is the
    seed its game was made from, as ``Game.seed`` is)."""
    found = sorted({f"{where}({p})" for where, sig in _public_callables() for p in sig.parameters
                    if p == "puzzle" or "valid" in p or (p == "seed" and not where.endswith(".GameRecord"))})
    assert found == []
    names = [n for package in (g2048, m3, sliding) for n in package.__all__]
    assert "Board" in sliding.__all__ and not [n for n in names if n == "Puzzle" or "valid" in n]
    assert m3.swap(m3.Board.parse("012\n120\n201"), (0, 0), (0, 1), rng=0).legal in (True, False)

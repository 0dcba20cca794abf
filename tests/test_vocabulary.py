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
    assert m3.valid_moves_fast is m3_fast.valid_moves_fast and m3.is_dead_fast is m3_fast.is_dead_fast
    for old, new in ((m3.valid_moves, m3.legal_moves), (m3.valid_moves_reference, m3.legal_moves),
                     (m3.is_dead_reference, m3.is_dead)):
        with pytest.warns(DeprecationWarning, match=new.__name__):
            assert old(m3.stable_board(5, 5, 4, rng=1)) == new(m3.stable_board(5, 5, 4, rng=1))  # older names warn
    board = m3.stable_board(7, 7, 5, rng=3)
    assert m3.legal_moves(board) == m3.valid_moves_fast(board)
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
    puzzle = sliding.Puzzle.parse("1 2 3\n4 . 5\n6 7 8")
    assert sliding.legal_moves(puzzle) == puzzle.legal_moves() == (2, 4, 5, 7)
    assert list(sliding.Game(board=puzzle).legal_moves()) == [2, 4, 5, 7]
    candies = m3.stable_board(6, 6, 5, rng=1)
    assert m3.legal_moves(candies) == m3.Game(board=candies, rng=0).legal_moves()
    with pytest.raises(TypeError, match="Puzzle"):
        sliding.legal_moves([[1, 2], [3, 0]])


# ------------------------------------------------------------------ rng= everywhere
ENTRY_POINTS = {
    "game2048.Game": lambda rng: g2048.Game(rng=rng).board,
    "game2048.spawn": lambda rng: g2048.spawn(g2048.Board.empty(4), rng=rng),
    "bitboard.spawn_bits": lambda rng: bitboard.spawn_bits(0, rng=rng),
    "sliding.Game": lambda rng: sliding.Game(3, 3, rng=rng).board,
    "sliding.shuffle": lambda rng: sliding.shuffle(3, 3, rng=rng),
    "sliding.random_walk": lambda rng: sliding.random_walk(sliding.Puzzle.goal(3, 3), 20, rng=rng),
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


@pytest.mark.parametrize("make", [lambda **kw: g2048.Game(**kw).board, lambda **kw: sliding.Game(3, **kw).board,
                                  lambda **kw: m3.Game(5, 5, 4, **kw).board])
def test_seed_is_the_older_name_of_rng_everywhere(make):
    with pytest.warns(DeprecationWarning, match=r"\(seed=\.\.\.\) is deprecated .* use .*\(rng=\.\.\.\)"):
        assert make(seed=19) == make(rng=19)
    with pytest.raises(TypeError, match="once"), pytest.warns(DeprecationWarning):
        make(seed=1, rng=2)


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
            ("sliding Puzzle", sliding.Puzzle.goal(3, 4)),
            ("match-3 Board", m3.stable_board(4, 6, 5, rng=3)),
            ("match-3 SpecialBoard", m3.new_special_board(5, 4, 4, rng=3))]


def _plain(board, word):
    """``board.word`` as a caller who heeds warnings sees it: None when the word is an older name (it warns)."""
    if not hasattr(type(board), word):
        return None
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = getattr(board, word)
        value = value() if callable(value) else value  # a method such as 2048's older tiles()
    return None if any(issubclass(w.category, DeprecationWarning) for w in caught) else value


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


def test_the_older_meanings_warn_and_still_answer():
    board = g2048.Board.parse("2 .\n. 4")
    with pytest.warns(DeprecationWarning, match=r"Board\.rows is deprecated .* use Board\.grid"):
        assert board.rows == board.grid == ((2, 0), (0, 4))
    puzzle = sliding.Puzzle.goal(3, 4)
    with pytest.warns(DeprecationWarning, match=r"Puzzle\.size is deprecated .* use Puzzle\.cell_count"):
        assert puzzle.size == puzzle.cell_count == 12
    with pytest.warns(DeprecationWarning, match=r"Board\.tiles\(\) is deprecated .* use Board\.tile_map\(\)"):
        assert board.tiles() == board.tile_map() == {(0, 0): 2, (1, 1): 4}


def test_seed_is_the_older_name_of_rng_in_the_exercise_helpers():
    from tilelab.exercises.game2048_ai import contest, game_boards
    from tilelab.exercises.game2048_learning import sample_afterstates

    with pytest.warns(DeprecationWarning, match=r"game_boards\(seed=\.\.\.\)"):
        assert game_boards(3, 2, seed=4) == game_boards(3, 2, rng=4)
    assert game_boards(3, 2, rng=np.random.default_rng(4)) == game_boards(3, 2, rng=np.random.default_rng(4))
    with pytest.warns(DeprecationWarning, match=r"sample_afterstates\(seed=\.\.\.\)"):
        assert sample_afterstates(2, seed=5) == sample_afterstates(2, rng=5)
    with pytest.warns(DeprecationWarning, match=r"contest\(seed=\.\.\.\) is deprecated .* contest\(first_seed=\.\.\.\)"):
        old = contest(_weights(), 1, seed=9, depth=1)
    new = contest(_weights(), 1, first_seed=9, depth=1)
    assert old["score"].tolist() == new["score"].tolist()


def _weights():
    from tilelab.game2048.expectimax import DEFAULT_WEIGHTS

    return DEFAULT_WEIGHTS


def test_generated_picture_takes_rng():
    pytest.importorskip("PIL")
    from tilelab.widgets.sliding_pictures import generated_picture

    with pytest.warns(DeprecationWarning, match=r"generated_picture\(seed=\.\.\.\)"):
        old = generated_picture(24, seed=2)
    assert np.array_equal(old, generated_picture(24, rng=2))
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
    with pytest.warns(DeprecationWarning, match=r"Game2048AIWidget\.board \(the board widget\) is deprecated"):
        assert ai.board is ai.board_widget
    assert ai.board_widget.board is ai.game.board


def test_a_2048_board_is_made_from_its_grid_and_rows_is_the_older_keyword():
    assert g2048.Board(grid=[[2, 0], [0, 4]]) == g2048.Board([[2, 0], [0, 4]])
    with pytest.warns(DeprecationWarning, match=r"Board\(rows=\.\.\.\) is deprecated .* use tilelab\.game2048\.Board\(grid=\.\.\.\)"):
        assert g2048.Board(rows=[[2, 0], [0, 4]]).grid == ((2, 0), (0, 4))
    with pytest.raises(TypeError, match="once"), pytest.warns(DeprecationWarning):
        g2048.Board([[2, 0], [0, 4]], rows=[[2, 0], [0, 4]])


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


def test_a_count_called_moves_is_an_older_name():
    from tilelab.game2048 import GreedyPlayer, play_game

    record = play_game(GreedyPlayer(), rng=1, max_moves=5)
    with pytest.warns(DeprecationWarning, match=r"GameRecord\.moves is deprecated .* use GameRecord\.moves_played"):
        assert record.moves == record.moves_played == 5
    batch = bitboard.play_random_batch(3, rng=1, max_moves=4)
    with pytest.warns(DeprecationWarning, match=r"BatchResult\.moves is deprecated .* use BatchResult\.moves_played"):
        assert (batch.moves == batch.moves_played).all()
    candy = m3.Game(6, 6, 4, rng=1)
    candy.play(candy.legal_moves()[0])
    with pytest.warns(DeprecationWarning, match=r"match3\.Game\.moves is deprecated .* use Game\.moves_played"):
        assert candy.moves == candy.moves_played == 1
    puzzle = sliding.Game(3, rng=1)
    puzzle.play(puzzle.legal_moves()[0])
    with pytest.warns(DeprecationWarning, match=r"sliding\.Game\.moves is deprecated .* use Game\.move_count"):
        assert puzzle.moves == puzzle.move_count == sliding.count_moves(puzzle.start, puzzle.played)


def test_the_widgets_count_moves_played_and_warn_for_moves():
    pytest.importorskip("ipycanvas")
    from tilelab.widgets.match3 import Match3Widget
    from tilelab.widgets.sliding import SlidingWidget

    candy, tiles = Match3Widget(6, 6, 4, rng=1), SlidingWidget(3, rng=1)
    candy.play(*candy.legal_moves()[0])
    tiles.game.play(tiles.board.legal_moves()[0])
    assert (candy.moves_played, tiles.moves_played) == (candy.game.moves_played, tiles.game.moves_played) != (0, 0)
    with pytest.warns(DeprecationWarning, match=r"Match3Widget\.moves is deprecated"):
        assert candy.moves == candy.moves_played
    with pytest.warns(DeprecationWarning, match=r"SlidingWidget\.moves is deprecated .* SlidingWidget\.move_count"):
        assert tiles.moves == tiles.move_count



def test_a_renamed_keyword_warns_alone_and_is_refused_beside_its_new_name():
    goal = sliding.Puzzle.goal(2, 2)
    with pytest.warns(DeprecationWarning, match=r"sliding\.Game\(puzzle=\.\.\.\) is deprecated .* use sliding\.Game\(board=\.\.\.\)"):
        assert sliding.Game(puzzle=goal).board == goal
    calls = [lambda: sliding.Game(board=goal, puzzle=goal), lambda: g2048.Board([[2, 0], [0, 4]], rows=[[2, 0], [0, 4]])]
    for call in calls:
        with pytest.raises(TypeError, match="once"), pytest.warns(DeprecationWarning):
            call()

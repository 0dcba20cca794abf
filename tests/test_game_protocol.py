"""One session protocol for the three games: play -> Turn, undo, hint, seed/rng, exact JSON save/load.

Also the chance contracts: one sampler for 2048 spawns (readable and bitboard engines draw the same
tile from the same seed), match-3 refills sampled from ``refill_outcomes``, the sliding counter as
``count_moves`` counts, and saved playthrough transcripts for sliding and match-3 (as for 2048).
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tilelab.match3.board as m3board
import tilelab.match3.cascade as m3cascade
import tilelab.match3.matches as m3matches
import tilelab.match3.moves as m3moves
from tilelab import game2048, match3, sliding
from tilelab.protocol import GameProtocol, Turn
from tilelab.match3 import Board as M3Board
from tilelab.match3 import SpecialBoard, SwapResult, swap, swap_fast
from tilelab.match3.special_rules import is_dead_specials
from tilelab.sliding import MoveCount, Board, count_moves

N_GAMES = 200


def _pick(rng: np.random.Generator, options: list):
    return options[int(rng.integers(len(options)))]


def _play_2048(seed: int, moves: int) -> game2048.Game:
    game, chooser = game2048.Game(rng=seed), np.random.default_rng(10_000 + seed)
    for _ in range(moves):
        if game.over:
            break
        game.play(_pick(chooser, list(game2048.Direction)))
    return game


def _play_sliding(seed: int, moves: int) -> sliding.Game:
    game, chooser = sliding.Game(3 + seed % 2, rng=seed), np.random.default_rng(10_000 + seed)
    for _ in range(moves):
        if game.over:
            break
        game.play(_pick(chooser, game.legal_moves()))
    return game


def _play_match3(seed: int, moves: int) -> match3.Game:
    rules = match3.WITH_SPECIALS if seed % 2 else match3.PLAIN
    game, chooser = match3.Game(5, 6, 4, rules=rules, rng=seed), np.random.default_rng(10_000 + seed)
    for _ in range(moves):
        game.play(_pick(chooser, game.legal_moves()))
    return game


def _state(game) -> str:
    """Everything a game is (its JSON minus the undo history), as comparable text."""
    data = json.loads(game.to_json())
    data.pop("history", None)
    if isinstance(game, sliding.Game):  # its JSON is the deal plus the slides: compare the position
        data = {"puzzle": list(game.board.tiles), "moves": list(game.move_count.__dict__.values()),
                "rng": data["rng"], "played": data["played"]}
    return json.dumps(data, sort_keys=True)


PLAYERS = {"2048": (_play_2048, 12), "sliding": (_play_sliding, 12), "match3": (_play_match3, 4)}


# ------------------------------------------------------------------ the shape


@pytest.mark.parametrize("name", PLAYERS)
def test_every_game_has_the_protocol(name):
    game = PLAYERS[name][0](2, 2)  # sliding: a 3x3 board, quick to plan
    assert isinstance(game, GameProtocol)
    assert isinstance(game.rng, np.random.Generator) and game.seed == 2
    assert game.legal_moves() and game.hint() in game.legal_moves()
    turn = game.play(game.legal_moves()[0])
    assert isinstance(turn, Turn) and turn and turn.changed
    assert turn.events is not None and isinstance(turn.over, bool) and isinstance(turn.won, bool)
    assert all(0 < p <= 1 for _outcome, p in turn.chance)
    assert json.loads(game.to_json())["version"] == sys.modules[type(game).__module__].JSON_VERSION  # match-3: 2


def test_a_2048_turn_reads_like_the_old_bool_and_tells_the_chance_step():
    game = game2048.Game(rng=19)
    before = game.board
    turn = game.play("up")
    (spawn, p), = turn.chance
    assert turn and turn.score == 4 and turn.events.board != before
    assert turn != True and sum(bool(t) for t in (turn, turn)) == 2  # noqa: E712 (a Turn is not an int)
    with pytest.raises(TypeError):
        int(turn)
    assert spawn == game.last_spawn
    assert p == pytest.approx(dict(game2048.spawn_outcomes(turn.events.board))[spawn])
    assert game.last_move is turn.events
    stuck = game2048.Game(board=game2048.Board.parse("2 4\n4 2"), rng=0).play("left")
    assert not stuck and stuck.chance == () and stuck.over
    game = game2048.Game(rng=3)
    assert sum(bool(game.play(d)) for d in ("left", "right", "left", "right")) >= 1


# ------------------------------------------------------------------ undo and JSON, 200 games each


# tilelab.check_game on 200 random games of each: in each game's own tests (test_game2048_core, test_sliding_core,
# test_match3_core); here, that it names what a broken game of a student's gets wrong.


def test_check_game_names_the_broken_rule_of_a_students_game():
    from tilelab.checking import GameCheckError, check_game

    class Forgetful(sliding.Game):
        def undo(self) -> bool:  # says it undid whenever it could, but changes nothing
            return self.can_undo

    with pytest.raises(GameCheckError, match="undo"):
        check_game(lambda seed: Forgetful(3, rng=seed), games=3)

    class Leaky(sliding.Game):
        def _deal(self, rows: int, cols: int):  # ignores its own generator: a hidden random source
            return sliding.shuffle(rows, cols, rng=np.random.default_rng())

    with pytest.raises(GameCheckError, match="same seed"):
        check_game(lambda seed: Leaky(3, rng=seed), games=3)


def test_check_game_fails_a_game_that_cannot_play_the_moves_it_lists():
    """(The hunt's L4.) A listed move that raises, over with moves listed, not over with none: each fails."""
    from tilelab.checking import GameCheckError, check_game

    class Raises(sliding.Game):
        def play(self, move):
            raise NotImplementedError("never written")

    with pytest.raises(GameCheckError, match="NotImplementedError") as caught:
        check_game(lambda seed: Raises(3, rng=seed), games=2)
    assert isinstance(caught.value.__cause__, NotImplementedError)

    class OverWithMoves(sliding.Game):
        over = True

        def legal_moves(self):
            return list(self.board.legal_moves())

    class StuckNotOver(sliding.Game):
        def legal_moves(self):
            return []

    for broken in (OverWithMoves, StuckNotOver):
        with pytest.raises(GameCheckError, match="over"):
            check_game(lambda seed: broken(3, rng=seed), games=2)


def test_undo_replays_the_same_refills_in_match3():
    game = match3.Game(6, 6, 5, rng=4)
    move = game.hint()
    first = game.play(move)
    game.undo()
    again = game.play(move)
    assert again.chance == first.chance and again.score == first.score
    assert game.board == (first.reshuffle.board if first.reshuffle else first.events.board)


@pytest.mark.parametrize("bad, message", [
    ("{", "not valid JSON"),
    (json.dumps({"format": "tilelab.sliding", "version": 2}), "version"),
    (json.dumps({"format": "tilelab.match3", "version": 1}), "missing"),
])
def test_broken_saves_are_refused_with_a_clear_message(bad, message):
    game_type = sliding.Game if "sliding" in bad or bad == "{" else match3.Game
    with pytest.raises(ValueError, match=message):
        game_type.from_json(bad)


def test_a_sliding_save_with_an_illegal_slide_is_refused():
    data = json.loads(sliding.Game(3, rng=1).to_json())
    data["played"] = [8]  # 7 . 1 / 4 2 5 / 8 6 3: the 8 is not in the blank's row or column
    with pytest.raises(ValueError, match="played\\[0\\]"):
        sliding.Game.from_json(json.dumps(data))


def test_a_match3_save_whose_history_does_not_lead_to_the_position_is_refused():
    game = _play_match3(0, 2)
    data = json.loads(game.to_json())
    data["history"][0]["score"] = 10**6
    with pytest.raises(ValueError, match="history\\[0\\]"):
        match3.Game.from_json(json.dumps(data))


# ------------------------------------------------------------------ same seed, same game, two processes


SCRIPT = textwrap.dedent("""
    import json, sys
    sys.path.insert(0, {root!r})
    from tests.test_game_protocol import PLAYERS
    print(json.dumps({{name: play(seed, 15).to_json() for name, (play, _) in PLAYERS.items() for seed in (5, 6)}}))
""")


def test_same_seed_gives_the_same_game_in_another_process():
    from pathlib import Path

    root = str(Path(__file__).resolve().parents[1])
    here = {name: play(seed, 15).to_json() for name, (play, _) in PLAYERS.items() for seed in (5, 6)}
    out = subprocess.run([sys.executable, "-c", SCRIPT.format(root=root)], capture_output=True, text=True,
                         check=True, cwd=root)
    assert json.loads(out.stdout) == here


# ------------------------------------------------------------------ sliding: one counting rule


def test_the_sliding_counter_is_count_moves_after_random_play():
    for seed in range(N_GAMES):
        game = _play_sliding(seed, 40)
        assert game.move_count == count_moves(game.start, game.played)
        assert type(game).from_json(game.to_json()).move_count == game.move_count  # a save's replay counts alike
        while game.undo():
            assert game.move_count == count_moves(game.start, game.played)
        assert game.move_count == MoveCount(0, 0)


def test_two_slides_the_same_way_are_one_multi_tile_move():
    start = Board.parse("1 2 3\n4 5 6\n. 7 8")
    game = sliding.Game(board=start)
    game.play(7)
    last = game.play(8)  # both slide left along the bottom row
    assert game.move_count == MoveCount(2, 1) == count_moves(start, [7, 8])
    assert last.over and last.won and game.over
    solved = game.play("right")  # once solved nothing moves: a Turn that counts as False
    assert not solved and solved.events is None and game.move_count == MoveCount(2, 1)
    edge = sliding.Game(board=start).play("right")  # no tile left of the blank
    assert not edge and edge.events is None


def test_sliding_play_refuses_a_tile_off_the_blanks_line():
    game = sliding.Game(board=Board.parse("1 2 3\n4 5 6\n. 7 8"))
    with pytest.raises(ValueError, match="not in the blank's row or column"):
        game.play(5)
    with pytest.raises(TypeError, match="tile number"):
        game.play(1.5)  # type: ignore[arg-type]


# ------------------------------------------------------------------ transcripts (as for 2048)


def test_sliding_seeded_playthrough_transcript():
    """Same seed and keys must keep giving this game: the deal and the counting are contracts."""
    game = sliding.Game(3, rng=2026)
    assert game.board == Board.parse(". 6 1\n8 3 5\n2 7 4")
    for key in ["up", "left", "down", "right", "up", "up", "left", "down"]:
        assert game.play(key)
    assert game.board == Board.parse("3 8 1\n2 . 5\n7 6 4")
    assert game.move_count == MoveCount(8, 7) and game.played == (8, 3, 6, 8, 3, 2, 7, 6)
    walk = sliding.Game(4, rng=2026, method="walk")
    assert walk.board == Board.parse("9 5 2 1\n14 12 7 8\n10 15 . 11\n4 6 13 3")


def test_match3_seeded_playthrough_transcript():
    """Same seed and swaps must keep giving this game: refill sampling is a contract."""
    game = match3.Game(6, 6, 5, rng=2026)
    assert game.board == M3Board.parse("032114\n403144\n332421\n113230\n210221\n143314")
    expected = [(((5, 0), (5, 1)), 360, 3), (((3, 2), (4, 2)), 60, 1), (((2, 2), (2, 3)), 120, 1),
                (((3, 0), (3, 1)), 180, 2), (((2, 3), (3, 3)), 200, 1), (((1, 1), (1, 2)), 240, 2)]
    for move, score, cascades in expected:
        assert game.hint() == move
        turn = game.play(move)
        assert (turn.score, turn.events.cascades, turn.reshuffle) == (score, cascades, None)
    assert game.board == M3Board.parse("131204\n424114\n314241\n420120\n232431\n400214")
    assert (game.score, game.moves_played) == (1160, 6)
    specials = match3.Game(6, 6, 5, rng=2026, rules="specials")
    for _ in range(6):
        specials.play(specials.hint())
    assert specials.board == SpecialBoard.parse("2 0 4 4 2 2\n0 3 2 1 0 4\n4 3 1 3 1 4\n3 1 2 1 4 1\n"
                                                "1 4 0 3 2 0\n4 0 0 2 4 4", kinds=5)
    assert specials.score == 960


# ------------------------------------------------------------------ match-3 rules objects


def test_match3_rules_objects_replace_the_specials_branches():
    plain, special = match3.Game(6, 6, 5, rng=1), match3.Game(6, 6, 5, rng=1, rules=match3.WITH_SPECIALS)
    assert type(plain.board) is M3Board and type(special.board) is SpecialBoard
    assert plain.board.grid == special.board.grid  # the same deal, as a special board
    assert plain.rules.name == "plain" and special.rules.specials
    assert [row[1] for row in plain.score_table()] == list(m3board.SHAPE_POINTS.values())
    assert len(special.score_table()) > len(plain.score_table())
    with pytest.raises(ValueError, match="rules must be"):
        match3.Game(rules="candy")
    special.restart(rules="plain")
    assert type(special.board) is M3Board and special.score == 0


def test_a_dead_board_after_a_swap_is_reshuffled_by_the_game(monkeypatch):
    game = match3.Game(6, 6, 5, rng=2)
    calls = []
    monkeypatch.setattr(game.rules, "is_dead", lambda board: not calls and not calls.append(1))
    turn = game.play(game.hint())
    assert turn.reshuffle is not None and game.board == turn.reshuffle.board
    assert game.board.counts() == turn.events.board.counts() and not m3matches.find_matches(game.board)


def test_the_specials_hint_breaks_ties_as_the_plain_hint_does():
    board = SpecialBoard.parse("0 1 0 2\n1 0 1 2\n2 2 0 1", kinds=3)
    moves = match3.WITH_SPECIALS.legal_moves(board)
    lowest = min(moves, key=lambda m: (-max(m[0][0], m[1][0]), m))
    assert match3.WITH_SPECIALS.hint(board) == lowest


# ------------------------------------------------------------------ chance: one sampler


def test_bitboard_spawn_draws_the_same_tile_as_the_readable_engine():
    from tilelab.game2048.fast.bitboard import picture, spawn_bits, to_bitboard

    rng = np.random.default_rng(0)
    for seed in range(200):
        rows = [[int(v) for v in rng.choice([0, 0, 2, 4, 8], 4)] for _ in range(4)]
        board = game2048.Board(rows)
        if not board.empty_cells():
            continue
        for p_four in (0.1, 0.5):
            core_board, _ = game2048.spawn(board, rng=seed, p_four=p_four)
            assert picture(spawn_bits(to_bitboard(board.grid), rng=seed, p_four=p_four)) == str(core_board)


def test_the_compiled_playout_spawner_has_the_same_distribution():
    """The whole-game kernels keep their own xorshift stream (speed): same distribution, tested."""
    from tilelab.game2048.fast.bitboard import spawn_xorshift, to_bitboard

    board = game2048.Board.parse("2 . 4 .\n. 8 . .\n2 4 8 16\n. . 2 .")
    bits = np.uint64(to_bitboard(board.grid))
    expected = dict(game2048.spawn_outcomes(board))
    counts: dict = {}
    state, n = np.uint64(12345), 40_000
    for _ in range(n):
        new, state = spawn_xorshift(bits, np.uint64(state), 0.1)
        diff = int(new) ^ int(bits)
        index = (diff.bit_length() - 1) // 4
        value = 2 ** (diff >> (4 * index))
        key = game2048.Spawn(divmod(index, 4), value)
        counts[key] = counts.get(key, 0) + 1
    assert set(counts) == set(expected)
    for outcome, p in expected.items():
        sigma = (n * p * (1 - p)) ** 0.5
        assert abs(counts[outcome] - n * p) < 5 * sigma, (outcome, counts[outcome], n * p)


def test_refill_samples_refill_outcomes(monkeypatch):
    board = M3Board.parse("...\n012\n120")
    home = sys.modules[m3cascade.refill.__module__]  # the module refill looks refill_outcomes up in
    monkeypatch.setattr(home, "refill_outcomes", lambda b, cell=None: [(2, 0.25), (1, 0.75)])
    full, refills = m3cascade.refill(board, rng=0)
    assert {k for _, k in refills} <= {1, 2}, "the refill drew from the outcomes it was given"
    u = np.random.default_rng(0).random(3)
    assert [k for _, k in refills] == [2 if x < 0.25 else 1 for x in u]


def test_refill_sampler_matches_the_compiled_mapping_for_uniform_kinds():
    outcomes = m3cascade.refill_outcomes(M3Board.parse("012\n120\n201", kinds=7))
    for u in np.linspace(0, 1, 5001, endpoint=False):
        assert m3cascade.sample_refill(outcomes, float(u)) == m3cascade.kind_from_uniform(float(u), 7)


# ------------------------------------------------------------------ contracts


def test_is_dead_specials_refuses_a_board_that_still_holds_a_run():
    with pytest.raises(ValueError, match="still holds a run"):
        is_dead_specials(SpecialBoard.parse("0 0 0\n1 2 1\n2 1 2"))
    with pytest.raises(ValueError, match="still holds a run"):
        m3moves.is_dead(M3Board.parse("000\n121\n212"))


def test_swap_fast_returns_the_same_result_type_as_swap():
    board = M3Board.parse("0120\n1201\n0012\n2102")
    for move in [((2, 2), (3, 2)), ((0, 0), (0, 1))]:
        fast, slow = swap_fast(board, *move, rng=1), swap(board, *move, rng=1)
        assert isinstance(fast, SwapResult) and fast.steps == ()
        assert (fast.legal, fast.board, fast.score, fast.cascades, fast.swapped) == (
            slow.legal, slow.board, slow.score, slow.cascades, slow.swapped)


def test_turn_is_a_read_only_record():
    turn = Turn("up", True, score=3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        turn.score = 5  # type: ignore[misc]
    with pytest.raises(AttributeError):
        turn.nothing  # type: ignore[attr-defined]  # noqa: B018
    assert "score=3" in repr(turn)

"""Checkers for lessons 6a and 6b (learning to play 2048: n-tuple networks and TD learning).

- ``"2048learn.td_update"`` (lesson 6a): ``answer(net, after, target, alpha)`` changes the numbers inside
  ``net.weights`` (in place: the trainer and the players keep using that array) so that ``V(after)`` moves
  toward ``target``: each of the board's looked-up weights (see
  :func:`~tilelab.game2048.learning.ntuple_ref.feature_indices_ref`) by ``alpha * (target - V(after)) / F``.
  Checked on boards from seeded games, random weights and three learning rates, to 1e-4. An answer that gives
  ``net`` a new array (``net.weights = ...``) is refused, and so is one that calls
  :func:`~tilelab.game2048.learning.ntuple_ref.td_update_ref` (or the trainer's compiled update).
- ``"2048learn.learn_game"`` (lesson 6b): ``answer(net, spawn, alpha)`` plays one game and learns from it by
  TD(0), returning its score: it starts from ``spawn(spawn(Board.empty(4)))``, picks each move by the largest
  ``reward + V(afterstate)``, moves ``V`` of the previous afterstate toward that move's ``reward + V(afterstate)``,
  hands ``spawn`` the afterstate it chose, and at game over moves ``V`` of the last afterstate toward 0. The
  check hands it :class:`TrainerSpawn` dice (the tiles ``net.train(..., rng=seed)`` draws) and follows its game
  move by move with the package's learner (the steps of
  :func:`~tilelab.game2048.learning.ntuple_ref.learn_game_ref`): every move must have the best ``reward + V``
  (either of two equal moves will do), the weights must be the package's after every update (done before or
  after the spawn), the last one included, and the score must be the moves' points. Seeded games on a one-tuple
  and a two-tuple net with random weights, then on a fresh classroom net. An answer that calls the package's
  learner (``learn_game_ref``, ``net.train``) is refused.
- ``"2048learn.tuple_shape"`` (the open task): ``answer`` is a list of tuples (cells 0..15, at most 4
  cells each). Tuples that repeat another one up to rotation, mirror and cell order are dropped first:
  each tuple is read in all 8 placements anyway, so a copy adds no information. Your net and the given
  two-line net ``[(0, 1, 2, 3), (4, 5, 6, 7)]`` each learn for ``games`` seeded TD games, then play
  ``test_games`` fresh seeded games frozen, both on the same seeds. You pass when the paired 95%
  confidence interval of the score difference (yours - given) lies above zero, on at least
  ``MIN_TEST_GAMES`` games.

>>> from tilelab.exercises import check
>>> from tilelab.game2048.learning.ntuple_ref import td_update_ref
>>> check("2048learn.td_update", td_update_ref).reason
'delegated'
>>> check("2048learn.td_update", lambda net, after, target, alpha: None).passed
False
>>> check("2048learn.learn_game", lambda net, spawn, alpha=0.1: 0).passed
False
>>> distinct_tuples([(0, 1, 2, 3), (3, 2, 1, 0), (12, 13, 14, 15), (0, 1, 4, 5)])
[(0, 1, 2, 3), (0, 1, 4, 5)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Sequence

import numpy as np

from tilelab import IN_BROWSER
from tilelab.randomness import RngLike
from tilelab.exercises import Result, as_real, case_seed, checker
from tilelab.exercises.allow import BOARD_2048, NUMPY, Kit
from tilelab.exercises.game2048_ai import mean_ci
from tilelab.game2048 import Board, legal_moves, play
from tilelab.game2048.board import DEFAULT_P_FOUR
from tilelab.game2048.fast.bitboard import exponents, from_bitboard, play_random_batch, seed_state, spawn_xorshift
from tilelab.game2048.fast.bitboard import to_bitboard
from tilelab.game2048.fast.bitrows import U64
from tilelab.game2048.learning.ntuple_net import SYMMETRIES, NTupleNetwork
from tilelab.game2048.learning.ntuple_ref import feature_indices_ref, td_update_ref, value_ref

SEED = 6
GIVEN_TUPLES = ((0, 1, 2, 3), (4, 5, 6, 7))
MAX_CELLS = 4
#: The browser kernel (no compiler, Python 5-30x slower) trains and tests each net on at most this many games:
#: 400 training and 200 test games per net take an hour or more there, 10 and 10 about 20-60 s per check.
BROWSER_GAMES = 10
MIN_TEST_GAMES = BROWSER_GAMES if IN_BROWSER else 200  #: the fewest frozen test games a verdict rests on
TEST_SEED = 60_000  #: frozen test games play seeds TEST_SEED, TEST_SEED + 1, ... (never a training seed)
__all__ = ["sample_afterstates", "GIVEN_TUPLES", "distinct_tuples", "MIN_TEST_GAMES", "TrainerSpawn"]

#: What a TD update may use: the net (its tuples and weights, its value), the board's looked-up weights and
#: value (the lesson's readable ``feature_indices_ref``, ``value_ref``), numpy. Not ``td_update_ref`` nor
#: the trainer (``train``, the compiled updates).
ALLOW_TD = (Kit("the net (its tuples, weights and value)",
                ("tilelab.game2048.learning.ntuple_net:NTupleNetwork[features memory_bytes value value_bits]",)),
            "tilelab.game2048.learning.ntuple_ref:feature_indices_ref", "tilelab.game2048.learning.ntuple_ref:value_ref",
            Kit("reading the board",
                ("tilelab.game2048.learning.ntuple_ref:grid_exponents", "tilelab.game2048:Board[grid size cells]")),
            NUMPY)


def sample_afterstates(n: int = 12, *, rng: RngLike = None) -> list[list[list[int]]]:
    """``n`` boards (4x4 grids of exponents) from random games; ``rng``: a seed (``SEED`` if none) or a Generator."""
    result = play_random_batch(n, rng=SEED if rng is None else rng, max_moves=60)
    return [[list(row) for row in exponents(int(b))] for b in result.boards]


def _td_cases() -> Iterator[tuple[NTupleNetwork, list[list[int]], float, float]]:
    """(net, board of exponents, target, alpha): the smallest first.

    First a net of one 2-cell tuple with zero weights on the empty board, where all 8 placements look up
    the same weight (a numpy ``w[idx] += step`` adds the step once, not 8 times), and on a board with one
    tile; then a two-tuple net with random weights on boards from seeded games.
    """
    empty = [[0] * 4 for _ in range(4)]
    corner = [[1, 0, 0, 0]] + [[0] * 4 for _ in range(3)]
    for board in (empty, corner):
        yield NTupleNetwork(((0, 1),)), board, 40.0, 0.1
    rng = np.random.default_rng(case_seed(SEED))
    for alpha in (0.1, 0.5, 0.0025):
        for board in sample_afterstates():
            net = NTupleNetwork(((0, 1, 2, 3), (0, 1, 4, 5)))
            net.weights[:] = rng.normal(0, 50, net.weights.size).astype(np.float32)
            yield net, board, float(rng.normal(500, 300)), alpha


@checker("2048learn.td_update", allow=ALLOW_TD, job=("tilelab.game2048.learning.ntuple_ref:td_update_ref",))
def _check_td_update(answer: Any) -> Result:
    name = "2048learn.td_update"
    for mine, board, target, alpha in _td_cases():
        ref = NTupleNetwork(mine.tuples, mine.weights.copy())
        before = value_ref(ref, board)
        array = mine.weights
        answer(mine, board, target, alpha)
        td_update_ref(ref, board, target, alpha)
        picture = "\n".join(" ".join(f"{e:2d}" for e in row) for row in board)
        if mine.weights is not array:
            return Result(name, False, "your update gave net a new weights array (net.weights = ...). Change the "
                          "numbers inside the one it has, e.g. net.weights[i] += step: the trainer and the players "
                          "keep using that array, and would never see your new one.", board, picture)
        if not np.allclose(mine.weights, ref.weights, atol=1e-4):
            shape = [tuple(t) for t in mine.tuples]
            looked = len(feature_indices_ref(ref, board))
            distinct = len(set(feature_indices_ref(ref, board)))
            repeat = f", {looked} look-ups of {distinct} distinct weight{'s' if distinct != 1 else ''}"
            return Result(name, False, f"net {shape}, alpha={alpha}, target={target:g}, on the exponents below "
                          f"(V before {before:.3f}{repeat}): after your update V = {value_ref(mine, board):.3f}, "
                          f"expected {value_ref(ref, board):.3f}", board, picture)
    return Result(name, True, "passed: each look-up adds alpha * error / F to its weight, so a weight looked up "
                  "k times moves k times (and V moves by more than alpha * error when weights repeat)")


# ----------------------------------------------------------------------------- lesson 6b: the learner's loop
class TrainerSpawn:
    """``spawn(board)``: the 4x4 ``board`` with one new tile, drawn as ``net.train(..., rng=seed)`` draws them (the
    fast trainer's own random numbers), so a readable learner handed it gets the trainer's tiles.

    >>> spawn = TrainerSpawn(2048)
    >>> board = spawn(spawn(Board.empty(4)))
    >>> len(board.empty_cells())
    14
    """

    def __init__(self, seed: int, p_four: float = DEFAULT_P_FOUR, *, watch: Any = None) -> None:
        self.state = seed_state(np.random.default_rng(seed))
        self.p_four = p_four
        self.watch = watch  # the check's eye on every board the answer hands over (it may stop the game)
        self.last: Board | None = None  #: the board the latest call returned

    def __call__(self, board: Board) -> Board:
        if self.watch is not None:
            self.watch(board)
        bits, self.state = spawn_xorshift(U64(to_bitboard(board)), U64(self.state), self.p_four)
        self.last = from_bitboard(int(bits))
        return self.last


class _Stop(BaseException):
    """Ends the answer's game at its first wrong step (a BaseException: ``except Exception`` does not catch it)."""

    def __init__(self, result: Result) -> None:
        super().__init__(result.message)
        self.result = result


#: What a learner may use: building boards, play and legal_moves, the net and the lesson's readable look-up,
#: value and TD update, the spawn the check hands it. Not the package's learner (learn_game_ref, net.train).
ALLOW_LEARN = (BOARD_2048, Kit("play, legal_moves", ("tilelab.game2048:play", "tilelab.game2048:legal_moves",
                                                     "tilelab.game2048:MoveResult[*]")),
               *ALLOW_TD, "tilelab.game2048.learning.ntuple_ref:td_update_ref",
               Kit("spawn", ("tilelab.exercises.game2048_learning:TrainerSpawn",)))
LEARN_SEED = 66  #: the learner's check draws its games' seeds from this (mixed with a grader's hidden seed)
_V_TOL = 1e-3  #: two moves' reward + V this close count as equally good
MAX_MOVES = 20_000  #: a learning game longer than this is stopped (a fresh or small net loses far sooner)


def learn_cases() -> list[tuple[str, NTupleNetwork, int, float]]:
    """(what the net is, net, game seed, alpha): the smallest net first. Its weights are small random whole numbers,
    so that an update is never a no-op by chance (a fresh net's V is 0 everywhere); then a two-tuple net, then a
    fresh classroom net."""
    rng = np.random.default_rng(case_seed(LEARN_SEED))
    seeds = [int(s) for s in rng.integers(0, 2**31, size=3)]
    tiny = NTupleNetwork(((0, 1),))
    tiny.weights[:] = rng.integers(-3, 4, tiny.weights.size).astype(np.float32)
    two = NTupleNetwork(((0, 1), (1, 5)))
    two.weights[:] = rng.normal(0, 20, two.weights.size).astype(np.float32)
    return [("a net of one 2-cell tuple [(0, 1)]", tiny, seeds[0], 0.1),
            ("a net [(0, 1), (1, 5)]", two, seeds[1], 0.5),
            ("a fresh classroom net", NTupleNetwork.classroom(), seeds[2], 0.1)]


def _values_picture(board: Board, values: dict[str, tuple[int, float]], chosen: str = "") -> str:
    """The board, then each move's reward + V (the answer's choice marked)."""
    lines = [str(board)]
    for d, (reward, v) in values.items():
        mark = "   <- your move" if d == chosen else ""
        lines.append(f"{d:>5}: reward {reward:>4} + V {v - reward:>10,.3f} = {v:>10,.3f}{mark}")
    return "\n".join(lines)


def _close(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(np.allclose(a, b, rtol=1e-5, atol=1e-3))


@dataclass
class _Update:
    """One TD update of the package's learner: at ``move``, V(``previous``) toward ``target``, from ``before``."""

    move: int
    previous: Board
    new: Board
    reward: int
    target: float
    before: np.ndarray
    after: np.ndarray


#: step sizes a learner may have typed instead of using its ``alpha`` (the lesson's default and round numbers)
FIXED_ALPHAS = (0.1, 0.01, 0.5, 1.0, 0.0025)


def _slip(update: _Update, weights: np.ndarray, tuples: Any, alpha: float) -> str:
    """The common slip that turns ``update.before`` into ``weights``, as advice; "" when none does."""
    slips = (("you moved V of the new afterstate; TD(0) moves the previous one (the new one waits for the next move)",
              update.new, update.target),
             ("your target leaves out the move's reward: use reward + V(new afterstate)", update.previous,
              update.target - update.reward),
             ("your target leaves out V(new afterstate): use reward + V(new afterstate)", update.previous,
              float(update.reward)))
    fixed = [(f"your update moved by alpha = {a:g}, but this game passes alpha = {alpha:g}: use the alpha your "
              "function receives", update.previous, update.target, a) for a in FIXED_ALPHAS if a != alpha]
    for advice, board, target, step in [*((a, b, t, alpha) for a, b, t in slips), *fixed]:
        probe = NTupleNetwork(tuples, update.before.copy())
        td_update_ref(probe, board, target, step)
        if not _close(probe.weights, update.before) and _close(probe.weights, weights):
            return advice
    return ""


@checker("2048learn.learn_game", allow=ALLOW_LEARN,
         job=("tilelab.game2048.learning.ntuple_ref:learn_game_ref",))
def _check_learn_game(answer: Any) -> Result:
    name = "2048learn.learn_game"
    games = 0
    for what, net, seed, alpha in learn_cases():
        result = _follow_game(answer, name, what, net, seed, alpha)
        if result is not None:
            return result
        games += 1
    return Result(name, True, f"passed: on {games} seeded games every move had the best reward + V(afterstate), "
                  "every afterstate moved toward the next move's reward + V (the last one toward 0), and the weights "
                  "came out as the package's learner leaves them")


def _follow_game(answer: Any, name: str, what: str, net: NTupleNetwork, seed: int, alpha: float) -> Result | None:
    """Play the answer's game on ``net`` beside the package's learner; the first wrong step as a Result, or None.

    The answer may update before it hands the afterstate to spawn (the lesson's order) or after: at each spawn its
    weights must be the package's after this move's update ("before" order) or before it ("after" order), one
    order all game long. When both orders fail, the message names the update the longer-lived one found wrong.
    """
    mine = NTupleNetwork(net.tuples, net.weights.copy())
    ref = NTupleNetwork(net.tuples, net.weights.copy())
    game: dict[str, Any] = {"calls": 0, "previous": None, "score": 0, "moves": 0, "updates": []}
    alive = {"before": True, "after": True}  # which order of update and spawn still fits the answer's weights
    wrong: dict[str, tuple[int, _Update | None]] = {}  # order -> (the move it failed at, the update it blames)
    where = f"in a game with {what} (alpha={alpha:g})"

    def stop(message: str, picture: str | None = None, case: Any = None) -> _Stop:
        return _Stop(Result(name, False, f"{where}: {message}", case, picture))

    def blame(board: Board) -> _Stop:
        order = max(wrong, key=lambda o: (wrong[o][0], o == "before"))  # the order that fit longest
        move, update = wrong[order]
        if update is None:  # the weights changed before any afterstate could be updated
            return stop(f"your weights changed at move {move}, but there is no previous afterstate to update yet: "
                        "the first move has none (previous is None)", str(board), board)
        if _close(mine.weights, net.weights) and not _close(ref.weights, net.weights):
            return stop("your net's weights never changed, while the package's learner had updated them: update "
                        "net, the net your function receives (not a net of your own)", str(board), board)
        other = wrong["after" if order == "before" else "before"][1]
        advice = next((a for a in (_slip(u, mine.weights, net.tuples, alpha) for u in (update, other)
                                   if u is not None) if a), "")
        pictures = f"previous afterstate:\n{update.previous}\nnew afterstate:\n{update.new}"
        return stop(advice or f"after move {update.move} the weights differ from the package's: V of the previous "
                    f"afterstate (below) moves toward reward + V(new afterstate) = {update.target:,.3f}", pictures,
                    board)

    def on_spawn(board: Any) -> None:
        if not isinstance(board, Board) or board.size != 4:
            raise stop(f"spawn takes a 4x4 Board, got {type(board).__name__}")
        calls = game["calls"]
        game["calls"] += 1
        if calls == 0:
            if board.empty_cells() != board.cells():
                raise stop("the game starts from the empty board: spawn(spawn(Board.empty(4)))", str(board), board)
            return
        if calls == 1:
            return  # the board with the first tile, which spawn returned
        current = dice.last
        values = {}
        for d in legal_moves(current):
            m = play(current, d)
            values[d.name] = (m.score, m.score + value_ref(ref, m.board), m.board)
        chosen = next((d for d, v in values.items() if v[2] == board), None)
        if chosen is None:
            raise stop("spawn got a board that no move makes from the board before (hand spawn the afterstate of "
                       "the move you chose)", f"before:\n{current}\nhanded to spawn:\n{board}", board)
        best = max(v[1] for v in values.values())
        reward, value, after = values[chosen]
        if value < best - _V_TOL * max(1.0, abs(best)):
            shown = {d: (v[0], v[1]) for d, v in values.items()}
            by_reward = reward == max(v[0] for v in values.values())
            raise stop(f"move {game['moves'] + 1}: {chosen} has reward + V = {value:,.3f}, but another move has "
                       f"{best:,.3f}. Choose the move with the largest reward + V(afterstate)"
                       + (", not the largest reward alone; V comes from net, the net your function receives"
                          if by_reward else ""),
                       _values_picture(current, shown, chosen), current)
        game["moves"] += 1
        if game["moves"] > MAX_MOVES:
            raise stop(f"the game went on for more than {MAX_MOVES:,} moves")
        update = None
        before = ref.weights.copy()
        if game["previous"] is not None:
            td_update_ref(ref, game["previous"], value, alpha)
            update = _Update(game["moves"], game["previous"], after, reward, value, before, ref.weights.copy())
        earlier = game["updates"][-1] if game["updates"] else None
        expected = {"before": (ref.weights, update), "after": (before, earlier)}
        for order, (weights, blamed) in expected.items():
            if alive[order] and not _close(mine.weights, weights):
                alive[order] = False
                wrong[order] = (game["moves"], blamed if blamed is not None else update or earlier)
        if update is not None:
            game["updates"] = [*game["updates"][-1:], update]
        if not any(alive.values()):
            raise blame(board)
        game["previous"] = after
        game["score"] += reward

    dice = TrainerSpawn(seed, watch=on_spawn)
    try:
        returned = answer(mine, dice, alpha)
    except _Stop as stopped:
        return stopped.result
    except TypeError as err:  # the commonest slip: updating V(previous) at the first move, while previous is None
        if game["calls"] == 2 and game["moves"] == 0 and "NoneType" in str(err):
            return Result(name, False, f"{where}: your code raised TypeError ({err}) at the first move. There is no "
                          "previous afterstate yet (previous is None): update only if previous is not None",
                          reason="raised")
        raise
    final = dice.last
    if game["calls"] < 2 or final is None:
        return Result(name, False, f"{where}: your game never got going. Start it with board = spawn(spawn("
                      "Board.empty(4))), and hand spawn each afterstate you choose")
    if legal_moves(final):
        return Result(name, False, f"{where}: your function returned while the board below still had a move: play "
                      "until no move is left", final, str(final))
    if game["previous"] is not None:
        before = ref.weights.copy()
        td_update_ref(ref, game["previous"], 0.0, alpha)
        if not _close(mine.weights, ref.weights):
            if _close(mine.weights, before):
                message = ("at game over, move V of the last afterstate (below) toward 0: no move follows it, so it "
                           "leads to no more points")
            else:
                message = "at game over the weights differ from the package's: move V of the last afterstate toward 0"
            return Result(name, False, f"{where}: {message}", final,
                          f"last afterstate:\n{game['previous']}\ngame over:\n{final}")
    if isinstance(returned, bool) or as_real(returned) != game["score"]:
        return Result(name, False, f"{where}: your function returned {returned!r}, but its moves scored "
                      f"{game['score']:,} points: return the score")
    return None

def _shape(cells: Sequence[int]) -> tuple[int, ...]:
    """One key per tuple up to rotation, mirror and cell order (its smallest image, sorted)."""
    return min(tuple(sorted(sym[c] for c in cells)) for sym in SYMMETRIES)


def distinct_tuples(tuples: Sequence[Sequence[int]]) -> list[tuple[int, ...]]:
    """``tuples`` without the ones that repeat an earlier tuple up to rotation, mirror and cell order."""
    seen: set[tuple[int, ...]] = set()
    out = []
    for t in tuples:
        key = _shape(t)
        if key not in seen:
            seen.add(key)
            out.append(tuple(t))
    return out


def _frozen_scores(net: NTupleNetwork, games: int) -> np.ndarray:
    """Scores of ``games`` frozen 1-ply games on seeds TEST_SEED, TEST_SEED + 1, ... (one game a seed)."""
    return np.array([net.evaluate(1, rng=TEST_SEED + i).mean_score for i in range(games)])


@checker("2048learn.tuple_shape", seconds=None)
def _check_tuple_shape(answer: Any, games: int = 600, test_games: int = MIN_TEST_GAMES, seed: int = SEED) -> Result:
    name = "2048learn.tuple_shape"
    try:
        tuples = [tuple(int(c) for c in t) for t in answer]
    except (TypeError, ValueError):
        return Result(name, False, "give a list of tuples of cells, e.g. [(0, 1, 2, 3), (0, 1, 4, 5)]")
    if not tuples or any(len(t) > MAX_CELLS for t in tuples):
        return Result(name, False, f"give at least one tuple, each of at most {MAX_CELLS} cells")
    if isinstance(test_games, bool) or not isinstance(test_games, int) or test_games < MIN_TEST_GAMES:
        return Result(name, False, f"a verdict needs at least {MIN_TEST_GAMES} test games: pass "
                      f"test_games={MIN_TEST_GAMES} or more")
    note = ""
    capped = IN_BROWSER and (games > BROWSER_GAMES or test_games > BROWSER_GAMES)
    if capped:
        games, test_games = min(games, BROWSER_GAMES), min(test_games, BROWSER_GAMES)
        note = f"In the browser kernel each net learns for {games} games and is tested on {test_games}: "
    kept = distinct_tuples(tuples)
    try:
        mine = NTupleNetwork(kept)
    except ValueError as exc:
        return Result(name, False, str(exc))
    given = NTupleNetwork(GIVEN_TUPLES)
    if mine.weights.size > given.weights.size:
        return Result(name, False, f"your net has {mine.weights.size:,} weights, the two-line net "
                      f"{given.weights.size:,}: a bigger net would win by its size, not its shape. Choose tuples "
                      f"worth at most {given.weights.size:,} weights (a 4-cell tuple has 65,536, a 3-cell one 4,096)",
                      kept)
    for net in (mine, given):
        net.train(games, rng=seed, block=max(1, games))
    diff, half = mean_ci(_frozen_scores(mine, test_games) - _frozen_scores(given, test_games))
    passed = diff - half > 0
    dropped = len(tuples) - len(kept)
    note += f"{dropped} tuple(s) dropped: a rotation or mirror of another adds nothing. " if dropped else ""
    if capped and not passed:  # the browser's few games: no verdict either way
        return Result(name, False, f"{note}yours − the two-line net {diff:+,.0f} ± {half:,.0f} points: so few games "
                      "rarely tell two nets apart, so this check gives its verdict in JupyterLab (a laptop or the "
                      "class's hub).")
    return Result(name, passed, f"{note}After {games} training games each, on {test_games} fresh games: yours − "
                  f"the two-line net {diff:+,.0f} ± {half:,.0f} points (paired 95% CI)"
                  + ("" if passed else "; to pass, the whole interval must lie above zero") + ".")

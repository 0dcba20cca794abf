"""Lessons 2a, 2b (expectimax, heuristics) and 06 (TD learning), each run at its defaults and at other settings
(another seed, the values its parameters cell suggests, the browser edition's sizes): no cell raises, the
exercises still check, and every claim the prose makes in words holds, each checked as a predicate on the
run's fetched values."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from tests.test_lessons_01 import checks_still_work, run_at  # noqa: E402

L2A, L2B, L06 = "02a_2048_expectimax", "02b_2048_heuristics", "06_2048_learning"


# ------------------------------------------------------------------------------------------ 2a
FETCH_2A = [
    "[{d.name: round(v, 12) for d, v in ai.expectimax_values(board, depth=k, evaluate=alive).items()} for k in (1, 2)]",
    "[first.kind, first.value, bool(legal_moves(first.board))]",
    "[agree, 2 * len(boards), CHECK_BOARDS]",
    "[nodes[d] for d in sorted(nodes)]", "MAX_DEPTH", "len(position.empty_cells())",
    "[solution_worst_spawn(play(board, d).board, alive) for d in ('right', 'down')]",
    "[table_saving, cutoff_change, min(blanks_after)]", "runs['table'][0] == plain",
    "max(runs['both'][0], key=runs['both'][0].get) == max(plain, key=plain.get)", "[same_values, checked]",
]
SETTINGS_2A = [None, "browser", {"SEED": 11, "CHECK_BOARDS": 5, "MAX_DEPTH": 5}]


@pytest.mark.parametrize("overrides", SETTINGS_2A, ids=["defaults", "browser", "seed11-depth5"])
def test_02a_claims_hold_at_every_setting(overrides):
    ran = run_at(L2A, overrides, FETCH_2A)
    checks_still_work(ran, exercises=2, solutions=2)  # expectimax (core) and the pessimist (going deeper)
    # the hand computation at depth 1: "Value ... = 0.1" and "= 0.9"; "right is nine times safer"; the stepper's
    # depth 2: "Here depth 2 gives the same two values"
    assert ran[FETCH_2A[0]] == [{"DOWN": 0.1, "RIGHT": 0.9}] * 2
    # "The first value is found ... at a leaf, or at a board where no move is left (worth 0)"
    kind, value, can_move = ran[FETCH_2A[1]]
    assert kind == "leaf" or (kind == "max" and value == 0 and not can_move)
    agree, searches, check_boards = ran[FETCH_2A[2]]
    assert agree == searches == 2 * check_boards
    # "Every level costs far less than the naive count, and the factor falls as the search deepens"
    nodes, blanks = ran[FETCH_2A[3]], ran["len(position.empty_cells())"]
    assert len(nodes) == ran["MAX_DEPTH"]
    growth = [b / a for a, b in zip(nodes, nodes[1:])]
    assert all(g < 0.5 * 4 * 2 * blanks for g in growth) and growth == sorted(growth, reverse=True)
    # "After right, one spawn (a 4) loses: the pessimist calls the move lost, just like down"
    assert ran[FETCH_2A[6]] == [0.0, 0.0]
    # deeper: "the table changes no value at all and saves well over half"; "under 0.2%, same best move";
    # "9 or more blanks"; the fast search gives the same values
    saving, change, fewest_blanks = ran[FETCH_2A[7]]
    assert saving > 0.5 and change < 0.002 and fewest_blanks >= 9
    assert ran["runs['table'][0] == plain"] is True and ran[FETCH_2A[9]] is True
    same, checked = ran["[same_values, checked]"]
    assert same == checked > 0


# ------------------------------------------------------------------------------------------ 2b
FETCH_2B = [
    "[row_terms([1, 1, 1, 1])['sum'], row_terms([3, 0, 0, 0])['sum']]",
    "[row_terms([n, n, 0, 0])['sum'] < row_terms([n + 1, 0, 0, 0])['sum'] for n in range(1, 11)]",
    "[round(row_terms([5, 5, 0, 0])['sum']), round(row_terms([6, 0, 0, 0])['sum'])]",
    "[agree, len(boards), CHECK_BOARDS]", "evaluate(sorted_board) > evaluate(messy_board)",
    "[evaluate(late), len(legal_moves(late))]",
    "[[float(np.median(depth_scores[d])) for d in depths], [float(np.mean(depth_ms[d])) for d in depths]]",
    "never", "reach", "[len(off_zero), comparisons]",
]
SETTINGS_2B = [None, "browser", {"SEED": 11, "CHECK_BOARDS": 5}]


@pytest.mark.parametrize("overrides", SETTINGS_2B, ids=["defaults", "browser", "seed11"])
def test_02b_claims_hold_at_every_setting(overrides):
    ran = run_at(L2B, overrides, FETCH_2B)
    checks_still_work(ran, exercises=3, solutions=2)  # monotonicity, merges, and the contest (no solution)
    # "The one 8 costs more"; a merge raises the charge up to 16 + 16 -> 32 and lowers it from 32 + 32 -> 64
    four_twos, one_eight = ran[FETCH_2B[0]]
    assert four_twos < one_eight
    assert ran[FETCH_2B[1]] == [True] * 4 + [False] * 6
    assert ran[FETCH_2B[2]] == [559, 529]
    agree, boards, check_boards = ran[FETCH_2B[3]]
    assert agree == boards == check_boards  # our evaluate gives the package's values
    assert ran[FETCH_2B[4]] is True
    # "Below 0 ... one move still open"
    value, moves = ran[FETCH_2B[5]]
    assert value < 0 < moves
    # "Each extra level buys score and costs time"
    scores, ms = ran[FETCH_2B[6]]
    assert scores == sorted(scores) and ms == sorted(ms)
    # "random, greedy and corner never reach 1024" is printed; search "in another league"
    assert set(ran["never"]) >= {"random", "greedy", "corner"}
    reach = ran["reach"]
    assert reach["expectimax-150k-nodes"]["16384"] > 0 and reach["monte-carlo-10"]["4096"] == 0
    # deeper: "A few intervals lie below 0"; "among many, a miss somewhere is far from rare"
    below, comparisons = ran[FETCH_2B[9]]
    assert 0 < below < comparisons and 1 - 0.95 ** comparisons > 0.3


# ------------------------------------------------------------------------------------------ 06
FETCH_06 = [
    "[result.score, len(outcomes)]", "[indices[0], len(indices), len(set(indices)), step]",
    "[value_ref(tiny, prev_after), alpha * target]", "bool(np.array_equal(mine.weights, package.weights))",
    "[curve[0].block, TRAIN_GAMES, [p.games for p in curve]]", "net.curve[0].block", "made_2048",
    "[learned['median_score'], lesson2b['expectimax-150k-nodes']['median_score']]",
    "[ply1.direction.name, ply3.direction.name]",
    "strong.training['games'] / net.training['games']",
    "[saved[k]['reach_16384']['wilson95'] for k in ('full-depth3', 'compact-depth3')]",
    "saved['compact-depth4']['ms_per_move'] / saved['compact-depth3']['ms_per_move']",
    "[after < before, recovered > long_curve[i]['games'], sum(ahead[lead:shared]) / (shared - lead)]",
    "[[s[f'reach_{t}']['wilson95'] for s in (one_ply, one_ply_long)] for t in (2048, 16384)]",
    "[same, len(random_boards)]",
]
SETTINGS_06 = [None, "browser", {"SEED": 7, "TRAIN_GAMES": 1000, "TEST_GAMES": 100, "COMPARE_GAMES": 4}]


@pytest.mark.parametrize("overrides", SETTINGS_06, ids=["defaults", "browser", "seed7-suggested"])
def test_06_claims_hold_at_every_setting(overrides):
    ran = run_at(L06, overrides, FETCH_06)
    checks_still_work(ran, exercises=2, solutions=2)  # the TD update on the core path, the tuple shape deeper
    assert ran[FETCH_06[0]] == [12, 6]
    same, boards = ran["[same, len(random_boards)]"]
    assert same == boards > 0  # our few-line look-up picks the package's weights
    # "exponents 1 and 2 ... give index 1 + 2 x 16 = 33"; 8 placements, all different pairs; "each +2.5"
    assert ran[FETCH_06[1]] == [1 + 2 * 16, 8, 8, 2.5]
    value, fraction = ran[FETCH_06[2]]
    assert value == fraction == 20.0  # "moved from 0 toward the target 40 by the fraction alpha"
    assert ran[FETCH_06[3]] is True   # our learner learns exactly what net.train learns
    block, games, points = ran[FETCH_06[4]]
    assert block == min(500, games) and points[-1] == games  # "blocks of 500 (fewer when fewer games were played)"
    assert ran["net.curve[0].block"] == 2000
    # "The learned 1-ply player beats the hand-made strategies easily, but not the hand-written evaluation with
    # search"
    reached = ran["made_2048"]
    assert reached["TD 1-ply"] > max(reached["corner"], reached["greedy"])
    learned, searched = ran[FETCH_06[7]]
    assert learned < searched
    one, three = ran[FETCH_06[8]]
    assert one != three  # "They disagree"
    # deeper: "trained far longer"; the rounding "costs nothing these games can measure"; depth 4 "costs several
    # times as much"
    assert ran[FETCH_06[9]] >= 10
    (lo_full, hi_full), (lo_compact, hi_compact) = ran[FETCH_06[10]]
    assert lo_full <= hi_compact and lo_compact <= hi_full
    assert ran[FETCH_06[11]] >= 3
    # "scored a ... less"; "the score was back"; "scored more in almost every block to the end"
    dipped, recovered, share_ahead = ran[FETCH_06[12]]
    assert dipped and recovered and share_ahead > 0.9
    # "16384 moved most, the two intervals far apart, while 2048 stayed (the two intervals overlap)"
    (a2048, b2048), (a16k, b16k) = ran[FETCH_06[13]]
    assert a2048[0] <= b2048[1] and b2048[0] <= a2048[1] and b16k[0] > a16k[1]


def test_figures_the_lessons_use_stay_readable():
    from tilelab.game2048 import Board
    from tilelab.game2048.learning.ntuple_net import WU_YEH_TUPLES
    from tilelab.game2048.tree import expectimax_tree
    from tilelab.plots.game2048_ai import plot_expectimax_tree, plot_reach, plot_tuples

    fig = plot_reach({"a": {4096: 0.99, 8192: 0.86}, "b": {4096: 1.0, 8192: 0.92}})
    fig.canvas.draw()
    ax = fig.axes[0]
    legend = ax.get_legend().get_window_extent()
    assert legend.x0 >= ax.get_window_extent().x1  # beside the bars, not over them
    fig = plot_tuples(WU_YEH_TUPLES)
    assert len(fig.axes) == 4 and all(len(a.texts) == 6 for a in fig.axes)
    fig = plot_expectimax_tree(expectimax_tree(Board.parse("8 4\n2 ."), 2, evaluate=lambda b: 1.0))
    assert min(t.get_fontsize() for t in fig.axes[0].texts) >= 10

"""Lessons 2a, 2b (expectimax, heuristics) and 6a, 6b (TD learning), each run at its defaults and at other settings
(another seed, the values its parameters cell suggests, the browser edition's sizes): no cell raises, the
exercises still check, and every claim the prose makes in words holds, each checked as a predicate on the
run's fetched values."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from tests.test_lessons_01 import checks_still_work, run_at  # noqa: E402

L2A, L2B = "02a_2048_expectimax", "02b_2048_heuristics"
L6A, L6B = "06a_2048_learning", "06b_2048_training"


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
    "[depth_scores, depth_ms]",
    "[max(lows) < min(highs), lows, highs]", "summary", "[len(off_zero), comparisons]",
    "[sorted_value > messy_value, sorted_mono, messy_mono, share, DEFAULT_WEIGHTS.alive]",
    "[exponent(t) for t in (0, 2, 4, 8, 2048)]", "lines_of(sorted_board)",
    "[solution_monotonicity([4, 1, 3, 2], 4), row_terms([4, 1, 3, 2])['monotonicity'], "
    "row_terms([4, 3, 2, 1])['monotonicity'], row_terms([1, 1, 1, 1])['merges']]",
    "[more, less, len(bigger), sorted(g['seed'] for g in bigger)]",
    "{n: sorted(g['seed'] for g in games if g['setting'] == n) for n in order}",
]
SETTINGS_2B = [None, "browser", {"SEED": 11, "CHECK_BOARDS": 5}]


@pytest.mark.parametrize("overrides", SETTINGS_2B, ids=["defaults", "browser", "seed11"])
def test_02b_claims_hold_at_every_setting(overrides):
    ran = run_at(L2B, overrides, FETCH_2B)
    checks_still_work(ran, exercises=3, solutions=2)  # monotonicity (core); merges and the contest (deeper)
    # 1: "every board gets a head start, alive (a million)"
    prefers_sorted, sorted_mono, messy_mono, share, alive = ran[FETCH_2B[10]]
    assert alive == 1_000_000
    # 2: "a 2 is 1, 4 is 2, 8 is 3, 2048 is 11, a blank is 0"; "transpose() turns its columns into rows"
    assert ran[FETCH_2B[11]] == [0, 1, 2, 3, 11]
    lines = ran["lines_of(sorted_board)"]
    assert len(lines) == 8 and all(lines[4 + c] == [row[c] for row in lines[:4]] for c in range(4))
    # "a 2 next to a 4 is a step of 15, a 1024 next to a 2048 one of 4,641"; the worked example's table: 4th powers
    # 256, 1, 81, 16, drops 320, rises 80, "the penalty is the smaller total, 80" (the solution and the package
    # agree); "a sorted line ... its penalty is 0"
    assert (2 ** 4 - 1 ** 4, 11 ** 4 - 10 ** 4) == (15, 4641)
    powers = [e ** 4 for e in (4, 1, 3, 2)]
    steps = list(zip(powers, powers[1:]))
    assert powers == [256, 1, 81, 16]
    assert [sum(max(0, a - b) for a, b in steps), sum(max(0, b - a) for a, b in steps)] == [320, 80]
    solved, package, sorted_line, merges = ran[FETCH_2B[13]]
    assert solved == package == 80 and sorted_line == 0
    # "Why does the sorted board win? Mostly because of one term"; with monotonicity alone "each still starts from
    # the head start alive"; "The sorted board loses nothing to monotonicity; the messy one loses nearly all of the gap"
    assert prefers_sorted is True and sorted_mono == alive > messy_mono and 0.9 <= share <= 1
    # deeper: "[1, 1, 1, 1] gives 2"; nneonneo's "1 + counter for each run of equal tiles (blanks skipped), which is
    # the number of tiles in the run: 4 for the same line" (his heuristic's loop, replayed here)
    assert merges == 2

    def nneonneo_merges(line):
        merges = counter = prev = 0
        for rank in line:
            if rank:
                if rank == prev:
                    counter += 1
                elif counter > 0:
                    merges, counter = merges + 1 + counter, 0
                prev = rank
        return merges + (1 + counter if counter > 0 else 0)

    def tiles_in_runs(line):
        tiles = [e for e in line if e]
        return sum(1 for i, e in enumerate(tiles) if e in tiles[max(0, i - 1):i] + tiles[i + 1:i + 2])

    assert nneonneo_merges([1, 1, 1, 1]) == 4
    every = [[a, b, c, d] for a in range(4) for b in range(4) for c in range(4) for d in range(4)]
    assert all(nneonneo_merges(line) == tiles_in_runs(line) for line in every)
    # "The one 8 costs more"; a merge raises the charge up to 16 + 16 -> 32 and lowers it from 32 + 32 -> 64
    four_twos, one_eight = ran[FETCH_2B[0]]
    assert four_twos < one_eight
    assert ran[FETCH_2B[1]] == [True] * 4 + [False] * 6
    assert ran[FETCH_2B[2]] == [559, 529]
    agree, boards, check_boards = ran[FETCH_2B[3]]
    assert agree == boards == check_boards  # our evaluate gives the package's values
    assert ran[FETCH_2B[4]] is True
    # deeper: "the game not over yet (the cell lists the moves still open)"; "Worse than a lost board" (printed)
    value, moves = ran[FETCH_2B[5]]
    assert value < 0 < moves
    # "Each extra level buys score and costs time"
    scores, ms = ran[FETCH_2B[6]]
    assert len(scores) == 4 and scores == sorted(scores) and ms == sorted(ms)
    # the live games: "each player's best saved game beats every other's worst" is printed only when it holds
    overlap, lows, highs = ran[FETCH_2B[7]]
    assert len(lows) == len(highs) == 3 and overlap == (max(lows) < min(highs))
    # search "in another league": every expectimax game made 2048, no simple player's did, Monte-Carlo never 4096;
    # "Three times the nodes reached 16384 more often, but in only 12 games"
    summary = ran["summary"]
    assert all(summary[n]["reach_2048"] == 0 for n in ("random", "greedy", "corner"))
    assert summary["expectimax-150k-nodes"]["reach_2048"] == summary["expectimax-450k-nodes"]["reach_2048"] == 1
    assert summary["monte-carlo-10"]["reach_4096"] == 0 < summary["monte-carlo-10"]["reach_2048"]
    assert summary["expectimax-450k-nodes"]["reach_16384"] > summary["expectimax-150k-nodes"]["reach_16384"]
    assert summary["expectimax-450k-nodes"]["games"] == 12 < summary["expectimax-150k-nodes"]["games"]
    # "The saved results played every player on the same seeds" (each the first of one list); "Both budgets played
    # the same first seeds"; the seed-by-seed count adds up (ties aside)
    seeds = ran[FETCH_2B[15]]
    longest = max(seeds.values(), key=len)
    assert all(s == longest[:len(s)] for s in seeds.values())
    more, less, shared, shared_seeds = ran[FETCH_2B[14]]
    assert shared_seeds == seeds["expectimax-150k-nodes"][:shared] and more + less <= shared
    # deeper: "A few intervals lie below 0"; "among many, a miss somewhere is far from rare"
    below, comparisons = ran[FETCH_2B[9]]
    assert 0 < below < comparisons and 1 - 0.95 ** comparisons > 0.3


# ------------------------------------------------------------------------------------------ 6a
FETCH_6A = [
    "[result.score, len(outcomes), len(result.board.empty_cells())]", "[same, BOARDS, len(last_lookups)]",
    "[indices[0], len(indices), len(set(indices)), step]", "[value_ref(tiny, prev_after), alpha * target]",
    "[net.memory_bytes, len(net.tuples), len(symmetric_tuples(net.tuples[0]))]",
    "[list(p) for p in symmetric_tuples(CLASSROOM_TUPLES[2])[:4]]",
    "(lambda n: [td_update_ref(n, [[0] * 4] * 4, 40.0, 0.1), value_ref(n, [[0] * 4] * 4)][1])(NTupleNetwork([(0, 1)]))",
    "feature_indices_ref(NTupleNetwork([(0, 1)]), [[3, 1, 0, 0]] + [[0] * 4] * 3)[0]",
]
SETTINGS_6A = [None, "browser", {"SEED": 7, "BOARDS": 5}]


@pytest.mark.parametrize("overrides", SETTINGS_6A, ids=["defaults", "browser", "seed7-5boards"])
def test_06a_claims_hold_at_every_setting(overrides):
    ran = run_at(L6A, overrides, FETCH_6A)
    checks_still_work(ran, exercises=2, solutions=2)  # the TD update on the core path, the tuple shape deeper
    # "slide the board below left. How many points ... how many boards"; "2 x (empty cells) boards"
    score, outcomes, empty = ran[FETCH_6A[0]]
    assert [score, outcomes] == [12, 6] and outcomes == 2 * empty
    same, boards, lookups = ran[FETCH_6A[1]]
    assert same == boards > 0 and lookups == 40  # our few-line look-up picks the package's weights; "40 look-ups"
    # "exponents 1 and 2 ... give index 1 + 2 x 16 = 33"; 8 placements, all different pairs; "each +2.5"
    assert ran[FETCH_6A[2]] == [1 + 2 * 16, 8, 8, 2.5]
    value, fraction = ran[FETCH_6A[3]]
    assert value == fraction == 20.0  # "moved from 0 toward the target 40 by the fraction alpha"
    # "5 x 16^4 x 4 B = 1.25 MiB" (five tuples, 8 placements each); "4 x 16^6 x 4 B = 256 MiB"
    assert ran[FETCH_6A[4]] == [5 * 16**4 * 4, 5, 8] and 5 * 16**4 * 4 == 1.25 * 2**20 and 4 * 16**6 * 4 == 256 * 2**20
    # "each placement reads its cells in its own order": the four shown do not all read in the same pattern
    placements = ran[FETCH_6A[5]]
    assert len({tuple(sorted(range(4), key=p.__getitem__)) for p in placements}) > 1
    assert any(p != sorted(p) for p in placements)
    # "When a board looks up the same weight twice ... V moves by more than alpha x error" (the empty board)
    assert ran[FETCH_6A[6]] > 0.1 * 40.0
    assert ran[FETCH_6A[7]] == 3 + 1 * 16  # Check yourself 2: "Index 3 + 1 x 16 = 19"


# ------------------------------------------------------------------------------------------ 6b
FETCH_6B = [
    "[{d.name: play(board, d).score for d in legal_moves(board)}, best.direction.name, best_value, "
    "{d.name: play(board, d).score + value_ref(lesson_network(), play(board, d).board) for d in legal_moves(board)}]",
    "[before, value_ref(step_net, previous), best_value]",
    "[curve[0].block, TRAIN_GAMES, [p.games for p in curve]]", "net.curve[0].block", "made_2048",
    "[net.training['games'], TRAIN_GAMES, load_results('bench_2048_learning_wuyeh_tc.json')['net']['trained_games']]",
    "[s['median_score'] for s in saved_players.values()]",
    "[ply1.direction.name, ply3.direction.name]",
    "strong.training['games'] / net.training['games']",
    "[saved[k]['reach_16384']['wilson95'] for k in ('full-depth3', 'compact-depth3')]",
    "saved['compact-depth4']['ms_per_move'] / saved['compact-depth3']['ms_per_move']",
    "[after < before, recovered > long_curve[i]['games'], sum(ahead[lead:shared]) / (shared - lead)]",
    "[[s[f'reach_{t}']['wilson95'] for s in (one_ply, one_ply_long)] for t in (2048, 16384)]",
    "[one_ply['reach_16384']['rate'], big['summary']['td-expectimax-depth2']['reach_16384']['rate']]",
    "{name: s['reach_16384']['rate'] for name, s in search.items()}",
]
SETTINGS_6B = [None, "browser", {"SEED": 7, "TRAIN_GAMES": 1000, "TEST_GAMES": 100, "COMPARE_GAMES": 4}]


@pytest.mark.parametrize("overrides", SETTINGS_6B, ids=["defaults", "browser", "seed7-suggested"])
def test_06b_claims_hold_at_every_setting(overrides):
    ran = run_at(L6B, overrides, FETCH_6B)
    checks_still_work(ran, exercises=1)  # the learner's loop
    # "The check starts with its smallest net (one 2-cell tuple)"
    from tilelab.exercises.game2048_learning import learn_cases

    nets = [case[1] for case in learn_cases()]
    assert [len(t) for t in nets[0].tuples] == [2] and nets[0].weights.size == min(n.weights.size for n in nets)
    # "LEFT and RIGHT score the most points now (4 + 4 and 8 + 8 merge). Is one of them the best move?" No: "The
    # moves that score most now are not the best here: the net values the boards they leave lower, by more than
    # the extra points they score"
    rewards, chosen, target, values = ran[FETCH_6B[0]]
    top = max(rewards.values())
    assert rewards["LEFT"] == rewards["RIGHT"] == top == 4 + 4 + 8 + 8
    assert rewards[chosen] < top and target == max(values.values()) == values[chosen]
    # "The update then moves V(previous) toward the value of the move we really play"
    before, after, aim = ran[FETCH_6B[1]]
    assert abs(after - aim) < abs(before - aim) and (after - before) * (aim - before) > 0
    block, games, points = ran[FETCH_6B[2]]
    assert block == min(500, games) and points[-1] == games  # "each block of 500 games (fewer when fewer ...)"
    assert ran["net.curve[0].block"] == 2000  # deeper: "Its points average blocks of 2,000 games"
    # "On the same seeds, the 1-ply learned player made 2048 more often than lesson 2b's corner and greedy players"
    reached = ran["made_2048"]
    assert reached["TD 1-ply"] > max(reached["corner"], reached["greedy"])
    # "the shipped net (trained the same way, for longer)"; deeper: the big net "trained for far longer"
    shipped, live, big_games = ran[FETCH_6B[5]]
    assert shipped > live and big_games > 5 * shipped
    # deeper: "The classroom net loses to lesson 2b's search ...: compare the median scores. A bigger net trained
    # longer closes most of that gap with no search at all"
    classroom, big, expectimax = ran[FETCH_6B[6]]
    assert classroom < big < expectimax and big - classroom > 0.5 * (expectimax - classroom)
    one, three = ran[FETCH_6B[7]]
    assert one != three  # deeper: "They disagree"
    # deeper: "trained far longer"; the rounding "costs nothing these games can measure"; depth 4 "costs several
    # times as much"
    assert ran[FETCH_6B[8]] >= 10
    (lo_full, hi_full), (lo_compact, hi_compact) = ran[FETCH_6B[9]]
    assert lo_full <= hi_compact and lo_compact <= hi_full
    assert ran[FETCH_6B[10]] >= 3
    # "scored a ... less"; "the score was back"; "scored more in almost every block to the end"
    dipped, recovered, share_ahead = ran[FETCH_6B[11]]
    assert dipped and recovered and share_ahead > 0.9
    # "16384 moved most, the two intervals far apart, while 2048 stayed (the two intervals overlap)"
    (a2048, b2048), (a16k, b16k) = ran[FETCH_6B[12]]
    assert a2048[0] <= b2048[1] and b2048[0] <= a2048[1] and b16k[0] > a16k[1]
    # "Search helps as well" (the big net, 1-ply against depth 2); "Training longer did more than searching deeper"
    plain, searched = ran[FETCH_6B[13]]
    assert searched > plain
    rates = ran[FETCH_6B[14]]
    assert rates["depth 3, trained on"] > max(rates["depth 3"], rates["depth 4"], rates["50 ms"])


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
    # lesson 6a: "the big number in a cell is its cell number ...; the small 1st, 2nd, ... in its corner is the
    # order in which the tuple reads it"
    fig = plot_tuples([(3, 2, 7, 6)], order=True)
    shown = [t.get_text() for t in fig.axes[0].texts]
    assert shown == ["3", "1st", "2", "2nd", "7", "3rd", "6", "4th"]
    places = {t.get_text(): t.get_position() for t in fig.axes[0].texts}
    assert places["1st"][0] > places["2nd"][0] and places["3rd"][1] > places["1st"][1]  # cell 3 right of 2, 7 below
    fig = plot_expectimax_tree(expectimax_tree(Board.parse("8 4\n2 ."), 2, evaluate=lambda b: 1.0))
    assert min(t.get_fontsize() for t in fig.axes[0].texts) >= 10

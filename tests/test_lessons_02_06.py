"""Lessons 02 (expectimax) and 06 (TD learning): the numbers their prose states are the ones they compute,
and a student who changes the demonstration parameters meets no error and still gets check results."""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from tests.lessonrun import errors, exercise_outputs, prose, run_lesson  # noqa: E402

L02, L06 = "02_2048_ai", "06_2048_learning"
ROOT = Path(__file__).resolve().parents[1]
CITATION = "Jaśkowski, arXiv 2016; IEEE Transactions on Games 2018"

FETCH_02 = [
    "{d.name: round(v, 12) for d, v in ai.expectimax_values(board, depth=2, evaluate=alive).items()}",
    "[agree, 2 * len(boards)]",
    "[row_terms([1, 1, 1, 1])['sum'], row_terms([3, 0, 0, 0])['sum']]",
    "[row_terms([n, n, 0, 0])['sum'] < row_terms([n + 1, 0, 0, 0])['sum'] for n in range(1, 11)]",
    "[round(row_terms([5, 5, 0, 0])['sum']), round(row_terms([6, 0, 0, 0])['sum'])]",
    "ai.evaluate(sorted_board) > ai.evaluate(messy_board)",
    "sorted({len(v) for v in depth_scores.values()})",
    "[len(tiles[n]) for n in order]",
    "{n: round(load_results(f)['summary'][n]['ms_per_move']) for f, n in "
    "[('bench_2048_ai.json', 'expectimax-150k-nodes'), ('bench_2048_ai_research.json', 'expectimax-450k-nodes')]}",
    "[table_saving, cutoff_change, min(blanks_after)]",
    "runs['table'][0] == plain",
    "max(runs['both'][0], key=runs['both'][0].get) == max(plain, key=plain.get)",
    "[same_values, checked]",
    "[len(seeds), T95[5], sorted(beyond_noise)]",
    "sorted(n for n in terms_tiles if n in ('all but sum', 'all but merges') "
    "and np.median(terms_scores[n]) > np.median(terms_scores['all']))",
    "check('2048ai.worst_spawn', solution_worst_spawn).passed",
    "check('2048ai.monotonicity', solution_monotonicity).passed",
    "check('2048ai.merges', solution_merges).passed",
]

FETCH_06 = [
    "[classroom.memory_bytes / 2**20, classroom.features, NTupleNetwork(WU_YEH_TUPLES[:1]).memory_bytes * 4 / 2**20]",
    "[len(looked_up), len(set(looked_up)), step, value_ref(tiny, prev_after), alpha * target]",
    "[net.curve[0].block, sorted({p.block for p in curve})]",
    "check('2048learn.td_update', solution_td_update).passed",
    "check('2048learn.tuple_shape', solution_tuples, games=400).passed",
    "[first_90['td0'], first_90['tc'], round(ratio, 1), logs['td0']['games'], logs['tc']['games']]",
    "[round(late['td0'], 3), round(late['tc'], 3), round(big['net']['training_seconds'] / 60)]",
    "[one_ply['games'], one_ply['reach_2048']['count'], one_ply['reach_2048']['wilson95'][0]]",
    "[round(before), round(after), recovered - long_curve[i]['games'], long_log['games']]",
    "[round(one_ply['reach_16384']['rate'], 3), round(one_ply_long['reach_16384']['rate'], 3)]",
    "one_ply_long['reach_16384']['wilson95'][0] > one_ply['reach_16384']['wilson95'][1]",
    "counts",
    "{k: round(s['ms_per_move'], 2) for k, s in search.items()}",
    "[round(c, 1) for c in cost]",
    "[round(reach(lesson02, 16384), 2), round(lesson02['ms_per_move'], 1)]",
    "[round(json.loads(results_path(f).read_text())['summary'][n]['ms_per_move'], 1) for f, n in "
    "[('bench_2048_learning_wuyeh_tc_50ms.json', 'td-expectimax-50ms'), "
    "('bench_2048_learning_td_search.json', 'td-expectimax-50ms'), "
    "('bench_2048_learning_heuristic_search.json', 'heuristic-expectimax-50ms')]]",
    "[long_curve[split - 1]['games'], long_curve[lead]['games'], sum(ahead[lead:shared]), shared - lead, "
    "long_curve[shared - 1]['games'], twin_path.name]",
    "[strong.training['games'] / net.training['games'], "
    "saved['compact-depth4']['ms_per_move'] / saved['compact-depth3']['ms_per_move']]",
]


@pytest.fixture(scope="module")
def ran02():
    return run_lesson(L02, fetch=FETCH_02)


@pytest.fixture(scope="module")
def ran06():
    return run_lesson(L06, fetch=FETCH_06)


def test_02_runs_clean_and_quick(ran02):
    assert errors(ran02.notebook) == []
    assert ran02.seconds < 90  # about 25 s on an idle 2-core machine


def test_02_hand_computation_and_recursion(ran02):
    text = prose(L02)
    assert ran02[FETCH_02[0]] == {"DOWN": 0.1, "RIGHT": 0.9}
    assert "**0.1**" in text and "**0.9**" in text and "nine times safer" in text
    agree, total = ran02[FETCH_02[1]]
    assert agree == total > 0


def test_02_sum_term_is_described_as_it_behaves(ran02):
    text = prose(L02)
    four_twos, one_eight = ran02[FETCH_02[2]]
    assert four_twos == 4.0 and round(one_eight, 1) == 46.8 and "`[1, 1, 1, 1]`" in text
    # merging two equal tiles lowers the charge only from two 32s (exponent 5) upward
    assert ran02[FETCH_02[3]] == [True, True, True, True, False, False, False, False, False, False]
    assert ran02[FETCH_02[4]] == [559, 529] and "≈ 559" in text and "≈ 529" in text
    assert "16 + 16 → 32" in text and "32 + 32 → 64" in text
    assert "prefers few big tiles to many small ones |" not in text
    assert ran02[FETCH_02[5]] is True


def test_02_saved_comparisons(ran02):
    text = prose(L02)
    assert ran02[FETCH_02[6]] == [6] and "6 games per\ndepth" in text
    assert ran02[FETCH_02[7]] == [100, 100, 100, 20, 100, 12]
    assert ran02[FETCH_02[8]] == {"expectimax-150k-nodes": 6, "expectimax-450k-nodes": 25}
    assert "about 6 ms a\nmove" in text and "about\n25 ms a move" in text
    assert CITATION in text
    assert "combined with search reach 32768 in about 70%" in text.replace("\n", " ")


def test_02_deeper_tricks_and_terms(ran02):
    text = prose(L02)
    saving, change, blanks = ran02[FETCH_02[9]]
    assert saving > 0.5 and "well over half" in text
    assert change < 0.002 and "under 0.2%" in text
    assert blanks >= 9 and "9 or more blanks" in text and 0.1 / 9 < 0.02 < 0.9 / 9
    assert ran02[FETCH_02[10]] is True and ran02[FETCH_02[11]] is True
    same, checked = ran02[FETCH_02[12]]
    assert same == checked == 8
    assert ran02[FETCH_02[13]] == [6, 2.571, ["all but monotonicity", "only merges", "only sum"]]
    assert "2.571 for 6 paired games" in text and "Only three settings" in text
    assert ran02[FETCH_02[14]] == ["all but merges", "all but sum"]


def test_02_exercises_and_their_solutions(ran02):
    outputs = exercise_outputs(ran02.notebook)
    assert len(outputs) == 4 and all("NOT YET" in o for o in outputs)  # the blanks are not yet right
    assert all(ran02[f] is True for f in FETCH_02[15:18])


def test_02_open_task_is_judged_on_fresh_seeds():
    from tilelab.exercises.game2048_ai import FINAL_GAMES

    text = prose(L02)
    assert "final=True" in text and f"at least {FINAL_GAMES} games on **fresh seeds**" in text.replace("\n", " ")
    assert "multiple-comparisons trap" in text


def test_02_exploring_other_parameters_never_crashes():
    ran = run_lesson(L02, overrides={"SEED": 11, "CHECK_BOARDS": 5, "MAX_DEPTH": 3})
    assert errors(ran.notebook) == []
    outputs = exercise_outputs(ran.notebook)
    assert len(outputs) == 4 and all("NOT YET" in o or "PASSED" in o for o in outputs)


def test_06_runs_clean_and_quick(ran06):
    assert errors(ran06.notebook) == []
    assert ran06.seconds < 90


def test_06_core_numbers(ran06):
    text = prose(L06)
    mib, features, big_mib = ran06[FETCH_06[0]]
    assert mib == 1.25 and features == 40 and big_mib == 256
    assert "**1.25 MiB**" in text and "**256 MiB**" in text and "40 look-ups" in text
    n, distinct, step, v, half = ran06[FETCH_06[1]]
    assert n == distinct == 8 and step == 2.5 and v == half == 20.0 and "each +2.5" in text
    shipped, live = ran06[FETCH_06[2]]
    assert shipped == 2000 and live == [500]
    assert "blocks of 2,000 games, the live curve's\nblocks of 500" in text
    assert ran06[FETCH_06[3]] is True and ran06[FETCH_06[4]] is True


def test_06_strong_player_section(ran06):
    """Trained on "more than four times as many games" as the shipped classroom net; a depth-4 move "costs several
    times" a depth-3 one."""
    text = prose(L06)
    longer, cost = ran06[FETCH_06[-1]]
    assert longer > 4 and "more than four times as many games" in text
    assert cost >= 3 and "costs several times as much" in text
    results = ROOT / "benchmarks" / "results"
    deeper = json.loads((results / "bench_2048_strong_depth4.json").read_text())["players"]["compact-depth4"]
    shallow = json.loads((results / "bench_2048_strong_depth3.json").read_text())["players"]["compact-depth3"]
    assert shallow["games"] == 100 and 0 < deeper["games"] <= 100
    assert "then 4 moves deep, on as many of the same\nseeds as there was time for (the table says how many)" in prose(L06)
    assert "the last line compares the two depths on the seeds both have played" in text


def test_06_claims_fixed_from_the_review():
    text = prose(L06)
    assert "since 2014" not in text and "nneonneo's strong C++ player does the same" in text
    assert "Beal & Smith, 1999, applied to 2048 by Jaśkowski" in text
    assert "one seed and one learning rate" in text
    assert CITATION in text and "Jaskowski" not in text
    assert "true wall-clock" not in text and "a true 50 ms" not in text


def test_06_deeper_numbers(ran06):
    text = prose(L06).replace("\n", " ")
    assert ran06[FETCH_06[5]] == [86_000, 17_000, 5.1, 444_000, 348_000]
    assert "17,000 games, TD(0) after 86,000" in text and "444,000" in text and "348,000" in text
    assert ran06[FETCH_06[6]] == [0.955, 0.983, 72] and "95.5%" in text and "98.3%" in text and "72 minutes" in text
    games, reached, low = ran06[FETCH_06[7]]
    assert games == 1000 and reached == 988 and low > 0.97 and "97% of games" in text
    assert ran06[FETCH_06[8]] == [172_496, 131_741, 32_000, 643_000]
    assert "a quarter less" in text and "32,000 games" in text
    assert ran06[FETCH_06[9]] == [0.236, 0.426] and "from 24% of games to 43%" in text
    assert ran06[FETCH_06[10]] is True
    assert ran06[FETCH_06[11]] == {"depth 2": [100, 100, 45, 0], "depth 3": [100, 98, 58, 0],
                                   "depth 4": [29, 29, 14, 0], "50 ms": [13, 13, 10, 0],
                                   "depth 3, trained on": [100, 100, 91, 2]}
    ms = ran06[FETCH_06[12]]
    assert [ms["depth 2"], ms["depth 3"], round(ms["depth 4"], 1), ms["depth 3, trained on"]] == [0.07, 0.7, 7.3, 0.75]
    assert all(7 < c < 14 for c in ran06[FETCH_06[13]]) and "about ten times" in text
    assert ran06[FETCH_06[14]] == [0.44, 6.2] and "44% of its games at 6.2 ms" in text
    spent = ran06[FETCH_06[15]]
    assert spent == [50.4, 52.9, 82.1]
    assert "50.4 ms, the classroom net 52.9 ms, lesson 02's heuristic 82.1 ms" in text
    assert "it spent 50.4 ms a move" in text


def test_06_the_twin_run_that_kept_its_sums(ran06):
    """The restart at 348,000 games, against a run on the same seed and settings that kept its sums."""
    text = prose(L06).replace("\n", " ")
    assert ran06[FETCH_06[16]] == [348_000, 419_000, 223, 225, 643_000, "td_wu-yeh_tc-twin.json"]
    assert "the very same games up to 348,000" in text
    assert "from 419,000 games on the restarted run scored more in 223 of the 225 blocks to the end" in text
    assert "--restart-at 348000" in text and "Loshchilov & Hutter, ICLR 2017" in text
    readme = (ROOT / "benchmarks" / "README.md").read_text(encoding="utf-8").replace("\n", " ")
    assert "played the very same games to 348,000" in readme
    assert "from 419,000 games on, the restarted run scored more in 223 of the 225 blocks of 1,000 games to 643,000" in readme


def test_06_exploring_other_parameters_never_crashes():
    ran = run_lesson(L06, overrides={"SEED": 7, "TRAIN_GAMES": 1000, "TEST_GAMES": 100, "COMPARE_GAMES": 4})
    assert errors(ran.notebook) == []
    outputs = exercise_outputs(ran.notebook)
    assert len(outputs) == 2 and all("NOT YET" in o or "PASSED" in o for o in outputs)


def test_figures_the_lessons_use_stay_readable():
    from tilelab.game2048 import Board
    from tilelab.game2048.ntuple_net import WU_YEH_TUPLES
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

"""benchmarks/train_2048_td.py: resumable TC training, and restarting the learning rates at a set game count."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from tilelab.game2048.learning.ntuple_net import NTupleNetwork

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("train_2048_td", ROOT / "benchmarks" / "train_2048_td.py")
train = importlib.util.module_from_spec(spec)
sys.modules["train_2048_td"] = train
spec.loader.exec_module(train)


def _train(out: Path, games: int, *extra: str) -> NTupleNetwork:
    assert train.main(["--net", "classroom", "--method", "tc", "--games", str(games), "--block", "10",
                       "--out", str(out), *extra]) == 0
    return NTupleNetwork.load(out)


def _curve(net: NTupleNetwork) -> list[tuple]:
    """The learning curve without its timings."""
    return [(p["games"], p["block"], p["mean_score"], p["max_tile"]) for p in net.training["curve"]]


def _same(a: NTupleNetwork, b: NTupleNetwork) -> bool:
    return (np.array_equal(a.weights, b.weights) and np.array_equal(a.e_sum, b.e_sum)
            and np.array_equal(a.a_sum, b.a_sum) and _curve(a) == _curve(b) and a.training["state"] == b.training["state"])


def test_restart_at_equals_a_file_saved_without_its_sums_and_resumed(tmp_path, capsys):
    """--restart-at N is the 91% net's recipe: what happened to that run by accident at 348,000 games."""
    one_go = _train(tmp_path / "a.npz", 30, "--restart-at", "15")  # 15 is inside a block: that block stops there
    assert one_go.training["restarts"] == [15] and "rates restarted at 15 games" in capsys.readouterr().out
    assert [p["games"] for p in one_go.training["curve"]] == [10, 15, 25, 30]
    _train(tmp_path / "b.npz", 15)
    by_hand = NTupleNetwork.load(tmp_path / "b.npz")
    by_hand.save(tmp_path / "b.npz", training_state=False)  # the sums lost, as in that run
    resumed = _train(tmp_path / "b.npz", 30, "--resume", "--restart-coherence", "--block", "10")
    assert np.array_equal(one_go.weights, resumed.weights) and np.array_equal(one_go.e_sum, resumed.e_sum)
    assert _curve(one_go)[2:] == _curve(resumed)[2:]
    plain = _train(tmp_path / "c.npz", 30)  # without the restart the net differs
    assert not np.array_equal(plain.weights, one_go.weights) and "restarts" not in plain.training
    saved = json.loads((tmp_path / "a.json").read_text())
    assert saved["restarts"] == [15] and saved["games"] == 30


def test_a_restart_happens_once_however_often_the_run_resumes(tmp_path):
    _train(tmp_path / "a.npz", 20, "--restart-at", "10")
    resumed = _train(tmp_path / "a.npz", 40, "--restart-at", "10", "--resume")  # at 20 already: no second restart
    straight = _train(tmp_path / "b.npz", 40, "--restart-at", "10")
    assert _same(resumed, straight) and resumed.training["restarts"] == [10]


@pytest.mark.parametrize("extra", [("--restart-at", "0"), ("--restart-at", "10", "--method", "td0")])
def test_restart_at_refuses_what_it_cannot_do(tmp_path, extra, capsys):
    with pytest.raises(SystemExit):
        train.main(["--net", "classroom", "--games", "20", "--out", str(tmp_path / "x.npz"), "--method", "tc", *extra])
    assert "--restart-at GAMES needs --method tc" in capsys.readouterr().err


def test_expect_says_block_by_block_whether_a_run_repeats_a_saved_one(tmp_path, capsys):
    _train(tmp_path / "a.npz", 30, "--restart-at", "20")
    saved = tmp_path / "a.json"
    capsys.readouterr()
    _train(tmp_path / "b.npz", 30, "--restart-at", "20", "--expect", str(saved))
    assert capsys.readouterr().out.count("= saved run") == 3
    _train(tmp_path / "c.npz", 30, "--expect", str(saved))  # no restart: the same until 20 games, then not
    lines = [line for line in capsys.readouterr().out.splitlines() if "games " in line and "mean score" in line]
    assert ["= saved run" in line for line in lines] == [True, True, False] and "DIFFERS" in lines[2]
    with pytest.raises(SystemExit):  # the saved run's own file would be overwritten by this run's curve
        _train(tmp_path / "a.npz", 40, "--resume", "--expect", str(saved))
    assert "is the file this run writes its curve to" in capsys.readouterr().err
    (tmp_path / "bad.json").write_text("{}")
    with pytest.raises(SystemExit, match="not a training run's .json"):
        _train(tmp_path / "d.npz", 10, "--expect", str(tmp_path / "bad.json"))

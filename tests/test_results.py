"""tilelab.results: lessons find the saved benchmark files from the repository or a student edition."""

from __future__ import annotations

import json

import pytest

from tilelab import results


def test_finds_results_in_a_parent_of_the_working_directory(tmp_path, monkeypatch):
    saved = tmp_path / "edition" / "benchmarks" / "results"
    saved.mkdir(parents=True)
    (saved / "only_here.json").write_text(json.dumps({"games": [1, 2]}))
    lesson_dir = tmp_path / "edition" / "lessons"
    lesson_dir.mkdir()
    monkeypatch.chdir(lesson_dir)
    monkeypatch.delenv("TILELAB_RESULTS", raising=False)
    assert results.results_path("only_here.json") == saved / "only_here.json"
    assert results.load_results("only_here.json") == {"games": [1, 2]}


def test_environment_variable_comes_first(tmp_path, monkeypatch):
    first, second = tmp_path / "first", tmp_path / "benchmarks" / "results"
    for folder, value in ((first, 1), (second, 2)):
        folder.mkdir(parents=True)
        (folder / "x.json").write_text(json.dumps({"v": value}))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TILELAB_RESULTS", str(first))
    assert results.load_results("x.json") == {"v": 1}
    monkeypatch.delenv("TILELAB_RESULTS")
    assert results.load_results("x.json") == {"v": 2}


def test_the_repository_results_are_found_from_anywhere(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # outside the repository: found beside the (editable) package
    monkeypatch.delenv("TILELAB_RESULTS", raising=False)
    saved = results.load_results("bench_match3.json")
    assert saved is not None and "tile_match_gym" in saved


def test_missing_file_is_none_and_paths_are_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert results.load_results("no_such_benchmark.json") is None
    with pytest.raises(ValueError, match="bare file name"):
        results.results_path("../secrets.json")

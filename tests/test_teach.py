"""Teacher's kit: the solution-tag convention, student editions, and the exercise report."""

from __future__ import annotations

import os
import re
from pathlib import Path

import nbformat
import pytest

from tilelab import exercises
from tilelab.teach import lesson_paths, untagged_solutions
from tilelab.teach.__main__ import main as teach_main
from tilelab.teach.lessons import EXERCISE_TAG, SOLUTION_TAG, TEACHER_TAG, tags
from tilelab.teach.student import student_edition

LESSONS = lesson_paths(Path(__file__).resolve().parents[1] / "notebooks")
IDS = [p.stem for p in LESSONS]


@pytest.fixture(scope="module")
def student_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("student")
    assert teach_main(["student", str(out), "--notebooks", str(LESSONS[0].parent)]) == 0
    return out


def _text(cell: nbformat.NotebookNode) -> str:
    parts = []
    for o in cell.get("outputs", []):
        parts.append(o.get("text", ""))
        for value in o.get("data", {}).values():
            parts.append(value if isinstance(value, str) else str(value))
    return "".join(parts)


def test_lessons_found() -> None:
    assert len(LESSONS) >= 6 and LESSONS[0].name == "00_start_here.ipynb"


@pytest.mark.parametrize("path", LESSONS, ids=IDS)
def test_every_solution_cell_is_tagged(path: Path) -> None:
    """The convention the student editions rely on: a solution is tagged, not just commented."""
    nb = nbformat.read(path, as_version=4)
    bad = untagged_solutions(nb)
    assert not bad, f"{path.name}: code cells {bad} start with '# Solution' but are not tagged '{SOLUTION_TAG}'"


@pytest.mark.parametrize("path", LESSONS, ids=IDS)
def test_student_edition_has_no_solution(path: Path, student_dir: Path) -> None:
    teacher = nbformat.read(path, as_version=4)
    student = nbformat.read(student_dir / path.name, as_version=4)
    solutions = [c for c in teacher.cells if SOLUTION_TAG in tags(c)]
    kept = [c for c in teacher.cells if not {SOLUTION_TAG, TEACHER_TAG} & set(tags(c))]
    assert not any(SOLUTION_TAG in tags(c) for c in student.cells)
    student_sources = {c.source.strip() for c in student.cells}
    assert not [c.source[:60] for c in solutions if c.source.strip() in student_sources]
    assert [c.source for c in student.cells] == [c.source for c in kept], "every other cell is kept, in order"
    for t, s in zip(kept, student.cells):
        if EXERCISE_TAG in tags(s):
            assert s.get("outputs") == [] and s.get("execution_count") is None
        elif s.cell_type == "code":
            assert s.outputs == t.outputs, "outputs of other cells are kept"
    assert (student_dir / "README.md").is_file()


def test_student_edition_carries_the_saved_benchmark_results(student_dir: Path) -> None:
    """Lessons 02, 05c and 06 plot saved results: the edition carries them where tilelab.results looks."""
    repo_results = LESSONS[0].parent.parent / "benchmarks" / "results"
    wanted = sorted(p.name for p in repo_results.glob("*.json"))
    copied = sorted(p.name for p in (student_dir / "benchmarks" / "results").glob("*.json"))
    assert "bench_match3.json" in wanted and copied == wanted


def test_student_edition_removes_tagged_solutions_only() -> None:
    v4 = nbformat.v4
    nb = v4.new_notebook(cells=[
        v4.new_markdown_cell("prose"),
        v4.new_code_cell("def f(x): return 0\ncheck('e', f)", metadata={"tags": [EXERCISE_TAG]},
                         outputs=[v4.new_output("stream", text="not yet")], execution_count=1),
        v4.new_code_cell("def solution_f(x): return x", metadata={"tags": [SOLUTION_TAG, "nbval-skip"]}),
        v4.new_markdown_cell("the answer, explained", metadata={"tags": [SOLUTION_TAG]}),
        v4.new_markdown_cell("for the teacher: what students stumble on", metadata={"tags": [TEACHER_TAG]}),
        v4.new_code_cell("print(1)", outputs=[v4.new_output("stream", text="1\n")], execution_count=2),
    ])
    out = student_edition(nb)
    assert [c.source for c in out.cells] == ["prose", "def f(x): return 0\ncheck('e', f)", "print(1)"]
    assert out.cells[1].outputs == [] and out.cells[2].outputs[0].text == "1\n"
    assert len(nb.cells) == 6 and nb.cells[1].outputs, "the teacher edition is not changed"


@pytest.fixture(scope="module")
def executed(student_dir: Path) -> dict[str, tuple[int, str, float]]:
    """Run every student edition with nbconvert --execute (nbclient), two at a time on two cores.

    Returns ``{name: (exit status, stderr tail, seconds)}``; executed copies land in ``student_dir/run``.
    """
    import subprocess
    import sys
    import time
    from concurrent.futures import ThreadPoolExecutor

    run_dir = student_dir / "run"
    run_dir.mkdir(exist_ok=True)

    def execute(path: Path) -> tuple[str, tuple[int, str, float]]:
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "nbconvert", "--to", "notebook", "--execute", "--output-dir", str(run_dir),
             "--output", path.name,
             "--ExecutePreprocessor.timeout=300", "--ExecutePreprocessor.kernel_name=python3", str(path)],
            capture_output=True, text=True, timeout=900,
        )
        return path.name, (done.returncode, done.stderr[-3000:], time.perf_counter() - start)

    workers = max(1, min(2, os.cpu_count() or 1))
    with ThreadPoolExecutor(workers) as pool:
        return dict(pool.map(execute, sorted(student_dir.glob("*.ipynb"))))


@pytest.mark.slow
@pytest.mark.parametrize("path", LESSONS, ids=IDS)
def test_student_edition_runs_top_to_bottom(path: Path, student_dir: Path, executed: dict) -> None:
    """Each student edition runs without an error; its exercise cells answer "not yet"."""
    status, stderr, seconds = executed[path.name]
    print(f"{path.name}: {seconds:.1f} s")
    assert status == 0, f"{path.name} (student edition) failed:\n{stderr}"
    nb = nbformat.read(student_dir / "run" / path.name, as_version=4)
    for index, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            assert not [o for o in cell.outputs if o.output_type == "error"], f"cell {index} raised"
            if EXERCISE_TAG in tags(cell):
                assert re.search(r"not yet", _text(cell), re.I), f"exercise cell {index} did not answer 'not yet'"


# --------------------------------------------------------------------------------- report()
def test_check_records_the_latest_result_per_exercise() -> None:
    exercises.reset_results()
    exercises.check("count_empty", lambda rows: 0)
    exercises.check("largest_tile", lambda rows: max(max(r) for r in rows))
    exercises.check("count_empty", lambda rows: sum(r.count(0) for r in rows))
    got = exercises.results()
    assert list(got) == ["largest_tile", "count_empty"]
    assert got["count_empty"].passed and got["largest_tile"].passed
    exercises.check("count_empty", lambda rows: 1 / 0)
    assert not exercises.results()["count_empty"].passed
    assert "ZeroDivisionError" in exercises.results()["count_empty"].message


def test_unknown_exercise_is_not_recorded() -> None:
    exercises.reset_results()
    with pytest.raises(ValueError, match="no exercise called"):
        exercises.check("no-such-exercise", lambda: 0)
    assert exercises.results() == {}


def test_report_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    exercises.reset_results()
    exercises.report()
    assert "0 of 0 passed" in capsys.readouterr().out
    exercises.check("count_empty", lambda rows: 0)
    exercises.check("largest_tile", lambda rows: max(max(r) for r in rows))
    exercises.report()
    text = capsys.readouterr().out
    assert "1 of 2 passed" in text and "NOT YET  count_empty" in text and "PASSED   largest_tile" in text
    rows = json.loads(exercises.report_json())
    assert [(r["exercise"], r["passed"]) for r in rows] == [("count_empty", False), ("largest_tile", True)]


def test_report_is_html_in_a_notebook(monkeypatch: pytest.MonkeyPatch) -> None:
    shown = []
    monkeypatch.setattr(exercises, "_in_notebook", lambda: True)
    monkeypatch.setattr("IPython.display.display", lambda obj: shown.append(obj))
    exercises.reset_results()
    exercises.check("count_empty", lambda rows: 0)
    exercises.report()
    assert len(shown) == 1 and "not yet" in shown[0].data and "<table>" in shown[0].data

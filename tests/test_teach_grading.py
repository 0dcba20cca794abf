"""A class autograded with tilelab's grading: the judge outside the kernel, bubblewrap around it, one student at a time.

One module-scoped run (the fixture ``graded``) builds a course (outside the repository) from lesson 03a cut to its
two core exercises (sliding.inversions, sliding.is_solvable), generates the assignment with nbgrader, writes a
class of submissions and grades them with ``python -m tilelab.teach autograde``'s function. Each forging route of
the defect hunt (docs/grading.md, "What the grader refuses") is one student who would have the point without the
grader; with it, that exercise scores 0 and the feedback says why. A malformed submission is graded first.
"""

from __future__ import annotations

import copy
import os
import json
import shutil
import socket
import subprocess
import sys
import threading
from pathlib import Path

import nbformat
import numpy as np
import pytest

from tilelab.game2048.fast.bitrows import transpose_bits
from tilelab.teach.assignments import BEGIN, END, build_course
from tilelab.teach.grading.run import autograde, nbgrader_env, table
from tilelab.teach.grading.source import Cell, refusals
from tilelab.teach.lessons import EXERCISE_TAG, SOLUTION_TAG, tags

pytest.importorskip("nbgrader", reason="nbgrader is installed by make test (pyproject's teach extra)")
needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed "
                                 "(apt-get install bubblewrap; .ci/run installs it)")

ROOT = Path(__file__).resolve().parents[1]
LESSON = "03a_sliding_parity"
INV, SOLV = "test-sliding-inversions", "test-sliding-is_solvable"
STUB_SOLV = "def my_is_solvable(puzzle):\n    return inversions(puzzle) % 2 == 0\n"
DELEGATE_SOLV = "def my_is_solvable(puzzle):\n    return is_solvable(puzzle)\n"

#: What the is_solvable answer cell holds for each forging route (the inversions answer is honest).
FORGERIES = {
    "f_partial_call": "import functools, operator\nmy_is_solvable = functools.partial(operator.call, is_solvable)\n",
    "g_singledispatch": "import functools\nmy_is_solvable = functools.singledispatch(is_solvable)\n",
    "h_redefine_check": "import tilelab.exercises as E\nfrom tilelab.exercises import Result\n"
                        "E.check = lambda name, *a, **k: Result(name, True, 'passed')\n" + STUB_SOLV,
    "i_module_flag": "import tilelab.exercises as E\nE._ALLOW_PACKAGE_CALLS = 1\n" + DELEGATE_SOLV,
    "j_allow_package_calls": "from tilelab.exercises import allow_package_calls\n"
                             "_keep = allow_package_calls(); _keep.__enter__()\n" + DELEGATE_SOLV,
    "k_exec": "exec('def my_is_solvable(puzzle):\\n    return is_solvable(puzzle)\\n')\n",
}


def _lesson(folder: Path) -> None:
    """Lesson 03a cut to its imports, parameters and two core exercises (a short run per student)."""
    nb = nbformat.read(ROOT / "notebooks" / f"{LESSON}.ipynb", as_version=4)
    keep = nb.cells[:3] + [c for c in nb.cells if (EXERCISE_TAG in tags(c) or SOLUTION_TAG in tags(c))
                           and "deeper" not in tags(c)]
    nb.cells = keep
    folder.mkdir()
    nbformat.write(nb, folder / f"{LESSON}.ipynb")


def _answers(source: Path) -> dict[str, str]:
    """The official answer of each graded exercise (by the answer cell's grade_id), from the source notebook."""
    nb = nbformat.read(source, as_version=4)
    out = {}
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("solution"):
            out[meta["grade_id"]] = cell.source.split(BEGIN + "\n", 1)[1].split(END, 1)[0]
    return out


def _index(nb, grade_id: str) -> int:
    return next(i for i, c in enumerate(nb.cells) if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)


@pytest.fixture(scope="module")
def server():
    """A TCP server on the grader's loopback: a sandboxed kernel must not reach it."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    listener.settimeout(0.2)
    accepted: list = []
    stop = threading.Event()

    def serve():
        while not stop.is_set():
            try:
                accepted.append(listener.accept())
            except OSError:
                pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield listener.getsockname()[1], accepted
    stop.set()
    thread.join()
    listener.close()


@pytest.fixture(scope="module")
def graded(tmp_path_factory, server):
    if shutil.which("bwrap") is None:
        pytest.skip("bubblewrap is not installed (apt-get install bubblewrap)")
    base = tmp_path_factory.mktemp("grading")
    _lesson(base / "notebooks")
    course = base / "course"
    build_course(course, base / "notebooks", quiet=True)
    subprocess.run([sys.executable, "-m", "nbgrader", "generate_assignment", LESSON, "--force"], cwd=course,
                   check=True, capture_output=True, env=nbgrader_env())
    release = nbformat.read(course / "release" / LESSON / f"{LESSON}.ipynb", as_version=4)
    official = _answers(course / "source" / LESSON / f"{LESSON}.ipynb")
    port, _ = server
    subs = {}

    def sub(name, inversions=True, solvable=True, edit=None):
        nb = copy.deepcopy(release)
        if inversions is not None:
            nb.cells[_index(nb, "sliding-inversions")].source = (
                official["sliding-inversions"] if inversions is True else inversions)
        if solvable is not None:
            nb.cells[_index(nb, "sliding-is_solvable")].source = (
                official["sliding-is_solvable"] if solvable is True else solvable)
        if edit:
            edit(nb)
        subs[name] = nb

    def duplicate_test(nb):
        i = _index(nb, INV)
        copy_ = copy.deepcopy(nb.cells[i])
        copy_.source = "pass"
        nb.cells.insert(i, copy_)

    def add(source, graded_cell=None):
        def edit(nb):
            cell = nbformat.v4.new_code_cell(source)
            if graded_cell:
                cell.metadata["nbgrader"] = graded_cell
            nb.cells.append(cell)
        return edit

    sub("a_malformed", edit=duplicate_test)
    sub("b_honest")
    sub("c_partial", solvable=None)
    sub("d_looping", inversions="def my_inversions(puzzle):\n    while True:\n        pass\n")
    sub("e_delegating", inversions="def my_inversions(puzzle):\n    return inversions(puzzle)\n",
        solvable=DELEGATE_SOLV)
    for name, answer in FORGERIES.items():
        sub(name, solvable=answer)
    sub("l_kills_kernel", edit=lambda nb: nb.cells.insert(_index(nb, INV) + 1,
                                                           nbformat.v4.new_code_cell("import os\nos._exit(0)")))
    sub("m_floods", edit=add("for _ in range(30):\n    print('x' * 1_000_000)"))
    sub("n_bonus_cell", edit=add("pass", {"grade": True, "grade_id": "bonus", "locked": True, "points": 50,
                                          "schema_version": 3, "solution": False, "task": False}))
    sub("p_snoop", edit=add(
        "import pathlib, socket\n"
        f"for target in {[str(course / 'evil.txt'), str(course / 'submitted/b_honest' / LESSON / (LESSON + '.ipynb')), str(ROOT / 'evil.txt'), str(Path.home() / 'tilelab-evil.txt')]!r}:\n"
        "    try:\n        pathlib.Path(target).write_text('evil')\n    except OSError as e:\n"
        "        print('refused', target, e.errno)\n"
        "s = socket.socket()\ns.settimeout(2)\n"
        f"try:\n    s.connect(('127.0.0.1', {port}))\nexcept OSError as e:\n    print('no network', e)\n"
        "pathlib.Path('scratch.txt').write_text('mine')\n"
        "import numpy as np\nfrom tilelab.game2048.fast.bitrows import transpose_bits\ntranspose_bits(np.uint64(1))\n"
        "print('numba cache hits:', sum(getattr(transpose_bits, 'stats', None).cache_hits.values()) "
        "if hasattr(transpose_bits, 'stats') else 'no numba')\n"))
    for name, nb in subs.items():
        folder = course / "submitted" / name / LESSON
        folder.mkdir(parents=True)
        nbformat.write(nb, folder / f"{LESSON}.ipynb")
    broken = course / "submitted" / "o_not_a_notebook" / LESSON
    broken.mkdir(parents=True)
    (broken / f"{LESSON}.ipynb").write_text(nbformat.writes(release)[:2000], encoding="utf-8")
    transpose_bits(np.uint64(1))  # compiled and cached by the grader: its sandboxed kernels reuse it
    rows = autograde(course, LESSON, timeout=600)
    print(table(rows))
    return course, {r.student: r for r in rows}


def _marks(graded, student):
    return graded[1][student].score, graded[1][student].max_score


@needs_bwrap
class TestClass:
    def test_every_submission_is_listed_and_only_the_broken_file_is_not_graded(self, graded):
        course, rows = graded
        assert sorted(rows) == sorted(p.name for p in (course / "submitted").iterdir())
        assert [s for s, r in rows.items() if not r.graded] == ["o_not_a_notebook"]
        assert rows["o_not_a_notebook"].reason.startswith("not graded")

    def test_malformed_submission_first_is_graded_and_the_class_after_it(self, graded):
        assert list(graded[1])[0] == "a_malformed"
        assert _marks(graded, "a_malformed") == (2, 2)
        assert _marks(graded, "b_honest") == (2, 2) and graded[1]["b_honest"].reason == ""

    def test_partial_and_looping_lose_only_their_exercise(self, graded):
        assert _marks(graded, "c_partial") == (1, 2)
        assert graded[1]["c_partial"].reason.startswith("sliding-is_solvable: AssertionError: not yet")
        assert _marks(graded, "d_looping") == (1, 2)
        assert graded[1]["d_looping"].reason.startswith("sliding-inversions:")

    def test_delegating_is_refused_by_the_grader(self, graded):
        row = graded[1]["e_delegating"]
        assert _marks(graded, "e_delegating") == (0, 2)
        assert row.reason.count("RefusedByGrader") == 2
        assert "tilelab.sliding.inversions" in row.reason and "tilelab.sliding.is_solvable" in row.reason

    @pytest.mark.parametrize("student", sorted(FORGERIES))
    def test_each_forging_route_scores_zero_for_its_exercise(self, graded, student):
        row = graded[1][student]
        assert _marks(graded, student) == (1, 2)
        assert row.reason.startswith("sliding-is_solvable: RefusedByGrader") and "sliding-inversions" not in row.reason

    def test_feedback_names_the_refusal(self, graded):
        course, _ = graded
        subprocess.run([sys.executable, "-m", "nbgrader", "generate_feedback", LESSON, "--student", "k_exec"],
                       cwd=course, check=True, capture_output=True, env=nbgrader_env())
        page = next((course / "feedback" / "k_exec" / LESSON).glob("*.html")).read_text(encoding="utf-8")
        assert "RefusedByGrader" in page and "exec" in page

    def test_a_kernel_that_dies_keeps_the_marks_before_it(self, graded):
        assert _marks(graded, "l_kills_kernel") == (1, 2)
        assert graded[1]["l_kills_kernel"].reason.startswith("sliding-is_solvable:")

    def test_flood_and_unknown_grade_cell_are_graded(self, graded):
        course, _ = graded
        assert _marks(graded, "m_floods") == (2, 2)
        assert (course / "autograded" / "m_floods" / LESSON / f"{LESSON}.ipynb").stat().st_size < 2_000_000
        assert _marks(graded, "n_bonus_cell") == (2, 2)


@needs_bwrap
class TestSandbox:
    def test_kernel_writes_only_its_own_folder(self, graded):
        course, rows = graded
        assert _marks(graded, "p_snoop") == (2, 2)
        assert not (course / "evil.txt").exists() and not (ROOT / "evil.txt").exists()
        assert not (Path.home() / "tilelab-evil.txt").exists()
        other = course / "submitted" / "b_honest" / LESSON / f"{LESSON}.ipynb"
        assert "evil" != other.read_text(encoding="utf-8")
        assert (course / "autograded" / "p_snoop" / LESSON / "scratch.txt").read_text() == "mine"

    def test_kernel_reuses_the_graders_compiled_functions(self, graded):
        """The package's folders are read-only in the sandbox: the kernel gets copies of numba's compiled code."""
        out = nbformat.read(graded[0] / "autograded" / "p_snoop" / LESSON / f"{LESSON}.ipynb", as_version=4)
        text = json.dumps([c.get("outputs") for c in out.cells])
        if "no numba" in text:
            pytest.skip("numba is not installed (or TILELAB_NO_JIT is set): nothing is compiled")
        assert "numba cache hits: 1" in text, text[-2000:]

    def test_kernel_has_no_network(self, graded, server):
        _, accepted = server
        assert accepted == []
        out = nbformat.read(graded[0] / "autograded" / "p_snoop" / LESSON / f"{LESSON}.ipynb", as_version=4)
        text = json.dumps([c.get("outputs") for c in out.cells])
        assert "no network" in text


def test_forging_routes_are_refused_and_official_answers_are_not():
    """The source check alone, on the same answers (no kernel): quick to read when a route changes."""
    lesson = "from tilelab.exercises import check\nfrom tilelab.sliding import Board, inversions, is_solvable"
    test = "_result = _check('sliding.is_solvable', my_is_solvable)"
    honest = "def my_is_solvable(p):\n    return (inversions(p) + (p.cols % 2 == 0) * (p.rows - p.blank[0])) % 2 == 0"
    assert refusals([Cell(lesson, edited=False), Cell(honest), Cell(test, test=SOLV)]) == {}
    for answer in [*FORGERIES.values(), DELEGATE_SOLV, "%time x = 1\n" + honest, "check = print\n" + honest,
                   "import sys\n" + honest, "f = getattr(__import__('tilelab.sliding'), name)"]:
        assert SOLV in refusals([Cell(lesson, edited=False), Cell(answer), Cell(test, test=SOLV)]), answer


@needs_bwrap
def test_a_submission_that_never_ends_is_stopped_and_reported(graded):
    """A cell that swallows every interrupt: the student's grading is stopped at the timeout, its kernel with it."""
    course, _ = graded
    release = nbformat.read(course / "release" / LESSON / f"{LESSON}.ipynb", as_version=4)
    release.cells.insert(3, nbformat.v4.new_code_cell(
        "import time\nwhile True:\n    try:\n        time.sleep(1)\n    except BaseException:\n        pass\n"))
    folder = course / "submitted" / "q_hangs" / LESSON
    folder.mkdir(parents=True)
    nbformat.write(release, folder / f"{LESSON}.ipynb")
    [row] = autograde(course, LESSON, students=["q_hangs"], timeout=90)
    assert not row.graded and "took longer than 90 s" in row.reason
    left = subprocess.run(["pgrep", "-f", str(course / "autograded" / "q_hangs")], capture_output=True, text=True)
    assert left.stdout == ""


def test_exploring_the_package_at_the_top_level_or_in_the_lessons_cells_is_not_refused():
    lesson = "from tilelab.exercises import check\nfrom tilelab.sliding import Board, inversions, is_solvable"
    test = Cell("_result = _check('sliding.is_solvable', my_is_solvable)", test=SOLV)
    answer = Cell("def my_is_solvable(p):\n    return inversions(p) % 2 == 0")
    board = "board = Board.parse('1 2\\n. 3')\n"
    for explore in [Cell(board + "print(is_solvable(board), my_is_solvable(board))"),  # an added cell
                    Cell(board + "def show(b):\n    print(is_solvable(b))", lesson=True)]:  # a changed lesson cell
        assert refusals([Cell(lesson, edited=False), answer, explore, test]) == {}
    # the same in an added cell, or any reach-around in a changed lesson cell, is refused
    assert SOLV in refusals([Cell(lesson, edited=False), Cell(board + "def show(b):\n    print(is_solvable(b))"),
                             answer, test])
    assert SOLV in refusals([Cell(lesson, edited=False), Cell("exec('pass')", lesson=True), answer, test])


@needs_bwrap
@pytest.mark.skipif(os.geteuid() != 0, reason="about grading as root")
def test_grading_as_root_in_a_folder_closed_to_root_s_sandbox_says_what_to_do(tmp_path):
    """bubblewrap's user namespace maps only root: a folder another account closed (0700) stops the kernel. The
    grader says which folder and what to do, instead of a kernel that dies before it answers."""
    import asyncio

    from tilelab.teach.grading.sandbox import SandboxedKernelManager, SandboxError

    home = tmp_path / "home"
    work = home / "course" / "autograded" / "ann" / "lesson"
    work.mkdir(parents=True)
    os.chown(home, 54321, 54321)  # an account's home, closed to others
    home.chmod(0o700)

    async def start() -> None:
        manager = SandboxedKernelManager(kernel_name="python3")
        try:
            await manager.start_kernel(cwd=str(work))
        finally:
            if manager.has_kernel:
                await manager.shutdown_kernel(now=True)

    with pytest.raises(SandboxError, match=f"chmod o\\+x {home}"):
        asyncio.run(start())
    home.chmod(0o711)  # enterable: the kernel starts and answers
    manager = SandboxedKernelManager(kernel_name="python3")

    async def run() -> str:
        await manager.start_kernel(cwd=str(work))
        client = manager.client()
        client.start_channels()
        try:
            await client.wait_for_ready(timeout=120)
            reply = await client.execute_interactive("import os; print(os.getcwd())", timeout=120)
            return reply["content"]["status"]
        finally:
            client.stop_channels()
            await manager.shutdown_kernel(now=True)

    assert asyncio.run(run()) == "ok"

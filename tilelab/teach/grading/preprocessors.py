"""tilelab's nbgrader preprocessors: autograde with a judge outside the student's kernel.

:func:`configure` (called by the course's ``nbgrader_config.py``) puts them into ``nbgrader autograde``:

- :class:`KeepGradeCells` (sanitizing, before nbgrader's ``DeduplicateIds``): a graded cell the lesson does not
  have (an added "bonus" test) or a second copy of one (the copy nbgrader would blank into an "old metadata
  format" crash) loses its nbgrader metadata and becomes an ordinary cell the student added; the last copy of
  each graded cell stays, as nbgrader keeps it.
- :class:`HiddenCases` (before executing): each graded test runs inside ``hidden_cases(SEED)`` with a seed the
  grading process draws now (:mod:`secrets`), so the checks' random cases are ones nobody saw before; the
  notebook on disk, which the kernel can read, never holds it.
- :class:`SandboxedExecute` (instead of nbgrader's ``Execute``): the kernel runs in bubblewrap
  (:mod:`tilelab.teach.grading.sandbox`); a cell's output beyond :attr:`SandboxedExecute.max_output` characters
  is dropped; a kernel that dies fails the cell it died in and every later one (nothing more runs), so the cells
  before it keep their marks.
- :class:`JudgeSource` (after executing, before ``SaveAutoGrades``): reads the code of every cell the student
  wrote or changed (:mod:`tilelab.teach.grading.source`); a graded test whose exercise that code may not count
  for gets an error output ``RefusedByGrader`` with the reason, so nbgrader scores it 0 and the feedback shows why.
"""

from __future__ import annotations

import os
import secrets
import textwrap
from typing import Any

import nbformat
from nbconvert.exporters.exporter import ResourcesDict
from nbformat.notebooknode import NotebookNode
from nbgrader import utils
from nbgrader.api import Gradebook, MissingEntry
from nbgrader.coursedir import CourseDirectory
from nbgrader.preprocessors import NbGraderPreprocessor
from nbgrader.preprocessors.execute import Execute
from traitlets import Integer

from tilelab.teach.grading.sandbox import SandboxedKernelManager
from tilelab.teach.grading.source import Cell, exercise_of_test, refusals

#: The ``ename`` of the error output a refused test gets.
REFUSED = "RefusedByGrader"


def _graded_ids(resources: ResourcesDict) -> set[str] | None:
    """The grade ids of the notebook's graded and read-only cells in the gradebook (None: not known)."""
    info = resources.get("nbgrader", {})
    try:
        with Gradebook(info["db_url"], info.get("course_id", "")) as gb:
            notebook = gb.find_notebook(info["notebook"], info["assignment"])
            return {c.name for c in notebook.grade_cells} | {c.name for c in notebook.solution_cells} | {
                c.name for c in notebook.source_cells if c.locked}
    except (KeyError, MissingEntry):
        return None


class KeepGradeCells(NbGraderPreprocessor):
    """Turn graded cells the lesson does not have, and all but the last copy of each, into ordinary cells."""

    def preprocess(self, nb: NotebookNode, resources: ResourcesDict) -> tuple[NotebookNode, ResourcesDict]:
        known = _graded_ids(resources)
        seen: set[str] = set()
        for cell in reversed(nb.cells):
            meta = cell.metadata.get("nbgrader")
            if not isinstance(meta, dict) or not (meta.get("grade") or meta.get("solution") or meta.get("locked")):
                continue
            grade_id = meta.get("grade_id")
            if grade_id in seen or (known is not None and grade_id not in known) or not isinstance(grade_id, str):
                self.log.warning("Cell %r is not one of the lesson's graded cells (or a second copy): graded as an "
                                 "ordinary cell", grade_id)
                del cell.metadata["nbgrader"]
                cell.metadata.pop("editable", None)
                cell.metadata.pop("deletable", None)
            else:
                seen.add(grade_id)
        return nb, resources


class HiddenCases(NbGraderPreprocessor):
    """Run each graded test inside ``tilelab.exercises.hidden_cases(seed)``, the seed drawn at grading time."""

    seed = Integer(None, allow_none=True, help="A fixed seed (to grade again with the same cases; default: a "
                                                "new one per notebook, shown in its test cells)").tag(config=True)

    def preprocess(self, nb: NotebookNode, resources: ResourcesDict) -> tuple[NotebookNode, ResourcesDict]:
        seed = self.seed if self.seed is not None else secrets.randbits(62)
        for cell in nb.cells:
            if (cell.cell_type == "code" and utils.is_grade(cell) and not utils.is_solution(cell)
                    and exercise_of_test(cell.source)):
                cell.source = ("from tilelab.exercises import hidden_cases as _hidden_cases\n"
                               f"with _hidden_cases({seed}):  # random cases drawn at grading time\n"
                               + textwrap.indent(cell.source, "    ", lambda line: True))
        return nb, resources


class SandboxedExecute(Execute):
    """nbgrader's Execute with the kernel in bubblewrap, bounded output, and a dead kernel failing only what is left."""

    max_output = Integer(100_000, help="Characters of output a cell keeps (the rest is dropped).").tag(config=True)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("kernel_manager_class", SandboxedKernelManager)
        super().__init__(*args, **kwargs)
        self._dead: str | None = None
        self._kept: dict[int, int] = {}

    def preprocess(self, nb: NotebookNode, resources: ResourcesDict, km: Any = None) -> Any:
        self._dead, self._kept = None, {}
        return super().preprocess(nb, resources, km=km)

    def preprocess_cell(self, cell: NotebookNode, resources: ResourcesDict, index: int) -> Any:
        from nbclient.exceptions import DeadKernelError

        if cell.cell_type != "code":
            return super().preprocess_cell(cell, resources, index)
        if self._dead is not None:
            cell.outputs = [_error("KernelDied", f"not run: the kernel died in {self._dead}")]
            return cell, self.resources
        try:
            return super().preprocess_cell(cell, resources, index)
        except DeadKernelError:
            self._dead = f"code cell {1 + sum(c.cell_type == 'code' for c in self.nb.cells[:index])}"
            cell.outputs = list(cell.get("outputs", [])) + [
                _error("KernelDied", "the kernel died while this cell ran (os._exit, a crash, or out of memory)")]
            self.log.warning("The kernel died in %s: the rest of the notebook is not run", self._dead)
            return cell, self.resources

    def output(self, outs: list, msg: dict, display_id: Any, cell_index: int) -> Any:
        size = len(str(msg.get("content", "")))
        kept = self._kept.get(cell_index, 0)
        if kept >= self.max_output:
            return None
        self._kept[cell_index] = kept + size
        if kept + size > self.max_output:
            outs.append(nbformat.v4.new_output(
                "stream", name="stdout",
                text=f"\n[output stopped here: more than {self.max_output} characters]\n"))
            return None
        return super().output(outs, msg, display_id, cell_index)


def _error(name: str, text: str) -> NotebookNode:
    return nbformat.v4.new_output("error", ename=name, evalue=text, traceback=[f"{name}: {text}"])


class JudgeSource(NbGraderPreprocessor):
    """Refuse a graded test's point when the student's code may not count for it (reason in the feedback)."""

    def _lesson_cells(self, resources: ResourcesDict) -> tuple[set[str], set[str]]:
        """The sources and the cell ids of the lesson's ordinary code cells (the assignment's source notebook)."""
        info = resources.get("nbgrader", {})
        coursedir = CourseDirectory(parent=self)
        path = os.path.join(coursedir.format_path(coursedir.source_directory, ".", info.get("assignment", "")),
                            f"{info.get('notebook', '')}.ipynb")
        if not os.path.exists(path):
            return set(), set()
        nb = nbformat.read(path, as_version=4)
        ordinary = [c for c in nb.cells if c.cell_type == "code" and not (
            utils.is_grade(c) or utils.is_solution(c) or utils.is_locked(c))]
        return {c.source.strip() for c in ordinary}, {c.get("id") for c in ordinary if c.get("id")}

    def preprocess(self, nb: NotebookNode, resources: ResourcesDict) -> tuple[NotebookNode, ResourcesDict]:
        lesson, ids = self._lesson_cells(resources)
        cells = []
        code = [c for c in nb.cells if c.cell_type == "code"]
        for cell in code:
            if utils.is_grade(cell) and not utils.is_solution(cell):
                cells.append(Cell(cell.source, edited=False, test=cell.metadata.nbgrader["grade_id"]))
            elif utils.is_locked(cell):
                cells.append(Cell(cell.source, edited=False))  # restored from the gradebook
            else:
                edited = utils.is_solution(cell) or cell.source.strip() not in lesson
                ours = not utils.is_solution(cell) and cell.get("id") in ids
                cells.append(Cell(cell.source, edited=edited, lesson=ours))
        refused = refusals(cells)
        for cell in code:
            grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
            if utils.is_grade(cell) and grade_id in refused:
                reason = f"the grader refused this exercise: {refused[grade_id]}"
                self.log.warning("%s: %s", grade_id, reason)
                cell.outputs = [_error(REFUSED, reason)] + list(cell.outputs)
        return nb, resources


def configure(c: Any) -> None:
    """Put tilelab's preprocessors into ``nbgrader autograde`` (call it from the course's ``nbgrader_config.py``)."""
    from nbconvert.preprocessors import ClearMetadataPreprocessor
    from nbgrader.preprocessors import (AssignLatePenalties, CheckCellMetadata, ClearOutput, DeduplicateIds,
                                        IgnorePattern, LimitOutput, OverwriteCells, OverwriteKernelspec,
                                        SaveAutoGrades)

    from tilelab.teach.assignments import RequireGradingMetadata  # a notebook not from the release: named, ungraded

    c.Autograde.sanitize_preprocessors = [RequireGradingMetadata, ClearOutput, KeepGradeCells, DeduplicateIds,
                                          OverwriteKernelspec, OverwriteCells, CheckCellMetadata]
    c.Autograde.autograde_preprocessors = [HiddenCases, SandboxedExecute, JudgeSource, IgnorePattern, ClearMetadataPreprocessor,
                                           LimitOutput, SaveAutoGrades, AssignLatePenalties, CheckCellMetadata]
    # A flood of output or a slow kernel ends the cell, not the student's whole grading.
    c.SandboxedExecute.raise_on_iopub_timeout = False

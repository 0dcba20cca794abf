"""A teacher's kit: student editions, the course as a website, launch links, and grading with nbgrader.

Command line (``python -m tilelab.teach --help``)::

    python -m tilelab.teach student student/          # lessons without solutions
    python -m tilelab.teach site site/                # static HTML site of the course
    python -m tilelab.teach nbgrader course/          # an nbgrader course: every lesson an assignment

Conventions (cell tags in the lesson notebooks):

* ``solution``: a solution cell, removed from student editions;
* ``exercise``: the student's cell (a runnable stub and its ``check``), outputs cleared in student
  editions; an autograded answer cell in nbgrader assignments;
* ``teacher``: notes for the teacher, removed from student editions;
* ``deeper``: "Going deeper (optional)", kept everywhere.

>>> from tilelab.teach import SOLUTION_TAG, EXERCISE_TAG
>>> SOLUTION_TAG, EXERCISE_TAG
('solution', 'exercise')
"""

from __future__ import annotations

from tilelab.teach.lessons import (
    EXERCISE_TAG,
    SOLUTION_TAG,
    default_notebook_dir,
    lesson_paths,
    untagged_solutions,
)

__all__ = [
    "EXERCISE_TAG",
    "SOLUTION_TAG",
    "default_notebook_dir",
    "lesson_paths",
    "untagged_solutions",
]

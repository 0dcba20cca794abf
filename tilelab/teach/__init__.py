"""A teacher's kit: student editions, the course as a website, and grading a class.

Command line (``python -m tilelab.teach --help``)::

    python -m tilelab.teach student student/          # lessons without solutions
    python -m tilelab.teach site site/                # static HTML site of the course
    python -m tilelab.teach grade FOLDER --out results.csv

Conventions (cell tags in the lesson notebooks):

* ``solution``: a solution cell, removed from student editions;
* ``exercise``: the student's cell (a runnable stub and its ``check``), outputs cleared in student
  editions.

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

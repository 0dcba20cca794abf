"""Grading a class with nbgrader without trusting the student's kernel (see docs/grading.md).

- :mod:`tilelab.teach.grading.source`: the grader reads the code of every cell a student wrote or changed;
- :mod:`tilelab.teach.grading.nbgrader`: nbgrader preprocessors (keep the graded cells sound, refuse a test's
  point with its reason) and :func:`~tilelab.teach.grading.nbgrader.configure` for a course's nbgrader_config.py;
- :mod:`tilelab.teach.grading.sandbox`: each student's kernel runs in bubblewrap;
- :mod:`tilelab.teach.grading.run`: ``python -m tilelab.teach autograde LESSON``: one student at a time, a table.
"""

"""Shared test set-up: matplotlib draws off-screen, every test's figures are closed after it, and hypothesis
sets no per-example deadline (a wall-clock bound: the first example of a property may compile numba code, and
CI machines are shared, so a 200 ms deadline fails a correct test; properties that time something say so)."""

from __future__ import annotations

import sys

import matplotlib
import pytest
from hypothesis import settings

matplotlib.use("Agg")
settings.register_profile("tilelab", deadline=None)
settings.load_profile("tilelab")


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")

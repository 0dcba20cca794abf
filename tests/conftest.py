"""Shared test set-up: matplotlib draws off-screen, and every test's figures are closed after it."""

from __future__ import annotations

import sys

import matplotlib
import pytest

matplotlib.use("Agg")


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")

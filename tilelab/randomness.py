"""One way to turn a seed into a random generator, shared by every engine and widget.

``rng=`` is the one keyword for randomness (a seed or a ``numpy.random.Generator``); :func:`seeded_generator`
also returns the seed it used, drawing a fresh one from OS entropy when none is given (Gymnasium's ``np_random``), so a game
started without a seed can still be replayed.
"""

from __future__ import annotations

import numbers
from typing import Any, Sequence, TypeAlias, Union

import numpy as np

#: What every ``rng`` argument takes: a seed (a Python or numpy integer), a Generator, or None (fresh entropy).
RngLike: TypeAlias = Union[int, np.integer[Any], np.random.Generator, None]


def as_generator(rng: RngLike) -> np.random.Generator:
    """Return ``rng`` if it is a Generator, else ``numpy.random.default_rng(rng)``.

    There is no hidden global randomness in tilelab: every random step takes a Generator
    or a seed. ``None`` gives fresh OS entropy, which is only for interactive play.

    >>> g = as_generator(7)
    >>> as_generator(g) is g
    True
    >>> int(as_generator(7).integers(100)) == int(as_generator(7).integers(100))
    True
    """
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None:
        return np.random.default_rng()
    if isinstance(rng, numbers.Integral) and not isinstance(rng, bool):
        if int(rng) < 0:
            raise ValueError(f"a seed must be a non-negative integer, got {int(rng)}; use e.g. rng=0")
        return np.random.default_rng(int(rng))
    raise TypeError(
        f"expected a seed (int), a numpy.random.Generator or None, got {type(rng).__name__}; "
        "pass e.g. rng=numpy.random.default_rng(0) or rng=0"
    )


def outcome_at(outcomes: Sequence[tuple[Any, float]], u: float) -> Any:
    """The outcome a uniform draw ``u`` in [0, 1) picks from ``[(outcome, p)]``: walk the cumulative sum.

    The one chance sampler the engines share (a 2048 spawn, a match-3 refill).

    >>> outcome_at([("two", 0.9), ("four", 0.1)], 0.5), outcome_at([("two", 0.9), ("four", 0.1)], 0.95)
    ('two', 'four')
    """
    total = 0.0
    for outcome, p in outcomes:
        total += p
        if u < total:
            return outcome
    return outcomes[-1][0]  # u landed in the rounding gap just below 1.0


def seeded_generator(rng: RngLike) -> tuple[np.random.Generator, int | None]:
    """A Generator for ``rng`` and the seed it was made from (None when ``rng`` is a Generator already).

    With ``rng=None`` a fresh seed is drawn from OS entropy and returned, so the game can be replayed.

    >>> generator, seed = seeded_generator(None)
    >>> int(generator.integers(10**6)) == int(seeded_generator(seed)[0].integers(10**6))
    True
    >>> seeded_generator(7)[1]
    7
    """
    if rng is None:
        seed = int(np.random.SeedSequence().entropy)  # type: ignore[arg-type]  # an int when none was given
        return np.random.default_rng(seed), seed
    generator = as_generator(rng)
    return generator, (None if isinstance(rng, np.random.Generator) else int(rng))

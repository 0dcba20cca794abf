"""How candies look: one colour AND one shape per kind, shared by plots and the playable board.

Colours are the Okabe-Ito palette (distinguishable with the common colour-vision deficiencies);
the shapes alone already tell every kind apart, so the board also reads in greyscale.
Pure data: no drawing library is imported here.

>>> candy_style(0).name, candy_style(0).colour
('circle', '#E69F00')
>>> len({candy_style(k).name for k in range(len(CANDIES))}) == len(CANDIES)
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Point = tuple[float, float]


@dataclass(frozen=True)
class CandyStyle:
    """A kind's look: ``outline`` is a polygon in the unit box [-1, 1]^2 (y pointing down)."""

    name: str
    colour: str
    outline: tuple[Point, ...]


def _regular(n: int, radius: float = 0.9, turn: float = -90.0) -> tuple[Point, ...]:
    return tuple(
        (radius * math.cos(math.radians(turn + 360 * i / n)), radius * math.sin(math.radians(turn + 360 * i / n)))
        for i in range(n)
    )


def _star(points: int = 5, outer: float = 0.95, inner: float = 0.42) -> tuple[Point, ...]:
    out = []
    for i in range(2 * points):
        r = outer if i % 2 == 0 else inner
        a = math.radians(-90 + 180 * i / points)
        out.append((r * math.cos(a), r * math.sin(a)))
    return tuple(out)


def _plus(arm: float = 0.32, reach: float = 0.9) -> tuple[Point, ...]:
    a, b = arm, reach
    return ((-a, -b), (a, -b), (a, -a), (b, -a), (b, a), (a, a), (a, b), (-a, b), (-a, a), (-b, a), (-b, -a), (-a, -a))


def _rotate(points: tuple[Point, ...], degrees: float) -> tuple[Point, ...]:
    t = math.radians(degrees)
    return tuple((x * math.cos(t) - y * math.sin(t), x * math.sin(t) + y * math.cos(t)) for x, y in points)


CANDIES = (
    CandyStyle("circle", "#E69F00", _regular(32, 0.85)),  # orange
    CandyStyle("square", "#56B4E9", ((-0.75, -0.75), (0.75, -0.75), (0.75, 0.75), (-0.75, 0.75))),  # sky blue
    CandyStyle("triangle", "#009E73", ((0.0, -0.92), (0.92, 0.78), (-0.92, 0.78))),  # bluish green
    CandyStyle("diamond", "#F0E442", ((0.0, -0.95), (0.8, 0.0), (0.0, 0.95), (-0.8, 0.0))),  # yellow
    CandyStyle("star", "#0072B2", _star()),  # blue
    CandyStyle("hexagon", "#D55E00", _regular(6, 0.9, 0.0)),  # vermillion
    CandyStyle("plus", "#CC79A7", _plus()),  # reddish purple
    CandyStyle("drop", "#000000", ((0.0, -0.95), (0.55, 0.1), (0.6, 0.45), (0.3, 0.85), (-0.3, 0.85), (-0.6, 0.45), (-0.55, 0.1))),
    CandyStyle("cross", "#999999", _rotate(_plus(0.28), 45)),  # grey
    CandyStyle("pentagon", "#882255", _regular(5, 0.9)),  # wine
)
OUTLINE_COLOUR = "#333333"


def candy_style(kind: int) -> CandyStyle:
    """The look of ``kind`` (kinds past the palette reuse shapes with a new colour shade)."""
    if kind < 0:
        raise ValueError(f"kind {kind} has no candy (EMPTY is a hole)")
    base = CANDIES[kind % len(CANDIES)]
    if kind < len(CANDIES):
        return base
    return CandyStyle(f"{base.name}{kind // len(CANDIES) + 1}", base.colour, _rotate(base.outline, 20))

"""How special candies look, as pure data shared by the plots and the playable board.

Colour-blind safe: a special keeps its kind's colour AND shape, and adds a pattern that needs no
colour at all -- three dark-edged white stripes (horizontal: clears its row; vertical: clears its
column), a dashed square wrapper (wrapped; a second solid ring once primed), and the colour bomb is
its own shape: a dark disc with white sprinkles.

>>> [len(stripe_lines("striped-row")), len(stripe_lines("striped-col"))]
[3, 3]
>>> len(BOMB_SPRINKLES) >= 6
True
"""

from __future__ import annotations

import math

Segment = tuple[tuple[float, float], tuple[float, float]]

STRIPE_OFFSETS = (-0.45, 0.0, 0.45)  # in the unit box [-1, 1]^2 (y pointing down)
STRIPE_REACH = 0.7
STRIPE_COLOUR = "#ffffff"
STRIPE_EDGE = "#222222"
WRAPPER_COLOUR = "#222222"
WRAPPER_HALF = 1.12  # half-side of the wrapper square, in candy half-sizes
BOMB_COLOUR = "#3b2a20"
BOMB_RADIUS = 0.9
SPRINKLE_COLOUR = "#ffffff"
BOMB_SPRINKLES = tuple((0.5 * math.cos(math.radians(a)), 0.5 * math.sin(math.radians(a))) for a in range(0, 360, 45)) + ((0.0, 0.0),)


def stripe_lines(special: str) -> tuple[Segment, ...]:
    """The three stripe segments of a striped candy, in the unit box."""
    if special == "striped-row":
        return tuple(((-STRIPE_REACH, y), (STRIPE_REACH, y)) for y in STRIPE_OFFSETS)
    if special == "striped-col":
        return tuple(((x, -STRIPE_REACH), (x, STRIPE_REACH)) for x in STRIPE_OFFSETS)
    return ()

"""When a 2048 search stops: past its node limit, or once the clock passes its deadline.

The readable rule of every search's budget, in one place. The readable search
(:func:`tilelab.game2048.ai.readable_search`) calls these functions at every evaluated board; the compiled
search (:func:`tilelab.game2048.fast.kernels.count_node`) compiles these very functions and looks at the clock
every :data:`~tilelab.game2048.fast.kernels.CHECK_EVERY` nodes. How a deadline is *chosen* (the levels that
fit in the time left, a busy machine's lateness) is the budget's policy, :class:`tilelab.game2048.expectimax.Budget`.

>>> over_node_limit(101, 100), over_node_limit(10**9, 0), past_deadline(2.0, 1.0), past_deadline(2.0, 0.0)
(True, False, True, False)
"""

from __future__ import annotations

from tilelab.inputs import as_float, as_int

__all__ = ["check_node_limit", "check_deadline", "over_node_limit", "past_deadline"]


def check_node_limit(node_limit: int) -> int:
    """A node limit, a whole number >= 0 (0 = no limit), or a TypeError/ValueError naming it."""
    if type(node_limit) is int and node_limit >= 0:
        return node_limit
    return as_int(node_limit, "node_limit (0 = no limit)", minimum=0)


def check_deadline(deadline: float | None) -> float:
    """A perf_counter time, or 0.0 for none (the searches read 0 as "no deadline")."""
    if deadline is None:
        return 0.0
    if type(deadline) is float and 1e-9 <= deadline < float("inf"):
        return deadline
    return max(as_float(deadline, "deadline (a time.perf_counter() time)"), 1e-9)


def over_node_limit(nodes: int, limit: int) -> bool:
    """The search has visited more than ``limit`` nodes (a limit of 0 is none). Plain arithmetic: compiled as is."""
    return limit > 0 and nodes > limit


def past_deadline(now: float, deadline: float) -> bool:
    """The clock reads past the deadline (a deadline of 0.0 is none). Plain arithmetic: compiled as is."""
    return deadline > 0.0 and now > deadline

"""The fast twin of the sliding-puzzle search: IDA* compiled with numba.

A copy, not the rule: the readable search is :func:`tilelab.sliding.search.idastar_reference`, and the tests check
that both return the same solution and node count.

- :mod:`~tilelab.sliding.fast.idastar` -- the explicit-stack IDA* and the incremental heuristics.
"""

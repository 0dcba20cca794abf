"""The fast twin of the match-3 rules: the same rules on ``int8`` arrays, compiled by numba when it is there.

A copy, not the rule: the rules are :mod:`tilelab.match3.cascade` (plain candies) and
:mod:`tilelab.match3.special_rules` (special candies); the modules here import their constants (the cascade cap
:data:`tilelab.match3.cascade.MAX_CASCADES`, the scores) and the tests play both on the same seeds.

- :mod:`~tilelab.match3.fast.plain` -- plain candies: swap, cascade, legal moves, dead boards;
- :mod:`~tilelab.match3.fast.specials` -- special candies: one compiled cascade step, combos, random play.
"""

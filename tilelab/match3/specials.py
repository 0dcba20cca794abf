"""The older import path of the special-candy engine: every name here warns and names its home.

The rules are stated in :mod:`tilelab.match3.special_rules`; the engine lives in
:mod:`~tilelab.match3.special_board`, :mod:`~tilelab.match3.special_rules` and
:mod:`~tilelab.match3.special_reshuffle`, with :mod:`tilelab.match3` as their public face
(``from tilelab.match3 import SpecialBoard, swap_specials``). This module goes in tilelab 0.3.0.
"""

from tilelab._deprecation import moved

__getattr__, __dir__ = moved(__name__, {
    "NONE": "tilelab.match3.special_board:NONE",
    "ROW": "tilelab.match3.special_board:ROW",
    "COL": "tilelab.match3.special_board:COL",
    "WRAPPED": "tilelab.match3.special_board:WRAPPED",
    "PRIMED": "tilelab.match3.special_board:PRIMED",
    "BOMB": "tilelab.match3.special_board:BOMB",
    "SPECIAL_NAMES": "tilelab.match3.special_board:SPECIAL_NAMES",
    "NO_COLOUR": "tilelab.match3.special_board:NO_COLOUR",
    "SUFFIX": "tilelab.match3.special_board:SUFFIX",
    "BOMB_SYMBOL": "tilelab.match3.special_board:BOMB_SYMBOL",
    "BLAST_POINTS": "tilelab.match3.special_board:BLAST_POINTS",
    "COMBOS": "tilelab.match3.special_board:COMBOS",
    "ACTIVATION_BONUS": "tilelab.match3.special_board:ACTIVATION_BONUS",
    "SCORE_TABLE": "tilelab.match3.special_board:SCORE_TABLE",
    "SpecialBoard": "tilelab.match3.special_board:SpecialBoard",
    "new_special_board": "tilelab.match3.generate:new_special_board",
    "specials_count": "tilelab.match3.special_board:specials_count",
    "Activation": "tilelab.match3.special_rules:Activation",
    "Created": "tilelab.match3.special_rules:Created",
    "SpecialStep": "tilelab.match3.special_rules:SpecialStep",
    "SpecialSwapResult": "tilelab.match3.special_rules:SpecialSwapResult",
    "combo_of": "tilelab.match3.special_rules:combo_of",
    "is_valid_special_swap": "tilelab.match3.special_rules:is_valid_special_swap",
    "valid_moves_specials": "tilelab.match3.special_rules:valid_moves_specials",
    "is_dead_specials": "tilelab.match3.special_rules:is_dead_specials",
    "find_groups": "tilelab.match3.special_rules:find_groups",
    "special_for": "tilelab.match3.special_rules:special_for",
    "creation_cell": "tilelab.match3.special_rules:creation_cell",
    "most_common_colour": "tilelab.match3.special_rules:most_common_colour",
    "blast_cells": "tilelab.match3.special_rules:blast_cells",
    "combo_cells": "tilelab.match3.special_rules:combo_cells",
    "special_step": "tilelab.match3.special_rules:special_step",
    "special_fall": "tilelab.match3.special_rules:special_fall",
    "special_refill": "tilelab.match3.special_rules:special_refill",
    "resolve_specials": "tilelab.match3.special_rules:resolve_specials",
    "swap_specials": "tilelab.match3.special_rules:swap_specials",
    "all_cells": "tilelab.match3.special_rules:all_cells",
    "MAX_RESHUFFLE_TRIES": "tilelab.match3.special_reshuffle:MAX_RESHUFFLE_TRIES",
    "reshuffle_specials": "tilelab.match3.special_reshuffle:reshuffle_specials",
})

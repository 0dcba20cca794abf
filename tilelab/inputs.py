"""One rule for checking arguments, shared by every engine (standard library and numpy only)."""

from __future__ import annotations

import math
import numbers
from typing import Any, TypeGuard

import numpy as np


def is_int(value: object) -> TypeGuard[int | np.integer[Any]]:
    """True for a Python or numpy integer, False for bool, float, str and everything else.

    >>> [is_int(v) for v in (3, np.int64(3), True, 3.0, "3")]
    [True, True, False, False, False]
    """
    if type(value) is int or isinstance(value, np.integer):  # the common cases, without the slow ABC check
        return True
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def as_int(value: object, name: str, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """`value` as a Python int, or TypeError/ValueError naming `name` and the accepted range.

    Python and numpy integers are accepted; bool, float (even 3.0), str and None are refused.

    >>> as_int(np.int64(3), "rollouts", minimum=1)
    3
    >>> as_int(True, "rollouts")
    Traceback (most recent call last):
    TypeError: rollouts must be an integer, not bool (True)
    >>> as_int(0, "rollouts", minimum=1)
    Traceback (most recent call last):
    ValueError: rollouts must be at least 1, not 0
    """
    if not is_int(value):
        raise TypeError(f"{name} must be an integer, not {type(value).__name__} ({short_repr(value)})")
    result = int(value)
    if minimum is not None and result < minimum:
        raise ValueError(f"{name} must be at least {minimum}, not {result}")
    if maximum is not None and result > maximum:
        raise ValueError(f"{name} must be at most {maximum}, not {result}")
    return result


def as_float(
    value: object,
    name: str,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    finite: bool = True,
) -> float:
    """`value` (int or float, not bool or str) as a finite float in range, or an error naming `name`.

    >>> as_float(0.1, "p_four", minimum=0, maximum=1)
    0.1
    >>> as_float(float("nan"), "p_four")
    Traceback (most recent call last):
    ValueError: p_four must be a finite number, not nan
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, np.floating, np.integer)):
        raise TypeError(f"{name} must be a number, not {type(value).__name__} ({short_repr(value)})")
    result = float(value)
    if math.isnan(result) or (finite and math.isinf(result)):
        raise ValueError(f"{name} must be a finite number, not {result}")
    if minimum is not None and result < minimum:
        raise ValueError(f"{name} must be at least {minimum}, not {result}")
    if maximum is not None and result > maximum:
        raise ValueError(f"{name} must be at most {maximum}, not {result}")
    return result


def as_bool(value: object, name: str) -> bool:
    """`value` if it is a real bool (Python or numpy), else TypeError naming `name` ("false" is not False).

    >>> as_bool(np.bool_(True), "won")
    True
    >>> as_bool("false", "won")
    Traceback (most recent call last):
    TypeError: won must be True or False, not str ('false')
    """
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, not {type(value).__name__} ({short_repr(value)})")
    return bool(value)


def ascii_int(text: str, name: str) -> int:
    """An optionally signed run of ASCII digits as int; anything else (²,  ٢, 1_0, ' 1') is a ValueError.

    >>> ascii_int("-12", "tile")
    -12
    >>> ascii_int("\u0662", "tile")
    Traceback (most recent call last):
    ValueError: tile must be written with the digits 0-9, not '٢'
    """
    body = text[1:] if text[:1] in "+-" else text
    if not body or not body.isascii() or not body.isdigit():
        raise ValueError(f"{name} must be written with the digits 0-9, not {short_repr(text)}")
    return int(text)


def short_repr(value: object, limit: int = 40) -> str:
    """repr(value) cut to `limit` characters, so an error message never prints a huge argument."""
    try:
        text = repr(value)
    except Exception:  # a hostile __repr__ must not replace the real error
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."



"""Dice expressions as printed on datasheets: ``3``, ``D3``, ``D6``, ``2D6``, ``D6+3``, ``2D3+1``.

>>> dice("D6+1").mean()
Fraction(9, 2)
>>> dice("2d3").prob(4)
Fraction(1, 3)
"""

from __future__ import annotations

import re

from .cache import cached
from .pmf import PMF

ACCEPTED = "an integer >= 0 or NdS+K with S 3 or 6 (e.g. 3, D3, D6, 2D6, D6+3, 2D3+1)"

_DICE = re.compile(
    r"^(?:(?P<n>\d*)\s*D\s*(?P<sides>3|6)(?:\s*\+\s*(?P<plus>\d+))?|(?P<flat>\d+))$", re.I
)


@cached(maxsize=256)
def _parse(text: str) -> tuple[int, int, int]:
    m = _DICE.match(text.strip())
    if not m or m.group("n") == "0":
        raise ValueError(f"bad dice expression {text!r}: expected {ACCEPTED}")
    if m.group("flat") is not None:
        return 0, 0, int(m.group("flat"))
    return int(m.group("n") or 1), int(m.group("sides")), int(m.group("plus") or 0)


def parse_dice(value: int | str) -> tuple[int, int, int]:
    """``(count, sides, plus)`` for a dice expression; a flat number has count 0.

    >>> parse_dice("2D3+1"), parse_dice(4)
    ((2, 3, 1), (0, 0, 4))
    """
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError(f"bad dice expression {value!r}: expected {ACCEPTED}")
    if isinstance(value, int):
        if value < 0:
            raise ValueError(f"bad dice expression {value!r}: expected {ACCEPTED}")
        return 0, 0, value
    return _parse(value)


@cached(maxsize=256)
def _dice_pmf(count: int, sides: int, plus: int) -> PMF:
    return PMF.uniform(range(1, sides + 1)).repeat(count) + plus if count else PMF.point(plus)


def dice(value: int | str) -> PMF:
    """The distribution of a dice expression (an int is a fixed value).

    >>> dice(3) == PMF.point(3)
    True
    >>> dice("D7")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: bad dice expression 'D7': expected an integer >= 0 or NdS+K with S 3 or 6 ...
    """
    return _dice_pmf(*parse_dice(value))


def format_dice(value: int | str) -> str:
    """Canonical spelling: ``"d6 + 1"`` becomes ``"D6+1"``.

    >>> format_dice(" 2d3 + 1 "), format_dice(2)
    ('2D3+1', '2')
    """
    n, sides, plus = parse_dice(value)
    if not n:
        return str(plus)
    return f"{n if n > 1 else ''}D{sides}{f'+{plus}' if plus else ''}"

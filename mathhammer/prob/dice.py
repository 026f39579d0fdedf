"""Dice expressions as printed on datasheets: ``3``, ``D3``, ``D6``, ``2D6``, ``D6+3``, ``2D3+1``.

>>> dice("D6+1").mean()
Fraction(9, 2)
>>> dice("2d3").prob(4)
Fraction(1, 3)
>>> dice("D6+99999999")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
mathhammer.errors.InputError: dice expression 'D6+99999999': added number: 99999999 is over the ...
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType

from ..cache import cached
from ..errors import InputError
from ..limits import MAX_DICE, MAX_FLAT, over, shorten
from .pmf import PMF

ACCEPTED = "an integer >= 0 or NdS+K with S 3 or 6 (e.g. 3, D3, D6, 2D6, D6+3, 2D3+1)"

_DICE = re.compile(
    r"^(?:(?P<n>\d*)\s*D\s*(?P<sides>3|6)(?:\s*\+\s*(?P<plus>\d+))?|(?P<flat>\d+))$", re.I
)


@cached(maxsize=256)
def _parse(text: str) -> tuple[int, int, int]:
    m = _DICE.match(text.strip())
    if not m or m.group("n") == "0":
        raise InputError(f"bad dice expression {shorten(text)!r}: expected {ACCEPTED}")
    if m.group("flat") is not None:
        return 0, 0, _number(m.group("flat"), text, "number", MAX_FLAT, "MAX_FLAT")
    n = _number(m.group("n") or "1", text, "number of dice", MAX_DICE, "MAX_DICE")
    plus = _number(m.group("plus") or "0", text, "added number", MAX_FLAT, "MAX_FLAT")
    return n, int(m.group("sides")), plus


def _number(digits: str, text: str, part: str, limit: int, name: str) -> int:
    """A number of a dice expression, at most ``limit`` (checked before converting digits, so
    a thousand-digit number costs nothing)."""
    digits = digits.lstrip("0") or "0"
    if len(digits) > len(str(limit)) or int(digits) > limit:
        shown = digits if len(digits) <= 12 else f"a {len(digits)}-digit number"
        raise over(f"dice expression {shorten(text.strip())!r}: {part}", shown, limit, name)
    return int(digits)


#: The everyday spellings (``"3"``, ``"D6"``, ``"2D3+1"``: up to 4 dice, up to +6, flat up to
#: 20) parsed once at import: a constant table, as the module's code is (a query after
#: :func:`mathhammer.clear_caches` still finds them).
_EVERYDAY: dict[str, tuple[int, int, int]] = {
    **{str(k): (0, 0, k) for k in range(21)},
    **{f"{n if n > 1 else ''}D{sides}{f'+{plus}' if plus else ''}": (n, sides, plus)
       for n in range(1, 5) for sides in (3, 6) for plus in range(7)},
}


#: :data:`_EVERYDAY` for other modules, read-only (the canonical ability spellings are made
#: from it, :mod:`mathhammer.model.abilities`)
EVERYDAY: Mapping[str, tuple[int, int, int]] = MappingProxyType(_EVERYDAY)


def parse_dice(value: int | str) -> tuple[int, int, int]:
    """``(count, sides, plus)`` for a dice expression; a flat number has count 0.

    >>> parse_dice("2D3+1"), parse_dice(4)
    ((2, 3, 1), (0, 0, 4))
    """
    if type(value) is str and (found := _EVERYDAY.get(value)) is not None:
        return found  # an everyday spelling (every Weapon's own, mostly): at once
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise InputError(f"bad dice expression {value!r}: expected {ACCEPTED}")
    if isinstance(value, int):
        if value < 0:
            raise InputError(f"bad dice expression {value!r}: expected {ACCEPTED}")
        if value > MAX_FLAT:
            shown = str(value) if value < 10**12 else "a very large number"
            raise over("dice expression", shown, MAX_FLAT, "MAX_FLAT")
        return 0, 0, value
    found = _EVERYDAY.get(value)
    return found if found is not None else _parse(value)


def _made_pmf(count: int, sides: int, plus: int) -> PMF:
    if not count:
        return PMF.point(plus)
    law = PMF.uniform(range(1, sides + 1)).repeat(count)
    return law + plus if plus else law


#: The laws of the everyday expressions (up to 3 dice, up to +6, flat up to 20), made once
#: at import: tiny constants, kept like the module's code.
_EVERYDAY_PMF: dict[tuple[int, int, int], PMF] = {
    key: _made_pmf(*key) for key in _EVERYDAY.values() if key[0] <= 3}


#: which everyday expression each of those laws is (the laws are constants, kept for the
#: process: their ids stay theirs)
_EVERYDAY_KEY: dict[int, tuple[int, int, int]] = {id(law): key for key, law in
                                                  _EVERYDAY_PMF.items()}


def dice_sum(law: PMF, n: int) -> PMF:
    """The sum of ``n`` independent rolls of ``law`` (``law.repeat(n)``): the law of an
    everyday expression summed into another everyday one (three D6 of ``D6``) is found in the
    table at once.

    >>> dice_sum(dice("D6"), 3) is dice("3D6"), dice_sum(dice("D3+1"), 2) == dice("2D3+2")
    (True, True)
    """
    key = _EVERYDAY_KEY.get(id(law))
    if key is not None and n >= 1:
        count, sides, plus = key
        found = _EVERYDAY_PMF.get((count * n, sides, plus * n))
        if found is not None and _EVERYDAY_PMF[key] is law:
            return found
    return law.repeat(n)


@cached(maxsize=256)
def _dice_pmf(count: int, sides: int, plus: int) -> PMF:
    return _made_pmf(count, sides, plus)


def dice(value: int | str) -> PMF:
    """The distribution of a dice expression (an int is a fixed value).

    >>> dice(3) == PMF.point(3)
    True
    >>> dice("D7")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: bad dice expression 'D7': expected an integer >= 0 or NdS+K wi...
    """
    key = parse_dice(value)
    found = _EVERYDAY_PMF.get(key)
    return found if found is not None else _dice_pmf(*key)


def format_dice(value: int | str) -> str:
    """Canonical spelling: ``"d6 + 1"`` becomes ``"D6+1"``.

    >>> format_dice(" 2d3 + 1 "), format_dice(2)
    ('2D3+1', '2')
    """
    if type(value) is str and value in _EVERYDAY:  # the table's spellings are canonical
        return value
    n, sides, plus = parse_dice(value)
    if not n:
        return str(plus)
    return f"{n if n > 1 else ''}D{sides}{f'+{plus}' if plus else ''}"

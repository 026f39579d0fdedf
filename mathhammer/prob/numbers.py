"""Exact values as people read them: fractions, short fractions, decimals and percentages
computed with integer arithmetic (no float conversion of a huge Fraction), and JSON text.

>>> percent(Fraction(1, 3)), short_fraction(Fraction(1, 3))
('33.33%', '1/3')
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterator
from contextvars import ContextVar
from fractions import Fraction
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .pmf import PMF


# --- numbers -----------------------------------------------------------------------------------


def _int_text(n: int) -> str:
    """Every digit of ``n``, however long (Python refuses more than 4300 by default)."""
    try:
        return str(n)
    except ValueError:
        old = sys.get_int_max_str_digits()
        sys.set_int_max_str_digits(0)
        try:
            return str(n)
        finally:
            sys.set_int_max_str_digits(old)


def fraction(value: Fraction | int) -> str:
    """An exact value as ``"num/den"`` (always with a denominator, for parsers).

    >>> fraction(Fraction(10, 3)), fraction(5)
    ('10/3', '5/1')
    >>> len(fraction(Fraction(1, 6**6000)))  # 4669 digits: more than str() allows
    4671
    """
    value = Fraction(value)
    return f"{_int_text(value.numerator)}/{_int_text(value.denominator)}"


def short_fraction(value: Fraction | int) -> str:
    """An exact value as printed for people: ``"10/3"``, ``"5"``.

    >>> short_fraction(Fraction(4, 2))
    '2'
    """
    value = Fraction(value)
    return fraction(value) if value.denominator != 1 else _int_text(value.numerator)


#: Human reports show an exact fraction only up to this many characters (``--json`` has all).
FRACTION_WIDTH = 30


def readable_fraction(value: Fraction | int, width: int = FRACTION_WIDTH) -> str:
    """:func:`short_fraction` when it has at most ``width`` characters, else the size of its
    numerator and denominator.

    >>> readable_fraction(Fraction(1, 3)), readable_fraction(Fraction(1, 6**40))
    ('1/3', '[1/32 digits]')
    """
    text = short_fraction(value)
    if len(text) <= width:
        return text
    num, _, den = text.partition("/")
    return f"[{len(num.lstrip('-'))}/{len(den)} digits]"


def is_long(value: Fraction | int, width: int = FRACTION_WIDTH) -> bool:
    """Whether :func:`readable_fraction` shortens ``value``."""
    return readable_fraction(value, width) != short_fraction(value)


def decimal(value: Fraction | int, places: int = 3) -> str:
    """``value`` rounded to ``places`` decimals (half to even) with integer arithmetic, so any
    exact value prints; beyond 10**15 in scientific notation.

    >>> decimal(Fraction(2, 3)), decimal(Fraction(-1, 8), 2), decimal(10**400 + 1, 2)
    ('0.667', '-0.12', '1.00e+400')
    """
    value = Fraction(value)
    if abs(value) >= 10**15:
        sign = "-" if value < 0 else ""
        whole = abs(value.numerator) // value.denominator
        exp = len(_int_text(whole)) - 1
        mantissa = round(Fraction(whole, 10 ** (exp - places)))
        if mantissa >= 10 ** (places + 1):
            mantissa, exp = round(Fraction(mantissa, 10)), exp + 1
        digits = str(mantissa)
        return f"{sign}{digits[0]}{'.' * bool(places)}{digits[1:]}e+{exp}"
    q = round(value * 10**places)
    sign = "-" if q < 0 else ""
    whole, part = divmod(abs(q), 10**places)
    return f"{sign}{whole}.{part:0{places}d}" if places else f"{sign}{whole}"


def as_float(value: Fraction | int) -> float | None:
    """``float(value)``, or None when it is too large for a float (JSON then has only the
    exact value).

    >>> as_float(Fraction(1, 4)), as_float(10**400)
    (0.25, None)
    """
    try:
        return float(value)
    except OverflowError:
        return None


def percent(p: Fraction, places: int = 2) -> str:
    """A probability as a percentage; a tiny non-zero one is ``"<0.01%"``, never ``"0.00%"``.

    >>> percent(Fraction(1, 3)), percent(Fraction(1, 10**9)), percent(Fraction(0))
    ('33.33%', '<0.01%', '0.00%')
    >>> percent(1 - Fraction(1, 10**9))
    '>99.99%'
    """
    floor = Fraction(1, 10**places) / 100
    if 0 < p < floor:
        return f"<{decimal(floor * 100, places)}%"
    if 1 - floor < p < 1:
        return f">{decimal((1 - floor) * 100, places)}%"
    return f"{decimal(Fraction(p) * 100, places)}%"


#: JSON output shows an exact value only up to this many characters, a longer one by the
#: digit counts of its numerator and denominator (``"[9044/9542 digits]"``), unless
#: :func:`full_fractions` (``--full-fractions``) asks for every digit.
JSON_FRACTION_WIDTH = 1000
_JSON_WIDTH: ContextVar[int | None] = ContextVar("json_fraction_width",
                                                 default=JSON_FRACTION_WIDTH)


@contextlib.contextmanager
def full_fractions(full: bool = True) -> Iterator[None]:
    """Within the block, JSON output has every digit of every exact value."""
    token = _JSON_WIDTH.set(None if full else JSON_FRACTION_WIDTH)
    try:
        yield
    finally:
        _JSON_WIDTH.reset(token)


def digits(n: int) -> int:
    """The number of decimal digits of ``n`` (without a sign), without writing them out.

    >>> digits(0), digits(-999), digits(10**5000)
    (1, 3, 5001)
    """
    import gmpy2

    m = abs(gmpy2.mpz(n))
    d = int(m.num_digits(10))
    return d - 1 if d > 1 and m < gmpy2.mpz(10) ** (d - 1) else d


def json_fraction(value: Fraction | int) -> str:
    """:func:`fraction` for JSON: up to :data:`JSON_FRACTION_WIDTH` characters (unless
    :func:`full_fractions`), a longer value as its size.

    >>> json_fraction(Fraction(1, 3)), json_fraction(Fraction(1, 10**2000))
    ('1/3', '[1/2001 digits]')
    >>> with full_fractions():
    ...     len(json_fraction(Fraction(1, 10**2000)))
    2003
    """
    value = Fraction(value)
    width = _JSON_WIDTH.get()
    if width is not None:
        num, den = digits(value.numerator), digits(value.denominator)
        if num + den + 1 + (value < 0) > width:
            return f"[{num}/{den} digits]"
    return fraction(value)


def exact_and_float(value: Fraction) -> dict[str, Any]:
    return {"exact": json_fraction(value), "float": as_float(value)}


def pmf_json(pmf: PMF) -> dict[str, str]:
    """A PMF over integers as ``{"k": "num/den"}`` (each value as :func:`json_fraction`; one
    too long is sized as it is stored, over the PMF's common denominator, so the size of a
    huge distribution costs no reduction).

    >>> from mathhammer.prob.pmf import PMF
    >>> pmf_json(PMF({0: 1, 2: 3}))
    {'0': '1/4', '2': '3/4'}
    """
    width, total = _JSON_WIDTH.get(), pmf.total
    if width is None:
        return {str(k): fraction(Fraction(w, total)) for k, w in pmf.weights().items()}
    den = digits(total)
    out = {}
    for k, w in pmf.weights().items():
        num = digits(w)
        out[str(k)] = (f"[{num}/{den} digits]" if num + den + 1 > width
                       else fraction(Fraction(w, total)))
    return out


def to_json(data: Any) -> str:
    """JSON text as mathhammer writes it (indented, key order kept, ends with a new line)."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"

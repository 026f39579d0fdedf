"""Big integers for the packed chains: gmpy2's ``mpz`` (GMP) when it is installed, else ``int``.

The engine packs many exact weights into one integer (see
:func:`mathhammer.prob.markov.tallied_chain`); GMP multiplies and shifts such numbers
several times faster than Python's own integers. Results are converted back to ``int``, so
nothing else sees the difference.

>>> int(big(2) ** 100) == 2 ** 100
True
"""

from __future__ import annotations

from math import gcd as _int_gcd

try:
    from gmpy2 import gcd as _gmp_gcd
    from gmpy2 import mpz as big
except ImportError:  # pragma: no cover - gmpy2 is a dependency; plain ints give the same answers
    big = int
    _gmp_gcd = None


def gcd(a: int, b: int) -> int:
    """The greatest common divisor (GMP's, much faster on numbers of thousands of digits).

    >>> gcd(12, 18)
    6
    """
    if _gmp_gcd is None or (a < 1 << 256 and b < 1 << 256):
        return _int_gcd(a, b)
    return int(_gmp_gcd(a, b))


__all__ = ["big", "gcd"]

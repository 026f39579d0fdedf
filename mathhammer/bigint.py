"""Big integers for the packed chains: gmpy2's ``mpz`` (GMP) when it is installed, else ``int``.

The engine packs many exact weights into one integer (see
:func:`mathhammer.allocation.tallied_chain`); GMP multiplies and shifts such numbers several times
faster than Python's own integers. Results are converted back to ``int``, so nothing else sees
the difference.

>>> int(big(2) ** 100) == 2 ** 100
True
"""

from __future__ import annotations

try:
    from gmpy2 import mpz as big
except ImportError:  # pragma: no cover - gmpy2 is a dependency; plain ints give the same answers
    big = int

__all__ = ["big"]

"""Big integers for the packed chains: gmpy2's ``mpz`` (GMP) when it is installed, else ``int``.

The engine packs many exact weights into one integer (see
:func:`mathhammer.prob.markov.tallied_chain`); GMP multiplies and shifts such numbers
several times faster than Python's own integers. Results are converted back to ``int``, so
nothing else sees the difference.

>>> int(big(2) ** 100) == 2 ** 100
True
"""

from __future__ import annotations

import sys
from array import array
from math import gcd as _int_gcd

_WORDS = array("Q").itemsize == 8  # digits of 8 bytes packed and unpacked by array
_SMALL_BITS = 4096  # below this, Python's own integers are about as fast as GMP's
_GMP_DIGITS = 16  # from so many digits wider than a word, GMP packs them (faster)
_GMP_BITS = 2048  # and unpacks those of a number so large (measured: below, about as fast)
_gmp = None  # gmpy2, imported on first use: its import alone takes ~40 ms of a command's start


def _gmpy2():
    global _gmp
    if _gmp is None:
        try:
            import gmpy2 as _gmp
        except ImportError:  # pragma: no cover - gmpy2 is a dependency; ints give the same answers
            _gmp = False
    return _gmp


def big(value: int, *, bits: int | None = None):
    """``value`` as GMP's ``mpz`` (when gmpy2 is installed), or as it is when ``bits`` says
    the numbers it will be used with stay small enough for Python's own integers.

    >>> big(2 ** 5000) == 2 ** 5000, type(big(3, bits=64)) is int
    (True, True)
    """
    if bits is not None and bits < _SMALL_BITS:
        return value
    gmp = _gmpy2()
    return gmp.mpz(value) if gmp else value


def gcd(a: int, b: int) -> int:
    """The greatest common divisor (GMP's, much faster on numbers of thousands of digits).

    >>> gcd(12, 18)
    6
    """
    if a < 1 << 256 and b < 1 << 256:
        return _int_gcd(a, b)
    gmp = _gmpy2()
    return int(gmp.gcd(a, b)) if gmp else _int_gcd(a, b)


def digit_width(bound: int) -> int:
    """Bytes per digit for packed numbers none of which exceeds ``bound``.

    >>> digit_width(255), digit_width(2 ** 64)
    (8, 9)
    """
    return max(8, (bound.bit_length() + 8) // 8)  # 8: packed and unpacked by array


def pack(digits: dict[int, int], width: int, *, bits: int | None = None):
    """The non-negative integers ``digits`` (position -> value) as the ``width``-byte digits of
    one big integer (Kronecker substitution: a polynomial as a number); ``bits``: how large
    the numbers computed from it grow (see :func:`big`).

    >>> int(pack({0: 1, 2: 3}, 1)) == 1 + 3 * 256 ** 2
    True
    """
    top = max(digits) + 1
    if width == 8 and _WORDS:
        words = array("Q", bytes(8 * top))
        for i, d in digits.items():
            words[i] = d
        raw = words.tobytes() if sys.byteorder == "little" else _swapped(words)
    elif top >= _GMP_DIGITS and (gmp := _gmpy2()):  # wide digits: GMP packs them at once
        get = digits.get
        number = gmp.pack([get(i, 0) for i in range(top)], 8 * width)
        return number if bits is None or bits >= _SMALL_BITS else int(number)
    else:
        zero = bytes(width)
        raw = b"".join(digits[i].to_bytes(width, "little") if i in digits else zero
                       for i in range(top))
    return big(int.from_bytes(raw, "little"), bits=bits)


def unpack(number, width: int, offset: int = 0) -> dict[int, int]:
    """The non-zero ``width``-byte digits of ``number``: position (plus ``offset``) -> value,
    in order of position.

    >>> unpack(pack({0: 1, 2: 3}, 2), 2), unpack(pack({0: 1, 2: 3}, 8), 8, 5)
    ({0: 1, 2: 3}, {5: 1, 7: 3})
    """
    if width != 8 and number.bit_length() >= _GMP_BITS and (gmp := _gmpy2()):
        # wide digits: GMP cuts them at once (Python's bytes conversions cost ~20
        # instructions a byte each way)
        return {i: int(w) for i, w in enumerate(gmp.unpack(number, 8 * width), offset) if w}
    number = int(number)
    slots = -(-((number.bit_length() + 7) // 8) // width)
    raw = number.to_bytes(slots * width, "little")
    if width == 8 and _WORDS:
        words = array("Q", raw)
        if sys.byteorder != "little":
            words.byteswap()
        return {i: w for i, w in enumerate(words, offset) if w}
    return {i + offset: w for i in range(slots)
            if (w := int.from_bytes(raw[i * width:(i + 1) * width], "little"))}


def split(number, width: int, radix: int) -> list:
    """The ``width``-byte digits of ``number`` dealt into ``radix`` numbers: the ``d``-th
    holds the digits at positions ``d``, ``d + radix``, ``d + 2 radix``, ... as its own
    digits, in order (the lowest of mixed-radix digits cut out, one number per value).

    >>> [unpack(x, 8) for x in split(pack({0: 1, 1: 2, 2: 3, 3: 4, 4: 5}, 8), 8, 2)]
    [{0: 1, 1: 3, 2: 5}, {0: 2, 1: 4}]
    """
    if radix == 1:
        return [number]
    if (gmp := _gmpy2()):
        digits = gmp.unpack(gmp.mpz(number), 8 * width)
        return [gmp.pack(digits[d::radix], 8 * width) if d < len(digits) else gmp.mpz(0)
                for d in range(radix)]
    parts: list[dict[int, int]] = [{} for _ in range(radix)]  # pragma: no cover - no gmpy2
    for i, w in unpack(number, width).items():
        parts[i % radix][i // radix] = w
    return [pack(p, width) if p else 0 for p in parts]


def _swapped(words: array) -> bytes:
    out = array("Q", words)
    out.byteswap()
    return out.tobytes()


__all__ = ["big", "digit_width", "gcd", "pack", "split", "unpack"]

"""Exact probability mass functions: integer weights over one common denominator.

Why one module: PMF and its integer fast paths (packed products, Horner sums) are one value
type; the helpers only serve its methods.

A :class:`PMF` keeps non-negative integer weights over one common denominator; the
probability of an outcome is its weight divided by the total weight. Weights are kept reduced
(their gcd is 1), so equal distributions have equal weights and compare equal. To its users a
PMF is a read-only mapping of outcomes to exact probabilities (:class:`fractions.Fraction`),
0 for an outcome it never gives (as a :class:`collections.Counter` counts 0):

>>> d3 = PMF.uniform([1, 2, 3])
>>> (d3 + d3)[4], (d3 + d3)[7], 7 in d3 + d3, list(d3 + d3), len(d3 + d3)
(Fraction(1, 3), Fraction(0, 1), False, [2, 3, 4, 5, 6], 5)
>>> d3.mean(), d3.variance(), d3.median(), round(d3.std(), 4)
(Fraction(2, 1), Fraction(2, 3), 2, 0.8165)
"""

from __future__ import annotations

import operator
from collections.abc import Callable, ItemsView, Iterable, Iterator, Mapping, ValuesView
from fractions import Fraction
from math import comb, isfinite, lcm, sqrt
from math import gcd as _gcd
from typing import Any

from ..errors import InputError
from .bigint import big, digit_width, pack, unpack

Outcome = Any  # an int, a TargetState or a tuple of them: mixed in one module, so not checked


def _check(name: str, ok: bool, expected: str, value: Any) -> None:
    """A TypeError naming the argument when ``ok`` is false."""
    if not ok:
        text = repr(value)
        raise TypeError(f"{name}: expected {expected}, got "
                        f"{text if len(text) <= 40 else text[:39] + '…'}")


def _probability(name: str, p: Any) -> None:
    _check(name, isinstance(p, int | Fraction) and not isinstance(p, bool),
           "a Fraction or int", p)
    if not 0 <= p <= 1:
        raise InputError(f"{name}: expected a probability from 0 to 1, got {p}")


class PMF(Mapping[Outcome, Fraction]):
    """An immutable exact distribution over hashable outcomes: a read-only mapping of each
    outcome to its probability. ``pmf[k]`` is 0 for an outcome outside the support, while
    ``k in pmf``, ``len``, iteration (over outcomes, in order) and ``get`` see the support only.

    >>> coin = PMF({0: 1, 1: 1})
    >>> dict(coin)
    {0: Fraction(1, 2), 1: Fraction(1, 2)}
    >>> coin[1], coin[2], 2 in coin, coin.get(2), list(coin.items())[0]
    (Fraction(1, 2), Fraction(0, 1), False, None, (0, Fraction(1, 2)))
    >>> coin == PMF({0: 5, 1: 5})
    True
    """

    __slots__ = ("_weights", "_total", "_hash")

    def __init__(self, weights: Mapping[Outcome, int] | Iterable[tuple[Outcome, int]]):
        if type(weights) is dict and weights and set(map(type, weights.values())) == {
                int} and min(weights.values()) >= 0:  # the common case, checked at once
            clean = {k: w for k, w in weights.items() if w}
            if clean:
                self._settle(clean)
                return
        _check("weights", isinstance(weights, Mapping | Iterable) and not isinstance(
            weights, str | bytes), "a mapping or (outcome, weight) pairs", weights)
        items = weights.items() if isinstance(weights, Mapping) else weights
        clean = {}
        for outcome, weight in items:
            if not isinstance(weight, int) or weight < 0:
                raise InputError(f"PMF weight of {outcome!r}: expected an int >= 0, got {weight!r}")
            if weight:
                clean[outcome] = clean.get(outcome, 0) + weight
        if not clean:
            raise InputError("a PMF needs at least one outcome with positive weight")
        self._settle(clean)

    def _settle(self, clean: dict[Outcome, int]) -> None:
        """Keep ``clean`` (positive int weights) reduced by their gcd, sorted by outcome."""
        g = _gcd(*clean.values())  # C; it stops once the running gcd is 1
        if g > 1:
            clean = {k: w // g for k, w in clean.items()}
        if len(clean) > 1:
            try:
                order = sorted(clean)  # the outcomes compared alone, not (outcome, weight)
            except TypeError:  # unorderable outcomes keep insertion order
                clean = dict(clean)
            else:
                if order != list(clean):  # most laws are made in order: kept as they are
                    clean = {k: clean[k] for k in order}
        self._weights = clean
        self._total = sum(clean.values())
        self._hash: int | None = None

    @classmethod
    def _trusted(cls, clean: dict[Outcome, int]) -> PMF:
        """A PMF of weights the methods below computed (positive ints, at least one): the
        checks of ``__init__`` skipped, the weights reduced and sorted as always."""
        pmf = object.__new__(cls)
        pmf._settle(clean)
        return pmf

    @classmethod
    def _in_order(cls, clean: dict[Outcome, int]) -> PMF:
        """:meth:`_trusted` of weights already in the outcomes' order: reduced, not sorted."""
        g = _gcd(*clean.values())
        if g > 1:
            clean = {k: w // g for k, w in clean.items()}
        pmf = object.__new__(cls)
        pmf._weights = clean
        pmf._total = sum(clean.values())
        pmf._hash = None
        return pmf

    @classmethod
    def _reduced(cls, clean: dict[Outcome, int], total: int, ordered: bool = True) -> PMF:
        """A PMF of weights known reduced (positive ints whose gcd is 1, summing to ``total``),
        in order unless ``ordered`` is false (then sorted): a sum of independent integer laws,
        whose weights are a product of reduced polynomials (Gauss's lemma: their content is
        1), needs no gcd."""
        pmf = object.__new__(cls)
        if not ordered and len(clean) > 1:
            order = sorted(clean)
            if order != list(clean):
                clean = {k: clean[k] for k in order}
        pmf._weights = clean
        pmf._total = total
        pmf._hash = None
        return pmf

    # --- construction -------------------------------------------------------------------
    @classmethod
    def point(cls, outcome: Outcome) -> PMF:
        """The distribution that is always ``outcome``.

        >>> PMF.point(3).prob(3)
        Fraction(1, 1)
        """
        return cls._reduced({outcome: 1}, 1)

    @classmethod
    def uniform(cls, outcomes: Iterable[Outcome]) -> PMF:
        """Each listed outcome equally likely (repeats count twice).

        >>> PMF.uniform(range(1, 7)).prob(6)
        Fraction(1, 6)
        """
        _check("outcomes", isinstance(outcomes, Iterable), "an iterable of outcomes", outcomes)
        weights: dict[Outcome, int] = {}
        for o in outcomes:
            weights[o] = weights.get(o, 0) + 1
        return cls(weights)

    @classmethod
    def from_probs(cls, probs: Mapping[Outcome, Fraction | int]) -> PMF:
        """Build from exact probabilities (which must sum to 1).

        >>> PMF.from_probs({0: Fraction(1, 3), 1: Fraction(2, 3)}).mean()
        Fraction(2, 3)
        """
        _check("probs", isinstance(probs, Mapping), "a mapping of outcomes to probabilities",
               probs)
        fr = {k: Fraction(v) for k, v in probs.items()}
        if sum(fr.values()) != 1 or any(v < 0 for v in fr.values()):
            raise InputError("probabilities must be non-negative and sum to exactly 1")
        den = lcm(*(v.denominator for v in fr.values()))
        return cls({k: int(v * den) for k, v in fr.items()})

    @classmethod
    def bernoulli(cls, p: Fraction) -> PMF:
        """1 with probability ``p``, else 0.

        >>> PMF.bernoulli(Fraction(1, 3)).prob(1)
        Fraction(1, 3)
        """
        _probability("p", p)
        p = Fraction(p)
        return cls({1: p.numerator, 0: p.denominator - p.numerator})

    @classmethod
    def binomial(cls, n: int, p: Fraction) -> PMF:
        """Number of successes in ``n`` independent trials of probability ``p``.

        >>> PMF.binomial(2, Fraction(1, 2)) == PMF({0: 1, 1: 2, 2: 1})
        True
        """
        _check("n", isinstance(n, int) and not isinstance(n, bool), "an int", n)
        _probability("p", p)
        return cls.bernoulli(p).repeat(n)

    @staticmethod
    def mix(parts: Iterable[tuple[int | Fraction, PMF]]) -> PMF:
        """The mixture: pick a part with probability proportional to its weight.

        >>> PMF.mix([(1, PMF.point(0)), (3, PMF.point(1))]).prob(1)
        Fraction(3, 4)
        """
        _check("parts", isinstance(parts, Iterable), "(weight, PMF) pairs", parts)
        parts = list(parts)
        if all(type(part) is tuple and len(part) == 2 and type(part[0]) is int
               and part[0] >= 0 and isinstance(part[1], PMF) for part in parts):
            parts = [(w, p) for w, p in parts if w]  # integer weights: checked at once
        else:
            for part in parts:
                _check("parts", isinstance(part, tuple) and len(part) == 2 and isinstance(
                    part[1], PMF) and isinstance(part[0], int | Fraction),
                    "(weight, PMF) pairs", part)
            for w, _p in parts:
                if w < 0:
                    raise InputError(f"a mixture's weights must be >= 0, got {w}")
        if any(type(w) is not int for w, _p in parts):
            fr = [(Fraction(w), p) for w, p in parts if w]
            wden = lcm(*(w.denominator for w, _ in fr))
            ints = [(int(w * wden), p) for w, p in fr]
        else:
            ints = [(w, p) for w, p in parts if isinstance(w, int)]  # every weight an int here
        if not ints:
            raise InputError("a mixture needs at least one part with positive weight")
        common = lcm(*(p._total for _, p in ints))
        out: dict[Outcome, int] = {}
        get = out.get
        for w, p in ints:
            scale = w * (common // p._total)
            for k, v in p._weights.items():
                out[k] = get(k, 0) + v * scale
        return PMF._trusted(out)

    # --- access -------------------------------------------------------------------------
    @property
    def total(self) -> int:
        """The common denominator of every probability (sum of the reduced weights)."""
        return self._total

    def weights(self) -> dict[Outcome, int]:
        """Integer weights over :attr:`total` (a copy)."""
        return dict(self._weights)

    def outcomes(self) -> list[Outcome]:
        return list(self._weights)

    def prob(self, outcome: Outcome) -> Fraction:
        """P(X == outcome), the same as ``pmf[outcome]``."""
        return Fraction(self._weights.get(outcome, 0), self._total)

    # --- the Mapping protocol (outcome -> exact probability) ----------------------------------
    __getitem__ = prob

    def __iter__(self) -> Iterator[Outcome]:
        """The outcomes with a positive probability, in order."""
        return iter(self._weights)

    def __len__(self) -> int:
        return len(self._weights)

    def __contains__(self, outcome: object) -> bool:
        return outcome in self._weights

    def get(self, outcome: Outcome, default: Any = None) -> Any:
        """P(X == outcome) for an outcome of the support, else ``default`` (as ``dict.get``).

        >>> PMF({0: 1, 1: 3}).get(1), PMF({0: 1}).get(5, 0)
        (Fraction(3, 4), 0)
        """
        w = self._weights.get(outcome)
        return default if w is None else Fraction(w, self._total)

    def items(self) -> ItemsView:
        """``(outcome, probability)`` pairs, in order."""
        return _Items(self)

    def values(self) -> ValuesView:
        """The probabilities, in the outcomes' order."""
        return _Values(self)

    def _pairs(self) -> Iterator[tuple[Outcome, Fraction]]:
        t = self._total
        return ((o, Fraction(w, t)) for o, w in self._weights.items())

    def at_least(self, k: Any) -> Fraction:
        """P(X >= k).

        >>> PMF.uniform(range(1, 7)).at_least(5)
        Fraction(1, 3)
        """
        return Fraction(sum(w for o, w in self._weights.items() if o >= k), self._total)

    def at_most(self, k: Any) -> Fraction:
        """P(X <= k)."""
        return Fraction(sum(w for o, w in self._weights.items() if o <= k), self._total)

    def cdf(self) -> dict[Outcome, Fraction]:
        """P(X <= k) for each outcome k, in order.

        >>> PMF.uniform([0, 1]).cdf()
        {0: Fraction(1, 2), 1: Fraction(1, 1)}
        """
        out, run = {}, 0
        for o, w in self._weights.items():
            run += w
            out[o] = Fraction(run, self._total)
        return out

    def mean(self) -> Fraction:
        return Fraction(sum(o * w for o, w in self._weights.items()), self._total)

    def variance(self) -> Fraction:
        m = self.mean()
        return Fraction(sum(o * o * w for o, w in self._weights.items()), self._total) - m * m

    def std(self) -> float:
        """The standard deviation, as a float (:meth:`variance` is exact).

        >>> PMF.uniform([0, 2]).std()  # variance 1
        1.0
        """
        return sqrt(self.variance())

    def quantile(self, p: Fraction | int | float) -> Outcome:
        """The smallest outcome k with P(X <= k) >= p (the lower quantile; ``p`` from 0 to
        1, exact; a float is read as the decimal it prints as, 0.9 as 9/10).

        This is icepool's ``quantile_low`` and ``statistics.median_low``'s rule: the answer is
        always an outcome, never an average of two.

        >>> d6 = PMF.uniform(range(1, 7))
        >>> d6.quantile(Fraction(1, 2)), d6.quantile(0.9), d6.quantile(0), d6.quantile(1)
        (3, 6, 1, 6)
        """
        if isinstance(p, float) and not isinstance(p, bool):
            p = Fraction(repr(p)) if isfinite(p) else p
        _probability("p", p)
        need, run = p * self._total, 0  # the first outcome whose cumulative weight reaches it
        for o, w in self._weights.items():
            run += w
            if run >= need:
                return o
        raise AssertionError("unreachable: the weights sum to the total")

    def median(self) -> Outcome:
        """The lower median: the smallest k with P(X <= k) >= 1/2, always an outcome (for a
        D6, 3; icepool's ``median()`` would average the two middle outcomes to 3.5).

        >>> PMF({0: 1, 1: 2, 2: 1}).median(), PMF.uniform(range(1, 7)).median()
        (1, 3)
        """
        return self.quantile(Fraction(1, 2))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PMF):
            return NotImplemented
        return self._weights == other._weights

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._weights.items()))
        return self._hash

    def __repr__(self) -> str:
        body = ", ".join(f"{o!r}: {w}" for o, w in self._weights.items())
        return f"PMF({{{body}}})  # /{self._total}"

    # --- displays (mathhammer.prob.display, imported only when asked) ------------------------
    def _repr_html_(self) -> str:
        """A table for Jupyter: outcome, exact probability, %, P(>= k) and a bar."""
        from .display import pmf_html

        return pmf_html(self)

    def to_dataframe(self) -> Any:
        """A pandas DataFrame (``pip install "mathhammer[notebook]"``): one row per outcome,
        ``p`` and ``at_least`` exact (Fractions, an object column) beside float columns."""
        from .display import pmf_frame

        return pmf_frame(self)

    # --- transforms ---------------------------------------------------------------------
    def map(self, f: Callable[[Outcome], Outcome]) -> PMF:
        """Distribution of ``f(X)``.

        >>> PMF.uniform(range(1, 7)).map(lambda r: r >= 5).prob(True)
        Fraction(1, 3)
        """
        _check("f", callable(f), "a function", f)
        out: dict[Outcome, int] = {}
        for o, w in self._weights.items():
            k = f(o)
            out[k] = out.get(k, 0) + w
        return PMF._trusted(out)

    def bind(self, f: Callable[[Outcome], PMF]) -> PMF:
        """Distribution of ``f(X)`` where ``f`` returns a PMF per outcome (a mixture).

        >>> PMF.uniform([1, 2]).bind(lambda n: PMF.uniform(range(n))).prob(0)
        Fraction(3, 4)
        """
        _check("f", callable(f), "a function returning a PMF", f)
        return PMF.mix((w, f(o)) for o, w in self._weights.items())

    def convolve(self, other: PMF, op: Callable[[Any, Any], Any] = operator.add) -> PMF:
        """Distribution of ``op(X, Y)`` for independent X ~ self, Y ~ other.

        >>> d6 = PMF.uniform(range(1, 7))
        >>> d6.convolve(d6).prob(7)
        Fraction(1, 6)
        >>> PMF.point(1).convolve(None)
        Traceback (most recent call last):
        ...
        TypeError: other: expected a PMF, got None
        """
        _check("other", isinstance(other, PMF), "a PMF", other)
        _check("op", callable(op), "a function of two outcomes", op)
        if op is operator.add and _ints(self._weights) and _ints(other._weights):
            return PMF._reduced(_int_product(self._weights, other._weights),
                                self._total * other._total, ordered=False)
        out: dict[Outcome, int] = {}
        get = out.get
        items = list(other._weights.items())
        if op is operator.add:  # the common case, without a call per pair
            for a, wa in self._weights.items():
                for b, wb in items:
                    out[a + b] = get(a + b, 0) + wa * wb
        else:
            for a, wa in self._weights.items():
                for b, wb in items:
                    k = op(a, b)
                    out[k] = get(k, 0) + wa * wb
        return PMF._trusted(out)

    def __add__(self, other: PMF | int) -> PMF:
        _check("other", isinstance(other, PMF | int | Fraction), "a PMF or a number", other)
        if isinstance(other, PMF):
            return self.convolve(other)
        return self.map(lambda o: o + other)

    __radd__ = __add__

    def repeat(self, n: int, op: Callable[[Any, Any], Any] = operator.add,
               zero: Outcome = 0) -> PMF:
        """Sum of ``n`` independent copies (``n`` >= 0; zero copies sum to 0).

        >>> PMF.uniform([0, 1]).repeat(3).prob(3)
        Fraction(1, 8)
        """
        if (type(n) is not int or n < 0) and (isinstance(n, bool) or not isinstance(n, int)
                                             or n < 0):
            raise InputError(f"repeat needs a count >= 0, got {n!r}")
        if op is not operator.add:
            _check("op", callable(op), "a function of two outcomes", op)
        if n == 1:
            return self
        if op is operator.add and zero == 0 and n > 1 and _ints(self._weights):
            # integer outcomes: the n-th power of a reduced polynomial is reduced (its
            # weights' gcd is 1) and in order, so the result is made without a gcd or a sort
            weights, total = self._weights, self._total ** n
            if len(weights) == 2:  # a Bernoulli-like law: its binomial row at once
                return PMF._reduced(_binomial_row(weights, n), total)
            if n == 2:  # one product: cheaper than packing a power
                return PMF._reduced(_int_product(weights, weights), total, ordered=False)
            lo, span = min(weights), max(weights) - min(weights)
            if _packed_power_pays(len(weights), span, n):
                width = digit_width(total)  # no coefficient is larger
                power = pack({k - lo: w for k, w in weights.items()} if lo else weights, width,
                             bits=8 * width * (span * n + 1)) ** n
                return PMF._reduced(unpack(power, width, lo * n), total)
        result, base = PMF.point(zero) if n == 0 else None, self
        while n:  # exponentiation by squaring: O(log n) convolutions
            if n & 1:
                result = base if result is None else result.convolve(base, op)
            n >>= 1
            if n:
                base = base.convolve(base, op)
        assert result is not None  # n >= 1: its top bit set it
        return result

    def random_sum(self, n: PMF, op: Callable[[Any, Any], Any] = operator.add,
                   zero: Outcome = 0) -> PMF:
        """Sum of a random number ``N ~ n`` of independent copies of this distribution
        (``zero`` is the sum of no copies).

        >>> d3 = PMF.uniform([1, 2, 3])
        >>> PMF.uniform([1, 2]).random_sum(d3).mean()  # E = E[N] * E[X] = 3/2 * 2
        Fraction(3, 1)
        """
        _check("n", isinstance(n, PMF), "a PMF of counts", n)
        _check("op", callable(op), "a function of two outcomes", op)
        counts = n._weights
        if any(not isinstance(k, int) or k < 0 for k in counts):
            raise InputError("random_sum needs a count distribution over non-negative ints")
        top = max(counts)
        if op is operator.add and zero == 0 and _ints(self._weights) and min(self._weights) >= 0:
            return PMF._in_order(_int_random_sum(self._weights, self._total, counts, n._total))
        parts = [(Fraction(counts[0], n._total), PMF.point(zero))] if 0 in counts else []
        acc_pmf = self
        for k in range(1, top + 1):
            if k > 1:
                acc_pmf = acc_pmf.convolve(self, op)
            if k in counts:
                parts.append((Fraction(counts[k], n._total), acc_pmf))
        return PMF.mix(parts)

    def pgf(self, z: Any = None) -> Any:
        """The probability generating function, a sympy polynomial in ``z``.

        >>> PMF.uniform([0, 1]).pgf()
        z/2 + 1/2
        """
        import sympy

        z = sympy.Symbol("z") if z is None else z
        return sympy.Add(*(sympy.Rational(w, self._total) * z**o for o, w in self._weights.items()))


class _Items(ItemsView[Outcome, Fraction]):
    """``pmf.items()``: the pairs straight from the weights (no lookup per outcome)."""

    __slots__ = ()
    _mapping: PMF  # MappingView's, which typeshed does not declare

    def __iter__(self) -> Iterator[tuple[Outcome, Fraction]]:
        return self._mapping._pairs()

    def __contains__(self, item: object) -> bool:
        return (isinstance(item, tuple) and len(item) == 2 and item[0] in self._mapping
                and self._mapping[item[0]] == item[1])


class _Values(ValuesView[Fraction]):
    """``pmf.values()``: the probabilities straight from the weights."""

    __slots__ = ()
    _mapping: PMF  # MappingView's, which typeshed does not declare

    def __iter__(self) -> Iterator[Fraction]:
        return (p for _, p in self._mapping._pairs())


def _ints(weights: dict) -> bool:
    """Whether every outcome is an int (a bool is not): their types' set, made in C."""
    return {*map(type, weights)} == _INT


_INT = {int}


def _binomial_row(weights: dict[int, int], n: int) -> dict[int, int]:
    """The weights of the sum of ``n`` copies of a law of two integer outcomes ``lo < hi``
    of weights ``a, b``: ``C(n, k) a^(n - k) b^k`` at ``lo n + k (hi - lo)``, each from the
    one before (the division is exact: it is ``C(n, k + 1) (k + 1) a^(n - k) b^(k + 1)``).

    >>> _binomial_row({0: 1, 1: 2}, 3)
    {0: 1, 1: 6, 2: 12, 3: 8}
    """
    (lo, a), (hi, b) = weights.items()
    gap, w = hi - lo, a ** n
    out = {lo * n: w}
    for k in range(n):
        w = w * (n - k) * b // ((k + 1) * a)
        out[lo * n + (k + 1) * gap] = w
    return out


def _packed_power_pays(size: int, span: int, n: int) -> bool:
    """Whether the sum of ``n`` copies of an integer law of ``size`` outcomes over ``span``
    is cheaper as one power of its packed polynomial (a cost of about 3 Python steps per slot
    of the result, ``span * n + 1`` of them, to pack and unpack) than by squaring (at least
    the square of half the result's support, which is at most the number of multisets of
    ``n`` of the outcomes). A law that is dense (1-D) or a 2-D law coded as ``u * base + v``
    packs; a law of a few far-apart outcomes does not.

    >>> _packed_power_pays(6, 5, 20), _packed_power_pays(6, 244, 60), _packed_power_pays(2, 1000, 9)
    (True, True, False)
    """
    if span <= 4 * size + 16:  # dense: it packs (the count of multisets not needed)
        return True
    slots = span * n + 1
    support = min(slots, comb(size + n - 1, n))
    return 12 * slots < support * support


def _int_product(a: dict[int, int], b: dict[int, int]) -> dict[int, int]:
    """The weights of the sum of two independent integer outcomes. Large ones are multiplied
    as polynomials packed into one big integer each (Kronecker substitution)."""
    lo_a, lo_b = min(a), min(b)
    n_a, n_b = max(a) - lo_a + 1, max(b) - lo_b + 1
    if len(a) * len(b) <= max(256, 4 * (n_a + n_b)):
        out: dict[int, int] = {}
        get = out.get
        items = list(b.items())
        for x, wa in a.items():
            for y, wb in items:
                out[x + y] = get(x + y, 0) + wa * wb
        return out
    width = digit_width(sum(a.values()) * sum(b.values()))  # no coefficient is larger
    bits = 8 * width * (n_a + n_b)
    product = pack({x - lo_a: w for x, w in a.items()}, width, bits=bits) * pack(
        {y - lo_b: w for y, w in b.items()}, width, bits=bits)
    return {lo_a + lo_b + i: w for i, w in unpack(product, width).items()}


def _int_random_sum(x: dict[int, int], total: int, counts: dict[int, int],
                    n_total: int) -> dict[int, int]:
    """Weights of the sum of N copies of X (outcomes >= 0), N ~ counts: sum over k of
    P(N = k) X^k over ``total ** max(N)``, computed on packed polynomials."""
    top = max(counts)
    width = digit_width(n_total * total ** top)  # no coefficient is larger
    bits = 8 * width * (top * (max(x) + 1) + 1)
    px = pack(x, width, bits=bits)
    out = big(0, bits=bits)
    for k in range(top, -1, -1):  # Horner: ((c_top X + c_{top-1} T) X + c_{top-2} T^2) ...
        out = out * px + counts.get(k, 0) * total ** (top - k)
    return unpack(out, width)

"""The exact PMF type: hand-derived values."""

from collections.abc import Mapping
from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mathhammer import PMF, dice
from mathhammer.errors import InputError

D6 = PMF.uniform(range(1, 7))


def test_weights_are_reduced_and_equal_pmfs_compare_equal():
    a = PMF({0: 2, 1: 4})
    assert a.weights() == {0: 1, 1: 2} and a.total == 3
    assert a == PMF({1: 10, 0: 5}) and hash(a) == hash(PMF({1: 10, 0: 5}))
    assert a != PMF({0: 1, 1: 1})


def test_a_pmf_is_a_mapping_of_outcomes_to_fractions():
    p = PMF({2: 3, 0: 1})  # weights 1 and 3 over 4, outcomes kept in order
    assert isinstance(p, Mapping)
    assert dict(p) == {0: F(1, 4), 2: F(3, 4)}
    assert list(p) == [0, 2] and list(p.keys()) == [0, 2] and len(p) == 2
    assert list(p.values()) == [F(1, 4), F(3, 4)] and sum(p.values()) == 1
    assert list(p.items()) == [(0, F(1, 4)), (2, F(3, 4))]
    assert p[2] == F(3, 4) and p[1] == 0 and p[-5] == 0  # outside the support: probability 0
    assert 2 in p and 1 not in p and "x" not in p
    assert p.get(2) == F(3, 4) and p.get(1) is None and p.get(1, 0) == 0  # as dict.get
    assert (2, F(3, 4)) in p.items() and (1, 0) not in p.items() and (2, 1) not in p.items()
    assert F(1, 4) in p.values()
    assert p == PMF({0: 2, 2: 6}) and p != {0: F(1, 4), 2: F(3, 4)}  # a PMF equals only a PMF


def test_tuple_outcomes_iterate_as_outcomes_not_pairs():
    # a state PMF's outcomes are 2-tuples: iterating must give them whole (not (outcome, p))
    states = PMF({(5, 0): 1, (4, 1): 3})
    assert list(states) == [(4, 1), (5, 0)]
    assert [s for s, p in states.items() if p > F(1, 2)] == [(4, 1)]


def test_median_quantile_std_of_2d6():
    two = D6 + D6  # P(<= 6) = 15/36 < 1/2 <= P(<= 7) = 21/36
    assert two.median() == 7 and two.quantile(F(1, 2)) == 7
    assert two.quantile(F(15, 36)) == 6 and two.quantile(F(15, 36) + F(1, 10**9)) == 7
    assert two.quantile(0) == 2 and two.quantile(1) == 12 and two.quantile(F(1, 36)) == 2
    assert two.quantile(0.9) == 10  # P(<= 9) = 30/36 < 9/10 <= P(<= 10) = 33/36
    assert two.std() == pytest.approx(35 ** 0.5 / 6 ** 0.5)  # variance 35/6
    assert PMF.uniform([1, 2]).median() == 1  # the lower median, never 1.5
    with pytest.raises(InputError, match="p: expected a probability"):
        two.quantile(F(3, 2))
    with pytest.raises(TypeError, match="p: expected a Fraction or int"):
        two.quantile("half")
    with pytest.raises(TypeError, match="p: expected a Fraction or int"):
        two.quantile(float("nan"))


@given(st.dictionaries(st.integers(-5, 20), st.integers(1, 50), min_size=1, max_size=8),
       st.fractions(0, 1))
def test_quantile_is_the_first_outcome_whose_cdf_reaches_p(weights, p):
    pmf = PMF(weights)
    q = pmf.quantile(p)
    assert pmf.at_most(q) >= p  # reached at q ...
    assert all(pmf.at_most(k) < p for k in pmf if k < q)  # ... and not before
    assert pmf.std() == pytest.approx(float(pmf.variance()) ** 0.5)


def test_two_d6():
    two = D6 + D6
    assert two.prob(7) == F(6, 36) and two.prob(2) == F(1, 36) and two.prob(13) == 0
    assert two.mean() == 7
    assert two.variance() == F(35, 6)  # 2 * 35/12


def test_at_least_at_most_cdf():
    assert D6.at_least(5) == F(2, 6)
    assert D6.at_most(2) == F(2, 6)
    cdf = D6.cdf()
    assert cdf[3] == F(1, 2) and cdf[6] == 1


def test_random_sum_d3_copies_of_d6():
    # N ~ D3 copies of a D6: P(total = 1) = P(N=1) * 1/6 = 1/18
    total = D6.random_sum(PMF.uniform([1, 2, 3]))
    assert total.prob(1) == F(1, 18)
    # P(total = 2) = 1/3 * 1/6 + 1/3 * 1/36 = 7/108
    assert total.prob(2) == F(7, 108)
    assert total.mean() == 2 * F(7, 2)


def test_random_sum_with_zero_count():
    assert D6.random_sum(PMF.uniform([0, 1])).prob(0) == F(1, 2)


def test_mix_map_bind():
    m = PMF.mix([(F(1, 3), PMF.point(0)), (F(2, 3), PMF.point(5))])
    assert m.prob(5) == F(2, 3)
    assert D6.map(lambda r: r % 2).prob(0) == F(1, 2)
    # roll a D3, then that many D6 successes on 4+: P(0) = 1/3 (1/2 + 1/4 + 1/8)
    b = PMF.uniform([1, 2, 3]).bind(lambda n: PMF.binomial(n, F(1, 2)))
    assert b.prob(0) == F(7, 24)


def test_binomial_and_bernoulli():
    assert PMF.binomial(3, F(1, 3)).prob(3) == F(1, 27)
    assert PMF.bernoulli(F(2, 5)).mean() == F(2, 5)


def test_from_probs_requires_exact_total():
    assert PMF.from_probs({0: F(1, 3), 1: F(2, 3)}) == PMF({0: 1, 1: 2})
    with pytest.raises(ValueError, match="sum to exactly 1"):
        PMF.from_probs({0: F(1, 3)})


def test_bad_weights():
    with pytest.raises(ValueError, match="expected an int >= 0"):
        PMF({0: -1})
    with pytest.raises(ValueError, match="at least one outcome"):
        PMF({0: 0})


def test_pgf_is_a_sympy_polynomial():
    import sympy

    z = sympy.Symbol("z")
    g = dice("D3").pgf(z)
    assert sympy.expand(g - (z + z**2 + z**3) / 3) == 0
    assert g.subs(z, 1) == 1
    # the PGF of a sum is the product of the PGFs
    assert sympy.expand((D6 + D6).pgf(z) - D6.pgf(z) ** 2) == 0


def test_tuple_outcomes_with_custom_op():
    pair = PMF.uniform([(1, 0), (0, 1)])
    two = pair.repeat(2, op=lambda a, b: (a[0] + b[0], a[1] + b[1]))
    assert two.prob((1, 1)) == F(1, 2)


def _plain_sum(a: PMF, b: PMF) -> PMF:
    """The sum of two independent laws, pair by pair, reduced by the constructor."""
    weights: dict = {}
    for x, wx in a.weights().items():
        for y, wy in b.weights().items():
            weights[x + y] = weights.get(x + y, 0) + wx * wy
    return PMF(weights)


_LAWS = st.dictionaries(st.integers(-6, 30), st.integers(1, 60), min_size=1, max_size=7)


@given(_LAWS, st.integers(0, 25))
def test_repeat_fast_paths_equal_the_plain_sum(weights, n):
    # the binomial row, the one product and the packed power (each made without a gcd or a
    # sort) against n plain pairwise sums; reduced and in order as the constructor keeps them
    law, plain = PMF(weights), PMF.point(0)
    for _ in range(n):
        plain = _plain_sum(plain, law)
    got = law.repeat(n)
    assert got == plain and got.total == plain.total
    assert list(got.weights()) == sorted(plain.weights()) and hash(got) == hash(plain)


@given(_LAWS, _LAWS)
def test_convolve_without_a_gcd_equals_the_plain_sum(a, b):
    got, plain = PMF(a).convolve(PMF(b)), _plain_sum(PMF(a), PMF(b))
    assert got == plain and got.total == plain.total
    assert list(got.weights()) == sorted(plain.weights())


def test_binomial_row_by_hand():
    from mathhammer.prob.pmf import _binomial_row

    # (2 + 3 z^2)^3 = 8 + 36 z^2 + 54 z^4 + 27 z^6, shifted by 3 * 1
    assert _binomial_row({1: 2, 3: 3}, 3) == {3: 8, 5: 36, 7: 54, 9: 27}
    assert PMF({1: 2, 3: 3}).repeat(3).total == 125


@given(st.dictionaries(st.integers(0, 12), st.integers(1, 60), min_size=1, max_size=6),
       st.dictionaries(st.integers(0, 8), st.integers(1, 60), min_size=1, max_size=5))
def test_random_sum_in_order_equals_the_mixture_of_repeats(x, counts):
    # the packed Horner sum (made in order, reduced, not sorted) against the mixture of the
    # plain sums of k copies, weighted by P(N = k)
    law, n = PMF(x), PMF(counts)
    expected = PMF.mix([(w, law.repeat(k)) for k, w in n.weights().items()])
    got = law.random_sum(n)
    assert got == expected and list(got.weights()) == sorted(got.weights())


def test_feel_no_pain_in_order():
    from mathhammer.mechanics.damage import feel_no_pain

    # D3 damage, FNP 5+: a wound is lost on 1-4 (4/6). P(0 lost) = 1/3 (2/6 + (2/6)^2 +
    # (2/6)^3) = 13/81; P(3 lost) = 1/3 (4/6)^3 = 8/81
    law = feel_no_pain(dice("D3"), 5)
    assert law[0] == F(13, 81) and law[3] == F(8, 81) and sum(law.values()) == 1
    assert list(law.weights()) == [0, 1, 2, 3]


@given(st.dictionaries(st.integers(0, 60), st.integers(0, 2 ** 300), min_size=1),
       st.sampled_from([8, 9, 16, 40, 80]), st.integers(0, 5), st.booleans())
def test_packed_digits_read_back_by_either_path(digits, width, offset, as_int):
    """pack/unpack: GMP packs 16 or more wide digits and cuts those of a number of 2048 bits
    or more, and Python's bytes the rest; both give the digits back exactly, from an mpz or an
    int."""
    from mathhammer.prob import bigint

    digits = {i: d % (1 << (8 * width)) for i, d in digits.items()}
    number = bigint.pack(digits, width)
    assert int(number) == sum(d << (8 * width * i) for i, d in digits.items())
    if as_int:
        number = int(number)
    assert bigint.unpack(number, width, offset) == {i + offset: d for i, d in
                                                    sorted(digits.items()) if d}
    assert type(bigint.pack(digits, width, bits=64)) is int  # small: Python's own integers


def test_wide_digits_by_hand():
    """Twenty digits of 9 bytes (GMP's path): 256**9 is the base, so digit i is i + 1 at
    position i, and the digit 2**71 - 1 fills one slot exactly."""
    from mathhammer.prob import bigint

    digits = {i: i + 1 for i in range(20)} | {20: 2 ** 72 - 1}
    number = bigint.pack(digits, 9)
    assert int(number) == sum((i + 1) * 256 ** (9 * i) for i in range(20)) + (
        2 ** 72 - 1) * 256 ** 180
    assert bigint.unpack(number, 9) == digits
    assert bigint.unpack(number, 9, 3)[23] == 2 ** 72 - 1

"""The exact PMF type: hand-derived values."""

from fractions import Fraction as F

import pytest

from mathhammer import PMF, dice

D6 = PMF.uniform(range(1, 7))


def test_weights_are_reduced_and_equal_pmfs_compare_equal():
    a = PMF({0: 2, 1: 4})
    assert a.weights() == {0: 1, 1: 2} and a.total == 3
    assert a == PMF({1: 10, 0: 5}) and hash(a) == hash(PMF({1: 10, 0: 5}))
    assert a != PMF({0: 1, 1: 1})


def test_iteration_gives_fractions():
    assert dict(PMF({0: 1, 1: 3})) == {0: F(1, 4), 1: F(3, 4)}


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

"""Property tests (hypothesis): the engine's results are consistent and monotone where the rules
make them so, and the PMF algebra obeys its laws.

Only sound properties are asserted. For instance, a better BS can *lower* the expected kills
when failed Hit rolls are re-rolled and Critical Hits matter (Sustained or Lethal Hits): fewer
dice are re-rolled, so fewer Critical Hits come up. Such cases are excluded with ``assume``.
"""

from __future__ import annotations

from fractions import Fraction as F

import attrs
import sympy
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from strategies import option_kwargs, pmfs, targets, weapons

import mathhammer as mh
from mathhammer.model.options import REROLLS

FAST = settings(max_examples=40, deadline=None)
INT_DICE = st.sampled_from([1, 2, 3, "D3", "D6"])


def crit_hits_matter(weapon: mh.Weapon, kwargs: dict) -> bool:
    ab = mh.parse_abilities(tuple(weapon.abilities) + tuple(kwargs.get("abilities", ())))
    return bool(ab.sustained or ab.lethal_hits)


@st.composite
def cases(draw, attacks=INT_DICE, damage=INT_DICE):
    """``(weapon, models carrying it, target, options)``, small enough for a fast engine."""
    weapon = draw(weapons(attacks=attacks, damage=damage))
    return weapon, draw(st.integers(1, 3)), draw(targets()), draw(option_kwargs())


def run(weapon, n, target, kwargs):
    return mh.attack([(weapon, n)], target, **kwargs)


# --- consistency of one result ----------------------------------------------------------------


@FAST
@given(cases())
def test_every_result_pmf_is_a_distribution_and_consistent(case):
    weapon, n, target, kwargs = case
    r = run(weapon, n, target, kwargs)
    pmfs_ = [r.attacks, r.hits, r.wounds, r.unsaved, r.mortal, r.damage, r.kills, r.state]
    for pmf in pmfs_:
        assert sum(pmf.values()) == 1
        assert all(p > 0 for p in pmf.values())
    # kills and damage are functions of the final state
    w = target.wounds
    assert r.kills == r.state.map(lambda s: target.models - s.models)
    assert r.damage == r.state.map(lambda s: (target.models - s.models) * w + s.wounds_lost)
    assert r.destroyed == r.kills.prob(target.models) == r.state.map(lambda s: s.models).prob(0)
    assert all(0 <= s.wounds_lost < w and 0 <= s.models <= target.models for s in r.state)
    # wounds <= hits and unsaved <= wounds in every outcome, so the tails are ordered
    for small, big in ((r.wounds, r.hits), (r.unsaved, r.wounds)):
        for k in range(1, max(big.outcomes()) + 2):
            assert small.at_least(k) <= big.at_least(k)
    ab = mh.parse_abilities(tuple(weapon.abilities) + tuple(kwargs.get("abilities", ())))
    if not ab.sustained:
        assert max(r.hits.outcomes()) <= max(r.attacks.outcomes())
    if not ab.devastating_wounds:
        assert r.mortal == mh.PMF.point(0)


# --- monotone in the attacker's favour -------------------------------------------------------


@FAST
@given(cases(), st.data())
def test_better_skill_never_lowers_expected_kills(case, data):
    weapon, n, target, kwargs = case
    assume(weapon.skill is not None and weapon.skill > 2)
    assume(not (kwargs.get("reroll_hits") == "failed" and crit_hits_matter(weapon, kwargs)))
    better = attrs.evolve(weapon, skill=max(2, weapon.skill - data.draw(st.integers(1, 2))))
    worse_r, better_r = run(weapon, n, target, kwargs), run(better, n, target, kwargs)
    assert better_r.kills.mean() >= worse_r.kills.mean()
    assert better_r.damage.mean() >= worse_r.damage.mean()
    assert better_r.hits.at_least(1) >= worse_r.hits.at_least(1)


def test_better_skill_can_lower_kills_when_failed_rolls_are_rerolled():
    # Why the property above excludes re-rolling failed hits with Lethal Hits: S1 vs T10
    # wounds only on a 6. BS3+: crit 1/6 + 2/6 * 1/6 = 8/36, other hits 24/36, so wounds
    # 8/36 + 24/36 * 1/6 = 72/216. BS2+: crit 1/6 + 1/6 * 1/6 = 7/36, other hits 28/36,
    # wounds 7/36 + 28/36 * 1/6 = 70/216.
    t = mh.Target(models=1, toughness=10, save=7, wounds=1)
    def w(skill):
        return mh.Weapon("w", attacks=1, skill=skill, strength=1, ap=0, damage=1,
                         abilities=["lethal hits"])
    bs3 = mh.attack(w(3), t, reroll_hits="failed").kills.mean()
    bs2 = mh.attack(w(2), t, reroll_hits="failed").kills.mean()
    assert (bs3, bs2) == (F(72, 216), F(70, 216))


@FAST
@given(cases(attacks=st.integers(1, 3)))
def test_more_attacks_never_lower_expected_kills(case):
    weapon, n, target, kwargs = case
    more = attrs.evolve(weapon, attacks=int(weapon.attacks) + 1)
    base = run(weapon, n, target, kwargs)
    for r in (run(more, n, target, kwargs), run(weapon, n + 1, target, kwargs)):
        assert r.kills.mean() >= base.kills.mean()
        assert r.damage.mean() >= base.damage.mean()
        assert r.hits.mean() >= base.hits.mean()


@FAST
@given(cases(), st.integers(1, 2))
def test_more_ap_never_lowers_expected_kills(case, step):
    weapon, n, target, kwargs = case
    assume(weapon.ap - step >= -6)
    better = attrs.evolve(weapon, ap=weapon.ap - step)
    base, r = run(weapon, n, target, kwargs), run(better, n, target, kwargs)
    assert r.kills.mean() >= base.kills.mean()
    assert r.unsaved.mean() >= base.unsaved.mean()
    assert r.damage.mean() >= base.damage.mean()


@FAST
@given(cases(damage=st.integers(1, 3)))
def test_more_damage_never_lowers_expected_kills(case):
    weapon, n, target, kwargs = case
    better = attrs.evolve(weapon, damage=int(weapon.damage) + 1)
    base, r = run(weapon, n, target, kwargs), run(better, n, target, kwargs)
    assert r.kills.mean() >= base.kills.mean()
    assert r.damage.mean() >= base.damage.mean()
    assert r.unsaved == base.unsaved  # damage does not change the dice before it


# --- re-rolls --------------------------------------------------------------------------------

# P(success) and P(critical) of one die, per policy, are ordered: success failed >= noncrit >=
# none and failed >= ones >= none; critical noncrit >= failed >= ones >= none. With the hits of
# one attack being 0, 1 or 1 + X (a critical), these orderings carry to the hits counter.
SUCCESS_ORDER = (("failed", "noncrit"), ("noncrit", None), ("failed", "ones"), ("ones", None))
CRIT_ORDER = (("noncrit", "failed"), ("failed", "ones"), ("ones", None))


@FAST
@given(cases())
def test_hit_rerolls_never_lower_hits(case):
    weapon, n, target, kwargs = case
    res = {p: run(weapon, n, target, {**kwargs, "reroll_hits": p}) for p in REROLLS}
    for better, worse in SUCCESS_ORDER:
        assert res[better].hits.at_least(1) >= res[worse].hits.at_least(1)
    for policy in ("ones", "failed", "noncrit"):
        assert res[policy].hits.mean() >= res[None].hits.mean()
        for k in range(1, 8):
            assert res[policy].hits.at_least(k) >= res[None].hits.at_least(k)


@FAST
@given(st.integers(2, 6), st.integers(5, 6), st.sampled_from([-1, 0, 1]))
def test_fishing_for_criticals_gives_the_most_critical_hits(skill, crit_hit, hit_mod):
    # One attack with Sustained Hits 1: P(2 hits) = P(Critical Hit).
    w = mh.Weapon("w", attacks=1, skill=skill, strength=4, ap=0, damage=1,
                  abilities=["sustained hits 1"])
    t = mh.Target(models=1, toughness=4, save=4, wounds=1)
    crit = {p: mh.attack(w, t, reroll_hits=p, crit_hit=crit_hit, hit_mod=hit_mod).hits.prob(2)
            for p in REROLLS}
    for better, worse in CRIT_ORDER:
        assert crit[better] >= crit[worse]
    c = F(7 - crit_hit, 6)
    assert crit["noncrit"] == c + (1 - c) * c  # every non-critical die is re-rolled


@FAST
@given(cases())
def test_wound_rerolls_and_twin_linked(case):
    weapon, n, target, kwargs = case
    kwargs = {k: v for k, v in kwargs.items() if k != "reroll_wounds"}
    twin = weapon.with_abilities("twin-linked")
    plain = attrs.evolve(weapon, abilities=[a for a in weapon.abilities if a != "twin-linked"])
    res = {p: run(plain, n, target, {**kwargs, "reroll_wounds": p}) for p in REROLLS}
    for better, worse in SUCCESS_ORDER:
        assert res[better].wounds.at_least(1) >= res[worse].wounds.at_least(1)
    for policy in ("ones", "failed", "noncrit"):
        assert res[policy].wounds.mean() >= res[None].wounds.mean()
    # Twin-linked is re-rolling failed Wound rolls; with a broader policy, that one applies.
    assert run(twin, n, target, kwargs).wounds == run(
        plain, n, target, {**kwargs, "reroll_wounds": "failed"}).wounds
    assert run(twin, n, target, {**kwargs, "reroll_wounds": "ones"}).wounds == run(
        plain, n, target, {**kwargs, "reroll_wounds": "failed"}).wounds
    assert run(twin, n, target, {**kwargs, "reroll_wounds": "noncrit"}).wounds == run(
        plain, n, target, {**kwargs, "reroll_wounds": "noncrit"}).wounds


# --- equalities ------------------------------------------------------------------------------


@FAST
@given(cases())
def test_models_with_the_same_weapon_are_one_profile_or_several(case):
    weapon, n, target, kwargs = case
    a = mh.attack([(weapon, n + 1)], target, **kwargs)
    b = mh.attack([(weapon, n), (weapon, 1)], target, **kwargs)
    for name in ("attacks", "hits", "wounds", "unsaved", "mortal", "damage", "kills", "state"):
        assert getattr(a, name) == getattr(b, name)


@FAST
@given(cases(), option_kwargs())
def test_torrent_ignores_everything_about_the_hit_roll(case, other):
    weapon, n, target, kwargs = case
    torrent = weapon.with_abilities("torrent")
    hit_opts = {k: other[k] for k in ("hit_mod", "skill_mod", "reroll_hits", "overwatch",
                                      "crit_hit", "stationary") if k in other}
    a = run(torrent, n, target, kwargs).hits
    assert a == run(torrent, n, target, {**kwargs, **hit_opts}).hits
    assert a == run(attrs.evolve(torrent, skill=None), n, target, kwargs).hits
    assert a == run(torrent, n, target, kwargs).attacks


# --- PMF algebra -----------------------------------------------------------------------------

NONNEG = st.integers(0, 6)


@settings(max_examples=60, deadline=None)
@given(pmfs(), pmfs())
def test_convolution_commutes_and_adds_means_and_variances(a, b):
    assert a + b == b + a
    assert (a + b).mean() == a.mean() + b.mean()
    assert (a + b).variance() == a.variance() + b.variance()
    assert a + 0 == a and (a + 3).mean() == a.mean() + 3


@settings(max_examples=60, deadline=None)
@given(pmfs(), pmfs(), pmfs())
def test_convolution_associates(a, b, c):
    assert (a + b) + c == a + (b + c)


@settings(max_examples=60, deadline=None)
@given(pmfs(), pmfs(NONNEG, max_size=4))
def test_random_sum_mean_is_product_of_means(x, n):
    s = x.random_sum(n)
    assert s.mean() == n.mean() * x.mean()
    # Var = E[N] Var[X] + Var[N] E[X]^2
    assert s.variance() == n.mean() * x.variance() + n.variance() * x.mean() ** 2
    assert x.random_sum(mh.PMF.point(3)) == x.repeat(3) == x + x + x


@settings(max_examples=60, deadline=None)
@given(pmfs(), pmfs(), st.integers(1, 5), st.integers(1, 5))
def test_mix_is_the_weighted_average(a, b, wa, wb):
    m = mh.PMF.mix([(wa, a), (wb, b)])
    for k in set(a.outcomes()) | set(b.outcomes()):
        assert m.prob(k) == (wa * a.prob(k) + wb * b.prob(k)) / (wa + wb)
    assert m.mean() == (wa * a.mean() + wb * b.mean()) / (wa + wb)
    assert mh.PMF.mix([(wa, a), (wb, a)]) == a


@settings(max_examples=60, deadline=None)
@given(pmfs())
def test_map_bind_cdf(a):
    assert a.map(lambda x: x) == a
    parity = a.map(lambda x: x % 2)
    assert parity.prob(1) == sum(p for x, p in a.items() if x % 2)
    assert a.bind(mh.PMF.point) == a
    assert a.bind(lambda x: mh.PMF.uniform([x, x])) == a
    cdf = list(a.cdf().values())
    assert cdf[-1] == 1 and cdf == sorted(cdf)
    assert all(a.at_most(k) + a.at_least(k + 1) == 1 for k in range(-4, 10))


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.integers(-3, 8), st.integers(1, 6), min_size=1, max_size=5),
       st.integers(2, 7))
def test_equal_pmfs_have_equal_hashes(weights, k):
    a, b = mh.PMF(weights), mh.PMF({o: w * k for o, w in weights.items()})
    assert a == b and hash(a) == hash(b)
    assert dict(a) == dict(b)
    if len(weights) > 1:
        o = next(iter(weights))
        c = mh.PMF({**weights, o: weights[o] + 7})
        assert c != a


@settings(max_examples=40, deadline=None)
@given(pmfs(NONNEG))
def test_pgf_at_one_is_one_and_its_derivative_the_mean(a):
    z = sympy.Symbol("z")
    g = a.pgf(z)
    assert g.subs(z, 1) == 1
    assert sympy.diff(g, z).subs(z, 1) == sympy.Rational(a.mean().numerator,
                                                         a.mean().denominator)
    assert a.pgf(sympy.Integer(1)) == 1

"""The engine against an independent general exact dice engine (icepool), exactly.

The 61 everyday queries of ``tests/benchmark_dice.py`` (attacks, hits, wounds, unsaved wounds,
mortal wounds, damage and models destroyed, P(destroyed)) are written a second time in
icepool's own idiom from the rules (RULES.md), and each answer must equal mathhammer's as
Fractions. Skipped without icepool (``pip install "mathhammer[test]"``).
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

icepool = pytest.importorskip("icepool")

from benchmark_dice import (  # noqa: E402
    Spec,
    as_dict,
    d6_test,
    ice_query,
    mh_query,
    queries,
    save_fails,
    wound_need,
)

QUERIES = queries()


@pytest.mark.parametrize(("spec", "kind"), [(s, k) for _label, s, k in QUERIES],
                         ids=[label for label, _s, _k in QUERIES])
def test_engine_equals_icepool(spec, kind):
    mine, theirs = as_dict(mh_query(spec, kind)), as_dict(ice_query(spec, kind))
    assert mine == theirs


def test_the_queries_are_61_and_not_trivial():
    assert len(QUERIES) == 61
    kinds = {k for _l, _s, k in QUERIES}
    assert kinds == {"attacks", "hits", "wounds", "unsaved", "unsaved mean", "mortal", "damage",
                     "kills", "destroyed"}
    # every distribution asked has at least two outcomes (a point would compare trivially)
    for _label, spec, kind in QUERIES:
        got = as_dict(mh_query(spec, kind))
        assert not isinstance(got, dict) or len(got) > 1


def test_the_icepool_side_by_hand():
    # a BS3+ hit re-rolling 1s: 4/6 + 1/6 * 4/6 = 28/36 succeed, of which 6s are 1/6 + 1/36
    hit = d6_test(3, reroll="ones")
    assert hit.probability(1) + hit.probability(2) == F(28, 36)
    assert hit.probability(2) == F(7, 36)
    # S vs T: double 2+, greater 3+, equal 4+, lesser 5+, half 6+
    assert [wound_need(s, 4) for s in (8, 5, 4, 3, 2)] == [2, 3, 4, 5, 6]
    # Sv3+ against AP-1 fails on 1-3; Sv2+ 4++ against AP-4 takes the invuln: fails on 1-3
    base = dict(name="x", attacks=1, models=1, skill=3, strength=4, damage=1, t_models=1,
                toughness=4, wounds=1)
    assert save_fails(Spec(ap=-1, save=3, **base)) == 3
    assert save_fails(Spec(ap=-4, save=2, invuln=4, **base)) == 3
    # 10x2 bolt rifles (BS3+, S4 vs T4, AP-1 vs Sv3+): 20 * 2/3 * 1/2 * 1/2 = 10/3 unsaved
    bolt = next(s for _l, s, k in QUERIES if k == "unsaved mean")
    assert ice_query(bolt, "unsaved mean") == F(10, 3) == mh_query(bolt, "unsaved mean")

"""Mortal wounds, Reanimation Protocols, Deadly Demise, Hazardous, Crushing Impact."""

from fractions import Fraction as F

from hypothesis import given
from hypothesis import strategies as st

import mathhammer as mh
from mathhammer import PMF, Squad, Target, TargetState, Weapon
from mathhammer.mechanics.effects import (
    crushing_impact,
    deadly_demise,
    hazardous,
    mortal_wounds,
    reanimate,
)

WARRIORS = Target(models=10, toughness=4, save=4, wounds=1, abilities=["reanimation protocols"])


def at(models, lost=0):
    return PMF.point(TargetState(models, lost))


def test_reanimation_of_w1_models_gives_back_d3_but_at_most_the_losses():
    # lost 2 models: D3 = 1 returns one (1/3); 2 or 3 return both (2/3), never above 10
    r = reanimate(WARRIORS, at(8))
    assert dict(r.map(lambda s: s.models)) == {9: F(1, 3), 10: F(2, 3)}


def test_reanimation_heals_first_then_returns_a_model_with_one_wound():
    t = Target(models=2, toughness=5, save=3, wounds=3)
    assert reanimate(t, at(1, 1), 1) == at(1, 0)
    assert reanimate(t, at(1, 1), 2) == at(2, 2)  # healed, then a model back with 1 wound
    assert reanimate(t, at(1, 1), 3) == at(2, 1)  # ... which the third wound heals


def test_destroyed_or_full_units_do_not_reanimate():
    assert reanimate(WARRIORS, at(0)) == at(0)
    assert reanimate(WARRIORS, at(10)) == at(10)


@given(st.integers(0, 10), st.sampled_from(["1", "D3", "D6"]))
def test_reanimation_never_lowers_models_left(models, wounds):
    after = reanimate(WARRIORS, at(models), wounds)
    assert min(s.models for s in after.outcomes()) >= models
    assert max(s.models for s in after.outcomes()) <= 10
    assert sum(after.values()) == 1


def test_mortal_wounds_spill_over_with_feel_no_pain_each():
    t = Target(models=2, toughness=4, save=3, wounds=2)
    assert mortal_wounds(t, None, 3) == at(1, 1)
    fnp = Target(models=2, toughness=4, save=3, wounds=2, fnp=5)
    # each of 3 mortal wounds is lost with 2/3: wounds lost ~ Binomial(3, 2/3)
    lost = mortal_wounds(fnp, None, 3).map(lambda s: 4 - (2 * s.models - s.wounds_lost))
    assert lost == PMF.binomial(3, F(2, 3))


def test_named_mortal_wound_roll_as_a_step():
    # Disintegration Beams: D6, 2-4 -> 1, 5+ -> 2: mean 3/6 * 1 + 2/6 * 2 = 7/6 kills of W1
    beams = mh.find_rule("Disintegration Beams").mortal_wounds.pmf()
    geq = Target(models=10, toughness=3, save=5, wounds=1)
    assert mortal_wounds(geq, None, beams).map(lambda s: 10 - s.models).mean() == F(7, 6)


def test_mortal_wounds_on_a_squad_go_to_the_bodyguard_first():
    guard = Target(models=2, toughness=4, save=3, wounds=2)
    boss = Target(models=1, toughness=4, save=3, wounds=3, keywords=["CHARACTER"])
    after = mortal_wounds(Squad((guard, boss)), None, 5)
    assert after == PMF.point((TargetState(0, 0), TargetState(1, 1)))


def test_deadly_demise():
    # two models destroyed, Deadly Demise 1: at least one 6 in two dice
    dd = deadly_demise(PMF.point(2), 1)
    assert dd.at_least(1) == 1 - F(5, 6) ** 2
    cronos = Target(models=2, toughness=7, save=3, wounds=7, abilities=["deadly demise D3"])
    melta = Weapon("Melta", attacks=4, skill=3, strength=9, ap=-4, damage="D6+2")
    r = mh.attack(melta, cronos)
    assert r.deadly_demise == deadly_demise(r.kills, "D3")
    assert mh.attack(melta, WARRIORS).deadly_demise is None


def test_hazardous_10e_and_11e():
    marines = Target(models=5, toughness=4, save=3, wounds=2)
    ten = hazardous(2, marines)
    assert ten.failed == PMF.binomial(2, F(1, 6)) and ten.mortal.mean() == 2 * F(1, 6) * 3
    assert ten.kills.prob(2) == F(1, 36)  # each failure: 3 mortal wounds, a W2 model, excess lost
    eleven = hazardous(2, marines, rules="11e")
    # 11e: fails on 1-2, 1 mortal wound: a W2 model dies only if both fail (same model)
    assert eleven.kills == PMF({0: 8, 1: 1})
    tank = Target(models=1, toughness=10, save=3, wounds=12, keywords=["VEHICLE"])
    assert hazardous(1, tank, rules="11e").mortal.mean() == F(2, 6) * 3


def test_attack_reports_hazard_for_the_attacking_unit():
    plasma = Weapon("Plasma", attacks=2, skill=3, strength=8, ap=-3, damage=2,
                    abilities=["hazardous"])
    marines = Target(models=5, toughness=4, save=3, wounds=2)
    r = mh.attack((plasma, 3), Target(5, 4, 3, 2), attacker=marines)
    assert r.hazard.tests == 3 and r.hazard.failed.mean() == F(1, 2)
    assert r.hazard.kills == hazardous(3, marines).kills
    assert mh.attack(plasma.with_abilities(), Target(5, 4, 3, 2)).hazard.kills is None


def test_crushing_impact():
    ci = crushing_impact(7)
    to_enemy = ci.map(lambda t: t[0])
    assert to_enemy.prob(7) == 0 and to_enemy.prob(6) == 7 * F(1, 3) ** 6 * F(2, 3) + F(1, 3) ** 7
    assert ci.map(lambda t: t[1]).mean() == F(7, 6)


def test_spilling_devastating_wounds_with_feel_no_pain_on_a_destroyed_unit():
    # One W1 model, FNP 4+, two Devastating Wounds of D3 mortal wounds each that spill over:
    # it survives one with E[(1/2)^D3] = (1/2 + 1/4 + 1/8) / 3 = 7/24, both with 49/576. The
    # chain of a spilling packet once promised a total its destroyed states did not keep
    # (49/219 here before the fix).
    from mathhammer.mechanics.effects import devastating_wounds

    lone = Target(models=1, toughness=4, save=3, wounds=1, fnp=4)
    after = devastating_wounds(lone, None, PMF.uniform([1, 2, 3]), 2, excess_lost=False)
    assert after.prob(TargetState(1, 0)) == F(49, 576)
    # and mortal wounds from a mixed start: destroyed stays destroyed, the living model as above
    start = PMF({TargetState(0, 0): 1, TargetState(1, 0): 1})
    got = mortal_wounds(lone, start, "D3")
    assert got.prob(TargetState(1, 0)) == F(1, 2) * F(7, 24)

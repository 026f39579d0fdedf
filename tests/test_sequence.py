"""Sequences of steps and turns against one target."""

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mathhammer as mh
from mathhammer import PMF, Target, TargetState, Weapon
from mathhammer.engine.sequence import Attack, MortalWounds, Reanimate, sequence, turns
from mathhammer.mechanics.effects import reanimate

AUTO = Weapon("Auto", attacks=1, skill=None, strength=8, ap=0, damage=1)  # wounds T4 on 2+
WARRIORS = Target(models=20, toughness=4, save=4, wounds=1, abilities=["reanimation protocols"])
BOLT = Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)


def test_two_turns_against_a_lone_model():
    # no save: each turn destroys it with 5/6; after two turns 1 - (1/6)^2
    lone = Target(models=1, toughness=4, save=7, wounds=1)
    t = turns(AUTO, lone, 2)
    assert t.destroyed == [F(5, 6), 1 - F(1, 36)]
    assert [s.label for s in t.steps] == ["attack 1", "attack 2"]


def test_turns_match_the_steps_composed_by_hand():
    t = turns((BOLT, 10), WARRIORS, 3)
    assert [s.label for s in t.steps] == ["attack 1", "reanimate", "attack 2", "reanimate",
                                          "attack 3"]
    state = mh.attack((BOLT, 10), WARRIORS).state
    state = reanimate(WARRIORS, state)
    state = mh.attack((BOLT, 10), WARRIORS, state=state).state
    assert t.states[3] == state


def test_reanimation_can_be_switched_off():
    with_rp = turns((BOLT, 10), WARRIORS, 2)
    without = turns((BOLT, 10), WARRIORS, 2, reanimation=False)
    assert len(without.steps) == 2
    # reanimation never lowers the models left
    assert with_rp.models_left.mean() > without.models_left.mean()
    assert with_rp.destroyed[-1] <= without.destroyed[-1]


def test_mortal_wound_steps_by_dice_or_by_rule():
    geq = Target(models=10, toughness=3, save=5, wounds=1)
    by_dice = sequence(geq, [MortalWounds("D3")])
    assert by_dice.kills.mean() == 2
    by_rule = sequence(geq, [MortalWounds("Disintegration Beams")])
    assert by_rule.kills.mean() == F(7, 6)
    with pytest.raises(ValueError, match="is not a mortal-wound roll"):
        sequence(geq, [MortalWounds("Enslaved Artifice")])


def test_sequence_starts_from_a_given_state():
    t = sequence(WARRIORS, [Reanimate("1")], state=PMF.point(TargetState(5, 0)))
    assert t.final == PMF.point(TargetState(6, 0))
    assert t.kills == PMF.point(14)


@settings(max_examples=25, deadline=None)
@given(attacks=st.integers(1, 4), models=st.integers(1, 8), skill=st.integers(2, 6),
       n=st.integers(1, 3), rp=st.booleans())
def test_more_steps_never_lower_p_destroyed(attacks, models, skill, n, rp):
    gun = Weapon("g", attacks=attacks, skill=skill, strength=5, ap=-1, damage=1)
    target = Target(models=5, toughness=4, save=4, wounds=1,
                    abilities=["reanimation protocols"] if rp else [])
    d = turns((gun, models), target, n).destroyed
    assert all(a <= b for a, b in zip(d, d[1:], strict=False))
    assert all(sum(s.values()) == 1 for s in turns((gun, models), target, n).states)


def test_bad_turns():
    with pytest.raises(ValueError, match="turns: expected an integer >= 1, got 0"):
        turns(AUTO, WARRIORS, 0)


def test_attack_step_carries_options():
    step = Attack.make((BOLT, 10), half_range=True, apply=["Enslaved Artifice"])
    direct = mh.attack((BOLT, 10), WARRIORS, half_range=True, apply=["Enslaved Artifice"])
    assert step(WARRIORS, PMF.point(TargetState(20, 0))) == direct.state

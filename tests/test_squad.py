"""Target units of several model groups: mixed units, Leader + Bodyguard, Precision."""

from fractions import Fraction as F

import pytest

import mathhammer as mh
from mathhammer import PMF, Squad, Target, Weapon
from mathhammer.model.state import TargetState

AUTO = Weapon("Auto", attacks=1, skill=None, strength=8, ap=0, damage=1)  # wounds T4 on 2+


def guard(models=1, save=7, wounds=1, **kw):
    return Target(models=models, toughness=4, save=save, wounds=wounds, name="Guard", **kw)


def leader(save=7, wounds=1, toughness=4, **kw):
    return Target(models=1, toughness=toughness, save=save, wounds=wounds,
                  keywords=["CHARACTER"], name="Leader", **kw)


WEAPONS = [
    Weapon("a", attacks="D6", skill=3, strength=5, ap=-1, damage="D3",
           abilities=["sustained hits 1", "devastating wounds"]),
    Weapon("b", attacks=3, skill=3, strength=4, ap=0, damage=2, abilities=["lethal hits"]),
    Weapon("c", attacks=2, skill=4, strength=6, ap=-2, damage="D6+1", abilities=["twin-linked"]),
]


@pytest.mark.parametrize("weapon", WEAPONS, ids=lambda w: w.name)
def test_one_group_squad_matches_the_uniform_engine(weapon):
    # two independent implementations of allocation must agree on every final state
    target = Target(models=4, toughness=4, save=3, wounds=2, fnp=5)
    uniform = mh.attack((weapon, 3), target, crit_wound_ap=1)
    squad = mh.attack((weapon, 3), Squad((target,)), crit_wound_ap=1)
    assert squad.state.map(lambda s: s[0]) == uniform.state
    assert squad.kills == uniform.kills and squad.damage == uniform.damage
    assert squad.hits == uniform.hits and squad.mortal == uniform.mortal


def test_two_identical_groups_behave_as_one():
    w = Weapon("b", attacks=3, skill=3, strength=4, ap=-1, damage="D3",
               abilities=["sustained hits 1"])
    whole = mh.attack((w, 3), Target(5, 4, 3, 2, fnp=5))
    split = mh.attack((w, 3), Squad((Target(2, 4, 3, 2, fnp=5), Target(3, 4, 3, 2, fnp=5))))
    assert split.kills == whole.kills and split.damage == whole.damage


def test_leader_only_after_the_bodyguard():
    # two attacks can destroy at most the two Bodyguard models
    r = mh.attack((AUTO, 2), Squad((guard(models=2), leader())))
    assert r.character_destroyed == 0
    assert r.group_kills[0].mean() == 2 * F(5, 6)
    # a third attack reaches the Leader only if all three wound: (5/6)^3
    r = mh.attack((AUTO, 3), Squad((guard(models=2), leader())))
    assert r.character_destroyed == F(5, 6) ** 3 == r.destroyed


def test_save_depends_on_the_model_hit():
    # wound 1 goes to the Guard (no save), wound 2 to the Leader (2+ save fails on a 1)
    r = mh.attack((AUTO, 2), Squad((guard(), leader(save=2))))
    assert r.character_destroyed == F(5, 6) ** 2 * F(1, 6)
    # the unsaved counter counts every wound as if rolled against the group the first wound
    # goes to (the Guard, no save): both wounds, each on 5/6
    assert dict(r.unsaved) == {0: F(1, 36), 1: F(10, 36), 2: F(25, 36)}


def test_precision_goes_for_the_character_while_it_stands():
    sniper = AUTO.with_abilities("precision")
    squad = Squad((guard(models=3), leader()))
    assert mh.attack(sniper, squad).character_destroyed == F(5, 6)
    assert mh.attack(sniper, squad, precision=False).character_destroyed == 0
    # once the Leader is gone, Precision wounds go to the Bodyguard
    r = mh.attack((sniper, 2), squad)
    assert r.group_kills[0].mean() == F(5, 6) * F(5, 6)


def test_wounded_model_takes_the_next_attack():
    # Guard models of W2: two D1 wounds finish one model rather than hurting two
    r = mh.attack((AUTO, 2), Squad((guard(models=2, wounds=2), leader())))
    assert r.group_kills[0].prob(1) == F(25, 36)


def test_attached_unit_uses_the_bodyguard_toughness():
    s4 = Weapon("s4", attacks=1, skill=None, strength=4, ap=0, damage=1)
    attached = Squad((guard(), leader(toughness=8)))
    assert mh.attack(s4, attached).wounds.mean() == F(1, 2)  # T4: 4+
    mixed = Squad((guard(), Target(1, 8, 7, 1, name="Ogryn")))  # no CHARACTER: highest T
    assert mh.attack(s4, mixed).wounds.mean() == F(1, 6)  # 2 * 4 <= 8: 6+


def test_feel_no_pain_of_the_group_hit():
    # Guard has no FNP, Leader FNP 4+: with two D1 wounds the Leader survives half the time
    r = mh.attack((AUTO, 2), Squad((guard(), leader(fnp=4))))
    assert r.character_destroyed == F(25, 36) * F(1, 2)


def test_devastating_wounds_against_a_squad_come_last_and_spill_nothing():
    # crit_wound=2: every wound is a Critical Wound; a devastating D3 kills at most one model
    dev = Weapon("dev", attacks=1, skill=None, strength=8, ap=0, damage="D3",
                 abilities=["devastating wounds"])
    r = mh.attack((dev, 2), Squad((guard(models=2), leader())), crit_wound=2)
    assert r.character_destroyed == 0 and r.unsaved == PMF.point(0)
    assert r.mortal.mean() == 2 * F(5, 6) * 2


def test_states_carry_between_calls():
    squad = Squad((guard(models=2, wounds=2), leader(wounds=3)))
    w = Weapon("w", attacks=2, skill=3, strength=5, ap=-1, damage="D3")
    both = mh.attack([(w, 2), (AUTO, 2)], squad)
    then = mh.attack((AUTO, 2), squad, state=mh.attack((w, 2), squad).state)
    assert both.state == then.state


def test_bad_squad_state_and_groups():
    squad = Squad((guard(), leader()))
    with pytest.raises(ValueError, match="is not a state of this target"):
        mh.attack(AUTO, squad, state=PMF.point((TargetState(3, 0), TargetState(1, 0))))
    with pytest.raises(ValueError, match="groups: expected one or more Target"):
        Squad(())
    with pytest.raises(ValueError, match="no CHARACTER model group"):
        _ = mh.attack(AUTO, Squad((guard(),))).character_destroyed

"""Attached units, Precision, Reanimation and Hazardous as the rules say: each example worked
out by hand (docs/rules.md says which choice was made where the rules leave one)."""

from fractions import Fraction as F
from math import comb

import pytest

import mathhammer as mh
from mathhammer import PMF, Squad, Target, Weapon
from mathhammer import TargetState as TS


def leader(models=1, toughness=4, save=7, wounds=3, **kw):
    return Target(models, toughness, save, wounds, keywords=["CHARACTER"], name="Leader", **kw)


def auto(strength=8, damage=1, abilities=()):
    return Weapon("Auto", attacks=1, skill=None, strength=strength, ap=0, damage=damage,
                  abilities=list(abilities))


def test_precision_devastating_wounds_reach_the_character():
    # S8 vs T4 wounds on 2+, and every wound is critical (crit_wound=2): 5/6 of the time the
    # attack inflicts 3 mortal wounds, which Precision allocates to the W3 CHARACTER.
    weapon = auto(damage=3, abilities=["precision", "devastating wounds"])
    squad = Squad((Target(1, 4, 7, 1), leader(wounds=3)))
    for rules in ("10e", "11e"):
        r = mh.attack(weapon, squad, crit_wound=2, rules=rules)
        assert r.character_destroyed == F(5, 6)
    # without Precision they go to the Bodyguard model (one model per Devastating Wound)
    plain = mh.attack(auto(damage=3, abilities=["devastating wounds"]), squad, crit_wound=2)
    assert plain.character_destroyed == 0 and plain.group_kills[0].mean() == F(5, 6)


def test_toughness_follows_the_groups_still_alive():
    # Bodyguard 1x T8 (destroyed) + Leader 1x T4 W5: the Leader is a unit of its own, so S4
    # wounds T4 on 4+: E[wounds] = 1/2 (against T8 it would be 6+, 1/6).
    squad = Squad((Target(1, 8, 7, 1), leader(toughness=4, wounds=5)))
    bodyguard_gone = PMF.point((TS(0, 0), TS(1, 0)))
    for rules in ("10e", "11e"):
        r = mh.attack(auto(strength=4), squad, state=bodyguard_gone, rules=rules)
        assert r.wounds.mean() == F(1, 2)
    assert mh.attack(auto(strength=4), squad).wounds.mean() == F(1, 6)  # Bodyguard alive: T8


def test_11e_highest_toughness_among_bodyguard_models_on_the_battlefield():
    # Bodyguard T6 (destroyed) then T3, Leader T4: 10e uses the first Bodyguard group still
    # there (T3), 11e the highest Bodyguard T still there (T3 too); unharmed, 10e T6, 11e T6.
    squad = Squad((Target(1, 6, 7, 1), Target(2, 3, 7, 1), leader(toughness=4)))
    first_gone = PMF.point((TS(0, 0), TS(2, 0), TS(1, 0)))
    s4 = auto(strength=4)
    # S4 vs T3: 3+ (2/3); S4 vs T6: 5+ (1/3)
    assert mh.attack(s4, squad, state=first_gone, rules="11e").wounds.mean() == F(2, 3)
    assert mh.attack(s4, squad, state=first_gone).wounds.mean() == F(2, 3)
    assert mh.attack(s4, squad, rules="11e").wounds.mean() == F(1, 3)
    # 11e: the highest of the two Bodyguard groups (T6 over T3) while both stand
    assert mh.attack(s4, Squad((Target(1, 3, 7, 1), Target(1, 6, 7, 1), leader())),
                     rules="11e").wounds.mean() == F(1, 3)
    assert mh.attack(s4, Squad((Target(1, 3, 7, 1), Target(1, 6, 7, 1), leader())),
                     ).wounds.mean() == F(2, 3)  # 10e: the first Bodyguard group's T3


REANIMATING = ["reanimation protocols"]


def test_a_destroyed_leader_does_not_reanimate():
    # Bodyguard 2x W1 and Leader 1x W3; from (1 Bodyguard, Leader destroyed) 2 reanimated
    # wounds bring one Bodyguard model back, then nothing more: the Leader stays destroyed.
    squad = Squad((Target(2, 4, 7, 1, abilities=REANIMATING), leader(abilities=REANIMATING)))
    after = mh.reanimate(squad, PMF.point((TS(1, 0), TS(0, 0))), 2)
    assert dict(after) == {(TS(2, 0), TS(0, 0)): 1}


def test_a_destroyed_bodyguard_does_not_reanimate():
    # From (Bodyguard destroyed, Leader W3 with 1 wound lost): the Leader heals its wound and
    # no Bodyguard model returns.
    squad = Squad((Target(2, 4, 7, 1, abilities=REANIMATING), leader(abilities=REANIMATING)))
    after = mh.reanimate(squad, PMF.point((TS(0, 0), TS(1, 1))), 2)
    assert dict(after) == {(TS(0, 0), TS(1, 0)): 1}


def test_a_destroyed_unit_does_not_reanimate():
    squad = Squad((Target(2, 4, 7, 1, abilities=REANIMATING), leader(abilities=REANIMATING)))
    dead = PMF.point((TS(0, 0), TS(0, 0)))
    assert mh.reanimate(squad, dead, 3) == dead


@pytest.mark.parametrize("keywords, per", [
    (["CHARACTER"], 1), (["CHARACTER", "PSYKER"], 1), (["INFANTRY"], 1),
    (["VEHICLE"], 3), (["MONSTER", "CHARACTER"], 3),
])
def test_11e_hazardous_mortal_wounds(keywords, per):
    # 11e: a hazard roll fails on 1-2 (1/3); 1 mortal wound, 3 for a MONSTER or VEHICLE
    h = mh.hazardous(1, Target(1, 4, 3, 4, keywords=keywords), "11e")
    assert dict(h.mortal) == {0: F(2, 3), per: F(1, 3)}


def test_wounds_are_allocated_in_attack_order():
    # 2 attacks, WS3+, [lethal hits], Critical Hit on 5+, Critical Wound improves AP by 3, S4 vs
    # T4, into 1x Sv2+ then 1x Sv6+ (W1 each). One attack: a wound with AP 0 ("N") on
    # 1/3 + 1/3 * 1/3 = 4/9 (Lethal Hits, or a 4-5 to wound), a Critical Wound with AP -3
    # ("C") on 1/3 * 1/6 = 1/18, else nothing.
    # The Sv2+ model dies of one attack on 4/9 * 1/6 + 1/18 * 4/6 = 1/9, so on 1 - (8/9)^2 =
    # 17/81 over two; the Sv6+ model only if the first attack killed the first model and the
    # second gets through: 1/9 * (4/9 * 5/6 + 1/18 * 1) = 23/486.
    weapon = Weapon("Blade", attacks=1, skill=3, strength=4, ap=0, damage=1,
                    abilities=["lethal hits"], range="melee")
    squad = Squad((Target(1, 4, 2, 1), Target(1, 4, 6, 1)))
    r = mh.attack((weapon, 2), squad, crit_hit=5, crit_wound_ap=3)
    assert r.kills.mean() == F(17, 81) + F(23, 486) == F(1, 4) + F(7, 972)


def test_counters_count_every_attack_as_if_rolled():
    # 10 automatic S8 hits into 3x W1 Sv7: 10 * 5/6 = 25/3 unsaved, whatever the unit's shape
    weapon = auto()
    shapes = [Target(3, 4, 7, 1), Squad((Target(3, 4, 7, 1),)),
              Squad((Target(1, 4, 7, 1), Target(2, 4, 7, 1)))]
    for target in shapes:
        r = mh.attack((weapon, 10), target)
        assert r.unsaved.mean() == F(25, 3) == r.wounds.mean()
        assert r.kills.mean() == 3 - _shortfall()


def _shortfall() -> F:
    # E[kills] = E[min(wounds, 3)] = 3 - sum over k < 3 of (3 - k) * P(wounds = k)
    p, q = F(5, 6), F(1, 6)
    return sum((3 - k) * comb(10, k) * p ** k * q ** (10 - k) for k in range(3))
